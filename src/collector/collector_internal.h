/* The collector's server, private to src/collector: the state one
 * `lowprof serve` shares between libmicrohttpd's request threads, the
 * ingest writer and the read handlers, and the small pieces each file
 * offers the others.
 *
 *   collector_http.c    the daemon, routing, request bodies, answers
 *   collector_auth.c    tokens (cached) and the per-token upload rate
 *   collector_writer.c  the group-commit writer that owns the store's writes
 *   collector_pool.c    store handles for the read handlers
 *   collector_api.c     the JSON read API and the merged-profile cache
 *   collector_warm.c    keeps the cached merges current as uploads arrive
 *   collector_json.c    a small JSON writer over lp_membuf
 *   collector_page.c    the web page
 *
 * Threads: libmicrohttpd's pool runs the handlers; one writer thread holds
 * the only store handle that writes. Every structure below that several
 * threads touch says which lock guards it. */
#ifndef LP_COLLECTOR_INTERNAL_H
#define LP_COLLECTOR_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "lowprof/collector.h"
#include "lowprof/report.h"
#include "lowprof/store.h"
#include "lowprof/upload.h"

/* ---- JSON (collector_json.c) ---------------------------------------------------- */

/* Appends to b; on allocation failure b->data stays valid and the writer
 * remembers it: lp__json_failed() says so once at the end. */
void lp__json_raw(lp_membuf *b, const char *s);
void lp__json_printf(lp_membuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as a JSON string ("null" for NULL): bytes that are not UTF-8 are
 * written as the code point of the same value, so output is valid JSON
 * whatever a device put in a name. */
void lp__json_str(lp_membuf *b, const char *s);
/* 1 if s is valid UTF-8 (no overlong forms or surrogates). */
int lp__utf8_valid(const char *s);
/* "key": (with a leading comma unless first). */
void lp__json_key(lp_membuf *b, const char *key, int first);
void lp__json_u64(lp_membuf *b, uint64_t v);
void lp__json_i64(lp_membuf *b, int64_t v);
/* 1 if an append ran out of memory. */
int lp__json_failed(const lp_membuf *b);

/* ---- store handles for readers (collector_pool.c) ------------------------------- */

typedef struct lp__pool {
    pthread_mutex_t lock;
    const char *where;
    lp_store *idle[32]; /* guarded by lock */
    size_t nidle;
} lp__pool;

void lp__pool_init(lp__pool *p, const char *where);
void lp__pool_fini(lp__pool *p);
/* A handle for this thread's use: an idle one, or a new one. NULL with a
 * message in err when the store cannot be opened. */
lp_store *lp__pool_take(lp__pool *p, char *err, size_t errcap);
/* Gives the handle back (closes it if broken or the pool is full). */
void lp__pool_give(lp__pool *p, lp_store *s, int broken);

/* ---- tokens and rates (collector_auth.c) ---------------------------------------- */

typedef struct lp__auth_entry lp__auth_entry;

typedef struct lp__auth {
    pthread_mutex_t lock; /* guards the table and the buckets */
    lp__auth_entry **slots;
    size_t nslots, count;
    double rate;          /* uploads per second per token */
    lp__pool *pool;
} lp__auth;

int lp__auth_init(lp__auth *a, double rate, lp__pool *pool);
void lp__auth_fini(lp__auth *a);
/* The project of token: 0 and its id and name; LP_ENOENT for an unknown
 * token; LP_EIO when the store cannot answer. Known tokens are remembered,
 * so only the first request of each reaches the store. */
int lp__auth_check(lp__auth *a, const char *token, int64_t *out_project, char *name,
                   size_t name_cap);
/* Takes one upload from token's bucket: 1 if allowed; 0 if the token is
 * over its rate, with the whole seconds to wait in *out_retry. */
int lp__auth_take(lp__auth *a, const char *token, unsigned *out_retry);

/* ---- ingest (collector_writer.c) ------------------------------------------------- */

/* One upload on its way to the store. The request thread fills it, the
 * writer commits it and calls done(done_ctx) after setting status. */
typedef struct lp__job {
    lp_store_upload up;
    char message_id[LP_STORE_MESSAGE_ID_MAX + 1];
    char program[LP_STORE_NAME_MAX + 1];
    char build_id[LP_STORE_BUILD_ID_MAX + 1];
    char device[LP_STORE_NAME_MAX + 1];
    void *body; /* lp_malloc'd; the writer frees it after the commit */
    /* Set by the writer: 201 stored, 200 duplicate, 500 failed (why). */
    int status;
    char why[200];
    void (*done)(void *ctx);
    void *done_ctx;
    struct lp__job *next;
} lp__job;

typedef struct lp__ingest {
    pthread_mutex_t lock; /* guards everything below */
    pthread_cond_t wake;  /* the writer waits here for work */
    lp__job *head, *tail;
    size_t queued_bytes, max_bytes;
    int closing;
    pthread_t writer;
    lp_store *store; /* the writer's own handle */
    uint64_t batches, committed; /* for the stop line */
    /* Told, on the writer's thread, about each committed batch (may be
     * NULL). */
    void (*on_commit)(void *ctx, const lp_store_upload *ups, size_t n);
    void *on_commit_ctx;
} lp__ingest;

/* Opens the writer's store handle and starts the writer. */
int lp__ingest_start(lp__ingest *g, const char *where, size_t max_bytes, char *err,
                     size_t errcap);
/* Queues job; 0, or LP_ELIMIT when the queue holds max_bytes already (the
 * caller answers 503), or LP_EINVAL while stopping. On 0 the writer owns
 * job until it calls done. */
int lp__ingest_push(lp__ingest *g, lp__job *job);
/* Commits what is queued, then stops the writer and closes its handle. */
void lp__ingest_stop(lp__ingest *g);

/* ---- the merged-profile cache and read API (collector_api.c) -------------------- */

typedef struct lp__merge_entry lp__merge_entry;

typedef struct lp__cache {
    pthread_mutex_t lock; /* guards the slots and use counts */
    /* Held while naming addresses: the symbolizer's libraries (libdw,
     * libelf) are not promised to be safe across threads. */
    pthread_mutex_t names_lock;
    lp__merge_entry *slots[32];
    uint64_t clock;
} lp__cache;

void lp__cache_init(lp__cache *c);
void lp__cache_fini(lp__cache *c);

/* What a read handler answers: status, content type, body (lp_malloc'd,
 * handed to libmicrohttpd), optional Content-Encoding. */
typedef struct lp__reply {
    unsigned status;
    const char *type;
    const char *encoding;
    lp_membuf body;
} lp__reply;

/* A key/value lookup over the request's query string. */
typedef const char *(*lp__arg_fn)(void *ctx, const char *name);

typedef struct lp__server lp__server;

/* GET /api/v1/programs, builds, uploads, profile for project. */
void lp__api_programs(lp__server *s, int64_t project, const char *project_name, lp__reply *r);
void lp__api_builds(lp__server *s, int64_t project, lp__arg_fn arg, void *ctx, lp__reply *r);
void lp__api_uploads(lp__server *s, int64_t project, lp__arg_fn arg, void *ctx, lp__reply *r);
void lp__api_profile(lp__server *s, int64_t project, lp__arg_fn arg, void *ctx, lp__reply *r);

/* Brings the cached merge of a build up to date and renders its default
 * JSON view, so the next view is answered from memory (the warmer's
 * work). */
void lp__api_warm(lp__server *s, int64_t project, const char *program, const char *build);

/* Sets r to status with {"error": why}. */
void lp__reply_error(lp__reply *r, unsigned status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- keeping merges current (collector_warm.c) ------------------------------------ */

#define LP__WARM_KEYS 32

typedef struct lp__warm_key {
    int64_t project;
    char program[LP_STORE_NAME_MAX + 1];
    char build[LP_STORE_BUILD_ID_MAX + 1];
} lp__warm_key;

typedef struct lp__warm {
    pthread_mutex_t lock; /* guards keys, n and stopping */
    pthread_cond_t wake;
    lp__warm_key keys[LP__WARM_KEYS]; /* builds with uploads not merged yet */
    size_t n;
    int stopping, started;
    pthread_t thread;
    lp__server *server;
} lp__warm;

/* Starts the thread that folds new uploads into the cached merges about
 * once a second, at a lower priority than the requests. */
int lp__warm_start(lp__warm *w, lp__server *s);
/* The writer's on_commit: notes the builds of a committed batch. */
void lp__warm_note(void *ctx, const lp_store_upload *ups, size_t n);
void lp__warm_stop(lp__warm *w);

/* ---- the page (collector_page.c) ------------------------------------------------- */

/* The whole page, HTML with its script and style inline (built once). */
const char *lp__page_html(size_t *out_size);

/* ---- the server ------------------------------------------------------------------ */

struct lp__server {
    lp_collector_opts o; /* with defaults filled in */
    const char *kind;    /* "sqlite" or "postgresql" */
    lp__pool pool;
    lp__auth auth;
    lp__ingest ingest;
    lp__cache cache;
    lp__warm warm;
    /* Taken around queueing an upload and suspending its connection, and
     * around resuming it, so a resume never comes before its suspend. */
    pthread_mutex_t resume_lock;
    /* Bytes of upload bodies being read (not yet queued): past
     * LP__READING_MAX a body is dropped and answered 503, so many slow
     * uploads at once cannot take unbounded memory. */
    atomic_size_t reading;
};

#define LP__READING_MAX ((size_t)256 << 20)

#endif
