/* value: the sample buffer between the main processor's retirement and the
 * co-processor (paper 004, instruction filtering and sample buffer). It
 * decouples the two: bursts of tagged instructions wait here while the
 * co-processor works through them at its own clock. When it is full a
 * tagged instruction is dropped (profiles need not be complete) and the
 * caller counts it.
 *
 * The co-processor's speed is a credit in Q32 fixed point: each retired
 * main-processor instruction adds clock / (ipc * sample_cycles) samples'
 * worth, and each processed sample spends one. An idle co-processor cannot
 * bank work for later, so with the buffer empty the credit is capped at
 * one sample. */
#include "lp_value_internal.h"

int lp__value_buffer_put(lp__value_buffer *b, uint64_t pc, uint64_t value)
{
    if (b->count == b->cap)
        return 0;
    uint32_t tail = b->head + b->count;
    if (tail >= b->cap)
        tail -= b->cap;
    b->e[tail].pc = pc;
    b->e[tail].value = value;
    b->count++;
    return 1;
}

int lp__value_buffer_get(lp__value_buffer *b, lp__value_sample *out)
{
    if (!b->count)
        return 0;
    *out = b->e[b->head];
    b->head = b->head + 1 == b->cap ? 0 : b->head + 1;
    b->count--;
    return 1;
}

void lp__value_buffer_tick(lp__value_buffer *b, uint64_t n)
{
    /* Enough credit to empty the largest buffer many times over is as good
     * as unlimited; the cap keeps the sum from overflowing. (tick_max is
     * the cap over the rate, divided once at creation: this runs for every
     * instruction.) */
    const uint64_t cap = LP__VALUE_CREDIT_CAP;
    uint64_t add = n > b->tick_max ? cap : n * b->rate;
    b->credit = b->credit > cap - add ? cap : b->credit + add;
    if (!b->count && b->credit > LP__Q32)
        b->credit = LP__Q32;
}

int lp__value_buffer_may_process(lp__value_buffer *b)
{
    if (!b->count) {
        if (b->credit > LP__Q32)
            b->credit = LP__Q32;
        return 0;
    }
    if (b->credit < LP__Q32)
        return 0;
    b->credit -= LP__Q32;
    return 1;
}
