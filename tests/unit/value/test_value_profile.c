/* value: the whole profiler on synthetic load streams with planted
 * behaviour.
 * - A load whose value is 7 on 90 % of its executions, among background
 *   loads: estimated near 0.9 with 7 on top, and masked as done.
 * - A load whose value is 5 for a long stretch and then 9: masked, then
 *   re-sampled after the period, and 9 found; the load is diagnosed as
 *   phased.
 * - A working set far larger than the slots: thrash detection widens the
 *   mask until a region fits, more bits at once for faster thrashing; a
 *   working set that fits never thrashes.
 * - Stored PCs and values narrower than the real ones: the aliasing they
 *   cause is counted.
 * - A mixed stream's profile measured against the exact one with
 *   metrics.h's invariance error. */
#include <math.h>

#include "lowprof/value.h"
#include "lowprof/metrics.h"
#include "../lp_test.h"
#include "value_test.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Pushes that failed; checked once per test rather than per push. */
static int push_errors;

/* One instruction of a stream: the planted load 1 time in 4, a background
 * load (60 of them, value k % 3 or random) 1 time in 4, else a non-load. */
static void background(lp_value_profiler *p, uint64_t r)
{
    uint64_t k = (r >> 8) % 60;
    uint64_t v = k % 2 ? k % 3 : (r >> 32) % 1000;
    push_errors += lp_value_push(p, 0x600000 + 8 * k, v, LP_VALUE_CLASS_LOAD) != 0;
}

static void test_planted_invariance(void)
{
    lp_value_profiler *p = make("slots=64,region-max=100000");
    const uint64_t planted = 0x401230;
    for (uint64_t t = 0; t < 2000000; t++) {
        uint64_t r = next_rand();
        switch (t % 4) {
        case 0: lp_value_push(p, planted, r % 10 ? 7 : (r >> 16) % 500 + 100, LP_VALUE_CLASS_LOAD); break;
        case 1: background(p, r); break;
        default: lp_value_push(p, 0x400000 + t % 64, 0, LP_VALUE_CLASS_OTHER); break;
        }
    }
    LP_CHECK_EQ_U64(push_errors, 0);
    lp_value_stats s;
    lp_value_get_stats(p, &s);
    /* masked before the end: the planted load is not sampled any more */
    LP_CHECK(lp_value_is_done(p, planted));
    LP_CHECK(s.masked > 0);
    LP_CHECK(s.done_rejected > 100000);
    LP_CHECK(lp_value_finish(p) == 0);
    lp_value_load l;
    LP_CHECK(lp_value_estimate_pc(p, planted, &l) == 0);
    LP_CHECK(l.flags & LP_VALUE_LOAD_DONE);
    LP_CHECK(l.n_top >= 1 && l.top[0].value == 7);
    LP_CHECK(fabs(l.top[0].invariance - 0.9) < 0.03);
    LP_CHECK(l.top[0].confidence > 0.95);
    LP_CHECK(l.profiles >= 2);
    if (l.n_top >= 2)
        LP_CHECK(l.top[1].invariance < 0.05);
    lp_value_get_stats(p, &s);
    LP_CHECK(s.cycles >= s.interrupts * 500 + s.slots_copied * 40);
    lp_value_free(p);
}

static void test_resampling(void)
{
    /* one region (mask-max=0) so only re-sampling can bring the load back;
     * a region timer every 50000 instructions copies the slots */
    lp_value_profiler *p = make("slots=64,mask-max=0,region-max=50000,resample=400000");
    const uint64_t phased = 0x402000;
    const uint64_t n = 3000000, change = 1200000;
    uint64_t masked_before_change = 0;
    for (uint64_t t = 0; t < n; t++) {
        uint64_t r = next_rand();
        if (t == change)
            masked_before_change = (uint64_t)lp_value_is_done(p, phased);
        if (t % 4 == 0)
            lp_value_push(p, phased, t < change ? 5 : 9, LP_VALUE_CLASS_LOAD);
        else if (t % 4 == 1)
            background(p, r);
        else
            lp_value_retire(p, 1);
    }
    LP_CHECK(lp_value_finish(p) == 0);
    LP_CHECK(masked_before_change == 1);
    lp_value_stats s;
    lp_value_get_stats(p, &s);
    LP_CHECK(s.resampled > 0);
    LP_CHECK(s.interrupts_resample > 0);
    lp_value_load l;
    LP_CHECK(lp_value_estimate_pc(p, phased, &l) == 0);
    LP_CHECK(l.resamples >= 2);
    LP_CHECK(l.flags & LP_VALUE_LOAD_RESAMPLED);
    LP_CHECK(l.flags & LP_VALUE_LOAD_PHASED);
    /* both values are among the top ones, each a real share */
    double inv5 = 0, inv9 = 0;
    for (uint32_t i = 0; i < l.n_top; i++) {
        if (l.top[i].value == 5)
            inv5 = l.top[i].invariance;
        if (l.top[i].value == 9)
            inv9 = l.top[i].invariance;
    }
    LP_CHECK(inv5 > 0.1);
    LP_CHECK(inv9 > 0.1);
    LP_CHECK(inv5 + inv9 > 0.98);
    lp_value_free(p);

    /* without re-sampling the change goes unseen */
    p = make("slots=64,mask-max=0,region-max=50000,resample=0");
    for (uint64_t t = 0; t < n; t++) {
        uint64_t r = next_rand();
        if (t % 4 == 0)
            lp_value_push(p, phased, t < change ? 5 : 9, LP_VALUE_CLASS_LOAD);
        else if (t % 4 == 1)
            background(p, r);
        else
            lp_value_retire(p, 1);
    }
    LP_CHECK(lp_value_finish(p) == 0);
    LP_CHECK(lp_value_estimate_pc(p, phased, &l) == 0);
    LP_CHECK(l.top[0].value == 5 && l.top[0].invariance > 0.99);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.resampled, 0);
    lp_value_free(p);
}

/* n samples of w equally frequent loads; returns the final mask width and
 * the statistics. */
static unsigned thrash_run(const char *spec, unsigned w, uint64_t n, lp_value_stats *s)
{
    lp_value_profiler *p = make(spec);
    for (uint64_t t = 0; t < n; t++) {
        uint64_t k = next_rand() % w;
        lp_value_push(p, 0x700000 + 4 * k, k & 7, LP_VALUE_CLASS_LOAD);
    }
    lp_value_get_stats(p, s);
    lp_value_free(p);
    return s->mask_bits;
}

static void test_thrash(void)
{
    const char *spec = "slots=64,clock=4,region-idle=0,region-max=0";
    lp_value_stats s;
    /* fits: no thrash, no split */
    LP_CHECK_EQ_U64(thrash_run(spec, 32, 400000, &s), 0);
    LP_CHECK_EQ_U64(s.interrupts_thrash, 0);
    LP_CHECK_EQ_U64(s.replacements, 0);
    /* 4096 loads, almost every sample replaces a slot: each thrash
     * interrupt adds the most bits, 3, until a region (4096 / 2^w loads)
     * fits in 64 slots */
    unsigned w = thrash_run(spec, 4096, 2000000, &s);
    LP_CHECK(s.interrupts_thrash >= 2);
    LP_CHECK_EQ_U64(s.splits, s.interrupts_thrash);
    LP_CHECK(w >= 6 && w <= 9);
    LP_CHECK_EQ_U64(w % 3, 0);
    /* once it fits, replacements stop: the last thrash was early */
    LP_CHECK(s.samples_lost < s.samples / 10);
    /* slower thrashing (the thrash limit reached over more samples) adds
     * fewer bits: a working set just above the slots */
    w = thrash_run("slots=64,clock=4,thrash-factor=8,region-idle=0,region-max=0", 80, 400000, &s);
    LP_CHECK(s.interrupts_thrash >= 1);
    LP_CHECK(w >= 1 && w <= 2);
    /* split-max and mask-max bound the widening */
    w = thrash_run("slots=64,clock=4,split-max=1,mask-max=2,region-idle=0,region-max=0", 4096,
                   400000, &s);
    LP_CHECK_EQ_U64(w, 2);
    LP_CHECK(s.interrupts_thrash > 2);
    LP_CHECK_EQ_U64(s.splits, 2);
}

static void test_aliasing(void)
{
    /* stored PC of 8 bits: 0x1010 and 0x2010 share one; values of 4 bits:
     * 0x13 and 0x23 share one */
    lp_value_profiler *p = make("pc-bits=8,value-bits=4,clock=8,region-idle=0,region-max=0");
    for (int i = 0; i < 100; i++) {
        lp_value_push(p, 0x1010, 0x13, LP_VALUE_CLASS_LOAD);
        lp_value_push(p, 0x2010, 0x23, LP_VALUE_CLASS_LOAD);
    }
    lp_value_stats s;
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.allocations, 1); /* one slot for both */
    LP_CHECK_EQ_U64(s.alias_pc, 100);  /* every 0x2010 sample */
    LP_CHECK_EQ_U64(s.hits, 199);
    LP_CHECK_EQ_U64(s.alias_value, 100);
    LP_CHECK(lp_value_finish(p) == 0);
    lp_value_load l;
    LP_CHECK(lp_value_estimate_pc(p, 0x10, &l) == 0);
    LP_CHECK_EQ_U64(l.pc, 0x10);
    LP_CHECK_EQ_U64(l.top[0].value, 3);
    LP_CHECK_EQ_U64(l.samples, 200);
    lp_value_free(p);
}

/* The profile of a stream of 40 loads, measured against the exact profile
 * with the paper's invariance error: one load in five has two values at
 * 60/40 %, the others a top value at 50 to 95 % and the rest spread over
 * a thousand values. */
static void test_accuracy(void)
{
    lp_value_profiler *p = make("slots=32,region-max=200000");
    lp_table exact;
    lp_table_init(&exact, 0);
    for (uint64_t t = 0; t < 4000000; t++) {
        uint64_t r = next_rand();
        if (t % 2) {
            lp_value_retire(p, 1);
            continue;
        }
        uint64_t k = (r >> 3) % 40, pc = 0x800000 + 16 * k, v;
        uint64_t u = (r >> 20) % 100;
        if (k % 5 == 0)
            v = u < 60 ? 1 : 2;
        else
            v = u < 50 + 5 * (k % 10) ? 1 : 2 + (r >> 40) % 1000;
        lp_key key = {pc, v};
        lp_table_upsert(&exact, key)->v[0]++;
        lp_value_push(p, pc, v, LP_VALUE_CLASS_LOAD);
    }
    LP_CHECK(lp_value_finish(p) == 0);
    lp_table est;
    lp_table_init(&est, 0);
    LP_CHECK(lp_value_table(p, &est, 1.0) == 0);
    double err = 1;
    uint64_t selected = 0;
    LP_CHECK(lp_invariance_error(&exact, &est, &lp_invariance_paper, &err, &selected) == 0);
    LP_CHECK_EQ_U64(selected, 48); /* 40 top values and 8 second ones */
    LP_CHECK(err < 0.05);
    lp_value_stats s;
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.masked, 40);
    LP_CHECK(s.samples < 500000); /* every load done well before the end */
    lp_table_fini(&exact);
    lp_table_fini(&est);
    lp_value_free(p);
}

int main(void)
{
    test_planted_invariance();
    test_resampling();
    test_thrash();
    test_aliasing();
    test_accuracy();
    return lp_test_done();
}
