/* Writes the seed files the upload fuzz target's corpus started from into
 * DIR: small messages (packed and plain, with per-phase sampled profiles),
 * the same cut short, a bad identity, a version this build cannot read,
 * two frames back to back, and decompression bombs of 2 MiB of zeros with
 * and without the size in the frame header (over the target's 1 MiB
 * limit, under 4 KB on disk). The output is the same on every run.
 *
 *   make_upload_seeds tests/fuzz/corpus/upload */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "lowprof/upload.h"

static int failed;

static void put(const char *dir, const char *name, const void *data, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror(path);
        failed = 1;
    }
}

static void make_set(lp_profile_set *s, int phases)
{
    static const uint8_t bid[8] = {0x5e, 0xed, 0x5e, 0xed, 0, 1, 2, 3};
    memset(s, 0, sizeof *s);
    lp_meta_set(&s->meta, "program", "/usr/local/bin/seed");
    lp_meta_set(&s->meta, "instructions", "4096000");
    lp_module_map_add(&s->modules, "/usr/local/bin/seed", 0x400000, 0x3000, 0, bid, sizeof bid);
    lp_profile *p;
    lp_profile_set_add(s, LP_PROF_METHOD, LP_PHASE_NONE, &p);
    for (uint64_t i = 0; i < 6; i++)
        lp_table_upsert(&p->table, (lp_key){0x401000 + 0x40 * i, 0})->v[0] = 10 * i + 1;
    for (uint32_t ph = 0; ph < (uint32_t)phases; ph++) {
        lp_profile_set_add(s, LP_PROF_CALL_PAIR, ph, &p);
        p->scale_num = 64;
        p->scale_den = 1;
        p->first_insn = 1000000 * ph;
        p->last_insn = 1000000 * (ph + 1);
        lp_table_upsert(&p->table, (lp_key){0x401010, 0x401040 + ph})->v[0] = 3 + ph;
    }
    lp_upload_identify(s, "seed-device");
}

static void put_zstd(const char *dir, const char *name, const void *data, size_t size)
{
    size_t cap = ZSTD_compressBound(size);
    void *z = malloc(cap);
    size_t n = z ? ZSTD_compress(z, cap, data, size, 3) : 0;
    if (!z || ZSTD_isError(n))
        failed = 1;
    else
        put(dir, name, z, n);
    free(z);
}

static void put_bomb(const char *dir, const char *name, size_t total, int declare)
{
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 19);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, declare);
    if (declare)
        ZSTD_CCtx_setPledgedSrcSize(c, total);
    void *zeros = calloc(1, total);
    size_t cap = ZSTD_compressBound(total);
    void *z = malloc(cap);
    if (!c || !zeros || !z) {
        failed = 1;
    } else {
        ZSTD_inBuffer in = {zeros, total, 0};
        ZSTD_outBuffer out = {z, cap, 0};
        size_t left = ZSTD_compressStream2(c, &out, &in, ZSTD_e_end);
        if (ZSTD_isError(left) || left != 0)
            failed = 1;
        else
            put(dir, name, z, out.pos);
    }
    free(z);
    free(zeros);
    ZSTD_freeCCtx(c);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    lp_profile_set s;
    lp_membuf plain = {0}, packed = {0};

    make_set(&s, 0);
    lp_profile_file_write(&s, lp_membuf_sink(&plain));
    lp_upload_pack(&s, &packed);
    put(dir, "seed-message-plain", plain.data, plain.size);
    put(dir, "seed-message-packed", packed.data, packed.size);
    put(dir, "seed-cut-plain", plain.data, plain.size * 2 / 3);
    put(dir, "seed-cut-packed", packed.data, packed.size / 2);
    /* Two frames: one file with trailing bytes once decompressed. */
    lp_membuf twice = {0};
    lp_sink sk = lp_membuf_sink(&twice);
    sk.write(sk.ctx, packed.data, packed.size);
    sk.write(sk.ctx, packed.data, packed.size);
    put(dir, "seed-two-frames", twice.data, twice.size);
    lp_membuf_free(&twice);
    /* A version this build does not read (header bytes 10-11). */
    plain.data[10] = 2;
    put(dir, "seed-version-2", plain.data, plain.size);
    put_zstd(dir, "seed-version-2-packed", plain.data, plain.size);
    lp_membuf_free(&plain);
    lp_membuf_free(&packed);
    lp_profile_set_fini(&s);

    make_set(&s, 3);
    lp_upload_pack(&s, &packed);
    put(dir, "seed-phases-packed", packed.data, packed.size);
    lp_membuf_free(&packed);
    lp_meta_set(&s.meta, "message-id", "not-a-hex-id");
    lp_profile_file_write(&s, lp_membuf_sink(&plain));
    put(dir, "seed-bad-id", plain.data, plain.size);
    lp_membuf_free(&plain);
    lp_profile_set_fini(&s);

    put_bomb(dir, "seed-bomb-declared", (size_t)2 << 20, 1);
    put_bomb(dir, "seed-bomb-undeclared", (size_t)2 << 20, 0);
    return failed;
}
