/* The program the runtime tests build with `lowprof cc` and run: each mode
 * makes a known number of calls and block executions, so the profile it
 * leaves can be checked exactly (check_rt.c holds the expected numbers).
 *
 *   exact    leaf() 1000 times: 600 from site_a(), 400 from site_b();
 *            loop777() (unoptimised) runs its body 777 times;
 *            hidden_leaf() (hidden visibility) 300 times; exits with
 *            status 3 after
 *            writing to stdout and stderr
 *   switch   strategy=never: lp_rt_setpf on one method at a time (one
 *            taking a 32-byte struct by value, 40 times); a
 *            method that switches its own blocks off half-way; prints how
 *            the copies' increments and loop checks read before, while
 *            blocks are on, and after
 *   flags    thread flags with pushpf/poppf around nested calls
 *   sampled  leaf() and other() a million times each, in turn, from an
 *            original, both switched on by the program
 *   threads  16 threads calling leaf() and hot() while one thread switches
 *            switched() on and off
 *   fork     leaf() 10 times, fork; the child calls it 33 times, the parent
 *            20 more
 *   exec     leaf() 5 times, then exec itself in mode exec2 (7 more)
 *   segv     leaf() 25 times, then a null store
 *   abort    leaf() 25 times, then abort()
 *   term     leaf() 25 times, then raise(SIGTERM)
 *   prof     its own ITIMER_PROF and SIGPROF handler (installed before the
 *            runtime starts) must keep working
 *   text     a second thread reads hot()'s code as data while leaf() runs
 *            for 200 ms of CPU time; then a fork child stores into leaf()'s
 *            code, which must fault; prints what the read summed to and
 *            how the child ended
 *   clock    for 300 ms of CPU time, step() 4 times for each beat():
 *            step() calls leaf() 40 times and, every fourth time, beat(),
 *            so that beat() is the only method with at most 1 % of the
 *            calls (the windows' clock, rt_clock.c), and step() runs in
 *            its original between windows; prints the calls, beat()'s
 *            address and the targets its prefix's jump named while it ran
 * With RT_PROG_CHAIN=1 a SIGSEGV handler is installed before the runtime
 * starts; it prints "handled" and exits with status 42. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lowprof/rt.h"

#ifdef RT_PROG_PLAIN
/* The uninstrumented build the output test compares against. */
int lp_rt_enabled(void) { return 0; }
int lp_rt_setpf(unsigned t, const void *f) { (void)t; (void)f; return LP_RT_EDISABLED; }
int lp_rt_resetpf(unsigned t, const void *f) { (void)t; (void)f; return LP_RT_EDISABLED; }
int lp_rt_autopf(unsigned t, const void *f) { (void)t; (void)f; return LP_RT_EDISABLED; }
int lp_rt_thread_setpf(unsigned t) { (void)t; return LP_RT_EDISABLED; }
int lp_rt_thread_resetpf(unsigned t) { (void)t; return LP_RT_EDISABLED; }
int lp_rt_thread_getpf(unsigned t) { (void)t; return LP_RT_EDISABLED; }
int lp_rt_pushpf(void) { return -1; }
int lp_rt_poppf(void) { return -1; }
#endif

#define NOINLINE __attribute__((noinline))

/* Atomic: the threads mode runs these from 16 threads under
 * ThreadSanitizer. */
static unsigned long sink;
#define SINK_ADD(n) __atomic_fetch_add(&sink, (unsigned long)(n), __ATOMIC_RELAXED)

NOINLINE void leaf(void)
{
    SINK_ADD(1);
}

NOINLINE void site_a(void)
{
    for (int i = 0; i < 600; i++) {
        leaf();
        __asm__ volatile("" ::: "memory");
    }
}

NOINLINE void site_b(void)
{
    for (int i = 0; i < 400; i++) {
        leaf();
        __asm__ volatile("" ::: "memory");
    }
}

/* External but hidden, as a library's internal functions often are (Lua's
 * LUAI_FUNC): the linker makes the original a local symbol of the
 * executable, while its copy may stay global. One block. */
__attribute__((noinline, visibility("hidden"))) void hidden_leaf(void)
{
    SINK_ADD(2);
}

/* Unoptimised, so its blocks are the same whatever -O says: the entry, the
 * condition (778 times), the body (777 times), the exit. */
__attribute__((noinline, optnone)) void loop777(void)
{
    for (int i = 0; i < 777; i++)
        SINK_ADD(i);
}

NOINLINE void other(void)
{
    SINK_ADD(2);
}

NOINLINE void hot(void)
{
    SINK_ADD(3);
}

NOINLINE void switched(void)
{
    SINK_ADD(5);
}

/* For block-profiled copies (lowprof cc --blocks=clone): a static helper
 * only direct calls reach, one whose first argument the optimiser may
 * drop, and one only a pointer reaches. */
static NOINLINE int helper_sq(int x)
{
    SINK_ADD(1);
    return x * x;
}

static NOINLINE int helper_drop(int unused, int x)
{
    (void)unused;
    SINK_ADD(1);
    return 2 * x + 1;
}

static NOINLINE void helper_ptr(void)
{
    SINK_ADD(1);
}

static void (*volatile helper_ptr_p)(void) = helper_ptr;

/* Static functions that reach each other through direct calls (the
 * runtime sends their calls to their copies, as it does every function's). */
static NOINLINE int rec_odd(int n);

static NOINLINE int rec_even(int n)
{
    SINK_ADD(1);
    return n == 0 ? 1 : rec_odd(n - 1);
}

static NOINLINE int rec_odd(int n)
{
    SINK_ADD(1);
    return n == 0 ? 0 : rec_even(n - 1);
}

/* A variadic function: its copy keeps the entry check inside (a checking
 * entry cannot forward variadic arguments as a tail call). */
static NOINLINE int sum_va(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    int s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    va_end(ap);
    SINK_ADD(1);
    return s;
}

/* An interpreter's shape: a call routine and its loop, which calls the
 * routine again. The loop is static and called once, so a plain -O2 build
 * inlines it; the originals of a lowprof cc build must too (the output
 * test compares the symbols). */
static int vm_enter(int depth);

static int vm_loop(int depth)
{
    int acc = 0;
    for (int pc = 0; pc < 8; pc++) {
        switch ((pc * 7 + depth) % 4) {
        case 0: acc += pc; break;
        case 1: acc ^= depth << pc; break;
        case 2: acc -= depth > 0 && pc == 2 ? vm_enter(depth - 1) : 1; break;
        default: acc *= 3; break;
        }
        SINK_ADD(1);
    }
    return acc;
}

static NOINLINE int vm_enter(int depth)
{
    SINK_ADD(1);
    return vm_loop(depth) + 1;
}

NOINLINE long uses_helpers(void)
{
    long sum = 0;
    for (int i = 0; i < 300; i++) {
        sum += helper_sq(i) + helper_drop(7, i);
        __asm__ volatile("" ::: "memory");
    }
    for (int i = 0; i < 200; i++)
        helper_ptr_p();
    (void)vm_enter(3);
    return sum + rec_even(40) + sum_va(3, 1, 2, 3);
}

static int check(int cond, const char *what)
{
    if (!cond)
        fprintf(stderr, "rt_prog: FAILED: %s\n", what);
    return cond ? 0 : 1;
}

static int mode_exact(void)
{
    site_a();
    site_b();
    loop777();
    for (int i = 0; i < 300; i++) {
        hidden_leaf();
        __asm__ volatile("" ::: "memory");
    }
    printf("exact: sink %lu\n", SINK_ADD(0));
    fprintf(stderr, "exact: to stderr\n");
    return 3;
}

/* The helpers give known sums whatever code runs. */
static int mode_copies(void)
{
    long sum = uses_helpers();
    /* sum of i*i + 2i + 1 over 0..299 = sum of (i+1)^2 = 300*301*601/6,
     * 40 is even, and 1 + 2 + 3 */
    int bad = check(sum == 300L * 301 * 601 / 6 + 1 + 6, "uses_helpers' sum");
    printf("copies: sum %ld\n", sum);
    return bad;
}

/* Switches its own blocks off half-way: with function copies it runs on in
 * its copy, whose blocks must no longer count. */
NOINLINE void stops_midway(void)
{
#pragma clang loop unroll(disable)
    for (int i = 0; i < 50; i++)
        SINK_ADD(1);
    lp_rt_resetpf(LP_RT_BLOCKS, LP_RT_FN(stops_midway));
#pragma clang loop unroll(disable)
    for (int i = 0; i < 300; i++)
        SINK_ADD(2);
}

/* The copies' counter increments that lowprof cc listed in __lp_inc64
 * (the runtime turns each `addq $1, %fs:X` into `cmpq $1, %fs:X` between
 * windows, rt_patch.c), and the loops' checks listed in __lp_loop64
 * (`cmp` on to the counted body in a window, `jmp` to the version without
 * counters between windows): how many read as which. */
extern const int32_t __start___lp_inc64[] __attribute__((weak));
extern const int32_t __start___lp_loop64[] __attribute__((weak));
extern const int32_t __stop___lp_loop64[] __attribute__((weak));
extern const int32_t __stop___lp_inc64[] __attribute__((weak));

static void print_increments(const char *when)
{
    static const unsigned char add[] = {0x64, 0x48, 0x83, 0x04, 0x25},
                               cmp[] = {0x64, 0x48, 0x83, 0x3c, 0x25};
    unsigned live = 0, inert = 0, all = 0;
    for (const int32_t *e = __start___lp_inc64; e && e < __stop___lp_inc64; e++, all++) {
        const unsigned char *p = (const unsigned char *)e + *e;
        live += memcmp(p, add, sizeof add) == 0;
        inert += memcmp(p, cmp, sizeof cmp) == 0;
    }
    printf("increments %s: %u live, %u inert of %u\n", when, live, inert, all);
    /* the loops' checks: cmp, on to the counted blocks, or jmp to the
     * version without counters */
    live = inert = all = 0;
    for (const int32_t *e = __start___lp_loop64; e && e < __stop___lp_loop64; e++, all++) {
        const unsigned char *p = (const unsigned char *)e + *e;
        live += p[0] == 0x3d;
        inert += p[0] == 0xe9;
    }
    printf("loop checks %s: %u live, %u inert of %u\n", when, live, inert, all);
}

/* 32 bytes: passed in memory (byval), so its copy's checking entry calls
 * the copy rather than jumping to it (cc_entry.c). */
typedef struct rt_quad {
    long a, b, c, d;
} rt_quad;

NOINLINE long quad_sum(rt_quad q)
{
    return q.a + 2 * q.b + 3 * q.c + 4 * q.d;
}

static int mode_switch(void)
{
    int bad = 0;
    print_increments("before");
    /* From main's original (off), through the checking entry's call: the
     * argument arrives whole, the calls and their pair count. */
    bad |= check(lp_rt_setpf(LP_RT_FUNCTIONS, LP_RT_FN(quad_sum)) == 0, "setpf quad_sum");
    long qs = 0;
    for (long i = 0; i < 40; i++)
        qs += quad_sum((rt_quad){i, i + 1, i + 2, i + 3});
    bad |= check(qs == 10 * 780 + 20 * 40, "quad_sum's arguments");
    bad |= check(lp_rt_resetpf(LP_RT_FUNCTIONS, LP_RT_FN(quad_sum)) == 0, "resetpf quad_sum");
    bad |= check(lp_rt_enabled() == 1, "runtime enabled");
    bad |= check(lp_rt_setpf(LP_RT_FUNCTIONS, LP_RT_FN(leaf)) == 0, "setpf leaf");
    for (int i = 0; i < 100; i++) {
        leaf();
        other();
    }
    bad |= check(lp_rt_resetpf(LP_RT_FUNCTIONS, LP_RT_FN(leaf)) == 0, "resetpf leaf");
    for (int i = 0; i < 50; i++)
        leaf();
    bad |= check(lp_rt_setpf(LP_RT_FUNCTIONS, LP_RT_FN(other)) == 0, "setpf other");
    for (int i = 0; i < 10; i++) {
        other();
        leaf();
    }
    bad |= check(lp_rt_autopf(LP_RT_FUNCTIONS, LP_RT_FN(other)) == 0, "autopf other");
    other(); /* never: back under the daemon, which keeps it off */
    /* blocks of loop777 only */
    bad |= check(lp_rt_setpf(LP_RT_BLOCKS, LP_RT_FN(loop777)) == 0, "setpf blocks loop777");
    print_increments("on");
    loop777();
    hot();
    bad |= check(lp_rt_resetpf(LP_RT_BLOCKS, LP_RT_FN(loop777)) == 0, "resetpf blocks loop777");
    bad |= check(lp_rt_setpf(LP_RT_BLOCKS, LP_RT_FN(stops_midway)) == 0, "setpf stops_midway");
    stops_midway();
    print_increments("after");
    bad |= check(lp_rt_setpf(LP_RT_FUNCTIONS, (const void *)&sink) == LP_RT_ENOENT,
                 "setpf on data is ENOENT");
    bad |= check(lp_rt_setpf(7, LP_RT_FN(leaf)) == LP_RT_EINVAL, "setpf bad type");
    return bad;
}

/* leaf() and other() n times each, in turn, from an original (the
 * sampled mode switches this function off): every call reaches a copy
 * from outside. */
NOINLINE void alternate(int n)
{
    for (int i = 0; i < n; i++) {
        leaf();
        other();
    }
}

/* Under a windowed strategy the runtime counts one call from outside the
 * copies in 16, at random, as 16 (rt_caches.c): a million calls of each
 * callee, in turn, that a countdown of a fixed even length would have
 * given all to one of them. */
static int mode_sampled(void)
{
    int bad = 0;
    bad |= check(lp_rt_setpf(LP_RT_FUNCTIONS, LP_RT_FN(leaf)) == 0, "setpf leaf");
    bad |= check(lp_rt_setpf(LP_RT_FUNCTIONS, LP_RT_FN(other)) == 0, "setpf other");
    bad |= check(lp_rt_resetpf(LP_RT_FUNCTIONS, LP_RT_FN(alternate)) == 0, "resetpf alternate");
    alternate(1000000);
    return bad;
}

/* leaf() n times from one call site, so that the runtime's caches of
 * counted calls (rt_count.c) see the same call under each flag. */
NOINLINE void leaf_times(int n)
{
    for (int i = 0; i < n; i++)
        leaf();
}

NOINLINE void callee_resets(void)
{
    lp_rt_pushpf();
    lp_rt_thread_resetpf(LP_RT_FUNCTIONS);
    leaf_times(7);
    lp_rt_poppf();
}

static int mode_flags(void)
{
    int bad = 0;
    bad |= check(lp_rt_thread_getpf(LP_RT_FUNCTIONS) == 1, "flag starts set");
    lp_rt_thread_resetpf(LP_RT_FUNCTIONS);
    leaf_times(10); /* not counted */
    bad |= check(lp_rt_pushpf() == 0, "push");
    lp_rt_thread_setpf(LP_RT_FUNCTIONS);
    leaf_times(5);   /* counted */
    callee_resets(); /* 7 not counted; itself counted once */
    bad |= check(lp_rt_thread_getpf(LP_RT_FUNCTIONS) == 1, "callee's reset did not leak");
    leaf_times(3); /* counted */
    bad |= check(lp_rt_poppf() == 0, "pop");
    bad |= check(lp_rt_thread_getpf(LP_RT_FUNCTIONS) == 0, "pop restored the reset flag");
    leaf_times(4); /* not counted */
    bad |= check(lp_rt_poppf() == -1, "pop of an empty stack");
    lp_rt_thread_setpf(LP_RT_FUNCTIONS);
    /* A push past the stack's depth and its pop leave the word alone. */
    for (int i = 0; i < 64; i++)
        lp_rt_pushpf();
    bad |= check(lp_rt_pushpf() == -1, "overflowing push");
    lp_rt_thread_resetpf(LP_RT_FUNCTIONS);
    bad |= check(lp_rt_poppf() == -1, "pop of the overflowing push");
    bad |= check(lp_rt_thread_getpf(LP_RT_FUNCTIONS) == 0, "overflow pop left the word");
    for (int i = 0; i < 64; i++)
        lp_rt_poppf();
    bad |= check(lp_rt_thread_getpf(LP_RT_FUNCTIONS) == 1, "deepest word restored");
    return bad;
}

#define THREADS 16
#define CALLS 20000
static int switching = 1;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < CALLS; i++) {
        leaf();
        hot();
        switched();
    }
    return NULL;
}

static void *switcher(void *arg)
{
    (void)arg;
    while (__atomic_load_n(&switching, __ATOMIC_RELAXED)) {
        lp_rt_setpf(LP_RT_FUNCTIONS, LP_RT_FN(switched));
        lp_rt_resetpf(LP_RT_FUNCTIONS, LP_RT_FN(switched));
    }
    return NULL;
}

static int mode_threads(void)
{
    pthread_t t[THREADS], s;
    pthread_create(&s, NULL, switcher, NULL);
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    __atomic_store_n(&switching, 0, __ATOMIC_RELAXED);
    pthread_join(s, NULL);
    printf("threads: sink %lu\n", SINK_ADD(0));
    return 0;
}

static int mode_fork(void)
{
    for (int i = 0; i < 10; i++)
        leaf();
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        for (int i = 0; i < 33; i++)
            leaf();
        printf("child %d\n", (int)getpid());
        return 0;
    }
    for (int i = 0; i < 20; i++)
        leaf();
    int status;
    waitpid(pid, &status, 0);
    printf("parent %d child-status %d\n", (int)getpid(), status);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

static int mode_exec(char **argv)
{
    for (int i = 0; i < 5; i++)
        leaf();
    fflush(stdout);
    char *args[] = {argv[0], "exec2", NULL};
    execv("/proc/self/exe", args);
    perror("execv");
    return 1;
}

static int mode_exec2(void)
{
    for (int i = 0; i < 7; i++)
        leaf();
    printf("exec2 %d\n", (int)getpid());
    return 0;
}

static volatile int *volatile null_pointer;

static int mode_segv(void)
{
    for (int i = 0; i < 25; i++)
        leaf();
    fflush(stdout);
    *null_pointer = 1;
    return 0;
}

static int mode_abort(void)
{
    for (int i = 0; i < 25; i++)
        leaf();
    fflush(stdout);
    abort();
}

static int mode_term(void)
{
    for (int i = 0; i < 25; i++)
        leaf();
    fflush(stdout);
    raise(SIGTERM);
    return 0;
}

static volatile sig_atomic_t own_prof;

static void own_prof_handler(int sig)
{
    (void)sig;
    own_prof++;
}

static void chain_handler(int sig)
{
    (void)sig;
    static const char msg[] = "handled\n";
    ssize_t w = write(1, msg, sizeof msg - 1);
    (void)w;
    _exit(42);
}

/* Before the runtime's constructor (priority 101). */
__attribute__((constructor(100))) static void early(void)
{
    if (getenv("RT_PROG_CHAIN"))
        signal(SIGSEGV, chain_handler);
    if (getenv("RT_PROG_PROF"))
        signal(SIGPROF, own_prof_handler);
}

static int mode_prof(void)
{
    struct itimerval it = {{0, 2000}, {0, 2000}};
    setitimer(ITIMER_PROF, &it, NULL);
    for (unsigned long i = 0; i < 400000000UL && own_prof < 20; i++) {
        hot();
        if ((i & 0xfffff) == 0)
            leaf();
    }
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_PROF, &off, NULL);
    printf("own SIGPROF handler ran %d times\n", (int)own_prof);
    return own_prof >= 20 ? 0 : 1;
}

/* Two behaviours in turn, about 60 ms of CPU time each, six times: phases
 * for the phase strategy to tell apart and profile as they recur. */
static int mode_phases(void)
{
    for (int round = 0; round < 6; round++) {
        clock_t until = clock() + CLOCKS_PER_SEC * 60 / 1000;
        while (clock() < until)
            for (int i = 0; i < 1000; i++)
                leaf();
        until = clock() + CLOCKS_PER_SEC * 60 / 1000;
        while (clock() < until)
            for (int i = 0; i < 100; i++)
                hot();
    }
    printf("phases: sink %lu\n", SINK_ADD(0));
    return 0;
}

/* A start-up that never recurs: other() for about 150 ms of CPU time,
 * most of the phase strategy's first interval, then hot() for a second.
 * Prints how many calls each made. */
static int mode_startup(void)
{
    unsigned long n_other = 0, n_hot = 0;
    clock_t until = clock() + CLOCKS_PER_SEC * 3 / 20;
    while (clock() < until)
        for (int i = 0; i < 1000; i++, n_other++)
            other();
    until = clock() + CLOCKS_PER_SEC;
    while (clock() < until)
        for (int i = 0; i < 1000; i++, n_hot++)
            hot();
    printf("startup: other %lu hot %lu sink %lu\n", n_other, n_hot, SINK_ADD(0));
    return 0;
}

static void *text_reader(void *arg)
{
    const volatile unsigned char *p = (const volatile unsigned char *)(uintptr_t)&hot;
    unsigned long sum = 0;
    for (int r = 0; r < 100000; r++)
        for (int i = 0; i < 16; i++)
            sum += p[i];
    *(unsigned long *)arg = sum;
    return NULL;
}

static int mode_text(void)
{
    unsigned long sum = 0;
    pthread_t t;
    if (pthread_create(&t, NULL, text_reader, &sum) != 0)
        return 1;
    clock_t until = clock() + CLOCKS_PER_SEC / 5;
    while (clock() < until)
        for (int i = 0; i < 1000; i++)
            leaf();
    pthread_join(t, NULL);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        volatile unsigned char *p = (volatile unsigned char *)(uintptr_t)&leaf + 8;
        *p = *p; /* the program's own store into its text */
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    printf("text: read %s, child %s\n", sum ? "something" : "nothing",
           WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV ? "faulted" : "wrote");
    return 0;
}

NOINLINE void beat(void)
{
    SINK_ADD(7);
}

NOINLINE void tock(void)
{
    SINK_ADD(3);
}

/* As often called as beat(), but each call runs a loop of 64 calls,
 * each in a counted block of its copy: a clock by its calls, priced out
 * by its copy's increments (rt_clock.c). */
static volatile unsigned long g_heavy;

NOINLINE void heavy(void)
{
    g_heavy = g_heavy + 1; /* a store first: a prefixed entry (doc/runtime.md) */
    for (int k = 0; k < 64; k++) {
        tock();
        __asm__ volatile("" ::: "memory");
    }
}

NOINLINE void step(unsigned long i)
{
    for (int k = 0; k < 40; k++) {
        leaf();
        __asm__ volatile("" ::: "memory");
    }
    if (i % 4 == 0) {
        beat();
        heavy();
    }
}

/* Where fn's prefix jumps (the five bytes before it: `jmp rel32` once the
 * runtime has prepared it), as the displacement: the target less fn. 0
 * when it is not a jump. Read twice, equal, so that a read that met the
 * runtime's store half-way is not taken. */
static long prefix_target(const void *fn)
{
    const volatile unsigned char *p = (const volatile unsigned char *)(uintptr_t)fn - 5;
    for (;;) {
        if (p[0] != 0xe9)
            return 0;
        int32_t a, b;
        memcpy(&a, (const void *)(uintptr_t)(p + 1), 4);
        __asm__ volatile("" ::: "memory");
        memcpy(&b, (const void *)(uintptr_t)(p + 1), 4);
        if (a == b)
            return a;
    }
}

/* Adds fn's prefix target now to seen (up to 4 distinct ones). */
static void note_target(const void *fn, long *seen, int *nseen)
{
    long t = prefix_target(fn);
    int known = 0;
    for (int j = 0; j < *nseen; j++)
        known |= seen[j] == t;
    if (t && !known && *nseen < 4)
        seen[(*nseen)++] = t;
}

static int mode_clock(void)
{
    long seen[2][4] = {{0}};
    int nseen[2] = {0, 0};
    unsigned long steps = 0;
    clock_t until = clock() + CLOCKS_PER_SEC * 3 / 10;
    while (clock() < until) {
        for (int k = 0; k < 256; k++)
            step(steps++);
        note_target((const void *)(uintptr_t)&beat, seen[0], &nseen[0]);
        note_target((const void *)(uintptr_t)&heavy, seen[1], &nseen[1]);
    }
    printf("clock: steps %lu beats %lu beat %p targets", steps, (steps + 3) / 4,
           (void *)(uintptr_t)&beat);
    for (int j = 0; j < nseen[0]; j++)
        printf(" %ld", seen[0][j]);
    printf(" heavy");
    for (int j = 0; j < nseen[1]; j++)
        printf(" %ld", seen[1][j]);
    printf("\n");
    return 0;
}

/* calls calls of leaf(): long activations first, short ones after. */
NOINLINE void nest(unsigned long calls)
{
    for (unsigned long k = 0; k < calls; k++) {
        leaf();
        __asm__ volatile("" ::: "memory");
    }
}

/* Whether fn's first two bytes are the jump back to its prefix (EB F9):
 * its entry sends calls to its copy. */
static int entry_on(const void *fn)
{
    const volatile unsigned char *p = (const volatile unsigned char *)(uintptr_t)fn;
    return p[0] == 0xeb && p[1] == 0xf9;
}

/* A method sticky first, and not after (rt_sticky.c): for 100 ms of CPU
 * time nest() runs a million calls an activation, which the windows find
 * in its original calling leaf() from outside; then, for 300 ms, one call
 * an activation, so that the windows enter its copy thousands of times
 * each. Prints how many of nest()'s entries were on when read in the
 * second half of each stretch. */
static int mode_sticky(void)
{
    unsigned long reads[2] = {0, 0}, on[2] = {0, 0};
    clock_t start = clock();
    for (int stretch = 0; stretch < 2; stretch++) {
        clock_t len = CLOCKS_PER_SEC / 10 * (stretch ? 3 : 1);
        clock_t half = start + len / 2, until = start + len;
        for (clock_t now = start; now < until; now = clock()) {
            for (int k = 0; k < (stretch ? 4096 : 1); k++)
                nest(stretch ? 1 : 1000000);
            if (now >= half) {
                reads[stretch]++;
                on[stretch] += (unsigned long)entry_on((const void *)(uintptr_t)&nest);
            }
        }
        start = until;
    }
    printf("sticky: long %lu of %lu on, short %lu of %lu on\n", on[0], reads[0], on[1], reads[1]);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "exact";
    if (strcmp(mode, "exact") == 0)
        return mode_exact();
    if (strcmp(mode, "copies") == 0)
        return mode_copies();
    if (strcmp(mode, "switch") == 0)
        return mode_switch();
    if (strcmp(mode, "flags") == 0)
        return mode_flags();
    if (strcmp(mode, "threads") == 0)
        return mode_threads();
    if (strcmp(mode, "fork") == 0)
        return mode_fork();
    if (strcmp(mode, "exec") == 0)
        return mode_exec(argv);
    if (strcmp(mode, "exec2") == 0)
        return mode_exec2();
    if (strcmp(mode, "segv") == 0)
        return mode_segv();
    if (strcmp(mode, "abort") == 0)
        return mode_abort();
    if (strcmp(mode, "term") == 0)
        return mode_term();
    if (strcmp(mode, "prof") == 0)
        return mode_prof();
    if (strcmp(mode, "phases") == 0)
        return mode_phases();
    if (strcmp(mode, "startup") == 0)
        return mode_startup();
    if (strcmp(mode, "sampled") == 0)
        return mode_sampled();
    if (strcmp(mode, "text") == 0)
        return mode_text();
    if (strcmp(mode, "clock") == 0)
        return mode_clock();
    if (strcmp(mode, "sticky") == 0)
        return mode_sticky();
    fprintf(stderr, "rt_prog: unknown mode %s\n", mode);
    return 2;
}
