/* value: the co-processor's second application, edge profiling (paper
 * 004, "Example applications": counting how often each direct branch is
 * taken and not taken, and finding the targets of indirect branches and
 * their frequencies). It is the value profiler's machinery reprogrammed:
 * the opcode filter takes branches, the slot key is the branch PC, and the
 * "value" is the direction of a conditional branch (1 taken, 0 not) or the
 * target of an indirect one. Slots, replacement, thrash detection, masking
 * and the final estimation are unchanged, which is the point. */
#include "lp_value_internal.h"

void lp_value_edge_options(lp_value_options *o)
{
    /* lp_value_push_event already gives a conditional branch its
     * direction and an indirect one its target as the value. */
    o->classes = LP_VALUE_CLASS_COND | LP_VALUE_CLASS_INDIRECT;
}

int lp_value_edge_bias(const lp_value_profiler *p, uint64_t pc, double *out_taken,
                       double *out_confidence)
{
    const lp__value_rec *r = lp__value_store_find(&p->store, pc & p->pc_mask);
    if (!r)
        return LP_ENOENT;
    /* A direction has only two values, so every miss in one direction's
     * regions is a sample of the other: the estimation's second rule with
     * its explained share at one. Samples no counter kept are split in the
     * same proportion (its third rule, with the invariances summing to 1). */
    uint64_t taken = 0, not_taken = 0;
    for (uint32_t i = 0; i < r->nvals; i++) {
        const lp_value_counts *v = &r->vals[i];
        if (v->value == 1) {
            taken += v->hits;
            not_taken += v->misses;
        } else if (v->value == 0) {
            not_taken += v->hits;
            taken += v->misses;
        }
    }
    if (!taken && !not_taken)
        return LP_ENOENT;
    *out_taken = (double)taken / (double)(taken + not_taken);
    if (out_confidence) {
        uint64_t n = r->samples > taken + not_taken ? r->samples : taken + not_taken;
        *out_confidence = lp_value_confidence(*out_taken, n);
    }
    return LP_OK;
}
