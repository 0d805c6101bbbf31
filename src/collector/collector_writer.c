/* The collector's group-commit writer: the one thread that writes uploads
 * into the store.
 *
 * An upload may be answered 2xx only once it is durable, and a durable
 * commit costs a flush to disk (SQLite's WAL with synchronous=FULL, or
 * PostgreSQL's commit). One commit per upload would cap ingest at the
 * disk's flush rate; instead request threads queue their decoded uploads
 * and the writer commits everything queued (up to LP__BATCH) in one
 * lp_store_put, then tells each request its answer. Under load the batch
 * grows by itself: the uploads that arrive during one flush share the next.
 *
 * The queue's bytes are capped, so a flood of uploads faster than the
 * store takes them is answered 503 instead of growing memory. Tuned for
 * many small (tens of KB) uploads from many devices at once. */
#include <stdio.h>
#include <string.h>

#include "collector_internal.h"

#define LP__BATCH 256

static void ingest_finish(lp__job *j, int status, const char *why)
{
    j->status = status;
    snprintf(j->why, sizeof j->why, "%s", why ? why : "");
    lp_free(j->body);
    j->body = NULL;
    j->up.body = NULL;
    j->done(j->done_ctx);
}

/* Commits one batch. The store takes the batch as one transaction, so it
 * is stored whole or not at all; a failed batch is retried once (a
 * PostgreSQL connection that dropped, a busy SQLite file) before the
 * uploads are answered 500. */
static void ingest_commit(lp__ingest *g, lp__job **jobs, size_t n)
{
    lp_store_upload ups[LP__BATCH];
    int dup[LP__BATCH];
    for (size_t i = 0; i < n; i++) {
        ups[i] = jobs[i]->up;
        dup[i] = 0;
    }
    int rc = lp_store_put(g->store, ups, n, dup);
    if (rc != 0)
        rc = lp_store_put(g->store, ups, n, dup);
    if (rc == 0) {
        if (g->on_commit)
            g->on_commit(g->on_commit_ctx, ups, n);
        for (size_t i = 0; i < n; i++)
            ingest_finish(jobs[i], dup[i] ? 200 : 201, NULL);
        return;
    }
    /* One upload the store refuses must not cost the others theirs:
     * commit them one by one, so only the refused ones hear 500. */
    char why[200];
    for (size_t i = 0; i < n; i++) {
        int one = 0;
        rc = n > 1 ? lp_store_put(g->store, &ups[i], 1, &one) : rc;
        if (rc == 0 && g->on_commit)
            g->on_commit(g->on_commit_ctx, &ups[i], 1);
        if (rc != 0)
            snprintf(why, sizeof why, "store: %s", lp_store_error(g->store));
        ingest_finish(jobs[i], rc != 0 ? 500 : one ? 200 : 201, rc != 0 ? why : NULL);
    }
}

static void *ingest_main(void *arg)
{
    lp__ingest *g = arg;
    lp__job *jobs[LP__BATCH];
    for (;;) {
        pthread_mutex_lock(&g->lock);
        while (!g->head && !g->closing)
            pthread_cond_wait(&g->wake, &g->lock);
        if (!g->head) { /* closing and nothing left */
            pthread_mutex_unlock(&g->lock);
            return NULL;
        }
        size_t n = 0;
        while (g->head && n < LP__BATCH) {
            lp__job *j = g->head;
            g->head = j->next;
            g->queued_bytes -= j->up.body_size;
            jobs[n++] = j;
        }
        if (!g->head)
            g->tail = NULL;
        pthread_mutex_unlock(&g->lock);
        ingest_commit(g, jobs, n);
        g->batches++;
        g->committed += n;
    }
}

int lp__ingest_start(lp__ingest *g, const char *where, size_t max_bytes, char *err,
                     size_t errcap)
{
    memset(g, 0, sizeof *g);
    int rc = lp_store_open(where, &g->store, err, errcap);
    if (rc != 0)
        return rc;
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->wake, NULL);
    g->max_bytes = max_bytes;
    if (pthread_create(&g->writer, NULL, ingest_main, g) != 0) {
        snprintf(err, errcap, "cannot start the writer thread");
        lp_store_close(g->store);
        g->store = NULL;
        return LP_ENOMEM;
    }
    return 0;
}

int lp__ingest_push(lp__ingest *g, lp__job *job)
{
    job->next = NULL;
    pthread_mutex_lock(&g->lock);
    if (g->closing) {
        pthread_mutex_unlock(&g->lock);
        return LP_EINVAL;
    }
    /* One upload is always taken, however large, so a body under the
     * upload limit can never be refused forever. */
    if (g->head && g->queued_bytes + job->up.body_size > g->max_bytes) {
        pthread_mutex_unlock(&g->lock);
        return LP_ELIMIT;
    }
    if (g->tail)
        g->tail->next = job;
    else
        g->head = job;
    g->tail = job;
    g->queued_bytes += job->up.body_size;
    pthread_cond_signal(&g->wake);
    pthread_mutex_unlock(&g->lock);
    return 0;
}

void lp__ingest_stop(lp__ingest *g)
{
    if (!g->store)
        return;
    pthread_mutex_lock(&g->lock);
    g->closing = 1;
    pthread_cond_signal(&g->wake);
    pthread_mutex_unlock(&g->lock);
    pthread_join(g->writer, NULL);
    lp_store_close(g->store);
    g->store = NULL;
    pthread_cond_destroy(&g->wake);
    pthread_mutex_destroy(&g->lock);
}
