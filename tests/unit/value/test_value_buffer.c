/* value: the sample buffer and the co-processor's clock. The engine's
 * counts of processed, dropped and waiting samples agree exactly with a
 * plain model of a bounded queue drained at clock / (ipc * sample_cycles)
 * samples per instruction, for several clocks and load densities; a fast
 * enough co-processor drops nothing; a full buffer drops and counts; and
 * finishing processes whatever is left, so every tagged sample is either
 * processed or counted as dropped. */
#include "lowprof/value.h"
#include "../lp_test.h"

#define Q32 4294967296.0

typedef struct ref_queue {
    uint64_t cap, count, credit, rate, processed, dropped;
} ref_queue;

static void ref_instruction(ref_queue *q, int tagged)
{
    if (tagged) {
        if (q->count == q->cap)
            q->dropped++;
        else
            q->count++;
    }
    q->credit += q->rate;
    /* an idle co-processor banks at most one sample's worth */
    if (!q->count && q->credit > (uint64_t)Q32)
        q->credit = (uint64_t)Q32;
    while (q->count && q->credit >= (uint64_t)Q32) {
        q->credit -= (uint64_t)Q32;
        q->count--;
        q->processed++;
    }
    if (!q->count && q->credit > (uint64_t)Q32)
        q->credit = (uint64_t)Q32;
}

static void run(double clock, double ipc, unsigned cycles, unsigned buffer, unsigned every,
                uint64_t n)
{
    lp_value_options o;
    lp_value_options_default(&o);
    o.clock = clock;
    o.ipc = ipc;
    o.sample_cycles = cycles;
    o.buffer = buffer;
    o.region_idle = 0;
    o.region_max = 0;
    o.resample = 0;
    lp_value_profiler *p = NULL;
    LP_CHECK(lp_value_create(&o, &p) == 0);
    ref_queue q = {buffer, 0, 0, 0, 0, 0};
    q.rate = (uint64_t)(clock / (ipc * cycles) * Q32);
    int errors = 0;
    for (uint64_t t = 0; t < n; t++) {
        int load = t % every == 0;
        if (load)
            errors += lp_value_push(p, 0x1000 + 8 * (t % 24), t % 3, LP_VALUE_CLASS_LOAD) != 0;
        else
            errors += lp_value_push(p, 0x2000, 0, LP_VALUE_CLASS_OTHER) != 0;
        ref_instruction(&q, load);
    }
    LP_CHECK_EQ_U64(errors, 0);
    lp_value_stats s;
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.instructions, n);
    LP_CHECK_EQ_U64(s.samples, q.processed);
    LP_CHECK_EQ_U64(s.dropped_full, q.dropped);
    LP_CHECK_EQ_U64(s.buffered, q.count);
    LP_CHECK_EQ_U64(s.tagged, s.samples + s.dropped_full + s.buffered);
    LP_CHECK(lp_value_finish(p) == 0);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.buffered, 0);
    LP_CHECK_EQ_U64(s.tagged, s.samples + s.dropped_full);
    /* no pushing after the end */
    LP_CHECK(lp_value_push(p, 0x1000, 0, LP_VALUE_CLASS_LOAD) == LP_EINVAL);
    LP_CHECK(lp_value_finish(p) == LP_EINVAL);
    lp_value_free(p);
}

static void test_against_reference(void)
{
    run(0.25, 1.0, 1, 8, 1, 1000);  /* a sample every 4 instructions, all loads */
    run(1.0, 1.0, 4, 64, 2, 50000); /* the defaults, every second one a load */
    run(0.5, 2.0, 3, 16, 5, 50000); /* 1/12 per instruction, a load in 5 */
    run(0.3, 1.0, 1, 4, 3, 30000);  /* a fraction Q32 cannot hold exactly */
    run(8.0, 1.0, 1, 1, 1, 10000);  /* one entry, fast enough: nothing lost */
}

static void test_full_buffer(void)
{
    /* all loads, a sample processed every 4th instruction, 8 entries: the
     * buffer holds 8 after 10 instructions; from the 11th on, three in
     * four loads are dropped (counted by hand, as the reference does) */
    lp_value_options o;
    lp_value_options_default(&o);
    o.clock = 0.25;
    o.sample_cycles = 1;
    o.buffer = 8;
    lp_value_profiler *p = NULL;
    LP_CHECK(lp_value_create(&o, &p) == 0);
    lp_value_stats s;
    for (int t = 0; t < 10; t++)
        lp_value_push(p, 0x1000, 1, LP_VALUE_CLASS_LOAD);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.buffered, 8);
    LP_CHECK_EQ_U64(s.samples, 2);
    LP_CHECK_EQ_U64(s.dropped_full, 0);
    lp_value_push(p, 0x1000, 1, LP_VALUE_CLASS_LOAD);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.dropped_full, 1);
    for (int t = 0; t < 89; t++)
        lp_value_push(p, 0x1000, 1, LP_VALUE_CLASS_LOAD);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.samples, 25);
    LP_CHECK_EQ_U64(s.buffered, 7); /* the 100th dropped its load, then processed one */
    LP_CHECK_EQ_U64(s.dropped_full, 68);
    /* time without loads lets the co-processor catch up */
    LP_CHECK(lp_value_retire(p, 32) == 0);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.buffered, 0);
    LP_CHECK_EQ_U64(s.samples, 32);
    /* and it cannot bank the idle time: the next burst drops again */
    LP_CHECK(lp_value_retire(p, 1000) == 0);
    for (int t = 0; t < 12; t++)
        lp_value_push(p, 0x1000, 1, LP_VALUE_CLASS_LOAD);
    lp_value_get_stats(p, &s);
    LP_CHECK_EQ_U64(s.samples, 36);
    LP_CHECK_EQ_U64(s.buffered, 7);
    LP_CHECK_EQ_U64(s.dropped_full, 69);
    lp_value_free(p);
}

int main(void)
{
    test_against_reference();
    test_full_buffer();
    return lp_test_done();
}
