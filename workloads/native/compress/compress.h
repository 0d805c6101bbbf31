/* compress: an LZ77 + canonical Huffman compressor and its decompressor,
 * as a benchmark of a byte-crunching program with a realistic split into
 * stages: text generation (compress_text.c), match finding with hash chains
 * and lazy evaluation (compress_lz.c), Huffman code construction
 * (compress_huff.c), bit I/O (compress_bits.c), the block encoder
 * (compress_encode.c) and the decoder (compress_decode.c).
 *
 * The format is the program's own: a 12-byte header (magic "LPZ1", the
 * original size as 8 bytes little-endian), then blocks. A block starts with
 * a last-block bit and 4-bit code lengths for the 286 literal/length and 30
 * distance symbols, then the symbols, ending in symbol 256. Lengths and
 * distances use base-plus-extra-bits classes like DEFLATE's, derived here
 * from the class sizes rather than tabulated. */
#ifndef COMPRESS_H
#define COMPRESS_H

#include <stddef.h>
#include <stdint.h>

#include "../support/native_common.h"

enum {
    CZ_WINDOW = 32768,
    CZ_MIN_MATCH = 3,
    CZ_MAX_MATCH = 258,
    CZ_N_LITLEN = 286,
    CZ_N_DIST = 30,
    CZ_END_BLOCK = 256,
    CZ_MAX_BITS = 15,
    CZ_BLOCK_TOKENS = 32768,
};

/* ---- input ---------------------------------------------------------- */

/* Fills out[0..n) with word-like English-ish text: a seeded vocabulary
 * drawn with a skewed (roughly Zipfian) frequency, sentences, numbers and
 * paragraphs. */
void cz_text_generate(uint64_t seed, unsigned char *out, size_t n);

/* ---- LZ77 ------------------------------------------------------------- */

typedef struct cz_token {
    uint16_t len;  /* 0: a literal */
    uint16_t dist; /* for a literal: the byte */
} cz_token;

typedef struct cz_matcher cz_matcher;

/* max_chain bounds the hash-chain walk per position; lazy enables one step
 * of lazy evaluation. */
cz_matcher *cz_matcher_create(int max_chain, int lazy);
void cz_matcher_free(cz_matcher *m);
/* Parses in[start..end) into tokens (matches may reach back to in[0]);
 * stores at most cap tokens and returns the position reached. */
size_t cz_matcher_parse(cz_matcher *m, const unsigned char *in, size_t start, size_t end,
                        cz_token *out, size_t cap, size_t *out_count);

/* ---- symbol classes ----------------------------------------------------- */

typedef struct cz_class {
    uint16_t base;
    uint8_t extra;
} cz_class;

void cz_classes_init(void);
const cz_class *cz_length_class(int code); /* code 0..28 for symbols 257..285 */
const cz_class *cz_dist_class(int code);   /* code 0..29 */
int cz_length_code(int len);               /* 0..28 */
int cz_dist_code(int dist);                /* 0..29 */

/* ---- Huffman ------------------------------------------------------------ */

/* Code lengths (0 for unused symbols, otherwise 1..max_bits) of an optimal
 * prefix code for freq[0..n), flattened until no length exceeds max_bits.
 * A single used symbol gets length 1. */
void cz_huff_lengths(const uint32_t *freq, int n, int max_bits, uint8_t *out_lengths);
/* Canonical codes for the lengths, bit-reversed for LSB-first output. */
void cz_huff_codes(const uint8_t *lengths, int n, uint16_t *out_codes);

typedef struct cz_decoder_table {
    uint16_t fast[1 << 10]; /* symbol << 4 | length, 0 when longer than 10 */
    uint16_t count[CZ_MAX_BITS + 1];
    uint16_t symbols[CZ_N_LITLEN];
} cz_decoder_table;

/* Returns 0, or -1 when the lengths do not form a prefix code. */
int cz_huff_decoder_build(cz_decoder_table *t, const uint8_t *lengths, int n);

/* ---- bits --------------------------------------------------------------- */

typedef struct cz_bitwriter {
    unsigned char *buf;
    size_t len, cap;
    uint64_t acc;
    int n_bits;
} cz_bitwriter;

void cz_bw_init(cz_bitwriter *w);
void cz_bw_put(cz_bitwriter *w, uint32_t bits, int n);
void cz_bw_put_byte(cz_bitwriter *w, unsigned char b);
void cz_bw_flush(cz_bitwriter *w);
void cz_bw_free(cz_bitwriter *w);

typedef struct cz_bitreader {
    const unsigned char *buf;
    size_t len, pos;
    uint64_t acc;
    int n_bits;
    int overrun;
} cz_bitreader;

void cz_br_init(cz_bitreader *r, const unsigned char *buf, size_t len);
uint32_t cz_br_peek(cz_bitreader *r, int n);
void cz_br_skip(cz_bitreader *r, int n);
uint32_t cz_br_get(cz_bitreader *r, int n);
/* Decodes one symbol; -1 on a code the table does not hold. */
int cz_br_decode(cz_bitreader *r, const cz_decoder_table *t);

/* ---- whole streams -------------------------------------------------------- */

typedef struct cz_stats {
    size_t tokens, matches, blocks;
} cz_stats;

/* Compresses in[0..n) into a new buffer (*out, *out_len; free() it). */
void cz_compress(const unsigned char *in, size_t n, int max_chain, int lazy,
                 unsigned char **out, size_t *out_len, cz_stats *out_stats);
/* Decompresses; returns 0 and a new buffer, or -1 on a corrupt stream. */
int cz_decompress(const unsigned char *in, size_t n, unsigned char **out, size_t *out_len);

#endif
