/* `lowprof eval native` on the json program at its small size, one round,
 * no valgrind: the tables exist and hold numbers in range. The 100 %
 * profiles are the reference, so they score 100 against themselves; at
 * 0 % (strategy=never) the call-graph and block profiles are empty, so
 * they score 0 with no entry; every accuracy lies in [0, 100], perf's top-10
 * overlap in [0, 10], every run took time and the plain build's ratio is 1.
 * Bad command lines exit 2.
 *
 * Skips (77) without clang, and in sanitizer builds (the programs the eval
 * builds link the runtime archive, which is then sanitized too).
 * usage: check_eval_native LOWPROF WORKDIR SANITIZE */
#define _DEFAULT_SOURCE /* strsep */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../unit/lp_test.h"
#include "lp_itest.h"

/* A CSV file whose fields have no quoting: one record per line. */
typedef struct table {
    char *head[16];
    size_t width;
    char *cell[256][16];
    size_t rows;
} table;

static size_t split(char *line, char **out)
{
    size_t n = 0;
    line[strcspn(line, "\n")] = '\0';
    while (n < 16 && line)
        out[n++] = strsep(&line, ",");
    return n;
}

static int table_read(const char *dir, const char *file, table *t)
{
    char path[4200], buf[2048];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    memset(t, 0, sizeof *t);
    if (!f || !fgets(buf, sizeof buf, f)) {
        fprintf(stderr, "%s: missing or empty\n", path);
        if (f)
            fclose(f);
        return -1;
    }
    t->width = split(strdup(buf), t->head);
    while (t->rows < 256 && fgets(buf, sizeof buf, f))
        LP_CHECK(split(strdup(buf), t->cell[t->rows++]) == t->width);
    fclose(f);
    return 0;
}

/* The field of row r in the named column. */
static const char *field(const table *t, size_t r, const char *column)
{
    for (size_t i = 0; i < t->width; i++)
        if (strcmp(t->head[i], column) == 0)
            return t->cell[r][i] ? t->cell[r][i] : "";
    fprintf(stderr, "no column '%s'\n", column);
    LP_CHECK(0);
    return "";
}

/* The row of (config, profile) in accuracy.csv, or -1. */
static long find(const table *t, const char *config, const char *profile)
{
    for (size_t r = 0; r < t->rows; r++)
        if (strcmp(field(t, r, "config"), config) == 0 &&
            strcmp(field(t, r, "profile"), profile) == 0)
            return (long)r;
    return -1;
}

static int on_path(const char *tool)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
    return system(cmd) == 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: check_eval_native LOWPROF WORKDIR SANITIZE\n");
        return 2;
    }
    const char *lowprof = argv[1], *work = argv[2];
    if (argv[3][0]) {
        printf("SKIP: a sanitizer build (%s): the runtime the programs link is sanitized\n",
               argv[3]);
        return 77;
    }
    if (!on_path("clang")) {
        printf("SKIP: clang is not installed\n");
        return 77;
    }
    if (strlen(work) > 3000)
        return 2;
    char res[3100], log[3200];
    mkdir(work, 0755);
    snprintf(res, sizeof res, "%s/results", work);
    snprintf(log, sizeof log, "%s/usage.log", work);
    char *unknown[] = {(char *)lowprof, "eval", "native", "--programs", "nosuch", "--out", res,
                       NULL};
    LP_CHECK_EQ_U64(lp_itest_run(unknown, log), 2);
    LP_CHECK(lp_itest_file_has(log, "nosuch"));
    char *rounds[] = {(char *)lowprof, "eval", "native", "--rounds", "0", NULL};
    LP_CHECK_EQ_U64(lp_itest_run(rounds, log), 2);
    char *size[] = {(char *)lowprof, "eval", "native", "--size", "huge", NULL};
    LP_CHECK_EQ_U64(lp_itest_run(size, log), 2);

    snprintf(log, sizeof log, "%s/eval.log", work);
    char *ev[] = {(char *)lowprof, "eval",   "native", "--programs", "json", "--size",
                  "small",         "--rounds", "1",    "--no-callgrind", "--out", res,
                  NULL};
    int rc = lp_itest_run(ev, log);
    if (rc != 0) {
        fprintf(stderr, "lowprof eval native failed (%d); see %s\n", rc, log);
        return 1;
    }
    char md[3200];
    snprintf(md, sizeof md, "%s/native.md", res);
    LP_CHECK(lp_itest_file_has(md, "## Summary"));
    LP_CHECK(lp_itest_file_has(md, "### Targets"));
    LP_CHECK(lp_itest_file_has(log, "### Targets")); /* printed too */
    static table ov, acc, runs;
    if (table_read(res, "overhead.csv", &ov) || table_read(res, "accuracy.csv", &acc) ||
        table_read(res, "runs.csv", &runs))
        return 1;

    /* Every lowprof configuration ran; real profilers as far as their
     * tools exist. */
    LP_CHECK(ov.rows >= 12);
    LP_CHECK_EQ_U64(runs.rows, ov.rows); /* one round */
    for (size_t r = 0; r < ov.rows; r++) {
        double s = strtod(field(&ov, r, "median_s"), NULL),
               ratio = strtod(field(&ov, r, "ratio"), NULL);
        LP_CHECK(strcmp(field(&ov, r, "program"), "json") == 0);
        LP_CHECK(s > 0 && s < 60);
        LP_CHECK(ratio > 0);
        if (strcmp(field(&ov, r, "config"), "plain") == 0)
            LP_CHECK(fabs(ratio - 1.0) < 1e-9);
        LP_CHECK(strcmp(field(&ov, r, "insns"), "0") == 0); /* --no-callgrind */
    }

    for (size_t r = 0; r < acc.rows; r++) {
        const char *a = field(&acc, r, "accuracy_pct"), *top = field(&acc, r, "top10_overlap");
        if (strcmp(field(&acc, r, "profile"), "total") == 0) {
            /* The estimate's sum, percent off the exhaustive one: -100 at
             * most (nothing counted), and no row of it anywhere else. */
            const char *off = field(&acc, r, "total_off_pct");
            LP_CHECK(off[0] && strtod(off, NULL) >= -100.0 && !a[0] && !top[0]);
        } else if (a[0]) {
            double v = strtod(a, NULL);
            LP_CHECK(v >= 0.0 && v <= 100.0);
        } else {
            double v = strtod(top, NULL);
            LP_CHECK(top[0] && v >= 0 && v <= 10);
        }
    }
    /* The references score 100 with every entry; 0 % profiles are empty. */
    static const struct {
        const char *config, *profile, *accuracy;
        int empty;
    } fixed[] = {{"cg-100", "method", "100.00", 0}, {"cg-100", "call-graph", "100.00", 0},
                 {"bb-100", "block", "100.00", 0},  {"cg-0", "method", "0.00", 1},
                 {"cg-0", "call-graph", "0.00", 1}, {"bb-0", "block", "0.00", 1}};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        long r = find(&acc, fixed[i].config, fixed[i].profile);
        LP_CHECK(r >= 0);
        if (r < 0)
            continue;
        const char *entries = field(&acc, (size_t)r, "entries");
        LP_CHECK(strcmp(field(&acc, (size_t)r, "accuracy_pct"), fixed[i].accuracy) == 0);
        if (fixed[i].empty)
            LP_CHECK(strcmp(entries, "0") == 0);
        else
            LP_CHECK(atol(entries) > 3 &&
                     strcmp(entries, field(&acc, (size_t)r, "ref_entries")) == 0);
    }
    /* The exhaustive profiles' totals are their own; the 0 % ones count
     * nothing. */
    static const struct {
        const char *config, *off;
    } totals[] = {{"cg-100", "0.00"}, {"bb-100", "0.00"}, {"cg-0", "-100.00"}, {"bb-0", "-100.00"}};
    for (size_t i = 0; i < sizeof totals / sizeof totals[0]; i++) {
        long r = find(&acc, totals[i].config, "total");
        LP_CHECK(r >= 0);
        if (r >= 0)
            LP_CHECK(strcmp(field(&acc, (size_t)r, "total_off_pct"), totals[i].off) == 0);
    }
    /* gcc -pg counts the same program's calls: some agreement, by name. */
    long g = find(&acc, "gprof", "method");
    if (on_path("gcc") && on_path("gprof")) {
        LP_CHECK(g >= 0);
        if (g >= 0)
            LP_CHECK(strtod(field(&acc, (size_t)g, "accuracy_pct"), NULL) > 20.0);
    }
    return lp_test_done();
}
