/* PC samples on process CPU time: the cheap way to find the hot methods
 * and the phase signatures (issue's "timer samples of the PC ... with a
 * symbol lookup outside the signal handler").
 *
 * A POSIX timer on CLOCK_PROCESS_CPUTIME_ID (not setitimer, so a program's
 * own ITIMER_PROF keeps working) raises SIGPROF with a cookie in
 * si_value. The handler stores the interrupted PC into a lock-free ring and
 * nothing else; the daemon drains the ring and does every lookup. A
 * SIGPROF that is not ours (another timer, kill) goes to the handler the
 * program had installed before, or gets the default action. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>

#include "rt_internal.h"

static uint64_t lp__rt_ring[LP__RT_RING];
static uint64_t lp__rt_ring_head; /* samples claimed by the handler */
static uint64_t lp__rt_ring_tail; /* samples consumed by the daemon */
static timer_t lp__rt_timer;
static int lp__rt_timer_on;
static struct sigaction lp__rt_old_prof;
static int lp__rt_prof_installed;
static char lp__rt_cookie; /* its address tags our timer's signals */
/* The runtime's event path (lp__rt_overhead_find). */
static uint64_t lp__rt_own_lo[2], lp__rt_own_hi[2];

static void lp__rt_prof_chain(int sig, siginfo_t *si, void *uc)
{
    const struct sigaction *old = &lp__rt_old_prof;
    if (old->sa_flags & SA_SIGINFO) {
        if (old->sa_sigaction)
            old->sa_sigaction(sig, si, uc);
    } else if (old->sa_handler == SIG_IGN) {
        return;
    } else if (old->sa_handler == SIG_DFL) {
        /* The default action of SIGPROF ends the process: do it. */
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(sig, &dfl, NULL);
        raise(sig);
    } else {
        old->sa_handler(sig);
    }
}

static void lp__rt_prof_handler(int sig, siginfo_t *si, void *ucv)
{
    if (!si || si->si_code != SI_TIMER || si->si_value.sival_ptr != &lp__rt_cookie) {
        lp__rt_prof_chain(sig, si, ucv);
        return;
    }
    int saved = errno;
    const ucontext_t *uc = ucv;
    uint64_t pc = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
    uint64_t i = __atomic_fetch_add(&lp__rt_ring_head, 1, __ATOMIC_RELAXED);
    uint64_t expected = 0;
    /* A full slot (the daemon has fallen a lap behind) loses the sample. */
    if (!pc || !__atomic_compare_exchange_n(&lp__rt_ring[i % LP__RT_RING], &expected, pc, 0,
                                            __ATOMIC_RELEASE, __ATOMIC_RELAXED))
        __atomic_fetch_add(&lp__rt.samples_lost, 1, __ATOMIC_RELAXED);
    if (lp__rt.cfg.context)
        lp__rt_stack_take(uc);
    errno = saved;
}

size_t lp__rt_sampler_drain(uint64_t *out, size_t cap)
{
    uint64_t head = __atomic_load_n(&lp__rt_ring_head, __ATOMIC_ACQUIRE);
    size_t n = 0;
    /* A slot still empty was claimed by a handler that has not stored yet
     * (its sample turns up a lap later) or whose store failed. */
    while (lp__rt_ring_tail < head && n < cap) {
        uint64_t pc = __atomic_exchange_n(&lp__rt_ring[lp__rt_ring_tail % LP__RT_RING], 0,
                                          __ATOMIC_ACQUIRE);
        lp__rt_ring_tail++;
        if (pc)
            out[n++] = pc;
    }
    __atomic_fetch_add(&lp__rt.samples, n, __ATOMIC_RELAXED);
    return n;
}

int lp__rt_sampler_start(void)
{
    memset(lp__rt_ring, 0, sizeof lp__rt_ring);
    lp__rt_ring_head = lp__rt_ring_tail = 0;
    if (!lp__rt_own_hi[0] && !lp__rt_own_hi[1])
        lp__rt_overhead_find();
    if (!lp__rt_prof_installed) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = lp__rt_prof_handler;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGPROF, &sa, &lp__rt_old_prof) != 0)
            return -1;
        lp__rt_prof_installed = 1;
    }
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_SIGNAL;
    sev.sigev_signo = SIGPROF;
    sev.sigev_value.sival_ptr = &lp__rt_cookie;
    if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &sev, &lp__rt_timer) != 0)
        return -1;
    lp__rt_timer_on = 1;
    struct itimerspec its;
    memset(&its, 0, sizeof its);
    long ns = 1000000000L / (long)(lp__rt.cfg.rate ? lp__rt.cfg.rate : 1000);
    its.it_interval.tv_sec = ns / 1000000000L;
    its.it_interval.tv_nsec = ns % 1000000000L;
    its.it_value = its.it_interval;
    if (timer_settime(lp__rt_timer, 0, &its, NULL) != 0) {
        lp__rt_sampler_stop();
        return -1;
    }
    return 0;
}

/* Stops the timer; the handler stays (a late signal of ours is then just
 * stored, and others are chained as before). */
void lp__rt_sampler_stop(void)
{
    if (lp__rt_timer_on) {
        timer_delete(lp__rt_timer);
        lp__rt_timer_on = 0;
    }
}

void lp__rt_sampler_forget(void)
{
    lp__rt_timer_on = 0;
}

/* ---- the runtime's event path ------------------------------------------------------------- */

__attribute__((visibility("default"))) void __sanitizer_cov_trace_pc_guard(uint32_t *guard);

/* The function symbol holding addr, as [*lo, *hi); 0 if none. */
static int lp__rt_func_range(uint64_t addr, uint64_t *lo, uint64_t *hi)
{
    uint64_t start = lp__rt_func_start(addr);
    for (size_t i = 0; start && i < lp__rt.nfuncs; i++)
        if (lp__rt.funcs[i].start == start) {
            *lo = start;
            *hi = lp__rt.funcs[i].end;
            return 1;
        }
    return 0;
}

/* The entry trampoline, and the handlers' file from its first to its last
 * function (its static helpers lie between them, in the same section).
 * Nothing when the executable has no symbol table. */
void lp__rt_overhead_find(void)
{
    uint64_t lo, hi;
    if (lp__rt_func_range((uint64_t)(uintptr_t)lp__rt_entry_tramp, &lo, &hi)) {
        lp__rt_own_lo[0] = lo;
        lp__rt_own_hi[0] = hi;
    }
    const uint64_t handlers[] = {(uint64_t)(uintptr_t)lp__rt_on_entry,
                                 (uint64_t)(uintptr_t)lp__rt_on_entry_slow,
                                 (uint64_t)(uintptr_t)__sanitizer_cov_trace_pc_guard};
    for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++) {
        if (!lp__rt_func_range(handlers[i], &lo, &hi))
            continue;
        if (!lp__rt_own_hi[1] || lo < lp__rt_own_lo[1])
            lp__rt_own_lo[1] = lo;
        if (hi > lp__rt_own_hi[1])
            lp__rt_own_hi[1] = hi;
    }
}

int lp__rt_pc_overhead(uint64_t pc)
{
    for (int i = 0; i < 2; i++)
        if (pc >= lp__rt_own_lo[i] && pc < lp__rt_own_hi[i])
            return 1;
    return 0;
}
