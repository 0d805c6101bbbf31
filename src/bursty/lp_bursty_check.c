/* bursty: the check of the long-burst framework (Hirzel and Chilimbi,
 * section 2, Fig. 3), off its fast path.
 *
 * The fast path (a decrement and a branch) is lp_bursty_check in the
 * header, inlined into the front ends' hot paths. Everything else lives
 * here and runs once per n_check0 checks in the checking code and once per
 * check in the instrumented code, so the accounting is kept here too: the
 * number of fast-path checks is recovered from how far n_check has counted
 * down instead of being counted one by one. */
#include "lowprof/bursty.h"

int lp_bursty_init(lp_bursty *s, uint64_t n_check0, uint64_t n_instr0)
{
    if (n_check0 == 0 || n_instr0 == 0)
        return LP_EINVAL;
    __builtin_memset(s, 0, sizeof *s);
    s->n_check0 = n_check0;
    s->n_instr0 = n_instr0;
    s->n_check = n_check0;
    s->armed = n_check0;
    s->n_instr = 0;
    s->mode = LP_BURSTY_CHECKING;
    return 0;
}

int lp_bursty_check_slow(lp_bursty *s)
{
    s->slow_checks++;
    if (s->n_instr == 0) {
        /* A checking stretch ends here: armed - 1 checks took the fast path. */
        s->fast_checks += s->armed - 1;
        if (s->n_check0 == LP_BURSTY_INFINITE) {
            /* An infinite nCheck_0 never reaches zero; the finite counter did
             * (after 2^64 - 1 checks), so it starts over instead of letting
             * Fig. 3 go on into a burst. */
            s->n_check = LP_BURSTY_INFINITE;
            s->armed = LP_BURSTY_INFINITE;
            return LP_BURSTY_CHECKING;
        }
    } else {
        s->checks_in_instr++;
    }

    /* Fig. 3 from "nCheck = 1" on. Keeping nCheck at 1 while instrumented
     * sends every check of a burst here. */
    s->n_check = 1;
    if (s->n_instr == 0) {
        s->n_instr = s->n_instr0; /* checking -> instrumented */
        s->mode = LP_BURSTY_INSTRUMENTED;
        s->bursts++;
        s->stretches_instr++;
        return LP_BURSTY_INSTRUMENTED;
    }
    s->n_instr--;
    if (s->n_instr != 0) { /* stay instrumented */
        s->stretches_instr++;
        return LP_BURSTY_INSTRUMENTED;
    }
    s->n_check = s->n_check0; /* instrumented -> checking */
    s->armed = s->n_check0;
    s->mode = LP_BURSTY_CHECKING;
    return LP_BURSTY_CHECKING;
}

void lp_bursty_stats_get(const lp_bursty *s, lp_bursty_stats *out)
{
    uint64_t partial = s->n_instr == 0 ? s->armed - s->n_check : 0;
    out->checks = s->fast_checks + partial + s->slow_checks;
    out->bursts = s->bursts;
    out->checks_in_instr = s->checks_in_instr;
    out->stretches_instr = s->stretches_instr;
}
