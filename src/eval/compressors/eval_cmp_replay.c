/* lowprof eval compressors: offline replay of an event trace through stream
 * compressors (stratified-sampling paper, section 5).
 *
 * The trace is read once into arrays of tuples (src/eval/common's window,
 * chosen as the front end chooses them online). Each compressor then gets
 * the array in one push_many per stretch between checkpoints, its messages folded by the
 * software estimator as they are "interrupted" out, and at each checkpoint
 * the estimate so far is compared, by lp_invariance_error, with the exact
 * profile of the whole replayed window (the paper's ideal profile "examining
 * the same stream"). Messages still in the compressor's buffer or counts
 * still in its tables at a checkpoint are not yet known to software and do
 * not count; the drained point, after lp_compressor_finish, adds them.
 *
 * Compressors are independent, so they run on worker threads sharing the
 * read-only tuple arrays and exact tables.
 *
 * Tuned for: 4-16 M tuples and a dozen compressors per workload; the
 * invariance error at about 30 checkpoints per compressor costs more than
 * the compression itself. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval_cmp.h"

const lp_invariance_filter lp_eval_cmp_control_filter = {1000, 0.0, 0.0};

/* ---- checkpoints ------------------------------------------------------------------------ */

static int below(const lp_eval_cmp_point *p, unsigned k, int sofar, double limit)
{
    if (sofar)
        return p->sofar_selected[k] > 0 && p->sofar[k] < limit;
    return p->selected[k] > 0 && p->error[k] < limit;
}

uint64_t lp_eval_cmp_reach(const lp_eval_cmp_run *r, unsigned k, int sofar, double limit)
{
    for (size_t i = 0; i < r->npoints; i++)
        if (below(&r->points[i], k, sofar, limit))
            return r->points[i].tuples;
    return UINT64_MAX;
}

uint64_t lp_eval_cmp_stay(const lp_eval_cmp_run *r, unsigned k, int sofar, double limit)
{
    uint64_t from = UINT64_MAX;
    for (size_t i = r->npoints; i-- > 0;) {
        if (!below(&r->points[i], k, sofar, limit))
            break;
        from = r->points[i].tuples;
    }
    return from;
}

/* ---- one compressor ------------------------------------------------------------------------- */

static const unsigned tuple_of[3] = {LP_TUPLE_VALUE, LP_TUPLE_EDGE, LP_TUPLE_CALL_TARGET};
static const unsigned profile_of[3] = {LP_PROF_VALUE, LP_PROF_EDGE, LP_PROF_CALL_TARGET};

/* Fills p with the compressor's state after `tuples` tuples; prefix holds
 * the exact profiles of those tuples. */
static int measure(const lp_eval_cmp_job *job, const lp_compressor *c, const lp_estimator *est,
                   const lp_table *prefix, uint64_t tuples, lp_eval_cmp_point *p)
{
    lp_compressor_stats st;
    lp_compressor_get_stats(c, &st);
    memset(p, 0, sizeof *p);
    p->tuples = tuples;
    p->insns = tuples ? job->insns[tuples - 1] : 0;
    p->messages = st.messages;
    p->interrupts = st.interrupts;
    p->cycles = st.cycles;
    p->overhead = p->insns ? (double)st.cycles / (double)p->insns : 0.0;
    for (unsigned k = 0; k < 3; k++) {
        if (!job->exact[k])
            continue;
        const lp_profile *prof = lp_estimator_profile(est, profile_of[k]);
        const lp_invariance_filter *filter =
            tuple_of[k] == LP_TUPLE_VALUE ? &lp_invariance_paper : &lp_eval_cmp_control_filter;
        int rc =
            lp_invariance_error(job->exact[k], &prof->table, filter, &p->error[k], &p->selected[k]);
        if (rc == 0)
            rc = lp_invariance_error(&prefix[k], &prof->table, filter, &p->sofar[k],
                                     &p->sofar_selected[k]);
        if (rc)
            return rc;
    }
    return est->status;
}

static int replay_one(const lp_eval_cmp_job *job, const char *spec_text, lp_eval_cmp_run *r)
{
    memset(r, 0, sizeof *r);
    snprintf(r->spec, sizeof r->spec, "%s", spec_text);
    lp_compressor_spec spec;
    size_t pos;
    const char *why;
    if (lp_compressor_spec_parse(spec_text, &spec, &pos, &why) != 0) {
        lp_host_fail("bad compressor '%s' at character %zu: %s", spec_text, pos + 1, why);
        return 1; /* explained */
    }
    r->points = calloc(job->ncheckpoints, sizeof *r->points);
    lp_estimator est;
    int rc = r->points ? lp_estimator_init(&est) : LP_ENOMEM;
    if (rc) {
        free(r->points);
        r->points = NULL;
        return rc;
    }
    /* The exact profiles of the tuples so far, grown between checkpoints. */
    lp_table prefix[3] = {{0}};
    for (unsigned k = 0; k < 3; k++)
        if (lp_table_init(&prefix[k], 1024) != 0)
            rc = LP_ENOMEM;
    lp_compressor *c = NULL;
    if (rc == 0)
        rc = lp_compressor_create(&spec, NULL, job->seed, lp_estimator_on_messages, &est, &c);
    size_t done = 0;
    for (size_t i = 0; rc == 0 && i < job->ncheckpoints; i++) {
        size_t upto = (size_t)job->checkpoints[i];
        lp_compressor_push_many(c, job->tuples + done, upto - done);
        for (size_t j = done; rc == 0 && j < upto; j++) {
            const lp_tuple *t = &job->tuples[j];
            unsigned k = t->type == LP_TUPLE_VALUE ? 0 : t->type == LP_TUPLE_EDGE ? 1 : 2;
            lp_entry *e = lp_table_upsert(&prefix[k], (lp_key){t->pc, t->w});
            if (!e)
                rc = LP_ENOMEM;
            else
                e->v[0]++;
        }
        done = upto;
        if (rc == 0)
            rc = measure(job, c, &est, prefix, done, &r->points[i]);
        r->npoints = i + 1;
    }
    if (rc == 0) {
        lp_compressor_finish(c);
        rc = measure(job, c, &est, prefix, done, &r->drained);
        lp_compressor_stats st;
        lp_compressor_get_stats(c, &st);
        r->first_level_messages = st.first_level_messages;
    }
    lp_compressor_free(c);
    lp_estimator_fini(&est);
    for (unsigned k = 0; k < 3; k++)
        lp_table_fini(&prefix[k]);
    return rc;
}

void lp_eval_cmp_run_fini(lp_eval_cmp_run *r)
{
    if (!r)
        return;
    free(r->points);
    r->points = NULL;
    r->npoints = 0;
}

/* ---- workers -----------------------------------------------------------------------------------
 */

/* What the replays of one trace share, for the job pool. */
typedef struct cmp_jobs {
    const lp_eval_cmp_job *job;
    const char *const *specs;
    size_t nspecs;
    lp_eval_cmp_run *runs;
    const char *label;
} cmp_jobs;

static int cmp_run(void *ctx, size_t i)
{
    cmp_jobs *c = ctx;
    return replay_one(c->job, c->specs[i], &c->runs[i]);
}

static void cmp_done(void *ctx, size_t i, int status, size_t finished)
{
    cmp_jobs *c = ctx;
    if (status != 0)
        return;
    const lp_eval_cmp_run *r = &c->runs[i];
    unsigned t = c->job->exact[0] ? 0 : 1; /* values, else edges */
    fprintf(stderr, "lowprof eval: %s: %-18s final %s error %6.2f %% (%zu/%zu)\n", c->label,
            c->specs[i], t ? "edge" : "value", 100 * r->points[r->npoints - 1].error[t], finished,
            c->nspecs);
}

int lp_eval_cmp_replay(const lp_eval_cmp_job *job, const char *const *specs, size_t nspecs,
                       unsigned threads, const char *label, lp_eval_cmp_run *runs)
{
    cmp_jobs c = {job, specs, nspecs, runs, label};
    int *status = calloc(nspecs ? nspecs : 1, sizeof(int));
    if (!status)
        return lp_host_fail("out of memory");
    lp__eval_parallel(nspecs, threads, cmp_run, cmp_done, &c, status);
    int rc = 0;
    for (size_t i = 0; i < nspecs; i++) {
        if (status[i] > 0) {
            rc = 1; /* already explained */
        } else if (status[i] < 0) {
            lp_host_fail("%s: replaying %s: %s", label, specs[i], lp_strerror(status[i]));
            rc = 1;
        }
    }
    free(status);
    return rc;
}
