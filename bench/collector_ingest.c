/* Ingest benchmark of the collector (bench/README.md): starts `lowprof
 * serve` on a fresh store in a temporary folder on a loopback port, sends
 * it UPLOADS distinct messages of about 20 KB compressed (3 x ENTRIES
 * entries, 1000 by default) from CLIENTS
 * threads at once, and reports uploads per second and the latency
 * quantiles of the acknowledged uploads; then times the merged view of the
 * build (the web page's main request) cold and warm, and reads the
 * server's peak resident memory.
 *
 * usage: collector_ingest LOWPROF [--db postgresql://...] [--uploads N]
 *                         [--clients N] [--entries N]
 * Traffic goes to 127.0.0.1 only; the server is stopped at the end. */
#define _GNU_SOURCE
#include <curl/curl.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lowprof/upload.h"

static char g_url[128], g_token[128];
static lp_membuf *g_bodies;
static size_t g_uploads, g_next;
static double *g_latency;
static size_t g_failed;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
    fprintf(stderr, "collector_ingest: %s\n", what);
    exit(1);
}

/* A message of a program with `entries` methods, call pairs and code
 * regions whose counts differ per message (so they compress as real ones
 * do, not to nothing), named by its index. */
static void make_message(size_t index, unsigned entries, lp_membuf *out)
{
    lp_profile_set s;
    memset(&s, 0, sizeof s);
    static const uint8_t bid[20] = {0xbe, 0x4c, 0x11, 0x07, 1, 2, 3, 4, 5, 6,
                                    7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    lp_module_map_add(&s.modules, "/usr/bin/bench-prog", 0x401000, 0x100000, 0x400000, bid,
                      sizeof bid);
    char id[40], dev[32];
    snprintf(id, sizeof id, "%032zx", index + 1);
    snprintf(dev, sizeof dev, "device-%zu", index % 50);
    lp_meta_set(&s.meta, "program", "/usr/bin/bench-prog");
    lp_meta_set(&s.meta, "message-id", id);
    lp_meta_set(&s.meta, "device", dev);
    lp_meta_set(&s.meta, "instructions", "1000000000");
    lp_rng r;
    lp_rng_seed(&r, index * 7919 + 1);
    static const unsigned types[] = {LP_PROF_METHOD, LP_PROF_CALL_PAIR, LP_PROF_CODE_REGION};
    for (unsigned t = 0; t < 3; t++) {
        lp_profile *p;
        lp_profile_set_add(&s, types[t], LP_PHASE_NONE, &p);
        for (unsigned i = 0; i < entries; i++) {
            uint64_t a = 0x401000 + (uint64_t)i * 64;
            /* The same sites and callees in every run of the build, as in
             * real uploads; only the counts differ. */
            uint64_t b = types[t] == LP_PROF_CALL_PAIR ? 0x401000 + (lp_hash64(i) & 0xfffc0) : 0;
            lp_entry *e = lp_table_upsert(&p->table, (lp_key){a, b});
            e->v[0] = 1 + lp_rng_below(&r, 1000000);
            e->v[1] = lp_rng_below(&r, 100);
        }
    }
    if (lp_upload_identify(&s, NULL) != 0 || lp_upload_pack(&s, out) != 0)
        die("cannot make a message");
    lp_profile_set_fini(&s);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void *uploader(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&g_lock);
        size_t i = g_next < g_uploads ? g_next++ : SIZE_MAX;
        pthread_mutex_unlock(&g_lock);
        if (i == SIZE_MAX)
            return NULL;
        lp_upload_result r;
        double t0 = now();
        int rc = lp_upload_send(g_url, g_token, g_bodies[i].data, g_bodies[i].size, 10000, &r);
        double dt = now() - t0;
        pthread_mutex_lock(&g_lock);
        if (rc == 0)
            g_latency[i] = dt;
        else
            g_failed++, g_latency[i] = -1;
        pthread_mutex_unlock(&g_lock);
    }
}

/* Runs a command, its standard output into buf; returns the exit status. */
static int capture(char *const argv[], char *buf, size_t cap)
{
    int fds[2];
    if (pipe(fds) != 0)
        die("pipe");
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t got;
    while (n + 1 < cap && (got = read(fds[0], buf + n, cap - 1 - n)) > 0)
        n += (size_t)got;
    buf[n] = 0;
    close(fds[0]);
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* GETs path and returns the seconds it took (negative on failure). */
static double timed_get(const char *path)
{
    CURL *c = curl_easy_init();
    char url[512], auth[200];
    snprintf(url, sizeof url, "%s%s", g_url, path);
    snprintf(auth, sizeof auth, "Authorization: Bearer %s", g_token);
    struct curl_slist *h = curl_slist_append(NULL, auth);
    FILE *null = fopen("/dev/null", "w");
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, null);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    double t0 = now();
    CURLcode rc = curl_easy_perform(c);
    double dt = now() - t0;
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    fclose(null);
    curl_slist_free_all(h);
    curl_easy_cleanup(c);
    return rc == CURLE_OK && status == 200 ? dt : -1;
}

static long peak_rss_kb(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            kb = strtol(line + 6, NULL, 10);
    if (f)
        fclose(f);
    return kb;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        die("usage: collector_ingest LOWPROF [--db URI] [--uploads N] [--clients N] [--entries N]");
    const char *lowprof = argv[1], *db = NULL;
    size_t uploads = 10000, clients = 16;
    unsigned entries = 1000;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--db") == 0)
            db = argv[i + 1];
        else if (strcmp(argv[i], "--uploads") == 0)
            uploads = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--clients") == 0)
            clients = strtoull(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--entries") == 0)
            entries = (unsigned)strtoul(argv[i + 1], NULL, 10);
        else
            die("unknown option");
    }
    char tmpl[] = "/tmp/lowprof-bench-XXXXXX";
    char *dir = mkdtemp(tmpl);
    if (!dir)
        die("mkdtemp");
    char data[300], portfile[300], store[400];
    snprintf(data, sizeof data, "%s/data", dir);
    snprintf(portfile, sizeof portfile, "%s/port", dir);
    snprintf(store, sizeof store, "%s", db ? db : data);

    /* A token, from the command as a user would get one. */
    char out[4096];
    char *tok[] = {(char *)lowprof, "token", "create", "--project", "bench",
                   db ? "--db" : "--data", store, NULL};
    if (capture(tok, out, sizeof out) != 0)
        die("lowprof token create failed");
    char *last = out + strlen(out);
    while (last > out && (last[-1] == '\n' || last[-1] == ' '))
        *--last = 0;
    char *nl = strrchr(out, '\n');
    snprintf(g_token, sizeof g_token, "%s", nl ? nl + 1 : out);

    pid_t server = fork();
    if (server == 0) {
        execl(lowprof, lowprof, "serve", "-q", "--listen", "127.0.0.1:0", "--port-file",
              portfile, db ? "--db" : "--data", store, (char *)NULL);
        _exit(127);
    }
    int port = 0;
    for (int i = 0; i < 200 && !port; i++) {
        FILE *f = fopen(portfile, "r");
        if (f) {
            if (fscanf(f, "%d", &port) != 1)
                port = 0;
            fclose(f);
        }
        if (!port)
            usleep(50000);
    }
    if (!port)
        die("the collector did not start");
    snprintf(g_url, sizeof g_url, "http://127.0.0.1:%d", port);

    g_bodies = calloc(uploads, sizeof *g_bodies);
    g_latency = calloc(uploads, sizeof *g_latency);
    size_t bytes = 0;
    for (size_t i = 0; i < uploads; i++) {
        make_message(i, entries, &g_bodies[i]);
        bytes += g_bodies[i].size;
    }
    g_uploads = uploads;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    pthread_t *th = calloc(clients, sizeof *th);
    double t0 = now();
    for (size_t i = 0; i < clients; i++)
        pthread_create(&th[i], NULL, uploader, NULL);
    for (size_t i = 0; i < clients; i++)
        pthread_join(th[i], NULL);
    double wall = now() - t0;
    qsort(g_latency, uploads, sizeof *g_latency, cmp_double);
    size_t ok = uploads - g_failed;
    double *lat = g_latency + g_failed; /* failures sort first (-1) */
    printf("store: %s\n", db ? "postgresql" : "sqlite");
    printf("uploads: %zu of %zu acknowledged, %zu clients, %.1f KB compressed on average\n", ok,
           uploads, clients, (double)bytes / (double)uploads / 1024);
    if (ok)
        printf("throughput: %.0f uploads/s; latency p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
               (double)ok / wall, 1e3 * lat[ok / 2], 1e3 * lat[(size_t)((double)ok * 0.99)],
               1e3 * lat[ok - 1]);
    char path[256];
    snprintf(path, sizeof path,
             "/api/v1/profile?program=/usr/bin/bench-prog&build=be4c1107010203040506070809"
             "0a0b0c0d0e0f10&format=json");
    double cold = timed_get(path);
    double warm[5];
    for (int i = 0; i < 5; i++)
        warm[i] = timed_get(path);
    qsort(warm, 5, sizeof *warm, cmp_double);
    printf("merged view of %zu uploads: first %.0f ms, then median %.1f ms\n", ok, 1e3 * cold,
           1e3 * warm[2]);
    printf("server peak resident memory: %ld MB\n", peak_rss_kb(server) / 1024);
    kill(server, SIGTERM);
    int st;
    waitpid(server, &st, 0);
    char rm[400];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    if (system(rm) != 0)
        fprintf(stderr, "collector_ingest: could not remove %s\n", dir);
    for (size_t i = 0; i < uploads; i++)
        lp_membuf_free(&g_bodies[i]);
    return g_failed ? 1 : 0;
}
