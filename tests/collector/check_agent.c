/* The agent against the real collector: messages wait in the spool while
 * no collector answers (the oldest dropped past --max-spool, and counted),
 * all of them arrive once it is up, the spool is left empty, and a message
 * spooled again is taken as the duplicate it is, so the merged profile
 * counts every run once; `lowprof report` and `lowprof export` read that
 * merge from the collector.
 * usage: check_agent LOWPROF WORKDIR */
#define _GNU_SOURCE /* utimensat, AT_FDCWD */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "lowprof/upload.h"
#include "lp_ctest.h"

static const char *lowprof;
static char spool[4096], collector[64], token[64];

static int spooled(void)
{
    DIR *d = opendir(spool);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        n += len > 6 && strcmp(e->d_name + len - 6, ".lpmsg") == 0;
    }
    if (d)
        closedir(d);
    return n;
}

/* One message as the runtime leaves it: a plain profile file in the spool. */
static void spool_message(uint64_t seed)
{
    lp_membuf plain = {0};
    char id[65];
    lp_ctest_message(&plain, "agent-prog", seed % 2 ? "phone" : "tablet", seed, 1000, 1, id);
    lp_profile_set set;
    char why[256];
    LP_CHECK(lp_upload_read(plain.data, plain.size, 0, &set, NULL, why, sizeof why) == 0,
             "message %llu: %s", (unsigned long long)seed, why);
    LP_CHECK(lp_upload_spool_write(spool, &set, why, sizeof why) == 0, "spool: %s", why);
    /* The agent goes oldest first by modification time, which a file
     * system may keep at a few milliseconds: seed N is N minutes old. */
    char path[4096 + 80];
    snprintf(path, sizeof path, "%s/%s.lpmsg", spool, id);
    struct timespec t[2] = {{(time_t)(1700000000 + 60 * seed), 0},
                            {(time_t)(1700000000 + 60 * seed), 0}};
    LP_CHECK(utimensat(AT_FDCWD, path, t, 0) == 0, "%s: cannot set its time", path);
    lp_profile_set_fini(&set);
    lp_membuf_free(&plain);
}

static int agent(const char *max_spool)
{
    char out[8192];
    char *argv[] = {(char *)lowprof, "agent", "--once", "-q", "--spool", spool, "--collector",
                    collector, "--token", token, max_spool ? "--max-spool" : NULL,
                    (char *)max_spool, NULL};
    return lp_ctest_run(argv, out, sizeof out);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: check_agent LOWPROF WORKDIR\n");
        return 2;
    }
    lowprof = argv[1];
    const char *work = argv[2];
    char data[4096], log[4096];
    lp_ctest_fresh_dir(work);
    snprintf(data, sizeof data, "%s/data", work);
    snprintf(log, sizeof log, "%s/serve.log", work);
    snprintf(spool, sizeof spool, "%s/spool", work);
    lp_ctest_token(lowprof, data, "fleet", token, sizeof token);

    /* Nothing listens on port 1 of the loopback: the agent keeps all. */
    snprintf(collector, sizeof collector, "http://127.0.0.1:1");
    for (uint64_t i = 1; i <= 5; i++)
        spool_message(i);
    LP_CHECK(spooled() == 5, "%d messages spooled", spooled());
    LP_CHECK(agent(NULL) == 1, "the agent said it delivered to nobody");
    LP_CHECK(spooled() == 5, "the agent lost messages it could not send: %d left", spooled());

    /* Past the limit the oldest go, and are counted. */
    struct stat st;
    char one[4096 + 300];
    DIR *d = opendir(spool);
    struct dirent *e;
    uint64_t size = 0;
    while (d && (e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".lpmsg")) {
            snprintf(one, sizeof one, "%s/%s", spool, e->d_name);
            if (stat(one, &st) == 0 && (uint64_t)st.st_size > size)
                size = (uint64_t)st.st_size;
        }
    if (d)
        closedir(d);
    char limit[32];
    snprintf(limit, sizeof limit, "%llu", (unsigned long long)(3 * size + size / 2));
    LP_CHECK(agent(limit) == 1, "the agent said it delivered to nobody");
    LP_CHECK(spooled() == 3, "%d messages left within a limit of three", spooled());
    snprintf(one, sizeof one, "%s/dropped", spool);
    FILE *f = fopen(one, "r");
    unsigned long long dropped = 0;
    LP_CHECK(f && fscanf(f, "%llu", &dropped) == 1 && dropped == 2, "dropped count %llu",
             dropped);
    if (f)
        fclose(f);

    /* The collector comes up: everything left arrives. */
    unsigned port;
    pid_t pid = lp_ctest_serve(lowprof, data, log, NULL, &port);
    snprintf(collector, sizeof collector, "http://127.0.0.1:%u", port);
    LP_CHECK(agent(NULL) == 0, "the agent did not deliver (see %s)", log);
    LP_CHECK(spooled() == 0, "%d messages still in the spool", spooled());

    /* A message spooled again is the same message: stored once. */
    spool_message(5);
    LP_CHECK(agent(NULL) == 0 && spooled() == 0, "a resent message was not taken");

    lp_ctest_resp r;
    LP_CHECK(lp_ctest_http(port, "GET", "/api/v1/builds?program=agent-prog", token, NULL, 0, 0,
                           &r) == 0 &&
                 r.status == 200,
             "builds: %d", r.status);
    const char *b = strstr((const char *)r.body.data, "\"build_id\":\"");
    LP_CHECK(b != NULL, "no build listed: %s", (const char *)r.body.data);
    char build[96] = "";
    sscanf(b + 12, "%95[0-9a-f]", build);
    lp_ctest_resp_free(&r);
    char path[256];
    snprintf(path, sizeof path, "/api/v1/profile?program=agent-prog&build=%s", build);
    LP_CHECK(lp_ctest_http(port, "GET", path, token, NULL, 0, 0, &r) == 0 && r.status == 200,
             "profile: %d", r.status);
    const char *body = (const char *)r.body.data;
    LP_CHECK(strstr(body, "\"runs\":3,") != NULL, "the merge has not the three runs: %.300s",
             body);
    LP_CHECK(strstr(body, "\"devices\":2,") != NULL, "two devices expected: %.300s", body);
    lp_ctest_resp_free(&r);

    /* The same merge in the terminal and through an exporter, as a file
     * would give it; the latest build is taken when none is named. */
    static char out[1 << 16];
    char *report[] = {(char *)lowprof, "report", "--collector", collector, "--token", token,
                      "--program", "agent-prog", "--type", "method", NULL};
    LP_CHECK(lp_ctest_run(report, out, sizeof out) == 0, "report --collector failed");
    LP_CHECK(strstr(out, "merged        3 runs from 2 devices") != NULL &&
                 strstr(out, "lp_ctest_planted_hot") != NULL,
             "report --collector printed: %.600s", out);
    LP_CHECK(strstr(out, "3,000") != NULL, "the hot method's 3 x 1000 calls: %.600s", out);
    char *export[] = {(char *)lowprof, "export", "--format", "csv", "--collector", collector,
                      "--token", token, "--program", "agent-prog", "--build", build, NULL};
    LP_CHECK(lp_ctest_run(export, out, sizeof out) == 0 &&
                 strstr(out, "lp_ctest_planted_hot") != NULL,
             "export --collector printed: %.600s", out);
    char *missing[] = {(char *)lowprof, "report", "--collector", collector, "--token", token,
                       "--program", "no-such-prog", NULL};
    LP_CHECK(lp_ctest_run(missing, out, sizeof out) == 1, "a missing program is an error");
    LP_CHECK(lp_ctest_stop(pid) == 0, "the collector did not stop cleanly");
    printf("check_agent: ok\n");
    return 0;
}
