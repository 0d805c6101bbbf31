/* lowprof eval native: the command. Reads the options and the native
 * programs (workloads/native/suite.tsv), then per program builds the
 * variants (eval_native_build.c), times them and counts their instructions
 * (eval_native_run.c), compares their profiles (eval_native_acc.c), and at
 * the end writes the tables and the summary (eval_native_out.c). The
 * configurations and the notes they all read are eval_native_conf.c's, so
 * calls go one way: from here down to the parts, and from the parts to the
 * configurations. See doc/eval-native.md for what the figures mean.
 *
 * Tuned for: six programs of 1-3 s each and about 16 configurations, five
 * rounds: twenty minutes or so; --size small runs in seconds. */
#define _GNU_SOURCE /* realpath, strdup */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lowprof/host.h"
#include "eval_native.h"
#include "lowprof/report.h"
#include "lowprof/suite.h"

static const char cmd[] = "eval native";

/* ---- programs ---- */

/* A sixteenth of each program's default size, for the instruction counts
 * (valgrind runs about 50 times slower); the figures of
 * bench/rt_overhead.sh. */
static const struct {
    const char *name, *arg;
} count_size[] = {{"interp", "56"}, {"compress", "768"}, {"json", "44"},
                  {"graph", "135"}, {"raytrace", "64"},  {"mtsort", "500"}};

/* Splits s at spaces in place into out (at most cap - 1 words, NULL
 * terminated); "-" is no word. Returns -1 when there are too many. */
static int split_words(char *s, const char **out, size_t cap)
{
    size_t n = 0;
    for (char *w = strtok(s, " "); w; w = strtok(NULL, " ")) {
        if (strcmp(w, "-") == 0)
            continue;
        if (n + 1 >= cap)
            return -1;
        out[n++] = w;
    }
    out[n] = NULL;
    return 0;
}

/* Makes the source paths absolute: each word gets the folder in front. */
static int prefix_sources(lp__en_program *p, const char *dir)
{
    for (size_t i = 0; p->sources[i]; i++) {
        char *abs = malloc(strlen(dir) + strlen(p->sources[i]) + 2);
        if (!abs)
            return -1;
        sprintf(abs, "%s/%s", dir, p->sources[i]);
        p->sources[i] = abs;
    }
    return 0;
}

static void program_fini(lp__en_program *p)
{
    for (size_t i = 0; p->sources[i]; i++)
        free((char *)p->sources[i]);
    free(p->count_text);
}

/* One manifest line into *p, or 1 after printing why. */
static int program_parse(const lp__en_opts *o, const char *dir, const char *manifest,
                         unsigned lineno, char *line, lp__en_program *p)
{
    char *f[7];
    size_t nf = 0;
    for (char *q = line; q && nf < 7; nf++)
        f[nf] = strsep(&q, "\t");
    if (nf != 7 || strlen(f[0]) >= sizeof p->name)
        return lp_host_fail("%s:%u: expected 7 tab-separated fields", manifest, lineno);
    int full = strcmp(o->size, "default") == 0;
    snprintf(p->name, sizeof p->name, "%s", f[0]);
    snprintf(p->checksum, sizeof p->checksum, "%s checksum %s", f[0], f[full ? 5 : 6]);
    const char *count = f[4]; /* the small size, unless a sixteenth is known */
    for (size_t i = 0; full && i < sizeof count_size / sizeof count_size[0]; i++)
        if (strcmp(count_size[i].name, f[0]) == 0)
            count = count_size[i].arg;
    char *count_copy = strdup(count);
    int bad = !count_copy || split_words(f[1], p->sources, 32) || split_words(f[2], p->link, 8) ||
              split_words(f[full ? 3 : 4], p->args, 8) ||
              split_words(count_copy, p->count_args, 8);
    if (bad || prefix_sources(p, dir)) {
        free(count_copy);
        return lp_host_fail("%s:%u: too many words, or out of memory", manifest, lineno);
    }
    p->count_text = count_copy; /* the other words point into the caller's line */
    return 0;
}

/* One manifest line into the program table (lp__eval_native_suite's fn). */
typedef struct lp__en_load {
    const lp__en_opts *o;
    lp__en_program *ps;
} lp__en_load;

static int program_take(void *ctx, const char *dir, const char *manifest, unsigned lineno,
                        char *line, size_t i)
{
    lp__en_load *l = ctx;
    return program_parse(l->o, dir, manifest, lineno, line, &l->ps[i]);
}

/* Reads the manifest into *out; the lines are kept in *out_text. */
static int programs_load(const lp__en_opts *o, lp__en_program **out, size_t *out_n,
                         char **out_text)
{
    lp__en_load l = {o, calloc(16, sizeof *l.ps)};
    *out = l.ps;
    *out_n = 0;
    *out_text = NULL;
    if (!l.ps)
        return lp_host_fail("out of memory");
    int rc = lp__eval_native_suite(cmd, o->programs, NULL, 16, program_take, &l, out_text, out_n);
    return rc ? rc : *out_n ? 0 : lp_host_usage(cmd, "--programs: no program selected");
}

/* ---- command line ---- */

static const char help[] =
    "usage: lowprof eval native [--programs LIST] [--rounds N] [--size default|small]\n"
    "                           [--hot N] [--loops one|two] [--no-callgrind] [--no-real]\n"
    "                           [--out DIR]\n"
    "\n"
    "The profile-flags paper's Tables IV-VI on the native runtime: overhead,\n"
    "accuracy and estimated totals (against the exhaustive profile's) of\n"
    "call-graph and block profiles switched on 0, 10, 25, 50 and 100 %\n"
    "of the time (and the phase strategy), against gcc -pg, clang\n"
    "-fprofile-instr-generate, -finstrument-functions with a counting hook and\n"
    "perf record, on the native programs of workloads/native.\n"
    "\n"
    "  --programs LIST   comma-separated programs of workloads/native/suite.tsv [all]\n"
    "  --rounds N        timing rounds, each running every configuration once [5]\n"
    "  --size S          the programs' size: default or small [default]\n"
    "  --hot N|all       methods the windowed configurations switch on: the N\n"
    "                    hottest (the paper's runtime: 10), or all, the\n"
    "                    runtime's default [all]\n"
    "  --loops one|two   lowprof cc --loops of the runtime's builds: the copies'\n"
    "                    loops as compiled, or in two versions [one]\n"
    "  --no-callgrind    no instruction counts under valgrind\n"
    "  --no-real         no real profilers (gprof, llvm, -finstrument-functions, perf)\n"
    "  --out DIR         results folder [results/eval-native]\n"
    "\n"
    "Writes overhead.csv, runs.csv, accuracy.csv and native.md under DIR (the\n"
    "binaries and profiles under DIR/work) and prints a summary with the\n"
    "paper's figures and the targets; see doc/eval-native.md.\n";

static int parse_args(int argc, char **argv, lp__en_opts *o)
{
    o->out = "results/eval-native";
    o->size = "default";
    o->rounds = 5;
    o->hot = 0; /* all */
    o->callgrind = 1;
    o->real = 1;
    o->loops = "one";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int missing = 0;
        uint64_t n;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(help, stdout);
            return -1;
        } else if (strcmp(a, "--no-callgrind") == 0) {
            o->callgrind = 0;
        } else if (strcmp(a, "--no-real") == 0) {
            o->real = 0;
        } else if ((v = lp_host_opt_value(argc, argv, &i, "--loops", &missing)) != NULL) {
            if (strcmp(v, "one") != 0 && strcmp(v, "two") != 0)
                return lp_host_usage(cmd, "--loops: one or two, not '%s'", v);
            o->loops = v;
        } else if ((v = lp_host_opt_value(argc, argv, &i, "--programs", &missing)) != NULL) {
            o->programs = v;
        } else if ((v = lp_host_opt_value(argc, argv, &i, "--out", &missing)) != NULL) {
            o->out = v;
        } else if ((v = lp_host_opt_value(argc, argv, &i, "--size", &missing)) != NULL) {
            if (strcmp(v, "default") != 0 && strcmp(v, "small") != 0)
                return lp_host_usage(cmd, "--size: default or small, not '%s'", v);
            o->size = v;
        } else if ((v = lp_host_opt_value(argc, argv, &i, "--rounds", &missing)) != NULL) {
            if (lp_host_parse_count(v, &n) != 0 || n < 1 || n > 100)
                return lp_host_usage(cmd, "--rounds: a count from 1 to 100, not '%s'", v);
            o->rounds = (unsigned)n;
        } else if ((v = lp_host_opt_value(argc, argv, &i, "--hot", &missing)) != NULL) {
            if (strcmp(v, "all") == 0)
                n = 0;
            else if (lp_host_parse_count(v, &n) != 0 || n < 1 || n > 100000)
                return lp_host_usage(cmd, "--hot: all or a count from 1 to 100000, not '%s'", v);
            o->hot = (unsigned)n;
        } else {
            return lp_host_usage(cmd, missing ? "%s needs a value" : "unknown argument '%s'", a);
        }
        if (missing)
            return lp_host_usage(cmd, "%s needs a value", a);
    }
    return 0;
}

/* n results with room for every configuration, accuracies not measured. */
static int results_new(size_t n, lp__en_result **out)
{
    lp__en_result *rs = *out = calloc(n, sizeof *rs);
    for (size_t i = 0; rs && i < n; i++) {
        rs[i].cells = calloc(lp__en_nconfigs, sizeof *rs[i].cells);
        rs[i].acc = calloc(lp__en_nconfigs, sizeof *rs[i].acc);
        if (!rs[i].cells || !rs[i].acc)
            return lp_host_fail("out of memory");
        for (size_t c = 0; c < lp__en_nconfigs; c++)
            for (size_t k = 0; k < LP__EN_NACC; k++)
                rs[i].acc[c].pct[k] = NAN;
    }
    return rs ? 0 : lp_host_fail("out of memory");
}

int lp_eval_native(int argc, char **argv)
{
    lp__en_opts o;
    memset(&o, 0, sizeof o);
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    ssize_t len = readlink("/proc/self/exe", o.self, sizeof o.self - 1);
    if (len <= 0)
        return lp_host_fail("cannot find this program's own path (/proc/self/exe): %s",
                           strerror(errno));
    o.self[len] = '\0';
    if (!lp__en_have("clang"))
        return lp_host_fail("eval native needs clang");
    char dir[PATH_MAX], work[PATH_MAX + 8];
    if (strcmp(o.out, "results/eval-native") == 0 && lp_host_make_dir("results") != 0)
        return lp_host_fail("results: %s", strerror(errno));
    if (lp_host_make_dir(o.out) != 0 || !realpath(o.out, dir))
        return lp_host_fail("%s: %s", o.out, strerror(errno));
    o.out = dir;
    snprintf(work, sizeof work, "%s/work", dir);
    if (lp_host_make_dir(work) != 0)
        return lp_host_fail("%s: %s", work, strerror(errno));

    lp__en_program *ps = NULL;
    size_t n = 0;
    char *text = NULL;
    rc = programs_load(&o, &ps, &n, &text);
    lp__en_result *rs = NULL;
    if (rc == 0)
        rc = results_new(n, &rs);
    int failed = 0;
    double t0 = lp_host_now_seconds();
    for (size_t i = 0; rc == 0 && i < n; i++) {
        lp__en_result *r = &rs[i];
        fprintf(stderr, "lowprof eval native: %s: building (%.0f s so far)\n", ps[i].name,
                lp_host_now_seconds() - t0);
        if (lp__en_build(&o, &ps[i]) != 0 || lp__en_measure(&o, &ps[i], r) != 0) {
            failed = 1;
            continue;
        }
        lp__en_accuracy(&o, &ps[i], r);
        r->ok = 1;
    }
    if (rc == 0) {
        fprintf(stderr, "lowprof eval native: done in %.0f s\n", lp_host_now_seconds() - t0);
        rc = lp__en_write(&o, ps, rs, n);
    }
    for (size_t i = 0; rs && i < n; i++) {
        for (size_t c = 0; rs[i].cells && c < lp__en_nconfigs; c++)
            free(rs[i].cells[c].seconds);
        free(rs[i].cells);
        free(rs[i].acc);
    }
    for (size_t i = 0; i < n; i++)
        program_fini(&ps[i]);
    free(ps);
    free(rs);
    free(text);
    return rc ? rc : failed;
}
