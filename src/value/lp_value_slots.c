/* value: one slot of the co-processor's slot array (paper 004, "Slots"
 * and the appendix's counter-saturation, value re-sampling and
 * informational-replacement paragraphs): what a sample does to the slot of
 * its PC, how a new slot starts, and whether the slot under the rotating
 * index may be taken by a new instruction.
 *
 * Counters are narrow and saturate. The rules (doc/value.md):
 * - hit or miss counter at its maximum: both are halved, which keeps their
 *   ratio and leaves room for more updates;
 * - after reselect_min samples in the current active value's region, an
 *   invariance below reselect re-selects the active value (the sample's
 *   value becomes it, hits 1, misses 0) unless the old active value has
 *   keep_hits hits already, in which case the slot is switched off so its
 *   information survives until the next copy;
 * - total counter at its maximum: the slot is switched off, so the count
 *   of samples it observed stays exact. */
#include "lp_value_internal.h"

static void slot_halve(lp__value_slot *s)
{
    s->hits >>= 1;
    s->misses >>= 1;
}

unsigned lp__value_slot_update(lp__value_slot *s, const lp__value_limits *l, uint64_t value,
                               uint64_t full_value)
{
    unsigned r = 0;
    s->total++;
    if (value == s->value) {
        r |= LP__UPDATE_HIT;
        if (++s->hits >= l->hit_max) {
            slot_halve(s);
            r |= LP__UPDATE_HALVED;
        }
    } else {
        if (++s->misses >= l->hit_max) {
            slot_halve(s);
            r |= LP__UPDATE_HALVED;
        }
        uint64_t seen = (uint64_t)s->hits + s->misses;
        /* invariance < reselect, in Q16 without a division */
        if (seen >= l->reselect_min && ((uint64_t)s->hits << 16) < (uint64_t)l->reselect_q16 * seen) {
            if (s->hits >= l->keep_hits) {
                s->state = LP__SLOT_OFF;
                return r | LP__UPDATE_OFF_KEEP;
            }
            s->value = value;
            s->full_value = full_value;
            s->hits = 1;
            s->misses = 0;
            r |= LP__UPDATE_RESELECT;
        }
    }
    if (s->total >= l->total_max) {
        s->state = LP__SLOT_OFF;
        r |= LP__UPDATE_OFF_TOTAL;
    }
    return r;
}

void lp__value_slot_fill(lp__value_slot *s, uint64_t pc, uint64_t value, uint64_t full_pc,
                         uint64_t full_value)
{
    s->pc = pc;
    s->value = value;
    s->full_pc = full_pc;
    s->full_value = full_value;
    s->hits = 1;
    s->misses = 0;
    s->total = 1;
    s->state = LP__SLOT_ON;
}

int lp__value_slot_replaceable(const lp__value_slot *s, uint32_t draw)
{
    if (s->state == LP__SLOT_EMPTY)
        return 1;
    if (s->state == LP__SLOT_OFF)
        return 0;
    return draw > s->total;
}
