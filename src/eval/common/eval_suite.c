/* The experiments' workload runner. Picks the suite's workloads the
 * options ask for, makes their inputs as `lowprof workloads` does (same
 * generator, same preparation steps, the same stamp file, so either command
 * reuses the other's inputs), and records a workload by running this
 * binary's `record` subcommand as a child, in the suite's fixed
 * environment, exactly as a person would by hand.
 *
 * Tuned for: a handful of recordings of seconds to minutes each. */
#define _GNU_SOURCE /* open_memstream, environ */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eval_internal.h"
#include "lowprof/suite.h"

/* The small mode's workloads: two compressors and the C compiler (the
 * paper's gcc). */
static const char *const small_default[] = {"bzip2-9", "gzip-9", "cc1"};

int lp__eval_pathf(char *buf, size_t cap, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(buf, cap, format, ap);
    va_end(ap);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* ---- processes ------------------------------------------------------------------ */

int lp__eval_have_program(const char *name)
{
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    char buf[PATH_MAX];
    for (const char *p = path;;) {
        const char *e = strchr(p, ':');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n && n + strlen(name) + 2 < sizeof buf) {
            snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, name);
            if (access(buf, X_OK) == 0)
                return 1;
        }
        if (!e)
            return 0;
        p = e + 1;
    }
}

/* ---- selection ----------------------------------------------------------------------- */

static int add_trace(lp__eval_workload **v, size_t *n, const char *name, size_t name_len,
                     const char *path, int recorded)
{
    lp__eval_workload *nv = realloc(*v, (*n + 1) * sizeof **v);
    if (!nv)
        return lp_host_fail("out of memory");
    *v = nv;
    lp__eval_workload *t = &nv[(*n)++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%.*s", (int)name_len, name);
    snprintf(t->path, sizeof t->path, "%s", path ? path : "");
    t->recorded = recorded;
    return 0;
}

int lp__eval_wl_select(const lp__eval_suite *o, lp__eval_workload **out, size_t *out_n)
{
    *out = NULL;
    *out_n = 0;
    if (o->traces) {
        for (const char *p = o->traces; *p;) {
            size_t len = strcspn(p, ",");
            char path[4096];
            snprintf(path, sizeof path, "%.*s", (int)len, p);
            if (access(path, R_OK) != 0) {
                free(*out);
                *out = NULL;
                *out_n = 0;
                return lp_host_fail("%s: %s", path, strerror(errno));
            }
            const char *base = strrchr(path, '/');
            base = base ? base + 1 : path;
            size_t blen = strcspn(base, ".");
            if (add_trace(out, out_n, base, blen ? blen : strlen(base), path, 0) != 0)
                return 1;
            p += len;
            if (*p)
                p++;
        }
        return 0;
    }
    lp_wl_manifest m;
    if (lp_wl_manifest_load(LP_WL_MANIFEST, &m) != 0)
        return 1;
    int rc = 0;
    if (o->workloads) {
        /* In the order given, each name checked. */
        for (const char *p = o->workloads; *p && rc == 0;) {
            size_t len = strcspn(p, ",");
            int found = 0;
            for (size_t i = 0; i < m.count && !found; i++) {
                const lp_wl_entry *e = &m.items[i];
                found = !lp_wl_entry_is_prepare(e) && lp_wl_entry_has_size(e, o->size) &&
                        strlen(e->name) == len && strncmp(e->name, p, len) == 0;
            }
            if (!found)
                rc = lp_host_usage("eval", "no %s workload named '%.*s' in %s", o->size, (int)len, p,
                                  LP_WL_MANIFEST);
            else
                rc = add_trace(out, out_n, p, len, NULL, 1);
            p += len;
            if (*p)
                p++;
        }
    } else {
        for (size_t i = 0; i < m.count && rc == 0; i++) {
            const lp_wl_entry *e = &m.items[i];
            if (lp_wl_entry_is_prepare(e) || !lp_wl_entry_has_size(e, o->size))
                continue;
            int want = o->full;
            for (size_t k = 0; !want && k < sizeof small_default / sizeof small_default[0]; k++)
                want = strcmp(e->name, small_default[k]) == 0;
            if (want)
                rc = add_trace(out, out_n, e->name, strlen(e->name), NULL, 1);
        }
        if (rc == 0 && *out_n == 0)
            rc = lp_host_fail("%s has none of the workloads bzip2-9, gzip-9, cc1 (choose with "
                             "--workloads)",
                             LP_WL_MANIFEST);
    }
    lp_wl_manifest_fini(&m);
    if (rc) {
        free(*out);
        *out = NULL;
        *out_n = 0;
    }
    return rc;
}

/* ---- inputs ------------------------------------------------------------------------------ */

typedef struct wl_env {
    int ready;
    char data[PATH_MAX];
    char out[PATH_MAX];
    char cc1[PATH_MAX];
    lp_wl_manifest m;
} wl_env;

static wl_env env_state;

static int setup(const lp__eval_suite *o)
{
    wl_env *w = &env_state;
    if (w->ready)
        return 0;
    if (lp_wl_manifest_load(LP_WL_MANIFEST, &w->m) != 0)
        return 1;
    if (o->data_dir) {
        if (!realpath(o->data_dir, w->data))
            return lp_host_fail("%s: %s", o->data_dir, strerror(errno));
    } else {
        if (lp__eval_pathf(w->data, sizeof w->data, "%s/data", o->out_dir))
            return lp_host_fail("%s: path too long", o->out_dir);
    }
    if (lp__eval_pathf(w->out, sizeof w->out, "%s/traces/out", o->out_dir))
        return lp_host_fail("%s: path too long", o->out_dir);
    if (lp_wl_make_dirs(w->data) != 0 || lp_wl_make_dirs(w->out) != 0)
        return lp_host_fail("%s: %s", o->out_dir, strerror(errno));
    lp_wl_find_cc1(w->cc1, sizeof w->cc1); /* checked when a workload needs it */
    lp_wl_vars vars = {w->data, w->out, LP_WL_DRIVERS_DIR, w->cc1};
    if (lp_wl_prepare(&w->m, LP_WL_MANIFEST, o->size, &vars, o->out_dir, "lowprof eval",
                      o->data_dir != NULL) != 0)
        return 1;
    w->ready = 1;
    return 0;
}

int lp__eval_wl_run(const lp__eval_suite *o, const char *name, char *const *opts,
                       size_t nopts, const char *prof, const char *log, double *out_seconds)
{
    if (setup(o) != 0)
        return 1;
    wl_env *w = &env_state;
    const lp_wl_entry *e = NULL;
    for (size_t i = 0; i < w->m.count && !e; i++)
        if (!lp_wl_entry_is_prepare(&w->m.items[i]) &&
            lp_wl_entry_has_size(&w->m.items[i], o->size) &&
            strcmp(w->m.items[i].name, name) == 0)
            e = &w->m.items[i];
    if (!e)
        return lp_host_fail("%s: no %s workload named %s", LP_WL_MANIFEST, o->size, name);
    for (size_t k = 0; k < e->nwords; k++)
        if (strstr(e->words[k], "{cc1}") && !w->cc1[0])
            return lp_host_fail("%s: cannot find cc1 (`gcc -print-prog-name=cc1`); install gcc",
                               name);
    lp_wl_vars vars = {w->data, w->out, LP_WL_DRIVERS_DIR, w->cc1};
    lp_wl_command c;
    if (lp_wl_command_expand(e, &vars, LP_WL_MANIFEST, &c) != 0)
        return 1;
    /* The running binary itself, even if a rebuild has replaced the file
     * since it started. */
    char self[] = "/proc/self/exe";
    char out[PATH_MAX + 64];
    if (lp__eval_pathf(out, sizeof out, "%s/%s.stdout", w->out, name)) {
        lp_wl_command_fini(&c);
        return lp_host_fail("%s: path too long", o->out_dir);
    }
    char *fixed[] = {self, (char *)"record", (char *)"-q", (char *)"--no-imatrix",
                     (char *)"-o", (char *)prof};
    enum { NFIXED = sizeof fixed / sizeof fixed[0] };
    char **argv = calloc(NFIXED + nopts + 1 + c.argc + 1, sizeof *argv);
    if (!argv) {
        lp_wl_command_fini(&c);
        return lp_host_fail("out of memory");
    }
    memcpy(argv, fixed, sizeof fixed);
    for (size_t i = 0; i < nopts; i++)
        argv[NFIXED + i] = opts[i];
    argv[NFIXED + nopts] = (char *)"--";
    for (size_t i = 0; i < c.argc; i++)
        argv[NFIXED + nopts + 1 + i] = c.argv[i];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int st = lp_wl_spawn(argv, e->env, e->nenv, 1, c.stdin_path,
                             c.stdout_path ? c.stdout_path : out, log, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (out_seconds)
        *out_seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    free(argv);
    lp_wl_command_fini(&c);
    if (st != 0) {
        char why[128];
        return lp_host_fail("%s: lowprof record failed (%s); see %s", name,
                           lp_host_status_text(st, why, sizeof why), log);
    }
    /* The recording's profile says whether the program itself ran cleanly;
     * a profile of a failed run would measure the failure. */
    lp_profile_set set;
    if (lp_host_load_profile(prof, &set) != 0)
        return lp_host_fail("%s: cannot read the recording's profile %s", name, prof);
    const char *exit_status = lp_meta_get(&set.meta, "exit-status");
    const char *sig = lp_meta_get(&set.meta, "signal");
    int bad = (exit_status && strcmp(exit_status, "0") != 0) || sig;
    if (bad)
        lp_host_fail("%s: the program %s %s; see %s", name,
                    sig ? "was killed by signal" : "exited with status", sig ? sig : exit_status,
                    log);
    lp_profile_set_fini(&set);
    return bad ? 1 : 0;
}
