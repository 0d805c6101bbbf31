/* Throughput of the sample module's compressors: tuples per second through
 * lp_compressor_push_many on a tuple array already in memory, against a loop
 * that only reads the same array (the memory-bandwidth bound).
 *
 * The stream imitates a value/edge/call-target mix: a few thousand distinct
 * pcs with skewed frequencies, each with a few hot values and a long tail.
 * Every configuration runs ROUNDS times, interleaved with the others so that
 * a noisy neighbour hits all of them alike; the figures are medians. Time is
 * the measuring thread's CPU time (CLOCK_THREAD_CPUTIME_ID): on a shared
 * machine, wall time mostly measures the neighbours.
 *
 * usage: sample_throughput [MILLION_TUPLES [ROUNDS [SPEC...]]] */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lowprof/sample.h"

#ifndef LP_BUILDTYPE
#define LP_BUILDTYPE "unknown"
#endif

static const char *const default_specs[] = {
    "P256",  "H[P256]2048", "H[P256]2048/fast", "H[P256]2048+A16", "H[P512]2048",        "R256",
    "CR256", "D256",        "H[CR256]2048",     "T2:256x2048w2",   "T2:256x2048w2/fast", "A16",
};

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;

static uint64_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static double unit_random(void)
{
    return (double)(next_random() >> 11) / 9007199254740992.0;
}

static void make_stream(lp_tuple *t, size_t n)
{
    enum { PCS = 4096 };
    for (size_t i = 0; i < n; i++) {
        double u = unit_random();
        uint64_t site = (uint64_t)(PCS * u * u * u); /* skewed towards low sites */
        uint64_t pc = 0x401000 + site * 12;
        uint64_t v;
        if (unit_random() < 0.7)
            v = (site * 2654435761u + (uint64_t)(4 * unit_random() * unit_random())) & 0xffff;
        else
            v = next_random() & 0xfffff;
        unsigned r = (unsigned)(site % 10);
        t[i].pc = pc;
        t[i].w = r < 6 ? v : r < 9 ? pc + 16 + (v & 0xff) * 4 : 0x500000 + (v & 7) * 64;
        t[i].type = r < 6 ? LP_TUPLE_VALUE : r < 9 ? LP_TUPLE_EDGE : LP_TUPLE_CALL_TARGET;
    }
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile uint64_t sink;

static void count_messages(void *ctx, const lp_message *m, size_t n)
{
    uint64_t *total = ctx;
    for (size_t i = 0; i < n; i++)
        *total += m[i].count;
}

static double read_loop(const lp_tuple *t, size_t n)
{
    double t0 = now_seconds();
    uint64_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc += t[i].pc ^ t[i].w ^ t[i].type;
    sink = acc;
    return now_seconds() - t0;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, compare_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    size_t n = (size_t)(argc > 1 ? atof(argv[1]) : 16) * 1000000;
    int rounds = argc > 2 ? atoi(argv[2]) : 5;
    const char *const *specs = default_specs;
    int nspecs = (int)(sizeof default_specs / sizeof default_specs[0]);
    if (argc > 3) {
        specs = (const char *const *)(argv + 3);
        nspecs = argc - 3;
    }
    if (n == 0 || rounds < 1) {
        fprintf(stderr, "usage: sample_throughput [MILLION_TUPLES [ROUNDS [SPEC...]]]\n");
        return 2;
    }
    lp_tuple *t = malloc(n * sizeof *t);
    lp_compressor **c = calloc((size_t)nspecs, sizeof *c);
    uint64_t *totals = calloc((size_t)nspecs, sizeof *totals);
    double *times = calloc((size_t)(nspecs + 1) * (size_t)rounds, sizeof *times);
    if (!t || !c || !totals || !times) {
        fprintf(stderr, "sample_throughput: out of memory\n");
        return 1;
    }
    make_stream(t, n);
    for (int s = 0; s < nspecs; s++) {
        lp_compressor_spec spec;
        size_t pos;
        const char *why;
        if (lp_compressor_spec_parse(specs[s], &spec, &pos, &why) ||
            lp_compressor_create(&spec, NULL, 1, count_messages, &totals[s], &c[s])) {
            fprintf(stderr, "sample_throughput: bad spec %s\n", specs[s]);
            return 2;
        }
    }
    lp_compressor_stats *stats = calloc((size_t)nspecs, sizeof *stats);
    for (int r = 0; r < rounds; r++) {
        times[r] = read_loop(t, n);
        for (int s = 0; s < nspecs; s++) {
            lp_compressor_reset(c[s], (uint64_t)r + 1);
            totals[s] = 0;
            double t0 = now_seconds();
            lp_compressor_push_many(c[s], t, n);
            times[(size_t)(s + 1) * (size_t)rounds + (size_t)r] = now_seconds() - t0;
            lp_compressor_finish(c[s]);
            lp_compressor_get_stats(c[s], &stats[s]);
        }
    }
    double bound = (double)n / median(times, rounds) / 1e6;
    printf("buildtype %s, %zu tuples (%zu MB), median of %d rounds, thread CPU time\n\n", LP_BUILDTYPE, n,
           n * sizeof *t >> 20, rounds);
    printf("| compressor | M tuples/s | / read loop | messages | interrupts | sum of counts |\n");
    printf("|---|---:|---:|---:|---:|---:|\n");
    printf("| read loop | %.0f | 1.00 | | | |\n", bound);
    for (int s = 0; s < nspecs; s++) {
        double rate = (double)n / median(times + (size_t)(s + 1) * (size_t)rounds, rounds) / 1e6;
        printf("| %s | %.0f | %.2f | %llu | %llu | %llu |\n", specs[s], rate, rate / bound,
               (unsigned long long)stats[s].messages, (unsigned long long)stats[s].interrupts,
               (unsigned long long)totals[s]);
        lp_compressor_free(c[s]);
    }
    free(stats);
    free(times);
    free(totals);
    free(c);
    free(t);
    return 0;
}
