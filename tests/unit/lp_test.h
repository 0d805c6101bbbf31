/* A minimal assertion harness for lowprof's unit tests: each check counts,
 * a failed one prints where and what, and lp_test_done() turns the tally
 * into the exit status (0 all passed, 1 any failed) that meson reads. */
#ifndef LP_TEST_H
#define LP_TEST_H

#include <inttypes.h>
#include <stdio.h>

static int lp_test_failures;
static int lp_test_checks;

#define LP_CHECK(cond)                                                              \
    do {                                                                            \
        lp_test_checks++;                                                           \
        if (!(cond)) {                                                              \
            lp_test_failures++;                                                     \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                           \
    } while (0)

#define LP_CHECK_EQ_U64(a, b)                                                         \
    do {                                                                              \
        uint64_t lp_a_ = (uint64_t)(a), lp_b_ = (uint64_t)(b);                        \
        lp_test_checks++;                                                             \
        if (lp_a_ != lp_b_) {                                                         \
            lp_test_failures++;                                                       \
            fprintf(stderr, "%s:%d: %s == %s failed: %" PRIu64 " != %" PRIu64 "\n",   \
                    __FILE__, __LINE__, #a, #b, lp_a_, lp_b_);                        \
        }                                                                             \
    } while (0)

static inline int lp_test_done(void)
{
    printf("%d checks, %d failed\n", lp_test_checks, lp_test_failures);
    return lp_test_failures ? 1 : 0;
}

#endif
