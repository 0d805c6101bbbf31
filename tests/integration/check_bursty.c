/* Bursty tracing in the Valgrind front end, on bursty_prog (leaf() called
 * exactly 200,000 times; a 20-node list walked 50,000 times):
 *   - with nCheck0 = inf (never instrumented) the checks executed equal
 *     the procedure entries plus the taken backward branches of an
 *     exhaustive recording (orig placement: a check at every one), and
 *     no call is profiled;
 *   - at 90:10 the achieved sampling rate is 10 %, and the scaled estimate
 *     of leaf's calls is within 10 % of the truth;
 *   - exhaustively, the hottest data stream is the planted walk, 50,000
 *     times 40 references; at 1000:100 the hottest stream of the bursts is
 *     the walk as well, and the overlap with the exhaustive one is given;
 *   - bad options are refused with exit status 2 before anything runs.
 * usage: check_bursty LOWPROF PROGRAM WORKDIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../unit/lp_test.h"
#include "lp_itest.h"

static const char *lowprof, *prog, *dir;

static int record(const char *name, const char *const *opts, lp_profile_set *out)
{
    char path[4096], log[4096];
    snprintf(path, sizeof path, "%s/%s.lpprof", dir, name);
    snprintf(log, sizeof log, "%s/%s.log", dir, name);
    int st = lp_itest_record(lowprof, opts, prog, NULL, path, log);
    if (st != 0) {
        if (out)
            fprintf(stderr, "recording %s failed (status %d); see %s\n", name, st, log);
        return st;
    }
    if (out)
        lp_itest_load(path, out);
    return 0;
}

static uint64_t meta_u64(const lp_profile_set *s, const char *key)
{
    const char *v = lp_meta_get(&s->meta, key);
    return v ? strtoull(v, NULL, 10) : UINT64_MAX;
}

static const lp_profile *whole(const lp_profile_set *s, unsigned type)
{
    return lp_profile_set_find(s, type, LP_PHASE_NONE);
}

/* Sum of v[which] over a profile (0 for none). */
static uint64_t total(const lp_profile *p, int which)
{
    uint64_t t = 0;
    size_t cursor = 0;
    const lp_entry *e;
    while (p && (e = lp_table_next(&p->table, &cursor)) != NULL)
        t += e->v[which];
    return t;
}

/* Calls into the function named fn, as counted (not scaled). */
static uint64_t calls_to(const lp_profile_set *s, lp_symbolizer *sym, const char *fn)
{
    const lp_profile *p = whole(s, LP_PROF_METHOD);
    uint64_t n = 0;
    size_t cursor = 0;
    const lp_entry *e;
    while (p && (e = lp_table_next(&p->table, &cursor)) != NULL)
        if (strcmp(lp_itest_fn(sym, e->key.a), fn) == 0)
            n += e->v[0];
    return n;
}

/* The share of the PCs of stream sig (its "stream.SIG" metadata, hex
 * PCs) that lie in walk(); 0 when the file does not describe it. */
static double walk_share(const lp_profile_set *s, lp_symbolizer *sym, uint64_t sig)
{
    char key[48];
    snprintf(key, sizeof key, "stream.%016llx", (unsigned long long)sig);
    const char *v = lp_meta_get(&s->meta, key);
    unsigned in = 0, all = 0;
    for (const char *p = v; p && *p;) {
        char *end;
        uint64_t pc = strtoull(p, &end, 16);
        if (end == p)
            break;
        all++;
        in += strcmp(lp_itest_fn(sym, pc), "walk") == 0;
        p = *end == ',' ? end + 1 : end;
    }
    return all ? (double)in / all : 0.0;
}

static lp_symbolizer *symbolizer(const lp_profile_set *s)
{
    lp_symbolizer *sym = NULL;
    if (lp_symbolizer_create(&s->modules, &sym) != 0) {
        fprintf(stderr, "no symbolizer\n");
        exit(1);
    }
    return sym;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: check_bursty LOWPROF PROGRAM WORKDIR\n");
        return 2;
    }
    lowprof = argv[1];
    prog = argv[2];
    dir = argv[3];
    mkdir(dir, 0777);

    /* The truth. */
    lp_profile_set ex;
    const char *exo[] = {"--profile", "method,call-pair", NULL};
    if (record("exhaustive", exo, &ex) != 0)
        return 1;
    lp_symbolizer *sym = symbolizer(&ex);
    uint64_t leaf_calls = calls_to(&ex, sym, "leaf");
    LP_CHECK_EQ_U64(leaf_calls, 200000);
    uint64_t entries = total(whole(&ex, LP_PROF_METHOD), 0);
    uint64_t backward = total(whole(&ex, LP_PROF_METHOD), 1);
    lp_symbolizer_free(sym);

    /* Checking code only: every check counted, nothing profiled. */
    lp_profile_set off;
    const char *offo[] = {"--bursty", "inf:1", "--profile", "method,call-pair", NULL};
    if (record("inf", offo, &off) != 0)
        return 1;
    uint64_t checks = meta_u64(&off, "bursty-checks");
    double diff = (double)checks - (double)(entries + backward);
    LP_CHECK(checks != UINT64_MAX && diff * diff <= 1e-6 * (double)(entries + backward) *
                                                        (double)(entries + backward));
    printf("orig: %llu checks; %llu entries + %llu backward branches exhaustively\n",
           (unsigned long long)checks, (unsigned long long)entries,
           (unsigned long long)backward);
    LP_CHECK_EQ_U64(meta_u64(&off, "bursty-bursts"), 0);
    LP_CHECK_EQ_U64(total(whole(&off, LP_PROF_CALL_PAIR), 0), 0);
    lp_profile_set_fini(&off);

    /* 10 % in bursts of 10 checks. */
    lp_profile_set ten;
    const char *teno[] = {"--bursty", "90:10", "--profile", "method,call-pair", NULL};
    if (record("ten", teno, &ten) != 0)
        return 1;
    uint64_t c10 = meta_u64(&ten, "bursty-checks"), i10 = meta_u64(&ten, "bursty-instrumented-checks");
    LP_CHECK(c10 != UINT64_MAX && i10 != UINT64_MAX && c10 > 0);
    double rate = c10 ? (double)i10 / (double)c10 : 0;
    LP_CHECK(rate > 0.0999 && rate < 0.1001);
    sym = symbolizer(&ten);
    const lp_profile *pm = whole(&ten, LP_PROF_METHOD);
    double est = pm ? (double)calls_to(&ten, sym, "leaf") * (double)pm->scale_num /
                          (double)pm->scale_den
                    : 0;
    printf("90:10: sampling rate %.4f, leaf estimated %.0f of %llu\n", rate, est,
           (unsigned long long)leaf_calls);
    LP_CHECK(est > 0.9 * (double)leaf_calls && est < 1.1 * (double)leaf_calls);
    lp_symbolizer_free(sym);
    lp_profile_set_fini(&ten);

    /* Hot data streams: exhaustively, the planted walk is found exactly;
     * in bursts, the hottest stream is mostly the walk too (the calls of
     * leaf() around it, whose return addresses are pushed and popped at the
     * same stack slot, repeat with it), and the overlap of the two
     * profiles (eq. 5) is reported (it is low: see EC+L4 below). */
    lp_profile_set st;
    const char *sto[] = {"--bursty", "1000:100", "--profile", "data-streams", NULL};
    if (record("streams", sto, &st) != 0)
        return 1;
    uint64_t overlap = meta_u64(&st, "streams-overlap-ppm");
    printf("1000:100: overlap %.1f%%, %llu of %llu references in bursts\n",
           (double)overlap / 1e4, (unsigned long long)meta_u64(&st, "streams-sampled-references"),
           (unsigned long long)meta_u64(&st, "streams-references"));
    LP_CHECK(overlap != UINT64_MAX && overlap <= 1000000);
    sym = symbolizer(&st);
    const lp_profile *ps = whole(&st, LP_PROF_STREAMS);
    const lp_entry *hot = NULL, *e;
    size_t cursor = 0;
    while (ps && (e = lp_table_next(&ps->table, &cursor)) != NULL)
        if (!hot || e->v[0] * e->v[1] > hot->v[0] * hot->v[1])
            hot = e;
    LP_CHECK(hot && hot->v[1] >= 10 && walk_share(&st, sym, hot->key.a) >= 0.5);
    lp_symbolizer_free(sym);
    lp_profile_set_fini(&st);

    /* EC+L4 (the binary analysis decides): leaf(), walk() and scatter()
     * are leaves and their loops 4-boring, so the checks are main's loop
     * back-edge, 200,000 times, and a few procedure entries run once; the
     * walk is then caught whole, and the overlap is high. */
    lp_profile_set ec;
    const char *eco[] = {"--bursty", "1000:50", "--checks", "EC+L4", "--profile", "data-streams",
                         NULL};
    if (record("ec-l4", eco, &ec) != 0)
        return 1;
    uint64_t ec_checks = meta_u64(&ec, "bursty-checks"), ec_overlap = meta_u64(&ec, "streams-overlap-ppm");
    printf("EC+L4 1000:50: %llu checks, overlap %.1f%%\n", (unsigned long long)ec_checks,
           (double)ec_overlap / 1e4);
    LP_CHECK(ec_checks >= 200000 && ec_checks <= 200010);
    LP_CHECK(ec_overlap != UINT64_MAX && ec_overlap >= 900000);
    /* orig's checks in the walk's own loop start bursts inside the walk, so
     * the bursts hold it only in pieces, each piece a stream of another
     * signature; EC+L4 has no check there. */
    LP_CHECK(overlap != UINT64_MAX && overlap + 500000 <= ec_overlap);
    uint64_t cuts = meta_u64(&ec, "streams-sampled-cuts");
    LP_CHECK(cuts != UINT64_MAX && cuts + 1 >= meta_u64(&ec, "bursty-bursts") && cuts > 0);
    LP_CHECK_EQ_U64(meta_u64(&ec, "streams-cuts"), 0); /* one thread: the whole trace is one run */
    lp_profile_set_fini(&ec);

    lp_profile_set exs;
    const char *exso[] = {"--profile", "data-streams", NULL};
    if (record("streams-exhaustive", exso, &exs) != 0)
        return 1;
    sym = symbolizer(&exs);
    ps = whole(&exs, LP_PROF_STREAMS);
    hot = NULL;
    cursor = 0;
    while (ps && (e = lp_table_next(&ps->table, &cursor)) != NULL)
        if (!hot || e->v[0] * e->v[1] > hot->v[0] * hot->v[1])
            hot = e;
    LP_CHECK(hot && hot->v[0] == 50000 && hot->v[1] == 40 &&
             walk_share(&exs, sym, hot->key.a) >= 0.9);
    lp_symbolizer_free(sym);
    lp_profile_set_fini(&exs);

    /* Refused before running. */
    const char *bad[][5] = {{"--bursty", "0:5", NULL},
                            {"--bursty", "5", NULL},
                            {"--bursty", "10:0", NULL},
                            {"--checks", "EC", NULL},
                            {"--bursty", "10:1", "--checks", "EC+L5x", NULL},
                            {"--bursty", "10:1", "--checks", "/nonexistent/checks", NULL},
                            {"--bursty", "10:1", "--strategy", "periodic:2", NULL}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "bad-%zu", i);
        LP_CHECK(record(name, bad[i], NULL) == 2);
    }
    lp_profile_set_fini(&ex);
    return lp_test_done();
}
