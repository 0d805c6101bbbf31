/* The agent: empties a spool folder into the collector (remote-profiling
 * paper, section 4: the device side of shipping, done outside the profiled
 * program so that the network never costs it anything).
 *
 * One pass takes the messages oldest first; each leaves the spool only when
 * the collector has it (2xx), or moves to rejected/ when the collector says
 * resending cannot help (4xx but 429). When the collector cannot be reached
 * or asks to slow down, the message stays and the agent waits, 1 s at first
 * and twice as long after each further failure, at most 60 s, before the
 * next pass; a success resets the wait. Before every pass the spool is cut
 * back to its size limit by deleting the oldest messages, on the view that
 * recent profiles are worth more than old ones when space runs out.
 *
 * Signals only set a flag; the loop looks at it between messages, while it
 * waits, and (through curl's progress callback) during a send. */
#define _POSIX_C_SOURCE 200809L /* sigaction, nanosleep */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "upload_internal.h"

#define LP__AGENT_BACKOFF_MAX 60.0
#define LP__AGENT_SEND_TIMEOUT_MS 30000L

static volatile sig_atomic_t agent_stop;

static void on_signal(int sig)
{
    (void)sig;
    agent_stop = 1;
}

static void say(const lp_agent_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(const lp_agent_opts *o, const char *fmt, ...)
{
    if (o->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("lowprof agent: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* Waits seconds, or less if a signal asks the agent to stop. */
static void nap(double seconds)
{
    while (seconds > 0 && !agent_stop) {
        double step = seconds < 0.05 ? seconds : 0.05;
        struct timespec ts = {0, (long)(step * 1e9)};
        nanosleep(&ts, NULL);
        seconds -= step;
    }
}

static int read_whole(const char *path, uint8_t **out, size_t *out_size)
{
    *out = NULL;
    *out_size = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno == ENOENT ? LP_ENOENT : LP_EIO;
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    int rc = buf ? 0 : LP_ENOMEM;
    while (rc == 0) {
        if (n == cap) {
            uint8_t *nb = cap <= LP_UPLOAD_MAX_PROFILE ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                rc = cap <= LP_UPLOAD_MAX_PROFILE ? LP_ENOMEM : LP_ELIMIT;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            rc = ferror(f) ? LP_EIO : 0;
            break;
        }
    }
    fclose(f);
    if (rc) {
        free(buf);
        return rc;
    }
    *out = buf;
    *out_size = n;
    return 0;
}

typedef enum outcome { SENT, REJECTED, RETRY, FAILED } outcome;

/* Sets a message aside; FAILED (with fail) if it cannot be moved, since
 * it would otherwise be tried again and again. */
static outcome reject(const lp_agent_opts *o, lp_agent_stats *st, const char *name,
                      const char *reason, char *fail, size_t failcap)
{
    char why[512];
    if (lp__spool_reject(o->spool, name, reason, why, sizeof why) != 0) {
        lp__upload_why(fail, failcap, "%s (refused: %s)", why, reason);
        return FAILED;
    }
    say(o, "rejected %s: %s", name, reason);
    st->rejected++;
    return REJECTED;
}

/* Sends one spooled message. */
static outcome send_one(const lp_agent_opts *o, lp_agent_stats *st, const char *name,
                        char *fail, size_t failcap)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", o->spool, name);
    uint8_t *data;
    size_t size;
    int rc = read_whole(path, &data, &size);
    if (rc == LP_ENOENT)
        return SENT; /* taken by someone else since the listing */
    if (rc == LP_ELIMIT)
        return reject(o, st, name, "file larger than the largest message accepted", fail,
                      failcap);
    if (rc) {
        lp__upload_why(fail, failcap, "%s: cannot read: %s", path, lp_strerror(rc));
        return FAILED;
    }
    lp_profile_set set;
    lp_upload_id id;
    char why[256];
    rc = lp_upload_unpack(data, size, 0, &set, &id, NULL, why, sizeof why);
    free(data);
    if (rc == LP_ENOMEM) {
        lp__upload_why(fail, failcap, "%s: out of memory", path);
        return FAILED;
    }
    if (rc)
        return reject(o, st, name, why, fail, failcap);
    lp_membuf body = {0};
    rc = lp_upload_pack(&set, &body);
    lp_profile_set_fini(&set);
    if (rc) {
        lp_membuf_free(&body);
        lp__upload_why(fail, failcap, "%s: cannot compress: %s", path, lp_strerror(rc));
        return FAILED;
    }
    lp_upload_result r;
    rc = lp__upload_send_cancel(o->collector, o->token, body.data, body.size,
                                LP__AGENT_SEND_TIMEOUT_MS, &agent_stop, &r);
    size_t packed = body.size;
    lp_membuf_free(&body);
    if (rc == 0) {
        if (remove(path) != 0 && errno != ENOENT) {
            lp__upload_why(fail, failcap, "%s: sent, but cannot remove it: %s", path,
                     strerror(errno));
            return FAILED;
        }
        if (r.duplicate) {
            st->duplicates++;
            say(o, "%s already stored", id.message_id);
        } else {
            st->sent++;
            say(o, "sent %s (%s, %zu bytes)", id.message_id, id.program, packed);
        }
        return SENT;
    }
    if (rc == LP_EINVAL) {
        char reason[320];
        lp__upload_why(reason, sizeof reason, "collector answered %ld: %s", r.http_status, r.why);
        return reject(o, st, name, reason, fail, failcap);
    }
    if (r.http_status)
        lp__upload_why(fail, failcap, "collector answered %ld: %s", r.http_status, r.why);
    else
        lp__upload_why(fail, failcap, "collector unreachable: %s", r.why);
    return RETRY;
}

int lp_agent_run(const lp_agent_opts *o, lp_agent_stats *out)
{
    lp_agent_stats st;
    memset(&st, 0, sizeof st);
    if (!o->spool || !o->collector) {
        fprintf(stderr, "lowprof agent: a spool folder and a collector are needed\n");
        return 1;
    }
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    agent_stop = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    double interval = o->interval_s > 0 ? o->interval_s : 1.0;
    double backoff = 0;
    int status = 0;
    char why[512];
    say(o, "sending %s to %s", o->spool, o->collector);
    while (!agent_stop) {
        uint64_t dropped = 0;
        if (lp__spool_enforce(o->spool, o->max_spool, &dropped, why, sizeof why) != 0)
            say(o, "%s", why);
        if (dropped) {
            st.dropped += dropped;
            say(o, "dropped %llu oldest messages to keep the spool within %llu bytes "
                   "(%llu dropped in all)",
                (unsigned long long)dropped, (unsigned long long)o->max_spool,
                (unsigned long long)lp__spool_dropped_read(o->spool));
        }
        lp__spool_entry *v = NULL;
        size_t n = 0;
        int rc = lp__spool_list(o->spool, &v, &n, why, sizeof why);
        if (rc && rc != LP_ENOENT) {
            fprintf(stderr, "lowprof agent: %s\n", why);
            status = 1;
            break;
        }
        if (n == 0) {
            free(v);
            if (o->once)
                break;
            nap(interval);
            continue;
        }
        outcome last = SENT;
        int failed = 0;
        char fail[640];
        for (size_t i = 0; i < n && !agent_stop; i++) {
            last = send_one(o, &st, v[i].name, fail, sizeof fail);
            if (last == SENT)
                backoff = 0;
            if (last == FAILED) {
                /* A local fault with this one file (unreadable, no memory):
                 * the others may still go; it is tried again next pass. */
                fprintf(stderr, "lowprof agent: %s\n", fail);
                failed = 1;
            }
            if (last == RETRY)
                break;
        }
        free(v);
        if (agent_stop)
            break;
        if (failed && o->once) {
            status = 1;
            break;
        }
        if (failed && last != RETRY)
            nap(interval);
        if (last == RETRY) {
            st.retries++;
            if (o->once) {
                fprintf(stderr, "lowprof agent: %s; messages kept in %s\n", fail, o->spool);
                status = 1;
                break;
            }
            backoff = backoff == 0 ? 1 : backoff * 2;
            if (backoff > LP__AGENT_BACKOFF_MAX)
                backoff = LP__AGENT_BACKOFF_MAX;
            say(o, "%s; next try in %g s", fail, backoff);
            nap(backoff);
        }
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    say(o, "%llu sent, %llu already stored, %llu rejected, %llu dropped, %llu retries",
        (unsigned long long)st.sent, (unsigned long long)st.duplicates,
        (unsigned long long)st.rejected, (unsigned long long)st.dropped,
        (unsigned long long)st.retries);
    if (out)
        *out = st;
    return status;
}
