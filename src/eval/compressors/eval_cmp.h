/* lowprof eval compressors: the pieces of the experiment (private to
 * src/eval/compressors). eval_compressors.c parses the command line and
 * runs the parts, recording one event trace per workload and reading its
 * window through src/eval/common; eval_cmp_mc.c is the Monte Carlo study
 * (stratified-sampling paper, section 3.3, Fig. 4); eval_cmp_replay.c
 * replays a window's tuples through compressors (section 5, Figs. 7-11);
 * eval_cmp_alloc.c is the allocator cache the replay needs. */
#ifndef LP_EVAL_CMP_H
#define LP_EVAL_CMP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lowprof/core.h"
#include "lowprof/metrics.h"

#include "../eval_internal.h"

/* ---- options ---------------------------------------------------------------- */

typedef struct lp_eval_cmp_opts {
    int full;
    int keep_traces;
    int mc_only;             /* the Monte Carlo study alone */
    int no_mc;               /* everything but the Monte Carlo study */
    const char *out_dir;     /* absolute, created */
    const char *workloads;   /* comma-separated names, or NULL for the mode's choice */
    const char *traces;      /* comma-separated existing event traces to replay instead */
    const char *compressors; /* comma-separated specs replacing the five of Figs. 7-8 */
    const char *size;        /* data set of the workloads: small or full */
    const char *data_dir;    /* prepared inputs to use, or NULL for OUT/data */
    uint64_t events;         /* load events in the replayed window */
    uint64_t trials;         /* Monte Carlo trials per stream length */
    const char *mc_lengths;  /* comma-separated stream lengths, or NULL */
    uint32_t mc_n;           /* n of H[X]_n in the Monte Carlo study */
    uint64_t seed;
} lp_eval_cmp_opts;

/* ---- Monte Carlo (eval_cmp_mc.c) ---------------------------------------------- */

/* Runs the study, writes mc.csv, mc.md and mc.gp (the plot's script, and
 * mc.svg when gnuplot is there) under opts->out_dir, and appends its tables and findings to
 * summary. Returns 0, or 1 after printing why. */
int lp_eval_cmp_mc(const lp_eval_cmp_opts *opts, FILE *summary);

/* ---- replay (eval_cmp_replay.c) -------------------------------------------------- */

/* The error filters: the paper's for values; edges and call targets keep
 * only the 1000-execution rule (doc/metrics.md). */
extern const lp_invariance_filter lp_eval_cmp_control_filter;

/* One point of a replay: after `tuples` tuples. */
typedef struct lp_eval_cmp_point {
    uint64_t tuples;
    uint64_t insns;    /* program instructions before the last of them */
    uint64_t messages; /* delivered to software so far */
    uint64_t interrupts;
    uint64_t cycles;
    double overhead;            /* cycles / insns, 1 cycle per instruction */
    double error[3];            /* invariance error of value, edge, call-target estimates
                                   against the exact profile of the whole window */
    double sofar[3];            /* the same against the exact profile of the tuples so far */
    uint64_t selected[3];       /* tuples the error's filters selected, against the window */
    uint64_t sofar_selected[3]; /* and so far */
} lp_eval_cmp_point;

/* A replay of one compressor over one tuple array. */
typedef struct lp_eval_cmp_run {
    char spec[80];
    lp_eval_cmp_point *points; /* one per checkpoint */
    size_t npoints;
    lp_eval_cmp_point drained; /* after lp_compressor_finish at the end */
    uint64_t first_level_messages;
} lp_eval_cmp_run;

/* What to replay: tuples with their instruction counts, the exact profiles
 * the estimates are compared with (indexed by lp_tuple_type - 1 for value,
 * edge, call target; NULL entries are skipped), and the checkpoints (tuple
 * counts, increasing, the last at most n). */
typedef struct lp_eval_cmp_job {
    const lp_tuple *tuples;
    const uint64_t *insns;
    size_t n;
    const lp_table *exact[3];
    const uint64_t *checkpoints;
    size_t ncheckpoints;
    uint64_t seed;
} lp_eval_cmp_job;

/* Replays job through each of the nspecs compressors, in parallel on up to
 * threads threads, into runs[i] (fini each with lp_eval_cmp_run_fini).
 * label names the workload in progress lines and messages. Returns 0, or 1
 * after printing why. */
int lp_eval_cmp_replay(const lp_eval_cmp_job *job, const char *const *specs, size_t nspecs,
                       unsigned threads, const char *label, lp_eval_cmp_run *runs);
void lp_eval_cmp_run_fini(lp_eval_cmp_run *r);

/* The first checkpoint whose error (of type index k; the error against the
 * tuples so far when sofar is 1) is below limit, and the first from which
 * every later one is; UINT64_MAX for never. A checkpoint where the filters
 * select no tuple (early on, no load has run 1000 times) measures nothing
 * and never counts as below. */
uint64_t lp_eval_cmp_reach(const lp_eval_cmp_run *r, unsigned k, int sofar, double limit);
uint64_t lp_eval_cmp_stay(const lp_eval_cmp_run *r, unsigned k, int sofar, double limit);

/* ---- memory (eval_cmp_alloc.c) ------------------------------------------------------ */

/* Makes lowprof's modules allocate through a cache that reuses large freed
 * blocks. Call before anything is allocated with lp_malloc; not undone. */
void lp_eval_cmp_alloc_install(void);

#endif
