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
 * it picked could be far worse than w0 (doc/eval-phase.md). Given the
 * wide signatures (lp_phase_daemon_observe_wide), S and T have four times
 * the buckets and the fit more to go on; their T is a running sum, so
 * the daemon keeps no per-interval wide signature.
 *
 * Coordinate descent on the residual, O(buckets) a step and no Gram
 * matrix, so a run with thousands of samples (cc1 at the smallest
 * thresholds) needs O(samples) memory. Runs once, at finish, in the
 * native runtime's daemon thread or the Valgrind tool's exit: floating
 * point is allowed there, unlike in the per-interval code. */
#include "phase_internal.h"

#define LP__CAL_SWEEPS 200

/* The signatures the fit works on: LP_SIG_BUCKETS narrow ones, or, when the
 * front end observed every interval's and every live sample's wide
 * signature, LP_PHASE_WIDE_BUCKETS wide ones. Columns are 16-bit
 * quantised proportions in both. */
typedef struct cal_space {
    unsigned dims;
    double steps;
    double t[LP_PHASE_WIDE_BUCKETS]; /* the whole run's, in steps */
} cal_space;

static int live_with_sig(const lp_phase_daemon *d, size_t j)
{
    return !d->samples[j].retired && d->ssigs[j].bits && !d->ssigs[j].empty;
}

static int wide_space(const lp_phase_daemon *d)
{
    if (d->wide_count != d->trace_count)
        return 0;
    for (size_t j = 0; j < d->sample_count; j++)
        if (live_with_sig(d, j) && !d->swide[j].ok)
            return 0;
    return 1;
}

static const uint16_t *column(const lp_phase_daemon *d, const cal_space *sp, size_t j)
{
    return sp->dims == LP_SIG_BUCKETS ? d->ssigs[j].q : d->swide[j].q;
}

int lp__phase_calibrate(lp_phase_daemon *d)
{
    const size_t k = d->sample_count;
    cal_space sp = {.dims = LP_SIG_BUCKETS, .steps = (double)((1u << d->cfg.centroid_bits) - 1)};
    double ridge = d->cfg.ridge;
    if (wide_space(d)) {
        ridge = d->cfg.wide_ridge;
        sp.dims = LP_PHASE_WIDE_BUCKETS;
        sp.steps = 65535.0; /* lp_phase_daemon_observe_wide's 16 bits */
        for (unsigned u = 0; u < sp.dims; u++)
            sp.t[u] = (double)d->wide_total[u];
    } else {
        for (size_t i = 0; i < d->isig_count; i++)
            for (unsigned u = 0; u < sp.dims; u++)
                sp.t[u] += d->isigs[i].q[u];
    }
    if (ridge < 0) /* asked for the nearest-signature weights as they are */
        return LP_OK;
    double r[LP_PHASE_WIDE_BUCKETS];
    for (unsigned u = 0; u < sp.dims; u++)
        r[u] = sp.t[u] / sp.steps;
    double *w = lp_calloc(2 * k + 1, sizeof *w), *norm = w ? w + k : NULL;
    if (!w)
        return LP_ENOMEM;
    /* r = T - S w0; the mean squared column sets lambda's scale. */
    double mean_sq = 0;
    size_t live = 0;
    for (size_t j = 0; j < k; j++) {
        if (!live_with_sig(d, j))
            continue;
        live++;
        w[j] = (double)d->samples[j].weight;
        const uint16_t *q = column(d, &sp, j);
        for (unsigned u = 0; u < sp.dims; u++) {
            double a = q[u] / sp.steps;
            norm[j] += a * a;
            r[u] -= a * w[j];
        }
        mean_sq += norm[j];
    }
    const double lambda = live ? ridge * mean_sq / (double)live : 0;
    double total = 0;
    for (size_t j = 0; j < k; j++)
        total += (double)d->samples[j].weight;
    /* Stop once no weight moves by a millionth of an interval. */
    for (unsigned sweep = 0; sweep < LP__CAL_SWEEPS; sweep++) {
        double moved = 0;
        for (size_t j = 0; j < k; j++) {
            if (!live_with_sig(d, j) || norm[j] + lambda <= 0)
                continue;
            const uint16_t *q = column(d, &sp, j);
            double g = 0; /* -(gradient) at w[j] */
            for (unsigned u = 0; u < sp.dims; u++)
                g += q[u] / sp.steps * r[u];
            g -= lambda * (w[j] - (double)d->samples[j].weight);
            double nw = w[j] + g / (norm[j] + lambda);
            nw = nw > 0 ? nw : 0;
            double delta = nw - w[j];
            if (delta == 0)
                continue;
            for (unsigned u = 0; u < sp.dims; u++)
                r[u] -= q[u] / sp.steps * delta;
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
