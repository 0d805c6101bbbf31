/* lowprof eval bursty on one small workload, two placements and two
 * settings: the tables exist with a row per point; orig executes more
 * checks than EC+L4 (the placement only removes checks), so its modeled
 * basic overhead is higher; overlaps are percentages; the achieved
 * sampling rate is the nominal one; the HPS arm counts orig's events at
 * no cost and has orig's bursts (its Fig. 8 overlap is orig's) and a row
 * of its own at every setting; a bad option exits 2.
 * usage: check_eval_bursty LOWPROF WORKDIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/lp_test.h"
#include "lp_itest.h"

static FILE *open_csv(const char *dir, const char *name, char *line, size_t cap)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f || !fgets(line, (int)cap, f)) {
        fprintf(stderr, "%s: missing or empty\n", path);
        exit(1);
    }
    return f;
}

/* Turns a CSV line into words for sscanf. */
static void unquote(char *line)
{
    for (char *q = line; *q; q++)
        if (*q == ',')
            *q = ' ';
}

/* 0 for orig, 1 for EC+L4, 2 for the HPS arm, -1 otherwise. */
static int arm(const char *p)
{
    return strcmp(p, "orig") == 0 ? 0 : strcmp(p, "EC+L4") == 0 ? 1 : strcmp(p, "HPS") == 0 ? 2 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: check_eval_bursty LOWPROF WORKDIR\n");
        return 2;
    }
    const char *dir = argv[2];
    char log[4096], line[1024];
    snprintf(log, sizeof log, "%s.log", dir);
    char *run[] = {argv[1], "eval", "bursty", "--workloads", "gzip-9", "--placements",
                   "orig,EC+L4", "--settings", "1000:50,20:1", "--streams-limit", "500000",
                   "--out", (char *)dir, NULL};
    int st = lp_itest_run(run, log);
    if (st != 0) {
        if (lp_itest_vgtool_missing(log))
            return 77;
        fprintf(stderr, "lowprof eval bursty failed (status %d); see %s\n", st, log);
        return 1;
    }

    FILE *f = open_csv(dir, "fig6.csv", line, sizeof line);
    double ovh[3] = {-1, -1, -1};
    unsigned long long checks[3] = {0, 0, 0};
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        char w[64], p[64];
        unsigned long long c, insns;
        double per, o;
        unquote(line);
        if (sscanf(line, "%63s %63s %llu %llu %lf %lf", w, p, &c, &insns, &per, &o) != 6)
            continue;
        int k = arm(p);
        LP_CHECK(k >= 0 && insns > 1000000);
        if (k >= 0) {
            ovh[k] = o;
            checks[k] = c;
        }
        rows++;
    }
    fclose(f);
    LP_CHECK(rows == 3);
    printf("fig6: orig %llu checks (%.2f%%), EC+L4 %llu (%.2f%%), HPS %llu (%.2f%%)\n", checks[0],
           ovh[0], checks[1], ovh[1], checks[2], ovh[2]);
    LP_CHECK(checks[0] > checks[1] && ovh[0] > ovh[1] && ovh[1] >= 0);
    LP_CHECK(checks[2] == checks[0] && ovh[2] == 0);

    f = open_csv(dir, "fig7.csv", line, sizeof line);
    rows = 0;
    int hps_rows = 0;
    while (fgets(line, sizeof line, f)) {
        char w[64], s[64], p[64];
        double rate, ov;
        unquote(line);
        if (sscanf(line, "%63s %63s %63s %lf %lf", w, s, p, &rate, &ov) != 5)
            continue;
        double nominal = strcmp(s, "1000:50") == 0 ? 100.0 * 50 / 1050 : 100.0 / 21;
        LP_CHECK(rate > nominal - 0.05 && rate < nominal + 0.05);
        LP_CHECK(ov >= 0 && ov <= 100);
        hps_rows += strcmp(p, "HPS") == 0;
        rows++;
    }
    fclose(f);
    LP_CHECK(rows == 4 && hps_rows == 2);

    f = open_csv(dir, "fig8.csv", line, sizeof line);
    rows = 0;
    double ov8[3] = {-1, -1, -1};
    while (fgets(line, sizeof line, f)) {
        char w[64], p[64], s[64];
        double ov, o;
        unquote(line);
        if (sscanf(line, "%63s %63s %63s %lf %lf", w, p, s, &ov, &o) != 5)
            continue;
        int k = arm(p);
        LP_CHECK(k >= 0 && ov >= 0 && ov <= 100);
        if (k >= 0)
            ov8[k] = ov;
        LP_CHECK(k != 2 || o == 0);
        rows++;
    }
    fclose(f);
    LP_CHECK(rows == 3);
    LP_CHECK(ov8[2] == ov8[0] && ov8[0] >= 0);

    char summary[4096];
    snprintf(summary, sizeof summary, "%s/summary.md", dir);
    LP_CHECK(lp_itest_file_has(summary, "Cheapest placement within 2 points"));

    char *bad[] = {argv[1], "eval", "bursty", "--settings", "", "--out", (char *)dir, NULL};
    LP_CHECK(lp_itest_run(bad, log) == 2);
    char *bad2[] = {argv[1], "eval", "bursty", "--streams-limit", "12", NULL};
    LP_CHECK(lp_itest_run(bad2, log) == 2);
    return lp_test_done();
}
