/* Finding and reading ACFs (HPS productions, doc/acf.md) the same way for
 * every command that takes one (`lowprof acf`, `record --acf`, `eval hps`):
 * a NAME is looked up among the shipped ACFs, a path is read as it is, and
 * errors and warnings print as FILE:LINE:COL lines with the source line
 * and a caret, as compilers do. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lowprof/host.h"

/* ---- finding ACFs ----------------------------------------------------------------- */

/* The folder NAMEs resolve in: $LOWPROF_ACF_DIR if set; else the source
 * tree's share/acf if it is there; else the installed one beside this
 * binary (bin/../share/lowprof/acf). Names and `list` use the same one, so
 * what list shows is what check finds. Writes the folder used, or those
 * looked at, into tried for messages. */
const char *lp_host_acf_dir(char *installed, size_t cap, char *tried, size_t tried_cap)
{
    const char *env = getenv("LOWPROF_ACF_DIR");
    if (env && env[0]) {
        snprintf(tried, tried_cap, "%s (LOWPROF_ACF_DIR)", env);
        return env;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    snprintf(installed, cap, "%s/../share/lowprof/acf", exe);
    snprintf(tried, tried_cap, "%s and %s", LP_ACF_DIR, installed);
    const char *dirs[] = {LP_ACF_DIR, installed};
    for (size_t i = 0; i < 2; i++) {
        DIR *d = opendir(dirs[i]);
        if (d) {
            closedir(d);
            snprintf(tried, tried_cap, "%s", dirs[i]);
            return dirs[i];
        }
    }
    return NULL;
}

static int lp_acf_is_name(const char *s)
{
    size_t n = strlen(s);
    return n && !strchr(s, '/') && !(n >= 4 && strcmp(s + n - 4, ".acf") == 0);
}

/* The path of name_or_path into out; prints why not and returns
 * LP_ENOENT for a NAME no folder has. */
static int lp_acf_resolve(const char *name_or_path, char *out, size_t cap)
{
    if (!lp_acf_is_name(name_or_path)) {
        if ((size_t)snprintf(out, cap, "%s", name_or_path) < cap)
            return 0;
        lp_host_fail("%s: path too long", name_or_path);
        return LP_EINVAL;
    }
    char installed[PATH_MAX + 32], tried[2 * PATH_MAX + 64];
    const char *dir = lp_host_acf_dir(installed, sizeof installed, tried, sizeof tried);
    if (dir && (size_t)snprintf(out, cap, "%s/%s.acf", dir, name_or_path) < cap &&
        access(out, F_OK) == 0)
        return 0;
    lp_host_fail("no ACF named '%s' (looked in %s); `lowprof acf list` names the shipped ones",
                name_or_path, tried);
    return LP_ENOENT;
}

/* ---- reporting ------------------------------------------------------------------------ */

/* FILE:LINE:COL: KIND: MESSAGE, then the source line and a caret under the
 * column. The caret line copies the line's tabs and counts a UTF-8
 * character (the arrows) as one column, so it lines up on a terminal. */
static void lp_acf_report(const char *path, const uint8_t *text, size_t size, const lp_hps_diag *d,
                          const char *kind)
{
    fprintf(stderr, "%s:%u:%u: %s: %s\n", path, d->line, d->column, kind, d->message);
    size_t start = 0;
    unsigned line = 1;
    while (line < d->line && start < size)
        if (text[start++] == '\n')
            line++;
    if (line < d->line)
        return;
    size_t end = start;
    while (end < size && text[end] != '\n')
        end++;
    while (end > start && text[end - 1] == '\r')
        end--;
    fprintf(stderr, "%.*s\n", (int)(end - start), (const char *)text + start);
    for (size_t i = 0; i + 1 < d->column; i++) {
        uint8_t c = start + i < end ? text[start + i] : ' ';
        if ((c & 0xc0) != 0x80)
            fputc(c == '\t' ? '\t' : ' ', stderr);
    }
    fputs("^\n", stderr);
}

int lp_host_acf_load(const char *name_or_path, lp_hps_acf *out, char *path_out, size_t path_size)
{
    char own[PATH_MAX + 64];
    char *path = path_out && path_size ? path_out : own;
    size_t cap = path_out && path_size ? path_size : sizeof own;
    memset(out, 0, sizeof *out);
    int rc = lp_acf_resolve(name_or_path, path, cap);
    if (rc)
        return rc;
    uint8_t *text;
    size_t size;
    rc = lp_host_read_file(path, &text, &size);
    if (rc)
        return rc;
    lp_hps_diag err;
    rc = lp_hps_parse((const char *)text, size, out, &err);
    fflush(stdout);
    if (rc == LP_ESPEC)
        lp_acf_report(path, text, size, &err, "error");
    else if (rc)
        fprintf(stderr, "lowprof: %s: %s\n", path, lp_strerror(rc));
    for (size_t i = 0; !rc && i < out->nwarnings; i++)
        lp_acf_report(path, text, size, &out->warning[i], "warning");
    lp_free(text);
    return rc;
}
