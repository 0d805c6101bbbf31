/* `lowprof serve` end to end over loopback: tokens, uploads and their
 * refusals (each with its status and reason), duplicates, tenants that
 * cannot see each other, the rate limit, the read API with the planted
 * hottest function named, the merged profile as a file, the page, and a
 * clean stop on SIGTERM.
 *
 * usage: check_serve [postgresql://URI] LOWPROF WORKDIR
 * (with a URI, the collector stores there instead of in WORKDIR/data) */
#define _POSIX_C_SOURCE 200809L /* kill, nanosleep */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "lowprof/trace.h"
#include "lowprof/upload.h"
#include "lp_ctest.h"

static unsigned port;

static int post(const char *token, const void *body, size_t size, unsigned flags,
                lp_ctest_resp *r)
{
    LP_CHECK(lp_ctest_http(port, "POST", "/api/v1/profiles", token, body, size, flags, r) == 0,
             "POST /api/v1/profiles: no answer");
    return r->status;
}

static int get(const char *token, const char *path, lp_ctest_resp *r)
{
    LP_CHECK(lp_ctest_http(port, "GET", path, token, NULL, 0, 0, r) == 0, "GET %s: no answer",
             path);
    return r->status;
}

/* Checks status and that the body is {"error":"..."} mentioning what. */
static void expect_error(const lp_ctest_resp *r, int status, const char *what, const char *label)
{
    LP_CHECK(r->status == status, "%s: status %d, want %d (%s)", label, r->status, status,
             (const char *)r->body.data);
    LP_CHECK(strstr((const char *)r->body.data, "{\"error\":\"") != NULL, "%s: no reason: %s",
             label, (const char *)r->body.data);
    if (what)
        LP_CHECK(strstr((const char *)r->body.data, what) != NULL, "%s: reason '%s' lacks '%s'",
                 label, (const char *)r->body.data, what);
    printf("ok  %-34s %d %s", label, r->status, (const char *)r->body.data);
}

int main(int argc, char **argv)
{
    const char *uri = NULL;
    if (argc == 4 && strncmp(argv[1], "postgres", 8) == 0) {
        uri = argv[1];
        argc--;
        argv++;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: check_serve [postgresql://URI] LOWPROF WORKDIR\n");
        return 2;
    }
    const char *lowprof = argv[1], *work = argv[2];
    char data[4096], log[4096];
    lp_ctest_fresh_dir(work);
    snprintf(data, sizeof data, "%s", uri ? uri : "");
    if (!uri)
        snprintf(data, sizeof data, "%s/data", work);
    snprintf(log, sizeof log, "%s/serve.log", work);

    char ta[64], tb[64];
    lp_ctest_token(lowprof, data, "alpha", ta, sizeof ta);
    lp_ctest_token(lowprof, data, "beta", tb, sizeof tb);
    LP_CHECK(strcmp(ta, tb) != 0, "two projects got one token");

    const char *extra[] = {"--max-upload", "64k", "--max-profile", "1M", NULL};
    pid_t pid = lp_ctest_serve(lowprof, data, log, extra, &port);
    printf("serving on port %u\n", port);
    lp_ctest_resp r;

    LP_CHECK(get(NULL, "/api/v1/health", &r) == 200, "health: %d", r.status);
    LP_CHECK(strstr((char *)r.body.data, uri ? "\"store\":\"postgresql\"" : "\"store\":\"sqlite\""),
             "health: %s", (char *)r.body.data);
    lp_ctest_resp_free(&r);

    /* A token created while the server runs is taken at once. */
    char tc[64];
    lp_ctest_token(lowprof, data, "gamma", tc, sizeof tc);
    LP_CHECK(get(tc, "/api/v1/programs", &r) == 200, "late token: %d", r.status);
    lp_ctest_resp_free(&r);

    /* ---- a new message, then the same again ---- */
    lp_membuf m1 = {0}, m2 = {0}, mb = {0};
    char id1[65], id2[65];
    lp_ctest_message(&m1, "ctest-prog", "dev-1", 1, 1000000, 0, id1);
    LP_CHECK(post(ta, m1.data, m1.size, 0, &r) == 201, "upload: %d %s", r.status,
             (char *)r.body.data);
    char want[200];
    snprintf(want, sizeof want, "{\"stored\":true,\"duplicate\":false,\"message_id\":\"%s\"}", id1);
    LP_CHECK(strstr((char *)r.body.data, want), "upload reply: %s", (char *)r.body.data);
    printf("ok  %-34s %d %s", "new upload", r.status, (char *)r.body.data);
    lp_ctest_resp_free(&r);
    LP_CHECK(post(ta, m1.data, m1.size, 0, &r) == 200, "resend: %d", r.status);
    LP_CHECK(strstr((char *)r.body.data, "\"duplicate\":true"), "resend: %s", (char *)r.body.data);
    printf("ok  %-34s %d %s", "resent upload", r.status, (char *)r.body.data);
    lp_ctest_resp_free(&r);

    /* A plain (uncompressed) profile file is taken too, with Expect. */
    lp_ctest_message(&m2, "ctest-prog", "dev-2", 2, 500000, 1, id2);
    LP_CHECK(post(ta, m2.data, m2.size, LP_CTEST_EXPECT, &r) == 201, "plain upload: %d %s",
             r.status, (char *)r.body.data);
    lp_ctest_resp_free(&r);

    /* Names are the device's: a quote, markup and non-ASCII text come
     * back as valid, escaped JSON; bytes that are not UTF-8 are refused. */
    lp_membuf me = {0};
    lp_ctest_message(&me, "evil", "dev\xff", 5, 3, 0, NULL);
    post(tc, me.data, me.size, 0, &r);
    expect_error(&r, 400, "not UTF-8", "device name not UTF-8");
    lp_ctest_resp_free(&r);
    lp_membuf_free(&me);
    lp_ctest_message(&me, "evil\"<prog>", "dev\xc3\xa9<b>", 4, 3, 0, NULL);
    LP_CHECK(post(tc, me.data, me.size, 0, &r) == 201, "odd names: %d %s", r.status,
             (char *)r.body.data);
    lp_ctest_resp_free(&r);
    lp_membuf_free(&me);
    get(tc, "/api/v1/programs", &r);
    LP_CHECK(r.status == 200 && strstr((char *)r.body.data, "\"program\":\"evil\\\"\\u003cprog>\""),
             "escaped program: %s", (char *)r.body.data);
    lp_ctest_resp_free(&r);
    get(tc, "/api/v1/builds?program=evil%22%3Cprog%3E", &r);
    const char *ebid = strstr((char *)r.body.data, "\"build_id\":\"");
    LP_CHECK(r.status == 200 && ebid, "odd program's builds: %d %s", r.status, (char *)r.body.data);
    char epath[512];
    snprintf(epath, sizeof epath, "/api/v1/uploads?program=evil%%22%%3Cprog%%3E&build=%.*s",
             (int)strcspn(ebid + 12, "\""), ebid + 12);
    lp_ctest_resp_free(&r);
    get(tc, epath, &r);
    LP_CHECK(r.status == 200 && strstr((char *)r.body.data, "\"device\":\"dev\xc3\xa9\\u003cb>\""),
             "escaped device: %s", (char *)r.body.data);
    lp_ctest_resp_free(&r);
    printf("ok  names with quotes, markup and non-ASCII text are escaped\n");

    /* ---- refusals ---- */
    post(NULL, m1.data, m1.size, 0, &r);
    expect_error(&r, 401, "token", "no token");
    lp_ctest_resp_free(&r);
    post("lpt_000000000000000000000000000000000000", m1.data, m1.size, 0, &r);
    expect_error(&r, 401, "unknown token", "unknown token");
    lp_ctest_resp_free(&r);

    uint8_t garbage[3000];
    lp_rng g;
    lp_rng_seed(&g, 7);
    for (size_t i = 0; i < sizeof garbage; i++)
        garbage[i] = (uint8_t)lp_rng_next(&g);
    post(ta, garbage, sizeof garbage, 0, &r);
    expect_error(&r, 400, NULL, "garbage");
    lp_ctest_resp_free(&r);

    post(ta, m1.data, m1.size / 2, 0, &r);
    expect_error(&r, 400, NULL, "truncated zstd");
    lp_ctest_resp_free(&r);
    post(ta, m2.data, m2.size - 9, 0, &r);
    expect_error(&r, 400, "profile file", "truncated profile");
    lp_ctest_resp_free(&r);

    lp_membuf v = {0};
    lp_sink vs = lp_membuf_sink(&v);
    vs.write(vs.ctx, m2.data, m2.size);
    v.data[10] = 99; /* the container's version field */
    post(ta, v.data, v.size, 0, &r);
    expect_error(&r, 400, NULL, "wrong version");
    lp_ctest_resp_free(&r);
    lp_membuf_free(&v);

    /* No build id anywhere: the message cannot be told from other builds'. */
    {
        lp_profile_set s;
        memset(&s, 0, sizeof s);
        lp_meta_set(&s.meta, "program", "ctest-prog");
        lp_meta_set(&s.meta, "message-id", "00112233445566778899aabbccddeeff");
        lp_profile *p;
        lp_profile_set_add(&s, LP_PROF_METHOD, LP_PHASE_NONE, &p);
        lp_membuf f = {0};
        lp_profile_file_write(&s, lp_membuf_sink(&f));
        lp_profile_set_fini(&s);
        post(ta, f.data, f.size, 0, &r);
        expect_error(&r, 400, "build-id", "no identity");
        lp_ctest_resp_free(&r);
        lp_membuf_free(&f);
    }

    uint8_t *big = calloc(1, 100000);
    LP_CHECK(big, "calloc");
    post(ta, big, 100000, LP_CTEST_EXPECT, &r);
    expect_error(&r, 413, NULL, "oversize (Content-Length)");
    lp_ctest_resp_free(&r);
    post(ta, big, 100000, LP_CTEST_CHUNKED, &r);
    expect_error(&r, 413, NULL, "oversize (chunked)");
    lp_ctest_resp_free(&r);

    /* A decompression bomb: 8 MB of zeros in a frame of a few hundred
     * bytes, against --max-profile 1M; with and without a declared size. */
    size_t bomb_n = 8 << 20;
    uint8_t *zeros = calloc(1, bomb_n);
    size_t cap = ZSTD_compressBound(bomb_n);
    uint8_t *bomb = malloc(cap);
    LP_CHECK(zeros && bomb, "alloc");
    size_t bn = ZSTD_compress(bomb, cap, zeros, bomb_n, 19);
    LP_CHECK(!ZSTD_isError(bn) && bn < 65536, "bomb: %zu bytes", bn);
    post(ta, bomb, bn, 0, &r);
    expect_error(&r, 413, NULL, "bomb (declared size)");
    lp_ctest_resp_free(&r);
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 0);
    ZSTD_outBuffer ob = {bomb, cap, 0};
    ZSTD_inBuffer ib = {zeros, bomb_n, 0};
    while (ZSTD_compressStream2(cc, &ob, &ib, ZSTD_e_end) != 0)
        ;
    ZSTD_freeCCtx(cc);
    post(ta, bomb, ob.pos, 0, &r);
    expect_error(&r, 413, NULL, "bomb (streamed)");
    lp_ctest_resp_free(&r);
    free(zeros);
    free(bomb);
    free(big);

    /* ---- tenants ---- */
    lp_ctest_message(&mb, "beta-prog", "dev-b", 3, 42, 0, NULL);
    LP_CHECK(post(tb, mb.data, mb.size, 0, &r) == 201, "beta upload: %d", r.status);
    lp_ctest_resp_free(&r);
    get(ta, "/api/v1/programs", &r);
    LP_CHECK(r.status == 200 && strstr((char *)r.body.data, "\"ctest-prog\"") &&
                 !strstr((char *)r.body.data, "beta-prog"),
             "alpha's programs: %s", (char *)r.body.data);
    LP_CHECK(strstr((char *)r.body.data, "\"uploads\":2"), "alpha's uploads: %s",
             (char *)r.body.data);
    lp_ctest_resp_free(&r);
    get(tb, "/api/v1/programs", &r);
    LP_CHECK(r.status == 200 && strstr((char *)r.body.data, "beta-prog") &&
                 !strstr((char *)r.body.data, "ctest-prog"),
             "beta's programs: %s", (char *)r.body.data);
    lp_ctest_resp_free(&r);
    get(tb, "/api/v1/builds?program=ctest-prog", &r);
    expect_error(&r, 404, NULL, "beta reads alpha's builds");
    lp_ctest_resp_free(&r);
    get(NULL, "/api/v1/programs", &r);
    expect_error(&r, 401, NULL, "programs without token");
    lp_ctest_resp_free(&r);

    /* The build id, from alpha's build list. */
    get(ta, "/api/v1/builds?program=ctest-prog", &r);
    LP_CHECK(r.status == 200, "builds: %d", r.status);
    const char *bid = strstr((char *)r.body.data, "\"build_id\":\"");
    LP_CHECK(bid, "builds: %s", (char *)r.body.data);
    char build[100];
    snprintf(build, sizeof build, "%.*s", (int)strcspn(bid + 12, "\""), bid + 12);
    lp_ctest_resp_free(&r);
    char path[512];
    snprintf(path, sizeof path, "/api/v1/profile?program=ctest-prog&build=%s", build);
    get(tb, path, &r);
    expect_error(&r, 404, NULL, "beta reads alpha's profile");
    lp_ctest_resp_free(&r);
    snprintf(path, sizeof path, "/api/v1/uploads?program=ctest-prog&build=%s", build);
    get(tb, path, &r);
    expect_error(&r, 404, NULL, "beta reads alpha's uploads");
    lp_ctest_resp_free(&r);
    get(ta, path, &r);
    LP_CHECK(r.status == 200 && strstr((char *)r.body.data, id1) &&
                 strstr((char *)r.body.data, id2) && strstr((char *)r.body.data, "\"dev-2\""),
             "alpha's uploads: %s", (char *)r.body.data);
    lp_ctest_resp_free(&r);

    /* ---- the merged profile ---- */
    snprintf(path, sizeof path, "/api/v1/profile?program=ctest-prog&build=%s&top=5", build);
    get(ta, path, &r);
    LP_CHECK(r.status == 200, "profile: %d %s", r.status, (char *)r.body.data);
    const char *body = (char *)r.body.data;
    const char *meth = strstr(body, "\"type\":\"method\"");
    LP_CHECK(meth, "no method table: %s", body);
    const char *first = strstr(meth, "\"name\":\"");
    LP_CHECK(first && strncmp(first + 8, "lp_ctest_planted_hot\"", 21) == 0,
             "hottest method is not lp_ctest_planted_hot: %.300s", meth);
    LP_CHECK(strstr(meth, "\"v\":[1500000,"), "merged count of the hot method: %.400s", meth);
    LP_CHECK(strstr(body, "\"runs\":2") && strstr(body, "\"devices\":2"), "runs/devices: %.300s",
             body);
    LP_CHECK(strstr(body, "\"graph\":{\"source\":\"call-graph\""), "no call graph: %s", body);
    printf("ok  merged profile names the hot method (%zu bytes of JSON)\n", r.body.size);
    lp_ctest_resp_free(&r);

    snprintf(path, sizeof path, "/api/v1/profile?program=ctest-prog&build=%s&format=lpprof",
             build);
    get(ta, path, &r);
    char hv[128];
    LP_CHECK(r.status == 200 && lp_ctest_header(&r, "Content-Encoding", hv, sizeof hv) &&
                 strcmp(hv, "zstd") == 0,
             "lpprof: %d", r.status);
    lp_profile_set merged;
    lp_upload_id mid;
    char why[256];
    int rc = lp_upload_unpack(r.body.data, r.body.size, 1 << 26, &merged, &mid, NULL, why,
                              sizeof why);
    LP_CHECK(rc == 0, "the merged file does not unpack: %s", why);
    lp_profile *mp = lp_profile_set_find(&merged, LP_PROF_METHOD, LP_PHASE_NONE);
    LP_CHECK(mp, "merged file has no method profile");
    uint64_t hot_count = 0;
    size_t cur = 0;
    for (lp_entry *e; (e = lp_table_next(&mp->table, &cur));)
        if (e->v[0] > hot_count)
            hot_count = e->v[0];
    LP_CHECK(hot_count == 1500000, "merged file: hottest count %llu", (unsigned long long)hot_count);
    lp_profile_set_fini(&merged);
    lp_ctest_resp_free(&r);
    printf("ok  merged profile as a file\n");

    get(ta, "/", &r);
    LP_CHECK(r.status == 200 && strstr((char *)r.body.data, "<!DOCTYPE html>") &&
                 strstr((char *)r.body.data, "lowprof collector") &&
                 !strstr((char *)r.body.data, "<script src") &&
                 !strstr((char *)r.body.data, "<link") && !strstr((char *)r.body.data, "url(") &&
                 !strstr((char *)r.body.data, "src=\"http") &&
                 !strstr((char *)r.body.data, "href=\"http"),
             "page: %d, or it loads something from elsewhere", r.status);
    LP_CHECK(lp_ctest_header(&r, "Content-Type", hv, sizeof hv) && strstr(hv, "text/html"),
             "page type");
    lp_ctest_resp_free(&r);
    get(ta, "/nothing-here", &r);
    expect_error(&r, 404, NULL, "unknown path");
    lp_ctest_resp_free(&r);

    int st = lp_ctest_stop(pid);
    LP_CHECK(st == 0, "serve exit status %d after SIGTERM (see %s)", st, log);
    printf("ok  stopped with status 0\n");

    /* ---- the rate limit: 1 upload per second per token ---- */
    const char *slow[] = {"--rate", "1", NULL};
    pid = lp_ctest_serve(lowprof, data, log, slow, &port);
    int limited = 0, stored = 0;
    for (uint64_t i = 0; i < 6; i++) {
        lp_membuf m = {0};
        lp_ctest_message(&m, "ctest-prog", "dev-rate", 100 + i, 10, 0, NULL);
        post(ta, m.data, m.size, 0, &r);
        if (r.status == 429) {
            LP_CHECK(lp_ctest_header(&r, "Retry-After", hv, sizeof hv) && atoi(hv) >= 1,
                     "429 without Retry-After");
            if (!limited)
                expect_error(&r, 429, NULL, "over the rate");
            limited++;
        } else {
            LP_CHECK(r.status == 201, "rate: status %d", r.status);
            stored++;
        }
        lp_ctest_resp_free(&r);
        lp_membuf_free(&m);
    }
    LP_CHECK(limited >= 4 && stored >= 1, "rate 1/s: %d stored, %d refused of 6", stored, limited);
    /* Other tokens have their own bucket. */
    lp_membuf m3 = {0};
    lp_ctest_message(&m3, "beta-prog", "dev-b", 200, 1, 0, NULL);
    LP_CHECK(post(tb, m3.data, m3.size, 0, &r) == 201, "beta under alpha's limit: %d", r.status);
    lp_ctest_resp_free(&r);
    lp_membuf_free(&m3);
    st = lp_ctest_stop(pid);
    LP_CHECK(st == 0, "second serve exit status %d", st);

    lp_membuf_free(&m1);
    lp_membuf_free(&m2);
    lp_membuf_free(&mb);
    printf("PASS\n");
    return 0;
}
