/* Sending one packed message to the collector with libcurl.
 *
 * The reply tells the sender what to do with the message: 2xx means it is
 * stored (keep nothing), a 4xx other than 429 means the collector will never
 * take it (set it aside with the reason), and everything else means try
 * again later. The reply body (doc/format-upload.md, "Replies") is a small
 * JSON object; only its "error" and "duplicate" members matter here, so it
 * is scanned for them rather than parsed in full.
 *
 * Each call uses its own easy handle, so calls from several threads do not
 * share state; curl's global set-up runs once, under pthread_once. No
 * signals: the agent's SIGINT handling and the timeouts must not depend on
 * curl's use of SIGALRM. */
#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "upload_internal.h"

#define LP__REPLY_MAX 4096 /* bytes of reply body kept; the rest is ignored */

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_rc;

static void curl_init(void)
{
    curl_init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

typedef struct reply {
    char body[LP__REPLY_MAX + 1];
    size_t len;
} reply;

static size_t on_body(char *data, size_t size, size_t n, void *ctx)
{
    reply *r = ctx;
    size_t bytes = size * n;
    size_t room = LP__REPLY_MAX - r->len;
    size_t take = bytes < room ? bytes : room;
    memcpy(r->body + r->len, data, take);
    r->len += take;
    r->body[r->len] = '\0';
    return bytes;
}

static int on_progress(void *ctx, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                       curl_off_t ulnow)
{
    (void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
    const volatile sig_atomic_t *cancel = ctx;
    return cancel && *cancel ? 1 : 0;
}

/* The value of "key" in body when it is a JSON string, copied into out
 * (escapes kept as the two characters after the backslash); 0 if absent. */
static int json_string(const char *body, const char *key, char *out, size_t cap)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *p = strstr(body, pat);
    if (!p)
        return 0;
    p += strlen(pat);
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (*p++ != ':')
        return 0;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    if (*p++ != '"')
        return 0;
    size_t n = 0;
    for (; *p && *p != '"' && n + 1 < cap; p++) {
        if (*p == '\\' && p[1])
            p++;
        out[n++] = (unsigned char)*p < 0x20 ? ' ' : *p;
    }
    out[n] = '\0';
    return 1;
}

/* 1 if "key" is followed by true. */
static int json_true(const char *body, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *p = strstr(body, pat);
    if (!p)
        return 0;
    p += strlen(pat);
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == ':')
        p++;
    return strncmp(p, "true", 4) == 0;
}

/* collector + "/api/v1/profiles", unless it already ends with that path. */
static int upload_url(const char *collector, char *url, size_t cap)
{
    static const char path[] = "/api/v1/profiles";
    size_t n = strlen(collector);
    while (n > 0 && collector[n - 1] == '/')
        n--;
    size_t plen = sizeof path - 1;
    int has = n >= plen && memcmp(collector + n - plen, path, plen) == 0;
    int w = snprintf(url, cap, "%.*s%s", (int)n, collector, has ? "" : path);
    return w > 0 && (size_t)w < cap ? 0 : LP_EINVAL;
}

/* A libcurl handle and the header list holding the bearer token, for one
 * request; NULL with the reason in r->why and the code in *out_rc. The
 * token goes into a header line, so it may hold no space or line break. */
static CURL *open_handle(const char *token, struct curl_slist **out_h, lp_upload_result *r,
                         int *out_rc)
{
    *out_h = NULL;
    *out_rc = LP_EINVAL;
    for (const char *t = token ? token : ""; *t; t++)
        if ((unsigned char)*t < 0x21 || *t == 0x7f) {
            snprintf(r->why, sizeof r->why, "the token holds a space or control character");
            return NULL;
        }
    *out_rc = LP_EIO;
    pthread_once(&curl_once, curl_init);
    if (curl_init_rc != CURLE_OK) {
        snprintf(r->why, sizeof r->why, "libcurl: %s", curl_easy_strerror(curl_init_rc));
        return NULL;
    }
    CURL *c = curl_easy_init();
    if (!c) {
        snprintf(r->why, sizeof r->why, "libcurl: cannot create a handle");
        return NULL;
    }
    char auth[1024];
    snprintf(auth, sizeof auth, "Authorization: Bearer %s", token ? token : "");
    if ((*out_h = curl_slist_append(NULL, auth)) == NULL) {
        curl_easy_cleanup(c);
        snprintf(r->why, sizeof r->why, "out of memory");
        *out_rc = LP_ENOMEM;
        return NULL;
    }
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "lowprof/" LP_VERSION);
    return c;
}

int lp__upload_send_cancel(const char *collector, const char *token, const void *body,
                           size_t size, long timeout_ms, const volatile sig_atomic_t *cancel,
                           lp_upload_result *r)
{
    memset(r, 0, sizeof *r);
    char url[2048];
    if (!collector || !collector[0] || upload_url(collector, url, sizeof url) != 0) {
        snprintf(r->why, sizeof r->why, "no usable collector URL");
        return LP_EINVAL;
    }
    struct curl_slist *h, *h2;
    int rc;
    CURL *c = open_handle(token, &h, r, &rc);
    if (!c)
        return rc;
    static const char *const fixed[] = {
        "Content-Type: application/x-lowprof-profile",
        "Content-Encoding: zstd",
        "Accept: application/json",
        "Expect:", /* send the body at once, no 100-continue round trip */
    };
    rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof fixed / sizeof fixed[0]; i++) {
        if ((h2 = curl_slist_append(h, fixed[i])) == NULL)
            rc = LP_ENOMEM;
        else
            h = h2;
    }
    if (rc) {
        curl_slist_free_all(h);
        curl_easy_cleanup(c);
        snprintf(r->why, sizeof r->why, "out of memory");
        return rc;
    }
    if (timeout_ms <= 0)
        timeout_ms = 30000;
    reply rep;
    rep.len = 0;
    rep.body[0] = '\0';
    char err[CURL_ERROR_SIZE];
    err[0] = '\0';
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body ? body : "");
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)size);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms < 10000 ? timeout_ms : 10000L);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &rep);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, err);
    if (cancel) {
        curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
        curl_easy_setopt(c, CURLOPT_XFERINFODATA, (void *)cancel);
    }
    CURLcode cc = curl_easy_perform(c);
    if (cc != CURLE_OK) {
        if (cc == CURLE_ABORTED_BY_CALLBACK)
            snprintf(r->why, sizeof r->why, "interrupted");
        else
            snprintf(r->why, sizeof r->why, "%s", err[0] ? err : curl_easy_strerror(cc));
        rc = LP_EIO;
    } else {
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->http_status);
        long s = r->http_status;
        if (s >= 200 && s < 300) {
            r->duplicate = json_true(rep.body, "duplicate");
            rc = 0;
        } else {
            if (!json_string(rep.body, "error", r->why, sizeof r->why))
                snprintf(r->why, sizeof r->why, "no reason given");
            rc = s >= 400 && s < 500 && s != 429 ? LP_EINVAL : LP_EIO;
        }
    }
    curl_slist_free_all(h);
    curl_easy_cleanup(c);
    return rc;
}

int lp_upload_send(const char *collector, const char *token, const void *body, size_t size,
                   long timeout_ms, lp_upload_result *r)
{
    return lp__upload_send_cancel(collector, token, body, size, timeout_ms, NULL, r);
}

/* ---- reading from the collector ------------------------------------------------------ */

typedef struct fetched {
    lp_membuf *out;
    size_t limit;
    int over;
} fetched;

static size_t on_fetch(char *data, size_t size, size_t n, void *ctx)
{
    fetched *f = ctx;
    size_t bytes = size * n;
    if (f->out->size + bytes > f->limit) {
        f->over = 1;
        return 0; /* stops the transfer */
    }
    lp_sink s = lp_membuf_sink(f->out);
    return s.write(s.ctx, data, bytes) == 0 ? bytes : 0;
}

int lp_upload_get(const char *collector, const char *path, const char *token, size_t limit,
                  long timeout_ms, lp_membuf *out, lp_upload_result *r)
{
    memset(r, 0, sizeof *r);
    size_t n = collector ? strlen(collector) : 0;
    while (n > 0 && collector[n - 1] == '/')
        n--;
    char url[4096];
    int w = snprintf(url, sizeof url, "%.*s%s", (int)n, collector ? collector : "", path);
    if (!n || w <= 0 || (size_t)w >= sizeof url) {
        snprintf(r->why, sizeof r->why, "no usable collector URL");
        return LP_EINVAL;
    }
    struct curl_slist *h;
    int rc;
    CURL *c = open_handle(token, &h, r, &rc);
    if (!c)
        return rc;
    fetched f = {out, limit ? limit : LP_UPLOAD_MAX_PROFILE, 0};
    char err[CURL_ERROR_SIZE];
    err[0] = '\0';
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    /* The collector sends profiles zstd-compressed; libcurl here may not
     * decode zstd, so the body is taken as it comes and the caller's
     * reader (lp_upload_read) recognises the frame. */
    curl_easy_setopt(c, CURLOPT_HTTP_CONTENT_DECODING, 0L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms > 0 ? timeout_ms : 30000L);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_fetch);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &f);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, err);
    CURLcode cc = curl_easy_perform(c);
    rc = 0;
    if (f.over) {
        snprintf(r->why, sizeof r->why, "the answer is larger than %zu bytes", f.limit);
        rc = LP_ELIMIT;
    } else if (cc != CURLE_OK) {
        snprintf(r->why, sizeof r->why, "%s", err[0] ? err : curl_easy_strerror(cc));
        rc = LP_EIO;
    } else {
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->http_status);
        long s = r->http_status;
        if (s != 200) {
            /* The reason is in the body, which must be text. */
            lp_sink text = lp_membuf_sink(out);
            if (text.write(text.ctx, "", 1) != 0 ||
                !json_string((const char *)out->data, "error", r->why, sizeof r->why))
                snprintf(r->why, sizeof r->why, "HTTP status %ld", s);
            out->size = 0;
            rc = s == 404 ? LP_ENOENT : s >= 400 && s < 500 && s != 429 ? LP_EINVAL : LP_EIO;
        }
    }
    curl_slist_free_all(h);
    curl_easy_cleanup(c);
    return rc;
}
