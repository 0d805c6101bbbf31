/* Store handles for the collector's read handlers. A store handle is not
 * thread-safe, and libmicrohttpd runs handlers on any of its threads, so a
 * handler takes a handle for the length of one request and gives it back.
 * Handles are opened on demand and kept (at most 32 idle), so the pool
 * grows to the number of requests that ran at once and a steady load
 * opens none. */
#include <string.h>

#include "collector_internal.h"

void lp__pool_init(lp__pool *p, const char *where)
{
    memset(p, 0, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    p->where = where;
}

void lp__pool_fini(lp__pool *p)
{
    for (size_t i = 0; i < p->nidle; i++)
        lp_store_close(p->idle[i]);
    p->nidle = 0;
    pthread_mutex_destroy(&p->lock);
}

lp_store *lp__pool_take(lp__pool *p, char *err, size_t errcap)
{
    lp_store *s = NULL;
    pthread_mutex_lock(&p->lock);
    if (p->nidle > 0)
        s = p->idle[--p->nidle];
    pthread_mutex_unlock(&p->lock);
    if (s)
        return s;
    if (lp_store_open(p->where, &s, err, errcap) != 0)
        return NULL;
    return s;
}

void lp__pool_give(lp__pool *p, lp_store *s, int broken)
{
    if (!s)
        return;
    if (!broken) {
        pthread_mutex_lock(&p->lock);
        if (p->nidle < sizeof p->idle / sizeof p->idle[0]) {
            p->idle[p->nidle++] = s;
            s = NULL;
        }
        pthread_mutex_unlock(&p->lock);
    }
    lp_store_close(s);
}
