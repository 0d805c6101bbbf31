/* Fuzz target for the ACF parser (src/hps/acf_*.c): any bytes either fail
 * with a located, terminated message and nothing to free, or give an ACF
 * whose indices all hold; its table prints the same twice; each pattern,
 * as the table prints it, parses back to the same tree; and the matcher's
 * truth table agrees with evaluation on a few instructions. */
#include <stdlib.h>
#include <string.h>

#include "lowprof/hps.h"
#include "../../src/hps/hps_internal.h"
#include "fuzz_assert.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_diag(const lp_hps_diag *d)
{
    FUZZ_ASSERT(d->line >= 1 && d->column >= 1);
    FUZZ_ASSERT(memchr(d->message, '\0', sizeof d->message) != NULL && d->message[0]);
}

static void check_failure(int rc, const lp_hps_acf *acf, const lp_hps_diag *err,
                          const uint8_t *data, size_t size)
{
    static const lp_hps_acf zero;
    FUZZ_ASSERT(rc == LP_ESPEC || rc == LP_ENOMEM);
    FUZZ_ASSERT(memcmp(acf, &zero, sizeof *acf) == 0);
    check_diag(err);
    size_t lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    FUZZ_ASSERT(err->line <= lines);
}

/* Every index in range; children made before their parents (so no cycle). */
static void check_structure(const lp_hps_acf *acf)
{
    FUZZ_ASSERT(acf->nprod <= LP_HPS_MAX_PRODUCTIONS && acf->nrepl <= LP_HPS_MAX_REPLACEMENTS);
    FUZZ_ASSERT(acf->ncounters <= LP_HPS_MAX_COUNTERS && acf->nwarnings <= LP_HPS_MAX_WARNINGS);
    for (size_t i = 0; i < acf->nwarnings; i++)
        check_diag(&acf->warning[i]);
    for (size_t i = 0; i < acf->nprod; i++) {
        const lp_hps_production *p = &acf->prod[i];
        FUZZ_ASSERT(p->pattern >= 0 && (size_t)p->pattern < acf->nnodes);
        FUZZ_ASSERT(p->replacement >= -1 && p->replacement < (int)acf->nrepl);
        FUZZ_ASSERT(p->nops <= LP_HPS_MAX_OPS && memchr(p->label, '\0', sizeof p->label));
        for (unsigned k = 0; k < p->nops; k++) {
            FUZZ_ASSERT(p->ops[k].kind >= LP_HPS_UOP_INC && p->ops[k].kind <= LP_HPS_UOP_SET);
            FUZZ_ASSERT(p->ops[k].counter < acf->ncounters && p->ops[k].reg < LP_HPS_MAX_REGS);
        }
    }
    for (size_t i = 0; i < acf->nrepl; i++) {
        const lp_hps_replacement *r = &acf->repl[i];
        FUZZ_ASSERT(r->ncalls <= LP_HPS_MAX_CALLS);
        for (unsigned k = 0; k < r->ncalls; k++)
            FUZZ_ASSERT(r->calls[k] >= 1 && r->calls[k] <= LP_HPS_H_MAX);
    }
    for (size_t i = 0; i < acf->nnodes; i++) {
        const lp_hps_node *n = &acf->nodes[i];
        if (n->kind == LP__HPS_AND || n->kind == LP__HPS_OR)
            FUZZ_ASSERT(n->a >= 0 && (size_t)n->a < i && n->b >= 0 && (size_t)n->b < i);
        else if (n->kind == LP__HPS_NOT)
            FUZZ_ASSERT(n->a >= 0 && (size_t)n->a < i);
        else if (n->kind == LP__HPS_FLAG)
            FUZZ_ASSERT(n->counter < acf->ncounters && n->flag <= 1);
        else
            FUZZ_ASSERT(n->kind == LP__HPS_CMP && n->cmp >= LP__HPS_EQ && n->cmp <= LP__HPS_GE &&
                        n->lhs >= LP__HPS_PC && n->lhs <= LP__HPS_OPNAME && n->rhs >= LP__HPS_PC &&
                        n->rhs <= LP__HPS_OPNAME);
    }
    for (unsigned c = 0; c < acf->ncounters; c++)
        FUZZ_ASSERT(acf->counter[c].width >= 1 && acf->counter[c].width <= LP_HPS_MAX_WIDTH &&
                    acf->counter[c].init_reg >= -1 && acf->counter[c].init_reg < LP_HPS_MAX_REGS);
}

static int same_tree(const lp_hps_acf *a, int i, const lp_hps_acf *b, int j)
{
    const lp_hps_node *x = &a->nodes[i], *y = &b->nodes[j];
    if (x->kind != y->kind)
        return 0;
    switch (x->kind) {
    case LP__HPS_AND:
    case LP__HPS_OR: return same_tree(a, x->a, b, y->a) && same_tree(a, x->b, b, y->b);
    case LP__HPS_NOT: return same_tree(a, x->a, b, y->a);
    case LP__HPS_FLAG: return x->flag == y->flag && x->counter == y->counter;
    default:
        return x->cmp == y->cmp && x->lhs == y->lhs && x->rhs == y->rhs &&
               x->lhs_value == y->lhs_value && x->rhs_value == y->rhs_value;
    }
}

/* The pattern column of each production row of the table, parsed again
 * as "P0 : PATTERN -> null". Printing parenthesises every operand, so a
 * long chain may come back deeper than the nesting limit: only that
 * failure is allowed. */
static void check_round_trip(const lp_hps_acf *acf, const char *table, size_t len)
{
    const char *head = strstr(table, "\n  #  label  line  control");
    if (!head || acf->nprod == 0)
        return;
    head++;
    const char *end_head = memchr(head, '\n', (size_t)(table + len - head));
    const char *col = strstr(head, "pattern");
    FUZZ_ASSERT(end_head && col && col < end_head);
    size_t offset = (size_t)(col - head);
    const char *row = end_head + 1;
    for (size_t i = 0; i < acf->nprod; i++) {
        const char *eol = memchr(row, '\n', (size_t)(table + len - row));
        FUZZ_ASSERT(eol && (size_t)(eol - row) > offset);
        size_t plen = (size_t)(eol - row) - offset;
        char *src = malloc(plen + 32);
        FUZZ_ASSERT(src);
        memcpy(src, "P0 : ", 5);
        memcpy(src + 5, row + offset, plen);
        memcpy(src + 5 + plen, " -> null\n", 10);
        lp_hps_acf again;
        lp_hps_diag err;
        int rc = lp_hps_parse(src, strlen(src), &again, &err);
        if (rc == 0) {
            FUZZ_ASSERT(again.nprod == 1);
            FUZZ_ASSERT(same_tree(acf, acf->prod[i].pattern, &again, again.prod[0].pattern));
        } else {
            FUZZ_ASSERT(rc == LP_ESPEC && strstr(err.message, "nests too deep"));
        }
        lp_hps_acf_free(&again);
        free(src);
        row = eol + 1;
    }
}

static const lp_hps_insn insns[] = {
    {0x401000, 0x402000, LP_HPS_CALL, LP_HPS_OP_NONE, 1},
    {0x401100, 0x401000, LP_HPS_COND, LP_HPS_OP_NONE, 1},
    {0x401100, 0x401200, LP_HPS_JUMP, LP_HPS_OP_NONE, 1},
    {0x401100, 0, LP_HPS_IJUMP | LP_HPS_LOAD, LP_HPS_OP_NONE, 0},
    {0x401100, 0, LP_HPS_ICALL, LP_HPS_OP_NONE, 0},
    {0x401104, 0, LP_HPS_RET, LP_HPS_OP_NONE, 0},
    {0x10, 0, LP_HPS_STORE, LP_HPS_OP_NONE, 0},
    {0x20, 0, 0, LP_HPS_OP_ON, 0},
    {0x30, 0, 0, LP_HPS_OP_OFF, 0},
    {UINT64_MAX, 0, 0, LP_HPS_OP_NONE, 1},
};

static void check_matching(const lp_hps_acf *acf)
{
    uint64_t states = lp_hps_all_states(acf);
    for (size_t p = 0; p < acf->nprod; p++)
        for (size_t k = 0; k < sizeof insns / sizeof insns[0]; k++) {
            uint64_t when = lp_hps_when(acf, p, &insns[k]);
            FUZZ_ASSERT((when & ~states) == 0);
            for (unsigned f = 0; f < LP_HPS_FLAG_STATES; f++)
                if ((states >> f) & 1u)
                    FUZZ_ASSERT(((when >> f) & 1u) == (lp_hps_eval(acf, p, &insns[k], f) != 0));
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lp_hps_acf acf;
    lp_hps_diag err;
    memset(&err, 0x5a, sizeof err);
    int rc = lp_hps_parse((const char *)data, size, &acf, &err);
    if (rc) {
        check_failure(rc, &acf, &err, data, size);
        return 0;
    }
    check_structure(&acf);
    lp_membuf m1 = {0}, m2 = {0};
    lp_sink s1 = lp_membuf_sink(&m1), s2 = lp_membuf_sink(&m2);
    FUZZ_ASSERT(lp_hps_print(&acf, &s1) == 0 && lp_hps_print(&acf, &s2) == 0);
    FUZZ_ASSERT(m1.size == m2.size && memcmp(m1.data, m2.data, m1.size) == 0);
    char *table = malloc(m1.size + 1); /* terminated, for strstr */
    FUZZ_ASSERT(table);
    memcpy(table, m1.data, m1.size);
    table[m1.size] = '\0';
    check_round_trip(&acf, table, m1.size);
    free(table);
    check_matching(&acf);
    lp_membuf_free(&m1);
    lp_membuf_free(&m2);
    lp_hps_acf_free(&acf);
    return 0;
}
