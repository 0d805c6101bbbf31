/* value: the associative array of the co-processor (paper 004: a CAM that
 * holds each slot's stored PC and answers which slot, if any, is on for a
 * sample's PC). Only slots that are on are present: switching a slot off
 * clears its valid bit, so later samples of that PC no longer match it.
 *
 * Modelled as open addressing over twice the slot count with linear
 * probing and backward-shift deletion (no tombstones, so lookups stay
 * short however many slots are switched off between interrupts). */
#include "lp_value_internal.h"

static uint32_t cam_home(const lp__value_cam *c, uint64_t pc)
{
    return (uint32_t)lp_hash64(pc) & c->mask;
}

uint32_t lp__value_cam_find(const lp__value_cam *c, uint64_t pc)
{
    for (uint32_t i = cam_home(c, pc);; i = (i + 1) & c->mask) {
        if (c->slot[i] == LP__CAM_EMPTY)
            return LP__CAM_EMPTY;
        if (c->key[i] == pc)
            return c->slot[i];
    }
}

/* The caller never inserts a PC already present and never more keys than
 * slots, so the table (twice the slots) always has an empty position. */
void lp__value_cam_insert(lp__value_cam *c, uint64_t pc, uint32_t slot)
{
    uint32_t i = cam_home(c, pc);
    while (c->slot[i] != LP__CAM_EMPTY)
        i = (i + 1) & c->mask;
    c->key[i] = pc;
    c->slot[i] = slot;
}

void lp__value_cam_remove(lp__value_cam *c, uint64_t pc)
{
    uint32_t i = cam_home(c, pc);
    while (c->slot[i] != LP__CAM_EMPTY && c->key[i] != pc)
        i = (i + 1) & c->mask;
    if (c->slot[i] == LP__CAM_EMPTY)
        return;
    /* Backward shift: pull later members of the probe run into the hole
     * when their home position allows it. */
    uint32_t hole = i;
    for (uint32_t j = (i + 1) & c->mask; c->slot[j] != LP__CAM_EMPTY; j = (j + 1) & c->mask) {
        uint32_t home = cam_home(c, c->key[j]);
        /* j may move to hole unless its home lies cyclically in (hole, j]. */
        int stays = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (!stays) {
            c->key[hole] = c->key[j];
            c->slot[hole] = c->slot[j];
            hole = j;
        }
    }
    c->slot[hole] = LP__CAM_EMPTY;
}

void lp__value_cam_clear(lp__value_cam *c)
{
    for (uint32_t i = 0; i <= c->mask; i++)
        c->slot[i] = LP__CAM_EMPTY;
}
