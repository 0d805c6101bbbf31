/* lowprof flags: profile flags and the profile flag predictor model.
 *
 * Paper 002 (profile flags and selective dispatch) proposes a profile flag
 * that makes the processor drop annotated profile instructions at decode, the
 * control instructions setpf, resetpf, pushpf and poppf (section III), n flags
 * in a profile flag register, one per profile type (section V), and a
 * predictor that lets fetch skip whole blocks of profile instructions while
 * their flag is off (section IV).
 *
 * lowprof makes the flag register real software: lp_pf_state is one thread's
 * profile flag word, which the native runtime keeps per thread and touches
 * from instrumentation hooks and from signal handlers. Everything in this
 * part is static inline, allocation-free and async-signal-safe.
 *
 * Freestanding: only <stddef.h>, <stdint.h> and core's shim. */
#ifndef LOWPROF_FLAGS_H
#define LOWPROF_FLAGS_H

#include <stddef.h>
#include <stdint.h>

#include "lowprof/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the profile flag word (paper 002, sections III and V) -------------- */

/* Number of profile types one word carries, one bit each (section V's "n
 * profile flags"); types at or beyond it are ignored by every operation. */
#define LP_PF_MAX_TYPES 32
/* Saved words pushpf can hold before it starts counting overflow. */
#define LP_PF_STACK_DEPTH 64

/* One thread's profile flags. flags: bit t is profile type t's flag (1 = on,
 * profile instructions of that type execute). stack[0..depth) holds saved
 * words, the newest at depth - 1. overflow counts pushes made while the stack
 * was full; their matching pops only decrement it and leave the word as it
 * is, so the words those pushes saw are lost and the next word restored is
 * the deepest saved one (stack[LP_PF_STACK_DEPTH - 1]). Plain data:
 * zero-filled is a valid state with every flag off; copying copies it all. */
typedef struct lp_pf_state {
    uint32_t flags;
    uint32_t depth;
    uint32_t overflow;
    uint32_t stack[LP_PF_STACK_DEPTH];
} lp_pf_state;

/* Sets the word to initial with an empty stack. s must not be NULL (as for
 * every lp_pf_* function). The lp_pf_* functions never allocate, take no
 * locks and are async-signal-safe; a state is owned by one thread, and a
 * signal handler that changes it should leave it as it found it (push ... pop)
 * if it may interrupt that thread's own update. */
static inline void lp_pf_init(lp_pf_state *s, uint32_t initial)
{
    s->flags = initial;
    s->depth = 0;
    s->overflow = 0;
}

/* setpf: turns type's flag on. */
static inline void lp_pf_set(lp_pf_state *s, unsigned type)
{
    if (type < LP_PF_MAX_TYPES)
        s->flags |= (uint32_t)1 << type;
}

/* resetpf: turns type's flag off. */
static inline void lp_pf_reset(lp_pf_state *s, unsigned type)
{
    if (type < LP_PF_MAX_TYPES)
        s->flags &= ~((uint32_t)1 << type);
}

/* Returns 1 if type's flag is on, 0 if it is off or type is out of range. */
static inline int lp_pf_get(const lp_pf_state *s, unsigned type)
{
    return type < LP_PF_MAX_TYPES ? (int)((s->flags >> type) & 1u) : 0;
}

/* pushpf: saves the whole word (every type's flag), as at a method entry so
 * that the callee's setpf/resetpf do not leak into the caller. Beyond
 * LP_PF_STACK_DEPTH saved words the push only counts in overflow. */
static inline void lp_pf_push(lp_pf_state *s)
{
    if (s->depth < LP_PF_STACK_DEPTH)
        s->stack[s->depth++] = s->flags;
    else
        s->overflow++;
}

/* poppf: restores the most recently saved word. A pop matching an
 * overflowing push only decrements overflow (the word it saw was never
 * saved); a pop with nothing saved changes nothing. */
static inline void lp_pf_pop(lp_pf_state *s)
{
    if (s->overflow > 0) {
        s->overflow--;
    } else if (s->depth > 0) {
        s->flags = s->stack[--s->depth];
    }
}

/* ---- the profile flag predictor (paper 002, section IV) ------------------ */

/* A model of the block descriptor table that lets fetch skip a block of
 * profile instructions its flag will make decode drop. A profile block is a
 * run of profile instructions that lie together in static code: its leader
 * (first instruction) and its follow (the instruction after it) define it.
 * The table is set associative, indexed by low bits of the leader's
 * address, each entry holding the tag (here the whole leader address), the
 * follow, a prediction bit (the flag the block will see) and a lock bit,
 * with LRU replacement within a set. The rules, applied per block instance:
 *
 *   fetch:  the leader's entry, if present, unlocked and predicting "reset",
 *           redirects fetch to the follow (a skip) when the block is at
 *           least min_skip instructions long; the leader itself is always
 *           fetched and decoded.
 *   decode: no entry: one is created only if the flag is off (locked,
 *           predicting reset, follow learned from the rest of the block);
 *           an entry: seeing its leader again unlocks it; the prediction
 *           bit becomes the flag the block saw.
 *   a skip whose flag turns out on is a misprediction: decode sees the
 *           leader with the flag on and refetches the block.
 *
 * The paper finds the leader with a leader address register at decode; here
 * the caller cuts the instruction stream into blocks and reports each
 * instance, so one call does the fetch lookup and then the decode updates of
 * all the block's instructions (the follow is then known at creation; the
 * paper's "follow updated while locked" is the learning inside that first
 * instance). Section V's n flags need nothing more: a block belongs to one
 * profile type and the caller passes that type's flag (lp_pf_get).
 *
 * Freestanding, no allocation on the per-block path, not thread-safe (one
 * predictor per simulated fetch stream). Tuned for: replaying millions of
 * block instances from a trace; a lookup scans one set's ways. */

#define LP_PFPRED_DEFAULT_SETS 64    /* the paper's choice: 64 sets ... */
#define LP_PFPRED_DEFAULT_WAYS 2     /* ... of 2 ways, about 1 KB */
#define LP_PFPRED_DEFAULT_MIN_SKIP 4 /* the paper: skipping pays from 4 */
#define LP_PFPRED_MAX_WAYS 16
#define LP_PFPRED_MAX_ENTRIES 4096 /* sets * ways */

/* Predictor parameters. Zero fields take the defaults, so a zeroed config is
 * the paper's predictor. sets: a power of two; ways: at most
 * LP_PFPRED_MAX_WAYS; sets * ways at most LP_PFPRED_MAX_ENTRIES. min_skip:
 * the shortest block (in instructions, leader included) that fetch skips; 1
 * skips every block. index_shift: low address bits dropped before indexing
 * (0 for x86's byte-aligned code, 2 for a fixed 4-byte encoding). */
typedef struct lp_pfpred_config {
    unsigned sets;
    unsigned ways;
    unsigned min_skip;
    unsigned index_shift;
} lp_pfpred_config;

/* One block descriptor. valid = 0 marks an empty way. length is the
 * block's instruction count, learned with the follow. lru: the predictor's
 * access stamp when the entry was last used (larger is more recent). */
typedef struct lp_pfpred_entry {
    uint64_t leader;
    uint64_t follow;
    uint64_t lru;
    uint32_t length;
    uint8_t valid;
    uint8_t predict_on; /* the prediction bit: 1 = the flag will be set */
    uint8_t locked;     /* the lock bit: 1 = not yet readable at fetch */
    uint8_t pad_;
} lp_pfpred_entry;

/* Counts over every block instance given to lp_pfpred_block. */
typedef struct lp_pfpred_stats {
    uint64_t blocks;             /* block instances */
    uint64_t blocks_off;         /* of them, instances that saw the flag off */
    uint64_t insns;              /* their profile instructions (sum of lengths) */
    uint64_t predictions;        /* instances whose leader found an unlocked entry */
    uint64_t correct;            /* predictions equal to the flag the block saw */
    uint64_t skips;              /* predictions of "reset" that redirected fetch */
    uint64_t mispredicted_skips; /* skips of blocks that saw the flag on */
    uint64_t short_blocks;       /* predictions of "reset" not acted on: < min_skip */
    uint64_t insns_saved;        /* fetches avoided: length - 1 per correct skip */
    uint64_t creations;          /* entries created */
    uint64_t evictions;          /* valid entries replaced by a creation */
} lp_pfpred_stats;

/* The predictor. Plain data the caller may place anywhere (it is about
 * 130 KB: static or heap rather than a small stack); read config and stats,
 * change nothing directly. */
typedef struct lp_pfpred {
    lp_pfpred_config config;
    uint64_t clock; /* access stamp source for lru */
    lp_pfpred_stats stats;
    lp_pfpred_entry table[LP_PFPRED_MAX_ENTRIES]; /* set s is table[s*ways ..] */
} lp_pfpred;

/* What one block instance did at fetch (lp_pfpred_block's result). */
typedef enum lp_pfpred_outcome {
    LP_PFPRED_NO_ENTRY = 0,  /* no entry, or a locked one: fetched, no prediction */
    LP_PFPRED_FETCHED = 1,   /* predicted set: fetched */
    LP_PFPRED_SHORT = 2,     /* predicted reset, shorter than min_skip: fetched */
    LP_PFPRED_SKIPPED = 3,   /* predicted reset and skipped; the flag was off */
    LP_PFPRED_MISSKIPPED = 4 /* predicted reset and skipped; the flag was on, so
                                the block was refetched */
} lp_pfpred_outcome;

/* Empties the table and the counters of p under config (NULL: defaults).
 * Returns 0, or LP_EINVAL for a config out of range (p then untouched).
 * p must not be NULL. */
int lp_pfpred_init(lp_pfpred *p, const lp_pfpred_config *config);

/* Heap form: allocates (lp_malloc) and initialises a predictor. Returns 0,
 * LP_EINVAL as lp_pfpred_init, or LP_ENOMEM; *out is set only on success. */
int lp_pfpred_create(const lp_pfpred_config *config, lp_pfpred **out);
/* Frees a predictor from lp_pfpred_create; accepts NULL. */
void lp_pfpred_free(lp_pfpred *p);

/* One instance of the block whose leader is at leader and whose follow is at
 * follow, ninsns profile instructions long (leader included; 0 counts as 1),
 * executed with its flag on (flag != 0) or off. Runs the fetch-time lookup,
 * then the decode-time updates, and counts the outcome in p->stats.
 * Returns the fetch outcome. Constant time (one set). */
lp_pfpred_outcome lp_pfpred_block(lp_pfpred *p, uint64_t leader, uint64_t follow, uint32_t ninsns,
                                  int flag);

/* Copies the entry for leader into *out (out may be NULL) and returns 1, or
 * returns 0 if the table holds none. Changes nothing (no LRU update), so
 * tests and reports can inspect the table. */
int lp_pfpred_find(const lp_pfpred *p, uint64_t leader, lp_pfpred_entry *out);

/* Prediction accuracy in percent: 100 * correct / predictions, or 0 when no
 * prediction was made. */
double lp_pfpred_accuracy(const lp_pfpred_stats *s);

#ifdef __cplusplus
}
#endif
#endif
