/* value: the slot array. One slot's counters under the saturation and
 * re-selection rules, step by step; the replacement test against a plain
 * count of LFSR draws; the associative array against a linear scan; the
 * LFSR's range and spread; and informational replacement through the
 * engine: a new instruction cannot displace slots whose totals exceed
 * every draw, its samples are dropped and counted, and the failed counter
 * interrupts at its limit, after which the newcomer gets a slot. */
#include <string.h>

#include "lowprof/value.h"
#include "../../../src/value/lp_value_internal.h"
#include "../lp_test.h"
#include "value_test.h"

static lp__value_limits limits(uint32_t hit_bits, uint32_t total_bits)
{
    lp__value_limits l;
    l.hit_max = (1u << hit_bits) - 1;
    l.total_max = (1u << total_bits) - 1;
    l.reselect_q16 = (uint32_t)(0.4 * 65536 + 0.5);
    l.reselect_min = 8;
    l.keep_hits = 16;
    return l;
}

static void test_counters(void)
{
    lp__value_limits l = limits(4, 10); /* hit and miss counters saturate at 15 */
    lp__value_slot s;
    memset(&s, 0, sizeof s);
    lp__value_slot_fill(&s, 0x40, 7, 0x40, 7);
    LP_CHECK(s.hits == 1 && s.misses == 0 && s.total == 1 && s.state == LP__SLOT_ON);
    /* 13 more hits: hits 14, no saturation yet */
    for (int i = 0; i < 13; i++)
        LP_CHECK(lp__value_slot_update(&s, &l, 7, 7) == LP__UPDATE_HIT);
    LP_CHECK(s.hits == 14 && s.total == 14);
    /* one miss, then the 15th hit saturates: both halve, ratio kept */
    LP_CHECK(lp__value_slot_update(&s, &l, 3, 3) == 0);
    LP_CHECK(s.misses == 1);
    unsigned r = lp__value_slot_update(&s, &l, 7, 7);
    LP_CHECK(r == (LP__UPDATE_HIT | LP__UPDATE_HALVED));
    LP_CHECK_EQ_U64(s.hits, 7);
    LP_CHECK_EQ_U64(s.misses, 0);
    LP_CHECK_EQ_U64(s.total, 16); /* the total is never halved */

    /* misses saturating halve the pair too */
    lp__value_slot_fill(&s, 0x40, 7, 0x40, 7);
    s.hits = 12;
    s.misses = 14;
    r = lp__value_slot_update(&s, &l, 9, 9);
    LP_CHECK(r & LP__UPDATE_HALVED);
    LP_CHECK(!(r & LP__UPDATE_HIT));
    LP_CHECK_EQ_U64(s.hits, 6);
    LP_CHECK_EQ_U64(s.misses, 7);
}

static void test_reselect_and_off(void)
{
    lp__value_limits l = limits(8, 16);
    lp__value_slot s;
    memset(&s, 0, sizeof s);
    /* a poor active value (1 hit) is re-selected once 8 samples show an
     * invariance below 0.4: 1 hit, 6 misses is 7 samples, the next miss
     * makes 8 */
    lp__value_slot_fill(&s, 0x40, 5, 0x40, 5);
    for (int i = 0; i < 6; i++)
        LP_CHECK(lp__value_slot_update(&s, &l, 100 + (uint64_t)i, 0) == 0);
    LP_CHECK(s.value == 5);
    unsigned r = lp__value_slot_update(&s, &l, 42, 42);
    LP_CHECK(r == LP__UPDATE_RESELECT);
    LP_CHECK(s.value == 42 && s.hits == 1 && s.misses == 0 && s.total == 8);
    LP_CHECK(s.state == LP__SLOT_ON);

    /* an active value with keep_hits hits is kept: the slot goes off */
    lp__value_slot_fill(&s, 0x40, 5, 0x40, 5);
    s.hits = 16;
    s.misses = 24; /* 16/41 after the next miss: below 0.4 */
    r = lp__value_slot_update(&s, &l, 9, 9);
    LP_CHECK(r == LP__UPDATE_OFF_KEEP);
    LP_CHECK(s.state == LP__SLOT_OFF && s.value == 5 && s.hits == 16 && s.misses == 25);

    /* at exactly 0.4 nothing happens (the rule is "below") */
    lp__value_slot_fill(&s, 0x40, 5, 0x40, 5);
    s.hits = 4;
    s.misses = 5;
    LP_CHECK(lp__value_slot_update(&s, &l, 9, 9) == 0); /* 4 / 10 */

    /* the total counter saturating switches the slot off, count exact */
    lp__value_limits small = limits(4, 6);
    lp__value_slot_fill(&s, 0x40, 5, 0x40, 5);
    int off_at = 0;
    for (int i = 2; i <= 80 && !off_at; i++)
        if (lp__value_slot_update(&s, &small, 5, 5) & LP__UPDATE_OFF_TOTAL)
            off_at = i;
    LP_CHECK_EQ_U64(off_at, 63);
    LP_CHECK_EQ_U64(s.total, 63);
    LP_CHECK(s.state == LP__SLOT_OFF);
}

static void test_replaceable(void)
{
    lp__value_slot s;
    memset(&s, 0, sizeof s);
    LP_CHECK(lp__value_slot_replaceable(&s, 0) == 1); /* empty */
    lp__value_slot_fill(&s, 1, 1, 1, 1);
    s.total = 10;
    LP_CHECK(lp__value_slot_replaceable(&s, 10) == 0); /* strictly greater */
    LP_CHECK(lp__value_slot_replaceable(&s, 11) == 1);
    s.state = LP__SLOT_OFF;
    LP_CHECK(lp__value_slot_replaceable(&s, 1000) == 0);

    /* the chance a slot of total t gives way to a draw of b bits is
     * (2^b - 1 - t) / 2^b; measured over LFSR draws against a plain count */
    uint32_t state = 0x1234567u;
    const unsigned bits = 8;
    const uint32_t totals[] = {1, 64, 128, 200, 254, 255, 300};
    for (size_t k = 0; k < sizeof totals / sizeof totals[0]; k++) {
        lp__value_slot_fill(&s, 1, 1, 1, 1);
        s.total = totals[k];
        int yes = 0;
        const int n = 200000;
        for (int i = 0; i < n; i++)
            yes += lp__value_slot_replaceable(&s, lp__value_lfsr_draw(&state, bits));
        double want = totals[k] >= 255 ? 0 : (255.0 - totals[k]) / 256.0;
        double got = (double)yes / n;
        LP_CHECK(got > want - 0.01 && got < want + 0.01);
    }
}

static void test_lfsr(void)
{
    uint32_t state = 1;
    /* no state repeats early: the polynomial is maximal (the full period,
     * 2^32 - 1, takes seconds; a prefix is checked here) */
    uint32_t first = state;
    int repeated = 0;
    for (int i = 0; i < 1000000; i++) {
        lp__value_lfsr_step(&state);
        if (state == first || state == 0)
            repeated = 1;
    }
    LP_CHECK(!repeated);
    /* draws cover their range evenly */
    unsigned hist[16] = {0}, out_of_range = 0;
    for (int i = 0; i < 160000; i++) {
        uint32_t d = lp__value_lfsr_draw(&state, 4);
        out_of_range += d >= 16;
        hist[d & 15]++;
    }
    LP_CHECK_EQ_U64(out_of_range, 0);
    for (int i = 0; i < 16; i++)
        LP_CHECK(hist[i] > 9500 && hist[i] < 10500);
    uint32_t wide = lp__value_lfsr_draw(&state, 32);
    (void)wide;
    LP_CHECK(state != 0);
}

/* The associative array against a linear scan over random inserts and
 * removals (the engine never inserts a present key nor more than slots). */
static void test_cam(void)
{
    enum { SLOTS = 64, CAP = 128, ROUNDS = 20000 };
    uint64_t keys[CAP];
    uint32_t idx[CAP];
    lp__value_cam c = {keys, idx, CAP - 1};
    lp__value_cam_clear(&c);
    uint64_t ref_pc[SLOTS];
    int ref_on[SLOTS] = {0};
    uint64_t x = 99;
    int bad = 0;
    for (int round = 0; round < ROUNDS; round++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        uint32_t s = (uint32_t)(x >> 33) % SLOTS;
        uint64_t pc = (x >> 20) % 200; /* few distinct PCs: many collisions */
        if (ref_on[s]) {
            lp__value_cam_remove(&c, ref_pc[s]);
            ref_on[s] = 0;
        } else {
            int present = 0;
            for (int j = 0; j < SLOTS; j++)
                present |= ref_on[j] && ref_pc[j] == pc;
            if (!present) {
                lp__value_cam_insert(&c, pc, s);
                ref_pc[s] = pc;
                ref_on[s] = 1;
            }
        }
        for (uint64_t q = 0; q < 200; q += 7) {
            uint32_t want = LP__CAM_EMPTY;
            for (uint32_t j = 0; j < SLOTS; j++)
                if (ref_on[j] && ref_pc[j] == q)
                    want = j;
            bad += lp__value_cam_find(&c, q) != want;
        }
    }
    LP_CHECK_EQ_U64(bad, 0);
}

static void test_replacement_engine(void)
{
    /* four slots, draws in [0, 15]: four loads that reach a total of 16
     * can never be displaced */
    lp_value_profiler *p = make("slots=4,rand-bits=4,clock=64,sample-cycles=1,"
                                "region-idle=0,region-max=0,resample=0");
    for (int round = 0; round < 20; round++)
        for (uint64_t k = 0; k < 4; k++)
            LP_CHECK(lp_value_push(p, 0x1000 + 16 * k, k, LP_VALUE_CLASS_LOAD) == 0);
    lp_value_stats s;
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.allocations, 4);
    LP_CHECK_EQ_U64(s.hits, 76);
    /* a newcomer: each of its samples fails; the failed counter reaches
     * fail-factor * slots = 4 on the 4th and interrupts */
    for (int i = 0; i < 3; i++)
        lp_value_push(p, 0x9000, 1, LP_VALUE_CLASS_LOAD);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.failed, 3);
    LP_CHECK_EQ_U64(s.replacements, 0);
    LP_CHECK_EQ_U64(s.interrupts, 0);
    lp_value_push(p, 0x9000, 1, LP_VALUE_CLASS_LOAD);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.failed, 4);
    LP_CHECK_EQ_U64(s.interrupts_failed, 1);
    LP_CHECK_EQ_U64(s.slots_copied, 4);
    /* after the clean slate the newcomer takes the first slot */
    lp_value_push(p, 0x9000, 1, LP_VALUE_CLASS_LOAD);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.allocations, 5);
    /* the copied loads are in the table with their counts: 20 samples each */
    lp_value_load l;
    LP_CHECK(lp_value_estimate_pc(p, 0x1010, &l) == 0);
    LP_CHECK_EQ_U64(l.samples, 20);
    LP_CHECK(l.n_top == 1 && l.top[0].value == 1 && l.top[0].invariance == 1.0);
    LP_CHECK(lp_value_estimate_pc(p, 0x7777, &l) == LP_ENOENT);
    lp_value_free(p);

    /* young slots (total 1) give way to almost every draw, one at a time
     * under the rotating index */
    p = make("slots=4,rand-bits=8,clock=64,sample-cycles=1,thrash-factor=1000,"
             "region-idle=0,region-max=0");
    for (uint64_t k = 0; k < 4; k++)
        lp_value_push(p, 0x1000 + 16 * k, 0, LP_VALUE_CLASS_LOAD);
    for (uint64_t k = 0; k < 400; k++)
        lp_value_push(p, 0x8000 + 16 * k, 0, LP_VALUE_CLASS_LOAD);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.replacements + s.failed, 400);
    LP_CHECK(s.replacements > 390); /* a draw of 0 or 1 (2 in 256) fails */
    LP_CHECK_EQ_U64(s.samples_lost, s.replacements); /* each had total 1 */
    lp_value_free(p);
}

int main(void)
{
    test_counters();
    test_reselect_and_off();
    test_replaceable();
    test_lfsr();
    test_cam();
    test_replacement_engine();
    return lp_test_done();
}
