/* The native benchmark programs' manifest (workloads/native/suite.tsv),
 * read once for every experiment that builds them (eval native, eval pgo):
 * the selection by --programs, the limit on their number, and the check
 * that every name asked for exists. What a line means is the caller's.
 * Also what their runs share: reading a run's first output line. */
#define _DEFAULT_SOURCE /* strsep */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../eval_internal.h"
#include "lowprof/host.h"

int lp__eval_listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *q = list; q && *q; q += strcspn(q, ",") + (q[strcspn(q, ",")] == ','))
        if (strcspn(q, ",") == n && strncmp(q, name, n) == 0)
            return 1;
    return list == NULL;
}

int lp__eval_native_suite(const char *cmd, const char *programs,
                          int (*also)(const char *name, size_t len), size_t max,
                          lp__eval_native_fn fn, void *ctx, char **out_text, size_t *out_n)
{
    *out_text = NULL;
    *out_n = 0;
    char dir[PATH_MAX], manifest[PATH_MAX + 16];
    const char *slash = strrchr(LP_WL_MANIFEST, '/');
    snprintf(dir, sizeof dir, "%.*snative", slash ? (int)(slash - LP_WL_MANIFEST + 1) : 0,
             LP_WL_MANIFEST);
    snprintf(manifest, sizeof manifest, "%s/suite.tsv", dir);
    uint8_t *text;
    size_t size;
    if (lp_host_read_file(manifest, &text, &size) != 0)
        return 1;
    char *all = malloc(size + 1);
    if (!all) {
        lp_free(text);
        return lp_host_fail("out of memory");
    }
    memcpy(all, text, size);
    all[size] = '\0';
    lp_free(text);
    *out_text = all;
    size_t n = 0;
    unsigned lineno = 0;
    int rc = 0;
    const char **names = calloc(max ? max : 1, sizeof *names);
    if (!names)
        return lp_host_fail("out of memory");
    for (char *rest = all, *line; rc == 0 && (line = strsep(&rest, "\n")) != NULL;) {
        lineno++;
        if (line[0] == '#' || line[0] == '\0')
            continue;
        size_t name_len = strcspn(line, "\t");
        char after = line[name_len];
        line[name_len] = '\0';
        int wanted = lp__eval_listed(programs, line);
        line[name_len] = after;
        if (!wanted)
            continue;
        if (n == max)
            rc = lp_host_fail("%s: more than %zu programs", manifest, max);
        else if ((rc = fn(ctx, dir, manifest, lineno, line, n)) == 0)
            names[n++] = line; /* the name stays the line's first word */
    }
    *out_n = n;
    for (const char *q = programs; rc == 0 && q && *q;) { /* every name must exist */
        size_t len = strcspn(q, ",");
        int found = also && also(q, len);
        for (size_t i = 0; i < n && !found; i++)
            found = strncmp(names[i], q, len) == 0 &&
                    (names[i][len] == '\t' || names[i][len] == '\0');
        if (!found)
            rc = lp_host_usage(cmd, "--programs: no native program named '%.*s'", (int)len, q);
        q += len + (q[len] == ',');
    }
    free(names);
    return rc;
}

void lp__eval_first_line(const char *path, char *line, size_t cap)
{
    line[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f) {
        if (!fgets(line, (int)cap, f))
            line[0] = '\0';
        fclose(f);
    }
    line[strcspn(line, "\r\n")] = '\0';
}
