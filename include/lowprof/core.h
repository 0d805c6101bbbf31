/* lowprof core: the types every module shares and the small shim that keeps
 * the algorithm modules freestanding.
 *
 * Everything here builds without libc: the Valgrind tool (no libc at all) and
 * the native runtime (inside other people's programs, sometimes in signal
 * handlers) link the same object code as the CLI. Memory comes from a
 * replaceable allocator and bytes leave through a caller-provided sink.
 *
 * Tuned for: the front ends' hot paths, which touch lp_table and lp_event
 * millions of times a second, so the table is open addressing with no
 * per-entry allocation. */
#ifndef LOWPROF_CORE_H
#define LOWPROF_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors ------------------------------------------------------------ */

/* Functions that can fail return 0 or one of these negative codes. */
enum {
    LP_OK = 0,
    LP_ENOMEM = -1,    /* the allocator returned NULL */
    LP_EIO = -2,       /* a sink or source failed */
    LP_EFORMAT = -3,   /* input is not what the format says */
    LP_ECHECKSUM = -4, /* a chunk's checksum does not match */
    LP_EVERSION = -5,  /* a format version this build cannot read */
    LP_ETRUNC = -6,    /* input ended inside a record */
    LP_EINVAL = -7,    /* a caller passed an argument out of range */
    LP_ELIMIT = -8,    /* input asks for more than the reader allows */
    LP_ENOENT = -9,    /* no such thing (file, key, profile type) */
    LP_ESPEC = -10,    /* a specification string does not parse */
};

/* A static string describing code (never NULL; unknown codes say so). */
const char *lp_strerror(int code);

/* ---- allocator and byte shim ------------------------------------------- */

/* The allocator every lowprof module uses. realloc may be NULL, in which case
 * lp_realloc allocates, copies old_size bytes and frees. ctx is passed back. */
typedef struct lp_allocator {
    void *(*alloc)(void *ctx, size_t size);
    void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t new_size);
    void (*free)(void *ctx, void *ptr);
    void *ctx;
} lp_allocator;

/* Replaces the process-wide allocator. Call before any other lowprof function
 * allocates; not thread-safe against concurrent allocation. NULL restores the
 * environment's default (libc in hosted builds, none in the Valgrind tool,
 * which must set one). */
void lp_set_allocator(const lp_allocator *allocator);

/* Allocation through the current allocator. Overflowing sizes return NULL.
 * lp_calloc zeroes. lp_free accepts NULL. Thread safety is the allocator's. */
void *lp_malloc(size_t size);
void *lp_calloc(size_t count, size_t size);
void *lp_realloc(void *ptr, size_t old_size, size_t new_size);
void lp_free(void *ptr);

/* A byte destination: write returns 0 or a negative LP_E* code. The trace
 * encoders and the report code write only through sinks. */
typedef struct lp_sink {
    int (*write)(void *ctx, const void *data, size_t size);
    void *ctx;
} lp_sink;

/* A sink that appends to a growable memory buffer (lp_malloc'd). */
typedef struct lp_membuf {
    uint8_t *data;
    size_t size;
    size_t capacity;
} lp_membuf;
lp_sink lp_membuf_sink(lp_membuf *buf);
/* Frees buf->data and zeroes buf; accepts NULL. */
void lp_membuf_free(lp_membuf *buf);

/* ---- hashing ------------------------------------------------------------ */

/* The one 64-bit mixing hash (a finaliser of the splitmix family): every table
 * and every signature bucket in lowprof uses it, so results agree everywhere. */
static inline uint64_t lp_hash64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static inline uint64_t lp_hash_pair(uint64_t a, uint64_t b)
{
    return lp_hash64(a ^ lp_hash64(b + 0x9e3779b97f4a7c15ULL));
}

/* ---- the one random number generator ------------------------------------ */

/* splitmix64: one 64-bit word of state, seedable, fast, freestanding, and
 * good enough for sampling decisions and random replacement (it passes
 * BigCrush). Each user keeps its own state, so streams are reproducible from
 * a seed and independent of each other. */
typedef struct lp_rng {
    uint64_t state;
} lp_rng;

static inline void lp_rng_seed(lp_rng *r, uint64_t seed)
{
    r->state = seed;
}

static inline uint64_t lp_rng_next(lp_rng *r)
{
    r->state += 0x9e3779b97f4a7c15ULL;
    return lp_hash64(r->state);
}

/* A number in [0, n), n > 0, by the multiply-high method; the bias is below
 * n / 2^64, far under anything a sampling experiment could see. */
static inline uint64_t lp_rng_below(lp_rng *r, uint64_t n)
{
    __extension__ typedef unsigned __int128 lp_u128;
    return (uint64_t)(((lp_u128)lp_rng_next(r) * n) >> 64);
}

/* ---- arithmetic ----------------------------------------------------------- */

/* The square root of x (0 for x <= 0 or NaN) by Newton's iteration from
 * above: the freestanding modules have no libm. Exact to the last bit or
 * two; a few dozen iterations for x up to 2^64. */
static inline double lp_sqrt(double x)
{
    if (!(x > 0))
        return 0;
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 200; i++) {
        double next = 0.5 * (r + x / r);
        if (next >= r)
            break;
        r = next;
    }
    return r;
}

/* ---- events and tuples -------------------------------------------------- */

/* One record type for every front end. a and b are the payload words whose
 * meaning the kind fixes (see lp_event). */
typedef enum lp_event_kind {
    LP_EV_BRANCH = 1, /* pc: branch; a: destination; b: insns since previous branch;
                         flags: LP_EVF_TAKEN, LP_EVF_COND, LP_EVF_INDIRECT */
    LP_EV_CALL = 2,   /* pc: call site; a: callee; b: stack pointer after the call;
                         flags: LP_EVF_TAIL for a tail call made by a jump */
    LP_EV_RETURN = 3, /* pc: return instruction; a: return destination; b: frames popped */
    LP_EV_BLOCK = 4,  /* pc: block start; a: instructions executed in it; b: 0 */
    LP_EV_LOAD = 5,   /* pc: load instruction; a: address; b: value; size: bytes */
    LP_EV_STORE = 6,  /* pc: store instruction; a: address; b: 0; size: bytes */
} lp_event_kind;

enum {
    LP_EVF_TAKEN = 1u << 0,
    LP_EVF_COND = 1u << 1,
    LP_EVF_INDIRECT = 1u << 2,
    LP_EVF_TAIL = 1u << 3,
};

typedef struct lp_event {
    uint8_t kind;    /* lp_event_kind */
    uint8_t flags;   /* LP_EVF_* */
    uint16_t size;   /* access size in bytes for loads and stores, else 0 */
    uint32_t tid;    /* thread id as the front end numbers threads (1 = main) */
    uint64_t pc;
    uint64_t a;
    uint64_t b;
    uint64_t icount; /* instructions retired by the process before this event */
} lp_event;

/* The compressor's view (stratified sampling paper, section 2): <pc, w> plus
 * a type tag so several profile types share one compressor. */
typedef enum lp_tuple_type {
    LP_TUPLE_VALUE = 1,
    LP_TUPLE_EDGE = 2,
    LP_TUPLE_CALL_TARGET = 3,
    LP_TUPLE_TYPE = 4,
} lp_tuple_type;

typedef struct lp_tuple {
    uint64_t pc;
    uint64_t w;
    uint8_t type; /* lp_tuple_type */
} lp_tuple;

/* The tuple selector of the stratified-sampling paper (section 2.1), as
 * every front end and the trace replay apply it: a load gives a value tuple
 * <pc, value>; a conditional branch or an indirect jump gives an edge tuple
 * <pc, destination>; a call (direct or indirect, not a tail jump) gives a
 * call-target tuple <call site, callee>. mask holds 1u << lp_tuple_type for
 * each type wanted. Returns 1 and fills *out when ev gives a wanted tuple,
 * else 0. */
static inline int lp_tuple_select(const lp_event *ev, unsigned mask, lp_tuple *out)
{
    unsigned type = 0;
    uint64_t w = 0;
    if (ev->kind == LP_EV_LOAD) {
        type = LP_TUPLE_VALUE;
        w = ev->b;
    } else if (ev->kind == LP_EV_BRANCH && (ev->flags & (LP_EVF_COND | LP_EVF_INDIRECT))) {
        type = LP_TUPLE_EDGE;
        w = ev->a;
    } else if (ev->kind == LP_EV_CALL && !(ev->flags & LP_EVF_TAIL)) {
        type = LP_TUPLE_CALL_TARGET;
        w = ev->a;
    }
    if (!type || !(mask & (1u << type)))
        return 0;
    out->pc = ev->pc;
    out->w = w;
    out->type = (uint8_t)type;
    return 1;
}

/* ---- the one hash table ------------------------------------------------- */

/* Key and value shapes are fixed for every profile type: two key words, two
 * counter words (see lp_profile_type for what each type puts in them). */
typedef struct lp_key {
    uint64_t a;
    uint64_t b;
} lp_key;

typedef struct lp_entry {
    lp_key key;
    uint64_t v[2];
} lp_entry;

/* Open addressing with linear probing, power-of-two capacity, at most 1/2
 * full. The key {UINT64_MAX, UINT64_MAX} marks empty slots and cannot be
 * stored. Fields are public only so callers can embed the struct; treat them
 * as private. Not thread-safe; no allocation except on growth. */
typedef struct lp_table {
    lp_entry *slots;
    size_t capacity; /* 0 or a power of two */
    size_t count;
} lp_table;

/* Initialises t in caller memory with room for at least min_count entries
 * before it grows (0 is allowed). Returns 0 or LP_ENOMEM. */
int lp_table_init(lp_table *t, size_t min_count);
/* Frees the slots; t may be reused after lp_table_init. Accepts NULL. */
void lp_table_fini(lp_table *t);
/* Removes every entry, keeping the capacity. */
void lp_table_clear(lp_table *t);
/* Returns the entry for k, inserting it with zero counters if absent; NULL on
 * LP_ENOMEM or for the reserved empty key. Pointers stay valid only until
 * the next upsert. */
lp_entry *lp_table_upsert(lp_table *t, lp_key k);
/* Returns the entry for k or NULL. */
lp_entry *lp_table_find(const lp_table *t, lp_key k);
/* Iteration: start with *cursor = 0; returns NULL at the end. Order is the
 * slot order: stable for a given content and capacity, otherwise arbitrary. */
lp_entry *lp_table_next(const lp_table *t, size_t *cursor);
/* Adds every entry of src into dst (counters summed). 0 or LP_ENOMEM. */
int lp_table_merge(lp_table *dst, const lp_table *src);
/* The sum of every entry's first counter, as a double (no overflow). */
double lp_table_total(const lp_table *t);

/* Sorting entries (heap sort: in place, no recursion, O(n log n) on any
 * input). An order is a strict "x goes before y" predicate. */
typedef int (*lp_entry_order)(const lp_entry *x, const lp_entry *y);
/* Ascending key (a, then b): the order every file writer uses. */
int lp_entry_key_less(const lp_entry *x, const lp_entry *y);
/* Descending v[0], ties by ascending key: the hot-first order. */
int lp_entry_count_greater(const lp_entry *x, const lp_entry *y);
void lp_entries_sort(lp_entry *e, size_t n, lp_entry_order before);
/* Copies t's entries into a fresh lp_malloc'd array sorted by before (the
 * array has t->count entries; *out is NULL for an empty table; the caller
 * lp_frees it). 0 or LP_ENOMEM. */
int lp_table_sorted(const lp_table *t, lp_entry_order before, lp_entry **out);

/* ---- profiles ----------------------------------------------------------- */

/* What a profile's key and counter words mean, per type. */
typedef enum lp_profile_type {
    LP_PROF_CODE_REGION = 1, /* key (branch pc, 0); v0 executions, v1 insns since previous branch */
    LP_PROF_METHOD = 2,      /* key (entry pc, 0); v0 invocations, v1 backward branches taken */
    LP_PROF_CALL_PAIR = 3,   /* key (call site pc, callee entry); v0 calls, v1 tail calls among them */
    LP_PROF_EDGE = 4,        /* key (branch pc, destination); v0 transfers, v1 0 */
    LP_PROF_BLOCK = 5,       /* key (block start pc, 0); v0 executions, v1 instructions executed */
    LP_PROF_CALL_GRAPH = 6,  /* key (caller entry, callee entry); v0 calls, v1 0 */
    LP_PROF_VALUE = 7,       /* key (load pc, value); v0 count, v1 access size in bytes */
    LP_PROF_CALL_TARGET = 8, /* key (call site, target); v0 count, v1 0 */
    LP_PROF_STREAMS = 9,     /* key (access signature, first pc); v0 frequency, v1 length */
    LP_PROF_CONTEXT = 10,    /* key (parent context id, function entry); v0 calls, v1 self insns */
    LP_PROF_TYPE_MAX = 10,
} lp_profile_type;

/* A calling context's id: the hash of its key, (parent's id, function
 * entry); a root context's parent id is 0. So the keys alone rebuild the
 * calling-context tree. */
static inline uint64_t lp_context_id(uint64_t parent_id, uint64_t entry)
{
    return lp_hash_pair(parent_id, entry);
}

/* Short name ("code-region", "method", ...) or NULL for an unknown type. */
const char *lp_profile_type_name(unsigned type);
/* Parses a short name (and "data-streams" for streams, the bursty-tracing
 * paper's name); returns the type or 0. */
unsigned lp_profile_type_parse(const char *name, size_t len);

/* One typed table and how it was obtained. A sampled profile's estimate of a
 * true count is count * scale_num / scale_den (1/1 for exhaustive ones). */
typedef struct lp_profile {
    uint32_t type;       /* lp_profile_type */
    uint32_t phase;      /* phase id it covers, or LP_PHASE_NONE */
    uint64_t first_insn; /* instruction range it covers: [first_insn, last_insn) */
    uint64_t last_insn;
    uint64_t scale_num;
    uint64_t scale_den;
    lp_table table;
} lp_profile;

#define LP_PHASE_NONE UINT32_MAX

/* Initialises an empty exhaustive profile of type in caller memory. */
int lp_profile_init(lp_profile *p, unsigned type);
void lp_profile_fini(lp_profile *p);

/* ---- intervals and phase signatures ------------------------------------- */

#define LP_SIG_BUCKETS 32
#define LP_DEFAULT_INTERVAL 10000000ULL

/* The phase-tracker accumulator (remote-profiling paper, section 2.1): each
 * branch adds the instructions since the previous branch to the bucket its
 * pc hashes to. */
typedef struct lp_signature {
    uint64_t bucket[LP_SIG_BUCKETS];
} lp_signature;

static inline unsigned lp_signature_bucket(uint64_t branch_pc)
{
    return (unsigned)(lp_hash64(branch_pc) >> 59); /* top 5 bits: 32 buckets */
}

static inline void lp_signature_add(lp_signature *s, uint64_t branch_pc, uint64_t insns)
{
    s->bucket[lp_signature_bucket(branch_pc)] += insns;
}

/* The one interval cutter. Intervals are [k*length, (k+1)*length) in retired
 * instructions, but a front end can only cut between the blocks it observes,
 * so an interval ends at the first block boundary at or past its nominal end;
 * the next one starts there. */
typedef struct lp_interval_cutter {
    uint64_t length;   /* nominal interval length in instructions */
    uint64_t index;    /* index of the interval in progress */
    uint64_t start;    /* instruction count at which it started */
    uint64_t next_cut; /* nominal end: (index + 1) * length */
} lp_interval_cutter;

/* length 0 selects LP_DEFAULT_INTERVAL. */
void lp_interval_cutter_init(lp_interval_cutter *c, uint64_t length);

/* Called with the running instruction count at a block boundary. Returns 1
 * when the interval in progress ends here (the caller then closes it and
 * calls lp_interval_cutter_advance), else 0. */
static inline int lp_interval_cutter_due(const lp_interval_cutter *c, uint64_t icount)
{
    return icount >= c->next_cut;
}

/* Starts the next interval at icount. Skips nominal boundaries that a long
 * block jumped over, so intervals are never empty. */
void lp_interval_cutter_advance(lp_interval_cutter *c, uint64_t icount);

#ifdef __cplusplus
}
#endif
#endif
