/* phase: the refine policy on hand-made phase sequences and signatures,
 * where the right samples and weights can be worked out by hand: a phase
 * seen once is represented, the re-sample cap holds, stand-ins are retired,
 * and the reconstruction weights each sample by the intervals it stands
 * for (nearest signature, or nearest represented neighbour in time), with
 * the signature weights calibrated to the whole run's signature (narrow,
 * or wide when every interval's wide signature was observed); and the
 * k-th policy lending the same way on request. */
#include <string.h>

#include "lowprof/phase.h"
#include "../lp_test.h"

static lp_phase_daemon *make_refine(uint64_t k, uint64_t cap, unsigned predictor)
{
    lp_phase_daemon_config c = {.strategy = LP_STRATEGY_PHASE,
                                .policy = LP_POLICY_REFINE,
                                .k = k,
                                .max_resamples = cap,
                                .predictor = predictor};
    lp_phase_daemon *d = NULL;
    LP_CHECK(lp_phase_daemon_create(&c, &d) == 0);
    return d;
}

/* A signature with all of its weight in one bucket: two of different
 * buckets are as far apart as signatures can be. */
static lp_signature one_bucket(unsigned b)
{
    lp_signature s;
    memset(&s, 0, sizeof s);
    s.bucket[b % LP_SIG_BUCKETS] = 1000;
    return s;
}

/* The sampled interval indices, live ones flagged in *out_live (bit i). */
static size_t sampled(const lp_phase_daemon *d, uint64_t *out, uint64_t *out_live)
{
    size_t n = 0;
    const lp_phase_sample *s = lp_phase_daemon_samples(d, &n);
    *out_live = 0;
    for (size_t j = 0; j < n; j++) {
        out[j] = s[j].interval;
        if (!s[j].retired)
            *out_live |= 1ULL << j;
    }
    return n;
}

/* Checks that the daemon sampled exactly intervals a, b and c; returns
 * the live mask. */
static uint64_t check_three(const lp_phase_daemon *d, uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t got[16], live;
    size_t ns = sampled(d, got, &live);
    LP_CHECK_EQ_U64(ns, 3);
    LP_CHECK(ns == 3 && got[0] == a && got[1] == b && got[2] == c);
    return live;
}

/* Reconstructs from per-interval tables that hold count value[i] under
 * key {phase, 0}: the estimate of key p is what the daemon's weights give
 * phase p. */
static void reconstruct(const lp_phase_daemon *d, const uint64_t *value, lp_table *out)
{
    size_t n = 0;
    const lp_phase_sample *s = lp_phase_daemon_samples(d, &n);
    lp_table tabs[64];
    const lp_table *ptr[64];
    LP_CHECK(n <= 64);
    for (size_t j = 0; j < n && j < 64; j++) {
        LP_CHECK(lp_table_init(&tabs[j], 0) == 0);
        lp_key k = {s[j].phase, 0};
        lp_table_upsert(&tabs[j], k)->v[0] = value[s[j].interval];
        ptr[j] = &tabs[j];
    }
    LP_CHECK(lp_table_init(out, 0) == 0);
    LP_CHECK(lp_phase_reconstruct(d, ptr, n, out) == 0);
    for (size_t j = 0; j < n && j < 64; j++)
        lp_table_fini(&tabs[j]);
}

static uint64_t count_of(const lp_table *t, uint64_t key)
{
    lp_key k = {key, 0};
    const lp_entry *e = lp_table_find(t, k);
    return e ? e->v[0] : 0;
}

/* Under the oracle, without signatures: every phase gets its first
 * interval, even the one seen once; a phase whose intervals are alike is
 * estimated exactly. The k-th policy misses the short phase entirely. */
static void test_phase_seen_once(void)
{
    static const uint32_t ph[] = {0, 0, 0, 0, 1, 0, 0, 0, 2, 2};
    const size_t n = sizeof ph / sizeof ph[0];
    lp_phase_daemon *d = make_refine(1, 0, LP_PREDICT_ORACLE);
    LP_CHECK(lp_phase_daemon_run(d, ph, NULL, n) == 0);
    LP_CHECK_EQ_U64(check_three(d, 0, 4, 8), 7);
    static const uint64_t value[] = {5, 5, 5, 5, 9, 5, 5, 5, 2, 2};
    lp_table est;
    reconstruct(d, value, &est);
    LP_CHECK_EQ_U64(count_of(&est, 0), 35);
    LP_CHECK_EQ_U64(count_of(&est, 1), 9);
    LP_CHECK_EQ_U64(count_of(&est, 2), 4);
    lp_table_fini(&est);
    lp_phase_daemon_stats st;
    lp_phase_daemon_get_stats(d, &st);
    LP_CHECK_EQ_U64(st.unrepresented, 0);
    lp_phase_daemon_free(d);

    lp_phase_daemon_config third = {.strategy = LP_STRATEGY_PHASE, .k = 3};
    LP_CHECK(lp_phase_daemon_create(&third, &d) == 0);
    LP_CHECK(lp_phase_daemon_run(d, ph, NULL, n) == 0);
    lp_phase_daemon_get_stats(d, &st);
    LP_CHECK_EQ_U64(st.unrepresented, 3); /* phases 1 and 2: the paper's policy's gap */
    lp_phase_daemon_free(d);
}

/* Every interval of one phase strays from all samples so far (each puts
 * its weight in a bucket of its own), so the phase always wants another
 * sample: the cap alone stops it. */
static void test_resample_cap(void)
{
    enum { N = 20 };
    uint32_t ph[N] = {0};
    lp_signature sig[N];
    for (unsigned i = 0; i < N; i++)
        sig[i] = one_bucket(i);
    static const struct {
        uint64_t cap, samples;
    } cases[] = {{1, 2}, {2, 3}, {0, 1 + LP_PHASE_DEFAULT_RESAMPLES}, {7, 8}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        lp_phase_daemon *d = make_refine(1, cases[c].cap, LP_PREDICT_ORACLE);
        LP_CHECK(lp_phase_daemon_run(d, ph, sig, N) == 0);
        lp_phase_daemon_stats st;
        lp_phase_daemon_get_stats(d, &st);
        LP_CHECK_EQ_U64(st.sampled, cases[c].samples);
        LP_CHECK_EQ_U64(st.resamples, cases[c].samples - 1);
        /* A straying interval is noticed when it ends and the next one is
         * sampled; a sampled one never strays from itself. */
        uint64_t got[16], live;
        size_t ns = sampled(d, got, &live);
        for (size_t j = 0; j < ns; j++)
            LP_CHECK_EQ_U64(got[j], 2 * j);
        lp_phase_daemon_free(d);
    }
}

/* One phase (by the oracle) whose first five intervals look like X and
 * last five like Y. The first interval is sampled; the sixth strays, so
 * the seventh is sampled too. Each sample then stands for the five
 * intervals of its look, and the estimate is exact where the intervals of
 * one look agree. */
static void test_signature_weights(void)
{
    enum { N = 10 };
    uint32_t ph[N] = {0};
    lp_signature sig[N];
    uint64_t value[N];
    for (unsigned i = 0; i < N; i++) {
        sig[i] = one_bucket(i < 5 ? 3 : 17);
        value[i] = i < 5 ? 10 : 30;
    }
    lp_phase_daemon *d = make_refine(1, 0, LP_PREDICT_ORACLE);
    LP_CHECK(lp_phase_daemon_run(d, ph, sig, N) == 0);
    size_t ns = 0;
    const lp_phase_sample *s = lp_phase_daemon_samples(d, &ns);
    LP_CHECK_EQ_U64(ns, 2);
    if (ns == 2) {
        LP_CHECK_EQ_U64(s[0].interval, 0);
        LP_CHECK_EQ_U64(s[1].interval, 6);
        LP_CHECK_EQ_U64(s[0].weight, 5);
        LP_CHECK_EQ_U64(s[1].weight, 5);
    }
    uint64_t intervals = 0, live = 0;
    lp_phase_daemon_stratum(d, 0, &intervals, &live);
    LP_CHECK_EQ_U64(intervals, 10);
    LP_CHECK_EQ_U64(live, 2);
    lp_table est;
    reconstruct(d, value, &est);
    LP_CHECK_EQ_U64(count_of(&est, 0), 5 * 10 + 5 * 30);
    lp_table_fini(&est);
    lp_phase_daemon_free(d);
}

/* One phase: interval 0 looks like X (bucket 3), 1 and 2 like Y (bucket
 * 17), 3-9 are mixtures, 60 % X and 40 % Y, which is also how their
 * profiles mix (key 1 counts 10 an X interval, key 2 counts 30 a Y one).
 * Intervals 0 and 2 are sampled (1 strays from X); the mixtures lie within
 * the fine threshold of X, so all seven count for X by nearest signature,
 * and the estimate is off (key 1: 80 for 52). The whole run's signature
 * is 5.2 X + 4.8 Y: calibrated weights without the ridge find exactly
 * that, and with the ridge they solve the penalised fit, which for these
 * orthogonal unit signatures is (t + lambda w0) / (1 + lambda) each. */
static void test_calibrated_weights(void)
{
    enum { N = 10 };
    uint32_t ph[N] = {0};
    lp_signature sig[N];
    uint64_t prof[N][2];
    for (unsigned i = 0; i < N; i++) {
        memset(&sig[i], 0, sizeof sig[i]);
        if (i == 0) {
            sig[i].bucket[3] = 1000;
            prof[i][0] = 10, prof[i][1] = 0;
        } else if (i < 3) {
            sig[i].bucket[17] = 1000;
            prof[i][0] = 0, prof[i][1] = 30;
        } else {
            sig[i].bucket[3] = 600;
            sig[i].bucket[17] = 400;
            prof[i][0] = 6, prof[i][1] = 12;
        }
    }
    static const struct {
        double ridge;
        uint64_t key1, key2; /* the estimate */
    } cases[] = {{-1, 80, 60}, {1e-9, 52, 144}, {0, 0, 0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        lp_phase_daemon_config cfg = {.strategy = LP_STRATEGY_PHASE,
                                      .policy = LP_POLICY_REFINE,
                                      .ridge = cases[c].ridge};
        lp_phase_daemon *d = NULL;
        LP_CHECK(lp_phase_daemon_create(&cfg, &d) == 0);
        LP_CHECK(lp_phase_daemon_run(d, ph, sig, N) == 0);
        size_t ns = 0;
        const lp_phase_sample *s = lp_phase_daemon_samples(d, &ns);
        LP_CHECK_EQ_U64(ns, 2);
        if (ns != 2) {
            lp_phase_daemon_free(d);
            continue;
        }
        LP_CHECK_EQ_U64(s[0].interval, 0);
        LP_CHECK_EQ_U64(s[1].interval, 2);
        LP_CHECK_EQ_U64(s[0].weight, 8);
        LP_CHECK_EQ_U64(s[1].weight, 2);
        lp_table tabs[2], est;
        const lp_table *ptr[2] = {&tabs[0], &tabs[1]};
        for (size_t j = 0; j < 2; j++) {
            LP_CHECK(lp_table_init(&tabs[j], 0) == 0);
            for (uint64_t key = 1; key <= 2; key++)
                if (prof[s[j].interval][key - 1])
                    lp_table_upsert(&tabs[j], (lp_key){key, 0})->v[0] =
                        prof[s[j].interval][key - 1];
        }
        LP_CHECK(lp_table_init(&est, 0) == 0);
        LP_CHECK(lp_phase_reconstruct(d, ptr, 2, &est) == 0);
        if (cases[c].ridge != 0) {
            LP_CHECK_EQ_U64(count_of(&est, 1), cases[c].key1);
            LP_CHECK_EQ_U64(count_of(&est, 2), cases[c].key2);
        } else {
            /* The default ridge: lambda = 0.3 times the mean squared
             * signature, which is 1 for one-bucket signatures. */
            const double l = LP_PHASE_DEFAULT_RIDGE, one = LP_PHASE_SHARE_ONE;
            const double wx = (5.2 + l * 8) / (1 + l), wy = (4.8 + l * 2) / (1 + l);
            LP_CHECK(s[0].share + 2 >= (uint64_t)(wx * one) && s[0].share <= (uint64_t)(wx * one) + 2);
            LP_CHECK(s[1].share + 2 >= (uint64_t)(wy * one) && s[1].share <= (uint64_t)(wy * one) + 2);
        }
        lp_table_fini(&est);
        for (size_t j = 0; j < 2; j++)
            lp_table_fini(&tabs[j]);
        lp_phase_daemon_free(d);
    }
}

/* A wide accumulator folds to exactly what lp_signature_add gives for the
 * same branches. */
static void test_wide_fold(void)
{
    lp_phase_wide w;
    lp_signature narrow, folded;
    memset(&w, 0, sizeof w);
    memset(&narrow, 0, sizeof narrow);
    lp_rng rng;
    lp_rng_seed(&rng, 7);
    for (unsigned i = 0; i < 5000; i++) {
        uint64_t pc = lp_rng_next(&rng), n = 1 + lp_rng_below(&rng, 40);
        lp_phase_wide_add(&w, pc, n);
        lp_signature_add(&narrow, pc, n);
        LP_CHECK(lp_phase_wide_bucket(pc) >> (LP_PHASE_WIDE_BITS - 5) == lp_signature_bucket(pc));
    }
    lp_phase_wide_fold(&w, &folded);
    LP_CHECK(memcmp(&folded, &narrow, sizeof narrow) == 0);
}

/* A branch pc whose narrow bucket is `narrow` and whose wide bucket is not
 * `avoid`. */
static uint64_t pc_in(unsigned narrow, unsigned avoid)
{
    for (uint64_t pc = 0x1000;; pc += 4)
        if (lp_signature_bucket(pc) == narrow && lp_phase_wide_bucket(pc) != avoid)
            return pc;
}

/* test_calibrated_weights' run, where the wide signatures tell the
 * mixtures apart from X: X's branch x and the mixtures' branch m share a
 * narrow bucket but not a wide one. On the narrow signatures the fit is
 * 5.2 X + 4.8 Y, as there; on the wide ones the mixtures' m part matches
 * neither sample, and the least-squares weights are 1 X (interval 0's
 * x) + 4.8 Y. Without every interval's wide signature, or with a negative
 * wide ridge, the narrow result and the nearest-signature weights come
 * back. */
static void test_wide_calibration(void)
{
    enum { N = 10 };
    const uint64_t x = pc_in(3, ~0u), m = pc_in(3, lp_phase_wide_bucket(x)), y = pc_in(17, ~0u);
    uint32_t ph[N] = {0};
    lp_signature sig[N];
    lp_phase_wide wide[N];
    memset(wide, 0, sizeof wide);
    for (unsigned i = 0; i < N; i++) {
        if (i == 0) {
            lp_phase_wide_add(&wide[i], x, 1000);
        } else if (i < 3) {
            lp_phase_wide_add(&wide[i], y, 1000);
        } else {
            lp_phase_wide_add(&wide[i], m, 600);
            lp_phase_wide_add(&wide[i], y, 400);
        }
        lp_phase_wide_fold(&wide[i], &sig[i]);
    }
    static const struct {
        double wide_ridge;
        int all_wide; /* every interval observed wide */
        double wx, wy;
    } cases[] = {{1e-9, 1, 1.0, 4.8}, {1e-9, 0, 5.2, 4.8}, {-1, 1, 8, 2}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        lp_phase_daemon_config cfg = {.strategy = LP_STRATEGY_PHASE,
                                      .policy = LP_POLICY_REFINE,
                                      .ridge = cases[c].wide_ridge < 0 ? -1 : 1e-9,
                                      .wide_ridge = cases[c].wide_ridge};
        lp_phase_daemon *d = NULL;
        LP_CHECK(lp_phase_daemon_create(&cfg, &d) == 0);
        if (!d)
            continue;
        if (!cases[c].all_wide)
            memset(&wide[5], 0, sizeof wide[5]); /* empty: no proportions to observe */
        LP_CHECK(lp_phase_daemon_run_wide(d, ph, sig, wide, N) == 0);
        size_t ns = 0;
        const lp_phase_sample *s = lp_phase_daemon_samples(d, &ns);
        LP_CHECK_EQ_U64(ns, 2);
        if (ns == 2) {
            const double one = LP_PHASE_SHARE_ONE;
            LP_CHECK_EQ_U64(s[0].interval, 0);
            LP_CHECK_EQ_U64(s[1].interval, 2);
            LP_CHECK(s[0].share + 2 >= (uint64_t)(cases[c].wx * one) &&
                     s[0].share <= (uint64_t)(cases[c].wx * one) + 2);
            LP_CHECK(s[1].share + 2 >= (uint64_t)(cases[c].wy * one) &&
                     s[1].share <= (uint64_t)(cases[c].wy * one) + 2);
        }
        lp_phase_daemon_free(d);
    }
}

/* An interval whose own phase has no sample goes to the phase of the
 * sample nearest it in signature: here phase 1's lone interval looks like
 * phase 0's sample and is mispredicted (so never sampled). */
static void test_signature_places_unsampled(void)
{
    static const uint32_t ph[] = {0, 0, 0, 1, 2, 2, 2};
    enum { N = sizeof ph / sizeof ph[0] };
    lp_signature sig[N];
    for (unsigned i = 0; i < N; i++)
        sig[i] = one_bucket(ph[i] == 2 ? 9 : 4);
    lp_phase_daemon *d = make_refine(1, 0, LP_PREDICT_MARKOV);
    LP_CHECK(lp_phase_daemon_run(d, ph, sig, N) == 0);
    uint64_t i0 = 0, s0 = 0, i1 = 0, s1 = 0, i2 = 0, s2 = 0;
    lp_phase_daemon_stratum(d, 0, &i0, &s0);
    lp_phase_daemon_stratum(d, 1, &i1, &s1);
    lp_phase_daemon_stratum(d, 2, &i2, &s2);
    LP_CHECK_EQ_U64(s1, 0);
    LP_CHECK(s0 >= 1 && s2 >= 1);
    LP_CHECK_EQ_U64(i0, 4); /* its three and phase 1's one */
    LP_CHECK_EQ_U64(i1, 0);
    LP_CHECK_EQ_U64(i0 + i2, N); /* no interval dropped */
    LP_CHECK_EQ_U64(lp_phase_daemon_stands_for(d, 3), 0);
    LP_CHECK_EQ_U64(lp_phase_daemon_stands_for(d, 4), 2);
    lp_phase_daemon_free(d);
}

/* Without signatures, under a predictor: phase 1's single interval is
 * mispredicted as phase 0 and not sampled; it is lent to phase 0, its
 * represented neighbour before it, so the estimate keeps all intervals.
 * (The intervals after it are predicted to be phase 1, still unsampled,
 * so they are sampled, and turn out to be phase 0's.) */
static void test_neighbour_lending(void)
{
    static const uint32_t ph[] = {0, 0, 0, 1, 0, 0};
    enum { N = sizeof ph / sizeof ph[0] };
    lp_phase_daemon *d = make_refine(1, 0, LP_PREDICT_MARKOV);
    LP_CHECK(lp_phase_daemon_run(d, ph, NULL, N) == 0);
    uint64_t i0 = 0, s0 = 0, i1 = 0, s1 = 0;
    lp_phase_daemon_stratum(d, 0, &i0, &s0);
    lp_phase_daemon_stratum(d, 1, &i1, &s1);
    LP_CHECK_EQ_U64(s1, 0);
    LP_CHECK_EQ_U64(s0, 3);
    LP_CHECK_EQ_U64(i0, N);
    lp_phase_daemon_stats st;
    lp_phase_daemon_get_stats(d, &st);
    LP_CHECK_EQ_U64(st.unrepresented, 1);
    lp_phase_daemon_free(d);
}

/* The k-th policy with lend: the paper's samples, but the intervals of
 * phases that never reach their k-th are lent as refine lends them, to
 * the represented neighbour before (phases 1 and 2 here) or, before any,
 * after (the first interval, in a phase of its own), so that no interval
 * is dropped from the estimate. Without lend they are. */
static void test_kth_lending(void)
{
    static const uint32_t ph[] = {1, 0, 0, 0, 0, 2, 0, 0, 0, 3, 3};
    enum { N = sizeof ph / sizeof ph[0] };
    static const uint64_t value[N] = {9, 5, 5, 5, 5, 7, 5, 5, 5, 2, 2};
    for (int lend = 0; lend <= 1; lend++) {
        lp_phase_daemon_config c = {.strategy = LP_STRATEGY_PHASE, .k = 3, .lend = lend};
        lp_phase_daemon *d = NULL;
        LP_CHECK(lp_phase_daemon_create(&c, &d) == 0);
        LP_CHECK(lp_phase_daemon_run(d, ph, NULL, N) == 0);
        uint64_t got[16], live;
        LP_CHECK_EQ_U64(sampled(d, got, &live), 1);
        LP_CHECK_EQ_U64(got[0], 3); /* phase 0's third interval */
        uint64_t i0 = 0, s0 = 0;
        lp_phase_daemon_stratum(d, 0, &i0, &s0);
        LP_CHECK_EQ_U64(i0, lend ? N : 7);
        for (size_t i = 0; i < N; i++)
            LP_CHECK_EQ_U64(lp_phase_daemon_stands_for(d, i), lend ? 0 : ph[i]);
        LP_CHECK_EQ_U64(lp_phase_daemon_stands_for(d, N), LP_PHASE_NONE);
        lp_table est;
        reconstruct(d, value, &est);
        LP_CHECK_EQ_U64(count_of(&est, 0), lend ? 5 * N : 35);
        lp_table_fini(&est);
        lp_phase_daemon_stats st;
        lp_phase_daemon_get_stats(d, &st);
        LP_CHECK_EQ_U64(st.unrepresented, 4); /* counted either way */
        lp_phase_daemon_free(d);
    }
}

/* The k-th policy with lend, stepped online, with intervals the front end
 * estimates itself (lp_phase_daemon_cover, the native runtime's scouts): a
 * covered interval of a phase without a sample stands for itself and
 * counts in no stratum, the phase's other intervals lent as before; one of
 * a sampled phase does so when covered in any phase (2), and counts in its
 * phase as usual otherwise (6). */
static void test_kth_covered(void)
{
    static const uint32_t ph[] = {1, 0, 0, 0, 0, 2, 0, 0, 0, 3, 3};
    enum { N = sizeof ph / sizeof ph[0] };
    static const uint64_t value[N] = {9, 5, 5, 5, 5, 7, 5, 5, 5, 2, 2};
    lp_phase_daemon_config c = {.strategy = LP_STRATEGY_PHASE, .k = 3, .lend = 1};
    lp_phase_daemon *d = NULL;
    LP_CHECK(lp_phase_daemon_create(&c, &d) == 0);
    LP_CHECK(lp_phase_daemon_cover(d, 0) == LP_EINVAL); /* no interval in progress */
    int s = 0;
    LP_CHECK(lp_phase_daemon_start(d, ph[0], &s) == 0);
    for (size_t i = 0; i < N; i++) {
        if (i == 0 || i == 2 || i == 6 || i == 9)
            LP_CHECK(lp_phase_daemon_cover(d, i == 2) == 0);
        if (i + 1 < N)
            LP_CHECK(lp_phase_daemon_boundary(d, ph[i], ph[i + 1], &s) == 0);
        else
            LP_CHECK(lp_phase_daemon_finish(d, ph[i]) == 0);
    }
    LP_CHECK(lp_phase_daemon_cover(d, 1) == LP_EINVAL);
    LP_CHECK_EQ_U64(lp_phase_daemon_predicted(d), LP_PHASE_NONE); /* the oracle's */
    uint64_t got[16], live;
    LP_CHECK_EQ_U64(sampled(d, got, &live), 1);
    LP_CHECK_EQ_U64(got[0], 3);
    static const uint32_t stands[N] = {/* LP_PHASE_NONE: stands for itself */
                                       LP_PHASE_NONE, 0, LP_PHASE_NONE, 0, 0, 0, 0, 0, 0,
                                       LP_PHASE_NONE, 0};
    for (size_t i = 0; i < N; i++)
        LP_CHECK_EQ_U64(lp_phase_daemon_stands_for(d, i), stands[i]);
    uint64_t iv = 0, sm = 0;
    lp_phase_daemon_stratum(d, 0, &iv, &sm);
    LP_CHECK_EQ_U64(iv, N - 3); /* all but 0 and 9 (phases 1, 3) and 2 (covered in any) */
    LP_CHECK_EQ_U64(sm, 1);
    lp_phase_daemon_stratum(d, 3, &iv, &sm);
    LP_CHECK_EQ_U64(iv, 0);
    lp_table est;
    reconstruct(d, value, &est);
    LP_CHECK_EQ_U64(count_of(&est, 0), 5 * (N - 3));
    lp_table_fini(&est);
    lp_phase_daemon_free(d);

    /* The own predictor's phase for the interval in progress. */
    c.predictor = LP_PREDICT_MARKOV;
    LP_CHECK(lp_phase_daemon_create(&c, &d) == 0);
    LP_CHECK_EQ_U64(lp_phase_daemon_predicted(d), LP_PHASE_NONE);
    LP_CHECK(lp_phase_daemon_start(d, LP_PHASE_NONE, &s) == 0);
    LP_CHECK_EQ_U64(lp_phase_daemon_predicted(d), LP_PHASE_NONE);
    for (int i = 0; i < 3; i++)
        LP_CHECK(lp_phase_daemon_boundary(d, 4, LP_PHASE_NONE, &s) == 0);
    LP_CHECK_EQ_U64(lp_phase_daemon_predicted(d), 4);
    LP_CHECK(lp_phase_daemon_finish(d, 4) == 0);
    LP_CHECK_EQ_U64(lp_phase_daemon_predicted(d), LP_PHASE_NONE);
    lp_phase_daemon_free(d);
}

/* A phase the Markov predictor keeps predicting but that never comes back
 * draws samples for it only until the cap: here phase 1 is predicted after
 * every phase-0 interval, and with a cap of 1 two samples are spent on it
 * (intervals 3 and 4), not one per interval to the end. */
static void test_missed_phase_cap(void)
{
    static const uint32_t ph[] = {0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    enum { N = sizeof ph / sizeof ph[0] };
    lp_phase_daemon *d = make_refine(1, 1, LP_PREDICT_MARKOV);
    LP_CHECK(lp_phase_daemon_run(d, ph, NULL, N) == 0);
    (void)check_three(d, 1, 3, 4);
    lp_phase_daemon_free(d);
}

/* k = 3, no signatures: the phase's first interval is a stand-in, retired
 * by its third; it was profiled (it counts as sampled) but the estimate
 * uses the third alone. A phase too short to reach its third keeps its
 * stand-in. */
static void test_standin_retired(void)
{
    static const uint32_t ph[] = {0, 0, 0, 0, 0, 1, 1};
    enum { N = sizeof ph / sizeof ph[0] };
    static const uint64_t value[N] = {100, 7, 7, 7, 7, 3, 3};
    lp_phase_daemon *d = make_refine(3, 0, LP_PREDICT_ORACLE);
    LP_CHECK(lp_phase_daemon_run(d, ph, NULL, N) == 0);
    /* Samples 1 and 2 count, the stand-in of phase 0 does not. */
    LP_CHECK_EQ_U64(check_three(d, 0, 2, 5), 6);
    lp_phase_daemon_stats st;
    lp_phase_daemon_get_stats(d, &st);
    LP_CHECK_EQ_U64(st.retired, 1);
    lp_table est;
    reconstruct(d, value, &est);
    LP_CHECK_EQ_U64(count_of(&est, 0), 35);
    LP_CHECK_EQ_U64(count_of(&est, 1), 6);
    lp_table_fini(&est);
    lp_phase_daemon_free(d);
}

/* Online stepping gives what the offline run gives, signatures observed
 * before each boundary; the offline-only refusal does not apply. */
static void test_online_matches_offline(void)
{
    static const uint32_t ph[] = {0, 0, 1, 1, 1, 0, 2, 0, 0, 1};
    enum { N = sizeof ph / sizeof ph[0] };
    lp_signature sig[N];
    for (unsigned i = 0; i < N; i++)
        sig[i] = one_bucket(ph[i] * 5 + (i % 3 == 0));
    lp_phase_daemon *off = make_refine(0, 0, LP_PREDICT_MARKOV);
    lp_phase_daemon *on = make_refine(0, 0, LP_PREDICT_MARKOV);
    LP_CHECK(lp_phase_daemon_run(off, ph, sig, N) == 0);
    int flag = 0;
    LP_CHECK(lp_phase_daemon_start(on, LP_PHASE_NONE, &flag) == 0);
    for (size_t i = 0; i < N; i++) {
        LP_CHECK(lp_phase_daemon_observe(on, &sig[i]) == 0);
        if (i + 1 < N)
            LP_CHECK(lp_phase_daemon_boundary(on, ph[i], LP_PHASE_NONE, &flag) == 0);
        else
            LP_CHECK(lp_phase_daemon_finish(on, ph[i]) == 0);
    }
    size_t na = 0, nb = 0;
    const lp_phase_sample *a = lp_phase_daemon_samples(off, &na);
    const lp_phase_sample *b = lp_phase_daemon_samples(on, &nb);
    LP_CHECK_EQ_U64(na, nb);
    int same = na == nb && na > 0;
    for (size_t j = 0; same && j < na; j++)
        same = a[j].interval == b[j].interval && a[j].retired == b[j].retired &&
               a[j].weight == b[j].weight && a[j].share == b[j].share;
    LP_CHECK(same);
    lp_phase_daemon_free(off);
    lp_phase_daemon_free(on);
}

static void test_refuses(void)
{
    lp_phase_daemon_config c = {
        .strategy = LP_STRATEGY_PHASE, .policy = LP_POLICY_REFINE, .fine_threshold = 1.5};
    lp_phase_daemon *d = NULL;
    LP_CHECK(lp_phase_daemon_create(&c, &d) == LP_EINVAL);
    c.fine_threshold = -0.1;
    LP_CHECK(lp_phase_daemon_create(&c, &d) == LP_EINVAL);
    c.fine_threshold = 0;
    c.ridge = __builtin_nan("");
    LP_CHECK(lp_phase_daemon_create(&c, &d) == LP_EINVAL);
    c.ridge = 0;
    c.policy = 9;
    LP_CHECK(lp_phase_daemon_create(&c, &d) == LP_EINVAL);
}

int main(void)
{
    test_phase_seen_once();
    test_resample_cap();
    test_signature_weights();
    test_calibrated_weights();
    test_wide_fold();
    test_wide_calibration();
    test_signature_places_unsampled();
    test_neighbour_lending();
    test_kth_lending();
    test_kth_covered();
    test_missed_phase_cap();
    test_standin_retired();
    test_online_matches_offline();
    test_refuses();
    return lp_test_done();
}
