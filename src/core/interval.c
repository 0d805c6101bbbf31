/* The one interval cutter: every front end and the trace replayer cut
 * intervals here, so interval k means the same thing everywhere. */
#include "lowprof/core.h"

void lp_interval_cutter_init(lp_interval_cutter *c, uint64_t length)
{
    c->length = length ? length : LP_DEFAULT_INTERVAL;
    c->index = 0;
    c->start = 0;
    c->next_cut = c->length;
}

void lp_interval_cutter_advance(lp_interval_cutter *c, uint64_t icount)
{
    c->index++;
    c->start = icount;
    /* A block longer than what was left of the interval overshoots the
     * nominal end; the next interval still ends at a multiple of length, so
     * drift never accumulates, but it must end after icount. */
    c->next_cut = (icount / c->length + 1) * c->length;
}
