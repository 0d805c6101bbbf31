/* lowprof metrics: the accuracy metrics and cost models of the papers.
 *
 * One implementation of each metric, shared by the front ends, the CLI, the
 * experiments and the tests, so a number means the same thing everywhere.
 * Freestanding: core's types only, no libc, so the Valgrind tool and the
 * native runtime can link it.
 *
 * So far: the distance between phase signatures. */
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

#ifdef __cplusplus
}
#endif
#endif
