/* lowprof eval phase: the pieces of the experiment (private to src/cli).
 *
 * The remote-profiling paper's evaluation (sections 5.3 and 5.4, Figs.
 * 10-15), run offline on interval matrices: every interval-granular
 * strategy is the phase module's daemon stepped over the matrix's stored
 * signatures, and its estimate is the phase module's reconstruction of the
 * sampled intervals' exhaustive tables, so the numbers are those an online
 * recording with the same configuration would give (--check-online tests
 * exactly that).
 *
 *   eval_phase.c          the command: options, obtaining the matrices
 *   eval_phase_core.c     a matrix in memory; one offline estimate; errors
 *   eval_phase_sweep.c    the strategy sweeps over one matrix; transmission
 *   eval_phase_out.c      CSV, Markdown, gnuplot; the paper's claims
 *   eval_phase_online.c   --check-online
 */
#ifndef LP_EVAL_PHASE_H
#define LP_EVAL_PHASE_H

#include "eval_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lowprof/core.h"
#include "lowprof/phase.h"
#include "lowprof/remote.h"

/* ---- a matrix in memory (eval_phase_core.c) ------------------------------------ */

/* The profile types the experiment reconstructs, in this order. */
enum { LP__EP_CR = 0, LP__EP_METHOD = 1, LP__EP_CALL_PAIR = 2, LP__EP_TYPES = 3 };
extern const unsigned lp__ep_type[LP__EP_TYPES]; /* lp_profile_type of each */

typedef struct lp__ep_matrix {
    char name[64];
    uint64_t interval_length;
    size_t n;                              /* intervals */
    uint64_t *insns;                       /* per interval */
    uint64_t *branches;                    /* per interval: code-region executions */
    lp_signature *sigs;                    /* per interval */
    lp_phase_wide *wides;                  /* per interval, from the code-region profile
                                              (what the tool's wide accumulator holds);
                                              NULL when they do not fold to sigs */
    lp_table (*tables)[LP__EP_TYPES];      /* per interval */
    lp_table exact[LP__EP_TYPES];          /* the whole run */
    uint64_t total_insns, total_branches;
} lp__ep_matrix;

/* Reads the interval matrix at path (name labels it in the results). A
 * matrix that ends early (no end chunk) is refused. Returns 0, or 1 after
 * printing why. */
int lp__ep_matrix_load(const char *path, const char *name, lp__ep_matrix *out);
void lp__ep_matrix_fini(lp__ep_matrix *m); /* accepts a zeroed matrix */

/* ---- one offline estimate ------------------------------------------------------- */

/* The phase of every interval as a tracker with config tc classifies the
 * stored signatures in order (exactly what the front end's tracker does at
 * each cut). out_phases has room for m->n. Returns 0, or a negative LP_E*
 * code (a refused config). */
int lp__ep_classify(const lp__ep_matrix *m, const lp_phase_tracker_config *tc,
                    uint32_t *out_phases);

/* What one daemon configuration gives on one matrix. */
typedef struct lp__ep_estimate {
    lp_table tables[LP__EP_TYPES]; /* the reconstructed whole-run profiles */
    lp_phase_daemon *daemon;       /* its samples, trace and stats; owned */
    uint64_t sampled_intervals;
    uint64_t sampled_insns;    /* instructions of the sampled intervals */
    uint64_t sampled_branches; /* code-region events profiled in them */
} lp__ep_estimate;

/* The offline estimate for one matrix and one daemon configuration, given
 * the intervals' phases (lp__ep_classify): steps a fresh daemon over them
 * (lp_phase_daemon_run; signatures for the centroid policy) and
 * reconstructs each type from the sampled intervals' exhaustive tables
 * (lp_phase_reconstruct). out is initialised by the call. Returns 0 or a
 * negative LP_E* code (out then holds nothing). */
int lp__ep_estimate_phases(const lp__ep_matrix *m, const uint32_t *phases,
                           const lp_phase_daemon_config *dc, lp__ep_estimate *out);

/* The same from the tracker's configuration: classifies, then estimates.
 * This is the one function an online recording must agree with: the front
 * end classifies each interval with the same tracker and steps the same
 * daemon, so for a deterministic program and the same interval length its
 * whole-run estimates equal out->tables. */
int lp__ep_offline(const lp__ep_matrix *m, const lp_phase_tracker_config *tc,
                    const lp_phase_daemon_config *dc, lp__ep_estimate *out);
void lp__ep_estimate_fini(lp__ep_estimate *e); /* accepts NULL */

/* Errors of an estimate against the matrix's exact profiles, all from
 * metrics.h: [0] code-region count error (lp_count_error), [1..3] hot-set
 * error at 15 % (lp_hot_error) of branches (code regions), methods and
 * call pairs. Returns 0 or LP_ENOMEM. */
/* The code-region count error the paper judges by, the hot-set errors of
 * its Fig. 12, and the method and call-pair count errors: the two profiles
 * the phase signature holds nothing of, so an estimate fitted to the
 * signature (refine's calibration) is checked on them too. */
enum {
    LP__EP_ERR_CR = 0,
    LP__EP_ERR_HOT_BRANCH,
    LP__EP_ERR_HOT_METHOD,
    LP__EP_ERR_HOT_CALL,
    LP__EP_ERR_METHOD,
    LP__EP_ERR_CALL_PAIR,
    LP__EP_ERRS
};
extern const char *const lp__ep_err_name[LP__EP_ERRS];
#define LP__EP_HOT_FRACTION 0.15
int lp__ep_errors(const lp__ep_matrix *m, const lp__ep_estimate *e, double out[LP__EP_ERRS]);

/* ---- the sweeps (eval_phase_sweep.c) -------------------------------------------- */

typedef enum lp__ep_strategy {
    LP__EP_EXHAUSTIVE = 0,
    LP__EP_PERIODIC,
    LP__EP_RANDOM,
    LP__EP_PHASE,
    LP__EP_STRATEGIES
} lp__ep_strategy;

/* Representative policies as the paper names them. */
typedef enum lp__ep_policy {
    LP__EP_FIRST = 0,
    LP__EP_THIRD,
    LP__EP_RANDOM_REP,
    LP__EP_CENTROID,
    LP__EP_REFINE, /* lowprof's: first at once, replaced by the third, re-sampled (online) */
    LP__EP_POLICIES
} lp__ep_policy;
extern const char *const lp__ep_policy_name[LP__EP_POLICIES];
/* "oracle", "last", "markov", "run-length" by LP_PREDICT_* value. */
const char *lp__ep_predictor_name(unsigned predictor);

/* One run: one configuration on one matrix. */
typedef struct lp__ep_run {
    unsigned strategy;  /* lp__ep_strategy */
    unsigned policy;    /* phase: lp__ep_policy */
    unsigned predictor; /* phase: LP_PREDICT_* */
    double param;       /* periodic N, random P, phase threshold */
    uint64_t variant;   /* periodic offset, random or policy seed */
    uint64_t intervals, sampled, sampled_insns, sampled_branches;
    double percent; /* sampled instructions over all, in percent */
    double err[LP__EP_ERRS];
    uint64_t phases, resamples, unrepresented, predictions, correct;
} lp__ep_run;

typedef struct lp__ep_runs {
    lp__ep_run *items;
    size_t count, cap;
} lp__ep_runs;

/* The grids; each ends with 0. */
extern const unsigned lp__ep_periods[];    /* periodic N */
extern const unsigned lp__ep_probs[];      /* random P */
extern const double lp__ep_thresholds[];   /* phase similarity thresholds */
#define LP__EP_RANDOM_SEEDS 10
#define LP__EP_POLICY_SEEDS 5

/* Runs every strategy of the experiment on m, appending to runs: exhaustive;
 * periodic every N at every offset; random for each P with 10 seeds; phase
 * for each threshold with the four policies under the oracle and the third
 * interval under the last, Markov and run-length predictors. Returns 0, or
 * 1 after printing why. */
int lp__ep_sweep(const lp__ep_matrix *m, lp__ep_runs *runs);
void lp__ep_runs_fini(lp__ep_runs *r);

/* Transmission of one estimate's sampled code-region profiles through the
 * profile buffer (remote.h) under protocol, into a sink that only counts:
 * with phased (the phase-aware strategy) samples are tagged with their
 * phase and the trace carries every interval's phase, since the collector
 * weights each phase's sample by its intervals; otherwise samples and trace
 * are untagged (they stand for the whole run). Then the energy model prices
 * the instrumentation and the compressor's counted work. Returns 0 or a
 * negative LP_E* code. */
typedef struct lp__ep_cost {
    double energy_j, compute_j, transmit_j;
    uint64_t instr_insns;    /* instrumentation: profiled events times the handler */
    uint64_t compress_insns; /* the compressor's counted operations */
    uint64_t bytes;          /* sent, headers included */
} lp__ep_cost;
/* Instructions of the profiling handler per profiled event, by class
 * (doc/eval-phase.md states the assumption). */
#define LP__EP_HANDLER_IREG 6
#define LP__EP_HANDLER_LOADS 3
#define LP__EP_HANDLER_STORES 1
int lp__ep_transmit(const lp__ep_matrix *m, const lp__ep_estimate *e, int phased,
                    unsigned protocol, lp__ep_cost *out);

/* The runs of one setting (one strategy, policy, predictor and parameter;
 * the offsets or seeds are its runs) summarised. */
typedef struct lp__ep_setting {
    unsigned strategy, policy, predictor;
    double param;
    size_t first, runs; /* its runs: items[first .. first + runs) of the sweep */
    double percent;     /* mean over runs */
    double insns;       /* mean sampled instructions */
    double err_mean[LP__EP_ERRS], err_max[LP__EP_ERRS];
    double phases;        /* mean phases (phase-aware) */
    double pred_accuracy; /* correct / predictions over the runs; -1 without */
} lp__ep_setting;

/* Groups a sweep's runs (which come in setting order) into settings.
 * *out is lp_malloc'd. Returns 0 or LP_ENOMEM. */
int lp__ep_settings(const lp__ep_runs *runs, lp__ep_setting **out, size_t *out_n);

/* The curves the figures compare: the setting filter of each. */
typedef enum lp__ep_curve {
    LP__EP_C_PHASE = 0,         /* phase-aware, third interval, oracle (the paper's) */
    LP__EP_C_PHASE_MARKOV,      /* phase-aware, third interval, Markov predictor */
    LP__EP_C_PERIODIC,          /* periodic, mean over offsets */
    LP__EP_C_RANDOM,            /* random, mean over seeds */
    LP__EP_C_REFINE,            /* phase-aware, refine policy, oracle */
    LP__EP_C_REFINE_MARKOV,     /* phase-aware, refine policy, Markov predictor */
    LP__EP_C_REFINE_RUN_LENGTH, /* phase-aware, refine policy, run-length predictor (the
                                   Valgrind tool's default) */
    LP__EP_CURVES
} lp__ep_curve;
extern const char *const lp__ep_curve_name[LP__EP_CURVES];
int lp__ep_curve_has(unsigned curve, const lp__ep_setting *s);

/* The cheapest setting of curve whose mean error of kind err is at most
 * limit: the smallest mean percent sampled; NULL if none reaches it. */
const lp__ep_setting *lp__ep_cheapest(const lp__ep_setting *s, size_t n, unsigned curve,
                                      unsigned err, double limit);

/* ---- output (eval_phase_out.c) ---------------------------------------------------- */

typedef struct lp__ep_workload {
    lp__ep_matrix m;
    lp__ep_runs runs;
    lp__ep_setting *settings;
    size_t nsettings;
    /* Fig. 15b, at the cheapest setting reaching 5 % code-region error:
     * [strategy: 0 phase (third, oracle), 1 periodic, 2 random, 3 refine
     * (Markov), 4 refine (run-length)][protocol: 0 At End, 1 Interleaved];
     * valid[s] 0 where the strategy never reached it. */
    lp__ep_cost cost[5][2];
    int cost_valid[5];
    double seconds; /* the sweep's time */
} lp__ep_workload;

typedef struct lp__ep_report_opts {
    const char *out_dir;
    const char *mode; /* "small", "full" or "matrices" */
    int have_gnuplot;
    double recording_seconds;
} lp__ep_report_opts;

/* Computes Fig. 15b's costs for w (re-running the chosen settings through
 * lp__ep_transmit). Returns 0, or 1 after printing why. */
int lp__ep_energy(lp__ep_workload *w);

/* Writes every CSV, Markdown table, gnuplot script (and SVG when gnuplot
 * runs) and summary.md under opts->out_dir, and prints the summary's path.
 * Returns 0, or 1 after printing why. */
int lp__ep_report(const lp__ep_workload *ws, size_t n, const lp__ep_report_opts *opts);

/* The code-region error every figure's "reaches" means: the paper's 5 %. */
#define LP__EP_TARGET_ERROR 0.05
/* Smallest average percent at which the curve averaged over the workloads
 * has its error (mean, or with use_max the per-workload maximum) at most
 * LP__EP_TARGET_ERROR; -1 never (eval_phase_out.c). */
double lp__ep_curve_reaches(const lp__ep_workload *ws, size_t n, unsigned curve, unsigned err,
                            int use_max);
/* A percent in a table cell of width characters ("never" for -1). */
void lp__ep_put_pct(FILE *f, double v, int width);
/* The mean over workloads of curve s's Interleaved bytes over random's
 * (-1 if none has both); *out_n how many, *out_sum_ratio total over total. */
double lp__ep_bytes_ratio(const lp__ep_workload *ws, size_t n, unsigned s, size_t *out_n,
                          double *out_sum_ratio);
/* summary.md's "Online policies against the targets" and "The paper's
 * claims on our programs" (eval_phase_claims.c). */
void lp__ep_targets(const lp__ep_workload *ws, size_t n, FILE *md);
void lp__ep_claims(const lp__ep_workload *ws, size_t n, FILE *md, double bytes_ratio,
                   double sum_ratio, size_t ratio_n, const double avg_pct[LP__EP_ERRS][3]);

/* ---- --check-online (eval_phase_online.c) ---------------------------------------- */

/* Compares a recording made with --strategy with the offline estimate of
 * the same configuration over an exhaustive matrix of the same program;
 * prints the verdict. Returns 0 for exact agreement, 1 otherwise. */
int lp__ep_check_online(const char *recording, const char *matrix);

#endif
