/* phase: the next-phase predictors on sequences whose accuracy is known by
 * hand: a cycle A B C (last-phase never right, Markov and run-length right
 * after one cycle) and runs A A A B (run-length learns the run length;
 * last-phase is right within runs; last-successor Markov is fooled by A's
 * two successors). */
#include "lowprof/phase.h"
#include "../lp_test.h"

static void run(unsigned kind, const char *seq, uint64_t want_pred, uint64_t want_right)
{
    lp_phase_predictor p;
    LP_CHECK(lp_phase_predictor_init(&p, kind, 0) == 0);
    LP_CHECK_EQ_U64(lp_phase_predictor_predict(&p), LP_PHASE_NONE);
    for (const char *c = seq; *c; c++)
        LP_CHECK(lp_phase_predictor_update(&p, (uint32_t)(*c - 'A')) == 0);
    LP_CHECK_EQ_U64(p.predictions, want_pred);
    LP_CHECK_EQ_U64(p.correct, want_right);
    lp_phase_predictor_fini(&p);
}

int main(void)
{
    const char *cycle = "ABCABCABCABCABCABCABCABCABCABC"; /* 30 */
    const char *runs = "AAABAAABAAABAAABAAABAAABAAABAAABAAABAAAB"; /* 40 */
    run(LP_PREDICT_LAST, cycle, 29, 0);
    run(LP_PREDICT_MARKOV, cycle, 29, 26);     /* wrong only in the first cycle */
    run(LP_PREDICT_RUN_LENGTH, cycle, 29, 26);
    run(LP_PREDICT_LAST, runs, 39, 20);        /* 39 pairs, 19 changes */
    run(LP_PREDICT_RUN_LENGTH, runs, 39, 37);  /* wrong at the first A->B and B->A */
    /* Markov: after the first period, right at each A after B and at the
     * second A of a run, wrong at the first A (predicts B) and at B. */
    run(LP_PREDICT_MARKOV, runs, 39, 19);

    /* The state bound: with room for one state, only A's successor is kept. */
    lp_phase_predictor p;
    LP_CHECK(lp_phase_predictor_init(&p, LP_PREDICT_MARKOV, 1) == 0);
    for (const char *c = cycle; *c; c++)
        lp_phase_predictor_update(&p, (uint32_t)(*c - 'A'));
    LP_CHECK_EQ_U64(p.transitions.count, 1);
    LP_CHECK_EQ_U64(p.correct, 9); /* A -> B after the first cycle; B, C fall back */
    lp_phase_predictor_fini(&p);
    LP_CHECK(lp_phase_predictor_init(&p, 7, 0) == LP_EINVAL);
    return lp_test_done();
}
