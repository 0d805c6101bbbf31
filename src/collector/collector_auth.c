/* Tokens and upload rates for the collector.
 *
 * Every request carries a token; looking each one up in the database would
 * cost a query per upload, so a token the store once confirmed is
 * remembered with its project (tokens are not revoked while a collector
 * runs; a revoked token stops working at the next start). Unknown tokens
 * are not remembered: `lowprof token create` may add one at any moment.
 *
 * The rate limit is a token bucket per token: it holds at most one second's
 * worth of uploads (the burst) and refills at the rate, so a device may
 * send a burst after being quiet but not more than the rate on average. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "collector_internal.h"

struct lp__auth_entry {
    char token[LP_STORE_TOKEN_LEN + 1];
    int64_t project;
    char name[LP_STORE_NAME_MAX + 1];
    double level;     /* uploads the bucket holds now */
    double refilled;  /* monotonic seconds of the last refill */
};

static double auth_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t auth_hash(const char *s)
{
    uint64_t h = 0x84222325cbf29ce4ULL;
    for (; *s; s++)
        h = lp_hash64(h ^ (unsigned char)*s);
    return h;
}

int lp__auth_init(lp__auth *a, double rate, lp__pool *pool)
{
    memset(a, 0, sizeof *a);
    a->nslots = 1024;
    a->slots = lp_calloc(a->nslots, sizeof *a->slots);
    if (!a->slots)
        return LP_ENOMEM;
    pthread_mutex_init(&a->lock, NULL);
    a->rate = rate;
    a->pool = pool;
    return 0;
}

void lp__auth_fini(lp__auth *a)
{
    if (!a->slots)
        return;
    for (size_t i = 0; i < a->nslots; i++)
        lp_free(a->slots[i]);
    lp_free(a->slots);
    a->slots = NULL;
    pthread_mutex_destroy(&a->lock);
}

/* The slot of token (open addressing, linear probing), holding it or
 * empty. Caller holds the lock. */
static size_t auth_slot(const lp__auth *a, const char *token)
{
    size_t i = (size_t)(auth_hash(token) & (a->nslots - 1));
    while (a->slots[i] && strcmp(a->slots[i]->token, token) != 0)
        i = (i + 1) & (a->nslots - 1);
    return i;
}

static int auth_grow(lp__auth *a)
{
    size_t n = a->nslots * 2;
    lp__auth_entry **old = a->slots, **slots = lp_calloc(n, sizeof *slots);
    if (!slots)
        return LP_ENOMEM;
    size_t oldn = a->nslots;
    a->slots = slots;
    a->nslots = n;
    for (size_t i = 0; i < oldn; i++)
        if (old[i])
            a->slots[auth_slot(a, old[i]->token)] = old[i];
    lp_free(old);
    return 0;
}

/* A well-formed token is short and printable: anything else is refused
 * before it reaches the store or the table. */
static int auth_plausible(const char *token)
{
    size_t n = strlen(token);
    if (n == 0 || n > LP_STORE_TOKEN_LEN)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (token[i] <= ' ' || token[i] > '~')
            return 0;
    return 1;
}

int lp__auth_check(lp__auth *a, const char *token, int64_t *out_project, char *name,
                   size_t name_cap)
{
    if (!auth_plausible(token))
        return LP_ENOENT;
    pthread_mutex_lock(&a->lock);
    lp__auth_entry *e = a->slots[auth_slot(a, token)];
    if (e) {
        *out_project = e->project;
        if (name && name_cap)
            snprintf(name, name_cap, "%s", e->name);
        pthread_mutex_unlock(&a->lock);
        return 0;
    }
    pthread_mutex_unlock(&a->lock);

    char err[256];
    lp_store *s = lp__pool_take(a->pool, err, sizeof err);
    if (!s)
        return LP_EIO;
    int64_t project = 0;
    char pname[LP_STORE_NAME_MAX + 1] = "";
    int rc = lp_store_token_check(s, token, &project, pname, sizeof pname);
    lp__pool_give(a->pool, s, rc != 0 && rc != LP_ENOENT);
    if (rc != 0)
        return rc == LP_ENOENT ? LP_ENOENT : LP_EIO;

    pthread_mutex_lock(&a->lock);
    size_t i = auth_slot(a, token);
    if (!a->slots[i] && (a->count + 1) * 2 <= a->nslots) {
        e = lp_calloc(1, sizeof *e);
        if (e) {
            snprintf(e->token, sizeof e->token, "%s", token);
            snprintf(e->name, sizeof e->name, "%s", pname);
            e->project = project;
            e->level = a->rate < 1 ? 1 : a->rate;
            e->refilled = auth_now();
            a->slots[i] = e;
            a->count++;
            if ((a->count + 1) * 2 > a->nslots)
                auth_grow(a); /* on failure the table stays full: later tokens are not cached */
        }
    }
    pthread_mutex_unlock(&a->lock);
    *out_project = project;
    if (name && name_cap)
        snprintf(name, name_cap, "%s", pname);
    return 0;
}

int lp__auth_take(lp__auth *a, const char *token, unsigned *out_retry)
{
    int ok = 1;
    *out_retry = 0;
    pthread_mutex_lock(&a->lock);
    lp__auth_entry *e = a->slots[auth_slot(a, token)];
    if (e) {
        double burst = a->rate < 1 ? 1 : a->rate, now = auth_now();
        e->level += (now - e->refilled) * a->rate;
        if (e->level > burst)
            e->level = burst;
        e->refilled = now;
        if (e->level >= 1) {
            e->level -= 1;
        } else {
            ok = 0;
            double wait = (1 - e->level) / a->rate;
            *out_retry = (unsigned)ceil(wait < 1 ? 1 : wait);
        }
    }
    pthread_mutex_unlock(&a->lock);
    return ok;
}
