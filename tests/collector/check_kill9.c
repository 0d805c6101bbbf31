/* No acknowledged upload is ever lost: `lowprof serve` on a SQLite data
 * folder is killed with SIGKILL at a random moment (0-300 ms after it
 * starts listening) while uploader threads send distinct messages, then
 * started again, ROUNDS times. Messages that got no answer are sent again
 * in later rounds, as an agent would. At the end every message that was
 * answered 2xx is in the store exactly once, the database passes its
 * integrity check, and resending acknowledged messages gets "duplicate".
 *
 * usage: check_kill9 LOWPROF WORKDIR ROUNDS */
#define _POSIX_C_SOURCE 200809L /* kill, nanosleep */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lowprof/store.h"
#include "lp_ctest.h"

#define UPLOADERS 8

static char token[64];
static unsigned port;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t next_seed = 1;
static int stop_round;

/* Seeds whose message got no answer yet; sent again first. */
static uint64_t *retry;
static size_t nretry, capretry;
/* Acknowledged message ids. */
static char (*acked)[65];
static size_t nacked, capacked;
static uint64_t sent, dup_answers, errors_5xx;

static void push_u64(uint64_t **a, size_t *n, size_t *cap, uint64_t v)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 1024;
        *a = realloc(*a, *cap * sizeof **a);
        LP_CHECK(*a, "realloc");
    }
    (*a)[(*n)++] = v;
}

static void *uploader(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&lock);
        int stop = stop_round;
        uint64_t seed = nretry ? retry[--nretry] : next_seed++;
        pthread_mutex_unlock(&lock);
        if (stop)
            return NULL;
        lp_membuf m = {0};
        char id[65];
        lp_ctest_message(&m, "kill9-prog", "dev-k", seed, 1000 + seed, 0, id);
        lp_ctest_resp r;
        int rc = lp_ctest_http(port, "POST", "/api/v1/profiles", token, m.data, m.size, 0, &r);
        lp_membuf_free(&m);
        pthread_mutex_lock(&lock);
        sent++;
        if (rc == 0 && (r.status == 200 || r.status == 201)) {
            if (nacked == capacked) {
                capacked = capacked ? capacked * 2 : 1024;
                acked = realloc(acked, capacked * sizeof *acked);
                LP_CHECK(acked, "realloc");
            }
            snprintf(acked[nacked++], 65, "%s", id);
            dup_answers += r.status == 200;
        } else {
            if (rc == 0 && r.status >= 500)
                errors_5xx++;
            LP_CHECK(rc != 0 || r.status == 0 || r.status >= 500,
                     "upload refused with %d: %s", r.status, (char *)r.body.data);
            push_u64(&retry, &nretry, &capretry, seed);
        }
        pthread_mutex_unlock(&lock);
        lp_ctest_resp_free(&r);
        if (rc != 0) { /* the server is gone: wait for the next round */
            pthread_mutex_lock(&lock);
            stop = stop_round;
            pthread_mutex_unlock(&lock);
            if (stop)
                return NULL;
            struct timespec pause = {0, 5 * 1000 * 1000};
            nanosleep(&pause, NULL);
        }
    }
}

/* Message ids listed by the store for the project. */
typedef struct listing {
    char (*ids)[65];
    size_t n, cap;
    int64_t project;
} listing;

static int list_upload(void *ctx, const lp_store_row *row)
{
    listing *l = ctx;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 1024;
        l->ids = realloc(l->ids, l->cap * sizeof *l->ids);
        LP_CHECK(l->ids, "realloc");
    }
    snprintf(l->ids[l->n++], 65, "%s", row->message_id);
    return 0;
}

/* Build ids, gathered before their uploads are listed (one query at a
 * time on the handle). */
typedef struct builds {
    char ids[64][LP_STORE_BUILD_ID_MAX + 1];
    size_t n;
} builds;

static int list_build(void *ctx, const lp_store_row *row)
{
    builds *b = ctx;
    LP_CHECK(b->n < 64, "too many builds");
    snprintf(b->ids[b->n++], sizeof b->ids[0], "%s", row->build_id);
    return 0;
}

static int cmp_id(const void *a, const void *b)
{
    return strcmp(a, b);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: check_kill9 LOWPROF WORKDIR ROUNDS\n");
        return 2;
    }
    const char *lowprof = argv[1], *work = argv[2];
    int rounds = atoi(argv[3]);
    char data[4096], log[4096];
    lp_ctest_fresh_dir(work);
    snprintf(data, sizeof data, "%s/data", work);
    snprintf(log, sizeof log, "%s/serve.log", work);
    lp_ctest_token(lowprof, data, "crash", token, sizeof token);
    lp_membuf warm = {0};
    lp_ctest_message(&warm, "kill9-prog", "dev-k", 0, 1, 0, NULL); /* reads the binary once */
    lp_membuf_free(&warm);

    lp_rng rng;
    lp_rng_seed(&rng, 2026);
    double t0 = lp_ctest_ms();
    for (int round = 0; round < rounds; round++) {
        pid_t pid = lp_ctest_serve(lowprof, data, log, NULL, &port);
        stop_round = 0;
        pthread_t th[UPLOADERS];
        for (int i = 0; i < UPLOADERS; i++)
            LP_CHECK(pthread_create(&th[i], NULL, uploader, NULL) == 0, "pthread_create");
        uint64_t delay_ms = lp_rng_below(&rng, 301);
        struct timespec pause = {(time_t)(delay_ms / 1000), (long)(delay_ms % 1000) * 1000000L};
        nanosleep(&pause, NULL);
        kill(pid, SIGKILL);
        int st;
        waitpid(pid, &st, 0);
        LP_CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "round %d: serve was not killed",
                 round);
        pthread_mutex_lock(&lock);
        stop_round = 1;
        pthread_mutex_unlock(&lock);
        for (int i = 0; i < UPLOADERS; i++)
            pthread_join(th[i], NULL);
    }
    printf("%d rounds in %.1f s: %llu uploads sent, %zu acknowledged (%llu as duplicates), "
           "%zu unanswered at the end, %llu answered 5xx\n",
           rounds, (lp_ctest_ms() - t0) / 1e3, (unsigned long long)sent, nacked,
           (unsigned long long)dup_answers, nretry, (unsigned long long)errors_5xx);
    LP_CHECK(nacked >= (size_t)rounds, "only %zu uploads acknowledged in %d rounds", nacked,
             rounds);

    /* The store after the last kill, opened directly. */
    char err[512];
    lp_store *s = NULL;
    LP_CHECK(lp_store_open(data, &s, err, sizeof err) == 0, "open: %s", err);
    LP_CHECK(lp_store_check(s) == 0, "integrity check: %s", lp_store_error(s));
    listing l = {NULL, 0, 0, 0};
    LP_CHECK(lp_store_token_check(s, token, &l.project, NULL, 0) == 0, "token");
    builds b = {.n = 0};
    LP_CHECK(lp_store_builds(s, l.project, "kill9-prog", list_build, &b) == 0, "list: %s",
             lp_store_error(s));
    for (size_t i = 0; i < b.n; i++)
        LP_CHECK(lp_store_uploads(s, l.project, "kill9-prog", b.ids[i], 0, list_upload, &l) == 0,
                 "list: %s", lp_store_error(s));
    lp_store_close(s);
    qsort(l.ids, l.n, sizeof *l.ids, cmp_id);
    for (size_t i = 1; i < l.n; i++)
        LP_CHECK(strcmp(l.ids[i - 1], l.ids[i]) != 0, "message %s stored twice", l.ids[i]);
    /* Acknowledged ids, each once (a resend acknowledged twice counts once). */
    qsort(acked, nacked, sizeof *acked, cmp_id);
    size_t distinct = 0;
    for (size_t i = 0; i < nacked; i++) {
        if (i && strcmp(acked[i - 1], acked[i]) == 0)
            continue;
        distinct++;
        LP_CHECK(bsearch(acked[i], l.ids, l.n, sizeof *l.ids, cmp_id),
                 "acknowledged message %s is not in the store", acked[i]);
    }
    printf("ok  all %zu acknowledged messages stored once (%zu stored in all), integrity check "
           "passed\n", distinct, l.n);

    /* Resending acknowledged messages changes nothing. */
    pid_t pid = lp_ctest_serve(lowprof, data, log, NULL, &port);
    int checked = 0;
    for (uint64_t seed = 1; seed < next_seed && checked < 20; seed++) {
        lp_membuf m = {0};
        char id[65];
        lp_ctest_message(&m, "kill9-prog", "dev-k", seed, 1000 + seed, 0, id);
        if (!bsearch(id, acked, nacked, sizeof *acked, cmp_id)) {
            lp_membuf_free(&m);
            continue;
        }
        lp_ctest_resp r;
        LP_CHECK(lp_ctest_http(port, "POST", "/api/v1/profiles", token, m.data, m.size, 0, &r) == 0
                     && r.status == 200 && strstr((char *)r.body.data, "\"duplicate\":true"),
                 "resend of %s: %d", id, r.status);
        lp_ctest_resp_free(&r);
        lp_membuf_free(&m);
        checked++;
    }
    LP_CHECK(lp_ctest_stop(pid) == 0, "final stop");
    printf("ok  %d acknowledged messages resent: all duplicates\nPASS\n", checked);
    free(l.ids);
    free(acked);
    free(retry);
    return 0;
}
