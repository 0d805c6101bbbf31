/* flags: the profile flag word (setpf, resetpf, pushpf, poppf) by hand for
 * each rule, then against a plain reference (an unbounded list of saved
 * words with the documented overflow rule applied when reading it back) on
 * random operation streams that overflow the stack. */
#include <stdlib.h>

#include "lowprof/flags.h"
#include "../lp_test.h"

static void test_set_reset_get(void)
{
    lp_pf_state s;
    lp_pf_init(&s, 0);
    for (unsigned t = 0; t < LP_PF_MAX_TYPES; t++)
        LP_CHECK(lp_pf_get(&s, t) == 0);
    lp_pf_set(&s, 0);
    lp_pf_set(&s, 31);
    LP_CHECK_EQ_U64(s.flags, 0x80000001u);
    LP_CHECK(lp_pf_get(&s, 0) == 1 && lp_pf_get(&s, 31) == 1 && lp_pf_get(&s, 1) == 0);
    lp_pf_reset(&s, 0);
    LP_CHECK_EQ_U64(s.flags, 0x80000000u);
    /* Types out of range change nothing and read as off. */
    lp_pf_set(&s, LP_PF_MAX_TYPES);
    lp_pf_reset(&s, 31 + 1000);
    LP_CHECK_EQ_U64(s.flags, 0x80000000u);
    LP_CHECK(lp_pf_get(&s, LP_PF_MAX_TYPES) == 0);
    lp_pf_init(&s, 0xffffffffu);
    LP_CHECK(lp_pf_get(&s, 7) == 1 && s.depth == 0 && s.overflow == 0);
}

static void test_push_pop(void)
{
    lp_pf_state s;
    lp_pf_init(&s, 0x5);
    lp_pf_pop(&s); /* nothing pushed: nothing changes */
    LP_CHECK_EQ_U64(s.flags, 0x5);
    LP_CHECK_EQ_U64(s.depth, 0);
    /* A callee's setpf/resetpf do not leak into the caller (Fig. 3). */
    lp_pf_push(&s);
    lp_pf_reset(&s, 0);
    lp_pf_set(&s, 4);
    LP_CHECK_EQ_U64(s.flags, 0x14);
    lp_pf_push(&s);
    lp_pf_set(&s, 9);
    lp_pf_pop(&s);
    LP_CHECK_EQ_U64(s.flags, 0x14);
    lp_pf_pop(&s);
    LP_CHECK_EQ_U64(s.flags, 0x5);
    LP_CHECK_EQ_U64(s.depth, 0);
}

static void test_overflow(void)
{
    lp_pf_state s;
    lp_pf_init(&s, 0);
    for (unsigned i = 0; i < LP_PF_STACK_DEPTH + 3; i++) {
        s.flags = i; /* push saves word i */
        lp_pf_push(&s);
    }
    LP_CHECK_EQ_U64(s.depth, LP_PF_STACK_DEPTH);
    LP_CHECK_EQ_U64(s.overflow, 3);
    s.flags = 1000;
    /* The three pops matching overflowing pushes only count down. */
    for (int i = 0; i < 3; i++)
        lp_pf_pop(&s);
    LP_CHECK_EQ_U64(s.overflow, 0);
    LP_CHECK_EQ_U64(s.flags, 1000);
    /* The next restores the deepest saved word, then the rest in order. */
    lp_pf_pop(&s);
    LP_CHECK_EQ_U64(s.flags, LP_PF_STACK_DEPTH - 1);
    for (unsigned i = LP_PF_STACK_DEPTH - 1; i-- > 0;) {
        lp_pf_pop(&s);
        LP_CHECK_EQ_U64(s.flags, i);
    }
    LP_CHECK_EQ_U64(s.depth, 0);
    lp_pf_pop(&s);
    LP_CHECK_EQ_U64(s.flags, 0);
}

/* The reference: every push is remembered; a pop at list depth d restores
 * the word pushed at depth d - 1 if that push fitted, else leaves the word. */
typedef struct ref_pf {
    uint32_t flags;
    size_t n;
    uint32_t saved[1024];
} ref_pf;

static void compare_random(uint64_t seed)
{
    lp_rng r;
    lp_rng_seed(&r, seed);
    lp_pf_state s;
    lp_pf_init(&s, (uint32_t)seed);
    ref_pf ref = {.flags = (uint32_t)seed};
    int agree = 1;
    for (int step = 0; step < 20000; step++) {
        uint64_t op = lp_rng_below(&r, 100);
        unsigned type = (unsigned)lp_rng_below(&r, LP_PF_MAX_TYPES + 4);
        /* Drift the depth up and down across LP_PF_STACK_DEPTH. */
        int deep_phase = (step / 2000) % 2;
        if (op < 25) {
            lp_pf_set(&s, type);
            if (type < 32)
                ref.flags |= 1u << type;
        } else if (op < 50) {
            lp_pf_reset(&s, type);
            if (type < 32)
                ref.flags &= ~(1u << type);
        } else if (op < (deep_phase ? 80 : 70)) {
            lp_pf_push(&s);
            if (ref.n < 1024)
                ref.saved[ref.n++] = ref.flags;
        } else {
            lp_pf_pop(&s);
            if (ref.n > 0) {
                ref.n--;
                if (ref.n < LP_PF_STACK_DEPTH)
                    ref.flags = ref.saved[ref.n];
            }
        }
        for (unsigned t = 0; t < LP_PF_MAX_TYPES + 2; t++)
            agree &= lp_pf_get(&s, t) == (t < 32 ? (int)((ref.flags >> t) & 1u) : 0);
        agree &= s.flags == ref.flags;
        agree &= (size_t)s.depth + s.overflow == ref.n;
    }
    LP_CHECK(agree);
}

int main(void)
{
    test_set_reset_get();
    test_push_pop();
    test_overflow();
    for (uint64_t seed = 1; seed <= 8; seed++)
        compare_random(seed);
    return lp_test_done();
}
