/* The clock methods (rt_internal.h, lp__rt_ticks; doc/runtime.md,
 * "Estimates"): which methods time the program's progress in and out of
 * the daemon's windows, and the program time the windows held. The daemon
 * (rt_daemon.c) calls in at each window's opening and closing, under
 * lp__rt.lock. */
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

lp__rt_ticks lp__rt_tk = {.method = -1};
unsigned lp__rt_wopen_windows;
static uint64_t *lp__rt_wopen; /* method counts when the window opened */
/* and the increments each method's copy had run, then and at the choice */
static uint64_t *lp__rt_wopen_incs, *lp__rt_wincs;
static uint8_t *lp__rt_pulls; /* per method: its copy calls other copies (lp__rt_pulls_find) */
static int lp__rt_wopen_set;

/* What the windows cannot measure is the program's progress: a window
 * runs it slower (every counted call costs something), so the CPU time it
 * was open overstates the share of the run it saw.
 * The clock method's entry stays counted when the windows close. Over a
 * clock's epoch, its calls with the windows closed (K' in CPU time T')
 * give the program's CPU time per clock call when nothing is counted, and
 * a window's K clock calls then held the program time K T' / K' (at most
 * its CPU time). Pooling over the epoch, rather than comparing each window
 * with its neighbours, keeps the rate from a few calls' noise and from a
 * clock called in bursts.
 *
 * The clock is chosen at the end of a window among the methods counted in
 * it: the most called one that made at most 1 % of the window's calls (so
 * keeping it on costs at most a hundredth of a window's price) and at
 * least 8 of them; and chosen again when a window sees fewer than 8 of its
 * calls (the program has moved on), which ends its epoch. The phase
 * strategy keeps its first clock: its intervals' calls must be in one
 * unit. */
enum {
    LP__RT_CLOCK_MIN = 8,
    LP__RT_CLOCK_SHARE = 100,
    LP__RT_CLOCK_RATE_MIN = 64,
    LP__RT_ICALL_WEIGHT = 45, /* lp__rt_clock_incs */
    LP__RT_TRAMP_WEIGHT = 29  /* lp__rt_clock_cost */
};

/* Method m's invocations over every thread's block, now. */
static uint64_t lp__rt_method_count(size_t m)
{
    uint64_t n = 0;
    for (lp__rt_tcounts *tc = __atomic_load_n(&lp__rt.blocks, __ATOMIC_ACQUIRE); tc;
         tc = tc->next)
        n += __atomic_load_n(&tc->m[m], __ATOMIC_RELAXED);
    /* and the entries its copy counted inline (lowprof cc's copies) */
    int32_t g = lp__rt.methods[m].entry_guard;
    return n + (g >= 0 && lp__rt.guard_method ? lp__rt_cnt_sum((size_t)g) : 0);
}

/* The clock methods become the daemon's list (n of them, 0: none): each
 * leaving one gets its copy back, each new one its entry through the
 * trampoline (lp__rt_patch_clock). */
static void lp__rt_clocks_set(const long *pick, unsigned n)
{
    for (unsigned c = 0; c < lp__rt_tk.nclocks; c++)
        lp__rt_patch_clock((size_t)lp__rt_tk.clocks[c], 0);
    for (unsigned c = 0; c < n; c++) {
        lp__rt_tk.clocks[c] = pick[c];
        lp__rt_patch_clock((size_t)pick[c], 1);
    }
    lp__rt_tk.nclocks = n;
}

/* The clock's count now: its methods' calls (0 without one). A prefixed
 * method's calls all go to its copy, in windows and out of them, and its
 * copy's entry counter counts them whether the copies are counting or
 * not. */
uint64_t lp__rt_clock_count(void)
{
    uint64_t n = 0;
    for (unsigned c = 0; c < lp__rt_tk.nclocks; c++) {
        size_t m = (size_t)lp__rt_tk.clocks[c];
        n += lp__rt.methods[m].prefixed ? lp__rt_cnt_total((size_t)lp__rt.methods[m].entry_guard)
                                        : lp__rt_method_count(m);
    }
    return n;
}

/* Whether a profile of blocks alone has a clock: its methods' entries
 * count nothing, but a prefixed method's calls go to its copy in and out
 * of the windows while it is a clock, and the copy's entry counter counts
 * them, as in a run with function events. Without one, its windows were
 * timed by their CPU time and every count came out too low by the
 * windows' slowdown (block totals 27 % under the truth at duty 10 on the
 * median native program; doc/eval-native.md). */
static int lp__rt_blocks_clock(void)
{
    return !lp__rt_profiles(LP_RT_FUNCTIONS) &&
           lp__rt_profiles(LP_RT_BLOCKS) && lp__rt_cnt_start && lp__rt.entry_prefixed;
}

/* Whether the strategy has windows whose counts are scaled. */
static int lp__rt_clock_wanted(void)
{
    unsigned st = lp__rt.cfg.strategy;
    return (lp__rt_profiles(LP_RT_FUNCTIONS) || lp__rt_blocks_clock()) &&
           lp__rt.entry_sites &&
           (st == LP__RT_PERIODIC || st == LP__RT_RANDOM || st == LP__RT_BURSTY ||
            st == LP__RT_PHASE);
}

const lp__rt_ticks *lp__rt_daemon_ticks(void)
{
    return &lp__rt_tk;
}

/* The epoch's program time for calls clock calls in cpu CPU time of
 * windows; 0 when the epoch has too few closed calls to tell its rate. */
static int lp__rt_epoch_prog(uint64_t calls, uint64_t cpu, uint64_t *prog)
{
    const lp__rt_ticks *tk = &lp__rt_tk;
    if (tk->off_calls < LP__RT_CLOCK_RATE_MIN || !tk->win_calls)
        return 0;
    uint64_t p = lp__rt_muldiv(calls, tk->off_cpu, tk->off_calls);
    *prog = p < cpu ? p : cpu; /* a window never runs faster than closed */
    return 1;
}

void lp__rt_windows_time(long m, unsigned type, uint64_t *prog, uint64_t *prog_cpu,
                         uint64_t *untimed)
{
    const lp__rt_ticks *tk = &lp__rt_tk;
    uint64_t k = m < 0 ? tk->win_calls : tk->calls[type][m];
    uint64_t c = m < 0 ? tk->win_cpu : tk->cpu[type][m], p = 0;
    *prog = m < 0 ? tk->known_all : tk->known[type][m];
    *prog_cpu = m < 0 ? tk->known_cpu : 0;
    *untimed = m < 0 ? tk->unknown_all : tk->unknown[type][m];
    if (lp__rt_epoch_prog(k, c, &p)) {
        *prog += p;
        if (m < 0)
            *prog_cpu += c;
    } else {
        *untimed += c;
    }
}

/* Ends the clock's epoch: its windows' time moves into the run's. */
static void lp__rt_epoch_end(void)
{
    lp__rt_ticks *tk = &lp__rt_tk;
    for (unsigned t = 0; t < LP_RT_TYPES; t++) {
        if (!lp__rt_profiles(t))
            continue;
        for (size_t i = 0; i < lp__rt.nmethods; i++) {
            uint64_t p;
            if (lp__rt_epoch_prog(tk->calls[t][i], tk->cpu[t][i], &p))
                tk->known[t][i] += p;
            else
                tk->unknown[t][i] += tk->cpu[t][i];
            tk->calls[t][i] = tk->cpu[t][i] = 0;
        }
    }
    uint64_t p;
    if (lp__rt_epoch_prog(tk->win_calls, tk->win_cpu, &p)) {
        tk->known_all += p;
        tk->known_cpu += tk->win_cpu;
    } else {
        tk->unknown_all += tk->win_cpu;
    }
    tk->off_calls = tk->off_cpu = tk->win_calls = tk->win_cpu = 0;
}

/* A method on while the windows are closed (a clock, one the program
 * switched on) counts then; but a prefixed clock's calls go to its copy,
 * whose counts enter the profile only in windows ("Windows are
 * differences", doc/runtime.md): its entry counter times the program
 * between windows, and its calls and call pairs there are not kept. Were
 * that time credited to it, its counts would be scaled as if they covered
 * the whole run (compress: its clocks came out 5 times too low). So are a
 * sticky method's (rt_sticky.c), unless it is a clock on the trampoline,
 * which counts it in and out of windows. */
int lp__rt_counts_closed(size_t i, unsigned type)
{
    const lp__rt_method *m = &lp__rt.methods[i];
    int copy_only = m->prefixed ? m->clock || m->sticky : m->sticky && !m->clock;
    return m->on[type] && !copy_only;
}

/* A window opened at now: the closed stretch before it joins the epoch;
 * without a clock, every method's count is noted for choosing one. */
void lp__rt_clock_opened(uint64_t now)
{
    /* A scout window (phase strategy) is timed by its interval alone
     * (rt_phase.c), and chooses no clock: the phase strategy keeps its
     * first one, and one chosen in the run's first interval, a start-up
     * the program never returns to, would time none of the rest. */
    if (!lp__rt_clock_wanted() || lp__rt.scouting)
        return;
    lp__rt_ticks *tk = &lp__rt_tk;
    tk->open_k = lp__rt_clock_count();
    tk->open_gen = tk->method >= 0 ? tk->gen : 0;
    if (tk->open_gen && tk->close_gen == tk->open_gen && now > tk->close_cpu) {
        tk->off_calls += tk->open_k - tk->close_k;
        tk->off_cpu += now - tk->close_cpu;
    }
    /* The methods on while the windows were closed (the clock's, those the
     * program switched on) ran at full speed: CPU time is program time. */
    if (tk->close_cpu && now > tk->close_cpu)
        for (unsigned t = 0; t < LP_RT_TYPES; t++)
            if (lp__rt_profiles(t))
                for (size_t i = 0; i < lp__rt.nmethods; i++)
                    if (lp__rt_counts_closed(i, t))
                        tk->known[t][i] += now - tk->close_cpu;
    /* Only without a clock are candidates looked for, and the windows'
     * calls add up until one qualifies. */
    if (tk->method >= 0)
        return;
    if (lp__rt_wopen_set) {
        lp__rt_wopen_windows++;
        return;
    }
    for (size_t i = 0; i < lp__rt.nmethods; i++)
        lp__rt_wopen[i] = lp__rt_method_count(i);
    memset(lp__rt_wopen_incs, 0, lp__rt.nmethods * sizeof *lp__rt_wopen_incs);
    lp__rt_cnt_by_method(lp__rt_wopen_incs, LP__RT_ICALL_WEIGHT);
    lp__rt_wopen_set = 1;
    lp__rt_wopen_windows = 1;
}

/* What a prefixed clock costs between windows: its calls go to its copy,
 * which runs every block of its body there, each increment inert but an
 * instruction all the same (rt_patch.c), and each indirect call's call of
 * lp__rt_cp_icall, which returns at once there but, with the registers
 * the call clobbers, costs some 45 instructions more than the original's
 * call (interp's it_builtin_call, its builtins' dispatcher: 146 M more
 * over 3.15 M calls as the clock of its blocks at the default size; two
 * blocks a call): so such a block weighs LP__RT_ICALL_WEIGHT increments.
 * A leaf's copy runs one a call; raytrace's rt_nearest, whose loop scans
 * a BVH leaf's objects, ran about 130, and as the clock of its blocks at
 * 10 % windows its copy ran 7 % of the plain program's instructions more
 * than its original would, its calls under a hundredth of the window's.
 * So a candidate's increments in the windows, against all the copies'
 * there, weigh it as its calls do. Fills lp__rt_wincs with each method's
 * since the windows' calls began adding up, and returns their sum (0
 * without the copies' counters: a clock's price is then its calls). */
static uint64_t lp__rt_clock_incs(void)
{
    if (!lp__rt_cnt_start || !lp__rt.guard_method)
        return 0;
    memset(lp__rt_wincs, 0, lp__rt.nmethods * sizeof *lp__rt_wincs);
    lp__rt_cnt_by_method(lp__rt_wincs, LP__RT_ICALL_WEIGHT);
    uint64_t total = 0;
    for (size_t i = 0; i < lp__rt.nmethods; i++) {
        lp__rt_wincs[i] -= lp__rt_wopen_incs[i];
        total += lp__rt_wincs[i];
    }
    return total;
}

/* What method i would cost as a clock, in increments' worth, for its
 * calls calls in the windows: a prefixed one, its copy's increments there
 * (its copy runs between windows); one on the trampoline, which counts
 * its every call in and out of windows, LP__RT_TRAMP_WEIGHT a call with
 * tramp, else nothing (raytrace's static rt_walk_node, which keeps the
 * 5-byte entry, was the clock of its call graph and blocks at 10 %
 * windows: 22.4 M calls through the trampoline, 648 M instructions, 4.2 %
 * of the plain program's, about 29 a call). 0 without the copies'
 * counters. */
static uint64_t lp__rt_clock_cost(size_t i, uint64_t calls, uint64_t incs, int tramp)
{
    if (!incs)
        return 0;
    return lp__rt.methods[i].prefixed ? lp__rt_wincs[i] : tramp ? calls * LP__RT_TRAMP_WEIGHT : 0;
}

/* Marks the methods whose copy calls another copy directly: in a build
 * for the call graph alone the copies of a file call a static function's
 * copy themselves (doc/runtime.md), and no switch sends those calls
 * elsewhere. A prefixed clock's copy runs between windows, and drags
 * such callees into their copies with it, and theirs in turn: raytrace's
 * clock rt_bvh_intersect kept its BVH walk (the static rt_walk_node and
 * rt_box_entry) in their copies for the whole run: +8.0 % of its
 * instructions at 10 % windows, 1/16 of the default size, and +4.2 %
 * without. */
static void lp__rt_pulls_find(void)
{
    size_t n;
    const lp__rt_csite *sites = lp__rt_csites(&n);
    for (size_t k = 0; k < n && lp__rt.guard_method; k++) {
        size_t g = (size_t)(sites[k].counter - lp__rt_cnt_start);
        if (g < lp__rt.nguards && lp__rt.guard_method[g] >= 0 &&
            lp__rt_copy_at(sites[k].callee) >= 0)
            lp__rt_pulls[lp__rt.guard_method[g]] = 1;
    }
}

/* The candidates, most called first, into pick and calls (up to
 * LP__RT_CLOCKS), and how many of them to keep; tramp: with the
 * trampoline's price of a method on it (lp__rt_clock_cost). */
static unsigned lp__rt_clock_pick(long *pick, uint64_t *calls, uint64_t total, uint64_t incs,
                                  int tramp)
{
    unsigned np = 0;
    int blocks = lp__rt_blocks_clock();
    for (size_t i = 0; i < lp__rt.nmethods; i++) {
        uint64_t n = lp__rt_method_count(i) - lp__rt_wopen[i];
        const lp__rt_method *m = &lp__rt.methods[i];
        if (n < LP__RT_CLOCK_MIN || n * LP__RT_CLOCK_SHARE > total ||
            m->mode[LP_RT_FUNCTIONS] != LP__RT_AUTO || m->mode[LP_RT_BLOCKS] != LP__RT_AUTO ||
            m->unswitchable || (m->prefixed && m->entry_guard < 0) ||
            (blocks && !m->prefixed)) /* without function events, no trampoline counts */
            continue;
        if (lp__rt_clock_cost(i, n, incs, tramp) * LP__RT_CLOCK_SHARE > incs ||
            (m->prefixed && lp__rt_pulls[i]))
            continue;
        /* into the list, most called first */
        unsigned j;
        if (np < LP__RT_CLOCKS)
            j = np++;
        else if (n > calls[LP__RT_CLOCKS - 1])
            j = LP__RT_CLOCKS - 1;
        else
            continue;
        for (; j > 0 && calls[j - 1] < n; j--) {
            pick[j] = pick[j - 1];
            calls[j] = calls[j - 1];
        }
        pick[j] = (long)i;
        calls[j] = n;
    }
    uint64_t sum = 0, sum_cost = 0;
    unsigned keep = 0;
    for (; keep < np; keep++) {
        uint64_t c = lp__rt_clock_cost((size_t)pick[keep], calls[keep], incs, tramp);
        if ((sum + calls[keep]) * (LP__RT_CLOCK_SHARE / 2) > total ||
            (sum_cost + c) * (LP__RT_CLOCK_SHARE / 2) > incs)
            break;
        sum += calls[keep];
        sum_cost += c;
    }
    return keep;
}

/* Chooses a clock from the calls made in the windows since the last one
 * (or the start), and returns 1 if it did: the most called methods that
 * each made at most 1 % of the calls and at least 8, together at most
 * 2 %, up to LP__RT_CLOCKS of them; and what each would cost
 * (lp__rt_clock_cost) likewise at most 1 % of the copies' increments in
 * the windows, together 2 % (lp__rt_clock_incs). Several methods spread
 * the clock over more of the program: a single one called in one part of
 * a loop only measures that part, whose slowdown in a window may not be
 * the loop's. */
int lp__rt_clock_choose(void)
{
    if (!lp__rt_wopen_set)
        return 0;
    uint64_t total = 0, sum = 0, incs = lp__rt_clock_incs();
    for (size_t i = 0; i < lp__rt.nmethods; i++)
        total += lp__rt_method_count(i) - lp__rt_wopen[i];
    long pick[LP__RT_CLOCKS];
    uint64_t calls[LP__RT_CLOCKS];
    /* A clock on the trampoline costs its calls as a method on it does
     * in a window: priced out, it is still better than none, which leaves
     * the windows timed by their CPU time (the rt test scale-asm, whose
     * functions are all on it, estimated hot() 17-25 % low). A prefixed
     * copy's price has no such bound (its loops), and stays. */
    unsigned keep = lp__rt_clock_pick(pick, calls, total, incs, 1);
    if (!keep && incs)
        keep = lp__rt_clock_pick(pick, calls, total, incs, 0);
    if (!keep)
        return 0; /* keep adding */
    for (unsigned k = 0; k < keep; k++)
        sum += calls[k];
    lp__rt_wopen_set = 0;
    lp__rt_epoch_end();
    lp__rt_clocks_set(pick, keep);
    lp__rt_tk.method = pick[0];
    lp__rt_tk.gen++;
    lp__rt_tk.first = sum;
    return 1;
}

/* The window of span CPU time that closed at now (its sites still on):
 * its clock calls and CPU time join the epoch, for every method it
 * counted; a clock is chosen when there is none, or when the window saw
 * too few of its calls. */
void lp__rt_clock_closed(uint64_t now, uint64_t span)
{
    if (!lp__rt_clock_wanted() || lp__rt.scouting)
        return;
    lp__rt_ticks *tk = &lp__rt_tk;
    int timed = tk->method >= 0 && tk->open_gen == tk->gen;
    uint64_t kw = timed ? lp__rt_clock_count() - tk->open_k : 0;
    tk->calls_windows += kw;
    int phase = lp__rt.cfg.strategy == LP__RT_PHASE;
    if (timed && kw < LP__RT_CLOCK_MIN && !phase) {
        /* The program has moved on from the clock's methods: their epoch
         * ends before this window, which nothing times; the next windows
         * look for another. */
        lp__rt_epoch_end();
        tk->method = -1;
        lp__rt_clocks_set(NULL, 0);
        timed = 0;
    }
    for (unsigned t = 0; t < LP_RT_TYPES; t++)
        if (lp__rt_profiles(t))
            for (size_t i = 0; i < lp__rt.nmethods; i++)
                if (lp__rt.methods[i].on[t]) {
                    if (timed) {
                        tk->calls[t][i] += kw;
                        tk->cpu[t][i] += span;
                    } else {
                        tk->unknown[t][i] += span;
                    }
                }
    if (timed) {
        tk->win_calls += kw;
        tk->win_cpu += span;
    } else {
        tk->unknown_all += span;
    }
    /* A clock chosen from this window's calls alone times this window too
     * (the first one, which starts the program and its threads, is like
     * no other). */
    if (tk->method < 0 && lp__rt_wopen_windows == 1 && lp__rt_clock_choose() && !phase) {
        for (unsigned t = 0; t < LP_RT_TYPES; t++)
            if (lp__rt_profiles(t))
                for (size_t i = 0; i < lp__rt.nmethods; i++)
                    if (lp__rt.methods[i].on[t]) {
                        tk->unknown[t][i] -= span;
                        tk->calls[t][i] += tk->first;
                        tk->cpu[t][i] += span;
                    }
        tk->unknown_all -= span;
        tk->win_calls += tk->first;
        tk->win_cpu += span;
        tk->calls_windows += tk->first;
    } else if (tk->method < 0) {
        lp__rt_clock_choose();
    }
    tk->close_k = lp__rt_clock_count();
    tk->close_cpu = now;
    tk->close_gen = tk->method >= 0 ? tk->gen : 0;
}

/* A fresh clock: none chosen, nothing credited. */
void lp__rt_clock_forget(void)
{
    lp__rt_ticks *tk = &lp__rt_tk;
    size_t n = lp__rt.nmethods ? lp__rt.nmethods : 1;
    for (unsigned t = 0; t < LP_RT_TYPES; t++) {
        uint64_t *arrays[] = {tk->known[t], tk->unknown[t], tk->calls[t], tk->cpu[t]};
        for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
            if (arrays[i])
                memset(arrays[i], 0, n * sizeof *arrays[i]);
    }
    tk->method = -1;
    lp__rt_clocks_set(NULL, 0);
    tk->gen = tk->open_gen = tk->close_gen = 0;
    tk->calls_windows = tk->known_all = tk->known_cpu = tk->unknown_all = 0;
    tk->off_calls = tk->off_cpu = tk->win_calls = tk->win_cpu = 0;
    lp__rt_wopen_set = 0;
}

int lp__rt_clock_alloc(void)
{
    if (!lp__rt_clock_wanted() || lp__rt_wopen)
        return 0;
    size_t n = lp__rt.nmethods ? lp__rt.nmethods : 1;
    lp__rt_wopen = calloc(n, sizeof *lp__rt_wopen);
    lp__rt_wopen_incs = calloc(n, sizeof *lp__rt_wopen_incs);
    lp__rt_wincs = calloc(n, sizeof *lp__rt_wincs);
    lp__rt_pulls = calloc(n, 1);
    if (!lp__rt_wopen_incs || !lp__rt_wincs || !lp__rt_pulls)
        return -1;
    lp__rt_pulls_find();
    for (unsigned t = 0; t < LP_RT_TYPES; t++) {
        lp__rt_tk.known[t] = calloc(n, sizeof *lp__rt_tk.known[t]);
        lp__rt_tk.unknown[t] = calloc(n, sizeof *lp__rt_tk.unknown[t]);
        lp__rt_tk.calls[t] = calloc(n, sizeof *lp__rt_tk.calls[t]);
        lp__rt_tk.cpu[t] = calloc(n, sizeof *lp__rt_tk.cpu[t]);
        if (!lp__rt_tk.known[t] || !lp__rt_tk.unknown[t] || !lp__rt_tk.calls[t] ||
            !lp__rt_tk.cpu[t])
            return -1;
    }
    return lp__rt_wopen ? 0 : -1;
}
