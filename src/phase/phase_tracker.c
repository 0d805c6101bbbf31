/* phase: the phase tracker (remote-profiling paper, section 4, after the
 * Phase Tracker of Sherwood et al. 2003): the branch accumulator of core,
 * compressed signatures, and a bounded history of one signature per phase
 * against which each finished interval is classified.
 *
 * Tuned for the front ends: the per-branch work is core's inline
 * lp_signature_add; classification runs once per interval (10 M
 * instructions by default) over a history of a few dozen entries, so a
 * linear scan, and it never allocates, so a signal handler may end an
 * interval. */
#include "lowprof/phase.h"

int lp_phase_tracker_init(lp_phase_tracker *t, const lp_phase_tracker_config *cfg)
{
    lp_phase_tracker_config c = {0};
    if (cfg)
        c = *cfg;
    if (!(c.threshold >= 0.0 && c.threshold <= 1.0)) /* also refuses NaN */
        return LP_EINVAL;
    if (!(c.noise >= 0.0 && c.noise <= 100.0))
        return LP_EINVAL;
    if (c.threshold == 0.0)
        c.threshold = LP_PHASE_DEFAULT_THRESHOLD;
    if (c.bits == 0)
        c.bits = LP_PHASE_DEFAULT_BITS;
    if (c.bits < LP_PHASE_MIN_BITS || c.bits > LP_PHASE_MAX_BITS)
        return LP_EINVAL;
    if (c.history == 0)
        c.history = LP_PHASE_DEFAULT_HISTORY;
    __builtin_memset(t, 0, sizeof *t);
    t->history = lp_calloc(c.history, sizeof *t->history);
    if (!t->history)
        return LP_ENOMEM;
    t->history_cap = c.history;
    t->bits = c.bits;
    /* The threshold is a fraction of the largest distance, 2 * (2^bits - 1)
     * steps; rounding down keeps "within threshold" conservative. */
    t->limit = (uint32_t)(c.threshold * (double)(2u * ((1u << c.bits) - 1)));
    t->noise = c.noise;
    t->last_phase = LP_PHASE_NONE;
    t->last_distance = UINT32_MAX;
    return LP_OK;
}

void lp_phase_tracker_fini(lp_phase_tracker *t)
{
    if (!t)
        return;
    lp_free(t->history);
    t->history = NULL;
    t->history_cap = t->history_count = 0;
}

int lp_phase_tracker_create(const lp_phase_tracker_config *cfg, lp_phase_tracker **out)
{
    *out = NULL;
    lp_phase_tracker *t = lp_malloc(sizeof *t);
    if (!t)
        return LP_ENOMEM;
    int rc = lp_phase_tracker_init(t, cfg);
    if (rc < 0) {
        lp_free(t);
        return rc;
    }
    *out = t;
    return LP_OK;
}

void lp_phase_tracker_free(lp_phase_tracker *t)
{
    lp_phase_tracker_fini(t);
    lp_free(t);
}

/* The distance, in quantisation steps, within which two signatures of wa
 * and wb independent samples lie by chance alone, times t->noise: each
 * bucket's share is a proportion p estimated from a sample, so the two
 * estimates differ by about sqrt(2/pi) sqrt(p (1 - p) (1/wa + 1/wb)) (the
 * mean absolute value of a normal difference), p taken from both
 * signatures together; the distance is half the sum over buckets. With 50
 * PC samples an interval (200 ms at the kernel's 250 ticks a second) and
 * the time spread over ten functions, that is about 0.24 of the largest
 * distance: a fixed threshold of 0.3 split one phase into several by
 * chance. */
static uint32_t lp__phase_noise_limit(const lp_phase_tracker *t, const lp_phase_sig *a, uint64_t wa,
                                      const lp_phase_sig *b, uint64_t wb)
{
    if (t->noise <= 0.0 || !wa || !wb || a->empty || b->empty)
        return 0;
    double steps = (double)((1u << t->bits) - 1), spread = 0.0;
    for (unsigned i = 0; i < LP_SIG_BUCKETS; i++) {
        double p = ((double)a->q[i] + (double)b->q[i]) / (2.0 * steps);
        if (p > 0.0 && p < 1.0)
            spread += lp_sqrt(p * (1.0 - p));
    }
    double expect = 0.5 * 0.7978845608 * lp_sqrt(1.0 / (double)wa + 1.0 / (double)wb) * spread;
    double lim = t->noise * expect * 2.0 * steps;
    return lim >= 4294967295.0 ? UINT32_MAX : (uint32_t)lim;
}

uint32_t lp_phase_tracker_classify(lp_phase_tracker *t, const lp_signature *sig)
{
    lp_phase_sig s;
    (void)lp_phase_sig_compress(sig, t->bits, &s); /* bits were checked at init */
    t->classified++;
    uint64_t weight = 0;
    for (unsigned i = 0; i < LP_SIG_BUCKETS; i++)
        weight += sig->bucket[i];

    lp_phase_history_entry *best = NULL;
    uint32_t best_d = UINT32_MAX;
    for (size_t i = 0; i < t->history_count; i++) {
        lp_phase_history_entry *h = &t->history[i];
        uint32_t d = lp_phase_sig_distance(&s, &h->sig);
        /* IDs grow with creation, so the smaller ID is the older phase. */
        if (d < best_d || (d == best_d && best && h->phase < best->phase)) {
            best = h;
            best_d = d;
        }
    }
    t->last_distance = best_d;
    uint32_t limit = t->limit;
    if (best) {
        uint32_t chance = lp__phase_noise_limit(t, &s, weight, &best->sig, best->weight);
        limit = chance > limit ? chance : limit;
    }
    if (best && best_d <= limit) {
        best->last_use = t->classified;
        t->last_phase = best->phase;
        return best->phase;
    }

    lp_phase_history_entry *slot;
    if (t->history_count < t->history_cap) {
        slot = &t->history[t->history_count++];
    } else {
        slot = &t->history[0];
        for (size_t i = 1; i < t->history_count; i++)
            if (t->history[i].last_use < slot->last_use)
                slot = &t->history[i];
        t->evictions++;
    }
    slot->sig = s;
    slot->weight = weight;
    slot->phase = t->next_phase++;
    slot->last_use = t->classified;
    t->last_phase = slot->phase;
    return slot->phase;
}

uint32_t lp_phase_tracker_end_interval(lp_phase_tracker *t)
{
    uint32_t phase = lp_phase_tracker_classify(t, &t->acc);
    __builtin_memset(&t->acc, 0, sizeof t->acc);
    return phase;
}
