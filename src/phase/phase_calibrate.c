/* phase: calibrated weights for the refine policy's samples.
 *
 * The whole run's signature is known exactly: it is the sum of every
 * interval's, which the tracker computes anyway. The estimate is a
 * weighted sum of the samples' profiles, so its weights should make the
 * same sum of the samples' signatures come out as the whole run's. The
 * nearest-signature weights (each interval counted for the sample nearest
 * it) get that only roughly: a broad phase whose intervals lie between two
 * samples gives all of them to one. Calibration (the survey statisticians'
 * word for weights fitted to a known total) solves
 *
 *     minimise |S w - T|^2 + lambda |w - w0|^2   subject to w >= 0
 *
 * with S the samples' signatures as columns (each normalised to sum 1),
 * T the sum of all intervals' normalised signatures, w0 the nearest-
 * signature weights. The pull toward w0 (ridge) keeps the fit from leaning
 * on the directions 32 buckets cannot tell apart: with more samples than
 * buckets the plain fit has many exact solutions, and on the suite the one
 * it picked could be far worse than w0 (doc/eval-phase.md).
 *
 * Coordinate descent on the residual, O(buckets) a step and no Gram
 * matrix, so a run with thousands of samples (cc1 at the smallest
 * thresholds) needs O(samples) memory. Runs once, at finish, in the
 * native runtime's daemon thread or the Valgrind tool's exit: floating
 * point is allowed there, unlike in the per-interval code. */
#include "phase_internal.h"

#define LP__CAL_SWEEPS 200

static int live_with_sig(const lp_phase_daemon *d, size_t j)
{
    return !d->samples[j].retired && d->ssigs[j].bits && !d->ssigs[j].empty;
}

int lp__phase_calibrate(lp_phase_daemon *d)
{
    const size_t k = d->sample_count;
    const double steps = (double)((1u << d->cfg.centroid_bits) - 1);
    double t[LP_SIG_BUCKETS] = {0}, r[LP_SIG_BUCKETS];
    for (size_t i = 0; i < d->isig_count; i++)
        for (unsigned u = 0; u < LP_SIG_BUCKETS; u++)
            t[u] += d->isigs[i].q[u] / steps;
    double *w = lp_calloc(2 * k + 1, sizeof *w), *norm = w ? w + k : NULL;
    if (!w)
        return LP_ENOMEM;
    /* r = T - S w0; the mean squared column sets lambda's scale. */
    __builtin_memcpy(r, t, sizeof r);
    double mean_sq = 0;
    size_t live = 0;
    for (size_t j = 0; j < k; j++) {
        if (!live_with_sig(d, j))
            continue;
        live++;
        w[j] = (double)d->samples[j].weight;
        for (unsigned u = 0; u < LP_SIG_BUCKETS; u++) {
            double a = d->ssigs[j].q[u] / steps;
            norm[j] += a * a;
            r[u] -= a * w[j];
        }
        mean_sq += norm[j];
    }
    const double lambda = live ? d->cfg.ridge * mean_sq / (double)live : 0;
    double total = 0;
    for (size_t j = 0; j < k; j++)
        total += (double)d->samples[j].weight;
    /* Stop once no weight moves by a millionth of an interval. */
    for (unsigned sweep = 0; sweep < LP__CAL_SWEEPS; sweep++) {
        double moved = 0;
        for (size_t j = 0; j < k; j++) {
            if (!live_with_sig(d, j) || norm[j] + lambda <= 0)
                continue;
            double g = 0; /* -(gradient) at w[j] */
            for (unsigned u = 0; u < LP_SIG_BUCKETS; u++)
                g += d->ssigs[j].q[u] / steps * r[u];
            g -= lambda * (w[j] - (double)d->samples[j].weight);
            double nw = w[j] + g / (norm[j] + lambda);
            nw = nw > 0 ? nw : 0;
            double delta = nw - w[j];
            if (delta == 0)
                continue;
            for (unsigned u = 0; u < LP_SIG_BUCKETS; u++)
                r[u] -= d->ssigs[j].q[u] / steps * delta;
            w[j] = nw;
            moved = delta > moved ? delta : -delta > moved ? -delta : moved;
        }
        if (moved < 1e-6)
            break;
    }
    for (size_t j = 0; j < k; j++) {
        double s = live_with_sig(d, j) ? w[j] : (double)d->samples[j].weight;
        /* A weight cannot exceed the run: the bound keeps the fixed point
         * in range whatever the fit did. */
        s = s < total ? s : total;
        d->samples[j].share = (uint64_t)(s * (double)LP_PHASE_SHARE_ONE + 0.5);
    }
    lp_free(w);
    return LP_OK;
}
