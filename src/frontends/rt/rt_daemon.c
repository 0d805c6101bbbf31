/* The profiling daemon: one thread, started by the constructor, that plays
 * the paper's runtime (section VI.B): it finds the hot methods from PC
 * samples and switches profiling on and off for them in windows.
 *
 * Time is the process's CPU time (CLOCK_PROCESS_CPUTIME_ID), the software
 * proxy for the paper's instruction windows. The strategies:
 *
 *   always    on from the start (hot methods re-chosen every period)
 *   never     off; only what the program switches with lp_rt_setpf
 *   periodic  each period: on for duty % of it, then off
 *   random    slots of duty % of a period, each on with probability duty %
 *   phase     intervals of one period; the phase tracker classifies each
 *             from its PC samples, and the phase daemon (phase.h) profiles
 *             one representative interval per phase
 *   bursty    off for `check` ms (n_check), then on for `burst` recorded
 *             events (n_instr), the sampling framework's two counters
 *
 * Estimates: the phase strategy (rt_phase.c) keeps each profiled
 * interval's counts and reconstructs the whole run stratum by stratum
 * (lp_phase_reconstruct, rt_phase_out.c), weighting each stratum by the
 * clock's calls; periodic, random and bursty
 * windows are accounted in program time, which the clock methods give
 * (rt_clock.c), and the dump scales the counts by the run's
 * program time over the program time their sites were on.
 *
 * The thread blocks every signal, so it never runs a handler of the
 * program's and never takes a PC sample of its own. It holds lp__rt.lock
 * whenever it works, and sleeps with it released. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_internal.h"

static pthread_t lp__rt_thread;
static int lp__rt_running;
static int lp__rt_stop;
static pthread_cond_t lp__rt_cond;
static int lp__rt_cond_ready;

static uint64_t *lp__rt_msamples; /* PC samples per method */
static uint8_t *lp__rt_want;      /* scratch: desired state per method */
static uint64_t lp__rt_pcs[LP__RT_RING];
static lp_rng lp__rt_rng;
static uint64_t lp__rt_next;       /* CPU time of the next decision */
static uint64_t lp__rt_next_flush; /* wall time of the next periodic file */
static uint64_t lp__rt_burst_from; /* events when the burst began */
static uint64_t lp__rt_win_outside; /* outside calls when the window opened */

static uint64_t lp__rt_wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ---- switching ------------------------------------------------------------------ */

static int lp__rt_desired(unsigned type, size_t i)
{
    const lp__rt_method *m = &lp__rt.methods[i];
    if (m->mode[type] == LP__RT_FORCE_ON)
        return 1;
    if (m->mode[type] == LP__RT_FORCE_OFF)
        return 0;
    if (lp__rt_on_between(i, type))
        return 1; /* a clock, or a sticky method (rt_clock.c, rt_sticky.c) */
    return lp__rt.window_on && (lp__rt.cfg.hot == 0 || m->hot);
}

void lp__rt_apply(uint64_t now)
{
    /* Whatever switches first ends the stretch before the first window:
     * its entries go back to off, and apply sets them as they should be. */
    if (lp__rt_prewindow)
        lp__rt_patch_prewindow(0);
    for (unsigned t = 0; t < LP_RT_TYPES; t++) {
        if (!lp__rt_profiles(t))
            continue;
        for (size_t i = 0; i < lp__rt.nmethods; i++)
            lp__rt_want[i] = (uint8_t)lp__rt_desired(t, i);
        lp__rt_patch_apply(t, lp__rt_want, now);
    }
}

static size_t *lp__rt_order;
static int lp__rt_hot_cmp(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    uint64_t ca = lp__rt_msamples[a], cb = lp__rt_msamples[b];
    if (ca != cb)
        return ca > cb ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* The hottest cfg.hot methods by PC samples so far (only methods with
 * samples: before the first sample nothing is hot). */
static void lp__rt_hot_update(void)
{
    if (lp__rt.cfg.hot == 0)
        return;
    size_t n = 0;
    for (size_t i = 0; i < lp__rt.nmethods; i++) {
        lp__rt.methods[i].hot = 0;
        if (lp__rt_msamples[i])
            lp__rt_order[n++] = i;
    }
    qsort(lp__rt_order, n, sizeof *lp__rt_order, lp__rt_hot_cmp);
    for (size_t k = 0; k < n && k < lp__rt.cfg.hot; k++)
        lp__rt.methods[lp__rt_order[k]].hot = 1;
}


/* The CPU time at which the apply just made started or stopped the
 * copies' counting: the gate's own reading, taken right there (a daemon
 * preempted between the gate and a reading here, 16 busy threads on two
 * processors, tens of milliseconds, made a window of what was mostly the
 * time before or after the counting), or now's when the gate did not
 * change (no copies, or counting on for methods the program switched). */
static uint64_t lp__rt_gate_time(uint64_t now)
{
    uint64_t g = lp__rt_cnt_gate_cpu(), t = g >= now ? g : lp__rt_cpu_ns();
    return t > now ? t : now;
}

/* The clock's count at a window's edges is read as close as can be to the
 * moment the copies start or stop counting: after the gate has taken the
 * threads' snaps, and after it has added their counts. Otherwise a daemon
 * preempted between the two (16 busy threads on two processors) let the
 * copies count for milliseconds that the clock did not, and 2 ms windows
 * came out up to three times too heavy. */
void lp__rt_window_open(uint64_t now)
{
    lp__rt_hot_update();
    int opened = !lp__rt.window_on;
    if (opened) {
        lp__rt.window_on = 1;
        lp__rt.clock.windows++;
        lp__rt_clock_opened(now);
    }
    lp__rt_apply(now);
    if (opened) { /* the window's CPU time starts when the copies count */
        uint64_t t = lp__rt_gate_time(now);
        lp__rt.clock.on_since = t ? t : 1;
        lp__rt_win_outside = lp__rt_outside_calls();
    }
    if (opened && lp__rt_tk.method >= 0 && lp__rt_tk.open_gen == lp__rt_tk.gen)
        lp__rt_tk.open_k = lp__rt_clock_count();
}

/* The program time a window of span CPU time held: its calls from
 * outside the copies (a loop in an original that was running when the
 * window opened, a library's callback) cost lp__rt_outside_ps each more
 * than the same calls made while the window is closed, and their phase
 * runs slower in it than the rest (compress's decoding loop, nearly twice
 * as slow). At least a tenth of the span is left. */
static uint64_t lp__rt_window_program(uint64_t span)
{
    uint64_t n = lp__rt_outside_calls() - lp__rt_win_outside;
    uint64_t cost = lp__rt_muldiv(n, __atomic_load_n(&lp__rt_outside_ps, __ATOMIC_RELAXED), 1000);
    uint64_t most = span - span / 10;
    return span - (cost < most ? cost : most);
}

/* Closes the window at now; returns its program time (0 if none was
 * open). */
uint64_t lp__rt_window_close(uint64_t now)
{
    uint64_t prog = 0;
    if (lp__rt.window_on) {
        /* The copies stop counting first (lp__rt_apply below settles the
         * gate for good), and the window's CPU time ends there; the clock's
         * accounting still sees the sites as they were in the window, and
         * takes the window's program time, which the clock may find
         * shorter still. */
        /* Unless a method the program switched on holds the gate open:
         * closing it for the apply to reopen it lost the program's own
         * counts while the daemon closed the window (a run of the switch
         * test's sampled mode beside other tests: 11 % of its calls). */
        if (!lp__rt_gate_held())
            lp__rt_cnt_gate_off();
        now = lp__rt_gate_time(now);
        uint64_t span = now > lp__rt.clock.on_since ? now - lp__rt.clock.on_since : 0;
        prog = lp__rt_window_program(span);
        lp__rt.window_on = 0;
        lp__rt.clock.on_ns += span;
        lp__rt.clock.on_since = 0;
        lp__rt_clock_closed(now, prog); /* before the sites change */
        lp__rt_sticky_update();
    }
    lp__rt_apply(now);
    return prog;
}

/* Every method off until a first window, the calls going to the copies
 * meanwhile (counting nothing) so that what starts now runs in them when
 * the window opens; with hot=N nothing is hot yet, and the entries stay. */
void lp__rt_prewindow_begin(uint64_t now)
{
    lp__rt_apply(now);
    if (lp__rt.cfg.hot == 0)
        lp__rt_patch_prewindow(1);
}

/* ---- the loop --------------------------------------------------------------------------- */

static uint64_t lp__rt_duty_ns(void)
{
    return lp__rt.cfg.period_ns / 100 * lp__rt.cfg.duty;
}

static void lp__rt_drain(void)
{
    size_t n = lp__rt_sampler_drain(lp__rt_pcs, LP__RT_RING);
    for (size_t i = 0; i < n; i++) {
        long m = lp__rt_method_at(lp__rt_pcs[i]);
        if (m >= 0)
            lp__rt_msamples[m]++;
        /* Samples in the runtime (the clock's calls) are its price, not
         * the program's phase. */
        if (lp__rt.cfg.strategy == LP__RT_PHASE && !lp__rt_phase_borrows() &&
            !lp__rt_pc_overhead(lp__rt_pcs[i])) {
            lp_phase_tracker_branch(&lp__rt_tracker, lp__rt_phase_key(lp__rt_pcs[i]), 1);
        }
    }
    lp__rt_stacks_drain();
}

/* The generator of a random start (of periodic windows, of the phase
 * strategy's first scout windows): seed= where given, else a different
 * draw each run, so that repeated runs do not share one start's error. */
void lp__rt_start_seed(lp_rng *r)
{
    uint64_t s = lp__rt.cfg.seed;
    if (!lp__rt.cfg.seed_set)
        s = lp_hash_pair(lp_hash_pair(s, (uint64_t)getpid()), lp__rt_wall_ns());
    lp_rng_seed(r, s);
}

/* First decision, at CPU time now. */
static void lp__rt_begin(uint64_t now)
{
    const lp__rt_config *c = &lp__rt.cfg;
    lp__rt.clock.start_ns = now;
    lp_rng_seed(&lp__rt_rng, c->seed);
    switch (c->strategy) {
    case LP__RT_ALWAYS:
        lp__rt_window_open(now);
        lp__rt_next = c->hot ? now + c->period_ns : UINT64_MAX; /* nothing to re-choose */
        break;
    case LP__RT_NEVER:
        lp__rt_apply(now);
        lp__rt_next = UINT64_MAX;
        break;
    case LP__RT_PERIODIC: {
        /* The windows start at a random point of the first period
         * (systematic sampling with a random start), so that every moment
         * of the run, its first ones included, is in a window with
         * probability duty %. Windows that began with the run put its
         * start-up into every first window: graph's input generation,
         * which ends within the first period, came out 3 to 7 times too
         * heavy at duty 10, and json's generator was the second heaviest
         * function of its sample profile (doc/runtime.md, "periodic").
         * The offset u is drawn from [0, period); when the window at u
         * would run past the period, its tail opens the run instead (the
         * window one period earlier), which keeps the first moments' odds
         * at duty % too. */
        lp_rng start;
        lp__rt_start_seed(&start);
        uint64_t on = lp__rt_duty_ns(), u = lp_rng_below(&start, c->period_ns);
        if (u + on > c->period_ns) {
            lp__rt_window_open(now);
            lp__rt_next = now + (u + on - c->period_ns);
        } else {
            /* Until then the calls go to the copies, which count nothing
             * while every method is off: main and the threads started
             * meanwhile run in their copies, and their own blocks count in
             * every window after, as if the run had begun in a window (a
             * function entered with the windows closed runs uncounted until
             * it returns). With hot=N nothing is hot yet. */
            lp__rt_prewindow_begin(now);
            lp__rt_next = now + u;
        }
        break;
    }
    case LP__RT_RANDOM:
        if (lp_rng_below(&lp__rt_rng, 100) < c->duty)
            lp__rt_window_open(now);
        else
            lp__rt_apply(now);
        lp__rt_next = now + lp__rt_duty_ns();
        break;
    case LP__RT_PHASE:
        lp__rt_phase_begin(now);
        lp__rt_next = now + c->period_ns;
        break;
    case LP__RT_BURSTY:
        lp__rt_apply(now);
        lp__rt_next = now + c->check_ns;
        break;
    }
}

/* One step at CPU time now: every decision that is due. */
static void lp__rt_step(uint64_t now)
{
    const lp__rt_config *c = &lp__rt.cfg;
    switch (c->strategy) {
    case LP__RT_ALWAYS:
        if (now >= lp__rt_next && c->hot) {
            lp__rt_window_open(now); /* re-choose the hot methods */
            lp__rt_next = now + c->period_ns;
        }
        break;
    case LP__RT_NEVER: break;
    case LP__RT_PERIODIC:
        if (now < lp__rt_next)
            break;
        if (lp__rt.window_on && c->duty < 100) {
            /* The pause matches the program time the window held, so
             * that the share switched on stays duty % of the program's
             * time: a window that ran past its end (a daemon woken late;
             * interp at duty=10 was on 17 % of its CPU time when the
             * pause did not follow) is followed by a longer one, and one
             * that ran slow by a shorter one (than period less duty),
             * so that a phase the windows slow more than others gets its
             * windows more often and each window stands for as much of
             * the program as any other. */
            uint64_t on = lp__rt_window_close(now);
            lp__rt_next = now + on / c->duty * (100 - c->duty);
        } else {
            lp__rt_window_open(now);
            lp__rt_next = now + lp__rt_duty_ns();
        }
        break;
    case LP__RT_RANDOM:
        if (now < lp__rt_next)
            break;
        if (lp_rng_below(&lp__rt_rng, 100) < c->duty) {
            if (!lp__rt.window_on)
                lp__rt_window_open(now);
        } else if (lp__rt.window_on) {
            lp__rt_window_close(now);
        }
        lp__rt_next = now + lp__rt_duty_ns();
        break;
    case LP__RT_PHASE:
        lp__rt_phase_windows_step(now);
        if (now >= lp__rt_next) {
            lp__rt_phase_boundary(now, 0);
            lp__rt_next = now + c->period_ns;
        }
        break;
    case LP__RT_BURSTY:
        if (lp__rt.window_on) {
            uint64_t ev = lp__rt_events_sum();
            /* A burst also ends after ten periods, so a program that stops
             * reaching hot methods is not profiled forever. */
            if (ev - lp__rt_burst_from >= c->burst || now >= lp__rt_next) {
                lp__rt_window_close(now);
                lp__rt_next = now + c->check_ns;
            }
        } else if (now >= lp__rt_next) {
            lp__rt_burst_from = lp__rt_events_sum();
            lp__rt_window_open(now);
            lp__rt_next = now + 10 * c->period_ns;
        }
        break;
    }
}

/* The process's CPU time and the wall clock at the daemon's last wake-up,
 * for the rate at which the process burns CPU time (lp__rt_nap). */
static uint64_t lp__rt_nap_cpu, lp__rt_nap_wall;

/* How long to sleep (wall ns) until the CPU-time deadline: the time left
 * over the rate at which the process burned CPU time since the last
 * wake-up, at most the processors' count and at least a sixteenth.
 * Dividing by the processors' count alone (the fastest the deadline can
 * come) halved the time left at each wake-up for a program running one
 * thread on two processors: about eight wake-ups a window's edge, some
 * 90 us of the daemon's CPU time each on this kind of virtual machine,
 * 3.5 % of the native suite's CPU time at duty=10. A rate that rises
 * (threads starting) makes one nap late by the rise; one that falls wakes
 * the daemon early, and it naps again. */
static uint64_t lp__rt_nap(uint64_t now)
{
    static long ncpu;
    if (!ncpu) {
        ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        ncpu = ncpu > 0 ? ncpu : 1;
    }
    uint64_t wall = lp__rt_wall_ns();
    /* The rate in 1/16ths of a processor, from the last nap's CPU time. */
    uint64_t rate16 = 16 * (uint64_t)ncpu;
    if (lp__rt_nap_wall && wall > lp__rt_nap_wall && now >= lp__rt_nap_cpu) {
        uint64_t dw = wall - lp__rt_nap_wall, dc = now - lp__rt_nap_cpu;
        uint64_t r = dc / (dw / 16 ? dw / 16 : 1);
        rate16 = r < 1 ? 1 : r < rate16 ? r : rate16;
    }
    lp__rt_nap_cpu = now;
    lp__rt_nap_wall = wall;
    uint64_t nap = 100000000ULL; /* at least ten drains a second */
    /* A phase interval's windows open and close within it. */
    uint64_t next = lp__rt_next, win = lp__rt_phase_window_next();
    if (lp__rt.cfg.strategy == LP__RT_PHASE && win < next)
        next = win;
    if (next != UINT64_MAX && next > now) {
        uint64_t d = (next - now) / rate16 * 16;
        nap = d < nap ? d : nap;
    } else if (next != UINT64_MAX) {
        nap = 0;
    }
    if (lp__rt.cfg.strategy == LP__RT_BURSTY && lp__rt.window_on && nap > 1000000)
        nap = 1000000; /* watch the event count closely during a burst */
    return nap < 200000 ? 200000 : nap;
}

static void *lp__rt_main(void *arg)
{
    (void)arg;
    if (lp__rt_cnt_start && lp__rt.cfg.strategy != LP__RT_ALWAYS &&
        lp__rt.cfg.strategy != LP__RT_NEVER)
        lp__rt_outside_measure();
    pthread_mutex_lock(&lp__rt.lock);
    if (lp__rt.cfg.flush_ns)
        lp__rt_next_flush = lp__rt_wall_ns() + lp__rt.cfg.flush_ns;
    uint64_t now = lp__rt_cpu_ns();
    while (!lp__rt_stop) {
        uint64_t nap = lp__rt_nap(now);
        uint64_t wake = lp__rt_wall_ns() + nap;
        if (lp__rt_next_flush && wake > lp__rt_next_flush)
            wake = lp__rt_next_flush;
        struct timespec ts = {(time_t)(wake / 1000000000ULL), (long)(wake % 1000000000ULL)};
        while (!lp__rt_stop && pthread_cond_timedwait(&lp__rt_cond, &lp__rt.lock, &ts) == 0)
            ;
        if (lp__rt_stop || __atomic_load_n(&lp__rt.frozen, __ATOMIC_ACQUIRE))
            break;
        lp__rt.daemon_wakeups++;
        lp__rt_drain();
        now = lp__rt_cpu_ns();
        lp__rt_step(now);
        /* The nap goes from the gate's reading where the step moved a
         * window's edge (taken after its work), else from the step's: a
         * reading is two system calls or more, and with one here and one
         * in each type's switch json's call graph at duty 10 made 16.9 of
         * them a window, 8.7 without. */
        uint64_t g = lp__rt_cnt_gate_cpu();
        now = g > now ? g : now;
        if (lp__rt_next_flush && lp__rt_wall_ns() >= lp__rt_next_flush) {
            lp__rt.daemon_cpu_ns = lp__rt_thread_cpu_ns();
            lp__rt_dump(LP__RT_DUMP_PERIODIC, 0, lp__rt_daemon_profiles);
            lp__rt_next_flush = lp__rt_wall_ns() + lp__rt.cfg.flush_ns;
        }
    }
    lp__rt.daemon_cpu_ns = lp__rt_thread_cpu_ns();
    pthread_mutex_unlock(&lp__rt.lock);
    return NULL;
}

/* Allocations the loop needs, made once here so the loop never fails. */
static int lp__rt_daemon_alloc(void)
{
    size_t n = lp__rt.nmethods ? lp__rt.nmethods : 1;
    if (!lp__rt_msamples) {
        lp__rt_msamples = calloc(n, sizeof *lp__rt_msamples);
        lp__rt_want = calloc(n, 1);
        lp__rt_order = calloc(n, sizeof *lp__rt_order);
    } else {
        memset(lp__rt_msamples, 0, n * sizeof *lp__rt_msamples);
    }
    if (!lp__rt_msamples || !lp__rt_want || !lp__rt_order)
        return -1;
    if (lp__rt_clock_alloc() != 0)
        return -1;
    return lp__rt.cfg.strategy == LP__RT_PHASE ? lp__rt_phase_alloc() : 0;
}

int lp__rt_daemon_start(void)
{
    if (lp__rt_running)
        return 0;
    if (!lp__rt_cond_ready) {
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_init(&lp__rt_cond, &ca);
        pthread_condattr_destroy(&ca);
        lp__rt_cond_ready = 1;
    }
    if (lp__rt.cfg.check_ns == 0)
        lp__rt.cfg.check_ns = lp__rt.cfg.period_ns - lp__rt_duty_ns();
    if (lp__rt.cfg.check_ns == 0)
        lp__rt.cfg.check_ns = 1000000;
    lp__rt.count_events = lp__rt.cfg.strategy == LP__RT_BURSTY;
    /* Strategies that count in windows sample the calls from outside the
     * copies too (rt_caches.c); always, never and bursts count each. The
     * phase strategy's estimates in rt test phase-scout, which a window's
     * outside calls and their price decide there, spread alike with and
     * without the sampling (20 runs each, doc/eval-native.md). */
    unsigned s = lp__rt.cfg.strategy;
    lp__rt_oc_sample(
        s == LP__RT_PERIODIC || s == LP__RT_RANDOM || s == LP__RT_PHASE ? LP__RT_OC_EVERY : 1);
    if (lp__rt_daemon_alloc() != 0)
        return -1;
    lp__rt_stop = 0;
    /* The first decision is made here, on the starting thread, so that
     * "always" is on before main runs, not once the thread is scheduled. */
    pthread_mutex_lock(&lp__rt.lock);
    lp__rt_begin(lp__rt_cpu_ns());
    pthread_mutex_unlock(&lp__rt.lock);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&lp__rt_thread, NULL, lp__rt_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        lp__rt_phase_free();
        return -1;
    }
    lp__rt_running = 1;
    return 0;
}

void lp__rt_daemon_stop(void)
{
    if (!lp__rt_running)
        return;
    pthread_mutex_lock(&lp__rt.lock);
    lp__rt_stop = 1;
    pthread_cond_broadcast(&lp__rt_cond);
    pthread_mutex_unlock(&lp__rt.lock);
    pthread_join(lp__rt_thread, NULL);
    lp__rt_running = 0;
    pthread_mutex_lock(&lp__rt.lock);
    uint64_t now = lp__rt_cpu_ns();
    lp__rt_drain();
    if (lp__rt.cfg.strategy == LP__RT_PHASE && lp__rt_pd) {
        lp__rt_phase_boundary(now, 1);
        if (lp__rt.cfg.ship == LP__RT_SHIP_INTERLEAVED)
            lp__rt_ship_interleaved(1);
    }
    lp__rt_window_close(now);
    lp__rt.clock.end_ns = now;
    pthread_mutex_unlock(&lp__rt.lock);
}

void lp__rt_daemon_forget(void)
{
    /* The parent's thread does not exist here; its state was left
     * consistent (the fork held the lock). Start over. */
    lp__rt_running = 0;
    lp__rt_stop = 0;
    lp__rt_cond_ready = 0;
    lp__rt.window_on = 0;
    lp__rt_nap_cpu = lp__rt_nap_wall = 0;
    memset(&lp__rt.clock, 0, sizeof lp__rt.clock);
    lp__rt_clock_forget(); /* the child chooses its own clock */
    lp__rt_phase_free();
    lp__rt_ship_forget();
}
