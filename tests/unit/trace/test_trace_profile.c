/* Profile files: round trip of every field, determinism whatever the
 * insertion order, a cut at every byte offset, a flipped bit in every byte,
 * profiles split over part chunks, and writer errors. */
#include "trace_test_util.h"

static uint64_t rng = 88172645463325252ULL;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A set with every profile type, a phase-tagged sampled profile, meta and a
 * module map. order permutes insertion so tables differ in slot order. */
static void make_set(lp_profile_set *s, int entries, int reverse)
{
    memset(s, 0, sizeof *s);
    LP_CHECK(lp_meta_set(&s->meta, "program", "/usr/bin/xz") == 0);
    LP_CHECK(lp_meta_set(&s->meta, "strategy", "H[P256]2048+A16") == 0);
    LP_CHECK(lp_meta_set(&s->meta, "complete", "yes") == 0);
    uint8_t id[20];
    for (int i = 0; i < 20; i++)
        id[i] = (uint8_t)(i * 7 + 1);
    LP_CHECK(lp_module_map_add(&s->modules, "/usr/bin/xz", 0x555555554000, 0x20000, 0x555555554000,
                               id, 20) == 0);
    LP_CHECK(lp_module_map_add(&s->modules, "/lib/x86_64-linux-gnu/libc.so.6", 0x7ffff7d80000,
                               0x195000, -4096, NULL, 0) == 0);
    for (unsigned t = 1; t <= LP_PROF_TYPE_MAX; t++) {
        lp_profile *p;
        LP_CHECK(lp_profile_set_add(s, t, t == 4 ? 3 : LP_PHASE_NONE, &p) == 0);
        p->first_insn = 1000 * t;
        p->last_insn = 1000000 * t;
        if (t == 4) {
            p->scale_num = 256;
            p->scale_den = 3;
        }
        for (int k = 0; k < entries; k++) {
            int i = reverse ? entries - 1 - k : k;
            lp_key key = {0x401000 + (uint64_t)(i / 3) * 16 * t, (uint64_t)(i % 3) * 0x40};
            if (t == 7)
                key.b = (uint64_t)i * 0x9e3779b97f4a7c15ULL; /* values: any 64 bits */
            lp_entry *e = lp_table_upsert(&p->table, key);
            e->v[0] = (uint64_t)i * i + t;
            e->v[1] = t == 4 ? 0 : (uint64_t)i << 40;
        }
    }
    /* The edge cases of the key space. */
    lp_profile *p;
    LP_CHECK(lp_profile_set_add(s, LP_PROF_VALUE, 0, &p) == 0);
    lp_table_upsert(&p->table, (lp_key){UINT64_MAX, UINT64_MAX - 1})->v[0] = UINT64_MAX;
    lp_table_upsert(&p->table, (lp_key){0, 0})->v[1] = 1;
    lp_table_upsert(&p->table, (lp_key){0, UINT64_MAX})->v[1] = 2;
    lp_table_upsert(&p->table, (lp_key){UINT64_MAX, 0})->v[1] = 3;
    LP_CHECK(lp_profile_set_add(s, LP_PROF_STREAMS, 7, &p) == 0); /* empty */
}

static int same_table(const lp_table *a, const lp_table *b)
{
    if (a->count != b->count)
        return 0;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(a, &cur)) != NULL) {
        const lp_entry *f = lp_table_find(b, e->key);
        if (!f || f->v[0] != e->v[0] || f->v[1] != e->v[1])
            return 0;
    }
    return 1;
}

static void check_same_set(const lp_profile_set *a, const lp_profile_set *b)
{
    LP_CHECK_EQ_U64(a->meta.count, b->meta.count);
    for (size_t i = 0; i < a->meta.count && i < b->meta.count; i++) {
        LP_CHECK(strcmp(a->meta.items[i].key, b->meta.items[i].key) == 0);
        LP_CHECK(strcmp(a->meta.items[i].value, b->meta.items[i].value) == 0);
    }
    LP_CHECK_EQ_U64(a->modules.count, b->modules.count);
    for (size_t i = 0; i < a->modules.count && i < b->modules.count; i++) {
        const lp_module *x = &a->modules.items[i], *y = &b->modules.items[i];
        LP_CHECK(strcmp(x->path, y->path) == 0);
        LP_CHECK_EQ_U64(x->start, y->start);
        LP_CHECK_EQ_U64(x->size, y->size);
        LP_CHECK(x->bias == y->bias);
        LP_CHECK_EQ_U64(x->build_id_len, y->build_id_len);
        LP_CHECK(memcmp(x->build_id, y->build_id, x->build_id_len) == 0);
    }
    LP_CHECK_EQ_U64(a->count, b->count);
    for (size_t i = 0; i < a->count && i < b->count; i++) {
        const lp_profile *x = &a->profiles[i], *y = &b->profiles[i];
        LP_CHECK_EQ_U64(x->type, y->type);
        LP_CHECK_EQ_U64(x->phase, y->phase);
        LP_CHECK_EQ_U64(x->first_insn, y->first_insn);
        LP_CHECK_EQ_U64(x->last_insn, y->last_insn);
        LP_CHECK_EQ_U64(x->scale_num, y->scale_num);
        LP_CHECK_EQ_U64(x->scale_den, y->scale_den);
        LP_CHECK(same_table(&x->table, &y->table));
    }
}

static lp_membuf write_set(const lp_profile_set *s)
{
    lp_membuf m = {0};
    LP_CHECK(lp_profile_file_write(s, lp_membuf_sink(&m)) == 0);
    return m;
}

static int read_bytes(const uint8_t *d, size_t n, lp_profile_set *out, lp_read_error *err)
{
    lp_memsource ms;
    return lp_profile_file_read(lp_memsource_init(&ms, d, n), out, err);
}

static void test_round_trip_and_determinism(void)
{
    lp_profile_set a, b, r;
    make_set(&a, 500, 0);
    make_set(&b, 500, 1);
    lp_membuf fa = write_set(&a), fb = write_set(&b);
    LP_CHECK_EQ_U64(fa.size, fb.size);
    LP_CHECK(fa.size == fb.size && memcmp(fa.data, fb.data, fa.size) == 0);

    unsigned kind = 0, version = 0;
    LP_CHECK(lp_file_sniff(fa.data, fa.size, &kind, &version) == 0);
    LP_CHECK_EQ_U64(kind, LP_FILE_PROFILE);
    LP_CHECK_EQ_U64(version, 1);

    lp_read_error err;
    LP_CHECK(read_bytes(fa.data, fa.size, &r, &err) == 0);
    check_same_set(&a, &r);
    LP_CHECK(lp_profile_set_find(&r, LP_PROF_EDGE, 3) != NULL);
    LP_CHECK(lp_profile_set_find(&r, LP_PROF_EDGE, LP_PHASE_NONE) == NULL);
    LP_CHECK(lp_profile_set_find(&r, LP_PROF_STREAMS, 7)->table.count == 0);

    /* Re-writing what was read gives the same bytes. */
    lp_membuf fr = write_set(&r);
    LP_CHECK(fr.size == fa.size && memcmp(fr.data, fa.data, fa.size) == 0);

    /* Walk the file with the document's layout: meta, modules, profiles, end. */
    walk_chunk ch[64];
    int n = walk(fa.data, fa.size, ch, 64);
    LP_CHECK(n == 2 + (int)a.count + 1);
    if (n > 3) {
        LP_CHECK_EQ_U64(ch[0].type, CH_META);
        LP_CHECK_EQ_U64(ch[1].type, CH_MODULES);
        LP_CHECK_EQ_U64(ch[2].type, CH_PROFILE);
        LP_CHECK_EQ_U64(ch[n - 1].type, CH_END);
    }

    /* A source that delivers a byte at a time reads the same. */
    lp_profile_set d;
    lp_memsource ms;
    lp_memsource_init(&ms, fa.data, fa.size);
    lp_source slow = {dribble_read, &ms};
    LP_CHECK(lp_profile_file_read(slow, &d, NULL) == 0);
    check_same_set(&a, &d);

    lp_profile_set_fini(&a);
    lp_profile_set_fini(&b);
    lp_profile_set_fini(&r);
    lp_profile_set_fini(&d);
    lp_membuf_free(&fa);
    lp_membuf_free(&fb);
    lp_membuf_free(&fr);
}

static void test_every_truncation(void)
{
    lp_profile_set a;
    make_set(&a, 6, 0);
    lp_membuf f = write_set(&a);
    int bad = 0;
    for (size_t len = 0; len < f.size; len++) {
        lp_profile_set r;
        lp_read_error err;
        int rc = read_bytes(f.data, len, &r, &err);
        if (rc != LP_ETRUNC || r.count != 0 || r.meta.count != 0 || r.profiles != NULL) {
            if (bad++ < 5)
                fprintf(stderr, "cut at %zu: rc %d (%s: %s)\n", len, rc, err.field, err.detail);
        }
        lp_profile_set_fini(&r);
    }
    LP_CHECK_EQ_U64(bad, 0);
    lp_profile_set r;
    LP_CHECK(read_bytes(f.data, f.size, &r, NULL) == 0);
    lp_profile_set_fini(&r);
    lp_profile_set_fini(&a);
    lp_membuf_free(&f);
}

static void test_every_bit_flip(void)
{
    lp_profile_set a;
    make_set(&a, 4, 0);
    lp_membuf f = write_set(&a);
    walk_chunk ch[64];
    int n = walk(f.data, f.size, ch, 64);
    LP_CHECK(n > 3);
    int bad = 0;
    for (size_t i = 0; i < f.size; i++) {
        const walk_chunk *c = NULL;
        for (int k = 0; k < n; k++)
            if (i >= ch[k].offset && i < ch[k].end)
                c = &ch[k];
        for (int bit = 0; bit < 8; bit++) {
            f.data[i] ^= (uint8_t)(1u << bit);
            lp_profile_set r;
            lp_read_error err;
            memset(&err, 0, sizeof err);
            int rc = read_bytes(f.data, f.size, &r, &err);
            f.data[i] ^= (uint8_t)(1u << bit);
            int ok;
            if (!c) /* file header: magic, kind, version, reserved */
                ok = rc == LP_EFORMAT || rc == LP_EVERSION;
            else if (i < c->offset + 8) /* chunk head: type, flags, length */
                ok = rc < 0;
            else /* payload or CRC: the checksum catches it, at this chunk */
                ok = rc == LP_ECHECKSUM && err.offset == c->crc_offset;
            if (!ok && bad++ < 5)
                fprintf(stderr, "flip byte %zu bit %d: rc %d at %llu (%s: %s)\n", i, bit, rc,
                        (unsigned long long)err.offset, err.field, err.detail);
            lp_profile_set_fini(&r);
        }
    }
    LP_CHECK_EQ_U64(bad, 0);
    lp_profile_set_fini(&a);
    lp_membuf_free(&f);
}

/* Over LP__CHUNK_ENTRIES (2^20) entries a profile continues in part chunks. */
static void test_parts(void)
{
    lp_profile_set a;
    memset(&a, 0, sizeof a);
    lp_profile *p;
    LP_CHECK(lp_profile_set_add(&a, LP_PROF_VALUE, LP_PHASE_NONE, &p) == 0);
    const uint64_t n = (1u << 20) + 1234;
    LP_CHECK(lp_table_init(&p->table, n) == 0);
    for (uint64_t i = 0; i < n; i++)
        lp_table_upsert(&p->table, (lp_key){next_rand() % 100000, i})->v[0] = i;
    LP_CHECK(lp_profile_set_add(&a, LP_PROF_EDGE, LP_PHASE_NONE, &p) == 0);
    lp_table_upsert(&p->table, (lp_key){1, 2})->v[0] = 3;
    lp_membuf f = write_set(&a);
    walk_chunk ch[16];
    int nc = walk(f.data, f.size, ch, 16);
    LP_CHECK_EQ_U64(nc, 6);
    if (nc == 6) {
        LP_CHECK_EQ_U64(ch[2].type, CH_PROFILE);
        LP_CHECK_EQ_U64(ch[3].type, CH_PROFILE_PART);
        LP_CHECK_EQ_U64(ch[4].type, CH_PROFILE);
    }
    lp_profile_set r;
    lp_read_error err;
    LP_CHECK(read_bytes(f.data, f.size, &r, &err) == 0);
    check_same_set(&a, &r);
    lp_profile_set_fini(&r);
    /* Cut inside the part chunk: the profile is incomplete, so an error. */
    if (nc == 6) {
        LP_CHECK(read_bytes(f.data, ch[3].offset + 100, &r, &err) == LP_ETRUNC);
        LP_CHECK(read_bytes(f.data, ch[3].offset, &r, &err) == LP_ETRUNC);
        /* Dropping the part chunk: a profile chunk where a part belongs. */
        bytes cut = {0};
        b_put(&cut, f.data, ch[3].offset);
        b_put(&cut, f.data + ch[3].end, f.size - ch[3].end);
        LP_CHECK(read_bytes(cut.d, cut.n, &r, &err) == LP_EFORMAT);
        LP_CHECK_EQ_U64(err.offset, ch[3].offset);
        b_free(&cut);
    }
    lp_profile_set_fini(&a);
    lp_membuf_free(&f);
}

static void test_writer_errors(void)
{
    lp_profile_set a;
    make_set(&a, 50, 0);
    lp_membuf full = write_set(&a);
    /* A sink that fails at every possible point: the error comes back. */
    for (size_t limit = 0; limit < full.size; limit += 37) {
        failing_sink fs = {0, limit};
        lp_sink s = {failing_write, &fs};
        LP_CHECK(lp_profile_file_write(&a, s) == LP_EIO);
    }
    lp_sink none = {NULL, NULL};
    LP_CHECK(lp_profile_file_write(&a, none) == LP_EINVAL);
    LP_CHECK(lp_profile_file_write(NULL, lp_membuf_sink(&full)) == LP_EINVAL);
    a.profiles[0].scale_den = 0;
    lp_membuf m = {0};
    LP_CHECK(lp_profile_file_write(&a, lp_membuf_sink(&m)) == LP_EINVAL);
    LP_CHECK_EQ_U64(m.size, 0);
    a.profiles[0].scale_den = 1;

    /* Allocation failure is reported, not crashed on. */
    LP_CHECK(lp_profile_set_add(&a, 0, 0, NULL) == LP_EINVAL);
    LP_CHECK(lp_profile_set_add(&a, LP_PROF_TYPE_MAX + 1, 0, NULL) == LP_EINVAL);
    LP_CHECK(lp_profile_set_add(NULL, 1, 0, NULL) == LP_EINVAL);
    lp_profile_set_fini(&a);
    lp_profile_set_fini(NULL);
    lp_membuf_free(&full);
    lp_membuf_free(&m);
}

/* The reader refuses an empty set read with a mismatched end count, extra
 * bytes, and out-of-range profile fields. */
static void test_hostile_fields(void)
{
    lp_profile_set r;
    lp_read_error err;
    bytes meta = {0}, mods = {0}, prof = {0}, end = {0};
    b_varint(&meta, 0);
    b_varint(&mods, 0);

    /* End count that does not match. */
    bytes f = {0};
    b_header(&f, LP_FILE_PROFILE, 1);
    b_chunk(&f, CH_META, &meta);
    b_chunk(&f, CH_MODULES, &mods);
    b_varint(&end, 1);
    b_chunk(&f, CH_END, &end);
    LP_CHECK(read_bytes(f.d, f.n, &r, &err) == LP_EFORMAT);
    LP_CHECK(strcmp(err.field, "end.profiles") == 0);
    b_free(&f);
    b_free(&end);

    /* Profile type 0, scale_den 0, a profile declaring 2^40 entries. */
    struct {
        uint64_t type, den, count;
        int want;
        const char *field;
    } cases[] = {
        {0, 1, 0, LP_EFORMAT, "profile[0].type"},
        {LP_PROF_TYPE_MAX + 1, 1, 0, LP_EFORMAT, "profile[0].type"},
        {4, 0, 0, LP_EFORMAT, "profile[0].scale_den"},
        {4, 1, 1ull << 40, LP_ELIMIT, "profile[0].count"},
        {4, 1, 1000, LP_EFORMAT, "profile[0].count"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        b_header(&f, LP_FILE_PROFILE, 1);
        b_chunk(&f, CH_META, &meta);
        b_chunk(&f, CH_MODULES, &mods);
        prof.n = 0;
        b_varint(&prof, cases[i].type);
        b_varint(&prof, 0);  /* phase: none */
        b_varint(&prof, 0);  /* first_insn */
        b_varint(&prof, 10); /* last_insn */
        b_varint(&prof, 1);  /* scale_num */
        b_varint(&prof, cases[i].den);
        b_varint(&prof, 0); /* no parts */
        b_varint(&prof, 0); /* key mode */
        b_varint(&prof, cases[i].count);
        size_t at = f.n;
        b_chunk(&f, CH_PROFILE, &prof);
        end.n = 0;
        b_varint(&end, 1);
        b_chunk(&f, CH_END, &end);
        track_start();
        int rc = read_bytes(f.d, f.n, &r, &err);
        track_stop();
        LP_CHECK_EQ_U64((uint64_t)-rc, (uint64_t)-cases[i].want);
        LP_CHECK(strcmp(err.field, cases[i].field) == 0);
        LP_CHECK(err.offset > at && err.offset < at + 8 + prof.n);
        LP_CHECK(track_largest < 100000);
        LP_CHECK_EQ_U64(track_live, 0);
        b_free(&f);
    }

    /* Keys out of order cannot be expressed; one that overflows is refused. */
    b_header(&f, LP_FILE_PROFILE, 1);
    b_chunk(&f, CH_META, &meta);
    b_chunk(&f, CH_MODULES, &mods);
    prof.n = 0;
    uint64_t head[] = {4, 0, 0, 0, 1, 1, 0, 0, 2};
    for (size_t i = 0; i < 9; i++)
        b_varint(&prof, head[i]);
    b_varint(&prof, UINT64_MAX - 1); /* entry 0: a */
    b_varint(&prof, 0);
    b_varint(&prof, 1);
    b_varint(&prof, 0);
    b_varint(&prof, 5); /* entry 1: a + 5 overflows */
    b_varint(&prof, 0);
    b_varint(&prof, 1);
    b_varint(&prof, 0);
    b_chunk(&f, CH_PROFILE, &prof);
    LP_CHECK(read_bytes(f.d, f.n, &r, &err) == LP_EFORMAT);
    LP_CHECK(strcmp(err.field, "profile[0].entry[1].key") == 0);
    b_free(&f);

    b_free(&meta);
    b_free(&mods);
    b_free(&prof);
    b_free(&end);
}

typedef struct alloc_case {
    const uint8_t *file;
    size_t size;
} alloc_case;

static int read_under_test(void *arg)
{
    alloc_case *c = arg;
    lp_profile_set r;
    int rc = read_bytes(c->file, c->size, &r, NULL);
    lp_profile_set_fini(&r);
    return rc;
}

static int write_under_test(void *arg)
{
    (void)arg;
    lp_profile_set a;
    lp_membuf m = {0};
    int rc = 0;
    memset(&a, 0, sizeof a);
    lp_profile *p;
    if (!rc)
        rc = lp_meta_set(&a.meta, "program", "x");
    if (!rc)
        rc = lp_module_map_add(&a.modules, "/x", 1, 2, 3, NULL, 0);
    for (unsigned t = 1; !rc && t <= 3; t++) {
        rc = lp_profile_set_add(&a, t, LP_PHASE_NONE, &p);
        for (uint64_t i = 0; !rc && i < 40; i++) {
            lp_entry *e = lp_table_upsert(&p->table, (lp_key){i * 3, t});
            if (!e)
                rc = LP_ENOMEM;
        }
    }
    if (!rc)
        rc = lp_profile_file_write(&a, lp_membuf_sink(&m));
    lp_membuf_free(&m);
    lp_profile_set_fini(&a);
    return rc;
}

/* Every allocation the reader and the writer make may fail. */
static void test_allocation_failures(void)
{
    lp_profile_set a;
    make_set(&a, 30, 0);
    lp_membuf f = write_set(&a);
    alloc_case c = {f.data, f.size};
    int n = each_alloc_failure(read_under_test, &c);
    LP_CHECK(n > 20);
    n = each_alloc_failure(write_under_test, NULL);
    LP_CHECK(n > 5);
    lp_profile_set_fini(&a);
    lp_membuf_free(&f);
}

int main(void)
{
    test_round_trip_and_determinism();
    test_every_truncation();
    test_every_bit_flip();
    test_parts();
    test_writer_errors();
    test_hostile_fields();
    test_allocation_failures();
    return lp_test_done();
}
