/* compress: LSB-first bit output and input over a 64-bit accumulator. The
 * reader feeds zero bytes past the end and counts them, so a truncated
 * stream is detected by the caller rather than read out of bounds. */
#include "compress.h"

#include <stdlib.h>

void cz_bw_init(cz_bitwriter *w)
{
    w->cap = 1 << 16;
    w->buf = nw_alloc(w->cap);
    w->len = 0;
    w->acc = 0;
    w->n_bits = 0;
}

void cz_bw_put_byte(cz_bitwriter *w, unsigned char b)
{
    if (w->len == w->cap) {
        w->cap *= 2;
        w->buf = nw_realloc(w->buf, w->cap);
    }
    w->buf[w->len++] = b;
}

void cz_bw_put(cz_bitwriter *w, uint32_t bits, int n)
{
    w->acc |= (uint64_t)bits << w->n_bits;
    w->n_bits += n;
    while (w->n_bits >= 8) {
        cz_bw_put_byte(w, (unsigned char)w->acc);
        w->acc >>= 8;
        w->n_bits -= 8;
    }
}

void cz_bw_flush(cz_bitwriter *w)
{
    if (w->n_bits > 0)
        cz_bw_put_byte(w, (unsigned char)w->acc);
    w->acc = 0;
    w->n_bits = 0;
}

void cz_bw_free(cz_bitwriter *w)
{
    free(w->buf);
    w->buf = NULL;
}

void cz_br_init(cz_bitreader *r, const unsigned char *buf, size_t len)
{
    r->buf = buf;
    r->len = len;
    r->pos = 0;
    r->acc = 0;
    r->n_bits = 0;
    r->overrun = 0;
}

static void cz_br_refill(cz_bitreader *r)
{
    while (r->n_bits <= 56) {
        uint64_t byte = 0;
        if (r->pos < r->len)
            byte = r->buf[r->pos++];
        else
            r->overrun++;
        r->acc |= byte << r->n_bits;
        r->n_bits += 8;
    }
}

uint32_t cz_br_peek(cz_bitreader *r, int n)
{
    if (r->n_bits < n)
        cz_br_refill(r);
    return (uint32_t)(r->acc & ((1ull << n) - 1));
}

void cz_br_skip(cz_bitreader *r, int n)
{
    r->acc >>= n;
    r->n_bits -= n;
}

uint32_t cz_br_get(cz_bitreader *r, int n)
{
    if (n == 0)
        return 0;
    uint32_t v = cz_br_peek(r, n);
    cz_br_skip(r, n);
    return v;
}

/* Codes longer than the fast table: walk the canonical code one bit at a
 * time, comparing against the first code of each length. */
static int cz_br_decode_slow(cz_bitreader *r, const cz_decoder_table *t)
{
    int code = 0, first = 0, index = 0;
    for (int len = 1; len <= CZ_MAX_BITS; len++) {
        code |= (int)cz_br_get(r, 1);
        int count = t->count[len];
        if (code - first < count)
            return t->symbols[index + code - first];
        index += count;
        first = (first + count) << 1;
        code <<= 1;
    }
    return -1;
}

int cz_br_decode(cz_bitreader *r, const cz_decoder_table *t)
{
    uint16_t e = t->fast[cz_br_peek(r, 10)];
    if (e) {
        cz_br_skip(r, e & 15);
        return e >> 4;
    }
    return cz_br_decode_slow(r, t);
}
