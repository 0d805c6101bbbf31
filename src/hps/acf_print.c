/* hps: the production table of a parsed ACF as text (lp_hps_print):
 * counters, the registers that matter, productions with their patterns
 * re-printed fully parenthesised in canonical spelling, replacements, and
 * the parser's warnings. `lowprof acf check` shows it, so that an ACF's
 * author sees how lowprof read each line (Fig. 6's P2 especially).
 *
 * Freestanding: text leaves through the caller's sink only. Each table is
 * laid out in two passes over the same cell writers, one counting widths
 * and one writing, so no cell is ever held in memory. */
#include "acf_lex.h"

/* Where cell text goes: a sink, or (sink NULL) only a count of bytes. */
typedef struct lp__out {
    lp_sink *sink;
    size_t n;
    int err;
} lp__out;

static void lp__put(lp__out *o, const char *s, size_t n)
{
    o->n += n;
    if (o->sink && !o->err && n)
        o->err = o->sink->write(o->sink->ctx, s, n);
}

static void lp__puts(lp__out *o, const char *z)
{
    lp__put(o, z, lp__acf_strlen(z));
}

static void lp__put_u64(lp__out *o, uint64_t v)
{
    char buf[24];
    lp__put(o, buf, lp__acf_u64_text(v, buf));
}

static void lp__put_dec(lp__out *o, uint64_t v)
{
    char buf[24];
    lp__put(o, buf, lp__acf_dec_text(v, buf));
}

static void lp__put_reg(lp__out *o, unsigned k)
{
    lp__puts(o, "HPS_R");
    lp__put_dec(o, k);
}

/* ---- patterns ------------------------------------------------------------------- */

static void lp__put_operand(lp__out *o, unsigned kind, uint64_t value)
{
    const char *name = NULL;
    switch (kind) {
    case LP__HPS_PC: name = "T.PC"; break;
    case LP__HPS_TARGET: name = "T.TARGET"; break;
    case LP__HPS_OPCLASS: name = "T.OPCLASS"; break;
    case LP__HPS_OP: name = "T.OP"; break;
    case LP__HPS_CLASSES: name = lp__acf_name_of(lp__acf_classes, lp__acf_nclasses, value); break;
    case LP__HPS_OPNAME: name = lp__acf_name_of(lp__acf_opnames, lp__acf_nopnames, value); break;
    case LP__HPS_NUMBER: break;
    default: name = "?";
    }
    if (name)
        lp__puts(o, name);
    else
        lp__put_u64(o, value); /* a number, or a mask no name has (built by hand) */
}

/* Prints node i; nested says it is an operand of another operator, and then
 * anything with an operator of its own is parenthesised. depth guards
 * against a pool built by hand with a cycle in it. */
static void lp__put_node(lp__out *o, const lp_hps_acf *acf, int i, int nested, unsigned depth)
{
    static const char *const cmp[] = {"?", "==", "!=", "<", "<=", ">", ">="};
    if (i < 0 || (size_t)i >= acf->nnodes || depth > LP__ACF_MAX_TERMS) {
        lp__puts(o, "?");
        return;
    }
    const lp_hps_node *n = &acf->nodes[i];
    switch (n->kind) {
    case LP__HPS_TRUE: lp__puts(o, "any"); return;
    case LP__HPS_FLAG:
        lp__puts(o, n->flag ? "overflow_" : "zero_");
        lp__put_dec(o, n->counter);
        return;
    case LP__HPS_NOT:
        lp__puts(o, "!");
        lp__put_node(o, acf, n->a, 1, depth + 1);
        return;
    case LP__HPS_CMP:
    case LP__HPS_AND:
    case LP__HPS_OR: break;
    default: lp__puts(o, "?"); return;
    }
    if (nested)
        lp__puts(o, "(");
    if (n->kind == LP__HPS_CMP) {
        lp__put_operand(o, n->lhs, n->lhs_value);
        lp__puts(o, " ");
        lp__puts(o, cmp[n->cmp <= LP__HPS_GE ? n->cmp : 0]);
        lp__puts(o, " ");
        lp__put_operand(o, n->rhs, n->rhs_value);
    } else {
        lp__put_node(o, acf, n->a, 1, depth + 1);
        lp__puts(o, n->kind == LP__HPS_AND ? " && " : " || ");
        lp__put_node(o, acf, n->b, 1, depth + 1);
    }
    if (nested)
        lp__puts(o, ")");
}

static void lp__put_uops(lp__out *o, const lp_hps_production *pr)
{
    static const char *const names[] = {"?_", "inc_", "dec_", "set_"};
    if (pr->nops == 0) {
        lp__puts(o, "null");
        return;
    }
    for (unsigned k = 0; k < pr->nops && k < LP_HPS_MAX_OPS; k++) {
        const lp_hps_uop *op = &pr->ops[k];
        if (k)
            lp__puts(o, "; ");
        lp__puts(o, names[op->kind <= LP_HPS_UOP_SET ? op->kind : 0]);
        lp__put_dec(o, op->counter);
        if (op->kind == LP_HPS_UOP_SET) {
            lp__puts(o, "(");
            lp__put_reg(o, op->reg);
            lp__puts(o, ")");
        }
    }
}

/* ---- tables --------------------------------------------------------------------- */

/* Writes the cell at (row, col) of a table to o. */
typedef void (*lp__cell_fn)(lp__out *o, const lp_hps_acf *acf, size_t row, unsigned col);

#define LP__MAX_COLS 6

/* Writes a titled table: a heading line, then one line a row, columns
 * padded to their widest cell and separated by two spaces. */
static int lp__table(lp_sink *sink, const lp_hps_acf *acf, const char *title, size_t nrows,
                     const char *const *heads, unsigned ncols, lp__cell_fn cell)
{
    size_t width[LP__MAX_COLS];
    for (unsigned c = 0; c < ncols; c++) {
        width[c] = lp__acf_strlen(heads[c]);
        for (size_t r = 0; r < nrows; r++) {
            lp__out count = {NULL, 0, 0};
            cell(&count, acf, r, c);
            if (count.n > width[c])
                width[c] = count.n;
        }
    }
    lp__out o = {sink, 0, 0};
    lp__puts(&o, title);
    lp__puts(&o, " (");
    lp__put_dec(&o, nrows);
    lp__puts(&o, ")\n");
    for (size_t r = 0; r <= nrows && nrows; r++) {
        lp__puts(&o, "  ");
        for (unsigned c = 0; c < ncols; c++) {
            size_t start = o.n;
            if (r == 0)
                lp__puts(&o, heads[c]);
            else
                cell(&o, acf, r - 1, c);
            if (c + 1 == ncols)
                break;
            for (size_t pad = o.n - start; pad < width[c] + 2; pad++)
                lp__puts(&o, " ");
        }
        lp__puts(&o, "\n");
    }
    return o.err;
}

static void lp__counter_cell(lp__out *o, const lp_hps_acf *acf, size_t row, unsigned col)
{
    const lp_hps_counter *k = &acf->counter[row];
    if (col == 0) {
        lp__put_dec(o, row);
    } else if (col == 1) {
        lp__put_dec(o, k->width);
    } else if (k->init_reg >= 0 && k->init_reg < LP_HPS_MAX_REGS) {
        lp__put_reg(o, (unsigned)k->init_reg);
        lp__puts(o, " = ");
        lp__put_u64(o, acf->reg[k->init_reg]);
    } else {
        lp__put_u64(o, k->init);
    }
}

/* The registers worth showing: set to something other than their number,
 * or read by a set_N or a counter's initial value. Returns a bit mask. */
static unsigned lp__shown_registers(const lp_hps_acf *acf)
{
    unsigned mask = 0;
    for (unsigned k = 0; k < LP_HPS_MAX_REGS; k++)
        if (acf->reg[k] != k)
            mask |= 1u << k;
    for (size_t i = 0; i < acf->nprod && i < LP_HPS_MAX_PRODUCTIONS; i++)
        for (unsigned j = 0; j < acf->prod[i].nops && j < LP_HPS_MAX_OPS; j++)
            if (acf->prod[i].ops[j].kind == LP_HPS_UOP_SET)
                mask |= 1u << (acf->prod[i].ops[j].reg % LP_HPS_MAX_REGS);
    for (unsigned c = 0; c < acf->ncounters && c < LP_HPS_MAX_COUNTERS; c++)
        if (acf->counter[c].init_reg >= 0)
            mask |= 1u << (acf->counter[c].init_reg % LP_HPS_MAX_REGS);
    return mask;
}

static void lp__register_cell(lp__out *o, const lp_hps_acf *acf, size_t row, unsigned col)
{
    unsigned mask = lp__shown_registers(acf), k = 0;
    for (;; k++) /* the row-th register in the mask */
        if ((mask & (1u << k)) && row-- == 0)
            break;
    if (col == 0)
        lp__put_reg(o, k);
    else
        lp__put_u64(o, acf->reg[k]);
}

static void lp__production_cell(lp__out *o, const lp_hps_acf *acf, size_t row, unsigned col)
{
    const lp_hps_production *pr = &acf->prod[row];
    switch (col) {
    case 0: lp__put_dec(o, row); break;
    case 1: lp__puts(o, pr->label); break;
    case 2: lp__put_dec(o, pr->line); break;
    case 3: lp__put_uops(o, pr); break;
    case 4:
        if (pr->replacement >= 0 && (size_t)pr->replacement < acf->nrepl)
            lp__puts(o, acf->repl[pr->replacement].label);
        else
            lp__puts(o, "null");
        break;
    default: lp__put_node(o, acf, pr->pattern, 0, 0);
    }
}

static void lp__replacement_cell(lp__out *o, const lp_hps_acf *acf, size_t row, unsigned col)
{
    const lp_hps_replacement *r = &acf->repl[row];
    if (col == 0) {
        lp__puts(o, r->label);
    } else if (col == 1) {
        lp__put_dec(o, r->line);
    } else {
        for (unsigned k = 0; k < r->ncalls && k < LP_HPS_MAX_CALLS; k++) {
            lp__puts(o, "call(");
            lp__puts(o, lp_hps_handler_name(r->calls[k]));
            lp__puts(o, ", T.INSN); ");
        }
        lp__puts(o, "T.INSN");
    }
}

static void lp__warning_cell(lp__out *o, const lp_hps_acf *acf, size_t row, unsigned col)
{
    const lp_hps_diag *w = &acf->warning[row];
    if (col == 0) {
        lp__put_dec(o, w->line);
    } else if (col == 1) {
        lp__put_dec(o, w->column);
    } else {
        size_t n = 0;
        while (n < sizeof w->message && w->message[n])
            n++;
        lp__put(o, w->message, n);
    }
}

static size_t lp__popcount(unsigned x)
{
    size_t n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static size_t lp__min(size_t a, size_t b)
{
    return a < b ? a : b;
}

int lp_hps_print(const lp_hps_acf *acf, lp_sink *sink)
{
    static const char *const counter_heads[] = {"counter", "width", "initial value"};
    static const char *const register_heads[] = {"register", "value"};
    static const char *const production_heads[] = {"#",       "label",       "line",
                                                   "control", "replacement", "pattern"};
    static const char *const replacement_heads[] = {"label", "line", "sequence"};
    static const char *const warning_heads[] = {"line", "column", "warning"};
    int rc = lp__table(sink, acf, "counters", lp__min(acf->ncounters, LP_HPS_MAX_COUNTERS),
                       counter_heads, 3, lp__counter_cell);
    if (!rc)
        rc = lp__table(sink, acf, "registers", lp__popcount(lp__shown_registers(acf)),
                       register_heads, 2, lp__register_cell);
    if (!rc)
        rc = lp__table(sink, acf, "productions", lp__min(acf->nprod, LP_HPS_MAX_PRODUCTIONS),
                       production_heads, 6, lp__production_cell);
    if (!rc)
        rc = lp__table(sink, acf, "replacements", lp__min(acf->nrepl, LP_HPS_MAX_REPLACEMENTS),
                       replacement_heads, 3, lp__replacement_cell);
    if (!rc && acf->nwarnings)
        rc = lp__table(sink, acf, "warnings", lp__min(acf->nwarnings, LP_HPS_MAX_WARNINGS),
                       warning_heads, 3, lp__warning_cell);
    return rc;
}
