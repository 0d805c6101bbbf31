/* Shared by the fuzz targets.
 *
 * Checksums: almost every mutation of a chunk breaks its CRC, so a fuzzer
 * fed raw bytes would spend its time in the checksum test and never reach
 * the payload decoders. Each target therefore runs the input twice: as
 * given (the framing and checksum paths), and with every checksum that the
 * framing lets it find recomputed (the decoders behind them). Both runs
 * happen in replay too, so a corpus file means the same thing everywhere.
 *
 * Round trips: whatever a reader accepts, the matching writer must accept
 * and write so that it reads back the same; a difference traps. */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdlib.h>
#include <string.h>

#include "lowprof/trace.h"
#include "../../src/trace/trace_internal.h"
#include "fuzz_assert.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A copy of data with each chunk's CRC recomputed, or NULL if there was
 * nothing to repair (the caller then skips the second run). */
static inline uint8_t *fuzz_fix_checksums(const uint8_t *data, size_t size)
{
    if (size < LP__HEADER_SIZE + LP__CHUNK_HEAD + LP__CHUNK_TAIL)
        return NULL;
    uint8_t *d = malloc(size);
    if (!d)
        return NULL;
    memcpy(d, data, size);
    size_t pos = LP__HEADER_SIZE;
    int changed = 0;
    while (size - pos >= LP__CHUNK_HEAD + LP__CHUNK_TAIL) {
        uint32_t len = lp__le32(d + pos + 4);
        if (len > size - pos - LP__CHUNK_HEAD - LP__CHUNK_TAIL)
            break;
        uint32_t crc = lp__crc32(0, d + pos, LP__CHUNK_HEAD + (size_t)len);
        uint8_t *at = d + pos + LP__CHUNK_HEAD + len;
        for (int i = 0; i < 4; i++) {
            uint8_t b = (uint8_t)(crc >> (8 * i));
            changed |= at[i] != b;
            at[i] = b;
        }
        pos += LP__CHUNK_HEAD + (size_t)len + LP__CHUNK_TAIL;
    }
    if (!changed) {
        free(d);
        return NULL;
    }
    return d;
}

static inline int fuzz_same_meta(const lp_meta *a, const lp_meta *b)
{
    if (a->count != b->count)
        return 0;
    for (size_t i = 0; i < a->count; i++)
        if (strcmp(a->items[i].key, b->items[i].key) ||
            strcmp(a->items[i].value, b->items[i].value))
            return 0;
    return 1;
}

static inline int fuzz_same_modules(const lp_module_map *a, const lp_module_map *b)
{
    if (a->count != b->count)
        return 0;
    for (size_t i = 0; i < a->count; i++) {
        const lp_module *x = &a->items[i], *y = &b->items[i];
        if (strcmp(x->path, y->path) || x->start != y->start || x->size != y->size ||
            x->bias != y->bias || x->build_id_len != y->build_id_len ||
            memcmp(x->build_id, y->build_id, x->build_id_len))
            return 0;
    }
    return 1;
}

static inline int fuzz_same_table(const lp_table *a, const lp_table *b)
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

/* Checks the error report a failed read leaves: a known code and
 * terminated strings. */
static inline void fuzz_check_error(int rc, const lp_read_error *err)
{
    FUZZ_ASSERT(rc < 0 && rc >= LP_ESPEC);
    FUZZ_ASSERT(memchr(err->field, '\0', sizeof err->field) != NULL);
    FUZZ_ASSERT(memchr(err->detail, '\0', sizeof err->detail) != NULL);
    FUZZ_ASSERT(err->field[0] != '\0');
}

#endif
