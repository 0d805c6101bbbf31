/* metrics: distance between phase signatures (remote-profiling paper,
 * section 2.1: phases are told apart by comparing branch-PC accumulators).
 *
 * Called once per interval pair by the phase tracker and the experiments,
 * on 32-bucket signatures, so a direct loop is all it needs. The sums are
 * 64-bit counts that can exceed 2^53, so each bucket is divided by its total
 * in double precision rather than cross-multiplied in integers (which could
 * overflow 64 bits). */
#include "lowprof/metrics.h"

static uint64_t signature_total(const lp_signature *s)
{
    uint64_t t = 0;
    for (unsigned i = 0; i < LP_SIG_BUCKETS; i++)
        t += s->bucket[i];
    return t;
}

double lp_signature_distance(const lp_signature *a, const lp_signature *b)
{
    uint64_t ta = signature_total(a), tb = signature_total(b);
    if (ta == 0 || tb == 0)
        return ta == tb ? 0.0 : 1.0;
    double sum = 0.0;
    for (unsigned i = 0; i < LP_SIG_BUCKETS; i++) {
        double d = (double)a->bucket[i] / (double)ta - (double)b->bucket[i] / (double)tb;
        sum += d < 0 ? -d : d;
    }
    double half = sum / 2.0;
    /* Rounding can push identical proportions a hair below 0 or disjoint
     * ones a hair above 1; callers compare against thresholds, so clamp. */
    return half < 0.0 ? 0.0 : half > 1.0 ? 1.0 : half;
}
