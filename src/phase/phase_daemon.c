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
    return c->strategy == LP_STRATEGY_PHASE && c->policy != LP_POLICY_KTH;
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
            c.policy != LP_POLICY_CENTROID)
            return LP_EINVAL;
        if (c.k == 0)
            c.k = LP_PHASE_DEFAULT_K;
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
    lp_rng_seed(&d->rng, c.seed);
    (void)lp_table_init(&d->phases, 0);
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
    pe->v[0]++;
    if (d->pending) {
        if (d->cfg.strategy == LP_STRATEGY_PHASE && pe->v[1])
            d->resamples++;
        pe->v[1]++;
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

static int step_finish(lp_phase_daemon *d, uint32_t ended)
{
    if (d->state != LP__DAEMON_RUNNING)
        return LP_EINVAL;
    int rc = end_interval(d, ended);
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
    for (size_t i = 0; i + 1 < n && rc == LP_OK; i++)
        rc = step_boundary(d, phases[i], phases[i + 1], NULL);
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
    } else if (stratum == 0) {
        *out_intervals = d->trace_count;
        *out_sampled = d->sample_count;
    }
}

void lp_phase_daemon_get_stats(const lp_phase_daemon *d, lp_phase_daemon_stats *out)
{
    __builtin_memset(out, 0, sizeof *out);
    out->intervals = d->trace_count;
    out->sampled = d->sample_count;
    out->resamples = d->resamples;
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
