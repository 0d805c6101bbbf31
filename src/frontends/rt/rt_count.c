/* The handlers behind the profile instructions, on the program's hot path:
 * the entry trampoline's C half and the coverage callback. An event counts
 * when its site is switched on (it reached us at all) and the running
 * thread's profile flag for its type is set (paper section III: the
 * processor's profile flag; section V: one per profile type).
 *
 * No locks, no allocation, no libc: relaxed atomic adds into arrays
 * allocated before any site is switched on, and a fixed open-addressing
 * table of call pairs whose slots are claimed with one compare-and-swap
 * (when it is full, the pair is dropped and counted). Safe in signal
 * handlers and in any number of threads. Compiled without the
 * instrumentation it serves, so it never re-enters itself. */
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

/* Every flag starts set in every thread: the initial image of the TLS
 * block carries it, so there is no per-thread initialisation to miss. */
__thread lp_pf_state lp__rt_pf __attribute__((tls_model("initial-exec"))) = {
    .flags = (1u << LP_RT_TYPES) - 1,
};

static inline void lp__rt_add(uint64_t *p)
{
    __atomic_fetch_add(p, 1, __ATOMIC_RELAXED);
}

/* The probe sequence for a call pair: linear from the hash, at most this
 * many slots before the pair counts as dropped. */
#define LP__RT_ARC_PROBES 64

static void lp__rt_arc_add(uint64_t key)
{
    size_t mask = lp__rt.arc_mask;
    size_t s = (size_t)lp_hash64(key) & mask;
    for (unsigned i = 0; i < LP__RT_ARC_PROBES; i++, s = (s + 1) & mask) {
        lp__rt_arc *a = &lp__rt.arcs[s];
        uint64_t k = __atomic_load_n(&a->key, __ATOMIC_ACQUIRE);
        if (k == 0) {
            uint64_t expected = 0;
            if (__atomic_compare_exchange_n(&a->key, &expected, key, 0, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE))
                k = key;
            else
                k = expected;
        }
        if (k == key) {
            lp__rt_add(&a->count);
            return;
        }
    }
    lp__rt_add(&lp__rt.arc_drops);
}

static size_t lp__rt_map_find(uint64_t site)
{
    size_t mask = lp__rt.map_mask;
    size_t s = (size_t)lp_hash64(site) & mask;
    for (;;) {
        uint64_t k = lp__rt.map_keys[s];
        if (k == site)
            return lp__rt.map_vals[s];
        if (k == 0)
            return SIZE_MAX;
        s = (s + 1) & mask;
    }
}

void lp__rt_on_entry(uint64_t site, uint64_t ret)
{
    if (!lp_pf_get(&lp__rt_pf, LP_RT_FUNCTIONS) || !__atomic_load_n(&lp__rt.live, __ATOMIC_RELAXED))
        return;
    size_t m = lp__rt_map_find(site);
    if (m == SIZE_MAX)
        return;
    lp__rt_add(&lp__rt.mcount[m]);
    lp__rt_arc_add((ret & ((1ULL << LP__RT_ARC_SHIFT) - 1)) |
                   ((uint64_t)(m + 1) << LP__RT_ARC_SHIFT));
    if (lp__rt.count_events)
        lp__rt_add(&lp__rt.events);
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
    lp__rt_add(&lp__rt.bcount[g - 1]);
    if (lp__rt.count_events)
        lp__rt_add(&lp__rt.events);
}

/* Called by each instrumented module's constructor before the runtime's.
 * Only the executable's guards are numbered (1, 2, ...; 0 means "not
 * counted"): its text is what the runtime can switch. */
void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop)
{
    if (start == stop || *start || lp__rt.guards_start)
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

/* ---- counters ------------------------------------------------------------------------------ */

static size_t lp__rt_pow2(size_t n)
{
    size_t c = 1024;
    while (c < n)
        c *= 2;
    return c;
}

int lp__rt_counters_init(void)
{
    size_t arcs = lp__rt.cfg.arcs ? lp__rt.cfg.arcs : 8 * lp__rt.nmethods;
    arcs = lp__rt_pow2(arcs < (1u << 22) ? arcs : (1u << 22));
    lp__rt.mcount = calloc(lp__rt.nmethods ? lp__rt.nmethods : 1, sizeof *lp__rt.mcount);
    lp__rt.bcount = calloc(lp__rt.nguards ? lp__rt.nguards : 1, sizeof *lp__rt.bcount);
    lp__rt.arcs = aligned_alloc(64, arcs * sizeof *lp__rt.arcs);
    if (!lp__rt.mcount || !lp__rt.bcount || !lp__rt.arcs)
        return LP_ENOMEM;
    memset(lp__rt.arcs, 0, arcs * sizeof *lp__rt.arcs);
    lp__rt.arc_mask = arcs - 1;
    return 0;
}

void lp__rt_counters_reset(void)
{
    memset(lp__rt.mcount, 0, (lp__rt.nmethods ? lp__rt.nmethods : 1) * sizeof *lp__rt.mcount);
    memset(lp__rt.bcount, 0, (lp__rt.nguards ? lp__rt.nguards : 1) * sizeof *lp__rt.bcount);
    memset(lp__rt.arcs, 0, (lp__rt.arc_mask + 1) * sizeof *lp__rt.arcs);
    lp__rt.arc_drops = 0;
    lp__rt.events = 0;
}
