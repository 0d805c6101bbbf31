/* LEB128 varints: seven bits a byte, low bits first, the top bit set on
 * every byte but the last. Counters, deltas and lengths inside payloads are
 * mostly small, so this is where the formats get their compactness. The
 * decoder accepts only the shortest encoding, so one value has one byte
 * string and equal content gives equal files. */
#include "trace_internal.h"

size_t lp__varint_size(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

size_t lp__varint_encode(uint8_t *out, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        out[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
}

int lp__cur_varint(lp__cur *c, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = c->pos;
    for (unsigned shift = 0;; shift += 7) {
        if (i >= c->size)
            return LP_ETRUNC;
        uint8_t byte = c->p[i++];
        /* The tenth byte may only carry the 64th bit. */
        if (shift == 63 && byte > 1)
            return LP_EFORMAT;
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            if (byte == 0 && shift)
                return LP_EFORMAT; /* redundant trailing zero group */
            break;
        }
        if (shift == 63)
            return LP_EFORMAT;
    }
    c->pos = i;
    *out = v;
    return 0;
}
