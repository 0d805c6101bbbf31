/* The spool folder: where messages wait between the program that made them
 * and the agent that sends them.
 *
 * A message is one file, ID.lpmsg, that appears whole or not at all: it is
 * written under a temporary name that no reader lists (a leading dot, no
 * .lpmsg ending), flushed to the disk, renamed into place, and the folder
 * flushed, so neither a crash of the writer nor one of the machine leaves
 * half a message to send. The agent's bookkeeping lives beside the
 * messages: rejected/ holds what the collector refused, each with its
 * reason in NAME.why, and the file `dropped` counts the messages deleted to
 * keep the spool within its size, across restarts. Tuned for spools of a
 * few thousand files at most: each pass lists and sorts the whole folder. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fsync, openat's O_DIRECTORY */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "upload_internal.h"

#define LP__SPOOL_SUFFIX ".lpmsg"

/* mkdir -p: creates dir and any missing parents. */
static int make_dirs(const char *dir)
{
    char path[4096];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(path, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (path[i] != '/' && path[i] != '\0')
            continue;
        char keep = path[i];
        path[i] = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return -1;
        path[i] = keep;
    }
    return 0;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int lp__spool_write_file(const char *dir, const char *name, const void *data, size_t size,
                         char *why, size_t whycap)
{
    char tmp[4096], final[4096];
    if ((size_t)snprintf(final, sizeof final, "%s/%s", dir, name) >= sizeof final ||
        (size_t)snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX", dir, name) >= sizeof tmp) {
        lp__upload_why(why, whycap, "%s/%s: path too long", dir, name);
        return LP_EINVAL;
    }
    int fd = mkstemp(tmp);
    if (fd < 0) {
        lp__upload_why(why, whycap, "%s: cannot create a temporary file: %s", dir,
                       strerror(errno));
        return LP_EIO;
    }
    /* Readable by an agent running as another user of the same group. */
    int ok = fchmod(fd, 0644) == 0 && write_all(fd, data, size) == 0 && fsync(fd) == 0;
    int e = errno;
    if (close(fd) != 0 && ok) {
        ok = 0;
        e = errno;
    }
    if (!ok || rename(tmp, final) != 0) {
        if (ok)
            e = errno;
        unlink(tmp);
        lp__upload_why(why, whycap, "%s: cannot write: %s", final, strerror(e));
        return LP_EIO;
    }
    /* The rename is durable only once the folder's entry is. */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return 0;
}

int lp_upload_spool_write(const char *dir, const lp_profile_set *set, char *why, size_t whycap)
{
    if (why && whycap)
        why[0] = '\0';
    if (make_dirs(dir) != 0) {
        lp__upload_why(why, whycap, "%s: cannot create the spool folder: %s", dir,
                       strerror(errno));
        return LP_EIO;
    }
    /* identify writes meta only, and set is const: work on a copy of the
     * meta that borrows the profiles and modules. */
    lp_profile_set view = *set;
    memset(&view.meta, 0, sizeof view.meta);
    int rc = lp_meta_copy(&view.meta, &set->meta);
    if (rc == 0 && !lp_meta_get(&view.meta, "message-id")) {
        rc = lp_upload_identify(&view, NULL);
        if (rc == LP_ENOENT)
            lp__upload_why(why, whycap,
                           "no module has a build id: the message could not name its build");
    }
    const char *id = rc == 0 ? lp_meta_get(&view.meta, "message-id") : NULL;
    if (rc == 0 && !lp__upload_is_hex(id, 16, 64)) {
        lp__upload_why(why, whycap, "meta message-id: not 16 to 64 hex digits");
        rc = LP_EINVAL;
    }
    lp_membuf file = {0};
    if (rc == 0)
        rc = lp_profile_file_write(&view, lp_membuf_sink(&file));
    if (rc == 0) {
        char name[96];
        snprintf(name, sizeof name, "%s" LP__SPOOL_SUFFIX, id);
        rc = lp__spool_write_file(dir, name, file.data, file.size, why, whycap);
    } else if (why && whycap && !why[0]) {
        lp__upload_why(why, whycap, "%s", lp_strerror(rc));
    }
    lp_membuf_free(&file);
    lp_meta_fini(&view.meta);
    return rc;
}

/* ---- listing, the size limit, rejects ------------------------------------------ */

static int is_message_name(const char *name)
{
    size_t n = strlen(name), s = sizeof LP__SPOOL_SUFFIX - 1;
    return name[0] != '.' && n > s && strcmp(name + n - s, LP__SPOOL_SUFFIX) == 0;
}

static int by_age(const void *a, const void *b)
{
    const lp__spool_entry *x = a, *y = b;
    if (x->mtime_ns != y->mtime_ns)
        return x->mtime_ns < y->mtime_ns ? -1 : 1;
    return strcmp(x->name, y->name);
}

int lp__spool_list(const char *dir, lp__spool_entry **out, size_t *out_count, char *why,
                   size_t whycap)
{
    *out = NULL;
    *out_count = 0;
    DIR *d = opendir(dir);
    if (!d) {
        int e = errno;
        lp__upload_why(why, whycap, "%s: %s", dir, strerror(e));
        return e == ENOENT ? LP_ENOENT : LP_EIO;
    }
    lp__spool_entry *v = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!is_message_name(de->d_name) || strlen(de->d_name) >= sizeof v->name)
            continue;
        struct stat st;
        if (fstatat(dirfd(d), de->d_name, &st, 0) != 0 || !S_ISREG(st.st_mode))
            continue; /* gone since readdir, or not a file: not a message */
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : 64;
            lp__spool_entry *nv = realloc(v, ncap * sizeof *v);
            if (!nv) {
                lp__upload_why(why, whycap, "%s: out of memory listing the spool", dir);
                rc = LP_ENOMEM;
                break;
            }
            v = nv;
            cap = ncap;
        }
        memcpy(v[n].name, de->d_name, strlen(de->d_name) + 1);
        v[n].size = (uint64_t)st.st_size;
        v[n].mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
        n++;
    }
    closedir(d);
    if (rc) {
        free(v);
        return rc;
    }
    if (n)
        qsort(v, n, sizeof *v, by_age);
    *out = v;
    *out_count = n;
    return 0;
}

uint64_t lp__spool_dropped_read(const char *dir)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/dropped", dir) >= sizeof path)
        return 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    unsigned long long v = 0;
    if (fscanf(f, "%llu", &v) != 1)
        v = 0;
    fclose(f);
    return v;
}

int lp__spool_enforce(const char *dir, uint64_t max_bytes, uint64_t *out_dropped, char *why,
                      size_t whycap)
{
    *out_dropped = 0;
    if (max_bytes == 0)
        return 0;
    lp__spool_entry *v;
    size_t n;
    int rc = lp__spool_list(dir, &v, &n, why, whycap);
    if (rc)
        return rc == LP_ENOENT ? 0 : rc;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += v[i].size;
    uint64_t dropped = 0;
    for (size_t i = 0; i < n && total > max_bytes; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, v[i].name);
        if (unlink(path) == 0)
            dropped++;
        total -= v[i].size; /* gone either way: someone else took it */
    }
    free(v);
    *out_dropped = dropped;
    if (dropped == 0)
        return 0;
    char text[32];
    int len = snprintf(text, sizeof text, "%llu\n",
                       (unsigned long long)(lp__spool_dropped_read(dir) + dropped));
    return lp__spool_write_file(dir, "dropped", text, (size_t)len, why, whycap);
}

int lp__spool_reject(const char *dir, const char *name, const char *reason, char *why,
                     size_t whycap)
{
    char rej[4096], from[4096], to[4096], why_name[300];
    if ((size_t)snprintf(rej, sizeof rej, "%s/rejected", dir) >= sizeof rej ||
        (size_t)snprintf(from, sizeof from, "%s/%s", dir, name) >= sizeof from ||
        (size_t)snprintf(to, sizeof to, "%s/%s", rej, name) >= sizeof to ||
        (size_t)snprintf(why_name, sizeof why_name, "%s.why", name) >= sizeof why_name) {
        lp__upload_why(why, whycap, "%s/%s: path too long", dir, name);
        return LP_EINVAL;
    }
    if (mkdir(rej, 0777) != 0 && errno != EEXIST) {
        lp__upload_why(why, whycap, "%s: %s", rej, strerror(errno));
        return LP_EIO;
    }
    /* The reason first, so a message never sits in rejected/ without it. */
    size_t rlen = strlen(reason);
    char *text = malloc(rlen + 2);
    if (!text) {
        lp__upload_why(why, whycap, "out of memory");
        return LP_ENOMEM;
    }
    memcpy(text, reason, rlen);
    text[rlen] = '\n';
    int rc = lp__spool_write_file(rej, why_name, text, rlen + 1, why, whycap);
    free(text);
    if (rc)
        return rc;
    if (rename(from, to) != 0) {
        lp__upload_why(why, whycap, "%s: cannot move into rejected/: %s", from,
                       strerror(errno));
        return LP_EIO;
    }
    return 0;
}
