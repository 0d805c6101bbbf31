/* Unit tests of the message codec (src/upload/upload_message.c and
 * upload_unpack.c): identify names a set the same way every time and
 * refuses one whose build cannot be named; pack and unpack round-trip;
 * unpack refuses garbage, cut input, wrong versions, bad identities and
 * decompression bombs, the bombs without allocating what they ask for (a
 * counting allocator measures the peak of lowprof's allocations). */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "../lp_test.h"

/* Paths here are a temporary folder plus short names: gcc's worry that
 * they might not fit 4 KB is noise (clang has no such warning). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#include "lowprof/upload.h"

/* ---- a counting allocator -------------------------------------------------------- */

static size_t live_bytes, peak_bytes;

/* Each block carries its size in a 16-byte prefix (keeps max_align_t). */
static void *count_alloc(void *ctx, size_t size)
{
    (void)ctx;
    unsigned char *p = malloc(size + 16);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    live_bytes += size;
    if (live_bytes > peak_bytes)
        peak_bytes = live_bytes;
    return p + 16;
}

static void count_free(void *ctx, void *ptr)
{
    (void)ctx;
    if (!ptr)
        return;
    unsigned char *p = (unsigned char *)ptr - 16;
    size_t size;
    memcpy(&size, p, sizeof size);
    live_bytes -= size;
    free(p);
}

static void *count_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    void *n = count_alloc(ctx, new_size);
    if (!n)
        return NULL;
    if (ptr)
        memcpy(n, ptr, old_size < new_size ? old_size : new_size);
    count_free(ctx, ptr);
    return n;
}

/* ---- sets to work on ------------------------------------------------------------ */

static const uint8_t libc_id[20] = {0xaa, 0xbb, 0xcc, 1, 2, 3, 4, 5, 6, 7,
                                    8,    9,    10,   11, 12, 13, 14, 15, 16, 17};
static const uint8_t demo_id[8] = {0xde, 0xad, 0xbe, 0xef, 0x01, 0x23, 0x45, 0x67};

/* A set as `lowprof record` would write it; the program's module comes
 * second so that picking the first module with a build id would be wrong. */
static void make_set(lp_profile_set *s, const char *program, uint64_t salt)
{
    memset(s, 0, sizeof *s);
    LP_CHECK(lp_meta_set(&s->meta, "program", program) == 0);
    LP_CHECK(lp_meta_set(&s->meta, "instructions", "123456789") == 0);
    LP_CHECK(lp_module_map_add(&s->modules, "/lib/x86_64-linux-gnu/libc.so.6", 0x7f0000000000,
                               0x100000, 0x7f0000000000, libc_id, sizeof libc_id) == 0);
    LP_CHECK(lp_module_map_add(&s->modules, "/usr/bin/demo", 0x400000, 0x2000, 0, demo_id,
                               sizeof demo_id) == 0);
    lp_profile *p;
    LP_CHECK(lp_profile_set_add(s, LP_PROF_METHOD, LP_PHASE_NONE, &p) == 0);
    for (uint64_t i = 0; i < 50; i++) {
        lp_entry *e = lp_table_upsert(&p->table, (lp_key){0x401000 + 16 * i, 0});
        e->v[0] = 1000 + i * salt;
        e->v[1] = i;
    }
    LP_CHECK(lp_profile_set_add(s, LP_PROF_CALL_PAIR, 3, &p) == 0);
    p->scale_num = 100;
    p->scale_den = 1;
    p->first_insn = 10;
    p->last_insn = 5000;
    lp_entry *e = lp_table_upsert(&p->table, (lp_key){0x401234, 0x401000});
    e->v[0] = 77;
}

static int same_tables(const lp_table *a, const lp_table *b)
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

static int same_sets(const lp_profile_set *a, const lp_profile_set *b)
{
    if (a->meta.count != b->meta.count || a->modules.count != b->modules.count ||
        a->count != b->count)
        return 0;
    for (size_t i = 0; i < a->meta.count; i++)
        if (strcmp(a->meta.items[i].key, b->meta.items[i].key) ||
            strcmp(a->meta.items[i].value, b->meta.items[i].value))
            return 0;
    for (size_t i = 0; i < a->modules.count; i++)
        if (strcmp(a->modules.items[i].path, b->modules.items[i].path) ||
            a->modules.items[i].build_id_len != b->modules.items[i].build_id_len)
            return 0;
    for (size_t i = 0; i < a->count; i++) {
        const lp_profile *x = &a->profiles[i], *y = &b->profiles[i];
        if (x->type != y->type || x->phase != y->phase || x->scale_num != y->scale_num ||
            x->scale_den != y->scale_den || x->first_insn != y->first_insn ||
            x->last_insn != y->last_insn || !same_tables(&x->table, &y->table))
            return 0;
    }
    return 1;
}

static void write_file(const lp_profile_set *s, lp_membuf *out)
{
    LP_CHECK(lp_profile_file_write(s, lp_membuf_sink(out)) == 0);
}

/* ---- identify ------------------------------------------------------------------- */

static void test_identify(void)
{
    lp_profile_set a, b;
    make_set(&a, "/usr/bin/demo", 3);
    make_set(&b, "/usr/bin/demo", 3);
    LP_CHECK(lp_upload_identify(&a, "dev-1") == 0);
    LP_CHECK(lp_upload_identify(&b, "dev-1") == 0);
    const char *ida = lp_meta_get(&a.meta, "message-id");
    const char *idb = lp_meta_get(&b.meta, "message-id");
    LP_CHECK(ida && idb && strcmp(ida, idb) == 0);
    LP_CHECK(ida && strlen(ida) == 32 && strspn(ida, "0123456789abcdef") == 32);
    /* The program's module, not the first with a build id. */
    LP_CHECK(strcmp(lp_meta_get(&a.meta, "build-id"), "deadbeef01234567") == 0);
    LP_CHECK(strcmp(lp_meta_get(&a.meta, "device"), "dev-1") == 0);

    /* Identifying again keeps the id; the same set without it gets it back. */
    char saved[65];
    snprintf(saved, sizeof saved, "%s", ida);
    LP_CHECK(lp_upload_identify(&a, NULL) == 0);
    LP_CHECK(strcmp(lp_meta_get(&a.meta, "message-id"), saved) == 0);
    LP_CHECK(strcmp(lp_meta_get(&a.meta, "device"), "dev-1") == 0);
    lp_profile_set c = a;
    memset(&c.meta, 0, sizeof c.meta);
    for (size_t i = 0; i < a.meta.count; i++)
        if (strcmp(a.meta.items[i].key, "message-id") != 0)
            LP_CHECK(lp_meta_set(&c.meta, a.meta.items[i].key, a.meta.items[i].value) == 0);
    LP_CHECK(lp_upload_identify(&c, NULL) == 0);
    LP_CHECK(strcmp(lp_meta_get(&c.meta, "message-id"), saved) == 0);
    lp_meta_fini(&c.meta);

    /* A runtime's random id is left alone. */
    lp_profile_set d;
    make_set(&d, "/usr/bin/demo", 3);
    LP_CHECK(lp_meta_set(&d.meta, "message-id", "00112233445566778899aabbccddeeff") == 0);
    LP_CHECK(lp_upload_identify(&d, "dev-1") == 0);
    LP_CHECK(strcmp(lp_meta_get(&d.meta, "message-id"), "00112233445566778899aabbccddeeff") == 0);
    lp_profile_set_fini(&d);

    /* Other counts, other device: other ids. By base name; host name. */
    lp_profile_set e, f, g;
    make_set(&e, "/usr/bin/demo", 4);
    make_set(&f, "/usr/bin/demo", 3);
    make_set(&g, "demo", 3);
    LP_CHECK(lp_upload_identify(&e, "dev-1") == 0);
    LP_CHECK(lp_upload_identify(&f, "dev-2") == 0);
    LP_CHECK(lp_upload_identify(&g, NULL) == 0);
    LP_CHECK(strcmp(lp_meta_get(&e.meta, "message-id"), saved) != 0);
    LP_CHECK(strcmp(lp_meta_get(&f.meta, "message-id"), saved) != 0);
    LP_CHECK(strcmp(lp_meta_get(&g.meta, "build-id"), "deadbeef01234567") == 0);
    LP_CHECK(lp_meta_get(&g.meta, "device") && lp_meta_get(&g.meta, "device")[0]);
    lp_profile_set_fini(&e);
    lp_profile_set_fini(&f);
    lp_profile_set_fini(&g);

    /* No build id anywhere: refused, the set unchanged. */
    lp_profile_set h;
    memset(&h, 0, sizeof h);
    LP_CHECK(lp_meta_set(&h.meta, "program", "/usr/bin/demo") == 0);
    LP_CHECK(lp_module_map_add(&h.modules, "/usr/bin/demo", 0x400000, 0x1000, 0, NULL, 0) == 0);
    LP_CHECK(lp_upload_identify(&h, "dev-1") == LP_ENOENT);
    LP_CHECK_EQ_U64(h.meta.count, 1);
    LP_CHECK(lp_meta_get(&h.meta, "message-id") == NULL);
    lp_profile_set_fini(&h);

    lp_profile_set_fini(&a);
    lp_profile_set_fini(&b);
}

/* ---- pack and unpack ---------------------------------------------------------------- */

static void test_round_trip(void)
{
    lp_profile_set s;
    make_set(&s, "/usr/bin/demo", 3);
    LP_CHECK(lp_upload_identify(&s, "phone-17") == 0);
    lp_membuf body = {0}, file = {0}, raw = {0};
    LP_CHECK(lp_upload_pack(&s, &body) == 0);
    write_file(&s, &file);
    LP_CHECK(body.size > 4 && body.size < file.size);
    LP_CHECK(body.data[0] == 0x28 && body.data[3] == 0xfd);

    lp_profile_set got;
    lp_upload_id id;
    char why[256] = "";
    LP_CHECK(lp_upload_unpack(body.data, body.size, 0, &got, &id, &raw, why, sizeof why) == 0);
    LP_CHECK(same_sets(&s, &got));
    LP_CHECK(strcmp(id.message_id, lp_meta_get(&s.meta, "message-id")) == 0);
    LP_CHECK(strcmp(id.build_id, "deadbeef01234567") == 0);
    LP_CHECK(strcmp(id.program, "/usr/bin/demo") == 0);
    LP_CHECK(strcmp(id.device, "phone-17") == 0);
    LP_CHECK_EQ_U64(id.instructions, 123456789);
    LP_CHECK(raw.size == file.size && memcmp(raw.data, file.data, file.size) == 0);
    lp_profile_set_fini(&got);

    /* A plain profile file is a message body too. */
    LP_CHECK(lp_upload_unpack(file.data, file.size, 0, &got, &id, NULL, why, sizeof why) == 0);
    LP_CHECK(same_sets(&s, &got));
    lp_profile_set_fini(&got);

    /* pack appends. */
    size_t one = body.size;
    LP_CHECK(lp_upload_pack(&s, &body) == 0);
    LP_CHECK(body.size == 2 * one && memcmp(body.data, body.data + one, one) == 0);

    /* Two frames back to back decompress as one file: here that file has
     * trailing bytes after the end chunk, which the reader refuses. */
    int rc = lp_upload_unpack(body.data, body.size, 0, &got, &id, NULL, why, sizeof why);
    LP_CHECK(rc != 0 && why[0]);
    LP_CHECK(got.count == 0 && got.meta.count == 0);

    lp_membuf_free(&body);
    lp_membuf_free(&file);
    lp_membuf_free(&raw);
    lp_profile_set_fini(&s);
}

/* unpack must fail with code, an empty set and a reason naming field. */
static void expect_fail(const void *data, size_t size, size_t max, int code, const char *field)
{
    lp_profile_set got;
    lp_upload_id id;
    lp_membuf raw = {0};
    char why[256] = "";
    int rc = lp_upload_unpack(data, size, max, &got, &id, &raw, why, sizeof why);
    if (rc != code)
        fprintf(stderr, "expected %s, got %s: %s\n", lp_strerror(code), lp_strerror(rc), why);
    LP_CHECK(rc == code);
    LP_CHECK(got.count == 0 && got.profiles == NULL && got.meta.count == 0);
    LP_CHECK(raw.size == 0);
    if (!strstr(why, field)) {
        fprintf(stderr, "why '%s' does not name '%s'\n", why, field);
        LP_CHECK(strstr(why, field) != NULL);
    }
    lp_membuf_free(&raw);
}

static void test_damaged(void)
{
    lp_profile_set s;
    make_set(&s, "/usr/bin/demo", 3);
    LP_CHECK(lp_upload_identify(&s, "dev-1") == 0);
    lp_membuf body = {0}, file = {0};
    LP_CHECK(lp_upload_pack(&s, &body) == 0);
    write_file(&s, &file);

    static const char garbage[] = "POST me a profile, please, this is not one at all.";
    expect_fail(garbage, sizeof garbage, 0, LP_EFORMAT, "offset 0: header.magic");
    expect_fail("", 0, 0, LP_ETRUNC, "offset");
    expect_fail(body.data, body.size / 2, 0, LP_ETRUNC, "zstd frame");
    expect_fail(body.data, 3, 0, LP_EFORMAT, "header.magic"); /* too short to be a frame */
    expect_fail(body.data, 6, 0, LP_ETRUNC, "zstd frame header");
    expect_fail(file.data, file.size - 7, 0, LP_ETRUNC, "chunk");
    expect_fail(file.data, file.size, 100, LP_ELIMIT, "limit");
    expect_fail(body.data, body.size, 100, LP_ELIMIT, "content size");

    /* A flipped byte inside the frame's data. */
    lp_membuf bad = {0};
    lp_sink sk = lp_membuf_sink(&bad);
    LP_CHECK(sk.write(sk.ctx, body.data, body.size) == 0);
    bad.data[bad.size / 2] ^= 0x55;
    lp_profile_set got;
    lp_upload_id id;
    char why[256] = "";
    int rc = lp_upload_unpack(bad.data, bad.size, 0, &got, &id, NULL, why, sizeof why);
    LP_CHECK(rc < 0 && why[0] != '\0');
    if (rc == 0)
        lp_profile_set_fini(&got);
    lp_membuf_free(&bad);

    /* A version this build does not read, plain and packed. */
    lp_membuf v2 = {0};
    sk = lp_membuf_sink(&v2);
    LP_CHECK(sk.write(sk.ctx, file.data, file.size) == 0);
    v2.data[10] = 2; /* header: magic[8], kind u16, version u16 */
    expect_fail(v2.data, v2.size, 0, LP_EVERSION, "version");
    lp_membuf v2z = {0};
    v2z.data = malloc(ZSTD_compressBound(v2.size));
    LP_CHECK(v2z.data != NULL);
    v2z.size = ZSTD_compress(v2z.data, ZSTD_compressBound(v2.size), v2.data, v2.size, 3);
    LP_CHECK(!ZSTD_isError(v2z.size));
    expect_fail(v2z.data, v2z.size, 0, LP_EVERSION, "version");
    free(v2z.data);
    lp_membuf_free(&v2);

    lp_membuf_free(&body);
    lp_membuf_free(&file);
    lp_profile_set_fini(&s);
}

/* A set that identifies, then has key set to value (NULL: removed). */
static void expect_bad_identity(const char *key, const char *value, const char *field)
{
    lp_profile_set s;
    make_set(&s, "/usr/bin/demo", 3);
    LP_CHECK(lp_upload_identify(&s, "dev-1") == 0);
    lp_profile_set t = s;
    memset(&t.meta, 0, sizeof t.meta);
    for (size_t i = 0; i < s.meta.count; i++)
        if (strcmp(s.meta.items[i].key, key) != 0)
            LP_CHECK(lp_meta_set(&t.meta, s.meta.items[i].key, s.meta.items[i].value) == 0);
    if (value)
        LP_CHECK(lp_meta_set(&t.meta, key, value) == 0);
    lp_membuf body = {0};
    LP_CHECK(lp_upload_pack(&t, &body) == 0);
    expect_fail(body.data, body.size, 0, LP_EFORMAT, field);
    lp_membuf_free(&body);
    lp_meta_fini(&t.meta);
    lp_profile_set_fini(&s);
}

static void test_identity_checks(void)
{
    expect_bad_identity("message-id", "not-hex-at-all-but-long-enough", "message-id");
    expect_bad_identity("message-id", "0123456789abcde", "message-id"); /* 15 digits */
    expect_bad_identity("message-id",
                        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0",
                        "message-id"); /* 65 */
    expect_bad_identity("message-id", NULL, "message-id");
    expect_bad_identity("build-id", "d", "build-id");
    expect_bad_identity("build-id", "xyz0", "build-id");
    expect_bad_identity("build-id", NULL, "build-id");
    expect_bad_identity("program", "", "program");
    char longname[300];
    memset(longname, 'p', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    expect_bad_identity("program", longname, "program");
    expect_bad_identity("device", longname, "device");
    expect_bad_identity("instructions", "12a", "instructions");

    /* Upper-case hex is taken, and named in lower case; no device: "unknown". */
    lp_profile_set s;
    make_set(&s, "/usr/bin/demo", 3);
    LP_CHECK(lp_meta_set(&s.meta, "message-id", "ABCDEF0123456789ABCDEF0123456789") == 0);
    LP_CHECK(lp_meta_set(&s.meta, "build-id", "DEADBEEF") == 0);
    lp_membuf body = {0};
    LP_CHECK(lp_upload_pack(&s, &body) == 0);
    lp_profile_set got;
    lp_upload_id id;
    char why[256];
    LP_CHECK(lp_upload_unpack(body.data, body.size, 0, &got, &id, NULL, why, sizeof why) == 0);
    LP_CHECK(strcmp(id.message_id, "abcdef0123456789abcdef0123456789") == 0);
    LP_CHECK(strcmp(id.build_id, "deadbeef") == 0);
    LP_CHECK(strcmp(id.device, "unknown") == 0);
    lp_profile_set_fini(&got);
    lp_membuf_free(&body);
    lp_profile_set_fini(&s);
}

/* ---- bombs ------------------------------------------------------------------------ */

/* total bytes of zeros as one zstd frame, with or without its size. */
static void make_bomb(lp_membuf *out, uint64_t total, int declare)
{
    ZSTD_CCtx *c = ZSTD_createCCtx();
    LP_CHECK(c != NULL);
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 1);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, declare ? 1 : 0);
    if (declare)
        ZSTD_CCtx_setPledgedSrcSize(c, total);
    static uint8_t zeros[1 << 20];
    size_t cap = 1 << 20;
    out->data = malloc(cap);
    out->size = 0;
    uint64_t fed = 0;
    for (;;) {
        size_t n = total - fed < sizeof zeros ? (size_t)(total - fed) : sizeof zeros;
        ZSTD_EndDirective end = fed + n == total ? ZSTD_e_end : ZSTD_e_continue;
        ZSTD_inBuffer in = {zeros, n, 0};
        size_t left;
        do {
            ZSTD_outBuffer ob = {out->data + out->size, cap - out->size, 0};
            left = ZSTD_compressStream2(c, &ob, &in, end);
            LP_CHECK(!ZSTD_isError(left));
            if (ZSTD_isError(left))
                left = 0;
            out->size += ob.pos;
        } while (in.pos < in.size || (end == ZSTD_e_end && left != 0));
        fed += n;
        if (end == ZSTD_e_end)
            break;
    }
    ZSTD_freeCCtx(c);
}

static void test_bombs(void)
{
    const uint64_t big = (uint64_t)200 << 20;
    lp_membuf declared = {0}, undeclared = {0};
    make_bomb(&declared, big, 1);
    make_bomb(&undeclared, big, 0);
    LP_CHECK(declared.size < 64 << 10 && undeclared.size < 64 << 10);
    LP_CHECK(ZSTD_getFrameContentSize(declared.data, declared.size) == big);
    LP_CHECK(ZSTD_getFrameContentSize(undeclared.data, undeclared.size) ==
             ZSTD_CONTENTSIZE_UNKNOWN);

    /* Declared: refused from the header, before any output buffer. */
    peak_bytes = live_bytes;
    size_t base = live_bytes;
    expect_fail(declared.data, declared.size, 0, LP_ELIMIT, "content size");
    LP_CHECK(peak_bytes - base < 4096);

    /* Undeclared: stopped once past the limit, the buffer never above it. */
    const size_t limit = 1 << 20;
    peak_bytes = live_bytes;
    expect_fail(undeclared.data, undeclared.size, limit, LP_ELIMIT, "more than the limit");
    LP_CHECK(peak_bytes - base <= 2 * (limit + 1) + 4096);
    LP_CHECK(peak_bytes - base > limit / 2);

    /* And under the default limit. */
    peak_bytes = live_bytes;
    expect_fail(undeclared.data, undeclared.size, 0, LP_ELIMIT, "more than the limit");
    LP_CHECK(peak_bytes - base <= 2 * (LP_UPLOAD_MAX_PROFILE + 1) + 4096);
    free(declared.data);
    free(undeclared.data);
}

int main(void)
{
    lp_allocator a = {count_alloc, count_realloc, count_free, NULL};
    lp_set_allocator(&a);
    test_identify();
    test_round_trip();
    test_damaged();
    test_identity_checks();
    test_bombs();
    LP_CHECK_EQ_U64(live_bytes, 0);
    return lp_test_done();
}
