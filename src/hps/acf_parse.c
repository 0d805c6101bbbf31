/* hps: the ACF parser. Reads the production language of paper 000, section
 * 3.3 (Fig. 5, extended DISE productions with conditional control) and 3.4
 * to 3.5 (equations (1) and (2), the method production, Fig. 6), as
 * doc/acf.md defines it, into an lp_hps_acf: productions with their pattern
 * trees in one node pool, micro-operations, replacements resolved to
 * indices, counters and registers.
 *
 * One statement per line, read by recursive descent over the tokens of
 * acf_lex.c. The first error stops the parse, with the line, the byte
 * column of the token at fault and what was expected there; doubtful but
 * meaningful input (Fig. 6's P2 has no operator before a parenthesis) is
 * accepted with a warning. Nesting and pattern size are bounded so that the
 * parser, the printer and the matcher recurse only a little, which the
 * Valgrind tool's small stack needs.
 *
 * Freestanding: core's allocator only. */
#include "acf_lex.h"

typedef struct lp__acf_item {
    enum { LP__ITEM_NULL = 1, LP__ITEM_REPL, LP__ITEM_UOPS } kind;
    lp__acf_tok at; /* its first token */
    lp_hps_uop ops[LP_HPS_MAX_OPS];
    unsigned nops;
} lp__acf_item;

typedef struct lp__acf_parser {
    lp__acf_lexer lx;
    lp__acf_tok tok; /* the current token */
    lp_hps_acf *acf;
    lp_hps_diag *err;
    int failed; /* LP_ESPEC or LP_ENOMEM once the first error is recorded */
    size_t node_cap;
    size_t pattern_first; /* first node of the pattern being read */
    unsigned depth;
    unsigned reg_line[LP_HPS_MAX_REGS];           /* line that set HPS_Rk, or 0 */
    unsigned counter_line[LP_HPS_MAX_COUNTERS];   /* line that declared it, or 0 */
    lp__acf_tok repl_ref[LP_HPS_MAX_PRODUCTIONS]; /* each production's RLABEL */
    lp__acf_tok repl_at[LP_HPS_MAX_REPLACEMENTS]; /* each replacement's label */
    uint8_t repl_used[LP_HPS_MAX_REPLACEMENTS];
} lp__acf_parser;

/* ---- diagnostics ------------------------------------------------------------------ */

/* Appends a token as a message shows it: quoted and cut at 32 bytes, or in
 * words for the end of a line and for bytes that are not printable. */
static void lp__describe(lp__acf_str *s, const lp__acf_tok *t)
{
    if (t->kind == LP__TOK_END) {
        lp__acf_str_add(s, "the end of the line");
        return;
    }
    uint8_t c = (uint8_t)t->text[0];
    if (t->kind == LP__TOK_BAD && (c < 0x20 || c >= 0x7f)) {
        char hex[3] = {"0123456789abcdef"[c >> 4], "0123456789abcdef"[c & 15], '\0'};
        lp__acf_str_add(s, "the byte 0x");
        lp__acf_str_add(s, hex);
        return;
    }
    lp__acf_str_add(s, "'");
    lp__acf_str_addn(s, t->text, t->len > 32 ? 32 : t->len);
    lp__acf_str_add(s, t->len > 32 ? "...'" : "'");
}

/* Records the first error at t: the message is the concatenation of the
 * non-NULL pieces, with the token described where a piece is "@". Returns
 * LP_ESPEC so that callers can `return lp__fail(...)`. */
static int lp__fail(lp__acf_parser *p, const lp__acf_tok *t, const char *a, const char *b,
                    const char *c, const char *d)
{
    if (p->failed)
        return p->failed;
    p->failed = LP_ESPEC;
    p->err->line = t->line;
    p->err->column = t->column;
    lp__acf_str s;
    lp__acf_str_init(&s, p->err->message, sizeof p->err->message);
    const char *pieces[] = {a, b, c, d};
    for (size_t i = 0; i < 4; i++)
        if (pieces[i] && pieces[i][0] == '@' && pieces[i][1] == '\0')
            lp__describe(&s, t);
        else if (pieces[i])
            lp__acf_str_add(&s, pieces[i]);
    return p->failed;
}

/* "expected WHAT but found TOKEN" at the current token. */
static int lp__expected(lp__acf_parser *p, const char *what)
{
    return lp__fail(p, &p->tok, "expected ", what, " but found ", "@");
}

static int lp__no_memory(lp__acf_parser *p)
{
    if (!p->failed) {
        lp__fail(p, &p->tok, "out of memory", NULL, NULL, NULL);
        p->failed = LP_ENOMEM;
    }
    return p->failed;
}

static void lp__warn(lp__acf_parser *p, const lp__acf_tok *t, const char *a, const char *b,
                     const char *c)
{
    lp_hps_acf *acf = p->acf;
    if (acf->nwarnings >= LP_HPS_MAX_WARNINGS)
        return;
    lp_hps_diag *w = &acf->warning[acf->nwarnings++];
    w->line = t->line;
    w->column = t->column;
    lp__acf_str s;
    lp__acf_str_init(&s, w->message, sizeof w->message);
    lp__acf_str_add(&s, a);
    if (b)
        lp__acf_str_add(&s, b);
    if (c)
        lp__acf_str_add(&s, c);
}

static void lp__advance(lp__acf_parser *p)
{
    lp__acf_lex(&p->lx, &p->tok);
}

/* Consumes a token of kind, or fails with "expected WHAT". */
static int lp__expect(lp__acf_parser *p, lp__acf_tok_kind kind, const char *what)
{
    if (p->tok.kind != kind)
        return lp__expected(p, what);
    lp__advance(p);
    return 0;
}

static int lp__expect_end(lp__acf_parser *p, const char *what)
{
    return p->tok.kind == LP__TOK_END ? 0 : lp__expected(p, what);
}

/* ---- words ------------------------------------------------------------------------ */

/* LETTER followed by digits (P0, R12), either case. */
static int lp__is_label(const lp__acf_tok *t, char letter)
{
    if (t->kind != LP__TOK_WORD || t->len < 2 ||
        (t->text[0] != letter && t->text[0] != letter + 32))
        return 0;
    for (size_t i = 1; i < t->len; i++)
        if (t->text[i] < '0' || t->text[i] > '9')
            return 0;
    return 1;
}

/* Copies a label, upper-casing its letter so that p1 and P1 are one label. */
static int lp__take_label(lp__acf_parser *p, char out[LP_HPS_LABEL_MAX])
{
    const lp__acf_tok *t = &p->tok;
    if (t->len >= LP_HPS_LABEL_MAX)
        return lp__fail(p, t, "label ", "@", " is too long: labels have at most 15 characters",
                        NULL);
    for (size_t i = 0; i < t->len; i++)
        out[i] = t->text[i];
    if (out[0] >= 'a')
        out[0] = (char)(out[0] - 32);
    out[t->len] = '\0';
    return 0;
}

static int lp__same_label(const char *a, const lp__acf_tok *t)
{
    char first = t->text[0] >= 'a' ? (char)(t->text[0] - 32) : t->text[0];
    if (a[0] != first)
        return 0;
    size_t i = 1;
    for (; i < t->len; i++)
        if (a[i] != t->text[i])
            return 0;
    return a[i] == '\0';
}

static int lp__is_register(const lp__acf_tok *t)
{
    return t->kind == LP__TOK_WORD && lp__acf_iprefix(t->text, t->len, "hps_r");
}

/* HPS_R<k> at the current token into *out_reg, consumed. */
static int lp__register(lp__acf_parser *p, uint8_t *out_reg)
{
    uint64_t k;
    if (!lp__is_register(&p->tok))
        return lp__expected(p, "a register (HPS_R0 to HPS_R15)");
    if (!lp__acf_small_decimal(p->tok.text + 5, p->tok.len - 5, LP_HPS_MAX_REGS - 1, &k))
        return lp__fail(p, &p->tok, "no register ", "@", ": the registers are HPS_R0 to HPS_R15",
                        NULL);
    *out_reg = (uint8_t)k;
    lp__advance(p);
    return 0;
}

static void lp__use_counter(lp__acf_parser *p, uint64_t c)
{
    if (p->acf->ncounters < c + 1)
        p->acf->ncounters = (unsigned)c + 1;
}

/* The counter number that follows prefix in the current word (inc_2,
 * zero_0), checked and noted as used. */
static int lp__counter_suffix(lp__acf_parser *p, size_t prefix_len, const char *form,
                              uint8_t *out_counter)
{
    const lp__acf_tok *t = &p->tok;
    uint64_t c;
    if (!lp__acf_small_decimal(t->text + prefix_len, t->len - prefix_len, UINT32_MAX, &c))
        return lp__fail(p, t, "expected ", form, " with N a counter number, but found ", "@");
    if (c >= LP_HPS_MAX_COUNTERS)
        return lp__fail(p, t, "no counter ", "@",
                        ": the counters are 0 to 2 (LP_HPS_MAX_COUNTERS is 3)", NULL);
    lp__use_counter(p, c);
    *out_counter = (uint8_t)c;
    return 0;
}

/* A NUMBER token's value: decimal, or 0x and hex digits, in 64 bits. */
static int lp__number(lp__acf_parser *p, const char *what, uint64_t *out_value)
{
    const lp__acf_tok *t = &p->tok;
    if (t->kind != LP__TOK_NUMBER)
        return lp__expected(p, what);
    const char *s = t->text;
    size_t n = t->len, i = 0;
    unsigned base = 10;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        i = 2;
    }
    uint64_t v = 0;
    for (; i < n; i++) {
        char c = s[i];
        unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 99;
        if (d >= base)
            return lp__fail(p, t, "@",
                            " is not a number: write decimal digits, or 0x and hex digits", NULL,
                            NULL);
        if (v > (UINT64_MAX - d) / base)
            return lp__fail(p, t, "the number ", "@", " does not fit in 64 bits", NULL);
        v = v * base + d;
    }
    *out_value = v;
    lp__advance(p);
    return 0;
}

/* ---- patterns --------------------------------------------------------------------- */

static int lp__node(lp__acf_parser *p, lp__hps_node_kind kind, int a, int b, int *out)
{
    lp_hps_acf *acf = p->acf;
    if (acf->nnodes - p->pattern_first >= LP__ACF_MAX_TERMS)
        return lp__fail(p, &p->tok, "the pattern is too long: at most 256 terms", NULL, NULL, NULL);
    if (acf->nnodes == p->node_cap) {
        size_t cap = p->node_cap ? 2 * p->node_cap : 32;
        lp_hps_node *grown =
            lp_realloc(acf->nodes, p->node_cap * sizeof *grown, cap * sizeof *grown);
        if (!grown)
            return lp__no_memory(p);
        acf->nodes = grown;
        p->node_cap = cap;
    }
    lp_hps_node *n = &acf->nodes[acf->nnodes];
    __builtin_memset(n, 0, sizeof *n);
    n->kind = (uint8_t)kind;
    n->a = a;
    n->b = b;
    *out = (int)acf->nnodes++;
    return 0;
}

/* One more '(' or '!' open, at the current token. */
static int lp__enter(lp__acf_parser *p)
{
    if (++p->depth > LP__ACF_MAX_DEPTH)
        return lp__fail(p, &p->tok, "the pattern nests too deep: at most 32 parentheses and '!'",
                        NULL, NULL, NULL);
    return 0;
}

typedef struct lp__operand {
    lp__hps_operand kind;
    uint64_t value;
    lp__acf_tok at;
} lp__acf_operand;

/* What an operand compares with: 0 numbers (T.PC, T.TARGET, numbers),
 * 1 classes (T.OPCLASS, class names), 2 ops (T.OP, op names). */
static int lp__family(lp__hps_operand k)
{
    return k == LP__HPS_OPCLASS || k == LP__HPS_CLASSES ? 1
           : k == LP__HPS_OP || k == LP__HPS_OPNAME     ? 2
                                                        : 0;
}

static int lp__is_constant(lp__hps_operand k)
{
    return k == LP__HPS_NUMBER || k == LP__HPS_CLASSES || k == LP__HPS_OPNAME;
}

static int lp__operand_word(lp__acf_parser *p, lp__acf_operand *o)
{
    static const struct {
        const char *name;
        lp__hps_operand kind;
    } attrs[] = {{"t.pc", LP__HPS_PC},
                 {"t.target", LP__HPS_TARGET},
                 {"t.opclass", LP__HPS_OPCLASS},
                 {"t.op", LP__HPS_OP}};
    const lp__acf_tok *t = &p->tok;
    if (lp__acf_iprefix(t->text, t->len, "t.")) {
        for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
            if (lp__acf_ieq(t->text, t->len, attrs[i].name)) {
                o->kind = attrs[i].kind;
                return 0;
            }
        if (lp__acf_ieq(t->text, t->len, "t.insn"))
            return lp__fail(p, t,
                            "T.INSN belongs in a replacement; a pattern reads T.PC, "
                            "T.TARGET, T.OPCLASS or T.OP",
                            NULL, NULL, NULL);
        return lp__fail(p, t, "no attribute ", "@",
                        ": the attributes are T.PC, T.TARGET, T.OPCLASS and T.OP", NULL);
    }
    if (lp__acf_lookup(lp__acf_classes, lp__acf_nclasses, t->text, t->len, &o->value)) {
        o->kind = LP__HPS_CLASSES;
        return 0;
    }
    if (lp__acf_lookup(lp__acf_opnames, lp__acf_nopnames, t->text, t->len, &o->value)) {
        o->kind = LP__HPS_OPNAME;
        return 0;
    }
    return lp__fail(p, t, "unknown name ", "@",
                    ": expected T.PC, T.TARGET, T.OPCLASS, T.OP, a number, a class name "
                    "(branch, call, ...) or an op name (on_trig_inst, ...)",
                    NULL);
}

static int lp__operand(lp__acf_parser *p, lp__acf_operand *o, const char *what)
{
    o->at = p->tok;
    o->value = 0;
    if (p->tok.kind == LP__TOK_NUMBER) {
        o->kind = LP__HPS_NUMBER;
        return lp__number(p, "a number", &o->value);
    }
    if (p->tok.kind != LP__TOK_WORD)
        return lp__expected(p, what);
    if (lp__operand_word(p, o))
        return p->failed;
    lp__advance(p);
    return 0;
}

/* How a message names an operand of the class and op families. */
static const char *lp__operand_name(lp__hps_operand k)
{
    switch (k) {
    case LP__HPS_OPCLASS: return "T.OPCLASS";
    case LP__HPS_CLASSES: return "a class name";
    case LP__HPS_OP: return "T.OP";
    default: return "an op name";
    }
}

/* What the left operand compares with, for the message when the right one
 * does not fit. */
static const char *lp__compares_with(lp__hps_operand k)
{
    switch (k) {
    case LP__HPS_OPCLASS: return "T.OPCLASS compares with a class name (branch, call, ...), not ";
    case LP__HPS_CLASSES: return "a class name compares only with T.OPCLASS, not ";
    case LP__HPS_OP:
        return "T.OP compares with an op name (on_trig_inst, off_trig_inst, ...), not ";
    case LP__HPS_OPNAME: return "an op name compares only with T.OP, not ";
    case LP__HPS_NUMBER: return "a number compares with T.PC or T.TARGET, not ";
    default: return "T.PC and T.TARGET compare with each other or a number, not ";
    }
}

/* operand CMP operand, with the type rules of doc/acf.md. A class or op
 * name written on the left moves to the right: == and != are symmetric,
 * and the matcher then finds the attribute on the left. */
static int lp__comparison(lp__acf_parser *p, int *out)
{
    lp__acf_operand l, r;
    if (lp__operand(p, &l, "a condition: a comparison, zero_N, overflow_N, '!' or '('"))
        return p->failed;
    if (p->tok.kind != LP__TOK_CMP) {
        switch (l.kind) {
        case LP__HPS_OPCLASS: return lp__expected(p, "'==' or '!=' and a class name");
        case LP__HPS_CLASSES: return lp__expected(p, "'==' or '!=' and T.OPCLASS");
        case LP__HPS_OP: return lp__expected(p, "'==' or '!=' and an op name");
        case LP__HPS_OPNAME: return lp__expected(p, "'==' or '!=' and T.OP");
        default: return lp__expected(p, "a comparison operator (==, !=, <, <=, >, >=)");
        }
    }
    lp__acf_tok op = p->tok;
    if (lp__family(l.kind) && op.cmp != LP__HPS_EQ && op.cmp != LP__HPS_NE)
        return lp__fail(p, &op, lp__operand_name(l.kind), " compares only with == or !=, not ", "@",
                        NULL);
    lp__advance(p);
    if (lp__operand(p, &r, "T.PC, T.TARGET, T.OPCLASS, T.OP, a number or a name"))
        return p->failed;
    if (lp__is_constant(l.kind) && lp__is_constant(r.kind))
        return lp__fail(p, &op,
                        "the comparison compares two constants: one side must be T.PC, "
                        "T.TARGET, T.OPCLASS or T.OP",
                        NULL, NULL, NULL);
    /* Same family, and in the class and op families one attribute and one
     * name; then the operator was checked above or the left side is a
     * number attribute, with any operator. */
    if (lp__family(l.kind) != lp__family(r.kind) ||
        (lp__family(l.kind) && !lp__is_constant(r.kind) && !lp__is_constant(l.kind)))
        return lp__fail(p, &r.at, lp__compares_with(l.kind), "@", NULL, NULL);
    if (l.kind == LP__HPS_CLASSES || l.kind == LP__HPS_OPNAME) {
        lp__acf_operand swap = l;
        l = r;
        r = swap;
    }
    if (lp__node(p, LP__HPS_CMP, -1, -1, out))
        return p->failed;
    lp_hps_node *n = &p->acf->nodes[*out];
    n->cmp = (uint8_t)op.cmp;
    n->lhs = (uint8_t)l.kind;
    n->rhs = (uint8_t)r.kind;
    n->lhs_value = l.value;
    n->rhs_value = r.value;
    return 0;
}

static int lp__pattern(lp__acf_parser *p, int *out);

static int lp__primary(lp__acf_parser *p, int *out)
{
    const lp__acf_tok *t = &p->tok;
    if (t->kind == LP__TOK_LPAREN) {
        lp__acf_tok open = *t;
        if (lp__enter(p))
            return p->failed;
        lp__advance(p);
        if (lp__pattern(p, out))
            return p->failed;
        if (p->tok.kind != LP__TOK_RPAREN) {
            char col[24];
            lp__acf_dec_text(open.column, col);
            return lp__fail(p, &p->tok, "expected ')' to close the '(' at column ", col,
                            " but found ", "@");
        }
        lp__advance(p);
        p->depth--;
        return 0;
    }
    if (t->kind == LP__TOK_WORD) {
        int overflow = lp__acf_iprefix(t->text, t->len, "overflow_");
        if (overflow || lp__acf_iprefix(t->text, t->len, "zero_")) {
            uint8_t c;
            if (lp__counter_suffix(p, overflow ? 9 : 5, overflow ? "overflow_N" : "zero_N", &c))
                return p->failed;
            if (lp__node(p, LP__HPS_FLAG, -1, -1, out))
                return p->failed;
            p->acf->nodes[*out].flag = (uint8_t)overflow;
            p->acf->nodes[*out].counter = c;
            lp__advance(p);
            return 0;
        }
    }
    return lp__comparison(p, out);
}

/* unary := '!' unary | primary { '(' pattern ')' }. A group right after a
 * primary, with no operator between, is Fig. 6's P2: read as '||'. */
static int lp__unary(lp__acf_parser *p, int *out)
{
    if (p->tok.kind == LP__TOK_NOT) {
        int a;
        if (lp__enter(p))
            return p->failed;
        lp__advance(p);
        if (lp__unary(p, &a))
            return p->failed;
        p->depth--;
        return lp__node(p, LP__HPS_NOT, a, -1, out);
    }
    if (lp__primary(p, out))
        return p->failed;
    while (p->tok.kind == LP__TOK_LPAREN) {
        int b;
        lp__warn(p, &p->tok, "no operator before '('; read as '||' (Fig. 6, P2)", NULL, NULL);
        if (lp__enter(p))
            return p->failed;
        lp__advance(p);
        if (lp__pattern(p, &b) || lp__expect(p, LP__TOK_RPAREN, "')'"))
            return p->failed;
        p->depth--;
        if (lp__node(p, LP__HPS_OR, *out, b, out))
            return p->failed;
    }
    return 0;
}

/* One binary level, left-associative: and := unary { '&&' unary } when
 * is_or is 0, pattern := and { '||' and } when it is 1. */
static int lp__binary(lp__acf_parser *p, int is_or, int *out)
{
    lp__acf_tok_kind op = is_or ? LP__TOK_OR : LP__TOK_AND;
    if (is_or ? lp__binary(p, 0, out) : lp__unary(p, out))
        return p->failed;
    while (p->tok.kind == op) {
        int b;
        lp__advance(p);
        if ((is_or ? lp__binary(p, 0, &b) : lp__unary(p, &b)) ||
            lp__node(p, is_or ? LP__HPS_OR : LP__HPS_AND, *out, b, out))
            return p->failed;
    }
    return 0;
}

static int lp__pattern(lp__acf_parser *p, int *out)
{
    return lp__binary(p, 1, out);
}

/* ---- productions ------------------------------------------------------------------ */

static const char lp__item_expected[] =
    "null, a replacement label (R<n>) or micro-operations (inc_N, dec_N, set_N(HPS_Rk))";

/* uop := inc_N | dec_N | set_N '(' REG ')' */
static int lp__uop(lp__acf_parser *p, lp_hps_uop *op)
{
    static const struct {
        const char *prefix, *form;
        lp_hps_uop_kind kind;
    } forms[] = {{"inc_", "inc_N", LP_HPS_UOP_INC},
                 {"dec_", "dec_N", LP_HPS_UOP_DEC},
                 {"set_", "set_N(HPS_Rk)", LP_HPS_UOP_SET}};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        if (p->tok.kind != LP__TOK_WORD ||
            !lp__acf_iprefix(p->tok.text, p->tok.len, forms[i].prefix))
            continue;
        op->kind = (uint8_t)forms[i].kind;
        op->reg = 0;
        if (lp__counter_suffix(p, 4, forms[i].form, &op->counter))
            return p->failed;
        lp__advance(p);
        if (op->kind == LP_HPS_UOP_SET &&
            (lp__expect(p, LP__TOK_LPAREN, "'(' and a register after set_N") ||
             lp__register(p, &op->reg) || lp__expect(p, LP__TOK_RPAREN, "')'")))
            return p->failed;
        return 0;
    }
    return lp__expected(p, "a micro-operation (inc_N, dec_N or set_N(HPS_Rk))");
}

static int lp__is_uop(const lp__acf_tok *t)
{
    return t->kind == LP__TOK_WORD &&
           (lp__acf_iprefix(t->text, t->len, "inc_") || lp__acf_iprefix(t->text, t->len, "dec_") ||
            lp__acf_iprefix(t->text, t->len, "set_"));
}

/* item := 'null' | RLABEL | uop { ';' uop } */
static int lp__item(lp__acf_parser *p, lp__acf_item *it)
{
    it->at = p->tok;
    it->nops = 0;
    if (p->tok.kind == LP__TOK_WORD && lp__acf_ieq(p->tok.text, p->tok.len, "null")) {
        it->kind = LP__ITEM_NULL;
        lp__advance(p);
        return 0;
    }
    if (lp__is_label(&p->tok, 'R')) {
        it->kind = LP__ITEM_REPL;
        lp__advance(p);
        return 0;
    }
    if (!lp__is_uop(&p->tok))
        return lp__expected(p, lp__item_expected);
    it->kind = LP__ITEM_UOPS;
    for (;;) {
        if (it->nops == LP_HPS_MAX_OPS)
            return lp__fail(p, &p->tok,
                            "too many micro-operations: at most 4 per production "
                            "(LP_HPS_MAX_OPS)",
                            NULL, NULL, NULL);
        if (lp__uop(p, &it->ops[it->nops++]))
            return p->failed;
        if (p->tok.kind != LP__TOK_SEMI)
            return 0;
        lp__advance(p);
    }
}

/* Puts the one or two items after the arrow in their places: an RLABEL is
 * always the replacement and micro-operations always the control, so
 * either order reads one way. */
static int lp__place(lp__acf_parser *p, lp_hps_production *pr, const lp__acf_item *it, size_t n)
{
    size_t np = p->acf->nprod;
    const lp__acf_item *repl = NULL, *ctrl = NULL;
    for (size_t i = 0; i < n; i++) {
        if (it[i].kind == LP__ITEM_REPL) {
            if (repl)
                return lp__fail(p, &it[i].at,
                                "two replacements: the other item must be the "
                                "conditional control (micro-operations or null)",
                                NULL, NULL, NULL);
            repl = &it[i];
        } else if (it[i].kind == LP__ITEM_UOPS) {
            if (ctrl)
                return lp__fail(p, &it[i].at,
                                "two conditional controls: join the "
                                "micro-operations with ';' into one",
                                NULL, NULL, NULL);
            ctrl = &it[i];
        }
    }
    pr->replacement = -1;
    if (repl) {
        pr->replacement = -2; /* resolved at the end of the file */
        p->repl_ref[np] = repl->at;
    }
    if (ctrl) {
        for (unsigned k = 0; k < ctrl->nops; k++)
            pr->ops[k] = ctrl->ops[k];
        pr->nops = ctrl->nops;
    }
    /* Control first when written so: micro-operations (or null) before an
     * RLABEL, or micro-operations before null. */
    pr->control_first = n == 2 && (it[0].kind == LP__ITEM_UOPS ||
                                   (it[0].kind == LP__ITEM_NULL && it[1].kind == LP__ITEM_REPL));
    if (n == 1)
        pr->control_first = it[0].kind == LP__ITEM_UOPS;
    return 0;
}

/* production := LABEL ':' pattern ARROW item [ ',' item ] */
static int lp__production(lp__acf_parser *p)
{
    lp_hps_acf *acf = p->acf;
    if (acf->nprod == LP_HPS_MAX_PRODUCTIONS)
        return lp__fail(p, &p->tok, "too many productions: at most 64 (LP_HPS_MAX_PRODUCTIONS)",
                        NULL, NULL, NULL);
    lp_hps_production *pr = &acf->prod[acf->nprod];
    __builtin_memset(pr, 0, sizeof *pr);
    pr->line = p->tok.line;
    if (lp__take_label(p, pr->label))
        return p->failed;
    lp__advance(p);
    if (lp__expect(p, LP__TOK_COLON, "':' after the label"))
        return p->failed;
    p->pattern_first = acf->nnodes;
    p->depth = 0;
    if (lp__pattern(p, &pr->pattern))
        return p->failed;
    if (p->tok.kind != LP__TOK_ARROW)
        return lp__expected(p, "'&&', '||' or an arrow ('->', '=>', '\xe2\x86\x92', "
                               "'\xe2\x87\x92')");
    lp__advance(p);
    lp__acf_item items[2];
    size_t n = 1;
    if (lp__item(p, &items[0]))
        return p->failed;
    if (p->tok.kind == LP__TOK_COMMA) {
        lp__advance(p);
        if (lp__item(p, &items[1]))
            return p->failed;
        n = 2;
        if (lp__expect_end(p, "the end of the line after the second item"))
            return p->failed;
    } else if (lp__expect_end(p, items[0].kind == LP__ITEM_UOPS
                                     ? "';' and a micro-operation, ',' and a second item, or "
                                       "the end of the line"
                                     : "',' and a second item, or the end of the line")) {
        return p->failed;
    }
    if (lp__place(p, pr, items, n))
        return p->failed;
    acf->nprod++;
    return 0;
}

/* ---- replacements ------------------------------------------------------------------ */

static const char lp__insn_last[] = "T.INSN must end the replacement: lowprof never drops or "
                                    "reorders the program's own instruction";

/* 'call' '(' HANDLER [ ',' 'T.INSN' ] ')' */
static int lp__call(lp__acf_parser *p, lp_hps_replacement *r)
{
    lp__acf_tok at = p->tok;
    if (r->ncalls == LP_HPS_MAX_CALLS)
        return lp__fail(p, &at, "too many calls: at most 4 per replacement (LP_HPS_MAX_CALLS)",
                        NULL, NULL, NULL);
    lp__advance(p);
    if (lp__expect(p, LP__TOK_LPAREN, "'(' and a handler after call"))
        return p->failed;
    uint64_t h;
    if (p->tok.kind != LP__TOK_WORD ||
        !lp__acf_lookup(lp__acf_handlers, lp__acf_nhandlers, p->tok.text, p->tok.len, &h))
        return lp__fail(p, &p->tok,
                        "expected a handler (Branch_handler, HotMethod_handler or "
                        "CallPair_handler) but found ",
                        "@", NULL, NULL);
    r->calls[r->ncalls++] = (uint8_t)h;
    lp__advance(p);
    if (p->tok.kind != LP__TOK_COMMA)
        return lp__expect(p, LP__TOK_RPAREN, "', T.INSN' or ')'");
    lp__advance(p);
    if (p->tok.kind != LP__TOK_WORD || !lp__acf_ieq(p->tok.text, p->tok.len, "t.insn"))
        return lp__expected(p, "T.INSN (the handler's argument)");
    lp__advance(p);
    return lp__expect(p, LP__TOK_RPAREN, "')'");
}

/* replacement := RLABEL ':' ritem { ';' ritem } [ ';' ] */
static int lp__replacement(lp__acf_parser *p)
{
    lp_hps_acf *acf = p->acf;
    for (size_t i = 0; i < acf->nrepl; i++)
        if (lp__same_label(acf->repl[i].label, &p->tok)) {
            char line[24];
            lp__acf_dec_text(acf->repl[i].line, line);
            return lp__fail(p, &p->tok, "replacement ", "@", " is already defined on line ", line);
        }
    if (acf->nrepl == LP_HPS_MAX_REPLACEMENTS)
        return lp__fail(p, &p->tok, "too many replacements: at most 32 (LP_HPS_MAX_REPLACEMENTS)",
                        NULL, NULL, NULL);
    lp_hps_replacement *r = &acf->repl[acf->nrepl];
    __builtin_memset(r, 0, sizeof *r);
    r->line = p->tok.line;
    p->repl_at[acf->nrepl] = p->tok;
    if (lp__take_label(p, r->label))
        return p->failed;
    lp__advance(p);
    if (lp__expect(p, LP__TOK_COLON, "':' after the label"))
        return p->failed;
    int insn = 0;
    for (;;) {
        const lp__acf_tok *t = &p->tok;
        int is_call = t->kind == LP__TOK_WORD && lp__acf_ieq(t->text, t->len, "call");
        int is_insn = t->kind == LP__TOK_WORD && lp__acf_ieq(t->text, t->len, "t.insn");
        if (!is_call && !is_insn)
            return lp__expected(p, "call(HANDLER) or T.INSN");
        if (insn)
            return lp__fail(p, t, lp__insn_last, NULL, NULL, NULL);
        if (is_insn) {
            insn = 1;
            lp__advance(p);
        } else if (lp__call(p, r)) {
            return p->failed;
        }
        if (p->tok.kind == LP__TOK_SEMI) {
            lp__advance(p);
            if (p->tok.kind == LP__TOK_END)
                break;
        } else if (lp__expect_end(p, "';' or the end of the line")) {
            return p->failed;
        } else {
            break;
        }
    }
    if (!insn)
        return lp__fail(p, &p->tok, lp__insn_last, NULL, NULL, NULL);
    acf->nrepl++;
    return 0;
}

/* ---- declarations ------------------------------------------------------------------ */

/* regdecl := REG '=' NUMBER */
static int lp__regdecl(lp__acf_parser *p)
{
    lp__acf_tok at = p->tok;
    uint8_t k;
    uint64_t v;
    if (lp__register(p, &k))
        return p->failed;
    if (p->reg_line[k]) {
        char line[24];
        lp__acf_dec_text(p->reg_line[k], line);
        return lp__fail(p, &at, "@", " is already set on line ", line, NULL);
    }
    if (lp__expect(p, LP__TOK_ASSIGN, "'=' and a value after the register") ||
        lp__number(p, "a number (decimal, or 0x and hex digits)", &v) ||
        lp__expect_end(p, "the end of the line"))
        return p->failed;
    p->acf->reg[k] = v;
    p->reg_line[k] = at.line;
    return 0;
}

/* counterdecl := 'counter' N [ 'width' W ] [ '=' (NUMBER | REG) ] */
static int lp__counterdecl(lp__acf_parser *p)
{
    uint64_t c, w = LP_HPS_DEFAULT_WIDTH;
    lp__advance(p);
    lp__acf_tok at = p->tok;
    if (lp__number(p, "a counter number (0 to 2)", &c))
        return p->failed;
    if (c >= LP_HPS_MAX_COUNTERS)
        return lp__fail(p, &at, "no counter ", "@",
                        ": the counters are 0 to 2 (LP_HPS_MAX_COUNTERS is 3)", NULL);
    if (p->counter_line[c]) {
        char line[24];
        lp__acf_dec_text(p->counter_line[c], line);
        return lp__fail(p, &at, "counter ", "@", " is already declared on line ", line);
    }
    lp_hps_counter *k = &p->acf->counter[c];
    int has_width = p->tok.kind == LP__TOK_WORD && lp__acf_ieq(p->tok.text, p->tok.len, "width");
    if (has_width) {
        lp__advance(p);
        lp__acf_tok wat = p->tok;
        if (lp__number(p, "a width in bits (1 to 32)", &w))
            return p->failed;
        if (w < 1 || w > LP_HPS_MAX_WIDTH)
            return lp__fail(p, &wat, "a counter is 1 to 32 bits wide (LP_HPS_MAX_WIDTH), not ", "@",
                            NULL, NULL);
    }
    k->width = (unsigned)w;
    k->init = 0;
    k->init_reg = -1;
    if (p->tok.kind == LP__TOK_ASSIGN) {
        lp__advance(p);
        lp__acf_tok vat = p->tok;
        if (lp__is_register(&p->tok)) {
            uint8_t reg;
            if (lp__register(p, &reg))
                return p->failed;
            k->init_reg = reg;
        } else if (lp__number(p, "a number or a register (HPS_Rk)", &k->init)) {
            return p->failed;
        } else if (k->init >> w) {
            char bits[32];
            lp__acf_str s;
            lp__acf_str_init(&s, bits, sizeof bits);
            lp__acf_str_u64(&s, w);
            lp__acf_str_add(&s, " bits");
            return lp__fail(p, &vat, "the initial value ", "@", " does not fit in ", bits);
        }
    } else if (p->tok.kind != LP__TOK_END) {
        return lp__expected(p, has_width ? "'=' and an initial value, or the end of the line"
                                         : "'width', '=' or the end of the line");
    }
    if (lp__expect_end(p, "the end of the line"))
        return p->failed;
    p->counter_line[c] = at.line;
    lp__use_counter(p, c);
    return 0;
}

/* ---- the file ---------------------------------------------------------------------- */

/* Does a line that starts with t look like a production without its label? */
static int lp__looks_like_pattern(const lp__acf_tok *t)
{
    uint64_t v;
    if (t->kind == LP__TOK_NOT || t->kind == LP__TOK_LPAREN || t->kind == LP__TOK_NUMBER ||
        t->kind == LP__TOK_COLON)
        return 1;
    return t->kind == LP__TOK_WORD &&
           (lp__acf_iprefix(t->text, t->len, "t.") || lp__acf_iprefix(t->text, t->len, "zero_") ||
            lp__acf_iprefix(t->text, t->len, "overflow_") ||
            lp__acf_lookup(lp__acf_classes, lp__acf_nclasses, t->text, t->len, &v) ||
            lp__acf_lookup(lp__acf_opnames, lp__acf_nopnames, t->text, t->len, &v));
}

static int lp__statement(lp__acf_parser *p)
{
    const lp__acf_tok *t = &p->tok;
    if (t->kind == LP__TOK_END)
        return 0;
    if (lp__is_label(t, 'P'))
        return lp__production(p);
    if (lp__is_label(t, 'R'))
        return lp__replacement(p);
    if (lp__is_register(t))
        return lp__regdecl(p);
    if (t->kind == LP__TOK_WORD && lp__acf_ieq(t->text, t->len, "counter"))
        return lp__counterdecl(p);
    if (lp__looks_like_pattern(t))
        return lp__fail(p, t,
                        "every production needs a label: write 'P<n> :' before the "
                        "pattern",
                        NULL, NULL, NULL);
    return lp__expected(p, "a statement ('P<n> : pattern -> ...', 'R<n> : ...', 'counter N' "
                           "or 'HPS_Rk = N')");
}

/* Resolves each production's RLABEL, marks replacements used, and warns of
 * the unused ones. */
static int lp__resolve(lp__acf_parser *p)
{
    lp_hps_acf *acf = p->acf;
    for (size_t i = 0; i < acf->nprod; i++) {
        if (acf->prod[i].replacement != -2)
            continue;
        const lp__acf_tok *ref = &p->repl_ref[i];
        size_t r = 0;
        while (r < acf->nrepl && !lp__same_label(acf->repl[r].label, ref))
            r++;
        if (r == acf->nrepl)
            return lp__fail(p, ref, "replacement ", "@", " is not defined", NULL);
        acf->prod[i].replacement = (int)r;
        p->repl_used[r] = 1;
    }
    for (size_t r = 0; r < acf->nrepl; r++)
        if (!p->repl_used[r])
            lp__warn(p, &p->repl_at[r], "replacement ", acf->repl[r].label,
                     " is never used by a production");
    if (acf->nprod == 0) {
        lp__acf_tok start = {LP__TOK_END, 0, "", 0, 1, 1};
        lp__warn(p, &start, "no productions: this ACF matches no instruction", NULL, NULL);
    }
    return 0;
}

/* Warnings in the order of the text (the unused-replacement ones are found
 * last); an insertion sort, there are at most LP_HPS_MAX_WARNINGS. */
static void lp__sort_warnings(lp_hps_acf *acf)
{
    for (size_t i = 1; i < acf->nwarnings; i++) {
        lp_hps_diag w = acf->warning[i];
        size_t j = i;
        while (j > 0 &&
               (acf->warning[j - 1].line > w.line ||
                (acf->warning[j - 1].line == w.line && acf->warning[j - 1].column > w.column))) {
            acf->warning[j] = acf->warning[j - 1];
            j--;
        }
        acf->warning[j] = w;
    }
}

int lp_hps_parse(const char *text, size_t len, lp_hps_acf *out, lp_hps_diag *err)
{
    lp_hps_diag scratch;
    lp__acf_parser *p = lp_malloc(sizeof *p); /* some kB: kept off small stacks */
    __builtin_memset(out, 0, sizeof *out);
    if (!err)
        err = &scratch;
    __builtin_memset(err, 0, sizeof *err);
    if (!p) {
        err->line = 1;
        err->column = 1;
        lp__acf_str s;
        lp__acf_str_init(&s, err->message, sizeof err->message);
        lp__acf_str_add(&s, "out of memory");
        return LP_ENOMEM;
    }
    __builtin_memset(p, 0, sizeof *p);
    p->acf = out;
    p->err = err;
    for (unsigned k = 0; k < LP_HPS_MAX_REGS; k++)
        out->reg[k] = k;
    for (unsigned c = 0; c < LP_HPS_MAX_COUNTERS; c++) {
        out->counter[c].width = LP_HPS_DEFAULT_WIDTH;
        out->counter[c].init_reg = -1;
    }
    lp__acf_lexer_init(&p->lx, text, len);
    do {
        lp__advance(p);
        if (lp__statement(p) || lp__expect_end(p, "the end of the line"))
            break;
    } while (lp__acf_next_line(&p->lx));
    if (!p->failed && !lp__resolve(p))
        lp__sort_warnings(out);
    int rc = p->failed;
    lp_free(p);
    if (rc) {
        lp_hps_acf_free(out);
        __builtin_memset(out, 0, sizeof *out);
    }
    return rc;
}

void lp_hps_acf_free(lp_hps_acf *acf)
{
    if (!acf)
        return;
    lp_free(acf->nodes);
    acf->nodes = NULL;
    acf->nnodes = 0;
}

int lp_hps_set_register(lp_hps_acf *acf, const char *name, size_t len, uint64_t value)
{
    uint64_t k;
    if (!acf || !name || len < 6 || !lp__acf_iprefix(name, len, "hps_r") ||
        !lp__acf_small_decimal(name + 5, len - 5, LP_HPS_MAX_REGS - 1, &k))
        return LP_EINVAL;
    acf->reg[k] = value;
    return 0;
}

const char *lp_hps_handler_name(unsigned handler)
{
    const char *name = lp__acf_name_of(lp__acf_handlers, lp__acf_nhandlers, handler);
    return name ? name : "?";
}
