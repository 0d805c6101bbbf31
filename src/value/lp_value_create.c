/* value: building a profiler. Every array the co-processor and the filter
 * own (slots, the associative array, the sample buffer, the two bit
 * tables) is carved out of one block, so the runtime can place the model
 * in memory it already has; only the handler's table in main memory grows
 * later, through lp_malloc. */
#include "lp_value_internal.h"

typedef struct layout {
    size_t slots, cam_keys, cam_slots, buffer, ignore, done, total;
    uint32_t cam_cap;
} layout;

static size_t align8(size_t x)
{
    return (x + 7) & ~(size_t)7;
}

static void plan(const lp_value_options *o, layout *l)
{
    uint32_t cap = 2;
    while (cap < 2 * o->slots)
        cap *= 2;
    l->cam_cap = cap;
    size_t at = align8(sizeof(lp_value_profiler));
    l->slots = at;
    at = align8(at + (size_t)o->slots * sizeof(lp__value_slot));
    l->cam_keys = at;
    at = align8(at + (size_t)cap * sizeof(uint64_t));
    l->cam_slots = at;
    at = align8(at + (size_t)cap * sizeof(uint32_t));
    l->buffer = at;
    at = align8(at + (size_t)o->buffer * sizeof(lp__value_sample));
    l->ignore = at;
    at += ((((size_t)1 << o->ignore_bits) + 63) / 64) * sizeof(uint64_t);
    l->done = at;
    at += ((((size_t)1 << o->done_bits) + 63) / 64) * sizeof(uint64_t);
    l->total = at;
}

size_t lp_value_footprint(const lp_value_options *o)
{
    if (!o || lp_value_options_check(o, NULL, NULL))
        return 0;
    layout l;
    plan(o, &l);
    return l.total;
}

static uint64_t low_mask(uint32_t bits)
{
    return bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

/* Samples the co-processor processes per retired main-processor
 * instruction, Q32: clock / (ipc * sample_cycles), at least one unit so
 * it always moves, at most 2^30 so credit arithmetic cannot overflow. */
static uint64_t drain_rate(const lp_value_options *o)
{
    double r = o->clock / (o->ipc * (double)o->sample_cycles);
    if (r > (double)(1u << 30))
        r = (double)(1u << 30);
    uint64_t q = (uint64_t)(r * (double)LP__Q32);
    return q ? q : 1;
}

int lp_value_init(void *mem, size_t size, const lp_value_options *o, lp_value_profiler **out)
{
    *out = NULL;
    if (!mem || !o || ((uintptr_t)mem & 7) || lp_value_options_check(o, NULL, NULL))
        return LP_EINVAL;
    layout l;
    plan(o, &l);
    if (size < l.total)
        return LP_EINVAL;
    __builtin_memset(mem, 0, l.total);
    char *base = mem;
    lp_value_profiler *p = mem;
    p->o = *o;
    p->pc_mask = low_mask(o->pc_bits);
    p->value_mask = low_mask(o->value_bits);
    p->lim.hit_max = ((uint32_t)1 << o->hit_bits) - 1;
    p->lim.total_max = (uint32_t)low_mask(o->total_bits);
    p->lim.reselect_q16 = (uint32_t)(o->reselect * 65536.0 + 0.5);
    p->lim.reselect_min = o->reselect_min;
    p->lim.keep_hits = o->keep_hits;
    p->rand_bits = o->rand_bits;
    p->fail_limit = o->fail_factor * o->slots;
    p->thrash_limit = o->thrash_factor * o->slots;
    p->lfsr = o->seed;

    p->filter.classes = o->classes;
    lp__value_filter_width(&p->filter, o->mask_bits);
    p->filter.match = o->match;
    p->filter.ignore_mask = ((uint32_t)1 << o->ignore_bits) - 1;
    p->filter.done_mask = ((uint32_t)1 << o->done_bits) - 1;
    p->filter.ignore = (uint64_t *)(void *)(base + l.ignore);
    p->filter.done = (uint64_t *)(void *)(base + l.done);

    p->buf.e = (lp__value_sample *)(void *)(base + l.buffer);
    p->buf.cap = o->buffer;
    p->buf.rate = drain_rate(o);
    p->buf.tick_max = LP__VALUE_CREDIT_CAP / p->buf.rate;

    p->slots = (lp__value_slot *)(void *)(base + l.slots);
    p->cam.key = (uint64_t *)(void *)(base + l.cam_keys);
    p->cam.slot = (uint32_t *)(void *)(base + l.cam_slots);
    p->cam.mask = l.cam_cap - 1;
    lp__value_cam_clear(&p->cam);

    (void)lp__value_store_init(&p->store); /* allocates nothing yet */
    p->stats.mask_bits = o->mask_bits;
    p->stats.match = o->match;
    *out = p;
    return LP_OK;
}

int lp_value_create(const lp_value_options *o, lp_value_profiler **out)
{
    *out = NULL;
    size_t size = lp_value_footprint(o);
    if (!size)
        return LP_EINVAL;
    void *mem = lp_malloc(size);
    if (!mem)
        return LP_ENOMEM;
    int rc = lp_value_init(mem, size, o, out);
    if (rc) {
        lp_free(mem);
        return rc;
    }
    (*out)->block = mem;
    return LP_OK;
}

void lp_value_free(lp_value_profiler *p)
{
    if (!p)
        return;
    lp__value_store_fini(&p->store);
    if (p->block)
        lp_free(p->block);
}
