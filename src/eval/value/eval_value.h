/* lowprof eval value: the pieces of the experiment (private to
 * src/eval/value). eval_value.c parses the command line, records or reads
 * each workload's window of loads and writes summary.md;
 * eval_value_replay.c replays a window through the co-processor model and
 * through simple sampling, measuring both at checkpoints;
 * eval_value_verdict.c compares them at matched overhead;
 * eval_value_out.c writes the tables and plots. */
#ifndef LP_EVAL_VALUE_H
#define LP_EVAL_VALUE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lowprof/metrics.h"
#include "lowprof/value.h"

#include "../eval_internal.h"

#define LP_EVAL_VAL_MAX_RATES 16

/* ---- options ---------------------------------------------------------------------- */

typedef struct lp_eval_val_opts {
    int full;
    int keep_traces;
    const char *out_dir;   /* absolute, created */
    const char *workloads; /* comma-separated names, or NULL for the mode's choice */
    const char *traces;    /* comma-separated existing event traces instead */
    const char *size;      /* data set: small or full */
    const char *data_dir;  /* prepared inputs, or NULL for OUT/data */
    uint64_t events;       /* loads in the replayed window */
    uint64_t skip;         /* loads of the trace before the window */
    uint64_t seed;
    uint64_t min_count;    /* the metric's: loads executed fewer times are left out */
    double limit;          /* error the "stays below" columns test */
    uint32_t rates[LP_EVAL_VAL_MAX_RATES]; /* simple sampling's P<r>, ascending */
    size_t nrates;
    uint32_t conv_rate;       /* the rate plotted against the co-processor over time, 0: the
                                 one whose final overhead is nearest the co-processor's */
    const char *coproc_text;  /* --coproc, as given (NULL: the defaults) */
    lp_value_options coproc;  /* the base model: defaults, --seed, then --coproc */
} lp_eval_val_opts;

/* ---- one profiler over one window (eval_value_replay.c) ------------------------------ */

enum { LP_EVAL_VAL_COPROC = 1, LP_EVAL_VAL_SIMPLE = 2 };

/* What a profiler knows after `loads` loads. */
typedef struct lp_eval_val_point {
    uint64_t loads;
    uint64_t insns;          /* program instructions through the last of them */
    double error;            /* weighted RMS error against the exact profile of the window */
    double error_sofar;      /* ... against the exact profile of the loads so far */
    uint64_t measured;       /* loads the metric measured (executed >= min_count) */
    uint64_t measured_sofar;
    uint64_t cycles;         /* modelled main-processor cycles so far */
    uint64_t interrupts;
    uint64_t samples;        /* co-processor: samples processed; simple: messages */
    double overhead;         /* cycles / insns (one cycle per instruction) */
    /* Final points only: the measured loads the estimate lacks altogether,
     * as a share of the measured executions and of the error's mean square. */
    double missing, missing_sq;
} lp_eval_val_point;

/* One load's final estimate from the base co-processor, for the scatter. */
typedef struct lp_eval_val_scatter {
    uint64_t pc, value, count;
    double inv_true, inv_est;
    int in_estimate;
} lp_eval_val_scatter;

/* A profiler to replay, and what it measured. */
typedef struct lp_eval_val_run {
    char name[48];           /* "coproc", "coproc:slots=128", "P100" */
    int kind;                /* LP_EVAL_VAL_* */
    int base;                /* the co-processor with the base options */
    uint32_t rate;           /* simple: r */
    lp_value_options vopt;   /* co-processor: its options */
    lp_eval_val_point *points; /* one per checkpoint */
    size_t npoints;
    lp_eval_val_point final; /* after the profiler's finish (drained) */
    lp_value_stats vstats;   /* co-processor: statistics after finish */
    lp_eval_val_scatter *scatter; /* base co-processor: per measured load */
    size_t nscatter;
} lp_eval_val_run;

/* The window and what every replay of it shares (read-only). */
typedef struct lp_eval_val_job {
    const lp_tuple *loads;
    const uint64_t *insns;
    size_t n;
    const lp_table *exact; /* of the whole window */
    const uint64_t *checkpoints;
    size_t ncheckpoints;
    uint64_t min_count;
    uint64_t seed; /* simple sampling's compressor seed */
} lp_eval_val_job;

/* The profilers of one workload: the base co-processor first, then the
 * sensitivity variants (slots half and double, clock half and double;
 * variants whose options do not validate are left out with a note), then
 * P<r> per rate. *out is calloc'd; free with lp_eval_val_runs_free.
 * Returns 0 or 1 after printing why. */
int lp_eval_val_runs_make(const lp_eval_val_opts *o, lp_eval_val_run **out, size_t *out_n);
void lp_eval_val_runs_free(lp_eval_val_run *runs, size_t n);

/* Replays job through every run, on up to threads threads. label names the
 * workload in progress lines and messages. Returns 0, or 1 after printing
 * why. */
int lp_eval_val_replay(const lp_eval_val_job *job, lp_eval_val_run *runs, size_t nruns,
                       unsigned threads, const char *label);

/* The first checkpoint from which every later one's window error is at or
 * below limit (UINT64_MAX: never), and the error at the first checkpoint
 * at or past half the window. */
uint64_t lp_eval_val_stays_below(const lp_eval_val_run *r, double limit);
double lp_eval_val_error_at_half(const lp_eval_val_run *r);

/* ---- one workload's result ----------------------------------------------------------- */

typedef struct lp_eval_val_wl {
    char name[64];
    int ok;
    double record_seconds, replay_seconds;
    uint64_t events, loads, insns;
    uint64_t static_loads, measured_loads, pairs; /* of the exact profile */
    int whole_trace;
    lp_eval_val_run *runs;
    size_t nruns;
} lp_eval_val_wl;

/* The run named name, or NULL. */
const lp_eval_val_run *lp_eval_val_find(const lp_eval_val_wl *w, const char *name);
/* The base co-processor run, or NULL. */
const lp_eval_val_run *lp_eval_val_base(const lp_eval_val_wl *w);
/* The simple-sampling run plotted over time against the co-processor. */
const lp_eval_val_run *lp_eval_val_conv_run(const lp_eval_val_opts *o, const lp_eval_val_wl *w);

/* ---- the comparison at matched overhead (eval_value_verdict.c) ------------------------ */

typedef enum lp_eval_val_answer {
    LP_EVAL_VAL_YES = 1,     /* lower error than simple sampling at twice its overhead */
    LP_EVAL_VAL_NO = 2,
    LP_EVAL_VAL_UNKNOWN = 3, /* twice its overhead lies outside the tested rates */
} lp_eval_val_answer;

typedef struct lp_eval_val_verdict {
    lp_eval_val_answer answer;
    double coproc_error, coproc_overhead;
    double twice_overhead;  /* 2 x the co-processor's */
    double simple_error;    /* simple sampling's error at twice_overhead, interpolated in
                               log overhead between lo and hi (NaN outside the rates) */
    const lp_eval_val_run *lo, *hi; /* tested rates bracketing twice_overhead (either
                                       NULL outside the range) */
    double needed_overhead; /* simple sampling's overhead for the co-processor's error,
                               interpolated the same way; NaN if no rate reaches it */
    int needed_bound;       /* -1: at most the cheapest rate's; +1: more than the
                               dearest's; 0: interpolated */
} lp_eval_val_verdict;

/* The question of the co-processor paper (its Fig. 1 and quantitative
 * results): does the base co-processor reach a lower weighted RMS error
 * than simple sampling at no more than half simple sampling's overhead?
 * Simple sampling's error is taken as a function of its overhead,
 * piecewise linear in log overhead through the tested rates. Returns 0,
 * or -1 when the workload lacks the runs. */
int lp_eval_val_judge(const lp_eval_val_wl *w, lp_eval_val_verdict *out);
const char *lp_eval_val_answer_text(lp_eval_val_answer a);

/* ---- files (eval_value_out.c) ------------------------------------------------------ */

/* errovh.csv/.md/.gp(.svg), convergence.csv/.gp(.svg), sensitivity.csv/.md,
 * scatter.csv/.gp(.svg), windows.csv under o->out_dir; the Markdown tables
 * are also appended to summary. focus is the workload of the convergence
 * and scatter plots (cc1, or the first that ran), or NULL. Returns 0, or 1
 * after printing why. */
int lp_eval_val_write(const lp_eval_val_opts *o, const lp_eval_val_wl *w, size_t nw,
                      const lp_eval_val_wl *focus, FILE *summary);

#endif
