/* value: the instruction filter. A mask of width 0 lets every PC through;
 * a mask of full width (32 bits) aimed at one instruction's hash lets
 * only it through; widths in between pass about 2^-width of the PCs, the
 * regions partition the program, and the region order visits every region
 * once per cycle, the parts of a split region first. The opcode filter,
 * the small bit table and the done table each reject what they should,
 * counted in their own statistic. */
#include <string.h>

#include "lowprof/value.h"
#include "../../../src/value/lp_value_internal.h"
#include "../lp_test.h"
#include "value_test.h"

#define NPC 4096
static uint64_t pc_of(unsigned i)
{
    return 0x400000 + 4 * (uint64_t)i;
}

static void test_width_zero_and_full(void)
{
    /* mask-max=0: thrash detection may not split the program meanwhile */
    lp_value_profiler *p = make("mask-max=0,region-idle=0,region-max=0");
    lp_value_stats s;
    for (unsigned i = 0; i < NPC; i++)
        lp_value_push(p, pc_of(i), 0, LP_VALUE_CLASS_LOAD);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.mask_bits, 0);
    LP_CHECK_EQ_U64(s.tagged + s.region_rejected, NPC);
    LP_CHECK_EQ_U64(s.region_rejected, 0); /* width 0: the whole program */

    /* width 32 aimed at one instruction: it alone passes */
    uint64_t target = pc_of(1234);
    LP_CHECK(lp_value_set_region(p, 32, lp_value_region_hash(target)) == 0);
    lp_value_get_stats(p, &s);
    uint64_t tagged0 = s.tagged;
    for (unsigned i = 0; i < NPC; i++)
        lp_value_push(p, pc_of(i), 0, LP_VALUE_CLASS_LOAD);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.tagged - tagged0, 1);
    LP_CHECK_EQ_U64(s.region_rejected, NPC - 1);
    LP_CHECK_EQ_U64(s.mask_bits, 32);
    LP_CHECK_EQ_U64(s.match, lp_value_region_hash(target));
    /* the filter's own test agrees */
    LP_CHECK(lp__value_filter_test(&p->filter, target, LP_VALUE_CLASS_LOAD) == LP__FILTER_PASS);
    LP_CHECK(lp__value_filter_test(&p->filter, pc_of(1235), LP_VALUE_CLASS_LOAD) ==
             LP__FILTER_REGION);

    /* out-of-range regions are refused and change nothing */
    LP_CHECK(lp_value_set_region(p, 33, 0) == LP_EINVAL);
    LP_CHECK(lp_value_set_region(p, 3, 8) == LP_EINVAL);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.mask_bits, 32);
    lp_value_free(p);
}

static void test_partition(void)
{
    lp_value_profiler *p = make("region-idle=0,region-max=0");
    for (unsigned w = 1; w <= 6; w++) {
        /* each PC lies in exactly one of the 2^w regions; each region
         * holds about NPC / 2^w of them */
        unsigned regions = 1u << w, hits_total = 0, min = NPC, max = 0;
        for (uint32_t m = 0; m < regions; m++) {
            LP_CHECK(lp_value_set_region(p, w, m) == 0);
            unsigned in = 0;
            for (unsigned i = 0; i < NPC; i++)
                in += lp__value_filter_test(&p->filter, pc_of(i), LP_VALUE_CLASS_LOAD) ==
                      LP__FILTER_PASS;
            hits_total += in;
            min = in < min ? in : min;
            max = in > max ? in : max;
        }
        LP_CHECK_EQ_U64(hits_total, NPC);
        double mean = (double)NPC / regions;
        LP_CHECK(min > mean * 0.7 && max < mean * 1.3);
    }
    lp_value_free(p);

    /* the region order: every region once per cycle; after a split (the
     * match keeps its low bits) the parts of the old region come first */
    for (unsigned w = 0; w <= 8; w++) {
        unsigned seen[256] = {0};
        uint32_t m = 0;
        for (unsigned i = 0; i < (1u << w); i++) {
            seen[m]++;
            m = lp__value_region_next(m, w);
        }
        LP_CHECK_EQ_U64(m, 0);
        int once = 1;
        for (unsigned r = 0; r < (1u << w); r++)
            once &= seen[r] == 1;
        LP_CHECK(once);
    }
    /* region 5 of width 3 split by 2 bits: 5, 5+16, 5+8, 5+24, then on */
    uint32_t m = 5;
    uint32_t want[] = {5 + 16, 5 + 8, 5 + 24};
    for (int i = 0; i < 3; i++) {
        m = lp__value_region_next(m, 5);
        LP_CHECK_EQ_U64(m, want[i]);
    }
    m = lp__value_region_next(m, 5);
    LP_CHECK((m & 7) != 5);
}

static void test_tables_and_classes(void)
{
    lp_value_profiler *p = make("ignore-bits=4,region-idle=0,region-max=0");
    lp_value_stats s;
    /* the opcode filter: a store is not a load */
    lp_value_push(p, 0x500000, 1, LP_VALUE_CLASS_STORE);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.class_passed, 0);
    LP_CHECK_EQ_U64(s.instructions, 1);

    /* the small table masks one instruction and every PC sharing its bit
     * (16 bits here, so about one PC in 16) */
    lp_value_ignore(p, 0x500000, 1);
    unsigned ignored = 0;
    for (unsigned i = 0; i < NPC; i++)
        ignored += lp__value_filter_test(&p->filter, pc_of(i), LP_VALUE_CLASS_LOAD) ==
                   LP__FILTER_IGNORE;
    LP_CHECK(ignored > NPC / 16 / 2 && ignored < NPC / 16 * 2);
    lp_value_push(p, 0x500000, 1, LP_VALUE_CLASS_LOAD);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.ignore_rejected, 1);
    LP_CHECK_EQ_U64(s.tagged, 0);
    lp_value_ignore(p, 0x500000, 0);
    lp_value_push(p, 0x500000, 1, LP_VALUE_CLASS_LOAD);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.tagged, 1);

    /* the done table */
    LP_CHECK(!lp_value_is_done(p, 0x500000));
    lp__value_bit_set(p->filter.done, lp__value_done_index(&p->filter, 0x500000), 1);
    LP_CHECK(lp_value_is_done(p, 0x500000));
    lp_value_push(p, 0x500000, 1, LP_VALUE_CLASS_LOAD);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.done_rejected, 1);
    /* the two tables hash differently: of the PCs sharing a small-table
     * bit with 0x500000, few share its done bit */
    uint32_t ig = lp__value_ignore_index(&p->filter, 0x500000);
    uint32_t dn = lp__value_done_index(&p->filter, 0x500000);
    unsigned same_ig = 0, both = 0;
    for (unsigned i = 0; i < 65536; i++) {
        uint64_t pc = pc_of(i);
        if (lp__value_ignore_index(&p->filter, pc) == ig) {
            same_ig++;
            both += lp__value_done_index(&p->filter, pc) == dn;
        }
    }
    LP_CHECK(same_ig > 2000);
    LP_CHECK(both < 5);
    lp_value_free(p);
}

int main(void)
{
    test_width_zero_and_full();
    test_partition();
    test_tables_and_classes();
    return lp_test_done();
}
