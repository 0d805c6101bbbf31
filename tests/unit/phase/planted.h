/* Synthetic runs with planted phases for the phase tests: a few distinct
 * branch mixes (each a set of branch pcs with weights), a known schedule of
 * which mix each interval runs, and a few percent of noise on every
 * weight, so the right answer is known in advance. */
#ifndef LP_PHASE_PLANTED_H
#define LP_PHASE_PLANTED_H

#include <string.h>

#include "lowprof/phase.h"

#define PLANTED_PATTERNS 5
#define PLANTED_PCS 12

/* A small LCG of the tests' own, so the runs do not depend on lp_rng. */
static inline uint64_t planted_next(uint64_t *x)
{
    *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
    return *x >> 17;
}

/* Pattern p executes pcs p * 7 + j (j < PLANTED_PCS) with weights that fall
 * off with j, so neighbouring patterns share some pcs but differ clearly. */
static inline uint64_t planted_pc(unsigned p, unsigned j)
{
    return 0x400000u + 64u * (p * 7u + j);
}

static inline uint64_t planted_weight(unsigned p, unsigned j)
{
    return (uint64_t)(1000u >> (j / 2)) * (p + 1u) + 10u * j;
}

/* Feeds interval of pattern p to a tracker (if t) and into *sig (if sig),
 * with +-noise_pct percent noise on every weight. */
static inline void planted_interval(unsigned p, unsigned noise_pct, uint64_t *x, lp_phase_tracker *t,
                             lp_signature *sig)
{
    if (sig)
        memset(sig, 0, sizeof *sig);
    for (unsigned rep = 0; rep < 20; rep++) {
        for (unsigned j = 0; j < PLANTED_PCS; j++) {
            uint64_t w = planted_weight(p, j);
            uint64_t span = w * noise_pct / 100;
            uint64_t n = w - span + (span ? planted_next(x) % (2 * span + 1) : 0);
            if (t)
                lp_phase_tracker_branch(t, planted_pc(p, j), n);
            if (sig)
                lp_signature_add(sig, planted_pc(p, j), n);
        }
    }
}

/* A schedule of 60 intervals over the patterns, with recurrences and runs
 * of different lengths (pattern 4 appears for two intervals only). */
static const unsigned planted_schedule[] = {
    0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 0, 0, 0, 1, 1, 1, 1, 3, 3, 3, 3, 0, 0, 0, 0, 0, 2, 2,
    2, 4, 4, 1, 1, 1, 3, 3, 3, 3, 3, 0, 0, 0, 2, 2, 2, 2, 1, 1, 1, 1, 3, 3, 3, 0, 0, 0, 0, 0,
};
#define PLANTED_N (sizeof planted_schedule / sizeof planted_schedule[0])

#endif
