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
#define LP__MAX_TAG_BITS 15u
#define LP__MAX_REPLACE 65535u
#define LP__MAX_ASSOC 4096u
#define LP__MAX_SATURATE (1u << 31)
#define LP__MAX_BUFFER (1u << 20)

/* ---- hash (hash.c) --------------------------------------------------------- */

/* Section 3.5's hash, precomputed: randomize() maps each byte through a
 * 256-entry random table, flip() reverses the pc's bytes, and xor-fold is
 * linear, so the index is the xor of one table word per (byte position,
 * byte value) of pc and of w, plus one per tuple type. pc[i][b] holds
 * fold(T[b] placed at byte 7 - i), w[i][b] fold(T[b] placed at byte i).
 *
 * The tagged compressor's tag, xor-fold(pc xor w xor type, tag bits) (4.1),
 * is linear too: when index and tag fit in 32 bits together (packed), each
 * table word also carries its byte's share of the tag above the index bits,
 * so the same sixteen lookups give both. */
typedef struct lp__hash {
    uint32_t pc[8][256];
    uint32_t w[8][256];
    uint32_t type[256];
    uint32_t type_index[256]; /* the index part of type[] */
    uint8_t table[256];       /* T: a random permutation of the byte values */
    unsigned bits;            /* index width */
    unsigned tag_bits;        /* width of the packed tag, 0 when not packed */
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

/* tag_bits > 0 packs the tag when bits + tag_bits <= 32 (else no tag). */
void lp__hash_init(lp__hash *h, uint64_t seed, unsigned bits, unsigned tag_bits);
void lp__fasthash_init(lp__fasthash *f, uint64_t seed, unsigned bits, unsigned tag_bits);
/* The paper's hash as the paper writes it, byte by byte (with the packed
 * tag above the index when there is one): for the tests. */
uint32_t lp__hash_reference(const lp__hash *h, uint64_t pc, uint64_t w, uint8_t type);

/* Written out rather than looped: at -O2 (the project's default) GCC keeps
 * an 8-iteration loop, which costs the hash over half its speed. */
#define LP__HASH_BYTE(h, x, array, i) ((h)->array[i][((x) >> (8 * (i))) & 255])
#define LP__HASH_WORD(h, x, array)                                                                 \
    (LP__HASH_BYTE(h, x, array, 0) ^ LP__HASH_BYTE(h, x, array, 1) ^                               \
     LP__HASH_BYTE(h, x, array, 2) ^ LP__HASH_BYTE(h, x, array, 3) ^                               \
     LP__HASH_BYTE(h, x, array, 4) ^ LP__HASH_BYTE(h, x, array, 5) ^                               \
     LP__HASH_BYTE(h, x, array, 6) ^ LP__HASH_BYTE(h, x, array, 7))

LP__INLINE uint32_t lp__hash_index(const lp__hash *h, uint64_t pc, uint64_t w, uint8_t type)
{
    return h->type[type] ^ LP__HASH_WORD(h, pc, pc) ^ LP__HASH_WORD(h, w, w);
}

/* The same for a tuple in memory. On little-endian machines the bytes are
 * read one by one from the tuple, which saves the shifts (one load instead
 * of a shift and a zero-extension per byte). */
LP__INLINE uint32_t lp__hash_tuple(const lp__hash *h, const lp_tuple *t)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint8_t *pc = (const uint8_t *)&t->pc;
    const uint64_t w = t->w;
    return h->type[t->type] ^ h->pc[0][pc[0]] ^ h->pc[1][pc[1]] ^ h->pc[2][pc[2]] ^
           h->pc[3][pc[3]] ^ h->pc[4][pc[4]] ^ h->pc[5][pc[5]] ^ h->pc[6][pc[6]] ^ h->pc[7][pc[7]] ^
           LP__HASH_WORD(h, w, w);
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

/* One tagged-table entry in 8 bytes, encoded as section 4.2 suggests: the
 * low bit of tagv says the entry is taken (the rest is the tag), and a taken
 * entry with a non-zero miss counter is in Evict. Empty entries have tagv
 * 0 and miss 0 (hit may hold a count E6 left). */
typedef struct lp__tentry {
    uint32_t hit;
    uint16_t miss;
    uint16_t tagv; /* tag << 1 | 1, or 0 when Empty */
} lp__tentry;

LP__INLINE uint32_t lp__tentry_state(const lp__tentry *e)
{
    return e->tagv == 0 ? LP__EMPTY : e->miss ? LP__EVICT : LP__VALID;
}

LP__INLINE uint32_t lp__tentry_tag(const lp__tentry *e)
{
    return (uint32_t)e->tagv >> 1;
}

/* The full tuple the hardware would not have: the one that took the entry
 * (E1, E5) or, after E6, the one E6 reported. Read only to drain the table
 * at finish, so that its counts reach software. */
typedef struct lp__tcold {
    lp_tuple owner;
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

/* assoc.c: level 1 emits through lp__emit, level 2 straight to the buffer. */
void lp__assoc_reset(lp__assoc *a);
void lp__assoc_put(lp_compressor *c, lp__assoc *a, uint64_t pc, uint64_t w, uint8_t type,
                   uint64_t count);
void lp__assoc_push(lp_compressor *c, const lp_tuple *t, size_t n);
void lp__assoc_drain(lp_compressor *c, lp__assoc *a);

#endif
