/* The experiments' job pool: n independent jobs (replays of one trace
 * through several profilers) on up to `threads` threads, each taking the
 * next job index until none is left. Results land in the caller's arrays
 * by index, so they do not depend on which thread ran what. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "eval_internal.h"

typedef struct pool {
    size_t n;
    int (*run)(void *ctx, size_t i);
    void (*done)(void *ctx, size_t i, int status, size_t finished);
    void *ctx;
    int *status;
    pthread_mutex_t lock;
    size_t next, finished;
} pool;

static void *worker(void *arg)
{
    pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t i = p->next < p->n ? p->next++ : SIZE_MAX;
        pthread_mutex_unlock(&p->lock);
        if (i == SIZE_MAX)
            return NULL;
        p->status[i] = p->run(p->ctx, i);
        pthread_mutex_lock(&p->lock);
        size_t k = ++p->finished;
        if (p->done)
            p->done(p->ctx, i, p->status[i], k);
        pthread_mutex_unlock(&p->lock);
    }
}

int lp__eval_parallel(size_t n, unsigned threads, int (*run)(void *ctx, size_t i),
                      void (*done)(void *ctx, size_t i, int status, size_t finished), void *ctx,
                      int *status)
{
    pool p = {n, run, done, ctx, status, PTHREAD_MUTEX_INITIALIZER, 0, 0};
    if (threads < 1)
        threads = 1;
    if (threads > n)
        threads = (unsigned)n;
    pthread_t tid[64];
    unsigned started = 0;
    for (; started < threads && started < 64; started++)
        if (pthread_create(&tid[started], NULL, worker, &p) != 0)
            break;
    if (started == 0)
        worker(&p);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    return 0;
}
