/* value: the second application on the same engine, edge profiling. A
 * synthetic event stream with 20 conditional branches of known direction
 * bias (5 % to 95 % taken) and an indirect jump with three targets at
 * 60/30/10 %, interleaved with loads the edge filter must not take. The
 * estimated taken shares are within 5 points of the planted biases, the
 * jump's dominant target comes out with its frequency, and no load
 * reaches a slot. */
#include <math.h>

#include "lowprof/value.h"
#include "../lp_test.h"

static uint64_t rng = 12345;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

#define NBR 20
static double bias_of(unsigned i)
{
    return 0.05 + 0.9 * i / (NBR - 1);
}

static void test_edges(void)
{
    lp_value_options o;
    lp_value_options_default(&o);
    LP_CHECK(lp_value_options_parse("slots=16,resample=0,region-max=100000", &o, NULL) == 0);
    lp_value_edge_options(&o);
    LP_CHECK(o.classes == (LP_VALUE_CLASS_COND | LP_VALUE_CLASS_INDIRECT));
    lp_value_profiler *p = NULL;
    LP_CHECK(lp_value_create(&o, &p) == 0);

    const uint64_t jump = 0x405000, targets[3] = {0x406000, 0x407000, 0x408000};
    uint64_t icount = 0, taken[NBR] = {0}, seen[NBR] = {0};
    int push_errors = 0;
    for (uint64_t t = 0; t < 3000000; t++) {
        uint64_t r = next_rand();
        lp_event ev = {0};
        ev.icount = icount;
        icount += 3; /* two instructions between events */
        switch (t % 3) {
        case 0: { /* a conditional branch */
            unsigned i = (unsigned)((r >> 8) % NBR);
            ev.kind = LP_EV_BRANCH;
            ev.pc = 0x404000 + 32 * (uint64_t)i;
            ev.a = ev.pc + 64;
            ev.flags = LP_EVF_COND;
            if ((double)((r >> 24) % 10000) < bias_of(i) * 10000) {
                ev.flags |= LP_EVF_TAKEN;
                taken[i]++;
            }
            seen[i]++;
            break;
        }
        case 1: { /* the indirect jump */
            uint64_t u = (r >> 16) % 10;
            ev.kind = LP_EV_BRANCH;
            ev.pc = jump;
            ev.flags = LP_EVF_INDIRECT | LP_EVF_TAKEN;
            ev.a = targets[u < 6 ? 0 : u < 9 ? 1 : 2];
            break;
        }
        default: /* a load: not for this filter */
            ev.kind = LP_EV_LOAD;
            ev.pc = 0x409000;
            ev.b = 7;
            break;
        }
        push_errors += lp_value_push_event(p, &ev) != 0;
    }
    LP_CHECK_EQ_U64(push_errors, 0);
    LP_CHECK(lp_value_finish(p) == 0);
    lp_value_stats s;
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.instructions, icount - 2); /* the clock follows icount */
    LP_CHECK_EQ_U64(s.class_passed, 2000000);    /* branches only, not the loads */

    int bad = 0;
    for (unsigned i = 0; i < NBR; i++) {
        double share = -1, conf = 0;
        int rc = lp_value_edge_bias(p, 0x404000 + 32 * (uint64_t)i, &share, &conf);
        LP_CHECK(rc == 0);
        double truth = (double)taken[i] / (double)seen[i];
        if (rc || fabs(share - truth) > 0.05 || conf < 0.9) {
            bad++;
            fprintf(stderr, "  branch %u: bias %.3f estimated %.3f confidence %.3f\n", i, truth,
                    share, conf);
        }
    }
    LP_CHECK_EQ_U64(bad, 0);

    /* The jump: its dominant target is found with its frequency; targets
     * under the re-selection threshold (30 and 10 %) seldom hold a slot,
     * and whatever the estimation cannot place is "other", never a
     * target that does not exist. */
    lp_value_load l;
    LP_CHECK(lp_value_estimate_pc(p, jump, &l) == 0);
    LP_CHECK(l.n_top >= 1);
    LP_CHECK_EQ_U64(l.top[0].value, targets[0]);
    LP_CHECK(fabs(l.top[0].invariance - 0.6) < 0.05);
    LP_CHECK(l.top[0].confidence > 0.95);
    double sum = l.other;
    for (uint32_t i = 0; i < l.n_top; i++) {
        LP_CHECK(l.top[i].value == targets[0] || l.top[i].value == targets[1] ||
                 l.top[i].value == targets[2]);
        sum += l.top[i].invariance;
    }
    LP_CHECK(fabs(sum - 1) < 1e-9);
    /* the load never reached the engine, and a jump is no direction */
    LP_CHECK(lp_value_estimate_pc(p, 0x409000, &l) == LP_ENOENT);
    double share;
    LP_CHECK(lp_value_edge_bias(p, jump, &share, NULL) == LP_ENOENT);
    lp_value_free(p);
}

int main(void)
{
    test_edges();
    return lp_test_done();
}
