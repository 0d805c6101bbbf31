/* lowprof eval pgo: running. One run is a child of this process alone, so
 * the growth of RUSAGE_CHILDREN across its wait is its CPU time (its own
 * descendants included: valgrind under `lowprof record`). Run time is CPU
 * time, as bench/rt_overhead.sh measures it, so that the time other jobs
 * on a shared machine take is left out; user and system time together,
 * since the kernel splits a run's time between the two by ticks, and a
 * run of a few milliseconds can show no user time at all. The timed rounds
 * rotate the order of the builds, so drift of the machine does not always
 * fall on the same one. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "eval_pgo.h"
#include "../native/eval_native.h"
#include "lowprof/host.h"

const char *const lp__pg_timed_name[LP__PG_NTIMED] = {"plain", "instr", "vg", "rt", "collect"};

static double seconds_of(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* Whether the files at a and b hold the same bytes. */
static int same_file(const char *a, const char *b)
{
    FILE *f = fopen(a, "rb"), *g = fopen(b, "rb");
    int same = f && g;
    char x[65536], y[65536];
    while (same) {
        size_t n = fread(x, 1, sizeof x, f), m = fread(y, 1, sizeof y, g);
        same = n == m && memcmp(x, y, n) == 0;
        if (n == 0)
            break;
    }
    if (f)
        fclose(f);
    if (g)
        fclose(g);
    return same;
}

int lp__pg_run(char *const *argv, char *const *env, const char *log, const char *want, double *cpu,
               char *why, size_t cap)
{
    char out[4200], err[4200];
    snprintf(out, sizeof out, "%s.out", log);
    snprintf(err, sizeof err, "%s.err", log);
    struct rusage before, after;
    getrusage(RUSAGE_CHILDREN, &before);
    int st = lp__en_spawn(argv, env, out, err);
    getrusage(RUSAGE_CHILDREN, &after);
    *cpu = seconds_of(after.ru_utime) - seconds_of(before.ru_utime) + seconds_of(after.ru_stime) -
           seconds_of(before.ru_stime);
    if (st != 0) {
        char text[128];
        snprintf(why, cap, "%.200s failed (%s); see %.250s", argv[0],
                 lp_host_status_text(st, text, sizeof text), err);
        return 1;
    }
    if (!want)
        return 0;
    if (want[0] == '/') {
        if (!same_file(out, want)) {
            snprintf(why, cap,
                     "%.150s wrote other output than the plain build (%.150s, not %.150s)", argv[0],
                     out, want);
            return 1;
        }
        return 0;
    }
    char line[256];
    lp__eval_first_line(out, line, sizeof line);
    size_t len = strlen(want);
    if (len > 0 && want[len - 1] == ' ' ? strncmp(line, want, len) != 0 : strcmp(line, want) != 0) {
        snprintf(why, cap, "%.150s printed '%.100s', not '%s' (see %.150s)", argv[0], line, want,
                 out);
        return 1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double lp__pg_median(const double *v, size_t n)
{
    if (n == 0)
        return NAN;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return NAN;
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    free(s);
    return m;
}

void lp__pg_runtime_env(const lp__pg_opts *o, const char *out, char *buf, size_t cap)
{
    snprintf(buf, cap, "LOWPROF=strategy=periodic,duty=%u,profiles=call-graph,block,out=%s",
             o->duty, out);
}

int lp__pg_measure(const lp__pg_opts *o, lp__pg_program *p)
{
    for (unsigned b = 0; b < LP__PG_NTIMED; b++)
        if (!(p->seconds[b] = calloc(o->rounds, sizeof(double)))) {
            snprintf(p->why, sizeof p->why, "out of memory");
            return 1;
        }
    char env_buf[4400], out[4300];
    lp__eval_pathf(out, sizeof out, "%s/collect.lpprof", p->work);
    lp__pg_runtime_env(o, out, env_buf, sizeof env_buf);
    char *collect_env[] = {env_buf, NULL};
    /* Round 0 runs plain first, so its output is there to compare with. */
    char reference[4400];
    lp__eval_pathf(reference, sizeof reference, "%s/time-plain.out", p->work);
    for (unsigned r = 0; r < o->rounds; r++) {
        fprintf(stderr, "lowprof eval pgo: %s: round %u of %u\n", p->name, r + 1, o->rounds);
        for (unsigned k = 0; k < LP__PG_NTIMED; k++) {
            unsigned b = (k + r) % LP__PG_NTIMED;
            const char *argv[16];
            size_t a = 0;
            argv[a++] = b == LP__PG_COLLECT ? p->helper[LP__PG_RTB] : p->bin[b];
            for (size_t i = 0; p->measure[i] && a < 15; i++)
                argv[a++] = p->measure[i];
            argv[a] = NULL;
            char log[4400];
            lp__eval_pathf(log, sizeof log, "%s/time-%s", p->work, lp__pg_timed_name[b]);
            if (lp__pg_run((char **)argv, b == LP__PG_COLLECT ? collect_env : NULL, log,
                           !p->by_output       ? p->measure_sum
                           : b == LP__PG_PLAIN ? NULL
                                               : reference,
                           &p->seconds[b][r], p->why, sizeof p->why))
                return 1;
        }
    }
    for (unsigned b = 0; b < LP__PG_NTIMED; b++)
        p->median[b] = lp__pg_median(p->seconds[b], o->rounds);
    return 0;
}
