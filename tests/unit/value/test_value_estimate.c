/* value: the final estimation on cases computed by hand (each step of the
 * apportioning written out in the comments), its conservation of samples
 * on random inputs, the confidence figure, and the value table that
 * metrics.h reads. */
#include <math.h>

#include "lowprof/value.h"
#include "lowprof/metrics.h"
#include "../../../src/value/lp_value_internal.h"
#include "../lp_test.h"

static int near(double a, double b)
{
    return fabs(a - b) < 1e-9;
}

/* Cases without opening hits (regions 0) first: the rules alone. */
static void test_hand_cases(void)
{
    double est[4], other;

    /* One value, never missed, every sample kept: all of them. */
    lp_value_counts one[] = {{7, 50, 0, 0}};
    lp_value_apportion(one, 1, 50, est, &other);
    LP_CHECK(near(est[0], 50) && near(other, 0));

    /* One value, inv 0.8 (40 hits, 10 misses), total 70.
     *   1. hits: 40
     *   2. no other value explains the 10 misses: other += 10
     *   3. 20 samples unaccounted: value 0.8 * 20 = 16, other 4
     * est 56, other 14: invariance 0.8. */
    lp_value_counts single[] = {{7, 40, 10, 0}};
    lp_value_apportion(single, 1, 70, est, &other);
    LP_CHECK(near(est[0], 56) && near(other, 14));

    /* Two values that explain each other: A 90/10 (inv 0.9), B 5/45
     * (inv 0.1), total 200.
     *   1. hits: A 90, B 5
     *   2. A's 10 misses: B explains min(1, 0.1 / (1 - 0.9)) = all, and B
     *      is the only other value: B += 10. B's 45 misses: A explains
     *      min(1, 0.9 / 0.9) = all: A += 45.
     *   3. 200 - 150 = 50 unaccounted, invariances sum to 1: A += 45,
     *      B += 5, other 0.
     * A 180 (0.9), B 20 (0.1). */
    lp_value_counts pair[] = {{1, 90, 10, 0}, {2, 5, 45, 0}};
    lp_value_apportion(pair, 2, 200, est, &other);
    LP_CHECK(near(est[0], 180) && near(est[1], 20) && near(other, 0));

    /* Partial coverage: A 60/40 (0.6), B 10/40 (0.2), total 150.
     *   1. A 60, B 10
     *   2. A's 40 misses: B explains 0.2 / 0.4 = half: B += 20, other 20.
     *      B's 40: A explains 0.6 / 0.8 = 0.75: A += 30, other 10.
     *   3. nothing unaccounted.
     * A 90, B 30, other 30. */
    lp_value_counts partial[] = {{1, 60, 40, 0}, {2, 10, 40, 0}};
    lp_value_apportion(partial, 2, 150, est, &other);
    LP_CHECK(near(est[0], 90) && near(est[1], 30) && near(other, 30));

    /* Three values; misses explained go in proportion to hits.
     * A 40/10 (0.8), B 6/4 (0.6), C 2/8 (0.2), total 100.
     *   1. A 40, B 6, C 2
     *   2. A's 10: explained min(1, 0.8 / 0.2) = 1, split B:C = 6:2:
     *      B += 7.5, C += 2.5. B's 4: explained min(1, 1.0 / 0.4) = 1,
     *      A:C = 40:2: A += 80/21, C += 4/21. C's 8: min(1, 1.4 / 0.8)
     *      = 1, A:B = 40:6: A += 320/46, B += 48/46.
     *   3. 100 - 70 = 30 unaccounted; the invariances sum to 1.6, so the
     *      shares are 0.5, 0.375, 0.125: A += 15, B += 11.25, C += 3.75.
     */
    lp_value_counts three[] = {{1, 40, 10, 0}, {2, 6, 4, 0}, {3, 2, 8, 0}};
    lp_value_apportion(three, 3, 100, est, &other);
    LP_CHECK(near(est[0], 40 + 80.0 / 21 + 320.0 / 46 + 15));
    LP_CHECK(near(est[1], 6 + 7.5 + 48.0 / 46 + 11.25));
    LP_CHECK(near(est[2], 2 + 2.5 + 4.0 / 21 + 3.75));
    LP_CHECK(near(other, 0));

    /* Halving lost part of the counts: total above hits + misses. A 100/0
     * twice halved out of 400 samples, with B 3/1: 400 - 104 = 296
     * unaccounted, invariances 1 and 0.75 (sum 1.75).
     *   2. B's miss: A explains min(1, 1 / 0.25) = all: A += 1.
     *   3. A += 296 / 1.75, B += 296 * 0.75 / 1.75. */
    lp_value_counts halved[] = {{1, 100, 0, 0}, {2, 3, 1, 0}};
    lp_value_apportion(halved, 2, 400, est, &other);
    LP_CHECK(near(est[0], 101 + 296 / 1.75));
    LP_CHECK(near(est[1], 3 + 296 * 0.75 / 1.75));

    /* The opening hits: A 21/4 in 3 regions measures 18/22, B 4/6 in 2
     * regions 2/8; total 35.
     *   inv A = 18/22, inv B = 0.25, sum = 1.068...
     *   2. A's 4 misses: B explains min(1, 0.25 / (4/22)) = all: B += 4.
     *      B's 6: A explains min(1, (18/22) / 0.75) = all: A += 6.
     *   3. nothing unaccounted (35 = 21 + 4 + 4 + 6).
     * A 27, B 8. */
    lp_value_counts opened[] = {{1, 21, 4, 3}, {2, 4, 6, 2}};
    lp_value_apportion(opened, 2, 35, est, &other);
    LP_CHECK(near(est[0], 27) && near(est[1], 8) && near(other, 0));
    /* a region of one sample measures nothing: inv 0, no share of the
     * unaccounted samples */
    lp_value_counts lone[] = {{1, 1, 0, 1}};
    lp_value_apportion(lone, 1, 10, est, &other);
    LP_CHECK(near(est[0], 1) && near(other, 9));

    /* Nothing recorded. */
    lp_value_apportion(NULL, 0, 0, est, &other);
    LP_CHECK(near(other, 0));
    /* Only a total: everything is other. */
    lp_value_apportion(NULL, 0, 12, est, &other);
    LP_CHECK(near(other, 12));
}

/* The estimates and other always add up to max(total, hits + misses). */
static void test_conservation(void)
{
    uint64_t x = 7;
    int bad = 0;
    for (int round = 0; round < 2000; round++) {
        lp_value_counts v[6];
        double est[6], other, sum = 0;
        size_t n = 1 + (size_t)(round % 6);
        uint64_t seen = 0;
        for (size_t i = 0; i < n; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            v[i].value = i;
            v[i].hits = 1 + (x >> 40) % 200;
            v[i].misses = (x >> 20) % 200;
            v[i].regions = (x >> 10) % (v[i].hits + 1);
            seen += v[i].hits + v[i].misses;
        }
        uint64_t total = seen + (x >> 50) % 500;
        lp_value_apportion(v, n, total, est, &other);
        for (size_t i = 0; i < n; i++) {
            sum += est[i];
            bad += est[i] < (double)v[i].hits - 1e-9; /* never below its hits */
        }
        bad += other < 0;
        bad += fabs(sum + other - (double)total) > 1e-6 * (double)total;
    }
    LP_CHECK_EQ_U64(bad, 0);
}

static void test_confidence(void)
{
    LP_CHECK(lp_value_confidence(0.5, 0) == 0);
    /* Wilson half-width at p = 0.5, n = 100: 1.96 / 1.0384 * sqrt(0.0025 +
     * 0.0000960) = 0.0962 */
    double c = lp_value_confidence(0.5, 100);
    LP_CHECK(c > 0.9035 && c < 0.9041);
    /* grows with samples and with bias */
    LP_CHECK(lp_value_confidence(0.5, 10000) > c);
    LP_CHECK(lp_value_confidence(0.95, 100) > c);
    LP_CHECK(lp_value_confidence(1.0, 1000) > 0.99);
    double small = lp_value_confidence(0.5, 1);
    LP_CHECK(small >= 0 && small < 0.6);
}

/* A record assembled by hand through the store, estimated and written as
 * a table. Each slot copied opens one region, whose first hit is left out
 * of the invariance: A 61/40 in one region measures 60/100, B 11/40
 * measures 10/50, so the apportioning is the "partial coverage" case above
 * plus the two opening hits: A 61 + 30, B 11 + 20, other 30, of 152. */
static void test_table(void)
{
    lp_value_options o;
    lp_value_options_default(&o);
    o.top = 1;
    lp_value_profiler *p = NULL;
    LP_CHECK(lp_value_create(&o, &p) == 0);
    long ri = lp__value_store_rec(&p->store, 0x4000);
    LP_CHECK(ri == 0);
    lp__value_rec *r = &p->store.recs[ri];
    LP_CHECK(lp__value_store_add(&p->store, r, 1, 61, 40, 101) == 0);
    LP_CHECK(lp__value_store_add(&p->store, r, 2, 11, 40, 51) == 0);
    r->profiles = 1;

    lp_value_load l;
    LP_CHECK(lp_value_estimate_pc(p, 0x4000, &l) == 0);
    LP_CHECK_EQ_U64(l.samples, 152);
    LP_CHECK_EQ_U64(l.n_top, 1);
    LP_CHECK_EQ_U64(l.top[0].value, 1);
    LP_CHECK(near(l.top[0].samples, 91));
    LP_CHECK(near(l.top[0].invariance, 91.0 / 152));
    LP_CHECK(near(l.other, 61.0 / 152)); /* B's 31 and the unplaced 30 */
    LP_CHECK(near(l.top[0].confidence, lp_value_confidence(91.0 / 152, 152)));
    LP_CHECK(!(l.flags & LP_VALUE_LOAD_PHASED));

    size_t cursor = 0;
    LP_CHECK(lp_value_estimate_next(p, &cursor, &l) == 1);
    LP_CHECK_EQ_U64(l.pc, 0x4000);
    LP_CHECK(lp_value_estimate_next(p, &cursor, &l) == 0);

    lp_table t;
    lp_table_init(&t, 0);
    LP_CHECK(lp_value_table(p, &t, 10.0) == 0);
    lp_key a = {0x4000, 1}, b = {0x4000, 2}, rest = {0x4000, LP_VALUE_OTHER};
    LP_CHECK(lp_table_find(&t, a) && lp_table_find(&t, a)->v[0] == 910);
    LP_CHECK(lp_table_find(&t, b) && lp_table_find(&t, b)->v[0] == 310);
    LP_CHECK(lp_table_find(&t, rest) && lp_table_find(&t, rest)->v[0] == 300);

    /* metrics.h reads it as a value profile: against an exact profile
     * with A 60 %, B 20 %, and 20 % spread over other values, the error
     * is the opening hits' 1/152 and 1/152 on A and B, weighted 6:2 */
    lp_table exact;
    lp_table_init(&exact, 0);
    lp_table_upsert(&exact, a)->v[0] = 6000;
    lp_table_upsert(&exact, b)->v[0] = 2000;
    for (uint64_t k = 0; k < 20; k++) {
        lp_key kv = {0x4000, 100 + k};
        lp_table_upsert(&exact, kv)->v[0] = 100;
    }
    lp_invariance_filter f = {1000, 0.10, 0.40};
    double err = 1;
    uint64_t selected = 0;
    LP_CHECK(lp_invariance_error(&exact, &t, &f, &err, &selected) == 0);
    LP_CHECK_EQ_U64(selected, 2);
    double want = (6 * fabs(910.0 / 1520 - 0.6) + 2 * fabs(310.0 / 1520 - 0.2)) / 8;
    LP_CHECK(fabs(err - want) < 1e-9);
    lp_table_fini(&t);
    lp_table_fini(&exact);

    /* two values each near-invariant in their own regions: phased */
    long r2 = lp__value_store_rec(&p->store, 0x5000);
    r = &p->store.recs[r2];
    LP_CHECK(lp__value_store_add(&p->store, r, 5, 200, 3, 203) == 0);
    LP_CHECK(lp__value_store_add(&p->store, r, 9, 100, 0, 100) == 0);
    LP_CHECK(lp_value_estimate_pc(p, 0x5000, &l) == 0);
    LP_CHECK(l.flags & LP_VALUE_LOAD_PHASED);
    lp_value_free(p);
}

int main(void)
{
    test_hand_cases();
    test_conservation();
    test_confidence();
    test_table();
    return lp_test_done();
}
