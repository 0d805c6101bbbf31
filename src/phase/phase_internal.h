/* phase: the daemon's private state, shared by the daemon and the
 * reconstruction. */
#ifndef LOWPROF_PHASE_INTERNAL_H
#define LOWPROF_PHASE_INTERNAL_H

#include "lowprof/phase.h"

enum { LP__DAEMON_FRESH, LP__DAEMON_RUNNING, LP__DAEMON_FINISHED };

struct lp_phase_daemon {
    lp_phase_daemon_config cfg;
    int state;
    int pending;     /* decision for the interval in progress */
    uint64_t interval; /* index of the interval in progress */
    lp_rng rng;      /* random strategy and random policy */
    lp_phase_table table;
    lp_phase_predictor pred;
    int has_pred;
    uint32_t *trace;
    size_t trace_count, trace_cap;
    lp_phase_sample *samples;
    size_t sample_count, sample_cap;
    lp_table phases; /* key {phase, 0}: v[0] intervals, v[1] samples */
    uint64_t resamples;
};

/* Finds key {key, 0} in t, adding it if absent with v[0] = how many keys
 * t held before (its position in order of first appearance); *out_new
 * says which. NULL on LP_ENOMEM. */
static inline lp_entry *lp__phase_first_seen(lp_table *t, uint64_t key, int *out_new)
{
    lp_key k = {key, 0};
    size_t before = t->count;
    lp_entry *e = lp_table_upsert(t, k);
    *out_new = e && t->count != before;
    if (*out_new)
        e->v[0] = before;
    return e;
}

#endif
