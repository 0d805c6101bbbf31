/* The collector's page in a real browser: headless Chromium loads
 * /?token=...&program=...&build=... from a running `lowprof serve` that
 * holds uploads; the page's script fetches the merged profile and fills
 * its tables. The DOM Chromium dumps must name the planted hottest method
 * in a table cell, show the runs, and draw the icicle; a screenshot is
 * saved for people to look at. Skips (77) without Chromium.
 *
 * usage: check_page LOWPROF WORKDIR SCREENSHOT.png */
#define _POSIX_C_SOURCE 200809L /* kill, nanosleep */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lp_ctest.h"

/* The first of the names on PATH, into out; 0 if found. */
static int find_program(const char *const *names, char *out, size_t cap)
{
    const char *path = getenv("PATH");
    for (; *names; names++) {
        const char *p = path ? path : "/usr/bin:/bin";
        while (*p) {
            size_t n = strcspn(p, ":");
            snprintf(out, cap, "%.*s/%s", (int)n, p, *names);
            if (access(out, X_OK) == 0)
                return 0;
            p += n + (p[n] == ':');
        }
    }
    return -1;
}

/* Runs argv with stdout into out (at most cap - 1 bytes), killing it
 * after timeout_ms. Returns the exit status, -1 on a timeout. */
static int run_timed(char *const argv[], char *out, size_t cap, int timeout_ms)
{
    int fds[2];
    LP_CHECK(pipe(fds) == 0, "pipe");
    pid_t pid = fork();
    LP_CHECK(pid >= 0, "fork");
    if (pid == 0) {
        dup2(fds[1], 1);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 2); /* Chromium talks a lot on stderr */
        close(fds[0]);
        close(fds[1]);
        setpgid(0, 0);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    size_t n = 0;
    double until = lp_ctest_ms() + timeout_ms;
    int timed_out = 0;
    for (;;) {
        int left = (int)(until - lp_ctest_ms());
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd pf = {fds[0], POLLIN, 0};
        if (poll(&pf, 1, left) <= 0)
            continue;
        char sink[4096];
        ssize_t got = n + 1 < cap ? read(fds[0], out + n, cap - 1 - n) : read(fds[0], sink, sizeof sink);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        if (n + 1 < cap)
            n += (size_t)got;
    }
    out[n] = '\0';
    close(fds[0]);
    if (timed_out)
        kill(-pid, SIGKILL);
    int st;
    waitpid(pid, &st, 0);
    /* Chromium leaves helper processes in its group. */
    kill(-pid, SIGKILL);
    if (timed_out)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -2;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: check_page LOWPROF WORKDIR SCREENSHOT.png\n");
        return 2;
    }
    const char *lowprof = argv[1], *work = argv[2], *shot = argv[3];
    char chromium[4096];
    const char *names[] = {"chromium", "chromium-browser", "google-chrome", NULL};
    if (find_program(names, chromium, sizeof chromium) != 0) {
        printf("SKIP: no chromium on PATH (Debian package chromium)\n");
        return 77;
    }
    char data[4096], log[4096], profile_dir[4096];
    lp_ctest_fresh_dir(work);
    snprintf(data, sizeof data, "%s/data", work);
    snprintf(log, sizeof log, "%s/serve.log", work);
    snprintf(profile_dir, sizeof profile_dir, "--user-data-dir=%s/chromium", work);
    char token[64];
    lp_ctest_token(lowprof, data, "page", token, sizeof token);
    unsigned port;
    pid_t pid = lp_ctest_serve(lowprof, data, log, NULL, &port);

    for (uint64_t i = 0; i < 3; i++) {
        lp_membuf m = {0};
        char dev[32];
        snprintf(dev, sizeof dev, "phone-%llu", (unsigned long long)i);
        lp_ctest_message(&m, "page-prog", dev, 10 + i, 200000 * (i + 1), 0, NULL);
        lp_ctest_resp r;
        LP_CHECK(lp_ctest_http(port, "POST", "/api/v1/profiles", token, m.data, m.size, 0, &r) ==
                         0 && r.status == 201,
                 "upload %llu: %d", (unsigned long long)i, r.status);
        lp_ctest_resp_free(&r);
        lp_membuf_free(&m);
    }
    lp_ctest_resp r;
    LP_CHECK(lp_ctest_http(port, "GET", "/api/v1/builds?program=page-prog", token, NULL, 0, 0,
                           &r) == 0 && r.status == 200,
             "builds");
    const char *bid = strstr((char *)r.body.data, "\"build_id\":\"");
    LP_CHECK(bid, "no build id");
    char build[100];
    snprintf(build, sizeof build, "%.*s", (int)strcspn(bid + 12, "\""), bid + 12);
    lp_ctest_resp_free(&r);

    char url[1024];
    snprintf(url, sizeof url, "http://127.0.0.1:%u/?token=%s&program=page-prog&build=%s", port,
             token, build);
    char shot_arg[4200];
    snprintf(shot_arg, sizeof shot_arg, "--screenshot=%s", shot);
    /* --virtual-time-budget lets the page's fetches finish before the
     * DOM is dumped or the picture taken. */
    char *dump[] = {chromium, "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-dev-shm-usage", "--no-first-run", profile_dir,
                    "--virtual-time-budget=10000", "--dump-dom", url, NULL};
    static char dom[1 << 20];
    int st = run_timed(dump, dom, sizeof dom, 90000);
    if (st != 0 && !strstr(dom, "<html")) {
        lp_ctest_stop(pid);
        printf("SKIP: chromium does not run here (status %d)\n", st);
        return 77;
    }
    LP_CHECK(strstr(dom, "<td class=\"l name\" title=\"0x") != NULL, "no profile table in the DOM");
    const char *cell = strstr(dom, ">lp_ctest_planted_hot</td>");
    LP_CHECK(cell, "the hot method's name is not in a table cell of the page");
    LP_CHECK(strstr(dom, "Hot methods"), "no 'Hot methods' table");
    LP_CHECK(strstr(dom, "<rect"), "no icicle drawn");
    LP_CHECK(strstr(dom, "<polyline"), "no timeline drawn");
    LP_CHECK(!strstr(dom, "class=\"err\""), "the page shows an error");
    printf("ok  the page names lp_ctest_planted_hot in its table (%zu bytes of DOM)\n",
           strlen(dom));

    unlink(shot);
    char *picture[] = {chromium, "--headless", "--no-sandbox", "--disable-gpu",
                       "--disable-dev-shm-usage", "--no-first-run", profile_dir,
                       "--hide-scrollbars", "--window-size=1280,1500",
                       "--virtual-time-budget=10000", shot_arg, url, NULL};
    char out[4096];
    run_timed(picture, out, sizeof out, 90000);
    struct stat sb;
    LP_CHECK(stat(shot, &sb) == 0 && sb.st_size > 10000, "no screenshot at %s", shot);
    printf("ok  screenshot %s (%lld bytes)\n", shot, (long long)sb.st_size);

    LP_CHECK(lp_ctest_stop(pid) == 0, "serve did not stop cleanly");
    printf("PASS\n");
    return 0;
}
