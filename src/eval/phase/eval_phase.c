/* lowprof eval phase: the remote-profiling paper's evaluation of phase-aware
 * sampling (sections 5.3 and 5.4, Figs. 10-15) on the workload suite.
 *
 * Gets one interval matrix per workload (reusing those already in the
 * results folder, else recording them with `lowprof workloads`, spawned as
 * a child so recording stays in one place), then runs every strategy
 * offline in this process (eval_phase_sweep.c) and writes the tables,
 * plots and the check of the paper's claims (eval_phase_out.c). Tuned for:
 * recording dominates; each workload's sweep of about 1500 runs takes
 * seconds. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lowprof/host.h"
#include "eval_phase.h"
#include "lowprof/suite.h"

const char lp_eval_phase_help[] =
    "usage: lowprof eval phase [--full] [--out DIR] [--workloads LIST] [--matrices DIR]\n"
    "       lowprof eval phase --check-online RECORDING.lpprof MATRIX.lpim\n"
    "\n"
    "Evaluates interval-granular sampling strategies offline on the interval\n"
    "matrices of the workload suite (remote-profiling paper, Figs. 10-15):\n"
    "exhaustive; periodic every N-th interval (N from 3 to 100, every offset);\n"
    "random with probability 1/P (10 seeds each); phase-aware over a sweep of\n"
    "similarity thresholds with the first, third, random and centroid\n"
    "representatives under an oracle, the third under the last, Markov and\n"
    "run-length predictors, and lowprof's refine policy (every phase at once,\n"
    "more samples where a phase strays) under the oracle and all three\n"
    "predictors. Errors are the code-region, method and call-pair count\n"
    "errors and the hot-branch, hot-method and hot-call-pair errors (top\n"
    "15 %), against percent of the program sampled; the targets are judged\n"
    "on code regions. Costs at 5 % error include At End and Interleaved\n"
    "transmission priced with the StrongARM energy model.\n"
    "\n"
    "Matrices: with --matrices, every DIR/NAME.lpim (or those named by\n"
    "--workloads). Otherwise DIR/recordings-SIZE-LEN/NAME.lpim (LEN the interval\n"
    "length: 1M for small, 10M for full), recorded with\n"
    "`lowprof workloads --size SIZE` when missing and reused when present.\n"
    "\n"
    "Options:\n"
    "  --full            the full data set (default: small, every workload)\n"
    "  --out DIR         results folder [results/eval-phase]\n"
    "  --workloads LIST  comma-separated workload names [all of the size]\n"
    "  --matrices DIR    evaluate the matrices in DIR instead of recording\n"
    "  --check-online RECORDING MATRIX\n"
    "                    re-run the daemon configuration of RECORDING (made with\n"
    "                    lowprof record --strategy) offline over MATRIX, an\n"
    "                    exhaustive recording of the same program, and compare\n"
    "                    the estimates and the phase trace\n"
    "\n"
    "Writes CSV and Markdown tables, gnuplot scripts and SVG plots (when\n"
    "gnuplot is installed) and summary.md under DIR; see doc/eval-phase.md.\n"
    "\n"
    "Exit status: 0 done (or agreement), 1 failure (or disagreement), 2 bad\n"
    "command line.\n";

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* True if name is one of the comma-separated names of list (NULL: every
 * name is). */
static int listed(const char *list, const char *name)
{
    if (!list)
        return 1;
    size_t n = strlen(name);
    const char *p = strstr(list, name);
    for (; p; p = strstr(p + 1, name))
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

/* A workload to evaluate: its name and matrix. */
typedef struct ep_source {
    char name[64];
    char path[PATH_MAX];
} ep_source;

static int sources_add(ep_source **s, size_t *n, const char *name, const char *dir)
{
    ep_source *p = realloc(*s, (*n + 1) * sizeof **s);
    if (!p)
        return -1;
    *s = p;
    snprintf(p[*n].name, sizeof p[*n].name, "%s", name);
    if (snprintf(p[*n].path, sizeof p[*n].path, "%s/%s.lpim", dir, name) >=
        (int)sizeof p[*n].path)
        return -1;
    (*n)++;
    return 0;
}

static int cmp_source(const void *a, const void *b)
{
    return strcmp(((const ep_source *)a)->name, ((const ep_source *)b)->name);
}

/* --matrices DIR: every NAME.lpim there that the list selects, by name. */
static int sources_from_dir(const char *dir, const char *list, ep_source **out, size_t *out_n)
{
    DIR *d = opendir(dir);
    if (!d)
        return lp_host_fail("%s: %s", dir, strerror(errno));
    struct dirent *de;
    int rc = 0;
    while (rc == 0 && (de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len <= 5 || len - 5 >= sizeof(*out)->name || strcmp(de->d_name + len - 5, ".lpim"))
            continue;
        char name[64];
        memcpy(name, de->d_name, len - 5);
        name[len - 5] = '\0';
        if (listed(list, name) && sources_add(out, out_n, name, dir) != 0)
            rc = lp_host_fail("out of memory or path too long in %s", dir);
    }
    closedir(d);
    if (rc == 0 && *out_n == 0)
        rc = lp_host_fail("%s: no interval matrix (*.lpim)%s", dir, list ? " of those named" : "");
    if (rc == 0)
        qsort(*out, *out_n, sizeof **out, cmp_source);
    return rc;
}

/* The suite's workloads of size that list selects, each recorded into dir
 * unless its matrix is already there. */
static int sources_from_suite(const char *size, const char *list, const char *dir,
                              ep_source **out, size_t *out_n, double *out_seconds)
{
    lp_wl_manifest m;
    if (lp_wl_manifest_load(LP_WL_MANIFEST, &m) != 0)
        return 1;
    char missing[4096] = "";
    size_t mlen = 0;
    int rc = 0;
    for (size_t i = 0; i < m.count && rc == 0; i++) {
        const lp_wl_entry *e = &m.items[i];
        if (lp_wl_entry_is_prepare(e) || !lp_wl_entry_has_size(e, size) || !listed(list, e->name))
            continue;
        if (sources_add(out, out_n, e->name, dir) != 0) {
            rc = lp_host_fail("out of memory or path too long in %s", dir);
            break;
        }
        if (!file_exists((*out)[*out_n - 1].path)) {
            size_t n = strlen(e->name);
            if (mlen + n + 2 >= sizeof missing) {
                rc = lp_host_fail("too many workloads to record at once");
                break;
            }
            if (mlen)
                missing[mlen++] = ',';
            memcpy(missing + mlen, e->name, n + 1);
            mlen += n;
        }
    }
    lp_wl_manifest_fini(&m);
    if (rc != 0)
        return rc;
    if (*out_n == 0)
        return lp_host_usage("eval phase", "no %s workload named in '%s' (see lowprof workloads "
                                          "--list)", size, list ? list : "");
    for (const char *p = list; p && *p;) { /* every name must exist */
        size_t len = strcspn(p, ",");
        char name[64];
        int found = 0;
        if (len < sizeof name) {
            memcpy(name, p, len);
            name[len] = '\0';
            for (size_t i = 0; i < *out_n && !found; i++)
                found = strcmp((*out)[i].name, name) == 0;
        }
        if (!found)
            return lp_host_usage("eval phase", "no %s workload named '%.*s'", size, (int)len, p);
        p += len + (p[len] == ',');
    }
    *out_seconds = 0;
    if (!mlen) {
        fprintf(stderr, "lowprof eval phase: reusing the matrices in %s\n", dir);
        return 0;
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return lp_host_fail("cannot find this program's own path: %s", strerror(errno));
    self[n] = '\0';
    /* Small programs run 50-200 M instructions: at record's 10 M a single
     * sample would already be 5-14 % of the run, so the small evaluation
     * cuts 1 M-instruction intervals; the full one keeps the paper's 10 M. */
    char *argv[] = {self,  (char *)"workloads", (char *)"--size", (char *)size,
                    (char *)"--only", missing, (char *)"--dir", (char *)dir,
                    (char *)"--interval", (char *)(strcmp(size, "small") == 0 ? "1000000"
                                                                               : "10000000"),
                    NULL};
    fprintf(stderr, "lowprof eval phase: recording %s (%s) with lowprof workloads into %s\n",
            missing, size, dir);
    double t0 = lp_host_now_seconds();
    pid_t pid;
    extern char **environ;
    fflush(NULL);
    int err = posix_spawn(&pid, self, NULL, NULL, argv, environ);
    if (err != 0)
        return lp_host_fail("cannot run %s workloads: %s", self, strerror(err));
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return lp_host_fail("waiting for lowprof workloads: %s", strerror(errno));
    *out_seconds = lp_host_now_seconds() - t0;
    /* A workload that failed is left out; the others are evaluated. */
    size_t k = 0;
    for (size_t i = 0; i < *out_n; i++) {
        if (file_exists((*out)[i].path))
            (*out)[k++] = (*out)[i];
        else
            fprintf(stderr, "lowprof eval phase: %s: not recorded (see %s/%s.log); left out\n",
                    (*out)[i].name, dir, (*out)[i].name);
    }
    *out_n = k;
    if (k == 0)
        return lp_host_fail("no workload was recorded");
    return 0;
}

static int has_program(const char *name)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char buf[PATH_MAX];
    for (const char *p = path; *p;) {
        const char *e = strchr(p, ':');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, name) < (int)sizeof buf &&
            access(buf, X_OK) == 0)
            return 1;
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

int lp_eval_phase(int argc, char **argv)
{
    int full = 0;
    const char *out = "results/eval-phase", *list = NULL, *matrices = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(lp_eval_phase_help, stdout);
            return 0;
        } else if (strcmp(a, "--full") == 0) {
            full = 1;
        } else if (strcmp(a, "--check-online") == 0) {
            if (i + 2 >= argc)
                return lp_host_usage("eval phase", "--check-online needs a recording and a matrix");
            return lp__ep_check_online(argv[i + 1], argv[i + 2]);
        } else if (strcmp(a, "--out") == 0 || strcmp(a, "--workloads") == 0 ||
                   strcmp(a, "--matrices") == 0) {
            if (i + 1 >= argc)
                return lp_host_usage("eval phase", "%s needs a value", a);
            const char **dst = a[2] == 'o' ? &out : a[2] == 'w' ? &list : &matrices;
            *dst = argv[++i];
        } else {
            return lp_host_usage("eval phase", "unknown argument '%s'", a);
        }
    }
    if (matrices && full)
        return lp_host_usage("eval phase", "--full chooses which matrices to record; with "
                                          "--matrices there is nothing to record");
    char dir[PATH_MAX], rec[PATH_MAX + 32];
    if (strcmp(out, "results/eval-phase") == 0 && lp_host_make_dir("results") != 0)
        return lp_host_fail("results: %s", strerror(errno));
    if (lp_host_make_dir(out) != 0 || !realpath(out, dir))
        return lp_host_fail("%s: %s", out, strerror(errno));
    const char *size = full ? "full" : "small";
    snprintf(rec, sizeof rec, "%s/recordings-%s-%s", dir, size, full ? "10M" : "1M");
    ep_source *src = NULL;
    size_t nsrc = 0;
    double rec_seconds = 0;
    int rc = matrices ? sources_from_dir(matrices, list, &src, &nsrc)
                      : (lp_host_make_dir(rec) != 0 ? lp_host_fail("%s: %s", rec, strerror(errno))
                                            : sources_from_suite(size, list, rec, &src, &nsrc,
                                                                 &rec_seconds));
    lp__ep_workload *ws = rc == 0 ? calloc(nsrc, sizeof *ws) : NULL;
    if (rc == 0 && !ws)
        rc = lp_host_fail("out of memory");
    size_t nw = 0;
    double t0 = lp_host_now_seconds();
    for (size_t i = 0; rc == 0 && i < nsrc; i++) {
        lp__ep_workload *w = &ws[nw];
        double t = lp_host_now_seconds();
        if (lp__ep_matrix_load(src[i].path, src[i].name, &w->m) != 0) {
            rc = 1;
            break;
        }
        nw++;
        if (lp__ep_sweep(&w->m, &w->runs) != 0 ||
            lp__ep_settings(&w->runs, &w->settings, &w->nsettings) != 0 ||
            lp__ep_energy(w) != 0) {
            rc = lp_host_fail("%s: the sweep failed", src[i].name);
            break;
        }
        w->seconds = lp_host_now_seconds() - t;
        fprintf(stderr, "lowprof eval phase: %s: %zu intervals, %zu runs in %.1f s\n",
                w->m.name, w->m.n, w->runs.count, w->seconds);
    }
    if (rc == 0) {
        lp__ep_report_opts ro = {.out_dir = dir,
                                 .mode = matrices ? "matrices" : size,
                                 .have_gnuplot = has_program("gnuplot"),
                                 .recording_seconds = rec_seconds};
        fprintf(stderr, "lowprof eval phase: offline evaluation of %zu workloads: %.1f s\n", nw,
                lp_host_now_seconds() - t0);
        rc = lp__ep_report(ws, nw, &ro);
    }
    for (size_t i = 0; i < nw; i++) {
        lp__ep_matrix_fini(&ws[i].m);
        lp__ep_runs_fini(&ws[i].runs);
        lp_free(ws[i].settings);
    }
    free(ws);
    free(src);
    return rc;
}
