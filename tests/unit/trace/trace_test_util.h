/* Helpers shared by the trace tests: an independent walker over the
 * container layout (written from doc/format-container.md, not from the
 * library, so it checks the library against the document), a bitwise
 * CRC-32 reference, a builder for hand-made hostile files, and an allocator
 * that records the largest request so tests can prove a reader did not
 * believe a huge declared size. */
#ifndef TRACE_TEST_UTIL_H
#define TRACE_TEST_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "lowprof/trace.h"
#include "../lp_test.h"

/* ---- reference CRC-32 (bit by bit) ---------------------------------------- */

static inline uint32_t ref_crc32(const uint8_t *p, size_t n, uint32_t crc)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
    }
    return ~crc;
}

static inline uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- container walker ---------------------------------------------------------- */

typedef struct walk_chunk {
    size_t offset; /* of the head */
    unsigned type;
    size_t length;
    size_t crc_offset;
    size_t end; /* one past the CRC */
} walk_chunk;

/* Splits a well-formed file into chunks, checking every CRC; returns the
 * chunk count or -1. */
static inline int walk(const uint8_t *d, size_t n, walk_chunk *out, int max)
{
    if (n < 16)
        return -1;
    size_t pos = 16;
    int count = 0;
    while (pos < n) {
        if (count == max || n - pos < 12)
            return -1;
        walk_chunk c;
        c.offset = pos;
        c.type = (unsigned)d[pos] | (unsigned)d[pos + 1] << 8;
        c.length = rd32(d + pos + 4);
        if (c.length > n - pos - 12)
            return -1;
        c.crc_offset = pos + 8 + c.length;
        c.end = c.crc_offset + 4;
        if (ref_crc32(d + pos, 8 + c.length, 0) != rd32(d + c.crc_offset))
            return -1;
        out[count++] = c;
        pos = c.end;
    }
    return count;
}

/* ---- hand-made files --------------------------------------------------------- */

typedef struct bytes {
    uint8_t *d;
    size_t n;
    size_t cap;
} bytes;

static inline void b_put(bytes *b, const void *p, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->d = realloc(b->d, b->cap);
    }
    memcpy(b->d + b->n, p, n);
    b->n += n;
}

static inline void b_u8(bytes *b, unsigned v)
{
    uint8_t x = (uint8_t)v;
    b_put(b, &x, 1);
}

static inline void b_le(bytes *b, uint64_t v, int width)
{
    for (int i = 0; i < width; i++)
        b_u8(b, (unsigned)(v >> (8 * i)) & 0xff);
}

static inline void b_varint(bytes *b, uint64_t v)
{
    while (v >= 0x80) {
        b_u8(b, (unsigned)(v & 0x7f) | 0x80);
        v >>= 7;
    }
    b_u8(b, (unsigned)v);
}

static inline void b_header(bytes *b, unsigned kind, unsigned version)
{
    static const uint8_t magic[8] = {0x8c, 'L', 'P', 'F', '\r', '\n', 0x1a, '\n'};
    b_put(b, magic, 8);
    b_le(b, kind, 2);
    b_le(b, version, 2);
    b_le(b, 0, 4);
}

/* A chunk with a correct CRC (declared may differ from the payload size to
 * forge lengths; then the CRC is over what is actually there). */
static inline void b_chunk_len(bytes *b, unsigned type, unsigned flags, const bytes *payload,
                               uint32_t declared)
{
    size_t at = b->n;
    b_le(b, type, 2);
    b_le(b, flags, 2);
    b_le(b, declared, 4);
    if (payload && payload->n)
        b_put(b, payload->d, payload->n);
    uint32_t crc = ref_crc32(b->d + at, b->n - at, 0);
    b_le(b, crc, 4);
}

static inline void b_chunk(bytes *b, unsigned type, const bytes *payload)
{
    b_chunk_len(b, type, 0, payload, (uint32_t)(payload ? payload->n : 0));
}

static inline void b_free(bytes *b)
{
    free(b->d);
    memset(b, 0, sizeof *b);
}

/* Chunk type numbers from doc/format-container.md. */
enum {
    CH_META = 1,
    CH_MODULES = 2,
    CH_END = 3,
    CH_PROFILE = 16,
    CH_PROFILE_PART = 17,
    CH_MATRIX = 32,
    CH_DICT = 33,
    CH_INTERVAL = 34,
    CH_INTERVAL_PART = 35,
    CH_EVENTS = 48,
};

/* ---- an allocator that remembers its largest request ----------------------------- */

static size_t track_largest, track_live, track_peak;

typedef struct track_head {
    size_t size;
    size_t pad;
} track_head;

static void *track_alloc(void *ctx, size_t n)
{
    (void)ctx;
    track_head *h = malloc(sizeof *h + n);
    if (!h)
        return NULL;
    h->size = n;
    if (n > track_largest)
        track_largest = n;
    track_live += n;
    if (track_live > track_peak)
        track_peak = track_live;
    return h + 1;
}

static inline void track_free(void *ctx, void *p)
{
    (void)ctx;
    if (!p)
        return;
    track_head *h = (track_head *)p - 1;
    track_live -= h->size;
    free(h);
}

static const lp_allocator track_allocator = {track_alloc, NULL, track_free, NULL};

static inline void track_start(void)
{
    track_largest = track_live = track_peak = 0;
    lp_set_allocator(&track_allocator);
}

static inline void track_stop(void)
{
    lp_set_allocator(NULL);
}

/* An allocator that fails once countdown allocations have succeeded, for
 * proving that every allocation failure is reported and leaks nothing. */
static long fail_countdown = -1;

static inline void *fail_alloc(void *ctx, size_t n)
{
    if (fail_countdown == 0)
        return NULL;
    if (fail_countdown > 0)
        fail_countdown--;
    return track_alloc(ctx, n);
}

static const lp_allocator failing_allocator = {fail_alloc, NULL, track_free, NULL};

/* Runs op with the n-th allocation failing, for n = 0, 1, ... until op
 * succeeds; every failing run must return LP_ENOMEM and free everything.
 * Returns how many runs failed as they should. */
static inline int each_alloc_failure(int (*op)(void *), void *arg)
{
    for (long n = 0; n < 100000; n++) {
        track_largest = track_live = track_peak = 0;
        fail_countdown = n;
        lp_set_allocator(&failing_allocator);
        int rc = op(arg);
        lp_set_allocator(NULL);
        fail_countdown = -1;
        if (track_live != 0) {
            fprintf(stderr, "allocation %ld failing: %zu bytes leaked (rc %d)\n", n, track_live,
                    rc);
            lp_test_failures++;
            return (int)n;
        }
        if (rc == 0)
            return (int)n;
        if (rc != LP_ENOMEM) {
            fprintf(stderr, "allocation %ld failing: rc %d, not LP_ENOMEM\n", n, rc);
            lp_test_failures++;
            return (int)n;
        }
    }
    return -1;
}

/* ---- sinks -------------------------------------------------------------------- */

/* Accepts limit bytes, then fails with LP_EIO. */
typedef struct failing_sink {
    size_t written;
    size_t limit;
} failing_sink;

static inline int failing_write(void *ctx, const void *data, size_t size)
{
    (void)data;
    failing_sink *f = ctx;
    if (size > f->limit - f->written)
        return LP_EIO;
    f->written += size;
    return 0;
}

/* A source that hands out one byte per call, as a pipe might. */
static inline int dribble_read(void *ctx, void *buf, size_t size, size_t *got)
{
    lp_memsource *m = ctx;
    *got = 0;
    if (size && m->pos < m->size) {
        *(uint8_t *)buf = m->data[m->pos++];
        *got = 1;
    }
    return 0;
}

#endif
