/* remote: helpers private to the module: LEB128 varints. (The trace
 * module has its own; remote's freestanding part must not depend on trace,
 * so it keeps these few lines of its own.) Output goes through core's
 * sinks, so buffer growth stays core's. */
#ifndef LOWPROF_REMOTE_INTERNAL_H
#define LOWPROF_REMOTE_INTERNAL_H

#include "lowprof/remote.h"

#define LP__VARINT_MAX 10

/* Writes v at p (room for LP__VARINT_MAX bytes assumed); returns the
 * bytes written. */
static inline size_t lp__varint_put(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

static inline size_t lp__varint_len(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

/* Reads a varint from [*p, end): 0 and *out, LP_ETRUNC if the input ends
 * inside it, LP_EFORMAT if it is longer than 64 bits allow. */
static inline int lp__varint_get(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
        if (*p == end)
            return LP_ETRUNC;
        uint8_t byte = *(*p)++;
        if (shift == 63 && byte > 1)
            return LP_EFORMAT;
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            break;
        if (shift == 63)
            return LP_EFORMAT;
    }
    *out = v;
    return LP_OK;
}

/* Writes one varint to a sink. 0 or the sink's error. */
static inline int lp__varint_write(lp_sink s, uint64_t v)
{
    uint8_t b[LP__VARINT_MAX];
    return s.write(s.ctx, b, lp__varint_put(b, v));
}

#endif
