/* value: the main processor's side (paper 004, "Interactions with the main
 * processor", the algorithm's steps 3 to 5, and the appendix's interrupt
 * strategy, thrash detection and re-sampling paragraphs).
 *
 * An interrupt costs a fixed number of cycles plus a number per slot
 * copied. Its kinds:
 * - failed: the failed counter reached its limit, the slots are full of
 *   instructions that will not give way; copy them and start clean;
 * - thrash: replacements since the last interrupt exceeded the thrash
 *   limit; the slots hold little information, so they are discarded
 *   uncopied and the PC filter's mask widens by 1 to split_max bits,
 *   more the faster the thrashing (replacements per sample);
 * - region: a timer found the region idle (nothing tagged for
 *   region_idle filter-class instructions) or old (region_max) while
 *   slots hold counts; copy, start clean and move to the next region
 *   (with the slots empty the co-processor moves on by itself);
 * - resample: a timer found a done instruction due for un-masking;
 * - final: lp_value_finish copies what is left.
 * After each copy the handler decides, per instruction copied, whether it
 * is done (masked in the done table); after every interrupt it un-masks
 * the done instructions whose re-sampling period has passed. */
#include "lp_value_internal.h"

static void clear_slots(lp_value_profiler *p)
{
    __builtin_memset(p->slots, 0, (size_t)p->o.slots * sizeof *p->slots);
    lp__value_cam_clear(&p->cam);
    p->index = 0;
    p->failed = 0;
    p->occupied = 0;
}

static int mask_done(lp_value_profiler *p, uint32_t ri)
{
    lp__value_rec *r = &p->store.recs[ri];
    r->done = 1;
    r->done_seq++;
    r->done_time = p->now;
    lp__value_bit_set(p->filter.done, lp__value_done_index(&p->filter, r->pc), 1);
    p->stats.masked++;
    return p->o.resample ? lp__value_store_queue_push(&p->store, ri, r->done_seq) : LP_OK;
}

/* The confidence test of the paper's "Confidence estimation": enough
 * profiles and samples, and an invariance past either threshold; or the
 * most profiles an instruction may have. */
static int is_done(const lp_value_profiler *p, const lp__value_rec *r, double *scratch)
{
    if (r->profiles >= p->o.max_profiles)
        return 1;
    if (r->profiles < p->o.min_profiles || r->samples < p->o.min_samples)
        return 0;
    double top = lp__value_top_invariance(r, scratch);
    return top >= p->o.high || top <= p->o.low;
}

static int copy_slots(lp_value_profiler *p)
{
    lp__value_store *st = &p->store;
    st->ntouched = 0;
    for (uint32_t i = 0; i < p->o.slots; i++) {
        const lp__value_slot *s = &p->slots[i];
        if (s->state == LP__SLOT_EMPTY)
            continue;
        long ri = lp__value_store_rec(st, s->pc);
        if (ri < 0)
            return LP_ENOMEM;
        lp__value_rec *r = &st->recs[ri];
        if (lp__value_store_add(st, r, s->value, s->hits, s->misses, s->total))
            return LP_ENOMEM;
        p->stats.slots_copied++;
        p->stats.cycles += p->o.slot_cycles;
        if (r->last_irq == p->irq_serial)
            continue;
        if (r->done) {
            /* Samples that were in the buffer when it was masked count,
             * but are no new profile. */
            if (lp__value_bit_get(p->filter.done, lp__value_done_index(&p->filter, r->pc)))
                continue;
            /* Its bit was cleared because another instruction sharing it
             * was un-masked: this one is being re-sampled too. */
            r->done = 0;
            r->profiles = 0;
            r->resamples++;
            p->stats.resampled++;
        }
        r->last_irq = p->irq_serial;
        r->profiles++;
        if (lp__value_store_touch(st, (uint32_t)ri))
            return LP_ENOMEM;
    }
    for (size_t k = 0; k < st->ntouched; k++) {
        const lp__value_rec *r = &st->recs[st->touched[k]];
        double *scratch = lp__value_store_scratch(st, r->nvals);
        if (!scratch)
            return LP_ENOMEM;
        if (is_done(p, r, scratch) && mask_done(p, st->touched[k]))
            return LP_ENOMEM;
    }
    return LP_OK;
}

/* The oldest masked instruction still masked, or NULL: queue entries of
 * instructions un-masked meanwhile, or masked again since (a newer entry
 * stands for them), are dropped on the way. */
static lp__value_rec *oldest_done(lp__value_store *st)
{
    while (st->qlen) {
        const lp__value_doneq *q = &st->q[st->qhead];
        lp__value_rec *r = &st->recs[q->rec];
        if (r->done && r->done_seq == q->seq)
            return r;
        st->qhead = st->qhead + 1 == st->qcap ? 0 : st->qhead + 1;
        st->qlen--;
    }
    return NULL;
}

/* Un-masks every done instruction whose period has passed. */
static void resample_due(lp_value_profiler *p)
{
    lp__value_store *st = &p->store;
    lp__value_rec *r;
    while ((r = oldest_done(st)) && p->now - r->done_time >= p->o.resample) {
        lp__value_bit_set(p->filter.done, lp__value_done_index(&p->filter, r->pc), 0);
        r->done = 0; /* its queue entry is now stale: the next call drops it */
        r->profiles = 0;
        r->resamples++;
        p->stats.resampled++;
    }
}

/* Thrash: the faster the slots were thrashing (replacements per sample
 * since the last interrupt), the finer the new partition. Returns whether
 * the mask widened (not once it is at mask_max). */
static int split_region(lp_value_profiler *p)
{
    unsigned k = 1;
    if (4 * p->epoch_replacements >= p->epoch_samples)
        k = 2;
    if (2 * p->epoch_replacements >= p->epoch_samples)
        k = 3;
    if (k > p->o.split_max)
        k = p->o.split_max;
    if (k > p->o.mask_max - p->filter.mask_bits)
        k = p->o.mask_max - p->filter.mask_bits;
    if (!k)
        return 0;
    /* The match keeps its low bits: the new region is the first of the
     * current region's 2^k parts. */
    lp__value_filter_width(&p->filter, p->filter.mask_bits + k);
    p->stats.splits++;
    return 1;
}

static void new_region(lp_value_profiler *p)
{
    p->region_start = p->now;
    p->idle = 0;
    p->stats.mask_bits = p->filter.mask_bits;
    p->stats.match = p->filter.match;
}

static void next_region(lp_value_profiler *p)
{
    if (p->filter.mask_bits) {
        p->filter.match = lp__value_region_next(p->filter.match, p->filter.mask_bits);
        p->stats.region_advances++;
    }
    new_region(p);
}

int lp__value_interrupt(lp_value_profiler *p, unsigned kind)
{
    p->irq_serial++;
    p->stats.interrupts++;
    p->stats.cycles += p->o.interrupt_cycles;
    int rc = LP_OK;
    switch (kind) {
    case LP__IRQ_FAILED: p->stats.interrupts_failed++; break;
    case LP__IRQ_THRASH: p->stats.interrupts_thrash++; break;
    case LP__IRQ_REGION: p->stats.interrupts_region++; break;
    case LP__IRQ_RESAMPLE: p->stats.interrupts_resample++; break;
    default: p->stats.interrupts_final++; break;
    }
    if (kind == LP__IRQ_THRASH) {
        for (uint32_t i = 0; i < p->o.slots; i++)
            if (p->slots[i].state != LP__SLOT_EMPTY)
                p->stats.samples_lost += p->slots[i].total;
        clear_slots(p);
        /* A region that cannot be split further stays, and keeps its age:
         * otherwise thrashing at mask_max would hold the filter on it for
         * ever. */
        if (split_region(p))
            new_region(p);
    } else if (kind != LP__IRQ_RESAMPLE) {
        rc = copy_slots(p);
        clear_slots(p);
        if (kind == LP__IRQ_REGION)
            next_region(p);
    }
    p->epoch_samples = 0;
    p->epoch_replacements = 0;
    if (p->o.resample)
        resample_due(p);
    if (rc)
        p->status = rc;
    return rc;
}

int lp__value_timers(lp_value_profiler *p)
{
    if (p->o.resample) {
        const lp__value_rec *r = oldest_done(&p->store);
        if (r && p->now - r->done_time >= p->o.resample) {
            int rc = lp__value_interrupt(p, LP__IRQ_RESAMPLE);
            if (rc)
                return rc;
        }
    }
    int idle = p->o.region_idle && p->idle >= p->o.region_idle;
    int old = p->o.region_max && p->now - p->region_start >= p->o.region_max;
    if (!idle && !old)
        return LP_OK;
    /* With no slot to copy, the co-processor moves the filter on by itself
     * (it owns the filter's registers): no interrupt, so a finished
     * profile costs nothing. */
    if (!p->occupied) {
        next_region(p);
        return LP_OK;
    }
    return lp__value_interrupt(p, LP__IRQ_REGION);
}
