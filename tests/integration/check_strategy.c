/* Sampling strategies in the front end, checked against an exhaustive
 * recording of the same deterministic run (same command, same environment,
 * so the same intervals):
 *   - periodic:1 and exhaustive estimate exactly the exhaustive profile;
 *   - under periodic:3:1 every block execution runs exactly one helper, the
 *     profiling one exactly as often as blocks executed in the sampled
 *     intervals of the exhaustive matrix (the builders really are off in
 *     the others), and the sampled profile equals the sum of those
 *     intervals' code regions;
 *   - under phase, the phase trace covers every interval and the report
 *     prints the timeline.
 * usage: check_strategy LOWPROF WORKDIR -- PROGRAM [ARGS...] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../unit/lp_test.h"
#include "lp_itest.h"

static const char *lowprof, *dir;
static char **prog;
static int nprog;

static void record(const char *name, const char *strategy, lp_profile_set *out)
{
    char path[4096], log[4096];
    snprintf(path, sizeof path, "%s/%s.lpprof", dir, name);
    snprintf(log, sizeof log, "%s/%s.log", dir, name);
    char *argv[64];
    int k = 0;
    argv[k++] = (char *)lowprof;
    argv[k++] = "record";
    argv[k++] = "-q";
    argv[k++] = "--interval";
    argv[k++] = "1000000";
    argv[k++] = "-o";
    argv[k++] = path;
    if (strategy) {
        argv[k++] = "--strategy";
        argv[k++] = (char *)strategy;
    }
    argv[k++] = "--";
    for (int i = 0; i < nprog && k < 62; i++)
        argv[k++] = prog[i];
    argv[k] = NULL;
    if (lp_itest_run(argv, log) != 0) {
        fprintf(stderr, "recording %s failed; see %s\n", name, log);
        exit(1);
    }
    lp_itest_load(path, out);
}

static uint64_t meta_u64(const lp_profile_set *s, const char *key)
{
    const char *v = lp_meta_get(&s->meta, key);
    if (!v) {
        fprintf(stderr, "meta key %s missing\n", key);
        return UINT64_MAX;
    }
    return strtoull(v, NULL, 10);
}

static int tables_equal(const lp_table *a, const lp_table *b)
{
    if (a->count != b->count)
        return 0;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(a, &cur)) != NULL) {
        const lp_entry *o = lp_table_find(b, e->key);
        if (!o || o->v[0] != e->v[0] || o->v[1] != e->v[1])
            return 0;
    }
    return 1;
}

static const lp_table *whole(const lp_profile_set *s, unsigned type)
{
    const lp_profile *p = lp_profile_set_find(s, type, LP_PHASE_NONE);
    return p ? &p->table : NULL;
}

int main(int argc, char **argv)
{
    if (argc < 5 || strcmp(argv[3], "--") != 0) {
        fprintf(stderr, "usage: check_strategy LOWPROF WORKDIR -- PROGRAM [ARGS...]\n");
        return 2;
    }
    lowprof = argv[1];
    dir = argv[2];
    prog = argv + 4;
    nprog = argc - 4;
    mkdir(dir, 0777);

    lp_profile_set exh = {0}, all = {0}, every = {0}, per = {0}, ph = {0};
    record("exh", NULL, &exh);
    record("all", "exhaustive", &all);
    record("every", "periodic:1", &every);
    record("per", "periodic:3:1", &per);
    record("phase", "phase", &ph);
    uint64_t insns = meta_u64(&exh, "instructions");
    LP_CHECK(insns > 5000000);
    int same_run = meta_u64(&all, "instructions") == insns &&
                   meta_u64(&every, "instructions") == insns &&
                   meta_u64(&per, "instructions") == insns && meta_u64(&ph, "instructions") == insns;
    LP_CHECK(same_run);
    if (!same_run) {
        fprintf(stderr, "the runs differ in length; the checks below need one deterministic run\n");
        return lp_test_done();
    }

    for (unsigned t = LP_PROF_CODE_REGION; t <= LP_PROF_BLOCK; t++) {
        LP_CHECK(whole(&all, t) && tables_equal(whole(&exh, t), whole(&all, t)));
        LP_CHECK(whole(&every, t) && tables_equal(whole(&exh, t), whole(&every, t)));
    }

    /* Helper calls against the exhaustive matrix, interval by interval. */
    char path[4096];
    snprintf(path, sizeof path, "%s/exh.lpim", dir);
    FILE *f = fopen(path, "rb");
    LP_CHECK(f != NULL);
    if (!f)
        return lp_test_done();
    static unsigned char buf[64 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    lp_memsource ms;
    lp_imatrix_reader *r;
    lp_read_error err;
    LP_CHECK(lp_imatrix_reader_open(lp_memsource_init(&ms, buf, n), &r, &err) == LP_OK);
    lp_interval iv;
    lp_interval_init(&iv);
    lp_table picked;
    lp_table_init(&picked, 0);
    uint64_t sampled_blocks = 0, all_blocks = 0, intervals = 0;
    while (lp_imatrix_reader_next(r, &iv, &err) == 1) {
        uint64_t blocks = 0;
        size_t cur = 0;
        const lp_entry *e;
        while ((e = lp_table_next(&iv.tables[LP_PROF_BLOCK], &cur)) != NULL)
            blocks += e->v[0];
        all_blocks += blocks;
        if (iv.index % 3 == 1) {
            sampled_blocks += blocks;
            lp_table_merge(&picked, &iv.tables[LP_PROF_CODE_REGION]);
        }
        intervals++;
    }
    lp_imatrix_reader_free(r);
    lp_interval_fini(&iv);
    uint64_t prof = meta_u64(&per, "profile-helper-calls");
    uint64_t sig = meta_u64(&per, "signature-helper-calls");
    LP_CHECK_EQ_U64(meta_u64(&exh, "profile-helper-calls"), all_blocks);
    LP_CHECK_EQ_U64(prof + sig, all_blocks);
    LP_CHECK_EQ_U64(prof, sampled_blocks);
    LP_CHECK(sig > prof); /* two intervals in three are off */
    const lp_profile *stratum = lp_profile_set_find(&per, LP_PROF_CODE_REGION, 0);
    LP_CHECK(stratum && tables_equal(&stratum->table, &picked));
    LP_CHECK_EQ_U64(meta_u64(&per, "sampled-intervals"), (intervals + 1) / 3);

    /* Phase-aware: a trace entry per interval, some intervals sampled. */
    const char *trace = lp_meta_get(&ph.meta, "phase-trace");
    uint64_t covered = 0;
    for (const char *s = trace; s && *s;) {
        const char *star = strchr(s, '*');
        if (!star)
            break;
        char *end;
        covered += strtoull(star + 1, &end, 10);
        s = *end == ',' ? end + 1 : end;
    }
    LP_CHECK_EQ_U64(covered, intervals);
    uint64_t ph_sampled = meta_u64(&ph, "sampled-intervals");
    LP_CHECK(ph_sampled >= 1 && ph_sampled < intervals);
    snprintf(path, sizeof path, "%s/phase.lpprof", dir);
    char log[4096];
    snprintf(log, sizeof log, "%s/phase-report.txt", dir);
    char *rep[] = {(char *)lowprof, "report", "--top", "3", path, NULL};
    LP_CHECK_EQ_U64(lp_itest_run(rep, log), 0);
    LP_CHECK(lp_itest_file_has(log, "timeline"));

    lp_table_fini(&picked);
    lp_profile_set_fini(&exh);
    lp_profile_set_fini(&all);
    lp_profile_set_fini(&every);
    lp_profile_set_fini(&per);
    lp_profile_set_fini(&ph);
    return lp_test_done();
}
