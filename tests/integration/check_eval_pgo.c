/* `lowprof eval pgo` in its small mode on two native programs, one round:
 * pgo.csv and pgo.md exist with their columns; every build ran and printed
 * the program's known checksum for the small input (workloads/native/
 * suite.tsv), and the training runs, on a sixteenth of the default input,
 * a checksum line for it; clang took the instrumentation profile
 * and both llvm-sample exports without a warning, and llvm-profdata reads
 * the exports; recording under Valgrind costs more than the plain run;
 * the cost model ran each build under cachegrind.
 *
 * Skips (77) when clang, llvm-profdata, Valgrind or the Valgrind tool is
 * missing.
 * usage: check_eval_pgo LOWPROF NATIVE_SUITE.tsv WORKDIR */
#define _DEFAULT_SOURCE /* strsep, strdup */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../unit/lp_test.h"
#include "lp_itest.h"

static const char *const programs[] = {"compress", "json"};
#define NPROGRAMS (sizeof programs / sizeof programs[0])

/* pgo.csv: a header and rows of plain fields (no quoting). */
typedef struct csv {
    char *names[40];
    size_t ncols;
    char *rows[8][40];
    size_t nrows;
} csv;

static size_t fields(char *line, char **out, size_t cap)
{
    line[strcspn(line, "\r\n")] = '\0';
    size_t n = 0;
    for (char *p = line, *tok; n < cap && (tok = strsep(&p, ",")) != NULL;)
        out[n++] = tok;
    return n;
}

static int csv_load(const char *path, csv *c)
{
    char line[4096];
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: missing\n", path);
        return -1;
    }
    memset(c, 0, sizeof *c);
    if (fgets(line, sizeof line, f))
        c->ncols = fields(strdup(line), c->names, 40);
    while (c->nrows < 8 && fgets(line, sizeof line, f))
        if (fields(strdup(line), c->rows[c->nrows], 40) == c->ncols)
            c->nrows++;
        else
            fprintf(stderr, "%s: a row without %zu fields\n", path, c->ncols);
    fclose(f);
    return 0;
}

static const char *get(const csv *c, size_t r, const char *name)
{
    for (size_t i = 0; i < c->ncols; i++)
        if (strcmp(c->names[i], name) == 0)
            return c->rows[r][i];
    fprintf(stderr, "pgo.csv: no column %s\n", name);
    LP_CHECK(0);
    return "";
}

/* The field as a number; NAN (and a failed check) when empty. */
static double val(const csv *c, size_t r, const char *name)
{
    const char *s = get(c, r, name);
    char *end;
    double v = strtod(s, &end);
    if (s[0] == '\0' || *end != '\0') {
        fprintf(stderr, "pgo.csv row %zu: %s is '%s', not a number\n", r, name, s);
        LP_CHECK(0);
        return NAN;
    }
    return v;
}

/* Whether tool is on PATH; its full path goes to buf (lp_itest_run
 * searches no PATH). */
static int have(const char *tool, char *buf, size_t cap)
{
    const char *path = getenv("PATH");
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(buf, cap, "%.*s/%s", (int)n, p, tool);
        if (access(buf, X_OK) == 0)
            return 1;
        p += n + (p[n] == ':');
    }
    return 0;
}

/* The small input's checksum line of name from the manifest into out. */
static int small_checksum(const char *manifest, const char *name, char *out, size_t cap)
{
    FILE *f = fopen(manifest, "r");
    char line[4096];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        char *fl[7], *p = line;
        size_t n = 0;
        line[strcspn(line, "\r\n")] = '\0';
        while (n < 7 && (fl[n] = strsep(&p, "\t")) != NULL)
            n++;
        if (n == 7 && strcmp(fl[0], name) == 0) {
            snprintf(out, cap, "%s checksum %s", name, fl[6]);
            found = 1;
        }
    }
    if (f)
        fclose(f);
    return found ? 0 : -1;
}

/* path's first line, without its end, into line (empty if unreadable). */
static void first_line(const char *path, char *line, size_t cap)
{
    line[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f) {
        if (!fgets(line, (int)cap, f))
            line[0] = '\0';
        fclose(f);
    }
    line[strcspn(line, "\r\n")] = '\0';
}

/* Whether the first line of path is want. */
static int first_line_is(const char *path, const char *want)
{
    char line[256];
    first_line(path, line, sizeof line);
    if (strcmp(line, want) != 0) {
        fprintf(stderr, "%s: '%s', not '%s'\n", path, line, want);
        return 0;
    }
    return 1;
}

/* Whether path's first line is prefix and 16 hex digits. */
static int first_line_has_checksum(const char *path, const char *prefix)
{
    char line[256];
    first_line(path, line, sizeof line);
    size_t n = strlen(prefix);
    if (strncmp(line, prefix, n) != 0 || strlen(line + n) != 16 ||
        strspn(line + n, "0123456789abcdef") != 16) {
        fprintf(stderr, "%s: '%s', not '%s' and 16 hex digits\n", path, line, prefix);
        return 0;
    }
    return 1;
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: check_eval_pgo LOWPROF NATIVE_SUITE.tsv WORKDIR\n");
        return 2;
    }
    const char *lowprof = argv[1], *manifest = argv[2], *work = argv[3];
    static const char *const tools[] = {"clang", "valgrind", "llvm-profdata"};
    char profdata[4096];
    for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++)
        if (!have(tools[i], profdata, sizeof profdata)) {
            printf("SKIP: %s is not installed\n", tools[i]);
            return 77;
        }
    if (strlen(work) > 3000)
        return 2;
    mkdir(work, 0755);
    char res[3100], log[3200];
    snprintf(res, sizeof res, "%s/results", work);
    snprintf(log, sizeof log, "%s/eval.log", work);
    char *ev[] = {(char *)lowprof, "eval", "pgo",   "--programs", "compress,json",
                  "--rounds",      "1",    "--out", res,          NULL};
    int rc = lp_itest_run(ev, log);
    if (rc != 0) {
        char rec[3300];
        snprintf(rec, sizeof rec, "%s/work/%s/train-vg.err", res, programs[0]);
        if (lp_itest_vgtool_missing(rec)) {
            printf("SKIP: the Valgrind tool is missing (see %s)\n", rec);
            return 77;
        }
        fprintf(stderr, "lowprof eval pgo failed (%d); see %s\n", rc, log);
        return 1;
    }

    char path[3300];
    snprintf(path, sizeof path, "%s/pgo.md", res);
    LP_CHECK(lp_itest_file_has(path, "| compress |"));
    LP_CHECK(lp_itest_file_has(path, "| json |"));
    LP_CHECK(lp_itest_file_has(path, "**median**"));
    LP_CHECK(lp_itest_file_has(path, "Target:"));
    static csv c;
    snprintf(path, sizeof path, "%s/pgo.csv", res);
    LP_CHECK(csv_load(path, &c) == 0);
    LP_CHECK_EQ_U64(c.nrows, NPROGRAMS);
    if (lp_test_failures)
        return lp_test_done();

    static const char *const timed[] = {"plain", "instr", "vg", "rt", "collect"};
    static const char *const trained[] = {"plain", "instr", "rt"};
    static const char *const used[] = {"instr", "vg", "rt"};
    for (size_t r = 0; r < c.nrows; r++) {
        const char *name = get(&c, r, "program");
        LP_CHECK(strcmp(name, programs[r]) == 0);
        LP_CHECK(strcmp(get(&c, r, "ok"), "1") == 0);
        LP_CHECK(strcmp(get(&c, r, "rounds"), "1") == 0);
        char sum[128];
        LP_CHECK(small_checksum(manifest, name, sum, sizeof sum) == 0);
        for (size_t b = 0; b < sizeof timed / sizeof timed[0]; b++) {
            char col[32];
            snprintf(col, sizeof col, "%s_s", timed[b]);
            LP_CHECK(val(&c, r, col) > 0);
            /* Every build ran on the measured (here: small) input and
             * printed the program's checksum. */
            snprintf(path, sizeof path, "%s/work/%s/time-%s.out", res, name, timed[b]);
            LP_CHECK(first_line_is(path, sum));
        }
        /* The training input's size has no checksum in the manifest:
         * its line's shape is checked. */
        char train_sum[128];
        snprintf(train_sum, sizeof train_sum, "%s checksum ", name);
        for (size_t b = 0; b < sizeof trained / sizeof trained[0]; b++) {
            snprintf(path, sizeof path, "%s/work/%s/train-%s.out", res, name, trained[b]);
            LP_CHECK(first_line_has_checksum(path, train_sum));
        }
        for (size_t b = 0; b < sizeof used / sizeof used[0]; b++) {
            char col[32];
            snprintf(col, sizeof col, "speedup_%s", used[b]);
            double s = val(&c, r, col);
            LP_CHECK(s > 0.2 && s < 5);
            snprintf(col, sizeof col, "warnings_%s", used[b]);
            LP_CHECK(strcmp(get(&c, r, col), "0") == 0);
            /* The compiler's own log: no warning about the profile. */
            snprintf(path, sizeof path, "%s/work/%s/%s-%s.log", res, name, name, used[b]);
            LP_CHECK(file_size(path) == 0);
        }
        /* The exports are sample profiles llvm-profdata reads. Valgrind's
         * has a section for the program's main; the runtime's has
         * sections, main's only when its own blocks ran in a window (the
         * windows start at a random moment, and a short run may end in
         * the first one's pause). */
        static const char *const exports[] = {"vg", "rt"};
        for (size_t e = 0; e < 2; e++) {
            char prof[3300], show_log[3400];
            snprintf(prof, sizeof prof, "%s/work/%s/%s.prof.txt", res, name, exports[e]);
            snprintf(show_log, sizeof show_log, "%s/show-%s-%s.log", work, name, exports[e]);
            LP_CHECK(file_size(prof) > 0);
            char *show[] = {profdata, "show", "--sample", "--all-functions", prof, NULL};
            LP_CHECK(lp_itest_run(show, show_log) == 0);
            LP_CHECK(lp_itest_file_has(show_log, e == 0 ? "Function: main:" : "Function: "));
        }
        /* Valgrind costs far more than the plain run; the others are
         * measured. */
        LP_CHECK(val(&c, r, "cost_vg") > 2);
        LP_CHECK(val(&c, r, "cost_instr") > 0);
        LP_CHECK(val(&c, r, "cost_rt") > 0);
        LP_CHECK(val(&c, r, "cost_rt_measured") > 0);
        LP_CHECK(val(&c, r, "train_plain_s") > 0);
        /* The model: each of the four builds ran under cachegrind on the
         * training input and printed its checksum line there; a modelled
         * cycle count is at least the instructions (every instruction is
         * at least one access), and the speedups are the plain build's
         * over each build's. */
        static const char *const modelled[] = {"plain", "instr", "vg", "rt"};
        for (size_t b = 0; b < sizeof modelled / sizeof modelled[0]; b++) {
            char col[32], icol[32];
            snprintf(col, sizeof col, "model_%s", modelled[b]);
            snprintf(icol, sizeof icol, "model_ir_%s", modelled[b]);
            double cycles = val(&c, r, col), insns = val(&c, r, icol);
            LP_CHECK(insns > 1e6 && cycles >= insns);
            snprintf(path, sizeof path, "%s/work/%s/model-%s.out", res, name, modelled[b]);
            LP_CHECK(first_line_has_checksum(path, train_sum));
            if (b > 0) {
                snprintf(col, sizeof col, "model_speedup_%s", modelled[b]);
                double s = val(&c, r, col);
                LP_CHECK(fabs(s - val(&c, r, "model_plain") / cycles) < 1e-3 * s);
            }
        }
    }
    snprintf(path, sizeof path, "%s/pgo.md", res);
    LP_CHECK(lp_itest_file_has(path, "Modelled on the training input"));
    return lp_test_done();
}
