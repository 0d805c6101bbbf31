/* hps: matching a production's pattern against one instruction.
 *
 * The decoder knows every attribute but the flags when it translates an
 * instruction, so the engine folds a pattern into a truth table over the
 * flag word (lp_hps_when): at most 64 flag states, each one evaluation of a
 * small tree, once per static instruction. At run time a production then
 * costs one shift and test of that table, the paper's CT lookup. */
#include "hps_internal.h"

static uint64_t lp_hps_operand(const lp_hps_insn *in, unsigned kind, uint64_t value, int *known)
{
    switch (kind) {
    case LP__HPS_PC: return in->pc;
    case LP__HPS_TARGET:
        if (!in->has_target)
            *known = 0;
        return in->target;
    case LP__HPS_OPCLASS: return in->classes;
    case LP__HPS_OP: return in->op;
    default: return value;
    }
}

static int lp_hps_compare(unsigned cmp, uint64_t x, uint64_t y)
{
    switch (cmp) {
    case LP__HPS_EQ: return x == y;
    case LP__HPS_NE: return x != y;
    case LP__HPS_LT: return x < y;
    case LP__HPS_LE: return x <= y;
    case LP__HPS_GT: return x > y;
    case LP__HPS_GE: return x >= y;
    default: return 0;
    }
}

/* A class or op name against its attribute: == holds when the instruction
 * has any of the name's bits ("any" is every bit, and every instruction). */
static int lp_hps_name_match(unsigned attr, uint64_t have, uint64_t name_bits)
{
    if (attr == LP__HPS_OPCLASS)
        return name_bits == UINT64_MAX || (have & name_bits) != 0;
    return ((name_bits >> have) & 1u) != 0;
}

static int lp_hps_cmp_node(const lp_hps_node *n, const lp_hps_insn *in)
{
    unsigned l = n->lhs, r = n->rhs;
    if (r == LP__HPS_CLASSES || r == LP__HPS_OPNAME || l == LP__HPS_CLASSES ||
        l == LP__HPS_OPNAME) {
        int name_right = r == LP__HPS_CLASSES || r == LP__HPS_OPNAME;
        unsigned attr = name_right ? l : r;
        uint64_t bits = name_right ? n->rhs_value : n->lhs_value;
        int known = 1;
        uint64_t have = lp_hps_operand(in, attr, 0, &known);
        int eq = lp_hps_name_match(attr, have, bits);
        return n->cmp == LP__HPS_NE ? !eq : eq;
    }
    int known = 1;
    uint64_t x = lp_hps_operand(in, l, n->lhs_value, &known);
    uint64_t y = lp_hps_operand(in, r, n->rhs_value, &known);
    return known && lp_hps_compare(n->cmp, x, y);
}

/* Recursion depth is bounded by the parser's nesting limit. */
static int lp_hps_eval_node(const lp_hps_acf *acf, int i, const lp_hps_insn *in, unsigned flags)
{
    const lp_hps_node *n = &acf->nodes[i];
    switch (n->kind) {
    case LP__HPS_TRUE: return 1;
    case LP__HPS_AND:
        return lp_hps_eval_node(acf, n->a, in, flags) && lp_hps_eval_node(acf, n->b, in, flags);
    case LP__HPS_OR:
        return lp_hps_eval_node(acf, n->a, in, flags) || lp_hps_eval_node(acf, n->b, in, flags);
    case LP__HPS_NOT: return !lp_hps_eval_node(acf, n->a, in, flags);
    case LP__HPS_FLAG: {
        unsigned bit = n->flag ? LP_HPS_OVERFLOW_BIT(n->counter) : LP_HPS_ZERO_BIT(n->counter);
        return (flags & bit) != 0;
    }
    case LP__HPS_CMP: return lp_hps_cmp_node(n, in);
    default: return 0;
    }
}

int lp_hps_eval(const lp_hps_acf *acf, size_t p, const lp_hps_insn *insn, unsigned flags)
{
    if (!acf || p >= acf->nprod || acf->prod[p].pattern < 0)
        return 0;
    return lp_hps_eval_node(acf, acf->prod[p].pattern, insn, flags);
}

uint64_t lp_hps_all_states(const lp_hps_acf *acf)
{
    unsigned bits = 2 * acf->ncounters;
    return bits >= 6 ? UINT64_MAX : (UINT64_C(1) << (1u << bits)) - 1;
}

uint64_t lp_hps_when(const lp_hps_acf *acf, size_t p, const lp_hps_insn *insn)
{
    uint64_t states = lp_hps_all_states(acf), when = 0;
    for (unsigned f = 0; f < LP_HPS_FLAG_STATES; f++)
        if (((states >> f) & 1u) && lp_hps_eval(acf, p, insn, f))
            when |= UINT64_C(1) << f;
    return when;
}
