/* Runs Valgrind with the lowprof tool and finishes the files it leaves.
 *
 * Valgrind loads tools from VALGRIND_LIB, so each recording gets a private
 * folder of links to the system's Valgrind files plus the lowprof tool; its
 * log goes to a file there, which this process follows for progress lines
 * while it waits. Interrupts reach the recorded program (same process
 * group), which then ends and leaves its profile; this process ignores them
 * until it has written that profile. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lowprof/host.h"
#include "lowprof/record.h"

#define LP_SYSTEM_VALGRIND_LIB "/usr/libexec/valgrind"
#define LP_TOOL_FILE "lowprof-amd64-linux"

static volatile sig_atomic_t lp_child_pid, lp_term_pending;
static pid_t lp_command_pid; /* the lowprof record the user started */

static void lp_forward_term(int sig)
{
    lp_term_pending = 1;
    if (lp_child_pid > 0)
        kill((pid_t)lp_child_pid, sig);
}

char *lp_record_find_program(const char *prog)
{
    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0 ? strdup(prog) : NULL;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char *e = strchr(path, ':');
        size_t n = e ? (size_t)(e - path) : strlen(path);
        char buf[PATH_MAX];
        if (n && snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, prog) < (int)sizeof buf) {
            struct stat st;
            if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
                return strdup(buf);
        }
        path = e ? e + 1 : path + n;
    }
    return NULL;
}

static const char *lp_find_valgrind(void)
{
    /* Debian's /usr/bin/valgrind is a script that adds /usr/lib/debug to
     * LD_LIBRARY_PATH; the binary behind it runs the program unchanged. */
    static const char *const candidates[] = {"/usr/bin/valgrind.bin", "/usr/bin/valgrind",
                                             "/usr/local/bin/valgrind"};
    const char *env = getenv("LOWPROF_VALGRIND");
    if (env)
        return access(env, X_OK) == 0 ? env : NULL;
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++)
        if (access(candidates[i], X_OK) == 0)
            return candidates[i];
    return NULL;
}

/* The folder holding the built tool: $LOWPROF_VGTOOL_DIR, the build tree, or
 * the installed libexec folder next to this binary. */
static int lp_find_tool(char *out, size_t cap)
{
    const char *env = getenv("LOWPROF_VGTOOL_DIR");
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = 0;
    char installed[PATH_MAX + 32];
    snprintf(installed, sizeof installed, "%s/../libexec/lowprof", exe);
    const char *dirs[] = {env, LP_VGTOOL_DIR, installed};
    for (size_t i = 0; i < 3; i++) {
        if (!dirs[i])
            continue;
        snprintf(out, cap, "%s/%s", dirs[i], LP_TOOL_FILE);
        if (access(out, R_OK) == 0)
            return 0;
        if (env && i == 0)
            return lp_host_fail("LOWPROF_VGTOOL_DIR=%s has no %s", env, LP_TOOL_FILE);
    }
    return lp_host_fail("the Valgrind tool %s was not built (looked in %s and %s)", LP_TOOL_FILE,
                       LP_VGTOOL_DIR, installed);
}

/* A private VALGRIND_LIB: links to every system Valgrind file, and ours. */
static int lp_make_vglib(const char *dir, const char *tool)
{
    const char *sys = getenv("VALGRIND_LIB");
    if (!sys)
        sys = LP_SYSTEM_VALGRIND_LIB;
    DIR *d = opendir(sys);
    if (!d)
        return lp_host_fail("cannot read Valgrind's folder %s: %s", sys, strerror(errno));
    if (mkdir(dir, 0700) != 0) {
        closedir(d);
        return lp_host_fail("cannot create %s: %s", dir, strerror(errno));
    }
    struct dirent *e;
    char from[2 * PATH_MAX], to[2 * PATH_MAX];
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(from, sizeof from, "%s/%s", sys, e->d_name);
        snprintf(to, sizeof to, "%s/%s", dir, e->d_name);
        if (symlink(from, to) != 0) {
            closedir(d);
            return lp_host_fail("cannot link %s: %s", to, strerror(errno));
        }
    }
    closedir(d);
    snprintf(to, sizeof to, "%s/%s", dir, LP_TOOL_FILE);
    if (symlink(tool, to) != 0)
        return lp_host_fail("cannot link %s: %s", to, strerror(errno));
    return 0;
}

static void lp_remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char p[PATH_MAX];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            lp_remove_tree(p);
        else
            unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

static void lp_human(unsigned long long v, char *buf, size_t cap)
{
    if (v >= 1000000000ULL)
        snprintf(buf, cap, "%.2f G", (double)v / 1e9);
    else if (v >= 1000000ULL)
        snprintf(buf, cap, "%.1f M", (double)v / 1e6);
    else
        snprintf(buf, cap, "%llu", v);
}

/* Follows the log for "lowprof-progress:" lines and shows the newest. */
typedef struct lp_progress {
    int mode;
    int fd;
    char partial[512];
    size_t plen;
    unsigned long long insns, intervals;
    time_t started, last_line;
    int shown;
} lp_progress;

static void lp_progress_poll(lp_progress *p)
{
    if (p->fd < 0)
        return;
    char buf[4096];
    ssize_t n;
    int updated = 0;
    while ((n = read(p->fd, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < n; i++) {
            if (buf[i] != '\n') {
                if (p->plen < sizeof p->partial - 1)
                    p->partial[p->plen++] = buf[i];
                continue;
            }
            p->partial[p->plen] = 0;
            const char *m = strstr(p->partial, "lowprof-progress: ");
            if (m && sscanf(m, "lowprof-progress: %llu instructions, %llu intervals", &p->insns,
                            &p->intervals) == 2)
                updated = 1;
            p->plen = 0;
        }
    }
    if (!updated || p->mode == LP_PROGRESS_NONE)
        return;
    time_t now = time(NULL);
    char h[32];
    lp_human(p->insns, h, sizeof h);
    if (p->mode == LP_PROGRESS_TTY) {
        fprintf(stderr, "\rlowprof: recording... %s instructions, %llu intervals, %lds   ", h,
                p->intervals, (long)(now - p->started));
        p->shown = 1;
    } else if (now - p->last_line >= 10) {
        fprintf(stderr, "lowprof: recording... %s instructions, %llu intervals, %lds\n", h,
                p->intervals, (long)(now - p->started));
        p->last_line = now;
    }
}

/* Prints what Valgrind or the tool said that a user must see: tool messages,
 * Valgrind's own errors and the fatal-signal report. */
/* Quotes the lines of Valgrind's log that say what went wrong; returns
 * how many. */
static int lp_print_log_messages(const char *log_path)
{
    FILE *f = fopen(log_path, "r");
    if (!f)
        return 0;
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, "lowprof-progress:"))
            continue;
        if (strstr(line, "lowprof:") || strstr(line, "valgrind:") ||
            strstr(line, "Process terminating") || strstr(line, "Access not within") ||
            strstr(line, "Bad option") || strstr(line, "FATAL")) {
            fprintf(stderr, "  | %s", line);
            n++;
        }
    }
    fclose(f);
    return n;
}

static int lp_write_profile(const char *path, const lp_profile_set *s)
{
    lp_membuf buf = {0};
    int rc = lp_profile_file_write(s, lp_membuf_sink(&buf));
    if (rc == LP_OK)
        rc = lp_host_write_file(path, buf.data, buf.size);
    else
        lp_host_fail("%s: encoding the profile failed: %s", path, lp_strerror(rc));
    lp_membuf_free(&buf);
    return rc;
}

/* The profile from the intervals already in the matrix, for a recording
 * whose tool never reached its end. */
static int lp_rebuild_from_imatrix(const char *im_path, lp_profile_set *out, size_t *out_n)
{
    uint8_t *data;
    size_t size;
    *out_n = 0;
    if (lp_host_read_file(im_path, &data, &size) != 0)
        return -1;
    lp_memsource ms;
    lp_imatrix_reader *r;
    lp_read_error err;
    int rc = lp_imatrix_reader_open(lp_memsource_init(&ms, data, size), &r, &err);
    if (rc != LP_OK) {
        lp_host_print_read_error(im_path, rc, &err);
        lp_free(data);
        return -1;
    }
    lp_meta_copy(&out->meta, lp_imatrix_reader_meta(r));
    lp_interval iv;
    lp_interval_init(&iv);
    unsigned long long insns = 0;
    while ((rc = lp_imatrix_reader_next(r, &iv, &err)) == 1) {
        insns += iv.insns;
        (*out_n)++;
        for (unsigned t = 1; t <= LP_PROF_TYPE_MAX; t++) {
            if (!iv.tables[t].count)
                continue;
            lp_profile *p = lp_profile_set_find(out, t, LP_PHASE_NONE);
            if (!p && lp_profile_set_add(out, t, LP_PHASE_NONE, &p) != LP_OK)
                break;
            lp_table_merge(&p->table, &iv.tables[t]);
        }
    }
    if (rc == 0)
        lp_module_map_copy(&out->modules, lp_imatrix_reader_modules(r));
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", insns);
    lp_meta_set(&out->meta, "instructions", buf);
    snprintf(buf, sizeof buf, "%zu", *out_n);
    lp_meta_set(&out->meta, "intervals", buf);
    lp_interval_fini(&iv);
    lp_imatrix_reader_free(r);
    lp_free(data);
    return 0;
}

static char *lp_join_args(char **argv, int argc)
{
    size_t n = 1;
    for (int i = 0; i < argc; i++)
        n += strlen(argv[i]) + 3;
    char *s = malloc(n), *p = s;
    for (int i = 0; i < argc; i++) {
        int quote = strpbrk(argv[i], " \t\"'") != NULL || !argv[i][0];
        p += sprintf(p, "%s%s%s%s", i ? " " : "", quote ? "'" : "", argv[i], quote ? "'" : "");
    }
    *p = 0;
    return s;
}

static char *lp_default_imatrix(const char *out)
{
    size_t n = strlen(out);
    char *s = malloc(n + 8);
    if (n > 7 && strcmp(out + n - 7, ".lpprof") == 0)
        snprintf(s, n + 8, "%.*s.lpim", (int)(n - 7), out);
    else
        snprintf(s, n + 8, "%s.lpim", out);
    return s;
}

/* The child gets back the dispositions this process inherited (an ignored
 * SIGINT in a background job stays ignored), so the program behaves as it
 * would without lowprof. */
static int lp_spawn(const char *valgrind, const char *vglib, char **vargv,
                    const struct sigaction inherited[3])
{
    pid_t pid = fork();
    if (pid < 0)
        return lp_host_fail("fork failed: %s", strerror(errno));
    if (pid == 0) {
        setenv("VALGRIND_LIB", vglib, 1);
        sigaction(SIGINT, &inherited[0], NULL);
        sigaction(SIGQUIT, &inherited[1], NULL);
        sigaction(SIGTERM, &inherited[2], NULL);
        execv(valgrind, vargv);
        fprintf(stderr, "lowprof: cannot run %s: %s\n", valgrind, strerror(errno));
        _exit(127);
    }
    lp_child_pid = pid;
    if (lp_term_pending) /* a SIGTERM came before the program existed */
        kill(pid, SIGTERM);
    return 0;
}

/* The tool wrote path.PID for the command's process: it becomes path. */
static void lp_record_claim(const char *path, pid_t pid)
{
    if (!path)
        return;
    char from[PATH_MAX + 32];
    snprintf(from, sizeof from, "%s.%d", path, (int)pid);
    if (access(from, F_OK) == 0 && rename(from, path) != 0)
        lp_host_fail("%s: cannot rename it to %s: %s", from, path, strerror(errno));
}

/* path with ".PID" before its suffix (run.lpprof -> run.4242.lpprof). */
static void lp_record_pid_path(const char *path, const char *suffix, int pid, char *out,
                               size_t cap)
{
    size_t n = strlen(path), m = strlen(suffix);
    if (n > m && strcmp(path + n - m, suffix) == 0)
        snprintf(out, cap, "%.*s.%d%s", (int)(n - m), path, pid, suffix);
    else
        snprintf(out, cap, "%s.%d", path, pid);
}

/* The processes the command started (under --trace-children) left raw
 * profiles of their own in tmp: each is finished like the main one and
 * written beside it as OUT.PID.lpprof, with its matrix and trace. */
static void lp_record_other_processes(const char *tmp, pid_t main_pid, const char *out,
                                      const char *imatrix, const char *trace, time_t started)
{
    DIR *d = opendir(tmp);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        int pid;
        char tail[16];
        if (sscanf(e->d_name, "raw.%d.%15s", &pid, tail) != 2 || strcmp(tail, "lpprof") != 0 ||
            pid == (int)main_pid)
            continue;
        char path[PATH_MAX + 300], dest[PATH_MAX + 32], from[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
        lp_profile_set set;
        if (lp_host_load_profile(path, &set) != 0)
            continue;
        const char *exe = lp_meta_get(&set.meta, "executable");
        lp_meta_set(&set.meta, "program", exe ? exe : "?");
        char buf[64];
        struct tm tm;
        gmtime_r(&started, &tm);
        strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
        lp_meta_set(&set.meta, "recorded-at", buf);
        snprintf(buf, sizeof buf, "%d", (int)main_pid);
        lp_meta_set(&set.meta, "started-by-pid", buf);
        lp_meta_set(&set.meta, "complete", "yes");
        lp_record_add_build_ids(&set.modules);
        lp_record_pid_path(out, ".lpprof", pid, dest, sizeof dest);
        if (lp_write_profile(dest, &set) == 0)
            fprintf(stderr, "lowprof: process %d (%s) of the command: wrote %s\n", pid,
                    exe ? exe : "?", dest);
        lp_profile_set_fini(&set);
        static const char *const suffixes[2] = {".lpim", ".lpev"};
        const char *files[2] = {imatrix, trace};
        for (int f = 0; f < 2; f++) {
            if (!files[f])
                continue;
            snprintf(from, sizeof from, "%s.%d", files[f], pid);
            lp_record_pid_path(files[f], suffixes[f], pid, dest, sizeof dest);
            if (access(from, F_OK) == 0 && rename(from, dest) != 0)
                lp_host_fail("%s: cannot rename it to %s: %s", from, dest, strerror(errno));
        }
    }
    if (d)
        closedir(d);
}

static int lp_record_here(const lp_record_opts *o)
{
    char *prog = lp_record_find_program(o->argv[0]);
    if (!prog)
        return lp_host_fail("%s: no such program (not found, or not executable)", o->argv[0]);
    const char *valgrind = lp_find_valgrind();
    if (!valgrind) {
        free(prog);
        return lp_host_fail("valgrind is not installed (apt-get install valgrind)");
    }
    char tool[PATH_MAX];
    if (lp_find_tool(tool, sizeof tool) != 0) {
        free(prog);
        return 1;
    }

    const char *tmproot = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char tmp[PATH_MAX], vglib[PATH_MAX + 8], raw[PATH_MAX + 16], log[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s/lowprof-record-XXXXXX", tmproot);
    if (!mkdtemp(tmp)) {
        free(prog);
        return lp_host_fail("cannot create a folder in %s: %s", tmproot, strerror(errno));
    }
    snprintf(vglib, sizeof vglib, "%s/vglib", tmp);
    /* Every process of the command writes its own raw profile (%p: the
     * tool expands it to the pid); the command's own process is the one
     * spawned here, whatever it execs into. */
    snprintf(raw, sizeof raw, "%s/raw.%%p.lpprof", tmp);
    snprintf(log, sizeof log, "%s/valgrind.log", tmp);
    char *imatrix = o->no_imatrix ? NULL : o->imatrix ? strdup(o->imatrix)
                                                      : lp_default_imatrix(o->out);
    int status = 1;
    if (lp_make_vglib(vglib, tool) != 0)
        goto done;

    /* valgrind OPTIONS PROGRAM ARGS */
    char **vargv = calloc((size_t)o->argc + 16 + (size_t)o->ntool_args, sizeof *vargv);
    int k = 0;
    char b_log[PATH_MAX + 32], b_out[PATH_MAX + 32], b_im[PATH_MAX + 32], b_tr[PATH_MAX + 32],
        b_iv[64], b_tl[64], b_ty[256];
    vargv[k++] = (char *)valgrind;
    vargv[k++] = "--tool=lowprof";
    snprintf(b_log, sizeof b_log, "--log-file=%s", log);
    vargv[k++] = b_log;
    snprintf(b_out, sizeof b_out, "--out-file=%s", raw);
    vargv[k++] = b_out;
    if (imatrix) {
        snprintf(b_im, sizeof b_im, "--imatrix-file=%s.%%p", imatrix);
        vargv[k++] = b_im;
    }
    if (o->trace) {
        snprintf(b_tr, sizeof b_tr, "--trace-file=%s.%%p", o->trace);
        vargv[k++] = b_tr;
    }
    /* Into what the command runs (env, a shell script, a driver), as perf
     * follows a command: one profile per process. */
    vargv[k++] = o->no_children ? "--trace-children=no" : "--trace-children=yes";
    if (o->interval) {
        snprintf(b_iv, sizeof b_iv, "--interval=%llu", o->interval);
        vargv[k++] = b_iv;
    }
    if (o->trace_limit) {
        snprintf(b_tl, sizeof b_tl, "--trace-limit=%llu", o->trace_limit);
        vargv[k++] = b_tl;
    }
    snprintf(b_ty, sizeof b_ty, "--profile=%s", o->types);
    vargv[k++] = b_ty;
    for (int i = 0; i < o->ntool_args; i++)
        vargv[k++] = o->tool_args[i];
    vargv[k++] = "--progress=yes";
    vargv[k++] = prog;
    for (int i = 1; i < o->argc; i++)
        vargv[k++] = o->argv[i];
    vargv[k] = NULL;

    struct sigaction ign = {.sa_handler = SIG_IGN}, fwd = {.sa_handler = lp_forward_term};
    struct sigaction old[3];
    sigaction(SIGINT, &ign, &old[0]);
    sigaction(SIGQUIT, &ign, &old[1]);
    sigaction(SIGTERM, &fwd, &old[2]);
    time_t started = time(NULL);
    if (lp_spawn(valgrind, vglib, vargv, old) != 0) {
        free(vargv);
        goto restore;
    }
    lp_progress prog_state = {.mode = o->progress, .fd = -1, .started = started,
                              .last_line = started};
    int wstatus = 0;
    unsigned polls = 0;
    for (;;) {
        pid_t w = waitpid((pid_t)lp_child_pid, &wstatus, WNOHANG);
        if (w == (pid_t)lp_child_pid)
            break;
        if (w < 0 && errno != EINTR) {
            lp_host_fail("waiting for valgrind failed: %s", strerror(errno));
            break;
        }
        /* Short naps keep the wait from adding to short recordings; the
         * log is read every tenth nap. */
        if (polls++ % 10 == 0) {
            if (prog_state.fd < 0)
                prog_state.fd = open(log, O_RDONLY | O_CLOEXEC);
            lp_progress_poll(&prog_state);
        }
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    pid_t main_pid = (pid_t)lp_child_pid;
    lp_child_pid = 0;
    snprintf(raw, sizeof raw, "%s/raw.%d.lpprof", tmp, (int)main_pid);
    lp_record_claim(imatrix, main_pid);
    lp_record_claim(o->trace, main_pid);
    if (prog_state.shown)
        fputc('\n', stderr);
    if (prog_state.fd >= 0)
        close(prog_state.fd);
    free(vargv);

    lp_profile_set set = {0};
    size_t rebuilt_intervals = 0;
    int have_raw = access(raw, R_OK) == 0;
    if (have_raw) {
        if (lp_host_load_profile(raw, &set) != 0)
            goto restore;
    } else if (imatrix && access(imatrix, R_OK) == 0) {
        if (lp_rebuild_from_imatrix(imatrix, &set, &rebuilt_intervals) != 0)
            goto restore;
    } else {
        lp_host_fail("the recording produced no profile; Valgrind said:");
        if (lp_print_log_messages(log) == 0)
            fprintf(stderr, "  | (nothing in its log: Valgrind stopped before the program "
                            "started; its own message, if any, is above)\n");
        goto restore;
    }
    lp_print_log_messages(log);

    char *args = lp_join_args(o->argv, o->argc);
    /* What the process ran last: a command that execs (env FOO=1 prog)
     * is recorded as the program it became. */
    const char *became = lp_meta_get(&set.meta, "executable");
    lp_meta_set(&set.meta, "program", became ? became : prog);
    lp_meta_set(&set.meta, "command", args);
    lp_meta_set(&set.meta, "profile-types", o->types);
    free(args);
    char buf[128];
    struct tm tm;
    gmtime_r(&started, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    lp_meta_set(&set.meta, "recorded-at", buf);
    int complete = 1;
    char reason[256] = "";
    if (WIFEXITED(wstatus)) {
        snprintf(buf, sizeof buf, "%d", WEXITSTATUS(wstatus));
        lp_meta_set(&set.meta, "exit-status", buf);
    } else if (WIFSIGNALED(wstatus)) {
        int sig = WTERMSIG(wstatus);
        snprintf(buf, sizeof buf, "%d", sig);
        lp_meta_set(&set.meta, "signal", buf);
        complete = 0;
        snprintf(reason, sizeof reason, "the program was killed by signal %d (%s)", sig,
                 strsignal(sig));
        if (lp_command_pid && getppid() != lp_command_pid) {
            size_t n = strlen(reason);
            snprintf(reason + n, sizeof reason - n, ", sent because lowprof record was killed");
        }
    }
    if (!have_raw) {
        complete = 0;
        size_t n = strlen(reason);
        snprintf(reason + n, sizeof reason - n,
                 "%sthe recorder did not finish; rebuilt from %zu intervals of the matrix",
                 n ? "; " : "", rebuilt_intervals);
    }
    lp_meta_set(&set.meta, "complete", complete ? "yes" : "no");
    if (!complete)
        lp_meta_set(&set.meta, "incomplete-reason", reason);
    lp_record_add_build_ids(&set.modules);
    if (lp_write_profile(o->out, &set) == 0) {
        const char *insns = lp_meta_get(&set.meta, "instructions");
        const char *ivs = lp_meta_get(&set.meta, "intervals");
        char h[32];
        lp_human(insns ? strtoull(insns, NULL, 10) : 0, h, sizeof h);
        const char *ran = lp_meta_get(&set.meta, "program");
        fprintf(stderr, "lowprof: %s instructions in %s intervals of %s; wrote %s%s%s%s\n", h,
                ivs ? ivs : "?", ran ? ran : o->argv[0], o->out, imatrix ? " and " : "",
                imatrix ? imatrix : "", complete ? "" : " (INCOMPLETE)");
        if (!complete)
            fprintf(stderr, "lowprof: incomplete: %s\n", reason);
        status = 0;
    }
    lp_profile_set_fini(&set);
    if (status == 0)
        lp_record_other_processes(tmp, main_pid, o->out, imatrix, o->trace, started);

restore:
    sigaction(SIGINT, &old[0], NULL);
    sigaction(SIGQUIT, &old[1], NULL);
    sigaction(SIGTERM, &old[2], NULL);
done:
    lp_remove_tree(tmp);
    free(imatrix);
    free(prog);
    return status;
}

/* The recording runs in a child of this process, the recorder, which
 * starts Valgrind, waits and finishes the files; this process only waits
 * for it and passes SIGTERM on. If this process is killed (even by
 * SIGKILL, which it cannot see), the kernel sends the recorder SIGTERM
 * (PR_SET_PDEATHSIG), which ends the recorded program as a SIGTERM of this
 * command would: its profile is still finished, marked incomplete, and
 * written where -o says, the temporary folder is removed, and nothing is
 * left running. */
int lp_record_run(const lp_record_opts *o)
{
    pid_t parent = lp_command_pid = getpid();
    fflush(NULL);
    pid_t rec = fork();
    if (rec < 0)
        return lp_host_fail("fork failed: %s", strerror(errno));
    if (rec == 0) {
        if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
            lp_term_pending = 1; /* the parent is gone already */
        int status = lp_record_here(o);
        fflush(NULL);
        _exit(status);
    }
    struct sigaction ign = {.sa_handler = SIG_IGN}, fwd = {.sa_handler = lp_forward_term};
    struct sigaction old[3];
    sigaction(SIGINT, &ign, &old[0]);
    sigaction(SIGQUIT, &ign, &old[1]);
    sigaction(SIGTERM, &fwd, &old[2]);
    lp_child_pid = rec;
    int st = 0;
    while (waitpid(rec, &st, 0) < 0 && errno == EINTR)
        ;
    lp_child_pid = 0;
    sigaction(SIGINT, &old[0], NULL);
    sigaction(SIGQUIT, &old[1], NULL);
    sigaction(SIGTERM, &old[2], NULL);
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    char why[64];
    return lp_host_fail("the recorder %s", lp_host_status_text(st, why, sizeof why));
}
