/* lowprof phase: phase-aware sampling (remote-profiling paper, sections 2.1
 * and 4): the phase tracker that turns branch behaviour into phase IDs, the
 * next-phase predictors, the phase table with its sampled bits, the
 * representative policies, the profiling daemon's sampling decisions and
 * the reconstruction of a whole-program estimate from the sampled intervals.
 *
 * Freestanding: core's types and shim only, no libc, no floating point on
 * the per-branch path, so the Valgrind tool and the native runtime link the
 * same code as the offline evaluation. Nothing here is thread-safe; each
 * object belongs to one thread. See doc/phase.md for the threshold, the
 * compressed signatures and the policies. */
#ifndef LOWPROF_PHASE_H
#define LOWPROF_PHASE_H

#include "lowprof/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- compressed signatures ------------------------------------------------ */

/* An interval's signature as the tracker stores it: each of the
 * LP_SIG_BUCKETS accumulator buckets divided by the interval's total and
 * quantised to `bits` bits, q[i] = round(bucket[i] * (2^bits - 1) / total).
 * A hardware tracker keeps LP_SIG_BUCKETS * bits bits per signature. An
 * interval with no branches has no proportions and is marked empty. */
#define LP_PHASE_MIN_BITS 4
#define LP_PHASE_MAX_BITS 16
#define LP_PHASE_DEFAULT_BITS 6

typedef struct lp_phase_sig {
    uint16_t q[LP_SIG_BUCKETS];
    uint8_t bits;  /* quantisation width, LP_PHASE_MIN_BITS..LP_PHASE_MAX_BITS */
    uint8_t empty; /* 1 for an all-zero accumulator */
} lp_phase_sig;

/* Normalises and quantises sig into *out. bits outside
 * [LP_PHASE_MIN_BITS, LP_PHASE_MAX_BITS] returns LP_EINVAL (out untouched).
 * Pure; signal-safe. */
int lp_phase_sig_compress(const lp_signature *sig, unsigned bits, lp_phase_sig *out);

/* Manhattan distance between two compressed signatures of the same width,
 * in units of one quantisation step: sum over buckets of |a.q - b.q|. The
 * largest possible value is 2 * (2^bits - 1); an empty signature is at that
 * distance from every non-empty one and at 0 from another empty one.
 * Dividing by 2 * (2^bits - 1) gives lp_signature_distance (metrics.h) of
 * the uncompressed signatures to within 16 / (2^bits - 1). Signatures of
 * different widths are incomparable: the result is then UINT32_MAX. */
uint32_t lp_phase_sig_distance(const lp_phase_sig *a, const lp_phase_sig *b);

/* ---- wide signatures ------------------------------------------------------------ */

/* The signature accumulator kept LP_PHASE_WIDE_BUCKETS wide, for the refine
 * policy's calibration (lp_phase_daemon_observe_wide). A branch's wide
 * bucket is the top LP_PHASE_WIDE_BITS bits of the same hash whose top
 * five bits pick its lp_signature bucket, so lp_phase_wide_fold gives the
 * narrow accumulator exactly, and a front end that keeps the wide one
 * needs no other: the per-branch work is the same single add. */
#define LP_PHASE_WIDE_BITS 7
#define LP_PHASE_WIDE_BUCKETS (1u << LP_PHASE_WIDE_BITS)

typedef struct lp_phase_wide {
    uint64_t bucket[LP_PHASE_WIDE_BUCKETS];
} lp_phase_wide;

static inline unsigned lp_phase_wide_bucket(uint64_t branch_pc)
{
    return (unsigned)(lp_hash64(branch_pc) >> (64 - LP_PHASE_WIDE_BITS));
}

static inline void lp_phase_wide_add(lp_phase_wide *w, uint64_t branch_pc, uint64_t insns)
{
    w->bucket[lp_phase_wide_bucket(branch_pc)] += insns;
}

/* *out = w folded to LP_SIG_BUCKETS buckets (what lp_signature_add would
 * have accumulated from the same branches). Pure; signal-safe. */
void lp_phase_wide_fold(const lp_phase_wide *w, lp_signature *out);

/* ---- phase tracker ---------------------------------------------------------- */

#define LP_PHASE_DEFAULT_THRESHOLD 0.1
#define LP_PHASE_DEFAULT_HISTORY 32

/* Tracker parameters. Zero fields take the defaults above, so a zeroed
 * config is the default tracker. threshold is a fraction in (0, 1] of the
 * largest distance between two signatures (the scale of
 * lp_signature_distance); an interval joins the nearest remembered phase
 * whose compressed distance is at most threshold * 2 * (2^bits - 1),
 * rounded down. A threshold of exactly 0 cannot be asked for (it means the
 * default); use a tiny positive one to split every distinct signature. */
typedef struct lp_phase_tracker_config {
    double threshold;
    unsigned bits;  /* bits per bucket in stored signatures */
    size_t history; /* signatures remembered (one per phase); oldest use is replaced */
    /* For weights that are counts of independent samples (the native
     * runtime's PC samples, one per timer tick): an interval also joins the
     * nearest phase when their distance is within noise times the distance
     * two samples of that many draws from one distribution are expected to
     * lie apart (doc/phase.md, "Sampled signatures"). 0: the threshold
     * alone, as the paper's tracker, whose weights are instructions. */
    double noise;
} lp_phase_tracker_config;

typedef struct lp_phase_history_entry {
    lp_phase_sig sig; /* the signature of the phase's first interval */
    uint64_t weight;  /* ... and its total weight (samples, under noise) */
    uint32_t phase;
    uint64_t last_use; /* classification count when it last matched */
} lp_phase_history_entry;

/* The tracker. Fields are public only so it can live in caller memory and
 * the per-branch call can be inline; treat them as private. */
typedef struct lp_phase_tracker {
    lp_signature acc; /* the accumulator of the interval in progress */
    lp_phase_history_entry *history;
    size_t history_cap;
    size_t history_count;
    uint32_t limit; /* threshold in quantisation steps */
    double noise;   /* lp_phase_tracker_config.noise */
    unsigned bits;
    uint32_t next_phase;   /* the ID the next new phase receives */
    uint64_t classified;   /* intervals classified so far */
    uint64_t evictions;    /* history entries replaced */
    uint32_t last_phase;   /* phase of the last classified interval, or LP_PHASE_NONE */
    uint32_t last_distance; /* distance to the matched (or nearest) entry; UINT32_MAX if none */
} lp_phase_tracker;

/* Initialises t in caller memory (cfg may be NULL for the defaults):
 * allocates the history once, so classification never allocates. Returns 0,
 * LP_EINVAL for a threshold outside [0, 1] or bits out of range, or
 * LP_ENOMEM. */
int lp_phase_tracker_init(lp_phase_tracker *t, const lp_phase_tracker_config *cfg);
/* Frees the history; accepts NULL. */
void lp_phase_tracker_fini(lp_phase_tracker *t);
int lp_phase_tracker_create(const lp_phase_tracker_config *cfg, lp_phase_tracker **out);
void lp_phase_tracker_free(lp_phase_tracker *t);

/* Feeds one executed branch: its pc and the instructions since the previous
 * branch. The per-branch hot path; signal-safe. */
static inline void lp_phase_tracker_branch(lp_phase_tracker *t, uint64_t pc, uint64_t insns)
{
    lp_signature_add(&t->acc, pc, insns);
}

/* Ends the interval in progress: classifies the accumulated signature (as
 * lp_phase_tracker_classify), clears the accumulator, and returns the
 * interval's phase ID. Never allocates; signal-safe. */
uint32_t lp_phase_tracker_end_interval(lp_phase_tracker *t);
/* The signature of the interval in progress (what end_interval classifies):
 * for lp_phase_daemon_observe, before the interval ends. */
static inline const lp_signature *lp_phase_tracker_current(const lp_phase_tracker *t)
{
    return &t->acc;
}

/* Classifies one interval's signature, for offline use on the stored
 * signatures of an interval matrix: compresses it, finds the remembered
 * phase at the smallest distance (the earliest-created one on ties) and
 * returns its ID if that distance is within the threshold; otherwise
 * creates a new phase (IDs count up from 0), remembering its signature in
 * place of the least recently matched one when the history is full. A
 * phase whose signature was forgotten gets a new ID when it recurs. The
 * accumulator is untouched. Never allocates. */
uint32_t lp_phase_tracker_classify(lp_phase_tracker *t, const lp_signature *sig);

/* Phases created so far (the next new ID). */
static inline uint32_t lp_phase_tracker_phases(const lp_phase_tracker *t)
{
    return t->next_phase;
}

/* ---- next-phase predictors ---------------------------------------------------- */

typedef enum lp_phase_predictor_kind {
    LP_PREDICT_LAST = 1,       /* the next interval is in the current one's phase */
    LP_PREDICT_MARKOV = 2,     /* the successor last seen after the current phase */
    LP_PREDICT_RUN_LENGTH = 3, /* the successor last seen after the current phase
                                  had run this many intervals (Sherwood et al. 2003) */
} lp_phase_predictor_kind;

/* Markov and run-length fall back to the last phase when they have seen no
 * successor for the current state. */
typedef struct lp_phase_predictor {
    unsigned kind;
    uint32_t current;     /* last actual phase, LP_PHASE_NONE before the first */
    uint64_t run;         /* consecutive intervals of `current` so far */
    uint32_t prediction;  /* what predict() returns now */
    size_t max_states;    /* bound on remembered transitions */
    lp_table transitions; /* key {state, run or 0}: v[0] = successor */
    uint64_t predictions; /* updates that had a prediction to check */
    uint64_t correct;     /* ... of which the prediction was right */
} lp_phase_predictor;

#define LP_PHASE_DEFAULT_PREDICTOR_STATES 4096
/* Runs longer than this share one run-length state. */
#define LP_PHASE_MAX_RUN 65535

/* Initialises p in caller memory. max_states bounds the transitions kept
 * (0: LP_PHASE_DEFAULT_PREDICTOR_STATES); once reached, new states are not
 * learnt (and those predictions fall back to the last phase). Returns 0 or
 * LP_EINVAL for an unknown kind. */
int lp_phase_predictor_init(lp_phase_predictor *p, unsigned kind, size_t max_states);
void lp_phase_predictor_fini(lp_phase_predictor *p); /* accepts NULL */

/* The predicted phase of the next interval; LP_PHASE_NONE before the first
 * update. */
static inline uint32_t lp_phase_predictor_predict(const lp_phase_predictor *p)
{
    return p->prediction;
}

/* Tells the predictor the actual phase of the interval that just ended:
 * scores the standing prediction (if any) against it, learns the
 * transition, and prepares the next prediction. Returns 0 or LP_ENOMEM
 * (the predictor stays usable; that transition is not learnt). Allocates
 * when the transition table grows, so not signal-safe. */
int lp_phase_predictor_update(lp_phase_predictor *p, uint32_t actual);

/* ---- phase table ------------------------------------------------------------- */

#define LP_PHASE_DEFAULT_TABLE 20

/* The small fully associative table of section 4: per tracked phase, a
 * sampled bit and how many intervals of it were seen while it was in the
 * table. When full, a miss replaces an entry chosen uniformly at random
 * (one lp_rng_below(rng, capacity) draw per replacement, on the slot
 * index), so a run is reproducible from the seed. */
typedef struct lp_phase_table_entry {
    uint32_t phase;
    uint8_t sampled;
    uint64_t seen;
} lp_phase_table_entry;

typedef struct lp_phase_table {
    lp_phase_table_entry *slots; /* capacity entries, the first count in use */
    uint32_t *index;             /* open-addressing index: slot + 1, 0 empty */
    size_t capacity;
    size_t count;
    size_t index_mask;
    lp_rng rng;
    uint64_t lookups, misses, evictions;
} lp_phase_table;

/* Initialises t in caller memory with capacity entries (0: the default 20)
 * and the replacement generator seeded with seed. Returns 0, LP_EINVAL (a
 * capacity of UINT32_MAX / 4 or more) or LP_ENOMEM. */
int lp_phase_table_init(lp_phase_table *t, size_t capacity, uint64_t seed);
void lp_phase_table_fini(lp_phase_table *t); /* accepts NULL */

/* The entry for phase, or NULL. Does not count as an access. */
lp_phase_table_entry *lp_phase_table_find(const lp_phase_table *t, uint32_t phase);

/* One access: returns the entry for phase, inserting it (sampled 0, seen 0)
 * on a miss and replacing a random entry when the table is full. Sets
 * *out_hit (may be NULL) to 1 on a hit. Counts lookups, misses and
 * evictions. Never allocates. The pointer is valid until the next access. */
lp_phase_table_entry *lp_phase_table_access(lp_phase_table *t, uint32_t phase, int *out_hit);

/* ---- representative policies and the profiling daemon ---------------------------- */

typedef enum lp_phase_strategy {
    LP_STRATEGY_EXHAUSTIVE = 1, /* every interval */
    LP_STRATEGY_PERIODIC = 2,   /* interval i when i mod period == offset */
    LP_STRATEGY_RANDOM = 3,     /* each interval with probability 1 / period */
    LP_STRATEGY_PHASE = 4,      /* one representative per phase */
} lp_phase_strategy;

typedef enum lp_phase_policy {
    LP_POLICY_KTH = 1,      /* the k-th interval of the phase (k = 1: first); online */
    LP_POLICY_RANDOM = 2,   /* a uniformly random interval of the phase; offline only */
    LP_POLICY_CENTROID = 3, /* the interval nearest the phase's mean; offline only */
    LP_POLICY_REFINE = 4,   /* a new phase's first interval at once; more where the
                               phase strays from its samples, up to a cap; each sample
                               stands for the intervals nearest it; online */
} lp_phase_policy;

/* Where the phase-aware daemon gets the next interval's phase. */
#define LP_PREDICT_ORACLE 0 /* the caller passes the true next phase */

#define LP_PHASE_DEFAULT_K 3
#define LP_PHASE_DEFAULT_CENTROID_BITS 16
/* The refine policy's defaults, chosen on the workload suite
 * (doc/eval-phase.md): no stand-ins, at most four more samples a phase, a
 * fine threshold of 0.5 (with calibrated weights, only an interval unlike
 * anything its phase showed is worth another sample), and calibration
 * pulled toward the nearest-signature weights with a ridge of 0.3. */
#define LP_PHASE_DEFAULT_REFINE_K 1
#define LP_PHASE_DEFAULT_RESAMPLES 4
#define LP_PHASE_DEFAULT_FINE_THRESHOLD 0.5
#define LP_PHASE_DEFAULT_RIDGE 0.3
/* ... and with wide signatures a ridge of 0.01: 128 buckets leave far fewer
 * directions to the ridge (doc/eval-phase.md). */
#define LP_PHASE_DEFAULT_WIDE_RIDGE 0.01
/* A sample's share of the estimate is in units of 1/LP_PHASE_SHARE_ONE
 * interval. */
#define LP_PHASE_SHARE_ONE 65536

typedef struct lp_phase_daemon_config {
    unsigned strategy;   /* lp_phase_strategy */
    uint64_t period;     /* periodic N, random P (>= 1) */
    uint64_t offset;     /* periodic: sample i with i mod N == offset (< N) */
    uint64_t seed;       /* seeds the random strategy's, the random policy's and the
                            phase table's lp_rng (each used alone) */
    /* phase-aware only: */
    unsigned policy;        /* lp_phase_policy; 0: LP_POLICY_KTH */
    uint64_t k;             /* LP_POLICY_KTH: the interval sampled (0: LP_PHASE_DEFAULT_K);
                               LP_POLICY_REFINE: samples before the phase's k-th interval
                               are stand-ins (0: LP_PHASE_DEFAULT_REFINE_K) */
    size_t table_size;      /* phase table entries; 0: LP_PHASE_DEFAULT_TABLE */
    unsigned predictor;     /* LP_PREDICT_ORACLE or an lp_phase_predictor_kind */
    unsigned centroid_bits; /* quantisation for the centroid policy; 0: 16 */
    /* LP_POLICY_REFINE: how many samples a phase may take after its first
     * (0: LP_PHASE_DEFAULT_RESAMPLES), and the fine threshold (same scale
     * as the tracker's; 0: LP_PHASE_DEFAULT_FINE_THRESHOLD): a phase is
     * sampled again when its latest interval lies farther than this from
     * every sample it has (signatures observed, see
     * lp_phase_daemon_observe). */
    uint64_t max_resamples;
    double fine_threshold;
    /* LP_POLICY_REFINE with signatures: the weights are calibrated so that
     * the samples' weighted signatures add up to the whole run's
     * (phase_calibrate.c), pulled toward the nearest-signature weights by
     * ridge times the samples' mean squared signature. 0:
     * LP_PHASE_DEFAULT_RIDGE; negative: no calibration, the nearest-
     * signature weights as they are. */
    double ridge;
    /* The same for the fit on wide signatures (lp_phase_daemon_observe_wide):
     * 0: LP_PHASE_DEFAULT_WIDE_RIDGE; negative: no calibration. */
    double wide_ridge;
    /* LP_POLICY_KTH: 1 lends each interval of a phase that never got a
     * sample to the phase of the nearest interval before it (else after
     * it) that has one, as refine does without signatures, so that the
     * estimate keeps the whole run's weight; 0 (the paper's): such
     * intervals contribute nothing. */
    int lend;
} lp_phase_daemon_config;

/* One sampled interval, tagged with the actual phase it turned out to be in
 * (LP_PHASE_NONE when the caller gave none). stratum is the group its
 * profile stands for in the reconstruction: the phase under the phase-aware
 * strategy, 0 under the others. retired is 1 for a stand-in that a later,
 * steadier sample of its phase replaced (refine policy): it was profiled
 * (it counts in the cost) but takes no part in the estimate. */
typedef struct lp_phase_sample {
    uint64_t interval;
    uint32_t phase;
    uint32_t stratum;
    uint8_t retired;
    uint64_t weight; /* refine with signatures, after finish: the intervals whose
                        signature is nearest this sample's; 0 otherwise */
    uint64_t share;  /* refine with signatures, after finish: what the sample
                        stands for in the estimate, in 1/LP_PHASE_SHARE_ONE
                        intervals (its calibrated weight, or weight unscaled
                        when ridge < 0); 0 otherwise */
} lp_phase_sample;

typedef struct lp_phase_daemon lp_phase_daemon;

/* Creates a daemon. Returns 0, LP_EINVAL for an inconsistent config (unknown
 * strategy, policy or predictor, period 0, offset >= period, centroid_bits
 * out of range), or LP_ENOMEM. */
int lp_phase_daemon_create(const lp_phase_daemon_config *cfg, lp_phase_daemon **out);
void lp_phase_daemon_free(lp_phase_daemon *d); /* accepts NULL */

/* Online stepping, the order a front end sees it:
 *   start(d, hint0)             decides interval 0
 *   boundary(d, phase_i, hint)  interval i ended in phase_i; decides i + 1
 *   finish(d, phase_last)       the last interval ended; no more decisions
 * The decision is stored in *out_sample (1: set the sampling flag for the
 * next interval). hint is the next interval's true phase under
 * LP_PREDICT_ORACLE and is ignored when the daemon has its own predictor.
 * Phases may be LP_PHASE_NONE for the strategies that ignore them. Only the
 * online-capable configurations step: the offline-only policies (random,
 * centroid) return LP_EINVAL here and work through lp_phase_daemon_run.
 * Returns 0, LP_EINVAL when called out of order, or LP_ENOMEM (trace
 * growth). */
int lp_phase_daemon_start(lp_phase_daemon *d, uint32_t hint, int *out_sample);
int lp_phase_daemon_boundary(lp_phase_daemon *d, uint32_t ended_phase, uint32_t hint,
                             int *out_sample);
int lp_phase_daemon_finish(lp_phase_daemon *d, uint32_t ended_phase);

/* Refine policy: gives the signature of the interval now ending, before
 * the boundary or finish call that reports its phase, so the daemon can
 * track each phase's running centroid and keep the sample nearest it. A
 * front end that never calls it gets the policy's plain form (the first
 * interval, replaced by the k-th). No effect under the other policies.
 * Returns 0. Does not allocate; signal-safe. */
int lp_phase_daemon_observe(lp_phase_daemon *d, const lp_signature *sig);

/* Refine policy: gives the wide signature of the interval now ending, at the
 * same moment as lp_phase_daemon_observe. When every interval had one, the
 * calibration fits the samples' weights on LP_PHASE_WIDE_BUCKETS buckets
 * instead of LP_SIG_BUCKETS: the whole run's wide signature is a sum the
 * daemon keeps as it goes, each sample's is kept with it, and four times
 * the buckets tell apart samples that 32 cannot (doc/eval-phase.md).
 * Phases, distances and the nearest-signature weights stay on the narrow
 * signature. No effect under the other policies. Returns 0. Does not
 * allocate; signal-safe. */
int lp_phase_daemon_observe_wide(lp_phase_daemon *d, const lp_phase_wide *w);

/* Offline: the whole sequence of n interval phases is known. Online-capable
 * configurations step through it exactly as start, boundary and finish
 * would (oracle hints taken from the sequence itself), so an offline run
 * reproduces the online decisions. The offline-only policies then pick one
 * representative per phase: random draws one of the phase's intervals
 * uniformly (lp_rng seeded with the config's seed, phases in order of first
 * appearance); centroid takes the interval whose compressed signature
 * (centroid_bits wide) is nearest, in Manhattan distance, to the mean of
 * the phase's compressed signatures, the earliest on ties. sigs holds the n
 * intervals' signatures and is needed only by centroid (NULL otherwise).
 * The daemon must be fresh. Returns 0, LP_EINVAL or LP_ENOMEM. */
int lp_phase_daemon_run(lp_phase_daemon *d, const uint32_t *phases, const lp_signature *sigs,
                        size_t n);
/* The same, also observing wides[i] (n wide signatures; NULL: none) for
 * the refine policy's calibration. */
int lp_phase_daemon_run_wide(lp_phase_daemon *d, const uint32_t *phases, const lp_signature *sigs,
                             const lp_phase_wide *wides, size_t n);

/* The sampled intervals, in interval order; *out_count gets how many. Valid
 * until the daemon is freed. Complete after finish. */
const lp_phase_sample *lp_phase_daemon_samples(const lp_phase_daemon *d, size_t *out_count);
/* The phase of every interval so far, in order (the phase-ID trace). */
const uint32_t *lp_phase_daemon_trace(const lp_phase_daemon *d, size_t *out_count);

typedef struct lp_phase_daemon_stats {
    uint64_t intervals;       /* intervals ended */
    uint64_t sampled;         /* intervals sampled */
    uint64_t phases;          /* distinct phases in the trace */
    uint64_t resamples;       /* samples of a phase that already had one */
    uint64_t retired;         /* samples replaced by a later one (refine) */
    uint64_t unrepresented;   /* intervals whose stratum has no sample (under refine
                                 and lend, lent to another stratum, see below) */
    uint64_t table_misses;    /* phase table misses (phase-aware) */
    uint64_t table_evictions; /* ... that replaced an entry */
    uint64_t predictions;     /* own predictor: predictions checked */
    uint64_t correct;         /* ... of which right */
} lp_phase_daemon_stats;

void lp_phase_daemon_get_stats(const lp_phase_daemon *d, lp_phase_daemon_stats *out);

/* How many intervals a stratum stands for and how many live (not retired)
 * samples it has (both 0 for a stratum never seen). Complete after finish.
 * Under the refine policy, and the k-th with lend, a stratum also stands
 * for the intervals lent to it: an interval whose own phase has no sample
 * is lent to the phase of the nearest interval before it (else after it)
 * whose phase has one (refine with signatures: to the phase of the sample
 * nearest its signature), so the estimate keeps the whole run's weight
 * instead of dropping those intervals; it does not count the ones the
 * front end covered in any phase (lp_phase_daemon_cover). */
void lp_phase_daemon_stratum(const lp_phase_daemon *d, uint32_t stratum,
                             uint64_t *out_intervals, uint64_t *out_sampled);

/* The k-th policy with lend: the front end estimates the interval in
 * progress by other means (the native runtime's scout windows). If its
 * phase gets no sample it is not lent to a neighbour: it stands for itself
 * and counts in no stratum. With any, it does so also where its phase gets
 * a sample (the front end trusts its estimate's composition and size);
 * without, it then counts in its phase as its other intervals do. Call
 * before the boundary or finish that ends it. Returns 0, LP_EINVAL
 * outside a run, or LP_ENOMEM. */
int lp_phase_daemon_cover(lp_phase_daemon *d, int any);

/* The daemon's own predictor's phase for the interval in progress (the
 * one the last start or boundary decided); LP_PHASE_NONE when nothing is
 * predicted, under the oracle, or outside a run. */
uint32_t lp_phase_daemon_predicted(const lp_phase_daemon *d);

/* The stratum that stands for interval i in the estimate: after finish,
 * the one it was lent to as lp_phase_daemon_stratum counts it; before, or
 * with nothing lent, its own phase (the trace's entry). LP_PHASE_NONE for
 * an interval past the trace, and after finish for one that stands for
 * itself (lp_phase_daemon_cover). */
uint32_t lp_phase_daemon_stands_for(const lp_phase_daemon *d, size_t i);

/* ---- reconstruction ------------------------------------------------------------ */

/* Adds round(v * num / den) of every counter of src to the same key in out
 * (v[0] and v[1] alike), rounding halves up, in exact 128-bit arithmetic.
 * Counts that would pass 2^64 - 1 saturate. den must not be 0 (LP_EINVAL).
 * Returns 0, LP_EINVAL or LP_ENOMEM. */
int lp_phase_scale_add(lp_table *out, const lp_table *src, uint64_t num, uint64_t den);

/* The whole-program estimate: tables[j] is the profile (one type) of the
 * daemon's j-th sample, count the number of samples (retired ones
 * included; their tables are ignored and may be NULL). For each stratum the
 * live sampled tables are summed, then scaled by the stratum's intervals over
 * its samples (one rounding per counter, lp_phase_scale_add), and added
 * into out. So when every interval of a phase has the same profile the
 * estimate is exact, and exhaustive sampling gives the exact total.
 * Strata without a sample contribute nothing (see the unrepresented stat),
 * unless their intervals were lent (lp_phase_daemon_stratum).
 * Returns 0, LP_EINVAL (count differs from the daemon's samples) or
 * LP_ENOMEM. */
int lp_phase_reconstruct(const lp_phase_daemon *d, const lp_table *const *tables, size_t count,
                         lp_table *out);

#ifdef __cplusplus
}
#endif
#endif
