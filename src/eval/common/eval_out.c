/* The experiments' results files. Tables are written by the experiments
 * themselves as CSV (for re-plotting) and Markdown (for people); this file
 * opens and closes them with errors that name the file, formats event
 * counts, and runs gnuplot on the scripts the parts write. */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "eval_internal.h"
#include "lowprof/suite.h"

FILE *lp__eval_open(const char *dir, const char *name, char *path_out, size_t cap)
{
    int n = snprintf(path_out, cap, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= cap) {
        lp_host_fail("%s/%s: path too long", dir, name);
        return NULL;
    }
    FILE *f = fopen(path_out, "w");
    if (!f)
        lp_host_fail("%s: %s", path_out, strerror(errno));
    return f;
}

int lp__eval_close(FILE *f, const char *path)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        lp_host_fail("%s: write error", path);
        return -1;
    }
    return 0;
}

const char *lp__eval_events_text(uint64_t v, char *buf, size_t cap)
{
    if (v == UINT64_MAX)
        snprintf(buf, cap, "never");
    else if (v >= 1000000)
        snprintf(buf, cap, "%.2fM", (double)v / 1e6);
    else if (v >= 1000)
        snprintf(buf, cap, "%.1fK", (double)v / 1e3);
    else
        snprintf(buf, cap, "%llu", (unsigned long long)v);
    return buf;
}

int lp__eval_plot(const char *dir, const char *script)
{
    static int missing = -1;
    if (missing < 0)
        missing = !lp__eval_have_program("gnuplot");
    if (missing)
        return -1;
    char log[4096];
    snprintf(log, sizeof log, "%s/gnuplot.log", dir);
    char *argv[] = {(char *)"gnuplot", (char *)script, NULL};
    /* gnuplot resolves the data files the script names against its working
     * folder, so the scripts use absolute paths. */
    int st = lp_wl_spawn(argv, NULL, 0, 0, NULL, NULL, log, 0);
    if (st != 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        lp_host_fail("gnuplot failed on %s; see %s", script, log);
        return -1;
    }
    return 0;
}

int lp__eval_make_out(const char *dir, char *out_abs)
{
    if (lp_wl_make_dirs(dir) != 0 || !realpath(dir, out_abs))
        return lp_host_fail("%s: %s", dir, strerror(errno));
    return 0;
}
