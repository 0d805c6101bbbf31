/* Two collectors sharing one PostgreSQL database, as a fleet runs them
 * behind one address: uploads sent to either are stored once (the same
 * message sent to both included), and each collector's merged view of the
 * build counts every upload, whichever collector took it.
 * usage: check_fleet postgresql://URI LOWPROF WORKDIR
 * (tests/store/check_store_pg.sh starts the server and passes its URI). */
#include <stdio.h>
#include <string.h>

#include "lp_ctest.h"

static int upload(unsigned port, const char *token, uint64_t seed, int *out_dup)
{
    lp_membuf m = {0};
    lp_ctest_message(&m, "fleet-prog", seed % 3 ? "edge" : "core", seed, 100, 0, NULL);
    lp_ctest_resp r;
    LP_CHECK(lp_ctest_http(port, "POST", "/api/v1/profiles", token, m.data, m.size, 0, &r) == 0,
             "upload %llu: no answer", (unsigned long long)seed);
    int status = r.status;
    *out_dup = strstr((const char *)r.body.data, "\"duplicate\":true") != NULL;
    lp_ctest_resp_free(&r);
    lp_membuf_free(&m);
    return status;
}

/* The merged view's "runs" and the hot method's estimate, from one
 * collector. */
static void view(unsigned port, const char *token, const char *build, unsigned long long *runs,
                 int *has_total)
{
    char path[256];
    snprintf(path, sizeof path, "/api/v1/profile?program=fleet-prog&build=%s", build);
    lp_ctest_resp r;
    LP_CHECK(lp_ctest_http(port, "GET", path, token, NULL, 0, 0, &r) == 0 && r.status == 200,
             "profile from port %u: %d", port, r.status);
    const char *body = (const char *)r.body.data;
    const char *p = strstr(body, "\"runs\":");
    *runs = 0;
    LP_CHECK(p && sscanf(p + 7, "%llu", runs) == 1, "no runs in %.200s", body);
    /* 30 runs of 100 calls each: the hot method's merged count. */
    *has_total = strstr(body, "3000") != NULL;
    lp_ctest_resp_free(&r);
}

int main(int argc, char **argv)
{
    if (argc != 4 || strncmp(argv[1], "postgres", 8) != 0) {
        fprintf(stderr, "usage: check_fleet postgresql://URI LOWPROF WORKDIR\n");
        return 2;
    }
    const char *uri = argv[1], *lowprof = argv[2], *work = argv[3];
    lp_ctest_fresh_dir(work);
    char token[64], log_a[4096], log_b[4096];
    lp_ctest_token(lowprof, uri, "fleet", token, sizeof token);
    snprintf(log_a, sizeof log_a, "%s/serve-a.log", work);
    snprintf(log_b, sizeof log_b, "%s/serve-b.log", work);
    unsigned a, b;
    pid_t pa = lp_ctest_serve(lowprof, uri, log_a, NULL, &a);
    pid_t pb = lp_ctest_serve(lowprof, uri, log_b, NULL, &b);

    int dup;
    for (uint64_t i = 1; i <= 30; i++)
        LP_CHECK(upload(i % 2 ? a : b, token, i, &dup) == 201 && !dup,
                 "upload %llu was not stored as new", (unsigned long long)i);
    /* The same messages again, each to the other collector: duplicates. */
    for (uint64_t i = 1; i <= 30; i += 7)
        LP_CHECK(upload(i % 2 ? b : a, token, i, &dup) == 200 && dup,
                 "resent upload %llu was not a duplicate", (unsigned long long)i);

    lp_ctest_resp r;
    LP_CHECK(lp_ctest_http(b, "GET", "/api/v1/builds?program=fleet-prog", token, NULL, 0, 0,
                           &r) == 0 &&
                 r.status == 200,
             "builds: %d", r.status);
    const char *q = strstr((const char *)r.body.data, "\"build_id\":\"");
    char build[96] = "";
    LP_CHECK(q && sscanf(q + 12, "%95[0-9a-f]", build) == 1, "no build listed");
    LP_CHECK(strstr((const char *)r.body.data, "\"uploads\":30,") != NULL,
             "30 uploads expected: %.300s", (const char *)r.body.data);
    lp_ctest_resp_free(&r);
    unsigned long long runs_a, runs_b;
    int total_a, total_b;
    view(a, token, build, &runs_a, &total_a);
    view(b, token, build, &runs_b, &total_b);
    LP_CHECK(runs_a == 30 && runs_b == 30 && total_a && total_b,
             "merged views: %llu and %llu runs (30 expected, with 3000 calls)", runs_a, runs_b);
    /* One more upload to a: b's cached merge folds it in. */
    LP_CHECK(upload(a, token, 31, &dup) == 201, "upload 31");
    view(b, token, build, &runs_b, &total_b);
    LP_CHECK(runs_b == 31, "b's merge missed a's upload: %llu runs", runs_b);
    LP_CHECK(lp_ctest_stop(pa) == 0 && lp_ctest_stop(pb) == 0, "a collector did not stop");
    printf("check_fleet: ok\n");
    return 0;
}
