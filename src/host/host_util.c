/* Helpers the commands and the hosted services share: usage and failure
 * messages, whole-file reads and atomic writes, reader-error printing,
 * loading a profile file, option values and counts. Messages follow one shape, "lowprof: PATH: why",
 * so scripts and people can tell which file and which field was wrong. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fchmod */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lowprof/host.h"

double lp_host_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int lp_host_make_dir(const char *dir)
{
    return mkdir(dir, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

int lp_host_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "lowprof %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'lowprof help %s'.\n", cmd);
    return 2;
}

int lp_host_fail(const char *fmt, ...)
{
    va_list ap;
    /* Flush what was printed so far so that the message lands after it
     * when both streams go to one terminal or file. */
    fflush(stdout);
    va_start(ap, fmt);
    fprintf(stderr, "lowprof: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 1;
}

static int lp__errno_code(int e)
{
    switch (e) {
    case ENOENT: return LP_ENOENT;
    case ENOMEM: return LP_ENOMEM;
    default: return LP_EIO;
    }
}

int lp_host_read_file(const char *path, uint8_t **out, size_t *out_size)
{
    *out = NULL;
    *out_size = 0;
    /* Read in growing steps rather than trusting a size from stat: this
     * also serves pipes and /dev/stdin. */
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        int e = errno;
        fprintf(stderr, "lowprof: %s: %s\n", path, strerror(e));
        return lp__errno_code(e);
    }
    size_t cap = 0, size = 0;
    uint8_t *buf = NULL;
    int rc = 0;
    for (;;) {
        if (size == cap) {
            size_t ncap = cap ? cap * 2 : 1u << 16;
            uint8_t *nbuf = ncap > cap ? lp_realloc(buf, cap, ncap) : NULL;
            if (!nbuf) {
                fprintf(stderr, "lowprof: %s: out of memory reading the file\n", path);
                rc = LP_ENOMEM;
                break;
            }
            buf = nbuf;
            cap = ncap;
        }
        size_t got = fread(buf + size, 1, cap - size, f);
        size += got;
        if (got == 0) {
            if (ferror(f)) {
                fprintf(stderr, "lowprof: %s: %s\n", path, strerror(errno));
                rc = LP_EIO;
            }
            break;
        }
    }
    if (f != stdin)
        fclose(f);
    if (rc) {
        lp_free(buf);
        return rc;
    }
    *out = buf;
    *out_size = size;
    return 0;
}

int lp_host_write_file(const char *path, const void *data, size_t size)
{
    if (strcmp(path, "-") == 0) {
        if (fwrite(data, 1, size, stdout) != size || fflush(stdout) != 0) {
            fprintf(stderr, "lowprof: standard output: %s\n", strerror(errno));
            return LP_EIO;
        }
        return 0;
    }
    /* The temporary sits beside the target so rename() stays within one
     * file system and replaces the target in one step. */
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    if (!tmp) {
        fprintf(stderr, "lowprof: %s: out of memory\n", path);
        return LP_ENOMEM;
    }
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    memcpy(tmp, path, dir_len);
    snprintf(tmp + dir_len, n + 16 - dir_len, ".%s.XXXXXX", path + dir_len);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "lowprof: %s: cannot create a temporary file beside it: %s\n", path,
                strerror(errno));
        free(tmp);
        return lp__errno_code(errno);
    }
    /* mkstemp makes the file private; give it the mode an ordinary create
     * would have had. */
    mode_t mask = umask(0);
    umask(mask);
    int rc = 0;
    const uint8_t *p = data;
    size_t left = size;
    if (fchmod(fd, 0666 & ~mask) != 0)
        rc = LP_EIO;
    while (rc == 0 && left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            rc = LP_EIO;
            break;
        }
        p += w;
        left -= (size_t)w;
    }
    int saved = errno;
    if (close(fd) != 0 && rc == 0) {
        rc = LP_EIO;
        saved = errno;
    }
    if (rc == 0 && rename(tmp, path) != 0) {
        rc = lp__errno_code(errno);
        saved = errno;
    }
    if (rc) {
        fprintf(stderr, "lowprof: %s: %s\n", path, strerror(saved));
        unlink(tmp);
    }
    free(tmp);
    return rc;
}

void lp_host_print_read_error(const char *path, int code, const lp_read_error *err)
{
    fflush(stdout);
    if (!err || err->field[0] == '\0') {
        fprintf(stderr, "lowprof: %s: %s\n", path, lp_strerror(code));
        return;
    }
    fprintf(stderr, "lowprof: %s: offset %llu: %s", path, (unsigned long long)err->offset,
            err->field);
    if (err->detail[0])
        fprintf(stderr, ": %s", err->detail);
    fprintf(stderr, " (%s)\n", lp_strerror(code));
}

int lp_host_load_profile(const char *path, lp_profile_set *out)
{
    memset(out, 0, sizeof *out);
    uint8_t *data;
    size_t size;
    int rc = lp_host_read_file(path, &data, &size);
    if (rc)
        return rc;
    /* Name the kind when someone hands us another lowprof file: "not a
     * profile" is more useful than a field error deep in the header. */
    unsigned kind = 0;
    if (lp_file_sniff(data, size, &kind, NULL) == 0 && kind != LP_FILE_PROFILE) {
        const char *name = lp_file_kind_name(kind);
        fprintf(stderr, "lowprof: %s: this is %s %s file, not a profile (see `lowprof info`)\n",
                path, name && name[0] == 'i' ? "an" : "a", name ? name : "lowprof");
        lp_free(data);
        return LP_EFORMAT;
    }
    lp_memsource ms;
    lp_read_error err;
    memset(&err, 0, sizeof err);
    rc = lp_profile_file_read(lp_memsource_init(&ms, data, size), out, &err);
    lp_free(data);
    if (rc) {
        lp_host_print_read_error(path, rc, &err);
        lp_profile_set_fini(out);
        memset(out, 0, sizeof *out);
    }
    return rc;
}

static int lp__file_sink_write(void *ctx, const void *data, size_t size)
{
    return fwrite(data, 1, size, (FILE *)ctx) == size ? 0 : LP_EIO;
}

lp_sink lp_host_file_sink(void *stdio_file)
{
    lp_sink s = {lp__file_sink_write, stdio_file};
    return s;
}

int lp_host_parse_compressor(const char *cmd, const char *text, lp_compressor_spec *out)
{
    size_t pos = 0;
    const char *why = "";
    if (lp_compressor_spec_parse(text, out, &pos, &why) == 0)
        return 0;
    fprintf(stderr, "lowprof %s: bad compressor '%s' at character %zu: %s\n  %s\n  %*s^\n",
            cmd, text, pos + 1, why, text, (int)pos, "");
    fprintf(stderr, "Try 'lowprof help %s'.\n", cmd);
    return 2;
}

const char *lp_host_status_text(int status, char *buf, size_t cap)
{
    if (status < 0)
        snprintf(buf, cap, "could not start: %s", strerror(errno));
    else if (WIFEXITED(status))
        snprintf(buf, cap, "exit status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(buf, cap, "killed by signal %d", WTERMSIG(status));
    else
        snprintf(buf, cap, "wait status %d", status);
    return buf;
}

/* ---- options ---------------------------------------------------------------------------- */

const char *lp_host_opt_value(int argc, char **argv, int *i, const char *name, int *out_missing)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return NULL;
    if (arg[n] == '=')
        return arg + n + 1;
    if (arg[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *out_missing = 1;
        return NULL;
    }
    return argv[++*i];
}

int lp_host_parse_count(const char *s, uint64_t *out)
{
    if (!s || !*s)
        return -1;
    uint64_t v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *out = v;
    return 0;
}
