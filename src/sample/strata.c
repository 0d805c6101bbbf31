/* Samplers, alone and behind the hash splitter (stratified-sampling paper,
 * sections 3.1-3.3 and 3.5, Figs. 2, 3 and 5).
 *
 * R_r selects each tuple with probability 1/r; D_r (the countdown sampler of
 * the paper's references [2, 15, 33]) selects when a countdown register,
 * reloaded with a number drawn uniformly from [1, 2r], reaches zero; P_r
 * selects every r-th tuple. A leading C adds the counter: the message then
 * carries the number of tuples since the previous one instead of the implied
 * r. H[X]_n gives each of n substreams its own X: one counter (and, for D, one
 * countdown register) per table slot, as in Fig. 5. R keeps no state, so
 * H[R]_n gives exactly R_r's messages for the same seed, which is the
 * paper's explanation of why stratifying R does not help.
 *
 * Counts a sampler holds between messages (P's counter, a C's counter) are
 * drained at finish and attributed to the first tuple of the unfinished
 * period, the one tuple of that period the slot remembers.
 *
 * Tuned for push_many over long arrays: each shape has its own loop with its
 * state in locals, so nothing but the substream slot is touched per tuple.
 * Plain P and D (and CD) skip straight to the next selected tuple, since
 * their counters decide without looking at the tuples in between. */
#include "sample_internal.h"

/* The random source of R and CR, in locals while a loop runs. When r is a
 * power of two each decision takes log2(r) fresh bits of a 64-bit draw (all
 * zero: selected), so R_256 draws once per eight tuples. */
typedef struct lp__draw {
    lp_rng rng;
    uint64_t pool;
    uint32_t left;
    uint32_t bits;
    uint64_t mask;
    uint64_t threshold;
} lp__draw;

LP__INLINE void lp__draw_load(const lp_compressor *c, lp__draw *d)
{
    d->rng = c->rng;
    d->pool = c->pool;
    d->left = c->pool_left;
    d->bits = c->rand_bits;
    d->mask = c->rand_mask;
    d->threshold = c->rand_threshold;
}

LP__INLINE void lp__draw_store(lp_compressor *c, const lp__draw *d)
{
    c->rng = d->rng;
    c->pool = d->pool;
    c->pool_left = d->left;
}

LP__INLINE int lp__draw_select(lp__draw *d)
{
    if (d->bits == UINT32_MAX)
        return lp_rng_next(&d->rng) < d->threshold;
    if (d->left < d->bits) {
        d->pool = lp_rng_next(&d->rng);
        d->left = 64;
    }
    int hit = (d->pool & d->mask) == 0;
    d->pool >>= d->bits;
    d->left -= d->bits;
    return hit;
}

LP__INLINE uint32_t lp__reload(lp_rng *rng, uint32_t rate)
{
    return 1 + (uint32_t)lp_rng_below(rng, 2 * (uint64_t)rate);
}

uint32_t lp__countdown_reload(lp_compressor *c)
{
    return lp__reload(&c->rng, c->spec.rate);
}

static void lp__emit_tuple(lp_compressor *c, const lp_tuple *t, uint64_t count)
{
    lp__emit(c, t->pc, t->w, t->type, count);
}

void lp__strata_reset(lp_compressor *c)
{
    if (c->count)
        __builtin_memset(c->count, 0, c->strata * sizeof(uint32_t));
    if (c->down)
        for (uint32_t i = 0; i < c->strata; i++)
            c->down[i] = lp__countdown_reload(c);
}

void lp__strata_drain(lp_compressor *c)
{
    if (!c->count)
        return;
    for (uint32_t i = 0; i < c->strata; i++) {
        if (c->count[i]) {
            lp__emit_tuple(c, &c->hold[i], c->count[i]);
            c->count[i] = 0;
        }
    }
}

/* ---- one sampler over the whole stream --------------------------------------- */

static void lp__plain_periodic(lp_compressor *c, const lp_tuple *t, size_t n)
{
    const uint32_t r = c->spec.rate;
    uint32_t v = c->count[0];
    size_t i = 0;
    while (i < n) {
        if (v == 0)
            c->hold[0] = t[i];
        size_t need = r - v; /* the need-th tuple from i completes the period */
        if (n - i < need) {
            v += (uint32_t)(n - i);
            break;
        }
        i += need;
        lp__emit_tuple(c, &t[i - 1], r);
        v = 0;
    }
    c->count[0] = v;
}

static void lp__plain_countdown(lp_compressor *c, const lp_tuple *t, size_t n)
{
    const uint32_t r = c->spec.rate;
    uint32_t d = c->down[0];
    size_t i = 0;
    while (n - i >= d) {
        i += d;
        lp__emit_tuple(c, &t[i - 1], r);
        d = lp__countdown_reload(c);
    }
    c->down[0] = d - (uint32_t)(n - i);
}

static void lp__plain_counted_countdown(lp_compressor *c, const lp_tuple *t, size_t n)
{
    uint32_t v = c->count[0], d = c->down[0];
    size_t i = 0;
    while (i < n) {
        if (v == 0)
            c->hold[0] = t[i];
        if (n - i < d) {
            v += (uint32_t)(n - i);
            d -= (uint32_t)(n - i);
            break;
        }
        i += d;
        lp__emit_tuple(c, &t[i - 1], (uint64_t)v + d);
        v = 0;
        d = lp__countdown_reload(c);
    }
    c->count[0] = v;
    c->down[0] = d;
}

static void lp__plain_random(lp_compressor *c, const lp_tuple *t, size_t n)
{
    const uint32_t r = c->spec.rate;
    lp__draw d;
    lp__draw_load(c, &d);
    for (size_t i = 0; i < n; i++)
        if (LP__UNLIKELY(lp__draw_select(&d)))
            lp__emit_tuple(c, &t[i], r);
    lp__draw_store(c, &d);
}

static void lp__plain_counted_random(lp_compressor *c, const lp_tuple *t, size_t n)
{
    lp__draw d;
    lp__draw_load(c, &d);
    uint32_t v = c->count[0];
    for (size_t i = 0; i < n; i++) {
        if (v == 0)
            c->hold[0] = t[i];
        v++;
        /* A full counter is dispatched like a selection, so no count is lost. */
        if (LP__UNLIKELY(lp__draw_select(&d) | (v == UINT32_MAX))) {
            lp__emit_tuple(c, &t[i], v);
            v = 0;
        }
    }
    c->count[0] = v;
    lp__draw_store(c, &d);
}

/* ---- H[X]_n: one sampler per substream ------------------------------------------ */

enum { LP__SPLIT_NONE = 0, LP__SPLIT_PAPER = 1, LP__SPLIT_FAST = 2 };
enum {
    LP__K_RANDOM,
    LP__K_COUNTED_RANDOM,
    LP__K_COUNTDOWN,
    LP__K_COUNTED_COUNTDOWN,
    LP__K_PERIODIC
};

LP__INLINE uint32_t lp__slot(const lp__hash *hash, const lp__fasthash *fast, const lp_tuple *t,
                             const int split)
{
    if (split == LP__SPLIT_PAPER)
        return lp__hash_tuple(hash, t);
    if (split == LP__SPLIT_FAST)
        return lp__fasthash_index(fast, lp__fasthash_word(fast, t->pc, t->w, t->type));
    return 0;
}

/* The per-tuple loop, instantiated once per (sampler, split) with constant
 * arguments so each instance compiles to a branch-free dispatch. */
LP__INLINE void lp__hashed_loop(lp_compressor *c, const lp_tuple *t, size_t n, const int kind,
                                const int split)
{
    uint32_t *const count = c->count;
    uint32_t *const down = c->down;
    lp_tuple *const hold = c->hold;
    const uint32_t r = c->spec.rate;
    const uint32_t edge = r - 2; /* v - 1 >= edge: v is 0 or r - 1 (wraps for r < 2) */
    const lp__hash *const hash = c->hash;
    const lp__fasthash fast = c->fast;
    lp__draw d;
    lp__draw_load(c, &d);
    for (size_t k = 0; k < n; k++) {
        const lp_tuple *x = &t[k];
        const uint32_t i = lp__slot(hash, &fast, x, split);
        if (kind == LP__K_PERIODIC) {
            uint32_t v = count[i];
            if (LP__UNLIKELY(v - 1 >= edge)) {
                if (v == 0)
                    hold[i] = *x;
                if (v + 1 == r) {
                    lp__emit_tuple(c, x, r);
                    v = UINT32_MAX; /* stored as 0 below */
                }
            }
            count[i] = v + 1;
        } else if (kind == LP__K_RANDOM) {
            if (LP__UNLIKELY(lp__draw_select(&d)))
                lp__emit_tuple(c, x, r);
        } else if (kind == LP__K_COUNTED_RANDOM) {
            uint32_t v = count[i];
            if (v == 0)
                hold[i] = *x;
            v++;
            if (LP__UNLIKELY(lp__draw_select(&d) | (v == UINT32_MAX))) {
                lp__emit_tuple(c, x, v);
                v = 0;
            }
            count[i] = v;
        } else { /* countdown, with or without the counter */
            uint32_t v = 0;
            if (kind == LP__K_COUNTED_COUNTDOWN) {
                v = count[i];
                if (v == 0)
                    hold[i] = *x;
                v++;
            }
            uint32_t left = down[i] - 1;
            if (LP__UNLIKELY(left == 0)) {
                lp__emit_tuple(c, x, kind == LP__K_COUNTED_COUNTDOWN ? v : r);
                v = 0;
                left = lp__reload(&d.rng, r);
            }
            down[i] = left;
            if (kind == LP__K_COUNTED_COUNTDOWN)
                count[i] = v;
        }
    }
    lp__draw_store(c, &d);
}

#define LP__HASHED_VARIANT(name, kind, split)                                                      \
    static void name(lp_compressor *c, const lp_tuple *t, size_t n)                                \
    {                                                                                              \
        lp__hashed_loop(c, t, n, kind, split);                                                     \
    }

LP__HASHED_VARIANT(lp__h_none_r, LP__K_RANDOM, LP__SPLIT_NONE)
LP__HASHED_VARIANT(lp__h_none_cr, LP__K_COUNTED_RANDOM, LP__SPLIT_NONE)
LP__HASHED_VARIANT(lp__h_none_d, LP__K_COUNTDOWN, LP__SPLIT_NONE)
LP__HASHED_VARIANT(lp__h_none_cd, LP__K_COUNTED_COUNTDOWN, LP__SPLIT_NONE)
LP__HASHED_VARIANT(lp__h_none_p, LP__K_PERIODIC, LP__SPLIT_NONE)
LP__HASHED_VARIANT(lp__h_paper_r, LP__K_RANDOM, LP__SPLIT_PAPER)
LP__HASHED_VARIANT(lp__h_paper_cr, LP__K_COUNTED_RANDOM, LP__SPLIT_PAPER)
LP__HASHED_VARIANT(lp__h_paper_d, LP__K_COUNTDOWN, LP__SPLIT_PAPER)
LP__HASHED_VARIANT(lp__h_paper_cd, LP__K_COUNTED_COUNTDOWN, LP__SPLIT_PAPER)
LP__HASHED_VARIANT(lp__h_paper_p, LP__K_PERIODIC, LP__SPLIT_PAPER)
LP__HASHED_VARIANT(lp__h_fast_r, LP__K_RANDOM, LP__SPLIT_FAST)
LP__HASHED_VARIANT(lp__h_fast_cr, LP__K_COUNTED_RANDOM, LP__SPLIT_FAST)
LP__HASHED_VARIANT(lp__h_fast_d, LP__K_COUNTDOWN, LP__SPLIT_FAST)
LP__HASHED_VARIANT(lp__h_fast_cd, LP__K_COUNTED_COUNTDOWN, LP__SPLIT_FAST)
LP__HASHED_VARIANT(lp__h_fast_p, LP__K_PERIODIC, LP__SPLIT_FAST)

typedef void (*lp__loop_fn)(lp_compressor *c, const lp_tuple *t, size_t n);

static int lp__kind(const lp_compressor_spec *s)
{
    switch (s->sampler) {
    case LP_SAMPLER_RANDOM: return s->counted ? LP__K_COUNTED_RANDOM : LP__K_RANDOM;
    case LP_SAMPLER_COUNTDOWN: return s->counted ? LP__K_COUNTED_COUNTDOWN : LP__K_COUNTDOWN;
    default: return LP__K_PERIODIC; /* a counter adds nothing to P: its count is always r */
    }
}

void lp__strata_push(lp_compressor *c, const lp_tuple *t, size_t n)
{
    static const lp__loop_fn plain[5] = {lp__plain_random, lp__plain_counted_random,
                                         lp__plain_countdown, lp__plain_counted_countdown,
                                         lp__plain_periodic};
    static const lp__loop_fn hashed[3][5] = {
        {lp__h_none_r, lp__h_none_cr, lp__h_none_d, lp__h_none_cd, lp__h_none_p},
        {lp__h_paper_r, lp__h_paper_cr, lp__h_paper_d, lp__h_paper_cd, lp__h_paper_p},
        {lp__h_fast_r, lp__h_fast_cr, lp__h_fast_d, lp__h_fast_cd, lp__h_fast_p},
    };
    const lp_compressor_spec *s = &c->spec;
    int kind = lp__kind(s);
    if (s->level == LP_LEVEL_SAMPLER) {
        plain[kind](c, t, n);
        return;
    }
    int split = c->strata == 1            ? LP__SPLIT_NONE
                : s->hash == LP_HASH_FAST ? LP__SPLIT_FAST
                                          : LP__SPLIT_PAPER;
    hashed[split][kind](c, t, n);
}
