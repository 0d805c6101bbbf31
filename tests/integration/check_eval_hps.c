/* lowprof eval hps on one small workload: both modes record the same
 * profile, HPS replaces exactly one event in N, the measured overheads are
 * ordered HPS < DISE with a hand-written check < DISE with the generic
 * step, and the counter trigger agrees with the software framework.
 * usage: check_eval_hps LOWPROF WORKDIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/lp_test.h"
#include "lp_itest.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: check_eval_hps LOWPROF WORKDIR\n");
        return 2;
    }
    char log[4096], csv[4096], summary[4096];
    snprintf(log, sizeof log, "%s.log", argv[2]);
    char *run[] = {argv[1], "eval", "hps", "--workloads", "gzip-9", "--out", argv[2], NULL};
    if (lp_itest_run(run, log) != 0) {
        fprintf(stderr, "lowprof eval hps failed; see %s\n", log);
        return 1;
    }
    snprintf(csv, sizeof csv, "%s/fig9.csv", argv[2]);
    snprintf(summary, sizeof summary, "%s/summary.md", argv[2]);
    FILE *f = fopen(csv, "r");
    if (!f) {
        perror(csv);
        return 1;
    }
    char line[2048];
    int rows = 0;
    if (!fgets(line, sizeof line, f))
        return 1;
    while (fgets(line, sizeof line, f)) {
        char name[64], kind[64];
        unsigned long long insns, events, sampled;
        double c_hps, c_step, c_hand, dise, hand, hps;
        int same = 0;
        char *p = line;
        for (char *q = p; *q; q++)
            if (*q == ',')
                *q = ' ';
        if (sscanf(p, "%63s %63s %llu %llu %llu %lf %lf %lf %lf %lf %lf", name, kind, &insns,
                   &events, &sampled, &c_hps, &c_step, &c_hand, &dise, &hand, &hps) != 11)
            continue;
        char *last = strrchr(p, ' ');
        same = last && atoi(last + 1) == 1;
        rows++;
        LP_CHECK(same);
        LP_CHECK(insns > 1000000);
        LP_CHECK_EQ_U64(sampled, events / 100);
        LP_CHECK(c_hps > 5 && c_step > 1 && c_hand >= 1);
        LP_CHECK(hps < hand && hand < dise);
    }
    fclose(f);
    LP_CHECK(rows == 2);
    LP_CHECK(lp_itest_file_has(summary, "| call-pair profiles identical (every key and count) | yes |"));
    return lp_test_done();
}
