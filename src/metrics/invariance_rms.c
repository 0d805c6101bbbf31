/* metrics: weighted RMS error of invariance (co-processor paper, 004, its
 * quantitative comparison with simple sampling), one term per load for its
 * most frequent exact value; the choices that are lowprof's are listed at
 * the declaration in metrics.h.
 *
 * One scratch table keyed by pc holds everything per load, under three
 * second words (pc values never meet a real value here, so any constants
 * do): (pc, 0) v[0] the exact total and v[1] the top value's count;
 * (pc, 1) v[0] the top value itself; (masked pc, 2) v[0] the estimate's
 * total. Tuned for profiles of a few million (pc, value) pairs: three
 * passes, each linear in its table. */
#include "lowprof/metrics.h"

enum { SLOT_EXACT = 0, SLOT_TOP = 1, SLOT_EST = 2 };

/* Totals and the top value (highest count, ties to the lowest value) per
 * exact load. */
static int exact_loads(lp_table *scratch, const lp_table *exact)
{
    size_t cursor = 0;
    const lp_entry *e;
    while ((e = lp_table_next(exact, &cursor)) != NULL) {
        if (e->v[0] == 0)
            continue;
        /* Both entries exist before either pointer is taken: an upsert may
         * move the table's entries. */
        if (!lp_table_upsert(scratch, (lp_key){e->key.a, SLOT_TOP}))
            return LP_ENOMEM;
        lp_entry *load = lp_table_upsert(scratch, (lp_key){e->key.a, SLOT_EXACT});
        if (!load)
            return LP_ENOMEM;
        uint64_t *top_value = &lp_table_find(scratch, (lp_key){e->key.a, SLOT_TOP})->v[0];
        int first = load->v[0] == 0;
        load->v[0] += e->v[0];
        if (first || e->v[0] > load->v[1] || (e->v[0] == load->v[1] && e->key.b < *top_value)) {
            load->v[1] = e->v[0];
            *top_value = e->key.b;
        }
    }
    return 0;
}

static int estimate_totals(lp_table *scratch, const lp_table *estimate, uint64_t pc_mask)
{
    size_t cursor = 0;
    const lp_entry *e;
    while ((e = lp_table_next(estimate, &cursor)) != NULL) {
        lp_entry *s = lp_table_upsert(scratch, (lp_key){e->key.a & pc_mask, SLOT_EST});
        if (!s)
            return LP_ENOMEM;
        s->v[0] += e->v[0];
    }
    return 0;
}

int lp_invariance_rms_error(const lp_table *exact, const lp_table *estimate,
                            const lp_invariance_rms_options *opts, double *out,
                            uint64_t *out_loads)
{
    lp_invariance_rms_options o = {1, 0, 0, NULL, NULL};
    if (opts)
        o = *opts;
    if (o.min_count == 0)
        o.min_count = 1;
    if (o.pc_mask == 0)
        o.pc_mask = UINT64_MAX;
    if (o.value_mask == 0)
        o.value_mask = UINT64_MAX;
    *out = 0;
    if (out_loads)
        *out_loads = 0;
    lp_table scratch;
    int rc = lp_table_init(&scratch, 1024);
    if (rc == 0)
        rc = exact_loads(&scratch, exact);
    if (rc == 0)
        rc = estimate_totals(&scratch, estimate, o.pc_mask);
    double weight = 0, sum = 0;
    uint64_t loads = 0;
    size_t cursor = 0;
    const lp_entry *load;
    while (rc == 0 && (load = lp_table_next(&scratch, &cursor)) != NULL) {
        if (load->key.b != SLOT_EXACT || load->v[0] < o.min_count)
            continue;
        lp_invariance_load l;
        l.pc = load->key.a;
        l.value = lp_table_find(&scratch, (lp_key){l.pc, SLOT_TOP})->v[0];
        l.count = load->v[0];
        l.inv_true = (double)load->v[1] / (double)load->v[0];
        const lp_entry *total = lp_table_find(&scratch, (lp_key){l.pc & o.pc_mask, SLOT_EST});
        const lp_entry *est =
            lp_table_find(estimate, (lp_key){l.pc & o.pc_mask, l.value & o.value_mask});
        l.in_estimate = total && total->v[0] > 0;
        l.inv_est = l.in_estimate && est ? (double)est->v[0] / (double)total->v[0] : 0.0;
        double d = l.inv_est - l.inv_true;
        sum += (double)l.count * d * d;
        weight += (double)l.count;
        loads++;
        if (o.each)
            o.each(o.ctx, &l);
    }
    if (rc == 0) {
        double mean = weight > 0 ? sum / weight : 0.0;
        *out = lp_sqrt(mean > 1 ? 1 : mean);
        if (out_loads)
            *out_loads = loads;
    }
    lp_table_fini(&scratch);
    return rc;
}
