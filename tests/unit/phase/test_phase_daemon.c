/* phase: the profiling daemon's strategies and representative policies
 * against plain per-interval references on the planted schedule, the
 * reconstruction (exact when a phase's intervals are identical), the
 * rounding of the scaling, and the state machine's refusals. */
#include "planted.h"
#include "../lp_test.h"

static lp_phase_daemon *make(lp_phase_daemon_config c)
{
    lp_phase_daemon *d = NULL;
    LP_CHECK(lp_phase_daemon_create(&c, &d) == 0);
    return d;
}

/* The daemon's sample list equals want[0..n). */
static void check_samples(const lp_phase_daemon *d, const uint64_t *want, size_t n)
{
    size_t got_n;
    const lp_phase_sample *got = lp_phase_daemon_samples(d, &got_n);
    LP_CHECK_EQ_U64(got_n, n);
    int same = got_n == n;
    for (size_t i = 0; same && i < n; i++)
        same = got[i].interval == want[i] && got[i].phase == planted_schedule[want[i]];
    LP_CHECK(same);
}

/* Steps the daemon online with oracle hints, as a front end would. */
static void step_oracle(lp_phase_daemon *d, int *flags)
{
    LP_CHECK(lp_phase_daemon_start(d, planted_schedule[0], &flags[0]) == 0);
    for (size_t i = 0; i + 1 < PLANTED_N; i++)
        LP_CHECK(lp_phase_daemon_boundary(d, planted_schedule[i], planted_schedule[i + 1],
                                          &flags[i + 1]) == 0);
    LP_CHECK(lp_phase_daemon_finish(d, planted_schedule[PLANTED_N - 1]) == 0);
}

/* A linear-scan phase table and the k-th rule, written out plainly. */
typedef struct ref_daemon {
    uint32_t phase[64];
    uint8_t sampled[64];
    uint64_t seen[64];
    size_t cap, count;
    lp_rng rng;
    uint64_t misses;
} ref_daemon;

static int ref_slot(const ref_daemon *r, uint32_t p)
{
    for (size_t i = 0; i < r->count; i++)
        if (r->phase[i] == p)
            return (int)i;
    return -1;
}

static int ref_decide(const ref_daemon *r, uint32_t next, uint64_t k)
{
    int s = ref_slot(r, next);
    return s < 0 ? k == 1 : !r->sampled[s] && r->seen[s] + 1 >= k;
}

static void ref_end(ref_daemon *r, uint32_t p, int sampled)
{
    int s = ref_slot(r, p);
    if (s < 0) {
        r->misses++;
        s = r->count < r->cap ? (int)r->count++ : (int)lp_rng_below(&r->rng, r->cap);
        r->phase[s] = p;
        r->sampled[s] = 0;
        r->seen[s] = 0;
    }
    r->seen[s]++;
    if (sampled)
        r->sampled[s] = 1;
}

/* Reference samples of the k-th policy with oracle hints; returns count. */
static size_t ref_kth(size_t cap, uint64_t k, uint64_t seed, uint64_t *out, uint64_t *misses)
{
    ref_daemon r = {.cap = cap};
    lp_rng_seed(&r.rng, seed);
    size_t n = 0;
    int flag = ref_decide(&r, planted_schedule[0], k);
    for (size_t i = 0; i < PLANTED_N; i++) {
        if (flag)
            out[n++] = i;
        ref_end(&r, planted_schedule[i], flag);
        if (i + 1 < PLANTED_N)
            flag = ref_decide(&r, planted_schedule[i + 1], k);
    }
    *misses = r.misses;
    return n;
}

static void test_kth_fits(void)
{
    for (uint64_t k = 1; k <= 3; k++) {
        lp_phase_daemon_config c = {.strategy = LP_STRATEGY_PHASE, .k = k, .seed = 1};
        lp_phase_daemon *d = make(c);
        int flags[PLANTED_N];
        step_oracle(d, flags);
        /* Plain answer: the k-th interval of each phase, once. */
        uint64_t want[PLANTED_N], seen[PLANTED_PATTERNS] = {0};
        size_t n = 0;
        for (size_t i = 0; i < PLANTED_N; i++)
            if (++seen[planted_schedule[i]] == k)
                want[n++] = i;
        check_samples(d, want, n);
        for (size_t i = 0, j = 0; i < PLANTED_N; i++) {
            int sampled = j < n && want[j] == i;
            j += sampled;
            LP_CHECK_EQ_U64(flags[i], sampled);
        }
        lp_phase_daemon_stats st;
        lp_phase_daemon_get_stats(d, &st);
        LP_CHECK_EQ_U64(st.intervals, PLANTED_N);
        LP_CHECK_EQ_U64(st.phases, PLANTED_PATTERNS);
        LP_CHECK_EQ_U64(st.resamples, 0);
        LP_CHECK_EQ_U64(st.table_misses, PLANTED_PATTERNS);
        LP_CHECK_EQ_U64(st.table_evictions, 0);
        /* Pattern 4 runs two intervals: the third-interval policy misses it. */
        LP_CHECK_EQ_U64(st.unrepresented, k == 3 ? 2 : 0);
        LP_CHECK_EQ_U64(st.sampled, k == 3 ? PLANTED_PATTERNS - 1 : PLANTED_PATTERNS);
        size_t tn;
        const uint32_t *trace = lp_phase_daemon_trace(d, &tn);
        LP_CHECK_EQ_U64(tn, PLANTED_N);
        LP_CHECK(memcmp(trace, planted_schedule, sizeof planted_schedule) == 0);
        uint64_t iv, sm;
        lp_phase_daemon_stratum(d, 0, &iv, &sm);
        LP_CHECK_EQ_U64(iv, seen[0]);
        LP_CHECK_EQ_U64(sm, 1);
        lp_phase_daemon_free(d);
    }
}

static void test_small_table(void)
{
    for (uint64_t seed = 1; seed <= 4; seed++) {
        lp_phase_daemon_config c = {
            .strategy = LP_STRATEGY_PHASE, .k = 1, .table_size = 2, .seed = seed};
        lp_phase_daemon *d = make(c), *again = make(c);
        int flags[PLANTED_N];
        step_oracle(d, flags);
        LP_CHECK(lp_phase_daemon_run(again, (const uint32_t *)planted_schedule, NULL, PLANTED_N) ==
                 0);
        uint64_t want[PLANTED_N], misses;
        size_t n = ref_kth(2, 1, seed, want, &misses);
        check_samples(d, want, n);
        check_samples(again, want, n); /* offline run = online stepping */
        lp_phase_daemon_stats st;
        lp_phase_daemon_get_stats(d, &st);
        LP_CHECK_EQ_U64(st.table_misses, misses);
        LP_CHECK(st.table_evictions > 0);
        /* Evicted phases come back unsampled and are sampled again. */
        LP_CHECK_EQ_U64(st.resamples, n - PLANTED_PATTERNS);
        LP_CHECK(st.resamples > 0);
        lp_phase_daemon_free(d);
        lp_phase_daemon_free(again);
    }
}

static void test_periodic_random_exhaustive(void)
{
    lp_phase_daemon_config pc = {.strategy = LP_STRATEGY_PERIODIC, .period = 7, .offset = 3};
    lp_phase_daemon *d = make(pc);
    int flags[PLANTED_N];
    step_oracle(d, flags);
    uint64_t want[PLANTED_N];
    size_t n = 0;
    for (size_t i = 3; i < PLANTED_N; i += 7)
        want[n++] = i;
    check_samples(d, want, n);
    lp_phase_daemon_free(d);

    lp_phase_daemon_config rc = {.strategy = LP_STRATEGY_RANDOM, .period = 4, .seed = 42};
    d = make(rc);
    LP_CHECK(lp_phase_daemon_run(d, (const uint32_t *)planted_schedule, NULL, PLANTED_N) == 0);
    lp_rng r;
    lp_rng_seed(&r, 42);
    n = 0;
    for (size_t i = 0; i < PLANTED_N; i++)
        if (lp_rng_below(&r, 4) == 0)
            want[n++] = i;
    check_samples(d, want, n);
    LP_CHECK(n > 5 && n < 25);
    lp_phase_daemon_free(d);

    lp_phase_daemon_config ec = {.strategy = LP_STRATEGY_EXHAUSTIVE};
    d = make(ec);
    step_oracle(d, flags);
    for (size_t i = 0; i < PLANTED_N; i++)
        want[i] = i;
    check_samples(d, want, PLANTED_N);
    lp_phase_daemon_free(d);

    /* Strategies that ignore phases accept none. */
    d = make(pc);
    int f;
    LP_CHECK(lp_phase_daemon_start(d, LP_PHASE_NONE, &f) == 0);
    LP_CHECK(lp_phase_daemon_boundary(d, LP_PHASE_NONE, LP_PHASE_NONE, &f) == 0);
    LP_CHECK(lp_phase_daemon_finish(d, LP_PHASE_NONE) == 0);
    lp_phase_daemon_stats st;
    lp_phase_daemon_get_stats(d, &st);
    LP_CHECK_EQ_U64(st.intervals, 2);
    LP_CHECK_EQ_U64(st.phases, 0);
    lp_phase_daemon_free(d);
}

/* With its own last-phase predictor the daemon decides on the previous
 * interval's phase; the first interval has no prediction and is skipped. */
static void test_predicted(void)
{
    lp_phase_daemon_config c = {.strategy = LP_STRATEGY_PHASE, .k = 1,
                                .predictor = LP_PREDICT_LAST};
    lp_phase_daemon *d = make(c);
    int flags[PLANTED_N];
    /* Hints are ignored: pass nonsense. */
    LP_CHECK(lp_phase_daemon_start(d, 77, &flags[0]) == 0);
    for (size_t i = 0; i + 1 < PLANTED_N; i++)
        LP_CHECK(lp_phase_daemon_boundary(d, planted_schedule[i], 77, &flags[i + 1]) == 0);
    LP_CHECK(lp_phase_daemon_finish(d, planted_schedule[PLANTED_N - 1]) == 0);
    /* Plain reference: sample i when phase[i-1] has no sample yet. */
    int have[PLANTED_PATTERNS] = {0};
    uint64_t want[PLANTED_N], right = 0;
    size_t n = 0;
    for (size_t i = 1; i < PLANTED_N; i++) {
        unsigned pred = planted_schedule[i - 1], act = planted_schedule[i];
        right += pred == act;
        if (!have[pred]) {
            want[n++] = i;
            have[act] = 1; /* the sample is credited to the actual phase */
        }
    }
    LP_CHECK_EQ_U64(flags[0], 0);
    size_t got_n;
    const lp_phase_sample *got = lp_phase_daemon_samples(d, &got_n);
    LP_CHECK_EQ_U64(got_n, n);
    int same = got_n == n;
    for (size_t i = 0; same && i < n; i++)
        same = got[i].interval == want[i];
    LP_CHECK(same);
    lp_phase_daemon_stats st;
    lp_phase_daemon_get_stats(d, &st);
    LP_CHECK_EQ_U64(st.predictions, PLANTED_N - 1);
    LP_CHECK_EQ_U64(st.correct, right);
    lp_phase_daemon_free(d);
}

static void test_offline_random(void)
{
    lp_phase_daemon_config c = {.strategy = LP_STRATEGY_PHASE, .policy = LP_POLICY_RANDOM,
                                .seed = 5};
    lp_phase_daemon *d = make(c);
    int f;
    LP_CHECK(lp_phase_daemon_start(d, 0, &f) == LP_EINVAL); /* offline only */
    LP_CHECK(lp_phase_daemon_run(d, (const uint32_t *)planted_schedule, NULL, PLANTED_N) == 0);
    /* Reference: on a phase's first appearance draw its rank. */
    uint64_t count[PLANTED_PATTERNS] = {0}, rank[PLANTED_PATTERNS], pos[PLANTED_PATTERNS] = {0};
    int drawn[PLANTED_PATTERNS] = {0};
    for (size_t i = 0; i < PLANTED_N; i++)
        count[planted_schedule[i]]++;
    lp_rng r;
    lp_rng_seed(&r, 5);
    uint64_t want[PLANTED_PATTERNS];
    size_t n = 0;
    for (size_t i = 0; i < PLANTED_N; i++) {
        unsigned p = planted_schedule[i];
        if (!drawn[p]) {
            drawn[p] = 1;
            rank[p] = lp_rng_below(&r, count[p]);
        }
        if (pos[p]++ == rank[p])
            want[n++] = i;
    }
    check_samples(d, want, n);
    LP_CHECK_EQ_U64(n, PLANTED_PATTERNS);
    LP_CHECK(lp_phase_daemon_run(d, (const uint32_t *)planted_schedule, NULL, PLANTED_N) ==
             LP_EINVAL); /* not fresh */
    lp_phase_daemon_free(d);
}

static void test_centroid(void)
{
    /* Phase 0: bucket 1 varies by -60, +60, 0, +30 around 1000 (mean +7.5:
     * the 0 is nearest). Phase 1: bucket 9 by 0, +100, -100, +10 (mean +2.5:
     * the 0 is nearest). */
    const uint32_t phases[] = {0, 0, 1, 1, 0, 1, 0, 1};
    const int delta[] = {-60, 60, 0, 100, 0, -100, 30, 10};
    lp_signature sigs[8];
    memset(sigs, 0, sizeof sigs);
    for (int i = 0; i < 8; i++) {
        unsigned b = phases[i] ? 9 : 1;
        sigs[i].bucket[b - 1] = 3000;
        sigs[i].bucket[b] = (uint64_t)(1000 + delta[i]);
    }
    lp_phase_daemon_config c = {.strategy = LP_STRATEGY_PHASE, .policy = LP_POLICY_CENTROID};
    lp_phase_daemon *d = make(c);
    LP_CHECK(lp_phase_daemon_run(d, phases, NULL, 8) == LP_EINVAL);
    lp_phase_daemon_free(d);
    d = make(c);
    LP_CHECK(lp_phase_daemon_run(d, phases, sigs, 8) == 0);
    size_t n;
    const lp_phase_sample *s = lp_phase_daemon_samples(d, &n);
    LP_CHECK_EQ_U64(n, 2);
    if (n == 2) {
        LP_CHECK_EQ_U64(s[0].interval, 2);
        LP_CHECK_EQ_U64(s[1].interval, 4);
        LP_CHECK_EQ_U64(s[0].phase, 1);
        LP_CHECK_EQ_U64(s[1].phase, 0);
    }
    lp_phase_daemon_free(d);
}

/* The profile of an interval of pattern p (identical for every interval of
 * p), or, with vary, one that differs per interval. */
static void interval_table(lp_table *t, unsigned p, size_t i, int vary)
{
    lp_table_init(t, 0);
    for (unsigned j = 0; j < PLANTED_PCS; j++) {
        lp_key k = {planted_pc(p, j), 0};
        lp_entry *e = lp_table_upsert(t, k);
        e->v[0] += planted_weight(p, j) + (vary ? i * j : 0);
        e->v[1] += 3u * j + 1;
    }
}

static int tables_equal(const lp_table *a, const lp_table *b)
{
    if (a->count != b->count)
        return 0;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(a, &cur)) != NULL) {
        const lp_entry *f = lp_table_find(b, e->key);
        if (!f || f->v[0] != e->v[0] || f->v[1] != e->v[1])
            return 0;
    }
    return 1;
}

/* Reconstructs with config c over the planted schedule and compares with
 * the exhaustive total. */
static void check_reconstruct(lp_phase_daemon_config c, int vary, const lp_signature *sigs)
{
    lp_table iv[PLANTED_N], truth, est;
    lp_table_init(&truth, 0);
    lp_table_init(&est, 0);
    for (size_t i = 0; i < PLANTED_N; i++) {
        interval_table(&iv[i], planted_schedule[i], i, vary);
        lp_table_merge(&truth, &iv[i]);
    }
    lp_phase_daemon *d = make(c);
    LP_CHECK(lp_phase_daemon_run(d, (const uint32_t *)planted_schedule, sigs, PLANTED_N) == 0);
    size_t n;
    const lp_phase_sample *s = lp_phase_daemon_samples(d, &n);
    const lp_table *tabs[PLANTED_N];
    for (size_t j = 0; j < n; j++)
        tabs[j] = &iv[s[j].interval];
    LP_CHECK(lp_phase_reconstruct(d, tabs, n + 1, &est) == LP_EINVAL);
    LP_CHECK(lp_phase_reconstruct(d, tabs, n, &est) == 0);
    LP_CHECK(tables_equal(&est, &truth));
    for (size_t i = 0; i < PLANTED_N; i++)
        lp_table_fini(&iv[i]);
    lp_table_fini(&truth);
    lp_table_fini(&est);
    lp_phase_daemon_free(d);
}

static void test_reconstruct(void)
{
    lp_signature sigs[PLANTED_N];
    uint64_t x = 3;
    for (size_t i = 0; i < PLANTED_N; i++)
        planted_interval(planted_schedule[i], 4, &x, NULL, &sigs[i]);
    /* Identical intervals per phase: every phase-aware policy is exact,
     * also with resampling after evictions. */
    lp_phase_daemon_config first = {.strategy = LP_STRATEGY_PHASE, .k = 1};
    lp_phase_daemon_config second = {.strategy = LP_STRATEGY_PHASE, .k = 2};
    lp_phase_daemon_config evict = {.strategy = LP_STRATEGY_PHASE, .k = 1, .table_size = 2,
                                    .seed = 3};
    lp_phase_daemon_config rnd = {.strategy = LP_STRATEGY_PHASE, .policy = LP_POLICY_RANDOM,
                                  .seed = 8};
    lp_phase_daemon_config cen = {.strategy = LP_STRATEGY_PHASE, .policy = LP_POLICY_CENTROID};
    check_reconstruct(first, 0, NULL);
    check_reconstruct(second, 0, NULL);
    check_reconstruct(evict, 0, NULL);
    check_reconstruct(rnd, 0, NULL);
    check_reconstruct(cen, 0, sigs);
    /* Exhaustive is exact whatever the intervals hold. */
    lp_phase_daemon_config all = {.strategy = LP_STRATEGY_EXHAUSTIVE};
    check_reconstruct(all, 1, NULL);

    /* Periodic on a run whose intervals are all alike: total / sampled. */
    lp_phase_daemon_config per = {.strategy = LP_STRATEGY_PERIODIC, .period = 7};
    lp_phase_daemon *d = make(per);
    const uint32_t same[10] = {0};
    LP_CHECK(lp_phase_daemon_run(d, same, NULL, 10) == 0);
    size_t n;
    lp_phase_daemon_samples(d, &n);
    LP_CHECK_EQ_U64(n, 2); /* intervals 0 and 7 */
    lp_table one, est, want;
    interval_table(&one, 2, 0, 0);
    lp_table_init(&est, 0);
    lp_table_init(&want, 0);
    for (int i = 0; i < 10; i++)
        lp_table_merge(&want, &one);
    const lp_table *tabs[2] = {&one, &one};
    LP_CHECK(lp_phase_reconstruct(d, tabs, 2, &est) == 0);
    LP_CHECK(tables_equal(&est, &want));
    lp_table_fini(&one);
    lp_table_fini(&est);
    lp_table_fini(&want);
    lp_phase_daemon_free(d);
}

static void test_scale(void)
{
    lp_table src, out;
    lp_table_init(&src, 0);
    lp_table_init(&out, 0);
    lp_key k1 = {1, 0}, k2 = {2, 0}, k3 = {3, 0};
    lp_table_upsert(&src, k1)->v[0] = 1; /* 1 * 3/2 = 1.5 -> 2 */
    lp_table_upsert(&src, k2)->v[0] = 5; /* 5 * 3/2 = 7.5 -> 8 */
    lp_table_upsert(&src, k3)->v[1] = UINT64_MAX;
    LP_CHECK(lp_phase_scale_add(&out, &src, 3, 2) == 0);
    LP_CHECK_EQ_U64(lp_table_find(&out, k1)->v[0], 2);
    LP_CHECK_EQ_U64(lp_table_find(&out, k2)->v[0], 8);
    LP_CHECK_EQ_U64(lp_table_find(&out, k3)->v[1], UINT64_MAX); /* saturates */
    LP_CHECK(lp_phase_scale_add(&out, &src, 1, 3) == 0); /* 1/3 -> 0, 5/3 -> 2 */
    LP_CHECK_EQ_U64(lp_table_find(&out, k1)->v[0], 2);
    LP_CHECK_EQ_U64(lp_table_find(&out, k2)->v[0], 10);
    LP_CHECK(lp_phase_scale_add(&out, &src, 1, 0) == LP_EINVAL);
    lp_table_fini(&src);
    lp_table_fini(&out);
}

static void test_refusals(void)
{
    lp_phase_daemon *d;
    lp_phase_daemon_config bad[] = {
        {.strategy = 0},
        {.strategy = LP_STRATEGY_PERIODIC, .period = 0},
        {.strategy = LP_STRATEGY_PERIODIC, .period = 4, .offset = 4},
        {.strategy = LP_STRATEGY_RANDOM, .period = 0},
        {.strategy = LP_STRATEGY_PHASE, .policy = 9},
        {.strategy = LP_STRATEGY_PHASE, .predictor = 9},
        {.strategy = LP_STRATEGY_PHASE, .centroid_bits = 2},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        LP_CHECK(lp_phase_daemon_create(&bad[i], &d) == LP_EINVAL);
        LP_CHECK(d == NULL);
    }
    lp_phase_daemon_config c = {.strategy = LP_STRATEGY_PHASE};
    d = make(c);
    int f;
    LP_CHECK(lp_phase_daemon_boundary(d, 0, 0, &f) == LP_EINVAL); /* before start */
    LP_CHECK(lp_phase_daemon_start(d, 0, &f) == 0);
    LP_CHECK(lp_phase_daemon_start(d, 0, &f) == LP_EINVAL);
    LP_CHECK(lp_phase_daemon_boundary(d, LP_PHASE_NONE, 0, &f) == LP_EINVAL);
    LP_CHECK(lp_phase_daemon_finish(d, 0) == 0);
    LP_CHECK(lp_phase_daemon_finish(d, 0) == LP_EINVAL);
    lp_phase_daemon_free(d);
    lp_phase_daemon_free(NULL);
}

int main(void)
{
    test_kth_fits();
    test_small_table();
    test_periodic_random_exhaustive();
    test_predicted();
    test_offline_random();
    test_centroid();
    test_reconstruct();
    test_scale();
    test_refusals();
    return lp_test_done();
}
