/* Profile files: the counters become the foundation's profile set
 * (doc/format-profile.md) with the run's meta and module map, written to a
 * temporary file that is renamed over the output, so a reader never sees
 * half a file.
 *
 * The same code runs at exit, from the daemon (periodic files), for
 * lp_rt_flush and in a fatal-signal handler. For the last it must be
 * async-signal-safe: no stdio, no locks, memory only through core's
 * allocator shim (which the handler points at a preallocated arena), the
 * module map copied at start-up, and only open, write, close and rename.
 *
 * Keys: method (entry, 0); call pair (return address, callee entry): the
 * site is the byte after the call instruction, which is what the entry
 * trampoline sees; call graph (the function holding that return address,
 * callee entry), 0 for a caller outside the executable's symbols; block
 * (the block's pc-table address, 0). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h> /* rename */
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "rt_internal.h"

char *lp__rt_u64(uint64_t v, char *buf)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (int i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = 0;
    return buf;
}

static void lp__rt_write_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

void lp__rt_say(const char *msg)
{
    int saved = errno;
    lp__rt_write_all(2, "lowprof: ", 9);
    lp__rt_write_all(2, msg, strlen(msg));
    lp__rt_write_all(2, "\n", 1);
    errno = saved;
}

/* cfg.out with %p replaced by the pid; in a fork child whose pattern has no
 * %p, ".<pid>" is appended so parent and child keep separate files. */
void lp__rt_out_path(void)
{
    char pid[24];
    lp__rt_u64((uint64_t)getpid(), pid);
    const char *src = lp__rt.cfg.out;
    char *dst = lp__rt.out_path;
    size_t cap = sizeof lp__rt.out_path - 1, n = 0;
    int had_pid = 0;
    for (; *src && n < cap; src++) {
        if (src[0] == '%' && src[1] == 'p') {
            for (const char *p = pid; *p && n < cap; p++)
                dst[n++] = *p;
            src++;
            had_pid = 1;
        } else {
            dst[n++] = *src;
        }
    }
    if (!had_pid && lp__rt.forked) {
        if (n < cap)
            dst[n++] = '.';
        for (const char *p = pid; *p && n < cap; p++)
            dst[n++] = *p;
    }
    dst[n] = 0;
}

/* ---- tables ---------------------------------------------------------------------------- */

/* Function events are asked for and the program has entry sites. */
static int lp__rt_fn_events(void)
{
    return lp__rt_profiles(LP_RT_FUNCTIONS) && lp__rt.entry_sites;
}

int lp__rt_type_written(unsigned type)
{
    int fn = lp__rt_fn_events();
    int have_blocks = lp__rt_profiles(LP_RT_BLOCKS) && lp__rt.guard_method;
    switch (type) {
    case LP_PROF_METHOD: return fn || have_blocks;
    case LP_PROF_CALL_PAIR:
    case LP_PROF_CALL_GRAPH: return fn;
    case LP_PROF_BLOCK: return have_blocks;
    default: return 0;
    }
}

static int lp__rt_bump(lp_table *t, uint64_t a, uint64_t b, uint64_t v)
{
    lp_entry *e = lp_table_upsert(t, (lp_key){a, b});
    if (!e)
        return LP_ENOMEM;
    e->v[0] += v;
    return 0;
}

/* Whether counts of a type in method m's copy are kept: with inline
 * counters a copy counts whenever some method is on, so only the methods
 * whose type was ever switched on keep theirs (m < 0: code no method
 * holds, kept). */
static int lp__rt_counts_type(long m, unsigned type)
{
    return m < 0 || !lp__rt_cnt_start || lp__rt.methods[m].ever[type];
}

/* A call pair and its arc of the call graph. */
int lp__rt_pair(lp_table *t, uint64_t ret, uint64_t callee, uint64_t v)
{
    int rc = lp__rt_bump(&t[LP_PROF_CALL_PAIR], ret, callee, v);
    if (!rc) {
        /* ret - 1 lies in the call instruction, so in its caller even
         * when the call is the caller's last instruction. */
        uint64_t caller = lp__rt_func_start(ret - 1);
        rc = lp__rt_bump(&t[LP_PROF_CALL_GRAPH], caller ? caller : ret, callee, v);
    }
    return rc;
}

/* The copies' direct call sites: each counts what its block counts. The
 * site's key is the call's return address, found in the block's code (a
 * block's sites to one callee come in the order of its calls); failing
 * that, its block's address + 1, which stands for the site as a return
 * address would. */
static int lp__rt_site_pairs(const lp__rt_counts *cur, const lp__rt_counts *base, lp_table *t)
{
    size_t n;
    const lp__rt_csite *sites = lp__rt_csites(&n);
    int rc = 0;
    uint64_t prev_ret = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        size_t g = (size_t)(sites[i].counter - lp__rt_cnt_start);
        if (g >= lp__rt.nguards)
            continue;
        uint64_t v = cur->b[g] - (base ? base->b[g] : 0);
        long m = v ? lp__rt_callee_method(sites[i].callee) : -1;
        if (m < 0 || !lp__rt_counts_type(m, LP_RT_FUNCTIONS))
            continue;
        uint64_t block = lp__rt.pcs_start[2 * g];
        int again = i > 0 && sites[i - 1].counter == sites[i].counter &&
                    sites[i - 1].callee == sites[i].callee && prev_ret;
        uint64_t ret = lp__rt_copy_call_after(again ? prev_ret : block, sites[i].callee,
                                              lp__rt.methods[m].copy_body);
        prev_ret = ret;
        rc = lp__rt_pair(t, ret ? ret : block + 1, lp__rt.methods[m].entry, v);
    }
    return rc;
}

int lp__rt_tables_build(const lp__rt_counts *cur, const lp__rt_counts *base, lp_table *t)
{
    int fn = lp__rt_fn_events();
    int rc = 0;
    if (fn) {
        for (size_t i = 0; i < lp__rt.nmethods && !rc; i++) {
            uint64_t v = cur->m[i] - (base ? base->m[i] : 0);
            if (v)
                rc = lp__rt_bump(&t[LP_PROF_METHOD], lp__rt.methods[i].entry, 0, v);
        }
        for (size_t s = 0; s <= lp__rt.arc_mask && !rc; s++) {
            uint64_t key = __atomic_load_n(&lp__rt.arc_keys[s], __ATOMIC_ACQUIRE);
            uint64_t v = cur->a[s] - (base ? base->a[s] : 0);
            size_t m = (size_t)(key >> LP__RT_ARC_SHIFT) - 1;
            if (!key || !v || m >= lp__rt.nmethods)
                continue;
            uint64_t ret = key & ((1ULL << LP__RT_ARC_SHIFT) - 1);
            rc = lp__rt_pair(t, ret, lp__rt.methods[m].entry, v);
        }
    }
    int blocks = lp__rt_type_written(LP_PROF_BLOCK);
    /* Copies with inline counters count their entries and calls in their
     * blocks, for function events too. */
    int copies = lp__rt_cnt_start && lp__rt.guard_method;
    if (blocks || (fn && copies)) {
        for (size_t g = 0; g < lp__rt.nguards && !rc; g++) {
            uint64_t v = cur->b[g] - (base ? base->b[g] : 0);
            if (!v)
                continue;
            uint64_t pc = lp__rt.pcs_start[2 * g];
            long m = lp__rt.guard_method[g];
            if (blocks && lp__rt_counts_type(m, LP_RT_BLOCKS))
                rc = lp__rt_bump(&t[LP_PROF_BLOCK], pc, 0, v);
            /* The entry block's count is the method's invocations (the
             * entry block has no predecessor): with function events, those
             * that reached the copy without the trampoline. */
            if (!rc && (!fn || copies) && (lp__rt.pcs_start[2 * g + 1] & 1) &&
                lp__rt_counts_type(m, fn ? LP_RT_FUNCTIONS : LP_RT_BLOCKS))
                rc = lp__rt_bump(&t[LP_PROF_METHOD], m >= 0 ? lp__rt.methods[m].entry : pc, 0, v);
        }
    }
    if (fn && copies && !rc)
        rc = lp__rt_site_pairs(cur, base, t);
    return rc;
}

/* ---- estimates --------------------------------------------------------------------------- */

static uint64_t lp__rt_gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

static uint64_t lp__rt_now_or_end(void)
{
    return lp__rt.clock.end_ns ? lp__rt.clock.end_ns : lp__rt_cpu_ns();
}

/* CPU time the daemon's windows were open, up to now. */
static uint64_t lp__rt_window_ns(uint64_t now)
{
    uint64_t on = lp__rt.clock.on_ns;
    if (lp__rt.window_on && now > lp__rt.clock.on_since)
        on += now - lp__rt.clock.on_since;
    return on;
}

/* CPU time method m's sites of type were on, up to now. */
static uint64_t lp__rt_method_on(size_t m, unsigned type, uint64_t now)
{
    const lp__rt_method *mm = &lp__rt.methods[m];
    /* A static function's copy runs when a caller's copy runs, that is in
     * the daemon's windows: its blocks are scaled by the windows' time. */
    if (type == LP_RT_BLOCKS && lp__rt.ncopies && !mm->copy)
        return lp__rt_window_ns(now);
    uint64_t on = mm->on_ns[type];
    if (mm->on[type] && now > mm->on_since[type])
        on += now - mm->on_since[type];
    return on;
}

/* Which method an entry of a profile type counts, and under which type's
 * switch; -1 if none. */
static long lp__rt_entry_method(unsigned ptype, const lp_entry *e, unsigned *out_type)
{
    int fn = lp__rt_fn_events();
    *out_type = LP_RT_FUNCTIONS;
    switch (ptype) {
    case LP_PROF_METHOD:
        *out_type = fn ? LP_RT_FUNCTIONS : LP_RT_BLOCKS;
        return lp__rt_method_exact(e->key.a);
    case LP_PROF_CALL_PAIR:
    case LP_PROF_CALL_GRAPH: return lp__rt_method_exact(e->key.b);
    case LP_PROF_BLOCK: *out_type = LP_RT_BLOCKS; return lp__rt_method_at(e->key.a);
    default: return -1;
    }
}

uint64_t lp__rt_muldiv(uint64_t x, uint64_t num, uint64_t den)
{
    __extension__ unsigned __int128 y = (unsigned __int128)x * num + den / 2;
    y /= den;
    return y > UINT64_MAX ? UINT64_MAX : (uint64_t)y;
}

/* Turns the raw whole-run counts into estimates for the windowed
 * strategies: a method's events are scaled by the run's CPU time over the
 * CPU time its sites were switched on. When every counted method was on
 * for the same time (hot=all), the counts stay raw and the profile's scale
 * says so; otherwise each count is scaled here and the scale is 1/1. */
static void lp__rt_estimate(lp_profile *p, uint64_t total, uint64_t now)
{
    uint64_t common = 0;
    int uniform = 1;
    size_t cur = 0;
    lp_entry *e;
    while ((e = lp_table_next(&p->table, &cur)) != NULL) {
        unsigned st;
        long m = lp__rt_entry_method(p->type, e, &st);
        uint64_t on = m >= 0 ? lp__rt_method_on((size_t)m, st, now) : 0;
        if (!common)
            common = on;
        if (on != common)
            uniform = 0;
    }
    if (uniform) {
        if (common && total > common) {
            uint64_t g = lp__rt_gcd(total, common);
            p->scale_num = total / g;
            p->scale_den = common / g;
        }
        return;
    }
    cur = 0;
    while ((e = lp_table_next(&p->table, &cur)) != NULL) {
        unsigned st;
        long m = lp__rt_entry_method(p->type, e, &st);
        uint64_t on = m >= 0 ? lp__rt_method_on((size_t)m, st, now) : 0;
        if (!on || on >= total)
            continue;
        e->v[0] = lp__rt_muldiv(e->v[0], total, on);
    }
}

/* The program time (rt_daemon.c, "the clock method") of the windows
 * method m's sites of type were on in (m < 0: every window); windows no
 * clock timed, and the one still open, count at the speed of those timed
 * (rho_num / rho_den, from lp__rt_windows_time(-1, ...)). */
static uint64_t lp__rt_program_on(long m, unsigned type, uint64_t open, uint64_t closed,
                                  uint64_t rho_num, uint64_t rho_den)
{
    uint64_t prog, prog_cpu, untimed;
    lp__rt_windows_time(m, type, &prog, &prog_cpu, &untimed);
    if (m < 0 || lp__rt.methods[m].on[type])
        untimed += open;
    if (m >= 0 && lp__rt_counts_closed((size_t)m, type))
        prog += closed; /* on with the windows closed (rt_daemon.c) */
    return prog + (rho_den ? lp__rt_muldiv(untimed, rho_num, rho_den) : untimed);
}

/* The estimate by program time: a count is scaled by the run's program
 * time (CPU time with the windows closed, plus the windows' program
 * time) over the program time its sites were on: in windows, and for the
 * clock's methods with the windows closed too. A method the program
 * switched on itself keeps its exact count. The scale is 1/1. */
static void lp__rt_estimate_clock(lp_profile *p, uint64_t total, uint64_t window, uint64_t now)
{
    uint64_t open = window > lp__rt.clock.on_ns ? window - lp__rt.clock.on_ns : 0;
    /* the closed stretch in progress */
    uint64_t since = lp__rt_daemon_ticks()->close_cpu;
    uint64_t closed = !lp__rt.window_on && since && now > since ? now - since : 0;
    uint64_t rho_num, rho_den, untimed;
    lp__rt_windows_time(-1, LP_RT_FUNCTIONS, &rho_num, &rho_den, &untimed);
    uint64_t all = (total > window ? total - window : 0) +
                   lp__rt_program_on(-1, LP_RT_FUNCTIONS, open, 0, rho_num, rho_den);
    size_t cur = 0;
    lp_entry *e;
    while ((e = lp_table_next(&p->table, &cur)) != NULL) {
        unsigned st;
        long m = lp__rt_entry_method(p->type, e, &st);
        if (m < 0 || lp__rt.methods[m].mode[st] == LP__RT_FORCE_ON)
            continue;
        /* A static function's copy counts while any window is open. */
        int windowed = st == LP_RT_BLOCKS && lp__rt.ncopies && !lp__rt.methods[m].copy;
        uint64_t on = lp__rt_program_on(windowed ? -1 : m, st, open, closed, rho_num, rho_den);
        if (on && on < all)
            e->v[0] = lp__rt_muldiv(e->v[0], all, on);
    }
}

/* The whole-run profiles from the live counters. */
static int lp__rt_whole_run(lp_profile_set *set)
{
    lp_table tabs[LP_PROF_TYPE_MAX + 1];
    size_t hint[LP_PROF_TYPE_MAX + 1] = {0};
    hint[LP_PROF_METHOD] = lp__rt.nmethods;
    hint[LP_PROF_CALL_PAIR] = hint[LP_PROF_CALL_GRAPH] = (lp__rt.arc_mask + 1) / 2;
    hint[LP_PROF_BLOCK] = lp__rt.nguards;
    lp__rt_counts cur;
    int rc = lp__rt_counts_alloc(&cur);
    for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
        if (lp_table_init(&tabs[t], lp__rt_type_written(t) ? hint[t] : 0) != 0)
            rc = LP_ENOMEM;
    if (!rc) {
        lp__rt_counts_sum(&cur);
        rc = lp__rt_tables_build(&cur, NULL, tabs);
    }
    lp__rt_counts_free(&cur);
    uint64_t now = lp__rt_now_or_end();
    uint64_t total = now > lp__rt.clock.start_ns ? now - lp__rt.clock.start_ns : 0;
    unsigned st = lp__rt.cfg.strategy;
    /* The daemon keeps program time for the strategies with windows (it
     * has allocated its accounts); always with hot=N re-chooses the hot
     * set every period, and a method that joined it late was on for part
     * of the run: CPU time there. */
    int timed = lp__rt_daemon_ticks()->known[LP_RT_FUNCTIONS] != NULL &&
                st != LP__RT_ALWAYS && st != LP__RT_NEVER;
    for (unsigned t = 1; t <= LP_PROF_TYPE_MAX && !rc; t++) {
        if (!lp__rt_type_written(t))
            continue;
        lp_profile *p;
        if ((rc = lp_profile_set_add(set, t, LP_PHASE_NONE, &p)) != 0)
            break;
        lp_table_fini(&p->table);
        p->table = tabs[t];
        lp_table_init(&tabs[t], 0);
        if (timed)
            lp__rt_estimate_clock(p, total, lp__rt_window_ns(now), now);
        else if (st != LP__RT_NEVER && (st != LP__RT_ALWAYS || lp__rt.cfg.hot))
            lp__rt_estimate(p, total, now);
    }
    for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
        lp_table_fini(&tabs[t]);
    return rc;
}

/* ---- meta ------------------------------------------------------------------------------- */

void lp__rt_meta_u64(lp_meta *m, const char *key, uint64_t v)
{
    char b[24];
    lp_meta_set(m, key, lp__rt_u64(v, b));
}

void lp__rt_meta_hex(lp_meta *m, const char *key, uint64_t v)
{
    char hex[24] = "0x";
    int n = 1;
    while (n < 16 && v >> (4 * n))
        n++;
    for (int i = 0; i < n; i++)
        hex[2 + i] = "0123456789abcdef"[(v >> (4 * (n - 1 - i))) & 15];
    hex[2 + n] = 0;
    lp_meta_set(m, key, hex);
}

static void lp__rt_meta(lp_meta *m, int why, int sig)
{
    const lp__rt_config *c = &lp__rt.cfg;
    lp_meta_set(m, "recorder", "lowprof native runtime");
    lp_meta_set(m, "program", lp__rt.program);
    lp_meta_set(m, "args", lp__rt.args);
    lp__rt_meta_u64(m, "pid", (uint64_t)getpid());
    lp_meta_set(m, "strategy", lp__rt_strategy_name(c->strategy));
    const char *profiles = (c->types & 3u) == 3u ? "call-graph,block"
                           : (c->types & 1u) ? "call-graph"
                           : (c->types & 2u) ? "block"
                                             : "none";
    lp_meta_set(m, "profiles", profiles);
    lp_meta_set(m, "time-base", "process CPU time, ns");
    if (c->strategy == LP__RT_PERIODIC || c->strategy == LP__RT_RANDOM)
        lp__rt_meta_u64(m, "duty-percent", c->duty);
    lp__rt_meta_u64(m, "period-ns", c->period_ns);
    if (c->strategy == LP__RT_BURSTY) {
        lp__rt_meta_u64(m, "burst-events", c->burst);
        lp__rt_meta_u64(m, "check-ns", c->check_ns);
    }
    if (c->hot)
        lp__rt_meta_u64(m, "hot", c->hot);
    else
        lp_meta_set(m, "hot", "all");
    lp__rt_meta_u64(m, "strategy-seed", c->seed);
    lp__rt_meta_u64(m, "sample-rate-hz", c->rate);
    uint64_t now = lp__rt_now_or_end();
    lp__rt_meta_u64(m, "cpu-ns", now > lp__rt.clock.start_ns ? now - lp__rt.clock.start_ns : 0);
    lp__rt_meta_u64(m, "profiled-cpu-ns", lp__rt_window_ns(now));
    const lp__rt_ticks *tk = lp__rt_daemon_ticks();
    if (tk->method >= 0) /* the first method of the clock in use */
        lp__rt_meta_hex(m, "clock-method", lp__rt.methods[tk->method].entry);
    if (tk->gen) {
        lp__rt_meta_u64(m, "clocks-chosen", tk->gen);
        lp__rt_meta_u64(m, "clock-calls-in-windows", tk->calls_windows);
        uint64_t prog, prog_cpu, untimed;
        lp__rt_windows_time(-1, LP_RT_FUNCTIONS, &prog, &prog_cpu, &untimed);
        lp__rt_meta_u64(m, "windows-timed-cpu-ns", prog_cpu);
        lp__rt_meta_u64(m, "windows-timed-program-ns", prog);
    }
    lp__rt_meta_u64(m, "windows", lp__rt.clock.windows);
    uint64_t ops = __atomic_load_n(&lp__rt_outside_ps, __ATOMIC_RELAXED);
    if (ops)
        lp__rt_meta_u64(m, "outside-call-ps", ops);
    if (lp__rt_cnt_start) {
        lp__rt_meta_u64(m, "outside-calls", lp__rt_outside_calls());
        lp__rt_meta_u64(m, "outside-calls-every", lp__rt_oc_every);
    }
    if (lp__rt.ncopies) {
        lp__rt_meta_u64(m, "threads-started-in-copies", lp__rt_threads_started_in_copies());
        lp__rt_meta_u64(m, "sticky-methods", lp__rt.sticky);
        lp__rt_meta_u64(m, "sticky-revoked", lp__rt.sticky_revoked);
    }
    lp__rt_meta_u64(m, "pc-samples", lp__rt.samples);
    lp__rt_meta_u64(m, "pc-samples-lost", lp__rt.samples_lost);
    lp__rt_meta_u64(m, "methods", lp__rt.nmethods);
    lp__rt_meta_u64(m, "entry-sites", lp__rt.entry_sites);
    lp__rt_meta_u64(m, "entry-sites-unswitchable", lp__rt.entry_unswitchable);
    lp__rt_meta_u64(m, "entry-sites-direct", lp__rt.entry_direct);
    lp__rt_meta_u64(m, "entry-sites-prefixed", lp__rt.entry_prefixed);
    lp__rt_meta_u64(m, "entry-calls-switched", lp__rt.entry_xcalls);
    lp__rt_meta_u64(m, "block-guards", lp__rt.nguards);
    if (lp__rt_cnt_start)
        lp__rt_meta_u64(m, "block-guards-twinned", lp__rt_twinned);
    lp__rt_meta_u64(m, "block-sites", lp__rt.ncov);
    lp__rt_meta_u64(m, "block-sites-rejected", lp__rt.cov_rejected);
    lp__rt_meta_u64(m, "call-pair-slots", lp__rt.arc_mask + 1);
    lp__rt_meta_u64(m, "call-pairs-dropped", __atomic_load_n(&lp__rt.arc_drops, __ATOMIC_RELAXED));
    lp__rt_meta_u64(m, "sites-written", lp__rt.patches);
    lp_meta_set(m, "text-writes", lp__rt_text_writes());
    lp__rt_meta_u64(m, "daemon-cpu-ns", lp__rt.daemon_cpu_ns);
    lp__rt_meta_u64(m, "daemon-wakeups", lp__rt.daemon_wakeups);
    if (why == LP__RT_DUMP_EXIT) {
        lp_meta_set(m, "complete", "yes");
    } else {
        lp_meta_set(m, "complete", "no");
        if (why == LP__RT_DUMP_FATAL) {
            char b[24], reason[64] = "killed by signal ";
            strcat(reason, lp__rt_u64((uint64_t)sig, b));
            const char *name = lp__rt_signal_name(sig);
            if (name) {
                strcat(reason, " (");
                strcat(reason, name);
                strcat(reason, ")");
            }
            lp_meta_set(m, "incomplete-reason", reason);
            /* Where, so that a crash seen once can be looked into from
             * its profile (`lowprof report` names the function and line). */
            uint64_t pc, addr;
            if (lp__rt_fault(&pc, &addr)) {
                lp__rt_meta_hex(m, "fault-pc", pc);
                lp__rt_meta_hex(m, "fault-address", addr);
            }
        } else {
            lp_meta_set(m, "incomplete-reason", "written while the program ran");
        }
    }
}

/* ---- writing ------------------------------------------------------------------------------ */

int lp__rt_fd_write(void *ctx, const void *data, size_t size)
{
    int fd = *(int *)ctx;
    const char *p = data;
    while (size) {
        ssize_t w = write(fd, p, size);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return LP_EIO;
        p += w;
        size -= (size_t)w;
    }
    return 0;
}

void lp__rt_module_map(lp_module_map *out)
{
    for (size_t i = 0; i < lp__rt.nmodules; i++) {
        const lp__rt_module *mod = &lp__rt.modules[i];
        lp_module_map_add(out, mod->path, mod->start, mod->size, mod->bias, mod->build_id,
                          mod->build_id_len);
    }
}

int lp__rt_dump(int why, int sig, lp__rt_profiles_fn phase_profiles)
{
    lp_profile_set set;
    memset(&set, 0, sizeof set);
    lp__rt_meta(&set.meta, why, sig);
    lp__rt_module_map(&set.modules);
    int rc = 0;
    /* The phase strategy's interval tables belong to the daemon, which
     * hands them in through phase_profiles; a fatal signal may have
     * interrupted it, so that path passes none and writes raw totals. */
    int done = phase_profiles ? phase_profiles(&set, why == LP__RT_DUMP_EXIT) : 0;
    if (done < 0)
        rc = done;
    else if (!done)
        rc = lp__rt_whole_run(&set);
    if (!rc && why != LP__RT_DUMP_FATAL)
        rc = lp__rt_stacks_profile(&set);
    if (!rc)
        rc = lp__rt_bursty_profiles(&set, why);
    if (why == LP__RT_DUMP_FATAL && lp__rt.cfg.strategy == LP__RT_PHASE)
        lp_meta_set(&set.meta, "estimate", "raw counts of the profiled intervals (fatal signal)");
    char tmp[sizeof lp__rt.out_path + 16];
    strcpy(tmp, lp__rt.out_path);
    strcat(tmp, why == LP__RT_DUMP_FATAL ? ".tmp-f" : ".tmp");
    /* An output that exists and is not a regular file (out=/dev/null, a
     * pipe) is written in place: renaming over it would replace it. */
    struct stat st;
    int in_place = stat(lp__rt.out_path, &st) == 0 && !S_ISREG(st.st_mode);
    int fd = -1;
    if (!rc) {
        fd = in_place ? open(lp__rt.out_path, O_WRONLY | O_CLOEXEC)
                      : open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0)
            rc = LP_EIO;
    }
    if (!rc) {
        lp_sink sink = {lp__rt_fd_write, &fd};
        rc = lp_profile_file_write(&set, sink);
        if (close(fd) != 0 && !rc)
            rc = LP_EIO;
        if (!rc && !in_place && rename(tmp, lp__rt.out_path) != 0)
            rc = LP_EIO;
        if (rc && !in_place)
            unlink(tmp);
    }
    /* The collector gets the run once, when it ends (normally or by a
     * fatal signal); files written while it runs stay local. */
    if (!rc && lp__rt.cfg.ship == LP__RT_SHIP_AT_END &&
        (why == LP__RT_DUMP_EXIT || why == LP__RT_DUMP_FATAL))
        lp__rt_spool_write(&set);
    if (why != LP__RT_DUMP_FATAL)
        lp_profile_set_fini(&set);
    if (rc && why != LP__RT_DUMP_PERIODIC) {
        char msg[LP__RT_OUT_MAX + 64] = "could not write the profile ";
        strcat(msg, lp__rt.out_path);
        lp__rt_say(msg);
    }
    return rc;
}
