/* metrics: the weighted RMS error of invariance on small profiles worked
 * out by hand in the comments: the per-load top value, the weights, the
 * min_count rule, a missing load or value, the remainder key in the
 * estimate's total, ties, narrow estimate keys and the per-load callback;
 * then a plain per-load reference on random profiles. */
#include <math.h>
#include <stdlib.h>

#include "lowprof/metrics.h"
#include "../lp_test.h"

#define OTHER UINT64_MAX /* a remainder key, as value.h's LP_VALUE_OTHER */

static void put(lp_table *t, uint64_t pc, uint64_t value, uint64_t n)
{
    lp_entry *e = lp_table_upsert(t, (lp_key){pc, value});
    LP_CHECK(e != NULL);
    if (e)
        e->v[0] = n;
}

static int near(double x, double y)
{
    return fabs(x - y) < 1e-12;
}

static double rms(const lp_table *ex, const lp_table *es, uint64_t min_count, uint64_t *loads)
{
    lp_invariance_rms_options o = {min_count, 0, 0, NULL, NULL};
    double err = -1;
    LP_CHECK(lp_invariance_rms_error(ex, es, &o, &err, loads) == 0);
    return err;
}

/* Load A (pc 1): value 10 x 80, value 11 x 20, so inv_true 0.8 over 100.
 * Load B (pc 2): value 20 x 150, value 21 x 50, so inv_true 0.75 over 200.
 * Load C (pc 3): value 30 x 10: below min_count 100. */
static void exact_abc(lp_table *ex)
{
    lp_table_init(ex, 0);
    put(ex, 1, 10, 80);
    put(ex, 1, 11, 20);
    put(ex, 2, 20, 150);
    put(ex, 2, 21, 50);
    put(ex, 3, 30, 10);
}

static void test_hand_cases(void)
{
    lp_table ex, es;
    exact_abc(&ex);
    lp_table_init(&es, 0);
    /* A: 7 of 10 are value 10: inv_est 0.7, off by 0.1.
     * B: value 20 x 30 and a remainder of 10: 30 / 40 = 0.75, exact.
     * C is not measured, whatever the estimate says of it. */
    put(&es, 1, 10, 7);
    put(&es, 1, 11, 3);
    put(&es, 2, 20, 30);
    put(&es, 2, OTHER, 10);
    put(&es, 3, 99, 5);
    uint64_t loads = 0;
    /* sqrt((100 * 0.01 + 200 * 0) / 300) = sqrt(1/300) */
    LP_CHECK(near(rms(&ex, &es, 100, &loads), sqrt(1.0 / 300.0)));
    LP_CHECK_EQ_U64(loads, 2);
    /* With min_count 1, C joins with inv_true 1 and inv_est 0 (value 30 is
     * absent): sqrt((1 + 0 + 10 * 1) / 310). */
    LP_CHECK(near(rms(&ex, &es, 1, &loads), sqrt(11.0 / 310.0)));
    LP_CHECK_EQ_U64(loads, 3);
    /* Without B in the estimate, its inv_est is 0: off by 0.75, squared
     * 0.5625: sqrt((1 + 200 * 0.5625) / 300) = sqrt(113.5 / 300). */
    lp_table es2;
    lp_table_init(&es2, 0);
    put(&es2, 1, 10, 7);
    put(&es2, 1, 11, 3);
    LP_CHECK(near(rms(&ex, &es2, 100, NULL), sqrt(113.5 / 300.0)));
    /* The same-value rule: the estimate that finds B's other value at 0.75
     * is wrong about value 20 (0 instead of 0.75). */
    lp_table es3;
    lp_table_init(&es3, 0);
    put(&es3, 1, 10, 8);
    put(&es3, 1, 11, 2);
    put(&es3, 2, 21, 75);
    put(&es3, 2, 20, 0); /* a zero entry is the same as none */
    put(&es3, 2, OTHER, 25);
    LP_CHECK(near(rms(&ex, &es3, 100, NULL), sqrt(200 * 0.5625 / 300.0)));
    /* The exact profile against itself; and nothing measured. */
    LP_CHECK(near(rms(&ex, &ex, 100, &loads), 0.0));
    LP_CHECK_EQ_U64(loads, 2);
    LP_CHECK(near(rms(&ex, &es, 1000, &loads), 0.0));
    LP_CHECK_EQ_U64(loads, 0);
    /* An empty estimate: every inv_est 0: sqrt((100 * 0.64 + 200 *
     * 0.5625) / 300). */
    lp_table empty;
    lp_table_init(&empty, 0);
    LP_CHECK(near(rms(&ex, &empty, 100, NULL), sqrt((64.0 + 112.5) / 300.0)));
    /* NULL options: min_count 1, full keys. */
    double err = -1;
    LP_CHECK(lp_invariance_rms_error(&ex, &ex, NULL, &err, NULL) == 0 && near(err, 0.0));
    lp_table_fini(&ex);
    lp_table_fini(&es);
    lp_table_fini(&es2);
    lp_table_fini(&es3);
    lp_table_fini(&empty);
}

/* Load D: values 3 and 4 fifty times each: the tie goes to 3 (inv_true
 * 0.5); the estimate gives 3 a quarter: error 0.25. */
static void test_tie(void)
{
    lp_table ex, es;
    lp_table_init(&ex, 0);
    lp_table_init(&es, 0);
    put(&ex, 7, 4, 50);
    put(&ex, 7, 3, 50);
    put(&es, 7, 3, 10);
    put(&es, 7, 4, 30);
    LP_CHECK(near(rms(&ex, &es, 1, NULL), 0.25));
    lp_table_fini(&ex);
    lp_table_fini(&es);
}

typedef struct seen {
    int calls;
    lp_invariance_load last;
} seen;

static void on_load(void *ctx, const lp_invariance_load *l)
{
    seen *s = ctx;
    s->calls++;
    s->last = *l;
}

/* Narrow estimate keys: the exact load at pc 0x1'0000'0010 loads
 * 0x2'0000'0007 ninety times and 0x3'0000'0007 ten times; a profiler that
 * keeps 32 bits sees value 7 every time (key (0x10, 7) x 100), so inv_est
 * 1 against inv_true 0.9: error 0.1, the aliasing counted against it. */
static void test_masks_and_callback(void)
{
    lp_table ex, es;
    lp_table_init(&ex, 0);
    lp_table_init(&es, 0);
    put(&ex, 0x100000010ull, 0x200000007ull, 90);
    put(&ex, 0x100000010ull, 0x300000007ull, 10);
    put(&es, 0x10, 7, 100);
    seen s = {0};
    lp_invariance_rms_options o = {1, 0xffffffffull, 0xffffffffull, on_load, &s};
    double err = -1;
    uint64_t loads = 0;
    LP_CHECK(lp_invariance_rms_error(&ex, &es, &o, &err, &loads) == 0);
    LP_CHECK(near(err, 0.1));
    LP_CHECK_EQ_U64(loads, 1);
    LP_CHECK(s.calls == 1);
    LP_CHECK_EQ_U64(s.last.pc, 0x100000010ull);
    LP_CHECK_EQ_U64(s.last.value, 0x200000007ull);
    LP_CHECK_EQ_U64(s.last.count, 100);
    LP_CHECK(near(s.last.inv_true, 0.9) && near(s.last.inv_est, 1.0));
    LP_CHECK(s.last.in_estimate == 1);
    /* With full keys the same estimate has no such load: error 0.9. */
    o.pc_mask = o.value_mask = 0;
    LP_CHECK(lp_invariance_rms_error(&ex, &es, &o, &err, NULL) == 0 && near(err, 0.9));
    LP_CHECK(s.calls == 2 && near(s.last.inv_est, 0.0) && s.last.in_estimate == 0);
    /* The load present but its top value absent: in the estimate, share 0. */
    lp_table es2;
    lp_table_init(&es2, 0);
    put(&es2, 0x100000010ull, 0x300000007ull, 5);
    LP_CHECK(lp_invariance_rms_error(&ex, &es2, &o, &err, NULL) == 0 && near(err, 0.9));
    LP_CHECK(s.calls == 3 && near(s.last.inv_est, 0.0) && s.last.in_estimate == 1);
    lp_table_fini(&es2);
    lp_table_fini(&ex);
    lp_table_fini(&es);
}

/* The metric against a direct per-load computation on random profiles:
 * loads with a handful of values, an estimate that perturbs the counts,
 * drops some values and adds a remainder. */
static void test_reference(void)
{
    srand(12345);
    for (int round = 0; round < 20; round++) {
        enum { LOADS = 40, VALUES = 6 };
        uint64_t ex_n[LOADS][VALUES], es_n[LOADS][VALUES], es_other[LOADS];
        lp_table ex, es;
        lp_table_init(&ex, 0);
        lp_table_init(&es, 0);
        for (int l = 0; l < LOADS; l++) {
            es_other[l] = (uint64_t)(rand() % 5);
            for (int v = 0; v < VALUES; v++) {
                ex_n[l][v] = (uint64_t)(rand() % 4 ? rand() % 60 : 0);
                es_n[l][v] = rand() % 3 ? ex_n[l][v] / 2 + (uint64_t)(rand() % 7) : 0;
                if (ex_n[l][v])
                    put(&ex, (uint64_t)l * 16, (uint64_t)v, ex_n[l][v]);
                if (es_n[l][v])
                    put(&es, (uint64_t)l * 16, (uint64_t)v, es_n[l][v]);
            }
            if (es_other[l])
                put(&es, (uint64_t)l * 16, OTHER, es_other[l]);
        }
        const uint64_t min_count = 60;
        double sum = 0, weight = 0;
        uint64_t measured = 0;
        for (int l = 0; l < LOADS; l++) {
            uint64_t total = 0, etotal = es_other[l];
            int top = -1;
            for (int v = 0; v < VALUES; v++) {
                total += ex_n[l][v];
                etotal += es_n[l][v];
                if (ex_n[l][v] && (top < 0 || ex_n[l][v] > ex_n[l][top]))
                    top = v;
            }
            if (total < min_count || top < 0)
                continue;
            double t = (double)ex_n[l][top] / (double)total;
            double e = etotal ? (double)es_n[l][top] / (double)etotal : 0;
            sum += (double)total * (e - t) * (e - t);
            weight += (double)total;
            measured++;
        }
        uint64_t loads = 0;
        double got = rms(&ex, &es, min_count, &loads);
        LP_CHECK(fabs(got - (weight > 0 ? sqrt(sum / weight) : 0)) < 1e-12);
        LP_CHECK_EQ_U64(loads, measured);
        lp_table_fini(&ex);
        lp_table_fini(&es);
    }
}

int main(void)
{
    test_hand_cases();
    test_tie();
    test_masks_and_callback();
    test_reference();
    return lp_test_done();
}
