/* Unit tests of the HTTP client and the agent's handling of answers
 * (src/upload/upload_send.c, upload_agent.c), against a responder this
 * test runs on 127.0.0.1 (loopback_responder.h). The responder reads
 * one request per connection, keeps what it saw (path, headers, body) and
 * gives the next answer from a script: a status and a body, or a pause
 * longer than the client's timeout. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <sys/stat.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lp_test.h"

/* Paths here are a temporary folder plus short names: gcc's worry that
 * they might not fit 4 KB is noise (clang has no such warning). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#include "../../../src/upload/upload_internal.h"

#include "loopback_responder.h"


static void test_answers(void)
{
    static const uint8_t body[] = "\x28\xb5\x2f\xfd pretend this is a message";
    lp_upload_result r;
    answer a[] = {
        {201, "{\"stored\":true,\"duplicate\":false,\"message_id\":\"ab\"}", 0},
        {200, "{\"stored\":true, \"duplicate\" : true,\"message_id\":\"ab\"}", 0},
        {400, "{\"error\":\"meta program: missing or empty\"}", 0},
        {413, "{\"error\":\"body over 16777216 bytes\"}", 0},
        {429, "{\"error\":\"too many uploads\"}", 0},
        {503, NULL, 0},
        {0, NULL, 0},
    };
    set_script(a, sizeof a / sizeof a[0]);

    LP_CHECK(lp_upload_send(base_url, "tok-1", body, sizeof body, 5000, &r) == 0);
    LP_CHECK_EQ_U64(r.http_status, 201);
    LP_CHECK(r.duplicate == 0);
    LP_CHECK(head_has("POST /api/v1/profiles HTTP/1.1\r\n"));
    LP_CHECK(head_has("\r\nAuthorization: Bearer tok-1\r\n"));
    LP_CHECK(head_has("\r\nContent-Encoding: zstd\r\n"));
    LP_CHECK(head_has("\r\nContent-Type: application/x-lowprof-profile\r\n"));
    LP_CHECK(!head_has("Expect:"));
    pthread_mutex_lock(&mu);
    LP_CHECK(seen_body_len == sizeof body && memcmp(seen_body, body, sizeof body) == 0);
    pthread_mutex_unlock(&mu);

    /* The path is added once, whatever the URL ends with. */
    char url[128];
    snprintf(url, sizeof url, "%s/api/v1/profiles", base_url);
    LP_CHECK(lp_upload_send(url, "tok-1", body, sizeof body, 5000, &r) == 0);
    LP_CHECK(r.duplicate == 1);
    LP_CHECK(head_has("POST /api/v1/profiles HTTP/1.1\r\n"));

    snprintf(url, sizeof url, "%s/", base_url);
    LP_CHECK(lp_upload_send(url, "tok-1", body, sizeof body, 5000, &r) == LP_EINVAL);
    LP_CHECK_EQ_U64(r.http_status, 400);
    LP_CHECK(strcmp(r.why, "meta program: missing or empty") == 0);
    LP_CHECK(head_has("POST /api/v1/profiles HTTP/1.1\r\n"));

    LP_CHECK(lp_upload_send(base_url, "tok-1", body, sizeof body, 5000, &r) == LP_EINVAL);
    LP_CHECK_EQ_U64(r.http_status, 413);
    LP_CHECK(lp_upload_send(base_url, "tok-1", body, sizeof body, 5000, &r) == LP_EIO);
    LP_CHECK_EQ_U64(r.http_status, 429);
    LP_CHECK(strcmp(r.why, "too many uploads") == 0);
    LP_CHECK(lp_upload_send(base_url, "tok-1", body, sizeof body, 5000, &r) == LP_EIO);
    LP_CHECK_EQ_U64(r.http_status, 503);
    LP_CHECK(strcmp(r.why, "no reason given") == 0);
    /* Connection closed without an answer. */
    LP_CHECK(lp_upload_send(base_url, "tok-1", body, sizeof body, 5000, &r) == LP_EIO);
    LP_CHECK_EQ_U64(r.http_status, 0);
    LP_CHECK(r.why[0] != '\0');

    /* Too slow: the timeout ends the wait. */
    answer slow = {201, "{}", 3.0};
    set_script(&slow, 1);
    double t0 = now();
    LP_CHECK(lp_upload_send(base_url, "tok-1", body, sizeof body, 400, &r) == LP_EIO);
    double took = now() - t0;
    LP_CHECK(took < 2.5);
    LP_CHECK_EQ_U64(r.http_status, 0);
    LP_CHECK(r.why[0] != '\0');
    fprintf(stderr, "timeout after %.2f s: %s\n", took, r.why);
    /* Let the responder finish with the slow one before the next test. */
    struct timespec ts = {3, 0};
    nanosleep(&ts, NULL);

    /* Nothing listening, and no URL at all. */
    LP_CHECK(lp_upload_send("http://127.0.0.1:1", "t", body, sizeof body, 2000, &r) == LP_EIO);
    LP_CHECK_EQ_U64(r.http_status, 0);
    LP_CHECK(lp_upload_send("", "t", body, sizeof body, 2000, &r) == LP_EINVAL);
    /* A token that would add a header line is refused before connecting. */
    pthread_mutex_lock(&mu);
    size_t before = requests;
    pthread_mutex_unlock(&mu);
    LP_CHECK(lp_upload_send(base_url, "t\r\nX-Evil: 1", body, sizeof body, 2000, &r) ==
             LP_EINVAL);
    pthread_mutex_lock(&mu);
    LP_CHECK(requests == before);
    pthread_mutex_unlock(&mu);
}

static const uint8_t demo_id[4] = {0xab, 0xcd, 0xef, 0x01};

static void spool_message(const char *dir, uint64_t salt, time_t mtime)
{
    lp_profile_set s;
    memset(&s, 0, sizeof s);
    LP_CHECK(lp_meta_set(&s.meta, "program", "/opt/demo") == 0);
    LP_CHECK(lp_module_map_add(&s.modules, "/opt/demo", 0x400000, 0x1000, 0, demo_id,
                               sizeof demo_id) == 0);
    lp_profile *p;
    LP_CHECK(lp_profile_set_add(&s, LP_PROF_METHOD, LP_PHASE_NONE, &p) == 0);
    lp_table_upsert(&p->table, (lp_key){0x400500, 0})->v[0] = salt;
    char why[256];
    LP_CHECK(lp_upload_spool_write(dir, &s, why, sizeof why) == 0);
    LP_CHECK(lp_upload_identify(&s, NULL) == 0);
    char name[128];
    snprintf(name, sizeof name, "%s/%s.lpmsg", dir, lp_meta_get(&s.meta, "message-id"));
    struct timespec ts[2] = {{mtime, 0}, {mtime, 0}};
    LP_CHECK(utimensat(AT_FDCWD, name, ts, 0) == 0);
    lp_profile_set_fini(&s);
}

static size_t spooled(const char *dir)
{
    lp__spool_entry *v;
    size_t n;
    char why[256];
    if (lp__spool_list(dir, &v, &n, why, sizeof why) != 0)
        return 0;
    free(v);
    return n;
}

typedef struct agent_job {
    lp_agent_opts o;
    lp_agent_stats st;
    int rc;
} agent_job;

static void *agent_thread(void *arg)
{
    agent_job *j = arg;
    j->rc = lp_agent_run(&j->o, &j->st);
    return NULL;
}

static void test_agent(const char *root)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/spool", root);
    spool_message(dir, 1, 1000);
    spool_message(dir, 2, 2000);
    spool_message(dir, 3, 3000);
    LP_CHECK_EQ_U64(spooled(dir), 3);

    /* First a collector that is down: everything stays. */
    answer down = {503, "{\"error\":\"database unavailable\"}", 0};
    set_script(&down, 1);
    lp_agent_opts o = {0};
    o.spool = dir;
    o.collector = base_url;
    o.token = "tok-2";
    o.once = 1;
    o.quiet = 1;
    lp_agent_stats st;
    LP_CHECK(lp_agent_run(&o, &st) == 1);
    LP_CHECK_EQ_U64(st.retries, 1);
    LP_CHECK_EQ_U64(spooled(dir), 3);

    /* Then stored, refused for good, already there: the spool empties and
     * the refused one waits in rejected/ with the collector's reason. */
    answer a[] = {
        {201, "{\"stored\":true,\"duplicate\":false}", 0},
        {400, "{\"error\":\"build-id: unknown project\"}", 0},
        {200, "{\"stored\":true,\"duplicate\":true}", 0},
    };
    set_script(a, 3);
    LP_CHECK(lp_agent_run(&o, &st) == 0);
    LP_CHECK_EQ_U64(st.sent, 1);
    LP_CHECK_EQ_U64(st.rejected, 1);
    LP_CHECK_EQ_U64(st.duplicates, 1);
    LP_CHECK_EQ_U64(spooled(dir), 0);
    LP_CHECK(head_has("\r\nAuthorization: Bearer tok-2\r\n"));
    char rej[4096];
    snprintf(rej, sizeof rej, "%s/rejected", dir);
    LP_CHECK_EQ_U64(spooled(rej), 1);

    /* What the agent sent is a message that unpacks. */
    pthread_mutex_lock(&mu);
    lp_profile_set got;
    lp_upload_id id;
    char why[256];
    LP_CHECK(lp_upload_unpack(seen_body, seen_body_len, 0, &got, &id, NULL, why, sizeof why) ==
             0);
    pthread_mutex_unlock(&mu);
    LP_CHECK(strcmp(id.build_id, "abcdef01") == 0);
    lp_profile_set_fini(&got);

    /* Running on: the backoff keeps it waiting while the collector is down,
     * a new message goes once it is back, and SIGTERM stops it with 0. */
    answer b[] = {{503, NULL, 0}, {503, NULL, 0}, {201, "{}", 0}};
    set_script(b, 3);
    spool_message(dir, 4, 4000);
    agent_job j;
    memset(&j, 0, sizeof j);
    j.o = o;
    j.o.once = 0;
    j.o.interval_s = 0.1;
    pthread_t t;
    LP_CHECK(pthread_create(&t, NULL, agent_thread, &j) == 0);
    double t0 = now();
    while (spooled(dir) != 0 && now() - t0 < 10) {
        struct timespec ts = {0, 50000000};
        nanosleep(&ts, NULL);
    }
    double took = now() - t0;
    LP_CHECK_EQ_U64(spooled(dir), 0);
    /* Two failures: waits of 1 s then 2 s before the third try. */
    LP_CHECK(took > 2.5 && took < 8);
    pthread_mutex_lock(&mu);
    LP_CHECK_EQ_U64(requests, 3);
    pthread_mutex_unlock(&mu);
    kill(getpid(), SIGTERM);
    pthread_join(t, NULL);
    LP_CHECK(j.rc == 0);
    LP_CHECK_EQ_U64(j.st.sent, 1);
    LP_CHECK_EQ_U64(j.st.retries, 2);
}

int main(void)
{
    if (start_responder() != 0) {
        perror("loopback responder");
        return 77;
    }
    char root[] = "/tmp/lowprof-send-XXXXXX";
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    test_answers();
    test_agent(root);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", root);
    return lp_test_done();
}
