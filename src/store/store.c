/* The store's front: picks the back end from the `where` string, checks
 * every argument once (so neither back end has to), makes tokens from the
 * system's random source, and keeps the last error's message. The back
 * ends are reached only through the table in store_internal.h.
 *
 * A token is never stored: the back ends keep its SHA-256 digest, so a
 * copy of the database (a backup, a replica) gives nobody a token that
 * uploads or reads. A token has 144 random bits, so the plain digest, with
 * no salt or stretching, is all the protection it needs. */
#define _DEFAULT_SOURCE /* getrandom */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <openssl/evp.h>

#include "store_internal.h"

/* What the back ends keep for a token: "sha256:" and 64 hex digits. */
#define LP__TOKEN_DIGEST_LEN (7 + 64)

static int lp__store_token_digest(lp_store *s, const char *token, char *out)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!EVP_Digest(token, strlen(token), md, &n, EVP_sha256(), NULL) || n != 32)
        return lp__store_fail(s, LP_EIO, "cannot hash the token (libcrypto)");
    static const char hex[] = "0123456789abcdef";
    memcpy(out, "sha256:", 7);
    for (unsigned int i = 0; i < n; i++) {
        out[7 + 2 * i] = hex[md[i] >> 4];
        out[8 + 2 * i] = hex[md[i] & 15];
    }
    out[LP__TOKEN_DIGEST_LEN] = '\0';
    return 0;
}

int lp__store_fail(lp_store *s, int code, const char *fmt, ...)
{
    int n = snprintf(s->err, sizeof s->err, "%s: ", s->name);
    if (n < 0 || (size_t)n >= sizeof s->err)
        n = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err + n, sizeof s->err - (size_t)n, fmt, ap);
    va_end(ap);
    return code;
}

void lp__store_ok(lp_store *s)
{
    s->err[0] = '\0';
}

static int lp__store_is_uri(const char *where)
{
    return strncmp(where, "postgresql://", 13) == 0 || strncmp(where, "postgres://", 11) == 0;
}

int lp_store_open(const char *where, lp_store **out, char *err, size_t errcap)
{
    *out = NULL;
    if (errcap)
        err[0] = '\0';
    if (!where || !*where) {
        if (errcap)
            snprintf(err, errcap, "store: no folder or postgresql:// URI given");
        return LP_EINVAL;
    }
    lp_store *s = lp_calloc(1, sizeof *s);
    if (!s) {
        if (errcap)
            snprintf(err, errcap, "%s: out of memory", where);
        return LP_ENOMEM;
    }
    int rc = lp__store_is_uri(where) ? lp__store_pg_open(s, where)
                                     : lp__store_sqlite_open(s, where);
    if (rc < 0) {
        if (errcap)
            snprintf(err, errcap, "%s", s->err);
        lp_free(s);
        return rc;
    }
    lp__store_ok(s);
    *out = s;
    return 0;
}

void lp_store_close(lp_store *s)
{
    if (!s)
        return;
    if (s->ops)
        s->ops->close(s);
    lp_free(s);
}

const char *lp_store_kind(const lp_store *s)
{
    return s->ops->kind;
}

const char *lp_store_error(const lp_store *s)
{
    return s->err;
}

static int64_t lp__store_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A string argument that must be there, non-empty unless empty_ok, and at
 * most max bytes. */
static int lp__store_check_str(lp_store *s, const char *what, const char *v, size_t max,
                               int empty_ok)
{
    if (!v)
        return lp__store_fail(s, LP_EINVAL, "%s missing", what);
    size_t len = strnlen(v, max + 1);
    if (len == 0 && !empty_ok)
        return lp__store_fail(s, LP_EINVAL, "%s empty", what);
    if (len > max)
        return lp__store_fail(s, LP_EINVAL, "%s longer than %zu bytes", what, max);
    return 0;
}

/* ---- projects and tokens ------------------------------------------------------- */

int lp_store_token_create(lp_store *s, const char *project, char *token, size_t cap)
{
    int rc = lp__store_check_str(s, "project name", project, LP_STORE_NAME_MAX, 0);
    if (rc < 0)
        return rc;
    if (!token || cap < LP_STORE_TOKEN_LEN + 1)
        return lp__store_fail(s, LP_EINVAL, "token buffer smaller than %d bytes",
                              LP_STORE_TOKEN_LEN + 1);
    /* 18 bytes: 144 bits, beyond guessing however many tries a client
     * makes; getrandom blocks only until the kernel's pool is seeded. */
    unsigned char raw[(LP_STORE_TOKEN_LEN - 4) / 2];
    size_t got = 0;
    while (got < sizeof raw) {
        ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return lp__store_fail(s, LP_EIO, "getrandom: %s", strerror(errno));
        }
        got += (size_t)n;
    }
    static const char hex[] = "0123456789abcdef";
    char t[LP_STORE_TOKEN_LEN + 1];
    memcpy(t, "lpt_", 4);
    for (size_t i = 0; i < sizeof raw; i++) {
        t[4 + 2 * i] = hex[raw[i] >> 4];
        t[5 + 2 * i] = hex[raw[i] & 15];
    }
    t[LP_STORE_TOKEN_LEN] = '\0';
    char digest[LP__TOKEN_DIGEST_LEN + 1];
    if ((rc = lp__store_token_digest(s, t, digest)) < 0)
        return rc;
    rc = s->ops->token_create(s, project, digest, lp__store_now_ms());
    if (rc < 0)
        return rc;
    memcpy(token, t, sizeof t);
    lp__store_ok(s);
    return 0;
}

int lp_store_token_check(lp_store *s, const char *token, int64_t *out_project, char *name,
                         size_t name_cap)
{
    if (out_project)
        *out_project = 0;
    if (name && name_cap)
        name[0] = '\0';
    int rc = lp__store_check_str(s, "token", token, LP_STORE_TOKEN_LEN, 0);
    if (rc < 0)
        return rc == LP_EINVAL ? lp__store_fail(s, LP_ENOENT, "unknown token") : rc;
    int64_t project = 0;
    char digest[LP__TOKEN_DIGEST_LEN + 1];
    if ((rc = lp__store_token_digest(s, token, digest)) < 0)
        return rc;
    rc = s->ops->token_check(s, digest, &project, name, name ? name_cap : 0);
    if (rc < 0)
        return rc;
    if (out_project)
        *out_project = project;
    lp__store_ok(s);
    return 0;
}

int lp_store_token_revoke(lp_store *s, const char *token)
{
    int rc = lp__store_check_str(s, "token", token, LP_STORE_TOKEN_LEN, 0);
    if (rc < 0)
        return rc == LP_EINVAL ? lp__store_fail(s, LP_ENOENT, "unknown token") : rc;
    char digest[LP__TOKEN_DIGEST_LEN + 1];
    if ((rc = lp__store_token_digest(s, token, digest)) < 0)
        return rc;
    rc = s->ops->token_revoke(s, digest, lp__store_now_ms());
    if (rc == 0)
        lp__store_ok(s);
    return rc;
}

/* ---- uploads ------------------------------------------------------------------- */

static int lp__store_check_upload(lp_store *s, const lp_store_upload *u, size_t i)
{
    char what[64];
    int rc;
    if (u->project <= 0)
        return lp__store_fail(s, LP_EINVAL, "upload %zu: project %lld out of range", i,
                              (long long)u->project);
    snprintf(what, sizeof what, "upload %zu: message id", i);
    if ((rc = lp__store_check_str(s, what, u->message_id, LP_STORE_MESSAGE_ID_MAX, 0)) < 0)
        return rc;
    snprintf(what, sizeof what, "upload %zu: program", i);
    if ((rc = lp__store_check_str(s, what, u->program, LP_STORE_NAME_MAX, 0)) < 0)
        return rc;
    snprintf(what, sizeof what, "upload %zu: build id", i);
    if ((rc = lp__store_check_str(s, what, u->build_id, LP_STORE_BUILD_ID_MAX, 1)) < 0)
        return rc;
    snprintf(what, sizeof what, "upload %zu: device", i);
    if ((rc = lp__store_check_str(s, what, u->device, LP_STORE_NAME_MAX, 1)) < 0)
        return rc;
    /* Both databases keep signed 64-bit integers; nothing real runs 2^63
     * instructions, so a larger figure is a caller's mistake. */
    if (u->instructions > (uint64_t)INT64_MAX)
        return lp__store_fail(s, LP_EINVAL, "upload %zu: instructions out of range", i);
    if (u->body_size > (size_t)INT32_MAX || (!u->body && u->body_size))
        return lp__store_fail(s, LP_EINVAL, "upload %zu: body missing or over 2 GB", i);
    return 0;
}

int lp_store_put(lp_store *s, const lp_store_upload *u, size_t n, int *out_dup)
{
    int *dup = out_dup;
    int one = 0;
    if (n == 0) {
        lp__store_ok(s);
        return 0;
    }
    if (!u)
        return lp__store_fail(s, LP_EINVAL, "no uploads given");
    if (!dup) {
        /* The back ends always report duplicates; give them somewhere to
         * write when the caller does not care. */
        dup = n == 1 ? &one : lp_calloc(n, sizeof *dup);
        if (!dup)
            return lp__store_fail(s, LP_ENOMEM, "out of memory");
    }
    memset(dup, 0, n * sizeof *dup);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = lp__store_check_upload(s, &u[i], i);
    if (rc == 0)
        rc = s->ops->put(s, u, n, dup);
    if (rc < 0)
        memset(dup, 0, n * sizeof *dup);
    else
        lp__store_ok(s);
    if (dup != out_dup && dup != &one)
        lp_free(dup);
    return rc;
}

int lp_store_programs(lp_store *s, int64_t project, lp_store_row_fn fn, void *ctx)
{
    if (!fn)
        return lp__store_fail(s, LP_EINVAL, "no callback given");
    int rc = s->ops->groups(s, LP__STORE_BY_PROGRAM, project, NULL, fn, ctx);
    if (rc == 0)
        lp__store_ok(s);
    return rc;
}

int lp_store_builds(lp_store *s, int64_t project, const char *program, lp_store_row_fn fn,
                    void *ctx)
{
    int rc = lp__store_check_str(s, "program", program, LP_STORE_NAME_MAX, 0);
    if (rc < 0)
        return rc;
    if (!fn)
        return lp__store_fail(s, LP_EINVAL, "no callback given");
    rc = s->ops->groups(s, LP__STORE_BY_BUILD, project, program, fn, ctx);
    if (rc == 0)
        lp__store_ok(s);
    return rc;
}

static int lp__store_list(lp_store *s, int64_t project, const char *program,
                          const char *build_id, int64_t after_seq, int with_bodies, size_t limit,
                          lp_store_row_fn fn, void *ctx)
{
    int rc = lp__store_check_str(s, "program", program, LP_STORE_NAME_MAX, 0);
    if (rc == 0)
        rc = lp__store_check_str(s, "build id", build_id, LP_STORE_BUILD_ID_MAX, 1);
    if (rc < 0)
        return rc;
    if (!fn)
        return lp__store_fail(s, LP_EINVAL, "no callback given");
    rc = s->ops->uploads(s, project, program, build_id, after_seq, with_bodies, limit, fn, ctx);
    if (rc == 0)
        lp__store_ok(s);
    return rc;
}

int lp_store_uploads(lp_store *s, int64_t project, const char *program, const char *build_id,
                     int64_t after_seq, lp_store_row_fn fn, void *ctx)
{
    return lp__store_list(s, project, program, build_id, after_seq, 0, 0, fn, ctx);
}

int lp_store_bodies(lp_store *s, int64_t project, const char *program, const char *build_id,
                    int64_t after_seq, size_t limit, lp_store_row_fn fn, void *ctx)
{
    return lp__store_list(s, project, program, build_id, after_seq, 1, limit, fn, ctx);
}

int lp_store_check(lp_store *s)
{
    int rc = s->ops->check(s);
    if (rc == 0)
        lp__store_ok(s);
    return rc;
}
