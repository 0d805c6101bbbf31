/* The tagged compressor (stratified-sampling paper, section 4, Fig. 6): a
 * set-associative table of hit counters indexed by the section 3.5 hash and
 * told apart by partial tags, tag = xor-fold(pc xor w xor type, tag bits).
 *
 * Each entry is Empty, Valid or Evict:
 *   E1  Empty, any access: allocate; hit += 1 (keeping a count E6 left), miss = 0.
 *   E2  Valid (or after E1/E5), hit counter reaches the range: message
 *       (tuple, hit), hit = 0, Empty.
 *   E3  Valid, hit: hit += 1.
 *   E4  Valid, miss: Evict, miss = 1.
 *   E5a Evict, miss, not ShouldReplace: miss += 1.
 *   E5  Evict, miss, ShouldReplace (miss reaches replace_misses): the missing
 *       tuple takes the entry with hit += miss, miss = 0, Valid.
 *   E6a Evict, hit, not ShouldEvict: hit += 1.
 *   E6  Evict, hit, ShouldEvict (hit reaches evict_hits): message (tuple,
 *       hit), hit = miss, miss = 0, Empty, so the next tuple to allocate the
 *       entry inherits the misses' count.
 * hit + miss is therefore always the number of tuples the entry has taken
 * since its last message (the paper's point about E5 and E6).
 *
 * With several ways, a tuple hits the way whose tag matches; a miss takes
 * the lowest Empty way, else goes to the way with the fewest hits (lowest
 * index on ties): the entry whose loss costs least.
 *
 * Tuned for the common case, a hit on a Valid entry that does not saturate,
 * which the loop handles inline; everything else goes to one function. */
#include "sample_internal.h"

uint32_t lp__tagged_set(const lp_compressor *c, const lp_tuple *t)
{
    if (c->sets == 1)
        return 0;
    if (c->spec.hash == LP_HASH_FAST)
        return lp__fasthash_index(&c->fast, lp__fasthash_word(&c->fast, t->pc, t->w, t->type));
    return lp__hash_index(c->hash, t->pc, t->w, t->type);
}

uint32_t lp__tagged_tag(const lp_compressor *c, const lp_tuple *t)
{
    if (c->spec.hash == LP_HASH_FAST)
        return (uint32_t)(lp__fasthash_word(&c->fast, t->pc, t->w, t->type) >> c->fast.tag_shift) &
               c->tag_mask;
    return lp__xor_fold(t->pc ^ t->w ^ t->type, c->spec.tag_bits);
}

void lp__tagged_reset(lp_compressor *c)
{
    __builtin_memset(c->tent, 0, (size_t)c->sets * c->ways * sizeof(lp__tentry));
}

static void lp__saturate(lp_compressor *c, lp__tentry *e, const lp_tuple *x)
{
    if (e->hit >= c->spec.rate) { /* E2 */
        lp__emit(c, x->pc, x->w, x->type, e->hit);
        e->hit = 0;
        e->state = LP__EMPTY;
    }
}

/* Every transition for tuple x on the set at e (ways entries). */
static LP__NOINLINE void lp__tagged_access(lp_compressor *c, lp__tentry *e, lp__tcold *cold,
                                           uint32_t tag, const lp_tuple *x)
{
    const lp_compressor_spec *s = &c->spec;
    const uint32_t ways = c->ways;
    for (uint32_t w = 0; w < ways; w++) {
        if (e[w].state == LP__EMPTY || e[w].tag != tag)
            continue;
        lp__tentry *h = &e[w];
        h->hit++;
        if (h->state == LP__VALID) { /* E3, then E2 if it saturates */
            lp__saturate(c, h, x);
        } else if (h->hit >= s->evict_hits) { /* E6 */
            lp__emit(c, x->pc, x->w, x->type, h->hit);
            h->hit = h->miss;
            h->miss = 0;
            h->state = LP__EMPTY;
        } /* else E6a */
        return;
    }
    uint32_t victim = 0;
    for (uint32_t w = 0; w < ways; w++) {
        if (e[w].state == LP__EMPTY) { /* E1 */
            e[w].state = LP__VALID;
            e[w].tag = tag;
            e[w].hit++;
            e[w].miss = 0;
            cold[w].owner = *x;
            lp__saturate(c, &e[w], x);
            return;
        }
        if (e[w].hit < e[victim].hit)
            victim = w;
    }
    lp__tentry *v = &e[victim];
    v->miss++;
    if (v->state == LP__VALID) { /* E4 */
        v->state = LP__EVICT;
        cold[victim].missed = *x;
    } else if (v->miss >= s->replace_misses) { /* E5 */
        v->state = LP__VALID;
        v->tag = tag;
        v->hit += v->miss;
        v->miss = 0;
        cold[victim].owner = *x;
        lp__saturate(c, v, x);
    } else { /* E5a */
        cold[victim].missed = *x;
    }
}

/* One tuple on a set of exactly `ways` (1 or 2) entries, without a
 * data-dependent branch for the four common transitions (E3, E6a, E4, E5a):
 * the way and the new counters are selected arithmetically and a single
 * rarely taken branch sends E1, E2, E5 and E6 to lp__tagged_access. On a
 * table much smaller than the working set, hits and misses alternate at
 * random, and branching on them costs a misprediction every other tuple. */
LP__INLINE void lp__tagged_step_small(lp_compressor *c, lp__tentry *e, lp__tcold *cold,
                                      uint32_t tag, const lp_tuple *x, const uint32_t ways,
                                      lp_tuple *scratch)
{
    /* Selections are written as masks: compilers turn a ?: on a data-dependent
     * condition into a branch often enough to matter here. */
    const uint32_t s0 = e[0].state, s1 = ways == 2 ? e[1].state : LP__VALID;
    const uint32_t h0 = (e[0].tag == tag) & (s0 != LP__EMPTY);
    const uint32_t h1 = ways == 2 ? (e[1].tag == tag) & (s1 != LP__EMPTY) : 0;
    const uint32_t hit = h0 | h1, miss = hit ^ 1;
    const uint32_t any_empty = (s0 == LP__EMPTY) | (s1 == LP__EMPTY);
    const uint32_t victim = ways == 2 ? (uint32_t)(e[1].hit < e[0].hit) : 0;
    const uint32_t way = h1 | (victim & -miss); /* h1 is 0 unless way 1 hit */
    lp__tentry *v = &e[way];
    const uint32_t st = v->state, hits = v->hit, misses = v->miss;
    const uint32_t is_valid = st == LP__VALID;
    const uint32_t evict = c->spec.evict_hits;
    const uint32_t limit = evict + ((c->spec.rate - evict) & -is_valid);
    const uint32_t replace = (st == LP__EVICT) & (misses + 1 >= c->spec.replace_misses);
    const uint32_t rare = (hit & (hits + 1 >= limit)) | (miss & (any_empty | replace));
    if (LP__UNLIKELY(rare)) {
        lp__tagged_access(c, e, cold, tag, x);
        return;
    }
    v->hit = hits + hit;
    v->miss = misses + miss;
    v->state = st + ((LP__EVICT - st) & -miss); /* a miss leaves it in Evict */
    lp_tuple *dst[2] = {scratch, &cold[way].missed};
    *dst[miss] = *x; /* E4, E5a: remember who missed */
}

/* ways is a constant 1 or 2 in the specialised instances (0: any). */
LP__INLINE void lp__tagged_loop(lp_compressor *c, const lp_tuple *t, size_t n, const int fast,
                                const int one_set, const uint32_t const_ways)
{
    lp__tentry *const tent = c->tent;
    lp__tcold *const tcold = c->tcold;
    const uint32_t ways = const_ways ? const_ways : c->ways, last = c->spec.rate - 1;
    const lp__hash *const hash = c->hash;
    const lp__fasthash fh = c->fast;
    const uint32_t tag_bits = c->spec.tag_bits, tag_mask = c->tag_mask;
    const unsigned tag_shift = c->fast.tag_shift;
    lp_tuple scratch;
    for (size_t k = 0; k < n; k++) {
        const lp_tuple *x = &t[k];
        uint32_t set, tag;
        if (fast) {
            uint64_t word = lp__fasthash_word(&fh, x->pc, x->w, x->type);
            set = one_set ? 0 : lp__fasthash_index(&fh, word);
            tag = (uint32_t)(word >> tag_shift) & tag_mask;
        } else {
            set = one_set ? 0 : lp__hash_tuple(hash, x);
            tag = lp__xor_fold(x->pc ^ x->w ^ x->type, tag_bits);
        }
        lp__tentry *e = &tent[(size_t)set * ways];
        lp__tcold *cold = &tcold[(size_t)set * ways];
        if (const_ways == 1 || const_ways == 2) {
            lp__tagged_step_small(c, e, cold, tag, x, const_ways, &scratch);
            continue;
        }
        lp__tentry *h = NULL;
        for (uint32_t w = 0; w < ways && !h; w++)
            if (e[w].tag == tag && e[w].state == LP__VALID)
                h = &e[w];
        if (LP__LIKELY(h && h->hit < last)) {
            h->hit++; /* E3 without saturation */
            continue;
        }
        lp__tagged_access(c, e, cold, tag, x);
    }
}

#define LP__TAGGED_VARIANT(name, fast, one_set, ways)                                              \
    static void name(lp_compressor *c, const lp_tuple *t, size_t n)                                \
    {                                                                                              \
        lp__tagged_loop(c, t, n, fast, one_set, ways);                                             \
    }

LP__TAGGED_VARIANT(lp__t_paper_w1, 0, 0, 1)
LP__TAGGED_VARIANT(lp__t_paper_w2, 0, 0, 2)
LP__TAGGED_VARIANT(lp__t_paper_wn, 0, 0, 0)
LP__TAGGED_VARIANT(lp__t_fast_w1, 1, 0, 1)
LP__TAGGED_VARIANT(lp__t_fast_w2, 1, 0, 2)
LP__TAGGED_VARIANT(lp__t_fast_wn, 1, 0, 0)
LP__TAGGED_VARIANT(lp__t_paper_one_set, 0, 1, 0)
LP__TAGGED_VARIANT(lp__t_fast_one_set, 1, 1, 0)

void lp__tagged_push(lp_compressor *c, const lp_tuple *t, size_t n)
{
    typedef void (*loop_fn)(lp_compressor *, const lp_tuple *, size_t);
    static const loop_fn loops[2][3] = {
        {lp__t_paper_wn, lp__t_paper_w1, lp__t_paper_w2},
        {lp__t_fast_wn, lp__t_fast_w1, lp__t_fast_w2},
    };
    int fast = c->spec.hash == LP_HASH_FAST;
    if (c->sets == 1)
        (fast ? lp__t_fast_one_set : lp__t_paper_one_set)(c, t, n);
    else
        loops[fast][c->ways <= 2 ? c->ways : 0](c, t, n);
}

void lp__tagged_drain(lp_compressor *c)
{
    size_t entries = (size_t)c->sets * c->ways;
    for (size_t i = 0; i < entries; i++) {
        lp__tentry *e = &c->tent[i];
        const lp__tcold *k = &c->tcold[i];
        const lp_tuple *held = e->state == LP__EMPTY ? &k->missed : &k->owner;
        if (e->hit)
            lp__emit(c, held->pc, held->w, held->type, e->hit);
        if (e->state == LP__EVICT)
            lp__emit(c, k->missed.pc, k->missed.w, k->missed.type, e->miss);
        __builtin_memset(e, 0, sizeof *e);
    }
}
