/* lowprof collector: the optimization center of the remote-profiling paper
 * (sections 1 and 4). It takes messages from many runs and devices over
 * HTTP, stores each exactly once (lowprof/store.h), merges the runs of one
 * build into one estimated profile, and serves it to people (a web page)
 * and to tools (`lowprof report --collector`, `lowprof export`).
 *
 * The merge (collector_merge.c) turns each run into the estimate of its
 * exhaustive profile, then adds the runs:
 * - a run with per-phase profiles contributes, for each phase, the phase's
 *   sampled counts times the intervals the phase ran (counted in the run's
 *   phase-ID trace) over the intervals sampled in it;
 * - any other run contributes its whole-run profiles times their scales;
 * - a run shipped Interleaved (parts sharing a run-id: one per profiled
 *   interval, then a last one) is weighted as the first kind once all its
 *   parts are in; before that, results count it with the trace so far.
 * So the sum estimates what an exhaustive profile of all the runs would
 * give. Runs of different builds are never merged: a merge is asked for by
 * (program, build id).
 *
 * The server (collector_http.c) is libmicrohttpd; the HTTP API is
 * doc/collector-api.md. Hosted. */
#ifndef LOWPROF_COLLECTOR_H
#define LOWPROF_COLLECTOR_H

#include <stddef.h>
#include <stdint.h>

#include "lowprof/core.h"
#include "lowprof/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- merging (collector_merge.c) ----------------------------------------------- */

typedef struct lp_merge lp_merge;

int lp_merge_create(lp_merge **out);
void lp_merge_free(lp_merge *m); /* accepts NULL */

/* Adds one run, or one part of a run shipped Interleaved (one message's
 * profile set; device names where it ran).
 * Its module map is joined to the merge's (by path and build id), its
 * estimate added. Returns 0, LP_EFORMAT for a phase trace that does not
 * parse or a per-phase profile whose phase the trace never visits, or
 * LP_ENOMEM. The set is not kept. */
int lp_merge_add(lp_merge *m, const lp_profile_set *run, const char *device);

/* The phases' shares, summed over the runs by phase id (phase ids are the
 * tracker's numbering within a run, so the same id in two runs of a
 * deterministic program is usually the same behaviour). */
typedef struct lp_merge_phase {
    uint32_t phase;
    uint64_t intervals; /* intervals the phase ran, in all runs */
    uint64_t sampled;   /* of them, profiled */
    uint64_t runs;      /* runs in which it appears */
} lp_merge_phase;

typedef struct lp_merge_stats {
    uint64_t runs;
    uint64_t devices;         /* distinct device names */
    uint64_t phased_runs;     /* runs merged through their phase trace */
    uint64_t intervals;       /* intervals in all the phase traces */
    uint64_t instructions;    /* summed "instructions" meta */
    const lp_merge_phase *phases; /* valid until the next add or free */
    size_t nphases;
    uint64_t runs_in_progress; /* Interleaved runs whose last part has not come */
} lp_merge_stats;

void lp_merge_get_stats(const lp_merge *m, lp_merge_stats *out);

/* Writes the merged estimate into *out (initialised by the call): one
 * whole-run profile per type present (counts are estimates, rounded;
 * scale 1/1), the joined module map, and meta: program, build-id, runs,
 * devices, instructions, estimate ("merged by the collector"). Returns 0 or
 * LP_ENOMEM. */
int lp_merge_result(const lp_merge *m, lp_profile_set *out);

/* ---- the server (collector_http.c) --------------------------------------------- */

typedef struct lp_collector_opts {
    const char *listen;      /* "HOST:PORT"; default 127.0.0.1:7878; port 0 picks one */
    const char *store;       /* a data folder or a postgresql:// URI; default ./lowprof-data */
    size_t max_body;         /* compressed upload limit (413); default LP_UPLOAD_MAX_BODY */
    size_t max_profile;      /* decompressed limit; default LP_UPLOAD_MAX_PROFILE */
    double rate;             /* uploads per second per token before 429; default 2000 */
    unsigned threads;        /* request threads; default 4 */
    const char *port_file;   /* if set, the bound port is written there once listening */
    int quiet;
} lp_collector_opts;

/* Opens the store, listens, and serves until SIGINT or SIGTERM. Prints
 * "lowprof serve: listening on http://HOST:PORT (store: KIND)" on standard
 * error once requests are taken. Returns 0 after a clean stop, or 1 with a
 * message (the store cannot be opened, the address is taken). */
int lp_collector_serve(const lp_collector_opts *o);

#ifdef __cplusplus
}
#endif
#endif
