/* value: the co-processor's pseudo-random numbers (paper 004, the ALU's
 * linear feedback shift register, used for resource-management decisions
 * so that a program's repetition cannot lock replacement into a pattern).
 *
 * A 32-bit Galois LFSR with x^32 + x^22 + x^2 + x + 1 (maximal length:
 * every nonzero state recurs after 2^32 - 1 steps). A draw of b bits takes
 * the next b output bits, so successive draws share no bits; hardware
 * would produce them in one cycle with b copies of the feedback network. */
#include "lp_value_internal.h"

uint32_t lp__value_lfsr_draw(uint32_t *state, unsigned bits)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < bits; i++)
        r = (r << 1) | lp__value_lfsr_step(state);
    return r;
}
