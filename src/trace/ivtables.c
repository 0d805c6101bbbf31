/* lp_interval's life cycle: one table per profile type, reused from one
 * interval to the next so a long recording does not reallocate. */
#include "trace_internal.h"

int lp_interval_init(lp_interval *iv)
{
    if (!iv)
        return LP_EINVAL;
    __builtin_memset(iv, 0, sizeof *iv);
    for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
        lp_table_init(&iv->tables[t], 0); /* no allocation at 0, cannot fail */
    return 0;
}

/* Zeroes the header and signature and empties every table. Accepts NULL. */
void lp_interval_clear(lp_interval *iv)
{
    if (!iv)
        return;
    iv->index = iv->first_insn = iv->insns = 0;
    __builtin_memset(&iv->sig, 0, sizeof iv->sig);
    for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
        lp_table_clear(&iv->tables[t]);
}

void lp_interval_fini(lp_interval *iv)
{
    if (!iv)
        return;
    for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
        lp_table_fini(&iv->tables[t]);
}
