/* phase: the profiling daemon's decisions (remote-profiling paper, section
 * 4 and the strategies of section 5.3): at each interval boundary it
 * decides whether the next interval is sampled, records the phase-ID trace,
 * and remembers which intervals were sampled for which phase.
 *
 * The same state machine serves the Valgrind front end (online, one call
 * per interval) and the offline evaluation over an interval matrix
 * (lp_phase_daemon_run), so offline results are the online ones. Work is
 * per interval, never per event; the trace and sample arrays grow by
 * doubling. */
#include "phase_internal.h"

static int is_offline_policy(const lp_phase_daemon_config *c)
{
    return c->strategy == LP_STRATEGY_PHASE && c->policy != LP_POLICY_KTH &&
           c->policy != LP_POLICY_REFINE;
}

static int is_refine(const lp_phase_daemon_config *c)
{
    return c->strategy == LP_STRATEGY_PHASE && c->policy == LP_POLICY_REFINE;
}

/* Whether intervals of phases without a sample are lent to others. */
static int lends(const lp_phase_daemon_config *c)
{
    return is_refine(c) ||
           (c->strategy == LP_STRATEGY_PHASE && c->policy == LP_POLICY_KTH && c->lend);
}

int lp_phase_daemon_create(const lp_phase_daemon_config *cfg, lp_phase_daemon **out)
{
    *out = NULL;
    lp_phase_daemon_config c = *cfg;
    switch (c.strategy) {
    case LP_STRATEGY_EXHAUSTIVE: break;
    case LP_STRATEGY_PERIODIC:
        if (c.period == 0 || c.offset >= c.period)
            return LP_EINVAL;
        break;
    case LP_STRATEGY_RANDOM:
        if (c.period == 0)
            return LP_EINVAL;
        break;
    case LP_STRATEGY_PHASE:
        if (c.policy == 0)
            c.policy = LP_POLICY_KTH;
        if (c.policy != LP_POLICY_KTH && c.policy != LP_POLICY_RANDOM &&
            c.policy != LP_POLICY_CENTROID && c.policy != LP_POLICY_REFINE)
            return LP_EINVAL;
        if (c.k == 0)
            c.k = c.policy == LP_POLICY_REFINE ? LP_PHASE_DEFAULT_REFINE_K : LP_PHASE_DEFAULT_K;
        if (c.max_resamples == 0)
            c.max_resamples = LP_PHASE_DEFAULT_RESAMPLES;
        if (c.fine_threshold == 0)
            c.fine_threshold = LP_PHASE_DEFAULT_FINE_THRESHOLD;
        if (!(c.fine_threshold > 0 && c.fine_threshold <= 1))
            return LP_EINVAL;
        if (c.ridge == 0)
            c.ridge = LP_PHASE_DEFAULT_RIDGE;
        if (c.wide_ridge == 0)
            c.wide_ridge = LP_PHASE_DEFAULT_WIDE_RIDGE;
        if (!(c.ridge < 1e9) || !(c.wide_ridge < 1e9)) /* NaN or absurd */
            return LP_EINVAL;
        if (c.centroid_bits == 0)
            c.centroid_bits = LP_PHASE_DEFAULT_CENTROID_BITS;
        if (c.centroid_bits < LP_PHASE_MIN_BITS || c.centroid_bits > LP_PHASE_MAX_BITS)
            return LP_EINVAL;
        if (c.predictor != LP_PREDICT_ORACLE && c.predictor != LP_PREDICT_LAST &&
            c.predictor != LP_PREDICT_MARKOV && c.predictor != LP_PREDICT_RUN_LENGTH)
            return LP_EINVAL;
        break;
    default: return LP_EINVAL;
    }
    lp_phase_daemon *d = lp_calloc(1, sizeof *d);
    if (!d)
        return LP_ENOMEM;
    d->cfg = c;
    d->fine_limit = (uint32_t)(c.fine_threshold * 2.0 * (double)((1u << c.centroid_bits) - 1));
    lp_rng_seed(&d->rng, c.seed);
    (void)lp_table_init(&d->phases, 0);
    (void)lp_table_init(&d->track_of, 0);
    (void)lp_table_init(&d->weights, 0);
    (void)lp_table_init(&d->covered, 0);
    if (c.strategy == LP_STRATEGY_PHASE) {
        /* Seeded like the daemon's own generator: no configuration uses
         * both (the offline policies never touch the table). */
        int rc = lp_phase_table_init(&d->table, c.table_size, c.seed);
        if (rc < 0) {
            lp_free(d);
            return rc;
        }
        if (c.predictor != LP_PREDICT_ORACLE) {
            (void)lp_phase_predictor_init(&d->pred, c.predictor, 0);
            d->has_pred = 1;
        }
    }
    *out = d;
    return LP_OK;
}

void lp_phase_daemon_free(lp_phase_daemon *d)
{
    if (!d)
        return;
    lp_phase_table_fini(&d->table);
    if (d->has_pred)
        lp_phase_predictor_fini(&d->pred);
    lp_table_fini(&d->phases);
    lp_table_fini(&d->track_of);
    lp_free(d->tracks);
    lp_table_fini(&d->weights);
    lp_table_fini(&d->covered);
    lp_free(d->stands);
    lp_free(d->isigs);
    lp_free(d->ssigs);
    lp_free(d->swide);
    lp_free(d->trace);
    lp_free(d->samples);
    lp_free(d);
}

/* Makes room for one more element in a doubling array. */
static int grow(void **items, size_t *cap, size_t count, size_t elem)
{
    if (count < *cap)
        return LP_OK;
    size_t ncap = *cap ? *cap * 2 : 64;
    if (ncap > SIZE_MAX / elem)
        return LP_ENOMEM;
    void *p = lp_realloc(*items, *cap * elem, ncap * elem);
    if (!p)
        return LP_ENOMEM;
    *items = p;
    *cap = ncap;
    return LP_OK;
}

/* Whether the interval now starting is sampled; hint is its phase under the
 * oracle. */
static int decide(lp_phase_daemon *d, uint32_t hint)
{
    const lp_phase_daemon_config *c = &d->cfg;
    switch (c->strategy) {
    case LP_STRATEGY_EXHAUSTIVE: return 1;
    case LP_STRATEGY_PERIODIC: return d->interval % c->period == c->offset;
    case LP_STRATEGY_RANDOM: return lp_rng_below(&d->rng, c->period) == 0;
    default: break;
    }
    if (is_offline_policy(c))
        return 0;
    uint32_t next = d->has_pred ? lp_phase_predictor_predict(&d->pred) : hint;
    if (next == LP_PHASE_NONE)
        return 0; /* nothing known about the interval: no phase to sample for */
    const lp_phase_table_entry *e = lp_phase_table_find(&d->table, next);
    uint64_t seen = e ? e->seen : 0;
    if (c->policy == LP_POLICY_REFINE) {
        /* A phase without a sample is sampled at once, so that even a
         * phase that never returns is represented; after that only when
         * its track wants another sample (refine_account). */
        lp_key k = {next, 0};
        const lp_entry *te = lp_table_find(&d->track_of, k);
        const lp__phase_track *tr = te ? &d->tracks[te->v[0]] : NULL;
        d->pending_for = next;
        if (!tr || !tr->live) /* but not forever for a phase a predictor keeps missing */
            return !tr || tr->missed <= c->max_resamples;
        return tr->want && tr->taken <= c->max_resamples;
    }
    /* "At or past" rather than "at": if the k-th interval was mispredicted,
     * the next correctly predicted one of the phase is taken instead. */
    return !(e && e->sampled) && seen + 1 >= c->k;
}

static int record_sample(lp_phase_daemon *d, uint64_t interval, uint32_t phase)
{
    int rc = grow((void **)&d->samples, &d->sample_cap, d->sample_count, sizeof *d->samples);
    if (rc < 0)
        return rc;
    lp_phase_sample *s = &d->samples[d->sample_count++];
    s->interval = interval;
    s->phase = phase;
    s->stratum = d->cfg.strategy == LP_STRATEGY_PHASE ? phase : 0;
    s->retired = 0;
    s->weight = 0;
    s->share = 0;
    return LP_OK;
}

/* Refine: the track of phase, created empty on first use; NULL on
 * LP_ENOMEM. */
static lp__phase_track *track_get(lp_phase_daemon *d, uint32_t phase)
{
    /* Room first, so that a phase is never indexed without its track. */
    if (grow((void **)&d->tracks, &d->track_cap, d->track_count, sizeof *d->tracks) < 0)
        return NULL;
    int fresh;
    lp_entry *e = lp__phase_first_seen(&d->track_of, phase, &fresh);
    if (!e)
        return NULL;
    if (fresh)
        __builtin_memset(&d->tracks[d->track_count++], 0, sizeof *d->tracks);
    return &d->tracks[e->v[0]];
}

/* The smallest distance from q to a live sample of phase with a
 * signature; UINT32_MAX if none. */
static uint32_t nearest_sample(const lp_phase_daemon *d, uint32_t phase, const lp_phase_sig *q)
{
    uint32_t best = UINT32_MAX;
    for (size_t j = 0; j < d->sample_count; j++) {
        const lp_phase_sample *s = &d->samples[j];
        if (s->stratum == phase && !s->retired && d->ssigs[j].bits) {
            uint32_t dist = lp_phase_sig_distance(q, &d->ssigs[j]);
            best = dist < best ? dist : best;
        }
    }
    return best;
}

/* Refine, at the end of an interval of phase (before it, the phase had
 * `before` intervals): keeps the interval's signature (if the front end
 * observed one), accounts a sample taken in it, and decides whether the
 * phase wants another.
 *
 * A sample taken before the phase's k-th interval is a stand-in (the paper
 * finds the first intervals still carry the previous phase): it counts
 * until the phase's first steadier sample retires it, so a phase that
 * never gets that far is still represented. Later samples all count. The
 * phase wants a sample while it has only a stand-in and its k-th interval
 * is next, and whenever its latest interval lay farther than the fine
 * threshold from all of its samples: the phase has strayed into behaviour
 * no sample shows, and the next interval is likely to resemble the last.
 * Without signatures only the stand-in rule applies. *out_retired gets how
 * many samples stopped counting (0 or 1). Returns 0 or LP_ENOMEM. */
static int refine_account(lp_phase_daemon *d, uint32_t phase, uint64_t before,
                          uint64_t *out_retired)
{
    *out_retired = 0;
    lp__phase_track *t = track_get(d, phase);
    if (!t)
        return LP_ENOMEM;
    const int sig = d->have_observed;
    if (sig) {
        /* Kept only while every interval so far had one: the weights at
         * the end need them all, in order. */
        if (d->isig_count + 1 == d->trace_count) {
            if (grow((void **)&d->isigs, &d->isig_cap, d->isig_count, sizeof *d->isigs) < 0)
                return LP_ENOMEM;
            d->isigs[d->isig_count++] = d->observed;
        }
        t->last = d->observed;
    }
    if (d->pending && d->pending_for != phase) {
        lp_key pk = {d->pending_for, 0};
        lp_entry *pe = lp_table_find(&d->track_of, pk);
        if (pe)
            d->tracks[pe->v[0]].missed++;
    }
    if (d->pending) {
        size_t j = d->sample_count - 1;
        if (grow((void **)&d->ssigs, &d->ssig_cap, j, sizeof *d->ssigs) < 0)
            return LP_ENOMEM;
        __builtin_memset(&d->ssigs[j], 0, sizeof d->ssigs[j]);
        if (sig)
            d->ssigs[j] = d->observed;
        if (grow((void **)&d->swide, &d->swide_cap, j, sizeof *d->swide) < 0)
            return LP_ENOMEM;
        d->swide[j].ok = (uint8_t)d->have_wide;
        if (d->have_wide)
            __builtin_memcpy(d->swide[j].q, d->observed_wide, sizeof d->swide[j].q);
        int standin = before + 1 < d->cfg.k;
        if (standin && !t->live) {
            t->standin = j + 1;
        } else if (!standin && t->standin) {
            d->samples[t->standin - 1].retired = 1;
            t->standin = 0;
            t->live--;
            *out_retired = 1;
        }
        t->live++;
        t->taken++;
    }
    if (t->standin)
        t->want = before + 2 >= d->cfg.k;
    else
        t->want = sig && nearest_sample(d, phase, &t->last) > d->fine_limit;
    return LP_OK;
}

/* The interval in progress ended in phase. */
static int end_interval(lp_phase_daemon *d, uint32_t phase)
{
    if (d->cfg.strategy == LP_STRATEGY_PHASE && phase == LP_PHASE_NONE)
        return LP_EINVAL;
    int rc = grow((void **)&d->trace, &d->trace_cap, d->trace_count, sizeof *d->trace);
    if (rc < 0)
        return rc;
    lp_key k = {phase, 0};
    lp_entry *pe = lp_table_upsert(&d->phases, k);
    if (!pe)
        return LP_ENOMEM;
    if (d->pending && (rc = record_sample(d, d->interval, phase)) < 0)
        return rc;
    d->trace[d->trace_count++] = phase;
    uint64_t before = pe->v[0]++;
    if (d->pending) {
        if (d->cfg.strategy == LP_STRATEGY_PHASE && pe->v[1])
            d->resamples++;
        pe->v[1]++;
    }
    if (is_refine(&d->cfg)) {
        uint64_t gone = 0;
        if ((rc = refine_account(d, phase, before, &gone)) < 0)
            return rc;
        pe->v[1] -= gone;
        d->retired += gone;
        d->have_observed = 0;
        if (d->have_wide) {
            for (unsigned u = 0; u < LP_PHASE_WIDE_BUCKETS; u++)
                d->wide_total[u] += d->observed_wide[u];
            d->wide_count++;
            d->have_wide = 0;
        }
    }
    if (d->cfg.strategy == LP_STRATEGY_PHASE && !is_offline_policy(&d->cfg)) {
        lp_phase_table_entry *e = lp_phase_table_access(&d->table, phase, NULL);
        e->seen++;
        if (d->pending)
            e->sampled = 1;
    }
    if (d->has_pred && (rc = lp_phase_predictor_update(&d->pred, phase)) < 0)
        return rc;
    d->interval++;
    d->pending = 0;
    return LP_OK;
}

int lp_phase_daemon_observe(lp_phase_daemon *d, const lp_signature *sig)
{
    if (!is_refine(&d->cfg))
        return LP_OK;
    int rc = lp_phase_sig_compress(sig, d->cfg.centroid_bits, &d->observed);
    d->have_observed = rc == LP_OK;
    return rc;
}

int lp_phase_daemon_observe_wide(lp_phase_daemon *d, const lp_phase_wide *w)
{
    if (!is_refine(&d->cfg))
        return LP_OK;
    /* An empty interval has no proportions: like a missing one, it keeps
     * the calibration on the narrow signatures. */
    d->have_wide = !lp__phase_quantise(w->bucket, LP_PHASE_WIDE_BUCKETS, 16, d->observed_wide);
    return LP_OK;
}

/* The stepping entry points refuse the offline-only policies unless the
 * offline driver itself is stepping. */
static int step_start(lp_phase_daemon *d, uint32_t hint, int *out_sample)
{
    if (d->state != LP__DAEMON_FRESH)
        return LP_EINVAL;
    d->state = LP__DAEMON_RUNNING;
    d->pending = decide(d, hint);
    if (out_sample)
        *out_sample = d->pending;
    return LP_OK;
}

static int step_boundary(lp_phase_daemon *d, uint32_t ended, uint32_t hint, int *out_sample)
{
    if (d->state != LP__DAEMON_RUNNING)
        return LP_EINVAL;
    int rc = end_interval(d, ended);
    if (rc < 0)
        return rc;
    d->pending = decide(d, hint);
    if (out_sample)
        *out_sample = d->pending;
    return LP_OK;
}

/* Refine (and the k-th policy with lend), at the end: how many intervals
 * each live sample's phase stands for in the estimate.
 *
 * With every interval's signature observed, each interval goes to the
 * phase whose live sample's signature is nearest its own (its own phase on
 * ties): a phase's intervals lie within the threshold of the phase's first
 * signature, not of the sample that ended up representing it, and an
 * interval near a boundary is often better stood for by the neighbouring
 * phase's sample. That also places the intervals of phases that have no
 * sample.
 *
 * Without signatures (and under the k-th policy), a phase stands for its
 * own intervals, and each interval whose phase has no live sample is lent
 * to the phase of the nearest interval before it that has one (for those
 * before any, after it): such a phase is mostly a transition or a phase
 * cut short, and its neighbour in time is the behaviour it sits in. Either
 * way no interval is dropped, which would shrink every count of the
 * estimate by its share of the run. */
static int lend(lp_phase_daemon *d, uint32_t phase, uint64_t intervals)
{
    lp_key k = {phase, 0};
    lp_entry *l = lp_table_upsert(&d->weights, k);
    if (!l)
        return LP_ENOMEM;
    l->v[0] += intervals;
    return LP_OK;
}

/* d->stands, each interval in its own phase until lent. */
static int stands_init(lp_phase_daemon *d)
{
    d->stands = lp_malloc((d->trace_count ? d->trace_count : 1) * sizeof *d->stands);
    if (!d->stands)
        return LP_ENOMEM;
    for (size_t i = 0; i < d->trace_count; i++)
        d->stands[i] = d->trace[i];
    return LP_OK;
}

static int weigh_by_signature(lp_phase_daemon *d)
{
    if (stands_init(d) < 0)
        return LP_ENOMEM;
    for (size_t i = 0; i < d->trace_count; i++) {
        size_t best = SIZE_MAX;
        uint32_t best_dist = UINT32_MAX;
        /* Own phase first, so that ties stay in it. */
        for (int pass = 0; pass < 2 && best_dist; pass++)
            for (size_t j = 0; j < d->sample_count && best_dist; j++) {
                const lp_phase_sample *s = &d->samples[j];
                if (s->retired || (s->stratum == d->trace[i]) != (pass == 0))
                    continue;
                uint32_t dist = lp_phase_sig_distance(&d->isigs[i], &d->ssigs[j]);
                if (dist < best_dist) {
                    best_dist = dist;
                    best = j;
                }
            }
        if (best != SIZE_MAX) {
            d->samples[best].weight++;
            d->stands[i] = d->samples[best].stratum;
        }
    }
    /* The strata's totals, for lp_phase_daemon_stratum: the nearest-
     * signature weights, whole intervals (the tagged profiles' scale). */
    for (size_t j = 0; j < d->sample_count; j++) {
        d->samples[j].share = d->samples[j].weight * LP_PHASE_SHARE_ONE;
        if (d->samples[j].weight) {
            int rc = lend(d, d->samples[j].stratum, d->samples[j].weight);
            if (rc < 0)
                return rc;
        }
    }
    int rc = lp__phase_calibrate(d);
    if (rc < 0)
        return rc;
    d->per_sample = 1;
    return LP_OK;
}

/* Whether interval i's phase has a live sample. */
static int has_sample(const lp_phase_daemon *d, size_t i)
{
    lp_key k = {d->trace[i], 0};
    return lp_table_find(&d->phases, k)->v[1] != 0;
}

/* Whether the front end estimates interval i itself (lp_phase_daemon_cover):
 * 1 where its phase has no sample, 2 in any phase, 0 not. */
static int covered(const lp_phase_daemon *d, size_t i)
{
    lp_key k = {i, 0};
    const lp_entry *e = lp_table_find(&d->covered, k);
    return e ? 1 + (int)e->v[0] : 0;
}

/* Whether interval i goes to a neighbour: its phase has no sample, and the
 * front end has no estimate of its own. */
static int is_orphan(const lp_phase_daemon *d, size_t i)
{
    return !has_sample(d, i) && !covered(d, i);
}

/* An interval covered in any phase stands for itself also where its phase
 * has a sample: it was measured, and its phase's sample is another
 * interval, which may not be like it (a phase's first interval is often
 * the end of the one before; compress's decoding began in an interval
 * that took the compression phase's sample). */
static int weigh_by_neighbour(lp_phase_daemon *d)
{
    uint32_t near = LP_PHASE_NONE;
    uint64_t orphans = 0; /* unrepresented intervals before the first represented one */
    int rc = stands_init(d);
    for (size_t i = 0; i < d->trace_count && rc == LP_OK; i++) {
        if (has_sample(d, i)) {
            near = d->trace[i];
            int own = covered(d, i) == 2;
            if (own)
                d->stands[i] = LP_PHASE_NONE;
            rc = lend(d, near, !own + orphans);
            for (size_t j = i; orphans; j--)
                if (is_orphan(d, j - 1)) {
                    d->stands[j - 1] = near;
                    orphans--;
                }
        } else if (!is_orphan(d, i)) {
            d->stands[i] = LP_PHASE_NONE; /* the front end's own estimate stands for it */
        } else if (near == LP_PHASE_NONE) {
            orphans++;
        } else {
            rc = lend(d, near, 1);
            d->stands[i] = near;
        }
    }
    return rc;
}

static int weigh_strata(lp_phase_daemon *d)
{
    int all_sigs = d->isig_count == d->trace_count;
    for (size_t j = 0; j < d->sample_count && all_sigs; j++)
        all_sigs = d->samples[j].retired || d->ssigs[j].bits;
    return all_sigs ? weigh_by_signature(d) : weigh_by_neighbour(d);
}

static int step_finish(lp_phase_daemon *d, uint32_t ended)
{
    if (d->state != LP__DAEMON_RUNNING)
        return LP_EINVAL;
    int rc = end_interval(d, ended);
    if (rc == LP_OK && is_refine(&d->cfg))
        rc = weigh_strata(d);
    else if (rc == LP_OK && lends(&d->cfg))
        rc = weigh_by_neighbour(d);
    if (rc < 0)
        return rc;
    d->state = LP__DAEMON_FINISHED;
    return LP_OK;
}

int lp_phase_daemon_start(lp_phase_daemon *d, uint32_t hint, int *out_sample)
{
    return is_offline_policy(&d->cfg) ? LP_EINVAL : step_start(d, hint, out_sample);
}

int lp_phase_daemon_boundary(lp_phase_daemon *d, uint32_t ended_phase, uint32_t hint,
                             int *out_sample)
{
    return is_offline_policy(&d->cfg) ? LP_EINVAL : step_boundary(d, ended_phase, hint, out_sample);
}

int lp_phase_daemon_finish(lp_phase_daemon *d, uint32_t ended_phase)
{
    return is_offline_policy(&d->cfg) ? LP_EINVAL : step_finish(d, ended_phase);
}

/* Offline policies: one chosen interval per phase, marked in chosen[]. */
static int pick_random(lp_phase_daemon *d, uint8_t *chosen)
{
    lp_table want; /* key {phase, 0}: v[0] rank wanted, v[1] intervals passed */
    int rc = lp_table_init(&want, d->phases.count);
    if (rc < 0)
        return rc;
    for (size_t i = 0; i < d->trace_count && rc == LP_OK; i++) {
        lp_key k = {d->trace[i], 0};
        int fresh;
        lp_entry *w = lp__phase_first_seen(&want, k.a, &fresh);
        if (!w) {
            rc = LP_ENOMEM;
            break;
        }
        if (fresh) /* first appearance: draw the rank */
            w->v[0] = lp_rng_below(&d->rng, lp_table_find(&d->phases, k)->v[0]);
        chosen[i] = w->v[1]++ == w->v[0];
    }
    lp_table_fini(&want);
    return rc;
}

static int pick_centroid(lp_phase_daemon *d, const lp_signature *sigs, uint8_t *chosen)
{
    const size_t nphase = d->phases.count;
    lp_table dense; /* key {phase, 0}: v[0] dense index */
    uint64_t *sum = lp_calloc(nphase, LP_SIG_BUCKETS * sizeof *sum);
    uint64_t *best_dist = lp_calloc(nphase, sizeof *best_dist);
    uint64_t *best_at = lp_calloc(nphase, sizeof *best_at);
    int rc = lp_table_init(&dense, nphase);
    if (!sum || !best_dist || !best_at)
        rc = LP_ENOMEM;
    const unsigned bits = d->cfg.centroid_bits;
    for (size_t i = 0; i < d->trace_count && rc == LP_OK; i++) {
        int fresh;
        lp_entry *e = lp__phase_first_seen(&dense, d->trace[i], &fresh);
        if (!e) {
            rc = LP_ENOMEM;
            break;
        }
        lp_phase_sig q;
        (void)lp_phase_sig_compress(&sigs[i], bits, &q);
        uint64_t *s = &sum[e->v[0] * LP_SIG_BUCKETS];
        for (unsigned b = 0; b < LP_SIG_BUCKETS; b++)
            s[b] += q.q[b];
        best_dist[e->v[0]] = UINT64_MAX;
    }
    /* Nearest to the mean S/c: compare c*q with S, which keeps it exact. */
    for (size_t i = 0; i < d->trace_count && rc == LP_OK; i++) {
        lp_key k = {d->trace[i], 0};
        uint64_t di = lp_table_find(&dense, k)->v[0];
        uint64_t c = lp_table_find(&d->phases, k)->v[0];
        lp_phase_sig q;
        (void)lp_phase_sig_compress(&sigs[i], bits, &q);
        const uint64_t *s = &sum[di * LP_SIG_BUCKETS];
        uint64_t dist = 0;
        for (unsigned b = 0; b < LP_SIG_BUCKETS; b++) {
            uint64_t x = c * q.q[b];
            dist += x > s[b] ? x - s[b] : s[b] - x;
        }
        if (dist < best_dist[di]) {
            best_dist[di] = dist;
            best_at[di] = i;
        }
    }
    for (size_t p = 0; p < dense.count && rc == LP_OK; p++)
        chosen[best_at[p]] = 1;
    lp_table_fini(&dense);
    lp_free(sum);
    lp_free(best_dist);
    lp_free(best_at);
    return rc;
}

static int pick_offline(lp_phase_daemon *d, const lp_signature *sigs)
{
    if (d->trace_count == 0)
        return LP_OK;
    uint8_t *chosen = lp_calloc(d->trace_count, 1);
    if (!chosen)
        return LP_ENOMEM;
    int rc = d->cfg.policy == LP_POLICY_RANDOM ? pick_random(d, chosen)
                                               : pick_centroid(d, sigs, chosen);
    for (size_t i = 0; i < d->trace_count && rc == LP_OK; i++) {
        if (!chosen[i])
            continue;
        lp_key k = {d->trace[i], 0};
        lp_table_find(&d->phases, k)->v[1]++;
        rc = record_sample(d, i, d->trace[i]);
    }
    lp_free(chosen);
    return rc;
}

int lp_phase_daemon_run(lp_phase_daemon *d, const uint32_t *phases, const lp_signature *sigs,
                        size_t n)
{
    return lp_phase_daemon_run_wide(d, phases, sigs, NULL, n);
}

int lp_phase_daemon_run_wide(lp_phase_daemon *d, const uint32_t *phases, const lp_signature *sigs,
                             const lp_phase_wide *wides, size_t n)
{
    if (d->state != LP__DAEMON_FRESH)
        return LP_EINVAL;
    if (d->cfg.strategy == LP_STRATEGY_PHASE && d->cfg.policy == LP_POLICY_CENTROID && !sigs &&
        n)
        return LP_EINVAL;
    int rc = LP_OK;
    if (n == 0) {
        d->state = LP__DAEMON_FINISHED;
        return LP_OK;
    }
    rc = step_start(d, phases[0], NULL);
    for (size_t i = 0; i + 1 < n && rc == LP_OK; i++) {
        if (sigs)
            rc = lp_phase_daemon_observe(d, &sigs[i]);
        if (wides)
            (void)lp_phase_daemon_observe_wide(d, &wides[i]);
        if (rc == LP_OK)
            rc = step_boundary(d, phases[i], phases[i + 1], NULL);
    }
    if (rc == LP_OK && sigs)
        rc = lp_phase_daemon_observe(d, &sigs[n - 1]);
    if (wides)
        (void)lp_phase_daemon_observe_wide(d, &wides[n - 1]);
    if (rc == LP_OK)
        rc = step_finish(d, phases[n - 1]);
    if (rc == LP_OK && is_offline_policy(&d->cfg))
        rc = pick_offline(d, sigs);
    return rc;
}

const lp_phase_sample *lp_phase_daemon_samples(const lp_phase_daemon *d, size_t *out_count)
{
    *out_count = d->sample_count;
    return d->samples;
}

const uint32_t *lp_phase_daemon_trace(const lp_phase_daemon *d, size_t *out_count)
{
    *out_count = d->trace_count;
    return d->trace;
}

void lp_phase_daemon_stratum(const lp_phase_daemon *d, uint32_t stratum, uint64_t *out_intervals,
                             uint64_t *out_sampled)
{
    *out_intervals = *out_sampled = 0;
    if (d->cfg.strategy == LP_STRATEGY_PHASE) {
        lp_key k = {stratum, 0};
        const lp_entry *e = lp_table_find(&d->phases, k);
        if (e) {
            *out_intervals = e->v[0];
            *out_sampled = e->v[1];
        }
        if (lends(&d->cfg) && d->state == LP__DAEMON_FINISHED) {
            const lp_entry *w = lp_table_find(&d->weights, k);
            *out_intervals = w ? w->v[0] : 0;
        }
    } else if (stratum == 0) {
        *out_intervals = d->trace_count;
        *out_sampled = d->sample_count;
    }
}

int lp_phase_daemon_cover(lp_phase_daemon *d, int any)
{
    if (d->state != LP__DAEMON_RUNNING)
        return LP_EINVAL;
    lp_key k = {d->interval, 0};
    lp_entry *e = lp_table_upsert(&d->covered, k);
    if (!e)
        return LP_ENOMEM;
    e->v[0] = any != 0;
    return LP_OK;
}

uint32_t lp_phase_daemon_predicted(const lp_phase_daemon *d)
{
    return d->has_pred && d->state == LP__DAEMON_RUNNING ? lp_phase_predictor_predict(&d->pred)
                                                         : LP_PHASE_NONE;
}

uint32_t lp_phase_daemon_stands_for(const lp_phase_daemon *d, size_t i)
{
    if (i >= d->trace_count)
        return LP_PHASE_NONE;
    return d->stands && d->state == LP__DAEMON_FINISHED ? d->stands[i] : d->trace[i];
}

void lp_phase_daemon_get_stats(const lp_phase_daemon *d, lp_phase_daemon_stats *out)
{
    __builtin_memset(out, 0, sizeof *out);
    out->intervals = d->trace_count;
    out->sampled = d->sample_count;
    out->resamples = d->resamples;
    out->retired = d->retired;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(&d->phases, &cur)) != NULL) {
        if (e->key.a != LP_PHASE_NONE)
            out->phases++;
        if (d->cfg.strategy == LP_STRATEGY_PHASE && e->v[1] == 0)
            out->unrepresented += e->v[0];
    }
    if (d->cfg.strategy != LP_STRATEGY_PHASE && d->sample_count == 0)
        out->unrepresented = d->trace_count;
    out->table_misses = d->table.misses;
    out->table_evictions = d->table.evictions;
    if (d->has_pred) {
        out->predictions = d->pred.predictions;
        out->correct = d->pred.correct;
    }
}
