/* value: the main processor's retirement stream as the model sees it.
 * Each retired instruction passes the filter (and, if tagged, enters the
 * sample buffer or is dropped when it is full); then the co-processor
 * works through the buffer as far as its clock allows, and the handler's
 * timers run. Time is counted in retired instructions; the interrupts'
 * cycles are overhead counted apart and do not stall the stream (lowprof's
 * simplification, doc/value.md). */
#include "lp_value_internal.h"

static int drain(lp_value_profiler *p)
{
    lp__value_sample smp;
    while (lp__value_buffer_may_process(&p->buf)) {
        (void)lp__value_buffer_get(&p->buf, &smp);
        int rc = lp__value_process(p, &smp);
        if (rc)
            return rc;
    }
    return LP_OK;
}

static int advance(lp_value_profiler *p, uint64_t n)
{
    p->now += n;
    p->stats.instructions += n;
    lp__value_buffer_tick(&p->buf, n);
    int rc = drain(p);
    if (!rc)
        rc = lp__value_timers(p);
    if (rc)
        p->status = rc;
    p->stats.buffered = p->buf.count;
    return rc;
}

/* One retired instruction that the filter judged why. */
static int push(lp_value_profiler *p, uint64_t pc, uint64_t value, unsigned why)
{
    if (p->status)
        return p->status;
    if (p->finished)
        return LP_EINVAL;
    if (why == LP__FILTER_PASS) {
        p->stats.class_passed++;
        p->stats.tagged++;
        p->idle = 0;
        if (!lp__value_buffer_put(&p->buf, pc, value))
            p->stats.dropped_full++;
    } else if (why != LP__FILTER_CLASS) {
        p->stats.class_passed++;
        p->idle++;
        if (why == LP__FILTER_REGION)
            p->stats.region_rejected++;
        else if (why == LP__FILTER_IGNORE)
            p->stats.ignore_rejected++;
        else
            p->stats.done_rejected++;
    }
    return advance(p, 1);
}

int lp_value_push(lp_value_profiler *p, uint64_t pc, uint64_t value, unsigned opclass)
{
    return push(p, pc, value, lp__value_filter_test(&p->filter, pc & p->pc_mask, opclass));
}

int lp_value_push_site(lp_value_profiler *p, uint64_t pc, uint64_t value, unsigned opclass,
                       const lp_value_site *site)
{
    return push(p, pc, value, lp__value_filter_test_site(&p->filter, site, opclass));
}

int lp_value_retire(lp_value_profiler *p, uint64_t n)
{
    if (p->status)
        return p->status;
    if (p->finished)
        return LP_EINVAL;
    return n ? advance(p, n) : LP_OK;
}

int lp_value_push_event(lp_value_profiler *p, const lp_event *ev)
{
    unsigned cls;
    uint64_t value;
    switch (ev->kind) {
    case LP_EV_LOAD: cls = LP_VALUE_CLASS_LOAD, value = ev->b; break;
    case LP_EV_STORE: cls = LP_VALUE_CLASS_STORE, value = ev->a; break;
    case LP_EV_CALL: cls = LP_VALUE_CLASS_CALL, value = ev->a; break;
    case LP_EV_RETURN: cls = LP_VALUE_CLASS_RETURN, value = ev->a; break;
    case LP_EV_BRANCH:
        if (ev->flags & LP_EVF_INDIRECT)
            cls = LP_VALUE_CLASS_INDIRECT, value = ev->a;
        else if (ev->flags & LP_EVF_COND)
            cls = LP_VALUE_CLASS_COND, value = (ev->flags & LP_EVF_TAKEN) ? 1 : 0;
        else
            cls = LP_VALUE_CLASS_OTHER, value = ev->a;
        break;
    case LP_EV_BLOCK:
        /* A block is not an instruction: it only moves the clock. */
        return ev->icount > p->now ? lp_value_retire(p, ev->icount - p->now) : LP_OK;
    default: return LP_EINVAL;
    }
    if (ev->icount > p->now) {
        int rc = lp_value_retire(p, ev->icount - p->now);
        if (rc)
            return rc;
    }
    return lp_value_push(p, ev->pc, value, cls);
}

int lp_value_finish(lp_value_profiler *p)
{
    if (p->status)
        return p->status;
    if (p->finished)
        return LP_EINVAL;
    /* The co-processor runs on after the program's end until the buffer
     * is empty. */
    lp__value_sample smp;
    while (lp__value_buffer_get(&p->buf, &smp)) {
        int rc = lp__value_process(p, &smp);
        if (rc)
            return p->status = rc;
    }
    p->stats.buffered = 0;
    if (p->occupied) {
        int rc = lp__value_interrupt(p, LP__IRQ_FINAL);
        if (rc)
            return rc;
    }
    p->stats.cycles += (uint64_t)p->o.load_cycles * p->store.n;
    p->finished = 1;
    return LP_OK;
}
