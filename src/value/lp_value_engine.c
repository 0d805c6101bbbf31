/* value: the co-processor's routine for one sample, the paper's flowchart
 * (paper 004, appendix figure "processor value profiling algorithm"):
 *
 *   sample (pc, value)
 *   a slot on for pc?  yes: total++; value = active? hits++ : misses++,
 *                           then saturation, re-selection or switching
 *                           off (lp_value_slots.c); done.
 *                      no:  the slot under the rotating index replaceable
 *                           (empty, or on with total < rand)?
 *                           yes: it takes pc and value, index++, failed--;
 *                                replacements past the thrash limit
 *                                -> interrupt (thrash); done.
 *                           no:  the sample is dropped, failed++;
 *                                failed at its limit -> interrupt; done.
 *
 * Runs once per sample the buffer delivers: a CAM lookup and a few counter
 * updates, plus an LFSR draw when a new instruction competes. The full PC
 * and value travel with the sample only for the aliasing statistics. */
#include "lp_value_internal.h"

static void slot_matched(lp_value_profiler *p, lp__value_slot *s, const lp__value_sample *smp,
                         uint64_t value)
{
    if (s->full_pc != smp->pc)
        p->stats.alias_pc++;
    unsigned r = lp__value_slot_update(s, &p->lim, value, smp->value);
    if (r & LP__UPDATE_HIT) {
        p->stats.hits++;
        if (s->full_value != smp->value)
            p->stats.alias_value++;
    } else {
        p->stats.misses++;
    }
    if (r & LP__UPDATE_HALVED)
        p->stats.halvings++;
    if (r & LP__UPDATE_RESELECT)
        p->stats.reselections++;
    if (r & (LP__UPDATE_OFF_KEEP | LP__UPDATE_OFF_TOTAL)) {
        if (r & LP__UPDATE_OFF_KEEP)
            p->stats.off_reselect++;
        else
            p->stats.off_total++;
        lp__value_cam_remove(&p->cam, s->pc);
    }
}

int lp__value_process(lp_value_profiler *p, const lp__value_sample *smp)
{
    uint64_t pc = smp->pc & p->pc_mask, value = smp->value & p->value_mask;
    p->stats.samples++;
    p->stats.coproc_cycles += p->o.sample_cycles;
    p->epoch_samples++;
    uint32_t i = lp__value_cam_find(&p->cam, pc);
    if (i != LP__CAM_EMPTY) {
        slot_matched(p, &p->slots[i], smp, value);
        return LP_OK;
    }
    lp__value_slot *s = &p->slots[p->index];
    /* Only an occupied slot that is on costs a random number. */
    uint32_t draw = s->state == LP__SLOT_ON ? lp__value_lfsr_draw(&p->lfsr, p->rand_bits) : 0;
    if (!lp__value_slot_replaceable(s, draw)) {
        p->stats.failed++;
        if (p->failed < p->fail_limit)
            p->failed++;
        return p->failed >= p->fail_limit ? lp__value_interrupt(p, LP__IRQ_FAILED) : LP_OK;
    }
    int replaced = s->state == LP__SLOT_ON;
    if (replaced) {
        p->stats.replacements++;
        p->stats.samples_lost += s->total;
        p->epoch_replacements++;
        lp__value_cam_remove(&p->cam, s->pc);
    } else {
        p->stats.allocations++;
        p->occupied++;
    }
    lp__value_slot_fill(s, pc, value, smp->pc, smp->value);
    lp__value_cam_insert(&p->cam, pc, p->index);
    p->index = p->index + 1 == p->o.slots ? 0 : p->index + 1;
    if (p->failed)
        p->failed--;
    if (replaced && p->epoch_replacements > p->thrash_limit)
        return lp__value_interrupt(p, LP__IRQ_THRASH);
    return LP_OK;
}
