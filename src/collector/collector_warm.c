/* Keeps the collector's cached merges current while uploads arrive.
 *
 * Merging costs a fraction of a millisecond per upload (decompress, parse,
 * add), so a build that received 10,000 uploads since it was last viewed
 * would make its next view wait seconds. Instead the writer tells this
 * thread which builds each commit touched, and about once a second it
 * folds their new uploads into the cache and renders the page's default
 * view, so a view finds the work done. It runs at a lower priority than
 * the request threads: under a flood, ingest comes first and the merge
 * catches up afterwards. Builds beyond LP__WARM_KEYS per second are left
 * to be merged when viewed. */
#define _GNU_SOURCE /* syscall, SYS_gettid */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "collector_internal.h"

void lp__warm_note(void *ctx, const lp_store_upload *ups, size_t n)
{
    lp__warm *w = ctx;
    pthread_mutex_lock(&w->lock);
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < w->n && !(w->keys[k].project == ups[i].project &&
                             strcmp(w->keys[k].build, ups[i].build_id) == 0 &&
                             strcmp(w->keys[k].program, ups[i].program) == 0))
            k++;
        if (k < w->n || w->n == LP__WARM_KEYS)
            continue;
        lp__warm_key *key = &w->keys[w->n++];
        key->project = ups[i].project;
        snprintf(key->program, sizeof key->program, "%s", ups[i].program);
        snprintf(key->build, sizeof key->build, "%s", ups[i].build_id);
    }
    pthread_mutex_unlock(&w->lock);
}

static void *warm_main(void *arg)
{
    lp__warm *w = arg;
    /* Linux gives each thread its own nice value. */
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
    lp__warm_key keys[LP__WARM_KEYS];
    for (;;) {
        pthread_mutex_lock(&w->lock);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        while (!w->stopping) {
            int rc = pthread_cond_timedwait(&w->wake, &w->lock, &until);
            if (rc == ETIMEDOUT)
                break;
        }
        int stop = w->stopping;
        size_t n = w->n;
        memcpy(keys, w->keys, n * sizeof keys[0]);
        w->n = 0;
        pthread_mutex_unlock(&w->lock);
        if (stop)
            return NULL;
        for (size_t i = 0; i < n; i++)
            lp__api_warm(w->server, keys[i].project, keys[i].program, keys[i].build);
    }
}

int lp__warm_start(lp__warm *w, lp__server *s)
{
    memset(w, 0, sizeof *w);
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    w->server = s;
    if (pthread_create(&w->thread, NULL, warm_main, w) != 0)
        return LP_ENOMEM;
    w->started = 1;
    return 0;
}

void lp__warm_stop(lp__warm *w)
{
    if (!w->started)
        return;
    pthread_mutex_lock(&w->lock);
    w->stopping = 1;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    w->started = 0;
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
}
