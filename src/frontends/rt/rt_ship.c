/* Messages for the collector (doc/runtime.md, "Shipping"): with
 * ship=At-End,spool=DIR the run's profile also goes into DIR as one
 * message, ID.lpmsg, which `lowprof agent` sends later. The profiled
 * program does no network I/O and links no compressor: a message here is
 * the profile file with the metadata that names it (doc/format-upload.md),
 * and the agent compresses it on the wire.
 *
 * Interleaved (ship=interleaved, phase strategy only) writes a message per
 * profiled interval instead, from the daemon (rt_phase_out.c); they share a
 * run-id and are numbered by part, and the last one carries the run's own
 * estimate, which the collector counts once it has every part.
 *
 * Runs where the dump runs, the fatal-signal handler included, so it is
 * async-signal-safe in the same way: getrandom, uname, mkdir, open, write,
 * fsync, rename; memory only through core's shim. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h> /* rename */
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "rt_internal.h"

static void lp__rt_hex(const uint8_t *p, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[p[i] >> 4];
        out[2 * i + 1] = digits[p[i] & 15];
    }
    out[2 * n] = 0;
}

/* A message id nobody else will pick: 128 random bits. Should the kernel
 * give none (very early boot), the pid, the clock and the address of the
 * state stand in, which still differ between any two runs of a device. */
void lp__rt_random_id(char out[33])
{
    uint8_t r[16];
    size_t got = 0;
    while (got < sizeof r) {
        ssize_t n = getrandom(r + got, sizeof r - got, GRND_NONBLOCK);
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                continue;
            break;
        }
        got += (size_t)n;
    }
    if (got < sizeof r) {
        uint64_t a = lp_hash_pair((uint64_t)getpid(), lp__rt_cpu_ns());
        uint64_t b = lp_hash_pair(a, (uint64_t)(uintptr_t)&lp__rt);
        memcpy(r, &a, 8);
        memcpy(r + 8, &b, 8);
    }
    lp__rt_hex(r, sizeof r, out);
}

/* The executable's build id: the module whose path ends in the program's
 * name, else the first module that has one. */
static int lp__rt_build_id(char *out, size_t cap)
{
    const char *prog = lp__rt.program;
    const char *base = strrchr(prog, '/');
    base = base ? base + 1 : prog;
    const lp__rt_module *pick = NULL;
    for (size_t i = 0; i < lp__rt.nmodules && !pick; i++) {
        const lp__rt_module *m = &lp__rt.modules[i];
        const char *mb = strrchr(m->path, '/');
        mb = mb ? mb + 1 : m->path;
        if (m->build_id_len && base[0] && strcmp(mb, base) == 0)
            pick = m;
    }
    for (size_t i = 0; i < lp__rt.nmodules && !pick; i++)
        if (lp__rt.modules[i].build_id_len)
            pick = &lp__rt.modules[i];
    if (!pick || cap < 2u * pick->build_id_len + 1)
        return -1;
    lp__rt_hex(pick->build_id, pick->build_id_len, out);
    return 0;
}

int lp__rt_spool_write(lp_profile_set *set)
{
    const lp__rt_config *c = &lp__rt.cfg;
    char id[33], bid[81];
    lp__rt_random_id(id);
    if (lp__rt_build_id(bid, sizeof bid) != 0) {
        lp__rt_say("ship: the program has no build id, so the collector could not tell its "
                   "builds apart; link with -Wl,--build-id");
        return LP_ENOENT;
    }
    struct utsname u;
    const char *device = c->device[0] ? c->device : uname(&u) == 0 ? u.nodename : "unknown";
    int rc = lp_meta_set(&set->meta, "message-id", id);
    if (!rc)
        rc = lp_meta_set(&set->meta, "device", device);
    if (!rc)
        rc = lp_meta_set(&set->meta, "build-id", bid);
    if (rc)
        return rc;

    /* DIR/.ID.tmp, then DIR/ID.lpmsg: the agent takes only *.lpmsg, so it
     * never reads half a message. */
    char tmp[LP__RT_OUT_MAX + 48], path[LP__RT_OUT_MAX + 48];
    size_t n = strlen(c->spool);
    if (n + 48 > sizeof tmp)
        return LP_EINVAL;
    mkdir(c->spool, 0777); /* an existing folder is fine; a failure shows at open */
    memcpy(tmp, c->spool, n);
    strcpy(tmp + n, "/.");
    strcat(tmp, id);
    strcat(tmp, ".tmp");
    memcpy(path, c->spool, n);
    path[n] = '/';
    strcpy(path + n + 1, id);
    strcat(path, ".lpmsg");
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        rc = LP_EIO;
    if (!rc) {
        lp_sink sink = {lp__rt_fd_write, &fd};
        rc = lp_profile_file_write(set, sink);
        /* Durable before it is visible: the agent deletes nothing it has
         * not delivered, but a message renamed into place and then lost
         * by a crash of the machine would be a run gone missing. */
        if (!rc && fsync(fd) != 0)
            rc = LP_EIO;
        if (close(fd) != 0 && !rc)
            rc = LP_EIO;
        if (!rc && rename(tmp, path) != 0)
            rc = LP_EIO;
        if (rc)
            unlink(tmp);
    }
    if (rc) {
        char msg[LP__RT_OUT_MAX + 64] = "ship: could not write a message into ";
        strcat(msg, c->spool);
        lp__rt_say(msg);
    }
    return rc;
}
