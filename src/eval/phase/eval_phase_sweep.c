/* lowprof eval phase: the strategy sweeps over one interval matrix
 * (remote-profiling paper, section 5.3) and the transmission of the sampled
 * profiles (section 5.4).
 *
 * Every run is one daemon configuration through lp__ep_estimate_phases and
 * its errors through lp__ep_errors. Phases depend only on the threshold,
 * so each threshold is classified once and shared by its policies and
 * predictors. Tuned for matrices of tens to hundreds of intervals and a
 * thousand-odd runs each; the work per run is merging the sampled
 * intervals' tables and four metrics. */
#include <stdio.h>
#include <string.h>

#include "eval_phase.h"
#include "lowprof/metrics.h"

const unsigned lp__ep_periods[] = {3,  4,  5,  6,  7,  8,  9,  10, 12, 14, 16, 18, 20, 23,
                                   26, 30, 35, 40, 45, 50, 60, 70, 80, 90, 100, 0};
const unsigned lp__ep_probs[] = {2,  3,  4,  5,  6,  8,  10, 12, 15, 20, 25,
                                 30, 40, 50, 60, 70, 80, 100, 0};
const double lp__ep_thresholds[] = {0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.10, 0.12,
                                    0.15, 0.20, 0.25, 0.30, 0.40, 0.50, 0};
const char *const lp__ep_policy_name[LP__EP_POLICIES] = {"first", "third", "random", "centroid",
                                                         "refine"};

const char *lp__ep_predictor_name(unsigned predictor)
{
    switch (predictor) {
    case LP_PREDICT_ORACLE: return "oracle";
    case LP_PREDICT_LAST: return "last";
    case LP_PREDICT_MARKOV: return "markov";
    case LP_PREDICT_RUN_LENGTH: return "run-length";
    default: return "?";
    }
}

void lp__ep_runs_fini(lp__ep_runs *r)
{
    if (!r)
        return;
    lp_free(r->items);
    memset(r, 0, sizeof *r);
}

static lp__ep_run *runs_add(lp__ep_runs *r)
{
    if (r->count == r->cap) {
        size_t ncap = r->cap ? 2 * r->cap : 256;
        void *p = lp_realloc(r->items, r->cap * sizeof *r->items, ncap * sizeof *r->items);
        if (!p)
            return NULL;
        r->items = p;
        r->cap = ncap;
    }
    lp__ep_run *x = &r->items[r->count++];
    memset(x, 0, sizeof *x);
    return x;
}

/* Many configurations pick the same intervals with the same weights (on a
 * matrix of 20 intervals, periodic N = 50 and N = 60 at offset 3 both take
 * interval 3 alone), and their estimates are then the same tables. The
 * sweep keys each run by what the reconstruction depends on, the sampled
 * intervals with their strata's weights and grouping, and computes the
 * errors once per key. Two independent 64-bit hashes make a false match
 * far less likely than any error this experiment could notice. */
static lp_key samples_key(const lp_phase_daemon *d, lp_table *first_of)
{
    size_t ns = 0;
    const lp_phase_sample *s = lp_phase_daemon_samples(d, &ns);
    lp_key k = {0x6c6f7770726f66ULL, 0x7068617365ULL};
    lp_table_clear(first_of);
    for (size_t j = 0; j < ns; j++) {
        lp_key sk = {s[j].stratum, 0};
        lp_entry *e = lp_table_upsert(first_of, sk);
        if (!e) { /* no memory: a key no other run has, so no sharing */
            k.a ^= lp_hash64((uint64_t)(uintptr_t)d);
            return k;
        }
        if (!e->v[1]) {
            e->v[1] = 1;
            e->v[0] = j;
        }
        uint64_t intervals, sampled;
        lp_phase_daemon_stratum(d, s[j].stratum, &intervals, &sampled);
        /* A retired sample was profiled but does not count: it keys apart. */
        uint64_t w = (intervals << 32 ^ sampled) + (s[j].retired ? 0x9e3779b97f4a7c15ULL : 0) +
                     lp_hash64(s[j].share);
        k.a = lp_hash_pair(lp_hash_pair(lp_hash_pair(k.a, s[j].interval), e->v[0]), w);
        k.b = lp_hash_pair(k.b ^ lp_hash64(s[j].interval + 1),
                           lp_hash64(w + 0x2545f4914f6cdd1dULL) ^ e->v[0]);
    }
    k.a = lp_hash_pair(k.a, ns);
    if (k.a == UINT64_MAX && k.b == UINT64_MAX)
        k.a = 0; /* the table's reserved key */
    return k;
}

typedef struct sweep_ctx {
    const lp__ep_matrix *m;
    lp__ep_runs *runs;
    lp_table cache;    /* samples_key -> v[0] index + 1 of a run with those samples */
    lp_table first_of; /* scratch for samples_key */
} sweep_ctx;

/* One run: estimate (unless an identical one was made), errors, one row. */
static int run_one(sweep_ctx *c, const uint32_t *phases, const lp_phase_daemon_config *dc,
                   unsigned strategy, unsigned policy, double param, uint64_t variant)
{
    const lp__ep_matrix *m = c->m;
    lp_phase_daemon *d = NULL;
    int rc = lp_phase_daemon_create(dc, &d);
    if (rc == 0)
        rc = lp_phase_daemon_run_wide(d, phases, m->sigs, m->wides, m->n);
    lp__ep_run *x = rc == 0 ? runs_add(c->runs) : NULL;
    if (rc == 0 && !x)
        rc = LP_ENOMEM;
    lp_entry *hit = NULL;
    if (rc == 0) {
        hit = lp_table_upsert(&c->cache, samples_key(d, &c->first_of));
        if (!hit)
            rc = LP_ENOMEM;
    }
    if (rc == 0 && hit->v[0]) {
        memcpy(x->err, c->runs->items[hit->v[0] - 1].err, sizeof x->err);
    } else if (rc == 0) {
        hit->v[0] = c->runs->count; /* x's index + 1 */
        lp__ep_estimate e;
        rc = lp__ep_estimate_phases(m, phases, dc, &e);
        if (rc == 0)
            rc = lp__ep_errors(m, &e, x->err);
        lp__ep_estimate_fini(&e);
    }
    if (rc != 0) {
        lp_phase_daemon_free(d);
        fprintf(stderr, "lowprof: eval phase: %s: %s\n", m->name, lp_strerror(rc));
        return 1;
    }
    lp_phase_daemon_stats st;
    lp_phase_daemon_get_stats(d, &st);
    size_t ns = 0;
    const lp_phase_sample *s = lp_phase_daemon_samples(d, &ns);
    x->strategy = strategy;
    x->policy = policy;
    x->predictor = strategy == LP__EP_PHASE ? dc->predictor : 0;
    x->param = param;
    x->variant = variant;
    x->intervals = m->n;
    x->sampled = ns;
    for (size_t j = 0; j < ns; j++) {
        x->sampled_insns += m->insns[s[j].interval];
        x->sampled_branches += m->branches[s[j].interval];
    }
    x->percent = m->total_insns ? 100.0 * (double)x->sampled_insns / (double)m->total_insns : 0;
    x->phases = st.phases;
    x->resamples = st.resamples;
    x->unrepresented = st.unrepresented;
    x->predictions = st.predictions;
    x->correct = st.correct;
    lp_phase_daemon_free(d);
    return 0;
}

int lp__ep_sweep(const lp__ep_matrix *m, lp__ep_runs *runs)
{
    uint32_t *phases = lp_malloc(m->n * sizeof *phases);
    if (!phases) {
        fprintf(stderr, "lowprof: out of memory\n");
        return 1;
    }
    int rc = 0;
    sweep_ctx c = {.m = m, .runs = runs};
    (void)lp_table_init(&c.cache, 0);
    (void)lp_table_init(&c.first_of, 0);
    lp_phase_tracker_config tc = {0};
    /* Exhaustive, periodic and random ignore phases; they get the default
     * tracker's so the daemons' traces look like an online run's. */
    if (lp__ep_classify(m, &tc, phases) != 0)
        rc = 1;
    lp_phase_daemon_config dc = {.strategy = LP_STRATEGY_EXHAUSTIVE};
    if (rc == 0)
        rc = run_one(&c, phases, &dc, LP__EP_EXHAUSTIVE, 0, 1, 0);
    for (const unsigned *n = lp__ep_periods; rc == 0 && *n; n++)
        for (uint64_t off = 0; rc == 0 && off < *n; off++) {
            dc = (lp_phase_daemon_config){.strategy = LP_STRATEGY_PERIODIC, .period = *n,
                                          .offset = off};
            rc = run_one(&c, phases, &dc, LP__EP_PERIODIC, 0, *n, off);
        }
    for (const unsigned *p = lp__ep_probs; rc == 0 && *p; p++)
        for (uint64_t seed = 1; rc == 0 && seed <= LP__EP_RANDOM_SEEDS; seed++) {
            dc = (lp_phase_daemon_config){.strategy = LP_STRATEGY_RANDOM, .period = *p,
                                          .seed = seed};
            rc = run_one(&c, phases, &dc, LP__EP_RANDOM, 0, *p, seed);
        }
    for (const double *t = lp__ep_thresholds; rc == 0 && *t > 0; t++) {
        tc = (lp_phase_tracker_config){.threshold = *t};
        if (lp__ep_classify(m, &tc, phases) != 0) {
            rc = 1;
            break;
        }
        static const struct {
            unsigned policy, daemon_policy, k, predictor, seeds;
        } v[] = {
            {LP__EP_FIRST, LP_POLICY_KTH, 1, LP_PREDICT_ORACLE, 1},
            {LP__EP_THIRD, LP_POLICY_KTH, 3, LP_PREDICT_ORACLE, 1},
            {LP__EP_RANDOM_REP, LP_POLICY_RANDOM, 0, LP_PREDICT_ORACLE, LP__EP_POLICY_SEEDS},
            {LP__EP_CENTROID, LP_POLICY_CENTROID, 0, LP_PREDICT_ORACLE, 1},
            {LP__EP_THIRD, LP_POLICY_KTH, 3, LP_PREDICT_LAST, 1},
            {LP__EP_THIRD, LP_POLICY_KTH, 3, LP_PREDICT_MARKOV, 1},
            {LP__EP_THIRD, LP_POLICY_KTH, 3, LP_PREDICT_RUN_LENGTH, 1},
            {LP__EP_REFINE, LP_POLICY_REFINE, 0, LP_PREDICT_ORACLE, 1},
            {LP__EP_REFINE, LP_POLICY_REFINE, 0, LP_PREDICT_LAST, 1},
            {LP__EP_REFINE, LP_POLICY_REFINE, 0, LP_PREDICT_MARKOV, 1},
            {LP__EP_REFINE, LP_POLICY_REFINE, 0, LP_PREDICT_RUN_LENGTH, 1},
        };
        for (size_t i = 0; rc == 0 && i < sizeof v / sizeof v[0]; i++)
            for (uint64_t seed = 1; rc == 0 && seed <= v[i].seeds; seed++) {
                dc = (lp_phase_daemon_config){.strategy = LP_STRATEGY_PHASE,
                                              .policy = v[i].daemon_policy,
                                              .k = v[i].k,
                                              .predictor = v[i].predictor,
                                              .seed = seed};
                rc = run_one(&c, phases, &dc, LP__EP_PHASE, v[i].policy, *t, seed);
            }
    }
    lp_table_fini(&c.cache);
    lp_table_fini(&c.first_of);
    lp_free(phases);
    return rc;
}

/* ---- transmission ---------------------------------------------------------------- */

static int count_sink_write(void *ctx, const void *data, size_t size)
{
    (void)data;
    *(uint64_t *)ctx += size;
    return 0;
}

int lp__ep_transmit(const lp__ep_matrix *m, const lp__ep_estimate *e, int phased,
                    unsigned protocol, lp__ep_cost *out)
{
    memset(out, 0, sizeof *out);
    lp_sink sink = {count_sink_write, NULL};
    uint64_t written = 0;
    sink.ctx = &written;
    lp_remote_buffer *b;
    int rc = lp_remote_buffer_create(protocol, 0, sink, &b);
    if (rc != 0)
        return rc;
    size_t ns = 0, nt = 0;
    const lp_phase_sample *s = lp_phase_daemon_samples(e->daemon, &ns);
    const uint32_t *trace = lp_phase_daemon_trace(e->daemon, &nt);
    size_t j = 0;
    for (size_t i = 0; i < nt && rc == 0; i++) {
        uint32_t tag = phased ? trace[i] : LP_PHASE_NONE;
        if (j < ns && s[j].interval == i) {
            rc = lp_remote_buffer_add(b, phased ? s[j].stratum : LP_PHASE_NONE, i,
                                      LP_PROF_CODE_REGION, &m->tables[i][LP__EP_CR]);
            j++;
        }
        if (rc == 0)
            rc = lp_remote_buffer_interval_end(b, tag);
    }
    if (rc == 0)
        rc = lp_remote_buffer_finish(b);
    lp_remote_stats rs;
    lp_remote_buffer_get_stats(b, &rs);
    lp_remote_buffer_free(b);
    if (rc != 0)
        return rc;
    /* Classes (doc/eval-phase.md): ALU operations and branches run as
     * integer register operations, loads hit in the cache, stores are
     * priced as the model's only store class. */
    uint64_t counts[LP_INSN_CLASSES] = {0};
    uint64_t ev = e->sampled_branches;
    counts[LP_INSN_IREG] = ev * LP__EP_HANDLER_IREG + rs.work.alu + rs.work.branches;
    counts[LP_INSN_MEM_READ_HIT] = ev * LP__EP_HANDLER_LOADS + rs.work.loads;
    counts[LP_INSN_MEM_WRITE] = ev * LP__EP_HANDLER_STORES + rs.work.stores;
    lp_energy en = lp_energy_estimate(&lp_energy_strongarm, counts, rs.sent_bytes);
    out->compute_j = en.compute_joules;
    out->transmit_j = en.transmit_joules;
    out->energy_j = en.compute_joules + en.transmit_joules;
    out->instr_insns = ev * (LP__EP_HANDLER_IREG + LP__EP_HANDLER_LOADS + LP__EP_HANDLER_STORES);
    out->compress_insns = rs.work.alu + rs.work.branches + rs.work.loads + rs.work.stores;
    out->bytes = rs.sent_bytes;
    return LP_OK;
}

/* ---- settings and curves ------------------------------------------------------------ */

const char *const lp__ep_curve_name[LP__EP_CURVES] = {
    "phase-aware", "phase-aware (markov)", "periodic",           "random",
    "refine",      "refine (markov)",      "refine (run-length)"};

static int same_setting(const lp__ep_run *a, const lp__ep_run *b)
{
    return a->strategy == b->strategy && a->policy == b->policy &&
           a->predictor == b->predictor && a->param == b->param;
}

int lp__ep_settings(const lp__ep_runs *runs, lp__ep_setting **out, size_t *out_n)
{
    *out = NULL;
    *out_n = 0;
    size_t n = 0;
    for (size_t i = 0; i < runs->count; i++)
        n += i == 0 || !same_setting(&runs->items[i], &runs->items[i - 1]);
    lp__ep_setting *s = lp_calloc(n ? n : 1, sizeof *s);
    if (!s)
        return LP_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < runs->count;) {
        const lp__ep_run *r = &runs->items[i];
        size_t j = i;
        while (j < runs->count && same_setting(&runs->items[j], r))
            j++;
        lp__ep_setting *x = &s[k++];
        x->strategy = r->strategy;
        x->policy = r->policy;
        x->predictor = r->predictor;
        x->param = r->param;
        x->first = i;
        x->runs = j - i;
        uint64_t pred = 0, correct = 0;
        for (size_t q = i; q < j; q++) {
            const lp__ep_run *y = &runs->items[q];
            x->percent += y->percent;
            x->insns += (double)y->sampled_insns;
            x->phases += (double)y->phases;
            for (unsigned e = 0; e < LP__EP_ERRS; e++) {
                x->err_mean[e] += y->err[e];
                if (y->err[e] > x->err_max[e])
                    x->err_max[e] = y->err[e];
            }
            pred += y->predictions;
            correct += y->correct;
        }
        double c = (double)x->runs;
        x->percent /= c;
        x->insns /= c;
        x->phases /= c;
        for (unsigned e = 0; e < LP__EP_ERRS; e++)
            x->err_mean[e] /= c;
        x->pred_accuracy = pred ? (double)correct / (double)pred : -1;
        i = j;
    }
    *out = s;
    *out_n = n;
    return LP_OK;
}

int lp__ep_curve_has(unsigned curve, const lp__ep_setting *s)
{
    switch (curve) {
    case LP__EP_C_PHASE:
        return s->strategy == LP__EP_PHASE && s->policy == LP__EP_THIRD &&
               s->predictor == LP_PREDICT_ORACLE;
    case LP__EP_C_PHASE_MARKOV:
        return s->strategy == LP__EP_PHASE && s->policy == LP__EP_THIRD &&
               s->predictor == LP_PREDICT_MARKOV;
    case LP__EP_C_REFINE:
    case LP__EP_C_REFINE_MARKOV:
    case LP__EP_C_REFINE_RUN_LENGTH:
        return s->strategy == LP__EP_PHASE && s->policy == LP__EP_REFINE &&
               s->predictor == (curve == LP__EP_C_REFINE          ? LP_PREDICT_ORACLE
                                : curve == LP__EP_C_REFINE_MARKOV ? LP_PREDICT_MARKOV
                                                                  : LP_PREDICT_RUN_LENGTH);
    case LP__EP_C_PERIODIC: return s->strategy == LP__EP_PERIODIC;
    case LP__EP_C_RANDOM: return s->strategy == LP__EP_RANDOM;
    default: return 0;
    }
}

const lp__ep_setting *lp__ep_cheapest(const lp__ep_setting *s, size_t n, unsigned curve,
                                      unsigned err, double limit)
{
    const lp__ep_setting *best = NULL;
    for (size_t i = 0; i < n; i++)
        if (lp__ep_curve_has(curve, &s[i]) && s[i].err_mean[err] <= limit &&
            (!best || s[i].percent < best->percent))
            best = &s[i];
    return best;
}

/* ---- Fig. 15b: cost at 5 % error ------------------------------------------------------ */

/* The tracker and daemon configuration a run was made with. */
static void run_config(const lp__ep_run *r, lp_phase_tracker_config *tc, lp_phase_daemon_config *dc)
{
    memset(tc, 0, sizeof *tc);
    memset(dc, 0, sizeof *dc);
    switch (r->strategy) {
    case LP__EP_EXHAUSTIVE: dc->strategy = LP_STRATEGY_EXHAUSTIVE; break;
    case LP__EP_PERIODIC:
        dc->strategy = LP_STRATEGY_PERIODIC;
        dc->period = (uint64_t)r->param;
        dc->offset = r->variant;
        break;
    case LP__EP_RANDOM:
        dc->strategy = LP_STRATEGY_RANDOM;
        dc->period = (uint64_t)r->param;
        dc->seed = r->variant;
        break;
    default:
        tc->threshold = r->param;
        dc->strategy = LP_STRATEGY_PHASE;
        dc->predictor = r->predictor;
        dc->seed = r->variant;
        dc->policy = r->policy == LP__EP_RANDOM_REP  ? LP_POLICY_RANDOM
                     : r->policy == LP__EP_CENTROID ? LP_POLICY_CENTROID
                     : r->policy == LP__EP_REFINE   ? LP_POLICY_REFINE
                                                    : LP_POLICY_KTH;
        dc->k = r->policy == LP__EP_FIRST ? 1 : r->policy == LP__EP_THIRD ? 3 : 0;
        break;
    }
}

int lp__ep_energy(lp__ep_workload *w)
{
    static const unsigned curves[5] = {LP__EP_C_PHASE, LP__EP_C_PERIODIC, LP__EP_C_RANDOM,
                                       LP__EP_C_REFINE_MARKOV, LP__EP_C_REFINE_RUN_LENGTH};
    static const unsigned protocols[2] = {LP_REMOTE_AT_END, LP_REMOTE_INTERLEAVED};
    memset(w->cost, 0, sizeof w->cost);
    for (unsigned c = 0; c < 5; c++) {
        const lp__ep_setting *s =
            lp__ep_cheapest(w->settings, w->nsettings, curves[c], LP__EP_ERR_CR, 0.05);
        w->cost_valid[c] = s != NULL;
        if (!s)
            continue;
        /* Mean over the setting's runs (offsets or seeds). */
        for (size_t q = s->first; q < s->first + s->runs; q++) {
            lp_phase_tracker_config tc;
            lp_phase_daemon_config dc;
            run_config(&w->runs.items[q], &tc, &dc);
            lp__ep_estimate e;
            int rc = lp__ep_offline(&w->m, &tc, &dc, &e);
            for (unsigned p = 0; p < 2 && rc == 0; p++) {
                lp__ep_cost one;
                rc = lp__ep_transmit(&w->m, &e, dc.strategy == LP_STRATEGY_PHASE, protocols[p],
                                     &one);
                lp__ep_cost *acc = &w->cost[c][p];
                double k = (double)s->runs;
                acc->energy_j += one.energy_j / k;
                acc->compute_j += one.compute_j / k;
                acc->transmit_j += one.transmit_j / k;
                acc->instr_insns += one.instr_insns;
                acc->compress_insns += one.compress_insns;
                acc->bytes += one.bytes;
            }
            lp__ep_estimate_fini(&e);
            if (rc != 0) {
                fprintf(stderr, "lowprof: eval phase: %s: transmission: %s\n", w->m.name,
                        lp_strerror(rc));
                return 1;
            }
        }
        for (unsigned p = 0; p < 2; p++) {
            /* Integer sums over the runs become means (rounded down). */
            w->cost[c][p].instr_insns /= s->runs;
            w->cost[c][p].compress_insns /= s->runs;
            w->cost[c][p].bytes /= s->runs;
        }
    }
    return 0;
}
