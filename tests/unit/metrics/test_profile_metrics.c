/* metrics: count error, Manhattan accuracy, hot-set error, invariance error
 * and the energy model, on small profiles whose answers are worked out by
 * hand in the comments, plus the hot-set error against a plain quadratic
 * ranking on random profiles. */
#include <math.h>

#include "lowprof/metrics.h"
#include "../lp_test.h"

static void put(lp_table *t, uint64_t a, uint64_t b, uint64_t n)
{
    lp_entry *e = lp_table_upsert(t, (lp_key){a, b});
    LP_CHECK(e != NULL);
    if (e)
        e->v[0] = n;
}

static int near(double x, double y)
{
    return fabs(x - y) < 1e-9;
}

static void test_count_error_and_accuracy(void)
{
    lp_table ex, es;
    lp_table_init(&ex, 0);
    lp_table_init(&es, 0);
    put(&ex, 1, 0, 100);
    put(&ex, 2, 0, 50);
    put(&es, 1, 0, 40);
    put(&es, 3, 0, 10);
    /* |80-100| + |0-50| + |20-0| = 90 over 150 */
    LP_CHECK(near(lp_count_error(&ex, &es, 2.0), 0.6));
    LP_CHECK(near(lp_count_error(&ex, &ex, 1.0), 0.0));
    /* normalised: ex (2/3, 1/3, 0), es (0.8, 0, 0.2): L1 = 2/15+1/3+1/5 = 2/3 */
    LP_CHECK(near(lp_manhattan_accuracy(&ex, &es), 1.0 - 1.0 / 3.0));
    LP_CHECK(near(lp_manhattan_accuracy(&ex, &ex), 1.0));
    lp_table empty;
    lp_table_init(&empty, 0);
    LP_CHECK(near(lp_count_error(&ex, &empty, 1.0), 1.0));
    LP_CHECK(near(lp_count_error(&empty, &empty, 1.0), 0.0));
    LP_CHECK(near(lp_manhattan_accuracy(&ex, &empty), 0.0));
    lp_table_fini(&ex);
    lp_table_fini(&es);
    lp_table_fini(&empty);
}

static void test_hot_known(void)
{
    lp_table ex, es;
    lp_table_init(&ex, 0);
    lp_table_init(&es, 0);
    for (uint64_t k = 1; k <= 20; k++) {
        put(&ex, k, 0, k);      /* hot set: ceil(0.15 * 20) = 3 keys: 20, 19, 18 */
        put(&es, k, 0, k == 18 ? 1 : k);
    }
    double err = -1;
    LP_CHECK(lp_hot_error(&ex, &es, 0.15, &err) == 0);
    LP_CHECK(near(err, 18.0 / 57.0)); /* 18 ranked out: its weight over 20+19+18 */
    LP_CHECK(lp_hot_error(&ex, &ex, 0.15, &err) == 0 && err == 0.0);
    lp_table_clear(&es);
    LP_CHECK(lp_hot_error(&ex, &es, 0.15, &err) == 0 && near(err, 1.0));
    lp_table_fini(&ex);
    lp_table_fini(&es);
}

/* Reference: rank of an entry = number of entries strictly before it in the
 * hot-first order, by a quadratic count. */
static size_t rank_of(const lp_table *t, const lp_entry *x)
{
    size_t r = 0, cursor = 0;
    const lp_entry *e;
    while ((e = lp_table_next(t, &cursor)) != NULL)
        r += lp_entry_count_greater(e, x);
    return r;
}

static void test_hot_against_reference(void)
{
    uint64_t x = 7;
    int agree = 1;
    for (int round = 0; round < 50; round++) {
        lp_table ex, es;
        lp_table_init(&ex, 0);
        lp_table_init(&es, 0);
        size_t n = 1 + (size_t)round * 3;
        for (size_t i = 0; i < n; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            put(&ex, i, 0, (x >> 33) % 40);
            if ((x >> 20) % 4)
                put(&es, i, 0, (x >> 45) % 40);
        }
        size_t k = (size_t)ceil(0.15 * (double)n);
        double hot = 0, missed = 0;
        size_t cursor = 0;
        const lp_entry *e;
        while ((e = lp_table_next(&ex, &cursor)) != NULL) {
            if (rank_of(&ex, e) >= k)
                continue;
            hot += (double)e->v[0];
            const lp_entry *o = lp_table_find(&es, e->key);
            if (!o || o->v[0] == 0 || rank_of(&es, o) >= k)
                missed += (double)e->v[0];
        }
        double want = hot > 0 ? missed / hot : 0.0, got = -1;
        agree &= lp_hot_error(&ex, &es, 0.15, &got) == 0 && near(got, want);
        lp_table_fini(&ex);
        lp_table_fini(&es);
    }
    LP_CHECK(agree);
}

static void test_invariance(void)
{
    lp_table ex, es;
    lp_table_init(&ex, 0);
    lp_table_init(&es, 0);
    /* pc 1: 2000 executions, values 1500/300/200: all >= 10 %, all selected */
    put(&ex, 1, 10, 1500);
    put(&ex, 1, 11, 300);
    put(&ex, 1, 12, 200);
    put(&ex, 2, 10, 500);             /* under 1000 executions: dropped */
    for (uint64_t v = 0; v < 20; v++) /* 5 % each: no tuple qualifies */
        put(&ex, 3, v, 50);
    put(&ex, 4, 1, 600);              /* 60 % + 40 % of many 1 % values ... */
    for (uint64_t v = 100; v < 140; v++)
        put(&ex, 4, v, 10);           /* ... 600 of 1000 covered: kept */
    put(&es, 1, 10, 1200);
    put(&es, 1, 11, 600);
    put(&es, 4, 1, 500);
    put(&es, 4, 100, 500);
    /* pc 1: |0.75-2/3|*1500 + |0.15-1/3|*300 + 0.1*200 = 125 + 55 + 20;
     * pc 4: |0.6-0.5|*600 = 60; over weight 2000 + 600 */
    double err = -1;
    uint64_t selected = 0;
    LP_CHECK(lp_invariance_error(&ex, &es, &lp_invariance_paper, &err, &selected) == 0);
    LP_CHECK(near(err, 260.0 / 2600.0));
    LP_CHECK_EQ_U64(selected, 4);
    LP_CHECK(lp_invariance_error(&ex, &ex, &lp_invariance_paper, &err, &selected) == 0 &&
             err == 0.0);
    /* Coverage rule: raise it above pc 4's 60 % and pc 4 drops out. */
    lp_invariance_filter strict = {1000, 0.10, 0.70};
    LP_CHECK(lp_invariance_error(&ex, &es, &strict, &err, &selected) == 0);
    LP_CHECK(near(err, 200.0 / 2000.0));
    LP_CHECK_EQ_U64(selected, 3);
    lp_table_fini(&ex);
    lp_table_fini(&es);
}

static void test_energy(void)
{
    uint64_t counts[LP_INSN_CLASSES] = {0};
    counts[LP_INSN_IREG] = 204790000;     /* one second of register work */
    counts[LP_INSN_MEM_READ_HIT] = 1000;  /* costs time, no energy */
    lp_energy e = lp_energy_estimate(&lp_energy_strongarm, counts, 11000000 / 8);
    LP_CHECK(near(e.compute_joules, 0.865));
    LP_CHECK(e.compute_seconds > 1.0 && e.compute_seconds < 1.0001);
    LP_CHECK(near(e.transmit_seconds, 1.0) && near(e.transmit_joules, 1.425));
}

int main(void)
{
    test_count_error_and_accuracy();
    test_hot_known();
    test_hot_against_reference();
    test_invariance();
    test_energy();
    return lp_test_done();
}
