/* lowprof sample: stream compressors built from samplers, counters, a hash
 * splitter and counter tables, and the software estimator that turns their
 * messages back into profiles.
 *
 * Implements Sastry, Bodik and Smith, "Rapid Profiling via Stratified
 * Sampling" (paper 001): the random sampler R_r, the countdown random sampler
 * (here D_r), the periodic sampler P_r, the counter C and the counted
 * samplers CR_r (section 3.1); the hash splitter H[X]_n with the paper's hash
 * (3.2, 3.5, Fig. 5); the associative counter table A_k as a first or second
 * level (3.4); the tagged compressor of Fig. 6 (section 4); and the
 * interrupt-driven delivery with its cost model (2.2, 5.3.2). A compressor is
 * described by a short spec string such as "H[P256]2048+A16" (grammar in
 * doc/sample.md and at lp_compressor_spec_parse).
 *
 * Freestanding: core's shim only, so the Valgrind tool, the native runtime
 * and the CLI share the object code. A compressor is single-threaded and
 * does not allocate after creation: push, finish and reset are safe in a
 * signal handler provided the message callback is. */
#ifndef LOWPROF_SAMPLE_H
#define LOWPROF_SAMPLE_H

#include "lowprof/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- messages ----------------------------------------------------------- */

/* What a compressor sends to software: one tuple and the number of input
 * tuples it stands for, already scaled (r for an implied-count sampler, the
 * counted number for counters and tables). */
typedef struct lp_message {
    uint64_t pc;
    uint64_t w;
    uint64_t count;
    uint8_t type; /* the tuple's lp_tuple_type, or LP_MESSAGE_LENGTH */
} lp_message;

/* The type of the one message the bare counter C sends at finish: pc and w
 * are 0 and count is the length of the input stream. */
#define LP_MESSAGE_LENGTH 0

/* One "interrupt": software receives the n (>= 1) messages buffered since
 * the previous one. msgs is valid only during the call. The callback must
 * not call back into the compressor that delivers. */
typedef void (*lp_message_fn)(void *ctx, const lp_message *msgs, size_t n);

/* ---- specifications ----------------------------------------------------- */

/* What the first level is. */
enum {
    LP_LEVEL_SAMPLER = 1, /* one sampler over the whole stream: R, D, P, CR, CD, CP */
    LP_LEVEL_HASHED = 2,  /* H[X]_n: n substreams, each with its own sampler X */
    LP_LEVEL_TAGGED = 3,  /* the tagged compressor of section 4 */
    LP_LEVEL_ASSOC = 4,   /* A_k alone: lossless */
    LP_LEVEL_COUNTER = 5, /* C alone: counts the stream, one length message at finish */
};

/* Sampler kinds, for LP_LEVEL_SAMPLER and LP_LEVEL_HASHED. */
enum {
    LP_SAMPLER_RANDOM = 1,    /* R_r: each tuple independently with probability 1/r */
    LP_SAMPLER_COUNTDOWN = 2, /* D_r: countdown register reloaded uniformly in [1, 2r] */
    LP_SAMPLER_PERIODIC = 3,  /* P_r: every r-th tuple */
};

/* Hash functions of the splitter and the tagged compressor. */
enum {
    LP_HASH_PAPER = 0, /* section 3.5: random byte table, byte flip, xor-fold */
    LP_HASH_FAST = 1,  /* multiply by seeded odd constants: the "cheaper hash" the paper allows */
};

/* A compressor's description: plain data, what the spec string says. Fields
 * a level does not use are 0. lp_compressor_spec_parse fills it; a caller
 * may also fill it by hand and lp_compressor_spec_check validates it. */
typedef struct lp_compressor_spec {
    uint8_t level;           /* LP_LEVEL_* */
    uint8_t sampler;         /* SAMPLER, HASHED: LP_SAMPLER_* */
    uint8_t counted;         /* SAMPLER, HASHED: 1 when the sampler carries a counter C */
    uint8_t hash;            /* HASHED, TAGGED: LP_HASH_* */
    uint32_t rate;           /* SAMPLER, HASHED: r; TAGGED: hit-counter range */
    uint32_t entries;        /* HASHED: n substreams; TAGGED: table entries; ASSOC: k */
    uint32_t ways;           /* TAGGED: associativity (entries / ways sets) */
    uint32_t tag_bits;       /* TAGGED: partial-tag bits (0..15) */
    uint32_t evict_hits;     /* TAGGED: ShouldEvict holds once the hit counter reaches this */
    uint32_t replace_misses; /* TAGGED: ShouldReplace holds once the miss counter reaches this */
    uint32_t saturate;       /* ASSOC: an entry is dispatched after this many merged inputs */
    uint32_t second_entries; /* k of a second level +A_k, 0 for none */
    uint32_t second_saturate;
} lp_compressor_spec;

/* Defaults the parser fills in when the spec leaves them out. */
#define LP_TAGGED_REPLACE_DEFAULT 7u   /* a 3-bit miss counter (section 4.2) */
#define LP_ASSOC_SATURATE_DEFAULT 256u /* an 8-bit counter of merged inputs */
/* The tagged compressor's default evict_hits is rate / 16 (at least 1). */

/* Parses text (NUL-terminated) into *out. Returns 0, or LP_ESPEC for text
 * that does not follow the grammar, or LP_EINVAL for a parameter out of
 * range; on error *out_pos is the 0-based character position of the fault
 * and *out_why a static string saying what was expected there. out_pos and
 * out_why may be NULL. Grammar (no spaces):
 *
 *   spec    := first [ '+' assoc ]
 *   first   := sampler | 'H' '[' sampler ']' n hopts | tagged | assoc | 'C'
 *   sampler := [ 'C' ] ( 'R' | 'D' | 'P' ) r
 *   hopts   := [ '/fast' ]
 *   tagged  := 'T' tagbits ':' range 'x' entries 'w' ways
 *              { '/fast' | '/evict=' N | '/replace=' N }
 *   assoc   := 'A' k [ '/sat=' N ]
 *
 * Limits: 1 <= r <= 2^30; n a power of two <= 2^24; tagged entries <= 2^24,
 * ways 1..64 dividing entries into a power-of-two number of sets, tag bits
 * 0..15, 3 <= range <= 2^24, 1 <= evict <= range, 2 <= replace <= 65535 and
 * replace < range; 1 <= k <= 4096, 1 <= sat <= 2^31. Pure; reentrant. */
int lp_compressor_spec_parse(const char *text, lp_compressor_spec *out, size_t *out_pos,
                             const char **out_why);

/* Validates a spec filled by hand against the limits above. Returns 0 or
 * LP_EINVAL, with *out_why (may be NULL) naming the field. */
int lp_compressor_spec_check(const lp_compressor_spec *s, const char **out_why);

/* Writes the canonical text of s (parsing it gives s back; options equal to
 * their defaults are left out) into buf, NUL-terminated and truncated to
 * cap bytes. Returns the length the full text needs, without the NUL, as
 * snprintf does; 0 for an invalid spec. buf may be NULL when cap is 0. */
size_t lp_compressor_spec_format(const lp_compressor_spec *s, char *buf, size_t cap);

/* ---- cost model and statistics ------------------------------------------ */

/* Section 5.3.2: software is interrupted each time buffer_messages messages
 * are waiting; an interrupt costs cycles_per_interrupt plus
 * cycles_per_message for each message it folds. */
typedef struct lp_cost_model {
    uint32_t buffer_messages;      /* 100 */
    uint32_t cycles_per_interrupt; /* 214 */
    uint32_t cycles_per_message;   /* 30 */
} lp_cost_model;

/* clang-format off */
#define LP_COST_MODEL_DEFAULT {100u, 214u, 30u}
/* clang-format on */

typedef struct lp_compressor_stats {
    uint64_t tuples;               /* tuples pushed */
    uint64_t messages;             /* messages for software (the last level's), counted
                                      as they enter the buffer */
    uint64_t interrupts;           /* callback invocations */
    uint64_t cycles;               /* the cost of the interrupts so far: each costs
                                      per_interrupt + per_message * its messages */
    uint64_t first_level_messages; /* messages the first level produced (= messages
                                      without a second level) */
} lp_compressor_stats;

/* ---- compressors ---------------------------------------------------------- */

typedef struct lp_compressor lp_compressor;

/* Bytes a compressor for spec and cost needs (cost NULL = defaults), or 0
 * for an invalid spec or cost model. */
size_t lp_compressor_footprint(const lp_compressor_spec *spec, const lp_cost_model *cost);

/* Builds a compressor in caller memory mem of size bytes (at least the
 * footprint; aligned to 8 bytes), for the runtime's hot paths that cannot
 * allocate. It owns nothing (lp_compressor_free on it does nothing); the
 * caller releases mem. seed drives every random choice (the hash's random
 * table, random samplers, countdown reloads), so equal seeds give equal
 * messages. fn may be NULL: messages are then counted and dropped.
 * Returns 0 or LP_EINVAL (bad spec, cost, size or alignment). */
int lp_compressor_init(void *mem, size_t size, const lp_compressor_spec *spec,
                       const lp_cost_model *cost, uint64_t seed, lp_message_fn fn, void *ctx,
                       lp_compressor **out);

/* As lp_compressor_init, in one lp_malloc'd block. Returns 0, LP_EINVAL or
 * LP_ENOMEM; *out is NULL on failure. */
int lp_compressor_create(const lp_compressor_spec *spec, const lp_cost_model *cost, uint64_t seed,
                         lp_message_fn fn, void *ctx, lp_compressor **out);

/* Returns c to its freshly created state under a new seed: tables, counters,
 * statistics and buffer are cleared (buffered messages are dropped, not
 * delivered). About 10 us with the paper's hash (its random tables are
 * redrawn), under 1 us otherwise, so a Monte Carlo study can run thousands
 * of trials on one compressor. */
void lp_compressor_reset(lp_compressor *c, uint64_t seed);

/* Feeds tuples to the compressor; the callback runs each time the buffer
 * fills. push_many runs a loop specialised for the compressor's shape and
 * gives the same messages as n calls of push. t must not be NULL (tuples
 * may be when n is 0). Not reentrant from the callback. */
void lp_compressor_push(lp_compressor *c, const lp_tuple *t);
void lp_compressor_push_many(lp_compressor *c, const lp_tuple *t, size_t n);

/* Ends the stream: counts still held in the tables are drained as messages
 * (through the second level if there is one, which is then drained too),
 * and a partly filled buffer is delivered as one more interrupt, so the
 * messages' counts add up to every tuple a lossless, periodic, counted or
 * tagged compressor saw. A sampler slot's count goes with the first tuple of
 * its unfinished period, a tagged entry's with the one tuple it remembers
 * (doc/sample.md). Pushing after finish starts a new stream on the drained
 * tables. */
void lp_compressor_finish(lp_compressor *c);

/* Delivers the messages waiting in the buffer as one interrupt (nothing if
 * it is empty), leaving the tables alone: software then has every message
 * sent so far, for an estimate in the middle of a stream. */
void lp_compressor_flush(lp_compressor *c);

/* Copies the counts so far into *out. */
void lp_compressor_get_stats(const lp_compressor *c, lp_compressor_stats *out);

/* The spec c was built from. */
const lp_compressor_spec *lp_compressor_get_spec(const lp_compressor *c);

/* Frees a compressor from lp_compressor_create; accepts NULL. */
void lp_compressor_free(lp_compressor *c);

/* ---- the software side: estimator --------------------------------------- */

/* Folds messages into estimated profiles: LP_TUPLE_VALUE into LP_PROF_VALUE
 * key (pc, w), LP_TUPLE_EDGE into LP_PROF_EDGE key (pc, w = destination),
 * LP_TUPLE_CALL_TARGET into LP_PROF_CALL_TARGET key (pc, w = target); v[0]
 * is the estimated count (the sum of the messages' counts), v[1] stays 0.
 * Fields are public so callers can embed the struct; treat them as read-only. */
typedef struct lp_estimator {
    lp_profile value, edge, call_target;
    uint64_t total;    /* sum of counts of every tuple message */
    uint64_t unmapped; /* part of total whose type has no profile here (or whose
                          key is lp_table's reserved (UINT64_MAX, UINT64_MAX)) */
    uint64_t length;   /* sum of LP_MESSAGE_LENGTH counts */
    int status;        /* first error of lp_estimator_on_messages, else 0 */
} lp_estimator;

/* Initialises e in caller memory. Returns 0 or LP_ENOMEM. The estimator
 * allocates as its profiles grow: not for signal handlers; not
 * thread-safe. */
int lp_estimator_init(lp_estimator *e);
/* Frees e's tables; accepts NULL. */
void lp_estimator_fini(lp_estimator *e);
/* Empties the profiles and totals, keeping the tables' memory. */
void lp_estimator_clear(lp_estimator *e);

/* Folds n messages. Returns 0 or LP_ENOMEM (the messages before the failing
 * one are folded). */
int lp_estimator_fold(lp_estimator *e, const lp_message *msgs, size_t n);

/* An lp_message_fn whose ctx is an lp_estimator: folds and keeps the first
 * error in its status. */
void lp_estimator_on_messages(void *estimator, const lp_message *msgs, size_t n);

/* The profile of type (LP_PROF_VALUE, LP_PROF_EDGE, LP_PROF_CALL_TARGET), or
 * NULL for another type. */
const lp_profile *lp_estimator_profile(const lp_estimator *e, unsigned lp_profile_type);

/* Estimated count of the tuple <pc, w> of tuple type (lp_tuple_type); 0 if
 * absent or the type has no profile. */
uint64_t lp_estimator_count(const lp_estimator *e, unsigned tuple_type, uint64_t pc, uint64_t w);

#ifdef __cplusplus
}
#endif
#endif
