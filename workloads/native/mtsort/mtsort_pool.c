/* mtsort: the thread pool. One queue (a growable ring) under one mutex;
 * workers sleep on `work`, waiters on `done`. `pending` counts tasks queued
 * or running, so a task that submits more keeps mt_pool_wait waiting. */
#include "mtsort.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct mt_task {
    mt_task_fn fn;
    void *arg;
} mt_task;

struct mt_pool {
    pthread_mutex_t lock;
    pthread_cond_t work, done;
    mt_task *ring;
    size_t head, count, cap;
    size_t pending;
    uint64_t executed;
    int stop;
    int n_threads;
    pthread_t *threads;
};

static int mt_take(mt_pool *p, mt_task *out)
{
    while (p->count == 0 && !p->stop)
        pthread_cond_wait(&p->work, &p->lock);
    if (p->count == 0)
        return 0;
    *out = p->ring[p->head];
    p->head = (p->head + 1) % p->cap;
    p->count--;
    return 1;
}

static void mt_finish(mt_pool *p)
{
    p->executed++;
    if (--p->pending == 0)
        pthread_cond_broadcast(&p->done);
}

static void *mt_worker(void *arg)
{
    mt_pool *p = arg;
    mt_task t;
    pthread_mutex_lock(&p->lock);
    while (mt_take(p, &t)) {
        pthread_mutex_unlock(&p->lock);
        t.fn(t.arg);
        pthread_mutex_lock(&p->lock);
        mt_finish(p);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

mt_pool *mt_pool_create(int threads)
{
    mt_pool *p = nw_zalloc(1, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    p->cap = 256;
    p->ring = nw_alloc(sizeof(mt_task) * p->cap);
    p->n_threads = threads;
    p->threads = nw_alloc(sizeof(pthread_t) * (size_t)threads);
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&p->threads[i], NULL, mt_worker, p) != 0) {
            fprintf(stderr, "mtsort: cannot start thread %d\n", i);
            exit(2);
        }
    }
    return p;
}

void mt_pool_free(mt_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->n_threads; i++)
        pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->lock);
    free(p->threads);
    free(p->ring);
    free(p);
}

/* Doubles the ring, unrolling it so that head is 0. Lock held. */
static void mt_grow(mt_pool *p)
{
    mt_task *ring = nw_alloc(sizeof(mt_task) * p->cap * 2);
    for (size_t i = 0; i < p->count; i++)
        ring[i] = p->ring[(p->head + i) % p->cap];
    free(p->ring);
    p->ring = ring;
    p->head = 0;
    p->cap *= 2;
}

void mt_pool_submit(mt_pool *p, mt_task_fn fn, void *arg)
{
    pthread_mutex_lock(&p->lock);
    if (p->count == p->cap)
        mt_grow(p);
    p->ring[(p->head + p->count) % p->cap] = (mt_task){fn, arg};
    p->count++;
    p->pending++;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->lock);
}

void mt_pool_wait(mt_pool *p)
{
    pthread_mutex_lock(&p->lock);
    while (p->pending > 0)
        pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

uint64_t mt_pool_executed(mt_pool *p)
{
    pthread_mutex_lock(&p->lock);
    uint64_t n = p->executed;
    pthread_mutex_unlock(&p->lock);
    return n;
}

void mt_pool_map(mt_pool *p, mt_task_fn fn, void *args, size_t size, size_t n)
{
    for (size_t i = 0; i < n; i++)
        mt_pool_submit(p, fn, (char *)args + i * size);
    mt_pool_wait(p);
}

size_t mt_piece_bound(size_t n, size_t i)
{
    return n * i / MT_PIECES;
}
