/* bursty: the check of Fig. 3 against a separate, literal transcription of
 * the figure, on random sequences of checks spread over several per-thread
 * states with random nCheck_0 and nInstr_0 (1, small, large and infinite):
 * every decision, the counters and the statistics must agree. Then the
 * decision sequence of a small case written out by hand, the sampling rate
 * over whole periods, the infinite setting and bad parameters. */
#include "lowprof/bursty.h"
#include "../lp_test.h"

/* ---- Fig. 3, transcribed line by line ------------------------------------ */

typedef struct fig3 {
    uint64_t nCheck, nInstr, nCheck0, nInstr0;
    int infinite; /* nCheck_0 is infinity: nCheck-- leaves it infinite */
    /* what a reader of the figure counts */
    uint64_t checks, bursts, checks_in_instr, stretches_instr;
    int in_instr;
} fig3;

static void fig3_init(fig3 *f, uint64_t nCheck0, uint64_t nInstr0)
{
    f->nCheck0 = nCheck0;
    f->nInstr0 = nInstr0;
    f->infinite = nCheck0 == LP_BURSTY_INFINITE;
    f->nCheck = nCheck0;
    f->nInstr = 0;
    f->checks = f->bursts = f->checks_in_instr = f->stretches_instr = 0;
    f->in_instr = 0;
}

/* Returns 1 for "goto target_instrumented", 0 for "goto target_checking". */
static int fig3_logic(fig3 *f)
{
    if (!f->infinite)
        f->nCheck--;
    if (f->infinite || f->nCheck != 0)
        return 0;
    f->nCheck = 1;
    if (f->nInstr == 0) {
        f->nInstr = f->nInstr0;
        return 1;
    }
    f->nInstr--;
    if (f->nInstr != 0)
        return 1;
    f->nCheck = f->nCheck0;
    return 0;
}

static int fig3_check(fig3 *f)
{
    int was = f->in_instr;
    int to = fig3_logic(f);
    f->checks++;
    f->checks_in_instr += (uint64_t)was;
    f->stretches_instr += (uint64_t)to;
    f->bursts += (uint64_t)(!was && to);
    f->in_instr = to;
    return to;
}

/* ---- comparisons ----------------------------------------------------------- */

static int same_stats(const lp_bursty *s, const fig3 *f)
{
    lp_bursty_stats st;
    lp_bursty_stats_get(s, &st);
    return st.checks == f->checks && st.bursts == f->bursts &&
           st.checks_in_instr == f->checks_in_instr && st.stretches_instr == f->stretches_instr;
}

static int same_state(const lp_bursty *s, const fig3 *f)
{
    if (s->n_instr != f->nInstr || s->mode != f->in_instr)
        return 0;
    /* the finite stand-in for infinity counts down; the figure's does not */
    return f->infinite ? s->n_instr == 0 : s->n_check == f->nCheck;
}

static uint64_t pick_n_check0(lp_rng *r)
{
    switch (lp_rng_below(r, 6)) {
    case 0: return 1;
    case 1: return 2;
    case 2: return 1 + lp_rng_below(r, 20);
    case 3: return 1 + lp_rng_below(r, 2000);
    case 4: return 5000;
    default: return LP_BURSTY_INFINITE;
    }
}

static uint64_t pick_n_instr0(lp_rng *r)
{
    switch (lp_rng_below(r, 4)) {
    case 0: return 1;
    case 1: return 2 + lp_rng_below(r, 5);
    case 2: return 1 + lp_rng_below(r, 100);
    default: return 50;
    }
}

#define THREADS 4

static void random_sequences(void)
{
    int decision_mismatch = 0, state_mismatch = 0, stats_mismatch = 0;
    uint64_t saw_instr = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        lp_rng r;
        lp_rng_seed(&r, seed);
        lp_bursty s[THREADS];
        fig3 f[THREADS];
        unsigned threads = 1 + (unsigned)lp_rng_below(&r, THREADS);
        for (unsigned t = 0; t < threads; t++) {
            uint64_t n_check0 = pick_n_check0(&r), n_instr0 = pick_n_instr0(&r);
            LP_CHECK(lp_bursty_init(&s[t], n_check0, n_instr0) == 0);
            fig3_init(&f[t], n_check0, n_instr0);
        }
        uint64_t checks = lp_rng_below(&r, 40000);
        for (uint64_t i = 0; i < checks; i++) {
            unsigned t = (unsigned)lp_rng_below(&r, threads);
            int got = lp_bursty_check(&s[t]);
            int want = fig3_check(&f[t]);
            decision_mismatch += got != want;
            state_mismatch += !same_state(&s[t], &f[t]);
            saw_instr += (uint64_t)got;
            if (lp_rng_below(&r, 64) == 0)
                stats_mismatch += !same_stats(&s[t], &f[t]);
        }
        for (unsigned t = 0; t < threads; t++)
            stats_mismatch += !same_stats(&s[t], &f[t]);
    }
    LP_CHECK_EQ_U64(decision_mismatch, 0);
    LP_CHECK_EQ_U64(state_mismatch, 0);
    LP_CHECK_EQ_U64(stats_mismatch, 0);
    LP_CHECK(saw_instr > 100000); /* the sequences did reach the bursts */
}

/* n_check0 = 3, n_instr0 = 2, by hand from Fig. 3: two checks count nCheck
 * down to 1, the third reaches zero and enters the burst, the fourth stays
 * (nInstr 2 -> 1), the fifth leaves (nInstr 1 -> 0, nCheck = 3), and the
 * period of five checks repeats. */
static void hand_sequence(void)
{
    static const char want[] = "CCIICCCIICCCIICCCII";
    lp_bursty s;
    LP_CHECK(lp_bursty_init(&s, 3, 2) == 0);
    int bad = 0;
    for (size_t i = 0; want[i]; i++) {
        int got = lp_bursty_check(&s);
        bad += got != (want[i] == 'I' ? LP_BURSTY_INSTRUMENTED : LP_BURSTY_CHECKING);
        bad += s.mode != got;
    }
    LP_CHECK_EQ_U64(bad, 0);
    lp_bursty_stats st;
    lp_bursty_stats_get(&s, &st);
    LP_CHECK_EQ_U64(st.checks, 19);
    LP_CHECK_EQ_U64(st.bursts, 4);
    LP_CHECK_EQ_U64(st.stretches_instr, 8);
    LP_CHECK_EQ_U64(st.checks_in_instr, 7); /* the last burst has not been left yet */

    /* n_instr0 = 1: Arnold and Ryder's bursts of a single stretch. */
    static const char ar[] = "CCCIC" "CCCIC" "CCCI";
    LP_CHECK(lp_bursty_init(&s, 4, 1) == 0);
    bad = 0;
    for (size_t i = 0; ar[i]; i++)
        bad += lp_bursty_check(&s) != (ar[i] == 'I');
    LP_CHECK_EQ_U64(bad, 0);

    /* n_check0 = 1: the burst begins at the first check. */
    LP_CHECK(lp_bursty_init(&s, 1, 3) == 0);
    static const char one[] = "IIICIIIC";
    bad = 0;
    for (size_t i = 0; one[i]; i++)
        bad += lp_bursty_check(&s) != (one[i] == 'I');
    LP_CHECK_EQ_U64(bad, 0);
}

/* Whole periods give exactly r = nInstr_0 / (nCheck_0 + nInstr_0): the
 * paper's Fig. 7 settings. */
static void sampling_rate(void)
{
    static const uint64_t settings[][2] = {{20, 1},  {200, 10},  {1000, 50}, {100, 1},
                                           {1000, 10}, {5000, 50}, {200, 1},  {2000, 10}};
    for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
        uint64_t n_check0 = settings[i][0], n_instr0 = settings[i][1], periods = 37;
        lp_bursty s;
        LP_CHECK(lp_bursty_init(&s, n_check0, n_instr0) == 0);
        uint64_t instr = 0;
        for (uint64_t k = 0; k < periods * (n_check0 + n_instr0); k++)
            instr += (uint64_t)lp_bursty_check(&s);
        lp_bursty_stats st;
        lp_bursty_stats_get(&s, &st);
        LP_CHECK_EQ_U64(instr, periods * n_instr0);
        LP_CHECK_EQ_U64(st.checks, periods * (n_check0 + n_instr0));
        LP_CHECK_EQ_U64(st.stretches_instr, periods * n_instr0);
        LP_CHECK_EQ_U64(st.checks_in_instr, periods * n_instr0);
        LP_CHECK_EQ_U64(st.bursts, periods);
        lp_bursty_model m = {1, 1, 1, n_check0, n_instr0};
        double rate = (double)st.stretches_instr / (double)st.checks;
        double diff = rate - lp_bursty_model_rate(&m);
        LP_CHECK(diff < 1e-12 && diff > -1e-12);
    }
}

/* nCheck_0 infinite (with nInstr_0 = 1): the setting that measures
 * t_checking never enters the instrumented code. */
static void infinite(void)
{
    lp_bursty s;
    LP_CHECK(lp_bursty_init(&s, LP_BURSTY_INFINITE, 1) == 0);
    uint64_t instr = 0;
    for (uint64_t k = 0; k < 1000000; k++)
        instr += (uint64_t)lp_bursty_check(&s);
    LP_CHECK_EQ_U64(instr, 0);
    lp_bursty_stats st;
    lp_bursty_stats_get(&s, &st);
    LP_CHECK_EQ_U64(st.checks, 1000000);
    LP_CHECK_EQ_U64(st.bursts, 0);

    /* The finite counter standing in for infinity running out (after
     * 2^64 - 1 checks) must not start a burst. Wind it forward by hand,
     * consistently with its accounting: as if armed at 5. */
    LP_CHECK(lp_bursty_init(&s, LP_BURSTY_INFINITE, 1) == 0);
    s.n_check = 5;
    s.armed = 5;
    instr = 0;
    for (uint64_t k = 0; k < 100; k++)
        instr += (uint64_t)lp_bursty_check(&s);
    LP_CHECK_EQ_U64(instr, 0);
    LP_CHECK(s.n_check == LP_BURSTY_INFINITE - 95);
    LP_CHECK(s.mode == LP_BURSTY_CHECKING && s.n_instr == 0);
    lp_bursty_stats_get(&s, &st);
    LP_CHECK_EQ_U64(st.checks, 100);
    LP_CHECK_EQ_U64(st.bursts, 0);
}

static void bad_parameters(void)
{
    lp_bursty s;
    LP_CHECK(lp_bursty_init(&s, 0, 1) == LP_EINVAL);
    LP_CHECK(lp_bursty_init(&s, 1, 0) == LP_EINVAL);
    LP_CHECK(lp_bursty_init(&s, 1, 1) == 0);
    LP_CHECK(s.mode == LP_BURSTY_CHECKING && s.n_check == 1 && s.n_instr == 0);
}

int main(void)
{
    random_sequences();
    hand_sequence();
    sampling_rate();
    infinite();
    bad_parameters();
    return lp_test_done();
}
