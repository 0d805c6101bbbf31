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
 * For the drain at finish only, each entry also remembers a full tuple: the
 * one that took it (E1, E5), or after E6 the one E6 reported. finish sends
 * everything an entry holds, hits and misses, with that tuple: the misses'
 * own tuples are unknown (as in E5, where the hits change tuple), and the
 * total is kept.
 *
 * Tuned for tables far smaller than the working set (the paper's gcc): the
 * transitions that only count (E3, E6a, E4, E5a) run inline and branch-free
 * in the 1- and 2-way loops; everything else goes to one function. */
#include "sample_internal.h"

void lp__tagged_reset(lp_compressor *c)
{
    __builtin_memset(c->tent, 0, (size_t)c->sets * c->ways * sizeof(lp__tentry));
}

static void lp__take(lp__tentry *e, uint32_t tag)
{
    e->tagv = (uint16_t)(tag << 1 | 1);
}

static void lp__saturate(lp_compressor *c, lp__tentry *e, const lp_tuple *x)
{
    if (e->hit >= c->spec.rate) { /* E2 */
        lp__emit(c, x->pc, x->w, x->type, e->hit);
        e->hit = 0;
        e->tagv = 0;
    }
}

/* A hit on a taken entry: E3 (then E2 at the range), or E6a / E6. */
static void lp__hit(lp_compressor *c, lp__tentry *v, lp__tcold *k, const lp_tuple *x)
{
    int evict = v->miss != 0;
    v->hit++;
    if (!evict) {
        lp__saturate(c, v, x);
    } else if (v->hit >= c->spec.evict_hits) { /* E6 */
        lp__emit(c, x->pc, x->w, x->type, v->hit);
        v->hit = v->miss;
        v->miss = 0;
        v->tagv = 0;
        k->owner = *x; /* drains the count left behind if nothing takes it */
    }                  /* else E6a */
}

/* E1 on an Empty entry. */
static void lp__allocate(lp_compressor *c, lp__tentry *v, lp__tcold *k, uint32_t tag,
                         const lp_tuple *x)
{
    lp__take(v, tag);
    v->hit++;
    k->owner = *x;
    lp__saturate(c, v, x);
}

/* A miss counted against a taken entry: E4, E5a or E5. */
static void lp__miss(lp_compressor *c, lp__tentry *v, lp__tcold *k, uint32_t tag, const lp_tuple *x)
{
    if (v->miss == 0) { /* E4 */
        v->miss = 1;
    } else if (v->miss + 1u >= c->spec.replace_misses) { /* E5 */
        lp__take(v, tag);
        v->hit += v->miss + 1u;
        v->miss = 0;
        k->owner = *x;
        lp__saturate(c, v, x);
    } else { /* E5a */
        v->miss++;
    }
}

/* Every transition for tuple x on the set at e (ways entries). */
static LP__NOINLINE void lp__tagged_access(lp_compressor *c, lp__tentry *e, lp__tcold *cold,
                                           uint32_t tag, const lp_tuple *x)
{
    const uint32_t ways = c->ways, want = tag << 1 | 1;
    for (uint32_t w = 0; w < ways; w++) {
        if (e[w].tagv == want) {
            lp__hit(c, &e[w], &cold[w], x);
            return;
        }
    }
    uint32_t victim = 0;
    for (uint32_t w = 0; w < ways; w++) {
        if (e[w].tagv == 0) {
            lp__allocate(c, &e[w], &cold[w], tag, x);
            return;
        }
        if (e[w].hit < e[victim].hit)
            victim = w;
    }
    lp__miss(c, &e[victim], &cold[victim], tag, x);
}

/* The transitions lp__tagged_step_small leaves out, with what it already
 * knows: whether the tuple hit, the way it hit or would count against, and
 * the first Empty way (ways if none). Same rules as lp__tagged_access. */
static LP__NOINLINE void lp__tagged_rare_small(lp_compressor *c, lp__tentry *e, lp__tcold *cold,
                                               uint32_t tag, const lp_tuple *x, uint32_t hit,
                                               uint32_t way, uint32_t empty, uint32_t ways)
{
    if (hit)
        lp__hit(c, &e[way], &cold[way], x);
    else if (empty < ways)
        lp__allocate(c, &e[empty], &cold[empty], tag, x);
    else
        lp__miss(c, &e[way], &cold[way], tag, x);
}

/* One tuple on a set of exactly `ways` (1 or 2) entries, without a
 * data-dependent branch for the four common transitions: E3 and E6a add a
 * hit, E5a a miss, and E4 a first miss, which with 4.2's encoding is all it
 * takes to enter Evict. The way and the counter to bump are selected
 * arithmetically; one rarely taken branch sends E1, E2, E5 and E6 to
 * lp__tagged_rare_small. On a table much smaller than the working set,
 * hits and misses alternate at random, and branching on them would cost a
 * misprediction every other tuple. */
LP__INLINE void lp__tagged_step_small(lp_compressor *c, lp__tentry *e, lp__tcold *cold,
                                      uint32_t tag, const lp_tuple *x, const uint32_t ways,
                                      const uint32_t limits[3])
{
    /* Selections are written as masks: compilers turn a ?: on a data-dependent
     * condition into a branch often enough to matter here. */
    const uint32_t want = tag << 1 | 1;
    const uint32_t t0 = e[0].tagv, t1 = ways == 2 ? e[1].tagv : 1;
    const uint32_t h1 = ways == 2 ? t1 == want : 0;
    const uint32_t hit = (t0 == want) | h1, miss = hit ^ 1;
    const uint32_t empty0 = t0 == 0, empty1 = t1 == 0;
    const uint32_t victim = ways == 2 ? (uint32_t)(e[1].hit < e[0].hit) : 0;
    const uint32_t way = h1 | (victim & -miss); /* h1 is 0 unless way 1 hit */
    lp__tentry *v = &e[way];
    const uint32_t evict = v->miss != 0;
    /* limits[evict]: the hits that end Valid (the range) or Evict
     * (ShouldEvict); limits[2]: the misses that end Evict (ShouldReplace). */
    const uint32_t rare = (hit & (v->hit + 1 >= limits[evict])) |
                          (miss & (empty0 | empty1 | (evict & (v->miss + 1u >= limits[2]))));
    if (LP__UNLIKELY(rare)) {
        uint32_t empty = empty0 ? 0 : empty1 ? 1 : ways;
        lp__tagged_rare_small(c, e, cold, tag, x, hit, way, empty, ways);
        return;
    }
    v->hit += hit;
    v->miss = (uint16_t)(v->miss + miss);
}

/* Tag sources: the paper's hash with the tag packed in its tables, the
 * paper's hash with the tag folded separately (index and tag wider than 32
 * bits), the cheap hash. ways is 1 or 2 in the specialised instances, 0 for
 * any. */
enum { LP__TAG_PACKED, LP__TAG_FOLD, LP__TAG_FAST };

LP__INLINE void lp__tagged_loop(lp_compressor *c, const lp_tuple *t, size_t n, const int source,
                                const uint32_t const_ways)
{
    lp__tentry *const tent = c->tent;
    lp__tcold *const tcold = c->tcold;
    const uint32_t ways = const_ways ? const_ways : c->ways, last = c->spec.rate - 1;
    const lp__hash *const hash = c->hash;
    const lp__fasthash fh = c->fast;
    const uint32_t set_mask = c->sets - 1, tag_bits = c->spec.tag_bits, tag_mask = c->tag_mask;
    const unsigned index_bits = hash ? hash->bits : 0, tag_shift = c->fast.tag_shift;
    const uint32_t limits[3] = {c->spec.rate, c->spec.evict_hits, c->spec.replace_misses};
    for (size_t k = 0; k < n; k++) {
        const lp_tuple *x = &t[k];
        uint32_t set, tag;
        if (source == LP__TAG_FAST) {
            uint64_t word = lp__fasthash_word(&fh, x->pc, x->w, x->type);
            set = lp__fasthash_index(&fh, word);
            tag = (uint32_t)(word >> tag_shift) & tag_mask;
        } else {
            uint32_t word = lp__hash_tuple(hash, x);
            set = word & set_mask;
            tag = source == LP__TAG_PACKED ? word >> index_bits
                                           : lp__xor_fold(x->pc ^ x->w ^ x->type, tag_bits);
        }
        lp__tentry *e = &tent[(size_t)set * ways];
        lp__tcold *cold = &tcold[(size_t)set * ways];
        if (const_ways == 1 || const_ways == 2) {
            lp__tagged_step_small(c, e, cold, tag, x, const_ways, limits);
            continue;
        }
        lp__tentry *h = NULL;
        for (uint32_t w = 0; w < ways && !h; w++)
            if (e[w].tagv == (tag << 1 | 1) && e[w].miss == 0)
                h = &e[w];
        if (LP__LIKELY(h && h->hit < last)) {
            h->hit++; /* E3 without saturation */
            continue;
        }
        lp__tagged_access(c, e, cold, tag, x);
    }
}

#define LP__TAGGED_VARIANT(name, source, ways)                                                     \
    static void name(lp_compressor *c, const lp_tuple *t, size_t n)                                \
    {                                                                                              \
        lp__tagged_loop(c, t, n, source, ways);                                                    \
    }

LP__TAGGED_VARIANT(lp__t_packed_wn, LP__TAG_PACKED, 0)
LP__TAGGED_VARIANT(lp__t_packed_w1, LP__TAG_PACKED, 1)
LP__TAGGED_VARIANT(lp__t_packed_w2, LP__TAG_PACKED, 2)
LP__TAGGED_VARIANT(lp__t_fold_wn, LP__TAG_FOLD, 0)
LP__TAGGED_VARIANT(lp__t_fold_w1, LP__TAG_FOLD, 1)
LP__TAGGED_VARIANT(lp__t_fold_w2, LP__TAG_FOLD, 2)
LP__TAGGED_VARIANT(lp__t_fast_wn, LP__TAG_FAST, 0)
LP__TAGGED_VARIANT(lp__t_fast_w1, LP__TAG_FAST, 1)
LP__TAGGED_VARIANT(lp__t_fast_w2, LP__TAG_FAST, 2)

void lp__tagged_push(lp_compressor *c, const lp_tuple *t, size_t n)
{
    typedef void (*loop_fn)(lp_compressor *, const lp_tuple *, size_t);
    static const loop_fn loops[3][3] = {
        {lp__t_packed_wn, lp__t_packed_w1, lp__t_packed_w2},
        {lp__t_fold_wn, lp__t_fold_w1, lp__t_fold_w2},
        {lp__t_fast_wn, lp__t_fast_w1, lp__t_fast_w2},
    };
    int source = c->spec.hash == LP_HASH_FAST            ? LP__TAG_FAST
                 : c->hash->tag_bits == c->spec.tag_bits ? LP__TAG_PACKED
                                                         : LP__TAG_FOLD;
    loops[source][c->ways <= 2 ? c->ways : 0](c, t, n);
}

void lp__tagged_drain(lp_compressor *c)
{
    size_t entries = (size_t)c->sets * c->ways;
    for (size_t i = 0; i < entries; i++) {
        lp__tentry *e = &c->tent[i];
        const lp_tuple *k = &c->tcold[i].owner;
        uint64_t held = (uint64_t)e->hit + e->miss;
        if (held)
            lp__emit(c, k->pc, k->w, k->type, held);
        __builtin_memset(e, 0, sizeof *e);
    }
}
