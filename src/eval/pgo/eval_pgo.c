/* lowprof eval pgo: the command. Reads the options and the native programs
 * (workloads/native/suite.tsv), then per program builds the four ways and
 * makes the profiles (eval_pgo_build.c), times the builds in alternating
 * rounds (eval_pgo_run.c), and at the end writes the tables
 * (eval_pgo_out.c). See doc/eval-pgo.md for what the figures mean.
 *
 * Tuned for: six programs; the small mode (the default) trains on a
 * sixteenth of the default inputs and measures on the small ones in a
 * minute or two, --full measures on the default inputs (1-3 s each) in five
 * rounds, a quarter of an hour. */
#define _GNU_SOURCE /* realpath, strsep */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eval_pgo.h"
#include "../native/eval_native.h"
#include "lowprof/host.h"
#include "lowprof/suite.h"

static const char cmd[] = "eval pgo";

/* ---- programs ---- */

/* Splits s at spaces in place into out (NULL-terminated); "-" is no word.
 * -1 when there are more than cap - 1. */
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

/* A sixteenth of each program's default size (bench/rt_overhead.sh's
 * counted sizes, a tenth of a second or so): the training input of
 * --train large. */
static const struct {
    const char *name, *arg;
} sixteenth[] = {{"interp", "56"}, {"compress", "768"}, {"json", "44"},
                 {"graph", "135"}, {"raytrace", "64"},  {"mtsort", "500"}};

/* One manifest line (name, sources, link, default args, small args, their
 * checksums) into *p; the words point into line. 0, or 1 after printing. */
static int program_parse(const lp__pg_opts *o, const char *dir, const char *manifest,
                         unsigned lineno, char *line, lp__pg_program *p)
{
    char *f[7];
    size_t nf = 0;
    for (char *q = line; q && nf < 7; nf++)
        f[nf] = strsep(&q, "\t");
    if (nf != 7 || strlen(f[0]) >= sizeof p->name)
        return lp_host_fail("%s:%u: expected 7 tab-separated fields", manifest, lineno);
    snprintf(p->name, sizeof p->name, "%s", f[0]);
    snprintf(p->train_sum, sizeof p->train_sum, "%s checksum %s", f[0], f[6]);
    snprintf(p->measure_sum, sizeof p->measure_sum, "%s checksum %s", f[0], f[o->full ? 5 : 6]);
    /* The small arguments are split once and serve both runs when they
     * are the measured ones too. */
    if (split_words(f[1], p->sources, 32) || split_words(f[2], p->link, 8) ||
        split_words(f[4], p->train, 8) || (o->full && split_words(f[3], p->measure, 8)))
        return lp_host_fail("%s:%u: too many words", manifest, lineno);
    if (!o->full)
        memcpy(p->measure, p->train, sizeof p->measure);
    if (!o->train_small) {
        /* The manifest has no checksum for this size: the line's shape is
         * checked (a want ending in a space is a prefix). */
        p->train[0] = NULL;
        for (size_t i = 0; i < sizeof sixteenth / sizeof sixteenth[0]; i++)
            if (strcmp(sixteenth[i].name, p->name) == 0)
                p->train[0] = sixteenth[i].arg, p->train[1] = NULL;
        if (!p->train[0])
            return lp_host_fail("%s:%u: no larger training size known for %s", manifest, lineno,
                                p->name);
        snprintf(p->train_sum, sizeof p->train_sum, "%s checksum ", p->name);
    }
    for (size_t i = 0; p->sources[i]; i++) {
        char *abs = malloc(strlen(dir) + strlen(p->sources[i]) + 2);
        if (!abs)
            return lp_host_fail("out of memory");
        sprintf(abs, "%s/%s", dir, p->sources[i]);
        p->sources[i] = abs;
    }
    return 0;
}

static void program_fini(lp__pg_program *p)
{
    for (size_t i = 0; p->sources[i]; i++)
        free((char *)p->sources[i]);
    for (unsigned b = 0; b < LP__PG_NTIMED; b++)
        free(p->seconds[b]);
}

/* One manifest line into the program table (lp__eval_native_suite's fn). */
typedef struct lp__pg_load {
    const lp__pg_opts *o;
    lp__pg_program *ps;
} lp__pg_load;

static int program_take(void *ctx, const char *dir, const char *manifest, unsigned lineno,
                        char *line, size_t i)
{
    lp__pg_load *l = ctx;
    return program_parse(l->o, dir, manifest, lineno, line, &l->ps[i]);
}

/* --programs may name Debian's bzip2 beside the manifest's programs. */
static int also_bzip2(const char *name, size_t len)
{
    return len == 5 && strncmp(name, "bzip2", 5) == 0;
}

/* Reads the manifest's selected programs into *out (with room for one
 * more, Debian's); their words point into *out_text. 0, or 1/2 after
 * printing why. */
static int programs_load(const lp__pg_opts *o, lp__pg_program **out, size_t *out_n, char **out_text)
{
    lp__pg_load l = {o, calloc(17, sizeof *l.ps)};
    *out = l.ps;
    *out_n = 0;
    *out_text = NULL;
    if (!l.ps)
        return lp_host_fail("out of memory");
    int rc = lp__eval_native_suite(cmd, o->programs, o->debian ? also_bzip2 : NULL, 16,
                                   program_take, &l, out_text, out_n);
    return rc ? rc
           : *out_n || o->debian ? 0
                                 : lp_host_usage(cmd, "--programs: no program selected");
}

/* ---- command line ---- */

static const char help[] =
    "usage: lowprof eval pgo [--full] [--debian] [--programs LIST] [--train small|large]\n"
    "                        [--rounds N] [--duty D] [--loops one|two] [--rt-runs N]\n"
    "                        [--no-model] [--out DIR]\n"
    "\n"
    "Whether lowprof's profiles make faster programs: each native program of\n"
    "workloads/native built with clang -O2 four ways - plain, with instrumentation\n"
    "PGO (-fprofile-instr-generate/-use), and with -fprofile-sample-use of the\n"
    "llvm-sample export of an exhaustive Valgrind recording and of the native\n"
    "runtime's windows (10 % of the time by default) - trained on a tenth of a\n"
    "second's input and timed (CPU time, medians of alternating rounds) against\n"
    "plain.\n"
    "\n"
    "  --full            measure on the default inputs, 5 rounds (else the small\n"
    "                    inputs, 3 rounds)\n"
    "  --debian          also Debian's bzip2, from its source package (apt-get\n"
    "                    source, once, into DIR/cache)\n"
    "  --programs LIST   comma-separated programs of workloads/native/suite.tsv,\n"
    "                    and bzip2 for Debian's [all the native ones]\n"
    "  --train S         the training input: large (a sixteenth of the default size)\n"
    "                    or small (the manifest's small size, milliseconds: often\n"
    "                    too short for the runtime's first window) [large]\n"
    "  --rounds N        timing rounds, each running every build once\n"
    "  --duty D          the runtime's windows, percent of the time, for its\n"
    "                    profile and its collection cost, 1-100 [10]\n"
    "  --loops L         lowprof cc --loops of the runtime's build: one or two\n"
    "                    (loops that leave the counting between windows) [one]\n"
    "  --rt-runs N       the runtime's profile: N training runs (each its own\n"
    "                    windows' random start) merged as a collector merges a\n"
    "                    fleet's runs, 1-32; each run pays the windows' price [5]\n"
    "  --no-model        no cost model: by default each build also runs once\n"
    "                    under cachegrind on the training input, and its\n"
    "                    simulated cache and branch events give modelled cycles,\n"
    "                    whose speedups repeat from run to run\n"
    "  --out DIR         results folder [results/eval-pgo]\n"
    "\n"
    "Writes pgo.csv and pgo.md under DIR (builds, logs and profiles under\n"
    "DIR/work) and prints the table; see doc/eval-pgo.md.\n";

static int parse_args(int argc, char **argv, lp__pg_opts *o)
{
    o->out = "results/eval-pgo";
    o->duty = 10;
    o->rt_runs = 5;
    unsigned rounds = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        int missing = 0;
        uint64_t n;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(help, stdout);
            return -1;
        } else if (strcmp(a, "--full") == 0) {
            o->full = 1;
        } else if (strcmp(a, "--no-model") == 0) {
            o->no_model = 1;
        } else if (strcmp(a, "--debian") == 0) {
            o->debian = 1;
        } else if ((v = lp_host_opt_value(argc, argv, &i, "--programs", &missing)) != NULL) {
            o->programs = v;
        } else if ((v = lp_host_opt_value(argc, argv, &i, "--out", &missing)) != NULL) {
            o->out = v;
        } else if ((v = lp_host_opt_value(argc, argv, &i, "--train", &missing)) != NULL) {
            if (strcmp(v, "small") != 0 && strcmp(v, "large") != 0)
                return lp_host_usage(cmd, "--train: small or large, not '%s'", v);
            o->train_small = strcmp(v, "small") == 0;
        } else if ((v = lp_host_opt_value(argc, argv, &i, "--duty", &missing)) != NULL) {
            if (lp_host_parse_count(v, &n) != 0 || n < 1 || n > 100)
                return lp_host_usage(cmd, "--duty: a percentage from 1 to 100, not '%s'", v);
            o->duty = (unsigned)n;
        } else if ((v = lp_host_opt_value(argc, argv, &i, "--loops", &missing)) != NULL) {
            if (strcmp(v, "one") != 0 && strcmp(v, "two") != 0)
                return lp_host_usage(cmd, "--loops: one or two, not '%s'", v);
            o->loops_two = strcmp(v, "two") == 0;
        } else if ((v = lp_host_opt_value(argc, argv, &i, "--rt-runs", &missing)) != NULL) {
            if (lp_host_parse_count(v, &n) != 0 || n < 1 || n > 32)
                return lp_host_usage(cmd, "--rt-runs: a count from 1 to 32, not '%s'", v);
            o->rt_runs = (unsigned)n;
        } else if ((v = lp_host_opt_value(argc, argv, &i, "--rounds", &missing)) != NULL) {
            if (lp_host_parse_count(v, &n) != 0 || n < 1 || n > 100)
                return lp_host_usage(cmd, "--rounds: a count from 1 to 100, not '%s'", v);
            rounds = (unsigned)n;
        } else {
            return lp_host_usage(cmd, missing ? "%s needs a value" : "unknown argument '%s'", a);
        }
        if (missing)
            return lp_host_usage(cmd, "%s needs a value", a);
    }
    o->rounds = rounds ? rounds : o->full ? 5 : 3;
    /* Naming the Debian program selects it. */
    if (o->programs && lp__eval_listed(o->programs, "bzip2"))
        o->debian = 1;
    return 0;
}

/* The tools every build needs; 1 after naming the first one missing. */
static int tools_present(void)
{
    static const char *const tools[] = {"clang", "llvm-profdata", "valgrind"};
    for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++)
        if (!lp__en_have(tools[i]))
            return lp_host_fail("eval pgo needs %s (not found on PATH)", tools[i]);
    return 0;
}

int lp_eval_pgo(int argc, char **argv)
{
    lp__pg_opts o;
    memset(&o, 0, sizeof o);
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    ssize_t len = readlink("/proc/self/exe", o.self, sizeof o.self - 1);
    if (len <= 0)
        return lp_host_fail("cannot find this program's own path (/proc/self/exe): %s",
                            strerror(errno));
    o.self[len] = '\0';
    if (tools_present() != 0)
        return 1;
    char dir[PATH_MAX];
    if (lp__eval_make_out(o.out, dir) != 0)
        return 1;
    o.out = dir;

    lp__pg_program *ps = NULL;
    size_t n = 0;
    char *text = NULL;
    rc = programs_load(&o, &ps, &n, &text);
    if (rc == 0 && o.debian) { /* programs_load leaves room: it takes at most 16 */
        if (lp__pg_debian(&o, &ps[n]) == 0) {
            n++;
        } else {
            program_fini(&ps[n]);
            rc = 1;
        }
    }
    int failed = 0;
    double t0 = lp_host_now_seconds();
    for (size_t i = 0; rc == 0 && i < n; i++) {
        lp__pg_program *p = &ps[i];
        char work[PATH_MAX + 80];
        if (lp__eval_pathf(work, sizeof work, "%s/work/%s", o.out, p->name) < 0 ||
            lp__eval_make_out(work, p->work) != 0) {
            rc = 1;
            break;
        }
        /* The files of a program are named after its folder with room to
         * spare (lp__eval_pathf would refuse a longer one). */
        if (strlen(p->work) > 3000) {
            rc = lp_host_fail("%s: path too long", p->work);
            break;
        }
        fprintf(stderr, "lowprof eval pgo: %s (%.0f s so far)\n", p->name,
                lp_host_now_seconds() - t0);
        for (unsigned b = 0; b < LP__PG_NTIMED; b++)
            p->model[b] = p->model_ir[b] = NAN;
        if (lp__pg_build(&o, p) != 0 || lp__pg_measure(&o, p) != 0 ||
            (!o.no_model && lp__pg_model(p) != 0)) {
            fprintf(stderr, "lowprof eval pgo: %s: %s\n", p->name, p->why);
            failed = 1;
            continue;
        }
        p->ok = 1;
    }
    if (rc == 0) {
        fprintf(stderr, "lowprof eval pgo: done in %.0f s\n", lp_host_now_seconds() - t0);
        rc = lp__pg_write(&o, ps, n);
    }
    for (size_t i = 0; ps && i < n; i++)
        program_fini(&ps[i]);
    free(ps);
    free(text);
    return rc ? rc : failed;
}
