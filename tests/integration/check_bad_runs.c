/* The command line's bad cases: a missing program, a program that crashes,
 * one killed by a signal, one that exits non-zero, and bad options. The
 * profile up to a crash or kill must still be written, marked incomplete.
 * usage: check_bad_runs LOWPROF CRASH_PROG WORKDIR */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../unit/lp_test.h"
#include "lp_itest.h"

static const char *lowprof, *prog, *dir;

/* Records prog with mode; checks completeness, the reason and that the
 * 321 calls of work() made before the end are in the profile. */
static void check_mode(const char *mode, const char *complete, const char *reason_part,
                       const char *status_key, const char *status)
{
    char out[4096], log[4096];
    snprintf(out, sizeof out, "%s/%s.lpprof", dir, mode);
    snprintf(log, sizeof log, "%s/%s.log", dir, mode);
    char *cmd[] = {(char *)lowprof, "record", "-q", "-o", out, "--", (char *)prog, (char *)mode,
                   NULL};
    LP_CHECK_EQ_U64(lp_itest_run(cmd, log), 0);
    lp_profile_set set = {0};
    lp_itest_load(out, &set);
    const char *c = lp_meta_get(&set.meta, "complete");
    LP_CHECK(c && strcmp(c, complete) == 0);
    const char *r = lp_meta_get(&set.meta, "incomplete-reason");
    LP_CHECK(reason_part ? r && strstr(r, reason_part) : r == NULL);
    const char *st = lp_meta_get(&set.meta, status_key);
    LP_CHECK(st && strcmp(st, status) == 0);
    lp_symbolizer *sym;
    LP_CHECK(lp_symbolizer_create(&set.modules, &sym) == LP_OK);
    uint64_t work_calls = 0;
    size_t cur = 0;
    const lp_entry *e;
    lp_profile *m = lp_profile_set_find(&set, LP_PROF_METHOD, LP_PHASE_NONE);
    while (m && (e = lp_table_next(&m->table, &cur)) != NULL)
        if (strcmp(lp_itest_fn(sym, e->key.a), "work") == 0)
            work_calls += e->v[0];
    LP_CHECK_EQ_U64(work_calls, 321);
    lp_symbolizer_free(sym);
    lp_profile_set_fini(&set);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: check_bad_runs LOWPROF CRASH_PROG WORKDIR\n");
        return 2;
    }
    lowprof = argv[1];
    prog = argv[2];
    dir = argv[3];
    mkdir(dir, 0755);
    check_mode("segv", "no", "signal 11", "signal", "11");
    check_mode("kill", "no", "signal 15", "signal", "15");
    check_mode("exit3", "yes", NULL, "exit-status", "3");

    char log[4096];
    snprintf(log, sizeof log, "%s/missing.log", dir);
    char *missing[] = {(char *)lowprof, "record", "--", "/nonexistent/program", NULL};
    LP_CHECK_EQ_U64(lp_itest_run(missing, log), 1);
    LP_CHECK(lp_itest_file_has(log, "/nonexistent/program: no such program"));

    char *bad_type[] = {(char *)lowprof, "record", "--profile", "edges", "--", "true", NULL};
    LP_CHECK_EQ_U64(lp_itest_run(bad_type, log), 2);
    LP_CHECK(lp_itest_file_has(log, "'edges' is not a profile type"));

    char *no_prog[] = {(char *)lowprof, "record", NULL};
    LP_CHECK_EQ_U64(lp_itest_run(no_prog, log), 2);
    LP_CHECK(lp_itest_file_has(log, "no program given"));

    char *bad_num[] = {(char *)lowprof, "record", "--interval", "12x", "--", "true", NULL};
    LP_CHECK_EQ_U64(lp_itest_run(bad_num, log), 2);
    LP_CHECK(lp_itest_file_has(log, "--interval needs a whole number, not '12x'"));

    char exit3[4096];
    snprintf(exit3, sizeof exit3, "%s/exit3.lpprof", dir);
    /* A directory for a program: Valgrind refuses it before any log line;
     * the message says so instead of quoting nothing. */
    char *a_dir[] = {(char *)lowprof, "record", "-o", exit3, "--no-imatrix", "--", "/tmp", NULL};
    char dir_log[4096];
    snprintf(dir_log, sizeof dir_log, "%s/dir.log", dir);
    LP_CHECK_EQ_U64(lp_itest_run(a_dir, dir_log), 1);
    LP_CHECK(lp_itest_file_has(dir_log, "nothing in its log"));

    /* report: a phase the file does not have is an error; without FILE it
     * reads lowprof.lpprof of the current folder, as perf report reads
     * perf.data, and says so when there is none. */
    char script[16384], empty[4096];
    char *no_phase[] = {(char *)lowprof, "report", "--phase", "99", exit3, NULL};
    LP_CHECK_EQ_U64(lp_itest_run(no_phase, log), 1);
    LP_CHECK(lp_itest_file_has(log, "has no profile of phase 99"));
    snprintf(empty, sizeof empty, "%s/report-cwd", dir);
    mkdir(empty, 0755);
    snprintf(script, sizeof script, "cd '%s' && rm -f lowprof.lpprof && exec '%s' report", empty,
             lowprof);
    char *no_file[] = {"/bin/sh", "-c", script, NULL};
    LP_CHECK_EQ_U64(lp_itest_run(no_file, log), 2);
    LP_CHECK(lp_itest_file_has(log, "there is no lowprof.lpprof here"));
    snprintf(script, sizeof script, "cd '%s' && cp '%s' lowprof.lpprof && exec '%s' report", empty,
             exit3, lowprof);
    LP_CHECK_EQ_U64(lp_itest_run(no_file, log), 0);
    LP_CHECK(lp_itest_file_has(log, "lowprof report: lowprof.lpprof"));
    return lp_test_done();
}
