/* The native runtime's life: a constructor that finds the profile
 * instructions, prepares them and starts the daemon; a destructor that
 * stops it and writes the profile; fork handling; the public API of
 * include/lowprof/rt.h.
 *
 * The constructor runs at priority 101, after the coverage modules' own
 * constructors (which number the guards) and before the program's, so
 * every site is prepared before any program code runs. Whatever goes wrong
 * (a bad LOWPROF, no instrumented code, text that cannot be made
 * writable), the runtime prints at most one line on stderr and leaves the
 * program as it was.
 *
 * Fork: the child gets its own file (the pid is in the name) and a fresh
 * daemon, with counters and windows starting from zero; the parent goes
 * on as before. The fork handlers hold lp__rt.lock across the fork, so the
 * child never inherits a half-done switch or a half-updated daemon. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_internal.h"

/* The command line, from /proc/self/cmdline, arguments joined by spaces. */
static void lp__rt_read_args(void)
{
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    char buf[sizeof lp__rt.args];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return;
    buf[n] = 0;
    size_t first = strnlen(buf, (size_t)n) + 1; /* skip argv[0] */
    size_t w = 0;
    for (size_t i = first; i < (size_t)n && w + 1 < sizeof lp__rt.args; i++)
        lp__rt.args[w++] = buf[i] ? buf[i] : ' ';
    while (w && lp__rt.args[w - 1] == ' ')
        w--;
    lp__rt.args[w] = 0;
}

static void lp__rt_verbose(void)
{
    if (!lp__rt.cfg.verbose)
        return;
    char a[24], b[24], c[24], msg[LP__RT_OUT_MAX + 256];
    strcpy(msg, "runtime on: ");
    strcat(msg, lp__rt_u64(lp__rt.nmethods, a));
    strcat(msg, " methods, ");
    strcat(msg, lp__rt_u64(lp__rt.entry_sites, b));
    strcat(msg, " entry sites, ");
    strcat(msg, lp__rt_u64(lp__rt.ncov, c));
    strcat(msg, " block sites; strategy ");
    strcat(msg, lp__rt_strategy_name(lp__rt.cfg.strategy));
    strcat(msg, "; writing ");
    strcat(msg, lp__rt.out_path);
    lp__rt_say(msg);
}

static void lp__rt_atfork_prepare(void)
{
    if (lp__rt.enabled)
        pthread_mutex_lock(&lp__rt.lock);
}

static void lp__rt_atfork_parent(void)
{
    if (lp__rt.enabled)
        pthread_mutex_unlock(&lp__rt.lock);
}

static void lp__rt_atfork_child(void)
{
    if (!lp__rt.enabled)
        return;
    pthread_mutex_unlock(&lp__rt.lock);
    lp__rt.forked = 1;
    lp__rt_counters_reset();
    lp__rt_bursty_reset();
    lp__rt_daemon_forget();
    lp__rt_sampler_forget();
    lp__rt_stacks_forget();
    lp__rt_fatal_forget();
    lp__rt.samples = lp__rt.samples_lost = lp__rt.patches = 0;
    lp__rt.daemon_cpu_ns = lp__rt.daemon_wakeups = 0;
    for (size_t i = 0; i < lp__rt.nmethods; i++)
        for (unsigned t = 0; t < LP_RT_TYPES; t++) {
            lp__rt.methods[i].on_ns[t] = 0;
            lp__rt.methods[i].on_since[t] = 0;
            lp__rt.methods[i].ever[t] = lp__rt.methods[i].on[t];
        }
    lp__rt_out_path();
    lp__rt.clock.start_ns = lp__rt_cpu_ns();
    if (lp__rt_needs_sampler())
        lp__rt_sampler_start();
    if (lp__rt_daemon_start() != 0) {
        lp__rt.live = 0;
        lp__rt_tramp_moved();
        lp__rt_say("the fork child's daemon did not start: profiling is off in it");
    }
}

/* Defined (weak, by every object) in a build whose copies count only their
 * entries and calls (lowprof cc --profiles=call-graph): its block counts
 * are incomplete. */
extern const char lp__cc_calls_only __attribute__((weak));

static void lp__rt_start(void)
{
    if (lp__rt.enabled)
        return;
    char err[512];
    if (lp__rt_config_parse(getenv("LOWPROF"), &lp__rt.cfg, err, sizeof err) != 0) {
        strcat(err, "; profiling is off");
        lp__rt_say(err);
        return;
    }
    if (lp__rt_profiles(LP_RT_BLOCKS) && &lp__cc_calls_only) {
        lp__rt_say("no block profile: this program was built for the call graph only "
                   "(lowprof cc --profiles=call-graph); build with --profiles=call-graph,block "
                   "to profile blocks");
        lp__rt.cfg.types &= ~(1u << LP_RT_BLOCKS);
    }
    lp__rt_modules_scan();
    lp__rt_funcs_load();
    if (lp__rt_methods_build() != 0) {
        lp__rt_say("out of memory at start-up: profiling is off");
        return;
    }
    /* A program compiled with bursty checks alone has no methods and
     * nothing to patch, and is profiled all the same. */
    if (lp__rt.nmethods == 0 && !lp__rt_bursty_present()) {
        if (lp__rt.cfg.verbose)
            lp__rt_say("no instrumented functions in this program: profiling is off");
        return;
    }
    if (lp__rt.nmethods && lp__rt_patch_probe() != 0) {
        lp__rt_say("cannot make the program's text writable (mprotect refused it): "
                   "profiling is off");
        return;
    }
    if (lp__rt_counters_init() != 0 || lp__rt_patch_prepare() != 0) {
        lp__rt_say("could not prepare the profile instructions: profiling is off");
        return;
    }
    pthread_mutex_init(&lp__rt.lock, NULL);
    ssize_t n = readlink("/proc/self/exe", lp__rt.program, sizeof lp__rt.program - 1);
    lp__rt.program[n > 0 ? n : 0] = 0;
    lp__rt_read_args();
    lp__rt_out_path();
    lp__rt_fatal_install();
    pthread_atfork(lp__rt_atfork_prepare, lp__rt_atfork_parent, lp__rt_atfork_child);
    lp__rt.clock.start_ns = lp__rt_cpu_ns();
    __atomic_store_n(&lp__rt.live, 1, __ATOMIC_RELEASE);
    lp__rt_tramp_moved();
    lp__rt.enabled = 1;
    lp__rt_thread_attach(); /* the main thread's copies count from the start */
    if (lp__rt_needs_sampler() && lp__rt_sampler_start() != 0 && lp__rt.cfg.verbose)
        lp__rt_say("no PC samples (timer_create failed): no method becomes hot");
    if (lp__rt_daemon_start() != 0) {
        lp__rt_say("the profiling daemon did not start: profiling is off");
        lp__rt.live = 0;
        lp__rt_tramp_moved();
        lp__rt.enabled = 0;
        lp__rt_sampler_stop();
        lp__rt_patch_all_off();
        return;
    }
    lp__rt_verbose();
}

__attribute__((constructor(101))) static void lp__rt_ctor(void)
{
    lp__rt_start();
    /* Whatever start decided: until then the compiled checks keep asking. */
    lp__rt_bursty_start();
}

__attribute__((destructor(101))) static void lp__rt_dtor(void)
{
    if (!lp__rt.enabled)
        return;
    lp__rt_daemon_stop();
    lp__rt_sampler_stop();
    pthread_mutex_lock(&lp__rt.lock);
    if (lp__rt.live)
        lp__rt_dump(LP__RT_DUMP_EXIT, 0, lp__rt_daemon_profiles);
    __atomic_store_n(&lp__rt.live, 0, __ATOMIC_RELEASE);
    lp__rt_tramp_moved();
    lp__rt_patch_all_off();
    pthread_mutex_unlock(&lp__rt.lock);
}

int lp__rt_needs_sampler(void)
{
    return lp__rt.cfg.strategy == LP__RT_PHASE || lp__rt.cfg.context ||
           (lp__rt.cfg.hot != 0 && lp__rt.cfg.strategy != LP__RT_NEVER);
}

/* ---- the public API -------------------------------------------------------------------- */

int lp_rt_enabled(void)
{
    return lp__rt.enabled && __atomic_load_n(&lp__rt.live, __ATOMIC_RELAXED);
}

static int lp__rt_method_mode(unsigned type, const void *fn, uint8_t mode)
{
    if (!lp__rt.enabled)
        return LP_RT_EDISABLED;
    if (type >= LP_RT_TYPES || !lp__rt_profiles(type))
        return LP_RT_EINVAL;
    long m = lp__rt_method_exact((uint64_t)(uintptr_t)fn);
    if (m < 0)
        return LP_RT_ENOENT;
    pthread_mutex_lock(&lp__rt.lock);
    lp__rt.methods[m].mode[type] = mode;
    lp__rt_apply(lp__rt_cpu_ns());
    pthread_mutex_unlock(&lp__rt.lock);
    return 0;
}

int lp_rt_setpf(unsigned type, const void *fn)
{
    return lp__rt_method_mode(type, fn, LP__RT_FORCE_ON);
}

int lp_rt_resetpf(unsigned type, const void *fn)
{
    return lp__rt_method_mode(type, fn, LP__RT_FORCE_OFF);
}

int lp_rt_autopf(unsigned type, const void *fn)
{
    return lp__rt_method_mode(type, fn, LP__RT_AUTO);
}

int lp_rt_thread_setpf(unsigned type)
{
    if (type >= LP_RT_TYPES)
        return LP_RT_EINVAL;
    lp_pf_set(&lp__rt_pf, type);
    lp__rt_cnt_regate_self();
    return 0;
}

int lp_rt_thread_resetpf(unsigned type)
{
    if (type >= LP_RT_TYPES)
        return LP_RT_EINVAL;
    lp_pf_reset(&lp__rt_pf, type);
    lp__rt_cnt_regate_self();
    return 0;
}

int lp_rt_thread_getpf(unsigned type)
{
    if (type >= LP_RT_TYPES)
        return LP_RT_EINVAL;
    return lp_pf_get(&lp__rt_pf, type) ? 1 : 0;
}

int lp_rt_pushpf(void)
{
    int full = lp__rt_pf.depth >= LP_PF_STACK_DEPTH;
    lp_pf_push(&lp__rt_pf);
    lp__rt_cnt_regate_self();
    return full ? -1 : 0;
}

int lp_rt_poppf(void)
{
    int empty = lp__rt_pf.depth == 0 && lp__rt_pf.overflow == 0;
    int restores = lp__rt_pf.overflow == 0;
    lp_pf_pop(&lp__rt_pf);
    lp__rt_cnt_regate_self();
    return empty || !restores ? -1 : 0;
}

int lp_rt_flush(void)
{
    if (!lp__rt.enabled)
        return LP_RT_EDISABLED;
    pthread_mutex_lock(&lp__rt.lock);
    int rc = lp__rt_dump(LP__RT_DUMP_API, 0, lp__rt_daemon_profiles);
    pthread_mutex_unlock(&lp__rt.lock);
    return rc ? LP_RT_EIO : 0;
}
