/* The profile written at a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGABRT; and SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGXCPU, SIGXFSZ
 * when the program leaves them at their default action, which ends it),
 * then the signal's own outcome, unchanged. The profile names the signal,
 * and for a fault the processor raised, the instruction and the address
 * (meta fault-pc, fault-address; `lowprof report` names their function).
 *
 * The handler writes the profile once (a second crashing thread waits for
 * the first to finish), with core's allocator shim pointed at a bump arena
 * reserved at start-up (MAP_NORESERVE: pages cost nothing until touched),
 * so it calls no malloc, takes no lock and uses no stdio. Then it puts back
 * the disposition the program had before the runtime started (its own
 * handler, or the default) and lets the signal happen again: a fault
 * re-executes the faulting instruction, a sent signal is raised once more
 * and is delivered when the handler returns. So the program's handler
 * runs, or the process dies of the same signal with the same status.
 *
 * The arena stays the allocator afterwards (a program handler may carry
 * on), so nothing allocated from it ever reaches libc's free, and the
 * daemon stops at its next wake-up.
 *
 * A handler the program installs after the runtime's start replaces this
 * one (the program wins); the periodic file is then the last one. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>

#include "rt_internal.h"

static const int lp__rt_fatal_sigs[] = {SIGSEGV, SIGBUS,  SIGFPE,  SIGILL,  SIGABRT, SIGHUP,
                                        SIGINT,  SIGQUIT, SIGTERM, SIGPIPE, SIGXCPU, SIGXFSZ};
/* The first LP__RT_NFAULT are always caught (and chained); the others only
 * when the program left them at their default action. */
#define LP__RT_NFAULT 5
#define LP__RT_NFATAL (sizeof lp__rt_fatal_sigs / sizeof lp__rt_fatal_sigs[0])
static struct sigaction lp__rt_fatal_old[LP__RT_NFATAL];
static int lp__rt_fatal_state; /* 0 nothing written, 1 writing, 2 written */
static const char *const lp__rt_fatal_names[LP__RT_NFATAL] = {
    "SIGSEGV", "SIGBUS",  "SIGFPE",  "SIGILL",  "SIGABRT", "SIGHUP",
    "SIGINT",  "SIGQUIT", "SIGTERM", "SIGPIPE", "SIGXCPU", "SIGXFSZ"};

/* The fault being written (the first thread's: the one that writes). */
static int lp__rt_fault_known;
static uint64_t lp__rt_fault_pc, lp__rt_fault_addr;

const char *lp__rt_signal_name(int sig)
{
    for (size_t i = 0; i < LP__RT_NFATAL; i++)
        if (lp__rt_fatal_sigs[i] == sig)
            return lp__rt_fatal_names[i];
    return NULL;
}

int lp__rt_fault(uint64_t *pc, uint64_t *addr)
{
    *pc = lp__rt_fault_pc;
    *addr = lp__rt_fault_addr;
    return lp__rt_fault_known;
}

/* Keeps where a fault the processor raised happened (si_code > 0: not a
 * signal that kill, raise or abort sent); SIGABRT and the others say
 * nothing about an instruction. */
static void lp__rt_fault_keep(int sig, const siginfo_t *si, const void *uc)
{
    lp__rt_fault_known = 0;
    if (!si || si->si_code <= 0 || !uc ||
        (sig != SIGSEGV && sig != SIGBUS && sig != SIGFPE && sig != SIGILL))
        return;
#if defined(__x86_64__)
    lp__rt_fault_pc = (uint64_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
    lp__rt_fault_addr = (uint64_t)(uintptr_t)si->si_addr;
    lp__rt_fault_known = 1;
#endif
}

/* ---- the arena ---------------------------------------------------------------------- */

static uint8_t *lp__rt_arena;
static size_t lp__rt_arena_size;
static size_t lp__rt_arena_top;

static size_t lp__rt_round(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

static void *lp__rt_arena_alloc(void *ctx, size_t size)
{
    (void)ctx;
    size = lp__rt_round(size);
    size_t off = __atomic_fetch_add(&lp__rt_arena_top, size, __ATOMIC_RELAXED);
    if (off > lp__rt_arena_size || size > lp__rt_arena_size - off)
        return NULL;
    return lp__rt_arena + off;
}

static void *lp__rt_arena_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    uint8_t *p = ptr;
    size_t old_r = lp__rt_round(old_size), new_r = lp__rt_round(new_size);
    size_t off = (size_t)(p - lp__rt_arena);
    /* The newest block grows in place. */
    size_t top = off + old_r;
    if (p >= lp__rt_arena && off < lp__rt_arena_size && new_r >= old_r &&
        new_r - old_r <= lp__rt_arena_size - top &&
        __atomic_compare_exchange_n(&lp__rt_arena_top, &top, off + new_r, 0, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED))
        return ptr;
    void *q = lp__rt_arena_alloc(ctx, new_size);
    if (q)
        memcpy(q, ptr, old_size < new_size ? old_size : new_size);
    return q;
}

static void lp__rt_arena_free(void *ctx, void *ptr)
{
    (void)ctx;
    (void)ptr;
}

static const lp_allocator lp__rt_arena_allocator = {lp__rt_arena_alloc, lp__rt_arena_realloc,
                                                    lp__rt_arena_free, NULL};

int lp__rt_arena_reserve(void)
{
    /* The tables of one dump: every counter may become an entry, tables
     * are at most half full and the writer sorts a copy. */
    size_t entries = lp__rt.nmethods * 2 + lp__rt.nguards * 2 + (lp__rt.arc_mask + 1) * 2;
    size_t want = (64u << 20) + entries * 256;
    if (lp__rt_arena && lp__rt_arena_size >= want)
        return 0;
    void *p = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED)
        return -1;
    if (lp__rt_arena)
        munmap(lp__rt_arena, lp__rt_arena_size);
    lp__rt_arena = p;
    lp__rt_arena_size = want;
    lp__rt_arena_top = 0;
    return 0;
}

/* ---- the handler ------------------------------------------------------------------------ */

static void lp__rt_fatal_handler(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;
    lp__rt_text_readable(); /* the profile written below may read the text */
    int expected = 0;
    if (__atomic_compare_exchange_n(&lp__rt_fatal_state, &expected, 1, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
        if (__atomic_load_n(&lp__rt.live, __ATOMIC_RELAXED) && lp__rt_arena) {
            __atomic_store_n(&lp__rt.frozen, 1, __ATOMIC_RELEASE);
            lp_set_allocator(&lp__rt_arena_allocator);
            lp__rt_fault_keep(sig, si, uc);
            lp__rt_dump(LP__RT_DUMP_FATAL, sig, NULL);
        }
        __atomic_store_n(&lp__rt_fatal_state, 2, __ATOMIC_RELEASE);
    } else {
        /* Another thread is writing: give it up to five seconds. */
        struct timespec ms = {0, 1000000};
        for (int i = 0; i < 5000 && __atomic_load_n(&lp__rt_fatal_state, __ATOMIC_ACQUIRE) == 1;
             i++)
            nanosleep(&ms, NULL);
    }
    for (size_t i = 0; i < LP__RT_NFATAL; i++)
        if (lp__rt_fatal_sigs[i] == sig)
            sigaction(sig, &lp__rt_fatal_old[i], NULL);
    /* A sent signal (kill, raise, abort) would not come back by itself. */
    if (!si || si->si_code <= 0)
        raise(sig);
    errno = saved;
}

int lp__rt_fatal_install(void)
{
    if (lp__rt_arena_reserve() != 0)
        return -1;
    /* Room to write the profile after a stack overflow of the main thread,
     * unless the program has its own alternate stack. */
    stack_t cur;
    if (sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_DISABLE)) {
        size_t size = 256 * 1024;
        void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
            stack_t ss = {.ss_sp = p, .ss_size = size, .ss_flags = 0};
            sigaltstack(&ss, NULL);
        }
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = lp__rt_fatal_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < LP__RT_NFATAL; i++) {
        int sig = lp__rt_fatal_sigs[i];
        if (sigaction(sig, NULL, &lp__rt_fatal_old[i]) != 0)
            continue;
        if (i >= LP__RT_NFAULT && (lp__rt_fatal_old[i].sa_flags & SA_SIGINFO ||
                                   lp__rt_fatal_old[i].sa_handler != SIG_DFL))
            continue; /* the program ignores or handles it */
        sigaction(sig, &sa, NULL);
    }
    return 0;
}

void lp__rt_fatal_forget(void)
{
    lp__rt_fatal_state = 0;
    lp__rt_arena_top = 0;
}
