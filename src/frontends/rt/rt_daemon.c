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
 * Estimates: the phase strategy keeps each profiled interval's counts and
 * reconstructs the whole run stratum by stratum (lp_phase_reconstruct),
 * weighting each stratum by the clock's calls; periodic, random and bursty
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

/* phase strategy (its profiles and messages: rt_phase_out.c) */
lp_phase_tracker lp__rt_tracker;
lp_phase_daemon *lp__rt_pd;
static int lp__rt_sampled; /* the interval in progress is profiled */
/* ... or scouted (lp__rt.scouting): scout=N */
uint64_t lp__rt_scout_cpu, lp__rt_nscouted, lp__rt_scout_rate[4];
/* The counters when the open window began, now, and the interval's
 * windows' counts so far (lp__rt_window_add). */
static lp__rt_counts lp__rt_base, lp__rt_now, lp__rt_acc;
lp__rt_kept *lp__rt_kept_tabs;
size_t lp__rt_nkept;
static size_t lp__rt_kept_cap;
uint64_t lp__rt_sampled_ns;
/* A profiled interval is profiled in LP__RT_SUBWINDOWS windows, one at the
 * start of each quarter, each duty % of it long (one window for the whole
 * interval at duty 100): the next window event (CPU time; UINT64_MAX
 * none), the windows still to open, when the current quarter began, the
 * clock's count and the CPU time when the open window began; what the
 * windows measured (the clock's calls and CPU time; win_counted 0 once a
 * window went uncounted); and the clock's count from which it counted the
 * interval (UINT64_MAX: not yet), with the calls known before that. */
#define LP__RT_SUBWINDOWS 4
static unsigned lp__rt_win_duty; /* the interval's windows: percent of each quarter */
static uint64_t lp__rt_win_next = UINT64_MAX, lp__rt_win_quarter, lp__rt_win_k0, lp__rt_win_cpu0;
static unsigned lp__rt_win_left;
static uint64_t lp__rt_win_ticks, lp__rt_win_cpu;
static int lp__rt_win_counted;
static uint64_t lp__rt_iv_kfrom = UINT64_MAX, lp__rt_iv_pre;
/* The clock's calls in the profiled interval that just ended, window and
 * rest (UINT64_MAX: not counted), for lp__rt_interval_ticks. */
static uint64_t lp__rt_kept_calls = UINT64_MAX;
lp__rt_iv *lp__rt_ivs;
size_t lp__rt_niv;
static size_t lp__rt_iv_cap;
static uint64_t lp__rt_iv_from, lp__rt_iv_began;


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

void lp__rt_apply(void)
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
        lp__rt_patch_apply(t, lp__rt_want);
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
static void lp__rt_window_open(uint64_t now)
{
    lp__rt_hot_update();
    int opened = !lp__rt.window_on;
    if (opened) {
        lp__rt.window_on = 1;
        lp__rt.clock.windows++;
        lp__rt_clock_opened(now);
    }
    lp__rt_apply();
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
static uint64_t lp__rt_window_close(uint64_t now)
{
    uint64_t prog = 0;
    if (lp__rt.window_on) {
        /* The copies stop counting first (lp__rt_apply below settles the
         * gate for good), and the window's CPU time ends there; the clock's
         * accounting still sees the sites as they were in the window, and
         * takes the window's program time, which the clock may find
         * shorter still. */
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
    lp__rt_apply();
    return prog;
}

/* ---- the phase strategy's interval tables ------------------------------------------------- */

/* The counts of an interval are its windows' alone. The clocks count in
 * and out of windows (a clock on the trampoline its calls and call pairs,
 * a prefixed one its copy's entry), so the difference over the whole
 * interval gave them the calls between its windows too, and the scale
 * from windows to interval multiplied those again: at scout=5 a clock's
 * call pairs came out up to 20 times their calls (raytrace's
 * rt_trace -> rt_length, a clock with rt_nearest, 7 to 13 times in the
 * estimate). */
static void lp__rt_acc_reset(void)
{
    memset(lp__rt_acc.m, 0, lp__rt.nmethods * sizeof *lp__rt_acc.m);
    memset(lp__rt_acc.b, 0, lp__rt.nguards * sizeof *lp__rt_acc.b);
    memset(lp__rt_acc.a, 0, (lp__rt.arc_mask + 1) * sizeof *lp__rt_acc.a);
    lp__rt_acc.events = 0;
}

/* The window that just closed: its counts join the interval's. */
static void lp__rt_window_add(void)
{
    lp__rt_counts_sum(&lp__rt_now);
    for (size_t i = 0; i < lp__rt.nmethods; i++)
        lp__rt_acc.m[i] += lp__rt_now.m[i] - lp__rt_base.m[i];
    for (size_t i = 0; i < lp__rt.nguards; i++)
        lp__rt_acc.b[i] += lp__rt_now.b[i] - lp__rt_base.b[i];
    for (size_t i = 0; i <= lp__rt.arc_mask; i++)
        lp__rt_acc.a[i] += lp__rt_now.a[i] - lp__rt_base.a[i];
    lp__rt_acc.events += lp__rt_now.events - lp__rt_base.events;
}

/* Scouted intervals with a clock that may try to measure the windows'
 * slowdown (lp__rt_scout_next). */
enum { LP__RT_SCOUT_MEASURE = 3 };

/* The interval's windows' counts into k's tables, times num / den. */
static int lp__rt_interval_tables(lp__rt_kept *k, uint64_t num, uint64_t den)
{
    for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
        lp_table_init(&k->t[t], 0);
    int rc = lp__rt_tables_build(&lp__rt_acc, NULL, k->t);
    for (unsigned t = 0; t <= LP_PROF_TYPE_MAX && !rc && num != den; t++) {
        lp_table raw = k->t[t];
        lp_table_init(&k->t[t], 0);
        rc = lp_phase_scale_add(&k->t[t], &raw, num, den);
        lp_table_fini(&raw);
    }
    return rc;
}

int lp__rt_scout_wanted(void)
{
    return lp__rt.cfg.scout && !lp__rt.cfg.refine;
}

/* Scouted intervals with a clock so far (lp__rt_scout_next). */
static uint64_t lp__rt_scout_timed;

/* Whether the interval that just ended was in another phase than the
 * predictor named for it (lp__rt_scout_next). */
static int lp__rt_mispredicted;

/* Whether the interval now beginning, not profiled, is scouted: when
 * nothing is predicted for it, or the phase predicted has no profiled
 * interval, or the last prediction was wrong. An interval predicted to be
 * in a profiled phase is not otherwise: that profile stands for it, and
 * such scouts went unused (they were most of the scouts' price; a steady
 * program scouted nearly every interval). An interval that then turns
 * out to be in a phase with neither a profile nor scouts is lent to its
 * neighbour's (dc.lend), as before scouting: a phase of one interval
 * between profiled ones, such as mtsort's k-means input (32 M of its
 * calls, missing from some runs). A wrong prediction says the program is
 * moving between phases, where such intervals lie: scouted then, compress
 * and mtsort gained 4-12 points of call-graph accuracy for a scout share
 * of 1.7-3.4 % of the run instead of 0.9-2.2 % (doc/eval-native.md).
 * Once there is a clock, every interval is scouted until it has measured
 * the windows' slowdown (lp__rt_scout_rate) or has tried in
 * LP__RT_SCOUT_MEASURE scouted intervals: the run's first interval,
 * scouted before there was a clock, needs it (on rt/scale it came out
 * half the truth without). Without a clock nothing can measure it. */
static int lp__rt_scout_next(void)
{
    if (!lp__rt_scout_wanted())
        return 0;
    if (lp__rt_tk.method >= 0 && !lp__rt_scout_rate[0] && lp__rt_scout_timed < LP__RT_SCOUT_MEASURE)
        return 1;
    uint32_t next = lp_phase_daemon_predicted(lp__rt_pd);
    uint64_t intervals = 0, sampled = 0;
    if (next != LP_PHASE_NONE)
        lp_phase_daemon_stratum(lp__rt_pd, next, &intervals, &sampled);
    return sampled == 0 || lp__rt_mispredicted;
}

/* The clock's calls over an interval that ended at now (num) and in its
 * windows (den), with the windows' CPU time: how much slower the windows
 * ran than the rest (lp__rt_scout_rate), for the scouted intervals that
 * only CPU time could bring to their whole interval. */
static void lp__rt_slowdown_note(uint64_t num, uint64_t den, uint64_t now)
{
    uint64_t cpu = now > lp__rt_iv_began ? now - lp__rt_iv_began : 0;
    if (den >= LP__RT_SCOUT_TICKS && num > den && cpu > lp__rt_win_cpu && lp__rt_win_cpu) {
        lp__rt_scout_rate[0] += den;
        lp__rt_scout_rate[1] += lp__rt_win_cpu;
        lp__rt_scout_rate[2] += num - den;
        lp__rt_scout_rate[3] += cpu - lp__rt_win_cpu;
    }
}

/* Keeps the counts of the interval that just ended at now (it was
 * profiled), scaled from its windows to the whole interval: by the clock's
 * calls in the interval over those in the windows when the clock counted
 * them all (it counts between windows too), else by CPU time (the
 * windows' slowdown then goes uncorrected). Every use of a kept interval
 * (the whole-run estimate, the per-phase profiles, the Interleaved
 * messages) then sees a whole interval's worth. */
static int lp__rt_keep_interval(uint64_t now)
{
    uint64_t num = 1, den = 1;
    lp__rt_kept_calls = UINT64_MAX;
    if (lp__rt_win_counted && lp__rt_win_ticks && lp__rt_iv_kfrom != UINT64_MAX) {
        num = lp__rt_kept_calls = lp__rt_iv_pre + (lp__rt_clock_count() - lp__rt_iv_kfrom);
        den = lp__rt_win_ticks;
        if (!lp__rt_iv_pre)
            lp__rt_slowdown_note(num, den, now);
    } else if (lp__rt_win_cpu && now > lp__rt_iv_began) {
        num = now - lp__rt_iv_began;
        den = lp__rt_win_cpu;
    }
    if (lp__rt_nkept == lp__rt_kept_cap) {
        size_t cap = lp__rt_kept_cap ? 2 * lp__rt_kept_cap : 16;
        lp__rt_kept *g = lp_realloc(lp__rt_kept_tabs, lp__rt_kept_cap * sizeof *g, cap * sizeof *g);
        if (!g)
            return LP_ENOMEM;
        lp__rt_kept_tabs = g;
        lp__rt_kept_cap = cap;
    }
    int rc = lp__rt_interval_tables(&lp__rt_kept_tabs[lp__rt_nkept], num, den);
    lp__rt_nkept++; /* kept even when short of memory: one table per daemon sample */
    return rc;
}

/* The scout windows' counts of the interval that just ended at now, into
 * k, brought to the whole interval as a profiled one's are, but by the
 * clock only where the windows saw enough of its calls: a clock chosen in
 * another phase may be called a handful of times in a scout's windows,
 * and a ratio of a handful is noise. Otherwise by CPU time, which leaves
 * the windows' slowdown in; *by_cpu says so, and the estimate takes it
 * out by what the clock measured elsewhere (lp__rt_slowdown,
 * rt_phase_out.c). */
static int lp__rt_scout_tables(uint64_t now, lp__rt_kept *k, int *by_cpu)
{
    uint64_t num = 1, den = 1, cpu = now > lp__rt_iv_began ? now - lp__rt_iv_began : 0;
    *by_cpu = 0;
    lp__rt_scout_timed += lp__rt_iv_kfrom != UINT64_MAX;
    if (lp__rt_win_counted && lp__rt_win_ticks >= LP__RT_SCOUT_TICKS &&
        lp__rt_iv_kfrom != UINT64_MAX) {
        num = lp__rt_clock_count() - lp__rt_iv_kfrom;
        den = lp__rt_win_ticks;
        lp__rt_slowdown_note(num, den, now);
    } else if (lp__rt_win_cpu && cpu) {
        num = cpu;
        den = lp__rt_win_cpu;
        *by_cpu = 1;
    }
    return lp__rt_interval_tables(k, num, den);
}

/* Whether the interval in progress takes the phase of the one before it
 * instead of its own samples'. With the trampoline a profiled interval
 * spent much of its time in the runtime, and the program's own samples
 * fell at another mix of its functions (measured on a uniform loop: every
 * profiled interval came out a phase of its own, leaving the real one
 * unprofiled). Scouted runs classify every interval by its own samples:
 * the copies count inline, their samples name their originals
 * (lp__rt_func_start) and the runtime's are left out, while a borrowed
 * phase made a profiled interval stand for the one before it where the
 * program had moved on at the boundary: the run's first interval (graph's
 * and compress's input generation) was represented by the next, which
 * held none of it. scout=0 keeps the rule. The first interval, with none
 * before it, is classified by its samples. */
static int lp__rt_iv_borrows(void)
{
    return !lp__rt_scout_wanted() && lp__rt_sampled && lp__rt_tracker.last_phase != LP_PHASE_NONE;
}

/* The quarter's window opens at now. */
static void lp__rt_subwindow_open(uint64_t now)
{
    uint64_t quarter = lp__rt.cfg.period_ns / LP__RT_SUBWINDOWS;
    lp__rt_counts_sum(&lp__rt_base);
    lp__rt_window_open(now);
    lp__rt_win_quarter = now;
    lp__rt_win_left--;
    lp__rt_win_next = lp__rt_win_duty < 100 ? now + quarter / 100 * lp__rt_win_duty : UINT64_MAX;
    lp__rt_win_k0 = lp__rt_tk.method >= 0 ? lp__rt_clock_count() : UINT64_MAX;
    lp__rt_win_cpu0 = now;
}

/* The open window closes at now: the copies stop counting, the interval
 * goes on unprofiled until the next quarter's window. */
static void lp__rt_subwindow_close(uint64_t now)
{
    int timed = lp__rt_win_k0 != UINT64_MAX;
    lp__rt_win_cpu += now > lp__rt_win_cpu0 ? now - lp__rt_win_cpu0 : 0;
    lp__rt_window_close(now); /* the copies stop before the clock is read */
    lp__rt_window_add();
    uint64_t calls = timed ? lp__rt_clock_count() - lp__rt_win_k0 : 0;
    if (!timed && lp__rt_tk.method >= 0 && lp__rt_iv_kfrom == UINT64_MAX &&
        lp__rt_wopen_windows == 1 && lp__rt_win_ticks == 0 && lp__rt_win_cpu0 == lp__rt_iv_began) {
        /* A clock chosen from this window's calls alone (lp__rt_clock_closed),
         * the interval's first: tk.first is its calls here, and it counts
         * the interval from now on. */
        timed = 1;
        calls = lp__rt_tk.first;
        lp__rt_iv_pre = calls;
        lp__rt_iv_kfrom = lp__rt_clock_count();
    }
    lp__rt_win_ticks += calls;
    lp__rt_win_counted &= timed;
    lp__rt_win_next = lp__rt_win_left ? lp__rt_win_quarter + lp__rt.cfg.period_ns / LP__RT_SUBWINDOWS
                                      : UINT64_MAX;
}

/* Every method off until a first window, the calls going to the copies
 * meanwhile (counting nothing) so that what starts now runs in them when
 * the window opens; with hot=N nothing is hot yet, and the entries stay. */
static void lp__rt_prewindow_begin(void)
{
    lp__rt_apply();
    if (lp__rt.cfg.hot == 0)
        lp__rt_patch_prewindow(1);
}

/* A profiled or scouted interval begins at now, its windows duty % of
 * each quarter, the first opening delay ns after now. */
static void lp__rt_phase_window_begin(uint64_t now, unsigned duty, uint64_t delay)
{
    lp__rt_acc_reset();
    lp__rt_win_duty = duty;
    lp__rt_win_left = duty < 100 ? LP__RT_SUBWINDOWS : 1;
    lp__rt_win_ticks = lp__rt_win_cpu = 0;
    lp__rt_win_counted = 1;
    lp__rt_iv_kfrom = lp__rt_tk.method >= 0 ? lp__rt_clock_count() : UINT64_MAX;
    lp__rt_iv_pre = 0;
    if (!delay) {
        lp__rt_subwindow_open(now);
        return;
    }
    lp__rt_prewindow_begin();
    lp__rt_win_quarter = now;
    lp__rt_win_next = now + delay;
}

/* An interval that is not profiled begins at now: scouted. */
static void lp__rt_scout_begin(uint64_t now)
{
    lp__rt.scouting = 1;
    lp__rt_phase_window_begin(now, lp__rt.cfg.scout, 0);
}

/* The schedule of the profiled or scouted interval's windows, at now. */
static void lp__rt_phase_windows_step(uint64_t now)
{
    if (now < lp__rt_win_next)
        return;
    if (lp__rt.window_on)
        lp__rt_subwindow_close(now);
    else
        lp__rt_subwindow_open(now);
}

/* Notes the clock's calls and the CPU time of the interval that ended at
 * now (profiled: was). */
static void lp__rt_interval_ticks(uint64_t now, int was)
{
    if (lp__rt_niv == lp__rt_iv_cap) {
        size_t cap = lp__rt_iv_cap ? 2 * lp__rt_iv_cap : 64;
        lp__rt_iv *g = lp_realloc(lp__rt_ivs, lp__rt_iv_cap * sizeof *g, cap * sizeof *g);
        if (!g)
            return;
        lp__rt_ivs = g;
        lp__rt_iv_cap = cap;
    }
    uint64_t k = lp__rt_clock_count();
    lp__rt_iv *iv = &lp__rt_ivs[lp__rt_niv++];
    iv->ticks = UINT64_MAX;
    if (lp__rt_tk.method >= 0 && lp__rt_iv_from != UINT64_MAX)
        iv->ticks = k - lp__rt_iv_from;
    else if (was && lp__rt_kept_calls != UINT64_MAX)
        iv->ticks = lp__rt_kept_calls; /* the clock was chosen in its window */
    iv->cpu = now > lp__rt_iv_began ? now - lp__rt_iv_began : 0;
    lp__rt_iv_from = lp__rt_tk.method >= 0 ? k : UINT64_MAX;
    lp__rt_iv_began = now;
}

/* Ends the interval in progress at now; decides the next (none if last). */
static void lp__rt_phase_boundary(uint64_t now, int last)
{
    int was = lp__rt_sampled;
    if (was) {
        if (lp__rt.window_on)
            lp__rt_subwindow_close(now);
        lp__rt_win_next = UINT64_MAX;
        lp__rt_keep_interval(now);
        lp__rt_sampled_ns += lp__rt_win_cpu;
        if (lp__rt_tk.method < 0)
            lp__rt_clock_choose(); /* from the window's calls */
    }
    lp__rt_kept scout;
    int scouted = lp__rt.scouting, by_cpu = 0;
    if (scouted) {
        if (lp__rt.window_on)
            lp__rt_subwindow_close(now);
        lp__rt_win_next = UINT64_MAX;
        lp__rt_scout_cpu += lp__rt_win_cpu;
        lp__rt_nscouted++;
        scouted = lp__rt_scout_tables(now, &scout, &by_cpu) == 0;
        lp__rt.scouting = 0;
    }
    lp__rt_interval_ticks(now, was);
    /* Only an interval's own samples say where it lies within its phase
     * (the refine policy keeps the samples nearest the phase's centroid);
     * a borrowing interval's are the runtime's mix. */
    int own = !lp__rt_iv_borrows();
    if (own)
        (void)lp_phase_daemon_observe(lp__rt_pd, lp_phase_tracker_current(&lp__rt_tracker));
    uint32_t phase = own ? lp_phase_tracker_end_interval(&lp__rt_tracker)
                         : lp__rt_tracker.last_phase;
    int sample = 0;
    uint32_t predicted = lp_phase_daemon_predicted(lp__rt_pd); /* for the one that ended */
    lp__rt_mispredicted = predicted != LP_PHASE_NONE && predicted != phase;
    if (scouted) /* before the daemon ends it: lp_phase_daemon_cover */
        lp__rt_scout_keep(phase, &scout, by_cpu);
    if (last)
        lp_phase_daemon_finish(lp__rt_pd, phase);
    else if (lp_phase_daemon_boundary(lp__rt_pd, phase, LP_PHASE_NONE, &sample) != 0)
        sample = 0;
    lp__rt_sampled = sample;
    if (sample)
        lp__rt_phase_window_begin(now, lp__rt.cfg.duty, 0);
    else if (!last && lp__rt_scout_next())
        lp__rt_scout_begin(now);
    /* The interval just profiled leaves at once (Interleaved); the last
     * message, with the rest of the trace, when the daemon stops. */
    if (was && !last && lp__rt.cfg.ship == LP__RT_SHIP_INTERLEAVED)
        lp__rt_ship_interleaved(0);
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
        if (lp__rt.cfg.strategy == LP__RT_PHASE && !lp__rt_iv_borrows() &&
            !lp__rt_pc_overhead(lp__rt_pcs[i])) {
            lp_phase_tracker_branch(&lp__rt_tracker, lp__rt_phase_key(lp__rt_pcs[i]), 1);
        }
    }
    lp__rt_stacks_drain();
}

/* The generator of a random start (of periodic windows, of the phase
 * strategy's first scout windows): seed= where given, else a different
 * draw each run, so that repeated runs do not share one start's error. */
static void lp__rt_start_seed(lp_rng *r)
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
    case LP__RT_NEVER: lp__rt_apply(); lp__rt_next = UINT64_MAX; break;
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
            lp__rt_prewindow_begin();
            lp__rt_next = now + u;
        }
        break;
    }
    case LP__RT_RANDOM:
        if (lp_rng_below(&lp__rt_rng, 100) < c->duty)
            lp__rt_window_open(now);
        else
            lp__rt_apply();
        lp__rt_next = now + lp__rt_duty_ns();
        break;
    case LP__RT_PHASE: {
        int sample = 0;
        lp__rt_iv_from = UINT64_MAX;
        lp__rt_iv_began = now;
        lp_phase_daemon_start(lp__rt_pd, LP_PHASE_NONE, &sample);
        lp__rt_sampled = sample;
        if (sample) {
            lp__rt_phase_window_begin(now, c->duty, 0);
        } else if (lp__rt_scout_next()) {
            /* The first interval's scout windows open at a random point of
             * each quarter, the same in all four, the copies taking the
             * calls until the first (as periodic's): opened at each
             * quarter's start, the first window always held the run's first
             * milliseconds, and a start-up shorter than a quarter came out
             * as long as one (graph's input generation 2.6 to 5.9 times its
             * calls). Later scouts begin at a boundary the program crossed
             * at a random point of its own. */
            lp_rng start;
            lp__rt_start_seed(&start);
            uint64_t quarter = c->period_ns / LP__RT_SUBWINDOWS, on = quarter / 100 * c->scout;
            lp__rt.scouting = 1;
            lp__rt_phase_window_begin(now, c->scout, 1 + lp_rng_below(&start, quarter - on));
        } else {
            lp__rt_apply();
        }
        lp__rt_next = now + c->period_ns;
        break;
    }
    case LP__RT_BURSTY:
        lp__rt_apply();
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
        if (lp__rt_sampled || lp__rt.scouting)
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
    uint64_t next = lp__rt_next;
    if (lp__rt.cfg.strategy == LP__RT_PHASE && (lp__rt_sampled || lp__rt.scouting) &&
        lp__rt_win_next < next)
        next = lp__rt_win_next;
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
    while (!lp__rt_stop) {
        uint64_t nap = lp__rt_nap(lp__rt_cpu_ns());
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
        lp__rt_step(lp__rt_cpu_ns());
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

static void lp__rt_daemon_free_state(void)
{
    for (size_t k = 0; k < lp__rt_nkept; k++)
        for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
            lp_table_fini(&lp__rt_kept_tabs[k].t[t]);
    lp_free(lp__rt_kept_tabs);
    lp__rt_kept_tabs = NULL;
    lp__rt_nkept = lp__rt_kept_cap = 0;
    lp__rt_sampled_ns = 0;
    lp__rt_sampled = 0;
    lp__rt.scouting = 0;
    lp__rt_scout_cpu = lp__rt_nscouted = lp__rt_scout_timed = 0;
    lp__rt_mispredicted = 0;
    memset(lp__rt_scout_rate, 0, sizeof lp__rt_scout_rate);
    lp__rt_scouts_free();
    lp__rt_win_next = UINT64_MAX;
    lp_free(lp__rt_ivs);
    lp__rt_ivs = NULL;
    lp__rt_niv = lp__rt_iv_cap = 0;
    lp_phase_daemon_free(lp__rt_pd);
    lp__rt_pd = NULL;
    if (lp__rt.cfg.strategy == LP__RT_PHASE)
        lp_phase_tracker_fini(&lp__rt_tracker);
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
    if (lp__rt.cfg.strategy != LP__RT_PHASE)
        return 0;
    if (!lp__rt_base.m &&
        (lp__rt_counts_alloc(&lp__rt_base) != 0 || lp__rt_counts_alloc(&lp__rt_now) != 0 ||
         lp__rt_counts_alloc(&lp__rt_acc) != 0))
        return -1;
    lp_phase_tracker_config tc = {0};
    tc.threshold = lp__rt.cfg.threshold;
    tc.noise = lp__rt.cfg.noise;
    if (lp_phase_tracker_init(&lp__rt_tracker, &tc) != 0)
        return -1;
    lp_phase_daemon_config dc = {0};
    dc.strategy = LP_STRATEGY_PHASE;
    dc.predictor = LP_PREDICT_MARKOV; /* online: no oracle */
    dc.seed = lp__rt.cfg.seed;
    dc.k = lp__rt.cfg.k;
    dc.policy = lp__rt.cfg.refine ? LP_POLICY_REFINE : LP_POLICY_KTH;
    /* A phase seen only in the run's cut-short last interval (threads
     * ending, the exit) is never profiled; dropped, its intervals took
     * 14-21 % off every estimate of a uniform loop with 16 threads.
     * Scouted, an interval of such a phase stands for itself: its own
     * scout windows (lp_phase_daemon_cover, rt_phase_out.c); lent are only
     * the intervals nothing scouted. */
    dc.lend = 1;
    if (lp_phase_daemon_create(&dc, &lp__rt_pd) != 0) {
        lp_phase_tracker_fini(&lp__rt_tracker);
        return -1;
    }
    return 0;
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
        lp__rt_daemon_free_state();
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
    lp__rt_daemon_free_state();
    lp__rt_ship_forget();
}
