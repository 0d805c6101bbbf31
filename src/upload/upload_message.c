/* Making a profile set a message and packing it for the wire.
 *
 * identify names the message so that the collector can take it exactly
 * once: a file pushed twice must get the same id, so the id is a hash of
 * the file itself (two independent 64-bit lanes of core's mixing hash give
 * 128 bits: ample against accidental collisions between one project's
 * messages; it is not meant to resist someone forging them). pack writes
 * the profile file and compresses it with zstd at level 3, which on
 * profile files gives most of level 19's ratio at a fraction of its time,
 * and the collector ingests many small messages. */
#define _POSIX_C_SOURCE 200809L /* gethostname */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "upload_internal.h"

void lp__upload_why(char *why, size_t whycap, const char *fmt, ...)
{
    if (!why || whycap == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whycap, fmt, ap);
    va_end(ap);
}

int lp__upload_is_hex(const char *s, size_t lo, size_t hi)
{
    size_t n = 0;
    for (; s[n]; n++) {
        char c = s[n];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
            return 0;
        if (n >= hi)
            return 0;
    }
    return n >= lo;
}

/* ---- identify ------------------------------------------------------------------- */

static uint64_t le64_tail(const uint8_t *p, size_t n)
{
    uint64_t w = 0;
    for (size_t i = 0; i < n; i++)
        w |= (uint64_t)p[i] << (8 * i);
    return w;
}

/* Two lanes over the same 8-byte words; the second feeds the word and the
 * state to lp_hash_pair the other way round, from another seed, so the
 * lanes do not collide together. The length closes both, so a file and the
 * same file with zero bytes appended differ. */
static void hash128(const uint8_t *p, size_t n, uint64_t out[2])
{
    uint64_t h1 = 0x6c6f7770726f6631ULL, h2 = 0x2d6d65737361676bULL;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = le64_tail(p + i, 8);
        h1 = lp_hash_pair(h1, w);
        h2 = lp_hash_pair(w, h2);
    }
    uint64_t w = le64_tail(p + i, n - i);
    h1 = lp_hash_pair(h1, w);
    h2 = lp_hash_pair(w, h2);
    out[0] = lp_hash_pair(h1, (uint64_t)n);
    out[1] = lp_hash_pair((uint64_t)n, h2);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The module whose build id names the program's build, or NULL. */
static const lp_module *program_module(const lp_profile_set *set)
{
    const char *program = lp_meta_get(&set->meta, "program");
    const lp_module_map *mods = &set->modules;
    if (program && program[0]) {
        for (size_t i = 0; i < mods->count; i++)
            if (mods->items[i].build_id_len && mods->items[i].path &&
                strcmp(mods->items[i].path, program) == 0)
                return &mods->items[i];
        for (size_t i = 0; i < mods->count; i++)
            if (mods->items[i].build_id_len && mods->items[i].path &&
                strcmp(base_name(mods->items[i].path), base_name(program)) == 0)
                return &mods->items[i];
    }
    for (size_t i = 0; i < mods->count; i++)
        if (mods->items[i].build_id_len)
            return &mods->items[i];
    return NULL;
}

int lp_upload_identify(lp_profile_set *set, const char *device)
{
    /* Everything that can refuse comes first, so a refused set is left as
     * it was. */
    const char *have_build = lp_meta_get(&set->meta, "build-id");
    const lp_module *m = program_module(set);
    if ((!have_build || !have_build[0]) && !m)
        return LP_ENOENT;
    int rc = 0;
    if (!have_build || !have_build[0]) {
        char hex[2 * sizeof m->build_id + 1];
        size_t len = m->build_id_len < sizeof m->build_id ? m->build_id_len : sizeof m->build_id;
        for (size_t i = 0; i < len; i++)
            snprintf(hex + 2 * i, 3, "%02x", m->build_id[i]);
        hex[2 * len] = '\0';
        if ((rc = lp_meta_set(&set->meta, "build-id", hex)) != 0)
            return rc;
    }
    const char *program = lp_meta_get(&set->meta, "program");
    if ((!program || !program[0]) && m && m->path && m->path[0])
        if ((rc = lp_meta_set(&set->meta, "program", m->path)) != 0)
            return rc;
    if (device) {
        rc = lp_meta_set(&set->meta, "device", device);
    } else if (!lp_meta_get(&set->meta, "device")) {
        char host[256];
        if (gethostname(host, sizeof host) != 0 || host[0] == '\0')
            snprintf(host, sizeof host, "unknown");
        host[sizeof host - 1] = '\0';
        rc = lp_meta_set(&set->meta, "device", host);
    }
    if (rc)
        return rc;
    const char *have_id = lp_meta_get(&set->meta, "message-id");
    if (have_id && have_id[0])
        return 0;
    /* The id covers everything above, device included: the same file
     * pushed from two devices is two messages. */
    lp_membuf file = {0};
    if ((rc = lp_profile_file_write(set, lp_membuf_sink(&file))) != 0) {
        lp_membuf_free(&file);
        return rc;
    }
    uint64_t h[2];
    hash128(file.data, file.size, h);
    lp_membuf_free(&file);
    char id[33];
    snprintf(id, sizeof id, "%016llx%016llx", (unsigned long long)h[0], (unsigned long long)h[1]);
    return lp_meta_set(&set->meta, "message-id", id);
}

/* ---- pack ----------------------------------------------------------------------- */

int lp_upload_pack(const lp_profile_set *set, lp_membuf *out)
{
    lp_membuf file = {0};
    int rc = lp_profile_file_write(set, lp_membuf_sink(&file));
    if (rc) {
        lp_membuf_free(&file);
        return rc;
    }
    size_t bound = ZSTD_compressBound(file.size);
    if (ZSTD_isError(bound) || bound > SIZE_MAX - out->size) {
        lp_membuf_free(&file);
        return LP_ENOMEM;
    }
    if (out->size + bound > out->capacity) {
        uint8_t *p = lp_realloc(out->data, out->capacity, out->size + bound);
        if (!p) {
            lp_membuf_free(&file);
            return LP_ENOMEM;
        }
        out->data = p;
        out->capacity = out->size + bound;
    }
    size_t n = ZSTD_compress(out->data + out->size, bound, file.data, file.size, 3);
    lp_membuf_free(&file);
    if (ZSTD_isError(n))
        return LP_EIO;
    out->size += n;
    return 0;
}
