/* Interval matrices: round trip of every field, streaming (each interval is
 * on the sink when add returns), a cut at every byte offset (all complete
 * intervals first, then LP_ETRUNC), a flipped bit in every byte, intervals
 * split over part chunks, and the size of a long run's matrix. */
#include <time.h>

#include "trace_test_util.h"

#define TYPES                                                                                      \
    ((1u << LP_PROF_EDGE) | (1u << LP_PROF_BLOCK) | (1u << LP_PROF_CODE_REGION) |                  \
     (1u << LP_PROF_CALL_PAIR) | (1u << LP_PROF_VALUE))

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Interval k of a synthetic run: a program whose hot code drifts with its
 * phase, so most keys recur and some are new. per_type entries a type. */
static void make_interval(lp_interval *iv, uint64_t k, int per_type)
{
    lp_interval_clear(iv);
    iv->index = k;
    iv->first_insn = k * 10000000 + (k ? 17 : 0);
    iv->insns = 10000000 + k % 5;
    for (int b = 0; b < LP_SIG_BUCKETS; b++)
        iv->sig.bucket[b] = (k % 3 == 0 && b % 4 == 0) ? 0 : next_rand() % 400000;
    uint64_t phase_base = 0x401000 + (k / 50) * 0x800;
    for (unsigned t = 1; t <= LP_PROF_TYPE_MAX; t++) {
        if (!(TYPES & (1u << t)))
            continue;
        for (int i = 0; i < per_type; i++) {
            uint64_t pc = phase_base + (next_rand() % (uint64_t)(per_type * 3)) * 4;
            lp_key key = {pc, 0};
            if (t == LP_PROF_EDGE)
                key.b = pc + 2 + next_rand() % 64 - (next_rand() % 2) * 80;
            else if (t == LP_PROF_CALL_PAIR)
                key.b = 0x401000 + (pc % 97) * 0x40;
            else if (t == LP_PROF_VALUE)
                key.b = next_rand() % 16;
            lp_entry *e = lp_table_upsert(&iv->tables[t], key);
            e->v[0] += 1 + next_rand() % 2000;
            if (t != LP_PROF_EDGE)
                e->v[1] = t == LP_PROF_VALUE ? 8 : e->v[0] * (3 + pc % 5);
        }
    }
}

static void make_meta(lp_meta *m)
{
    memset(m, 0, sizeof *m);
    LP_CHECK(lp_meta_set(m, "program", "/usr/bin/gzip") == 0);
    LP_CHECK(lp_meta_set(m, "args", "-9 input.bin") == 0);
}

static int same_interval(const lp_interval *a, const lp_interval *b)
{
    if (a->index != b->index || a->first_insn != b->first_insn || a->insns != b->insns)
        return 0;
    if (memcmp(&a->sig, &b->sig, sizeof a->sig) != 0)
        return 0;
    for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++) {
        if (a->tables[t].count != b->tables[t].count)
            return 0;
        size_t cur = 0;
        const lp_entry *e;
        while ((e = lp_table_next(&a->tables[t], &cur)) != NULL) {
            const lp_entry *f = lp_table_find(&b->tables[t], e->key);
            if (!f || f->v[0] != e->v[0] || f->v[1] != e->v[1])
                return 0;
        }
    }
    return 1;
}

/* Writes n intervals; their copies go in ivs (caller frees) if not NULL. */
static lp_membuf write_matrix(int n, int per_type, lp_interval *ivs, size_t *after_add)
{
    lp_membuf m = {0};
    lp_meta meta;
    make_meta(&meta);
    lp_imatrix_writer *w = NULL;
    LP_CHECK(lp_imatrix_writer_create(lp_membuf_sink(&m), &meta, 10000000, TYPES, &w) == 0);
    lp_interval iv;
    lp_interval_init(&iv);
    for (int k = 0; k < n; k++) {
        make_interval(&iv, (uint64_t)k * 2, per_type); /* indices need only increase */
        LP_CHECK(lp_imatrix_writer_add(w, &iv) == 0);
        if (after_add)
            after_add[k] = m.size;
        if (ivs) {
            lp_interval_init(&ivs[k]);
            ivs[k].index = iv.index;
            ivs[k].first_insn = iv.first_insn;
            ivs[k].insns = iv.insns;
            ivs[k].sig = iv.sig;
            for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
                lp_table_merge(&ivs[k].tables[t], &iv.tables[t]);
        }
    }
    lp_module_map mods = {0};
    LP_CHECK(lp_module_map_add(&mods, "/usr/bin/gzip", 0x400000, 0x30000, 0, NULL, 0) == 0);
    LP_CHECK(lp_imatrix_writer_finish(w, &mods) == 0);
    lp_imatrix_writer_free(w);
    lp_interval_fini(&iv);
    lp_module_map_fini(&mods);
    lp_meta_fini(&meta);
    return m;
}

/* Reads a matrix; returns the final code and how many intervals came. */
static int read_matrix(const uint8_t *d, size_t n, const lp_interval *expect, int *out_count,
                       lp_read_error *err)
{
    lp_memsource ms;
    lp_imatrix_reader *r = NULL;
    *out_count = 0;
    int rc = lp_imatrix_reader_open(lp_memsource_init(&ms, d, n), &r, err);
    if (rc)
        return rc;
    lp_interval iv;
    lp_interval_init(&iv);
    while ((rc = lp_imatrix_reader_next(r, &iv, err)) == 1) {
        if (expect && !same_interval(&iv, &expect[*out_count]))
            fprintf(stderr, "interval %d differs\n", *out_count), lp_test_failures++;
        (*out_count)++;
    }
    if (rc == 0) {
        const lp_module_map *mm = lp_imatrix_reader_modules(r);
        LP_CHECK(mm->count == 1 && strcmp(mm->items[0].path, "/usr/bin/gzip") == 0);
        /* After the end every call says so again. */
        LP_CHECK(lp_imatrix_reader_next(r, &iv, err) == 0);
    } else {
        lp_read_error again;
        LP_CHECK(lp_imatrix_reader_next(r, &iv, &again) == rc);
    }
    lp_interval_fini(&iv);
    lp_imatrix_reader_free(r);
    return rc;
}

static void test_round_trip(void)
{
    enum { N = 12 };
    lp_interval ivs[N];
    size_t after[N];
    lp_membuf f = write_matrix(N, 40, ivs, after);
    lp_memsource ms;
    lp_imatrix_reader *r = NULL;
    lp_read_error err;
    LP_CHECK(lp_imatrix_reader_open(lp_memsource_init(&ms, f.data, f.size), &r, &err) == 0);
    LP_CHECK_EQ_U64(lp_imatrix_reader_interval_length(r), 10000000);
    LP_CHECK_EQ_U64(lp_imatrix_reader_types(r), TYPES);
    LP_CHECK(strcmp(lp_meta_get(lp_imatrix_reader_meta(r), "args"), "-9 input.bin") == 0);
    lp_imatrix_reader_free(r);
    int count;
    LP_CHECK(read_matrix(f.data, f.size, ivs, &count, &err) == 0);
    LP_CHECK_EQ_U64(count, N);

    /* Streaming: what the sink held after add k reads back as k+1 intervals. */
    for (int k = 0; k < N; k++) {
        LP_CHECK(read_matrix(f.data, after[k], ivs, &count, &err) == LP_ETRUNC);
        LP_CHECK_EQ_U64(count, k + 1);
    }

    /* Layout: meta, matrix, then dictionaries before the interval using them. */
    walk_chunk ch[128];
    int nc = walk(f.data, f.size, ch, 128);
    LP_CHECK(nc > 4);
    if (nc > 4) {
        LP_CHECK_EQ_U64(ch[0].type, CH_META);
        LP_CHECK_EQ_U64(ch[1].type, CH_MATRIX);
        LP_CHECK_EQ_U64(ch[2].type, CH_DICT);
        LP_CHECK_EQ_U64(ch[nc - 2].type, CH_MODULES);
        LP_CHECK_EQ_U64(ch[nc - 1].type, CH_END);
    }
    for (int k = 0; k < N; k++)
        lp_interval_fini(&ivs[k]);
    lp_membuf_free(&f);
}

static void test_every_truncation(void)
{
    enum { N = 4 };
    lp_interval ivs[N];
    lp_membuf f = write_matrix(N, 3, ivs, NULL);
    walk_chunk ch[64];
    int nc = walk(f.data, f.size, ch, 64);
    LP_CHECK(nc > 0);
    int bad = 0;
    for (size_t len = 0; len < f.size; len++) {
        int complete = 0;
        for (int k = 0; k < nc; k++)
            complete += ch[k].type == CH_INTERVAL && ch[k].end <= len;
        int count;
        lp_read_error err;
        int rc = read_matrix(f.data, len, ivs, &count, &err);
        if ((rc != LP_ETRUNC || count != complete) && bad++ < 5)
            fprintf(stderr, "cut at %zu: rc %d after %d of %d (%s: %s)\n", len, rc, count, complete,
                    err.field, err.detail);
    }
    LP_CHECK_EQ_U64(bad, 0);
    for (int k = 0; k < N; k++)
        lp_interval_fini(&ivs[k]);
    lp_membuf_free(&f);
}

static void test_every_bit_flip(void)
{
    enum { N = 3 };
    lp_interval ivs[N];
    lp_membuf f = write_matrix(N, 2, ivs, NULL);
    walk_chunk ch[64];
    int nc = walk(f.data, f.size, ch, 64);
    int bad = 0;
    for (size_t i = 0; i < f.size; i++) {
        const walk_chunk *c = NULL;
        int before = 0;
        for (int k = 0; k < nc; k++) {
            if (i >= ch[k].offset && i < ch[k].end)
                c = &ch[k];
            before += ch[k].type == CH_INTERVAL && ch[k].end <= i;
        }
        for (int bit = 0; bit < 8; bit++) {
            f.data[i] ^= (uint8_t)(1u << bit);
            int count;
            lp_read_error err;
            memset(&err, 0, sizeof err);
            int rc = read_matrix(f.data, f.size, ivs, &count, &err);
            f.data[i] ^= (uint8_t)(1u << bit);
            int ok;
            if (!c)
                ok = rc == LP_EFORMAT || rc == LP_EVERSION;
            else if (i < c->offset + 8)
                ok = rc < 0 && count <= before;
            else
                ok = rc == LP_ECHECKSUM && err.offset == c->crc_offset && count == before;
            if (!ok && bad++ < 5)
                fprintf(stderr, "flip byte %zu bit %d: rc %d, %d intervals (%s: %s)\n", i, bit, rc,
                        count, err.field, err.detail);
        }
    }
    LP_CHECK_EQ_U64(bad, 0);
    for (int k = 0; k < N; k++)
        lp_interval_fini(&ivs[k]);
    lp_membuf_free(&f);
}

/* An interval over 2^20 entries spans an interval chunk and a part. */
static void test_parts(void)
{
    lp_membuf m = {0};
    lp_imatrix_writer *w;
    uint32_t types = (1u << LP_PROF_VALUE) | (1u << LP_PROF_EDGE);
    LP_CHECK(lp_imatrix_writer_create(lp_membuf_sink(&m), NULL, 1000, types, &w) == 0);
    lp_interval a, b;
    lp_interval_init(&a);
    lp_interval_init(&b);
    a.index = 5;
    a.insns = 1000;
    for (uint64_t i = 0; i < (1u << 20) + 99; i++)
        lp_table_upsert(&a.tables[LP_PROF_VALUE], (lp_key){i / 7, next_rand()})->v[0] = i;
    for (uint64_t i = 0; i < 100; i++)
        lp_table_upsert(&a.tables[LP_PROF_EDGE], (lp_key){i, i + 1})->v[1] = i;
    LP_CHECK(lp_imatrix_writer_add(w, &a) == 0);
    b.index = 6;
    lp_table_upsert(&b.tables[LP_PROF_EDGE], (lp_key){1, 2})->v[0] = 1;
    LP_CHECK(lp_imatrix_writer_add(w, &b) == 0);
    LP_CHECK(lp_imatrix_writer_finish(w, NULL) == 0);
    lp_imatrix_writer_free(w);

    walk_chunk ch[32];
    int nc = walk(m.data, m.size, ch, 32);
    int parts = 0;
    for (int k = 0; k < nc; k++)
        parts += ch[k].type == CH_INTERVAL_PART;
    LP_CHECK_EQ_U64(parts, 1);

    lp_memsource ms;
    lp_imatrix_reader *r;
    lp_read_error err;
    LP_CHECK(lp_imatrix_reader_open(lp_memsource_init(&ms, m.data, m.size), &r, &err) == 0);
    lp_interval got;
    lp_interval_init(&got);
    LP_CHECK(lp_imatrix_reader_next(r, &got, &err) == 1);
    LP_CHECK(same_interval(&a, &got));
    LP_CHECK(lp_imatrix_reader_next(r, &got, &err) == 1);
    LP_CHECK(same_interval(&b, &got));
    LP_CHECK(lp_imatrix_reader_next(r, &got, &err) == 0);
    LP_CHECK_EQ_U64(lp_imatrix_reader_modules(r)->count, 0);
    lp_imatrix_reader_free(r);
    lp_interval_fini(&a);
    lp_interval_fini(&b);
    lp_interval_fini(&got);
    lp_membuf_free(&m);
}

static void test_writer_rules(void)
{
    lp_membuf m = {0};
    lp_imatrix_writer *w = (lp_imatrix_writer *)&m;
    LP_CHECK(lp_imatrix_writer_create(lp_membuf_sink(&m), NULL, 0, 0, &w) == LP_EINVAL);
    LP_CHECK(w == NULL);
    LP_CHECK(lp_imatrix_writer_create(lp_membuf_sink(&m), NULL, 10, 1u, &w) == LP_EINVAL);
    LP_CHECK(lp_imatrix_writer_create(lp_membuf_sink(&m), NULL, 10, 1u << (LP_PROF_TYPE_MAX + 1), &w) == LP_EINVAL);
    LP_CHECK(lp_imatrix_writer_create(lp_membuf_sink(&m), NULL, 10, 1u << LP_PROF_EDGE, &w) == 0);
    lp_interval iv;
    lp_interval_init(&iv);
    iv.index = 3;
    lp_table_upsert(&iv.tables[LP_PROF_BLOCK], (lp_key){1, 0});
    LP_CHECK(lp_imatrix_writer_add(w, &iv) == LP_EINVAL); /* block is not in the mask */
    lp_interval_clear(&iv);
    iv.index = 3;
    LP_CHECK(lp_imatrix_writer_add(w, &iv) == 0);
    LP_CHECK(lp_imatrix_writer_add(w, &iv) == LP_EINVAL); /* index must increase */
    iv.index = 4;
    LP_CHECK(lp_imatrix_writer_add(w, &iv) == 0);
    LP_CHECK(lp_imatrix_writer_finish(w, NULL) == 0);
    LP_CHECK(lp_imatrix_writer_add(w, &iv) == LP_EINVAL);
    LP_CHECK(lp_imatrix_writer_finish(w, NULL) == LP_EINVAL);
    lp_imatrix_writer_free(w);
    lp_imatrix_writer_free(NULL);

    /* A failing sink: the error sticks. */
    failing_sink fs = {0, 200};
    lp_sink s = {failing_write, &fs};
    LP_CHECK(lp_imatrix_writer_create(s, NULL, 10, 1u << LP_PROF_EDGE, &w) == 0);
    for (int i = 0; i < 50; i++)
        lp_table_upsert(&iv.tables[LP_PROF_EDGE], (lp_key){(uint64_t)i, 1});
    iv.index = 1;
    LP_CHECK(lp_imatrix_writer_add(w, &iv) == LP_EIO);
    iv.index = 2;
    LP_CHECK(lp_imatrix_writer_add(w, &iv) == LP_EIO);
    LP_CHECK(lp_imatrix_writer_finish(w, NULL) == LP_EIO);
    lp_imatrix_writer_free(w);
    lp_interval_fini(&iv);
    lp_membuf_free(&m);
}

/* Hand-made files: a dictionary that repeats a key, an index past the
 * dictionary, an end chunk whose totals disagree, a huge dictionary count. */
static void test_hostile(void)
{
    bytes meta = {0}, mat = {0}, dict = {0}, ivb = {0}, mods = {0}, end = {0};
    b_varint(&meta, 0);
    b_varint(&mat, 1000);
    b_varint(&mat, 1u << LP_PROF_EDGE);
    b_varint(&mods, 0);
    for (int v = 0; v < 4; v++) {
        bytes f = {0};
        b_header(&f, LP_FILE_IMATRIX, 1);
        b_chunk(&f, CH_META, &meta);
        b_chunk(&f, CH_MATRIX, &mat);
        dict.n = 0;
        b_varint(&dict, LP_PROF_EDGE);
        b_varint(&dict, 0); /* first index */
        b_varint(&dict, 0); /* plain keys */
        b_varint(&dict, v == 3 ? (1ull << 30) : 1);
        b_varint(&dict, 7);
        b_varint(&dict, 8);
        b_chunk(&f, CH_DICT, &dict);
        if (v == 0) { /* the same key again at index 1 */
            dict.n = 0;
            b_varint(&dict, LP_PROF_EDGE);
            b_varint(&dict, 1);
            b_varint(&dict, 0);
            b_varint(&dict, 1);
            b_varint(&dict, 7);
            b_varint(&dict, 8);
            b_chunk(&f, CH_DICT, &dict);
        }
        ivb.n = 0;
        b_varint(&ivb, 0); /* index */
        b_varint(&ivb, 0); /* first_insn */
        b_varint(&ivb, 1000);
        for (int k = 0; k < LP_SIG_BUCKETS; k++)
            b_varint(&ivb, 0);
        b_varint(&ivb, 0);              /* parts */
        b_varint(&ivb, v == 0 ? 2 : 1); /* edge entries */
        b_varint(&ivb, 1);              /* flags: no v1 */
        b_varint(&ivb, v == 1 ? 1 : 0); /* index (1 is past a 1-key dictionary) */
        b_varint(&ivb, 5);
        if (v == 0) {
            b_varint(&ivb, 0); /* index 1: the duplicate key */
            b_varint(&ivb, 6);
        }
        b_chunk(&f, CH_INTERVAL, &ivb);
        b_chunk(&f, CH_MODULES, &mods);
        end.n = 0;
        b_varint(&end, 1);
        b_varint(&end, 999); /* wrong instruction total */
        b_chunk(&f, CH_END, &end);
        int count;
        lp_read_error err;
        track_start();
        lp_memsource ms;
        lp_imatrix_reader *r = NULL;
        int rc = lp_imatrix_reader_open(lp_memsource_init(&ms, f.d, f.n), &r, &err);
        lp_interval iv;
        lp_interval_init(&iv);
        count = 0;
        if (!rc)
            while ((rc = lp_imatrix_reader_next(r, &iv, &err)) == 1)
                count++;
        lp_interval_fini(&iv);
        lp_imatrix_reader_free(r);
        track_stop();
        LP_CHECK_EQ_U64(track_live, 0);
        LP_CHECK(track_largest < 100000);
        const char *want[] = {"interval[0].edge[1].index", "interval[0].edge[0].index", "end.insns",
                              "dictionary.count"};
        LP_CHECK(rc == (v == 3 ? LP_ELIMIT : LP_EFORMAT));
        if (strcmp(err.field, want[v]) != 0) {
            fprintf(stderr, "case %d: field %s (%s)\n", v, err.field, err.detail);
            lp_test_failures++;
        }
        LP_CHECK_EQ_U64(count, v == 2 ? 1 : 0);
        b_free(&f);
    }
    b_free(&meta);
    b_free(&mat);
    b_free(&dict);
    b_free(&ivb);
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
    lp_imatrix_reader *r;
    int rc = lp_imatrix_reader_open(lp_memsource_init(&ms, c->file, c->size), &r, NULL);
    if (rc)
        return rc;
    lp_interval iv;
    lp_interval_init(&iv);
    while ((rc = lp_imatrix_reader_next(r, &iv, NULL)) == 1)
        ;
    lp_interval_fini(&iv);
    lp_imatrix_reader_free(r);
    return rc;
}

static int write_under_test(void *arg)
{
    (void)arg;
    lp_membuf m = {0};
    lp_meta meta;
    memset(&meta, 0, sizeof meta);
    lp_imatrix_writer *w = NULL;
    lp_interval iv;
    lp_interval_init(&iv);
    int rc = lp_meta_set(&meta, "k", "v");
    if (!rc)
        rc = lp_imatrix_writer_create(lp_membuf_sink(&m), &meta, 100, TYPES, &w);
    for (uint64_t k = 0; !rc && k < 3; k++) {
        lp_interval_clear(&iv);
        iv.index = k;
        for (uint64_t i = 0; !rc && i < 30; i++) {
            lp_entry *e = lp_table_upsert(&iv.tables[LP_PROF_EDGE], (lp_key){i + k * 10, 1});
            if (!e)
                rc = LP_ENOMEM;
        }
        if (!rc)
            rc = lp_imatrix_writer_add(w, &iv);
    }
    if (!rc)
        rc = lp_imatrix_writer_finish(w, NULL);
    lp_imatrix_writer_free(w);
    lp_interval_fini(&iv);
    lp_meta_fini(&meta);
    lp_membuf_free(&m);
    return rc;
}

/* Every allocation the reader and the writer make may fail. */
static void test_allocation_failures(void)
{
    lp_membuf f = write_matrix(5, 10, NULL, NULL);
    alloc_case c = {f.data, f.size};
    LP_CHECK(each_alloc_failure(read_under_test, &c) > 10);
    LP_CHECK(each_alloc_failure(write_under_test, NULL) > 10);
    lp_membuf_free(&f);
}

/* The scale of a long run, at a tenth of it: 100 intervals of 10,000
 * entries. The full run (1000 intervals) is ten times this. */
static void test_size(void)
{
    lp_membuf m = {0};
    lp_imatrix_writer *w;
    LP_CHECK(lp_imatrix_writer_create(lp_membuf_sink(&m), NULL, 10000000, TYPES, &w) == 0);
    lp_interval iv;
    lp_interval_init(&iv);
    uint64_t entries = 0;
    clock_t t0 = clock();
    for (int k = 0; k < 100; k++) {
        make_interval(&iv, (uint64_t)k, 2600); /* ~2000 distinct per type after collisions */
        for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
            entries += iv.tables[t].count;
        LP_CHECK(lp_imatrix_writer_add(w, &iv) == 0);
    }
    LP_CHECK(lp_imatrix_writer_finish(w, NULL) == 0);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    printf("interval matrix: %llu entries in 100 intervals, %zu bytes (%.2f bytes/entry), "
           "%.2f s\n",
           (unsigned long long)entries, m.size, (double)m.size / (double)entries, secs);
    LP_CHECK(entries > 900000);
    LP_CHECK((double)m.size / (double)entries < 6.0);
    lp_imatrix_writer_free(w);
    lp_interval_fini(&iv);
    lp_membuf_free(&m);
}

int main(void)
{
    test_round_trip();
    test_every_truncation();
    test_every_bit_flip();
    test_parts();
    test_writer_rules();
    test_hostile();
    test_allocation_failures();
    test_size();
    return lp_test_done();
}
