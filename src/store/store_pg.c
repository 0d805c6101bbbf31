/* The store in PostgreSQL (libpq), for a fleet: several collectors behind
 * one address share one database, named by a postgresql:// URI.
 *
 * Same tables as the SQLite back end (bigserial seq, bytea body). Tuned
 * for batches of uploads of tens of KB: a batch's inserts go out in
 * pipeline mode, so a batch costs a few round trips rather than one per
 * upload, and bodies travel as binary parameters (no hex escaping).
 * Listings use binary results, one row at a time, so reading the bodies
 * of a large build never holds them all in memory.
 *
 * Ordering: a bigserial value is taken when a row is inserted, not when
 * its transaction commits. Two collectors inserting at once can take 5
 * and 6 and commit 6 first; a merger that has read "everything up to 6"
 * would then never see 5. Every put therefore takes one transaction-level
 * advisory lock before inserting, which makes seq order commit order
 * across all collectors (the lock is released after the commit is
 * visible). It serialises writers, which the SQLite back end does anyway;
 * the database's commit, not the lock, is what costs. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_internal.h"

/* Advisory lock keys ("lpstore" and a number): one serialises puts, the
 * other the creation of tables by collectors starting at once (CREATE
 * TABLE IF NOT EXISTS is not safe against itself). */
#define LP__PG_LOCK_PUT "7813872297410979073"
#define LP__PG_LOCK_SCHEMA "7813872297410979074"

/* Commands a put pipelines before reading their answers: a bound on what
 * is in flight, so neither side's socket buffer can fill while the other
 * waits. With 20 KB bodies, 16 beat 64 (bench_store, batches of 64). */
#define LP__PG_CHUNK 16

static const char lp__pg_schema[] =
    "BEGIN;"
    "SELECT pg_advisory_xact_lock(" LP__PG_LOCK_SCHEMA ");"
    "CREATE TABLE IF NOT EXISTS projects ("
    " id bigserial PRIMARY KEY,"
    " name text NOT NULL UNIQUE,"
    " created_ms bigint NOT NULL);"
    "CREATE TABLE IF NOT EXISTS tokens ("
    " token text NOT NULL UNIQUE,"
    " project_id bigint NOT NULL REFERENCES projects(id),"
    " created_ms bigint NOT NULL,"
    " revoked_ms bigint);"
    "CREATE TABLE IF NOT EXISTS uploads ("
    " seq bigserial PRIMARY KEY,"
    " project_id bigint NOT NULL REFERENCES projects(id),"
    " message_id text NOT NULL,"
    " program text NOT NULL,"
    " build_id text NOT NULL,"
    " device text NOT NULL,"
    " received_ms bigint NOT NULL,"
    " instructions bigint NOT NULL,"
    " body_size bigint NOT NULL,"
    " body bytea NOT NULL,"
    " UNIQUE (project_id, message_id));"
    "CREATE INDEX IF NOT EXISTS uploads_by_build"
    " ON uploads (project_id, program, build_id, seq);"
    "COMMIT";

enum { Q_TOKEN_ADD, Q_TOKEN_CHECK, Q_TOKEN_REVOKE, Q_PUT, Q_PROGRAMS, Q_BUILDS, Q_UPLOADS,
       Q_BODIES, Q_COUNT };

static const struct {
    const char *name;
    const char *sql;
} lp__pg_sql[Q_COUNT] = {
    /* DO UPDATE rather than DO NOTHING so that RETURNING gives the id of
     * a project that already exists. */
    [Q_TOKEN_ADD] = {"lp_token_add",
                     "WITH p AS (INSERT INTO projects (name, created_ms) VALUES ($1, $3)"
                     " ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id)"
                     " INSERT INTO tokens (token, project_id, created_ms)"
                     " SELECT $2, id, $3 FROM p"},
    [Q_TOKEN_CHECK] = {"lp_token_check",
                       "SELECT t.project_id, p.name FROM tokens t JOIN projects p"
                       " ON p.id = t.project_id WHERE t.token = $1 AND t.revoked_ms IS NULL"},
    [Q_TOKEN_REVOKE] = {"lp_token_revoke", "UPDATE tokens SET revoked_ms = $2 WHERE token = $1"
                                           " AND revoked_ms IS NULL"},
    [Q_PUT] = {"lp_put", "INSERT INTO uploads (project_id, message_id, program, build_id, device,"
                         " received_ms, instructions, body_size, body)"
                         " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
                         " ON CONFLICT (project_id, message_id) DO NOTHING"},
    [Q_PROGRAMS] = {"lp_programs",
                    "SELECT program, count(*), count(DISTINCT device), min(received_ms),"
                    " max(received_ms), coalesce(sum(instructions), 0)::bigint"
                    " FROM uploads WHERE project_id = $1 GROUP BY program"
                    " ORDER BY program COLLATE \"C\""},
    [Q_BUILDS] = {"lp_builds",
                  "SELECT build_id, count(*), count(DISTINCT device), min(received_ms),"
                  " max(received_ms), coalesce(sum(instructions), 0)::bigint"
                  " FROM uploads WHERE project_id = $1 AND program = $2"
                  " GROUP BY build_id ORDER BY max(seq) DESC"},
    [Q_UPLOADS] = {"lp_uploads",
                   "SELECT seq, message_id, device, received_ms, instructions, body_size"
                   " FROM uploads WHERE project_id = $1 AND program = $2 AND build_id = $3"
                   " AND seq > $4 ORDER BY seq"},
    /* A NULL limit is no limit. */
    [Q_BODIES] = {"lp_bodies",
                  "SELECT seq, message_id, device, received_ms, instructions, body_size, body"
                  " FROM uploads WHERE project_id = $1 AND program = $2 AND build_id = $3"
                  " AND seq > $4 ORDER BY seq LIMIT $5"},
};

typedef struct lp__pg {
    PGconn *conn;
    int prepared; /* statements live in the session: made again after a reconnect */
    char uri[];
} lp__pg;

static lp__pg *lp__pg_of(lp_store *s)
{
    return s->impl;
}

/* libpq's messages end in a newline; ours do not. */
static int lp__pg_fail_text(lp_store *s, int code, const char *what, const char *msg)
{
    size_t len = strlen(msg);
    while (len && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
        len--;
    return lp__store_fail(s, code, "%s: %.*s", what, (int)len, msg);
}

/* A failed command: the server's message, and LP_ENOENT for a project
 * that does not exist (a foreign-key violation). */
static int lp__pg_fail(lp_store *s, const char *what, const PGresult *r)
{
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    int code = state && strcmp(state, "23503") == 0 ? LP_ENOENT : LP_EIO;
    const char *msg = r ? PQresultErrorMessage(r) : "";
    if (!*msg)
        msg = PQerrorMessage(lp__pg_of(s)->conn);
    if (!*msg)
        msg = "no answer from the server";
    return lp__pg_fail_text(s, code, what, msg);
}

static void lp__pg_quiet(void *arg, const char *message)
{
    /* Notices ("relation already exists, skipping") are not errors and
     * would land on the collector's stderr. */
    (void)arg;
    (void)message;
}

/* Runs a command without parameters; 0 if its status is want. */
static int lp__pg_exec(lp_store *s, const char *sql, ExecStatusType want, const char *what)
{
    PGresult *r = PQexec(lp__pg_of(s)->conn, sql);
    int rc = PQresultStatus(r) == want ? 0 : lp__pg_fail(s, what, r);
    PQclear(r);
    return rc;
}

static void lp__pg_rollback(lp_store *s)
{
    PGconn *c = lp__pg_of(s)->conn;
    if (PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) != PQTRANS_IDLE)
        PQclear(PQexec(c, "ROLLBACK"));
}

/* Connects (again, after a lost connection), makes the tables and
 * prepares the statements. */
static int lp__pg_ready(lp_store *s)
{
    lp__pg *h = lp__pg_of(s);
    if (h->conn && PQstatus(h->conn) == CONNECTION_OK && h->prepared)
        return 0;
    if (h->conn)
        PQfinish(h->conn);
    h->prepared = 0;
    h->conn = PQconnectdb(h->uri);
    if (!h->conn)
        return lp__store_fail(s, LP_ENOMEM, "cannot connect: out of memory");
    if (PQstatus(h->conn) != CONNECTION_OK)
        return lp__pg_fail_text(s, LP_EIO, "cannot connect", PQerrorMessage(h->conn));
    PQsetNoticeProcessor(h->conn, lp__pg_quiet, NULL);
    /* Durable at COMMIT is the contract; a server set to skip the wait
     * for its log would break it. */
    PGresult *r = PQexec(h->conn, "SHOW synchronous_commit");
    int lax = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 &&
              strcmp(PQgetvalue(r, 0, 0), "off") == 0;
    PQclear(r);
    int rc = 0;
    if (lax && (rc = lp__pg_exec(s, "SET synchronous_commit = on", PGRES_COMMAND_OK,
                                 "setting synchronous_commit")) < 0)
        return rc;
    /* Bodies are compressed as they are stored (TOAST); lz4 ingests about
     * three times faster than the default pglz on 20 KB profiles
     * (bench_store). A server built without lz4 refuses, and keeps pglz. */
    PQclear(PQexec(h->conn, "SET default_toast_compression = lz4"));
    r = PQexec(h->conn, lp__pg_schema);
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        rc = lp__pg_fail(s, "creating the tables", r);
    PQclear(r);
    if (rc < 0) {
        lp__pg_rollback(s);
        return rc;
    }
    for (int i = 0; i < Q_COUNT && rc == 0; i++) {
        r = PQprepare(h->conn, lp__pg_sql[i].name, lp__pg_sql[i].sql, 0, NULL);
        if (PQresultStatus(r) != PGRES_COMMAND_OK)
            rc = lp__pg_fail(s, lp__pg_sql[i].name, r);
        PQclear(r);
    }
    if (rc == 0)
        h->prepared = 1;
    return rc;
}

static void lp__pg_close(lp_store *s)
{
    lp__pg *h = lp__pg_of(s);
    if (!h)
        return;
    if (h->conn)
        PQfinish(h->conn);
    lp_free(h);
    s->impl = NULL;
}

/* A bigint column of a binary result (network byte order). */
static int64_t lp__pg_int8(const PGresult *r, int row, int col)
{
    if (PQgetisnull(r, row, col) || PQgetlength(r, row, col) != 8)
        return 0;
    const unsigned char *p = (const unsigned char *)PQgetvalue(r, row, col);
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return (int64_t)v;
}

/* ---- projects and tokens ------------------------------------------------------- */

static int lp__pg_token_create(lp_store *s, const char *project, const char *token,
                               int64_t now_ms)
{
    int rc = lp__pg_ready(s);
    if (rc < 0)
        return rc;
    char now[24];
    snprintf(now, sizeof now, "%" PRId64, now_ms);
    const char *v[3] = {project, token, now};
    PGresult *r = PQexecPrepared(lp__pg_of(s)->conn, lp__pg_sql[Q_TOKEN_ADD].name, 3, v, NULL,
                                 NULL, 0);
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        rc = lp__pg_fail(s, "adding the token", r);
    else if (strcmp(PQcmdTuples(r), "1") != 0)
        rc = lp__store_fail(s, LP_EIO, "adding the token: no row added");
    PQclear(r);
    return rc;
}

static int lp__pg_token_check(lp_store *s, const char *token, int64_t *out_project, char *name,
                              size_t name_cap)
{
    int rc = lp__pg_ready(s);
    if (rc < 0)
        return rc;
    const char *v[1] = {token};
    PGresult *r =
        PQexecPrepared(lp__pg_of(s)->conn, lp__pg_sql[Q_TOKEN_CHECK].name, 1, v, NULL, NULL, 1);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        rc = lp__pg_fail(s, "checking a token", r);
    } else if (PQntuples(r) == 0) {
        rc = lp__store_fail(s, LP_ENOENT, "unknown or revoked token");
    } else {
        *out_project = lp__pg_int8(r, 0, 0);
        if (name_cap)
            snprintf(name, name_cap, "%s", PQgetvalue(r, 0, 1));
    }
    PQclear(r);
    return rc;
}

static int lp__pg_token_revoke(lp_store *s, const char *token, int64_t now_ms)
{
    int rc = lp__pg_ready(s);
    if (rc < 0)
        return rc;
    char now[24];
    snprintf(now, sizeof now, "%" PRId64, now_ms);
    const char *v[2] = {token, now};
    PGresult *r =
        PQexecPrepared(lp__pg_of(s)->conn, lp__pg_sql[Q_TOKEN_REVOKE].name, 2, v, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_COMMAND_OK)
        rc = lp__pg_fail(s, "revoking a token", r);
    else if (strcmp(PQcmdTuples(r), "0") == 0)
        rc = lp__store_fail(s, LP_ENOENT, "unknown or revoked token");
    PQclear(r);
    return rc;
}

/* ---- uploads ------------------------------------------------------------------- */

/* Queues one insert; its parameters are copied into libpq's buffer. */
static int lp__pg_send_put(PGconn *c, const lp_store_upload *u)
{
    char project[24], received[24], instructions[24], size[24];
    snprintf(project, sizeof project, "%" PRId64, u->project);
    snprintf(received, sizeof received, "%" PRId64, u->received_ms);
    snprintf(instructions, sizeof instructions, "%" PRIu64, u->instructions);
    snprintf(size, sizeof size, "%zu", u->body_size);
    const char *v[9] = {project, u->message_id, u->program, u->build_id, u->device,
                        received, instructions, size, u->body ? u->body : ""};
    int len[9] = {0, 0, 0, 0, 0, 0, 0, 0, (int)u->body_size};
    int fmt[9] = {0, 0, 0, 0, 0, 0, 0, 0, 1}; /* the body binary, the rest text */
    return PQsendQueryPrepared(c, lp__pg_sql[Q_PUT].name, 9, v, len, fmt, 0);
}

/* Sends uploads [from, to) and a sync, then reads their answers. Every
 * command's results are read even after a failure (the server skips the
 * rest of the chunk), so the connection is left in step. */
static int lp__pg_put_chunk(lp_store *s, const lp_store_upload *u, size_t from, size_t to,
                            int *out_dup)
{
    PGconn *c = lp__pg_of(s)->conn;
    for (size_t i = from; i < to; i++)
        if (!lp__pg_send_put(c, &u[i]))
            return lp__pg_fail_text(s, LP_EIO, "sending an upload", PQerrorMessage(c));
    if (!PQpipelineSync(c))
        return lp__pg_fail_text(s, LP_EIO, "sending an upload", PQerrorMessage(c));
    int rc = 0;
    for (size_t i = from; i < to; i++) {
        PGresult *r = PQgetResult(c);
        if (!r)
            return lp__pg_fail_text(s, LP_EIO, "storing an upload", PQerrorMessage(c));
        ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_COMMAND_OK) {
            /* DO NOTHING affects no row for a message already stored,
             * including one earlier in the same batch. */
            out_dup[i] = strcmp(PQcmdTuples(r), "0") == 0;
        } else if (rc == 0) {
            char what[48];
            snprintf(what, sizeof what, "storing upload %zu", i);
            rc = st == PGRES_PIPELINE_ABORTED
                     ? lp__store_fail(s, LP_EIO, "%s: pipeline aborted", what)
                     : lp__pg_fail(s, what, r);
        }
        PQclear(r);
        while ((r = PQgetResult(c)) != NULL) /* the command's end */
            PQclear(r);
    }
    PGresult *r = PQgetResult(c);
    if (PQresultStatus(r) != PGRES_PIPELINE_SYNC && rc == 0)
        rc = lp__pg_fail(s, "storing uploads", r);
    PQclear(r);
    return rc;
}

static int lp__pg_put(lp_store *s, const lp_store_upload *u, size_t n, int *out_dup)
{
    int rc = lp__pg_ready(s);
    if (rc < 0)
        return rc;
    PGconn *c = lp__pg_of(s)->conn;
    /* The lock comes first, before any seq is taken (see the top). */
    rc = lp__pg_exec(s, "BEGIN; SELECT pg_advisory_xact_lock(" LP__PG_LOCK_PUT ")",
                     PGRES_TUPLES_OK, "begin");
    if (rc < 0) {
        lp__pg_rollback(s);
        return rc;
    }
    if (!PQenterPipelineMode(c)) {
        rc = lp__pg_fail_text(s, LP_EIO, "pipeline mode", PQerrorMessage(c));
    } else {
        for (size_t i = 0; i < n && rc == 0; i += LP__PG_CHUNK)
            rc = lp__pg_put_chunk(s, u, i, n - i < LP__PG_CHUNK ? n : i + LP__PG_CHUNK, out_dup);
        if (!PQexitPipelineMode(c) && rc == 0)
            rc = lp__pg_fail_text(s, LP_EIO, "pipeline mode", PQerrorMessage(c));
    }
    if (rc == 0) {
        /* COMMIT in a failed transaction answers "ROLLBACK" with success
         * status; only "COMMIT" means the batch is stored. */
        PGresult *r = PQexec(c, "COMMIT");
        if (PQresultStatus(r) != PGRES_COMMAND_OK)
            rc = lp__pg_fail(s, "commit", r);
        else if (strcmp(PQcmdStatus(r), "COMMIT") != 0)
            rc = lp__store_fail(s, LP_EIO, "commit: the server rolled back");
        PQclear(r);
    }
    if (rc < 0) {
        lp__pg_rollback(s);
        /* A connection lost mid-pipeline is reopened at the next call. */
        if (PQstatus(c) != CONNECTION_OK || PQpipelineStatus(c) != PQ_PIPELINE_OFF)
            lp__pg_of(s)->prepared = 0;
    }
    return rc;
}

/* Runs a listing in single-row mode with binary results, calling row for
 * each. After the callback stops it, the rest is read and dropped: the
 * connection must be idle before its next command. */
static int lp__pg_list(lp_store *s, int q, const char *const *v, int nv, const char *what,
                       int (*row)(lp_store *s, const PGresult *r, void *arg), void *arg)
{
    int rc = lp__pg_ready(s);
    if (rc < 0)
        return rc;
    PGconn *c = lp__pg_of(s)->conn;
    if (!PQsendQueryPrepared(c, lp__pg_sql[q].name, nv, v, NULL, NULL, 1))
        return lp__pg_fail_text(s, LP_EIO, what, PQerrorMessage(c));
    PQsetSingleRowMode(c);
    PGresult *r;
    while ((r = PQgetResult(c)) != NULL) {
        ExecStatusType st = PQresultStatus(r);
        if (rc == 0) {
            if (st == PGRES_SINGLE_TUPLE)
                rc = row(s, r, arg);
            else if (st != PGRES_TUPLES_OK)
                rc = lp__pg_fail(s, what, r);
        }
        PQclear(r);
    }
    return rc;
}

typedef struct lp__pg_list_ctx {
    lp__store_group by;
    const char *program;
    const char *build_id;
    int with_bodies;
    lp_store_row_fn fn;
    void *ctx;
} lp__pg_list_ctx;

static int lp__pg_group_row(lp_store *s, const PGresult *r, void *arg)
{
    (void)s;
    const lp__pg_list_ctx *l = arg;
    lp_store_row row;
    lp__store_row_clear(&row);
    if (l->by == LP__STORE_BY_PROGRAM) {
        row.program = PQgetvalue(r, 0, 0);
    } else {
        row.program = l->program;
        row.build_id = PQgetvalue(r, 0, 0);
    }
    row.uploads = (uint64_t)lp__pg_int8(r, 0, 1);
    row.devices = (uint64_t)lp__pg_int8(r, 0, 2);
    row.first_ms = lp__pg_int8(r, 0, 3);
    row.received_ms = lp__pg_int8(r, 0, 4);
    row.instructions = (uint64_t)lp__pg_int8(r, 0, 5);
    return l->fn(l->ctx, &row);
}

static int lp__pg_groups(lp_store *s, lp__store_group by, int64_t project, const char *program,
                         lp_store_row_fn fn, void *ctx)
{
    char p[24];
    snprintf(p, sizeof p, "%" PRId64, project);
    const char *v[2] = {p, program};
    lp__pg_list_ctx l = {.by = by, .program = program, .fn = fn, .ctx = ctx};
    return by == LP__STORE_BY_PROGRAM
               ? lp__pg_list(s, Q_PROGRAMS, v, 1, "listing programs", lp__pg_group_row, &l)
               : lp__pg_list(s, Q_BUILDS, v, 2, "listing builds", lp__pg_group_row, &l);
}

static int lp__pg_upload_row(lp_store *s, const PGresult *r, void *arg)
{
    const lp__pg_list_ctx *l = arg;
    lp_store_row row;
    lp__store_row_clear(&row);
    row.program = l->program;
    row.build_id = l->build_id;
    row.seq = lp__pg_int8(r, 0, 0);
    row.message_id = PQgetvalue(r, 0, 1);
    row.device = PQgetvalue(r, 0, 2);
    row.received_ms = lp__pg_int8(r, 0, 3);
    row.first_ms = row.received_ms;
    row.instructions = (uint64_t)lp__pg_int8(r, 0, 4);
    row.body_size = (size_t)lp__pg_int8(r, 0, 5);
    row.uploads = 1;
    row.devices = 1;
    if (l->with_bodies) {
        row.body = PQgetvalue(r, 0, 6);
        if ((size_t)PQgetlength(r, 0, 6) != row.body_size)
            return lp__store_fail(s, LP_EFORMAT, "upload %" PRId64 ": body of %d bytes, %zu recorded",
                                  row.seq, PQgetlength(r, 0, 6), row.body_size);
    }
    return l->fn(l->ctx, &row);
}

static int lp__pg_uploads(lp_store *s, int64_t project, const char *program, const char *build_id,
                          int64_t after_seq, int with_bodies, size_t limit, lp_store_row_fn fn,
                          void *ctx)
{
    char p[24], after[24], lim[24];
    snprintf(p, sizeof p, "%" PRId64, project);
    snprintf(after, sizeof after, "%" PRId64, after_seq);
    snprintf(lim, sizeof lim, "%zu", limit);
    const char *v[5] = {p, program, build_id, after, limit ? lim : NULL};
    lp__pg_list_ctx l = {.program = program, .build_id = build_id, .with_bodies = with_bodies,
                         .fn = fn, .ctx = ctx};
    return lp__pg_list(s, with_bodies ? Q_BODIES : Q_UPLOADS, v, with_bodies ? 5 : 4,
                       "listing uploads", lp__pg_upload_row, &l);
}

/* The server keeps its own pages consistent; what can go wrong above it is
 * a body that does not match its recorded size. */
static int lp__pg_check(lp_store *s)
{
    int rc = lp__pg_ready(s);
    if (rc < 0)
        return rc;
    PGresult *r = PQexec(lp__pg_of(s)->conn,
                         "SELECT seq, body_size, octet_length(body) FROM uploads"
                         " WHERE body_size <> octet_length(body) ORDER BY seq LIMIT 1");
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        rc = lp__pg_fail(s, "body size check", r);
    else if (PQntuples(r) > 0)
        rc = lp__store_fail(s, LP_EFORMAT, "upload %s: body of %s bytes, %s recorded",
                            PQgetvalue(r, 0, 0), PQgetvalue(r, 0, 2), PQgetvalue(r, 0, 1));
    PQclear(r);
    return rc;
}

static const lp__store_ops lp__pg_ops = {
    .kind = "postgresql",
    .close = lp__pg_close,
    .token_create = lp__pg_token_create,
    .token_check = lp__pg_token_check,
    .token_revoke = lp__pg_token_revoke,
    .put = lp__pg_put,
    .groups = lp__pg_groups,
    .uploads = lp__pg_uploads,
    .check = lp__pg_check,
};

/* ---- opening ------------------------------------------------------------------- */

/* The name messages use: the URI's user, host, port and database, never
 * its password. */
static void lp__pg_name(lp_store *s, const char *uri)
{
    char *perr = NULL;
    PQconninfoOption *opts = PQconninfoParse(uri, &perr);
    if (!opts) {
        snprintf(s->name, sizeof s->name, "postgresql URI");
        PQfreemem(perr);
        return;
    }
    const char *user = "", *host = "", *port = "", *db = "";
    for (PQconninfoOption *o = opts; o->keyword; o++) {
        if (!o->val)
            continue;
        if (strcmp(o->keyword, "user") == 0)
            user = o->val;
        else if (strcmp(o->keyword, "host") == 0)
            host = o->val;
        else if (strcmp(o->keyword, "port") == 0)
            port = o->val;
        else if (strcmp(o->keyword, "dbname") == 0)
            db = o->val;
    }
    snprintf(s->name, sizeof s->name, "postgresql://%s%s%s%s%s/%s", user, *user ? "@" : "", host,
             *port ? ":" : "", port, db);
    PQconninfoFree(opts);
}

int lp__store_pg_open(lp_store *s, const char *uri)
{
    lp__pg_name(s, uri);
    char *perr = NULL;
    PQconninfoOption *opts = PQconninfoParse(uri, &perr);
    if (!opts) {
        int rc = lp__pg_fail_text(s, LP_EINVAL, "bad URI", perr ? perr : "out of memory");
        PQfreemem(perr);
        return rc;
    }
    PQconninfoFree(opts);
    size_t len = strlen(uri);
    lp__pg *h = lp_calloc(1, sizeof *h + len + 1);
    if (!h)
        return lp__store_fail(s, LP_ENOMEM, "out of memory");
    memcpy(h->uri, uri, len + 1);
    s->impl = h;
    s->ops = &lp__pg_ops;
    int rc = lp__pg_ready(s);
    if (rc < 0) {
        lp__pg_close(s);
        s->ops = NULL;
    }
    return rc;
}
