/* The store in SQLite: one file, DIR/lowprof.db, for a collector on one
 * machine (the default; no server to run).
 *
 * Tuned for many small committed batches: WAL mode lets the page readers
 * run beside the one writer, and synchronous=FULL syncs the log at every
 * COMMIT, so an acknowledged batch survives a crash of the process or of
 * the machine, and a kill -9 at any moment leaves a database that opens
 * and passes integrity_check (the log's uncommitted tail is discarded on
 * the next open). Writers are serialised by BEGIN IMMEDIATE, so `seq`
 * (AUTOINCREMENT: never reused) grows in commit order.
 *
 * Every statement is prepared once at open and reset after each use. */
#define _DEFAULT_SOURCE /* mkdir's mode bits with -std=c17 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "store_internal.h"

/* The body comes last in uploads: SQLite must walk a row's overflow pages
 * to reach a column stored after a large blob, and the listings read
 * every column but the body. */
static const char lp__sqlite_schema[] =
    "CREATE TABLE IF NOT EXISTS projects ("
    " id INTEGER PRIMARY KEY,"
    " name TEXT NOT NULL UNIQUE,"
    " created_ms INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS tokens ("
    " token TEXT NOT NULL UNIQUE,"
    " project_id INTEGER NOT NULL REFERENCES projects(id),"
    " created_ms INTEGER NOT NULL,"
    " revoked_ms INTEGER);"
    "CREATE TABLE IF NOT EXISTS uploads ("
    " seq INTEGER PRIMARY KEY AUTOINCREMENT,"
    " project_id INTEGER NOT NULL REFERENCES projects(id),"
    " message_id TEXT NOT NULL,"
    " program TEXT NOT NULL,"
    " build_id TEXT NOT NULL,"
    " device TEXT NOT NULL,"
    " received_ms INTEGER NOT NULL,"
    " instructions INTEGER NOT NULL,"
    " body_size INTEGER NOT NULL,"
    " body BLOB NOT NULL,"
    " UNIQUE (project_id, message_id));"
    "CREATE INDEX IF NOT EXISTS uploads_by_build"
    " ON uploads (project_id, program, build_id, seq);";

enum {
    Q_BEGIN,
    Q_COMMIT,
    Q_PROJECT_ADD,
    Q_PROJECT_ID,
    Q_TOKEN_ADD,
    Q_TOKEN_CHECK,
    Q_TOKEN_REVOKE,
    Q_PUT,
    Q_PROGRAMS,
    Q_BUILDS,
    Q_UPLOADS,
    Q_BODIES,
    Q_COUNT
};

/* The group listings' columns: key, uploads, devices, first, latest,
 * instructions. Builds come latest first by seq rather than by time, since
 * collectors' clocks may disagree. */
static const char *const lp__sqlite_sql[Q_COUNT] = {
    [Q_BEGIN] = "BEGIN IMMEDIATE",
    [Q_COMMIT] = "COMMIT",
    [Q_PROJECT_ADD] = "INSERT INTO projects (name, created_ms) VALUES (?1, ?2)"
                      " ON CONFLICT (name) DO NOTHING",
    [Q_PROJECT_ID] = "SELECT id FROM projects WHERE name = ?1",
    [Q_TOKEN_ADD] = "INSERT INTO tokens (token, project_id, created_ms) VALUES (?1, ?2, ?3)",
    [Q_TOKEN_CHECK] = "SELECT t.project_id, p.name FROM tokens t JOIN projects p"
                      " ON p.id = t.project_id WHERE t.token = ?1 AND t.revoked_ms IS NULL",
    [Q_TOKEN_REVOKE] = "UPDATE tokens SET revoked_ms = ?2 WHERE token = ?1"
                       " AND revoked_ms IS NULL",
    [Q_PUT] = "INSERT INTO uploads (project_id, message_id, program, build_id, device,"
              " received_ms, instructions, body_size, body)"
              " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
              " ON CONFLICT (project_id, message_id) DO NOTHING",
    [Q_PROGRAMS] = "SELECT program, count(*), count(DISTINCT device), min(received_ms),"
                   " max(received_ms), coalesce(sum(instructions), 0)"
                   " FROM uploads WHERE project_id = ?1 GROUP BY program ORDER BY program",
    [Q_BUILDS] = "SELECT build_id, count(*), count(DISTINCT device), min(received_ms),"
                 " max(received_ms), coalesce(sum(instructions), 0)"
                 " FROM uploads WHERE project_id = ?1 AND program = ?2"
                 " GROUP BY build_id ORDER BY max(seq) DESC",
    [Q_UPLOADS] = "SELECT seq, message_id, device, received_ms, instructions, body_size"
                  " FROM uploads WHERE project_id = ?1 AND program = ?2 AND build_id = ?3"
                  " AND seq > ?4 ORDER BY seq",
    [Q_BODIES] = "SELECT seq, message_id, device, received_ms, instructions, body_size, body"
                 " FROM uploads WHERE project_id = ?1 AND program = ?2 AND build_id = ?3"
                 " AND seq > ?4 ORDER BY seq LIMIT ?5",
};

typedef struct lp__sqlite {
    sqlite3 *db;
    sqlite3_stmt *q[Q_COUNT];
} lp__sqlite;

static lp__sqlite *lp__sqlite_of(lp_store *s)
{
    return s->impl;
}

/* Records SQLite's own message for what failed and maps the code: a
 * foreign-key failure means the project does not exist. */
static int lp__sqlite_fail(lp_store *s, const char *what)
{
    sqlite3 *db = lp__sqlite_of(s)->db;
    int ext = sqlite3_extended_errcode(db);
    int code = ext == SQLITE_CONSTRAINT_FOREIGNKEY ? LP_ENOENT
               : ext == SQLITE_NOMEM               ? LP_ENOMEM
                                                   : LP_EIO;
    return lp__store_fail(s, code, "%s: %s", what, sqlite3_errmsg(db));
}

/* Runs a statement that returns no rows, then resets it. */
static int lp__sqlite_run(lp_store *s, int q, const char *what)
{
    sqlite3_stmt *st = lp__sqlite_of(s)->q[q];
    int rc = sqlite3_step(st);
    int out = rc == SQLITE_DONE ? 0 : lp__sqlite_fail(s, what);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return out;
}

static void lp__sqlite_rollback(lp_store *s)
{
    /* Some failures (a full disk, an interrupted COMMIT) make SQLite end
     * the transaction itself; roll back only one still open. */
    sqlite3 *db = lp__sqlite_of(s)->db;
    if (!sqlite3_get_autocommit(db))
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

static void lp__sqlite_close(lp_store *s)
{
    lp__sqlite *h = lp__sqlite_of(s);
    if (!h)
        return;
    for (int i = 0; i < Q_COUNT; i++)
        sqlite3_finalize(h->q[i]);
    /* The last connection to close checkpoints the log into the database
     * and removes it; a crash instead leaves the log for the next open. */
    sqlite3_close(h->db);
    lp_free(h);
    s->impl = NULL;
}

/* ---- projects and tokens ------------------------------------------------------- */

static int lp__sqlite_token_create(lp_store *s, const char *project, const char *token,
                                   int64_t now_ms)
{
    lp__sqlite *h = lp__sqlite_of(s);
    int rc = lp__sqlite_run(s, Q_BEGIN, "begin");
    if (rc < 0)
        return rc;
    sqlite3_stmt *st = h->q[Q_PROJECT_ADD];
    sqlite3_bind_text(st, 1, project, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, now_ms);
    rc = lp__sqlite_run(s, Q_PROJECT_ADD, "adding the project");
    int64_t id = 0;
    if (rc == 0) {
        st = h->q[Q_PROJECT_ID];
        sqlite3_bind_text(st, 1, project, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW)
            id = sqlite3_column_int64(st, 0);
        else
            rc = lp__sqlite_fail(s, "finding the project");
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
    }
    if (rc == 0) {
        st = h->q[Q_TOKEN_ADD];
        sqlite3_bind_text(st, 1, token, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, id);
        sqlite3_bind_int64(st, 3, now_ms);
        rc = lp__sqlite_run(s, Q_TOKEN_ADD, "adding the token");
    }
    if (rc == 0)
        rc = lp__sqlite_run(s, Q_COMMIT, "commit");
    if (rc < 0)
        lp__sqlite_rollback(s);
    return rc;
}

static int lp__sqlite_token_check(lp_store *s, const char *token, int64_t *out_project,
                                  char *name, size_t name_cap)
{
    sqlite3_stmt *st = lp__sqlite_of(s)->q[Q_TOKEN_CHECK];
    sqlite3_bind_text(st, 1, token, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st), out = 0;
    if (rc == SQLITE_ROW) {
        *out_project = sqlite3_column_int64(st, 0);
        const char *nm = (const char *)sqlite3_column_text(st, 1);
        if (name_cap)
            snprintf(name, name_cap, "%s", nm ? nm : "");
    } else if (rc == SQLITE_DONE) {
        out = lp__store_fail(s, LP_ENOENT, "unknown or revoked token");
    } else {
        out = lp__sqlite_fail(s, "checking a token");
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return out;
}

static int lp__sqlite_token_revoke(lp_store *s, const char *token, int64_t now_ms)
{
    lp__sqlite *h = lp__sqlite_of(s);
    sqlite3_stmt *st = h->q[Q_TOKEN_REVOKE];
    sqlite3_bind_text(st, 1, token, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, now_ms);
    int rc = lp__sqlite_run(s, Q_TOKEN_REVOKE, "revoking a token");
    if (rc == 0 && sqlite3_changes(h->db) == 0)
        rc = lp__store_fail(s, LP_ENOENT, "unknown or revoked token");
    return rc;
}

/* ---- uploads ------------------------------------------------------------------- */

static int lp__sqlite_put(lp_store *s, const lp_store_upload *u, size_t n, int *out_dup)
{
    lp__sqlite *h = lp__sqlite_of(s);
    int rc = lp__sqlite_run(s, Q_BEGIN, "begin");
    if (rc < 0)
        return rc;
    sqlite3_stmt *st = h->q[Q_PUT];
    for (size_t i = 0; i < n && rc == 0; i++) {
        sqlite3_bind_int64(st, 1, u[i].project);
        sqlite3_bind_text(st, 2, u[i].message_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 3, u[i].program, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 4, u[i].build_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 5, u[i].device, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 6, u[i].received_ms);
        sqlite3_bind_int64(st, 7, (int64_t)u[i].instructions);
        sqlite3_bind_int64(st, 8, (int64_t)u[i].body_size);
        /* A NULL pointer would bind SQL NULL, not an empty blob. */
        if (u[i].body_size)
            sqlite3_bind_blob(st, 9, u[i].body, (int)u[i].body_size, SQLITE_STATIC);
        else
            sqlite3_bind_zeroblob(st, 9, 0);
        char what[48];
        snprintf(what, sizeof what, "storing upload %zu", i);
        rc = lp__sqlite_run(s, Q_PUT, what);
        /* DO NOTHING leaves the change count at 0 for a message already
         * stored, including one earlier in this same batch. */
        if (rc == 0)
            out_dup[i] = sqlite3_changes(h->db) == 0;
    }
    if (rc == 0)
        rc = lp__sqlite_run(s, Q_COMMIT, "commit");
    if (rc < 0)
        lp__sqlite_rollback(s);
    return rc;
}

static int lp__sqlite_groups(lp_store *s, lp__store_group by, int64_t project,
                             const char *program, lp_store_row_fn fn, void *ctx)
{
    sqlite3_stmt *st = lp__sqlite_of(s)->q[by == LP__STORE_BY_PROGRAM ? Q_PROGRAMS : Q_BUILDS];
    sqlite3_bind_int64(st, 1, project);
    if (program)
        sqlite3_bind_text(st, 2, program, -1, SQLITE_STATIC);
    int rc, out = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        lp_store_row r;
        lp__store_row_clear(&r);
        const char *key = (const char *)sqlite3_column_text(st, 0);
        if (by == LP__STORE_BY_PROGRAM) {
            r.program = key ? key : "";
        } else {
            r.program = program;
            r.build_id = key ? key : "";
        }
        r.uploads = (uint64_t)sqlite3_column_int64(st, 1);
        r.devices = (uint64_t)sqlite3_column_int64(st, 2);
        r.first_ms = sqlite3_column_int64(st, 3);
        r.received_ms = sqlite3_column_int64(st, 4);
        r.instructions = (uint64_t)sqlite3_column_int64(st, 5);
        if ((out = fn(ctx, &r)) != 0)
            break;
    }
    if (out == 0 && rc != SQLITE_DONE)
        out = lp__sqlite_fail(s, by == LP__STORE_BY_PROGRAM ? "listing programs"
                                                            : "listing builds");
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return out;
}

static int lp__sqlite_uploads(lp_store *s, int64_t project, const char *program,
                              const char *build_id, int64_t after_seq, int with_bodies,
                              size_t limit, lp_store_row_fn fn, void *ctx)
{
    sqlite3_stmt *st = lp__sqlite_of(s)->q[with_bodies ? Q_BODIES : Q_UPLOADS];
    sqlite3_bind_int64(st, 1, project);
    sqlite3_bind_text(st, 2, program, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, build_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, after_seq);
    if (with_bodies) /* a negative LIMIT is none in SQLite */
        sqlite3_bind_int64(st, 5, limit == 0 || limit > INT64_MAX ? -1 : (int64_t)limit);
    int rc, out = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        lp_store_row r;
        lp__store_row_clear(&r);
        r.program = program;
        r.build_id = build_id;
        r.seq = sqlite3_column_int64(st, 0);
        const char *mid = (const char *)sqlite3_column_text(st, 1);
        const char *dev = (const char *)sqlite3_column_text(st, 2);
        r.message_id = mid ? mid : "";
        r.device = dev ? dev : "";
        r.received_ms = sqlite3_column_int64(st, 3);
        r.instructions = (uint64_t)sqlite3_column_int64(st, 4);
        r.body_size = (size_t)sqlite3_column_int64(st, 5);
        r.uploads = 1;
        r.devices = 1;
        r.first_ms = r.received_ms;
        if (with_bodies) {
            r.body = sqlite3_column_blob(st, 6);
            if ((size_t)sqlite3_column_bytes(st, 6) != r.body_size) {
                out = lp__store_fail(s, LP_EFORMAT, "upload %lld: body of %d bytes, %zu recorded",
                                     (long long)r.seq, sqlite3_column_bytes(st, 6), r.body_size);
                break;
            }
        }
        if ((out = fn(ctx, &r)) != 0)
            break;
    }
    if (out == 0 && rc != SQLITE_DONE)
        out = lp__sqlite_fail(s, "listing uploads");
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return out;
}

/* integrity_check reads every page and index; the size check catches a
 * body cut short by anything that bypassed the store. */
static int lp__sqlite_check(lp_store *s)
{
    sqlite3 *db = lp__sqlite_of(s)->db;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check(1)", -1, &st, NULL) != SQLITE_OK)
        return lp__sqlite_fail(s, "integrity check");
    int rc = sqlite3_step(st), out = 0;
    if (rc != SQLITE_ROW) {
        out = lp__sqlite_fail(s, "integrity check");
    } else {
        const char *res = (const char *)sqlite3_column_text(st, 0);
        if (!res || strcmp(res, "ok") != 0)
            out = lp__store_fail(s, LP_EFORMAT, "integrity check: %s", res ? res : "(no answer)");
    }
    sqlite3_finalize(st);
    if (out < 0)
        return out;
    if (sqlite3_prepare_v2(db,
                           "SELECT seq, body_size, length(body) FROM uploads"
                           " WHERE body_size <> length(body) LIMIT 1",
                           -1, &st, NULL) != SQLITE_OK)
        return lp__sqlite_fail(s, "body size check");
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        out = lp__store_fail(s, LP_EFORMAT, "upload %lld: body of %lld bytes, %lld recorded",
                             (long long)sqlite3_column_int64(st, 0),
                             (long long)sqlite3_column_int64(st, 2),
                             (long long)sqlite3_column_int64(st, 1));
    else if (rc != SQLITE_DONE)
        out = lp__sqlite_fail(s, "body size check");
    sqlite3_finalize(st);
    return out;
}

static const lp__store_ops lp__sqlite_ops = {
    .kind = "sqlite",
    .close = lp__sqlite_close,
    .token_create = lp__sqlite_token_create,
    .token_check = lp__sqlite_token_check,
    .token_revoke = lp__sqlite_token_revoke,
    .put = lp__sqlite_put,
    .groups = lp__sqlite_groups,
    .uploads = lp__sqlite_uploads,
    .check = lp__sqlite_check,
};

/* ---- opening ------------------------------------------------------------------- */

/* Runs setup SQL that may return rows (a PRAGMA's answer); the first
 * column of the first row is copied into answer when one is wanted. */
static int lp__sqlite_exec(lp_store *s, const char *sql, char *answer, size_t cap)
{
    sqlite3 *db = lp__sqlite_of(s)->db;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return lp__sqlite_fail(s, sql);
    int rc = sqlite3_step(st);
    const char *text = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
    if (answer)
        snprintf(answer, cap, "%s", text ? text : "");
    int out = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : lp__sqlite_fail(s, sql);
    sqlite3_finalize(st);
    return out;
}

static int lp__sqlite_setup(lp_store *s)
{
    lp__sqlite *h = lp__sqlite_of(s);
    /* Waits for another writer (another thread's handle, another
     * collector on the same folder) rather than failing at once. */
    sqlite3_busy_timeout(h->db, 5000);
    sqlite3_extended_result_codes(h->db, 1);
    char mode[16] = "";
    int rc = lp__sqlite_exec(s, "PRAGMA journal_mode=WAL", mode, sizeof mode);
    if (rc < 0)
        return rc;
    if (strcmp(mode, "wal") != 0)
        return lp__store_fail(s, LP_EIO, "cannot use write-ahead logging here (journal mode %s)",
                              mode);
    if ((rc = lp__sqlite_exec(s, "PRAGMA synchronous=FULL", NULL, 0)) < 0 ||
        (rc = lp__sqlite_exec(s, "PRAGMA foreign_keys=ON", NULL, 0)) < 0)
        return rc;
    /* The schema is made in one transaction: a crash while creating it
     * leaves either none of it or all of it. */
    char *msg = NULL;
    if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(h->db, lp__sqlite_schema, NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(h->db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK) {
        rc = lp__store_fail(s, LP_EIO, "creating the tables: %s",
                            msg ? msg : sqlite3_errmsg(h->db));
        sqlite3_free(msg);
        lp__sqlite_rollback(s);
        return rc;
    }
    for (int i = 0; i < Q_COUNT; i++)
        if (sqlite3_prepare_v3(h->db, lp__sqlite_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &h->q[i],
                               NULL) != SQLITE_OK)
            return lp__sqlite_fail(s, lp__sqlite_sql[i]);
    return 0;
}

int lp__store_sqlite_open(lp_store *s, const char *dir)
{
    int n = snprintf(s->name, sizeof s->name, "%s/lowprof.db", dir);
    if (n < 0 || (size_t)n >= sizeof s->name) {
        snprintf(s->name, sizeof s->name, "%.*s...", (int)sizeof s->name - 4, dir);
        return lp__store_fail(s, LP_EINVAL, "folder name too long");
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        int e = errno;
        snprintf(s->name, sizeof s->name, "%s", dir);
        return lp__store_fail(s, e == ENOENT ? LP_ENOENT : LP_EIO,
                              "cannot create the data folder: %s", strerror(e));
    }
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        snprintf(s->name, sizeof s->name, "%s", dir);
        return lp__store_fail(s, LP_EINVAL, "not a folder");
    }
    lp__sqlite *h = lp_calloc(1, sizeof *h);
    if (!h)
        return lp__store_fail(s, LP_ENOMEM, "out of memory");
    s->impl = h;
    s->ops = &lp__sqlite_ops;
    /* NOMUTEX: a handle serves one thread at a time (store.h). */
    int rc = sqlite3_open_v2(s->name, &h->db,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                             NULL);
    if (rc != SQLITE_OK)
        rc = h->db ? lp__sqlite_fail(s, "cannot open")
                   : lp__store_fail(s, LP_ENOMEM, "cannot open: out of memory");
    else
        rc = lp__sqlite_setup(s);
    if (rc < 0) {
        lp__sqlite_close(s);
        s->ops = NULL;
    }
    return rc;
}
