/* Private to the sample module: the compressor's layout and the functions its
 * files share. The unit tests include it to look inside the tagged table and
 * the hash; nothing else may. */
#ifndef LP_SAMPLE_INTERNAL_H
#define LP_SAMPLE_INTERNAL_H

#include "lowprof/sample.h"

#define LP__LIKELY(x) __builtin_expect(!!(x), 1)
#define LP__UNLIKELY(x) __builtin_expect(!!(x), 0)
#define LP__NOINLINE __attribute__((noinline))
#define LP__INLINE static inline __attribute__((always_inline))

/* Parameter limits (the header's "Limits"). */
#define LP__MAX_RATE (1u << 30)
#define LP__MAX_STRATA (1u << 24)
#define LP__MAX_RANGE (1u << 24)
#define LP__MAX_WAYS 64u
#define LP__MAX_TAG_BITS 32u
#define LP__MAX_REPLACE 65535u
#define LP__MAX_ASSOC 4096u
#define LP__MAX_SATURATE (1u << 31)
#define LP__MAX_BUFFER (1u << 20)

/* ---- hash (hash.c) --------------------------------------------------------- */

/* Section 3.5's hash, precomputed: randomize() maps each byte through a
 * 256-entry random table, flip() reverses the pc's bytes, and xor-fold is
 * linear, so the index is the xor of one table word per (byte position,
 * byte value) of pc and of w, plus one per tuple type. pc[i][b] holds
 * fold(T[b] placed at byte 7 - i), w[i][b] fold(T[b] placed at byte i). */
typedef struct lp__hash {
    uint32_t pc[8][256];
    uint32_t w[8][256];
    uint32_t type[256];
    uint8_t table[256]; /* T: a random permutation of the byte values */
    unsigned bits;      /* index width */
} lp__hash;

/* The cheaper hash: pc, w and type multiplied by seeded odd constants and
 * xored; the index is the top bits and, for the tagged compressor, the tag
 * the bits below them. */
typedef struct lp__fasthash {
    uint64_t k_pc, k_w, k_type;
    unsigned shift; /* 64 - bits, or 63 with mask 0 when bits is 0 */
    uint32_t mask;  /* (1 << bits) - 1 */
    unsigned tag_shift;
    uint32_t tag_mask;
} lp__fasthash;

/* xor-fold(x, bits): the xor of x's bits-wide chunks; 0 when bits is 0. */
LP__INLINE uint32_t lp__xor_fold(uint64_t x, unsigned bits)
{
    if (bits == 0)
        return 0;
    if (bits >= 64)
        return (uint32_t)x;
    if ((bits & (bits - 1)) == 0) {
        /* Chunk boundaries line up with halvings; the tests do not depend on
         * the data, so they predict perfectly in a loop over tuples. */
        x ^= x >> 32;
        if (bits <= 16)
            x ^= x >> 16;
        if (bits <= 8)
            x ^= x >> 8;
        if (bits <= 4)
            x ^= x >> 4;
        if (bits <= 2)
            x ^= x >> 2;
        if (bits <= 1)
            x ^= x >> 1;
        return (uint32_t)(x & ((1ULL << bits) - 1));
    }
    uint64_t mask = (1ULL << bits) - 1, r = 0;
    while (x) {
        r ^= x & mask;
        x >>= bits;
    }
    return (uint32_t)r;
}

void lp__hash_init(lp__hash *h, uint64_t seed, unsigned bits);
void lp__fasthash_init(lp__fasthash *f, uint64_t seed, unsigned bits, unsigned tag_bits);
/* The paper's hash as the paper writes it, byte by byte: for the tests. */
uint32_t lp__hash_reference(const lp__hash *h, uint64_t pc, uint64_t w, uint8_t type);

LP__INLINE uint32_t lp__hash_index(const lp__hash *h, uint64_t pc, uint64_t w, uint8_t type)
{
    uint32_t x = h->type[type];
    for (unsigned i = 0; i < 8; i++)
        x ^= h->pc[i][(pc >> (8 * i)) & 255] ^ h->w[i][(w >> (8 * i)) & 255];
    return x;
}

/* The same for a tuple in memory. On little-endian machines the bytes are
 * read one by one from the tuple, which saves the shifts (one load instead
 * of a shift and a zero-extension per byte). */
LP__INLINE uint32_t lp__hash_tuple(const lp__hash *h, const lp_tuple *t)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint8_t *pc = (const uint8_t *)&t->pc;
    uint64_t w = t->w;
    uint32_t x = h->type[t->type];
    for (unsigned i = 0; i < 8; i++)
        x ^= h->pc[i][pc[i]] ^ h->w[i][(w >> (8 * i)) & 255];
    return x;
#else
    return lp__hash_index(h, t->pc, t->w, t->type);
#endif
}

LP__INLINE uint64_t lp__fasthash_word(const lp__fasthash *f, uint64_t pc, uint64_t w, uint8_t type)
{
    return (pc * f->k_pc) ^ (w * f->k_w) ^ ((uint64_t)type * f->k_type);
}

LP__INLINE uint32_t lp__fasthash_index(const lp__fasthash *f, uint64_t word)
{
    return (uint32_t)(word >> f->shift) & f->mask;
}

/* ---- the compressor (compressor.c) ----------------------------------------- */

enum { LP__EMPTY = 0, LP__VALID = 1, LP__EVICT = 2 };

/* One tagged-table entry: Fig. 6's state, partial tag, hit and miss counters. */
typedef struct lp__tentry {
    uint32_t tag;
    uint32_t state;
    uint32_t hit;
    uint32_t miss;
} lp__tentry;

/* Full tuples the hardware would not have: which tuple owns a Valid or Evict
 * entry and which one last missed on it. Read only to drain the table at
 * finish, so that its counts reach software. */
typedef struct lp__tcold {
    lp_tuple owner;
    lp_tuple missed;
} lp__tcold;

typedef struct lp__aentry {
    uint64_t pc, w, sum, stamp;
    uint32_t merges;
    uint8_t type;
    uint8_t used;
} lp__aentry;

/* An associative counter table A_k with LRU replacement. */
typedef struct lp__assoc {
    lp__aentry *e;
    uint32_t k;
    uint32_t saturate;
    uint64_t clock;
} lp__assoc;

struct lp_compressor {
    lp_compressor_spec spec;
    lp_cost_model cost;
    lp_message_fn fn;
    void *ctx;
    int owned; /* 1 when lp_compressor_create allocated it */

    /* Random decisions: R and CR draw log2(r) bits per tuple from pool when
     * r is a power of two, else compare one draw with threshold. */
    lp_rng rng;
    uint64_t pool;
    uint32_t pool_left;
    uint32_t rand_bits; /* log2(r), or UINT32_MAX when r is not a power of two */
    uint64_t rand_mask;
    uint64_t rand_threshold;

    /* Sampler state per substream (one for a plain sampler). */
    uint32_t strata;
    uint32_t *count; /* tuples since the substream's last message (P, counted) */
    uint32_t *down;  /* countdown registers (D) */
    lp_tuple *hold;  /* first tuple of the current period, for the drain */
    lp__hash *hash;  /* NULL with the fast hash or no splitting */
    lp__fasthash fast;

    /* Tagged table: sets * ways entries. */
    lp__tentry *tent;
    lp__tcold *tcold;
    uint32_t sets, ways;
    uint32_t tag_mask;

    lp__assoc first, second;
    uint64_t length; /* the bare counter C */

    lp_message *buf;
    uint32_t nbuf;
    lp_compressor_stats stats;
};

/* Output of the first level: through the second level if any, else to the
 * buffer. Counts first_level_messages. */
void lp__emit(lp_compressor *c, uint64_t pc, uint64_t w, uint8_t type, uint64_t count);
/* Appends one message to the buffer; interrupts when it is full. */
void lp__deliver(lp_compressor *c, uint64_t pc, uint64_t w, uint8_t type, uint64_t count);
/* Delivers what the buffer holds as one interrupt (nothing when empty). */
void lp__interrupt(lp_compressor *c);

/* ---- the levels ------------------------------------------------------------- */

/* strata.c: R, D, P, CR, CD, CP, plain and under H. */
void lp__strata_reset(lp_compressor *c);
void lp__strata_push(lp_compressor *c, const lp_tuple *t, size_t n);
void lp__strata_drain(lp_compressor *c);
uint32_t lp__countdown_reload(lp_compressor *c);

/* tagged.c */
void lp__tagged_reset(lp_compressor *c);
void lp__tagged_push(lp_compressor *c, const lp_tuple *t, size_t n);
void lp__tagged_drain(lp_compressor *c);
uint32_t lp__tagged_tag(const lp_compressor *c, const lp_tuple *t);
uint32_t lp__tagged_set(const lp_compressor *c, const lp_tuple *t);

/* assoc.c: level 1 emits through lp__emit, level 2 straight to the buffer. */
void lp__assoc_reset(lp__assoc *a);
void lp__assoc_put(lp_compressor *c, lp__assoc *a, uint64_t pc, uint64_t w, uint8_t type,
                   uint64_t count);
void lp__assoc_push(lp_compressor *c, const lp_tuple *t, size_t n);
void lp__assoc_drain(lp_compressor *c, lp__assoc *a);

#endif
