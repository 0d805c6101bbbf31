/* The associative counter table A_k (stratified-sampling paper, section 3.4):
 * a lossless compressor that merges identical tuples, full tuple (pc, w,
 * type) as the key. An entry is dispatched to the next stage with the sum of
 * its counts when it is replaced (least recently used goes first) or when it
 * has merged `saturate` inputs, the counter's maximum.
 *
 * Used alone as a first level (every tuple, count 1) and, as the paper
 * intends, as a second level behind a sampler, where it sees only the
 * sampler's messages. Tuned for the paper's k = 16: a linear scan over one
 * small array, no hashing. */
#include "sample_internal.h"

void lp__assoc_reset(lp__assoc *a)
{
    if (a->e)
        __builtin_memset(a->e, 0, (size_t)a->k * sizeof(lp__aentry));
    a->clock = 0;
}

static void lp__assoc_out(lp_compressor *c, const lp__assoc *a, const lp__aentry *e)
{
    if (a == &c->first)
        lp__emit(c, e->pc, e->w, e->type, e->sum);
    else
        lp__deliver(c, e->pc, e->w, e->type, e->sum);
}

void lp__assoc_put(lp_compressor *c, lp__assoc *a, uint64_t pc, uint64_t w, uint8_t type,
                   uint64_t count)
{
    lp__aentry *const e = a->e;
    const uint64_t now = ++a->clock;
    uint32_t free_slot = UINT32_MAX, lru = UINT32_MAX;
    for (uint32_t i = 0; i < a->k; i++) {
        if (!e[i].used) {
            if (free_slot == UINT32_MAX)
                free_slot = i;
            continue;
        }
        if (e[i].pc == pc && e[i].w == w && e[i].type == type) {
            e[i].sum += count;
            e[i].stamp = now;
            if (++e[i].merges >= a->saturate) { /* counter saturation */
                lp__assoc_out(c, a, &e[i]);
                e[i].used = 0;
            }
            return;
        }
        if (lru == UINT32_MAX || e[i].stamp < e[lru].stamp)
            lru = i;
    }
    uint32_t slot = free_slot;
    if (slot == UINT32_MAX) { /* replacement */
        slot = lru;
        lp__assoc_out(c, a, &e[slot]);
    }
    lp__aentry *n = &e[slot];
    n->pc = pc;
    n->w = w;
    n->type = type;
    n->sum = count;
    n->merges = 1;
    n->stamp = now;
    n->used = 1;
    if (a->saturate == 1) {
        lp__assoc_out(c, a, n);
        n->used = 0;
    }
}

void lp__assoc_push(lp_compressor *c, const lp_tuple *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        lp__assoc_put(c, &c->first, t[i].pc, t[i].w, t[i].type, 1);
}

void lp__assoc_drain(lp_compressor *c, lp__assoc *a)
{
    for (uint32_t i = 0; i < a->k; i++) {
        if (a->e[i].used) {
            lp__assoc_out(c, a, &a->e[i]);
            a->e[i].used = 0;
        }
    }
}
