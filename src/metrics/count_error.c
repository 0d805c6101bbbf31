/* metrics: whole-profile count comparisons (remote-profiling paper, branch
 * count error; online-instrumentation paper, Manhattan accuracy).
 *
 * Both walk the two tables once each: keys of the first are looked up in
 * the second, then keys only the second has are added. Tables are hashed,
 * so this is linear in their sizes; no scratch memory. */
#include "lowprof/metrics.h"

static double fabs_d(double x)
{
    return x < 0 ? -x : x;
}

/* Sum over the union of keys of |sa * a[k] - sb * b[k]|. */
static double weighted_l1(const lp_table *a, double sa, const lp_table *b, double sb)
{
    double sum = 0;
    size_t cursor = 0;
    const lp_entry *e;
    while ((e = lp_table_next(a, &cursor)) != NULL) {
        const lp_entry *o = lp_table_find(b, e->key);
        sum += fabs_d(sa * (double)e->v[0] - (o ? sb * (double)o->v[0] : 0.0));
    }
    cursor = 0;
    while ((e = lp_table_next(b, &cursor)) != NULL)
        if (!lp_table_find(a, e->key))
            sum += sb * (double)e->v[0];
    return sum;
}

double lp_count_error(const lp_table *exact, const lp_table *estimate, double scale)
{
    double total = lp_table_total(exact);
    if (total == 0)
        return lp_table_total(estimate) * scale == 0 ? 0.0 : 1.0;
    return weighted_l1(exact, 1.0, estimate, scale) / total;
}

double lp_manhattan_accuracy(const lp_table *a, const lp_table *b)
{
    double ta = lp_table_total(a), tb = lp_table_total(b);
    if (ta == 0 || tb == 0)
        return ta == tb ? 1.0 : 0.0;
    return 1.0 - weighted_l1(a, 1.0 / ta, b, 1.0 / tb) / 2.0;
}
