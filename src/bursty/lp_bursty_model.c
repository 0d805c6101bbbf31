/* bursty: the overhead model of Hirzel and Chilimbi, equations (1), (2)
 * and (4), and the sampling rate r of sections 2 and 5.1.
 *
 * Pure arithmetic on the caller's measurements, for lowprof eval's tables
 * and for choosing n_check0 : n_instr0 against an overhead budget. An
 * infinite nCheck_0 is the limit the paper uses to measure t_checking, so
 * each formula takes its limit there instead of dividing infinities. */
#include "lowprof/bursty.h"

double lp_bursty_model_time_ar(const lp_bursty_model *m)
{
    if (m->n_check0 == LP_BURSTY_INFINITE)
        return m->t_checking;
    double n_check0 = (double)m->n_check0;
    return (n_check0 * m->t_checking + 1.0 * m->t_instrumented) / (n_check0 + 1.0);
}

double lp_bursty_model_time(const lp_bursty_model *m)
{
    if (m->n_check0 == LP_BURSTY_INFINITE)
        return m->t_checking;
    double n_check0 = (double)m->n_check0, n_instr0 = (double)m->n_instr0;
    return (n_check0 * m->t_checking + n_instr0 * m->t_instrumented) / (n_check0 + n_instr0);
}

double lp_bursty_model_rate(const lp_bursty_model *m)
{
    if (m->n_check0 == LP_BURSTY_INFINITE)
        return 0.0;
    double n_check0 = (double)m->n_check0, n_instr0 = (double)m->n_instr0;
    return n_instr0 / (n_check0 + n_instr0);
}

double lp_bursty_model_basic_overhead(const lp_bursty_model *m)
{
    return m->t_checking / m->t_orig - 1.0;
}

double lp_bursty_model_overhead(const lp_bursty_model *m)
{
    return lp_bursty_model_basic_overhead(m) +
           lp_bursty_model_rate(m) * (m->t_instrumented - m->t_checking) / m->t_orig;
}
