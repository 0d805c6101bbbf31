/* Event traces: round trip of every field across several chunks, a cut at
 * every byte offset of a small trace and around every chunk boundary of a
 * large one (all events of complete chunks first, then LP_ETRUNC), a
 * flipped bit in every byte, hostile fields and writer rules. */
#include "trace_test_util.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A plausible stream: branches and blocks near each other, calls and
 * returns, loads and stores with sizes, a second thread, and now and then
 * an extreme value so every delta wraps somewhere. */
static void make_events(lp_event *ev, int n)
{
    uint64_t pc = 0x401000, icount = 0, sp = 0x7ffffffde000, addr = 0x602000;
    for (int i = 0; i < n; i++) {
        lp_event *e = &ev[i];
        memset(e, 0, sizeof *e);
        e->kind = (uint8_t)(1 + next_rand() % 6);
        e->tid = (i / 700) % 3 == 2 ? 2 : 1;
        icount += 1 + next_rand() % 30;
        pc += next_rand() % 200 - 90;
        e->pc = pc;
        e->icount = icount;
        switch (e->kind) {
        case LP_EV_BRANCH:
            e->a = pc + next_rand() % 500 - 250;
            e->b = next_rand() % 40;
            e->flags = (uint8_t)(next_rand() % 8);
            break;
        case LP_EV_CALL:
            e->a = 0x401000 + next_rand() % 0x10000;
            sp -= 16 * (next_rand() % 4);
            e->b = sp;
            e->flags = next_rand() % 5 == 0 ? LP_EVF_TAIL : 0;
            break;
        case LP_EV_RETURN:
            e->a = pc + 5;
            e->b = 1;
            break;
        case LP_EV_BLOCK: e->a = next_rand() % 20; break;
        case LP_EV_LOAD:
            addr += next_rand() % 64;
            e->a = addr;
            e->b = next_rand();
            e->size = (uint16_t)(1u << (next_rand() % 4));
            break;
        case LP_EV_STORE:
            e->a = addr - next_rand() % 128;
            e->size = 8;
            break;
        }
        if (i % 997 == 500) {
            e->pc = UINT64_MAX - (uint64_t)i;
            e->a = 0;
            e->b = UINT64_MAX;
            e->tid = UINT32_MAX;
            e->flags = 0xff;
            e->size = e->kind >= LP_EV_LOAD ? UINT16_MAX : 0;
            e->icount = icount;
        }
    }
}

static lp_membuf write_trace(const lp_event *ev, int n)
{
    lp_membuf m = {0};
    lp_meta meta = {0};
    LP_CHECK(lp_meta_set(&meta, "program", "/bin/true") == 0);
    lp_evtrace_writer *w;
    LP_CHECK(lp_evtrace_writer_create(lp_membuf_sink(&m), &meta, &w) == 0);
    for (int i = 0; i < n; i++)
        LP_CHECK(lp_evtrace_writer_add(w, &ev[i]) == 0);
    lp_module_map mods = {0};
    LP_CHECK(lp_module_map_add(&mods, "/bin/true", 0x400000, 0x8000, 0, NULL, 0) == 0);
    LP_CHECK(lp_evtrace_writer_finish(w, &mods) == 0);
    lp_evtrace_writer_free(w);
    lp_module_map_fini(&mods);
    lp_meta_fini(&meta);
    return m;
}

/* Reads everything; returns the final code and the number of events that
 * matched expect in order. */
static int read_trace(const uint8_t *d, size_t n, const lp_event *expect, int *out_count,
                      lp_read_error *err)
{
    lp_memsource ms;
    lp_evtrace_reader *r = NULL;
    *out_count = 0;
    int rc = lp_evtrace_reader_open(lp_memsource_init(&ms, d, n), &r, err);
    if (rc)
        return rc;
    lp_event e;
    while ((rc = lp_evtrace_reader_next(r, &e, err)) == 1) {
        if (expect && memcmp(&e, &expect[*out_count], sizeof e) != 0) {
            fprintf(stderr, "event %d differs\n", *out_count);
            lp_test_failures++;
        }
        (*out_count)++;
    }
    if (rc == 0) {
        LP_CHECK(strcmp(lp_meta_get(lp_evtrace_reader_meta(r), "program"), "/bin/true") == 0);
        LP_CHECK_EQ_U64(lp_evtrace_reader_modules(r)->count, 1);
        LP_CHECK(lp_evtrace_reader_next(r, &e, err) == 0);
    } else {
        LP_CHECK(lp_evtrace_reader_next(r, &e, NULL) == rc);
    }
    lp_evtrace_reader_free(r);
    return rc;
}

static void test_round_trip_and_streaming(void)
{
    enum { N = 4096 * 2 + 1000 };
    static lp_event ev[N];
    make_events(ev, N);
    lp_membuf f = write_trace(ev, N);
    int count;
    lp_read_error err;
    LP_CHECK(read_trace(f.data, f.size, ev, &count, &err) == 0);
    LP_CHECK_EQ_U64(count, N);
    printf("events: %d in %zu bytes (%.2f bytes/event)\n", N, f.size, (double)f.size / N);
    LP_CHECK(f.size < (size_t)N * 16);

    walk_chunk ch[16];
    int nc = walk(f.data, f.size, ch, 16);
    LP_CHECK_EQ_U64(nc, 6); /* meta, three events chunks, modules, end */
    /* Around every chunk boundary: complete chunks' events, then LP_ETRUNC. */
    for (int k = 0; k < nc; k++) {
        int complete = 0;
        for (int j = 0; j <= k; j++)
            complete += ch[j].type == CH_EVENTS ? (j < 3 ? 4096 : 1000) : 0;
        size_t cuts[] = {ch[k].end - 1, ch[k].end, ch[k].end + 1, ch[k].offset + 9};
        for (int c = 0; c < 4; c++) {
            if (cuts[c] >= f.size)
                continue;
            int expect = cuts[c] >= ch[k].end
                             ? complete
                             : complete - (ch[k].type == CH_EVENTS ? (k < 3 ? 4096 : 1000) : 0);
            LP_CHECK(read_trace(f.data, cuts[c], ev, &count, &err) == LP_ETRUNC);
            LP_CHECK_EQ_U64(count, expect);
        }
    }
    lp_membuf_free(&f);

    /* An empty trace is valid. */
    f = write_trace(NULL, 0);
    LP_CHECK(read_trace(f.data, f.size, NULL, &count, &err) == 0);
    LP_CHECK_EQ_U64(count, 0);
    lp_membuf_free(&f);
}

static void test_every_truncation_and_flip(void)
{
    enum { N = 40 };
    lp_event ev[N];
    make_events(ev, N);
    ev[7].pc = UINT64_MAX;
    lp_membuf f = write_trace(ev, N);
    walk_chunk ch[8];
    int nc = walk(f.data, f.size, ch, 8);
    LP_CHECK_EQ_U64(nc, 4);
    int bad = 0;
    for (size_t len = 0; len < f.size; len++) {
        int complete = nc == 4 && len >= ch[1].end ? N : 0, count;
        lp_read_error err;
        int rc = read_trace(f.data, len, ev, &count, &err);
        if ((rc != LP_ETRUNC || count != complete) && bad++ < 5)
            fprintf(stderr, "cut at %zu: rc %d, %d events (%s: %s)\n", len, rc, count, err.field,
                    err.detail);
    }
    LP_CHECK_EQ_U64(bad, 0);
    for (size_t i = 0; i < f.size; i++) {
        const walk_chunk *c = NULL;
        for (int k = 0; k < nc; k++)
            if (i >= ch[k].offset && i < ch[k].end)
                c = &ch[k];
        for (int bit = 0; bit < 8; bit++) {
            f.data[i] ^= (uint8_t)(1u << bit);
            int count;
            lp_read_error err;
            memset(&err, 0, sizeof err);
            int rc = read_trace(f.data, f.size, NULL, &count, &err);
            f.data[i] ^= (uint8_t)(1u << bit);
            int ok;
            if (!c)
                ok = rc == LP_EFORMAT || rc == LP_EVERSION;
            else if (i < c->offset + 8)
                ok = rc < 0;
            else
                ok = rc == LP_ECHECKSUM && err.offset == c->crc_offset;
            if (!ok && bad++ < 5)
                fprintf(stderr, "flip byte %zu bit %d: rc %d (%s: %s)\n", i, bit, rc, err.field,
                        err.detail);
        }
    }
    LP_CHECK_EQ_U64(bad, 0);
    lp_membuf_free(&f);
}

static void test_writer_rules(void)
{
    lp_membuf m = {0};
    lp_evtrace_writer *w;
    LP_CHECK(lp_evtrace_writer_create(lp_membuf_sink(&m), NULL, NULL) == LP_EINVAL);
    lp_sink none = {NULL, NULL};
    LP_CHECK(lp_evtrace_writer_create(none, NULL, &w) == LP_EINVAL);
    LP_CHECK(lp_evtrace_writer_create(lp_membuf_sink(&m), NULL, &w) == 0);
    lp_event e = {0};
    LP_CHECK(lp_evtrace_writer_add(w, &e) == LP_EINVAL); /* kind 0 */
    e.kind = 7;
    LP_CHECK(lp_evtrace_writer_add(w, &e) == LP_EINVAL);
    e.kind = LP_EV_BLOCK;
    LP_CHECK(lp_evtrace_writer_add(w, &e) == 0);
    LP_CHECK(lp_evtrace_writer_finish(w, NULL) == 0);
    LP_CHECK(lp_evtrace_writer_add(w, &e) == LP_EINVAL);
    lp_evtrace_writer_free(w);
    lp_evtrace_writer_free(NULL);
    lp_membuf_free(&m);

    failing_sink fs = {0, 5000};
    lp_sink s = {failing_write, &fs};
    LP_CHECK(lp_evtrace_writer_create(s, NULL, &w) == 0);
    int rc = 0;
    for (int i = 0; i < 10000 && !rc; i++)
        rc = lp_evtrace_writer_add(w, &e);
    LP_CHECK(rc == LP_EIO);
    LP_CHECK(lp_evtrace_writer_add(w, &e) == LP_EIO);
    LP_CHECK(lp_evtrace_writer_finish(w, NULL) == LP_EIO);
    lp_evtrace_writer_free(w);
}

static void test_hostile(void)
{
    bytes meta = {0}, evb = {0}, mods = {0}, end = {0};
    b_varint(&meta, 0);
    b_varint(&mods, 0);
    struct {
        uint64_t count, tag;
        int want;
        const char *field;
    } cases[] = {
        {1ull << 32, 1, LP_ELIMIT, "chunk[1].count"},
        {50, 1, LP_EFORMAT, "chunk[1].count"},        /* 50 events cannot fit */
        {1, 0, LP_EFORMAT, "event[0].tag"},           /* kind 0 */
        {1, 7, LP_EFORMAT, "event[0].tag"},           /* kind 7 */
        {1, 0x2001, LP_EFORMAT, "event[0].tag"},      /* unknown tag bit */
        {1, 1 | 0x800, LP_EFORMAT, "event[0].tid"},   /* "changed" to the same thread */
        {1, 5 | 0x1000, LP_EFORMAT, "event[0].size"}, /* size present but zero */
        {0, 1, LP_EFORMAT, "chunk[1].count"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bytes f = {0};
        b_header(&f, LP_FILE_EVENTS, 1);
        b_chunk(&f, CH_META, &meta);
        evb.n = 0;
        b_varint(&evb, cases[i].count);
        b_varint(&evb, cases[i].tag);
        if (cases[i].tag & 0x800)
            b_varint(&evb, 1);
        if (cases[i].tag & 0x1000)
            b_varint(&evb, 0);
        for (int k = 0; k < 4; k++)
            b_varint(&evb, 0);
        b_chunk(&f, CH_EVENTS, &evb);
        b_chunk(&f, CH_MODULES, &mods);
        end.n = 0;
        b_varint(&end, 1);
        b_chunk(&f, CH_END, &end);
        int count;
        lp_read_error err;
        track_start();
        int rc = read_trace(f.d, f.n, NULL, &count, &err);
        track_stop();
        LP_CHECK(track_largest < 100000);
        LP_CHECK_EQ_U64(track_live, 0);
        if (rc != cases[i].want || strcmp(err.field, cases[i].field) != 0) {
            fprintf(stderr, "case %zu: rc %d, %s (%s)\n", i, rc, err.field, err.detail);
            lp_test_failures++;
        }
        b_free(&f);
    }
    /* An events chunk after the module map is out of place. */
    bytes f = {0};
    b_header(&f, LP_FILE_EVENTS, 1);
    b_chunk(&f, CH_META, &meta);
    b_chunk(&f, CH_MODULES, &mods);
    evb.n = 0;
    b_varint(&evb, 1);
    for (int k = 0; k < 5; k++)
        b_varint(&evb, k == 0 ? 1 : 0);
    size_t at = f.n;
    b_chunk(&f, CH_EVENTS, &evb);
    int count;
    lp_read_error err;
    LP_CHECK(read_trace(f.d, f.n, NULL, &count, &err) == LP_EFORMAT);
    LP_CHECK_EQ_U64(err.offset, at);
    LP_CHECK(strcmp(err.field, "chunk[2].type") == 0);
    b_free(&f);
    b_free(&meta);
    b_free(&evb);
    b_free(&mods);
    b_free(&end);
}

typedef struct alloc_case {
    const uint8_t *file;
    size_t size;
} alloc_case;

static int read_under_test(void *arg)
{
    alloc_case *c = arg;
    lp_memsource ms;
    lp_evtrace_reader *r;
    int rc = lp_evtrace_reader_open(lp_memsource_init(&ms, c->file, c->size), &r, NULL);
    if (rc)
        return rc;
    lp_event e;
    while ((rc = lp_evtrace_reader_next(r, &e, NULL)) == 1)
        ;
    lp_evtrace_reader_free(r);
    return rc;
}

static int write_under_test(void *arg)
{
    const lp_event *ev = arg;
    lp_membuf m = {0};
    lp_evtrace_writer *w = NULL;
    lp_module_map mods = {0};
    int rc = lp_module_map_add(&mods, "/x", 0, 1, 0, NULL, 0);
    if (!rc)
        rc = lp_evtrace_writer_create(lp_membuf_sink(&m), NULL, &w);
    for (int i = 0; !rc && i < 5000; i++)
        rc = lp_evtrace_writer_add(w, &ev[i % 40]);
    if (!rc)
        rc = lp_evtrace_writer_finish(w, &mods);
    lp_evtrace_writer_free(w);
    lp_module_map_fini(&mods);
    lp_membuf_free(&m);
    return rc;
}

/* Every allocation the reader and the writer make may fail. */
static void test_allocation_failures(void)
{
    lp_event ev[40];
    make_events(ev, 40);
    lp_membuf f = write_trace(ev, 40);
    alloc_case c = {f.data, f.size};
    LP_CHECK(each_alloc_failure(read_under_test, &c) > 3);
    LP_CHECK(each_alloc_failure(write_under_test, ev) > 3);
    lp_membuf_free(&f);
}

int main(void)
{
    test_round_trip_and_streaming();
    test_every_truncation_and_flip();
    test_writer_rules();
    test_hostile();
    test_allocation_failures();
    return lp_test_done();
}
