/* `lowprof eval value` on a trace of value_prog (two loads of known values,
 * 400000 times each), with real assertions:
 *
 * 1. every file exists with its columns; errovh.csv has a row for the
 *    co-processor and for each rate, with errors in [0, 1], the
 *    co-processor's overhead above 0 and simple sampling's falling as r
 *    grows; convergence.csv ends at the window's last load;
 * 2. the exact side of the metric: the scatter lists both loop loads with
 *    their true invariance (1 for the load of 42; 1/4 for the load that
 *    cycles through four values, whose top value is the lowest, 3); the
 *    co-processor finds the invariant one (estimate >= 0.9), and P9, whose
 *    period is prime to the loop's, measures the whole window within 5 %;
 * 3. a bad option exits 2, and a bad trace beside a good one exits 1 with
 *    the good one still reported.
 *
 * usage: check_eval_value LOWPROF VALUE_PROG WORKDIR */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../unit/lp_test.h"
#include "lp_itest.h"

static char work[4096];

static const char *at(const char *name)
{
    static char buf[8][4200];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", work, name);
    return buf[k];
}

/* Field i (0-based) of a CSV line, as text (up to the next comma). */
static const char *field_text(const char *line, int i, char *buf, size_t cap)
{
    const char *p = line;
    for (int k = 0; k < i && p; k++) {
        p = strchr(p, ',');
        if (p)
            p++;
    }
    if (!p) {
        snprintf(buf, cap, "%s", "");
        return buf;
    }
    size_t n = strcspn(p, ",\n");
    snprintf(buf, cap, "%.*s", (int)n, p);
    return buf;
}

static double field(const char *line, int i)
{
    char buf[128];
    return strtod(field_text(line, i, buf, sizeof buf), NULL);
}

/* The first line of path whose field key_field equals key (and, when key2 is
 * not NULL, whose field key2_field equals key2), into out; 0 if found. The
 * header line is checked against header. */
static int row(const char *path, const char *header, int key_field, const char *key,
               int key2_field, const char *key2, char *out, size_t cap)
{
    FILE *f = fopen(path, "r");
    LP_CHECK(f != NULL);
    if (!f)
        return -1;
    char line[4096], buf[128];
    int found = -1;
    if (!fgets(line, sizeof line, f))
        line[0] = '\0';
    line[strcspn(line, "\n")] = '\0';
    if (strcmp(line, header) != 0)
        fprintf(stderr, "%s: header '%s'\n", path, line);
    LP_CHECK(strcmp(line, header) == 0);
    while (found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (strcmp(field_text(line, key_field, buf, sizeof buf), key) != 0)
            continue;
        if (key2 && strcmp(field_text(line, key2_field, buf, sizeof buf), key2) != 0)
            continue;
        snprintf(out, cap, "%s", line);
        found = 0;
    }
    fclose(f);
    return found;
}

static const char errovh_header[] = "workload,profiler,rate,loads,instructions,error,overhead,"
                                    "cycles,interrupts,samples,loads_measured,"
                                    "missing_executions,missing_error_share";

static void check_run(const char *lowprof, const char *trace)
{
    char out[4200];
    snprintf(out, sizeof out, "%s", at("out"));
    char *argv[] = {(char *)lowprof, "eval",      "value", "--trace", (char *)trace,
                    "--events",      "2M",        "--rates", "9,99,999", "--out",
                    out,             NULL};
    int st = lp_itest_run(argv, at("eval.log"));
    LP_CHECK(st == 0);
    if (st != 0)
        return;
    char path[4400], line[4096];
    static const char *const rates[] = {"P9", "P99", "P999"};
    snprintf(path, sizeof path, "%s/errovh.csv", out);
    LP_CHECK(row(path, errovh_header, 1, "coproc", 0, "loads", line, sizeof line) == 0);
    printf("co-processor: %s\n", line);
    double c_error = field(line, 5), c_overhead = field(line, 6);
    uint64_t window = (uint64_t)field(line, 3);
    LP_CHECK(c_error >= 0 && c_error <= 1);
    LP_CHECK(c_overhead > 0 && c_overhead < 1);
    LP_CHECK(field(line, 10) >= 2); /* both loop loads measured */
    /* value_prog's two loops loads, 400000 each, and the start-up's */
    LP_CHECK(window > 800000 && window < 2 * 1024 * 1024);
    double prev_overhead = 2.0, p9_error = -1;
    for (int i = 0; i < 3; i++) {
        LP_CHECK(row(path, errovh_header, 1, rates[i], 0, "loads", line, sizeof line) == 0);
        printf("%s: %s\n", rates[i], line);
        double e = field(line, 5), ov = field(line, 6);
        LP_CHECK(e >= 0 && e <= 1);
        LP_CHECK(ov > 0 && ov < prev_overhead);
        LP_CHECK(field(line, 11) >= 0 && field(line, 11) <= 1);
        LP_CHECK(field(line, 12) >= 0 && field(line, 12) <= 1);
        prev_overhead = ov;
        if (i == 0)
            p9_error = e;
    }
    LP_CHECK(p9_error >= 0 && p9_error < 0.05);

    snprintf(path, sizeof path, "%s/scatter.csv", out);
    LP_CHECK(row(path, "workload,pc,value,count,inv_true,inv_est,in_estimate", 2, "0x2a", 3, "400000", line,
                 sizeof line) == 0);
    printf("invariant load: %s\n", line);
    LP_CHECK(field(line, 4) == 1.0);
    LP_CHECK(field(line, 5) >= 0.9 && field(line, 5) <= 1.0);
    LP_CHECK(field(line, 6) == 1); /* in the co-processor's estimate */
    LP_CHECK(row(path, "workload,pc,value,count,inv_true,inv_est,in_estimate", 2, "0x3", 3, "400000", line,
                 sizeof line) == 0);
    printf("cycling load: %s\n", line);
    LP_CHECK(field(line, 4) == 0.25);

    char conv_header[] = "workload,profiler,loads,instructions,error,error_sofar,loads_measured,"
                         "loads_measured_sofar,cycles,interrupts,samples,overhead";
    snprintf(path, sizeof path, "%s/convergence.csv", out);
    char last[4096] = "";
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "loads,coproc,", 13) == 0)
            snprintf(last, sizeof last, "%s", line);
    if (f)
        fclose(f);
    LP_CHECK(row(path, conv_header, 1, "P99", 0, "loads", line, sizeof line) == 0);
    LP_CHECK((uint64_t)field(last, 2) == window);

    snprintf(path, sizeof path, "%s/sensitivity.csv", out);
    static const char sens_header[] =
        "workload,profiler,slots,clock,loads,instructions,error,overhead,cycles,interrupts,"
        "samples,dropped_full,error_half,stays_below_limit_from,region_advances,mask_bits,masked";
    static const char *const variants[] = {"coproc", "coproc:slots=128", "coproc:slots=512",
                                           "coproc:clock=0.5", "coproc:clock=2"};
    for (int i = 0; i < 5; i++) {
        LP_CHECK(row(path, sens_header, 1, variants[i], 0, "loads", line, sizeof line) == 0);
        LP_CHECK(field(line, 6) >= 0 && field(line, 6) <= 1 && field(line, 7) > 0);
    }
    snprintf(path, sizeof path, "%s/windows.csv", out);
    LP_CHECK(row(path,
                 "workload,ok,events_read,loads,instructions,static_loads,loads_measured,"
                 "value_pairs,whole_trace,record_seconds,replay_seconds",
                 0, "loads", 0, NULL, line, sizeof line) == 0);
    LP_CHECK(field(line, 1) == 1 && (uint64_t)field(line, 3) == window);
    snprintf(path, sizeof path, "%s/summary.md", out);
    LP_CHECK(lp_itest_file_has(path, "## The question"));
    LP_CHECK(lp_itest_file_has(path, "## Sensitivity"));
    snprintf(path, sizeof path, "%s/errovh.md", out);
    LP_CHECK(lp_itest_file_has(path, "| loads | coproc |"));
}

static void check_failures(const char *lowprof, const char *trace)
{
    char *bad_opt[] = {(char *)lowprof, "eval", "value", "--rates", "0", NULL};
    LP_CHECK(lp_itest_run(bad_opt, at("bad-opt.log")) == 2);
    char *unknown[] = {(char *)lowprof, "eval", "value", "--no-such-option", NULL};
    LP_CHECK(lp_itest_run(unknown, at("unknown.log")) == 2);
    LP_CHECK(lp_itest_file_has(at("unknown.log"), "--no-such-option"));

    /* A file that is not a trace beside the good one. */
    FILE *f = fopen(at("junk.lpev"), "w");
    LP_CHECK(f != NULL);
    if (!f)
        return;
    fputs("not an event trace\n", f);
    fclose(f);
    char list[8500], out[4200];
    snprintf(list, sizeof list, "%s,%s", trace, at("junk.lpev"));
    snprintf(out, sizeof out, "%s", at("out-junk"));
    char *argv[] = {(char *)lowprof, "eval", "value", "--trace", list, "--rates", "99",
                    "--out", out, NULL};
    LP_CHECK(lp_itest_run(argv, at("junk.log")) == 1);
    LP_CHECK(lp_itest_file_has(at("junk.log"), "junk.lpev"));
    char path[4400], line[4096];
    snprintf(path, sizeof path, "%s/errovh.csv", out);
    LP_CHECK(row(path, errovh_header, 1, "P99", 0, "loads", line, sizeof line) == 0);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: check_eval_value LOWPROF VALUE_PROG WORKDIR\n");
        return 2;
    }
    if (access("/usr/bin/valgrind", X_OK) != 0 && !getenv("LOWPROF_VALGRIND")) {
        printf("skipped: no Valgrind\n");
        return 77;
    }
    snprintf(work, sizeof work, "%s", argv[3]);
    mkdir(work, 0777);
    char trace[4200], prof[4200];
    snprintf(trace, sizeof trace, "%s", at("loads.lpev"));
    snprintf(prof, sizeof prof, "%s", at("loads.lpprof"));
    char *rec[] = {argv[1],         "record", "-q",    "--no-imatrix", "-o",  prof,
                   "--trace",       trace,    "--trace-kinds", "load", "--trace-limit",
                   "2000000",       "--",     argv[2], NULL};
    int st = lp_itest_run(rec, at("record.log"));
    if (st != 0 && lp_itest_vgtool_missing(at("record.log"))) {
        printf("skipped: the Valgrind tool is missing (see %s)\n", at("record.log"));
        return 77;
    }
    LP_CHECK(st == 0);
    if (st != 0)
        return lp_test_done();
    check_run(argv[1], trace);
    check_failures(argv[1], trace);
    return lp_test_done();
}
