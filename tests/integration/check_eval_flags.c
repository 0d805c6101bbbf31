/* `lowprof eval flag-prediction` on one small program (flags_prog.c, built
 * by the eval with clang's trace-pc-guard coverage): the tables exist, every
 * accuracy lies in [0, 100] (empty only when no prediction was made), and
 * the counts are consistent: skips <= predictions <= blocks, mispredicted
 * skips <= skips, correct <= predictions, saved <= possible <= profile
 * instructions, every block in every row but the hot-only scope's (fewer),
 * the flag off in every block at 0 % and on in every block at 100 % when
 * the window governs every block (so no entry, no prediction). Always off, every prediction is
 * right and blocks are skipped; windows of 25 % mispredict at their starts. The trace and the
 * recording's profile agree on every guard site's count.
 *
 * Skips (77) when clang or the Valgrind tool is missing.
 * usage: check_eval_flags LOWPROF FLAGS_PROG.c WORKDIR */
#define _DEFAULT_SOURCE /* strsep */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../unit/lp_test.h"
#include "lp_itest.h"

/* One CSV file held as rows of fields (no quoting in these files; empty
 * fields are kept). */
typedef struct csv {
    char *names[32];
    size_t ncols;
    char *rows[64][32];
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

static int csv_load(const char *dir, const char *name, csv *c)
{
    char path[4096], line[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: missing\n", path);
        return -1;
    }
    memset(c, 0, sizeof *c);
    if (fgets(line, sizeof line, f))
        c->ncols = fields(strdup(line), c->names, 32);
    while (c->nrows < 64 && fgets(line, sizeof line, f))
        if (fields(strdup(line), c->rows[c->nrows], 32) == c->ncols)
            c->nrows++;
        else
            fprintf(stderr, "%s: a row without %zu fields\n", path, c->ncols);
    fclose(f);
    return 0;
}

/* Row r's field named name ("" and a failed check if there is none). */
static const char *get(const csv *c, size_t r, const char *name)
{
    for (size_t i = 0; i < c->ncols; i++)
        if (strcmp(c->names[i], name) == 0)
            return c->rows[r][i];
    fprintf(stderr, "no column %s\n", name);
    LP_CHECK(0);
    return "";
}

static unsigned long long num(const csv *c, size_t r, const char *name)
{
    return strtoull(get(c, r, name), NULL, 10);
}

static int have_clang(void)
{
    const char *path = getenv("PATH");
    char buf[4096];
    for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(buf, sizeof buf, "%.*s/clang", (int)n, p);
        if (access(buf, X_OK) == 0)
            return 1;
        p += n + (p[n] == ':');
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: check_eval_flags LOWPROF FLAGS_PROG.c WORKDIR\n");
        return 2;
    }
    const char *lowprof = argv[1], *src = argv[2], *work = argv[3];
    if (!have_clang()) {
        printf("SKIP: clang is not installed\n");
        return 77;
    }
    char res[3100], log[3200];
    if (strlen(work) > 3000)
        return 2;
    mkdir(work, 0755);
    snprintf(res, sizeof res, "%s/results", work);
    snprintf(log, sizeof log, "%s/eval.log", work);
    char *ev[] = {
        (char *)lowprof, "eval", "flag-prediction", "--program", (char *)src, "--out", res,
        "--period",      "100K", "--duties",        "0,25,100",  "--hot",     "1",     NULL};
    int rc = lp_itest_run(ev, log);
    if (rc != 0) {
        /* The recording's own log says why record failed. */
        char rec_log[3300];
        snprintf(rec_log, sizeof rec_log, "%s/traces/flags_prog.log", res);
        if (lp_itest_vgtool_missing(rec_log)) {
            printf("SKIP: the Valgrind tool is missing (see %s)\n", rec_log);
            return 77;
        }
        fprintf(stderr, "lowprof eval flag-prediction failed (%d); see %s\n", rc, log);
        return 1;
    }
    char md[3200];
    snprintf(md, sizeof md, "%s/flags.md", res);
    LP_CHECK(lp_itest_file_has(md, "(hot1-only)"));
    static csv flags, progs, sizes;
    LP_CHECK(csv_load(res, "flags.csv", &flags) == 0);
    LP_CHECK(csv_load(res, "programs.csv", &progs) == 0);
    LP_CHECK(csv_load(res, "sizes.csv", &sizes) == 0);
    if (lp_test_failures)
        return lp_test_done();
    LP_CHECK_EQ_U64(flags.nrows, 9); /* 3 scopes x 3 duties */
    LP_CHECK_EQ_U64(progs.nrows, 1);
    LP_CHECK_EQ_U64(sizes.nrows, 24); /* 2 scopes x 12 shapes */
    unsigned long long blocks = num(&progs, 0, "blocks");
    LP_CHECK(blocks > 100000);
    LP_CHECK(num(&progs, 0, "sites") > 3);
    LP_CHECK_EQ_U64(num(&progs, 0, "unmatched"), 0);
    LP_CHECK_EQ_U64(num(&progs, 0, "profile_disagree"), 0);
    LP_CHECK(strcmp(get(&progs, 0, "truncated"), "no") == 0);
    LP_CHECK(num(&progs, 0, "min_length") >= 4);
    LP_CHECK(num(&progs, 0, "profile_insns") < num(&progs, 0, "instructions"));
    int seen_zero = 0, seen_window = 0;
    for (size_t r = 0; r < flags.nrows; r++) {
        unsigned long long b = num(&flags, r, "blocks"), off = num(&flags, r, "blocks_off"),
                           pred = num(&flags, r, "predictions"), corr = num(&flags, r, "correct"),
                           skips = num(&flags, r, "skips"),
                           mis = num(&flags, r, "mispredicted_skips"),
                           saved = num(&flags, r, "insns_saved"),
                           possible = num(&flags, r, "possible_saved"),
                           pins = num(&flags, r, "profile_insns");
        unsigned duty = (unsigned)num(&flags, r, "duty_pct");
        const char *scope = get(&flags, r, "scope");
        int all = strcmp(scope, "all") == 0, only = strcmp(scope, "hot1-only") == 0;
        const char *acc = get(&flags, r, "accuracy_pct");
        /* Every guard is a block, or only the hot method's. */
        LP_CHECK(only ? b > 0 && b < blocks : b == blocks);
        LP_CHECK(off <= b && pred <= b && skips <= pred && mis <= skips && corr <= pred);
        LP_CHECK(saved <= possible && possible < pins);
        if (pred == 0) {
            LP_CHECK(acc[0] == '\0');
        } else {
            double a = strtod(acc, NULL);
            LP_CHECK(acc[0] != '\0' && a >= 0.0 && a <= 100.0);
            LP_CHECK(a > 100.0 * (double)corr / (double)pred - 0.01 &&
                     a < 100.0 * (double)corr / (double)pred + 0.01);
        }
        double sp = strtod(get(&flags, r, "saved_pct_profile"), NULL);
        LP_CHECK(sp >= 0.0 && sp <= 100.0);
        if (duty == 0) {
            seen_zero++;
            LP_CHECK_EQ_U64(off, b);
            LP_CHECK_EQ_U64(corr, pred);
            LP_CHECK_EQ_U64(mis, 0);
            LP_CHECK(skips > b / 2 && sp > 50.0);
        } else if (duty == 100 && (all || only)) {
            LP_CHECK_EQ_U64(off, 0);
            LP_CHECK_EQ_U64(pred, 0);
            LP_CHECK_EQ_U64(saved, 0);
        } else if (duty == 25 && all) {
            seen_window++;
            LP_CHECK(mis > 0 && skips > mis && off < b && off > 0);
        }
    }
    LP_CHECK(seen_zero == 3 && seen_window == 1);
    for (size_t r = 0; r < sizes.nrows; r++) {
        const char *acc = get(&sizes, r, "accuracy_pct");
        double a = strtod(acc, NULL);
        LP_CHECK(acc[0] == '\0' || (a >= 0.0 && a <= 100.0));
        LP_CHECK(num(&sizes, r, "skips") <= num(&sizes, r, "blocks"));
        LP_CHECK(num(&sizes, r, "mispredicted_skips") <= num(&sizes, r, "skips"));
    }
    return lp_test_done();
}
