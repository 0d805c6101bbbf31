/* phase: the phase table (remote-profiling paper, section 4: "a fully
 * associative table of size 20 ... using random replacement", each entry a
 * phase ID, a sampled bit and a count of the intervals seen).
 *
 * Hardware compares all entries at once; software finds the entry through
 * a small open-addressing index (twice the capacity, linear probing,
 * deletion by backward shift), so the offline evaluation can also sweep
 * large tables without a linear scan per interval. The slots themselves
 * are a plain array because random replacement picks a victim by slot
 * index. Accessed once per interval; never allocates after init. */
#include "lowprof/phase.h"

static size_t home_of(const lp_phase_table *t, uint32_t phase)
{
    return (size_t)lp_hash64(phase) & t->index_mask;
}

int lp_phase_table_init(lp_phase_table *t, size_t capacity, uint64_t seed)
{
    __builtin_memset(t, 0, sizeof *t);
    if (capacity == 0)
        capacity = LP_PHASE_DEFAULT_TABLE;
    if (capacity >= UINT32_MAX / 4)
        return LP_EINVAL;
    size_t index_size = 4;
    while (index_size < 2 * capacity)
        index_size *= 2;
    t->slots = lp_calloc(capacity, sizeof *t->slots);
    t->index = lp_calloc(index_size, sizeof *t->index);
    if (!t->slots || !t->index) {
        lp_phase_table_fini(t);
        return LP_ENOMEM;
    }
    t->capacity = capacity;
    t->index_mask = index_size - 1;
    lp_rng_seed(&t->rng, seed);
    return LP_OK;
}

void lp_phase_table_fini(lp_phase_table *t)
{
    if (!t)
        return;
    lp_free(t->slots);
    lp_free(t->index);
    t->slots = NULL;
    t->index = NULL;
    t->capacity = t->count = 0;
}

/* The index position holding phase, or the empty position where it would
 * go. The index is at most half full, so the probe ends. */
static size_t index_probe(const lp_phase_table *t, uint32_t phase)
{
    size_t i = home_of(t, phase);
    while (t->index[i] && t->slots[t->index[i] - 1].phase != phase)
        i = (i + 1) & t->index_mask;
    return i;
}

lp_phase_table_entry *lp_phase_table_find(const lp_phase_table *t, uint32_t phase)
{
    if (!t->capacity)
        return NULL;
    size_t i = index_probe(t, phase);
    return t->index[i] ? &t->slots[t->index[i] - 1] : NULL;
}

/* Removes the index position i, shifting later members of its probe
 * cluster back so that every remaining key stays reachable from its home. */
static void index_remove(lp_phase_table *t, size_t i)
{
    size_t j = i;
    for (;;) {
        t->index[i] = 0;
        for (;;) {
            j = (j + 1) & t->index_mask;
            if (!t->index[j])
                return;
            size_t k = home_of(t, t->slots[t->index[j] - 1].phase);
            /* Leave j where it is if its home lies cyclically in (i, j]. */
            int stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
            if (!stays)
                break;
        }
        t->index[i] = t->index[j];
        i = j;
    }
}

lp_phase_table_entry *lp_phase_table_access(lp_phase_table *t, uint32_t phase, int *out_hit)
{
    t->lookups++;
    size_t i = index_probe(t, phase);
    if (t->index[i]) {
        if (out_hit)
            *out_hit = 1;
        return &t->slots[t->index[i] - 1];
    }
    if (out_hit)
        *out_hit = 0;
    t->misses++;
    size_t slot;
    if (t->count < t->capacity) {
        slot = t->count++;
    } else {
        slot = (size_t)lp_rng_below(&t->rng, t->capacity);
        t->evictions++;
        index_remove(t, index_probe(t, t->slots[slot].phase));
        i = index_probe(t, phase); /* the removal may have moved the gap */
    }
    t->index[i] = (uint32_t)(slot + 1);
    lp_phase_table_entry *e = &t->slots[slot];
    e->phase = phase;
    e->sampled = 0;
    e->seen = 0;
    return e;
}
