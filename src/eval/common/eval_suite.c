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

extern char **environ;

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

/* Variables of the tools themselves, passed through when set (as
 * `lowprof workloads` does). */
static const char *const kept_env[] = {"LOWPROF_VALGRIND", "LOWPROF_VGTOOL_DIR", "VALGRIND_LIB",
                                       "TMPDIR"};

int lp__eval_spawn(char *const *argv, char *const *env, size_t nenv, int fixed_env,
                      const char *in, const char *out, const char *err)
{
    enum { KEPT = sizeof kept_env / sizeof kept_env[0] };
    char *fixed[KEPT + 2 + 64];
    char *const *envp = environ;
    char kept_buf[KEPT][4096];
    if (fixed_env) {
        size_t k = 0;
        fixed[k++] = (char *)"PATH=/usr/local/bin:/usr/bin:/bin";
        fixed[k++] = (char *)"LC_ALL=C";
        for (size_t i = 0; i < KEPT; i++) {
            const char *v = getenv(kept_env[i]);
            if (v && snprintf(kept_buf[i], sizeof kept_buf[i], "%s=%s", kept_env[i], v) <
                         (int)sizeof kept_buf[i])
                fixed[k++] = kept_buf[i];
        }
        for (size_t i = 0; i < nenv && k + 1 < sizeof fixed / sizeof fixed[0]; i++)
            fixed[k++] = env[i];
        fixed[k] = NULL;
        envp = fixed;
    }
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return -1;
    int rc = posix_spawn_file_actions_addopen(&fa, 0, in ? in : "/dev/null", O_RDONLY, 0);
    if (rc == 0 && out)
        rc = posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (rc == 0 && err)
        rc = posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    pid_t pid;
    fflush(stdout);
    fflush(stderr);
    if (rc == 0)
        rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return status;
}

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

/* The first line a shell command prints, or "" when it fails. */
static void first_line(const char *cmd, char *buf, size_t cap)
{
    buf[0] = '\0';
    FILE *p = popen(cmd, "r");
    if (!p)
        return;
    if (!fgets(buf, (int)cap, p))
        buf[0] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    if (pclose(p) != 0)
        buf[0] = '\0';
}

static int mkdir_p(const char *path)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return -1;
    for (char *s = buf + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return -1;
            *s = c;
            if (!c)
                return 0;
        }
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

/* Makes env_state.data hold the current inputs of the size: the stamp
 * DATA/.prepared says which generator version and steps made them, in the
 * format `lowprof workloads` writes, and they are remade when it differs. */
static int prepare(const lp__eval_suite *o)
{
    wl_env *w = &env_state;
    char version[256];
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof cmd, "'%s' --version", LP_WLGEN_PATH);
    first_line(cmd, version, sizeof version);
    if (!version[0])
        return lp_host_fail("cannot run the input generator %s (build it with the project)",
                           LP_WLGEN_PATH);
    char *want = NULL;
    size_t want_len = 0;
    FILE *s = open_memstream(&want, &want_len);
    if (!s)
        return lp_host_fail("out of memory");
    fprintf(s, "%s\nsize %s\n", version, o->size);
    for (size_t i = 0; i < w->m.count; i++) {
        const lp_wl_entry *e = &w->m.items[i];
        if (!lp_wl_entry_is_prepare(e) || !lp_wl_entry_has_size(e, o->size))
            continue;
        for (size_t k = 0; k < e->nenv; k++)
            fprintf(s, "%s ", e->env[k]);
        for (size_t k = 0; k < e->nwords; k++)
            fprintf(s, "%s%s", e->words[k], k + 1 < e->nwords ? " " : "\n");
    }
    fclose(s);
    char stamp[PATH_MAX + 16], log[PATH_MAX + 16];
    if (lp__eval_pathf(stamp, sizeof stamp, "%s/.prepared", w->data) ||
        lp__eval_pathf(log, sizeof log, "%s/prepare.log", o->out_dir)) {
        free(want);
        return lp_host_fail("%s: path too long", w->data);
    }
    char have[8192];
    size_t got = 0;
    FILE *f = fopen(stamp, "r");
    if (f) {
        got = fread(have, 1, sizeof have - 1, f);
        fclose(f);
    }
    have[got] = '\0';
    if (f && strcmp(have, want) == 0) {
        free(want);
        return 0;
    }
    if (o->data_dir) {
        free(want);
        return lp_host_fail("%s: not inputs prepared for the %s size by this version (no "
                           "matching .prepared); run `lowprof workloads --size %s --dir DIR` "
                           "or leave out --data",
                           w->data, o->size, o->size);
    }
    remove(stamp);
    fprintf(stderr, "lowprof eval: generating the %s inputs in %s\n", o->size, w->data);
    char *gen[] = {(char *)LP_WLGEN_PATH, (char *)o->size, w->data, NULL};
    char why[128];
    int st = lp__eval_spawn(gen, NULL, 0, 0, NULL, "/dev/null", log);
    if (st != 0) {
        free(want);
        return lp_host_fail("%s failed (%s); see %s", LP_WLGEN_PATH,
                           lp_host_status_text(st, why, sizeof why), log);
    }
    lp_wl_vars vars = {w->data, w->out, LP_WL_DRIVERS_DIR, w->cc1};
    for (size_t i = 0; i < w->m.count; i++) {
        const lp_wl_entry *e = &w->m.items[i];
        if (!lp_wl_entry_is_prepare(e) || !lp_wl_entry_has_size(e, o->size))
            continue;
        lp_wl_command c;
        if (lp_wl_command_expand(e, &vars, LP_WL_MANIFEST, &c) != 0) {
            free(want);
            return 1;
        }
        fprintf(stderr, "lowprof eval: preparing: %s\n", c.argv[0]);
        char step_log[PATH_MAX + 32];
        if (lp__eval_pathf(step_log, sizeof step_log, "%s/prepare-%zu.log", o->out_dir, i)) {
            lp_wl_command_fini(&c);
            free(want);
            return lp_host_fail("%s: path too long", o->out_dir);
        }
        st = lp__eval_spawn(c.argv, e->env, e->nenv, 1, c.stdin_path,
                               c.stdout_path ? c.stdout_path : "/dev/null", step_log);
        lp_wl_command_fini(&c);
        if (st != 0) {
            free(want);
            return lp_host_fail("%s:%u: preparation step failed (%s); see %s", LP_WL_MANIFEST,
                               e->line, lp_host_status_text(st, why, sizeof why), step_log);
        }
    }
    f = fopen(stamp, "w");
    if (!f || fputs(want, f) < 0 || fclose(f) != 0) {
        free(want);
        return lp_host_fail("%s: %s", stamp, strerror(errno));
    }
    free(want);
    return 0;
}

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
    if (mkdir_p(w->data) != 0 || mkdir_p(w->out) != 0)
        return lp_host_fail("%s: %s", o->out_dir, strerror(errno));
    first_line("gcc -print-prog-name=cc1 2>/dev/null", w->cc1, sizeof w->cc1);
    if (w->cc1[0] != '/' || access(w->cc1, X_OK) != 0)
        w->cc1[0] = '\0'; /* checked when a workload needs it */
    if (prepare(o) != 0)
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
    int st = lp__eval_spawn(argv, e->env, e->nenv, 1, c.stdin_path,
                               c.stdout_path ? c.stdout_path : out, log);
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
