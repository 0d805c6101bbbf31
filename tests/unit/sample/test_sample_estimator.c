/* sample: the estimator. Lossless compressors must give exact profiles;
 * samplers must account for the whole stream (exactly when counted or
 * drained, within bounds when random); types map to their profiles; and the
 * section 3.3 Monte Carlo experiment orders the samplers as the paper does. */
#include <math.h>

#include "sample_test_util.h"

static unsigned profile_of(uint8_t tuple_type)
{
    switch (tuple_type) {
    case LP_TUPLE_VALUE: return LP_PROF_VALUE;
    case LP_TUPLE_EDGE: return LP_PROF_EDGE;
    case LP_TUPLE_CALL_TARGET: return LP_PROF_CALL_TARGET;
    default: return 0;
    }
}

/* Exact profiles of a stream, one lp_table per profile type. */
static void exact_profiles(const lp_tuple *t, size_t n, lp_table exact[LP_PROF_TYPE_MAX + 1])
{
    for (unsigned p = 0; p <= LP_PROF_TYPE_MAX; p++)
        lp_table_init(&exact[p], 0);
    for (size_t i = 0; i < n; i++) {
        lp_entry *e = lp_table_upsert(&exact[profile_of(t[i].type)], (lp_key){t[i].pc, t[i].w});
        e->v[0]++;
    }
}

static int tables_equal(const lp_table *a, const lp_table *b)
{
    if (a->count != b->count)
        return 0;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(a, &cur))) {
        const lp_entry *f = lp_table_find(b, e->key);
        if (!f || f->v[0] != e->v[0])
            return 0;
    }
    return 1;
}

static void test_lossless(void)
{
    static const char *const specs[] = {"A16",          "P1",  "H[P1]64", "P1+A16",
                                        "A4/sat=3+A16", "CR1", "A1"};
    const size_t n = 100000;
    lp_tuple *t = make_stream(n, 700, 99);
    lp_table exact[LP_PROF_TYPE_MAX + 1];
    exact_profiles(t, n, exact);
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        lp_estimator e;
        LP_CHECK(lp_estimator_init(&e) == 0);
        lp_compressor_spec s;
        lp_compressor *c = NULL;
        LP_CHECK(lp_compressor_spec_parse(specs[k], &s, NULL, NULL) == 0);
        LP_CHECK(lp_compressor_create(&s, NULL, 5, lp_estimator_on_messages, &e, &c) == 0);
        push_chunked(c, t, n, 1000, k);
        lp_compressor_finish(c);
        LP_CHECK_EQ_U64(e.status, 0);
        LP_CHECK_EQ_U64(e.total, n);
        LP_CHECK_EQ_U64(e.unmapped, 0);
        const unsigned types[] = {LP_PROF_VALUE, LP_PROF_EDGE, LP_PROF_CALL_TARGET};
        for (int i = 0; i < 3; i++) {
            const lp_profile *p = lp_estimator_profile(&e, types[i]);
            LP_CHECK(p && p->type == types[i] && p->scale_num == 1 && p->scale_den == 1);
            int same = p && tables_equal(&p->table, &exact[types[i]]) &&
                       tables_equal(&exact[types[i]], &p->table);
            LP_CHECK(same);
            if (!same)
                fprintf(stderr, "  %s: %s profile is not exact\n", specs[k],
                        lp_profile_type_name(types[i]));
        }
        lp_compressor_free(c);
        lp_estimator_fini(&e);
    }
    for (unsigned p = 0; p <= LP_PROF_TYPE_MAX; p++)
        lp_table_fini(&exact[p]);
    free(t);
}

static void test_totals(void)
{
    const size_t n = 1000000;
    lp_tuple *t = make_stream(n, 5000, 3);
    static const struct {
        const char *spec;
        double expect; /* expected total / n */
        double rate;   /* implied count, 0 when exact */
    } cases[] = {
        {"P256", 1, 0},
        {"H[P256]2048", 1, 0},
        {"H[P512]2048+A16", 1, 0},
        {"CR256", 1, 0},
        {"H[CR256]2048", 1, 0},
        {"CD256", 1, 0},
        {"T2:256x2048w2", 1, 0},
        {"R256", 1, 256},
        {"H[R256]2048", 1, 256},
        {"D256", 256.0 / 256.5, 256},
        {"H[D64]16", 64.0 / 64.5, 64},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        lp_estimator e;
        LP_CHECK(lp_estimator_init(&e) == 0);
        lp_compressor *c = NULL;
        lp_compressor_spec s;
        LP_CHECK(lp_compressor_spec_parse(cases[k].spec, &s, NULL, NULL) == 0);
        LP_CHECK(lp_compressor_create(&s, NULL, 11, lp_estimator_on_messages, &e, &c) == 0);
        lp_compressor_push_many(c, t, n);
        lp_compressor_finish(c);
        if (cases[k].rate == 0) {
            LP_CHECK_EQ_U64(e.total, n);
        } else {
            /* messages ~ Binomial(n, 1/r) (or a renewal count for D), each worth r */
            double r = cases[k].rate, mean = (double)n * cases[k].expect;
            double sd = r * sqrt((double)n / r);
            int ok = fabs((double)e.total - mean) < 5 * sd;
            LP_CHECK(ok);
            if (!ok)
                fprintf(stderr, "  %s: total %llu, expected %.0f +- %.0f\n", cases[k].spec,
                        (unsigned long long)e.total, mean, sd);
        }
        lp_compressor_free(c);
        lp_estimator_fini(&e);
    }
    free(t);
}

static void test_types(void)
{
    lp_estimator e;
    LP_CHECK(lp_estimator_init(&e) == 0);
    const lp_message m[] = {
        {0x10, 7, 3, LP_TUPLE_VALUE},
        {0x10, 7, 2, LP_TUPLE_VALUE},
        {0x10, 7, 5, LP_TUPLE_EDGE},
        {0x20, 0x99, 4, LP_TUPLE_CALL_TARGET},
        {0x30, 1, 6, LP_TUPLE_TYPE},
        {0, 0, 1000, LP_MESSAGE_LENGTH},
        {UINT64_MAX, UINT64_MAX, 9, LP_TUPLE_VALUE},
    };
    LP_CHECK(lp_estimator_fold(&e, m, sizeof m / sizeof m[0]) == 0);
    LP_CHECK_EQ_U64(lp_estimator_count(&e, LP_TUPLE_VALUE, 0x10, 7), 5);
    LP_CHECK_EQ_U64(lp_estimator_count(&e, LP_TUPLE_EDGE, 0x10, 7), 5);
    LP_CHECK_EQ_U64(lp_estimator_count(&e, LP_TUPLE_CALL_TARGET, 0x20, 0x99), 4);
    LP_CHECK_EQ_U64(lp_estimator_count(&e, LP_TUPLE_CALL_TARGET, 0x10, 7), 0);
    LP_CHECK_EQ_U64(lp_estimator_count(&e, LP_TUPLE_TYPE, 0x30, 1), 0);
    LP_CHECK_EQ_U64(lp_estimator_count(&e, 200, 0x30, 1), 0);
    LP_CHECK_EQ_U64(e.total, 3 + 2 + 5 + 4 + 6 + 9);
    LP_CHECK_EQ_U64(e.unmapped, 6 + 9);
    LP_CHECK_EQ_U64(e.length, 1000);
    LP_CHECK_EQ_U64(lp_estimator_profile(&e, LP_PROF_VALUE)->table.count, 1);
    LP_CHECK(lp_estimator_profile(&e, LP_PROF_METHOD) == NULL);
    LP_CHECK(lp_estimator_profile(&e, 0) == NULL);
    const lp_entry *x =
        lp_table_find(&lp_estimator_profile(&e, LP_PROF_EDGE)->table, (lp_key){0x10, 7});
    LP_CHECK(x && x->v[0] == 5 && x->v[1] == 0);
    lp_estimator_clear(&e);
    LP_CHECK(e.total == 0 && e.unmapped == 0 && e.length == 0);
    LP_CHECK_EQ_U64(lp_estimator_count(&e, LP_TUPLE_VALUE, 0x10, 7), 0);
    LP_CHECK(lp_estimator_fold(&e, m, 1) == 0);
    LP_CHECK_EQ_U64(lp_estimator_count(&e, LP_TUPLE_VALUE, 0x10, 7), 3);
    lp_estimator_fini(&e);
    lp_estimator_fini(NULL);

    /* The counter alone reports the stream length. */
    LP_CHECK(lp_estimator_init(&e) == 0);
    lp_compressor_spec s;
    lp_compressor *c = NULL;
    LP_CHECK(lp_compressor_spec_parse("C", &s, NULL, NULL) == 0);
    LP_CHECK(lp_compressor_create(&s, NULL, 1, lp_estimator_on_messages, &e, &c) == 0);
    lp_tuple *t = make_stream(777, 10, 1);
    lp_compressor_push_many(c, t, 777);
    lp_compressor_finish(c);
    LP_CHECK_EQ_U64(e.length, 777);
    LP_CHECK_EQ_U64(e.total, 0);
    lp_compressor_free(c);
    lp_estimator_fini(&e);
    free(t);
}

/* Section 3.3: estimate t, the occurrences of a tuple p making up 30 % of a
 * randomly permuted stream of N, at rate 10; mean |100 (t - EST) / EST| over
 * many trials. The paper's classes, in decreasing error: {R, H[R]},
 * {P, CR}, {H[P], H[CR]}. One compressor per sampler, reset per trial.
 *
 * CR is the exception: with the paper's estimator (the sum of the counts of
 * the messages naming p) its variance is 0.21 K E[g^2] for K samples with
 * geometric gaps g, about 1.5 times R's, so it lands above R, not beside P
 * (doc/sample.md). Checked here: what theory and the paper agree on. */
static void test_monte_carlo(void)
{
    static const char *const specs[] = {"R10", "H[R10]64", "P10", "CR10", "H[P10]64", "H[CR10]64"};
    enum { NS = sizeof specs / sizeof specs[0], TRIALS = 400, N = 10000 };
    const size_t t_count = 3 * N / 10;
    lp_tuple *s = malloc(N * sizeof *s);
    lp_compressor *c[NS];
    lp_estimator e;
    LP_CHECK(lp_estimator_init(&e) == 0);
    for (int k = 0; k < NS; k++)
        c[k] = NULL;
    for (int k = 0; k < NS; k++) {
        lp_compressor_spec sp;
        LP_CHECK(lp_compressor_spec_parse(specs[k], &sp, NULL, NULL) == 0);
        LP_CHECK(lp_compressor_create(&sp, NULL, 1, lp_estimator_on_messages, &e, &c[k]) == 0);
    }
    double err[NS] = {0};
    uint64_t rs = 2024;
    for (int trial = 0; trial < TRIALS; trial++) {
        for (size_t i = 0; i < N; i++) {
            s[i].pc = 0x400;
            s[i].w = i < t_count ? 1 : 2 + test_random(&rs) % 1000;
            s[i].type = LP_TUPLE_VALUE;
        }
        for (size_t i = N - 1; i > 0; i--) { /* random permutation */
            size_t j = (size_t)(test_random(&rs) % (i + 1));
            lp_tuple tmp = s[i];
            s[i] = s[j];
            s[j] = tmp;
        }
        for (int k = 0; k < NS; k++) {
            lp_estimator_clear(&e);
            lp_compressor_reset(c[k], (uint64_t)trial * 31 + (uint64_t)k);
            lp_compressor_push_many(c[k], s, N);
            /* flush, not finish: the estimate is what the samples said, with
             * no drained remainder */
            lp_compressor_flush(c[k]);
            double est = (double)lp_estimator_count(&e, LP_TUPLE_VALUE, 0x400, 1);
            err[k] += est > 0 ? fabs(100.0 * ((double)t_count - est) / est) : 100.0;
        }
    }
    for (int k = 0; k < NS; k++) {
        err[k] /= TRIALS;
        printf("monte carlo N=%d rate 10: %-10s mean error %.2f %%\n", N, specs[k], err[k]);
    }
    /* margins far outside the trials' noise (each mean is within ~3 %) */
    LP_CHECK(err[4] < 0.5 * err[2] && err[5] < 0.5 * err[3]); /* H[P] << P, H[CR] << CR */
    LP_CHECK(err[2] < err[0]);                                /* P < R */
    LP_CHECK(fabs(err[0] - err[1]) < 0.15 * err[0]);          /* R and H[R] alike */
    LP_CHECK(err[5] < 2 * err[4] && err[4] < 2 * err[5]);     /* H[P] and H[CR] alike */
    for (int k = 0; k < NS; k++)
        lp_compressor_free(c[k]);
    lp_estimator_fini(&e);
    free(s);
}

int main(void)
{
    test_lossless();
    test_totals();
    test_types();
    test_monte_carlo();
    return lp_test_done();
}
