/* value: what the main processor reads and sets outside interrupts: the
 * statistics, the PC filter's region, and single bits of the small table
 * and the done table. Constant time; no allocation. */
#include "lp_value_internal.h"

void lp_value_get_stats(const lp_value_profiler *p, lp_value_stats *out)
{
    *out = p->stats;
    out->mask_bits = p->filter.mask_bits;
    out->match = p->filter.match;
    out->buffered = p->buf.count;
}

int lp_value_set_region(lp_value_profiler *p, unsigned mask_bits, uint32_t match)
{
    if (mask_bits > 32 || (mask_bits < 32 && match >> mask_bits))
        return LP_EINVAL;
    p->filter.mask_bits = mask_bits;
    p->filter.match = match;
    p->region_start = p->now;
    p->idle = 0;
    p->stats.mask_bits = mask_bits;
    p->stats.match = match;
    return LP_OK;
}

void lp_value_ignore(lp_value_profiler *p, uint64_t pc, int on)
{
    lp__value_bit_set(p->filter.ignore, lp__value_ignore_index(&p->filter, pc & p->pc_mask), on);
}

int lp_value_is_done(const lp_value_profiler *p, uint64_t pc)
{
    return lp__value_bit_get(p->filter.done, lp__value_done_index(&p->filter, pc & p->pc_mask));
}
