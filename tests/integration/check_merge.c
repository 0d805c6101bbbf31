/* The collector's merge against the truth: several runs of phase_prog with
 * different mixes of its three phases are each recorded twice, exhaustively
 * (the interval matrix gives the truth) and under the phase-aware strategy
 * (what a device would upload). Merging the sampled runs must give the
 * exhaustive profile of all the runs within the sampling error, and do
 * better than adding the sampled profiles without the phase trace's
 * weights, which must be far off (so the check can fail). Each run merged
 * alone must give exactly the device's own estimate.
 *
 * `lowprof export` of several files merges them the same way: its CSV of
 * the three exhaustive runs must hold the library's merge of them (each
 * profile type's total); a file of another build, or one that does not
 * parse, is refused by name, and the file -o names is left as it was.
 * usage: check_merge LOWPROF WORKDIR PHASE_PROG */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../unit/lp_test.h"
#include "lowprof/collector.h"
#include "lowprof/metrics.h"
#include "lp_itest.h"

static const char *lowprof, *dir, *prog;

static void record(const char *name, const char *strategy, const char *schedule)
{
    char path[4096], log[4096];
    snprintf(path, sizeof path, "%s/%s.lpprof", dir, name);
    snprintf(log, sizeof log, "%s/%s.log", dir, name);
    char *argv[16];
    int k = 0;
    argv[k++] = (char *)lowprof;
    argv[k++] = "record";
    argv[k++] = "-q";
    argv[k++] = "--interval";
    argv[k++] = "100000";
    argv[k++] = "-o";
    argv[k++] = path;
    if (strategy) {
        argv[k++] = "--strategy";
        argv[k++] = (char *)strategy;
    }
    argv[k++] = "--";
    argv[k++] = (char *)prog;
    argv[k++] = (char *)schedule;
    argv[k] = NULL;
    int st = lp_itest_run(argv, log);
    if (st != 0) {
        if (lp_itest_vgtool_missing(log)) {
            printf("the Valgrind tool is not available; skipped\n");
            exit(77);
        }
        fprintf(stderr, "recording %s failed (status %d); see %s\n", name, st, log);
        exit(1);
    }
}

/* `lowprof export --format csv -o OUT` of WORKDIR's files NAMES (NULL
 * ended); returns its exit status, its messages in WORKDIR/export.log. */
static int export_merged(const char *out, const char *const *names)
{
    char *argv[16], paths[8][4096], log[4096];
    int k = 0;
    argv[k++] = (char *)lowprof;
    argv[k++] = "export";
    argv[k++] = "--format";
    argv[k++] = "csv";
    argv[k++] = "-o";
    argv[k++] = (char *)out;
    for (int i = 0; names[i] && i < 8; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/%s", dir, names[i]);
        argv[k++] = paths[i];
    }
    argv[k] = NULL;
    snprintf(log, sizeof log, "%s/export.log", dir);
    return lp_itest_run(argv, log);
}

/* The sum of column v0 over the CSV rows whose type is TYPE. */
static uint64_t csv_total(const char *path, const char *type)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[8192];
    uint64_t sum = 0;
    size_t tl = strlen(type);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, type, tl) != 0 || line[tl] != ',')
            continue;
        const char *c = line;
        for (int commas = 0; commas < 3 && c; commas++)
            c = strchr(c + 1, ',');
        if (c)
            sum += strtoull(c + 1, NULL, 10);
    }
    fclose(f);
    return sum;
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* The CLI's merge of the exhaustive runs against the library's, and what
 * it refuses. */
static void check_cli_merge(void)
{
    static const char *const names[] = {"exh0.lpprof", "exh1.lpprof", "exh2.lpprof", NULL};
    lp_merge *m;
    LP_CHECK(lp_merge_create(&m) == 0);
    for (int i = 0; names[i]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        lp_profile_set s;
        lp_itest_load(path, &s);
        LP_CHECK(lp_merge_add(m, &s, "local") == 0);
        lp_profile_set_fini(&s);
    }
    lp_profile_set want;
    LP_CHECK(lp_merge_result(m, &want) == 0);
    lp_merge_free(m);
    char out[4096], log[4096];
    snprintf(out, sizeof out, "%s/merged.csv", dir);
    snprintf(log, sizeof log, "%s/export.log", dir);
    LP_CHECK(export_merged(out, names) == 0);
    int types = 0;
    for (size_t j = 0; j < want.count; j++) {
        const lp_profile *p = &want.profiles[j];
        if (p->phase != LP_PHASE_NONE)
            continue;
        uint64_t total = 0;
        size_t cur = 0;
        const lp_entry *e;
        while ((e = lp_table_next(&p->table, &cur)) != NULL)
            total += e->v[0];
        uint64_t got = csv_total(out, lp_profile_type_name(p->type));
        printf("merged by export, %s: %llu (the library's merge: %llu)\n",
               lp_profile_type_name(p->type), (unsigned long long)got, (unsigned long long)total);
        LP_CHECK_EQ_U64(got, total);
        types += total > 0;
    }
    LP_CHECK(types > 0);
    lp_profile_set_fini(&want);

    /* A file of another build: refused by name, the output kept. */
    char other[4096], olog[4096], kept[4096];
    snprintf(other, sizeof other, "%s/other.lpprof", dir);
    snprintf(olog, sizeof olog, "%s/other.log", dir);
    snprintf(kept, sizeof kept, "%s/kept.csv", dir);
    static const char *const no_opts[] = {NULL};
    LP_CHECK(lp_itest_record(lowprof, no_opts, "/bin/true", NULL, other, olog) == 0);
    LP_CHECK(write_text(kept, "earlier\n") == 0);
    static const char *const mixed[] = {"exh0.lpprof", "other.lpprof", NULL};
    LP_CHECK(export_merged(kept, mixed) == 1);
    LP_CHECK(lp_itest_file_has(log, "other.lpprof: build"));
    LP_CHECK(lp_itest_file_has(log, "only runs of one build merge"));
    LP_CHECK(lp_itest_file_has(kept, "earlier"));

    /* A file that does not parse: refused by name. */
    char bad[4096];
    snprintf(bad, sizeof bad, "%s/bad.lpprof", dir);
    LP_CHECK(write_text(bad, "not a profile\n") == 0);
    static const char *const with_bad[] = {"exh0.lpprof", "bad.lpprof", NULL};
    LP_CHECK(export_merged(kept, with_bad) == 1);
    LP_CHECK(lp_itest_file_has(log, "bad.lpprof"));
    LP_CHECK(lp_itest_file_has(kept, "earlier"));
}

/* Adds every interval's code regions of NAME.lpim into truth. */
static void add_matrix(const char *name, lp_table *truth, uint64_t *out_intervals)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.lpim", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: missing\n", path);
        exit(1);
    }
    static unsigned char buf[64 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    lp_memsource ms;
    lp_imatrix_reader *r;
    lp_read_error err;
    if (lp_imatrix_reader_open(lp_memsource_init(&ms, buf, n), &r, &err) != 0) {
        fprintf(stderr, "%s: offset %llu: %s\n", path, (unsigned long long)err.offset, err.detail);
        exit(1);
    }
    lp_interval iv;
    lp_interval_init(&iv);
    while (lp_imatrix_reader_next(r, &iv, &err) == 1) {
        lp_table_merge(truth, &iv.tables[LP_PROF_CODE_REGION]);
        (*out_intervals)++;
    }
    lp_interval_fini(&iv);
    lp_imatrix_reader_free(r);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: check_merge LOWPROF WORKDIR PHASE_PROG\n");
        return 2;
    }
    lowprof = argv[1];
    dir = argv[2];
    prog = argv[3];
    mkdir(dir, 0777);

    /* Three runs whose phases mix differently: a merge that weighted every
     * phase alike, or every run alike, would be wrong. */
    static const char *const schedules[] = {"ABCABC", "AAAAB", "CBBBBC"};
    enum { NRUNS = 3 };
    lp_table truth, unweighted;
    lp_table_init(&truth, 0);
    lp_table_init(&unweighted, 0);
    lp_merge *m;
    LP_CHECK(lp_merge_create(&m) == 0);
    double worst_run = 0;
    for (int i = 0; i < NRUNS; i++) {
        char exh[32], ph[32], path[4096];
        snprintf(exh, sizeof exh, "exh%d", i);
        snprintf(ph, sizeof ph, "phase%d", i);
        record(exh, NULL, schedules[i]);
        record(ph, "phase", schedules[i]);
        lp_table run_truth;
        lp_table_init(&run_truth, 0);
        uint64_t intervals = 0;
        add_matrix(exh, &run_truth, &intervals);
        LP_CHECK(intervals > 20);
        lp_table_merge(&truth, &run_truth);

        lp_profile_set s;
        snprintf(path, sizeof path, "%s/%s.lpprof", dir, ph);
        lp_itest_load(path, &s);
        LP_CHECK(lp_meta_get(&s.meta, "phase-trace") != NULL);
        /* The run's own estimate, for the sampling error a merge can
         * inherit, and the sampled profiles summed without weights. */
        const lp_profile *est = lp_profile_set_find(&s, LP_PROF_CODE_REGION, LP_PHASE_NONE);
        LP_CHECK(est != NULL);
        if (est) {
            double e = lp_count_error(&run_truth, &est->table, 1.0);
            printf("run %d (%s): %llu intervals, the device's estimate errs by %.2f %%\n", i,
                   schedules[i], (unsigned long long)intervals, 100 * e);
            if (e > worst_run)
                worst_run = e;
        }
        for (size_t j = 0; j < s.count; j++)
            if (s.profiles[j].type == LP_PROF_CODE_REGION && s.profiles[j].phase != LP_PHASE_NONE)
                lp_table_merge(&unweighted, &s.profiles[j].table);
        /* The run merged alone is the device's own estimate: the weights
         * the collector takes from the trace are the ones the device
         * scaled by (each count may differ by the rounding alone). */
        lp_merge *one;
        lp_profile_set alone;
        LP_CHECK(lp_merge_create(&one) == 0 && lp_merge_add(one, &s, "d") == 0 &&
                 lp_merge_result(one, &alone) == 0);
        const lp_profile *a = lp_profile_set_find(&alone, LP_PROF_CODE_REGION, LP_PHASE_NONE);
        size_t off = 0, cur = 0;
        const lp_entry *x;
        while (a && est && (x = lp_table_next(&est->table, &cur)) != NULL) {
            const lp_entry *y = lp_table_find(&a->table, x->key);
            uint64_t v = y ? y->v[0] : 0;
            off += (v > x->v[0] ? v - x->v[0] : x->v[0] - v) > 1;
        }
        LP_CHECK(a && est && a->table.count == est->table.count && off == 0);
        lp_profile_set_fini(&alone);
        lp_merge_free(one);
        char device[16];
        snprintf(device, sizeof device, "dev%d", i % 2);
        LP_CHECK(lp_merge_add(m, &s, device) == 0);
        lp_profile_set_fini(&s);
        lp_table_fini(&run_truth);
    }

    lp_merge_stats st;
    lp_merge_get_stats(m, &st);
    LP_CHECK_EQ_U64(st.runs, NRUNS);
    LP_CHECK_EQ_U64(st.phased_runs, NRUNS);
    LP_CHECK_EQ_U64(st.devices, 2);
    LP_CHECK(st.nphases >= 3);

    lp_profile_set merged;
    LP_CHECK(lp_merge_result(m, &merged) == 0);
    const lp_profile *cr = lp_profile_set_find(&merged, LP_PROF_CODE_REGION, LP_PHASE_NONE);
    LP_CHECK(cr != NULL);
    if (cr) {
        double e = lp_count_error(&truth, &cr->table, 1.0);
        double naive = lp_count_error(&truth, &unweighted, 1.0);
        printf("merged: %.2f %% error against the exhaustive profile of the %d runs "
               "(worst single run %.2f %%); without the trace's weights %.2f %%\n",
               100 * e, NRUNS, 100 * worst_run, 100 * naive);
        /* The merge adds the runs' estimates, so its error is at most the
         * worst run's: the relative error of a sum is at most the weighted
         * mean of its parts' errors. What each run's error is belongs to
         * the sampling strategy (doc/eval-phase.md), not to the merge. */
        LP_CHECK(e <= worst_run + 1e-4);
        LP_CHECK(naive > 0.5);
    }
    lp_profile_set_fini(&merged);
    lp_merge_free(m);
    check_cli_merge();
    lp_table_fini(&truth);
    lp_table_fini(&unweighted);
    return lp_test_done();
}
