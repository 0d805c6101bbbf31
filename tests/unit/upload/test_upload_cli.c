/* Tests of `lowprof push` and `lowprof agent` as a user runs them, against
 * the loopback responder (loopback_responder.h): the line printed per file,
 * the exit status, the token and collector taken from the environment, the
 * same file pushed twice carrying the same message id, --device changing
 * it, and the agent emptying a spool. argv[1] is the lowprof binary. */
#define _XOPEN_SOURCE 700 /* realpath, mkdtemp, popen */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../lp_test.h"

/* Paths here are a temporary folder plus short names: gcc's worry that
 * they might not fit 4 KB is noise (clang has no such warning). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#include "../../../src/upload/upload_internal.h"
#include "loopback_responder.h"

static const char *lowprof;
static char root[] = "/tmp/lowprof-cli-XXXXXX";

/* Runs a shell command line; out gets its standard output. Returns the
 * exit status, or -1. */
static int run(const char *cmd, char *out, size_t cap)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void write_profile(const char *name, int with_build_id, size_t cut)
{
    static const uint8_t bid[6] = {0xc1, 0x1c, 0x00, 0x01, 0x02, 0x03};
    lp_profile_set s;
    memset(&s, 0, sizeof s);
    LP_CHECK(lp_meta_set(&s.meta, "program", "/opt/cli-demo") == 0);
    LP_CHECK(lp_module_map_add(&s.modules, "/opt/cli-demo", 0x400000, 0x1000, 0, bid,
                               with_build_id ? sizeof bid : 0) == 0);
    lp_profile *p;
    LP_CHECK(lp_profile_set_add(&s, LP_PROF_METHOD, LP_PHASE_NONE, &p) == 0);
    for (uint64_t i = 0; i < 20; i++)
        lp_table_upsert(&p->table, (lp_key){0x400100 + 4 * i, 0})->v[0] = i + 1;
    lp_membuf file = {0};
    LP_CHECK(lp_profile_file_write(&s, lp_membuf_sink(&file)) == 0);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, name);
    FILE *f = fopen(path, "wb");
    LP_CHECK(f != NULL);
    if (f) {
        fwrite(file.data, 1, file.size - cut, f);
        fclose(f);
    }
    lp_membuf_free(&file);
    lp_profile_set_fini(&s);
}

/* The identity of the last body the responder received. */
static int last_id(lp_upload_id *id)
{
    lp_profile_set s;
    char why[256];
    pthread_mutex_lock(&mu);
    int rc = lp_upload_unpack(seen_body, seen_body_len, 0, &s, id, NULL, why, sizeof why);
    pthread_mutex_unlock(&mu);
    if (rc == 0)
        lp_profile_set_fini(&s);
    return rc;
}

static void test_push(void)
{
    write_profile("run.lpprof", 1, 0);
    write_profile("cut.lpprof", 1, 9);
    write_profile("nobid.lpprof", 0, 0);
    char cmd[8192], out[8192], line[512];
    answer a1 = {201, "{\"stored\":true,\"duplicate\":false}", 0};
    set_script(&a1, 1);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && '%s' push --collector %s --token tok-9 run.lpprof cut.lpprof "
             "nobid.lpprof",
             root, lowprof, base_url);
    LP_CHECK(run(cmd, out, sizeof out) == 1);
    lp_upload_id first;
    LP_CHECK(last_id(&first) == 0);
    snprintf(line, sizeof line, "run.lpprof: stored as %s\n", first.message_id);
    LP_CHECK(strstr(out, line) != NULL);
    LP_CHECK(strstr(out, "cut.lpprof: rejected: profile file: offset ") != NULL);
    LP_CHECK(strstr(out, "nobid.lpprof: rejected: no module has a build id") != NULL);
    LP_CHECK(head_has("\r\nAuthorization: Bearer tok-9\r\n"));
    LP_CHECK(strcmp(first.build_id, "c11c00010203") == 0);
    LP_CHECK(strcmp(first.program, "/opt/cli-demo") == 0);
    pthread_mutex_lock(&mu);
    LP_CHECK_EQ_U64(requests, 1); /* the two bad files were not sent */
    pthread_mutex_unlock(&mu);
    if (!strstr(out, line))
        fprintf(stderr, "push printed:\n%s", out);

    /* Again: the same id, and the collector's "duplicate" is success. */
    answer a2 = {200, "{\"stored\":true,\"duplicate\":true}", 0};
    set_script(&a2, 1);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' push --collector %s --token tok-9 run.lpprof",
             root, lowprof, base_url);
    LP_CHECK(run(cmd, out, sizeof out) == 0);
    snprintf(line, sizeof line, "run.lpprof: already stored as %s\n", first.message_id);
    LP_CHECK(strcmp(out, line) == 0);
    lp_upload_id again;
    LP_CHECK(last_id(&again) == 0);
    LP_CHECK(strcmp(again.message_id, first.message_id) == 0);

    /* From the environment, with another device: another message. */
    set_script(&a1, 1);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && LOWPROF_TOKEN=env-tok LOWPROF_COLLECTOR=%s '%s' push --device dev-9 "
             "run.lpprof",
             root, base_url, lowprof);
    LP_CHECK(run(cmd, out, sizeof out) == 0);
    LP_CHECK(head_has("\r\nAuthorization: Bearer env-tok\r\n"));
    lp_upload_id other;
    LP_CHECK(last_id(&other) == 0);
    LP_CHECK(strcmp(other.device, "dev-9") == 0);
    LP_CHECK(strcmp(other.message_id, first.message_id) != 0);

    /* The collector refuses, or is away. */
    answer a3[] = {{400, "{\"error\":\"unknown project\"}", 0}, {503, NULL, 0}};
    set_script(a3, 2);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && '%s' push --collector %s --token t run.lpprof run.lpprof", root,
             lowprof, base_url);
    LP_CHECK(run(cmd, out, sizeof out) == 1);
    LP_CHECK(strstr(out, "run.lpprof: rejected: unknown project (HTTP 400)\n") != NULL);
    LP_CHECK(strstr(out, "run.lpprof: not sent: no reason given (HTTP 503)\n") != NULL);

    /* A bad command line. */
    snprintf(cmd, sizeof cmd, "'%s' push --token t run.lpprof 2>/dev/null", lowprof);
    LP_CHECK(run(cmd, out, sizeof out) == 2);
    snprintf(cmd, sizeof cmd, "'%s' push --collector %s --token t 2>/dev/null", lowprof,
             base_url);
    LP_CHECK(run(cmd, out, sizeof out) == 2);
}

static void test_agent(void)
{
    char spool[4096], why[256];
    snprintf(spool, sizeof spool, "%s/spool", root);
    for (uint64_t k = 0; k < 2; k++) {
        static const uint8_t bid[4] = {1, 2, 3, 4};
        lp_profile_set s;
        memset(&s, 0, sizeof s);
        LP_CHECK(lp_meta_set(&s.meta, "program", "/opt/agent-demo") == 0);
        LP_CHECK(lp_module_map_add(&s.modules, "/opt/agent-demo", 0x400000, 0x1000, 0, bid,
                                   sizeof bid) == 0);
        lp_profile *p;
        LP_CHECK(lp_profile_set_add(&s, LP_PROF_BLOCK, LP_PHASE_NONE, &p) == 0);
        lp_table_upsert(&p->table, (lp_key){0x400000 + k, 0})->v[0] = 5;
        LP_CHECK(lp_upload_spool_write(spool, &s, why, sizeof why) == 0);
        lp_profile_set_fini(&s);
    }
    answer a[] = {{201, "{}", 0}, {201, "{}", 0}};
    set_script(a, 2);
    char cmd[8192], out[4096];
    snprintf(cmd, sizeof cmd, "'%s' agent --spool '%s' --collector %s --token t --once -q",
             lowprof, spool, base_url);
    LP_CHECK(run(cmd, out, sizeof out) == 0);
    lp__spool_entry *v;
    size_t n = 99;
    LP_CHECK(lp__spool_list(spool, &v, &n, why, sizeof why) == 0);
    LP_CHECK_EQ_U64(n, 0);
    free(v);
    pthread_mutex_lock(&mu);
    LP_CHECK_EQ_U64(requests, 2);
    pthread_mutex_unlock(&mu);

    snprintf(cmd, sizeof cmd, "'%s' agent --spool '%s' --collector %s --token t "
                              "--max-spool 12Q 2>/dev/null",
             lowprof, spool, base_url);
    LP_CHECK(run(cmd, out, sizeof out) == 2);
    snprintf(cmd, sizeof cmd, "'%s' agent --collector %s --token t 2>/dev/null", lowprof,
             base_url);
    LP_CHECK(run(cmd, out, sizeof out) == 2);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s LOWPROF\n", argv[0]);
        return 2;
    }
    /* The commands run from the temporary folder: an absolute path. */
    static char abs_lowprof[4096];
    if (!realpath(argv[1], abs_lowprof)) {
        perror(argv[1]);
        return 1;
    }
    lowprof = abs_lowprof;
    if (start_responder() != 0) {
        perror("loopback responder");
        return 77;
    }
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    test_push();
    test_agent();
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", root);
    return lp_test_done();
}
