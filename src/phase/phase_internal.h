/* phase: the daemon's private state, shared by the daemon and the
 * reconstruction. */
#ifndef LOWPROF_PHASE_INTERNAL_H
#define LOWPROF_PHASE_INTERNAL_H

#include "lowprof/phase.h"

enum { LP__DAEMON_FRESH, LP__DAEMON_RUNNING, LP__DAEMON_FINISHED };

/* Refine: what the daemon knows of one phase. */
typedef struct lp__phase_track {
    lp_phase_sig last; /* the phase's most recent interval's signature */
    size_t standin;    /* 1 + index of its stand-in sample (taken before the
                          phase's k-th interval, no steadier one yet); 0: none */
    uint64_t live;     /* samples that count */
    uint64_t taken;    /* samples of the phase */
    uint64_t missed;   /* samples taken for it that turned out another phase's */
    uint8_t want;      /* sample the phase's next interval */
} lp__phase_track;

/* Refine: a sample's wide signature, quantised to 16 bits (ok 0: none
 * observed). */
typedef struct lp__phase_wq {
    uint16_t q[LP_PHASE_WIDE_BUCKETS];
    uint8_t ok;
} lp__phase_wq;

struct lp_phase_daemon {
    lp_phase_daemon_config cfg;
    int state;
    int pending;       /* decision for the interval in progress */
    uint64_t interval; /* index of the interval in progress */
    lp_rng rng;        /* random strategy and random policy */
    lp_phase_table table;
    lp_phase_predictor pred;
    int has_pred;
    uint32_t *trace;
    size_t trace_count, trace_cap;
    lp_phase_sample *samples;
    size_t sample_count, sample_cap;
    lp_table phases;     /* key {phase, 0}: v[0] intervals, v[1] live samples */
    lp_table weights;    /* lending, after finish: key {phase, 0}: v[0] intervals it stands for */
    lp_table covered;    /* lending: key {interval, 0}: intervals the front end estimates
                            itself (lp_phase_daemon_cover); v[0] 1: in any phase */
    uint32_t *stands;    /* lending, after finish: the stratum each interval went to */
    lp_phase_sig *isigs; /* refine: every interval's observed signature, in order */
    size_t isig_count, isig_cap;
    lp_phase_sig *ssigs; /* refine: each sample's signature (bits 0: none observed) */
    size_t ssig_cap;
    uint32_t fine_limit; /* refine: the fine threshold in quantisation steps */
    int per_sample;      /* refine, after finish: samples carry their own weights */
    lp_table track_of;   /* refine: key {phase, 0}: v[0] index into tracks */
    lp__phase_track *tracks;
    size_t track_count, track_cap;
    lp_phase_sig observed; /* refine: the signature of the interval about to end */
    int have_observed;
    /* Refine, wide signatures (lp_phase_daemon_observe_wide), quantised to
     * 16 bits: the interval about to end's, the sum over every interval
     * observed so far, and each sample's. */
    uint16_t observed_wide[LP_PHASE_WIDE_BUCKETS];
    int have_wide;
    uint64_t wide_total[LP_PHASE_WIDE_BUCKETS];
    uint64_t wide_count;
    lp__phase_wq *swide;
    size_t swide_cap;
    uint32_t pending_for; /* refine: the phase the pending sample was taken for */
    uint64_t resamples, retired;
};

/* q[i] = bucket[i] over the n buckets' total, quantised to bits bits and
 * rounded to nearest (exact for any 64-bit values); all 0 for an empty
 * accumulator. Returns 1 when it was empty, else 0. Signal-safe. */
int lp__phase_quantise(const uint64_t *bucket, unsigned n, unsigned bits, uint16_t *q);

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

/* Refine, at finish, with every interval's signature and the nearest-
 * signature weights in place: sets every sample's share. 0 or LP_ENOMEM. */
int lp__phase_calibrate(lp_phase_daemon *d);

#endif
