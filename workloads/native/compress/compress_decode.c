/* compress: the stream decoder. Every length, distance and symbol read from
 * the stream is checked before use, so a corrupt stream ends in -1, never
 * in a read or write out of bounds. */
#include "compress.h"

#include <stdlib.h>
#include <string.h>

typedef struct cz_inflater {
    cz_bitreader br;
    cz_decoder_table lit, dist;
    unsigned char *out;
    size_t pos, size;
} cz_inflater;

static int cz_read_lengths(cz_inflater *z, uint8_t *lengths, int n)
{
    for (int s = 0; s < n; s++)
        lengths[s] = (uint8_t)cz_br_get(&z->br, 4);
    return z->br.overrun ? -1 : 0;
}

static int cz_read_block_header(cz_inflater *z, int *out_last)
{
    uint8_t lit_len[CZ_N_LITLEN], dist_len[CZ_N_DIST];
    *out_last = (int)cz_br_get(&z->br, 1);
    if (cz_read_lengths(z, lit_len, CZ_N_LITLEN) || cz_read_lengths(z, dist_len, CZ_N_DIST))
        return -1;
    if (lit_len[CZ_END_BLOCK] == 0)
        return -1;
    if (cz_huff_decoder_build(&z->lit, lit_len, CZ_N_LITLEN) ||
        cz_huff_decoder_build(&z->dist, dist_len, CZ_N_DIST))
        return -1;
    return 0;
}

static int cz_copy_match(cz_inflater *z, int len_code)
{
    if (len_code > 28)
        return -1;
    const cz_class *lcl = cz_length_class(len_code);
    size_t len = lcl->base + cz_br_get(&z->br, lcl->extra);
    int dc = cz_br_decode(&z->br, &z->dist);
    if (dc < 0 || dc >= CZ_N_DIST)
        return -1;
    const cz_class *dcl = cz_dist_class(dc);
    size_t dist = dcl->base + cz_br_get(&z->br, dcl->extra);
    if (dist > z->pos || len > z->size - z->pos)
        return -1;
    /* Overlapping copies (dist < len) repeat the last bytes: byte by byte. */
    unsigned char *dst = z->out + z->pos;
    const unsigned char *src = dst - dist;
    for (size_t i = 0; i < len; i++)
        dst[i] = src[i];
    z->pos += len;
    return 0;
}

static int cz_inflate_block(cz_inflater *z)
{
    for (;;) {
        int sym = cz_br_decode(&z->br, &z->lit);
        if (sym < 0 || z->br.overrun > 8)
            return -1;
        if (sym < 256) {
            if (z->pos >= z->size)
                return -1;
            z->out[z->pos++] = (unsigned char)sym;
        } else if (sym == CZ_END_BLOCK) {
            return 0;
        } else if (cz_copy_match(z, sym - 257)) {
            return -1;
        }
    }
}

static int cz_read_stream_header(const unsigned char *in, size_t n, size_t *out_size)
{
    if (n < 12 || memcmp(in, "LPZ1", 4) != 0)
        return -1;
    uint64_t size = 0;
    for (int i = 0; i < 8; i++)
        size |= (uint64_t)in[4 + i] << (8 * i);
    if (size > ((uint64_t)1 << 34))
        return -1;
    *out_size = (size_t)size;
    return 0;
}

int cz_decompress(const unsigned char *in, size_t n, unsigned char **out, size_t *out_len)
{
    cz_inflater *z = nw_alloc(sizeof *z);
    if (cz_read_stream_header(in, n, &z->size)) {
        free(z);
        return -1;
    }
    cz_br_init(&z->br, in + 12, n - 12);
    z->out = nw_alloc(z->size);
    z->pos = 0;
    int last = 0, rc = 0;
    while (!last && rc == 0) {
        rc = cz_read_block_header(z, &last);
        if (rc == 0)
            rc = cz_inflate_block(z);
    }
    if (rc == 0 && z->pos != z->size)
        rc = -1;
    if (rc) {
        free(z->out);
    } else {
        *out = z->out;
        *out_len = z->size;
    }
    free(z);
    return rc;
}
