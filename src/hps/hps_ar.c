/* hps: the software sampling framework (Arnold and Ryder 2001, with
 * Hirzel and Chilimbi's bursts), the reference for the counter trigger.
 * Written the way the framework's checking code runs: a countdown per
 * check, a switch of copies at zero. */
#include "lowprof/hps.h"

void lp_hps_ar_init(lp_hps_ar *a, uint64_t n_check, uint64_t n_instr)
{
    __builtin_memset(a, 0, sizeof *a);
    a->n_check = n_check ? n_check : 1;
    a->n_instr = n_instr ? n_instr : 1;
    a->left = a->n_check;
}

void lp_hps_ar_check(lp_hps_ar *a)
{
    a->checks++;
    if (--a->left)
        return;
    a->sampling = !a->sampling;
    a->left = a->sampling ? a->n_instr : a->n_check;
    a->bursts += (uint64_t)a->sampling;
}
