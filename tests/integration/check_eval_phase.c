/* `lowprof eval phase` on a program with planted phases (phase_prog.c: three
 * very different loops in the schedule A B C A B C A B C). Records it with
 * 100,000-instruction intervals, runs the offline evaluation on that one
 * matrix, and checks runs.csv:
 *
 *   - exhaustive sampling has every error exactly 0;
 *   - phase-aware with the oracle at threshold 0.1 and the first-interval
 *     policy samples each phase exactly once (samples = phases, no
 *     resample, nothing unrepresented), and so does the centroid policy;
 *     both estimate the code-region profile within 2 % (the planted
 *     phases' intervals are nearly identical, so the only error comes from
 *     the intervals that straddle a change of loop);
 *   - so does the refine policy under the oracle (every phase sampled,
 *     nothing unrepresented, within 2 %), and summary.md's targets table
 *     has its Markov row;
 *   - periodic sampling has a non-zero error at some N;
 *   - the CSV files exist with their columns;
 *   - recordings made with --strategy (phase-aware with a predictor, the
 *     refine policy with its run-length predictor and wide signatures,
 *     periodic, random) agree exactly with --check-online's offline run.
 *
 * Skips (77) when the Valgrind tool or Valgrind is missing.
 * usage: check_eval_phase LOWPROF PHASE_PROG WORKDIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../unit/lp_test.h"
#include "lp_itest.h"

#define MAX_FIELDS 24

/* Splits a CSV line (no quoting in these files) in place. */
static int split(char *line, char **f)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line; n < MAX_FIELDS;) {
        f[n++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    return n;
}

/* The column named name in the header fields, or -1. */
static int column(char **h, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(h[i], name) == 0)
            return i;
    fprintf(stderr, "no column %s\n", name);
    return -1;
}

/* Whether the CSV file at dir/name starts with a header holding every
 * comma-separated column of want. */
static int has_columns(const char *dir, const char *name, const char *want)
{
    char path[4096], line[4096], w[1024];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: missing\n", path);
        return 0;
    }
    int ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    char *h[MAX_FIELDS];
    int n = ok ? split(line, h) : 0;
    snprintf(w, sizeof w, "%s", want);
    for (char *c = strtok(w, ","); ok && c; c = strtok(NULL, ","))
        ok = column(h, n, c) >= 0;
    if (!ok)
        fprintf(stderr, "%s: header lacks a column of %s\n", path, want);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: check_eval_phase LOWPROF PHASE_PROG WORKDIR\n");
        return 2;
    }
    const char *lowprof = argv[1], *prog = argv[2], *work = argv[3];
    if (strlen(work) > 3000) {
        fprintf(stderr, "WORKDIR too long\n");
        return 2;
    }
    char mdir[3100], prof[3200], im[3200], res[3100], log[3200];
    mkdir(work, 0755);
    snprintf(mdir, sizeof mdir, "%s/matrices", work);
    mkdir(mdir, 0755);
    snprintf(prof, sizeof prof, "%s/phase_prog.lpprof", mdir);
    snprintf(im, sizeof im, "%s/phase_prog.lpim", mdir);
    snprintf(res, sizeof res, "%s/results", work);
    snprintf(log, sizeof log, "%s/record.log", work);
    char *rec[] = {(char *)lowprof, "record", "--quiet", "--interval", "100000", "--out", prof,
                   "--imatrix", im, "--", (char *)prog, NULL};
    int rc = lp_itest_run(rec, log);
    if (rc != 0) {
        if (lp_itest_vgtool_missing(log)) {
            printf("SKIP: the Valgrind tool is missing (see %s)\n", log);
            return 77;
        }
        fprintf(stderr, "lowprof record failed (%d); see %s\n", rc, log);
        return 1;
    }
    snprintf(log, sizeof log, "%s/eval.log", work);
    char *ev[] = {(char *)lowprof, "eval", "phase", "--matrices", mdir, "--out", res, NULL};
    rc = lp_itest_run(ev, log);
    if (rc != 0) {
        fprintf(stderr, "lowprof eval phase failed (%d); see %s\n", rc, log);
        return 1;
    }

    char path[3200], line[4096], header[4096];
    snprintf(path, sizeof path, "%s/runs.csv", res);
    FILE *f = fopen(path, "r");
    LP_CHECK(f != NULL);
    if (!f)
        return lp_test_done();
    char *h[MAX_FIELDS], *v[MAX_FIELDS];
    int nh = fgets(header, sizeof header, f) ? split(header, h) : 0;
    int c_strategy = column(h, nh, "strategy"), c_policy = column(h, nh, "policy"),
        c_pred = column(h, nh, "predictor"), c_param = column(h, nh, "param"),
        c_sampled = column(h, nh, "sampled"), c_phases = column(h, nh, "phases"),
        c_resamples = column(h, nh, "resamples"), c_unrep = column(h, nh, "unrepresented"),
        c_err = column(h, nh, "err_code_region");
    LP_CHECK(c_strategy >= 0 && c_policy >= 0 && c_pred >= 0 && c_param >= 0 && c_sampled >= 0 &&
             c_phases >= 0 && c_resamples >= 0 && c_unrep >= 0 && c_err >= 0);
    if (lp_test_failures)
        return lp_test_done();
    int exhaustive = 0, first = 0, centroid = 0, refine = 0;
    double periodic_max = 0;
    while (fgets(line, sizeof line, f)) {
        int n = split(line, v);
        if (n != nh)
            continue;
        if (strcmp(v[c_strategy], "exhaustive") == 0) {
            exhaustive++;
            for (int k = c_err; k < c_err + 4; k++)
                LP_CHECK(strtod(v[k], NULL) == 0.0);
        } else if (strcmp(v[c_strategy], "periodic") == 0) {
            double e = strtod(v[c_err], NULL);
            if (e > periodic_max)
                periodic_max = e;
        } else if (strcmp(v[c_strategy], "phase") == 0 && strcmp(v[c_pred], "oracle") == 0 &&
                   strtod(v[c_param], NULL) == 0.1 &&
                   (strcmp(v[c_policy], "first") == 0 || strcmp(v[c_policy], "centroid") == 0)) {
            *(strcmp(v[c_policy], "first") == 0 ? &first : &centroid) += 1;
            /* one sample per phase: as many samples as phases, none twice */
            LP_CHECK(strcmp(v[c_sampled], v[c_phases]) == 0);
            LP_CHECK(strtoull(v[c_phases], NULL, 10) >= 3); /* the three loops at least */
            LP_CHECK(strcmp(v[c_resamples], "0") == 0);
            LP_CHECK(strcmp(v[c_unrep], "0") == 0);
            LP_CHECK(strtod(v[c_err], NULL) < 0.02);
            if (strtod(v[c_err], NULL) >= 0.02)
                fprintf(stderr, "phase-aware (%s) code-region error %s\n", v[c_policy], v[c_err]);
        } else if (strcmp(v[c_strategy], "phase") == 0 && strcmp(v[c_policy], "refine") == 0 &&
                   strcmp(v[c_pred], "oracle") == 0 && strtod(v[c_param], NULL) == 0.1) {
            refine++;
            /* every phase represented, and as well as by the first policy */
            LP_CHECK(strtoull(v[c_sampled], NULL, 10) >= strtoull(v[c_phases], NULL, 10));
            LP_CHECK(strcmp(v[c_unrep], "0") == 0);
            LP_CHECK(strtod(v[c_err], NULL) < 0.02);
            if (strtod(v[c_err], NULL) >= 0.02)
                fprintf(stderr, "refine code-region error %s\n", v[c_err]);
        }
    }
    fclose(f);
    LP_CHECK(exhaustive == 1);
    LP_CHECK(first == 1);
    LP_CHECK(centroid == 1);
    LP_CHECK(refine == 1);
    LP_CHECK(periodic_max > 0);

    LP_CHECK(has_columns(res, "settings.csv",
                         "workload,curve,param,runs,percent_sampled,err_code_region,err_hot_branch,"
                         "err_hot_method,err_hot_call_pair,max_err_code_region"));
    LP_CHECK(has_columns(res, "curves.csv", "curve,param,percent_sampled,err_code_region"));
    LP_CHECK(has_columns(res, "fig10_policies.csv", "policy,percent_sampled,err_code_region"));
    LP_CHECK(has_columns(res, "fig13_5pct.csv",
                         "error,workload,curve,percent_sampled,cost_minsns,robust_percent"));
    LP_CHECK(has_columns(res, "fig15_energy.csv",
                         "workload,strategy,protocol,energy_mj,compute_mj,transmit_mj,bytes"));
    LP_CHECK(has_columns(res, "predictors.csv", "workload,threshold,predictor,accuracy"));
    snprintf(path, sizeof path, "%s/summary.md", res);
    LP_CHECK(lp_itest_file_has(path, "The paper's claims"));
    LP_CHECK(lp_itest_file_has(path, "| refine (markov) |"));
    LP_CHECK(lp_itest_file_has(path, "| refine (run-length) |"));

    /* Online recordings with a strategy agree exactly with the offline
     * estimate of the same configuration over the exhaustive matrix. */
    static const char *const strategies[][3] = {
        {"phase", "--phase-predictor", "markov"},
        {"phase", "--phase-threshold", "0.05"},
        {"phase-refine", NULL, NULL},
        {"periodic:7:3", NULL, NULL},
        {"random:5:2", NULL, NULL},
    };
    for (size_t i = 0; i < sizeof strategies / sizeof strategies[0]; i++) {
        char online[3200];
        snprintf(online, sizeof online, "%s/online-%zu.lpprof", work, i);
        snprintf(log, sizeof log, "%s/online-%zu.log", work, i);
        char *on[] = {(char *)lowprof, "record", "--quiet", "--interval", "100000", "--strategy",
                      (char *)strategies[i][0], "--out", online, "--no-imatrix",
                      (char *)(strategies[i][1] ? strategies[i][1] : "--"),
                      (char *)(strategies[i][1] ? strategies[i][2] : prog),
                      strategies[i][1] ? "--" : NULL, (char *)prog, NULL};
        LP_CHECK(lp_itest_run(on, log) == 0);
        snprintf(log, sizeof log, "%s/check-online-%zu.log", work, i);
        char *chk[] = {(char *)lowprof, "eval", "phase", "--check-online", online, im, NULL};
        LP_CHECK(lp_itest_run(chk, log) == 0);
        LP_CHECK(lp_itest_file_has(log, "online and offline agree exactly"));
    }
    return lp_test_done();
}
