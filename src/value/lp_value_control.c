/* value: what the main processor reads and sets outside interrupts: the
 * statistics, the PC filter's region, single bits of the small table and
 * the done table, and the filter's registers for a caller that tests it
 * in its own generated code. Constant time; no allocation. */
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
    lp__value_filter_width(&p->filter, mask_bits);
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

void lp_value_get_regs(const lp_value_profiler *p, lp_value_regs *out)
{
    out->mask = &p->filter.mask;
    out->match = &p->filter.match;
    out->ignore = p->filter.ignore;
    out->done = p->filter.done;
    out->classes = p->filter.classes;
}

void lp_value_get_site(const lp_value_profiler *p, uint64_t pc, lp_value_site *out)
{
    lp__value_site_of(&p->filter, pc & p->pc_mask, out);
}

int lp_value_account(lp_value_profiler *p, uint64_t region, uint64_t ignored, uint64_t done)
{
    if (p->status)
        return p->status;
    uint64_t n = region + ignored + done;
    p->stats.class_passed += n;
    p->stats.region_rejected += region;
    p->stats.ignore_rejected += ignored;
    p->stats.done_rejected += done;
    p->idle += n;
    return LP_OK;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* Instructions from now to t, at least 1. */
static uint64_t until(uint64_t now, uint64_t t)
{
    return t > now ? t - now : 1;
}

uint64_t lp_value_quiet(const lp_value_profiler *p)
{
    uint64_t q = UINT64_MAX;
    if (p->buf.count) {
        /* The next sample is processed once the credit reaches one. */
        uint64_t need = p->buf.credit >= LP__Q32 ? 0 : LP__Q32 - p->buf.credit;
        q = need / p->buf.rate + 1;
    }
    /* idle counts instructions of a filtered class only, so its timer is
     * due no sooner than this many instructions. */
    if (p->o.region_idle)
        q = min_u64(q, until(p->idle, p->o.region_idle));
    if (p->o.region_max)
        q = min_u64(q, until(p->now, p->region_start + p->o.region_max));
    if (p->o.resample) {
        /* The oldest entry of the ring still valid (the timers drop the
         * stale ones on their way; this only looks). */
        const lp__value_store *st = &p->store;
        for (size_t k = 0, i = st->qhead; k < st->qlen; k++, i = i + 1 == st->qcap ? 0 : i + 1) {
            const lp__value_rec *r = &st->recs[st->q[i].rec];
            if (r->done && r->done_seq == st->q[i].seq) {
                q = min_u64(q, until(p->now, r->done_time + p->o.resample));
                break;
            }
        }
    }
    return q;
}
