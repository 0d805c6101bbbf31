/* `lowprof acf` on ACFs written here: a good one (Fig. 6 and equations (1)
 * and (2)) prints the table and a warning, exit 0; a bad one gives
 * FILE:LINE:COL: error: with the line and a caret, exit 1; a missing file
 * and bad --set values; `list` and NAME lookup through LOWPROF_ACF_DIR.
 * Needs no Valgrind tool.
 * usage: check_acf_cli LOWPROF WORKDIR */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../unit/lp_test.h"
#include "lp_itest.h"

static const char *lowprof, *dir;

static const char good[] = "# Fig. 6 with the triggers of equations (1) and (2)\n"
                           "HPS_R2 = 1\n"
                           "counter 0 = HPS_R2\n"
                           "P0 : T.OP == on_trig_inst -> set_0(HPS_R0), null\n"
                           "P0 : T.OP == off_trig_inst -> set_0(HPS_R1), null\n"
                           "P1:\tT.OPCLASS == branch && zero_0 \xe2\x87\x92 R1, null\n"
                           "R1:\tcall(Branch_handler, T.INSN); T.INSN;\n"
                           "P2:\tT.OPCLASS == proc_call (T.OPCLASS == branch && T.PC < T.Target) "
                           "&& zero_0 \xe2\x87\x92 R2, null\n"
                           "R2:\tcall(HotMethod_handler, T.INSN); T.INSN;\n"
                           "P3:\tT.OPCLASS == proc_call && zero_0 \xe2\x87\x92 R3, null\n"
                           "R3:\tcall(CallPair_handler, T.INSN); T.INSN;\n";

static const char bad[] = "# an undefined replacement\n"
                          "counter 0\n"
                          "P1 : zero_0 -> R9, null\n";

static void write_file(const char *name, const char *text, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

/* The whole log, for checks that span lines. */
static char *read_log(const char *path)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    return buf;
}

/* Runs lowprof with args; checks its exit status and that the log holds
 * each of want[] (NULL-terminated); prints the log when a check fails. */
static void expect(const char *what, char **args, int status, const char *const *want)
{
    char log[4096];
    snprintf(log, sizeof log, "%s/%s.log", dir, what);
    char *argv[16] = {(char *)lowprof};
    int n = 1;
    while (args[n - 1] && n < 15) {
        argv[n] = args[n - 1];
        n++;
    }
    argv[n] = NULL;
    int rc = lp_itest_run(argv, log);
    int failed = lp_test_failures;
    LP_CHECK_EQ_U64(rc, status);
    const char *text = read_log(log);
    for (size_t i = 0; want[i]; i++) {
        LP_CHECK(strstr(text, want[i]) != NULL);
        if (!strstr(text, want[i]))
            fprintf(stderr, "  %s: missing \"%s\"\n", what, want[i]);
    }
    if (lp_test_failures != failed)
        fprintf(stderr, "--- %s (exit %d):\n%s---\n", what, rc, text);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: check_acf_cli LOWPROF WORKDIR\n");
        return 2;
    }
    lowprof = argv[1];
    dir = argv[2];
    mkdir(dir, 0755);
    char good_path[4096], bad_path[4096], wanted[3][4200];
    write_file("fig6.acf", good, good_path, sizeof good_path);
    write_file("bad.acf", bad, bad_path, sizeof bad_path);

    snprintf(wanted[0], sizeof wanted[0], "%s:8:28: warning: no operator before '('", good_path);
    const char *const good_want[] = {
        wanted[0],
        "productions (5)",
        "  2  P1     6     null           R1           (T.OPCLASS == branch) && zero_0\n",
        "P2     8",
        "P3     10",
        "  R2     9     call(HotMethod_handler, T.INSN); T.INSN\n",
        "  0        16     HPS_R2 = 1\n",
        NULL};
    expect("check-good", (char *[]){"acf", "check", good_path, NULL}, 0, good_want);

    snprintf(wanted[1], sizeof wanted[1], "%s:3:16: error: replacement 'R9' is not defined\n",
             bad_path);
    const char *const bad_want[] = {wanted[1], "\nP1 : zero_0 -> R9, null\n               ^\n",
                                    NULL};
    expect("check-bad", (char *[]){"acf", "check", bad_path, NULL}, 1, bad_want);

    char missing[4096];
    snprintf(missing, sizeof missing, "%s/none.acf", dir);
    snprintf(wanted[2], sizeof wanted[2], "%s: No such file or directory", missing);
    const char *const missing_want[] = {wanted[2], NULL};
    expect("check-missing", (char *[]){"acf", "check", missing, NULL}, 1, missing_want);

    /* NAMEs, list and --set through LOWPROF_ACF_DIR. */
    setenv("LOWPROF_ACF_DIR", dir, 1);
    const char *const set_want[] = {"  0        16     HPS_R2 = 0x1388\n", "HPS_R2    0x1388\n",
                                    NULL};
    expect("check-name-set", (char *[]){"acf", "check", "fig6", "--set", "HPS_R2=5000", NULL}, 0,
           set_want);
    const char *const usage_want[] = {"--set needs HPS_Rk=V", NULL};
    expect("check-bad-set", (char *[]){"acf", "check", "fig6", "--set", "HPS_R16=1", NULL}, 2,
           usage_want);
    const char *const unknown_want[] = {"no ACF named 'nothing'", NULL};
    expect("check-unknown", (char *[]){"acf", "check", "nothing", NULL}, 1, unknown_want);
    const char *const list_want[] = {"  bad   an undefined replacement\n",
                                     "  fig6  Fig. 6 with the triggers of equations (1) and (2)\n",
                                     NULL};
    expect("list", (char *[]){"acf", "list", NULL}, 0, list_want);
    return lp_test_done();
}
