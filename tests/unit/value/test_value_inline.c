/* value: a caller that tests the filter itself (as the Valgrind tool does
 * in the code it generates) against one that pushes every instruction.
 *
 * Caller A pushes every load and retires the instructions between them.
 * Caller B reads the filter's registers (lp_value_get_regs) and each PC's
 * site constants (lp_value_get_site), tests the filter on its own, counts
 * what it rejects by reason, and calls in only for a load that passes or
 * once lp_value_quiet's bound has run out: then it hands over the counts
 * (lp_value_account), retires the time since its last call and pushes the
 * load through its site (lp_value_push_site). On the same stream, with
 * timers, splits, masking and re-sampling all at work, both end with
 * equal statistics and equal estimates, and B called in less often (for
 * the loads that pass, and seldom else). The runs keep the mask narrow
 * (mask-max) so that regions come round and masked loads are met again. */
#include <stdio.h>
#include <string.h>

#include "lowprof/value.h"
#include "../lp_test.h"
#include "value_test.h"

static uint32_t rng = 12345;
static uint32_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* The filter's verdict as B computes it: 0 region, 1 small table, 2 done
 * table, 3 passes. */
static int verdict(const lp_value_regs *r, const lp_value_site *s)
{
    if ((s->region_hash & *r->mask) != *r->match)
        return 0;
    if ((r->ignore[s->ignore_index >> 6] >> (s->ignore_index & 63)) & 1)
        return 1;
    if ((r->done[s->done_index >> 6] >> (s->done_index & 63)) & 1)
        return 2;
    return 3;
}

#define NLOADS 600
#define STEPS 400000

static void same_run(const char *spec)
{
    lp_value_profiler *a = make(spec), *b = make(spec);
    lp_value_regs regs;
    lp_value_get_regs(b, &regs);
    LP_CHECK(regs.classes & LP_VALUE_CLASS_LOAD);
    lp_value_ignore(a, 0x500000 + 8 * 7, 1); /* one load kept out by the small table */
    lp_value_ignore(b, 0x500000 + 8 * 7, 1);

    uint64_t clock_b = 0, due = lp_value_quiet(b), pending[3] = {0}, calls = 0, now = 0;
    int fail = 0;
    for (unsigned i = 0; i < STEPS && !fail; i++) {
        /* A skewed choice of load: low indexes run far more often. */
        unsigned k = (next_rand() % NLOADS) * (next_rand() % NLOADS) / NLOADS;
        uint64_t pc = 0x500000 + 8 * (uint64_t)k;
        /* Load k holds value 1 with probability k / NLOADS, else a value of
         * its own; after STEPS / 2 half the loads change their value. */
        uint64_t value = next_rand() % NLOADS < k ? 1 : 100 + k;
        if (i > STEPS / 2 && (k & 1))
            value += 7;
        uint64_t gap = next_rand() % 4; /* instructions of no profiled class */
        fail |= lp_value_retire(a, gap) != 0;
        fail |= lp_value_push(a, pc, value, LP_VALUE_CLASS_LOAD) != 0;

        now += gap;
        lp_value_site s;
        lp_value_get_site(b, pc, &s);
        int v = verdict(&regs, &s);
        if (v != 3 && now + 1 < due) {
            pending[v]++;
            now++;
            continue;
        }
        /* Call in: the model catches up to just before this load (its
         * timers may move the filter), then the load is judged again. */
        calls++;
        fail |= lp_value_account(b, pending[0], pending[1], pending[2]) != 0;
        memset(pending, 0, sizeof pending);
        fail |= lp_value_retire(b, now - clock_b) != 0;
        v = verdict(&regs, &s);
        if (v == 3) {
            fail |= lp_value_push_site(b, pc, value, LP_VALUE_CLASS_LOAD, &s) != 0;
        } else {
            pending[v]++;
            fail |= lp_value_account(b, pending[0], pending[1], pending[2]) != 0;
            memset(pending, 0, sizeof pending);
            fail |= lp_value_retire(b, 1) != 0;
        }
        now++;
        clock_b = now;
        due = now + lp_value_quiet(b);
    }
    LP_CHECK(!fail);
    fail |= lp_value_account(b, pending[0], pending[1], pending[2]) != 0;
    if (now > clock_b)
        fail |= lp_value_retire(b, now - clock_b) != 0;
    LP_CHECK(!fail);
    LP_CHECK(lp_value_finish(a) == 0);
    LP_CHECK(lp_value_finish(b) == 0);

    lp_value_stats sa, sb;
    lp_value_get_stats(a, &sa);
    lp_value_get_stats(b, &sb);
    LP_CHECK_EQ_U64(sb.instructions, sa.instructions);
    LP_CHECK_EQ_U64(sb.class_passed, sa.class_passed);
    LP_CHECK_EQ_U64(sb.region_rejected, sa.region_rejected);
    LP_CHECK_EQ_U64(sb.ignore_rejected, sa.ignore_rejected);
    LP_CHECK_EQ_U64(sb.done_rejected, sa.done_rejected);
    LP_CHECK_EQ_U64(sb.tagged, sa.tagged);
    LP_CHECK_EQ_U64(sb.samples, sa.samples);
    LP_CHECK_EQ_U64(sb.dropped_full, sa.dropped_full);
    LP_CHECK_EQ_U64(sb.interrupts, sa.interrupts);
    LP_CHECK_EQ_U64(sb.splits, sa.splits);
    LP_CHECK_EQ_U64(sb.region_advances, sa.region_advances);
    LP_CHECK_EQ_U64(sb.masked, sa.masked);
    LP_CHECK_EQ_U64(sb.resampled, sa.resampled);
    LP_CHECK_EQ_U64(sb.cycles, sa.cycles);
    fprintf(stderr, "%s: %llu region moves, %llu masked, %llu rejected as done; B called %llu times for %llu loads\n",
            spec, (unsigned long long)sa.region_advances, (unsigned long long)sa.masked,
            (unsigned long long)sa.done_rejected, (unsigned long long)calls,
            (unsigned long long)sa.class_passed);
    /* The run did exercise what it is about. */
    LP_CHECK(sa.region_advances > 0 && sa.masked > 0 && sa.done_rejected > 0);
    LP_CHECK(sa.ignore_rejected > 0 && sa.region_rejected > 0);
    LP_CHECK(calls >= sa.tagged && calls < sa.class_passed - sa.class_passed / 4);

    lp_table ta = {0}, tb = {0};
    LP_CHECK(lp_value_table(a, &ta, 1.0) == 0);
    LP_CHECK(lp_value_table(b, &tb, 1.0) == 0);
    LP_CHECK_EQ_U64(tb.count, ta.count);
    size_t cursor = 0;
    const lp_entry *e;
    unsigned differ = 0;
    while ((e = lp_table_next(&ta, &cursor)) != NULL) {
        const lp_entry *f = lp_table_find(&tb, e->key);
        differ += !f || f->v[0] != e->v[0];
    }
    LP_CHECK_EQ_U64(differ, 0);
    lp_table_fini(&ta);
    lp_table_fini(&tb);
    lp_value_free(a);
    lp_value_free(b);
}

int main(void)
{
    /* Short regions and re-sampling, small slots that thrash and split. */
    same_run("slots=32,mask-max=1,region-idle=2000,region-max=20000,resample=150000");
    /* A slow co-processor: the buffer holds samples between calls. */
    same_run("slots=64,mask-max=2,clock=0.25,buffer=8,region-max=50000,resample=0");
    return lp_test_done();
}
