/* store: what must hold when processes die and race.
 *
 * Kill: a child process puts batches as fast as it can and reports each
 * batch the store acknowledged through a pipe; it is killed with SIGKILL
 * after a random few milliseconds (inside a put, an open, a commit, ...).
 * After every kill the store must open, pass lp_store_check, hold every
 * acknowledged upload exactly once with its exact body, and call each of
 * them a duplicate when it is sent again.
 *
 * Order: two writer processes put single uploads into one build while
 * this process reads it incrementally, as the collector's merge does
 * ("uploads with seq > the last one seen"). If seq could commit out of
 * order, a reader would skip an upload for good; the test requires that
 * the incremental reads together see every upload exactly once.
 *
 * Without an argument: SQLite in a temporary folder; with a postgresql://
 * URI: a fresh database on that server. */
#define _DEFAULT_SOURCE /* mkdtemp, usleep */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lowprof/store.h"
#include "../lp_test.h"
#include "store_test_pg.h"

enum { ROUNDS = 100, MAX_BATCH = 8, MAX_ACKED = 4096, WRITERS = 2, PER_WRITER = 150 };

static char where[512];
static int64_t project;

/* A body derived from the message's numbers, so any row can be checked. */
static size_t body_of(unsigned round, unsigned k, unsigned char *out, size_t cap)
{
    uint64_t x = ((uint64_t)round << 32 | k) * 0x9e3779b97f4a7c15ULL + 7;
    size_t size = 500 + (size_t)(x >> 40) % 7500; /* spans overflow pages */
    if (size > cap)
        size = cap;
    for (size_t i = 0; i < size; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        out[i] = (unsigned char)(x >> 56);
    }
    return size;
}

typedef struct ack {
    unsigned first, n;
} ack;

/* The child: opens the store and puts batches of 1..MAX_BATCH until it is
 * killed, writing each acknowledged batch to fd. */
static void writer_loop(unsigned round, int fd)
{
    char err[512];
    lp_store *s = NULL;
    if (lp_store_open(where, &s, err, sizeof err) < 0) {
        fprintf(stderr, "child open: %s\n", err);
        _exit(3);
    }
    static unsigned char bodies[MAX_BATCH][20000];
    char mids[MAX_BATCH][32], build[16];
    snprintf(build, sizeof build, "b%03u", round);
    unsigned k = 0;
    for (;;) {
        lp_store_upload u[MAX_BATCH];
        unsigned n = 1 + (k * 7 + round) % MAX_BATCH;
        for (unsigned i = 0; i < n; i++) {
            snprintf(mids[i], sizeof mids[i], "%03u%06u", round, k + i);
            size_t size = body_of(round, k + i, bodies[i], sizeof bodies[i]);
            u[i] = (lp_store_upload){.project = project, .message_id = mids[i],
                                     .program = "crash", .build_id = build, .device = "dev",
                                     .received_ms = (int64_t)(k + i), .instructions = k + i,
                                     .body = bodies[i], .body_size = size};
        }
        if (lp_store_put(s, u, n, NULL) < 0) {
            fprintf(stderr, "child put: %s\n", lp_store_error(s));
            _exit(4);
        }
        ack a = {k, n};
        if (write(fd, &a, sizeof a) != (ssize_t)sizeof a)
            _exit(5);
        k += n;
    }
}

typedef struct seen {
    unsigned round;
    unsigned char *count; /* per message number */
    size_t cap;
    int bad;
    int64_t last_seq;
} seen;

static int seen_row(void *ctx, const lp_store_row *r)
{
    seen *sn = ctx;
    unsigned rr = 0, k = 0;
    if (sscanf(r->message_id, "%3u%6u", &rr, &k) != 2 || rr != sn->round || k >= sn->cap) {
        sn->bad++;
        return 0;
    }
    sn->count[k]++;
    sn->last_seq = r->seq;
    if (r->body) {
        static unsigned char want[20000];
        size_t size = body_of(rr, k, want, sizeof want);
        if (r->body_size != size || memcmp(r->body, want, size) != 0)
            sn->bad++;
    }
    return 0;
}

static void check_kill_round(unsigned round, lp_rng *rng)
{
    int fds[2];
    if (pipe(fds) != 0) {
        perror("pipe");
        exit(1);
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        writer_loop(round, fds[1]);
    }
    close(fds[1]);
    usleep((useconds_t)(2000 + lp_rng_next(rng) % 40000));
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    LP_CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

    static ack acks[MAX_ACKED];
    size_t nacks = 0;
    ssize_t got;
    while (nacks < MAX_ACKED && (got = read(fds[0], &acks[nacks], sizeof acks[0])) > 0)
        nacks += got == (ssize_t)sizeof acks[0];
    close(fds[0]);

    char err[512], build[16];
    snprintf(build, sizeof build, "b%03u", round);
    lp_store *s = NULL;
    int rc = lp_store_open(where, &s, err, sizeof err);
    LP_CHECK(rc == 0);
    if (rc < 0) {
        fprintf(stderr, "round %u: reopen: %s\n", round, err);
        return;
    }
    rc = lp_store_check(s);
    LP_CHECK(rc == 0);
    if (rc < 0)
        fprintf(stderr, "round %u: %s\n", round, lp_store_error(s));

    enum { CAP = 1 << 16 };
    static unsigned char count[CAP];
    memset(count, 0, sizeof count);
    seen sn = {.round = round, .count = count, .cap = CAP};
    LP_CHECK(lp_store_bodies(s, project, "crash", build, 0, 0, seen_row, &sn) == 0);
    LP_CHECK(sn.bad == 0);
    /* Acknowledged: there, once. The batch in flight at the kill may be
     * there (committed, not yet reported) or not, but wholly or not at all. */
    unsigned acked_end = 0;
    int lost = 0, twice = 0;
    for (size_t i = 0; i < nacks; i++)
        for (unsigned k = acks[i].first; k < acks[i].first + acks[i].n && k < CAP; k++) {
            lost += count[k] == 0;
            twice += count[k] > 1;
            acked_end = k + 1;
        }
    LP_CHECK(lost == 0 && twice == 0);
    if (lost || twice)
        fprintf(stderr, "round %u: %d acknowledged uploads lost, %d stored twice\n", round, lost,
                twice);
    unsigned extra = 0;
    for (unsigned k = acked_end; k < CAP; k++)
        extra += count[k];
    LP_CHECK(extra <= MAX_BATCH);
    if (extra) {
        unsigned k = acked_end;
        while (k < CAP && count[k])
            k++;
        LP_CHECK(k - acked_end == extra); /* contiguous: the one batch in flight */
    }

    /* Resending what was acknowledged changes nothing. */
    if (nacks) {
        static unsigned char body[20000];
        char mid[32];
        unsigned k = acks[nacks - 1].first;
        size_t size = body_of(round, k, body, sizeof body);
        snprintf(mid, sizeof mid, "%03u%06u", round, k);
        lp_store_upload u = {.project = project, .message_id = mid, .program = "crash",
                             .build_id = build, .device = "dev", .body = body,
                             .body_size = size};
        int dup = 0;
        LP_CHECK(lp_store_put(s, &u, 1, &dup) == 0 && dup == 1);
    }
    lp_store_close(s);
}

/* ---- order: incremental reads under concurrent writers --------------------------- */

static void order_writer(unsigned w)
{
    char err[512];
    lp_store *s = NULL;
    if (lp_store_open(where, &s, err, sizeof err) < 0) {
        fprintf(stderr, "writer open: %s\n", err);
        _exit(3);
    }
    for (unsigned i = 0; i < PER_WRITER; i++) {
        char mid[32];
        unsigned k = w * PER_WRITER + i;
        snprintf(mid, sizeof mid, "%03u%06u", 999u, k);
        lp_store_upload u = {.project = project, .message_id = mid, .program = "order",
                             .build_id = "b", .device = "dev", .received_ms = k,
                             .body = "x", .body_size = 1};
        if (lp_store_put(s, &u, 1, NULL) < 0) {
            fprintf(stderr, "writer put: %s\n", lp_store_error(s));
            _exit(4);
        }
    }
    lp_store_close(s);
    _exit(0);
}

static void check_order(void)
{
    char err[512];
    lp_store *s = NULL;
    if (lp_store_open(where, &s, err, sizeof err) < 0) {
        LP_CHECK(0);
        fprintf(stderr, "order: %s\n", err);
        return;
    }
    pid_t pids[WRITERS];
    for (unsigned w = 0; w < WRITERS; w++)
        if ((pids[w] = fork()) == 0)
            order_writer(w);
    static unsigned char count[WRITERS * PER_WRITER];
    seen sn = {.round = 999, .count = count, .cap = WRITERS * PER_WRITER};
    int running = WRITERS, reads = 0, failed = 0, read_errors = 0;
    while (running > 0 || reads == 0) {
        int status;
        for (unsigned w = 0; w < WRITERS; w++)
            if (pids[w] > 0 && waitpid(pids[w], &status, WNOHANG) == pids[w]) {
                pids[w] = 0;
                running--;
                failed += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
            }
        if (lp_store_uploads(s, project, "order", "b", sn.last_seq, seen_row, &sn) != 0)
            read_errors++;
        reads++;
        usleep(300);
    }
    LP_CHECK(read_errors == 0);
    /* One read after every writer is done picks up nothing new if none
     * was skipped; the counts then show whether each came exactly once. */
    LP_CHECK(lp_store_uploads(s, project, "order", "b", sn.last_seq, seen_row, &sn) == 0);
    LP_CHECK(failed == 0);
    LP_CHECK(sn.bad == 0);
    int missing = 0, twice = 0;
    for (size_t k = 0; k < sn.cap; k++) {
        missing += count[k] == 0;
        twice += count[k] > 1;
    }
    LP_CHECK(missing == 0 && twice == 0);
    if (missing || twice)
        fprintf(stderr, "order: incremental reads missed %d uploads, saw %d twice\n", missing,
                twice);
    printf("order: %d incremental reads\n", reads);
    lp_store_close(s);
}

int main(int argc, char **argv)
{
    const char *server = argc > 1 ? argv[1] : NULL;
    char tmp[] = "/tmp/lp-store-crash-XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    if (server) {
        if (pg_fresh(server, "store_crash", where, sizeof where) < 0)
            return 1;
    } else {
        snprintf(where, sizeof where, "%s/data", tmp);
    }
    char err[512], token[LP_STORE_TOKEN_LEN + 1];
    lp_store *s = NULL;
    if (lp_store_open(where, &s, err, sizeof err) < 0) {
        fprintf(stderr, "open: %s\n", err);
        return 1;
    }
    LP_CHECK(lp_store_token_create(s, "crash", token, sizeof token) == 0);
    LP_CHECK(lp_store_token_check(s, token, &project, NULL, 0) == 0);
    lp_store_close(s);

    lp_rng rng;
    lp_rng_seed(&rng, (uint64_t)time(NULL));
    for (unsigned round = 0; round < ROUNDS; round++)
        check_kill_round(round, &rng);
    check_order();

    if (!server) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", tmp);
    } else {
        rmdir(tmp);
    }
    return lp_test_done();
}
