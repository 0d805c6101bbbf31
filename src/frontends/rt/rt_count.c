/* The handlers behind the profile instructions, on the program's hot path:
 * the entry trampoline's C half and the coverage callback. An event counts
 * when its site is switched on (it reached us at all) and the running
 * thread's profile flag for its type is set (paper section III: the
 * processor's profile flag; section V: one per profile type).
 *
 * No locks and no libc on the hot path: each thread counts into its own
 * block with plain adds (a lock-prefixed add per event made block
 * profiling twice as slow on the compress workload: 5.3 s of user time
 * against 2.5 s, 1.4 s uninstrumented), and
 * call pairs find their slot in one fixed open-addressing table of keys
 * claimed with one compare-and-swap (when it is full along a probe
 * sequence, the pair is dropped and counted). A thread's first event maps
 * its block (mmap, so even a first event inside a signal handler is safe).
 * Compiled without the instrumentation it serves, so it never re-enters
 * itself. */
#define _GNU_SOURCE
/* With gcc this file uses no vector register (inline functions from the
 * headers included), so the entry trampoline need not save xmm0-7 around
 * the fast path; lp__rt_tramp_full tells it. clang 14 has no such switch
 * for x86: there the trampoline always saves them. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC target("general-regs-only")
#define LP__RT_LEAN 1
#else
#define LP__RT_LEAN 0
#endif
#include <limits.h>
#include <link.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "rt_internal.h"

/* Every flag starts set in every thread: the initial image of the TLS
 * block carries it, so there is no per-thread initialisation to miss. */
__thread lp_pf_state lp__rt_pf __attribute__((tls_model("initial-exec"))) = {
    .flags = (1u << LP_RT_TYPES) - 1,
};

/* The calling thread's counter block, NULL until its first event. */
static __thread lp__rt_tcounts *lp__rt_tc __attribute__((tls_model("initial-exec")));

/* A block's header: the struct, then the counters from this offset (a
 * cache line of its own after it). */
#define LP__RT_TC_HEADER 128
_Static_assert(sizeof(lp__rt_tcounts) <= LP__RT_TC_HEADER, "the counter block's header");

static pthread_key_t lp__rt_tc_key;
static size_t lp__rt_tc_bytes;

/* An increment of a counter only this thread writes: a plain add (no lock
 * prefix), atomic only so that readers and sanitizers see whole values. */
static inline void lp__rt_add(uint64_t *p, uint64_t n)
{
    __atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}

static inline void lp__rt_inc(uint64_t *p)
{
    lp__rt_add(p, 1);
}

/* The calling thread's id (for lp__rt_cpu_ns). */
static int32_t lp__rt_gettid(void)
{
    return (int32_t)lp__rt_syscall4(SYS_gettid, 0, 0, 0, 0);
}

/* ---- the copies' inline counters: each thread's twins, read at the gate ---- */

__thread uint64_t lp__rt_cp_lo __attribute__((tls_model("initial-exec")));
__thread uint64_t lp__rt_cp_len __attribute__((tls_model("initial-exec")));
__thread uint32_t lp__rt_cp_skip __attribute__((tls_model("initial-exec")));
uint64_t *lp__rt_cnt_start;

/* One entry of the table lowprof cc writes (cc_counters.c): a counter
 * array of the section, its thread-local twin's offset in the
 * executable's TLS block (@dtpoff: the linker resolves it in an
 * executable and in a shared library alike), its length. */
typedef struct lp__rt_tls_ent {
    uint64_t arr;
    int64_t dtpoff;
    uint64_t k;
} lp__rt_tls_ent;

/* lp__rt_cp_lo's offset in the same block. The runtime is linked into
 * the executable, so its TLS block is the twins' and the block's place
 * from the thread pointer is lp__rt_cp_lo's address less this. */
__asm__(".pushsection .rodata\n"
        ".p2align 3\n"
        "lp__rt_cp_lo_dtpoff: .quad lp__rt_cp_lo@dtpoff\n"
        ".popsection\n");
extern const int64_t lp__rt_cp_lo_dtpoff __attribute__((visibility("hidden")));
extern const lp__rt_tls_ent __start___lp_tls64[] __attribute__((weak));
extern const lp__rt_tls_ent __stop___lp_tls64[] __attribute__((weak));

/* The twins as runs of counters: guards g0 .. g0+n-1 at tp + tpoff. */
typedef struct lp__rt_seg {
    size_t g0, n;
    int64_t tpoff;
} lp__rt_seg;
static lp__rt_seg *lp__rt_segs;
static size_t lp__rt_nsegs;
size_t lp__rt_twinned;

/* Serialises every change of a thread's counting state (tp, counting,
 * snap, blocks_refused's effect) and every read of another thread's
 * twins with that thread's exit, after which its TLS is gone. A mutex, so
 * that waiters sleep: threads that spun for it (with yields) while its
 * holder waited for a processor burnt the CPU time of a window without
 * counting in it (16 threads on two processors: one window in seven came
 * out at a tenth of its calls). */
static pthread_mutex_t lp__rt_gate_lock = PTHREAD_MUTEX_INITIALIZER;

static void lp__rt_gate_take(void)
{
    pthread_mutex_lock(&lp__rt_gate_lock);
}

/* The lock by trying, sleeping 50 us between tries: for a thread's first
 * event, which may come in a signal handler (a thread that has not met
 * the runtime never holds the lock, so it cannot wait for itself), and
 * for the profile written at a fatal signal, which after tries gives up
 * (0) and reads without it: the thread that crashed may hold it. */
static int lp__rt_gate_try(unsigned tries)
{
    for (unsigned i = 0; i < tries; i++) {
        if (pthread_mutex_trylock(&lp__rt_gate_lock) == 0)
            return 1;
        struct timespec ts = {0, 50000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

static void lp__rt_gate_give(void)
{
    pthread_mutex_unlock(&lp__rt_gate_lock);
}

/* The calling thread's thread pointer (x86-64: %fs holds it, and its
 * first word points at itself). */
static uint8_t *lp__rt_thread_pointer(void)
{
    uint8_t *tp;
    __asm__("movq %%fs:0, %0" : "=r"(tp));
    return tp;
}

/* The thread has ended (its key destructor ran): no new block for it. */
static __thread int lp__rt_tc_gone __attribute__((tls_model("initial-exec")));

/* Whether the calling thread's flags stop its copies' counting: one
 * counter per block serves every profile type, so the counters count only
 * while the thread's flag of each type the run profiles is set. */
static uint8_t lp__rt_flags_refuse(void)
{
    for (unsigned t = 0; t < LP_RT_TYPES; t++)
        if (((lp__rt.cfg.types >> t) & 1) && !lp_pf_get(&lp__rt_pf, t))
            return 1;
    return 0;
}

/* Segment s's twins in the thread whose thread pointer is tp. */
static inline const uint64_t *lp__rt_twin(const uint8_t *tp, const lp__rt_seg *s)
{
    return (const uint64_t *)(const void *)(tp + s->tpoff);
}

/* The rest, under the gate lock. tc's copies start counting into b: its
 * twins now are where b's share starts. */
static void lp__rt_cnt_open(lp__rt_tcounts *tc)
{
    for (size_t i = 0; i < lp__rt_nsegs; i++) {
        const lp__rt_seg *s = &lp__rt_segs[i];
        const uint64_t *t = lp__rt_twin(tc->tp, s);
        for (size_t j = 0; j < s->n; j++)
            tc->snap[s->g0 + j] = __atomic_load_n(&t[j], __ATOMIC_RELAXED);
    }
    __atomic_store_n(&tc->counting, 1, __ATOMIC_RELAXED);
}

/* Adds to dst what tc's copies counted since its snap (dst may be read
 * by others meanwhile: whole values only). */
static void lp__rt_cnt_add_live(const lp__rt_tcounts *tc, uint64_t *dst)
{
    for (size_t i = 0; i < lp__rt_nsegs; i++) {
        const lp__rt_seg *s = &lp__rt_segs[i];
        const uint64_t *t = lp__rt_twin(tc->tp, s);
        for (size_t j = 0; j < s->n; j++) {
            uint64_t *d = &dst[s->g0 + j];
            uint64_t v = __atomic_load_n(&t[j], __ATOMIC_RELAXED) - tc->snap[s->g0 + j];
            if (v)
                __atomic_store_n(d, __atomic_load_n(d, __ATOMIC_RELAXED) + v, __ATOMIC_RELAXED);
        }
    }
}

/* tc's copies stop counting into b: b gains what they counted since. */
static void lp__rt_cnt_close(lp__rt_tcounts *tc)
{
    __atomic_store_n(&tc->counting, 0, __ATOMIC_RELAXED);
    lp__rt_cnt_add_live(tc, tc->b);
}

/* Whether tc's copies should count now: the blocks' switch and its flags. */
static uint8_t lp__rt_cnt_wanted(const lp__rt_tcounts *tc)
{
    return __atomic_load_n(&lp__rt.blocks_on, __ATOMIC_SEQ_CST) &&
           !__atomic_load_n(&tc->blocks_refused, __ATOMIC_RELAXED);
}

/* Opens or closes tc's counting as the blocks' switch and its flags say. */
static void lp__rt_cnt_settle(lp__rt_tcounts *tc)
{
    if (!__atomic_load_n(&tc->tp, __ATOMIC_ACQUIRE))
        return; /* not attached yet, or ended */
    uint8_t want = lp__rt_cnt_wanted(tc);
    if (want && !tc->counting)
        lp__rt_cnt_open(tc);
    else if (!want && tc->counting)
        lp__rt_cnt_close(tc);
}

/* Counter g's twin in the thread whose thread pointer is tp: its value
 * now (0 when g has no twin). */
static uint64_t lp__rt_twin_value(const uint8_t *tp, size_t g)
{
    for (size_t lo = 0, hi = lp__rt_nsegs; lo < hi;) {
        size_t mid = lo + (hi - lo) / 2;
        const lp__rt_seg *s = &lp__rt_segs[mid];
        if (g < s->g0)
            hi = mid;
        else if (g >= s->g0 + s->n)
            lo = mid + 1;
        else
            return __atomic_load_n(&lp__rt_twin(tp, s)[g - s->g0], __ATOMIC_RELAXED);
    }
    return 0;
}

/* What tc's copies have counted into b and not yet added to it. */
static uint64_t lp__rt_cnt_live(const lp__rt_tcounts *tc, size_t g)
{
    const uint8_t *tp = __atomic_load_n(&tc->tp, __ATOMIC_ACQUIRE);
    if (!tc->counting || !tp)
        return 0;
    return lp__rt_twin_value(tp, g) - tc->snap[g];
}

/* What the ended threads' twins held (lp__rt_cnt_total), under the gate
 * lock. */
static uint64_t *lp__rt_cnt_gone;

/* The CPU time when the gate last opened or closed the threads' counting
 * (0: never), and whether it was opening. */
static uint64_t lp__rt_gate_cpu;
static uint8_t lp__rt_gate_open;

void lp__rt_cnt_gate(void)
{
    if (!lp__rt_cnt_start)
        return;
    lp__rt_gate_take();
    uint8_t on = __atomic_load_n(&lp__rt.blocks_on, __ATOMIC_SEQ_CST);
    for (lp__rt_tcounts *tc = __atomic_load_n(&lp__rt.blocks, __ATOMIC_SEQ_CST); tc;
         tc = tc->next)
        lp__rt_cnt_settle(tc);
    if (on != lp__rt_gate_open) {
        /* a window's edge: every thread's time up to date, since the
         * window's CPU time is the difference of two of these (16 busy
         * threads on two processors: a thread beyond the first four ran
         * up to 4 ms past its last tick at either edge) */
        lp__rt_gate_open = on;
        __atomic_store_n(&lp__rt_gate_cpu, lp__rt_cpu_fresh(UINT_MAX), __ATOMIC_RELAXED);
    }
    lp__rt_gate_give();
}

uint64_t lp__rt_cnt_gate_cpu(void)
{
    return __atomic_load_n(&lp__rt_gate_cpu, __ATOMIC_RELAXED);
}

void lp__rt_cnt_gate_off(void)
{
    __atomic_store_n(&lp__rt.blocks_on, 0, __ATOMIC_SEQ_CST);
    lp__rt_cnt_gate();
}

void lp__rt_cnt_regate_self(void)
{
    lp__rt_tcache_forget(); /* the thread's flags decide the trampoline's */
    lp__rt_tcounts *tc = lp__rt_tc;
    if (!lp__rt_cnt_start || !tc)
        return;
    lp__rt_gate_take();
    __atomic_store_n(&tc->blocks_refused, lp__rt_flags_refuse(), __ATOMIC_RELAXED);
    lp__rt_cnt_settle(tc);
    lp__rt_gate_give();
}

/* Gives the calling thread's copy counters its block tc. Its twins hold
 * what it counted since it started (a new thread's TLS starts zeroed):
 * while blocks are on, all of that counts, as the shared arrays counted a
 * thread not seen yet before the twins. A thread that switched methods
 * before its first event (lp_rt_setpf takes the lock) and then met one in
 * a signal handler would wait for itself: after a second it goes without
 * its copies' counts rather than hang. */
static void lp__rt_cnt_attach(lp__rt_tcounts *tc)
{
    if (!lp__rt_cnt_start || !lp__rt_gate_try(20000))
        return;
    tc->blocks_refused = lp__rt_flags_refuse();
    tc->counting = lp__rt_cnt_wanted(tc);
    if (tc->counting) /* from the thread's start, not from now */
        memset(tc->snap, 0, lp__rt.nguards * sizeof *tc->snap);
    __atomic_store_n(&tc->tp, lp__rt_thread_pointer(), __ATOMIC_RELEASE);
    lp__rt_gate_give();
}

/* Adds the twins of the thread whose thread pointer is tp to dst. */
static void lp__rt_cnt_add_twins(const uint8_t *tp, uint64_t *dst)
{
    for (size_t i = 0; i < lp__rt_nsegs; i++) {
        const lp__rt_seg *s = &lp__rt_segs[i];
        const uint64_t *t = lp__rt_twin(tp, s);
        for (size_t j = 0; j < s->n; j++)
            dst[s->g0 + j] += __atomic_load_n(&t[j], __ATOMIC_RELAXED);
    }
}

/* At thread exit: what its copies counted goes into its block, and the
 * block goes back for the next new thread. */
static void lp__rt_tc_release(void *p)
{
    lp__rt_tcounts *tc = p;
    lp__rt_tc_gone = 1;
    lp__rt_tc = NULL;
    lp__rt_oc_thread_end();
    if (lp__rt_cnt_start) {
        lp__rt_gate_take();
        if (tc->counting)
            lp__rt_cnt_close(tc);
        if (tc->tp && lp__rt_cnt_gone)
            lp__rt_cnt_add_twins(tc->tp, lp__rt_cnt_gone);
        __atomic_store_n(&tc->tp, NULL, __ATOMIC_RELEASE);
        lp__rt_gate_give();
    }
    __atomic_store_n(&tc->tid, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&tc->in_use, 0, __ATOMIC_RELEASE);
}

/* A block for the calling thread: a released one, or a fresh mmap. Only
 * system calls and atomics, so an event in a signal handler may get here. */
static lp__rt_tcounts *lp__rt_tc_get(void)
{
    lp__rt_tcounts *tc;
    if (lp__rt_tc_gone)
        return NULL;
    for (tc = __atomic_load_n(&lp__rt.blocks, __ATOMIC_ACQUIRE); tc; tc = tc->next) {
        int expected = 0;
        if (__atomic_load_n(&tc->in_use, __ATOMIC_RELAXED) == 0 &&
            __atomic_compare_exchange_n(&tc->in_use, &expected, 1, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED))
            break;
    }
    if (!tc) {
        void *p = mmap(NULL, lp__rt_tc_bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
        tc = p;
        uint64_t *words = (uint64_t *)((char *)p + LP__RT_TC_HEADER);
        tc->m = words;
        tc->b = tc->m + lp__rt.nmethods;
        tc->a = tc->b + lp__rt.nguards;
        tc->snap = lp__rt_cnt_start ? tc->a + lp__rt.arc_mask + 1 : NULL;
        tc->icache = lp__rt_cnt_start ? tc->snap + lp__rt.nguards : NULL;
        tc->bytes = lp__rt_tc_bytes;
        tc->in_use = 1;
        lp__rt_tcounts *head = __atomic_load_n(&lp__rt.blocks, __ATOMIC_RELAXED);
        do
            tc->next = head;
        while (!__atomic_compare_exchange_n(&lp__rt.blocks, &head, tc, 1, __ATOMIC_RELEASE,
                                            __ATOMIC_RELAXED));
    }
    __atomic_store_n(&tc->tid, lp__rt_gettid(), __ATOMIC_RELAXED);
    lp__rt_tc = tc;
    pthread_setspecific(lp__rt_tc_key, tc);
    lp__rt_cnt_attach(tc);
    return tc;
}

static inline lp__rt_tcounts *lp__rt_tc_self(void)
{
    lp__rt_tcounts *tc = lp__rt_tc;
    return tc ? tc : lp__rt_tc_get();
}

void lp__rt_thread_attach(void)
{
    (void)lp__rt_tc_self();
}

/* The probe sequence for a call pair: linear from the hash, at most this
 * many slots before the pair counts as dropped. */
#define LP__RT_ARC_PROBES 64

/* The slot of key, claiming an empty one; SIZE_MAX when the table is full
 * along the probe sequence. */
static inline size_t lp__rt_arc_slot(uint64_t key)
{
    size_t mask = lp__rt.arc_mask;
    size_t s = lp__rt_fib(key, lp__rt.arc_bits);
    for (unsigned i = 0; i < LP__RT_ARC_PROBES; i++, s = (s + 1) & mask) {
        uint64_t k = __atomic_load_n(&lp__rt.arc_keys[s], __ATOMIC_ACQUIRE);
        if (k == key)
            return s;
        if (k == 0) {
            uint64_t expected = 0;
            if (__atomic_compare_exchange_n(&lp__rt.arc_keys[s], &expected, key, 0,
                                            __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
                expected == key)
                return s;
        }
    }
    __atomic_fetch_add(&lp__rt.arc_drops, 1, __ATOMIC_RELAXED);
    return SIZE_MAX;
}

static inline size_t lp__rt_map_find(uint64_t site)
{
    size_t mask = lp__rt.map_mask;
    size_t s = lp__rt_fib(site, lp__rt.map_bits);
    for (;;) {
        uint64_t k = lp__rt.map_keys[s];
        if (k == site)
            return lp__rt.map_vals[s];
        if (k == 0)
            return SIZE_MAX;
        s = (s + 1) & mask;
    }
}

const unsigned char lp__rt_tramp_full = !LP__RT_LEAN;

/* The copies' bounds (lowprof cc puts them into one section). */
extern const char __start_lp_copies[] __attribute__((weak));
extern const char __stop_lp_copies[] __attribute__((weak));

/* Counts method m's entry from ret into counter block tc. A call from a
 * copy is counted by the copy's call site (a clock method's entry comes
 * here from copies too), so its pair is not counted again. Returns 1 if a
 * trampoline cache entry may stand for the call, with the pair's counter
 * in *aslot (NULL when a copy called). */
static inline int lp__rt_count_entry(lp__rt_tcounts *tc, size_t m, uint64_t ret, uint64_t **aslot)
{
    lp__rt_inc(&tc->m[m]);
    *aslot = NULL;
    if (__builtin_expect(ret - (uint64_t)(uintptr_t)__start_lp_copies <
                             (uint64_t)(uintptr_t)(__stop_lp_copies - __start_lp_copies),
                         0))
        return 1;
    size_t s = lp__rt_arc_slot(lp__rt_arc_key(ret, m));
    if (__builtin_expect(s != SIZE_MAX, 1)) {
        lp__rt_inc(&tc->a[s]);
        *aslot = &tc->a[s];
    }
    if (__builtin_expect(lp__rt.count_events, 0))
        lp__rt_inc(&tc->events);
    return s != SIZE_MAX && !lp__rt.count_events;
}

/* Where a call to method m goes on: its copy while its blocks are on and
 * the thread's block flag is set, else on (0). */
static inline uint64_t lp__rt_copy_target(const lp__rt_method *m)
{
    if (m->copy && !__atomic_load_n(&m->clock, __ATOMIC_RELAXED) &&
        __atomic_load_n(&m->on[LP_RT_BLOCKS], __ATOMIC_RELAXED) &&
        lp_pf_get(&lp__rt_pf, LP_RT_BLOCKS))
        return m->copy;
    return 0;
}

/* Whether the entry of method m counts: its function events are on (the
 * entry may be on for its copy alone) and so is the thread's flag. */
static inline int lp__rt_entry_counts(const lp__rt_method *m)
{
    return __atomic_load_n(&m->on[LP_RT_FUNCTIONS], __ATOMIC_RELAXED) &&
           lp_pf_get(&lp__rt_pf, LP_RT_FUNCTIONS);
}

uint64_t lp__rt_on_entry(uint64_t site, uint64_t ret)
{
    uint64_t gen = __atomic_load_n(&lp__rt_tramp_gen, __ATOMIC_ACQUIRE);
    if (!__atomic_load_n(&lp__rt.live, __ATOMIC_RELAXED))
        return 0;
    size_t m = lp__rt_map_find(site);
    if (__builtin_expect(m == SIZE_MAX, 0))
        return 0;
    const lp__rt_method *mm = &lp__rt.methods[m];
    uint64_t to = lp__rt_copy_target(mm);
    if (lp__rt_entry_counts(mm)) {
        lp__rt_tcounts *tc = lp__rt_tc;
        if (__builtin_expect(!tc, 0))
            return 1; /* the thread's first event: the slow path maps a block */
        uint64_t *aslot;
        if (lp__rt_count_entry(tc, m, ret, &aslot) && !to)
            lp__rt_tcache_set(gen, site + 5, ret, &tc->m[m], aslot);
    }
    return to;
}

uint64_t lp__rt_on_entry_slow(uint64_t site, uint64_t ret)
{
    if (!__atomic_load_n(&lp__rt.live, __ATOMIC_RELAXED))
        return 0;
    size_t m = lp__rt_map_find(site);
    if (m == SIZE_MAX)
        return 0;
    const lp__rt_method *mm = &lp__rt.methods[m];
    if (lp__rt_entry_counts(mm)) {
        lp__rt_tcounts *tc = lp__rt_tc_self();
        uint64_t *aslot;
        if (tc)
            (void)lp__rt_count_entry(tc, m, ret, &aslot);
    }
    return lp__rt_copy_target(mm);
}

/* ---- sanitizer coverage --------------------------------------------------------------- */

__attribute__((visibility("default"))) void __sanitizer_cov_trace_pc_guard(uint32_t *guard);
__attribute__((visibility("default"))) void __sanitizer_cov_trace_pc_guard_init(uint32_t *start,
                                                                                uint32_t *stop);
__attribute__((visibility("default"))) void __sanitizer_cov_pcs_init(const uintptr_t *beg,
                                                                     const uintptr_t *end);

void __sanitizer_cov_trace_pc_guard(uint32_t *guard)
{
    uint32_t g = *guard;
    if (!g || !lp_pf_get(&lp__rt_pf, LP_RT_BLOCKS) ||
        !__atomic_load_n(&lp__rt.live, __ATOMIC_RELAXED))
        return;
    /* A copy runs on after its method's blocks are switched off, until it
     * returns: count only while they are on, so that the counts match the
     * time they are scaled by. A static copy that only other copies call
     * counts while any method's blocks are on. */
    if (lp__rt.ncopies && lp__rt.guard_method && lp__rt.guard_method[g - 1] >= 0) {
        const lp__rt_method *m = &lp__rt.methods[lp__rt.guard_method[g - 1]];
        const uint8_t *on = m->copy ? &m->on[LP_RT_BLOCKS] : &lp__rt.blocks_on;
        if (!__atomic_load_n(on, __ATOMIC_RELAXED))
            return;
    }
    lp__rt_tcounts *tc = lp__rt_tc_self();
    if (!tc)
        return;
    lp__rt_inc(&tc->b[g - 1]);
    if (lp__rt.count_events)
        lp__rt_inc(&tc->events);
}

/* Called by each instrumented module's constructor before the runtime's
 * (a shared library's before the executable's). Only the executable's
 * guards are numbered (1, 2, ...; 0 means "not counted"): its text is what
 * the runtime can switch. */
/* dl_iterate_phdr's first object is the executable: whether p lies in one
 * of its segments. */
static int lp__rt_main_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    uintptr_t *p = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && *p >= lo && *p - lo < ph->p_memsz)
            *p = 0;
    }
    return 1; /* the first object only */
}

static int lp__rt_in_executable(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    dl_iterate_phdr(lp__rt_main_cb, &a);
    return a == 0;
}

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop)
{
    if (start == stop || *start || lp__rt.guards_start || !lp__rt_in_executable(start))
        return;
    lp__rt.guards_start = start;
    lp__rt.guards_stop = stop;
    lp__rt.nguards = (size_t)(stop - start);
    for (size_t i = 0; i < lp__rt.nguards; i++)
        start[i] = (uint32_t)(i + 1);
}

void __sanitizer_cov_pcs_init(const uintptr_t *beg, const uintptr_t *end)
{
    if (lp__rt.pcs_start || !lp__rt.guards_start)
        return;
    lp__rt.pcs_start = beg;
    lp__rt.pcs_end = end;
}

/* The copies' counters and their pc-table, from the constructor that
 * clang's coverage pass writes (renamed by lowprof cc): the executable's
 * only; a build has either these or guards. */
__attribute__((visibility("default"))) void lp__rt_cov_counters_init(uint64_t *start,
                                                                      uint64_t *stop);
__attribute__((visibility("default"))) void lp__rt_cov_pcs_init(const uintptr_t *beg,
                                                                const uintptr_t *end);

void lp__rt_cov_counters_init(uint64_t *start, uint64_t *stop)
{
    if (start == stop || lp__rt_cnt_start || lp__rt.guards_start || !lp__rt_in_executable(start))
        return;
    lp__rt_cnt_start = start;
    lp__rt.nguards = (size_t)(stop - start);
}

void lp__rt_cov_pcs_init(const uintptr_t *beg, const uintptr_t *end)
{
    if (lp__rt.pcs_start || !lp__rt_cnt_start)
        return;
    lp__rt.pcs_start = beg;
    lp__rt.pcs_end = end;
}

/* The site table's bounds, from the linker: NULL when no object has one. */
extern const lp__rt_csite __start___lp_sites64[] __attribute__((weak));
extern const lp__rt_csite __stop___lp_sites64[] __attribute__((weak));

const lp__rt_csite *lp__rt_csites(size_t *n)
{
    const lp__rt_csite *a = __start___lp_sites64, *b = __stop___lp_sites64;
    *n = lp__rt_cnt_start && a && b > a ? (size_t)(b - a) : 0;
    return a;
}

long lp__rt_callee_method(uint64_t addr)
{
    long m = lp__rt_method_exact(addr);
    if (m < 0 && lp__rt.ncopies) {
        long c = lp__rt_copy_at(addr);
        if (c >= 0 && lp__rt.copies[c].start == addr)
            m = lp__rt.copies[c].method;
    }
    return m;
}

/* An indirect call in a copy, just before it is made (cc_sites.c puts the
 * call there, with the indirect call's line): counter is its block's,
 * target where it goes. Counts the pair while the thread's increments
 * count into its block, keyed by this call's return
 * address, which lies in the caller at the indirect call's line. */
__attribute__((visibility("default"))) void lp__rt_cp_icall(uint64_t *counter, void *target);

/* The method at target, from the thread's cache of recent targets: a
 * lookup by address is a binary search over the methods, and the same
 * few targets come again and again (raytrace's shading callbacks; 3.4 %
 * of its instructions always on went to the search). A signal handler
 * that counts an indirect call while the thread is updating the cache
 * searches without it. */
static long lp__rt_icall_method(lp__rt_tcounts *tc, uint64_t target)
{
    if (tc->icall_busy)
        return lp__rt_callee_method(target);
    tc->icall_busy = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    uint64_t *e = &tc->icache[2 * lp__rt_fib(target, LP__RT_ICACHE_BITS)];
    long m;
    if (e[0] == target && target) {
        m = (long)e[1] - 1;
    } else {
        m = lp__rt_callee_method(target);
        e[0] = target;
        e[1] = (uint64_t)(m + 1);
    }
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    tc->icall_busy = 0;
    return m;
}

void lp__rt_cp_icall(uint64_t *counter, void *target)
{
    lp__rt_tcounts *tc = lp__rt_tc;
    if (!tc || !lp__rt_cnt_start || !lp__rt.pcs_start ||
        !__atomic_load_n(&tc->counting, __ATOMIC_RELAXED))
        return;
    size_t g = (size_t)(counter - lp__rt_cnt_start);
    if (g < lp__rt.nguards && lp__rt.guard_icall &&
        !__atomic_load_n(&lp__rt.guard_icall[g], __ATOMIC_RELAXED))
        __atomic_store_n(&lp__rt.guard_icall[g], 1, __ATOMIC_RELAXED); /* rt_clock.c */
    long m = lp__rt_icall_method(tc, (uint64_t)(uintptr_t)target);
    if (g >= lp__rt.nguards || m < 0)
        return;
    size_t s = lp__rt_arc_slot(
        lp__rt_arc_key((uint64_t)(uintptr_t)__builtin_return_address(0), (size_t)m));
    if (s != SIZE_MAX)
        lp__rt_inc(&tc->a[s]);
}

/* Counts the call pair (r, the method of the copy whose entry counter is
 * counter) for the calling thread tc while its copies count. The table's
 * first probe is tried inline; a miss (a new pair, a collision) takes the
 * whole probe sequence out of line, so the common path needs no saved
 * registers. */
static __attribute__((noinline)) size_t lp__rt_arc_slot_far(uint64_t key)
{
    return lp__rt_arc_slot(key);
}

static inline uint64_t *lp__rt_cp_count(lp__rt_tcounts *tc, uint64_t r, const uint64_t *counter)
{
    size_t g = (size_t)(counter - lp__rt_cnt_start);
    if (g >= lp__rt.nguards || !lp__rt.guard_method ||
        !__atomic_load_n(&tc->counting, __ATOMIC_RELAXED))
        return NULL;
    int32_t m = lp__rt.guard_method[g];
    if (m < 0)
        return NULL;
    uint64_t key = lp__rt_arc_key(r, (size_t)m);
    size_t s = lp__rt_fib(key, lp__rt.arc_bits);
    if (__atomic_load_n(&lp__rt.arc_keys[s], __ATOMIC_ACQUIRE) != key)
        s = lp__rt_arc_slot_far(key);
    if (s == SIZE_MAX)
        return NULL;
    /* One call in lp__rt_oc_every comes here (rt_caches.c). */
    lp__rt_add(&tc->a[s], lp__rt_oc_every);
    lp__rt_add(&tc->outside, lp__rt_oc_every);
    return &tc->a[s];
}

/* lp__rt_cp_enter for a thread the runtime has not seen yet (its entry
 * check's view is empty, so every copy it enters comes here): gives it its
 * counter block and its view of the copies, then counts as below. */
static __attribute__((noinline, cold)) void lp__rt_cp_enter_first(uint64_t off,
                                                                   uint64_t *counter)
{
    uint64_t r = off + (uint64_t)lp__rt_cp_lo;
    if (!__atomic_load_n(&lp__rt.live, __ATOMIC_RELAXED) || !lp__rt_cnt_start)
        return;
    lp__rt_thread_attach();
    lp__rt_tcounts *tc = lp__rt_tc;
    uint64_t lo = (uint64_t)(uintptr_t)__start_lp_copies, hi = (uint64_t)(uintptr_t)__stop_lp_copies;
    /* From now on only calls from outside the copies come here. */
    lp__rt_cp_lo = lo;
    lp__rt_cp_len = hi - lo;
    if (tc && !(r >= lo && r < hi))
        lp__rt_cp_count(tc, r, counter);
}

/* A copy's entry called from outside the copies, or in a thread the
 * runtime has not seen yet: counts the call pair (return address, the
 * copy's method) while the thread's increments count. off is the return
 * address less the thread's lp__rt_cp_lo, which the entry check has just
 * computed (passing it rather than the address spares the check a
 * register copy); counter is the copy's entry counter. Reached through
 * lp__rt_cp_enter_stub: a qsort comparator takes this path at every call
 * in a window, so the first call's work stays out of line and the common
 * path saves no registers (graph always on: 30 instructions fewer a call). */
__attribute__((visibility("default"))) void lp__rt_cp_enter(uint64_t off, uint64_t *counter);

void lp__rt_cp_enter(uint64_t off, uint64_t *counter)
{
    lp__rt_oc_skip_next();
    lp__rt_tcounts *tc = lp__rt_tc;
    if (__builtin_expect(!tc || !lp__rt_cp_len || !__atomic_load_n(&lp__rt.live, __ATOMIC_RELAXED),
                         0)) {
        lp__rt_cp_enter_first(off, counter);
        return;
    }
    /* The thread's view is set, so the check found the caller outside. */
    uint64_t *slot = lp__rt_cp_count(tc, off + (uint64_t)lp__rt_cp_lo, counter);
    if (slot)
        lp__rt_oc_keep(off, counter, slot, &tc->counting, &tc->outside);
}

uint64_t lp__rt_outside_calls(void)
{
    uint64_t n = 0;
    for (lp__rt_tcounts *tc = __atomic_load_n(&lp__rt.blocks, __ATOMIC_ACQUIRE); tc; tc = tc->next)
        n += __atomic_load_n(&tc->outside, __ATOMIC_RELAXED);
    return n;
}

/* ---- counters ------------------------------------------------------------------------------ */

/* The smallest power of two at least n (and 1024); its log2 in *bits. */
static size_t lp__rt_pow2(size_t n, unsigned *bits)
{
    size_t c = 1024;
    *bits = 10;
    while (c < n) {
        c *= 2;
        ++*bits;
    }
    return c;
}

static int lp__rt_seg_cmp(const void *x, const void *y)
{
    const lp__rt_seg *a = x, *b = y;
    return (a->g0 > b->g0) - (a->g0 < b->g0);
}

/* The twins' table, checked against the section: an entry whose array is
 * not one of the section's (a shared library's, a malformed one) is left
 * out, and its counters read 0. */
static int lp__rt_segs_load(void)
{
    const lp__rt_tls_ent *e = __start___lp_tls64, *end = __stop___lp_tls64;
    size_t n = e && end > e ? (size_t)(end - e) : 0;
    lp__rt_segs = n ? calloc(n, sizeof *lp__rt_segs) : NULL;
    if (n && !lp__rt_segs)
        return -1;
    uint64_t lo = (uint64_t)(uintptr_t)lp__rt_cnt_start;
    int64_t block = (int64_t)((uint8_t *)&lp__rt_cp_lo - lp__rt_thread_pointer()) -
                    lp__rt_cp_lo_dtpoff;
    for (size_t i = 0; i < n; i++) {
        uint64_t g0 = (e[i].arr - lo) / sizeof(uint64_t);
        if (e[i].arr < lo || (e[i].arr - lo) % sizeof(uint64_t) || g0 >= lp__rt.nguards ||
            e[i].k > lp__rt.nguards - g0 || !e[i].k)
            continue;
        lp__rt_segs[lp__rt_nsegs++] = (lp__rt_seg){(size_t)g0, (size_t)e[i].k, block + e[i].dtpoff};
    }
    qsort(lp__rt_segs, lp__rt_nsegs, sizeof *lp__rt_segs, lp__rt_seg_cmp);
    /* An entry that overlaps the one before (a malformed table) goes. */
    size_t kept = 0;
    for (size_t i = 0; i < lp__rt_nsegs; i++)
        if (!kept || lp__rt_segs[i].g0 >= lp__rt_segs[kept - 1].g0 + lp__rt_segs[kept - 1].n)
            lp__rt_segs[kept++] = lp__rt_segs[i];
    lp__rt_nsegs = kept;
    for (size_t i = 0; i < kept; i++)
        lp__rt_twinned += lp__rt_segs[i].n;
    return 0;
}

static int lp__rt_seg_tp_cmp(const void *x, const void *y)
{
    const lp__rt_seg *a = x, *b = y;
    return (a->tpoff > b->tpoff) - (a->tpoff < b->tpoff);
}

void lp__rt_cnt_guards_at(const int64_t *tpoff, long *guard, size_t n)
{
    lp__rt_seg *by_tp = lp__rt_nsegs ? malloc(lp__rt_nsegs * sizeof *by_tp) : NULL;
    if (by_tp) {
        memcpy(by_tp, lp__rt_segs, lp__rt_nsegs * sizeof *by_tp);
        qsort(by_tp, lp__rt_nsegs, sizeof *by_tp, lp__rt_seg_tp_cmp);
    }
    for (size_t i = 0; i < n; i++) {
        guard[i] = -1;
        size_t lo = 0, hi = by_tp ? lp__rt_nsegs : 0;
        while (lo < hi) { /* the last run starting at or before tpoff[i] */
            size_t mid = lo + (hi - lo) / 2;
            if (by_tp[mid].tpoff <= tpoff[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        if (!lo)
            continue;
        const lp__rt_seg *s = &by_tp[lo - 1];
        uint64_t off = (uint64_t)(tpoff[i] - s->tpoff);
        if (off % sizeof(uint64_t) == 0 && off / sizeof(uint64_t) < s->n)
            guard[i] = (long)(s->g0 + off / sizeof(uint64_t));
    }
    free(by_tp);
}

int lp__rt_counters_init(void)
{
    size_t arcs = lp__rt.cfg.arcs ? lp__rt.cfg.arcs : 8 * lp__rt.nmethods;
    arcs = lp__rt_pow2(arcs < (1u << 22) ? arcs : (1u << 22), &lp__rt.arc_bits);
    lp__rt.arc_keys = calloc(arcs, sizeof *lp__rt.arc_keys);
    if (!lp__rt.arc_keys || pthread_key_create(&lp__rt_tc_key, lp__rt_tc_release) != 0)
        return LP_ENOMEM;
    lp__rt.arc_mask = arcs - 1;
    if (lp__rt_cnt_start && lp__rt_segs_load() != 0)
        return LP_ENOMEM;
    if (lp__rt_cnt_start &&
        !(lp__rt_cnt_gone = calloc(lp__rt.nguards + 1, sizeof *lp__rt_cnt_gone)))
        return LP_ENOMEM;
    /* m, b and a, then (inline counters) snap and icache */
    size_t words = lp__rt.nmethods + lp__rt.nguards + arcs +
                   (lp__rt_cnt_start ? lp__rt.nguards + 2 * LP__RT_ICACHE : 0);
    lp__rt_tc_bytes = (LP__RT_TC_HEADER + words * sizeof(uint64_t) + 4095) & ~(size_t)4095;
    return 0;
}

void lp__rt_counters_reset(void)
{
    /* A thread that was ending at the fork may have held it. */
    pthread_mutex_init(&lp__rt_gate_lock, NULL);
    /* The calling thread's twins start again from 0, as its snap does. */
    if (lp__rt_tc && lp__rt_tc->tp)
        for (size_t i = 0; i < lp__rt_nsegs; i++)
            memset(lp__rt_tc->tp + lp__rt_segs[i].tpoff, 0,
                   lp__rt_segs[i].n * sizeof(uint64_t));
    for (lp__rt_tcounts *tc = lp__rt.blocks; tc; tc = tc->next) {
        memset((char *)tc + LP__RT_TC_HEADER, 0, tc->bytes - LP__RT_TC_HEADER);
        tc->events = 0;
        if (tc != lp__rt_tc) {
            tc->in_use = 0;
            tc->tp = NULL;
            tc->counting = 0;
            tc->tid = 0;
        } else {
            tc->tid = lp__rt_gettid();
        }
    }
    lp__rt_caches_fork_child();
    memset(lp__rt.arc_keys, 0, (lp__rt.arc_mask + 1) * sizeof *lp__rt.arc_keys);
    lp__rt.arc_drops = 0;
    if (lp__rt_cnt_gone)
        memset(lp__rt_cnt_gone, 0, lp__rt.nguards * sizeof *lp__rt_cnt_gone);
}

int lp__rt_counts_alloc(lp__rt_counts *c)
{
    c->m = lp_calloc(lp__rt.nmethods + 1, sizeof *c->m);
    c->b = lp_calloc(lp__rt.nguards + 1, sizeof *c->b);
    c->a = lp_calloc(lp__rt.arc_mask + 1, sizeof *c->a);
    c->events = 0;
    if (c->m && c->b && c->a)
        return 0;
    lp__rt_counts_free(c);
    return LP_ENOMEM;
}

void lp__rt_counts_free(lp__rt_counts *c)
{
    lp_free(c->m);
    lp_free(c->b);
    lp_free(c->a);
    c->m = c->b = c->a = NULL;
}

static void lp__rt_sum_into(uint64_t *dst, const uint64_t *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] += __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

void lp__rt_counts_zero(lp__rt_counts *c)
{
    memset(c->m, 0, lp__rt.nmethods * sizeof *c->m);
    memset(c->b, 0, lp__rt.nguards * sizeof *c->b);
    memset(c->a, 0, (lp__rt.arc_mask + 1) * sizeof *c->a);
    c->events = 0;
}

static void lp__rt_add_diff(uint64_t *acc, const uint64_t *now, const uint64_t *base, size_t n)
{
    for (size_t i = 0; i < n; i++)
        acc[i] += now[i] - base[i];
}

void lp__rt_counts_add_diff(lp__rt_counts *acc, const lp__rt_counts *now, const lp__rt_counts *base)
{
    lp__rt_add_diff(acc->m, now->m, base->m, lp__rt.nmethods);
    lp__rt_add_diff(acc->b, now->b, base->b, lp__rt.nguards);
    lp__rt_add_diff(acc->a, now->a, base->a, lp__rt.arc_mask + 1);
    acc->events += now->events - base->events;
}

void lp__rt_counts_sum(lp__rt_counts *c)
{
    lp__rt_counts_zero(c);
    /* The copies' counts not yet added to the blocks are read under the
     * lock (their threads may be ending). Others hold it for microseconds;
     * only a thread that crashed holding it keeps it, and the profile
     * written at that fatal signal then reads without it, after 0.2 s. */
    int locked = lp__rt_cnt_start && lp__rt_gate_try(4000);
    for (lp__rt_tcounts *tc = __atomic_load_n(&lp__rt.blocks, __ATOMIC_ACQUIRE); tc;
         tc = tc->next) {
        lp__rt_sum_into(c->m, tc->m, lp__rt.nmethods);
        lp__rt_sum_into(c->b, tc->b, lp__rt.nguards);
        lp__rt_sum_into(c->a, tc->a, lp__rt.arc_mask + 1);
        c->events += __atomic_load_n(&tc->events, __ATOMIC_RELAXED);
        if (lp__rt_cnt_start && tc->counting && __atomic_load_n(&tc->tp, __ATOMIC_ACQUIRE))
            lp__rt_cnt_add_live(tc, c->b);
    }
    if (locked)
        lp__rt_gate_give();
}

uint64_t lp__rt_cnt_sum(size_t g)
{
    if (!lp__rt_cnt_start || g >= lp__rt.nguards)
        return 0;
    uint64_t n = 0;
    lp__rt_gate_take();
    for (lp__rt_tcounts *tc = __atomic_load_n(&lp__rt.blocks, __ATOMIC_ACQUIRE); tc;
         tc = tc->next)
        n += __atomic_load_n(&tc->b[g], __ATOMIC_RELAXED) + lp__rt_cnt_live(tc, g);
    lp__rt_gate_give();
    return n;
}

void lp__rt_cnt_by_method(uint64_t *per_method, uint64_t icall_weight)
{
    if (!lp__rt_cnt_start || !lp__rt.guard_method)
        return;
    for (lp__rt_tcounts *tc = __atomic_load_n(&lp__rt.blocks, __ATOMIC_ACQUIRE); tc; tc = tc->next)
        for (size_t g = 0; g < lp__rt.nguards; g++) {
            int32_t m = lp__rt.guard_method[g];
            if (m >= 0)
                per_method[m] += __atomic_load_n(&tc->b[g], __ATOMIC_RELAXED) *
                                 (lp__rt.guard_icall && lp__rt.guard_icall[g] ? icall_weight : 1);
        }
}

uint64_t lp__rt_cnt_total(size_t g)
{
    if (!lp__rt_cnt_start || g >= lp__rt.nguards || !lp__rt_cnt_gone)
        return 0;
    lp__rt_gate_take();
    uint64_t n = lp__rt_cnt_gone[g];
    for (lp__rt_tcounts *tc = __atomic_load_n(&lp__rt.blocks, __ATOMIC_ACQUIRE); tc;
         tc = tc->next) {
        const uint8_t *tp = __atomic_load_n(&tc->tp, __ATOMIC_ACQUIRE);
        if (tp)
            n += lp__rt_twin_value(tp, g);
    }
    lp__rt_gate_give();
    return n;
}

uint64_t lp__rt_events_sum(void)
{
    uint64_t n = 0;
    for (lp__rt_tcounts *tc = __atomic_load_n(&lp__rt.blocks, __ATOMIC_ACQUIRE); tc;
         tc = tc->next)
        n += __atomic_load_n(&tc->events, __ATOMIC_RELAXED);
    return n;
}
