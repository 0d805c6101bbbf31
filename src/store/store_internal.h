/* The store's private seam: what a back end (store_sqlite.c, store_pg.c)
 * provides to the dispatch in store.c. The dispatch checks arguments and
 * makes tokens, so a back end only moves rows in and out of its database
 * and never sees a NULL string or an over-long name. */
#ifndef LP_STORE_INTERNAL_H
#define LP_STORE_INTERNAL_H

#include <stdarg.h>

#include "lowprof/store.h"

/* Kinds of listing a back end answers (lp__store_ops.groups). */
typedef enum lp__store_group {
    LP__STORE_BY_PROGRAM, /* the project's programs */
    LP__STORE_BY_BUILD    /* one program's builds, latest first */
} lp__store_group;

typedef struct lp__store_ops {
    const char *kind;
    /* Frees the back end's state (s->impl); the dispatch frees s. */
    void (*close)(lp_store *s);
    /* Makes the project if missing and stores token for it. Here and below
     * "token" is the digest store.c makes of it, never the token itself. */
    int (*token_create)(lp_store *s, const char *project, const char *token, int64_t now_ms);
    int (*token_check)(lp_store *s, const char *token, int64_t *out_project, char *name,
                       size_t name_cap);
    int (*token_revoke)(lp_store *s, const char *token, int64_t now_ms);
    /* One transaction; out_dup is never NULL here and starts zeroed. */
    int (*put)(lp_store *s, const lp_store_upload *u, size_t n, int *out_dup);
    /* program is NULL for LP__STORE_BY_PROGRAM. */
    int (*groups)(lp_store *s, lp__store_group by, int64_t project, const char *program,
                  lp_store_row_fn fn, void *ctx);
    /* with_bodies 0: lp_store_uploads; 1: lp_store_bodies (limit 0: all). */
    int (*uploads)(lp_store *s, int64_t project, const char *program, const char *build_id,
                   int64_t after_seq, int with_bodies, size_t limit, lp_store_row_fn fn,
                   void *ctx);
    int (*check)(lp_store *s);
} lp__store_ops;

struct lp_store {
    const lp__store_ops *ops;
    void *impl;
    /* The database as messages name it: DIR/lowprof.db, or the URI with
     * any password left out. */
    char name[256];
    char err[768];
};

/* Back-end constructors: fill s->ops, s->impl and s->name, or return a
 * negative code with s->err written (s->impl left NULL). */
int lp__store_sqlite_open(lp_store *s, const char *dir);
int lp__store_pg_open(lp_store *s, const char *uri);

/* Writes "NAME: message" into s->err and returns code. */
int lp__store_fail(lp_store *s, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Clears s->err (a call that succeeds leaves no stale message behind). */
void lp__store_ok(lp_store *s);

/* An empty row whose strings are "" rather than NULL, so a callback may
 * print any field of any kind of row. */
static inline void lp__store_row_clear(lp_store_row *r)
{
    *r = (lp_store_row){.program = "", .build_id = "", .device = "", .message_id = ""};
}

#endif
