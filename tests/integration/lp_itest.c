/* Helpers for the integration checkers (see lp_itest.h). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lp_itest.h"

int lp_itest_run(char *const argv[], const char *log_path)
{
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execv(argv[0], argv);
        _exit(127);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int lp_itest_record(const char *lowprof, const char *const *opts, const char *prog,
                    const char *arg, const char *path, const char *log)
{
    char *argv[64];
    int k = 0;
    argv[k++] = (char *)lowprof;
    argv[k++] = "record";
    argv[k++] = "-q";
    argv[k++] = "--no-imatrix";
    argv[k++] = "-o";
    argv[k++] = (char *)path;
    for (int i = 0; opts[i] && k < 56; i++)
        argv[k++] = (char *)opts[i];
    argv[k++] = "--";
    argv[k++] = (char *)prog;
    if (arg)
        argv[k++] = (char *)arg;
    argv[k] = NULL;
    int st = lp_itest_run(argv, log);
    if (st != 0 && lp_itest_vgtool_missing(log))
        exit(77);
    return st;
}

void lp_itest_load(const char *path, lp_profile_set *out)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    static unsigned char buf[64 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    lp_memsource ms;
    lp_read_error err;
    int rc = lp_profile_file_read(lp_memsource_init(&ms, buf, n), out, &err);
    if (rc != LP_OK) {
        fprintf(stderr, "%s: offset %llu: %s: %s\n", path, (unsigned long long)err.offset,
                err.field, err.detail);
        exit(1);
    }
}

const char *lp_itest_fn(lp_symbolizer *s, uint64_t pc)
{
    lp_symbol sym;
    lp_symbolize(s, pc, &sym);
    return sym.function ? sym.function : "";
}

int lp_itest_file_has(const char *path, const char *text)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, text) != NULL;
    fclose(f);
    return found;
}

int lp_itest_vgtool_missing(const char *log_path)
{
    return lp_itest_file_has(log_path, "was not built") ||
           lp_itest_file_has(log_path, "valgrind is not installed") ||
           lp_itest_file_has(log_path, "has no lowprof");
}
