/* The compressor object: one block holding every table, the message buffer
 * and the interrupt accounting (stratified-sampling paper, sections 2.2 and
 * 5.3.2), and the dispatch from the public calls to the level that runs.
 *
 * Tuned for many short-lived compressors (Monte Carlo trials) and for hot
 * loops: the block is allocated once, reset rewrites it in place, and
 * push_many chooses the specialised loop once per call, never per tuple. */
#include "sample_internal.h"

typedef struct lp__layout {
    size_t hash, count, down, hold, tent, tcold, first, second, buf, total;
} lp__layout;

static size_t lp__round(size_t x)
{
    return (x + 63) & ~(size_t)63;
}

static unsigned lp__log2(uint32_t pow2)
{
    unsigned b = 0;
    while ((1u << b) < pow2)
        b++;
    return b;
}

static const lp_cost_model lp__default_cost = LP_COST_MODEL_DEFAULT;

static int lp__cost_ok(const lp_cost_model *cost)
{
    return cost->buffer_messages >= 1 && cost->buffer_messages <= LP__MAX_BUFFER;
}

/* Offsets of each part inside the block; a part a level does not use has
 * size 0 (its offset then equals the next one's). */
static void lp__plan(const lp_compressor_spec *s, const lp_cost_model *cost, lp__layout *l)
{
    size_t at = lp__round(sizeof(lp_compressor));
    size_t strata = 0, hash = 0, count = 0, down = 0, hold = 0, tent = 0, tcold = 0;
    if (s->level == LP_LEVEL_SAMPLER || s->level == LP_LEVEL_HASHED) {
        strata = s->level == LP_LEVEL_HASHED ? s->entries : 1;
        if (s->level == LP_LEVEL_HASHED && s->hash == LP_HASH_PAPER && strata > 1)
            hash = sizeof(lp__hash);
        if (s->counted || s->sampler == LP_SAMPLER_PERIODIC) {
            count = strata * sizeof(uint32_t);
            hold = strata * sizeof(lp_tuple);
        }
        if (s->sampler == LP_SAMPLER_COUNTDOWN)
            down = strata * sizeof(uint32_t);
    } else if (s->level == LP_LEVEL_TAGGED) {
        if (s->hash == LP_HASH_PAPER)
            hash = sizeof(lp__hash); /* also for one set: it carries the tag */
        tent = (size_t)s->entries * sizeof(lp__tentry);
        tcold = (size_t)s->entries * sizeof(lp__tcold);
    }
    size_t first = s->level == LP_LEVEL_ASSOC ? s->entries * sizeof(lp__aentry) : 0;
    size_t second = (size_t)s->second_entries * sizeof(lp__aentry);
    size_t sizes[9] = {hash,  count,  down,
                       hold,  tent,   tcold,
                       first, second, (size_t)cost->buffer_messages * sizeof(lp_message)};
    size_t *offsets[9] = {&l->hash,  &l->count, &l->down,   &l->hold, &l->tent,
                          &l->tcold, &l->first, &l->second, &l->buf};
    for (int i = 0; i < 9; i++) {
        *offsets[i] = at;
        at += lp__round(sizes[i]);
    }
    l->total = at;
}

size_t lp_compressor_footprint(const lp_compressor_spec *spec, const lp_cost_model *cost)
{
    if (!cost)
        cost = &lp__default_cost;
    if (lp_compressor_spec_check(spec, NULL) || !lp__cost_ok(cost))
        return 0;
    lp__layout l;
    lp__plan(spec, cost, &l);
    return l.total;
}

static void lp__random_setup(lp_compressor *c)
{
    uint32_t r = c->spec.rate;
    if ((r & (r - 1)) == 0) {
        c->rand_bits = lp__log2(r);
        c->rand_mask = ((uint64_t)1 << c->rand_bits) - 1;
        c->rand_threshold = 0;
    } else {
        c->rand_bits = UINT32_MAX;
        c->rand_mask = 0;
        c->rand_threshold = UINT64_MAX / r; /* P(draw < it) = 1/r within 2^-64 */
    }
}

int lp_compressor_init(void *mem, size_t size, const lp_compressor_spec *spec,
                       const lp_cost_model *cost, uint64_t seed, lp_message_fn fn, void *ctx,
                       lp_compressor **out)
{
    if (out)
        *out = NULL;
    size_t need = lp_compressor_footprint(spec, cost);
    if (!out || !mem || !need || size < need || ((uintptr_t)mem & 7))
        return LP_EINVAL;
    if (!cost)
        cost = &lp__default_cost;
    lp__layout l;
    lp__plan(spec, cost, &l);
    uint8_t *base = mem;
    lp_compressor *c = mem;
    __builtin_memset(c, 0, sizeof *c);
    c->spec = *spec;
    c->cost = *cost;
    c->fn = fn;
    c->ctx = ctx;
    const lp_compressor_spec *s = &c->spec;
    int sampled = s->level == LP_LEVEL_SAMPLER || s->level == LP_LEVEL_HASHED;
    if (sampled) {
        c->strata = s->level == LP_LEVEL_HASHED ? s->entries : 1;
        lp__random_setup(c);
    }
    if (l.count != l.down)
        c->count = (uint32_t *)(base + l.count);
    if (l.down != l.hold)
        c->down = (uint32_t *)(base + l.down);
    if (l.hold != l.tent)
        c->hold = (lp_tuple *)(base + l.hold);
    if (l.hash != l.count)
        c->hash = (lp__hash *)(base + l.hash);
    if (s->level == LP_LEVEL_TAGGED) {
        c->tent = (lp__tentry *)(base + l.tent);
        c->tcold = (lp__tcold *)(base + l.tcold);
        c->ways = s->ways;
        c->sets = s->entries / s->ways;
        c->tag_mask = (uint32_t)((1u << s->tag_bits) - 1);
    }
    if (s->level == LP_LEVEL_ASSOC) {
        c->first.e = (lp__aentry *)(base + l.first);
        c->first.k = s->entries;
        c->first.saturate = s->saturate;
    }
    if (s->second_entries) {
        c->second.e = (lp__aentry *)(base + l.second);
        c->second.k = s->second_entries;
        c->second.saturate = s->second_saturate;
    }
    c->buf = (lp_message *)(base + l.buf);
    lp_compressor_reset(c, seed);
    *out = c;
    return 0;
}

int lp_compressor_create(const lp_compressor_spec *spec, const lp_cost_model *cost, uint64_t seed,
                         lp_message_fn fn, void *ctx, lp_compressor **out)
{
    if (out)
        *out = NULL;
    size_t need = lp_compressor_footprint(spec, cost);
    if (!out || !need)
        return LP_EINVAL;
    void *mem = lp_malloc(need);
    if (!mem)
        return LP_ENOMEM;
    int rc = lp_compressor_init(mem, need, spec, cost, seed, fn, ctx, out);
    if (rc) {
        lp_free(mem);
        return rc;
    }
    (*out)->owned = 1;
    return 0;
}

void lp_compressor_reset(lp_compressor *c, uint64_t seed)
{
    const lp_compressor_spec *s = &c->spec;
    unsigned index_bits = 0;
    if (s->level == LP_LEVEL_HASHED)
        index_bits = lp__log2(s->entries);
    else if (s->level == LP_LEVEL_TAGGED)
        index_bits = lp__log2(s->entries / s->ways);
    if (c->hash)
        lp__hash_init(c->hash, seed, index_bits, s->level == LP_LEVEL_TAGGED ? s->tag_bits : 0);
    lp__fasthash_init(&c->fast, seed, index_bits, s->level == LP_LEVEL_TAGGED ? s->tag_bits : 0);
    lp_rng_seed(&c->rng, lp_hash64(seed ^ 0x3c6ef372fe94f82bULL));
    c->pool = 0;
    c->pool_left = 0;
    if (s->level == LP_LEVEL_SAMPLER || s->level == LP_LEVEL_HASHED)
        lp__strata_reset(c);
    else if (s->level == LP_LEVEL_TAGGED)
        lp__tagged_reset(c);
    lp__assoc_reset(&c->first);
    lp__assoc_reset(&c->second);
    c->length = 0;
    c->nbuf = 0;
    __builtin_memset(&c->stats, 0, sizeof c->stats);
}

void lp_compressor_push_many(lp_compressor *c, const lp_tuple *t, size_t n)
{
    c->stats.tuples += n;
    switch (c->spec.level) {
    case LP_LEVEL_SAMPLER:
    case LP_LEVEL_HASHED: lp__strata_push(c, t, n); break;
    case LP_LEVEL_TAGGED: lp__tagged_push(c, t, n); break;
    case LP_LEVEL_ASSOC: lp__assoc_push(c, t, n); break;
    case LP_LEVEL_COUNTER: c->length += n; break;
    }
}

void lp_compressor_push(lp_compressor *c, const lp_tuple *t)
{
    lp_compressor_push_many(c, t, 1);
}

void lp_compressor_finish(lp_compressor *c)
{
    switch (c->spec.level) {
    case LP_LEVEL_SAMPLER:
    case LP_LEVEL_HASHED: lp__strata_drain(c); break;
    case LP_LEVEL_TAGGED: lp__tagged_drain(c); break;
    case LP_LEVEL_ASSOC: lp__assoc_drain(c, &c->first); break;
    case LP_LEVEL_COUNTER:
        if (c->length)
            lp__emit(c, 0, 0, LP_MESSAGE_LENGTH, c->length);
        c->length = 0;
        break;
    }
    if (c->second.k)
        lp__assoc_drain(c, &c->second);
    lp__interrupt(c);
}

void lp_compressor_flush(lp_compressor *c)
{
    lp__interrupt(c);
}

void lp_compressor_get_stats(const lp_compressor *c, lp_compressor_stats *out)
{
    *out = c->stats;
}

const lp_compressor_spec *lp_compressor_get_spec(const lp_compressor *c)
{
    return &c->spec;
}

void lp_compressor_free(lp_compressor *c)
{
    if (c && c->owned)
        lp_free(c);
}

/* ---- message path ----------------------------------------------------------- */

void lp__interrupt(lp_compressor *c)
{
    if (!c->nbuf)
        return;
    if (c->fn)
        c->fn(c->ctx, c->buf, c->nbuf);
    c->stats.interrupts++;
    c->stats.cycles +=
        c->cost.cycles_per_interrupt + (uint64_t)c->cost.cycles_per_message * c->nbuf;
    c->nbuf = 0;
}

void lp__deliver(lp_compressor *c, uint64_t pc, uint64_t w, uint8_t type, uint64_t count)
{
    lp_message *m = &c->buf[c->nbuf++];
    m->pc = pc;
    m->w = w;
    m->count = count;
    m->type = type;
    c->stats.messages++;
    if (c->nbuf == c->cost.buffer_messages)
        lp__interrupt(c);
}

void lp__emit(lp_compressor *c, uint64_t pc, uint64_t w, uint8_t type, uint64_t count)
{
    c->stats.first_level_messages++;
    if (c->second.k)
        lp__assoc_put(c, &c->second, pc, w, type, count);
    else
        lp__deliver(c, pc, w, type, count);
}
