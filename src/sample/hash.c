/* The splitter's hash functions (stratified-sampling paper, section 3.5).
 *
 * The paper's hash: npc = flip(randomize(pc)), nw = randomize(w), index =
 * xor-fold(npc xor nw, index bits), where randomize() replaces each byte by
 * its entry in a 256-entry random table and flip() reverses the bytes. Every
 * step after the table lookups is linear over xor, so the index is the xor
 * of sixteen precomputed per-(position, byte) words: sixteen loads from
 * L1-resident tables per tuple, no loops. The tuple type, which the paper's
 * tuples lack, adds one more random word so that tuples of different types
 * land in different substreams.
 *
 * The table T is a random permutation (so randomize() loses nothing), drawn
 * from the compressor's seed. */
#include "sample_internal.h"

void lp__hash_init(lp__hash *h, uint64_t seed, unsigned bits, unsigned tag_bits)
{
    if (bits + tag_bits > 32)
        tag_bits = 0;
    lp_rng rng;
    lp_rng_seed(&rng, lp_hash64(seed ^ 0x6a09e667f3bcc908ULL));
    for (unsigned b = 0; b < 256; b++)
        h->table[b] = (uint8_t)b;
    for (unsigned b = 255; b > 0; b--) { /* Fisher-Yates */
        unsigned j = (unsigned)lp_rng_below(&rng, b + 1);
        uint8_t tmp = h->table[b];
        h->table[b] = h->table[j];
        h->table[j] = tmp;
    }
    h->bits = bits;
    h->tag_bits = tag_bits;
    for (unsigned i = 0; i < 8; i++) {
        for (unsigned b = 0; b < 256; b++) {
            uint64_t v = h->table[b];
            /* the tag folds the raw bytes at their own positions */
            uint32_t tag = lp__xor_fold((uint64_t)b << (8 * i), tag_bits) << bits;
            h->pc[i][b] = lp__xor_fold(v << (8 * (7 - i)), bits) | tag;
            h->w[i][b] = lp__xor_fold(v << (8 * i), bits) | tag;
        }
    }
    for (unsigned t = 0; t < 256; t++) {
        h->type_index[t] = lp__xor_fold(lp_rng_next(&rng), bits);
        h->type[t] = h->type_index[t] | lp__xor_fold(t, tag_bits) << bits;
    }
}

static uint64_t lp__randomize(const lp__hash *h, uint64_t x)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < 8; i++)
        r |= (uint64_t)h->table[(x >> (8 * i)) & 255] << (8 * i);
    return r;
}

static uint64_t lp__flip(uint64_t x)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < 8; i++)
        r = (r << 8) | ((x >> (8 * i)) & 255);
    return r;
}

uint32_t lp__hash_reference(const lp__hash *h, uint64_t pc, uint64_t w, uint8_t type)
{
    uint64_t npc = lp__flip(lp__randomize(h, pc));
    uint64_t nw = lp__randomize(h, w);
    uint32_t index = lp__xor_fold(npc ^ nw, h->bits) ^ h->type_index[type];
    return index | lp__xor_fold(pc ^ w ^ type, h->tag_bits) << h->bits;
}

void lp__fasthash_init(lp__fasthash *f, uint64_t seed, unsigned bits, unsigned tag_bits)
{
    lp_rng rng;
    lp_rng_seed(&rng, lp_hash64(seed ^ 0xbb67ae8584caa73bULL));
    f->k_pc = lp_rng_next(&rng) | 1;
    f->k_w = lp_rng_next(&rng) | 1;
    f->k_type = lp_rng_next(&rng) | 1;
    f->shift = bits ? 64 - bits : 63;
    f->mask = bits ? (uint32_t)((1ULL << bits) - 1) : 0;
    f->tag_shift = tag_bits ? 64 - bits - tag_bits : 0;
    f->tag_mask = (uint32_t)((1ULL << tag_bits) - 1);
}
