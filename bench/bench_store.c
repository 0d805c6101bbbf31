/* The store's ingest cost: lp_store_put of COUNT uploads of SIZE bytes in
 * batches of 1, 16 and 64 (one transaction, hence one durable commit, per
 * batch), on SQLite in a temporary folder or on the PostgreSQL server a
 * postgresql:// URI names. Prints a Markdown table: total time, uploads
 * per second and the latency of one put call (p50, p99).
 *
 *   bench_store [--count N] [--size BYTES] [WHERE]
 *
 * Each batch size gets its own build id and message ids, so runs against
 * one database do not collide. Bodies are half zero bytes, half random:
 * roughly as compressible as a profile file. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lowprof/store.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    size_t count = 1000, size = 20 * 1024;
    const char *where = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--count") == 0 && i + 1 < argc)
            count = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc)
            size = strtoul(argv[++i], NULL, 10);
        else if (argv[i][0] != '-' && !where)
            where = argv[i];
        else {
            fprintf(stderr, "usage: bench_store [--count N] [--size BYTES] [WHERE]\n");
            return 2;
        }
    }
    char tmp[] = "/tmp/lp-bench-store-XXXXXX", dir[600];
    if (!where) {
        if (!mkdtemp(tmp)) {
            perror("mkdtemp");
            return 1;
        }
        snprintf(dir, sizeof dir, "%s/data", tmp);
        where = dir;
    }
    char err[512], token[LP_STORE_TOKEN_LEN + 1];
    lp_store *s = NULL;
    if (lp_store_open(where, &s, err, sizeof err) < 0) {
        fprintf(stderr, "bench_store: %s\n", err);
        return 1;
    }
    int64_t project = 0;
    if (lp_store_token_create(s, "bench", token, sizeof token) < 0 ||
        lp_store_token_check(s, token, &project, NULL, 0) < 0) {
        fprintf(stderr, "bench_store: %s\n", lp_store_error(s));
        return 1;
    }
    enum { MAX_BATCH = 64 };
    static const size_t batches[] = {1, 16, 64};
    unsigned char *body = malloc(size ? size : 1);
    uint64_t x = 88172645463325252ULL;
    for (size_t i = 0; i < size; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        body[i] = (i & 1) ? (unsigned char)x : 0;
    }
    char (*mids)[96] = malloc(MAX_BATCH * sizeof *mids);
    double *lat = malloc((count + 1) * sizeof *lat);
    char run[32];
    snprintf(run, sizeof run, "%lx%lx", (long)getpid(), (long)time(NULL));

    printf("Store: %s (%s), %zu uploads of %zu bytes\n\n", lp_store_kind(s), where, count, size);
    printf("| batch | puts | total s | uploads/s | MB/s | put p50 ms | put p99 ms |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t b = 0; b < sizeof batches / sizeof batches[0]; b++) {
        size_t batch = batches[b], puts = 0;
        char build[64];
        snprintf(build, sizeof build, "%s%02zu", run, batch);
        double t0 = now_s();
        for (size_t done = 0; done < count; puts++) {
            size_t n = count - done < batch ? count - done : batch;
            lp_store_upload u[MAX_BATCH];
            for (size_t i = 0; i < n; i++) {
                snprintf(mids[i], sizeof mids[i], "%s%02zu%08zu", run, batch, done + i);
                u[i] = (lp_store_upload){.project = project, .message_id = mids[i],
                                         .program = "bench", .build_id = build,
                                         .device = "d", .received_ms = (int64_t)(done + i),
                                         .instructions = 1000000, .body = body,
                                         .body_size = size};
            }
            double t = now_s();
            if (lp_store_put(s, u, n, NULL) < 0) {
                fprintf(stderr, "bench_store: %s\n", lp_store_error(s));
                return 1;
            }
            lat[puts] = now_s() - t;
            done += n;
        }
        double total = now_s() - t0;
        qsort(lat, puts, sizeof *lat, cmp_double);
        double p50 = lat[puts / 2], p99 = lat[(size_t)((double)(puts - 1) * 0.99)];
        printf("| %zu | %zu | %.3f | %.0f | %.1f | %.2f | %.2f |\n", batch, puts, total,
               (double)count / total, (double)count * (double)size / total / 1e6, p50 * 1e3,
               p99 * 1e3);
    }
    lp_store_close(s);
    free(body);
    free(mids);
    free(lat);
    if (where == dir) {
        char cmd[700];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        if (system(cmd) != 0)
            fprintf(stderr, "bench_store: could not remove %s\n", tmp);
    }
    return 0;
}
