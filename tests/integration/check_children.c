/* lowprof record follows what the command runs: `env VAR=1 prog` is
 * recorded as prog, a shell running two programs leaves a profile per
 * process with their exact calls, and --no-trace-children records the
 * command's own process only.
 * usage: check_children LOWPROF WORKDIR PHASE_PROG */
#define _DEFAULT_SOURCE /* realpath */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../unit/lp_test.h"
#include "lp_itest.h"

static const char *lowprof, *dir, *prog;

static void record(const char *name, const char *flag, char *const cmd[])
{
    char out[4096], log[4096];
    snprintf(out, sizeof out, "%s/%s.lpprof", dir, name);
    snprintf(log, sizeof log, "%s/%s.log", dir, name);
    char *argv[32];
    int k = 0;
    argv[k++] = (char *)lowprof;
    argv[k++] = "record";
    argv[k++] = "-q";
    argv[k++] = "-o";
    argv[k++] = out;
    if (flag)
        argv[k++] = (char *)flag;
    argv[k++] = "--";
    for (int i = 0; cmd[i] && k < 31; i++)
        argv[k++] = cmd[i];
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

/* Invocations of function fn in the profile at path. */
static uint64_t calls(const char *path, const char *fn)
{
    lp_profile_set s;
    lp_itest_load(path, &s);
    lp_symbolizer *sym;
    uint64_t n = 0;
    if (lp_symbolizer_create(&s.modules, &sym) == LP_OK) {
        const lp_profile *p = lp_profile_set_find(&s, LP_PROF_METHOD, LP_PHASE_NONE);
        size_t cur = 0;
        const lp_entry *e;
        while (p && (e = lp_table_next(&p->table, &cur)) != NULL)
            if (strcmp(lp_itest_fn(sym, e->key.a), fn) == 0)
                n += e->v[0];
        lp_symbolizer_free(sym);
    }
    lp_profile_set_fini(&s);
    return n;
}

static const char *program_of(const char *path, char *buf, size_t cap)
{
    lp_profile_set s;
    lp_itest_load(path, &s);
    const char *p = lp_meta_get(&s.meta, "program");
    snprintf(buf, cap, "%s", p ? p : "");
    lp_profile_set_fini(&s);
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: check_children LOWPROF WORKDIR PHASE_PROG\n");
        return 2;
    }
    lowprof = argv[1];
    dir = argv[2];
    prog = realpath(argv[3], NULL);
    /* Child profiles are found by listing the folder: start it empty. */
    char clean[4200];
    snprintf(clean, sizeof clean, "rm -rf '%s'", dir);
    if (system(clean) != 0 || mkdir(dir, 0777) != 0) {
        fprintf(stderr, "cannot prepare %s\n", dir);
        return 1;
    }
    char path[4096], buf[4096];

    /* env execs the program: its profile is the program's. */
    char *env_cmd[] = {"env", "LP_CHILDREN_TEST=1", (char *)prog, "ABCA", NULL};
    record("env", NULL, env_cmd);
    snprintf(path, sizeof path, "%s/env.lpprof", dir);
    LP_CHECK(strcmp(program_of(path, buf, sizeof buf), prog) == 0);
    LP_CHECK_EQ_U64(calls(path, "phase_hash"), 2);
    LP_CHECK_EQ_U64(calls(path, "phase_sweep"), 1);

    /* Only the command's own process: env, which never reaches phase_hash. */
    record("own", "--no-trace-children", env_cmd);
    snprintf(path, sizeof path, "%s/own.lpprof", dir);
    LP_CHECK(strstr(program_of(path, buf, sizeof buf), "env") != NULL);
    LP_CHECK_EQ_U64(calls(path, "phase_hash"), 0);

    /* A shell that runs the program twice: a profile per process. */
    char script[8192];
    snprintf(script, sizeof script, "'%s' A; '%s' BBB", prog, prog);
    char *sh_cmd[] = {"sh", "-c", script, NULL};
    record("sh", NULL, sh_cmd);
    DIR *d = opendir(dir);
    struct dirent *e;
    int children = 0;
    uint64_t hash = 0, sweep = 0;
    while (d && (e = readdir(d)) != NULL) {
        int pid;
        char tail[16];
        if (sscanf(e->d_name, "sh.%d.%15s", &pid, tail) != 2 || strcmp(tail, "lpprof") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        LP_CHECK(strcmp(program_of(path, buf, sizeof buf), prog) == 0);
        hash += calls(path, "phase_hash");
        sweep += calls(path, "phase_sweep");
        children++;
        snprintf(path, sizeof path, "%s/sh.%d.lpim", dir, pid);
        struct stat st;
        LP_CHECK(stat(path, &st) == 0 && st.st_size > 0);
    }
    if (d)
        closedir(d);
    /* The shell may exec its last command itself: then that run is the
     * main profile's. */
    snprintf(path, sizeof path, "%s/sh.lpprof", dir);
    hash += calls(path, "phase_hash");
    sweep += calls(path, "phase_sweep");
    LP_CHECK(children >= 1);
    LP_CHECK_EQ_U64(hash, 1);
    LP_CHECK_EQ_U64(sweep, 3);
    printf("check_children: %d child profiles\n", children);
    return lp_test_done();
}
