/* metrics: invariance error of value profiles (stratified-sampling paper,
 * section 5.3.1), with the paper's filters so that only tuples a value-reuse
 * optimiser would act on count.
 *
 * Per-pc totals of both profiles go into one scratch table keyed (pc, 0):
 * v[0] the exact total, v[1] the estimated total. A second table keyed the
 * same way holds, per pc, the exact count its selected tuples cover, so the
 * 40 % coverage rule can be judged before the error is summed. */
#include "lowprof/metrics.h"

const lp_invariance_filter lp_invariance_paper = {1000, 0.10, 0.40};

static int add_totals(lp_table *totals, const lp_table *t, unsigned slot)
{
    size_t cursor = 0;
    const lp_entry *e;
    while ((e = lp_table_next(t, &cursor)) != NULL) {
        lp_entry *s = lp_table_upsert(totals, (lp_key){e->key.a, 0});
        if (!s)
            return LP_ENOMEM;
        s->v[slot] += e->v[0];
    }
    return 0;
}

static int tuple_qualifies(const lp_entry *e, const lp_entry *pc, const lp_invariance_filter *f)
{
    return pc->v[0] >= f->min_pc_count && pc->v[0] > 0 &&
           (double)e->v[0] >= f->min_tuple_share * (double)pc->v[0];
}

int lp_invariance_error(const lp_table *exact, const lp_table *estimate,
                        const lp_invariance_filter *filter, double *out,
                        uint64_t *out_selected)
{
    *out = 0;
    if (out_selected)
        *out_selected = 0;
    lp_table totals, covered;
    int rc = lp_table_init(&totals, exact->count);
    int rc2 = lp_table_init(&covered, 0);
    if (rc == 0)
        rc = rc2;
    if (rc == 0)
        rc = add_totals(&totals, exact, 0);
    if (rc == 0)
        rc = add_totals(&totals, estimate, 1);
    size_t cursor = 0;
    const lp_entry *e;
    while (rc == 0 && (e = lp_table_next(exact, &cursor)) != NULL) {
        const lp_entry *pc = lp_table_find(&totals, (lp_key){e->key.a, 0});
        if (!tuple_qualifies(e, pc, filter))
            continue;
        lp_entry *c = lp_table_upsert(&covered, (lp_key){e->key.a, 0});
        if (!c)
            rc = LP_ENOMEM;
        else
            c->v[0] += e->v[0];
    }
    double weight = 0, sum = 0;
    uint64_t selected = 0;
    cursor = 0;
    while (rc == 0 && (e = lp_table_next(exact, &cursor)) != NULL) {
        const lp_entry *pc = lp_table_find(&totals, (lp_key){e->key.a, 0});
        if (!tuple_qualifies(e, pc, filter))
            continue;
        const lp_entry *c = lp_table_find(&covered, (lp_key){e->key.a, 0});
        if ((double)c->v[0] < filter->min_covered_share * (double)pc->v[0])
            continue;
        const lp_entry *est = lp_table_find(estimate, e->key);
        double ideal = (double)e->v[0] / (double)pc->v[0];
        double seen = est && pc->v[1] ? (double)est->v[0] / (double)pc->v[1] : 0.0;
        double diff = ideal > seen ? ideal - seen : seen - ideal;
        sum += (double)e->v[0] * diff;
        weight += (double)e->v[0];
        selected++;
    }
    if (rc == 0) {
        *out = weight > 0 ? sum / weight : 0.0;
        if (out_selected)
            *out_selected = selected;
    }
    lp_table_fini(&totals);
    lp_table_fini(&covered);
    return rc;
}
