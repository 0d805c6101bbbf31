/* `lowprof eval compressors` on small inputs, with real assertions:
 *
 * 1. the Monte Carlo study at N = 20000 orders the samplers as the paper's
 *    equivalence classes say (R and H[R] alike and worst, P and CR with
 *    the counter used as a ratio estimator next, H[P] best);
 * 2. online and offline agree: exact_prog recorded with a P256 compressor
 *    running in the front end and an event trace of its loads; replaying
 *    the trace's value tuples through P256 with the same seed gives exactly
 *    the estimated value profile the recording holds;
 * 3. the eval replay of that trace through the lossless A16 gives exact
 *    counts once drained (invariance error 0 over selected tuples), and the
 *    CSV files exist with their columns.
 *
 * usage: check_eval_compressors LOWPROF EXACT_PROG WORKDIR */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../unit/lp_test.h"
#include "lowprof/sample.h"
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

/* The line of a CSV file whose first fields are f1 (and f2 if not NULL),
 * copied into out; 0 if found. header receives the first line. */
static int csv_row(const char *path, const char *f1, const char *f2, char *header, char *out,
                   size_t cap)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[4096];
    int found = -1, first = 1;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (first) {
            snprintf(header, cap, "%s", line);
            first = 0;
            continue;
        }
        char pre[256];
        if (f2)
            snprintf(pre, sizeof pre, "%s,%s,", f1, f2);
        else
            snprintf(pre, sizeof pre, "%s,", f1);
        if (strncmp(line, pre, strlen(pre)) == 0) {
            snprintf(out, cap, "%s", line);
            found = 0;
        }
    }
    fclose(f);
    return found;
}

/* Field i (0-based) of a CSV line as a double. */
static double field(const char *line, int i)
{
    const char *p = line;
    for (int k = 0; k < i && p; k++) {
        p = strchr(p, ',');
        if (p)
            p++;
    }
    return p ? strtod(p, NULL) : -1;
}

static void check_mc(const char *lowprof)
{
    char out[4200];
    snprintf(out, sizeof out, "%s", at("mc"));
    char *argv[] = {(char *)lowprof, "eval",  "compressors", "--mc-only", "--trials", "2000",
                    "--mc-lengths",  "20000", "--out",       out,         NULL};
    int st = lp_itest_run(argv, at("mc.log"));
    LP_CHECK(st == 0);
    if (st != 0)
        return;
    char header[4096], row[4096];
    static const char *const names[] = {"R10", "H[R10]4", "P10", "CR10", "H[P10]4", "H[CR10]4"};
    double e[6], cr_ratio = -1;
    char csv[4300];
    snprintf(csv, sizeof csv, "%s/mc.csv", out);
    for (int i = 0; i < 6; i++) {
        /* length,tuple_copies,trials,sampler,... */
        FILE *f = fopen(csv, "r");
        e[i] = -1;
        char line[4096];
        while (f && fgets(line, sizeof line, f)) {
            char key[64];
            snprintf(key, sizeof key, "20000,6000,2000,%s,", names[i]);
            if (strncmp(line, key, strlen(key)) == 0) {
                e[i] = field(line, 5);
                if (i == 3)
                    cr_ratio = field(line, 8);
            }
        }
        if (f)
            fclose(f);
        LP_CHECK(e[i] > 0 && e[i] < 0.2);
    }
    LP_CHECK(csv_row(csv, "20000", NULL, header, row, sizeof row) == 0);
    LP_CHECK(strcmp(header, "length,tuple_copies,trials,sampler,class,mean_error,stderr,"
                            "mean_error_paper,mean_error_ratio") == 0);
    double worst_min = e[0] < e[1] ? e[0] : e[1];
    double mid_max = e[2] > cr_ratio ? e[2] : cr_ratio;
    double mid_min = e[2] < cr_ratio ? e[2] : cr_ratio;
    printf("MC at N = 20000: R %.4f H[R] %.4f P %.4f CR(ratio) %.4f H[P] %.4f H[CR] %.4f\n", e[0],
           e[1], e[2], cr_ratio, e[4], e[5]);
    LP_CHECK(worst_min > mid_max);                            /* {R, H[R]} above {P, CR} */
    LP_CHECK(mid_min > e[4]);                                 /* {P, CR} above H[P] */
    LP_CHECK(e[5] < worst_min);                               /* H[CR] better than R */
    LP_CHECK(e[0] < 1.1 * e[1] && e[1] < 1.1 * e[0]);         /* R ~ H[R] */
    LP_CHECK(e[2] < 1.1 * cr_ratio && cr_ratio < 1.1 * e[2]); /* P ~ CR */
}

static int file_read(void *ctx, void *buf, size_t size, size_t *out_got)
{
    *out_got = fread(buf, 1, size, ctx);
    return 0;
}

/* Replays the trace's value tuples through P256 (seed 1) and compares with
 * the recording's estimated value profile, entry by entry. */
static void check_online_offline(const char *lowprof, const char *prog)
{
    char prof[4200], trace[4200];
    snprintf(prof, sizeof prof, "%s", at("online.lpprof"));
    snprintf(trace, sizeof trace, "%s", at("loads.lpev"));
    char *argv[] = {(char *)lowprof,
                    "record",
                    "-q",
                    "--no-imatrix",
                    "-o",
                    prof,
                    "--tuples",
                    "value",
                    "--compressor",
                    "P256",
                    "--seed",
                    "1",
                    "--trace",
                    trace,
                    "--trace-kinds",
                    "load",
                    "--trace-limit",
                    "100000000",
                    "--",
                    (char *)prog,
                    NULL};
    int st = lp_itest_run(argv, at("record.log"));
    LP_CHECK(st == 0);
    if (st != 0)
        return;
    lp_profile_set set;
    lp_itest_load(prof, &set);
    const lp_profile *online = lp_profile_set_find(&set, LP_PROF_VALUE, LP_PHASE_NONE);
    LP_CHECK(online != NULL);

    lp_compressor_spec spec;
    LP_CHECK(lp_compressor_spec_parse("P256", &spec, NULL, NULL) == 0);
    lp_estimator est;
    lp_compressor *c = NULL;
    LP_CHECK(lp_estimator_init(&est) == 0);
    LP_CHECK(lp_compressor_create(&spec, NULL, 1, lp_estimator_on_messages, &est, &c) == 0);
    FILE *f = fopen(trace, "rb");
    LP_CHECK(f != NULL);
    if (!f || !c || !online)
        return;
    lp_evtrace_reader *r;
    lp_read_error err;
    LP_CHECK(lp_evtrace_reader_open((lp_source){file_read, f}, &r, &err) == 0);
    lp_event ev;
    lp_tuple t;
    uint64_t tuples = 0;
    int got;
    while ((got = lp_evtrace_reader_next(r, &ev, &err)) == 1)
        if (lp_tuple_select(&ev, 1u << LP_TUPLE_VALUE, &t)) {
            lp_compressor_push(c, &t);
            tuples++;
        }
    LP_CHECK(got == 0);
    lp_compressor_finish(c);
    lp_evtrace_reader_free(r);
    fclose(f);

    const char *pushed = lp_meta_get(&set.meta, "compressor-tuples");
    printf("online: %s tuples, offline: %llu tuples from the trace\n", pushed ? pushed : "?",
           (unsigned long long)tuples);
    LP_CHECK(pushed && strtoull(pushed, NULL, 10) == tuples);
    const lp_table *off = &lp_estimator_profile(&est, LP_PROF_VALUE)->table;
    LP_CHECK_EQ_U64(off->count, online->table.count);
    size_t cur = 0, differ = 0;
    const lp_entry *e;
    while ((e = lp_table_next(&online->table, &cur)) != NULL) {
        const lp_entry *o = lp_table_find(off, e->key);
        if (!o || o->v[0] != e->v[0]) {
            if (differ++ < 5)
                fprintf(stderr, "differs: pc %#llx value %#llx: online %llu, offline %llu\n",
                        (unsigned long long)e->key.a, (unsigned long long)e->key.b,
                        (unsigned long long)e->v[0], (unsigned long long)(o ? o->v[0] : 0));
        }
    }
    LP_CHECK_EQ_U64(differ, 0);
    LP_CHECK(online->table.count > 0);
    lp_compressor_free(c);
    lp_estimator_fini(&est);
    lp_profile_set_fini(&set);
}

/* The replay through A16 drains to the exact profile; the files have their
 * columns. */
static void check_replay(const char *lowprof)
{
    char out[4200], trace[4200];
    snprintf(out, sizeof out, "%s", at("replay"));
    snprintf(trace, sizeof trace, "%s", at("loads.lpev"));
    char *argv[] = {
        (char *)lowprof,   "eval",  "compressors", "--no-mc", "--trace", trace, "--compressors",
        "A16,H[P256]2048", "--out", out,           NULL};
    int st = lp_itest_run(argv, at("replay.log"));
    LP_CHECK(st == 0);
    if (st != 0)
        return;
    static const struct {
        const char *file, *header;
    } files[] = {
        {"value-summary.csv", "workload,compressor,events,instructions,reach_5pct,stay_5pct,"
                              "final_error,reach_5pct_sofar,stay_5pct_sofar,drained_error,"
                              "final_overhead,messages,first_level_messages"},
        {"value-curves.csv", "workload,compressor,events,instructions,error,error_sofar,selected,"
                             "selected_sofar,messages,interrupts,cycles,overhead"},
        {"twolevel.csv", "workload,compressor,messages,messages_a16,reduction,overhead,"
                         "overhead_a16"},
        {"edgecall.csv", "workload,compressor,tuples,edge_tuples,call_tuples,instructions,"
                         "edge_error,call_error,edge_selected,call_selected,drained_edge_error,"
                         "drained_call_error,messages,overhead"},
        {"windows.csv", "workload,ok,events_read,loads,edge_tuples,call_tuples,"
                        "instructions_loads,instructions_controls,whole_trace,record_seconds,"
                        "replay_seconds"},
    };
    char path[4400], header[4096], row[4096];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", out, files[i].file);
        FILE *f = fopen(path, "r");
        LP_CHECK(f != NULL);
        if (!f)
            continue;
        if (!fgets(header, sizeof header, f))
            header[0] = '\0';
        fclose(f);
        header[strcspn(header, "\n")] = '\0';
        if (strcmp(header, files[i].header) != 0)
            fprintf(stderr, "%s: header '%s'\n", files[i].file, header);
        LP_CHECK(strcmp(header, files[i].header) == 0);
    }
    snprintf(path, sizeof path, "%s/value-summary.csv", out);
    LP_CHECK(csv_row(path, "loads", "A16", header, row, sizeof row) == 0);
    printf("A16: %s\n", row);
    LP_CHECK(field(row, 9) == 0.0);  /* drained error */
    LP_CHECK(field(row, 2) > 10000); /* events replayed */
    snprintf(path, sizeof path, "%s/value-curves.csv", out);
    LP_CHECK(csv_row(path, "loads", "A16", header, row, sizeof row) == 0);
    LP_CHECK(field(row, 6) >= 1); /* tuples selected by the paper's filters */
    snprintf(path, sizeof path, "%s/summary.md", out);
    LP_CHECK(lp_itest_file_has(path, "## Two-level compression"));
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: check_eval_compressors LOWPROF EXACT_PROG WORKDIR\n");
        return 2;
    }
    if (access("/usr/bin/valgrind", X_OK) != 0 && !getenv("LOWPROF_VALGRIND")) {
        printf("skipped: no Valgrind\n");
        return 77;
    }
    snprintf(work, sizeof work, "%s", argv[3]);
    mkdir(work, 0777);
    check_mc(argv[1]);
    check_online_offline(argv[1], argv[2]);
    check_replay(argv[1]);
    return lp_test_done();
}
