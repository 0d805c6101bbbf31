/* value: the module's private structures and the internal functions that
 * connect its files (one part of the co-processor model each). */
#ifndef LOWPROF_VALUE_INTERNAL_H
#define LOWPROF_VALUE_INTERNAL_H

#include "lowprof/value.h"

/* ---- LFSR (lp_value_lfsr.c) ---------------------------------------------- */

/* x^32 + x^22 + x^2 + x + 1 in Galois (right-shifting) form: maximal length,
 * every nonzero state once per 2^32 - 1 steps. */
#define LP__VALUE_LFSR_TAPS 0x80200003u

/* One step; the bit shifted out is the output bit. */
static inline uint32_t lp__value_lfsr_step(uint32_t *state)
{
    uint32_t out = *state & 1u;
    *state >>= 1;
    if (out)
        *state ^= LP__VALUE_LFSR_TAPS;
    return out;
}

/* A number in [0, 2^bits - 1] made of the next bits output bits. */
uint32_t lp__value_lfsr_draw(uint32_t *state, unsigned bits);

/* ---- instruction filter (lp_value_filter.c) ------------------------------ */

typedef struct lp__value_filter {
    uint32_t classes;
    uint32_t mask_bits;
    uint32_t mask;        /* (1 << mask_bits) - 1, as the region test reads it */
    uint32_t match;
    uint32_t ignore_mask; /* table size - 1 */
    uint32_t done_mask;
    uint64_t *ignore;     /* bit tables, one bit per hashed PC */
    uint64_t *done;
} lp__value_filter;

/* Why the filter rejected an instruction, or LP__FILTER_PASS. */
enum {
    LP__FILTER_PASS = 0,
    LP__FILTER_CLASS,
    LP__FILTER_REGION,
    LP__FILTER_IGNORE,
    LP__FILTER_DONE,
};

/* The site constants of a stored PC, and the filter's test on them. */
void lp__value_site_of(const lp__value_filter *f, uint64_t stored_pc, lp_value_site *out);
unsigned lp__value_filter_test_site(const lp__value_filter *f, const lp_value_site *s,
                                    unsigned opclass);
unsigned lp__value_filter_test(const lp__value_filter *f, uint64_t stored_pc, unsigned opclass);
uint32_t lp__value_done_index(const lp__value_filter *f, uint64_t stored_pc);
/* Sets the region's width and its mask with it. */
void lp__value_filter_width(lp__value_filter *f, uint32_t mask_bits);
uint32_t lp__value_ignore_index(const lp__value_filter *f, uint64_t stored_pc);
void lp__value_bit_set(uint64_t *table, uint32_t index, int on);
int lp__value_bit_get(const uint64_t *table, uint32_t index);
/* The next region in bit-reversed order: the mask's top bit changes
 * fastest, so after a split the sub-regions of one region come first. */
uint32_t lp__value_region_next(uint32_t match, unsigned mask_bits);

/* ---- sample buffer (lp_value_buffer.c) ----------------------------------- */

typedef struct lp__value_sample {
    uint64_t pc;    /* full; the slots store the low bits */
    uint64_t value; /* full */
} lp__value_sample;

/* The sample buffer's largest credit, in Q32 samples. */
#define LP__VALUE_CREDIT_CAP ((uint64_t)1 << 62)

typedef struct lp__value_buffer {
    lp__value_sample *e;
    uint32_t cap;
    uint32_t head;
    uint32_t count;
    uint64_t credit; /* samples the co-processor may still process, Q32 */
    uint64_t rate;   /* samples it processes per main-processor instruction, Q32 */
    uint64_t tick_max; /* the most instructions one tick credits in full (no overflow) */
} lp__value_buffer;

#define LP__Q32 ((uint64_t)1 << 32)

/* 1 and the sample queued, or 0 when full. */
int lp__value_buffer_put(lp__value_buffer *b, uint64_t pc, uint64_t value);
/* Pops the head into *out: 1, or 0 when empty. */
int lp__value_buffer_get(lp__value_buffer *b, lp__value_sample *out);
/* Credit for n retired instructions (saturating). */
void lp__value_buffer_tick(lp__value_buffer *b, uint64_t n);
/* 1 when the co-processor may process one more sample now (spending the
 * credit), 0 otherwise. An idle co-processor banks at most one sample: on
 * an empty buffer the credit is capped there. */
int lp__value_buffer_may_process(lp__value_buffer *b);

/* ---- the associative array (lp_value_cam.c) ------------------------------ */

/* Stored PC -> index of the slot that is on for it. Open addressing with
 * linear probing and backward-shift deletion; the co-processor's CAM
 * answers in one lookup, this answers in a few probes. */
typedef struct lp__value_cam {
    uint64_t *key;
    uint32_t *slot; /* UINT32_MAX: empty */
    uint32_t mask;  /* capacity - 1 */
} lp__value_cam;

#define LP__CAM_EMPTY UINT32_MAX

uint32_t lp__value_cam_find(const lp__value_cam *c, uint64_t pc);
void lp__value_cam_insert(lp__value_cam *c, uint64_t pc, uint32_t slot);
void lp__value_cam_remove(lp__value_cam *c, uint64_t pc);
void lp__value_cam_clear(lp__value_cam *c);

/* ---- slots (lp_value_slots.c) -------------------------------------------- */

enum {
    LP__SLOT_EMPTY = 0, /* invalid: never written since the last interrupt */
    LP__SLOT_ON = 1,    /* valid in the associative array: matches samples */
    LP__SLOT_OFF = 2,   /* switched off: keeps its counts for the next copy */
};

typedef struct lp__value_slot {
    uint64_t pc;         /* stored bits */
    uint64_t value;      /* stored bits of the active value */
    uint64_t full_pc;    /* accounting only: the model never reads these */
    uint64_t full_value;
    uint32_t hits;
    uint32_t misses;
    uint32_t total;
    uint32_t state;
} lp__value_slot;

/* The saturation limits and thresholds a slot update needs. */
typedef struct lp__value_limits {
    uint32_t hit_max;      /* 2^hit_bits - 1 */
    uint32_t total_max;    /* 2^total_bits - 1 */
    uint32_t reselect_q16; /* reselect * 65536 */
    uint32_t reselect_min;
    uint32_t keep_hits;
} lp__value_limits;

/* What one sample did to the slot it matched: flags. */
enum {
    LP__UPDATE_HIT = 1u << 0,       /* its value was the active one (else a miss) */
    LP__UPDATE_HALVED = 1u << 1,    /* the hit/miss pair saturated and was halved */
    LP__UPDATE_RESELECT = 1u << 2,  /* the sample's value became the active one */
    LP__UPDATE_OFF_KEEP = 1u << 3,  /* switched off to keep a non-trivial active value */
    LP__UPDATE_OFF_TOTAL = 1u << 4, /* switched off: the total counter saturated */
};

/* The flowchart's matching branch: total, then hit or miss, the halving of
 * a saturated hit or miss counter, re-selection or switching off. A slot
 * switched off is left in state OFF; the caller removes it from the CAM.
 * Returns LP__UPDATE_* flags. */
unsigned lp__value_slot_update(lp__value_slot *s, const lp__value_limits *l, uint64_t value,
                               uint64_t full_value);

/* Writes a fresh slot: active value, hits 1, misses 0, total 1. */
void lp__value_slot_fill(lp__value_slot *s, uint64_t pc, uint64_t value, uint64_t full_pc,
                         uint64_t full_value);

/* Informational replacement of the slot the rotating index points at:
 * 1 when a sample of a new instruction may take it (empty, or on with a
 * total below the draw), 0 when it may not (switched off, or its total is
 * at least the draw). */
int lp__value_slot_replaceable(const lp__value_slot *s, uint32_t draw);

/* ---- the handler's table in memory (lp_value_store.c) -------------------- */

typedef struct lp__value_rec {
    uint64_t pc;          /* stored */
    uint64_t samples;     /* sum of copied total counters */
    uint64_t done_time;   /* instruction count when last masked */
    uint64_t last_irq;    /* serial of the last interrupt that counted a profile */
    uint32_t profiles;
    uint32_t resamples;
    uint32_t done;        /* 1 while the done table masks it */
    uint32_t done_seq;    /* bumps each time it is masked: stale queue entries */
    uint32_t nvals, capvals;
    lp_value_counts *vals;
} lp__value_rec;

typedef struct lp__value_doneq {
    uint32_t rec;
    uint32_t seq;
} lp__value_doneq;

typedef struct lp__value_store {
    lp_table index; /* key (stored pc, 0): v[0] record index */
    lp__value_rec *recs;
    size_t n, cap;
    lp__value_doneq *q; /* records masked, oldest first (ring) */
    size_t qhead, qlen, qcap;
    uint32_t *touched; /* records copied at the interrupt in progress */
    size_t ntouched, captouched;
    double *scratch; /* apportioning */
    size_t capscratch;
} lp__value_store;

int lp__value_store_init(lp__value_store *s);
void lp__value_store_fini(lp__value_store *s);
/* The record for stored pc, created if absent: its index, or -1 for
 * LP_ENOMEM. */
long lp__value_store_rec(lp__value_store *s, uint64_t pc);
const lp__value_rec *lp__value_store_find(const lp__value_store *s, uint64_t pc);
/* Adds one slot's counts to record r: one more region of its active
 * value. 0 or LP_ENOMEM. */
int lp__value_store_add(lp__value_store *s, lp__value_rec *r, uint64_t value, uint64_t hits,
                        uint64_t misses, uint64_t total);
int lp__value_store_queue_push(lp__value_store *s, uint32_t rec, uint32_t seq);
/* Remembers that record rec was copied at the interrupt in progress. 0 or
 * LP_ENOMEM. */
int lp__value_store_touch(lp__value_store *s, uint32_t rec);
/* Scratch room for n doubles, or NULL. */
double *lp__value_store_scratch(lp__value_store *s, size_t n);

/* ---- the profiler -------------------------------------------------------- */

struct lp_value_profiler {
    lp_value_options o;
    void *block; /* lp_malloc'd by create, else NULL */
    uint64_t pc_mask, value_mask;
    lp__value_limits lim;
    uint32_t rand_bits;
    uint32_t fail_limit;
    uint32_t thrash_limit;

    lp__value_filter filter;
    lp__value_buffer buf;
    lp__value_slot *slots;
    lp__value_cam cam;
    uint32_t index;  /* the rotating replacement index */
    uint32_t failed; /* the saturating failed counter */
    uint32_t lfsr;
    uint32_t occupied; /* slots not empty */
    uint64_t epoch_samples;      /* since the last interrupt */
    uint64_t epoch_replacements;

    uint64_t now;          /* retired instructions */
    uint64_t region_start; /* when the region began */
    uint64_t idle;         /* filter-class instructions since the last tagged one */
    uint64_t irq_serial;
    int finished;
    int status;

    lp__value_store store;
    lp_value_stats stats;
};

/* The co-processor: one sample through the flowchart (lp_value_engine.c).
 * 0 or LP_ENOMEM. */
int lp__value_process(lp_value_profiler *p, const lp__value_sample *smp);

/* The main processor's interrupt handler (lp_value_interrupt.c). */
enum {
    LP__IRQ_FAILED = 1,
    LP__IRQ_THRASH,
    LP__IRQ_REGION,
    LP__IRQ_RESAMPLE,
    LP__IRQ_FINAL,
};
int lp__value_interrupt(lp_value_profiler *p, unsigned kind);
/* The handler's timers, run as instructions retire: re-sampling and the
 * region's idle and age limits. 0 or LP_ENOMEM. */
int lp__value_timers(lp_value_profiler *p);

/* Per-record estimation shared by the handler and the public estimates
 * (lp_value_estimate.c): fills *out for record r; scratch holds r->nvals. */
void lp__value_estimate_rec(const lp_value_profiler *p, const lp__value_rec *r, double *scratch,
                            lp_value_load *out);
/* The top value's invariance for the handler's done test. */
double lp__value_top_invariance(const lp__value_rec *r, double *scratch);

#endif
