/* streams: the digram index of Sequitur, which maps each pair of adjacent
 * symbols in the grammar to the one place it occurs.
 *
 * Tuned for Sequitur's traffic: about as many deletions as insertions, one
 * lookup per symbol appended and per symbol changed. Linear probing over
 * lp_hash64 keeps lookups to a cache line or two; backward-shift deletion
 * keeps the table free of tombstones however long the trace. */
#include "lp_streams_internal.h"

static size_t home(const lp__digrams *d, uint64_t key)
{
    return (size_t)lp_hash64(key) & (d->capacity - 1);
}

void lp__digrams_init(lp__digrams *d)
{
    d->key = NULL;
    d->node = NULL;
    d->capacity = 0;
    d->count = 0;
}

void lp__digrams_fini(lp__digrams *d)
{
    lp_free(d->key);
    lp_free(d->node);
    lp__digrams_init(d);
}

int lp__digrams_reserve(lp__digrams *d, size_t extra)
{
    if (d->count + extra <= d->capacity / 2)
        return 0;
    size_t cap = d->capacity ? d->capacity : 1024;
    while (d->count + extra > cap / 2) {
        if (cap > SIZE_MAX / 2 / sizeof(uint64_t))
            return LP_ENOMEM;
        cap *= 2;
    }
    uint64_t *key = lp_malloc(cap * sizeof *key);
    uint32_t *node = lp_malloc(cap * sizeof *node);
    if (!key || !node) {
        lp_free(key);
        lp_free(node);
        return LP_ENOMEM;
    }
    for (size_t i = 0; i < cap; i++)
        key[i] = LP__DIGRAM_EMPTY;
    lp__digrams old = *d;
    d->key = key;
    d->node = node;
    d->capacity = cap;
    d->count = 0;
    for (size_t i = 0; i < old.capacity; i++)
        if (old.key[i] != LP__DIGRAM_EMPTY)
            lp__digrams_put(d, old.key[i], old.node[i]);
    lp_free(old.key);
    lp_free(old.node);
    return 0;
}

uint32_t lp__digrams_get(const lp__digrams *d, uint64_t key)
{
    if (!d->capacity)
        return LP__NONE;
    size_t mask = d->capacity - 1;
    for (size_t i = home(d, key);; i = (i + 1) & mask) {
        if (d->key[i] == key)
            return d->node[i];
        if (d->key[i] == LP__DIGRAM_EMPTY)
            return LP__NONE;
    }
}

void lp__digrams_put(lp__digrams *d, uint64_t key, uint32_t node)
{
    size_t mask = d->capacity - 1;
    size_t i = home(d, key);
    while (d->key[i] != LP__DIGRAM_EMPTY && d->key[i] != key)
        i = (i + 1) & mask;
    if (d->key[i] == LP__DIGRAM_EMPTY)
        d->count++;
    d->key[i] = key;
    d->node[i] = node;
}

void lp__digrams_del(lp__digrams *d, uint64_t key)
{
    if (!d->capacity)
        return;
    size_t mask = d->capacity - 1;
    size_t hole = home(d, key);
    while (d->key[hole] != key) {
        if (d->key[hole] == LP__DIGRAM_EMPTY)
            return;
        hole = (hole + 1) & mask;
    }
    /* Pull back every later entry of the run whose home does not lie
     * strictly between the hole and its own slot (cyclically). */
    for (size_t j = (hole + 1) & mask; d->key[j] != LP__DIGRAM_EMPTY; j = (j + 1) & mask) {
        size_t h = home(d, d->key[j]);
        int stays = hole <= j ? (h > hole && h <= j) : (h > hole || h <= j);
        if (stays)
            continue;
        d->key[hole] = d->key[j];
        d->node[hole] = d->node[j];
        hole = j;
    }
    d->key[hole] = LP__DIGRAM_EMPTY;
    d->count--;
}
