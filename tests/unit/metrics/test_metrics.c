/* metrics: lp_signature_distance against a plain reference (normalise into
 * long double arrays, sum the absolute differences, halve), plus the cases
 * whose answer is known exactly: identical and scaled signatures, disjoint
 * ones, the all-zero conventions, symmetry and the triangle inequality. */
#include <math.h>
#include <string.h>

#include "lowprof/metrics.h"
#include "../lp_test.h"

static double reference_distance(const lp_signature *a, const lp_signature *b)
{
    long double ta = 0, tb = 0, sum = 0;
    for (int i = 0; i < LP_SIG_BUCKETS; i++) {
        ta += (long double)a->bucket[i];
        tb += (long double)b->bucket[i];
    }
    if (ta == 0 && tb == 0)
        return 0.0;
    if (ta == 0 || tb == 0)
        return 1.0;
    for (int i = 0; i < LP_SIG_BUCKETS; i++)
        sum += fabsl((long double)a->bucket[i] / ta - (long double)b->bucket[i] / tb);
    return (double)(sum / 2);
}

static uint64_t next(uint64_t *x)
{
    *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
    return *x >> 17;
}

static void random_signature(uint64_t *x, lp_signature *s)
{
    memset(s, 0, sizeof *s);
    int dense = (int)(next(x) % 3);
    for (int i = 0; i < LP_SIG_BUCKETS; i++) {
        if (dense == 0 && next(x) % 4 != 0)
            continue; /* sparse: most buckets empty, as short intervals are */
        uint64_t v = next(x);
        /* magnitudes from single instructions up to beyond 2^53 */
        s->bucket[i] = dense == 2 ? (v >> 10) << 20 : v % 100000; /* totals stay below 2^63 */
    }
}

static void test_known_values(void)
{
    lp_signature a, b, zero;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&zero, 0, sizeof zero);
    a.bucket[0] = 1, a.bucket[1] = 1;
    b.bucket[0] = 1;
    LP_CHECK(fabs(lp_signature_distance(&a, &b) - 0.5) < 1e-15);
    LP_CHECK(lp_signature_distance(&a, &a) == 0.0);
    lp_signature scaled = a;
    scaled.bucket[0] = scaled.bucket[1] = 1000000007ULL;
    LP_CHECK(lp_signature_distance(&a, &scaled) == 0.0);
    lp_signature disjoint;
    memset(&disjoint, 0, sizeof disjoint);
    disjoint.bucket[5] = 17, disjoint.bucket[31] = 3;
    LP_CHECK(lp_signature_distance(&a, &disjoint) == 1.0);
    LP_CHECK(lp_signature_distance(&zero, &zero) == 0.0);
    LP_CHECK(lp_signature_distance(&zero, &a) == 1.0);
    LP_CHECK(lp_signature_distance(&a, &zero) == 1.0);
    /* totals near the top of uint64_t must not overflow */
    lp_signature huge;
    memset(&huge, 0, sizeof huge);
    huge.bucket[0] = UINT64_MAX / 4, huge.bucket[1] = UINT64_MAX / 4;
    LP_CHECK(fabs(lp_signature_distance(&huge, &a)) < 1e-12);
}

static void test_against_reference(void)
{
    uint64_t x = 42;
    int mismatches = 0, asym = 0, triangle = 0, range = 0;
    for (int n = 0; n < 20000; n++) {
        lp_signature a, b, c;
        random_signature(&x, &a);
        random_signature(&x, &b);
        random_signature(&x, &c);
        double d = lp_signature_distance(&a, &b);
        if (fabs(d - reference_distance(&a, &b)) > 1e-12)
            mismatches++;
        if (d != lp_signature_distance(&b, &a))
            asym++;
        if (d < 0.0 || d > 1.0)
            range++;
        if (lp_signature_distance(&a, &c) > d + lp_signature_distance(&b, &c) + 1e-12)
            triangle++;
    }
    LP_CHECK_EQ_U64(mismatches, 0);
    LP_CHECK_EQ_U64(asym, 0);
    LP_CHECK_EQ_U64(range, 0);
    LP_CHECK_EQ_U64(triangle, 0);
}

int main(void)
{
    test_known_values();
    test_against_reference();
    return lp_test_done();
}
