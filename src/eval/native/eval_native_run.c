/* lowprof eval native: running. Every configuration of a program runs once
 * per round, in a fixed order, so slow drift of the machine (frequency,
 * other load) spreads over all of them alike; each run's wall time is taken
 * on the monotonic clock around the child, and its checksum line checked.
 * The medians over rounds give the overhead ratios. Then the
 * configurations whose instruction count means something run once under
 * valgrind (cachegrind without the cache simulation; --smc-check=all since
 * the runtime patches the program's text) at a reduced size.
 *
 * The windowed configurations are not counted: their windows are in CPU
 * time, and under valgrind the program runs about 50 times slower, so the
 * share of instructions inside windows says nothing about a native run. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eval_internal.h"
#include "lowprof/suite.h"
#include "eval_native.h"

int lp__en_spawn(char *const *argv, char *const *env, const char *out, const char *err)
{
    size_t nenv = 0;
    while (env && env[nenv])
        nenv++;
    return lp_wl_spawn(argv, env, nenv, 1, NULL, out ? out : "/dev/null",
                             err ? err : "/dev/null", 0);
}

int lp__en_failed(int status, const char *what, const char *note, const char *log)
{
    char why[128];
    return lp_host_fail("%s failed (%s)%s; see %s", what,
                        lp_host_status_text(status, why, sizeof why), note, log);
}

int lp__en_have(const char *tool)
{
    return lp__eval_have_program(tool);
}

/* What one run of a configuration needs: its command and environment, and
 * where its files go. */
typedef struct en_run {
    const char *argv[48];
    char env_buf[2][4400];
    char *env[3];
    char prof[4096];
    char out[4200], err[4200];
    char vg_out[4300];
} en_run;

/* Prepares run of configuration c of p; prefix tells the files of timed
 * runs ("") from those under valgrind ("vg-"). */
static void run_prepare(const lp__en_opts *o, const lp__en_program *p, const lp__en_config *c,
                        int counting, en_run *run)
{
    static const char *const ext[] = {"", ".lpprof", ".gmon", ".profraw", ".cyg", ".perf"};
    snprintf(run->prof, sizeof run->prof, "%s/work/%s%s-%s%s", o->out, counting ? "vg-" : "",
             p->name, c->name, ext[c->output]);
    snprintf(run->out, sizeof run->out, "%s/work/%s%s-%s.stdout", o->out,
             counting ? "vg-" : "", p->name, c->name);
    snprintf(run->err, sizeof run->err, "%s/work/%s%s-%s.stderr", o->out,
             counting ? "vg-" : "", p->name, c->name);
    size_t k = 0, ne = 0;
    if (counting) {
        static const char *const vg[] = {"valgrind", "--tool=cachegrind", "--cache-sim=no",
                                         "--smc-check=all"};
        for (size_t i = 0; i < sizeof vg / sizeof vg[0]; i++)
            run->argv[k++] = vg[i];
        /* A file of the work folder, not /dev/null: tools that replace
         * their output file would replace the device when run as root. */
        snprintf(run->vg_out, sizeof run->vg_out, "--cachegrind-out-file=%s.cg", run->err);
        run->argv[k++] = run->vg_out;
    } else if (c->output == LP__EN_OUT_PERF) {
        static const char *const perf[] = {"perf", "record", "-q",          "-N", "-e",
                                           "cpu-clock", "-F", "4000", "-o"};
        for (size_t i = 0; i < sizeof perf / sizeof perf[0]; i++)
            run->argv[k++] = perf[i];
        run->argv[k++] = run->prof;
        run->argv[k++] = "--";
    }
    run->argv[k++] = p->bin[c->build];
    const char *const *args = counting ? p->count_args : p->args;
    for (size_t i = 0; args[i]; i++)
        run->argv[k++] = args[i];
    run->argv[k] = NULL;
    char hot[32];
    if (c->windowed && o->hot)
        snprintf(hot, sizeof hot, "%u", o->hot);
    else
        snprintf(hot, sizeof hot, "all");
    switch (c->output) {
    case LP__EN_OUT_LOWPROF:
        snprintf(run->env_buf[ne], sizeof run->env_buf[ne], "LOWPROF=%s,hot=%s,out=%s", c->lowprof,
                 hot, run->prof);
        break;
    case LP__EN_OUT_GMON:
        /* gmon.out goes to PREFIX.<pid>, renamed to prof after the run. */
        snprintf(run->env_buf[ne], sizeof run->env_buf[ne], "GMON_OUT_PREFIX=%s", run->prof);
        break;
    case LP__EN_OUT_LLVM:
        snprintf(run->env_buf[ne], sizeof run->env_buf[ne], "LLVM_PROFILE_FILE=%s", run->prof);
        break;
    case LP__EN_OUT_CYG:
        snprintf(run->env_buf[ne], sizeof run->env_buf[ne], "LOWPROF_CYG_OUT=%s", run->prof);
        break;
    default: run->env_buf[ne][0] = '\0'; break;
    }
    if (run->env_buf[ne][0])
        run->env[ne] = run->env_buf[ne], ne++;
    run->env[ne] = NULL;
}

/* Moves the one PREFIX.<pid> file gprof's runtime wrote to PREFIX. */
static void gmon_collect(const char *prefix)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", prefix);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return;
    *slash = '\0';
    const char *base = slash + 1;
    size_t blen = strlen(base);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (strncmp(e->d_name, base, blen) == 0 && e->d_name[blen] == '.') {
            char from[4400];
            snprintf(from, sizeof from, "%s/%s", dir, e->d_name);
            rename(from, prefix);
        }
    if (d)
        closedir(d);
}

/* One run; 0, or 1 after printing why. *out_seconds gets its wall time. */
static int run_once(const lp__en_opts *o, const lp__en_program *p, const lp__en_config *c,
                    int counting, double *out_seconds, char *prof, size_t cap)
{
    en_run run;
    run_prepare(o, p, c, counting, &run);
    if (c->output != LP__EN_OUT_NONE)
        remove(run.prof); /* so a run that writes nothing leaves nothing */
    double t0 = lp_host_now_seconds();
    int st = lp__en_spawn((char **)run.argv, run.env, run.out, run.err);
    *out_seconds = lp_host_now_seconds() - t0;
    if (c->output == LP__EN_OUT_GMON)
        gmon_collect(run.prof);
    snprintf(prof, cap, "%s", c->output == LP__EN_OUT_NONE ? "" : run.prof);
    char line[256], what[160];
    /* Under valgrind, gprof's profiling timer outlives its handler at exit
     * and SIGPROF ends the process after the program's last instruction,
     * in its exit handlers, often before stdout is flushed: the count is
     * complete, the checksum line may be missing. */
    if (counting && c->output == LP__EN_OUT_GMON && st > 0 && WIFSIGNALED(st) &&
        WTERMSIG(st) == SIGPROF)
        return 0;
    snprintf(what, sizeof what, "%s: %s%s", p->name, counting ? "valgrind: " : "", c->name);
    if (st != 0) {
        char note[1200] = "";
        if (c->output == LP__EN_OUT_LOWPROF)
            lp__eval_fault_note(run.prof, note, sizeof note);
        return lp__en_failed(st, what, note, run.err);
    }
    lp__eval_first_line(run.out, line, sizeof line);
    /* The counted size has no checksum in the manifest: the line's shape
     * is checked. */
    size_t n = strlen(p->name);
    int ok = counting ? strncmp(line, p->checksum, n + 10) == 0 : strcmp(line, p->checksum) == 0;
    if (!ok)
        return lp_host_fail("%s: %s printed '%s', not '%s%s' (see %s): the instrumented build "
                           "computes something else",
                           p->name, c->name, line, counting ? "" : p->checksum,
                           counting ? "NAME checksum ..." : "", run.out);
    return 0;
}

/* Instructions of a run under valgrind, from its "I refs:" line. */
static uint64_t refs_of(const char *err)
{
    FILE *f = fopen(err, "r");
    char line[512];
    uint64_t n = 0;
    while (f && fgets(line, sizeof line, f)) {
        char *at = strstr(line, "I   refs:");
        if (!at)
            at = strstr(line, "I refs:");
        if (!at)
            continue;
        for (const char *q = strchr(at, ':') + 1; *q && *q != '\n'; q++)
            if (*q >= '0' && *q <= '9')
                n = n * 10 + (uint64_t)(*q - '0');
    }
    if (f)
        fclose(f);
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(const double *v, size_t n)
{
    double s[128];
    n = n > 128 ? 128 : n;
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    return n == 0 ? 0 : n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* Whether configuration c can run for p in this session. */
static int usable(const lp__en_opts *o, const lp__en_program *p, const lp__en_config *c)
{
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/work/perf-probe.data", o->out);
    static int perf_state; /* 0 unknown, 1 works, -1 does not */
    if (!p->built[c->build] || (c->real && !o->real))
        return 0;
    /* With every method switched on, 100 % of the hot methods is 100 %. */
    if (c->windowed && c->duty == 100 && o->hot == 0)
        return 0;
    if (c->output != LP__EN_OUT_PERF)
        return 1;
    if (perf_state == 0) {
        char *argv[] = {"perf", "record", "-q", "-N", "-e", "cpu-clock", "-o", probe,
                        "--", "true", NULL};
        perf_state = lp__en_have("perf") && lp__en_spawn(argv, NULL, NULL, NULL) == 0 ? 1 : -1;
        if (perf_state < 0)
            lp__en_note("perf record cannot run here (not installed, or "
                        "kernel.perf_event_paranoid refuses): no perf row");
    }
    return perf_state > 0;
}

int lp__en_measure(const lp__en_opts *o, const lp__en_program *p, lp__en_result *r)
{
    double t0 = lp_host_now_seconds();
    for (size_t c = 0; c < lp__en_nconfigs; c++)
        if (usable(o, p, &lp__en_configs[c]) &&
            !(r->cells[c].seconds = calloc(o->rounds, sizeof(double))))
            return lp_host_fail("out of memory");
    for (unsigned round = 0; round < o->rounds; round++) {
        fprintf(stderr, "lowprof eval native: %s: round %u of %u (%.0f s)\n", p->name, round + 1,
                o->rounds, lp_host_now_seconds() - t0);
        for (size_t c = 0; c < lp__en_nconfigs; c++) {
            lp__en_cell *cell = &r->cells[c];
            if (!cell->seconds)
                continue;
            if (run_once(o, p, &lp__en_configs[c], 0, &cell->seconds[round], cell->profile,
                         sizeof cell->profile) != 0)
                return 1;
        }
    }
    for (size_t c = 0; c < lp__en_nconfigs; c++)
        if (r->cells[c].seconds) {
            r->cells[c].ran = 1;
            r->cells[c].median = median(r->cells[c].seconds, o->rounds);
        }
    if (!o->callgrind)
        return 0;
    if (!lp__en_have("valgrind")) {
        lp__en_note("valgrind is not installed: no instruction counts");
        return 0;
    }
    fprintf(stderr, "lowprof eval native: %s: instruction counts under valgrind (%.0f s)\n",
            p->name, lp_host_now_seconds() - t0);
    for (size_t c = 0; c < lp__en_nconfigs; c++) {
        const lp__en_config *cf = &lp__en_configs[c];
        if (!r->cells[c].ran || !cf->counted)
            continue;
        double s;
        char prof[4096], err[4200];
        snprintf(err, sizeof err, "%s/work/vg-%s-%s.stderr", o->out, p->name, cf->name);
        if (run_once(o, p, cf, 1, &s, prof, sizeof prof) != 0) {
            lp__en_note("%s: %s under valgrind failed (see %s): no instruction count", p->name,
                        cf->name, err);
            continue;
        }
        r->cells[c].insns = refs_of(err);
        if (prof[0])
            remove(prof);
        char cg[4300];
        snprintf(cg, sizeof cg, "%s.cg", err);
        remove(cg);
    }
    return 0;
}
