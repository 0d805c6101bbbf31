/* lowprof eval value: one window of loads replayed through the
 * co-processor model (value.h) and through simple sampling (sample.h's
 * periodic sampler P_r with its interrupt cost model), both measured by the
 * weighted RMS error of invariance (metrics.h) at the same checkpoints.
 *
 * The co-processor sees the loads in order with the program's instruction
 * counts between them: lp_value_retire for the instructions before a load
 * (the filter never sees them, but time passes, the buffer drains and the
 * handler's timers run), lp_value_push for the load itself. At a
 * checkpoint its estimate is what the handler has copied to memory so far
 * (lp_value_table); slots not yet copied are unknown to software, as
 * messages still in a compressor's buffer are unknown to it. The final
 * point comes after lp_value_finish: the last copy and the final
 * estimation, whose cost is charged then.
 *
 * Runs are independent, so they run on worker threads sharing the
 * read-only window and exact profile; each keeps its own profile of the
 * loads so far.
 *
 * Tuned for: a dozen runs over 4-16 M loads; the error at about 30
 * checkpoints costs more than the profilers themselves. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval_value.h"
#include "lowprof/sample.h"

/* lp_value_table's counts are estimated samples times this scale, rounded:
 * large enough that rounding a rare load's fractions does not move its
 * shares, while the metric itself only reads shares. */
#define COPROC_TABLE_SCALE 1024.0

/* ---- the runs ---------------------------------------------------------------------- */

static lp_eval_val_run *add_run(lp_eval_val_run *v, size_t *n, const char *name, int kind)
{
    lp_eval_val_run *r = &v[(*n)++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    r->kind = kind;
    return r;
}

/* A sensitivity variant of the base model, unless its options are out of
 * range. */
static void add_variant(lp_eval_val_run *v, size_t *n, const lp_value_options *base,
                        const char *field, uint32_t slots, double clock)
{
    lp_value_options o = *base;
    o.slots = slots;
    o.clock = clock;
    char name[48];
    if (strcmp(field, "slots") == 0)
        snprintf(name, sizeof name, "coproc:slots=%u", slots);
    else
        snprintf(name, sizeof name, "coproc:clock=%g", clock);
    const char *bad = NULL, *why = NULL;
    if (lp_value_options_check(&o, &bad, &why) != 0) {
        fprintf(stderr, "lowprof eval: note: %s left out (%s: %s)\n", name, bad ? bad : "?",
                why ? why : "out of range");
        return;
    }
    lp_eval_val_run *r = add_run(v, n, name, LP_EVAL_VAL_COPROC);
    r->vopt = o;
}

int lp_eval_val_runs_make(const lp_eval_val_opts *o, lp_eval_val_run **out, size_t *out_n)
{
    lp_eval_val_run *v = calloc(5 + o->nrates, sizeof *v);
    if (!v)
        return lp_host_fail("out of memory");
    size_t n = 0;
    const lp_value_options *b = &o->coproc;
    lp_eval_val_run *base = add_run(v, &n, "coproc", LP_EVAL_VAL_COPROC);
    base->vopt = *b;
    base->base = 1;
    /* The paper's sensitivity study: half and twice the storage (here the
     * slot array), and the co-processor's clock. */
    add_variant(v, &n, b, "slots", b->slots / 2, b->clock);
    add_variant(v, &n, b, "slots", b->slots * 2, b->clock);
    add_variant(v, &n, b, "clock", b->slots, b->clock / 2);
    add_variant(v, &n, b, "clock", b->slots, b->clock * 2);
    for (size_t i = 0; i < o->nrates; i++) {
        char name[32];
        snprintf(name, sizeof name, "P%u", o->rates[i]);
        add_run(v, &n, name, LP_EVAL_VAL_SIMPLE)->rate = o->rates[i];
    }
    *out = v;
    *out_n = n;
    return 0;
}

void lp_eval_val_runs_free(lp_eval_val_run *runs, size_t n)
{
    for (size_t i = 0; runs && i < n; i++) {
        free(runs[i].points);
        free(runs[i].scatter);
    }
    free(runs);
}

/* ---- measuring ----------------------------------------------------------------------- */

/* What the final measurement collects per load: the loads the estimate
 * lacks, and for the base co-processor the scatter. */
typedef struct load_sink {
    lp_eval_val_run *run;
    int keep; /* append to run->scatter */
    size_t cap;
    int nomem;
    double weight, sq, weight_missing, sq_missing;
} load_sink;

static void on_load(void *ctx, const lp_invariance_load *l)
{
    load_sink *s = ctx;
    double w = (double)l->count, d = l->inv_est - l->inv_true;
    s->weight += w;
    s->sq += w * d * d;
    if (!l->in_estimate) {
        s->weight_missing += w;
        s->sq_missing += w * d * d;
    }
    if (!s->keep)
        return;
    lp_eval_val_run *r = s->run;
    if (r->nscatter == s->cap) {
        size_t ncap = s->cap ? 2 * s->cap : 1024;
        lp_eval_val_scatter *nv = realloc(r->scatter, ncap * sizeof *nv);
        if (!nv) {
            s->nomem = 1;
            return;
        }
        r->scatter = nv;
        s->cap = ncap;
    }
    r->scatter[r->nscatter++] =
        (lp_eval_val_scatter){l->pc, l->value, l->count, l->inv_true, l->inv_est, l->in_estimate};
}

/* The errors of estimate after `loads` loads, against the whole window and
 * against prefix (the loads so far). masks are the estimate's key widths;
 * sink, when not NULL, collects the per-load figures of the window error
 * and sets the point's missing shares. */
static int measure_errors(const lp_eval_val_job *job, const lp_table *estimate,
                          const lp_table *prefix, uint64_t pc_mask, uint64_t value_mask,
                          uint64_t loads, load_sink *sink, lp_eval_val_point *p)
{
    p->loads = loads;
    p->insns = loads ? job->insns[loads - 1] + 1 : 0;
    lp_invariance_rms_options m = {job->min_count, pc_mask, value_mask, NULL, NULL};
    if (sink) {
        m.each = on_load;
        m.ctx = sink;
    }
    int rc = lp_invariance_rms_error(job->exact, estimate, &m, &p->error, &p->measured);
    m.each = NULL;
    if (rc == 0)
        rc = lp_invariance_rms_error(prefix, estimate, &m, &p->error_sofar, &p->measured_sofar);
    if (rc == 0 && sink && sink->nomem)
        rc = LP_ENOMEM;
    if (sink) {
        p->missing = sink->weight > 0 ? sink->weight_missing / sink->weight : 0;
        p->missing_sq = sink->sq > 0 ? sink->sq_missing / sink->sq : 0;
    }
    return rc;
}

static void set_cost(lp_eval_val_point *p, uint64_t cycles, uint64_t interrupts,
                     uint64_t samples)
{
    p->cycles = cycles;
    p->interrupts = interrupts;
    p->samples = samples;
    p->overhead = p->insns ? (double)cycles / (double)p->insns : 0.0;
}

/* Adds loads [from, to) to the profile of the loads so far. */
static int grow_prefix(lp_table *prefix, const lp_tuple *loads, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        lp_entry *e = lp_table_upsert(prefix, (lp_key){loads[i].pc, loads[i].w});
        if (!e)
            return LP_ENOMEM;
        e->v[0]++;
    }
    return 0;
}

static uint64_t low_mask(uint32_t bits)
{
    return bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

static int coproc_measure(const lp_eval_val_job *job, const lp_value_profiler *p,
                          const lp_value_options *vo, lp_table *est, const lp_table *prefix,
                          uint64_t loads, load_sink *sink, lp_eval_val_point *pt)
{
    lp_table_clear(est);
    int rc = lp_value_table(p, est, COPROC_TABLE_SCALE);
    if (rc == 0)
        rc = measure_errors(job, est, prefix, low_mask(vo->pc_bits), low_mask(vo->value_bits),
                            loads, sink, pt);
    lp_value_stats st;
    lp_value_get_stats(p, &st);
    set_cost(pt, st.cycles, st.interrupts, st.samples);
    return rc;
}

static int replay_coproc(const lp_eval_val_job *job, lp_eval_val_run *r)
{
    lp_value_profiler *p = NULL;
    lp_table est = {0}, prefix = {0};
    int rc = lp_value_create(&r->vopt, &p);
    if (rc == 0)
        rc = lp_table_init(&est, 1024);
    if (rc == 0)
        rc = lp_table_init(&prefix, 1024);
    uint64_t now = 0;
    size_t done = 0;
    for (size_t k = 0; rc == 0 && k < job->ncheckpoints; k++) {
        size_t upto = (size_t)job->checkpoints[k];
        for (size_t i = done; rc == 0 && i < upto; i++) {
            uint64_t at = job->insns[i];
            if (at > now) {
                rc = lp_value_retire(p, at - now);
                now = at;
            }
            if (rc == 0)
                rc = lp_value_push(p, job->loads[i].pc, job->loads[i].w, LP_VALUE_CLASS_LOAD);
            now++;
        }
        if (rc == 0)
            rc = grow_prefix(&prefix, job->loads, done, upto);
        done = upto;
        if (rc == 0)
            rc = coproc_measure(job, p, &r->vopt, &est, &prefix, done, NULL, &r->points[k]);
        r->npoints = k + 1;
    }
    if (rc == 0)
        rc = lp_value_finish(p);
    if (rc == 0) {
        load_sink sink = {r, r->base, 0, 0, 0, 0, 0, 0};
        rc = coproc_measure(job, p, &r->vopt, &est, &prefix, done, &sink, &r->final);
        lp_value_get_stats(p, &r->vstats);
    }
    lp_value_free(p);
    lp_table_fini(&est);
    lp_table_fini(&prefix);
    return rc;
}

static int simple_measure(const lp_eval_val_job *job, const lp_compressor *c,
                          const lp_estimator *est, const lp_table *prefix, uint64_t loads,
                          load_sink *sink, lp_eval_val_point *pt)
{
    const lp_profile *prof = lp_estimator_profile(est, LP_PROF_VALUE);
    int rc = measure_errors(job, &prof->table, prefix, 0, 0, loads, sink, pt);
    lp_compressor_stats st;
    lp_compressor_get_stats(c, &st);
    set_cost(pt, st.cycles, st.interrupts, st.messages);
    return rc ? rc : est->status;
}

static int replay_simple(const lp_eval_val_job *job, lp_eval_val_run *r)
{
    char text[32];
    snprintf(text, sizeof text, "P%u", r->rate);
    lp_compressor_spec spec;
    size_t pos;
    const char *why;
    if (lp_compressor_spec_parse(text, &spec, &pos, &why) != 0) {
        lp_host_fail("bad sampler '%s' at character %zu: %s", text, pos + 1, why);
        return 1; /* explained */
    }
    lp_estimator est;
    int rc = lp_estimator_init(&est);
    if (rc)
        return rc;
    lp_table prefix = {0};
    lp_compressor *c = NULL;
    rc = lp_table_init(&prefix, 1024);
    if (rc == 0)
        rc = lp_compressor_create(&spec, NULL, job->seed, lp_estimator_on_messages, &est, &c);
    size_t done = 0;
    for (size_t k = 0; rc == 0 && k < job->ncheckpoints; k++) {
        size_t upto = (size_t)job->checkpoints[k];
        lp_compressor_push_many(c, job->loads + done, upto - done);
        rc = grow_prefix(&prefix, job->loads, done, upto);
        done = upto;
        if (rc == 0)
            rc = simple_measure(job, c, &est, &prefix, done, NULL, &r->points[k]);
        r->npoints = k + 1;
    }
    if (rc == 0) {
        lp_compressor_finish(c);
        load_sink sink = {r, 0, 0, 0, 0, 0, 0, 0};
        rc = simple_measure(job, c, &est, &prefix, done, &sink, &r->final);
    }
    lp_compressor_free(c);
    lp_estimator_fini(&est);
    lp_table_fini(&prefix);
    return rc;
}

static int replay_one(const lp_eval_val_job *job, lp_eval_val_run *r)
{
    r->points = calloc(job->ncheckpoints ? job->ncheckpoints : 1, sizeof *r->points);
    if (!r->points)
        return LP_ENOMEM;
    return r->kind == LP_EVAL_VAL_COPROC ? replay_coproc(job, r) : replay_simple(job, r);
}

/* ---- workers ------------------------------------------------------------------------- */

/* What the replays of one trace share, for the job pool. */
typedef struct val_jobs {
    const lp_eval_val_job *job;
    lp_eval_val_run *runs;
    size_t nruns;
    const char *label;
} val_jobs;

static int val_run(void *ctx, size_t i)
{
    val_jobs *v = ctx;
    return replay_one(v->job, &v->runs[i]);
}

static void val_done(void *ctx, size_t i, int status, size_t finished)
{
    val_jobs *v = ctx;
    const lp_eval_val_run *r = &v->runs[i];
    if (status == 0)
        fprintf(stderr, "lowprof eval: %s: %-18s error %6.2f %%  overhead %8.3f %%  (%zu/%zu)\n",
                v->label, r->name, 100 * r->final.error, 100 * r->final.overhead, finished,
                v->nruns);
}

int lp_eval_val_replay(const lp_eval_val_job *job, lp_eval_val_run *runs, size_t nruns,
                       unsigned threads, const char *label)
{
    val_jobs v = {job, runs, nruns, label};
    int *status = calloc(nruns ? nruns : 1, sizeof(int));
    if (!status)
        return lp_host_fail("out of memory");
    lp__eval_parallel(nruns, threads, val_run, val_done, &v, status);
    int rc = 0;
    for (size_t i = 0; i < nruns; i++) {
        if (status[i] > 0) {
            rc = 1; /* already explained */
        } else if (status[i] < 0) {
            lp_host_fail("%s: replaying %s: %s", label, runs[i].name, lp_strerror(status[i]));
            rc = 1;
        }
    }
    free(status);
    return rc;
}

/* ---- reading the runs ------------------------------------------------------------------ */

uint64_t lp_eval_val_stays_below(const lp_eval_val_run *r, double limit)
{
    uint64_t from = UINT64_MAX;
    for (size_t i = r->npoints; i-- > 0;) {
        const lp_eval_val_point *p = &r->points[i];
        if (p->measured == 0 || p->error > limit)
            break;
        from = p->loads;
    }
    return from;
}

double lp_eval_val_error_at_half(const lp_eval_val_run *r)
{
    if (r->npoints == 0)
        return 0;
    uint64_t half = r->points[r->npoints - 1].loads / 2;
    for (size_t i = 0; i < r->npoints; i++)
        if (r->points[i].loads >= half)
            return r->points[i].error;
    return r->points[r->npoints - 1].error;
}

const lp_eval_val_run *lp_eval_val_find(const lp_eval_val_wl *w, const char *name)
{
    for (size_t i = 0; w->runs && i < w->nruns; i++)
        if (strcmp(w->runs[i].name, name) == 0)
            return &w->runs[i];
    return NULL;
}

const lp_eval_val_run *lp_eval_val_base(const lp_eval_val_wl *w)
{
    for (size_t i = 0; w->runs && i < w->nruns; i++)
        if (w->runs[i].base)
            return &w->runs[i];
    return NULL;
}

const lp_eval_val_run *lp_eval_val_conv_run(const lp_eval_val_opts *o, const lp_eval_val_wl *w)
{
    const lp_eval_val_run *c = lp_eval_val_base(w), *best = NULL;
    double best_gap = 0;
    for (size_t i = 0; w->runs && i < w->nruns; i++) {
        const lp_eval_val_run *r = &w->runs[i];
        if (r->kind != LP_EVAL_VAL_SIMPLE)
            continue;
        if (o->conv_rate) {
            if (r->rate == o->conv_rate)
                return r;
            continue;
        }
        if (!c || c->final.overhead <= 0 || r->final.overhead <= 0)
            continue;
        /* Nearest in log overhead: the ratio furthest from 1 loses. */
        double q = r->final.overhead / c->final.overhead;
        double gap = q >= 1 ? q : 1 / q;
        if (!best || gap < best_gap)
            best = r, best_gap = gap;
    }
    return best;
}
