/* hps: the counters, their flags, and the micro-operations that drive them.
 *
 * The Valgrind tool emits the same arithmetic as inline IR in HPS mode
 * (src/frontends/vg/lp_vg_hps.c); this is the software form, which the DISE
 * mode runs in its handler, triggers run in either mode, and the tests use
 * as the reference. */
#include "hps_internal.h"

static uint64_t lp_hps_flag_bits(const lp_hps_state *s, unsigned c, int overflow)
{
    uint64_t f = s->value[c] == 0 ? LP_HPS_ZERO_BIT(c) : 0;
    return overflow ? f | LP_HPS_OVERFLOW_BIT(c) : f;
}

void lp_hps_state_init(lp_hps_state *s, const lp_hps_acf *acf)
{
    __builtin_memset(s, 0, sizeof *s);
    for (unsigned c = 0; c < acf->ncounters && c < LP_HPS_MAX_COUNTERS; c++) {
        const lp_hps_counter *k = &acf->counter[c];
        unsigned w = k->width ? k->width : LP_HPS_DEFAULT_WIDTH;
        s->mask[c] = w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
        uint64_t v = k->init_reg >= 0 ? acf->reg[k->init_reg] : k->init;
        s->value[c] = v & s->mask[c];
        s->flags |= lp_hps_flag_bits(s, c, 0);
    }
}

/* The body of lp_hps_apply, inlined into the step: the DISE mode runs it
 * for every replaced instruction, so it stays a few loads and stores. */
static inline void lp_hps_apply_one(lp_hps_state *s, const lp_hps_acf *acf, const lp_hps_uop *op)
{
    unsigned c = op->counter;
    if (c >= acf->ncounters || c >= LP_HPS_MAX_COUNTERS)
        return;
    uint64_t zbit = LP_HPS_ZERO_BIT(c), obit = LP_HPS_OVERFLOW_BIT(c);
    uint64_t ovf = s->flags & obit, v = s->value[c], mask = s->mask[c];
    switch (op->kind) {
    case LP_HPS_UOP_INC:
        ovf |= v == mask ? obit : 0;
        v = (v + 1) & mask;
        break;
    case LP_HPS_UOP_DEC:
        ovf |= v == 0 ? obit : 0;
        v = (v - 1) & mask;
        break;
    case LP_HPS_UOP_SET:
        v = (op->reg < LP_HPS_MAX_REGS ? acf->reg[op->reg] : 0) & mask;
        ovf = 0;
        break;
    default: return;
    }
    s->value[c] = v;
    s->flags = (s->flags & ~(zbit | obit)) | (v == 0 ? zbit : 0) | ovf;
    s->uops++;
}

void lp_hps_apply(lp_hps_state *s, const lp_hps_acf *acf, const lp_hps_uop *op)
{
    lp_hps_apply_one(s, acf, op);
}

uint64_t lp_hps_step(lp_hps_state *s, const lp_hps_acf *acf, const uint8_t *prods,
                     const uint64_t *when, size_t n)
{
    uint64_t snapshot = s->flags, matched = 0;
    for (size_t i = 0; i < n && i < 64; i++) {
        if (!((when[i] >> snapshot) & 1u))
            continue;
        matched |= UINT64_C(1) << i;
        const lp_hps_production *p = &acf->prod[prods[i]];
        for (unsigned k = 0; k < p->nops; k++)
            lp_hps_apply_one(s, acf, &p->ops[k]);
    }
    return matched;
}

size_t lp_hps_trigger(lp_hps_state *s, const lp_hps_acf *acf, lp_hps_op op)
{
    lp_hps_insn in = {0, 0, 0, (unsigned)op, 0};
    uint64_t snapshot = s->flags;
    size_t matched = 0;
    for (size_t p = 0; p < acf->nprod; p++) {
        if (!lp_hps_eval(acf, p, &in, (unsigned)snapshot))
            continue;
        matched++;
        for (unsigned k = 0; k < acf->prod[p].nops; k++)
            lp_hps_apply(s, acf, &acf->prod[p].ops[k]);
    }
    return matched;
}
