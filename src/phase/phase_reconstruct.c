/* phase: the whole-program estimate from sampled intervals (remote-profiling
 * paper, section 4: each phase's representative stands for all of the
 * phase's intervals; section 5.3: periodic and random samples stand for
 * the whole run).
 *
 * Sums each stratum's sampled profiles first and scales the sum once, so a
 * counter is rounded once per stratum: that is what makes the estimate
 * exact whenever a stratum's intervals are identical, however many of them
 * were sampled. Runs once per evaluation, over tables of a few thousand
 * keys. */
#include "phase_internal.h"

__extension__ typedef unsigned __int128 lp__u128;

static uint64_t scale_round(uint64_t v, uint64_t num, uint64_t den)
{
    /* v * num < 2^128 - 2^65, so adding den / 2 < 2^63 cannot overflow. */
    lp__u128 r = ((lp__u128)v * num + den / 2) / den;
    return r > UINT64_MAX ? UINT64_MAX : (uint64_t)r;
}

int lp_phase_scale_add(lp_table *out, const lp_table *src, uint64_t num, uint64_t den)
{
    if (den == 0)
        return LP_EINVAL;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(src, &cur)) != NULL) {
        lp_entry *o = lp_table_upsert(out, e->key);
        if (!o)
            return LP_ENOMEM;
        for (unsigned j = 0; j < 2; j++) {
            uint64_t add = scale_round(e->v[j], num, den);
            o->v[j] = o->v[j] > UINT64_MAX - add ? UINT64_MAX : o->v[j] + add;
        }
    }
    return LP_OK;
}

int lp_phase_reconstruct(const lp_phase_daemon *d, const lp_table *const *tables, size_t count,
                         lp_table *out)
{
    if (count != d->sample_count)
        return LP_EINVAL;
    if (count == 0)
        return LP_OK;
    if (d->per_sample) { /* refine: each sample weighted by its own share */
        int rc = LP_OK;
        for (size_t j = 0; j < count && rc == LP_OK; j++)
            if (!d->samples[j].retired && d->samples[j].share)
                rc = lp_phase_scale_add(out, tables[j], d->samples[j].share,
                                        LP_PHASE_SHARE_ONE);
        return rc;
    }
    /* Strata in order of their first sample; sums[i] for the i-th. */
    lp_table order; /* key {stratum, 0}: v[0] position in sums */
    lp_table *sums = lp_calloc(count, sizeof *sums);
    int rc = lp_table_init(&order, count);
    if (!sums)
        rc = LP_ENOMEM;
    size_t nstrata = 0;
    for (size_t j = 0; j < count && rc == LP_OK; j++) {
        if (d->samples[j].retired)
            continue;
        int fresh;
        lp_entry *e = lp__phase_first_seen(&order, d->samples[j].stratum, &fresh);
        if (!e) {
            rc = LP_ENOMEM;
            break;
        }
        nstrata += fresh;
        rc = lp_table_merge(&sums[e->v[0]], tables[j]);
    }
    size_t cur = 0;
    const lp_entry *e;
    while (rc == LP_OK && (e = lp_table_next(&order, &cur)) != NULL) {
        uint64_t intervals, sampled;
        lp_phase_daemon_stratum(d, (uint32_t)e->key.a, &intervals, &sampled);
        rc = lp_phase_scale_add(out, &sums[e->v[0]], intervals, sampled);
    }
    for (size_t i = 0; i < nstrata; i++)
        lp_table_fini(&sums[i]);
    lp_free(sums);
    lp_table_fini(&order);
    return rc;
}
