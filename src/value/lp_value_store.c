/* value: the interrupt handler's table in main memory (paper 004: at each
 * interrupt the slot contents are copied to a data structure in memory,
 * one entry per static instruction holding the counts of every value that
 * was ever active in one of its slots).
 *
 * Records live in one growing array, found through an lp_table keyed by
 * stored PC; each holds its values in a small growing array searched
 * linearly (a load has had only a handful of active values in practice).
 * A FIFO of masked records, oldest first, lets the re-sampling timer find
 * the records due for un-masking in amortised constant time. All memory
 * comes from lp_malloc, and only inside a modelled interrupt. */
#include "lp_value_internal.h"

int lp__value_store_init(lp__value_store *s)
{
    __builtin_memset(s, 0, sizeof *s);
    return lp_table_init(&s->index, 0);
}

void lp__value_store_fini(lp__value_store *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        lp_free(s->recs[i].vals);
    lp_free(s->recs);
    lp_free(s->q);
    lp_free(s->touched);
    lp_free(s->scratch);
    lp_table_fini(&s->index);
    __builtin_memset(s, 0, sizeof *s);
}

/* Returns arr (elements of size bytes, *cap of them) grown to hold need,
 * updating *cap; NULL on LP_ENOMEM, with arr untouched. */
static void *store_grow(void *arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return arr;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need)
        ncap *= 2;
    void *n = lp_realloc(arr, *cap * size, ncap * size);
    if (n)
        *cap = ncap;
    return n;
}

long lp__value_store_rec(lp__value_store *s, uint64_t pc)
{
    lp_key k = {pc, 0};
    lp_entry *e = lp_table_find(&s->index, k);
    if (e)
        return (long)e->v[0];
    lp__value_rec *recs = store_grow(s->recs, &s->cap, s->n + 1, sizeof *recs);
    if (!recs)
        return -1;
    s->recs = recs;
    e = lp_table_upsert(&s->index, k);
    if (!e)
        return -1;
    e->v[0] = s->n;
    lp__value_rec *r = &s->recs[s->n];
    __builtin_memset(r, 0, sizeof *r);
    r->pc = pc;
    r->last_irq = UINT64_MAX;
    return (long)s->n++;
}

const lp__value_rec *lp__value_store_find(const lp__value_store *s, uint64_t pc)
{
    lp_key k = {pc, 0};
    const lp_entry *e = lp_table_find(&s->index, k);
    return e ? &s->recs[e->v[0]] : NULL;
}

int lp__value_store_add(lp__value_store *s, lp__value_rec *r, uint64_t value, uint64_t hits,
                        uint64_t misses, uint64_t total)
{
    (void)s;
    r->samples += total;
    for (uint32_t i = 0; i < r->nvals; i++) {
        if (r->vals[i].value == value) {
            r->vals[i].hits += hits;
            r->vals[i].misses += misses;
            r->vals[i].regions++;
            return LP_OK;
        }
    }
    size_t cap = r->capvals;
    lp_value_counts *vals = store_grow(r->vals, &cap, (size_t)r->nvals + 1, sizeof *vals);
    if (!vals) {
        r->samples -= total;
        return LP_ENOMEM;
    }
    r->vals = vals;
    r->capvals = (uint32_t)cap;
    r->vals[r->nvals].value = value;
    r->vals[r->nvals].hits = hits;
    r->vals[r->nvals].misses = misses;
    r->vals[r->nvals].regions = 1;
    r->nvals++;
    return LP_OK;
}

int lp__value_store_queue_push(lp__value_store *s, uint32_t rec, uint32_t seq)
{
    if (s->qlen == s->qcap) {
        /* Grow the ring and unwrap it so the oldest entry is first. */
        size_t ncap = s->qcap ? s->qcap * 2 : 16;
        lp__value_doneq *n = lp_malloc(ncap * sizeof *n);
        if (!n)
            return LP_ENOMEM;
        for (size_t i = 0; i < s->qlen; i++)
            n[i] = s->q[(s->qhead + i) % s->qcap];
        lp_free(s->q);
        s->q = n;
        s->qcap = ncap;
        s->qhead = 0;
    }
    size_t tail = (s->qhead + s->qlen) % s->qcap;
    s->q[tail].rec = rec;
    s->q[tail].seq = seq;
    s->qlen++;
    return LP_OK;
}

int lp__value_store_touch(lp__value_store *s, uint32_t rec)
{
    uint32_t *t = store_grow(s->touched, &s->captouched, s->ntouched + 1, sizeof *t);
    if (!t)
        return LP_ENOMEM;
    s->touched = t;
    t[s->ntouched++] = rec;
    return LP_OK;
}

double *lp__value_store_scratch(lp__value_store *s, size_t n)
{
    double *d = store_grow(s->scratch, &s->capscratch, n ? n : 1, sizeof *d);
    if (d)
        s->scratch = d;
    return d;
}
