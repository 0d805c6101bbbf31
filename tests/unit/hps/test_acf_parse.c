/* hps: the ACF language. The paper's own productions as printed (Fig. 6
 * with its arrow and P2's missing operator, equations (1) and (2), the
 * method production of section 3.4), both orders of the items, comments,
 * counters and registers; the structures they give; what the patterns mean
 * on instructions (through the matcher); the printed table; bad inputs with
 * the exact line and column of each error; allocation failures; and every
 * shipped ACF (the folder is argv[1]). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowprof/hps.h"
#include "../../../src/hps/hps_internal.h"
#include "../lp_test.h"

static int parse(const char *text, lp_hps_acf *acf, lp_hps_diag *err)
{
    int rc = lp_hps_parse(text, strlen(text), acf, err);
    if (rc)
        fprintf(stderr, "  unexpected error %u:%u: %s\n", err->line, err->column, err->message);
    return rc;
}

static const lp_hps_node *node(const lp_hps_acf *acf, int i)
{
    LP_CHECK(i >= 0 && (size_t)i < acf->nnodes);
    static const lp_hps_node none;
    return i >= 0 && (size_t)i < acf->nnodes ? &acf->nodes[i] : &none;
}

static lp_hps_insn insn(unsigned classes, uint64_t pc, uint64_t target, int has_target)
{
    lp_hps_insn in = {pc, target, classes, LP_HPS_OP_NONE, has_target};
    return in;
}

static char *print_acf(const lp_hps_acf *acf)
{
    lp_membuf m = {0};
    lp_sink s = lp_membuf_sink(&m);
    LP_CHECK(lp_hps_print(acf, &s) == 0);
    char *text = malloc(m.size + 1);
    memcpy(text, m.data, m.size);
    text[m.size] = '\0';
    lp_membuf_free(&m);
    return text;
}

/* Fig. 6 as the paper prints it: tab after the label, the double arrow,
 * P2 with no operator before its '(' and T.Target in mixed case. */
static const char fig6[] = "# Hot Code Region Analysis\n"
                           "P1:\tT.OPCLASS == branch && zero_0 \xe2\x87\x92 R1, null\n"
                           "R1:\tcall(Branch_handler, T.INSN); T.INSN;\n"
                           "# Hot Method Analysis\n"
                           "P2:\tT.OPCLASS == proc_call (T.OPCLASS == branch && T.PC < T.Target) "
                           "&& zero_0 \xe2\x87\x92 R2, null\n"
                           "R2:\tcall(HotMethod_handler, T.INSN); T.INSN;\n"
                           "# Hot Call Pair Analysis\n"
                           "P3:\tT.OPCLASS == proc_call && zero_0 \xe2\x87\x92 R3, null\n"
                           "R3:\tcall(CallPair_handler, T.INSN); T.INSN;\n";

static void test_fig6(void)
{
    lp_hps_acf acf;
    lp_hps_diag err;
    if (parse(fig6, &acf, &err)) {
        LP_CHECK(0);
        return;
    }
    LP_CHECK_EQ_U64(acf.nprod, 3);
    LP_CHECK_EQ_U64(acf.nrepl, 3);
    LP_CHECK_EQ_U64(acf.ncounters, 1);
    static const char *const plabels[] = {"P1", "P2", "P3"}, *const rlabels[] = {"R1", "R2", "R3"};
    static const unsigned plines[] = {2, 5, 8}, rlines[] = {3, 6, 9};
    static const uint8_t handlers[] = {LP_HPS_H_BRANCH, LP_HPS_H_METHOD, LP_HPS_H_CALL_PAIR};
    for (int i = 0; i < 3; i++) {
        const lp_hps_production *p = &acf.prod[i];
        LP_CHECK(strcmp(p->label, plabels[i]) == 0);
        LP_CHECK_EQ_U64(p->line, plines[i]);
        LP_CHECK_EQ_U64(p->nops, 0);
        LP_CHECK_EQ_U64(p->replacement, i);
        LP_CHECK_EQ_U64(p->control_first, 0);
        const lp_hps_replacement *r = &acf.repl[i];
        LP_CHECK(strcmp(r->label, rlabels[i]) == 0);
        LP_CHECK_EQ_U64(r->line, rlines[i]);
        LP_CHECK_EQ_U64(r->ncalls, 1);
        LP_CHECK_EQ_U64(r->calls[0], handlers[i]);
    }
    /* P1: (OPCLASS == branch) && zero_0 */
    const lp_hps_node *and1 = node(&acf, acf.prod[0].pattern);
    LP_CHECK_EQ_U64(and1->kind, LP__HPS_AND);
    const lp_hps_node *cmp = node(&acf, and1->a), *flag = node(&acf, and1->b);
    LP_CHECK(cmp->kind == LP__HPS_CMP && cmp->cmp == LP__HPS_EQ && cmp->lhs == LP__HPS_OPCLASS);
    LP_CHECK(cmp->rhs == LP__HPS_CLASSES &&
             cmp->rhs_value == (LP_HPS_COND | LP_HPS_JUMP | LP_HPS_IJUMP));
    LP_CHECK(flag->kind == LP__HPS_FLAG && flag->flag == 0 && flag->counter == 0);
    /* P2: (call || (branch && pc < target)) && zero_0 */
    const lp_hps_node *and2 = node(&acf, acf.prod[1].pattern);
    LP_CHECK_EQ_U64(and2->kind, LP__HPS_AND);
    LP_CHECK_EQ_U64(node(&acf, and2->b)->kind, LP__HPS_FLAG);
    const lp_hps_node *or2 = node(&acf, and2->a);
    LP_CHECK_EQ_U64(or2->kind, LP__HPS_OR);
    LP_CHECK_EQ_U64(node(&acf, or2->a)->rhs_value, LP_HPS_CALL | LP_HPS_ICALL);
    const lp_hps_node *inner = node(&acf, or2->b);
    LP_CHECK_EQ_U64(inner->kind, LP__HPS_AND);
    const lp_hps_node *lt = node(&acf, inner->b);
    LP_CHECK(lt->kind == LP__HPS_CMP && lt->cmp == LP__HPS_LT && lt->lhs == LP__HPS_PC &&
             lt->rhs == LP__HPS_TARGET);
    /* The one warning, at P2's '(' (line 5, column 28). */
    LP_CHECK_EQ_U64(acf.nwarnings, 1);
    const char *line5 = strstr(fig6, "P2:");
    LP_CHECK_EQ_U64(strchr(line5, '(') - line5 + 1, 28);
    LP_CHECK_EQ_U64(acf.warning[0].line, 5);
    LP_CHECK_EQ_U64(acf.warning[0].column, 28);
    LP_CHECK(strcmp(acf.warning[0].message, "no operator before '('; read as '||' (Fig. 6, P2)") ==
             0);

    /* What the patterns mean. */
    unsigned on = LP_HPS_ZERO_BIT(0), off = 0;
    lp_hps_insn call = insn(LP_HPS_CALL, 0x401000, 0x402000, 1);
    lp_hps_insn icall = insn(LP_HPS_ICALL | LP_HPS_LOAD, 0x401000, 0, 0);
    lp_hps_insn back = insn(LP_HPS_COND, 0x401100, 0x401000, 1);
    lp_hps_insn fwd = insn(LP_HPS_COND, 0x401100, 0x401200, 1);
    lp_hps_insn ijump = insn(LP_HPS_IJUMP, 0x401100, 0, 0);
    lp_hps_insn load = insn(LP_HPS_LOAD, 0x401100, 0, 0);
    LP_CHECK(lp_hps_eval(&acf, 0, &back, on) && lp_hps_eval(&acf, 0, &ijump, on));
    LP_CHECK(!lp_hps_eval(&acf, 0, &back, off) && !lp_hps_eval(&acf, 0, &call, on));
    LP_CHECK(lp_hps_eval(&acf, 1, &call, on));
    LP_CHECK(lp_hps_eval(&acf, 1, &icall, on));
    LP_CHECK(!lp_hps_eval(&acf, 1, &call, off));
    LP_CHECK(!lp_hps_eval(&acf, 1, &back, on)); /* the paper's T.PC < T.Target: forward */
    LP_CHECK(lp_hps_eval(&acf, 1, &fwd, on));
    LP_CHECK(!lp_hps_eval(&acf, 1, &fwd, off));
    LP_CHECK(!lp_hps_eval(&acf, 1, &ijump, on)); /* T.TARGET unknown */
    LP_CHECK(!lp_hps_eval(&acf, 1, &load, on));
    LP_CHECK(lp_hps_eval(&acf, 2, &call, on) && !lp_hps_eval(&acf, 2, &back, on));
    /* Other counters' flags do not matter. */
    LP_CHECK(lp_hps_eval(&acf, 2, &call, on | LP_HPS_OVERFLOW_BIT(0) | LP_HPS_ZERO_BIT(1)));
    /* One counter: flag words 0 to 3; P3 holds on the two with zero_0. */
    LP_CHECK_EQ_U64(lp_hps_when(&acf, 2, &call), 0xa);
    lp_hps_acf_free(&acf);
}

/* Equations (1) and (2), and the method production of section 3.4 with
 * the replacement first and its handler in the paper's mixed case. */
static void test_triggers_and_method(void)
{
    const char *text = "P0 : T.OP == on_trig_inst -> set_0(HPS_R0), null\n"
                       "P0 : T.OP == off_trig_inst -> set_0(HPS_R1), null\n"
                       "P0 : T.OPCLASS == proc_call&&zero_0 -> null, R0\n"
                       "R0 : call(HotMethod_Handler); T.INSN\n";
    lp_hps_acf acf;
    lp_hps_diag err;
    if (parse(text, &acf, &err)) {
        LP_CHECK(0);
        return;
    }
    LP_CHECK_EQ_U64(acf.nprod, 3);
    LP_CHECK_EQ_U64(acf.nwarnings, 0);
    LP_CHECK_EQ_U64(acf.ncounters, 1);
    LP_CHECK_EQ_U64(acf.counter[0].width, LP_HPS_DEFAULT_WIDTH);
    LP_CHECK_EQ_U64(acf.counter[0].init, 0);
    LP_CHECK_EQ_U64(acf.counter[0].init_reg, -1);
    for (unsigned k = 0; k < LP_HPS_MAX_REGS; k++)
        LP_CHECK_EQ_U64(acf.reg[k], k);
    for (unsigned i = 0; i < 2; i++) {
        const lp_hps_production *p = &acf.prod[i];
        LP_CHECK(strcmp(p->label, "P0") == 0);
        LP_CHECK_EQ_U64(p->line, i + 1);
        LP_CHECK_EQ_U64(p->nops, 1);
        LP_CHECK(p->ops[0].kind == LP_HPS_UOP_SET && p->ops[0].counter == 0 && p->ops[0].reg == i);
        LP_CHECK_EQ_U64(p->replacement, -1);
        LP_CHECK_EQ_U64(p->control_first, 1);
        const lp_hps_node *n = node(&acf, p->pattern);
        LP_CHECK(n->kind == LP__HPS_CMP && n->lhs == LP__HPS_OP && n->rhs == LP__HPS_OPNAME);
    }
    LP_CHECK_EQ_U64(node(&acf, acf.prod[0].pattern)->rhs_value, 1u << LP_HPS_OP_ON);
    LP_CHECK_EQ_U64(node(&acf, acf.prod[1].pattern)->rhs_value, 1u << LP_HPS_OP_OFF);
    const lp_hps_production *m = &acf.prod[2];
    LP_CHECK_EQ_U64(m->nops, 0);
    LP_CHECK_EQ_U64(m->replacement, 0);
    LP_CHECK_EQ_U64(m->control_first, 1);
    LP_CHECK(acf.repl[0].ncalls == 1 && acf.repl[0].calls[0] == LP_HPS_H_METHOD);

    lp_hps_insn on = insn(0, 0x1000, 0, 0), off = on, plain = on;
    on.op = LP_HPS_OP_ON;
    off.op = LP_HPS_OP_OFF;
    LP_CHECK(lp_hps_eval(&acf, 0, &on, 0) && !lp_hps_eval(&acf, 0, &off, 0));
    LP_CHECK(lp_hps_eval(&acf, 1, &off, 0) && !lp_hps_eval(&acf, 1, &on, 0));
    LP_CHECK(!lp_hps_eval(&acf, 0, &plain, 0) && !lp_hps_eval(&acf, 1, &plain, 0));
    lp_hps_acf_free(&acf);
}

/* Either order of the two items, single items, null twice. */
static void test_item_orders(void)
{
    static const struct {
        const char *items;
        unsigned nops;
        int replacement; /* 0 (R1) or -1 */
        int control_first;
    } cases[] = {
        {"R1, null", 0, 0, 0},
        {"null, R1", 0, 0, 1},
        {"inc_0, R1", 1, 0, 1},
        {"R1, inc_0", 1, 0, 0},
        {"inc_0; dec_1, null", 2, -1, 1},
        {"null, inc_0; dec_1", 2, -1, 0},
        {"null, null", 0, -1, 0},
        {"R1", 0, 0, 0},
        {"null", 0, -1, 0},
        {"set_2(HPS_R7); inc_0; dec_0; inc_1", 4, -1, 1},
        {"NULL , r1", 0, 0, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "R1: T.INSN\nP7: zero_0 -> %s\n", cases[i].items);
        lp_hps_acf acf;
        lp_hps_diag err;
        if (parse(text, &acf, &err)) {
            LP_CHECK(0);
            continue;
        }
        const lp_hps_production *p = &acf.prod[0];
        LP_CHECK_EQ_U64(p->nops, cases[i].nops);
        LP_CHECK_EQ_U64(p->replacement, cases[i].replacement);
        LP_CHECK_EQ_U64(p->control_first, cases[i].control_first);
        /* An unused R1 is a warning, at its label. */
        LP_CHECK_EQ_U64(acf.nwarnings, cases[i].replacement < 0);
        if (acf.nwarnings)
            LP_CHECK(acf.warning[0].line == 1 && acf.warning[0].column == 1 &&
                     strstr(acf.warning[0].message, "R1 is never used"));
        lp_hps_acf_free(&acf);
    }
    lp_hps_acf acf;
    lp_hps_diag err;
    LP_CHECK(parse("P1: zero_0 -> set_2(HPS_R7); inc_0; dec_1, null\n", &acf, &err) == 0);
    const lp_hps_uop *op = acf.prod[0].ops;
    LP_CHECK(op[0].kind == LP_HPS_UOP_SET && op[0].counter == 2 && op[0].reg == 7);
    LP_CHECK(op[1].kind == LP_HPS_UOP_INC && op[1].counter == 0);
    LP_CHECK(op[2].kind == LP_HPS_UOP_DEC && op[2].counter == 1);
    LP_CHECK_EQ_U64(acf.ncounters, 3);
    lp_hps_acf_free(&acf);
}

/* Comments, blank lines, CRLF, spelling and case, counters, registers, a
 * forward reference, numbers and names on either side. */
static void test_declarations_and_spelling(void)
{
    const char *text = "\xef\xbb\xbf# an ACF with everything\r\n"
                       "\r\n"
                       "   // counters and registers\n"
                       "HPS_R3 = 0xfff0   # the reload value\n"
                       "hps_r9 = 18446744073709551615\n"
                       "counter 0 width 8 = 200\n"
                       "COUNTER 1 = HPS_R3\n"
                       "counter 2 Width 32 = 4294967295\n"
                       "P10 : t.opclass == COND_BRANCH && T.Target <= t.pc && !Zero_1 => r5 , "
                       "Inc_1\n"
                       "P11 : load == T.OPCLASS || T.PC >= 0x401000 && 4198401 > T.pc -> null\n"
                       "P12 : !(T.OP != trig_inst) \xe2\x86\x92 R5\n"
                       "R5 : CALL ( branch_HANDLER , t.insn ) ; call(callpair_handler); T.INSN ;\n"
                       "p13: overflow_2 || T.OPCLASS == any -> R5, null // trailing comment\n";
    lp_hps_acf acf;
    lp_hps_diag err;
    if (parse(text, &acf, &err)) {
        LP_CHECK(0);
        return;
    }
    LP_CHECK_EQ_U64(acf.nprod, 4);
    LP_CHECK_EQ_U64(acf.nrepl, 1);
    LP_CHECK_EQ_U64(acf.nwarnings, 0);
    LP_CHECK_EQ_U64(acf.ncounters, 3);
    LP_CHECK_EQ_U64(acf.reg[3], 0xfff0);
    LP_CHECK_EQ_U64(acf.reg[9], UINT64_MAX);
    LP_CHECK_EQ_U64(acf.reg[4], 4);
    LP_CHECK(acf.counter[0].width == 8 && acf.counter[0].init == 200 &&
             acf.counter[0].init_reg == -1);
    LP_CHECK(acf.counter[1].width == 16 && acf.counter[1].init_reg == 3);
    LP_CHECK(acf.counter[2].width == 32 && acf.counter[2].init == 4294967295u);
    LP_CHECK(strcmp(acf.prod[0].label, "P10") == 0 && acf.prod[0].line == 9);
    LP_CHECK(strcmp(acf.prod[3].label, "P13") == 0 && acf.prod[3].line == 13);
    LP_CHECK(strcmp(acf.repl[0].label, "R5") == 0 && acf.repl[0].line == 12);
    for (int i = 0; i < 4; i++)
        LP_CHECK_EQ_U64(acf.prod[i].replacement, i == 1 ? -1 : 0);
    LP_CHECK_EQ_U64(acf.prod[0].control_first, 0);
    LP_CHECK(acf.prod[0].nops == 1 && acf.prod[0].ops[0].counter == 1);
    LP_CHECK(acf.repl[0].ncalls == 2 && acf.repl[0].calls[0] == LP_HPS_H_BRANCH &&
             acf.repl[0].calls[1] == LP_HPS_H_CALL_PAIR);
    /* The class name written first moves behind T.OPCLASS. */
    const lp_hps_node *or11 = node(&acf, acf.prod[1].pattern);
    LP_CHECK_EQ_U64(or11->kind, LP__HPS_OR); /* && binds tighter */
    const lp_hps_node *c = node(&acf, or11->a);
    LP_CHECK(c->lhs == LP__HPS_OPCLASS && c->rhs == LP__HPS_CLASSES && c->rhs_value == LP_HPS_LOAD);
    const lp_hps_node *gt = node(&acf, node(&acf, or11->b)->b);
    LP_CHECK(gt->lhs == LP__HPS_NUMBER && gt->lhs_value == 4198401 && gt->cmp == LP__HPS_GT &&
             gt->rhs == LP__HPS_PC);

    unsigned none = 0, z1 = LP_HPS_ZERO_BIT(1);
    lp_hps_insn back = insn(LP_HPS_COND, 0x401100, 0x401000, 1);
    lp_hps_insn self = insn(LP_HPS_COND, 0x401100, 0x401100, 1);
    lp_hps_insn jump = insn(LP_HPS_JUMP, 0x401100, 0x401000, 1);
    LP_CHECK(lp_hps_eval(&acf, 0, &back, none) && lp_hps_eval(&acf, 0, &self, none));
    LP_CHECK(!lp_hps_eval(&acf, 0, &back, z1) && !lp_hps_eval(&acf, 0, &jump, none));
    lp_hps_insn low = insn(0, 0x400fff, 0, 0), mid = insn(0, 0x401000, 0, 0);
    lp_hps_insn high = insn(0, 0x401001, 0, 0), ld = insn(LP_HPS_LOAD, 0x10, 0, 0);
    LP_CHECK(!lp_hps_eval(&acf, 1, &low, 0) && lp_hps_eval(&acf, 1, &mid, 0));
    LP_CHECK(!lp_hps_eval(&acf, 1, &high, 0) && lp_hps_eval(&acf, 1, &ld, 0));
    lp_hps_insn trig = mid;
    trig.op = LP_HPS_OP_OFF;
    LP_CHECK(lp_hps_eval(&acf, 2, &trig, 0) && !lp_hps_eval(&acf, 2, &mid, 0));
    LP_CHECK(lp_hps_eval(&acf, 3, &low, 0)); /* any */
    lp_hps_acf_free(&acf);
}

/* The table, exactly. */
static void test_print(void)
{
    const char *text = "HPS_R2 = 300\n"
                       "counter 0 width 12 = HPS_R2\n"
                       "P0 : T.OP == on_trig_inst -> set_0(HPS_R0), null\n"
                       "P0 : T.OP == off_trig_inst -> set_0(HPS_R1), null\n"
                       "P2: T.OPCLASS == proc_call (T.OPCLASS == branch && T.PC < T.Target) && "
                       "zero_0 => R2, null\n"
                       "P9: !(T.PC >= 0x401000) || !overflow_1 -> inc_1; dec_0, R2\n"
                       "R2: call(HotMethod_handler, T.INSN); T.INSN;\n"
                       "R7: T.INSN\n";
    const char *expected =
        "counters (2)\n"
        "  counter  width  initial value\n"
        "  0        12     HPS_R2 = 300\n"
        "  1        16     0\n"
        "registers (3)\n"
        "  register  value\n"
        "  HPS_R0    0\n"
        "  HPS_R1    1\n"
        "  HPS_R2    300\n"
        "productions (4)\n"
        "  #  label  line  control        replacement  pattern\n"
        "  0  P0     3     set_0(HPS_R0)  null         T.OP == on_trig_inst\n"
        "  1  P0     4     set_0(HPS_R1)  null         T.OP == off_trig_inst\n"
        "  2  P2     5     null           R2           ((T.OPCLASS == proc_call) || "
        "((T.OPCLASS == branch) && (T.PC < T.TARGET))) && zero_0\n"
        "  3  P9     6     inc_1; dec_0   R2           !(T.PC >= 0x401000) || !overflow_1\n"
        "replacements (2)\n"
        "  label  line  sequence\n"
        "  R2     7     call(HotMethod_handler, T.INSN); T.INSN\n"
        "  R7     8     T.INSN\n"
        "warnings (2)\n"
        "  line  column  warning\n"
        "  5     28      no operator before '('; read as '||' (Fig. 6, P2)\n"
        "  8     1       replacement R7 is never used by a production\n";
    lp_hps_acf acf;
    lp_hps_diag err;
    if (parse(text, &acf, &err)) {
        LP_CHECK(0);
        return;
    }
    char *out = print_acf(&acf);
    LP_CHECK(strcmp(out, expected) == 0);
    if (strcmp(out, expected))
        fprintf(stderr, "--- got:\n%s--- expected:\n%s", out, expected);
    free(out);
    /* A register set from the command line shows in the table. */
    LP_CHECK(lp_hps_set_register(&acf, "hps_r2", 6, 7) == 0);
    out = print_acf(&acf);
    LP_CHECK(strstr(out, "  0        12     HPS_R2 = 7\n") != NULL);
    free(out);
    lp_hps_acf_free(&acf);

    /* An empty ACF prints empty sections and a warning. */
    LP_CHECK(parse("# nothing\n", &acf, &err) == 0);
    LP_CHECK_EQ_U64(acf.nwarnings, 1);
    out = print_acf(&acf);
    LP_CHECK(strcmp(out, "counters (0)\nregisters (0)\nproductions (0)\nreplacements (0)\n"
                         "warnings (1)\n  line  column  warning\n"
                         "  1     1       no productions: this ACF matches no instruction\n") == 0);
    free(out);
    lp_hps_acf_free(&acf);
}

static void test_registers_and_handlers(void)
{
    lp_hps_acf acf;
    lp_hps_diag err;
    LP_CHECK(parse("P1: zero_0 -> set_0(HPS_R15), null\n", &acf, &err) == 0);
    LP_CHECK(lp_hps_set_register(&acf, "HPS_R15", 7, 99) == 0 && acf.reg[15] == 99);
    LP_CHECK(lp_hps_set_register(&acf, "Hps_R0", 6, 5) == 0 && acf.reg[0] == 5);
    LP_CHECK(lp_hps_set_register(&acf, "HPS_R15x", 7, 1) == 0); /* len says HPS_R15 */
    static const char *const bad[] = {"HPS_R16", "HPS_R",   "HPS_Rx", "R1",
                                      "HPS_R-1", "HPS_R1 ", "",       "HPS_R99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        LP_CHECK_EQ_U64(lp_hps_set_register(&acf, bad[i], strlen(bad[i]), 1), (uint64_t)LP_EINVAL);
    LP_CHECK_EQ_U64(lp_hps_set_register(NULL, "HPS_R1", 6, 1), (uint64_t)LP_EINVAL);
    lp_hps_acf_free(&acf);
    LP_CHECK(strcmp(lp_hps_handler_name(LP_HPS_H_BRANCH), "Branch_handler") == 0);
    LP_CHECK(strcmp(lp_hps_handler_name(LP_HPS_H_METHOD), "HotMethod_handler") == 0);
    LP_CHECK(strcmp(lp_hps_handler_name(LP_HPS_H_CALL_PAIR), "CallPair_handler") == 0);
    LP_CHECK(strcmp(lp_hps_handler_name(0), "?") == 0);
    LP_CHECK(strcmp(lp_hps_handler_name(4), "?") == 0);
    lp_hps_acf_free(NULL);
}

/* ---- bad inputs --------------------------------------------------------------------- */

typedef struct bad_case {
    const char *text;
    unsigned line, column;
    const char *fragment;
} bad_case;

static const bad_case bad_cases[] = {
    {"T.OP == on_trig_inst -> set_0(HPS_R0), null\n", 1, 1, "every production needs a label"},
    {"  : zero_0 -> null\n", 1, 3, "every production needs a label"},
    {"P0 T.OP == on_trig_inst -> null\n", 1, 4, "expected ':' after the label but found 'T.OP'"},
    {"P0 : T.OP == on_trig_inst set_0(HPS_R0), null\n", 1, 27,
     "expected '&&', '||' or an arrow ('->', '=>'"},
    {"P0 : zero_0 & zero_1 -> null\n", 1, 13,
     "or an arrow ('->', '=>', '\xe2\x86\x92', "
     "'\xe2\x87\x92') but found '&'"},
    {"P0 : T.OP == bogus -> null\n", 1, 14, "unknown name 'bogus'"},
    {"P0 : T.FOO == 1 -> null\n", 1, 6, "no attribute 'T.FOO'"},
    {"P0 : T.INSN == 1 -> null\n", 1, 6, "T.INSN belongs in a replacement"},
    {"P0 : T.OPCLASS < branch -> null\n", 1, 16, "T.OPCLASS compares only with == or !=, not '<'"},
    {"P0 : call >= T.OPCLASS -> null\n", 1, 11, "a class name compares only with == or !="},
    {"P0 : T.OPCLASS == 5 -> null\n", 1, 19, "T.OPCLASS compares with a class name"},
    {"P0 : T.OPCLASS == T.OPCLASS -> null\n", 1, 19, "not 'T.OPCLASS'"},
    {"P0 : T.OP == branch -> null\n", 1, 14, "T.OP compares with an op name"},
    {"P0 : T.PC == branch -> null\n", 1, 14,
     "T.PC and T.TARGET compare with each other or a number"},
    {"P0 : T.PC < T.OP -> null\n", 1, 13, "not 'T.OP'"},
    {"P0 : 5 < T.OPCLASS -> null\n", 1, 10,
     "a number compares with T.PC or T.TARGET, not "
     "'T.OPCLASS'"},
    {"P0 : 5 == 6 -> null\n", 1, 8, "compares two constants"},
    {"P0 : branch == call -> null\n", 1, 13, "compares two constants"},
    {"P0 : on_trig_inst == T.OPCLASS -> null\n", 1, 22, "an op name compares only with T.OP"},
    {"P0 : T.OPCLASS branch -> null\n", 1, 16, "expected '==' or '!=' and a class name"},
    {"P0 : T.PC -> null\n", 1, 11, "expected a comparison operator (==, !=, <, <=, >, >=)"},
    {"P0 : T.PC = 5 -> null\n", 1, 11, "found '='"},
    {"P0 : T.PC == -> null\n", 1, 14,
     "expected T.PC, T.TARGET, T.OPCLASS, T.OP, a number or a "
     "name but found '->'"},
    {"P0 : -> null\n", 1, 6, "expected a condition"},
    {"P0 : zero_3 -> null\n", 1, 6, "no counter 'zero_3': the counters are 0 to 2"},
    {"P0 : overflow_x -> null\n", 1, 6, "expected overflow_N with N a counter number"},
    {"P0 : zero_0 -> inc_3, null\n", 1, 16, "no counter 'inc_3'"},
    {"P0 : zero_0 -> inc_, null\n", 1, 16, "expected inc_N with N a counter number"},
    {"P0 : zero_0 -> set_0(HPS_R16), null\n", 1, 22, "no register 'HPS_R16'"},
    {"P0 : zero_0 -> set_0(R1), null\n", 1, 22, "expected a register (HPS_R0 to HPS_R15)"},
    {"P0 : zero_0 -> set_0 HPS_R1, null\n", 1, 22, "expected '(' and a register after set_N"},
    {"P0 : zero_0 -> set_1(HPS_R1, null\n", 1, 28, "expected ')' but found ','"},
    {"R1 : T.INSN\nR2 : T.INSN\nP0 : zero_0 -> R1, R2\n", 3, 20, "two replacements"},
    {"P0 : zero_0 -> inc_0, dec_0\n", 1, 23, "two conditional controls"},
    {"P0 : zero_0 -> null, null, null\n", 1, 26,
     "expected the end of the line after the second "
     "item but found ','"},
    {"P0 : zero_0 -> foo\n", 1, 16,
     "expected null, a replacement label (R<n>) or "
     "micro-operations"},
    {"P0 : zero_0 -> P1\n", 1, 16, "but found 'P1'"},
    {"P0 : zero_0 -> R1 R2\n", 1, 19, "expected ',' and a second item, or the end of the line"},
    {"P0 : zero_0 -> inc_0 dec_0\n", 1, 22, "expected ';' and a micro-operation"},
    {"P0 : zero_0 ->\n", 1, 15, "but found the end of the line"},
    {"# comment\n\nP0 : zero_0 -> R1\nR2: T.INSN\n", 3, 16, "replacement 'R1' is not defined"},
    {"R1 : call(Branch_handler); T.INSN\nr1 : T.INSN\n", 2, 1,
     "replacement 'r1' is already defined on line 1"},
    {"R1 : T.INSN; call(Branch_handler)\n", 1, 14,
     "T.INSN must end the replacement: lowprof "
     "never drops or reorders the program's own "
     "instruction"},
    {"R1 : T.INSN; T.INSN\n", 1, 14, "T.INSN must end the replacement"},
    {"R1 : call(Branch_handler) # no T.INSN\n", 1, 27, "T.INSN must end the replacement"},
    {"R1 : call(Branch_handler);\n", 1, 27, "T.INSN must end the replacement"},
    {"R1 :\n", 1, 5, "expected call(HANDLER) or T.INSN but found the end of the line"},
    {"R1 : call(Foo_handler); T.INSN\n", 1, 11,
     "expected a handler (Branch_handler, "
     "HotMethod_handler or CallPair_handler) but "
     "found 'Foo_handler'"},
    {"R1 : call(Branch_handler T.INSN); T.INSN\n", 1, 26, "expected ', T.INSN' or ')'"},
    {"R1 : call(Branch_handler, T.PC); T.INSN\n", 1, 27,
     "expected T.INSN (the handler's "
     "argument)"},
    {"R1 : T.INSN T.INSN\n", 1, 13, "expected ';' or the end of the line"},
    {"R1 : call(Branch_handler); call(Branch_handler); call(Branch_handler); "
     "call(Branch_handler); call(Branch_handler); T.INSN\n",
     1, 94, "too many calls: at most 4 per replacement (LP_HPS_MAX_CALLS)"},
    {"P0 : zero_0 -> inc_0; inc_0; inc_0; inc_0; inc_0, null\n", 1, 44,
     "too many micro-operations: at most 4 per production (LP_HPS_MAX_OPS)"},
    {"HPS_R1 = 5\nHPS_R1 = 6\n", 2, 1, "'HPS_R1' is already set on line 1"},
    {"HPS_R1 5\n", 1, 8, "expected '=' and a value after the register"},
    {"HPS_R1 = \n", 1, 10, "expected a number (decimal, or 0x and hex digits) but found the end"},
    {"HPS_R1 = 5 6\n", 1, 12, "expected the end of the line but found '6'"},
    {"HPS_R16 = 5\n", 1, 1, "no register 'HPS_R16'"},
    {"counter 0\ncounter 0 width 8\n", 2, 9, "counter '0' is already declared on line 1"},
    {"counter 3\n", 1, 9, "no counter '3'"},
    {"counter x\n", 1, 9, "expected a counter number (0 to 2)"},
    {"counter 0 width 33\n", 1, 17, "a counter is 1 to 32 bits wide (LP_HPS_MAX_WIDTH), not '33'"},
    {"counter 0 width 0\n", 1, 17, "not '0'"},
    {"counter 0 width 8 = 256\n", 1, 21, "the initial value '256' does not fit in 8 bits"},
    {"counter 0 = 0x10000\n", 1, 13, "does not fit in 16 bits"},
    {"counter 0 = 0xffff junk\n", 1, 20, "expected the end of the line but found 'junk'"},
    {"counter 0 width 8 junk\n", 1, 19,
     "expected '=' and an initial value, or the end of the "
     "line"},
    {"counter 0 junk\n", 1, 11, "expected 'width', '=' or the end of the line"},
    {"counter 0 = R3\n", 1, 13, "expected a number or a register (HPS_Rk)"},
    {"P0 : T.PC == 18446744073709551616 -> null\n", 1, 14, "does not fit in 64 bits"},
    {"P0 : T.PC == 0x10000000000000000 -> null\n", 1, 14, "does not fit in 64 bits"},
    {"P0 : T.PC == 12ab -> null\n", 1, 14, "'12ab' is not a number"},
    {"P0 : T.PC == 0x -> null\n", 1, 14, "'0x' is not a number"},
    {"P0 : (zero_0 -> null\n", 1, 14, "expected ')' to close the '(' at column 6 but found '->'"},
    {"P0 : zero_0 (zero_1 -> null\n", 1, 21, "expected ')' but found '->'"},
    {"P0 : zero_0 @ -> null\n", 1, 13, "found '@'"},
    {"P0 : zero_0 \xe2\x80\x94 null\n", 1, 13, "found the byte 0xe2"},
    {"P0 : zero_0 -> null\x01\n", 1, 20, "found the byte 0x01"},
    {"foo bar\n", 1, 1,
     "expected a statement ('P<n> : pattern -> ...', 'R<n> : ...', 'counter N' "
     "or 'HPS_Rk = N') but found 'foo'"},
    {"P123456789012345 : zero_0 -> null\n", 1, 1, "is too long: labels have at most 15"},
    {"\n\n   \t P0 : zero_0 -> null\n  R1: T.INSN junk\n", 4, 14, "found 'junk'"},
};

/* 65 productions; 33 replacements; a pattern of 257 terms; parentheses 33
 * deep; and '!' 33 deep. */
static void test_limits(void)
{
    char text[8192];
    size_t n = 0;
    lp_hps_acf acf;
    lp_hps_diag err;
    for (int i = 0; i < 65; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "P%d: zero_0 -> null\n", i);
    LP_CHECK_EQ_U64(lp_hps_parse(text, n, &acf, &err), (uint64_t)LP_ESPEC);
    LP_CHECK(err.line == 65 && err.column == 1 && strstr(err.message, "LP_HPS_MAX_PRODUCTIONS"));
    LP_CHECK(acf.nodes == NULL && acf.nprod == 0);
    LP_CHECK_EQ_U64(lp_hps_parse(text, n - strlen("P64: zero_0 -> null\n"), &acf, &err), 0);
    lp_hps_acf_free(&acf);

    n = 0;
    for (int i = 0; i < 33; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "R%d: T.INSN\n", i);
    LP_CHECK_EQ_U64(lp_hps_parse(text, n, &acf, &err), (uint64_t)LP_ESPEC);
    LP_CHECK(err.line == 33 && err.column == 1 && strstr(err.message, "LP_HPS_MAX_REPLACEMENTS"));

    /* 128 flags joined by || are 255 nodes; one more flag makes 257. */
    n = (size_t)snprintf(text, sizeof text, "P0: zero_0");
    for (int i = 1; i < 128; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, " || zero_0");
    snprintf(text + n, sizeof text - n, " -> null\n");
    LP_CHECK_EQ_U64(lp_hps_parse(text, strlen(text), &acf, &err), 0);
    LP_CHECK_EQ_U64(acf.nnodes, 255);
    lp_hps_acf_free(&acf);
    n += (size_t)snprintf(text + n, sizeof text - n, " || zero_0");
    snprintf(text + n, sizeof text - n, " -> null\n");
    LP_CHECK_EQ_U64(lp_hps_parse(text, strlen(text), &acf, &err), (uint64_t)LP_ESPEC);
    LP_CHECK(err.line == 1 && err.column == n + 2 && strstr(err.message, "at most 256 terms"));

    for (int depth = 32; depth <= 33; depth++) {
        n = (size_t)snprintf(text, sizeof text, "P0: ");
        for (int i = 0; i < depth; i++)
            text[n++] = '(';
        n += (size_t)snprintf(text + n, sizeof text - n, "zero_0");
        for (int i = 0; i < depth; i++)
            text[n++] = ')';
        snprintf(text + n, sizeof text - n, " -> null\n");
        int rc = lp_hps_parse(text, strlen(text), &acf, &err);
        LP_CHECK_EQ_U64(rc, depth == 32 ? 0 : (uint64_t)LP_ESPEC);
        if (depth == 33) /* at the 33rd '(' */
            LP_CHECK(err.column == 4 + 33 && strstr(err.message, "nests too deep"));
        lp_hps_acf_free(&acf);
        n = (size_t)snprintf(text, sizeof text, "P0: ");
        for (int i = 0; i < depth; i++)
            text[n++] = '!';
        snprintf(text + n, sizeof text - n, "zero_0 -> null\n");
        rc = lp_hps_parse(text, strlen(text), &acf, &err);
        LP_CHECK_EQ_U64(rc, depth == 32 ? 0 : (uint64_t)LP_ESPEC);
        if (depth == 33)
            LP_CHECK(err.column == 4 + 33 && strstr(err.message, "nests too deep"));
        lp_hps_acf_free(&acf);
    }
    /* Nesting in both kinds counts together. */
    snprintf(text, sizeof text, "P0: %s zero_0 %s -> null\n", "!(!(!(!(!(!(!(!(!(!(!(!(!(!(!(!(!",
             "))))))))))))))))");
    LP_CHECK_EQ_U64(lp_hps_parse(text, strlen(text), &acf, &err), (uint64_t)LP_ESPEC);
    LP_CHECK(err.column == 4 + 33 && strstr(err.message, "nests too deep"));
}

static void test_bad(void)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *b = &bad_cases[i];
        lp_hps_acf acf;
        lp_hps_diag err;
        memset(&acf, 0x5a, sizeof acf);
        int rc = lp_hps_parse(b->text, strlen(b->text), &acf, &err);
        int ok = rc == LP_ESPEC && err.line == b->line && err.column == b->column &&
                 strstr(err.message, b->fragment) != NULL;
        LP_CHECK(ok);
        if (!ok)
            fprintf(stderr, "  case %zu: %s  got %d %u:%u: %s\n  expected %u:%u: ...%s...\n", i,
                    b->text, rc, err.line, err.column, err.message, b->line, b->column,
                    b->fragment);
        /* Nothing to free, and nothing left over. */
        static const lp_hps_acf zero;
        LP_CHECK(memcmp(&acf, &zero, sizeof acf) == 0);
        LP_CHECK(memchr(err.message, '\0', sizeof err.message) != NULL);
    }
    LP_CHECK(sizeof bad_cases / sizeof bad_cases[0] >= 30);
    /* A NULL err is allowed. */
    lp_hps_acf acf;
    LP_CHECK_EQ_U64(lp_hps_parse("x", 1, &acf, NULL), (uint64_t)LP_ESPEC);
    /* Empty and NULL text parse to an ACF that matches nothing. */
    LP_CHECK_EQ_U64(lp_hps_parse(NULL, 0, &acf, NULL), 0);
    LP_CHECK(acf.nprod == 0 && acf.nwarnings == 1);
    lp_hps_acf_free(&acf);
}

/* ---- allocation failures ---------------------------------------------------------- */

static int alloc_left;

static void *failing_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return alloc_left-- > 0 ? malloc(size) : NULL;
}

static void *failing_realloc(void *ctx, void *p, size_t old_size, size_t size)
{
    (void)ctx;
    (void)old_size;
    return alloc_left-- > 0 ? realloc(p, size) : NULL;
}

static void plain_free(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

static void test_out_of_memory(void)
{
    /* Enough terms that the node pool grows several times. */
    char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text, "%s", fig6);
    n += (size_t)snprintf(text + n, sizeof text - n, "P9: zero_0");
    for (int i = 0; i < 60; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, " && T.PC != %d", i);
    snprintf(text + n, sizeof text - n, " -> null\n");
    lp_allocator a = {failing_alloc, failing_realloc, plain_free, NULL};
    lp_set_allocator(&a);
    int failures = 0, k;
    for (k = 0; k < 50; k++) {
        alloc_left = k;
        lp_hps_acf acf;
        lp_hps_diag err;
        int rc = lp_hps_parse(text, strlen(text), &acf, &err);
        if (rc == 0) {
            lp_hps_acf_free(&acf);
            break;
        }
        failures++;
        LP_CHECK_EQ_U64(rc, (uint64_t)LP_ENOMEM);
        LP_CHECK(acf.nodes == NULL && acf.nprod == 0);
        LP_CHECK(strstr(err.message, "out of memory") != NULL);
    }
    lp_set_allocator(NULL);
    LP_CHECK(failures >= 3 && k < 50);
}

/* ---- the shipped ACFs --------------------------------------------------------------- */

static void test_shipped(const char *dir)
{
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d) {
        printf("no shipped ACFs at %s: skipped\n", dir ? dir : "(none given)");
        return;
    }
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".acf") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        LP_CHECK(f != NULL);
        if (!f)
            continue;
        static char buf[1 << 16];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        lp_hps_acf acf;
        lp_hps_diag err;
        int rc = lp_hps_parse(buf, n, &acf, &err);
        LP_CHECK(rc == 0);
        if (rc)
            fprintf(stderr, "  %s:%u:%u: %s\n", path, err.line, err.column, err.message);
        else
            LP_CHECK(acf.nprod > 0);
        char *table = print_acf(&acf);
        free(table);
        lp_hps_acf_free(&acf);
        count++;
    }
    closedir(d);
    printf("parsed %d shipped ACFs in %s\n", count, dir);
    LP_CHECK(count > 0);
}

int main(int argc, char **argv)
{
    test_fig6();
    test_triggers_and_method();
    test_item_orders();
    test_declarations_and_spelling();
    test_print();
    test_registers_and_handlers();
    test_bad();
    test_limits();
    test_out_of_memory();
    test_shipped(argc > 1 ? argv[1] : NULL);
    return lp_test_done();
}
