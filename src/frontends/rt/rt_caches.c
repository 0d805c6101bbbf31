/* The native runtime's caches of counted calls, which rt_tramp.S reads
 * before it saves every register and calls into C: the copies' stub's, of
 * calls from outside the copies (lp__rt_oc), and the trampoline's
 * (lp__rt_tc_cache); and the price of a call from outside the copies,
 * which the daemon takes off each window's CPU time (rt_daemon.c,
 * doc/runtime.md "Windows that run slower than others"). rt_count.c
 * counts the calls and fills the entries. */
#define _GNU_SOURCE
#include <stddef.h>
#include <string.h>
#include <time.h>

#include "rt_internal.h"
#include "rt_oc_layout.h"

/* The thread's counted calls from outside the copies, by call site and
 * copy, which lp__rt_cp_enter_stub (rt_tramp.S) counts again without
 * coming here while its block counts: a loop in an original that was
 * running when the copies went on calls its callees' copies from a few
 * sites, and the whole C path (the stub saving every register, the pair's
 * lookup) cost 5 ns a call where a copy's call costs none (6.4 ns against
 * 1.4 ns with the callee off; 4.5 ns with the cache), which slowed such a
 * loop's windows by half and more and under-weighted its phase. An entry sits at (counter / 8 xor
 * off) mod LP__RT_OC_N, direct-mapped: compress's decoding loop calls four
 * copies from six sites, and one entry for the thread missed at nearly
 * every call. The stub reads an entry's slot before its key, so that a
 * signal handler that replaces the entry in between is either missed or
 * matched whole. A block outlives its thread (the next new thread takes
 * it), so the pointers never dangle; the thread clears its flag pointer
 * as it ends. */
typedef struct lp__rt_oc_ent {
    uint64_t off;
    const uint64_t *counter;
    uint64_t *slot;
    uint64_t pad;
} lp__rt_oc_ent;
typedef struct lp__rt_ocache {
    const uint8_t *counting;
    uint64_t *outside;
    uint64_t rng;
    uint64_t pad;
    lp__rt_oc_ent e[LP__RT_OC_N];
} lp__rt_ocache;
__thread lp__rt_ocache lp__rt_oc __attribute__((tls_model("initial-exec"), visibility("hidden")));
_Static_assert(offsetof(lp__rt_ocache, counting) == LP__RT_OC_COUNTING &&
                   offsetof(lp__rt_ocache, outside) == LP__RT_OC_OUTSIDE &&
                   offsetof(lp__rt_ocache, rng) == LP__RT_OC_RNG &&
                   offsetof(lp__rt_ocache, e) == LP__RT_OC_ENTS &&
                   sizeof(lp__rt_oc_ent) == LP__RT_OC_ENT &&
                   offsetof(lp__rt_oc_ent, off) == LP__RT_OC_OFF &&
                   offsetof(lp__rt_oc_ent, counter) == LP__RT_OC_COUNTER &&
                   offsetof(lp__rt_oc_ent, slot) == LP__RT_OC_SLOT &&
                   LP__RT_OC_N == 1 << LP__RT_OC_BITS,
               "rt_oc_layout.h");

static void lp__rt_oc_set(uint64_t off, const uint64_t *counter, uint64_t *slot)
{
    lp__rt_oc_ent *e =
        &lp__rt_oc.e[(((uint64_t)(uintptr_t)counter >> 3) ^ off) & (LP__RT_OC_N - 1)];
    e->slot = NULL; /* a handler's stub finds no half-made entry */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    e->off = off;
    e->counter = counter;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    e->slot = slot;
}

/* The thread's counted calls through the trampoline, by patched site and
 * return address, which lp__rt_entry_tramp (rt_tramp.S) counts again
 * without saving every register and calling lp__rt_on_entry: a static
 * function whose copy only other copies call keeps the trampoline on its
 * entry, and a loop in an original that was running when the window
 * opened calls it there at every turn (raytrace at duty 10: the trampoline
 * took 6 % of the samples, for rt_box_entry and rt_nearest). Only an
 * entry that counted and went on in the original is kept. Every entry is
 * of one generation of lp__rt_tramp_gen, which the runtime moves on
 * whenever what lp__rt_on_entry reads changes (a method switched, a clock
 * chosen, the runtime started or stopped, a fork); the thread's own flags
 * forget them (lp__rt_tcache_forget). Set as lp__rt_oc's entries are. */
typedef struct lp__rt_tc_ent {
    uint64_t site5, ret;
    uint64_t *mslot, *aslot;
} lp__rt_tc_ent;
typedef struct lp__rt_tcache {
    uint64_t gen;
    uint64_t pad[3];
    lp__rt_tc_ent e[LP__RT_OC_N];
} lp__rt_tcache;
__thread lp__rt_tcache lp__rt_tc_cache
    __attribute__((tls_model("initial-exec"), visibility("hidden")));
uint64_t lp__rt_tramp_gen = 1;
_Static_assert(offsetof(lp__rt_tcache, gen) == LP__RT_TC_GEN &&
                   offsetof(lp__rt_tcache, e) == LP__RT_TC_ENTS &&
                   sizeof(lp__rt_tc_ent) == LP__RT_OC_ENT &&
                   offsetof(lp__rt_tc_ent, site5) == LP__RT_TC_SITE &&
                   offsetof(lp__rt_tc_ent, ret) == LP__RT_TC_RET &&
                   offsetof(lp__rt_tc_ent, mslot) == LP__RT_TC_MSLOT &&
                   offsetof(lp__rt_tc_ent, aslot) == LP__RT_TC_ASLOT,
               "rt_oc_layout.h");

void lp__rt_tramp_moved(void)
{
    __atomic_fetch_add(&lp__rt_tramp_gen, 1, __ATOMIC_RELEASE);
}

void lp__rt_tcache_forget(void)
{
    lp__rt_tc_cache.gen = 0;
}

/* Keeps (site5, ret) -> (mslot, aslot) for generation gen, read before
 * what made them: a generation moved on since leaves the entry dead. */
void lp__rt_tcache_set(uint64_t gen, uint64_t site5, uint64_t ret, uint64_t *mslot, uint64_t *aslot)
{
    lp__rt_tcache *c = &lp__rt_tc_cache;
    if (c->gen != gen) {
        c->gen = 0; /* a handler's trampoline finds none while they change */
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        for (size_t i = 0; i < LP__RT_OC_N; i++)
            c->e[i].mslot = NULL;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        c->gen = gen;
    }
    lp__rt_tc_ent *e = &c->e[(site5 ^ ret) & (LP__RT_OC_N - 1)];
    e->mslot = NULL;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    e->site5 = site5;
    e->ret = ret;
    e->aslot = aslot;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    e->mslot = mslot;
}

/* The calling thread's cache of outside calls: the entry for (off,
 * counter) holds slot, in the block whose counting flag and outside-call
 * count are given. */
void lp__rt_oc_keep(uint64_t off, const uint64_t *counter, uint64_t *slot, const uint8_t *counting,
                    uint64_t *outside)
{
    lp__rt_oc.counting = counting;
    lp__rt_oc.outside = outside;
    lp__rt_oc_set(off, counter, slot);
}

/* Calls from outside the copies, one in lp__rt_oc_every on average, at
 * random: a copy's checking entry counts lp__rt_cp_skip down (cc_entry.c)
 * and calls lp__rt_cp_enter_stub only where it is 0; the stub and
 * lp__rt_cp_enter count the pair and the outside call lp__rt_oc_every
 * times, and draw the next countdown uniformly from [0, 2 * every - 2], so
 * that a loop whose calls from outside alternate between callees is not
 * sampled in step with them. Such a call costs a few nanoseconds in the
 * stub and a few instructions past the countdown: compress and graph ran
 * 2-4 % of their instructions at 10 % windows in the stub and the entries
 * (doc/eval-native.md). 1 (every call, exactly) unless the daemon's
 * strategy samples in windows anyway, periodic, random or phase
 * (lp__rt_oc_sample). */
uint32_t lp__rt_oc_every = 1;

void lp__rt_oc_sample(uint32_t every)
{
    lp__rt_oc_every = every ? every : 1;
}

/* The calling thread's next countdown (xorshift64, seeded by the cache's
 * address); rt_tramp.S's stub draws it the same way. */
void lp__rt_oc_skip_next(void)
{
    uint64_t x = lp__rt_oc.rng;
    if (!x)
        x = (uint64_t)(uintptr_t)&lp__rt_oc | 1;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    lp__rt_oc.rng = x;
    uint64_t span = 2 * (uint64_t)lp__rt_oc_every - 1;
    lp__rt_cp_skip = (uint32_t)(((x >> 32) * span) >> 32);
}

/* The calling thread ends: its block goes to the next new thread, so its
 * cache no longer counts into it. */
void lp__rt_oc_thread_end(void)
{
    lp__rt_oc.counting = NULL;
}

/* In a fork child: the pairs' slots are free again, so the caches'
 * entries name none. */
void lp__rt_caches_fork_child(void)
{
    memset(&lp__rt_oc, 0, sizeof lp__rt_oc);
    lp__rt_tcache_forget();
    lp__rt_tramp_moved();
}

/* The replica in rt_tramp.S: n calls from outside the copies into a
 * copy's entry (the prefix's two jumps, the entry check, the stub finding
 * its cache entry) or, with outside 0, n calls of a function that only
 * returns; and the return address of its outside call. */
LP__HIDDEN void lp__rt_oc_calib(uint64_t n, uint64_t outside);
extern const char lp__rt_oc_calib_ra[] LP__HIDDEN;
extern uint64_t lp__rt_oc_calib_counter LP__HIDDEN;

uint64_t lp__rt_outside_ps;

/* Measures, in the calling thread (the daemon's, which runs no copy), the
 * CPU time a call from outside the copies takes in a window more than the
 * same call with the windows closed: the best of seven rounds of 20,000
 * calls each way, about a millisecond in all. The daemon takes it off a
 * window's CPU time, per outside call the window counted, to tell the
 * program time the window held: such a call costs a few nanoseconds where
 * the call itself may cost one, so a loop in an original that calls small
 * functions runs two and three times slower in a window, and the windows
 * of its phase would see less of it than of the rest. The replica's calls
 * hit a cache entry made for it, whose counter is the replica's own; the
 * entry and the thread's flag are cleared after. */
void lp__rt_outside_measure(void)
{
    enum { N = 20000, ROUNDS = 7 };
    static int measured; /* a fork child keeps its parent's measure */
    if (measured)
        return;
    measured = 1;
    static uint64_t dummy_slot, dummy_out;
    static const uint8_t one = 1;
    uint64_t off = (uint64_t)(uintptr_t)lp__rt_oc_calib_ra - lp__rt_cp_lo;
    lp__rt_oc.counting = &one;
    lp__rt_oc.outside = &dummy_out;
    lp__rt_oc_set(off, &lp__rt_oc_calib_counter, &dummy_slot);
    uint64_t best[2] = {UINT64_MAX, UINT64_MAX};
    for (unsigned r = 0; r < ROUNDS; r++)
        for (unsigned w = 0; w < 2; w++) {
            uint64_t t0 = lp__rt_thread_cpu_ns();
            lp__rt_oc_calib(N, w);
            uint64_t t = lp__rt_thread_cpu_ns() - t0;
            best[w] = t < best[w] ? t : best[w];
        }
    lp__rt_oc_set(off, &lp__rt_oc_calib_counter, NULL);
    lp__rt_oc.counting = NULL;
    lp__rt_oc.outside = NULL;
    __atomic_store_n(&lp__rt_outside_ps, best[1] > best[0] ? (best[1] - best[0]) * 1000 / N : 0,
                     __ATOMIC_RELAXED);
}
