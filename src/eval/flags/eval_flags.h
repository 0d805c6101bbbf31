/* lowprof eval flag-prediction: the pieces of the experiment (private to
 * src/cli).
 *
 * The profile flag predictor of the profile-flags paper (section IV) on
 * real instrumented programs: clang's -fsanitize-coverage=trace-pc-guard
 * calls stand for the paper's profile blocks, a recorded run under the
 * Valgrind front end gives their order and lengths, and a window policy on
 * the instruction count gives the flag each instance sees.
 *
 *   eval_flags.c          the command: options, programs, build, record
 *   eval_flags_replay.c   guard sites and hot methods from the recording's
 *                         profile; one pass over the trace through every
 *                         predictor
 *   eval_flags_out.c      CSV and Markdown tables
 */
#ifndef LP_EVAL_FLAGS_H
#define LP_EVAL_FLAGS_H

#include "eval_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lowprof/flags.h"

#define LP__EF_CALLBACK "__sanitizer_cov_trace_pc_guard"
#define LP__EF_MAX_DUTIES 8
#define LP__EF_SWEEP_DUTY 25 /* the duty of the table-shape sweep */

/* The table shapes of the sweep (the paper settled on 64 sets x 2 ways). */
enum { LP__EF_SWEEP_SETS = 4, LP__EF_SWEEP_WAYS = 3 };
extern const unsigned lp__ef_sweep_sets[LP__EF_SWEEP_SETS];
extern const unsigned lp__ef_sweep_ways[LP__EF_SWEEP_WAYS];
enum { LP__EF_NSHAPES = LP__EF_SWEEP_SETS * LP__EF_SWEEP_WAYS };

/* Where the flag can be on, and which blocks exist:
 *   ALL       every guard is a profile block; the window turns every flag on;
 *   HOT       every guard is a profile block; the window turns the flag on
 *             only in the hot methods (the others are always off);
 *   HOT_ONLY  only the hot methods' guards are profile blocks (the paper's
 *             runtime instruments its 10 hottest methods and nothing else);
 *             the window turns them on. */
enum { LP__EF_ALL, LP__EF_HOT, LP__EF_HOT_ONLY, LP__EF_NSCOPES };
/* The scopes the table-shape sweep covers (with --hot 0: ALL only). */
enum { LP__EF_SWEEP_SCOPES = 2 };
extern const unsigned lp__ef_sweep_scope[LP__EF_SWEEP_SCOPES];

typedef struct lp__ef_opts {
    int full;
    int keep_traces;
    const char *out;      /* absolute, created */
    const char *size;     /* the native programs' size word */
    const char *list;     /* --workloads */
    const char *programs; /* --program */
    const char *clang;
    uint64_t period;
    unsigned duties[LP__EF_MAX_DUTIES];
    size_t nduties;
    unsigned hot;          /* 0: the ALL scope alone */
    lp_pfpred_config pred; /* resolved (no zero fields) */
    uint64_t trace_limit;
} lp__ef_opts;

/* Number of scopes evaluated under o: 1 without hot methods, else all. */
unsigned lp__ef_nscopes(const lp__ef_opts *o);
/* "all", "hotN", "hotN-only" into buf. */
const char *lp__ef_scope_name(const lp__ef_opts *o, unsigned scope, char *buf, size_t cap);

/* What one program gave. */
typedef struct lp__ef_result {
    char name[64];
    int ok;
    int truncated;          /* the trace stopped at --trace-limit */
    uint64_t program_insns; /* instructions of the run the trace covers */
    uint64_t events;
    uint64_t sites;         /* static profile blocks (guard call sites) */
    uint64_t instances;     /* block instances replayed */
    uint64_t profile_insns; /* their instructions */
    uint64_t hot_instances; /* instances in the hot methods */
    uint64_t hot_profile_insns;
    uint32_t len_min, len_max;
    uint64_t unmatched;        /* guard calls with no return seen */
    uint64_t icount_mismatch;  /* instances whose icount delta is not the block sum */
    uint64_t profile_disagree; /* sites whose trace count differs from the profile's */
    char hot_names[1024];
    unsigned nhot;
    lp_pfpred_stats stats[LP__EF_NSCOPES][LP__EF_MAX_DUTIES];
    /* What a perfect predictor would save: length - 1 for every instance
     * that sees its flag off. */
    uint64_t possible[LP__EF_NSCOPES][LP__EF_MAX_DUTIES];
    lp_pfpred_stats shapes[LP__EF_SWEEP_SCOPES][LP__EF_NSHAPES];
} lp__ef_result;

/* The program's instructions in a scope: HOT_ONLY's build would lack the
 * cold methods' guard calls. */
uint64_t lp__ef_scope_insns(const lp__ef_result *r, unsigned scope);

/* ---- eval_flags_replay.c --------------------------------------------------------- */

/* Reads the recording's profile prof_path (guard sites, hot methods) and
 * its event trace trace_path once, replaying every guard call through the
 * predictors of o; fills r (r->name set by the caller). Returns 0, or 1
 * after printing why. */
int lp__ef_replay(const lp__ef_opts *o, const char *prof_path, const char *trace_path,
                  lp__ef_result *r);

/* ---- eval_flags_out.c --------------------------------------------------------- */

/* Writes flags.csv, programs.csv, sizes.csv and flags.md under o->out.
 * Results with ok == 0 are listed as failed. Returns 0 or -1 (printed). */
int lp__ef_write(const lp__ef_opts *o, const lp__ef_result *rs, size_t n);
/* The Markdown table of one scope (also the printed summary). */
void lp__ef_md_scope(FILE *f, const lp__ef_opts *o, const lp__ef_result *rs, size_t n,
                     unsigned scope);

#endif
