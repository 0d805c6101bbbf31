/* phase: the tracker against the planted phases and against a plain
 * reference classifier (leader clustering with metrics' lp_signature_distance
 * on the uncompressed signatures), the compressed distance against
 * lp_signature_distance, the threshold mapping and the bounded history. */
#include <math.h>
#include <stdio.h>

#include "lowprof/metrics.h"
#include "planted.h"
#include "../lp_test.h"

static void random_signature(uint64_t *x, lp_signature *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < LP_SIG_BUCKETS; i++)
        if (planted_next(x) % 3 == 0)
            s->bucket[i] = planted_next(x) % 100000;
}

static void test_distance_bound(void)
{
    uint64_t x = 7;
    for (unsigned bits = LP_PHASE_MIN_BITS; bits <= LP_PHASE_MAX_BITS; bits += 2) {
        double steps = (double)((1u << bits) - 1);
        int ok = 1;
        for (int n = 0; n < 2000; n++) {
            lp_signature a, b;
            random_signature(&x, &a);
            random_signature(&x, &b);
            lp_phase_sig qa, qb;
            LP_CHECK(lp_phase_sig_compress(&a, bits, &qa) == 0);
            LP_CHECK(lp_phase_sig_compress(&b, bits, &qb) == 0);
            double approx = lp_phase_sig_distance(&qa, &qb) / (2 * steps);
            if (fabs(approx - lp_signature_distance(&a, &b)) > 16.0 / steps + 1e-12)
                ok = 0;
        }
        LP_CHECK(ok);
    }
    /* The exact cases: empty against empty and against non-empty. */
    lp_signature z, one;
    memset(&z, 0, sizeof z);
    memset(&one, 0, sizeof one);
    one.bucket[3] = 5;
    lp_phase_sig qz, qo, q16;
    lp_phase_sig_compress(&z, 6, &qz);
    lp_phase_sig_compress(&one, 6, &qo);
    lp_phase_sig_compress(&one, 16, &q16);
    LP_CHECK(qz.empty && !qo.empty);
    LP_CHECK_EQ_U64(qo.q[3], 63);
    LP_CHECK_EQ_U64(lp_phase_sig_distance(&qz, &qz), 0);
    LP_CHECK_EQ_U64(lp_phase_sig_distance(&qz, &qo), 126);
    LP_CHECK_EQ_U64(lp_phase_sig_distance(&qo, &q16), UINT32_MAX);
    LP_CHECK(lp_phase_sig_compress(&one, 3, &qz) == LP_EINVAL);
    LP_CHECK(lp_phase_sig_compress(&one, 17, &qz) == LP_EINVAL);
}

/* Leader clustering over full signatures: the plain reference. */
static unsigned reference_classify(lp_signature *leaders, unsigned *nleaders,
                                   const lp_signature *s, double threshold)
{
    unsigned best = 0;
    double best_d = 2.0;
    for (unsigned i = 0; i < *nleaders; i++) {
        double d = lp_signature_distance(&leaders[i], s);
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    if (*nleaders && best_d <= threshold)
        return best;
    leaders[*nleaders] = *s;
    return (*nleaders)++;
}

static void test_planted(void)
{
    lp_phase_tracker t;
    LP_CHECK(lp_phase_tracker_init(&t, NULL) == 0);
    LP_CHECK_EQ_U64(t.bits, LP_PHASE_DEFAULT_BITS);
    LP_CHECK_EQ_U64(t.limit, 12); /* floor(0.1 * 126) */
    lp_signature leaders[PLANTED_N];
    unsigned nleaders = 0;
    uint64_t x = 1, y = 1;
    unsigned found[PLANTED_N], ref[PLANTED_N];
    for (size_t i = 0; i < PLANTED_N; i++) {
        lp_signature s;
        planted_interval(planted_schedule[i], 3, &x, &t, NULL);
        planted_interval(planted_schedule[i], 3, &y, NULL, &s); /* the same draws */
        LP_CHECK(memcmp(&s, &t.acc, sizeof s) == 0);
        found[i] = lp_phase_tracker_end_interval(&t);
        ref[i] = reference_classify(leaders, &nleaders, &s, LP_PHASE_DEFAULT_THRESHOLD);
    }
    /* Patterns appear in the order 0, 1, 2, 3, 4, so their IDs equal them. */
    int same_planted = 1, same_ref = 1;
    for (size_t i = 0; i < PLANTED_N; i++) {
        same_planted &= found[i] == planted_schedule[i];
        same_ref &= found[i] == ref[i];
    }
    LP_CHECK(same_planted);
    LP_CHECK(same_ref);
    LP_CHECK_EQ_U64(lp_phase_tracker_phases(&t), PLANTED_PATTERNS);
    LP_CHECK_EQ_U64(t.evictions, 0);
    for (int i = 0; i < LP_SIG_BUCKETS; i++)
        LP_CHECK_EQ_U64(t.acc.bucket[i], 0);
    lp_phase_tracker_fini(&t);
}

/* The threshold governs the number of phases: with a tiny threshold every
 * noisy interval is its own phase; with 1 everything is one phase. */
static void test_threshold(void)
{
    lp_phase_tracker_config tiny = {.threshold = 1e-9, .bits = 16, .history = 64};
    lp_phase_tracker_config all = {.threshold = 1.0};
    lp_phase_tracker a, b;
    LP_CHECK(lp_phase_tracker_init(&a, &tiny) == 0);
    LP_CHECK(lp_phase_tracker_init(&b, &all) == 0);
    LP_CHECK_EQ_U64(a.limit, 0);
    LP_CHECK_EQ_U64(b.limit, 126);
    uint64_t x = 5;
    for (size_t i = 0; i < PLANTED_N; i++) {
        lp_signature s;
        planted_interval(planted_schedule[i], 5, &x, NULL, &s);
        lp_phase_tracker_classify(&a, &s);
        lp_phase_tracker_classify(&b, &s);
    }
    LP_CHECK_EQ_U64(lp_phase_tracker_phases(&a), PLANTED_N);
    LP_CHECK_EQ_U64(lp_phase_tracker_phases(&b), 1);
    lp_phase_tracker_fini(&a);
    lp_phase_tracker_fini(&b);

    lp_phase_tracker_config bad = {.threshold = 1.5};
    LP_CHECK(lp_phase_tracker_init(&a, &bad) == LP_EINVAL);
    bad.threshold = NAN;
    LP_CHECK(lp_phase_tracker_init(&a, &bad) == LP_EINVAL);
    lp_phase_tracker_config badbits = {.bits = 20};
    LP_CHECK(lp_phase_tracker_init(&a, &badbits) == LP_EINVAL);
}

/* A history of two entries and three patterns in a cycle: the least
 * recently matched one is forgotten and returns under a new ID. */
static void test_history(void)
{
    lp_phase_tracker_config c = {.history = 2};
    lp_phase_tracker *t;
    LP_CHECK(lp_phase_tracker_create(&c, &t) == 0);
    uint64_t x = 9;
    const unsigned seq[] = {0, 0, 1, 0, 2, 1, 0};
    const uint32_t want[] = {0, 0, 1, 0, 2, 3, 4};
    /* After 0 0 1 0 the history is {0 (used at 4), 1 (used at 3)}; 2 evicts
     * 1; then 1 evicts 0 (used at 4 < 5); then 0 evicts 2. */
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        planted_interval(seq[i], 2, &x, t, NULL);
        LP_CHECK_EQ_U64(lp_phase_tracker_end_interval(t), want[i]);
    }
    LP_CHECK_EQ_U64(t->evictions, 3);
    LP_CHECK_EQ_U64(t->history_count, 2);
    lp_phase_tracker_free(t);
    lp_phase_tracker_free(NULL);
}

/* Pattern p's weight of pc j, the first one doubled when tilted. */
static uint64_t tilted_weight(unsigned p, unsigned j, int tilt)
{
    return planted_weight(p, j) << (tilt && j == 0);
}

/* n PC samples drawn from pattern p's weights, one count per sample. */
static void sampled_interval(unsigned p, int tilt, unsigned n, uint64_t *x, lp_signature *s)
{
    uint64_t total = 0;
    for (unsigned j = 0; j < PLANTED_PCS; j++)
        total += tilted_weight(p, j, tilt);
    memset(s, 0, sizeof *s);
    for (unsigned k = 0; k < n; k++) {
        uint64_t r = planted_next(x) % total;
        unsigned j = 0;
        while (r >= tilted_weight(p, j, tilt))
            r -= tilted_weight(p, j++, tilt);
        lp_signature_add(s, planted_pc(p, j), 1);
    }
}

/* Intervals of 50 samples, as the native runtime's timer gives in 200 ms,
 * in two runs of pattern 0 around one of pattern 3. With the threshold
 * alone the samples' chance differences split pattern 0 into several
 * phases; with the noise allowance it is one phase and pattern 3 another.
 * The allowance shrinks as the samples grow: pattern 0 and the same with
 * its first pc twice as heavy (about 0.1 apart) are one phase in samples
 * of 50 and two in samples of a million, at a threshold of 0.02. */
static void test_noise(void)
{
    lp_phase_tracker plain, noisy;
    lp_phase_tracker_config c = {.threshold = 0.3};
    LP_CHECK(lp_phase_tracker_init(&plain, &c) == 0);
    c.noise = 1.5;
    LP_CHECK(lp_phase_tracker_init(&noisy, &c) == 0);
    uint64_t x = 11;
    uint32_t got[60];
    for (unsigned i = 0; i < 60; i++) {
        lp_signature s;
        sampled_interval(i >= 20 && i < 40 ? 3 : 0, 0, 50, &x, &s);
        lp_phase_tracker_classify(&plain, &s);
        got[i] = lp_phase_tracker_classify(&noisy, &s);
    }
    LP_CHECK(lp_phase_tracker_phases(&plain) > 2);
    LP_CHECK_EQ_U64(lp_phase_tracker_phases(&noisy), 2);
    for (unsigned i = 0; i < 60; i++)
        LP_CHECK_EQ_U64(got[i], i >= 20 && i < 40 ? 1 : 0);
    lp_phase_tracker_fini(&plain);
    lp_phase_tracker_fini(&noisy);

    lp_phase_tracker_config t = {.threshold = 0.02, .bits = 12, .noise = 1.5};
    for (unsigned n = 50; n <= 1000000; n *= 20000) {
        lp_phase_tracker tt;
        LP_CHECK(lp_phase_tracker_init(&tt, &t) == 0);
        for (unsigned i = 0; i < 6; i++) {
            lp_signature s;
            sampled_interval(0, (int)(i % 2), n, &x, &s);
            LP_CHECK_EQ_U64(lp_phase_tracker_classify(&tt, &s), n == 50 ? 0 : i % 2);
        }
        lp_phase_tracker_fini(&tt);
    }
    lp_phase_tracker big;

    lp_phase_tracker_config bad = {.noise = -1.0};
    LP_CHECK(lp_phase_tracker_init(&big, &bad) == LP_EINVAL);
    bad.noise = NAN;
    LP_CHECK(lp_phase_tracker_init(&big, &bad) == LP_EINVAL);
}

int main(void)
{
    test_distance_bound();
    test_planted();
    test_threshold();
    test_history();
    test_noise();
    return lp_test_done();
}
