/* phase: compressed phase signatures (remote-profiling paper, section 4; the
 * Phase Tracker it cites, Sherwood et al. 2003, stores each interval's
 * accumulator normalised and cut to a few bits per bucket).
 *
 * Called once per interval and once per remembered phase at each interval
 * end, so plain loops over the buckets. Integer arithmetic only: the result
 * must not depend on the floating-point environment of the program under
 * the native runtime, and 128-bit products keep it exact for any 64-bit
 * bucket values. */
#include "phase_internal.h"

__extension__ typedef unsigned __int128 lp__u128;

int lp__phase_quantise(const uint64_t *bucket, unsigned n, unsigned bits, uint16_t *q)
{
    lp__u128 total = 0;
    for (unsigned i = 0; i < n; i++)
        total += bucket[i];
    const uint64_t steps = (1u << bits) - 1;
    for (unsigned i = 0; i < n; i++) {
        /* Round to nearest: bucket <= total, so the quotient is <= steps. */
        q[i] = total ? (uint16_t)(((lp__u128)bucket[i] * steps + total / 2) / total) : 0;
    }
    return total == 0;
}

int lp_phase_sig_compress(const lp_signature *sig, unsigned bits, lp_phase_sig *out)
{
    if (bits < LP_PHASE_MIN_BITS || bits > LP_PHASE_MAX_BITS)
        return LP_EINVAL;
    out->bits = (uint8_t)bits;
    out->empty = (uint8_t)lp__phase_quantise(sig->bucket, LP_SIG_BUCKETS, bits, out->q);
    return LP_OK;
}

/* lp_signature_bucket takes the hash's top five bits. */
_Static_assert(LP_SIG_BUCKETS == 32 && LP_PHASE_WIDE_BITS >= 5, "wide buckets refine narrow ones");

void lp_phase_wide_fold(const lp_phase_wide *w, lp_signature *out)
{
    __builtin_memset(out, 0, sizeof *out);
    for (unsigned i = 0; i < LP_PHASE_WIDE_BUCKETS; i++)
        out->bucket[i >> (LP_PHASE_WIDE_BITS - 5)] += w->bucket[i];
}

uint32_t lp_phase_sig_distance(const lp_phase_sig *a, const lp_phase_sig *b)
{
    if (a->bits != b->bits)
        return UINT32_MAX;
    const uint32_t max = 2u * ((1u << a->bits) - 1);
    if (a->empty || b->empty)
        return a->empty == b->empty ? 0 : max;
    uint32_t sum = 0;
    for (unsigned i = 0; i < LP_SIG_BUCKETS; i++)
        sum += a->q[i] > b->q[i] ? (uint32_t)(a->q[i] - b->q[i]) : (uint32_t)(b->q[i] - a->q[i]);
    /* Rounding each bucket up can make the quantised sums exceed 2^bits - 1
     * by up to half a step per bucket; keep the documented range. */
    return sum > max ? max : sum;
}
