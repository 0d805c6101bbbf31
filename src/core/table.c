/* The one hash table: two-word keys to two counters, open addressing with
 * linear probing. Tuned for the front ends' profile updates (upsert of a key
 * that is usually present), so the probe loop is short and allocation only
 * happens when the table doubles. */
#include "lowprof/core.h"

#define LP__EMPTY UINT64_MAX

static int lp__is_empty(const lp_entry *e)
{
    return e->key.a == LP__EMPTY && e->key.b == LP__EMPTY;
}

static lp_entry *lp__alloc_slots(size_t capacity)
{
    if (capacity > SIZE_MAX / sizeof(lp_entry))
        return NULL;
    lp_entry *s = lp_malloc(capacity * sizeof(lp_entry));
    if (s)
        __builtin_memset(s, 0xff, capacity * sizeof(lp_entry)); /* all keys empty */
    return s;
}

int lp_table_init(lp_table *t, size_t min_count)
{
    t->slots = NULL;
    t->capacity = 0;
    t->count = 0;
    if (!min_count)
        return LP_OK;
    size_t cap = 16;
    while (cap < min_count * 2) {
        if (cap > SIZE_MAX / 4)
            return LP_ENOMEM;
        cap *= 2;
    }
    t->slots = lp__alloc_slots(cap);
    if (!t->slots)
        return LP_ENOMEM;
    t->capacity = cap;
    return LP_OK;
}

void lp_table_fini(lp_table *t)
{
    if (!t)
        return;
    lp_free(t->slots);
    t->slots = NULL;
    t->capacity = t->count = 0;
}

void lp_table_clear(lp_table *t)
{
    if (t->slots && t->count)
        __builtin_memset(t->slots, 0xff, t->capacity * sizeof(lp_entry));
    t->count = 0;
}

static size_t lp__slot_of(const lp_table *t, lp_key k)
{
    return (size_t)lp_hash_pair(k.a, k.b) & (t->capacity - 1);
}

static int lp__grow(lp_table *t)
{
    size_t cap = t->capacity ? t->capacity * 2 : 16;
    if (cap < t->capacity || cap > SIZE_MAX / sizeof(lp_entry))
        return LP_ENOMEM;
    lp_entry *slots = lp__alloc_slots(cap);
    if (!slots)
        return LP_ENOMEM;
    for (size_t i = 0; i < t->capacity; i++) {
        const lp_entry *e = &t->slots[i];
        if (lp__is_empty(e))
            continue;
        size_t j = (size_t)lp_hash_pair(e->key.a, e->key.b) & (cap - 1);
        while (!lp__is_empty(&slots[j]))
            j = (j + 1) & (cap - 1);
        slots[j] = *e;
    }
    lp_free(t->slots);
    t->slots = slots;
    t->capacity = cap;
    return LP_OK;
}

lp_entry *lp_table_upsert(lp_table *t, lp_key k)
{
    if (k.a == LP__EMPTY && k.b == LP__EMPTY)
        return NULL;
    if ((t->count + 1) * 2 > t->capacity && lp__grow(t) != LP_OK)
        return NULL;
    size_t i = lp__slot_of(t, k);
    for (;;) {
        lp_entry *e = &t->slots[i];
        if (e->key.a == k.a && e->key.b == k.b)
            return e;
        if (lp__is_empty(e)) {
            e->key = k;
            e->v[0] = e->v[1] = 0;
            t->count++;
            return e;
        }
        i = (i + 1) & (t->capacity - 1);
    }
}

lp_entry *lp_table_find(const lp_table *t, lp_key k)
{
    if (!t->capacity || (k.a == LP__EMPTY && k.b == LP__EMPTY))
        return NULL;
    size_t i = lp__slot_of(t, k);
    for (;;) {
        lp_entry *e = &t->slots[i];
        if (e->key.a == k.a && e->key.b == k.b)
            return e;
        if (lp__is_empty(e))
            return NULL;
        i = (i + 1) & (t->capacity - 1);
    }
}

lp_entry *lp_table_next(const lp_table *t, size_t *cursor)
{
    while (*cursor < t->capacity) {
        lp_entry *e = &t->slots[(*cursor)++];
        if (!lp__is_empty(e))
            return e;
    }
    return NULL;
}

double lp_table_total(const lp_table *t)
{
    double sum = 0;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(t, &cur)) != NULL)
        sum += (double)e->v[0];
    return sum;
}

int lp_table_merge(lp_table *dst, const lp_table *src)
{
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(src, &cur)) != NULL) {
        lp_entry *d = lp_table_upsert(dst, e->key);
        if (!d)
            return LP_ENOMEM;
        d->v[0] += e->v[0];
        d->v[1] += e->v[1];
    }
    return LP_OK;
}
