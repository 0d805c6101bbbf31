/* bursty: the overhead model, equations (1), (2) and (4), on values worked
 * out by hand; the identity between (2) and (4); the limits at an infinite
 * nCheck_0; and the sampling rates of the paper's Fig. 7 groups. */
#include "lowprof/bursty.h"
#include "../lp_test.h"

static int near(double a, double b)
{
    double d = a - b;
    return d < 1e-12 && d > -1e-12;
}

int main(void)
{
    /* t_orig 10, t_checking 11, t_instrumented 30 */
    lp_bursty_model m = {10.0, 11.0, 30.0, 9, 1};

    /* (1): (9 * 11 + 30) / 10 = 12.9 */
    LP_CHECK(near(lp_bursty_model_time_ar(&m), 12.9));
    /* (2) with nInstr_0 = 1 is (1) */
    LP_CHECK(near(lp_bursty_model_time(&m), 12.9));
    /* (1) ignores nInstr_0 */
    m.n_instr0 = 7;
    LP_CHECK(near(lp_bursty_model_time_ar(&m), 12.9));

    /* (2): (100 * 11 + 5 * 30) / 105 = 1250 / 105 */
    m.n_check0 = 100;
    m.n_instr0 = 5;
    LP_CHECK(near(lp_bursty_model_time(&m), 1250.0 / 105.0));
    /* r = 5 / 105; basic overhead 11 / 10 - 1 = 0.1 */
    LP_CHECK(near(lp_bursty_model_rate(&m), 5.0 / 105.0));
    LP_CHECK(near(lp_bursty_model_basic_overhead(&m), 0.1));
    /* (4): 0.1 + (5 / 105) * (30 - 11) / 10 = 0.1 + 9.5 / 105 */
    LP_CHECK(near(lp_bursty_model_overhead(&m), 0.1 + 9.5 / 105.0));
    /* (4) is (2) divided by t_orig, less one */
    LP_CHECK(near(lp_bursty_model_overhead(&m), lp_bursty_model_time(&m) / 10.0 - 1.0));

    /* checks cheaper than nothing (a basic overhead below zero happens in
     * measurements): the formulas do not clamp */
    lp_bursty_model fast = {10.0, 9.0, 20.0, 1, 1};
    LP_CHECK(near(lp_bursty_model_basic_overhead(&fast), -0.1));
    LP_CHECK(near(lp_bursty_model_time(&fast), 14.5));
    LP_CHECK(near(lp_bursty_model_overhead(&fast), 0.45));

    /* infinite nCheck_0, nInstr_0 = 1: the t_checking measurement */
    lp_bursty_model inf = {10.0, 11.0, 30.0, LP_BURSTY_INFINITE, 1};
    LP_CHECK(near(lp_bursty_model_time_ar(&inf), 11.0));
    LP_CHECK(near(lp_bursty_model_time(&inf), 11.0));
    LP_CHECK(near(lp_bursty_model_rate(&inf), 0.0));
    LP_CHECK(near(lp_bursty_model_overhead(&inf), 0.1));

    /* Fig. 7's groups share a rate: 20:1, 200:10, 1000:50 are 1/21 (the
     * paper's "5 %"), 100:1, 1000:10, 5000:50 are 1/101, 200:1, 2000:10
     * are 1/201. */
    static const uint64_t groups[3][3][2] = {{{20, 1}, {200, 10}, {1000, 50}},
                                             {{100, 1}, {1000, 10}, {5000, 50}},
                                             {{200, 1}, {2000, 10}, {200, 1}}};
    static const double rate[3] = {1.0 / 21.0, 1.0 / 101.0, 1.0 / 201.0};
    for (int g = 0; g < 3; g++)
        for (int i = 0; i < 3; i++) {
            lp_bursty_model x = {1.0, 1.0, 1.0, groups[g][i][0], groups[g][i][1]};
            LP_CHECK(near(lp_bursty_model_rate(&x), rate[g]));
        }
    return lp_test_done();
}
