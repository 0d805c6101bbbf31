/* metrics: hot-set error (remote-profiling paper, Fig. 12: hot branches,
 * methods and call pairs are the top 15 % of events).
 *
 * Both tables are sorted hot-first (core's heap sort); the estimated hot
 * set's keys go into a small table so that membership of each exact hot key
 * is one lookup. Profiles here have thousands of keys, so the sort
 * dominates and is fine. */
#include "lowprof/metrics.h"

static size_t hot_count(size_t n, double fraction)
{
    double want = fraction * (double)n;
    size_t k = (size_t)want;
    if ((double)k < want)
        k++;
    return k > n ? n : k;
}

int lp_hot_error(const lp_table *exact, const lp_table *estimate, double fraction,
                 double *out)
{
    *out = 0;
    size_t k = hot_count(exact->count, fraction);
    if (k == 0)
        return 0;
    lp_entry *ex = NULL, *es = NULL;
    lp_table chosen;
    int rc = lp_table_init(&chosen, k);
    if (rc == 0)
        rc = lp_table_sorted(exact, lp_entry_count_greater, &ex);
    if (rc == 0)
        rc = lp_table_sorted(estimate, lp_entry_count_greater, &es);
    for (size_t i = 0; rc == 0 && i < k && i < estimate->count; i++)
        if (es[i].v[0] > 0 && !lp_table_upsert(&chosen, es[i].key))
            rc = LP_ENOMEM;
    if (rc == 0) {
        double hot = 0, missed = 0;
        for (size_t i = 0; i < k; i++) {
            hot += (double)ex[i].v[0];
            if (!lp_table_find(&chosen, ex[i].key))
                missed += (double)ex[i].v[0];
        }
        *out = hot > 0 ? missed / hot : 0.0;
    }
    lp_free(ex);
    lp_free(es);
    lp_table_fini(&chosen);
    return rc;
}
