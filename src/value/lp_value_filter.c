/* value: the instruction filter at the main processor's decode stage
 * (paper 004, the hardware section's filter figure): an opcode-class
 * filter, a PC filter (a hashed PC, masked by a variable-width mask, must
 * equal a programmable match value, so the program splits into 2^width
 * regions profiled in turn), a small bit table indexed by the hashed PC
 * that masks single instructions, and a second, larger table that masks
 * instructions already profiled well enough.
 *
 * Every hash is taken over the stored PC (its low pc_bits), the only PC
 * the interrupt handler ever learns, so software can set the bit of any
 * instruction it reads out of a slot. The two tables use different hash
 * functions so that conflicts in one do not repeat in the other (the paper
 * provides several hashes for the same reason). Runs once per retired
 * instruction of a profiled class: a few ALU operations and two loads. */
#include "lp_value_internal.h"

/* Distinct salts keep the three hashes independent of each other. */
#define LP__IGNORE_SALT 0x69676e6f72656421ULL
#define LP__DONE_SALT 0x646f6e6521646f6eULL

uint32_t lp__value_ignore_index(const lp__value_filter *f, uint64_t stored_pc)
{
    return (uint32_t)lp_hash_pair(stored_pc, LP__IGNORE_SALT) & f->ignore_mask;
}

uint32_t lp__value_done_index(const lp__value_filter *f, uint64_t stored_pc)
{
    return (uint32_t)lp_hash_pair(stored_pc, LP__DONE_SALT) & f->done_mask;
}

void lp__value_filter_width(lp__value_filter *f, uint32_t mask_bits)
{
    f->mask_bits = mask_bits;
    /* A width of 32 needs a mask of all ones, which a shift by 32 cannot
     * make; width 0 matches everything. */
    f->mask = mask_bits >= 32 ? UINT32_MAX : (((uint32_t)1 << mask_bits) - 1);
}

void lp__value_bit_set(uint64_t *table, uint32_t index, int on)
{
    uint64_t bit = (uint64_t)1 << (index & 63);
    if (on)
        table[index >> 6] |= bit;
    else
        table[index >> 6] &= ~bit;
}

int lp__value_bit_get(const uint64_t *table, uint32_t index)
{
    return (int)((table[index >> 6] >> (index & 63)) & 1);
}

void lp__value_site_of(const lp__value_filter *f, uint64_t stored_pc, lp_value_site *out)
{
    out->region_hash = lp_value_region_hash(stored_pc);
    out->ignore_index = lp__value_ignore_index(f, stored_pc);
    out->done_index = lp__value_done_index(f, stored_pc);
}

unsigned lp__value_filter_test_site(const lp__value_filter *f, const lp_value_site *s,
                                    unsigned opclass)
{
    if (!(opclass & f->classes))
        return LP__FILTER_CLASS;
    if ((s->region_hash & f->mask) != f->match)
        return LP__FILTER_REGION;
    if (lp__value_bit_get(f->ignore, s->ignore_index))
        return LP__FILTER_IGNORE;
    if (lp__value_bit_get(f->done, s->done_index))
        return LP__FILTER_DONE;
    return LP__FILTER_PASS;
}

unsigned lp__value_filter_test(const lp__value_filter *f, uint64_t stored_pc, unsigned opclass)
{
    /* The tables' hashes are taken only for what the region test passes:
     * most instructions stop there. */
    lp_value_site s = {lp_value_region_hash(stored_pc), 0, 0};
    if (!(opclass & f->classes) || (s.region_hash & f->mask) != f->match)
        return lp__value_filter_test_site(f, &s, opclass);
    s.ignore_index = lp__value_ignore_index(f, stored_pc);
    s.done_index = lp__value_done_index(f, stored_pc);
    return lp__value_filter_test_site(f, &s, opclass);
}

uint32_t lp__value_region_next(uint32_t match, unsigned mask_bits)
{
    for (unsigned b = mask_bits; b-- > 0;) {
        match ^= (uint32_t)1 << b;
        if (match & ((uint32_t)1 << b))
            break;
    }
    return match;
}
