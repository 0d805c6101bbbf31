/* What the three formats share: the header and sniffing, the chunk frame
 * and its limits, CRC-32 and varints (against plain references), meta and
 * module maps (functions and chunks), and hostile framing: huge declared
 * lengths and counts must be refused without allocating them. */
#include "trace_test_util.h"
#include "../../../src/trace/trace_internal.h"

static void test_crc_and_varint(void)
{
    uint8_t buf[1000];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 31 + 7);
    LP_CHECK_EQ_U64(lp__crc32(0, "123456789", 9), 0xCBF43926u); /* the standard check value */
    LP_CHECK_EQ_U64(lp__crc32(0, buf, sizeof buf), ref_crc32(buf, sizeof buf, 0));
    LP_CHECK_EQ_U64(lp__crc32(lp__crc32(0, buf, 300), buf + 300, 700), ref_crc32(buf, 1000, 0));
    LP_CHECK_EQ_U64(lp__crc32(0, NULL, 0), 0);

    uint64_t values[] = {0, 1, 127, 128, 16383, 16384, UINT32_MAX, 1ull << 63, UINT64_MAX};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        uint8_t enc[10];
        size_t n = lp__varint_encode(enc, values[i]);
        LP_CHECK_EQ_U64(n, lp__varint_size(values[i]));
        lp__cur c = {enc, n, 0, 0};
        uint64_t v = 0;
        LP_CHECK(lp__cur_varint(&c, &v) == 0 && v == values[i] && c.pos == n);
        c.size = n - 1; /* one byte short */
        c.pos = 0;
        LP_CHECK(lp__cur_varint(&c, &v) == LP_ETRUNC && c.pos == 0);
        LP_CHECK_EQ_U64(lp__unzigzag(lp__zigzag(values[i])), values[i]);
    }
    LP_CHECK_EQ_U64(lp__zigzag((uint64_t)-1), 1);
    LP_CHECK_EQ_U64(lp__zigzag(1), 2);
    const uint8_t overlong[] = {0x80, 0x00}; /* 0 in two bytes */
    const uint8_t eleven[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x81, 0x01};
    const uint8_t bit65[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
    uint64_t v;
    lp__cur c1 = {overlong, 2, 0, 0}, c2 = {eleven, 11, 0, 0}, c3 = {bit65, 10, 0, 0};
    LP_CHECK(lp__cur_varint(&c1, &v) == LP_EFORMAT);
    LP_CHECK(lp__cur_varint(&c2, &v) == LP_EFORMAT);
    LP_CHECK(lp__cur_varint(&c3, &v) == LP_EFORMAT);

    char small[8];
    LP_CHECK(strcmp(lp__fmt(small, sizeof small, "%s-%llu", "abcdef", 99ULL), "abcdef-") == 0);
    char big[64];
    LP_CHECK(strcmp(lp__fmt(big, sizeof big, "%d %u %llx %lld %%", -5, 7u, 255ULL, -9LL),
                    "-5 7 ff -9 %") == 0);
}

static void test_meta(void)
{
    lp_meta m = {0}, c = {0};
    LP_CHECK(lp_meta_get(&m, "x") == NULL);
    LP_CHECK(lp_meta_set(&m, "program", "a.out") == 0);
    LP_CHECK(lp_meta_set(&m, "complete", "no") == 0);
    LP_CHECK(lp_meta_set(&m, "program", "b.out") == 0); /* replaces, keeps order */
    LP_CHECK_EQ_U64(m.count, 2);
    LP_CHECK(strcmp(lp_meta_get(&m, "program"), "b.out") == 0);
    LP_CHECK(strcmp(m.items[0].key, "program") == 0);
    LP_CHECK(lp_meta_get(&m, "prog") == NULL);
    LP_CHECK(lp_meta_get(&m, "programs") == NULL);
    LP_CHECK(lp_meta_set(&m, "", "v") == LP_EINVAL);
    LP_CHECK(lp_meta_set(&m, NULL, "v") == LP_EINVAL);
    LP_CHECK(lp_meta_set(&m, "k", NULL) == LP_EINVAL);
    LP_CHECK(lp_meta_set(NULL, "k", "v") == LP_EINVAL);
    LP_CHECK(lp_meta_set(&m, "empty", "") == 0);
    static char longs[LP__MAX_STRING + 2];
    memset(longs, 'x', sizeof longs - 1);
    LP_CHECK(lp_meta_set(&m, "long", longs) == LP_ELIMIT);
    longs[LP__MAX_STRING] = '\0';
    LP_CHECK(lp_meta_set(&m, "long", longs) == 0);
    LP_CHECK(lp_meta_copy(&c, &m) == 0);
    LP_CHECK_EQ_U64(c.count, m.count);
    LP_CHECK(strcmp(lp_meta_get(&c, "long"), longs) == 0);
    LP_CHECK(lp_meta_copy(&c, &c) == 0);
    LP_CHECK(lp_meta_copy(&c, NULL) == 0 && c.count == 0);
    for (int i = 0; i < 300; i++) {
        char k[16];
        snprintf(k, sizeof k, "k%d", i);
        int rc = lp_meta_set(&c, k, "v");
        LP_CHECK(rc == (i < (int)LP__MAX_META ? 0 : LP_ELIMIT));
    }
    LP_CHECK(lp_meta_set(&c, "k5", "replaced at the limit") == 0);
    lp_meta_fini(&c);
    lp_meta_fini(&m);
    lp_meta_fini(NULL);
    LP_CHECK(lp_meta_get(NULL, "x") == NULL);
}

static void test_modules(void)
{
    lp_module_map m = {0}, c = {0};
    uint8_t id[33] = {1, 2, 3};
    LP_CHECK(lp_module_map_add(&m, "/bin/a", 0x1000, 0x1000, 0x1000, id, 3) == 0);
    LP_CHECK(lp_module_map_add(&m, "/lib/b.so", 0x10000, 0x500, -7, NULL, 0) == 0);
    LP_CHECK(lp_module_map_add(&m, "/lib/c.so", 0x20000, 0x500, 0, id, 33) == LP_EINVAL);
    LP_CHECK(lp_module_map_add(&m, "/lib/c.so", 0x20000, 0x500, 0, NULL, 4) == LP_EINVAL);
    LP_CHECK(lp_module_map_add(&m, NULL, 0x20000, 0x500, 0, NULL, 0) == LP_EINVAL);
    LP_CHECK(lp_module_map_add(&m, "[vdso]", UINT64_MAX - 9, 10, 0, NULL, 0) == 0);
    LP_CHECK(lp_module_map_find(&m, 0x0fff) == NULL);
    LP_CHECK(lp_module_map_find(&m, 0x1000) == &m.items[0]);
    LP_CHECK(lp_module_map_find(&m, 0x1fff) == &m.items[0]);
    LP_CHECK(lp_module_map_find(&m, 0x2000) == NULL);
    LP_CHECK(lp_module_map_find(&m, 0x104ff) == &m.items[1]);
    LP_CHECK(lp_module_map_find(&m, UINT64_MAX) == &m.items[2]);
    LP_CHECK(lp_module_map_find(NULL, 1) == NULL);
    for (int i = 0; i < 100; i++)
        LP_CHECK(lp_module_map_add(&m, "/x", 0x100000 + (uint64_t)i * 0x100, 0x100, 0, id, 32) ==
                 0);
    LP_CHECK(lp_module_map_copy(&c, &m) == 0);
    LP_CHECK_EQ_U64(c.count, 103);
    LP_CHECK(c.items[0].bias == 0x1000 && c.items[1].bias == -7 && c.items[0].build_id_len == 3);
    LP_CHECK(c.items[0].path != m.items[0].path && strcmp(c.items[0].path, "/bin/a") == 0);
    LP_CHECK(lp_module_map_find(&c, 0x100000 + 50 * 0x100 + 3) == &c.items[53]);
    lp_module_map_fini(&c);
    lp_module_map_fini(&m);
    lp_module_map_fini(NULL);
}

static void test_sniff(void)
{
    bytes h = {0};
    b_header(&h, LP_FILE_IMATRIX, 1);
    unsigned kind = 0, version = 0;
    LP_CHECK(lp_file_sniff(h.d, h.n, &kind, &version) == 0);
    LP_CHECK(kind == LP_FILE_IMATRIX && version == 1);
    LP_CHECK(lp_file_sniff(h.d, h.n, NULL, NULL) == 0);
    for (size_t n = 0; n < h.n; n++)
        LP_CHECK(lp_file_sniff(h.d, n, NULL, NULL) == LP_ETRUNC);
    LP_CHECK(lp_file_sniff("hello, world, this is text", 26, NULL, NULL) == LP_EFORMAT);
    h.d[10] = 2;
    LP_CHECK(lp_file_sniff(h.d, h.n, &kind, &version) == LP_EVERSION);
    LP_CHECK_EQ_U64(version, 2);
    h.d[10] = 1;
    h.d[8] = 9;
    LP_CHECK(lp_file_sniff(h.d, h.n, NULL, NULL) == LP_EFORMAT);
    h.d[8] = 1;
    h.d[15] = 1;
    LP_CHECK(lp_file_sniff(h.d, h.n, NULL, NULL) == LP_EFORMAT);
    b_free(&h);
    LP_CHECK(strcmp(lp_file_kind_name(LP_FILE_EVENTS), "events") == 0);
    LP_CHECK(strcmp(lp_file_kind_name(LP_FILE_IMATRIX), "interval-matrix") == 0);
    LP_CHECK(strcmp(lp_file_kind_name(LP_FILE_PROFILE), "profile") == 0);
    LP_CHECK(lp_file_kind_name(0) == NULL && lp_file_kind_name(4) == NULL);
}

/* Builds a profile file from a meta payload and a modules payload plus an
 * optional extra chunk before the end, reads it under the tracking
 * allocator and returns the code. */
static int read_profile_with(const bytes *meta, const bytes *mods, unsigned extra_type,
                             unsigned extra_flags, const bytes *extra, lp_read_error *err)
{
    bytes f = {0}, end = {0};
    b_header(&f, LP_FILE_PROFILE, 1);
    b_chunk(&f, CH_META, meta);
    b_chunk(&f, CH_MODULES, mods);
    if (extra_type)
        b_chunk_len(&f, extra_type, extra_flags, extra, (uint32_t)extra->n);
    b_varint(&end, 0);
    b_chunk(&f, CH_END, &end);
    lp_profile_set s;
    lp_memsource ms;
    track_start();
    int rc = lp_profile_file_read(lp_memsource_init(&ms, f.d, f.n), &s, err);
    lp_profile_set_fini(&s);
    track_stop();
    LP_CHECK_EQ_U64(track_live, 0);
    b_free(&f);
    b_free(&end);
    return rc;
}

static void test_meta_and_module_chunks(void)
{
    bytes meta = {0}, mods = {0}, x = {0};
    lp_read_error err;
    b_varint(&meta, 0);
    b_varint(&mods, 0);
    LP_CHECK(read_profile_with(&meta, &mods, 0, 0, NULL, &err) == 0);

    /* An unknown chunk: skipped if optional, refused if not. */
    b_varint(&x, 12345);
    LP_CHECK(read_profile_with(&meta, &mods, 999, 1, &x, &err) == 0);
    LP_CHECK(read_profile_with(&meta, &mods, 999, 0, &x, &err) == LP_EFORMAT);
    LP_CHECK(strcmp(err.field, "chunk[2].type") == 0);
    LP_CHECK(read_profile_with(&meta, &mods, 999, 2, &x, &err) == LP_EFORMAT);
    LP_CHECK(strcmp(err.field, "chunk[2].flags") == 0);
    /* A known chunk of another file kind is not optional. */
    LP_CHECK(read_profile_with(&meta, &mods, CH_EVENTS, 0, &x, &err) == LP_EFORMAT);

    /* Meta: a count over the limit, duplicate keys, NUL bytes, long strings. */
    struct {
        const char *bytes_desc;
        int want;
        const char *field;
    } cases[] = {
        {"count 1000000000", LP_ELIMIT, "meta.count"},
        {"count 200", LP_EFORMAT, "meta.count"},
        {"dup", LP_EFORMAT, "meta.item[1].key"},
        {"nul", LP_EFORMAT, "meta.item[0].value"},
        {"long", LP_ELIMIT, "meta.item[0].key"},
        {"empty key", LP_EFORMAT, "meta.item[0].key"},
        {"trailing", LP_EFORMAT, "meta"},
        {"overlong varint", LP_EFORMAT, "meta.count"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bytes m = {0};
        switch (i) {
        case 0: b_varint(&m, 1000000000); break;
        case 1: b_varint(&m, 200); break;
        case 2:
            b_varint(&m, 2);
            for (int k = 0; k < 2; k++) {
                b_varint(&m, 1);
                b_u8(&m, 'k');
                b_varint(&m, 1);
                b_u8(&m, 'v');
            }
            break;
        case 3:
            b_varint(&m, 1);
            b_varint(&m, 1);
            b_u8(&m, 'k');
            b_varint(&m, 2);
            b_u8(&m, 'v');
            b_u8(&m, 0);
            break;
        case 4:
            b_varint(&m, 1);
            b_varint(&m, LP__MAX_STRING + 1);
            for (int k = 0; k <= (int)LP__MAX_STRING + 4; k++)
                b_u8(&m, 'a');
            break;
        case 5:
            b_varint(&m, 1);
            b_varint(&m, 0);
            b_varint(&m, 0);
            break;
        case 6:
            b_varint(&m, 0);
            b_u8(&m, 0);
            break;
        case 7:
            b_u8(&m, 0x80);
            b_u8(&m, 0x00);
            break;
        }
        memset(&err, 0, sizeof err);
        int rc = read_profile_with(&m, &mods, 0, 0, NULL, &err);
        if (rc != cases[i].want || strcmp(err.field, cases[i].field) != 0) {
            fprintf(stderr, "meta case %s: rc %d field %s (%s)\n", cases[i].bytes_desc, rc,
                    err.field, err.detail);
            lp_test_failures++;
        }
        LP_CHECK(track_largest < 100000);
        /* The offset is inside the meta chunk's payload: 16 + 8 onwards. */
        LP_CHECK(err.offset >= 24 && err.offset < 24 + m.n);
        b_free(&m);
    }

    /* Module map: a count over the limit, a build id over 32 bytes. */
    bytes md = {0};
    b_varint(&md, 70000);
    LP_CHECK(read_profile_with(&meta, &md, 0, 0, NULL, &err) == LP_ELIMIT);
    LP_CHECK(strcmp(err.field, "modules.count") == 0);
    LP_CHECK(track_largest < 100000);
    md.n = 0;
    b_varint(&md, 1);
    b_varint(&md, 1);
    b_u8(&md, '/');
    b_varint(&md, 0x1000);
    b_varint(&md, 0x100);
    b_varint(&md, 3); /* zigzag: bias -2 */
    b_varint(&md, 33);
    for (int k = 0; k < 33; k++)
        b_u8(&md, 0xaa);
    LP_CHECK(read_profile_with(&meta, &md, 0, 0, NULL, &err) == LP_EFORMAT);
    LP_CHECK(strcmp(err.field, "module[0].build_id") == 0);
    b_free(&md);
    b_free(&meta);
    b_free(&mods);
    b_free(&x);
}

/* The frame itself: lengths over the limit, lengths past the end of the
 * file, trailing bytes, and the header's fields. */
static void test_hostile_frames(void)
{
    lp_read_error err;
    lp_profile_set s;
    lp_memsource ms;
    bytes f = {0}, p = {0};

    b_header(&f, LP_FILE_PROFILE, 1);
    b_varint(&p, 0);
    b_chunk_len(&f, CH_META, 0, &p, LP__MAX_PAYLOAD + 1);
    track_start();
    LP_CHECK(lp_profile_file_read(lp_memsource_init(&ms, f.d, f.n), &s, &err) == LP_ELIMIT);
    track_stop();
    LP_CHECK(strcmp(err.field, "chunk[0].length") == 0 && err.offset == 20);
    LP_CHECK(track_largest < 100000);
    b_free(&f);

    /* 60 MiB declared in a 40-byte file: refused as truncated after reading
     * what is there, with a small allocation. */
    b_header(&f, LP_FILE_PROFILE, 1);
    b_chunk_len(&f, CH_META, 0, &p, 60u << 20);
    track_start();
    LP_CHECK(lp_profile_file_read(lp_memsource_init(&ms, f.d, f.n), &s, &err) == LP_ETRUNC);
    track_stop();
    LP_CHECK(strcmp(err.field, "chunk[0].payload") == 0);
    LP_CHECK(track_largest <= 65536);
    LP_CHECK_EQ_U64(track_live, 0);
    b_free(&f);

    /* Bytes after the end chunk. */
    lp_profile_set empty;
    memset(&empty, 0, sizeof empty);
    lp_membuf m = {0};
    LP_CHECK(lp_profile_file_write(&empty, lp_membuf_sink(&m)) == 0);
    b_put(&f, m.data, m.size);
    b_u8(&f, 0);
    LP_CHECK(lp_profile_file_read(lp_memsource_init(&ms, f.d, f.n), &s, &err) == LP_EFORMAT);
    LP_CHECK(strcmp(err.field, "trailer") == 0 && err.offset == m.size);
    /* The wrong kind, a future version, damaged magic. */
    f.d[8] = LP_FILE_EVENTS;
    LP_CHECK(lp_profile_file_read(lp_memsource_init(&ms, f.d, f.n), &s, &err) == LP_EFORMAT);
    LP_CHECK(strcmp(err.field, "header.kind") == 0 && err.offset == 8);
    f.d[8] = LP_FILE_PROFILE;
    f.d[10] = 2;
    LP_CHECK(lp_profile_file_read(lp_memsource_init(&ms, f.d, f.n), &s, &err) == LP_EVERSION);
    LP_CHECK(strcmp(err.field, "header.version") == 0 && err.offset == 10);
    f.d[10] = 1;
    f.d[3] = 'X';
    LP_CHECK(lp_profile_file_read(lp_memsource_init(&ms, f.d, f.n), &s, &err) == LP_EFORMAT);
    LP_CHECK(strcmp(err.field, "header.magic") == 0 && err.offset == 3);
    /* No source, or a source that fails. */
    lp_source none = {NULL, NULL};
    LP_CHECK(lp_profile_file_read(none, &s, NULL) == LP_EINVAL);
    LP_CHECK(lp_profile_file_read(lp_memsource_init(&ms, NULL, 0), &s, &err) == LP_ETRUNC);
    lp_membuf_free(&m);
    b_free(&f);
    b_free(&p);
}

static int failing_read(void *ctx, void *buf, size_t size, size_t *got)
{
    (void)ctx;
    (void)buf;
    (void)size;
    *got = 0;
    return LP_EIO;
}

static void test_source_errors(void)
{
    lp_source bad = {failing_read, NULL};
    lp_read_error err;
    lp_profile_set s;
    LP_CHECK(lp_profile_file_read(bad, &s, &err) == LP_EIO);
    lp_imatrix_reader *ir = (lp_imatrix_reader *)&s;
    LP_CHECK(lp_imatrix_reader_open(bad, &ir, &err) == LP_EIO && ir == NULL);
    lp_evtrace_reader *er = (lp_evtrace_reader *)&s;
    LP_CHECK(lp_evtrace_reader_open(bad, &er, &err) == LP_EIO && er == NULL);
    LP_CHECK(lp_imatrix_reader_meta(NULL) == NULL && lp_imatrix_reader_types(NULL) == 0);
    lp_imatrix_reader_free(NULL);
    lp_evtrace_reader_free(NULL);
}

int main(void)
{
    test_crc_and_varint();
    test_meta();
    test_modules();
    test_sniff();
    test_meta_and_module_chunks();
    test_hostile_frames();
    test_source_errors();
    return lp_test_done();
}
