/* lowprof value: a model of the programmable profiling co-processor of
 * Zilles and Sohi (paper 004) and of the self-limiting load-value profiler
 * it runs.
 *
 * The model has the paper's four parts. An instruction filter at decode
 * (opcode classes; a PC filter that compares a hashed PC, masked with a
 * variable-width mask, against a match value, so the program is profiled
 * one region at a time; a small bit table that masks single instructions;
 * a second, larger bit table for instructions already profiled well
 * enough). A bounded sample buffer that the co-processor drains at its own
 * clock rate. The co-processor's slot array (stored PC, active value, hit,
 * miss and total counters, all narrow and saturating) with informational
 * replacement driven by an LFSR. And the main processor's interrupt
 * handler, which copies the slots to a table in memory, decides which
 * instructions are done, re-partitions the program when the slots thrash
 * and un-masks done instructions after a period so values that change are
 * seen again. A final estimation apportions each load's counts among its
 * values. Everything the paper leaves open and lowprof decides is listed
 * in doc/value.md.
 *
 * The engine is programmable in the paper's sense: the same slots and
 * replacement serve edge profiling (lp_value_edge_*), keyed by branch PC
 * with the direction or the indirect target as the "value".
 *
 * Freestanding: core's shim only. A profiler is single-threaded. Pushing
 * samples allocates nothing except inside a modelled interrupt, when the
 * main processor's handler grows its table in memory (lp_malloc); so push
 * is not for signal handlers. */
#ifndef LOWPROF_VALUE_H
#define LOWPROF_VALUE_H

#include "lowprof/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- opcode classes (the opcode filter) ---------------------------------- */

enum {
    LP_VALUE_CLASS_LOAD = 1u << 0,
    LP_VALUE_CLASS_STORE = 1u << 1,
    LP_VALUE_CLASS_COND = 1u << 2,     /* conditional branch */
    LP_VALUE_CLASS_INDIRECT = 1u << 3, /* indirect jump */
    LP_VALUE_CLASS_CALL = 1u << 4,
    LP_VALUE_CLASS_RETURN = 1u << 5,
    LP_VALUE_CLASS_OTHER = 1u << 6,
    LP_VALUE_CLASS_ALL = (1u << 7) - 1,
};

/* ---- options ------------------------------------------------------------- */

/* Every parameter of the model. lp_value_options_default fills the
 * defaults (doc/value.md says which come from the paper and which are
 * lowprof's); the option-string names are given in brackets. */
typedef struct lp_value_options {
    /* the co-processor's arrays */
    uint32_t slots;      /* [slots] entries of the slot array: 256 */
    uint32_t buffer;     /* [buffer] entries of the sample buffer: 64 */
    uint32_t pc_bits;    /* [pc-bits] low PC bits a slot stores: 32 */
    uint32_t value_bits; /* [value-bits] low value bits a slot stores: 32 */
    uint32_t hit_bits;   /* [hit-bits] width of the hit and the miss counter: 8 */
    uint32_t total_bits; /* [total-bits] width of the total counter: 16 */
    uint32_t rand_bits;  /* [rand-bits] replacement draws are in [0, 2^rand_bits - 1]: 8 */
    uint32_t seed;       /* [seed] LFSR seed, nonzero: 1 */
    /* timing */
    double clock;           /* [clock] co-processor clock / main clock: 1.0 */
    double ipc;             /* [ipc] main-processor instructions per cycle: 1.0 */
    uint32_t sample_cycles; /* [sample-cycles] co-processor cycles per sample: 4 */
    /* the instruction filter */
    uint32_t classes;     /* [classes] LP_VALUE_CLASS_* bits: LOAD ("load+cond+...") */
    uint32_t mask_bits;   /* [mask-bits] initial PC-filter mask width: 0 */
    uint32_t match;       /* [match] initial match value, < 2^mask_bits: 0 */
    uint32_t mask_max;    /* [mask-max] widest mask thrash detection may reach: 32 */
    uint32_t ignore_bits; /* [ignore-bits] log2 of the small bit table's size: 10 */
    uint32_t done_bits;   /* [done-bits] log2 of the done table's size: 14 */
    /* the slot algorithm */
    double reselect;       /* [reselect] re-select the active value below this invariance: 0.4 */
    uint32_t reselect_min; /* [reselect-min] hits + misses needed before re-selecting: 8 */
    uint32_t keep_hits;    /* [keep-hits] an active value with this many hits is kept
                              (the slot is switched off) rather than re-selected: 16 */
    uint32_t fail_factor;   /* [fail-factor] interrupt when the failed counter reaches
                               fail_factor * slots: 1 */
    uint32_t thrash_factor; /* [thrash-factor] thrash when replacements since the last
                               interrupt exceed thrash_factor * slots: 2 */
    uint32_t split_max;     /* [split-max] most mask bits one thrash interrupt adds: 3 */
    /* the interrupt handler */
    double high;           /* [high] done when the top value's invariance >= high: 0.8 */
    double low;            /* [low] ... or <= low: 0.2 */
    uint32_t min_profiles; /* [min-profiles] profiles before a confident load is done: 2 */
    uint32_t max_profiles; /* [max-profiles] profiles after which any load is done: 4 */
    uint32_t min_samples;  /* [min-samples] samples before a confident load is done: 64 */
    uint64_t resample;     /* [resample] instructions after which a done load is
                              un-masked, 0 never: 50000000 */
    uint64_t region_idle;  /* [region-idle] filter-class instructions with nothing tagged
                              before the region advances, 0 never: 100000 */
    uint64_t region_max;   /* [region-max] instructions a region may last, 0 no limit:
                              10000000 */
    /* cost model, in main-processor cycles */
    uint32_t interrupt_cycles; /* [interrupt-cycles] fixed part of an interrupt: 500 */
    uint32_t slot_cycles;      /* [slot-cycles] per slot copied to memory, that is per
                                  summarised sample handled in software: 40 */
    uint32_t load_cycles;      /* [load-cycles] final estimation, per static load: 100 */
    /* output */
    uint32_t top; /* [top] values reported per load, 1..LP_VALUE_TOP_MAX: 4 */
} lp_value_options;

/* Fills o with the defaults. */
void lp_value_options_default(lp_value_options *o);

/* Validates o. Returns 0 or LP_EINVAL with *out_field the option-string
 * name of the first offending field and *out_why a static phrase (either
 * may be NULL). Limits: slots and buffer 1..65536; pc-bits and value-bits
 * 1..64; hit-bits 2..16; total-bits hit-bits..32; rand-bits 1..32; seed
 * nonzero; clock in (0, 64]; ipc in (0, 64]; sample-cycles 1..1024;
 * classes nonzero within LP_VALUE_CLASS_ALL; mask-bits <= mask-max <= 32;
 * match < 2^mask-bits; ignore-bits and done-bits 1..24; reselect in [0, 1];
 * reselect-min >= 1; fail-factor and thrash-factor 1..1024; split-max
 * 1..32; 0 <= low <= high <= 1; 1 <= min-profiles <= max-profiles <= 1000;
 * top 1..LP_VALUE_TOP_MAX. */
int lp_value_options_check(const lp_value_options *o, const char **out_field,
                           const char **out_why);

/* Where an option string went wrong. field is the canonical name of the
 * option at fault, or NULL when the name itself is not an option; offset
 * and length delimit the offending text (the name, or the value). */
typedef struct lp_value_parse_error {
    size_t offset;
    size_t length;
    const char *field;
    const char *why;
} lp_value_parse_error;

/* Parses "name=value,name=value,..." (NUL-terminated, no spaces) over the
 * options already in *o (so callers start from lp_value_options_default),
 * then validates the result as lp_value_options_check does. Numbers are
 * decimal; clock, ipc, reselect, high and low may have a fraction
 * ("0.5"); classes is a '+'-separated list of load, store, cond,
 * indirect, call, return, other, all. An empty text changes nothing.
 * Returns 0, LP_ESPEC (unknown name, missing '=', malformed number) or
 * LP_EINVAL (a value out of range, alone or against another field). On
 * error *o may be partly updated and *out_err (may be NULL) says where.
 * Pure; reentrant. */
int lp_value_options_parse(const char *text, lp_value_options *o, lp_value_parse_error *out_err);

/* ---- statistics ---------------------------------------------------------- */

typedef struct lp_value_stats {
    uint64_t instructions;    /* retired instructions seen (pushes and lp_value_retire) */
    uint64_t class_passed;    /* pushes the opcode filter let through */
    uint64_t region_rejected; /* ... that the PC filter's region then rejected */
    uint64_t ignore_rejected; /* ... that the small bit table masked */
    uint64_t done_rejected;   /* ... that the done table masked */
    uint64_t tagged;          /* pushes that passed every filter */
    uint64_t dropped_full;    /* tagged samples lost to a full buffer */
    uint64_t samples;         /* samples the co-processor processed */
    uint64_t hits, misses;    /* samples that matched a slot, by value */
    uint64_t allocations;     /* empty slots filled */
    uint64_t replacements;    /* occupied slots replaced */
    uint64_t failed;          /* samples dropped because replacement failed */
    uint64_t samples_lost;    /* samples counted in slots that were overwritten or
                                 discarded at a thrash interrupt */
    uint64_t reselections;    /* active values re-selected */
    uint64_t halvings;        /* hit/miss pairs halved on saturation */
    uint64_t off_reselect;    /* slots switched off to keep a non-trivial active value */
    uint64_t off_total;       /* slots switched off because the total counter saturated */
    uint64_t alias_pc;        /* samples that matched a slot holding another full PC */
    uint64_t alias_value;     /* hits on a stored value whose full value differed */
    uint64_t interrupts;      /* all interrupts; the kinds follow */
    uint64_t interrupts_failed, interrupts_thrash, interrupts_region, interrupts_resample,
        interrupts_final;
    uint64_t slots_copied;    /* slots copied to memory */
    uint64_t splits;          /* thrash interrupts that widened the mask */
    uint64_t region_advances; /* regions changed by the handler's timers */
    uint64_t masked;          /* loads marked done */
    uint64_t resampled;       /* done loads un-masked for re-sampling */
    uint64_t cycles;          /* modelled main-processor cycles spent on profiling */
    uint64_t coproc_cycles;   /* co-processor cycles its routine spent on samples */
    uint32_t mask_bits;       /* the PC filter now */
    uint32_t match;
    uint32_t buffered;        /* samples waiting in the buffer now */
} lp_value_stats;

/* ---- the profiler -------------------------------------------------------- */

typedef struct lp_value_profiler lp_value_profiler;

/* The PC filter's hash of a stored PC (its low pc_bits): regions are the
 * values of its low mask_bits bits. Public so a caller can aim the filter
 * at one instruction. */
static inline uint32_t lp_value_region_hash(uint64_t stored_pc)
{
    return (uint32_t)lp_hash64(stored_pc);
}

/* Bytes lp_value_init needs for o, or 0 for invalid options. */
size_t lp_value_footprint(const lp_value_options *o);

/* Builds a profiler in caller memory mem of size bytes (at least the
 * footprint, 8-byte aligned); lp_value_free releases only what it
 * allocated later (the handler's table). Returns 0 or LP_EINVAL. */
int lp_value_init(void *mem, size_t size, const lp_value_options *o, lp_value_profiler **out);

/* As lp_value_init in one lp_malloc'd block. 0, LP_EINVAL or LP_ENOMEM;
 * *out is NULL on failure. */
int lp_value_create(const lp_value_options *o, lp_value_profiler **out);

/* Frees what the profiler owns; accepts NULL. */
void lp_value_free(lp_value_profiler *p);

/* One retired instruction of class opclass (one LP_VALUE_CLASS_* bit) at
 * pc, with value its loaded value (or branch target, or whatever the
 * application profiles). The full pc and value serve the aliasing
 * statistics; the model itself sees only their stored low bits. The
 * buffer drains at the co-processor's rate as instructions retire, and the
 * samples it processes may raise interrupts. Returns 0, LP_ENOMEM (from an
 * interrupt's table growth; the profiler then refuses further input with
 * the same code) or LP_EINVAL after lp_value_finish. */
int lp_value_push(lp_value_profiler *p, uint64_t pc, uint64_t value, unsigned opclass);

/* n retired instructions that the filter never sees (not of a profiled
 * kind): time passes, the buffer drains, the handler's timers run. Same
 * returns as lp_value_push. */
int lp_value_retire(lp_value_profiler *p, uint64_t n);

/* One event of lowprof's event stream: first retires the instructions
 * between the profiler's clock and ev->icount, then pushes the event with
 * the class and value its kind gives: a load its value (b), a
 * conditional branch 1 if taken else 0, an indirect branch its target, a
 * call its callee, a return its destination, a store its address. */
int lp_value_push_event(lp_value_profiler *p, const lp_event *ev);

/* Ends the run: the co-processor processes every buffered sample, the
 * slots are copied in a final interrupt, and the final estimation's cost
 * is charged. Call once; later pushes return LP_EINVAL. Returns 0 or
 * LP_ENOMEM. */
int lp_value_finish(lp_value_profiler *p);

/* Copies the statistics so far. */
void lp_value_get_stats(const lp_value_profiler *p, lp_value_stats *out);

/* The main processor's controls of the filter. set_region returns
 * LP_EINVAL for mask_bits > 32 or match >= 2^mask_bits. ignore sets (on)
 * or clears the small table's bit for pc (and so for every PC that hashes
 * to it). is_done reports whether the done table masks pc. */
int lp_value_set_region(lp_value_profiler *p, unsigned mask_bits, uint32_t match);
void lp_value_ignore(lp_value_profiler *p, uint64_t pc, int on);
int lp_value_is_done(const lp_value_profiler *p, uint64_t pc);

/* ---- the filter, tested by the caller ----------------------------------- */

/* A binary translator can test the filter in the code it generates, as the
 * hardware does at decode, and call lp_value_push only for what may pass:
 * instructions of a filtered class that it rejects itself need no call.
 * The registers below are the filter's own, read in place (they change in
 * interrupts and timers, never between two calls into the profiler); the
 * site's constants are fixed per instruction.
 *
 * An instruction at the site passes when (region_hash & *mask) == *match,
 * its ignore bit (bit ignore_index of the table ignore, 64 to a word, the
 * lowest first) is clear, and so is its done bit; its class must also be
 * in classes. */
typedef struct lp_value_regs {
    const uint32_t *mask; /* the region mask, (1 << mask_bits) - 1 */
    const uint32_t *match;
    const uint64_t *ignore; /* the bit tables */
    const uint64_t *done;
    uint32_t classes;
} lp_value_regs;

typedef struct lp_value_site {
    uint32_t region_hash;
    uint32_t ignore_index;
    uint32_t done_index;
} lp_value_site;

void lp_value_get_regs(const lp_value_profiler *p, lp_value_regs *out);
void lp_value_get_site(const lp_value_profiler *p, uint64_t pc, lp_value_site *out);

/* lp_value_push for an instruction whose site the caller keeps (from
 * lp_value_get_site for the same pc): the filter reads the site's
 * constants instead of hashing the PC again. Same returns. */
int lp_value_push_site(lp_value_profiler *p, uint64_t pc, uint64_t value, unsigned opclass,
                       const lp_value_site *site);

/* Instructions of a filtered class that the caller's own test rejected
 * since its last call, by the reason the filter would give (the region
 * test, the small table, the done table): they count in the statistics
 * and toward the region's idle timer as if pushed. Their time passes with
 * lp_value_retire, which runs the timers; so a caller that rejects
 * instructions itself must still call in (lp_value_quiet says when), or an
 * idle region is never left. Returns 0, or the profiler's sticky error. */
int lp_value_account(lp_value_profiler *p, uint64_t region, uint64_t ignored, uint64_t done);

/* Retired instructions within which nothing can change the filter's
 * registers if nothing passes the filter meanwhile: no timer is due and no
 * buffered sample is processed (at least 1). A caller that rejects
 * instructions itself calls in again by then, and the model then runs as
 * if it had seen every instruction. */
uint64_t lp_value_quiet(const lp_value_profiler *p);

/* ---- estimation ---------------------------------------------------------- */

/* One value's summed counters over the regions in which it was a slot's
 * active value. A region opens with the sample that made the value active,
 * counted as its first hit; regions says how many there were, so that
 * sample can be left out when the value's invariance is measured (0: do
 * not correct). */
typedef struct lp_value_counts {
    uint64_t value;
    uint64_t hits;
    uint64_t misses;
    uint64_t regions;
} lp_value_counts;

/* The final estimation for one instruction whose slots saw total samples
 * (the sum of their total counters) and whose values in those slots have
 * the counts v[0..n). est[i] receives value i's estimated samples and
 * *out_other those of values never active; est sums with other to total
 * (or to the sum of hits and misses if that is larger). With inv(i) value
 * i's invariance in its own regions, (hits - regions) / (hits + misses -
 * regions), 0 when no sample follows the selecting ones:
 *  1. value i gets its hits;
 *  2. value i's misses belong to other values; the share the observed
 *     values can explain, min(1, sum_{j != i} inv(j) / (1 - inv(i))), is
 *     divided among them in proportion to their hits, the rest is other;
 *  3. the samples total counted that no hit or miss counter kept are
 *     divided in proportion to inv(i) (scaled down if the inv sum
 *     exceeds 1), the rest is other.
 * est must have room for n. Pure. */
void lp_value_apportion(const lp_value_counts *v, size_t n, uint64_t total, double *est,
                        double *out_other);

/* Confidence in an estimated invariance inv from n samples: 1 minus the
 * half-width of the 95 % Wilson score interval, in [0, 1]; 0 for n = 0.
 * It treats samples as independent draws, which program values are not. */
double lp_value_confidence(double inv, uint64_t n);

#define LP_VALUE_TOP_MAX 16

/* The key lp_value_table uses for the share of values never active. */
#define LP_VALUE_OTHER UINT64_MAX

enum {
    LP_VALUE_LOAD_DONE = 1u << 0,       /* masked in the done table at the end */
    LP_VALUE_LOAD_RESAMPLED = 1u << 1,  /* un-masked at least once */
    LP_VALUE_LOAD_PHASED = 1u << 2,     /* two or more values each near-invariant in
                                           their own regions: long runs of one value
                                           then another (the paper's diagnosis) */
};

typedef struct lp_value_top {
    uint64_t value;      /* stored (low value_bits) */
    double samples;      /* estimated samples with this value */
    double invariance;   /* samples / the load's samples */
    double confidence;   /* lp_value_confidence(invariance, the load's samples) */
    uint64_t hits;       /* counters summed over its active regions */
    uint64_t misses;
} lp_value_top;

typedef struct lp_value_load {
    uint64_t pc;       /* stored (low pc_bits) */
    uint64_t samples;  /* total counters summed over every copied slot */
    uint32_t profiles; /* interrupts that copied it since it was last un-masked */
    uint32_t resamples;
    uint32_t flags;    /* LP_VALUE_LOAD_* */
    uint32_t n_top;    /* entries of top used, at most the option top */
    double other;      /* estimated share of values not in top */
    lp_value_top top[LP_VALUE_TOP_MAX]; /* by descending samples */
} lp_value_load;

/* The estimate for the load at pc (only its low pc_bits count: the table
 * knows stored PCs). Returns 0, LP_ENOENT if no slot of it was ever
 * copied, or LP_ENOMEM. */
int lp_value_estimate_pc(const lp_value_profiler *p, uint64_t pc, lp_value_load *out);

/* Iterates the estimates in the order loads were first copied: start with
 * *cursor = 0; returns 1 with *out filled, 0 at the end, or LP_ENOMEM. */
int lp_value_estimate_next(const lp_value_profiler *p, size_t *cursor, lp_value_load *out);

/* Adds every load's estimate to t as a value profile: key (stored pc,
 * stored value) with v[0] += the estimated samples times scale, rounded,
 * and key (pc, LP_VALUE_OTHER) for the rest, so lp_invariance_error
 * (metrics.h) sees each load's whole count. Every value apportioned is
 * written, not only the top ones. Returns 0 or LP_ENOMEM. */
int lp_value_table(const lp_value_profiler *p, lp_table *t, double scale);

/* ---- the second application: edge profiling ------------------------------ */

/* Turns o into the edge profiler's: the opcode filter takes conditional
 * and indirect branches, so the samples lp_value_push_event gives it carry
 * the direction (1 taken, 0 not) of a conditional branch or the target of
 * an indirect one; the rest of the machinery is unchanged. */
void lp_value_edge_options(lp_value_options *o);

/* A conditional branch's estimated taken share, est(1) / (est(1) +
 * est(0)), and its confidence (lp_value_confidence over those samples).
 * Returns 0, LP_ENOENT (never copied, or no direction estimated) or
 * LP_ENOMEM. out_confidence may be NULL. */
int lp_value_edge_bias(const lp_value_profiler *p, uint64_t pc, double *out_taken,
                       double *out_confidence);

#ifdef __cplusplus
}
#endif
#endif
