/* interp: recursive descent parser from tokens to an AST. Binary operators
 * go through one recursive function over a precedence table, so expression
 * parsing nests about ten calls deep per operand. Errors leave through
 * longjmp: the caller's arena owns everything, so nothing leaks. */
#include "interp.h"
#include "../support/native_common.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- parser state ------------------------------------------------------ */

typedef struct it_parser {
    it_lexer lx;
    it_token cur, prev;
    nw_arena *ar;
    jmp_buf fail;
} it_parser;

static _Noreturn void it_parse_error(it_parser *ps, const char *what)
{
    fprintf(stderr, "line %d: %s (at '%.*s')\n", ps->cur.line, what, ps->cur.len,
            ps->cur.start);
    longjmp(ps->fail, 1);
}

static void it_advance(it_parser *ps)
{
    ps->prev = ps->cur;
    ps->cur = it_lex_next(&ps->lx);
    if (ps->cur.kind == TK_ERROR)
        it_parse_error(ps, "unexpected character");
}

static int it_accept(it_parser *ps, it_tok kind)
{
    if (ps->cur.kind != kind)
        return 0;
    it_advance(ps);
    return 1;
}

static void it_expect(it_parser *ps, it_tok kind)
{
    if (!it_accept(ps, kind)) {
        char msg[64];
        snprintf(msg, sizeof msg, "expected %s", it_tok_name(kind));
        it_parse_error(ps, msg);
    }
}

static it_node *it_node_new(it_parser *ps, it_node_kind kind)
{
    it_node *n = nw_arena_alloc(ps->ar, sizeof *n);
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->line = ps->prev.line;
    return n;
}

/* A growable list of nodes, copied into the arena when complete. */
typedef struct it_nodelist {
    it_node *items[256];
    int count;
} it_nodelist;

static void it_list_add(it_parser *ps, it_nodelist *l, it_node *n)
{
    if (l->count == (int)(sizeof l->items / sizeof l->items[0]))
        it_parse_error(ps, "list too long");
    l->items[l->count++] = n;
}

static void it_list_store(it_parser *ps, it_node *n, const it_nodelist *l)
{
    n->count = l->count;
    n->list = nw_arena_alloc(ps->ar, sizeof(it_node *) * (size_t)(l->count + 1));
    memcpy(n->list, l->items, sizeof(it_node *) * (size_t)l->count);
}

static char *it_copy_name(it_parser *ps, const it_token *t)
{
    char *s = nw_arena_alloc(ps->ar, (size_t)t->len + 1);
    memcpy(s, t->start, (size_t)t->len);
    s[t->len] = '\0';
    return s;
}

/* String literal without its quotes, with \n \t \\ \" resolved. */
static it_node *it_string_literal(it_parser *ps, const it_token *t)
{
    it_node *n = it_node_new(ps, ND_STR);
    char *s = nw_arena_alloc(ps->ar, (size_t)t->len);
    int k = 0;
    for (int i = 1; i < t->len - 1; i++) {
        char c = t->start[i];
        if (c == '\\') {
            c = t->start[++i];
            c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
        }
        s[k++] = c;
    }
    s[k] = '\0';
    n->text = s;
    n->text_len = k;
    return n;
}

/* ---- expressions --------------------------------------------------------- */

static it_node *it_expression(it_parser *ps);

static void it_arguments(it_parser *ps, it_node *n, it_tok close)
{
    it_nodelist args;
    args.count = 0;
    if (ps->cur.kind != close) {
        do {
            it_list_add(ps, &args, it_expression(ps));
        } while (it_accept(ps, TK_COMMA));
    }
    it_expect(ps, close);
    it_list_store(ps, n, &args);
}

static it_node *it_primary(it_parser *ps)
{
    if (it_accept(ps, TK_NUM)) {
        it_node *n = it_node_new(ps, ND_NUM);
        n->num = ps->prev.num;
        return n;
    }
    if (it_accept(ps, TK_STR))
        return it_string_literal(ps, &ps->prev);
    if (it_accept(ps, TK_IDENT)) {
        it_token name = ps->prev;
        it_node *n = it_node_new(ps, ND_NAME);
        n->text = it_copy_name(ps, &name);
        n->text_len = name.len;
        if (it_accept(ps, TK_LPAREN)) {
            n->kind = ND_CALL;
            it_arguments(ps, n, TK_RPAREN);
        }
        return n;
    }
    if (it_accept(ps, TK_LPAREN)) {
        it_node *n = it_expression(ps);
        it_expect(ps, TK_RPAREN);
        return n;
    }
    if (it_accept(ps, TK_LBRACKET)) {
        it_node *n = it_node_new(ps, ND_ARRAY);
        it_arguments(ps, n, TK_RBRACKET);
        return n;
    }
    it_parse_error(ps, "expected an expression");
}

static it_node *it_postfix(it_parser *ps)
{
    it_node *n = it_primary(ps);
    while (it_accept(ps, TK_LBRACKET)) {
        it_node *ix = it_node_new(ps, ND_INDEX);
        ix->a = n;
        ix->b = it_expression(ps);
        it_expect(ps, TK_RBRACKET);
        n = ix;
    }
    return n;
}

static it_node *it_unary(it_parser *ps)
{
    if (it_accept(ps, TK_MINUS) || it_accept(ps, TK_NOT)) {
        it_node *n = it_node_new(ps, ND_UNARY);
        n->op = ps->prev.kind;
        n->a = it_unary(ps);
        return n;
    }
    return it_postfix(ps);
}

/* Binary operators by precedence, loosest first; each level is
 * left-associative and its operators are the adjacent tokens first..last. */
static const struct {
    it_tok first, last;
    it_node_kind kind;
} it_levels[] = {
    {TK_OR, TK_OR, ND_OR},         {TK_AND, TK_AND, ND_AND},   {TK_EQ, TK_NE, ND_BINARY},
    {TK_LT, TK_GE, ND_BINARY},     {TK_PLUS, TK_MINUS, ND_BINARY},
    {TK_STAR, TK_PERCENT, ND_BINARY},
};

enum { IT_N_LEVELS = sizeof it_levels / sizeof it_levels[0] };

/* Parses at precedence level k: one call per level per operand, so an
 * expression nests IT_N_LEVELS + 3 calls deep before its first token. */
static it_node *it_level(it_parser *ps, int k)
{
    if (k == IT_N_LEVELS)
        return it_unary(ps);
    it_node *n = it_level(ps, k + 1);
    while (ps->cur.kind >= it_levels[k].first && ps->cur.kind <= it_levels[k].last) {
        it_advance(ps);
        it_node *op = it_node_new(ps, it_levels[k].kind);
        op->op = ps->prev.kind;
        op->a = n;
        op->b = it_level(ps, k + 1);
        n = op;
    }
    return n;
}

static it_node *it_expression(it_parser *ps)
{
    return it_level(ps, 0);
}

/* ---- statements ----------------------------------------------------------- */

static it_node *it_statement(it_parser *ps);

static it_node *it_block(it_parser *ps)
{
    it_expect(ps, TK_LBRACE);
    it_node *n = it_node_new(ps, ND_BLOCK);
    it_nodelist stmts;
    stmts.count = 0;
    while (ps->cur.kind != TK_RBRACE && ps->cur.kind != TK_EOF)
        it_list_add(ps, &stmts, it_statement(ps));
    it_expect(ps, TK_RBRACE);
    it_list_store(ps, n, &stmts);
    return n;
}

static it_node *it_if_statement(it_parser *ps)
{
    it_node *n = it_node_new(ps, ND_IF);
    it_expect(ps, TK_LPAREN);
    n->a = it_expression(ps);
    it_expect(ps, TK_RPAREN);
    n->b = it_block(ps);
    if (it_accept(ps, TK_ELSE))
        n->c = ps->cur.kind == TK_IF ? (it_advance(ps), it_if_statement(ps)) : it_block(ps);
    return n;
}

static it_node *it_var_statement(it_parser *ps)
{
    it_node *n = it_node_new(ps, ND_VAR);
    it_expect(ps, TK_IDENT);
    n->text = it_copy_name(ps, &ps->prev);
    n->text_len = ps->prev.len;
    if (it_accept(ps, TK_ASSIGN))
        n->a = it_expression(ps);
    it_expect(ps, TK_SEMI);
    return n;
}

/* An expression statement, or an assignment to a name or an element. */
static it_node *it_simple_statement(it_parser *ps)
{
    it_node *target = it_expression(ps);
    if (it_accept(ps, TK_ASSIGN)) {
        it_node *n;
        if (target->kind == ND_NAME) {
            n = it_node_new(ps, ND_ASSIGN);
            n->text = target->text;
            n->text_len = target->text_len;
            n->a = it_expression(ps);
        } else if (target->kind == ND_INDEX) {
            n = it_node_new(ps, ND_SET_INDEX);
            n->a = target->a;
            n->b = target->b;
            n->c = it_expression(ps);
        } else {
            it_parse_error(ps, "cannot assign to this");
        }
        it_expect(ps, TK_SEMI);
        return n;
    }
    it_node *n = it_node_new(ps, ND_EXPR);
    n->a = target;
    it_expect(ps, TK_SEMI);
    return n;
}

static it_node *it_statement(it_parser *ps)
{
    if (it_accept(ps, TK_VAR))
        return it_var_statement(ps);
    if (it_accept(ps, TK_IF))
        return it_if_statement(ps);
    if (it_accept(ps, TK_WHILE)) {
        it_node *n = it_node_new(ps, ND_WHILE);
        it_expect(ps, TK_LPAREN);
        n->a = it_expression(ps);
        it_expect(ps, TK_RPAREN);
        n->b = it_block(ps);
        return n;
    }
    if (it_accept(ps, TK_RETURN)) {
        it_node *n = it_node_new(ps, ND_RETURN);
        if (ps->cur.kind != TK_SEMI)
            n->a = it_expression(ps);
        it_expect(ps, TK_SEMI);
        return n;
    }
    if (ps->cur.kind == TK_LBRACE)
        return it_block(ps);
    return it_simple_statement(ps);
}

static it_node *it_function(it_parser *ps)
{
    it_expect(ps, TK_FN);
    it_node *fn = it_node_new(ps, ND_FN);
    it_expect(ps, TK_IDENT);
    fn->text = it_copy_name(ps, &ps->prev);
    fn->text_len = ps->prev.len;
    it_expect(ps, TK_LPAREN);
    it_nodelist params;
    params.count = 0;
    if (ps->cur.kind != TK_RPAREN) {
        do {
            it_expect(ps, TK_IDENT);
            it_node *p = it_node_new(ps, ND_NAME);
            p->text = it_copy_name(ps, &ps->prev);
            p->text_len = ps->prev.len;
            it_list_add(ps, &params, p);
        } while (it_accept(ps, TK_COMMA));
    }
    it_expect(ps, TK_RPAREN);
    it_list_store(ps, fn, &params);
    fn->a = it_block(ps);
    return fn;
}

it_node *it_parse(nw_arena *ar, const char *src)
{
    it_parser ps;
    memset(&ps, 0, sizeof ps);
    ps.ar = ar;
    it_lex_init(&ps.lx, src);
    if (setjmp(ps.fail))
        return NULL;
    it_advance(&ps);
    it_node *script = it_node_new(&ps, ND_BLOCK);
    it_nodelist fns;
    fns.count = 0;
    while (ps.cur.kind != TK_EOF)
        it_list_add(&ps, &fns, it_function(&ps));
    it_list_store(&ps, script, &fns);
    return script;
}
