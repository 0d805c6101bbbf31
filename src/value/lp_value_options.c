/* value: the options' defaults and their validation. Where paper 004 gives
 * a figure it is used; where its text lost the figure or never gave one the
 * default is lowprof's, chosen so the model behaves sensibly on the
 * workload suite; doc/value.md marks which is which. */
#include "lp_value_internal.h"

void lp_value_options_default(lp_value_options *o)
{
    __builtin_memset(o, 0, sizeof *o);
    /* A slot is a 32-bit stored PC in the associative array and, in the
     * data array, a 32-bit value, 8-bit hit and miss counters and a
     * 16-bit total: the data array is twice the associative one, as the
     * paper sizes its memories. 256 slots make a 1 KB associative array. */
    o->slots = 256;
    o->buffer = 64;
    o->pc_bits = 32;
    o->value_bits = 32;
    o->hit_bits = 8;
    o->total_bits = 16;
    o->rand_bits = 8;
    o->seed = 1;
    o->clock = 1.0; /* the paper's base case: the main processor's frequency */
    o->ipc = 1.0;
    o->sample_cycles = 4;
    o->classes = LP_VALUE_CLASS_LOAD;
    o->mask_bits = 0;
    o->match = 0;
    o->mask_max = 32;
    o->ignore_bits = 10;
    o->done_bits = 14;
    o->reselect = 0.4;
    o->reselect_min = 8;
    o->keep_hits = 16;
    o->fail_factor = 1;
    o->thrash_factor = 2;
    o->split_max = 3;
    o->high = 0.8;
    o->low = 0.2;
    o->min_profiles = 2;
    o->max_profiles = 4;
    o->min_samples = 64;
    o->resample = 50000000;
    o->region_idle = 100000;
    o->region_max = 2000000;
    o->interrupt_cycles = 500;
    o->slot_cycles = 40;
    o->load_cycles = 100;
    o->top = 4;
}

static int check_fail(const char **out_field, const char **out_why, const char *field,
                      const char *why)
{
    if (out_field)
        *out_field = field;
    if (out_why)
        *out_why = why;
    return LP_EINVAL;
}

static int in_u32(uint32_t v, uint32_t lo, uint32_t hi)
{
    return v >= lo && v <= hi;
}

/* NaN fails every comparison, so it is refused too. */
static int in_dbl(double v, double lo, double hi, int open_lo)
{
    return (open_lo ? v > lo : v >= lo) && v <= hi;
}

int lp_value_options_check(const lp_value_options *o, const char **out_field,
                           const char **out_why)
{
#define LP__FAIL(f, w) return check_fail(out_field, out_why, f, w)
    if (!in_u32(o->slots, 1, 65536))
        LP__FAIL("slots", "1 to 65536 slots");
    if (!in_u32(o->buffer, 1, 65536))
        LP__FAIL("buffer", "1 to 65536 entries");
    if (!in_u32(o->pc_bits, 1, 64))
        LP__FAIL("pc-bits", "1 to 64 bits");
    if (!in_u32(o->value_bits, 1, 64))
        LP__FAIL("value-bits", "1 to 64 bits");
    if (!in_u32(o->hit_bits, 2, 16))
        LP__FAIL("hit-bits", "2 to 16 bits");
    if (!in_u32(o->total_bits, o->hit_bits, 32))
        LP__FAIL("total-bits", "hit-bits to 32 bits");
    if (!in_u32(o->rand_bits, 1, 32))
        LP__FAIL("rand-bits", "1 to 32 bits");
    if (!o->seed)
        LP__FAIL("seed", "a nonzero LFSR seed");
    if (!in_dbl(o->clock, 0.0, 64.0, 1))
        LP__FAIL("clock", "a clock ratio in (0, 64]");
    if (!in_dbl(o->ipc, 0.0, 64.0, 1))
        LP__FAIL("ipc", "instructions per cycle in (0, 64]");
    if (!in_u32(o->sample_cycles, 1, 1024))
        LP__FAIL("sample-cycles", "1 to 1024 cycles");
    if (!o->classes || (o->classes & ~(uint32_t)LP_VALUE_CLASS_ALL))
        LP__FAIL("classes", "at least one known opcode class");
    if (o->mask_max > 32)
        LP__FAIL("mask-max", "at most 32 bits");
    if (o->mask_bits > o->mask_max)
        LP__FAIL("mask-bits", "at most mask-max bits");
    if (o->mask_bits < 32 && o->match >> o->mask_bits)
        LP__FAIL("match", "a match value below 2^mask-bits");
    if (!in_u32(o->ignore_bits, 1, 24))
        LP__FAIL("ignore-bits", "1 to 24 bits");
    if (!in_u32(o->done_bits, 1, 24))
        LP__FAIL("done-bits", "1 to 24 bits");
    if (!in_dbl(o->reselect, 0.0, 1.0, 0))
        LP__FAIL("reselect", "an invariance in [0, 1]");
    if (!o->reselect_min)
        LP__FAIL("reselect-min", "at least 1 sample");
    if (!in_u32(o->fail_factor, 1, 1024))
        LP__FAIL("fail-factor", "1 to 1024");
    if (!in_u32(o->thrash_factor, 1, 1024))
        LP__FAIL("thrash-factor", "1 to 1024");
    if (!in_u32(o->split_max, 1, 32))
        LP__FAIL("split-max", "1 to 32 bits");
    if (!in_dbl(o->high, 0.0, 1.0, 0))
        LP__FAIL("high", "an invariance in [0, 1]");
    if (!in_dbl(o->low, 0.0, o->high, 0))
        LP__FAIL("low", "an invariance in [0, high]");
    if (!in_u32(o->max_profiles, 1, 1000))
        LP__FAIL("max-profiles", "1 to 1000 profiles");
    if (!in_u32(o->min_profiles, 1, o->max_profiles))
        LP__FAIL("min-profiles", "1 to max-profiles profiles");
    if (!in_u32(o->top, 1, LP_VALUE_TOP_MAX))
        LP__FAIL("top", "1 to 16 values");
#undef LP__FAIL
    return LP_OK;
}
