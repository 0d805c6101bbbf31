/* The phase strategy's run (the daemon's LP__RT_PHASE; its profiles and
 * messages: rt_phase_out.c). Intervals of one period, each classified by
 * the phase tracker from its PC samples; the phase daemon (phase.h) picks
 * which to profile. A profiled interval is counted in windows, a scouted
 * one in scout windows; either's counts are brought to the whole interval
 * and kept, and every interval's clock calls and CPU time are noted, for
 * the estimate. Daemon thread (or the stop), under lp__rt.lock. */
#define _GNU_SOURCE
#include <string.h>

#include "rt_internal.h"

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
    lp__rt_counts_zero(&lp__rt_acc);
}

/* The window that just closed: its counts join the interval's. */
static void lp__rt_window_add(void)
{
    lp__rt_counts_sum(&lp__rt_now);
    lp__rt_counts_add_diff(&lp__rt_acc, &lp__rt_now, &lp__rt_base);
}

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

/* Every interval not profiled is scouted (scout=N with the k-th policy;
 * refine has its own stand-ins), and stands for itself in the estimate
 * where the clock brought its windows' counts to the whole interval, or
 * its phase has no profile (lp__rt_scout_keep). Scouted only where no
 * profile stood, an unprofiled interval of a profiled phase took that
 * phase's profile, which a phase as coarse as the tracker's threshold
 * holds to one interval's mix of code: compress's decoder start, graph's
 * comparators called from libc. Scouting all of them gained 0.3 to 3.8 points of
 * call-graph accuracy on each native program, most on compress, graph and
 * mtsort, for 5 % of those intervals in windows and about half a point of
 * the run's price (doc/eval-native.md). */
int lp__rt_scout_wanted(void)
{
    return lp__rt.cfg.scout && !lp__rt.cfg.refine;
}

/* The clock's calls over an interval that ended at now (num) and in its
 * windows (den), with the windows' CPU time, into rate: how much slower
 * the windows ran than the rest (lp__rt_slowdown, rt_phase_out.c). Every
 * interval the clock timed whole is noted, those whose windows saw none
 * of its calls too: a clock called in bursts (compress's Huffman builder,
 * one burst per block) is caught by a few milliseconds of windows in some
 * intervals and missed in the others, so the rate of the intervals that
 * caught it alone overstates its calls in windows. */
static void lp__rt_slowdown_note(uint64_t rate[4], uint64_t num, uint64_t den, uint64_t now)
{
    uint64_t cpu = now > lp__rt_iv_began ? now - lp__rt_iv_began : 0;
    if (num >= den && cpu > lp__rt_win_cpu && lp__rt_win_cpu) {
        rate[0] += den;
        rate[1] += lp__rt_win_cpu;
        rate[2] += num - den;
        rate[3] += cpu - lp__rt_win_cpu;
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
    int timed = lp__rt_win_counted && lp__rt_iv_kfrom != UINT64_MAX;
    lp__rt_kept_calls = UINT64_MAX;
    if (timed && !lp__rt_iv_pre) /* the windows that saw none of its calls too */
        lp__rt_slowdown_note(lp__rt_scout_rate, lp__rt_clock_count() - lp__rt_iv_kfrom,
                             lp__rt_win_ticks, now);
    if (timed && lp__rt_win_ticks) {
        num = lp__rt_kept_calls = lp__rt_iv_pre + (lp__rt_clock_count() - lp__rt_iv_kfrom);
        den = lp__rt_win_ticks;
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

/* The scout windows' counts of the interval that just ended at now: into
 * k[0] as counted, into k[1] times the rest of the interval's CPU time
 * over the windows'. The estimate brings them to the whole interval as
 * k[0] + s k[1], s the windows' slowdown in the interval's phase
 * (lp__rt_scouts_add, rt_phase_out.c), to which rate adds where the clock
 * counted the whole interval: its calls in the windows and out of them.
 * (s times the interval's CPU time over the windows' counted s - 1
 * windows too many: rt/scale's call-heavy single-thread loop read a
 * median of +3.4 % in ten runs, up to +14.5 %, against +1.6 % and at most
 * +7.2 % this way.)
 * Brought up by its own clock calls, a scout whose windows caught one of
 * a bursty clock's bursts read its interval at a third of its size
 * (compress: a scale of 5-8 where CPU time gave 16-18), and one that
 * caught none by CPU time alone. Where the clock did not count it (no
 * clock yet), *by_cpu says so, and the run's slowdown is taken. */
static int lp__rt_scout_tables(uint64_t now, lp__rt_kept k[2], int *by_cpu, uint64_t rate[4])
{
    uint64_t cpu = now > lp__rt_iv_began ? now - lp__rt_iv_began : 0;
    uint64_t rest = cpu > lp__rt_win_cpu ? cpu - lp__rt_win_cpu : 0;
    *by_cpu = !(lp__rt_win_counted && lp__rt_iv_kfrom != UINT64_MAX);
    memset(rate, 0, 4 * sizeof *rate);
    if (!*by_cpu) {
        uint64_t all = lp__rt_clock_count() - lp__rt_iv_kfrom;
        lp__rt_slowdown_note(rate, all, lp__rt_win_ticks, now);
        lp__rt_slowdown_note(lp__rt_scout_rate, all, lp__rt_win_ticks, now);
    }
    int rc = lp__rt_interval_tables(&k[0], 1, 1);
    for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++) {
        lp_table_init(&k[1].t[t], 0);
        if (!rc && rest && lp__rt_win_cpu)
            rc = lp_phase_scale_add(&k[1].t[t], &k[0].t[t], rest, lp__rt_win_cpu);
    }
    for (unsigned h = 0; h < 2 && rc; h++) /* short of memory: nothing kept */
        for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
            lp_table_fini(&k[h].t[t]);
    return rc;
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
int lp__rt_phase_borrows(void)
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
    lp__rt_win_next = lp__rt_win_left
                          ? lp__rt_win_quarter + lp__rt.cfg.period_ns / LP__RT_SUBWINDOWS
                          : UINT64_MAX;
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
    lp__rt_prewindow_begin(now);
    lp__rt_win_quarter = now;
    lp__rt_win_next = now + delay;
}

/* The part of a profiled interval that its windows count: duty %, once
 * a clock can bring windows to their whole interval; before that (the
 * run's first profiled interval, which chooses the clock) all of it, since
 * CPU time alone misses how much slower the program runs in a window
 * (doc/runtime.md, "Estimates"). */
static unsigned lp__rt_profiled_duty(void)
{
    return lp__rt_tk.method >= 0 ? lp__rt.cfg.duty : 100;
}

/* An interval that is not profiled begins at now: scouted. */
static void lp__rt_scout_begin(uint64_t now)
{
    lp__rt.scouting = 1;
    lp__rt_phase_window_begin(now, lp__rt.cfg.scout, 0);
}

void lp__rt_phase_windows_step(uint64_t now)
{
    if (!(lp__rt_sampled || lp__rt.scouting) || now < lp__rt_win_next)
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
    iv->whole = was && lp__rt_win_duty == 100;
    lp__rt_iv_from = lp__rt_tk.method >= 0 ? k : UINT64_MAX;
    lp__rt_iv_began = now;
}

void lp__rt_phase_boundary(uint64_t now, int last)
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
    lp__rt_kept scout[2];
    uint64_t rate[4];
    int scouted = lp__rt.scouting, by_cpu = 0;
    if (scouted) {
        if (lp__rt.window_on)
            lp__rt_subwindow_close(now);
        lp__rt_win_next = UINT64_MAX;
        lp__rt_scout_cpu += lp__rt_win_cpu;
        lp__rt_nscouted++;
        scouted = lp__rt_scout_tables(now, scout, &by_cpu, rate) == 0;
        lp__rt.scouting = 0;
    }
    lp__rt_interval_ticks(now, was);
    /* Only an interval's own samples say where it lies within its phase
     * (the refine policy keeps the samples nearest the phase's centroid);
     * a borrowing interval's are the runtime's mix. */
    int own = !lp__rt_phase_borrows();
    if (own)
        (void)lp_phase_daemon_observe(lp__rt_pd, lp_phase_tracker_current(&lp__rt_tracker));
    uint32_t phase =
        own ? lp_phase_tracker_end_interval(&lp__rt_tracker) : lp__rt_tracker.last_phase;
    int sample = 0;
    if (scouted) /* before the daemon ends it: lp_phase_daemon_cover */
        lp__rt_scout_keep(phase, scout, by_cpu, rate);
    if (last)
        lp_phase_daemon_finish(lp__rt_pd, phase);
    else if (lp_phase_daemon_boundary(lp__rt_pd, phase, LP_PHASE_NONE, &sample) != 0)
        sample = 0;
    lp__rt_sampled = sample;
    if (sample)
        lp__rt_phase_window_begin(now, lp__rt_profiled_duty(), 0);
    else if (!last && lp__rt_scout_wanted())
        lp__rt_scout_begin(now);
    /* The interval just profiled leaves at once (Interleaved); the last
     * message, with the rest of the trace, when the daemon stops. */
    if (was && !last && lp__rt.cfg.ship == LP__RT_SHIP_INTERLEAVED)
        lp__rt_ship_interleaved(0);
}

void lp__rt_phase_begin(uint64_t now)
{
    const lp__rt_config *c = &lp__rt.cfg;
    int sample = 0;
    lp__rt_iv_from = UINT64_MAX;
    lp__rt_iv_began = now;
    lp_phase_daemon_start(lp__rt_pd, LP_PHASE_NONE, &sample);
    lp__rt_sampled = sample;
    if (sample) {
        lp__rt_phase_window_begin(now, lp__rt_profiled_duty(), 0);
    } else if (lp__rt_scout_wanted()) {
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
        lp__rt_apply(now);
    }
}

uint64_t lp__rt_phase_window_next(void)
{
    return lp__rt_sampled || lp__rt.scouting ? lp__rt_win_next : UINT64_MAX;
}

void lp__rt_phase_free(void)
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
    lp__rt_scout_cpu = lp__rt_nscouted = 0;
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

int lp__rt_phase_alloc(void)
{
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
