/* Bursty checks: the runtime half of programs compiled by `lowprof cc
 * --profiles=bursty:PLACEMENT`, the framework of Hirzel and Chilimbi
 * ("Bursty Tracing", paper 003, section 2, Fig. 3) with its checks
 * compiled into the program (doc/runtime.md, "Bursty checks").
 *
 * The compiled code keeps a checking and an instrumented copy of every
 * function's blocks. A check is the paper's fast path on the thread's
 * nCheck, lp__bt_n: a decrement and a branch, inline; when it reaches
 * zero the code calls lp__bt_slow, which runs the rest of Fig. 3 on the
 * thread's own lp_bursty (src/bursty) and says which copy goes on. The
 * instrumented copy reports each data reference (lp__bt_ref) and its
 * own entry (lp__bt_enter); they are kept per thread, in a record that
 * outlives the thread, and become the hot data streams (src/streams), the
 * call pairs and the call graph when a profile is written.
 *
 * Tuned for: lp__bt_ref runs at every load and store of a burst, so it is
 * a mode test, a bounds test and two stores into the thread's buffer. The
 * slow path runs once every nCheck_0 checks outside bursts and at every
 * check in them; it touches only the thread's record.
 *
 * Async-signal-safe throughout, since a signal handler compiled with the
 * checks runs them: no malloc, no locks. A thread's first check maps its
 * record (mmap) or takes a released one (compare-and-swap); everything
 * else is plain stores into memory only the thread writes, published to
 * the dumping thread with release stores, as rt_count.c does. A handler
 * that interrupts the slow path of its own thread finds the thread busy
 * and leaves the state alone (its check is lost, as the paper's code
 * would lose a decrement). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>

#include "lowprof/bursty.h"
#include "lowprof/streams.h"
#include "rt_bt_layout.h"
#include "rt_internal.h"

/* ---- the ABI the compiled code uses ---------------------------------------------------- */

/* nCheck of the calling thread (Fig. 3). The compiled fast path is
 * `decq %fs:lp__bt_n@tpoff; je slow`. It starts at 1 in every thread (the
 * TLS image carries it), so a thread's first check reaches lp__bt_slow,
 * which then gives the thread its state. */
extern __thread uint64_t lp__bt_n __attribute__((tls_model("initial-exec"), visibility("default")));
/* The copy the thread is in: LP_BURSTY_CHECKING or LP_BURSTY_INSTRUMENTED.
 * Compiled entries without a check read it to pick the copy. */
extern __thread int32_t lp__bt_mode
    __attribute__((tls_model("initial-exec"), visibility("default")));
/* The rest of a check whose decrement reached 0: returns the copy the code
 * goes on in. */
__attribute__((visibility("default"))) int32_t lp__bt_slow(void);
/* A load or store of addr in the instrumented copy; its pc is this call's
 * return address. */
__attribute__((visibility("default"))) void lp__bt_ref(const void *addr);
/* The instrumented copy of the function holding this call's return
 * address was entered; ra is that function's own return address. */
__attribute__((visibility("default"))) void lp__bt_enter(const void *ra);
/* What lp__bt_enter_stub (rt_tramp.S), which compiled code calls and which
 * saves the registers C may change, calls: the entry whose own call (the
 * stub's) returns to own. lp__bt_enter is the same for C callers, own
 * being its return address. */
LP__HIDDEN void lp__rt_bt_enter_at(uint64_t ra, uint64_t own);

__thread uint64_t lp__bt_n __attribute__((tls_model("initial-exec"))) = 1;
__thread int32_t lp__bt_mode __attribute__((tls_model("initial-exec"))) = LP_BURSTY_CHECKING;

/* ---- per-thread records ------------------------------------------------------------------ */

/* nCheck for a thread whose checks are off: a decrement a check would
 * need centuries to bring to 0 (and if it did, the slow path sets it
 * again). */
#define LP__RT_BT_NEVER UINT64_MAX

/* A buffered data reference. */
typedef struct lp__rt_bt_ref {
    uint64_t pc; /* with LP__RT_BT_CUT: a burst ended after this reference */
    uint64_t addr;
} lp__rt_bt_ref;
/* User-space code addresses stay below 2^47, so the top bit of a pc is
 * free to mark a cut. Marking the burst's last reference when the next
 * burst starts keeps cuts off the reference path and out of the buffer's
 * capacity. */
#define LP__RT_BT_CUT (1ULL << 63)

/* A call pair of the thread: ra is claimed by compare-and-swap (0: free),
 * then own and count are written by the owner. */
typedef struct lp__rt_bt_pair {
    uint64_t ra;    /* the instrumented function's return address */
    uint64_t own;   /* the return address of its lp__bt_enter call */
    uint64_t count; /* entries while instrumented */
} lp__rt_bt_pair;
/* A fixed table per thread: the distinct (call site, callee) pairs of one
 * thread's bursts are few (a program's call sites); when a probe sequence
 * is full the call is dropped and counted. */
#define LP__RT_BT_PAIR_BITS 14
#define LP__RT_BT_PAIRS (1u << LP__RT_BT_PAIR_BITS)
#define LP__RT_BT_PROBES 32

/* One thread's record: mmap'd at its first check (NORESERVE: untouched
 * slots cost nothing), never freed, handed to the next new thread after it
 * ends, which adds to it: only sums over records mean anything. */
typedef struct lp__rt_bthread {
    /* The reference buffer first: lp__bt_ref_stub (rt_tramp.S) appends to
     * it at these offsets (LP__RT_BT_OFF_*, asserted below). */
    uint64_t nrefs;              /* references in refs (release store) */
    uint64_t cap;                /* refs' capacity */
    lp__rt_bt_ref *refs;         /* cap */
    uint64_t refs_dropped;       /* references past the buffer's end */
    struct lp__rt_bthread *next; /* the registry, newest first */
    int in_use;                  /* owned by a running thread */
    uint8_t busy;                /* the owner is in lp__bt_slow */
    lp_bursty s;                 /* the owner's Fig. 3 state; n_check is stale in the
                                    checking code, where lp__bt_n is the live value */
    lp_bursty_stats base;        /* owner only: what earlier owners published */
    /* Published by the owner (relaxed stores), read by the dumps: base +
     * the owner's own figures, at every slow call and at the thread's end. */
    lp_bursty_stats pub;
    uint64_t threads;       /* owners so far */
    uint64_t pairs_dropped; /* entries whose probe sequence was full */
    lp__rt_bt_pair *pairs;  /* LP__RT_BT_PAIRS */
} lp__rt_bthread;
_Static_assert(offsetof(lp__rt_bthread, nrefs) == LP__RT_BT_OFF_NREFS &&
                   offsetof(lp__rt_bthread, cap) == LP__RT_BT_OFF_CAP &&
                   offsetof(lp__rt_bthread, refs) == LP__RT_BT_OFF_REFS &&
                   offsetof(lp__rt_bthread, refs_dropped) == LP__RT_BT_OFF_DROPPED &&
                   sizeof(lp__rt_bt_ref) == 16,
               "the layout lp__bt_ref_stub uses");

#define LP__RT_BT_HEADER 512
_Static_assert(sizeof(lp__rt_bthread) <= LP__RT_BT_HEADER, "the record's header");

enum { LP__RT_BT_UNDECIDED = 0, LP__RT_BT_ON = 1, LP__RT_BT_OFF = 2 };
static int lp__rt_bt_state;
static lp__rt_bthread *lp__rt_bt_records;
static size_t lp__rt_bt_bytes;
static pthread_key_t lp__rt_bt_key;
/* The placements the modules name, distinct ones joined with ",". */
static char lp__rt_bt_placement[256];

/* The calling thread's record, NULL until its first check. */
/* (Not static: lp__bt_ref_stub reads it.) */
__thread lp__rt_bthread *lp__rt_bt_self __attribute__((tls_model("initial-exec")));
/* The thread has ended (its key destructor ran): checks stay off. */
static __thread uint8_t lp__rt_bt_gone __attribute__((tls_model("initial-exec")));
/* The thread is getting its record: a check in a signal handler then
 * waits for the next one. */
static __thread uint8_t lp__rt_bt_joining __attribute__((tls_model("initial-exec")));

/* The section's bounds, from the linker: NULL when no module has one. */
extern const char __start___lp_bursty[] __attribute__((weak));
extern const char __stop___lp_bursty[] __attribute__((weak));

int lp__rt_bursty_present(void)
{
    const char *a = __start___lp_bursty, *b = __stop___lp_bursty;
    return a && b > a;
}

static void lp__rt_bt_store(uint64_t *p, uint64_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static uint64_t lp__rt_bt_load(const uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* Publishes s's figures (n_check live) as the record's. */
static void lp__rt_bt_publish(lp__rt_bthread *t, const lp_bursty *s)
{
    lp_bursty_stats st;
    lp_bursty_stats_get(s, &st);
    lp__rt_bt_store(&t->pub.checks, t->base.checks + st.checks);
    lp__rt_bt_store(&t->pub.bursts, t->base.bursts + st.bursts);
    lp__rt_bt_store(&t->pub.checks_in_instr, t->base.checks_in_instr + st.checks_in_instr);
    lp__rt_bt_store(&t->pub.stretches_instr, t->base.stretches_instr + st.stretches_instr);
}

/* Publishes the owner's figures between checks: in the checking code the
 * live nCheck is lp__bt_n (a value above the one armed can only come from
 * a check lost to a signal handler, and is not believed). */
static void lp__rt_bt_publish_live(lp__rt_bthread *t)
{
    lp_bursty s = t->s;
    uint64_t n = lp__bt_n;
    if (s.n_instr == 0 && n <= s.armed)
        s.n_check = n;
    lp__rt_bt_publish(t, &s);
}

/* Marks the last buffered reference as the end of a burst. */
static void lp__rt_bt_cut(lp__rt_bthread *t)
{
    uint64_t n = t->nrefs;
    if (n) {
        uint64_t *pc = &t->refs[n - 1].pc;
        lp__rt_bt_store(pc, lp__rt_bt_load(pc) | LP__RT_BT_CUT);
    }
}

/* At thread exit: the final figures, and the record goes back for the
 * next new thread. Checks the thread still runs (later destructors) stay
 * in the checking code. */
static void lp__rt_bt_release(void *p)
{
    lp__rt_bthread *t = p;
    lp__rt_bt_gone = 1;
    lp__rt_bt_self = NULL;
    lp__rt_bt_publish_live(t);
    lp__bt_n = LP__RT_BT_NEVER;
    lp__bt_mode = LP_BURSTY_CHECKING;
    __atomic_store_n(&t->in_use, 0, __ATOMIC_RELEASE);
}

/* A record for the calling thread: a released one, or a fresh mmap, its
 * state initialised from the configuration. Only system calls and atomics,
 * so a first check in a signal handler may get here. NULL when the kernel
 * refuses the memory. */
static lp__rt_bthread *lp__rt_bt_get(void)
{
    lp__rt_bthread *t;
    for (t = __atomic_load_n(&lp__rt_bt_records, __ATOMIC_ACQUIRE); t; t = t->next) {
        int expected = 0;
        if (__atomic_load_n(&t->in_use, __ATOMIC_RELAXED) == 0 &&
            __atomic_compare_exchange_n(&t->in_use, &expected, 1, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED))
            break;
    }
    if (t) {
        /* The earlier owners' references and this thread's do not follow
         * each other. */
        lp__rt_bt_cut(t);
    } else {
        void *p = mmap(NULL, lp__rt_bt_bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
        t = p;
        t->pairs = (lp__rt_bt_pair *)(void *)((char *)p + LP__RT_BT_HEADER);
        t->refs = (lp__rt_bt_ref *)(void *)(t->pairs + LP__RT_BT_PAIRS);
        t->cap = lp__rt.cfg.streams_limit;
        t->in_use = 1;
        lp__rt_bthread *head = __atomic_load_n(&lp__rt_bt_records, __ATOMIC_RELAXED);
        do
            t->next = head;
        while (!__atomic_compare_exchange_n(&lp__rt_bt_records, &head, t, 1, __ATOMIC_RELEASE,
                                            __ATOMIC_RELAXED));
    }
    t->base = t->pub;
    lp__rt_bt_store(&t->threads, t->threads + 1);
    lp_bursty_init(&t->s, lp__rt.cfg.bt_check0, lp__rt.cfg.bt_instr0);
    /* Busy until the caller's first check is done: a handler's check in
     * between leaves it alone. */
    t->busy = 1;
    lp__rt_bt_self = t;
    pthread_setspecific(lp__rt_bt_key, t);
    return t;
}

/* lp__bt_slow for a thread without a record: gives it one, or (NULL)
 * sets when its checks ask again. */
static __attribute__((noinline, cold)) lp__rt_bthread *lp__rt_bt_join(void)
{
    int state = __atomic_load_n(&lp__rt_bt_state, __ATOMIC_ACQUIRE);
    lp__rt_bthread *t = NULL;
    if (state == LP__RT_BT_ON && !lp__rt_bt_gone && !lp__rt_bt_joining) {
        lp__rt_bt_joining = 1;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        t = lp__rt_bt_get();
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        lp__rt_bt_joining = 0;
        if (!t)
            lp__rt_bt_gone = 1; /* no memory: this thread goes without */
    }
    if (!t) {
        /* Before the constructor has decided (a check in an earlier
         * constructor), or a handler's check while the thread gets its
         * record: ask again at the next check. Off: never. */
        int again = state == LP__RT_BT_UNDECIDED || lp__rt_bt_joining;
        lp__bt_n = again ? 1 : LP__RT_BT_NEVER;
        lp__bt_mode = LP_BURSTY_CHECKING;
    }
    return t;
}

int32_t lp__bt_slow(void)
{
    lp__rt_bthread *t = lp__rt_bt_self;
    int first = 0;
    if (__builtin_expect(!t, 0)) {
        if (!(t = lp__rt_bt_join()))
            return LP_BURSTY_CHECKING;
        first = 1;
    } else if (t->busy) {
        /* A signal handler's check interrupted this thread's slow path:
         * leave the state to it, and come back at the next check. */
        lp__bt_n = 1;
        return lp__bt_mode;
    }
    t->busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    uint64_t bursts = t->s.bursts;
    int mode;
    if (first) {
        /* The compiled decrement of the initial 1 was the thread's first
         * check: it counts as the first of the fresh state. */
        mode = lp_bursty_check(&t->s);
    } else {
        t->s.n_check = 0; /* what the compiled decrement left in lp__bt_n */
        mode = lp_bursty_check_slow(&t->s);
    }
    /* A burst starts: it does not follow the one before in the trace. */
    if (t->s.bursts != bursts)
        lp__rt_bt_cut(t);
    lp__rt_bt_publish(t, &t->s);
    lp__bt_n = t->s.n_check;
    lp__bt_mode = t->s.mode;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t->busy = 0;
    return mode;
}

/* The calling thread's record while it is in a burst, else NULL. A
 * return can land in the instrumented copy while the thread is in the
 * checking code (doc/bursty.md, "Returns into the other copy"): only
 * bursts are recorded. */
static inline lp__rt_bthread *lp__rt_bt_in_burst(void)
{
    return lp__bt_mode == LP_BURSTY_INSTRUMENTED ? lp__rt_bt_self : NULL;
}

/* C callers' form of lp__bt_ref_stub (rt_tramp.S), which compiled code
 * calls and which does the same in assembly. */
void lp__bt_ref(const void *addr)
{
    lp__rt_bthread *t = lp__rt_bt_in_burst();
    if (__builtin_expect(!t, 0))
        return;
    uint64_t n = t->nrefs;
    if (__builtin_expect(n >= t->cap, 0)) {
        lp__rt_bt_store(&t->refs_dropped, t->refs_dropped + 1);
        return;
    }
    /* A handler's reference between these stores and the count's takes
     * the same slot: one of the two is lost, nothing is torn. */
    t->refs[n].pc = (uint64_t)(uintptr_t)__builtin_return_address(0);
    t->refs[n].addr = (uint64_t)(uintptr_t)addr;
    __atomic_store_n(&t->nrefs, n + 1, __ATOMIC_RELEASE);
}

void lp__rt_bt_enter_at(uint64_t r, uint64_t own)
{
    lp__rt_bthread *t = lp__rt_bt_in_burst();
    if (__builtin_expect(!t, 0))
        return;
    if (!r)
        return; /* 0 marks a free slot */
    size_t s = lp__rt_fib(r ^ (own * 0x9e3779b97f4a7c15ULL), LP__RT_BT_PAIR_BITS);
    for (unsigned i = 0; i < LP__RT_BT_PROBES; i++, s = (s + 1) & (LP__RT_BT_PAIRS - 1)) {
        lp__rt_bt_pair *p = &t->pairs[s];
        uint64_t k = lp__rt_bt_load(&p->ra);
        if (k == 0) {
            /* Claimed by compare-and-swap: a signal handler of this thread
             * may claim the same slot meanwhile. Its own is written after;
             * one seen as 0 only sends the key on to another slot, and the
             * dump adds up slots with equal keys. */
            if (__atomic_compare_exchange_n(&p->ra, &k, r, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
                __atomic_store_n(&p->own, own, __ATOMIC_RELAXED);
                __atomic_store_n(&p->count, 1, __ATOMIC_RELEASE);
                return;
            }
        }
        if (k == r && lp__rt_bt_load(&p->own) == own) {
            __atomic_store_n(&p->count, lp__rt_bt_load(&p->count) + 1, __ATOMIC_RELEASE);
            return;
        }
    }
    lp__rt_bt_store(&t->pairs_dropped, t->pairs_dropped + 1);
}

void lp__bt_enter(const void *ra)
{
    lp__rt_bt_enter_at((uint64_t)(uintptr_t)ra, (uint64_t)(uintptr_t)__builtin_return_address(0));
}

/* ---- start-up and fork ------------------------------------------------------------------- */

/* The placement names of the section: NUL-terminated strings, one per
 * module, maybe with zero padding between them. */
static void lp__rt_bt_placements(void)
{
    char *out = lp__rt_bt_placement;
    size_t cap = sizeof lp__rt_bt_placement, n = 0;
    const char *p = __start___lp_bursty, *end = __stop___lp_bursty;
    while (p < end) {
        if (!*p) {
            p++;
            continue;
        }
        size_t len = 0;
        while (p + len < end && p[len])
            len++;
        int seen = 0;
        for (size_t i = 0; i < n && !seen;) {
            size_t j = i;
            while (j < n && out[j] != ',')
                j++;
            seen = j - i == len && memcmp(out + i, p, len) == 0;
            i = j + 1;
        }
        if (!seen && n + (n ? 1 : 0) + len < cap) {
            if (n)
                out[n++] = ',';
            memcpy(out + n, p, len);
            n += len;
        }
        p += len;
    }
    out[n] = 0;
}

void lp__rt_bursty_start(void)
{
    int on = lp__rt.enabled && lp__rt_bursty_present() &&
             pthread_key_create(&lp__rt_bt_key, lp__rt_bt_release) == 0;
    if (on) {
        lp__rt_bt_placements();
        size_t bytes = LP__RT_BT_HEADER + LP__RT_BT_PAIRS * sizeof(lp__rt_bt_pair) +
                       (size_t)lp__rt.cfg.streams_limit * sizeof(lp__rt_bt_ref);
        lp__rt_bt_bytes = (bytes + 4095) & ~(size_t)4095;
    }
    __atomic_store_n(&lp__rt_bt_state, on ? LP__RT_BT_ON : LP__RT_BT_OFF, __ATOMIC_RELEASE);
}

/* Forgets what a record holds. */
static void lp__rt_bt_zero(lp__rt_bthread *t)
{
    memset(t->pairs, 0, LP__RT_BT_PAIRS * sizeof *t->pairs);
    memset(&t->pub, 0, sizeof t->pub);
    memset(&t->base, 0, sizeof t->base);
    t->threads = t->nrefs = t->refs_dropped = t->pairs_dropped = 0;
}

void lp__rt_bursty_reset(void)
{
    if (__atomic_load_n(&lp__rt_bt_state, __ATOMIC_ACQUIRE) != LP__RT_BT_ON)
        return;
    lp__rt_bthread *self = lp__rt_bt_self;
    for (lp__rt_bthread *t = lp__rt_bt_records; t; t = t->next) {
        lp__rt_bt_zero(t);
        if (t != self)
            t->in_use = 0; /* its thread is the parent's */
    }
    if (self) {
        self->threads = 1;
        self->busy = 0;
        lp_bursty_init(&self->s, lp__rt.cfg.bt_check0, lp__rt.cfg.bt_instr0);
        lp__bt_n = self->s.n_check;
        lp__bt_mode = LP_BURSTY_CHECKING;
    }
}

/* ---- the profile --------------------------------------------------------------------------- */

/* Lower-case hex of v, at least width digits, into buf; returns its end. */
static char *lp__rt_bt_hex(uint64_t v, int width, char *buf)
{
    int n = 1;
    while (n < 16 && v >> (4 * n))
        n++;
    if (n < width)
        n = width;
    for (int i = n - 1; i >= 0; i--)
        *buf++ = "0123456789abcdef"[(v >> (4 * i)) & 15];
    *buf = 0;
    return buf;
}

/* How many hottest streams the meta spells out, as the Valgrind tool
 * does (lp_vg_bursty.c): stream.SIGNATURE = their pcs in order. */
#define LP__RT_BT_DESCRIBED 20

static void lp__rt_bt_describe(lp_meta *m, const lp_streams *s)
{
    for (size_t i = 0; s && i < s->count && i < LP__RT_BT_DESCRIBED; i++) {
        const lp_stream *st = &s->stream[i];
        char key[32] = "stream.";
        lp__rt_bt_hex(st->signature, 16, key + 7);
        char *v = lp_malloc((size_t)st->length * 18 + 1), *w = v;
        if (!v)
            return;
        *w = 0;
        for (size_t k = 0; k < st->length; k++) {
            if (k)
                *w++ = ',';
            w = lp__rt_bt_hex(st->refs[k].pc, 1, w);
        }
        lp_meta_set(m, key, v);
        lp_free(v);
    }
}

/* The hot data streams of every thread's buffered references: one trace,
 * cut between threads and between bursts, into LP_PROF_STREAMS (its
 * frequencies as found in the bursts, not scaled, as lp_vg_bursty.c
 * writes them). A failure is said in the meta. */
static void lp__rt_bt_streams(lp_profile_set *set, uint64_t dropped)
{
    lp_meta *m = &set->meta;
    lp_streams_builder *b;
    if (lp_streams_builder_create(&b) != 0) {
        lp_meta_set(m, "streams-error", "out of memory for the hot data streams");
        return;
    }
    int err = 0;
    for (lp__rt_bthread *t = __atomic_load_n(&lp__rt_bt_records, __ATOMIC_ACQUIRE); t;
         t = t->next) {
        uint64_t n = __atomic_load_n(&t->nrefs, __ATOMIC_ACQUIRE);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t pc = lp__rt_bt_load(&t->refs[i].pc);
            if (!err)
                err = lp_streams_builder_push(b, pc & ~LP__RT_BT_CUT, t->refs[i].addr);
            if (err) {
                dropped++; /* the builder's limits, or no memory */
                continue;
            }
            if (pc & LP__RT_BT_CUT)
                err = lp_streams_builder_cut(b);
        }
        if (!err)
            err = lp_streams_builder_cut(b);
    }
    lp__rt_meta_u64(m, "streams-sampled-references", lp_streams_builder_length(b));
    lp__rt_meta_u64(m, "streams-sampled-cuts", lp_streams_builder_cuts(b));
    lp__rt_meta_u64(m, "streams-dropped", dropped);
    lp_streams *s = NULL;
    lp_table tab;
    lp_table_init(&tab, 0);
    if (lp_streams_builder_find(b, NULL, &s) != 0 || lp_streams_profile_table(s, &tab) != 0) {
        lp_meta_set(m, "streams-error", "out of memory finding the hot data streams");
    } else {
        lp__rt_meta_u64(m, "streams-sampled-count", s->count);
        lp__rt_meta_u64(m, "streams-sampled-coverage-ppm", (uint64_t)(s->coverage * 1e6 + 0.5));
        lp__rt_bt_describe(m, s);
        lp_profile *p;
        if (lp_profile_set_add(set, LP_PROF_STREAMS, LP_PHASE_NONE, &p) == 0) {
            lp_table_fini(&p->table);
            p->table = tab;
            lp_table_init(&tab, 0);
        }
    }
    lp_table_fini(&tab);
    lp_streams_free(s);
    lp_streams_builder_free(b);
}

/* The call pairs of every thread's bursts, and their call graph, scaled
 * by checks / instrumented checks (the inverse of the sampling rate
 * achieved, as lp_vg_bursty_finish scales). */
static int lp__rt_bt_pairs(lp_profile_set *set, const lp_bursty_stats *total)
{
    lp_table t[LP_PROF_TYPE_MAX + 1];
    lp_table_init(&t[LP_PROF_CALL_PAIR], 0);
    lp_table_init(&t[LP_PROF_CALL_GRAPH], 0);
    int rc = 0;
    for (lp__rt_bthread *r = __atomic_load_n(&lp__rt_bt_records, __ATOMIC_ACQUIRE); r && !rc;
         r = r->next)
        for (size_t s = 0; s < LP__RT_BT_PAIRS && !rc; s++) {
            lp__rt_bt_pair *p = &r->pairs[s];
            uint64_t v = __atomic_load_n(&p->count, __ATOMIC_ACQUIRE);
            uint64_t own = lp__rt_bt_load(&p->own);
            if (!v || !own)
                continue;
            /* own - 1 lies in the call of the entry's stub (or of
             * lp__bt_enter), so in the callee. */
            uint64_t callee = lp__rt_func_start(own - 1);
            rc = lp__rt_pair(t, lp__rt_bt_load(&p->ra), callee ? callee : own, v);
        }
    static const unsigned types[2] = {LP_PROF_CALL_PAIR, LP_PROF_CALL_GRAPH};
    for (unsigned i = 0; i < 2 && !rc; i++) {
        unsigned type = types[i];
        lp_profile *p;
        if ((rc = lp_profile_set_add(set, type, LP_PHASE_NONE, &p)) != 0)
            break;
        lp_table_fini(&p->table);
        p->table = t[type];
        lp_table_init(&t[type], 0);
        if (total->stretches_instr) {
            p->scale_num = total->checks;
            p->scale_den = total->stretches_instr;
        }
    }
    lp_table_fini(&t[LP_PROF_CALL_PAIR]);
    lp_table_fini(&t[LP_PROF_CALL_GRAPH]);
    return rc;
}

int lp__rt_bursty_profiles(lp_profile_set *set, int why)
{
    if (__atomic_load_n(&lp__rt_bt_state, __ATOMIC_ACQUIRE) != LP__RT_BT_ON)
        return 0;
    /* The dumping thread's own figures are as recent as they can be (the
     * main thread at exit has no key destructor to publish them); not in
     * the middle of its slow path, which a fatal signal may interrupt. */
    lp__rt_bthread *self = lp__rt_bt_self;
    if (self && !self->busy)
        lp__rt_bt_publish_live(self);
    lp_bursty_stats total = {0};
    uint64_t threads = 0, refs_dropped = 0, pairs_dropped = 0;
    for (lp__rt_bthread *t = __atomic_load_n(&lp__rt_bt_records, __ATOMIC_ACQUIRE); t;
         t = t->next) {
        total.checks += lp__rt_bt_load(&t->pub.checks);
        total.bursts += lp__rt_bt_load(&t->pub.bursts);
        total.checks_in_instr += lp__rt_bt_load(&t->pub.checks_in_instr);
        total.stretches_instr += lp__rt_bt_load(&t->pub.stretches_instr);
        threads += lp__rt_bt_load(&t->threads);
        refs_dropped += lp__rt_bt_load(&t->refs_dropped);
        pairs_dropped += lp__rt_bt_load(&t->pairs_dropped);
    }
    lp_meta *m = &set->meta;
    /* The window strategies have nothing to switch in a program with no
     * other instrumentation. */
    if (!lp__rt.nmethods && !lp__rt.nguards)
        lp_meta_set(m, "strategy", "bursty-checks");
    /* As the Valgrind tool writes them: an infinite nCheck_0 is
     * LP_BURSTY_INFINITE, which lowprof report shows as inf. */
    lp__rt_meta_u64(m, "bursty-n-check0", lp__rt.cfg.bt_check0);
    lp__rt_meta_u64(m, "bursty-n-instr0", lp__rt.cfg.bt_instr0);
    lp_meta_set(m, "bursty-placement", lp__rt_bt_placement);
    lp__rt_meta_u64(m, "bursty-checks", total.checks);
    lp__rt_meta_u64(m, "bursty-bursts", total.bursts);
    lp__rt_meta_u64(m, "bursty-instrumented-checks", total.stretches_instr);
    lp__rt_meta_u64(m, "bursty-threads", threads);
    lp__rt_meta_u64(m, "bursty-call-pairs-dropped", pairs_dropped);
    lp__rt_meta_u64(m, "streams-limit", lp__rt.cfg.streams_limit);
    int rc = 0;
    /* A program with entry sites counts its calls itself, exactly or by
     * windows; its table is not mixed with the bursts' estimate. */
    if (!lp_profile_set_find(set, LP_PROF_CALL_PAIR, LP_PHASE_NONE))
        rc = lp__rt_bt_pairs(set, &total);
    /* Finding the streams allocates in proportion to the references: not
     * in a fatal signal's arena. */
    if (!rc && why != LP__RT_DUMP_FATAL)
        lp__rt_bt_streams(set, refs_dropped);
    else if (!rc)
        lp__rt_meta_u64(m, "streams-dropped", refs_dropped);
    return rc;
}
