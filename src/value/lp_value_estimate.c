/* value: per-load estimates from the handler's table (paper 004, the final
 * estimation step, which the paper counts in the profiler's overhead as
 * linear in the number of static loads): each load's values apportioned,
 * its top values with their invariance and confidence, the "phased"
 * diagnosis, and the whole profile as an lp_table that metrics.h can
 * compare with an exact one. */
#include "lp_value_internal.h"

/* A value is near-invariant in its own regions when it has at least this
 * many hits and at most one miss per PURE_RATIO hits; two such values in
 * one load mean long runs of one value, then of another. */
#define PURE_HITS 8
#define PURE_RATIO 10

static uint64_t rec_samples(const lp__value_rec *r)
{
    /* Halving can leave hits + misses below total but never above; the
     * maximum guards a record assembled by hand in a test. */
    uint64_t seen = 0;
    for (uint32_t i = 0; i < r->nvals; i++)
        seen += r->vals[i].hits + r->vals[i].misses;
    return r->samples > seen ? r->samples : seen;
}

double lp__value_top_invariance(const lp__value_rec *r, double *scratch)
{
    uint64_t n = rec_samples(r);
    if (!n || !r->nvals)
        return 0;
    double other, best = 0;
    lp_value_apportion(r->vals, r->nvals, r->samples, scratch, &other);
    for (uint32_t i = 0; i < r->nvals; i++)
        if (scratch[i] > best)
            best = scratch[i];
    return best / (double)n;
}

void lp__value_estimate_rec(const lp_value_profiler *p, const lp__value_rec *r, double *scratch,
                            lp_value_load *out)
{
    __builtin_memset(out, 0, sizeof *out);
    out->pc = r->pc;
    out->samples = rec_samples(r);
    out->profiles = r->profiles;
    out->resamples = r->resamples;
    if (r->done)
        out->flags |= LP_VALUE_LOAD_DONE;
    if (r->resamples)
        out->flags |= LP_VALUE_LOAD_RESAMPLED;
    unsigned pure = 0;
    for (uint32_t i = 0; i < r->nvals; i++)
        if (r->vals[i].hits >= PURE_HITS && r->vals[i].misses * PURE_RATIO <= r->vals[i].hits)
            pure++;
    if (pure >= 2)
        out->flags |= LP_VALUE_LOAD_PHASED;
    if (!out->samples)
        return;
    double other;
    lp_value_apportion(r->vals, r->nvals, r->samples, scratch, &other);
    double n = (double)out->samples, kept = 0;
    /* Top values by selection: top is at most 16, n values a handful. */
    uint32_t want = p->o.top < r->nvals ? p->o.top : r->nvals;
    for (uint32_t k = 0; k < want; k++) {
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < r->nvals; i++) {
            if (scratch[i] < 0)
                continue; /* taken */
            if (best == UINT32_MAX || scratch[i] > scratch[best])
                best = i;
        }
        lp_value_top *t = &out->top[k];
        t->value = r->vals[best].value;
        t->samples = scratch[best];
        t->invariance = scratch[best] / n;
        t->confidence = lp_value_confidence(t->invariance, out->samples);
        t->hits = r->vals[best].hits;
        t->misses = r->vals[best].misses;
        kept += scratch[best];
        scratch[best] = -1;
        out->n_top = k + 1;
    }
    double rest = (n - kept) / n;
    out->other = rest > 0 ? rest : 0;
}

int lp_value_estimate_pc(const lp_value_profiler *p, uint64_t pc, lp_value_load *out)
{
    const lp__value_rec *r = lp__value_store_find(&p->store, pc & p->pc_mask);
    if (!r)
        return LP_ENOENT;
    double *scratch = lp_malloc((r->nvals ? r->nvals : 1) * sizeof *scratch);
    if (!scratch)
        return LP_ENOMEM;
    lp__value_estimate_rec(p, r, scratch, out);
    lp_free(scratch);
    return LP_OK;
}

int lp_value_estimate_next(const lp_value_profiler *p, size_t *cursor, lp_value_load *out)
{
    if (*cursor >= p->store.n)
        return 0;
    int rc = lp_value_estimate_pc(p, p->store.recs[*cursor].pc, out);
    if (rc)
        return rc;
    ++*cursor;
    return 1;
}

static uint64_t round_count(double x)
{
    return x > 0 ? (uint64_t)(x + 0.5) : 0;
}

int lp_value_table(const lp_value_profiler *p, lp_table *t, double scale)
{
    uint32_t most = 1;
    for (size_t k = 0; k < p->store.n; k++)
        most = p->store.recs[k].nvals > most ? p->store.recs[k].nvals : most;
    double *est = lp_malloc(most * sizeof *est);
    if (!est)
        return LP_ENOMEM;
    int rc = LP_OK;
    for (size_t k = 0; k < p->store.n && !rc; k++) {
        const lp__value_rec *r = &p->store.recs[k];
        double other;
        lp_value_apportion(r->vals, r->nvals, r->samples, est, &other);
        for (uint32_t i = 0; i <= r->nvals; i++) {
            lp_key key = {r->pc, i < r->nvals ? r->vals[i].value : LP_VALUE_OTHER};
            uint64_t add = round_count((i < r->nvals ? est[i] : other) * scale);
            /* lp_table cannot hold its reserved key: a 64-bit PC of all
             * ones with the "other" value is left out. */
            if (!add || (key.a == UINT64_MAX && key.b == UINT64_MAX))
                continue;
            lp_entry *e = lp_table_upsert(t, key);
            if (!e) {
                rc = LP_ENOMEM;
                break;
            }
            e->v[0] += add;
        }
    }
    lp_free(est);
    return rc;
}
