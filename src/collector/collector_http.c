/* `lowprof serve`: the collector's HTTP server on libmicrohttpd
 * (doc/collector-api.md).
 *
 * libmicrohttpd runs a pool of request threads over epoll. A request is
 * routed on its first call, when only the headers are known: that is where
 * the token, the rate and a declared Content-Length are checked, so a
 * refused upload is answered before its body is read. An accepted upload's
 * body is read into memory up to the limit, decoded and checked on the
 * request thread, then queued for the group-commit writer
 * (collector_writer.c); the connection is suspended meanwhile, so a
 * waiting upload holds no thread and many uploads share one commit. The
 * writer resumes it once the store has answered, and only then does the
 * client hear 2xx.
 *
 * SIGINT and SIGTERM stop the server: it stops accepting, commits and
 * answers what is queued, then closes. */
#define _GNU_SOURCE /* strcasecmp, strncasecmp */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "collector_internal.h"

#define LP__DEFAULT_LISTEN "127.0.0.1:7878"
#define LP__DEFAULT_STORE "./lowprof-data"
#define LP__QUEUE_BYTES ((size_t)64 << 20)

/* One upload's state, from its first call to its completion (other
 * requests are answered on their first call and keep none). */
typedef struct lp__req {
    int over;          /* the body passed max_body: it is read and dropped */
    size_t dropped;    /* bytes dropped so far */
    int queued;        /* the job is with the writer */
    int busy;          /* too many bodies in memory: dropped, answered 503 */
    size_t counted;    /* bytes of body counted in the server's reading */
    lp_membuf body;
    int64_t project;
    struct MHD_Connection *conn;
    lp__server *server;
    lp__job job;
} lp__req;

/* ---- answers ------------------------------------------------------------------- */

static enum MHD_Result http_send(struct MHD_Connection *conn, unsigned status, const char *type,
                                 const char *encoding, lp_membuf *body, unsigned retry_after)
{
    struct MHD_Response *resp;
    if (body->size > 0) {
        resp = MHD_create_response_from_buffer_with_free_callback(body->size, body->data,
                                                                   lp_free);
        if (resp) {
            body->data = NULL;
            body->size = body->capacity = 0;
        }
    } else {
        resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    }
    lp_membuf_free(body);
    if (!resp)
        return MHD_NO;
    if (type)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    if (encoding)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_ENCODING, encoding);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    if (retry_after) {
        char v[16];
        snprintf(v, sizeof v, "%u", retry_after);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, v);
    }
    enum MHD_Result rc = MHD_queue_response(conn, status, resp);
    MHD_destroy_response(resp);
    return rc;
}

static enum MHD_Result http_reply(struct MHD_Connection *conn, lp__reply *r, unsigned retry_after)
{
    if (lp__json_failed(&r->body)) {
        lp_membuf_free(&r->body);
        lp__reply_error(r, 500, "out of memory");
    }
    return http_send(conn, r->status, r->type, r->encoding, &r->body, retry_after);
}

static enum MHD_Result http_error(struct MHD_Connection *conn, unsigned status,
                                  unsigned retry_after, const char *why)
{
    lp__reply r;
    memset(&r, 0, sizeof r);
    lp__reply_error(&r, status, "%s", why);
    return http_reply(conn, &r, retry_after);
}

static enum MHD_Result http_page(struct MHD_Connection *conn)
{
    size_t size;
    const char *html = lp__page_html(&size);
    if (!html)
        return http_error(conn, 500, 0, "out of memory");
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(size, (void *)html, MHD_RESPMEM_PERSISTENT);
    if (!resp)
        return MHD_NO;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "text/html; charset=utf-8");
    /* The page needs nothing but itself and the API: no other origin may
     * feed it scripts, styles or frames. */
    MHD_add_response_header(resp, "Content-Security-Policy",
                            "default-src 'none'; script-src 'unsafe-inline'; "
                            "style-src 'unsafe-inline'; connect-src 'self'; img-src data:; "
                            "frame-ancestors 'none'");
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    enum MHD_Result rc = MHD_queue_response(conn, 200, resp);
    MHD_destroy_response(resp);
    return rc;
}

/* ---- tokens ---------------------------------------------------------------------- */

/* The bearer token of the request, or NULL. */
static const char *http_token(struct MHD_Connection *conn)
{
    const char *h = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Authorization");
    if (!h || strncasecmp(h, "Bearer ", 7) != 0)
        return NULL;
    h += 7;
    while (*h == ' ')
        h++;
    return *h ? h : NULL;
}

/* Checks the request's token: 0 and the project, or an answer already
 * queued (401, or 503 when the store cannot be asked) in *out_rc. */
static int http_auth(lp__server *s, struct MHD_Connection *conn, int64_t *project, char *name,
                     size_t name_cap, enum MHD_Result *out_rc)
{
    const char *token = http_token(conn);
    if (!token) {
        *out_rc = http_error(conn, 401, 0, "no token: send Authorization: Bearer TOKEN");
        return -1;
    }
    int rc = lp__auth_check(&s->auth, token, project, name, name_cap);
    if (rc == LP_ENOENT) {
        *out_rc = http_error(conn, 401, 0, "unknown token");
        return -1;
    }
    if (rc != 0) {
        *out_rc = http_error(conn, 503, 1, "the store cannot check tokens now");
        return -1;
    }
    return 0;
}

static const char *http_arg(void *ctx, const char *name)
{
    return MHD_lookup_connection_value(ctx, MHD_GET_ARGUMENT_KIND, name);
}

/* ---- uploads ------------------------------------------------------------------------ */

/* Gives back the request's share of the bytes being read. */
static void http_uncount(lp__server *s, lp__req *q)
{
    if (q->counted) {
        atomic_fetch_sub(&s->reading, q->counted);
        q->counted = 0;
    }
}

/* Runs on the writer's thread once the upload's batch is committed. */
static void http_job_done(void *ctx)
{
    lp__req *q = ctx;
    /* q may be freed as soon as the connection resumes: read it first. */
    lp__server *s = q->server;
    pthread_mutex_lock(&s->resume_lock);
    MHD_resume_connection(q->conn);
    pthread_mutex_unlock(&s->resume_lock);
}

static int64_t http_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* The whole body is here: decode it and queue it, or answer why not. */
static enum MHD_Result http_upload_body(lp__server *s, struct MHD_Connection *conn, lp__req *q)
{
    http_uncount(s, q);
    if (q->over) {
        char why[96];
        snprintf(why, sizeof why, "upload larger than %zu bytes", s->o.max_body);
        return http_error(conn, 413, 0, why);
    }
    if (q->busy)
        return http_error(conn, 503, 1, "too many uploads being received; retry later");
    if (q->body.size == 0)
        return http_error(conn, 400, 0, "empty body");

    static const uint8_t zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};
    int is_zstd = q->body.size >= 4 && memcmp(q->body.data, zstd_magic, 4) == 0;
    lp_profile_set set;
    lp_upload_id id;
    lp_membuf raw = {0};
    char why[256] = "";
    int rc = lp_upload_unpack(q->body.data, q->body.size, s->o.max_profile, &set, &id,
                              is_zstd ? NULL : &raw, why, sizeof why);
    if (rc != 0) {
        lp_membuf_free(&raw);
        if (!why[0])
            snprintf(why, sizeof why, "%s", lp_strerror(rc));
        if (rc == LP_ENOMEM)
            return http_error(conn, 503, 1, "out of memory");
        return http_error(conn, rc == LP_ELIMIT ? 413 : 400, 0, why);
    }
    lp_profile_set_fini(&set);

    lp__job *j = &q->job;
    memset(j, 0, sizeof *j);
    if (!id.program[0] || strlen(id.program) > LP_STORE_NAME_MAX ||
        strlen(id.device) > LP_STORE_NAME_MAX || !id.message_id[0] || !id.build_id[0]) {
        lp_membuf_free(&raw);
        return http_error(conn, 400, 0, "message identity incomplete (program, build-id, message-id)");
    }
    /* Names are text in both stores (PostgreSQL refuses other bytes), and
     * what one device sends must not fail a batch it shares with others. */
    if (!lp__utf8_valid(id.program) || !lp__utf8_valid(id.device)) {
        lp_membuf_free(&raw);
        return http_error(conn, 400, 0,
                          !lp__utf8_valid(id.program) ? "meta program: not UTF-8"
                                                      : "meta device: not UTF-8");
    }
    snprintf(j->message_id, sizeof j->message_id, "%s", id.message_id);
    snprintf(j->program, sizeof j->program, "%s", id.program);
    snprintf(j->build_id, sizeof j->build_id, "%s", id.build_id);
    snprintf(j->device, sizeof j->device, "%s", id.device[0] ? id.device : "unknown");

    /* The store keeps messages compressed: a zstd body as it came, a plain
     * profile file compressed here. */
    if (is_zstd) {
        j->body = q->body.data;
        j->up.body_size = q->body.size;
        q->body.data = NULL;
        q->body.size = q->body.capacity = 0;
    } else {
        size_t cap = ZSTD_compressBound(raw.size);
        j->body = lp_malloc(cap);
        size_t n = j->body ? ZSTD_compress(j->body, cap, raw.data, raw.size, 3) : 0;
        lp_membuf_free(&raw);
        if (!j->body || ZSTD_isError(n)) {
            lp_free(j->body);
            j->body = NULL;
            return http_error(conn, 503, 1, "cannot compress the message now");
        }
        j->up.body_size = n;
    }
    lp_membuf_free(&q->body);
    j->up.project = q->project;
    j->up.message_id = j->message_id;
    j->up.program = j->program;
    j->up.build_id = j->build_id;
    j->up.device = j->device;
    j->up.received_ms = http_now_ms();
    j->up.instructions = id.instructions;
    j->up.body = j->body;
    j->done = http_job_done;
    j->done_ctx = q;

    /* The writer may commit the job before push returns; the lock keeps
     * its resume from overtaking the suspend. */
    q->queued = 1;
    pthread_mutex_lock(&s->resume_lock);
    rc = lp__ingest_push(&s->ingest, j);
    if (rc == 0)
        MHD_suspend_connection(conn);
    pthread_mutex_unlock(&s->resume_lock);
    if (rc != 0) {
        q->queued = 0;
        lp_free(j->body);
        j->body = NULL;
        return http_error(conn, 503, 1,
                          rc == LP_ELIMIT ? "too many uploads waiting for the store"
                                          : "the collector is stopping");
    }
    return MHD_YES;
}

/* The writer answered: tell the client. */
static enum MHD_Result http_upload_done(struct MHD_Connection *conn, lp__req *q)
{
    lp__job *j = &q->job;
    q->queued = 0;
    lp__reply r;
    memset(&r, 0, sizeof r);
    if (j->status >= 500) {
        lp__reply_error(&r, (unsigned)j->status, "%s", j->why);
        return http_reply(conn, &r, 1);
    }
    r.status = (unsigned)j->status;
    r.type = "application/json";
    lp__json_raw(&r.body, "{\"stored\":true,\"duplicate\":");
    lp__json_raw(&r.body, j->status == 200 ? "true" : "false");
    lp__json_key(&r.body, "message_id", 0);
    lp__json_str(&r.body, j->message_id);
    lp__json_raw(&r.body, "}\n");
    return http_reply(conn, &r, 0);
}

/* First call of an upload: token, rate and declared size. */
static enum MHD_Result http_upload_start(lp__server *s, struct MHD_Connection *conn,
                                         lp__req *q)
{
    enum MHD_Result rc;
    if (http_auth(s, conn, &q->project, NULL, 0, &rc) != 0)
        return rc;
    const char *len = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Length");
    if (len) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(len, &end, 10);
        if (errno == 0 && end != len && (n > s->o.max_body)) {
            char why[96];
            snprintf(why, sizeof why, "upload of %llu bytes is larger than %zu", n,
                     s->o.max_body);
            return http_error(conn, 413, 0, why);
        }
    }
    unsigned retry;
    if (!lp__auth_take(&s->auth, http_token(conn), &retry))
        return http_error(conn, 429, retry, "too many uploads for this token; retry later");
    return MHD_YES;
}

/* ---- routing ----------------------------------------------------------------------- */

static enum MHD_Result http_get(lp__server *s, struct MHD_Connection *conn, const char *url)
{
    if (strcmp(url, "/") == 0 || strcmp(url, "/index.html") == 0)
        return http_page(conn);
    lp__reply r;
    memset(&r, 0, sizeof r);
    if (strcmp(url, "/api/v1/health") == 0) {
        r.status = 200;
        r.type = "application/json";
        lp__json_raw(&r.body, "{\"ok\":true,\"store\":");
        lp__json_str(&r.body, s->kind);
        lp__json_raw(&r.body, ",\"version\":");
        lp__json_str(&r.body, LP_VERSION);
        lp__json_raw(&r.body, "}\n");
        return http_reply(conn, &r, 0);
    }
    static const char *const reads[] = {"/api/v1/programs", "/api/v1/builds",
                                        "/api/v1/uploads", "/api/v1/profile"};
    size_t which = 0;
    while (which < 4 && strcmp(url, reads[which]) != 0)
        which++;
    if (which == 4 && strcmp(url, "/api/v1/profiles") == 0)
        return http_error(conn, 405, 0, "uploads are POST");
    if (which == 4)
        return http_error(conn, 404, 0, "no such page");
    int64_t project;
    char name[LP_STORE_NAME_MAX + 1];
    enum MHD_Result rc;
    if (http_auth(s, conn, &project, name, sizeof name, &rc) != 0)
        return rc;
    switch (which) {
    case 0: lp__api_programs(s, project, name, &r); break;
    case 1: lp__api_builds(s, project, http_arg, conn, &r); break;
    case 2: lp__api_uploads(s, project, http_arg, conn, &r); break;
    default: lp__api_profile(s, project, http_arg, conn, &r); break;
    }
    return http_reply(conn, &r, r.status == 503 ? 1 : 0);
}

static enum MHD_Result http_request(void *cls, struct MHD_Connection *conn, const char *url,
                                    const char *method, const char *version,
                                    const char *upload_data, size_t *upload_data_size,
                                    void **req_cls)
{
    (void)version;
    lp__server *s = cls;
    lp__req *q = *req_cls;

    if (!q) { /* first call: headers only */
        if (strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0) {
            /* A GET has no body worth reading: answer now. */
            return http_get(s, conn, url);
        }
        if (strcmp(method, "POST") != 0 || strcmp(url, "/api/v1/profiles") != 0) {
            if (strcmp(url, "/api/v1/profiles") == 0)
                return http_error(conn, 405, 0, "uploads are POST");
            return http_error(conn, 404, 0, "no such page");
        }
        q = lp_calloc(1, sizeof *q);
        if (!q)
            return MHD_NO;
        q->conn = conn;
        q->server = s;
        *req_cls = q;
        return http_upload_start(s, conn, q);
    }

    if (*upload_data_size > 0) {
        size_t n = *upload_data_size;
        *upload_data_size = 0;
        if (!q->over && n > s->o.max_body - q->body.size) {
            q->over = 1;
            lp_membuf_free(&q->body);
            http_uncount(s, q);
        }
        if (!q->over && !q->busy &&
            atomic_fetch_add(&s->reading, n) + n > LP__READING_MAX) {
            atomic_fetch_sub(&s->reading, n);
            q->busy = 1;
            lp_membuf_free(&q->body);
            http_uncount(s, q);
        }
        if (!q->over && !q->busy)
            q->counted += n;
        if (q->over || q->busy) {
            /* A body that passed a limit without announcing its length:
             * read on to answer, but give up on one that does not end. */
            q->dropped += n;
            return q->dropped > 4 * s->o.max_body + ((size_t)1 << 20) ? MHD_NO : MHD_YES;
        }
        lp_sink sink = lp_membuf_sink(&q->body);
        if (sink.write(sink.ctx, upload_data, n) != 0)
            return MHD_NO;
        return MHD_YES;
    }
    if (q->queued)
        return http_upload_done(conn, q);
    return http_upload_body(s, conn, q);
}

static void http_completed(void *cls, struct MHD_Connection *conn, void **req_cls,
                           enum MHD_RequestTerminationCode code)
{
    (void)conn;
    (void)code;
    lp__req *q = *req_cls;
    if (!q)
        return;
    http_uncount(cls, q);
    lp_membuf_free(&q->body);
    lp_free(q);
    *req_cls = NULL;
}

/* ---- listening ------------------------------------------------------------------------ */

/* Binds and listens on "HOST:PORT" ("[v6]:PORT" for IPv6). Returns the
 * socket, or -1 with a message in err. */
static int http_listen(const char *listen_on, char *host, size_t host_cap, unsigned *out_port,
                       int *out_v6, char *err, size_t errcap)
{
    char buf[300];
    snprintf(buf, sizeof buf, "%s", listen_on);
    char *h = buf, *colon;
    if (buf[0] == '[') {
        char *close = strchr(buf, ']');
        if (!close || close[1] != ':') {
            snprintf(err, errcap, "--listen %s: expected [ADDRESS]:PORT", listen_on);
            return -1;
        }
        *close = '\0';
        h = buf + 1;
        colon = close + 1;
    } else {
        colon = strrchr(buf, ':');
        if (!colon) {
            snprintf(err, errcap, "--listen %s: expected HOST:PORT", listen_on);
            return -1;
        }
        *colon = '\0';
    }
    const char *port = colon + 1;
    char *end;
    unsigned long p = strtoul(port, &end, 10);
    if (!*port || *end || p > 65535) {
        snprintf(err, errcap, "--listen %s: port must be a number from 0 to 65535", listen_on);
        return -1;
    }
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    int g = getaddrinfo(*h ? h : NULL, port, &hints, &res);
    if (g != 0) {
        snprintf(err, errcap, "--listen %s: %s", listen_on, gai_strerror(g));
        return -1;
    }
    int fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, res->ai_protocol);
    int one = 1;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(fd, res->ai_addr, res->ai_addrlen) != 0 || listen(fd, 1024) != 0) {
        snprintf(err, errcap, "cannot listen on %s: %s", listen_on, strerror(errno));
        if (fd >= 0)
            close(fd);
        freeaddrinfo(res);
        return -1;
    }
    *out_v6 = res->ai_family == AF_INET6;
    freeaddrinfo(res);

    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    getsockname(fd, (struct sockaddr *)&ss, &len);
    if (ss.ss_family == AF_INET6) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
        char t[INET6_ADDRSTRLEN];
        inet_ntop(AF_INET6, &a->sin6_addr, t, sizeof t);
        snprintf(host, host_cap, "[%s]", t);
        *out_port = ntohs(a->sin6_port);
    } else {
        struct sockaddr_in *a = (struct sockaddr_in *)&ss;
        char t[INET_ADDRSTRLEN];
        inet_ntop(AF_INET, &a->sin_addr, t, sizeof t);
        snprintf(host, host_cap, "%s", t);
        *out_port = ntohs(a->sin_port);
    }
    return fd;
}

/* Writes the port through a temporary and rename, so a test waiting for
 * the file never reads half of it. */
static int http_write_port(const char *path, unsigned port)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    fprintf(f, "%u\n", port);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}

/* ---- serving ------------------------------------------------------------------------ */

int lp_collector_serve(const lp_collector_opts *opts)
{
    lp__server *s = lp_calloc(1, sizeof *s);
    if (!s) {
        fprintf(stderr, "lowprof serve: out of memory\n");
        return 1;
    }
    s->o = *opts;
    if (!s->o.listen)
        s->o.listen = LP__DEFAULT_LISTEN;
    if (!s->o.store)
        s->o.store = LP__DEFAULT_STORE;
    if (!s->o.max_body)
        s->o.max_body = LP_UPLOAD_MAX_BODY;
    if (!s->o.max_profile)
        s->o.max_profile = LP_UPLOAD_MAX_PROFILE;
    if (!(s->o.rate > 0))
        s->o.rate = 2000;
    if (!s->o.threads)
        s->o.threads = 4;

    /* SIGINT and SIGTERM are taken by sigwait below: block them before
     * any thread starts, so every thread inherits the mask. */
    sigset_t stop, old;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, &old);
    signal(SIGPIPE, SIG_IGN);

    int status = 1, fd = -1;
    char err[512] = "";
    struct MHD_Daemon *d = NULL;
    pthread_mutex_init(&s->resume_lock, NULL);
    atomic_init(&s->reading, 0);
    lp__pool_init(&s->pool, s->o.store);
    lp__cache_init(&s->cache);
    int auth_ok = lp__auth_init(&s->auth, s->o.rate, &s->pool) == 0;
    int ingest_ok = auth_ok && lp__ingest_start(&s->ingest, s->o.store, LP__QUEUE_BYTES, err,
                                                sizeof err) == 0;
    if (!auth_ok) {
        fprintf(stderr, "lowprof serve: out of memory\n");
        goto out;
    }
    if (!ingest_ok) {
        fprintf(stderr, "lowprof serve: %s\n", err);
        goto out;
    }
    s->kind = lp_store_kind(s->ingest.store);
    /* The writer reads these only after the first upload is queued, which
     * the daemon started below makes happen later. */
    int warm_ok = lp__warm_start(&s->warm, s) == 0;
    if (warm_ok) {
        s->ingest.on_commit = lp__warm_note;
        s->ingest.on_commit_ctx = &s->warm;
    }

    char host[INET6_ADDRSTRLEN + 2];
    unsigned port = 0;
    int v6 = 0;
    fd = http_listen(s->o.listen, host, sizeof host, &port, &v6, err, sizeof err);
    if (fd < 0) {
        fprintf(stderr, "lowprof serve: %s\n", err);
        goto out;
    }
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME;
    if (v6)
        flags |= MHD_USE_IPv6;
    d = MHD_start_daemon(flags, 0, NULL, NULL, http_request, s,
                         MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
                         MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)s->o.threads,
                         MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(128 << 10),
                         MHD_OPTION_CONNECTION_LIMIT, (unsigned int)1000,
                         MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)30,
                         MHD_OPTION_NOTIFY_COMPLETED, http_completed, s,
                         MHD_OPTION_END);
    if (!d) {
        fprintf(stderr, "lowprof serve: cannot start the HTTP server on %s\n", s->o.listen);
        goto out;
    }
    fd = -1; /* the daemon owns the socket now */
    if (s->o.port_file && http_write_port(s->o.port_file, port) != 0) {
        fprintf(stderr, "lowprof serve: %s: %s\n", s->o.port_file, strerror(errno));
        goto out;
    }
    fprintf(stderr, "lowprof serve: listening on http://%s:%u (store: %s)\n", host, port,
            s->kind);
    fflush(stderr);

    int sig = 0;
    while (sigwait(&stop, &sig) != 0)
        ;
    if (!s->o.quiet)
        fprintf(stderr, "lowprof serve: %s: stopping\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    /* Stop taking connections, answer what is queued, then close. */
    MHD_socket lfd = MHD_quiesce_daemon(d);
    lp__ingest_stop(&s->ingest);
    ingest_ok = 0;
    /* Resumed uploads are answered by the request threads: give them a
     * moment before the daemon closes their connections. (Their uploads
     * are stored either way; a client that misses the answer resends and
     * hears "duplicate".) */
    struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    MHD_stop_daemon(d);
    d = NULL;
    lp__warm_stop(&s->warm);
    if (lfd != MHD_INVALID_SOCKET)
        close(lfd);
    if (!s->o.quiet)
        fprintf(stderr, "lowprof serve: stopped after %llu uploads in %llu commits\n",
                (unsigned long long)s->ingest.committed, (unsigned long long)s->ingest.batches);
    status = 0;

out:
    if (d) {
        lp__ingest_stop(&s->ingest);
        ingest_ok = 0;
        MHD_stop_daemon(d);
    }
    if (fd >= 0)
        close(fd);
    if (ingest_ok)
        lp__ingest_stop(&s->ingest);
    lp__warm_stop(&s->warm);
    lp__cache_fini(&s->cache);
    if (auth_ok)
        lp__auth_fini(&s->auth);
    lp__pool_fini(&s->pool);
    pthread_mutex_destroy(&s->resume_lock);
    lp_free(s);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return status;
}
