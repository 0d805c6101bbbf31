/* lowprof metrics: the accuracy metrics and cost models of the papers.
 *
 * One implementation of each metric, shared by the front ends, the CLI, the
 * experiments and the tests, so a number means the same thing everywhere.
 * Freestanding: core's types only, no libc, so the Valgrind tool and the
 * native runtime can link it.
 *
 * Profiles are compared as lp_tables whose v[0] is the count; an estimated
 * table's counts are multiplied by a scale (1.0 when they are estimates
 * already). Functions that need scratch memory return 0 or LP_ENOMEM and put
 * the figure in *out. */
#ifndef LOWPROF_METRICS_H
#define LOWPROF_METRICS_H

#include "lowprof/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Distance between two phase signatures: half the L1 distance between them
 * after each is normalised to sum 1 (the phase-aware paper's similarity
 * measure, and the "half-L1" heterogeneity of doc/workloads.md). The result
 * is in [0, 1]: 0 for signatures with the same proportions (whatever their
 * totals), 1 for signatures with no bucket in common.
 *
 * An all-zero signature (an interval with no branch) has no proportions.
 * Two all-zero signatures are at distance 0; an all-zero signature and a
 * non-zero one are at distance 1, so an empty interval never joins a phase
 * that executed code. a and b must not be NULL. Pure and reentrant: safe
 * in signal handlers. */
double lp_signature_distance(const lp_signature *a, const lp_signature *b);

/* Count error (remote-profiling paper, Figs. 11 and 15a: "error in branch
 * counts"): the sum over every key of either table of
 * |scale * estimate[k] - exact[k]|, divided by the sum of exact counts.
 * 0 is perfect; an empty estimate gives 1; an empty exact profile gives 0
 * when the estimate is empty too, else 1. */
double lp_count_error(const lp_table *exact, const lp_table *estimate, double scale);

/* Manhattan accuracy (online-instrumentation paper, Tables IV-VI):
 * (1 - MD/2) where MD is the L1 distance between the two profiles after each
 * is normalised to sum 1; in [0, 1]. Scale does not matter, so there is none.
 * Two empty profiles are identical (1); one empty one gives 0. */
double lp_manhattan_accuracy(const lp_table *a, const lp_table *b);

/* Hot-set error (remote-profiling paper, Fig. 12: "hot" is the top 15 % of
 * the most frequently executed events). With n the number of keys in the
 * exact profile, the hot set H is its ceil(fraction * n) keys of highest
 * count, and the estimated hot set E is the same number of keys of highest
 * count in the estimate (ties broken by key, both sides). The error is the
 * exact weight of H \ E over the exact weight of H: the share of the truly
 * hot events that the estimate misses or ranks out of its hot set. 0 is
 * perfect. fraction is in (0, 1]; 0.15 is the paper's. See doc/metrics.md. */
int lp_hot_error(const lp_table *exact, const lp_table *estimate, double fraction,
                 double *out);

/* Invariance error of a value-like profile (stratified-sampling paper,
 * section 5.3.1), for tables keyed (pc, value) with v[0] the count:
 * I(v) = n(v) / n(pc), e(v) = |I_exact(v) - I_estimate(v)|, and the error
 * is the exact-frequency-weighted mean of e over the selected tuples. A
 * tuple is selected when its pc executes at least min_pc_count times, the
 * tuple is at least min_tuple_share of its pc's executions, and that pc's
 * selected tuples cover at least min_covered_share of its executions; all
 * judged on the exact profile. n_estimate(pc) sums every value the estimate
 * holds for pc (the profiler's view of the load's count). */
typedef struct lp_invariance_filter {
    uint64_t min_pc_count;    /* 1000 in the paper */
    double min_tuple_share;   /* 0.10 */
    double min_covered_share; /* 0.40 */
} lp_invariance_filter;

/* The paper's filter for load values. */
extern const lp_invariance_filter lp_invariance_paper;

/* *out is the error in [0, 1] (0 when nothing is selected, which
 * *out_selected, when not NULL, reports as 0 tuples). */
int lp_invariance_error(const lp_table *exact, const lp_table *estimate,
                        const lp_invariance_filter *filter, double *out,
                        uint64_t *out_selected);

/* Weighted RMS error of invariance (co-processor paper, 004, its
 * quantitative results: "root mean square error weighted by value
 * frequency" of the invariance estimates), for tables keyed (pc, value)
 * with v[0] the count.
 *
 * From the paper: the error is a root mean square of estimated minus true
 * invariance, weighted by execution frequency:
 *
 *     sqrt( sum_pc w(pc) (inv_est(pc) - inv_true(pc))^2 / sum_pc w(pc) )
 *
 * lowprof's reading of what the keywords leave open:
 *  - one term per load (pc), for the value that matters most to a
 *    value-reuse optimiser: inv_true(pc) is the share of the load's
 *    executions that its most frequent exact value takes (ties: the lowest
 *    value), and inv_est(pc) is the estimate's share of that same value
 *    (the same-value rule: an estimate that finds another value invariant
 *    is wrong, not right about a different value). inv_est is 0 when the
 *    estimate lacks the value or the load;
 *  - w(pc) is the load's exact execution count (the sum of its v[0]);
 *  - only loads executed at least min_count times count, so that loads
 *    too rare for any sampler to see do not dominate the mean;
 *  - the estimate's total for a load is the sum of all its entries for that
 *    pc, a remainder key such as value.h's LP_VALUE_OTHER included, so its
 *    counts need no scale;
 *  - a profiler that stores only the low bits of pc and value (value.h's
 *    pc-bits and value-bits) has estimate keys (pc & pc_mask, value &
 *    value_mask): the exact load's top value is looked up under those
 *    masks, so a value that aliases another in the stored bits counts
 *    against the estimate as the aliasing would mislead an optimiser. */
typedef struct lp_invariance_load {
    uint64_t pc;     /* as in the exact profile */
    uint64_t value;  /* its most frequent exact value */
    uint64_t count;  /* its exact executions: the weight */
    double inv_true; /* that value's exact share */
    double inv_est;  /* the estimate's share of it */
    int in_estimate; /* 1 when the estimate holds the load at all (any value, count > 0) */
} lp_invariance_load;

typedef struct lp_invariance_rms_options {
    uint64_t min_count;  /* loads executed fewer times are left out (0 counts as 1) */
    uint64_t pc_mask;    /* the estimate's keys hold pc & pc_mask; 0 means all ones */
    uint64_t value_mask; /* ... and value & value_mask; 0 means all ones */
    /* Called once per measured load (in no particular order) when not NULL,
     * for scatter plots of inv_est against inv_true. */
    void (*each)(void *ctx, const lp_invariance_load *load);
    void *ctx;
} lp_invariance_rms_options;

/* *out is the error in [0, 1], 0 when no load is measured; *out_loads (may
 * be NULL) the number of loads measured. opts may be NULL: min_count 1, full
 * keys, no callback. Entries with count 0 are ignored. Returns 0 or
 * LP_ENOMEM (scratch table); the tables are only read. */
int lp_invariance_rms_error(const lp_table *exact, const lp_table *estimate,
                            const lp_invariance_rms_options *opts, double *out,
                            uint64_t *out_loads);

/* Energy model (remote-profiling paper, Fig. 14b, StrongARM and an 11 Mb/s
 * wireless card): each instruction class runs at its own rate and draws
 * its own power, so its energy is count / rate * watts; transmission draws
 * 1.425 W for bytes * 8 / 11e6 seconds. */
typedef enum lp_insn_class {
    LP_INSN_IREG = 0,      /* integer register operations (and branches) */
    LP_INSN_MEM_READ,      /* loads that miss in L1 */
    LP_INSN_MEM_READ_HIT,  /* loads that hit */
    LP_INSN_MEM_WRITE,     /* stores that miss */
    LP_INSN_FPREG,         /* floating point */
    LP_INSN_CLASSES
} lp_insn_class;

typedef struct lp_energy_model {
    double watts[LP_INSN_CLASSES];        /* joules per second */
    double insns_per_second[LP_INSN_CLASSES];
    double transmit_watts;
    double transmit_bits_per_second;
} lp_energy_model;

extern const lp_energy_model lp_energy_strongarm;

typedef struct lp_energy {
    double compute_seconds;
    double compute_joules;
    double transmit_seconds;
    double transmit_joules;
} lp_energy;

/* Energy and time of executing counts[class] instructions and sending
 * bytes. */
lp_energy lp_energy_estimate(const lp_energy_model *m,
                             const uint64_t counts[LP_INSN_CLASSES], uint64_t bytes);

#ifdef __cplusplus
}
#endif
#endif
