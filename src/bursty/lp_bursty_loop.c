/* bursty: loop back-edge checks (Hirzel and Chilimbi, section 4.2):
 * k-boring loops and what each placement variant does to a loop.
 *
 * Pure decisions over facts the caller extracts once per loop at rewrite
 * time; nothing here runs while the program does. */
#include "lowprof/bursty.h"

int lp_bursty_loop_is_boring(const lp_bursty_loop *loop, uint32_t k)
{
    return !loop->has_call && loop->events <= k;
}

unsigned lp_bursty_loop_placement(const lp_bursty_placement *p, const lp_bursty_loop *loop)
{
    switch (p->loop) {
    case LP_BURSTY_LOOP_SKIP_BORING:
        if (lp_bursty_loop_is_boring(loop, p->k))
            return 0;
        return LP_BURSTY_LOOP_CHECK | LP_BURSTY_LOOP_INSTRUMENT;
    case LP_BURSTY_LOOP_NONE:
        return LP_BURSTY_LOOP_INSTRUMENT;
    default:
        return LP_BURSTY_LOOP_CHECK | LP_BURSTY_LOOP_INSTRUMENT;
    }
}
