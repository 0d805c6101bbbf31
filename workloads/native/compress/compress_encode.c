/* compress: the stream encoder. Tokens from the matcher are gathered into
 * blocks; each block gets its own pair of Huffman codes, sent as plain
 * 4-bit lengths (the header costs ~160 bytes, noise at 32 K tokens). */
#include "compress.h"

#include <stdlib.h>
#include <string.h>

typedef struct cz_block_codes {
    uint32_t lit_freq[CZ_N_LITLEN], dist_freq[CZ_N_DIST];
    uint8_t lit_len[CZ_N_LITLEN], dist_len[CZ_N_DIST];
    uint16_t lit_code[CZ_N_LITLEN], dist_code[CZ_N_DIST];
} cz_block_codes;

static void cz_count_symbols(cz_block_codes *bc, const cz_token *tokens, size_t n)
{
    memset(bc->lit_freq, 0, sizeof bc->lit_freq);
    memset(bc->dist_freq, 0, sizeof bc->dist_freq);
    for (size_t i = 0; i < n; i++) {
        if (tokens[i].len == 0) {
            bc->lit_freq[tokens[i].dist]++;
        } else {
            bc->lit_freq[257 + cz_length_code(tokens[i].len)]++;
            bc->dist_freq[cz_dist_code(tokens[i].dist + 1)]++;
        }
    }
    bc->lit_freq[CZ_END_BLOCK]++;
}

static void cz_build_codes(cz_block_codes *bc)
{
    cz_huff_lengths(bc->lit_freq, CZ_N_LITLEN, CZ_MAX_BITS, bc->lit_len);
    cz_huff_lengths(bc->dist_freq, CZ_N_DIST, CZ_MAX_BITS, bc->dist_len);
    cz_huff_codes(bc->lit_len, CZ_N_LITLEN, bc->lit_code);
    cz_huff_codes(bc->dist_len, CZ_N_DIST, bc->dist_code);
}

static void cz_write_header(cz_bitwriter *w, const cz_block_codes *bc, int last)
{
    cz_bw_put(w, (uint32_t)last, 1);
    for (int s = 0; s < CZ_N_LITLEN; s++)
        cz_bw_put(w, bc->lit_len[s], 4);
    for (int s = 0; s < CZ_N_DIST; s++)
        cz_bw_put(w, bc->dist_len[s], 4);
}

static void cz_write_match(cz_bitwriter *w, const cz_block_codes *bc, int len, int dist)
{
    int lc = cz_length_code(len);
    const cz_class *lcl = cz_length_class(lc);
    cz_bw_put(w, bc->lit_code[257 + lc], bc->lit_len[257 + lc]);
    cz_bw_put(w, (uint32_t)(len - lcl->base), lcl->extra);
    int dc = cz_dist_code(dist);
    const cz_class *dcl = cz_dist_class(dc);
    cz_bw_put(w, bc->dist_code[dc], bc->dist_len[dc]);
    cz_bw_put(w, (uint32_t)(dist - dcl->base), dcl->extra);
}

static void cz_write_block(cz_bitwriter *w, cz_block_codes *bc, const cz_token *tokens, size_t n,
                           int last)
{
    cz_count_symbols(bc, tokens, n);
    cz_build_codes(bc);
    cz_write_header(w, bc, last);
    for (size_t i = 0; i < n; i++) {
        if (tokens[i].len == 0)
            cz_bw_put(w, bc->lit_code[tokens[i].dist], bc->lit_len[tokens[i].dist]);
        else
            cz_write_match(w, bc, tokens[i].len, tokens[i].dist + 1);
    }
    cz_bw_put(w, bc->lit_code[CZ_END_BLOCK], bc->lit_len[CZ_END_BLOCK]);
}

static void cz_write_stream_header(cz_bitwriter *w, size_t n)
{
    static const char magic[4] = {'L', 'P', 'Z', '1'};
    for (int i = 0; i < 4; i++)
        cz_bw_put_byte(w, (unsigned char)magic[i]);
    for (int i = 0; i < 8; i++)
        cz_bw_put_byte(w, (unsigned char)((uint64_t)n >> (8 * i)));
}

void cz_compress(const unsigned char *in, size_t n, int max_chain, int lazy, unsigned char **out,
                 size_t *out_len, cz_stats *out_stats)
{
    cz_bitwriter w;
    cz_bw_init(&w);
    cz_write_stream_header(&w, n);
    cz_matcher *m = cz_matcher_create(max_chain, lazy);
    cz_token *tokens = nw_alloc(sizeof(cz_token) * CZ_BLOCK_TOKENS);
    cz_block_codes *bc = nw_alloc(sizeof *bc);
    memset(out_stats, 0, sizeof *out_stats);
    size_t pos = 0;
    do {
        size_t count;
        pos = cz_matcher_parse(m, in, pos, n, tokens, CZ_BLOCK_TOKENS, &count);
        for (size_t i = 0; i < count; i++)
            out_stats->matches += tokens[i].len != 0;
        out_stats->tokens += count;
        out_stats->blocks++;
        cz_write_block(&w, bc, tokens, count, pos >= n);
    } while (pos < n);
    cz_bw_flush(&w);
    free(bc);
    free(tokens);
    cz_matcher_free(m);
    *out = w.buf;
    *out_len = w.len;
}
