/* `kill -9` of lowprof record in the middle of a recording: the recorded
 * program is stopped, its profile up to then still lands at -o (marked
 * incomplete, saying why), and neither a process nor a temporary folder
 * is left behind.
 * usage: check_killed LOWPROF WORKDIR PHASE_PROG */
#define _DEFAULT_SOURCE /* mkdtemp, realpath */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../unit/lp_test.h"
#include "lp_itest.h"

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Whether any process's command line holds marker. */
static int running(const char *marker)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int found = 0;
    while (d && !found && (e = readdir(d)) != NULL) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        char path[300], buf[8192];
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(path, "rb");
        size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
        if (f)
            fclose(f);
        for (size_t i = 0; i < n; i++)
            if (!buf[i])
                buf[i] = ' ';
        buf[n] = 0;
        found = strstr(buf, marker) != NULL;
    }
    if (d)
        closedir(d);
    return found;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: check_killed LOWPROF WORKDIR PHASE_PROG\n");
        return 2;
    }
    const char *lowprof = argv[1], *dir = argv[2];
    char *prog = realpath(argv[3], NULL);
    mkdir(dir, 0777);
    char tmp[4200], out[4200], log[4200];
    snprintf(tmp, sizeof tmp, "%s/tmp", dir);
    snprintf(out, sizeof out, "%s/killed.lpprof", dir);
    snprintf(log, sizeof log, "%s/record.log", dir);
    char clean[12800];
    snprintf(clean, sizeof clean, "rm -rf '%s' '%s' && mkdir '%s'", tmp, out, tmp);
    if (!prog || system(clean) != 0)
        return 1;
    /* A long schedule (about 8 G instructions, tens of seconds recorded),
     * with a marker no other process has. */
    static char schedule[10002 + 32];
    for (int i = 0; i < 10000; i++)
        schedule[i] = i % 2 ? 'B' : 'A';
    strcpy(schedule + 10000, "C");

    pid_t rec = fork();
    if (rec == 0) {
        setenv("TMPDIR", tmp, 1);
        FILE *l = freopen(log, "w", stderr);
        (void)l;
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execl(lowprof, lowprof, "record", "-o", out, "--", prog, schedule, (char *)NULL);
        _exit(127);
    }
    /* Killed once the program is well under way. What names our
     * processes (lowprof record, its recorder, the program under
     * Valgrind) is the start of the schedule on their command lines. */
    char marker[201];
    memcpy(marker, schedule, 200);
    marker[200] = 0;
    nap_ms(1500);
    int st;
    if (waitpid(rec, &st, WNOHANG) == rec) {
        printf("the recording ended before it could be killed; skipped\n");
        return lp_itest_vgtool_missing(log) ? 77 : 1;
    }
    kill(rec, SIGKILL);
    waitpid(rec, &st, 0);
    LP_CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);

    /* The recorder stops the program and finishes within seconds. */
    int gone = 0;
    struct stat sb;
    for (int i = 0; i < 600 && !gone; i++) {
        nap_ms(100);
        gone = stat(out, &sb) == 0 && !running(marker);
    }
    nap_ms(300); /* the recorder removes its folder after writing */
    LP_CHECK(gone);
    LP_CHECK(!running(marker));
    lp_profile_set s;
    lp_itest_load(out, &s);
    const char *complete = lp_meta_get(&s.meta, "complete");
    const char *reason = lp_meta_get(&s.meta, "incomplete-reason");
    LP_CHECK(complete && strcmp(complete, "no") == 0);
    LP_CHECK(reason && strstr(reason, "lowprof record was killed") != NULL);
    const lp_profile *p = lp_profile_set_find(&s, LP_PROF_BLOCK, LP_PHASE_NONE);
    LP_CHECK(p && p->table.count > 0);
    printf("profile after the kill: %s\n", reason ? reason : "?");
    lp_profile_set_fini(&s);
    /* No temporary folder left in TMPDIR. */
    DIR *d = opendir(tmp);
    int left = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        left += strncmp(e->d_name, "lowprof-record-", 15) == 0;
    if (d)
        closedir(d);
    LP_CHECK(left == 0);
    free(prog);
    return lp_test_done();
}
