/* lowprof store: where the collector keeps what devices upload (remote-
 * profiling paper, section 4's "optimization center"). One narrow
 * interface, two back ends behind it:
 *
 * - SQLite (the default): one database file, DIR/lowprof.db, in WAL mode
 *   with synchronous=FULL, so a committed upload survives a crash of the
 *   process or the machine;
 * - PostgreSQL, for a fleet: several collectors share one database, named
 *   by a postgresql:// (or postgres://) connection URI.
 *
 * What is stored: projects, their tokens, and uploads. An upload is one
 * message as the collector accepted it (the collector keeps its profile
 * file zstd-compressed, see doc/format-upload.md) with the identity the
 * collector read from it. The
 * store neither parses nor merges profiles; it keeps bytes and answers
 * queries in upload order (`seq`, increasing in commit order per
 * database).
 *
 * Exactly once: an upload is identified by (project, message id). Putting
 * one that is already stored changes nothing and reports it as a
 * duplicate, however often it is resent and by however many collectors.
 *
 * Hosted (libc, libsqlite3, libpq). A handle is not thread-safe: use one
 * per thread, or serialise calls. Errors are negative LP_E* codes (LP_EIO
 * for the database's own failures) with a message in the err buffers. */
#ifndef LOWPROF_STORE_H
#define LOWPROF_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "lowprof/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lp_store lp_store;

/* Limits on the identity strings; the collector refuses longer ones. */
#define LP_STORE_NAME_MAX 255       /* project, program, device */
#define LP_STORE_BUILD_ID_MAX 80    /* hex digits */
#define LP_STORE_MESSAGE_ID_MAX 64  /* hex digits */
#define LP_STORE_TOKEN_LEN 40       /* "lpt_" and 36 hex digits */

/* Opens (creating tables that are missing) the store where names:
 * "postgresql://..." or "postgres://..." selects PostgreSQL; anything else
 * is a folder (created if missing, its parent must exist) holding the
 * SQLite database lowprof.db. On error returns a negative code and writes
 * a message naming the database into err. */
int lp_store_open(const char *where, lp_store **out, char *err, size_t errcap);
/* Closes the handle; accepts NULL. */
void lp_store_close(lp_store *s);
/* "sqlite" or "postgresql". */
const char *lp_store_kind(const lp_store *s);
/* The last error's message (never NULL; "" if none). */
const char *lp_store_error(const lp_store *s);

/* ---- projects and tokens --------------------------------------------------- */

/* Creates the project if it does not exist and a new token for it, written
 * into token (at least LP_STORE_TOKEN_LEN + 1 bytes): "lpt_" and 36 hex
 * digits from the system's random source. */
int lp_store_token_create(lp_store *s, const char *project, char *token, size_t cap);
/* The project a token belongs to: its id and name (name may be NULL).
 * LP_ENOENT if the token is unknown or revoked. */
int lp_store_token_check(lp_store *s, const char *token, int64_t *out_project, char *name,
                         size_t name_cap);
/* Revokes a token: lp_store_token_check refuses it from then on (the row
 * stays, so the token is never handed out again). LP_ENOENT if unknown. */
int lp_store_token_revoke(lp_store *s, const char *token);

/* ---- uploads ----------------------------------------------------------------- */

typedef struct lp_store_upload {
    int64_t project;
    const char *message_id; /* hex, unique within the project */
    const char *program;
    const char *build_id;   /* hex */
    const char *device;
    int64_t received_ms;    /* Unix time in milliseconds */
    uint64_t instructions;  /* what the profile covers (for the timeline), 0 if unknown */
    const void *body;       /* the message's bytes, kept as given */
    size_t body_size;
} lp_store_upload;

/* Stores n uploads in one transaction, durable when it returns 0 (the
 * collector answers its clients only then; committing a batch at once is
 * what lets it keep up with many uploaders). out_dup[i] (may be NULL) is
 * set to 1 for an upload already stored, 0 for a new one. On error nothing
 * of the batch is stored. */
int lp_store_put(lp_store *s, const lp_store_upload *u, size_t n, int *out_dup);

/* One row of the listings below; strings valid only during the callback. */
typedef struct lp_store_row {
    int64_t seq;            /* upload rows: the upload's sequence number */
    const char *program;
    const char *build_id;
    const char *device;
    const char *message_id;
    int64_t received_ms;    /* upload rows: when; group rows: the latest */
    int64_t first_ms;       /* group rows: the earliest */
    uint64_t uploads;       /* group rows: how many */
    uint64_t devices;       /* group rows: distinct devices */
    uint64_t instructions;
    const void *body;       /* lp_store_bodies only */
    size_t body_size;
} lp_store_row;

/* A non-zero return stops the listing and is returned. The callback must
 * not call into the same handle (its query is still open). */
typedef int (*lp_store_row_fn)(void *ctx, const lp_store_row *row);

/* The project's programs, by name: program, uploads, devices, first_ms,
 * received_ms (latest), instructions (summed). */
int lp_store_programs(lp_store *s, int64_t project, lp_store_row_fn fn, void *ctx);
/* One program's builds, latest upload first: build_id and the same
 * figures. */
int lp_store_builds(lp_store *s, int64_t project, const char *program, lp_store_row_fn fn,
                    void *ctx);
/* One build's uploads with seq > after_seq, in seq order, without bodies:
 * seq, message_id, device, received_ms, instructions, body_size. */
int lp_store_uploads(lp_store *s, int64_t project, const char *program, const char *build_id,
                     int64_t after_seq, lp_store_row_fn fn, void *ctx);
/* The same rows with their bodies, at most limit of them (0: all): what a
 * merge reads. */
int lp_store_bodies(lp_store *s, int64_t project, const char *program, const char *build_id,
                    int64_t after_seq, size_t limit, lp_store_row_fn fn, void *ctx);

/* Runs the database's own consistency check (SQLite's integrity_check;
 * for PostgreSQL, that every upload's body has the size recorded for it).
 * 0 when it passes; LP_EFORMAT with the first problem in the error. */
int lp_store_check(lp_store *s);

#ifdef __cplusplus
}
#endif
#endif
