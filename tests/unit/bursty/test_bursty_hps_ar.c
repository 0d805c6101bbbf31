/* The HPS engine's software framework (lp_hps_ar, the toggle the counter
 * trigger is checked against) and bursty tracing's check (lp_bursty) are
 * one state machine: over long runs of checks, for many settings, the mode
 * of every stretch and the counts of checks and bursts agree. The Valgrind
 * tool's --hps-ar runs lp_bursty; lp_hps_ar stays as the cost driver's
 * plain reference in lowprof eval hps. */
#include "lowprof/bursty.h"
#include "lowprof/hps.h"
#include "../lp_test.h"

int main(void)
{
    static const uint64_t nc[] = {1, 2, 3, 7, 20, 100, 1000};
    static const uint64_t ni[] = {1, 2, 5, 10, 50};
    for (size_t a = 0; a < sizeof nc / sizeof nc[0]; a++)
        for (size_t b = 0; b < sizeof ni / sizeof ni[0]; b++) {
            lp_hps_ar ar;
            lp_bursty bt;
            lp_hps_ar_init(&ar, nc[a], ni[b]);
            LP_CHECK(lp_bursty_init(&bt, nc[a], ni[b]) == 0);
            int same = 1;
            for (int i = 0; i < 20000; i++) {
                same &= (ar.sampling != 0) == (bt.mode == LP_BURSTY_INSTRUMENTED);
                lp_hps_ar_check(&ar);
                lp_bursty_check(&bt);
            }
            same &= (ar.sampling != 0) == (bt.mode == LP_BURSTY_INSTRUMENTED);
            LP_CHECK(same);
            lp_bursty_stats st;
            lp_bursty_stats_get(&bt, &st);
            LP_CHECK_EQ_U64(st.checks, ar.checks);
            LP_CHECK_EQ_U64(st.bursts, ar.bursts);
        }
    return lp_test_done();
}
