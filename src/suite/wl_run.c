/* Running the suite's programs and preparing its inputs, once for every
 * command that does it (`lowprof workloads`, the experiments of
 * `lowprof eval`), so that both reuse each other's inputs and see the same
 * environment, and so the same command gives the same instruction count
 * whoever runs it.
 *
 * Children are started with posix_spawn, which is safe in a process with
 * threads (the experiments replay on worker threads). */
#define _GNU_SOURCE /* environ */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lowprof/host.h"
#include "lowprof/suite.h"

extern char **environ;

/* Variables of the tools themselves (where Valgrind and the front end are,
 * where temporary files go), kept in the fixed environment when set. */
static const char *const kept_env[] = {"LOWPROF_VALGRIND", "LOWPROF_VGTOOL_DIR", "VALGRIND_LIB",
                                       "TMPDIR"};

enum { ENV_MAX = 4096 };

/* Puts NAME=VALUE into envp (n entries so far), replacing an entry of the
 * same name, so the manifest's variables override what came before. */
static size_t env_put(char **envp, size_t n, char *entry)
{
    size_t len = strcspn(entry, "=");
    for (size_t i = 0; i < n; i++)
        if (strncmp(envp[i], entry, len) == 0 && envp[i][len] == '=') {
            envp[i] = entry;
            return n;
        }
    if (n + 1 < ENV_MAX)
        envp[n++] = entry;
    return n;
}

int lp_wl_spawn(char *const *argv, char *const *env, size_t nenv, int fixed_env, const char *in,
                const char *out, const char *err, int append_err)
{
    enum { KEPT = sizeof kept_env / sizeof kept_env[0] };
    char **envp = malloc(ENV_MAX * sizeof *envp);
    char (*kept)[PATH_MAX + 32] = malloc(KEPT * sizeof *kept);
    if (!envp || !kept) {
        free(envp);
        free(kept);
        errno = ENOMEM;
        return -1;
    }
    size_t n = 0;
    if (fixed_env) {
        envp[n++] = (char *)"PATH=/usr/local/bin:/usr/bin:/bin";
        envp[n++] = (char *)"LC_ALL=C";
        for (size_t i = 0; i < KEPT; i++) {
            const char *v = getenv(kept_env[i]);
            if (v && snprintf(kept[i], sizeof kept[i], "%s=%s", kept_env[i], v) <
                         (int)sizeof kept[i])
                envp[n++] = kept[i];
        }
    } else {
        for (char **e = environ; *e && n + 1 < ENV_MAX; e++)
            envp[n++] = *e;
    }
    for (size_t i = 0; i < nenv; i++)
        n = env_put(envp, n, env[i]);
    envp[n] = NULL;

    posix_spawn_file_actions_t fa;
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc == 0)
        rc = posix_spawn_file_actions_addopen(&fa, 0, in ? in : "/dev/null", O_RDONLY, 0);
    if (rc == 0 && out)
        rc = posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (rc == 0 && err)
        rc = posix_spawn_file_actions_addopen(
            &fa, 2, err, O_WRONLY | O_CREAT | (append_err ? O_APPEND : O_TRUNC), 0666);
    pid_t pid;
    fflush(stdout);
    fflush(stderr);
    if (rc == 0)
        rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    free(envp);
    free(kept);
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

int lp_wl_make_dirs(const char *path)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
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

/* The first line argv prints on standard output, without a shell, into
 * buf; "" when it does not run cleanly. */
static void first_line(char *const *argv, char *buf, size_t cap)
{
    buf[0] = '\0';
    const char *dir = getenv("TMPDIR");
    char tmp[PATH_MAX];
    if (snprintf(tmp, sizeof tmp, "%s/lowprof-line-XXXXXX", dir && dir[0] ? dir : "/tmp") >=
        (int)sizeof tmp)
        return;
    int fd = mkstemp(tmp);
    if (fd < 0)
        return;
    close(fd);
    int st = lp_wl_spawn(argv, NULL, 0, 0, NULL, tmp, "/dev/null", 0);
    FILE *f = fopen(tmp, "r");
    if (f && st == 0 && fgets(buf, (int)cap, f))
        buf[strcspn(buf, "\n")] = '\0';
    else
        buf[0] = '\0';
    if (f)
        fclose(f);
    remove(tmp);
}

/* What the stamp DATA/.prepared holds: the generator's version, the size
 * and every preparation step of that size. NULL on no memory. */
static char *stamp_text(const lp_wl_manifest *m, const char *version, const char *size)
{
    char *text = NULL;
    size_t len = 0;
    FILE *s = open_memstream(&text, &len);
    if (!s)
        return NULL;
    fprintf(s, "%s\nsize %s\n", version, size);
    for (size_t i = 0; i < m->count; i++) {
        const lp_wl_entry *e = &m->items[i];
        if (!lp_wl_entry_is_prepare(e) || !lp_wl_entry_has_size(e, size))
            continue;
        for (size_t k = 0; k < e->nenv; k++)
            fprintf(s, "%s ", e->env[k]);
        for (size_t k = 0; k < e->nwords; k++)
            fprintf(s, "%s%s", e->words[k], k + 1 < e->nwords ? " " : "\n");
    }
    if (fclose(s) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* 1 if path holds exactly text. */
static int file_holds(const char *path, const char *text)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = strlen(text), got = 0;
    char *buf = malloc(n + 2);
    if (buf)
        got = fread(buf, 1, n + 1, f);
    fclose(f);
    int same = buf && got == n && memcmp(buf, text, n) == 0;
    free(buf);
    return same;
}

int lp_wl_prepare(const lp_wl_manifest *m, const char *manifest_path, const char *size,
                  const lp_wl_vars *vars, const char *log_dir, const char *who, int reuse_only)
{
    char version[256];
    char *ver_argv[] = {(char *)LP_WLGEN_PATH, (char *)"--version", NULL};
    first_line(ver_argv, version, sizeof version);
    if (!version[0])
        return lp_host_fail("cannot run the input generator %s (build it with the project)",
                            LP_WLGEN_PATH);
    char *want = stamp_text(m, version, size);
    if (!want)
        return lp_host_fail("out of memory");
    char stamp[PATH_MAX], log[PATH_MAX];
    if (snprintf(stamp, sizeof stamp, "%s/.prepared", vars->data) >= (int)sizeof stamp ||
        snprintf(log, sizeof log, "%s/prepare.log", log_dir) >= (int)sizeof log) {
        free(want);
        return lp_host_fail("%s: path too long", log_dir);
    }
    int rc = 0;
    if (file_holds(stamp, want))
        goto done;
    if (reuse_only) {
        rc = lp_host_fail("%s: not inputs prepared for the %s size by this version (no "
                          "matching .prepared); run `lowprof workloads --size %s --dir DIR` "
                          "or leave out --data",
                          vars->data, size, size);
        goto done;
    }
    remove(stamp);
    fprintf(stderr, "%s: generating the %s inputs in %s\n", who, size, vars->data);
    char *gen_argv[] = {(char *)LP_WLGEN_PATH, (char *)size, (char *)vars->data, NULL};
    char why[128];
    int st = lp_wl_spawn(gen_argv, NULL, 0, 0, NULL, "/dev/null", log, 0);
    if (st != 0) {
        rc = lp_host_fail("%s failed (%s); see %s", LP_WLGEN_PATH,
                          lp_host_status_text(st, why, sizeof why), log);
        goto done;
    }
    for (size_t i = 0; i < m->count && rc == 0; i++) {
        const lp_wl_entry *e = &m->items[i];
        if (!lp_wl_entry_is_prepare(e) || !lp_wl_entry_has_size(e, size))
            continue;
        lp_wl_command c;
        if (lp_wl_command_expand(e, vars, manifest_path, &c) != 0) {
            rc = 1;
            break;
        }
        fprintf(stderr, "%s: preparing: %s\n", who, c.argv[0]);
        st = lp_wl_spawn(c.argv, e->env, e->nenv, 1, c.stdin_path,
                         c.stdout_path ? c.stdout_path : "/dev/null", log, 1);
        lp_wl_command_fini(&c);
        if (st != 0)
            rc = lp_host_fail("%s:%u: preparation step failed (%s); see %s", manifest_path,
                              e->line, lp_host_status_text(st, why, sizeof why), log);
    }
    if (rc == 0) {
        FILE *f = fopen(stamp, "w");
        if (!f || fputs(want, f) < 0 || fclose(f) != 0)
            rc = lp_host_fail("%s: %s", stamp, strerror(errno));
    }
done:
    free(want);
    return rc;
}

int lp_wl_find_cc1(char *buf, size_t cap)
{
    char *argv[] = {(char *)"gcc", (char *)"-print-prog-name=cc1", NULL};
    first_line(argv, buf, cap);
    if (buf[0] != '/' || access(buf, X_OK) != 0) {
        buf[0] = '\0';
        return -1;
    }
    return 0;
}
