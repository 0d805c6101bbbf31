/* lowprof workloads: prepares the workload suite's inputs, records every
 * workload under the Valgrind front end, and prints the suite's statistics
 * table (the analogue of the papers' benchmark-statistics tables).
 *
 * Each workload is recorded by running this same binary's `record`
 * subcommand as a child process, with the manifest's environment and
 * redirections, so a recording here is exactly what a person would get from
 * `lowprof record` by hand. The statistics are then read back from the files
 * the recording wrote: the profile (instructions, branches, calls,
 * functions, call sites, call pairs) and the interval matrix (intervals,
 * heterogeneity, a provisional phase count).
 *
 * Tuned for: a suite of about fifteen workloads whose recordings take from
 * seconds (small) to tens of minutes (full); nothing here is hot. */
#define _XOPEN_SOURCE 700 /* realpath, and POSIX 2008 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "lowprof/metrics.h"
#include "lowprof/suite.h"

/* Intervals whose signatures are closer than this share a phase in the
 * provisional count below (the phase module will own classification). */
#define WL_PHASE_THRESHOLD 0.1

const char cmd_workloads_help[] =
    "usage: lowprof workloads [--size small|full] [--only NAME[,NAME...]] [--dir DIR]\n"
    "                         [--list] [--manifest FILE]\n"
    "\n"
    "Records the workload suite (real programs from Debian's packages on inputs\n"
    "the project generates) under the Valgrind front end and prints a table of\n"
    "statistics per workload.\n"
    "\n"
    "The first run for a size generates the inputs with lowprof-wlgen into\n"
    "DIR/data and runs the manifest's preparation steps (the encoders that make\n"
    "the decoders' inputs); later runs reuse them while they are current. Each\n"
    "workload NAME is then recorded with `lowprof record` into DIR/NAME.lpprof\n"
    "(profile) and DIR/NAME.lpim (interval matrix, 10 M-instruction intervals\n"
    "unless --interval says otherwise);\n"
    "its messages go to DIR/NAME.log and its outputs to DIR/out. The table is\n"
    "also written to DIR/statistics.tsv.\n"
    "\n"
    "Workloads run in a fixed environment (PATH=/usr/local/bin:/usr/bin:/bin,\n"
    "LC_ALL=C, the manifest's variables, and LOWPROF_VALGRIND,\n"
    "LOWPROF_VGTOOL_DIR, VALGRIND_LIB and TMPDIR if set), so that the same\n"
    "command gives the same instruction count whoever runs it.\n"
    "\n"
    "Options:\n"
    "  --size SIZE     small (about 50-200 M instructions each, for tests) or\n"
    "                  full (1-10 G each) [small]\n"
    "  --only NAMES    record only these workloads (comma-separated)\n"
    "  --interval N    interval length in instructions [10000000]\n"
    "  --dir DIR       results folder [./results/workloads-SIZE]\n"
    "  --list          print the selected workloads and their commands; record\n"
    "                  nothing\n"
    "  --manifest FILE the suite's manifest [the source tree's workloads/suite.tsv]\n"
    "\n"
    "Columns:\n"
    "  instructions    instructions executed (the profile's meta 'instructions')\n"
    "  branches        executions of branches (sum over code regions)\n"
    "  calls           calls executed (sum over call pairs)\n"
    "  functions       distinct functions entered at least once\n"
    "  call-sites      distinct call sites that executed\n"
    "  call-pairs      distinct caller site -> callee pairs\n"
    "  intervals       intervals in the interval matrix\n"
    "  heterogeneity   median over intervals of the distance (half L1 of the\n"
    "                  normalised signatures) between an interval and the whole\n"
    "                  run: 0 is one phase throughout\n"
    "  phases          clusters of interval signatures from leader clustering at\n"
    "                  distance 0.1; a provisional count, not the phase tracker's\n"
    "\n"
    "Exit status: 0 if every workload was recorded, 1 if any failed (the table\n"
    "still lists the others), 2 for a bad command line.\n"
    "\n"
    "Example:\n"
    "  lowprof workloads --only gzip-9,toast\n";

typedef struct wl_stats {
    int ok;
    char note[PATH_MAX + 96]; /* why it failed, or a remark such as an incomplete matrix */
    double seconds;
    uint64_t insns, branches, calls, functions, call_sites, call_pairs, intervals;
    double heterogeneity;
    size_t phases;
} wl_stats;

/* vsnprintf into buf; returns -1 if it did not fit. (A function rather than
 * snprintf at each site, so truncation is checked in one place.) */
/* --interval, passed to every recording (NULL: record's default). */
static const char *wl_interval;

static int fmt(char *buf, size_t cap, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static int fmt(char *buf, size_t cap, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(buf, cap, format, ap);
    va_end(ap);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* ---- statistics -------------------------------------------------------------- */

static int file_source_read(void *ctx, void *buf, size_t size, size_t *out_got)
{
    FILE *f = ctx;
    *out_got = fread(buf, 1, size, f);
    return ferror(f) ? LP_EIO : 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Reads the interval matrix at path into st: intervals, heterogeneity,
 * phases. Returns 0, or -1 after printing the reader's error. */
static int matrix_stats(const char *path, wl_stats *st)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fflush(stdout);
        fprintf(stderr, "lowprof: %s: %s\n", path, strerror(errno));
        return -1;
    }
    lp_source src = {file_source_read, f};
    lp_read_error err;
    memset(&err, 0, sizeof err);
    lp_imatrix_reader *r = NULL;
    int rc = lp_imatrix_reader_open(src, &r, &err);
    if (rc != 0) {
        lp_host_print_read_error(path, rc, &err);
        fclose(f);
        return -1;
    }
    lp_interval iv;
    lp_signature *sigs = NULL;
    size_t n = 0, cap = 0;
    rc = lp_interval_init(&iv);
    while (rc == 0 && (rc = lp_imatrix_reader_next(r, &iv, &err)) == 1) {
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : 256;
            lp_signature *p = realloc(sigs, ncap * sizeof *p);
            if (!p) {
                rc = LP_ENOMEM;
                break;
            }
            sigs = p;
            cap = ncap;
        }
        sigs[n++] = iv.sig;
        rc = 0;
    }
    lp_interval_fini(&iv);
    lp_imatrix_reader_free(r);
    fclose(f);
    if (rc == LP_ETRUNC) {
        /* Every interval before the cut was returned; say so and go on. */
        fmt(st->note, sizeof st->note, "interval matrix ends early");
    } else if (rc != 0) {
        lp_host_print_read_error(path, rc, &err);
        free(sigs);
        return -1;
    }
    st->intervals = n;
    if (n > 0) {
        lp_signature whole;
        memset(&whole, 0, sizeof whole);
        for (size_t i = 0; i < n; i++)
            for (unsigned b = 0; b < LP_SIG_BUCKETS; b++)
                whole.bucket[b] += sigs[i].bucket[b];
        double *d = malloc(n * sizeof *d);
        size_t *leaders = malloc(n * sizeof *leaders);
        if (!d || !leaders) {
            free(d);
            free(leaders);
            free(sigs);
            fprintf(stderr, "lowprof: out of memory\n");
            return -1;
        }
        for (size_t i = 0; i < n; i++)
            d[i] = lp_signature_distance(&sigs[i], &whole);
        qsort(d, n, sizeof *d, cmp_double);
        st->heterogeneity = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
        /* Leader clustering: an interval joins the first phase whose leader
         * is within the threshold, or leads a new phase. */
        size_t nleaders = 0;
        for (size_t i = 0; i < n; i++) {
            size_t k = 0;
            while (k < nleaders &&
                   lp_signature_distance(&sigs[i], &sigs[leaders[k]]) >= WL_PHASE_THRESHOLD)
                k++;
            if (k == nleaders)
                leaders[nleaders++] = i;
        }
        st->phases = nleaders;
        free(d);
        free(leaders);
    }
    free(sigs);
    return 0;
}

static uint64_t parse_u64(const char *s)
{
    if (!s)
        return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    return errno || end == s ? 0 : (uint64_t)v;
}

/* Reads the profile at path into st. Returns 0, or -1 after printing why. */
static int profile_stats(const char *path, wl_stats *st)
{
    lp_profile_set set;
    if (lp_host_load_profile(path, &set) != 0)
        return -1;
    int rc = 0;
    st->insns = parse_u64(lp_meta_get(&set.meta, "instructions"));
    const lp_profile *p = lp_profile_set_find(&set, LP_PROF_CODE_REGION, LP_PHASE_NONE);
    size_t cur = 0;
    const lp_entry *e;
    if (p)
        while ((e = lp_table_next(&p->table, &cur)))
            st->branches += e->v[0];
    p = lp_profile_set_find(&set, LP_PROF_METHOD, LP_PHASE_NONE);
    cur = 0;
    if (p)
        while ((e = lp_table_next(&p->table, &cur)))
            st->functions += e->v[0] > 0;
    p = lp_profile_set_find(&set, LP_PROF_CALL_PAIR, LP_PHASE_NONE);
    if (p) {
        lp_table sites;
        if (lp_table_init(&sites, p->table.count) != 0) {
            rc = -1;
            fprintf(stderr, "lowprof: out of memory\n");
        } else {
            cur = 0;
            while ((e = lp_table_next(&p->table, &cur))) {
                st->calls += e->v[0];
                st->call_pairs++;
                lp_key k = {e->key.a, 0};
                if (!lp_table_upsert(&sites, k)) {
                    rc = -1;
                    fprintf(stderr, "lowprof: out of memory\n");
                    break;
                }
            }
            st->call_sites = sites.count;
            lp_table_fini(&sites);
        }
    }
    const char *complete = lp_meta_get(&set.meta, "complete");
    const char *exit_status = lp_meta_get(&set.meta, "exit-status");
    const char *sig = lp_meta_get(&set.meta, "signal");
    if (complete && strcmp(complete, "yes") != 0) {
        const char *reason = lp_meta_get(&set.meta, "incomplete-reason");
        fmt(st->note, sizeof st->note, "profile incomplete: %s", reason ? reason : "?");
        rc = -1;
    } else if (sig) {
        fmt(st->note, sizeof st->note, "program killed by signal %s", sig);
        rc = -1;
    } else if (exit_status && strcmp(exit_status, "0") != 0) {
        fmt(st->note, sizeof st->note, "program exit status %s", exit_status);
        rc = -1;
    }
    lp_profile_set_fini(&set);
    return rc;
}

/* ---- the command -------------------------------------------------------------- */

/* Records one workload and fills st. Never fails the whole run: a failure
 * is noted in st. */
static void record_one(const char *self, const lp_wl_entry *e, const lp_wl_vars *vars,
                       const char *manifest_path, const char *dir, wl_stats *st)
{
    memset(st, 0, sizeof *st);
    char prof[PATH_MAX], im[PATH_MAX], log[PATH_MAX], out[PATH_MAX];
    if (fmt(prof, sizeof prof, "%s/%s.lpprof", dir, e->name) != 0 ||
        fmt(im, sizeof im, "%s/%s.lpim", dir, e->name) != 0 ||
        fmt(log, sizeof log, "%s/%s.log", dir, e->name) != 0 ||
        fmt(out, sizeof out, "%s/%s.stdout", vars->out, e->name) != 0) {
        fmt(st->note, sizeof st->note, "path too long in %s", dir);
        return;
    }
    lp_wl_command c;
    if (lp_wl_command_expand(e, vars, manifest_path, &c) != 0) {
        fmt(st->note, sizeof st->note, "bad command in the manifest");
        return;
    }
    remove(prof);
    remove(im);
    enum { FIXED = 11 };
    char **argv = calloc(c.argc + FIXED + 1, sizeof *argv);
    if (!argv) {
        lp_wl_command_fini(&c);
        fmt(st->note, sizeof st->note, "out of memory");
        return;
    }
    size_t k = 0;
    argv[k++] = (char *)self;
    argv[k++] = (char *)"record";
    argv[k++] = (char *)"--quiet";
    argv[k++] = (char *)"--out";
    argv[k++] = prof;
    argv[k++] = (char *)"--imatrix";
    argv[k++] = im;
    if (wl_interval) {
        argv[k++] = (char *)"--interval";
        argv[k++] = (char *)wl_interval;
    }
    argv[k++] = (char *)"--";
    for (size_t i = 0; i < c.argc; i++)
        argv[k++] = c.argv[i];
    argv[k] = NULL;
    double t0 = lp_host_now_seconds();
    int status = lp_wl_spawn(argv, e->env, e->nenv, 1, c.stdin_path,
                             c.stdout_path ? c.stdout_path : out, log, 0);
    st->seconds = lp_host_now_seconds() - t0;
    free(argv);
    lp_wl_command_fini(&c);
    if (status != 0) {
        char why[96];
        fmt(st->note, sizeof st->note, "lowprof record failed (%s); see %s",
            lp_host_status_text(status, why, sizeof why), log);
        return;
    }
    int prc = profile_stats(prof, st);
    int mrc = matrix_stats(im, st);
    if (prc != 0 && !st->note[0])
        fmt(st->note, sizeof st->note, "cannot read %s", prof);
    if (mrc != 0 && !st->note[0])
        fmt(st->note, sizeof st->note, "cannot read %s", im);
    st->ok = prc == 0 && mrc == 0;
}

static void print_row(FILE *f, const char *name, const wl_stats *s, int tsv)
{
    if (tsv) {
        fprintf(f, "%s\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%.4f\t%zu\t%.1f\t%s\n", name,
                (unsigned long long)s->insns, (unsigned long long)s->branches,
                (unsigned long long)s->calls, (unsigned long long)s->functions,
                (unsigned long long)s->call_sites, (unsigned long long)s->call_pairs,
                (unsigned long long)s->intervals, s->heterogeneity, s->phases, s->seconds,
                s->ok ? (s->note[0] ? s->note : "ok") : s->note);
        return;
    }
    if (!s->ok && s->insns == 0) {
        fprintf(f, "%-10s  FAILED: %s\n", name, s->note);
        return;
    }
    fprintf(f, "%-10s %13llu %12llu %11llu %9llu %10llu %10llu %9llu %13.3f %6zu%s%s\n", name,
            (unsigned long long)s->insns, (unsigned long long)s->branches,
            (unsigned long long)s->calls, (unsigned long long)s->functions,
            (unsigned long long)s->call_sites, (unsigned long long)s->call_pairs,
            (unsigned long long)s->intervals, s->heterogeneity, s->phases, s->note[0] ? "  " : "",
            s->note);
}

static const char table_header[] =
    "workload    instructions     branches       calls functions call-sites call-pairs "
    "intervals heterogeneity phases\n";
static const char tsv_header[] = "workload\tinstructions\tbranches\tcalls\tfunctions\tcall_sites\t"
                                 "call_pairs\tintervals\theterogeneity\tphases\tseconds\tstatus\n";

/* True if name is in the comma-separated list. */
static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

int cmd_workloads(int argc, char **argv)
{
    if (lp_cli_wants_help("workloads", argc, argv))
        return 0;
    const char *size = "small", *only = NULL, *dir_opt = NULL, *manifest_path = LP_WL_MANIFEST;
    int list = 0;
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *v;
        if ((v = lp_host_opt_value(argc, argv, &i, "--size", &missing)))
            size = v;
        else if ((v = lp_host_opt_value(argc, argv, &i, "--only", &missing)))
            only = v;
        else if ((v = lp_host_opt_value(argc, argv, &i, "--dir", &missing)))
            dir_opt = v;
        else if ((v = lp_host_opt_value(argc, argv, &i, "--interval", &missing))) {
            char *end;
            unsigned long long n = strtoull(v, &end, 10);
            if (!*v || *end || v[0] == '-' || n < 1000)
                return lp_host_usage("workloads", "--interval needs a whole number of at least "
                                                 "1000 instructions, not '%s'", v);
            wl_interval = v;
        }
        else if ((v = lp_host_opt_value(argc, argv, &i, "--manifest", &missing)))
            manifest_path = v;
        else if (missing)
            return lp_host_usage("workloads", "%s needs a value", argv[i]);
        else if (strcmp(argv[i], "--list") == 0)
            list = 1;
        else
            return lp_host_usage("workloads", "unknown argument '%s'", argv[i]);
        if (missing)
            return lp_host_usage("workloads", "%s needs a value", argv[i]);
    }
    if (strcmp(size, "small") != 0 && strcmp(size, "full") != 0)
        return lp_host_usage("workloads", "--size must be small or full, not '%s'", size);

    lp_wl_manifest m;
    if (lp_wl_manifest_load(manifest_path, &m) != 0)
        return 1;
    /* The selection, in manifest order; --only names must all exist. */
    const lp_wl_entry **sel = calloc(m.count + 1, sizeof *sel);
    size_t nsel = 0;
    if (!sel) {
        lp_wl_manifest_fini(&m);
        return lp_host_fail("out of memory");
    }
    for (size_t i = 0; i < m.count; i++) {
        const lp_wl_entry *e = &m.items[i];
        if (!lp_wl_entry_is_prepare(e) && lp_wl_entry_has_size(e, size) &&
            (!only || in_list(only, e->name)))
            sel[nsel++] = e;
    }
    if (only) {
        for (const char *p = only; *p;) {
            const char *e = strchr(p, ',');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            int found = 0;
            for (size_t i = 0; i < nsel && !found; i++)
                found = strlen(sel[i]->name) == len && strncmp(sel[i]->name, p, len) == 0;
            if (!found) {
                int rc = lp_host_usage("workloads", "no %s workload named '%.*s' in %s (see --list)",
                                      size, (int)len, p, manifest_path);
                free(sel);
                lp_wl_manifest_fini(&m);
                return rc;
            }
            if (!e)
                break;
            p = e + 1;
        }
    }
    if (list) {
        for (size_t i = 0; i < nsel; i++) {
            printf("%-10s", sel[i]->name);
            for (size_t k = 0; k < sel[i]->nenv; k++)
                printf(" %s", sel[i]->env[k]);
            for (size_t k = 0; k < sel[i]->nwords; k++)
                printf(" %s", sel[i]->words[k]);
            putchar('\n');
        }
        free(sel);
        lp_wl_manifest_fini(&m);
        return 0;
    }

    int rc = 1;
    char dir_buf[PATH_MAX], dir[PATH_MAX], data[PATH_MAX + 8], out[PATH_MAX + 8], self[PATH_MAX];
    char cc1[PATH_MAX] = "";
    if (!dir_opt) {
        snprintf(dir_buf, sizeof dir_buf, "results/workloads-%s", size);
        dir_opt = dir_buf;
    }
    if (lp_wl_make_dirs(dir_opt) != 0 || !realpath(dir_opt, dir)) {
        lp_host_fail("%s: %s", dir_opt, strerror(errno));
        goto done;
    }
    fmt(data, sizeof data, "%s/data", dir); /* sizes leave room */
    fmt(out, sizeof out, "%s/out", dir);
    if (lp_wl_make_dirs(data) != 0 || lp_wl_make_dirs(out) != 0) {
        lp_host_fail("%s: %s", dir, strerror(errno));
        goto done;
    }
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        lp_host_fail("cannot find this program's own path (/proc/self/exe): %s", strerror(errno));
        goto done;
    }
    self[n] = '\0';
    int need_cc1 = 0;
    for (size_t i = 0; i < m.count; i++)
        for (size_t k = 0; k < m.items[i].nwords; k++)
            if (strstr(m.items[i].words[k], "{cc1}") && lp_wl_entry_has_size(&m.items[i], size))
                need_cc1 = need_cc1 || lp_wl_entry_is_prepare(&m.items[i]) ||
                           (!only || in_list(only, m.items[i].name));
    if (lp_wl_find_cc1(cc1, sizeof cc1) != 0 && need_cc1) {
        lp_host_fail("cannot find cc1 (`gcc -print-prog-name=cc1`); install gcc");
        goto done;
    }
    lp_wl_vars vars = {data, out, LP_WL_DRIVERS_DIR, cc1};
    if (lp_wl_prepare(&m, manifest_path, size, &vars, dir, "lowprof workloads", 0) != 0)
        goto done;

    wl_stats *stats = calloc(nsel ? nsel : 1, sizeof *stats);
    if (!stats) {
        lp_host_fail("out of memory");
        goto done;
    }
    size_t failed = 0;
    for (size_t i = 0; i < nsel; i++) {
        fprintf(stderr, "lowprof workloads: [%zu/%zu] %s (%s): recording...\n", i + 1, nsel,
                sel[i]->name, size);
        record_one(self, sel[i], &vars, manifest_path, dir, &stats[i]);
        if (stats[i].ok)
            fprintf(stderr, "lowprof workloads: [%zu/%zu] %s: %.1f M instructions in %.0f s\n",
                    i + 1, nsel, sel[i]->name, (double)stats[i].insns / 1e6, stats[i].seconds);
        else
            fprintf(stderr, "lowprof workloads: [%zu/%zu] %s: FAILED: %s\n", i + 1, nsel,
                    sel[i]->name, stats[i].note);
        failed += !stats[i].ok;
    }
    fputs(table_header, stdout);
    for (size_t i = 0; i < nsel; i++)
        print_row(stdout, sel[i]->name, &stats[i], 0);
    char tsv[PATH_MAX + 32];
    fmt(tsv, sizeof tsv, "%s/statistics.tsv", dir);
    FILE *f = fopen(tsv, "w");
    if (f) {
        fputs(tsv_header, f);
        for (size_t i = 0; i < nsel; i++)
            print_row(f, sel[i]->name, &stats[i], 1);
    }
    if (!f || fclose(f) != 0)
        lp_host_fail("%s: %s", tsv, strerror(errno));
    free(stats);
    if (failed)
        lp_host_fail("%zu of %zu workloads failed", failed, nsel);
    rc = failed ? 1 : 0;
done:
    free(sel);
    lp_wl_manifest_fini(&m);
    return rc;
}
