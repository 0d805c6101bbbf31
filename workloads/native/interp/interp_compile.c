/* interp: compiler from the AST to stack bytecode, one it_func per script
 * function. Locals live in frame slots resolved at compile time, with block
 * scoping; calls are resolved to function indexes or built-in ids. Two
 * small optimisations keep the bytecode honest: constant folding of integer
 * operations and an increment instruction for "x = x + k". */
#include "interp.h"
#include "../support/native_common.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct it_local {
    const char *name;
    int depth, slot;
} it_local;

typedef struct it_compiler {
    struct it_vm *vm;
    it_program *prog;
    it_func *fn;
    it_local locals[256];
    int n_locals, depth;
    jmp_buf fail;
} it_compiler;

static _Noreturn void it_compile_error(it_compiler *cc, int line, const char *what,
                                       const char *name)
{
    fprintf(stderr, "line %d: %s%s%s\n", line, what, name ? " " : "", name ? name : "");
    longjmp(cc->fail, 1);
}

/* ---- emitting ------------------------------------------------------------ */

static void it_emit(it_compiler *cc, int32_t word)
{
    it_func *fn = cc->fn;
    if (fn->code_len == fn->code_cap) {
        fn->code_cap = fn->code_cap ? fn->code_cap * 2 : 64;
        fn->code = nw_realloc(fn->code, sizeof(int32_t) * (size_t)fn->code_cap);
    }
    fn->code[fn->code_len++] = word;
}

static void it_emit2(it_compiler *cc, it_op op, int32_t arg)
{
    it_emit(cc, (int32_t)op);
    it_emit(cc, arg);
}

static int it_emit_jump(it_compiler *cc, it_op op)
{
    it_emit2(cc, op, -1);
    return cc->fn->code_len - 1;
}

static void it_patch_jump(it_compiler *cc, int at)
{
    cc->fn->code[at] = cc->fn->code_len;
}

static int it_add_const(it_compiler *cc, it_value v)
{
    it_func *fn = cc->fn;
    if (fn->n_consts == fn->consts_cap) {
        fn->consts_cap = fn->consts_cap ? fn->consts_cap * 2 : 8;
        fn->consts = nw_realloc(fn->consts, sizeof(it_value) * (size_t)fn->consts_cap);
    }
    fn->consts[fn->n_consts] = v;
    return fn->n_consts++;
}

static void it_emit_int(it_compiler *cc, int64_t v)
{
    if (v >= INT32_MIN && v <= INT32_MAX)
        it_emit2(cc, OP_INT, (int32_t)v);
    else
        it_emit2(cc, OP_CONST, it_add_const(cc, it_int(v)));
}

/* ---- scopes --------------------------------------------------------------- */

static int it_resolve(const it_compiler *cc, const char *name)
{
    for (int i = cc->n_locals - 1; i >= 0; i--) {
        if (strcmp(cc->locals[i].name, name) == 0)
            return cc->locals[i].slot;
    }
    return -1;
}

static int it_declare(it_compiler *cc, int line, const char *name)
{
    for (int i = cc->n_locals - 1; i >= 0 && cc->locals[i].depth == cc->depth; i--) {
        if (strcmp(cc->locals[i].name, name) == 0)
            it_compile_error(cc, line, "redeclared", name);
    }
    if (cc->n_locals == (int)(sizeof cc->locals / sizeof cc->locals[0]))
        it_compile_error(cc, line, "too many locals in", cc->fn->name);
    it_local *l = &cc->locals[cc->n_locals++];
    l->name = name;
    l->depth = cc->depth;
    /* Slots are never reused, so a frame is sized once per function. */
    l->slot = cc->fn->n_locals++;
    return l->slot;
}

static void it_scope_end(it_compiler *cc)
{
    while (cc->n_locals > 0 && cc->locals[cc->n_locals - 1].depth == cc->depth)
        cc->n_locals--;
    cc->depth--;
}

/* ---- expressions ------------------------------------------------------------ */

static void it_expr(it_compiler *cc, const it_node *n);

static it_op it_binary_op(it_tok tok)
{
    switch (tok) {
    case TK_PLUS: return OP_ADD;
    case TK_MINUS: return OP_SUB;
    case TK_STAR: return OP_MUL;
    case TK_SLASH: return OP_DIV;
    case TK_PERCENT: return OP_MOD;
    case TK_LT: return OP_LT;
    case TK_LE: return OP_LE;
    case TK_GT: return OP_GT;
    case TK_GE: return OP_GE;
    case TK_EQ: return OP_EQ;
    default: return OP_NE;
    }
}

/* Folds an operation on two integer literals; 0 if it cannot. */
static int it_fold(it_tok op, int64_t x, int64_t y, int64_t *out)
{
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    switch (op) {
    case TK_PLUS: *out = (int64_t)(ux + uy); return 1;
    case TK_MINUS: *out = (int64_t)(ux - uy); return 1;
    case TK_STAR: *out = (int64_t)(ux * uy); return 1;
    case TK_LT: *out = x < y; return 1;
    case TK_GT: *out = x > y; return 1;
    case TK_EQ: *out = x == y; return 1;
    default: return 0;
    }
}

static void it_call(it_compiler *cc, const it_node *n)
{
    if (n->count > IT_MAX_ARGS)
        it_compile_error(cc, n->line, "too many arguments to", n->text);
    for (int i = 0; i < n->count; i++)
        it_expr(cc, n->list[i]);
    int f = it_program_find(cc->prog, n->text);
    if (f >= 0) {
        if (cc->prog->funcs[f].n_params != n->count)
            it_compile_error(cc, n->line, "wrong number of arguments to", n->text);
        it_emit2(cc, OP_CALL, f);
        it_emit(cc, n->count);
        return;
    }
    int b = it_builtin_find(n->text, n->text_len);
    if (b < 0)
        it_compile_error(cc, n->line, "unknown function", n->text);
    it_emit2(cc, OP_BUILTIN, b);
    it_emit(cc, n->count);
}

static void it_short_circuit(it_compiler *cc, const it_node *n, it_op jump)
{
    it_expr(cc, n->a);
    int skip = it_emit_jump(cc, jump);
    it_expr(cc, n->b);
    it_patch_jump(cc, skip);
}

static void it_expr(it_compiler *cc, const it_node *n)
{
    switch (n->kind) {
    case ND_NUM:
        it_emit_int(cc, n->num);
        break;
    case ND_STR: {
        it_value s = it_str_new(cc->vm, n->text, (size_t)n->text_len);
        s.as.o->pinned = 1;
        it_emit2(cc, OP_CONST, it_add_const(cc, s));
        break;
    }
    case ND_NAME: {
        int slot = it_resolve(cc, n->text);
        if (slot < 0)
            it_compile_error(cc, n->line, "unknown variable", n->text);
        it_emit2(cc, OP_LOAD, slot);
        break;
    }
    case ND_INDEX:
        it_expr(cc, n->a);
        it_expr(cc, n->b);
        it_emit(cc, OP_INDEX);
        break;
    case ND_BINARY: {
        int64_t folded;
        if (n->a->kind == ND_NUM && n->b->kind == ND_NUM &&
            it_fold(n->op, n->a->num, n->b->num, &folded)) {
            it_emit_int(cc, folded);
            break;
        }
        it_expr(cc, n->a);
        it_expr(cc, n->b);
        it_emit(cc, it_binary_op(n->op));
        break;
    }
    case ND_UNARY:
        it_expr(cc, n->a);
        it_emit(cc, n->op == TK_MINUS ? OP_NEG : OP_NOT);
        break;
    case ND_AND:
        it_short_circuit(cc, n, OP_JZ_KEEP);
        break;
    case ND_OR:
        it_short_circuit(cc, n, OP_JNZ_KEEP);
        break;
    case ND_CALL:
        it_call(cc, n);
        break;
    case ND_ARRAY:
        for (int i = 0; i < n->count; i++)
            it_expr(cc, n->list[i]);
        it_emit2(cc, OP_ARRAY, n->count);
        break;
    default:
        it_compile_error(cc, n->line, "not an expression", NULL);
    }
}

/* ---- statements ------------------------------------------------------------- */

static void it_stmt(it_compiler *cc, const it_node *n);

static void it_block_stmt(it_compiler *cc, const it_node *n)
{
    cc->depth++;
    for (int i = 0; i < n->count; i++)
        it_stmt(cc, n->list[i]);
    it_scope_end(cc);
}

/* "x = x + k" with k a small literal becomes one instruction. */
static int it_try_increment(it_compiler *cc, const it_node *n, int slot)
{
    const it_node *e = n->a;
    if (e->kind != ND_BINARY || (e->op != TK_PLUS && e->op != TK_MINUS))
        return 0;
    if (e->a->kind != ND_NAME || strcmp(e->a->text, n->text) != 0 || e->b->kind != ND_NUM)
        return 0;
    if (e->b->num < -1000000 || e->b->num > 1000000)
        return 0;
    it_emit2(cc, OP_INC_LOCAL, slot);
    it_emit(cc, (int32_t)(e->op == TK_PLUS ? e->b->num : -e->b->num));
    return 1;
}

static void it_if_stmt(it_compiler *cc, const it_node *n)
{
    it_expr(cc, n->a);
    int to_else = it_emit_jump(cc, OP_JZ);
    it_stmt(cc, n->b);
    if (n->c) {
        int to_end = it_emit_jump(cc, OP_JMP);
        it_patch_jump(cc, to_else);
        it_stmt(cc, n->c);
        it_patch_jump(cc, to_end);
    } else {
        it_patch_jump(cc, to_else);
    }
}

static void it_while_stmt(it_compiler *cc, const it_node *n)
{
    int top = cc->fn->code_len;
    it_expr(cc, n->a);
    int exit = it_emit_jump(cc, OP_JZ);
    it_stmt(cc, n->b);
    it_emit2(cc, OP_JMP, top);
    it_patch_jump(cc, exit);
}

static void it_stmt(it_compiler *cc, const it_node *n)
{
    switch (n->kind) {
    case ND_BLOCK:
        it_block_stmt(cc, n);
        break;
    case ND_VAR: {
        if (n->a)
            it_expr(cc, n->a);
        else
            it_emit(cc, OP_NIL);
        int slot = it_declare(cc, n->line, n->text);
        it_emit2(cc, OP_STORE, slot);
        break;
    }
    case ND_ASSIGN: {
        int slot = it_resolve(cc, n->text);
        if (slot < 0)
            it_compile_error(cc, n->line, "unknown variable", n->text);
        if (!it_try_increment(cc, n, slot)) {
            it_expr(cc, n->a);
            it_emit2(cc, OP_STORE, slot);
        }
        break;
    }
    case ND_SET_INDEX:
        it_expr(cc, n->a);
        it_expr(cc, n->b);
        it_expr(cc, n->c);
        it_emit(cc, OP_SET_INDEX);
        break;
    case ND_IF:
        it_if_stmt(cc, n);
        break;
    case ND_WHILE:
        it_while_stmt(cc, n);
        break;
    case ND_RETURN:
        if (n->a)
            it_expr(cc, n->a);
        else
            it_emit(cc, OP_NIL);
        it_emit(cc, OP_RET);
        break;
    case ND_EXPR:
        it_expr(cc, n->a);
        it_emit(cc, OP_POP);
        break;
    default:
        it_compile_error(cc, n->line, "not a statement", NULL);
    }
}

static void it_function_body(it_compiler *cc, const it_node *fn_node, it_func *fn)
{
    cc->fn = fn;
    cc->n_locals = 0;
    cc->depth = 0;
    for (int i = 0; i < fn_node->count; i++)
        it_declare(cc, fn_node->line, fn_node->list[i]->text);
    it_block_stmt(cc, fn_node->a);
    it_emit(cc, OP_NIL);
    it_emit(cc, OP_RET);
}

int it_compile(struct it_vm *vm, const it_node *script, it_program *out_prog)
{
    it_compiler cc;
    memset(&cc, 0, sizeof cc);
    cc.vm = vm;
    cc.prog = out_prog;
    out_prog->n_funcs = script->count;
    out_prog->funcs = nw_zalloc((size_t)script->count, sizeof(it_func));
    /* Names first, so that functions may call those defined later. */
    for (int i = 0; i < script->count; i++) {
        const it_node *f = script->list[i];
        snprintf(out_prog->funcs[i].name, sizeof out_prog->funcs[i].name, "%s", f->text);
        out_prog->funcs[i].n_params = f->count;
    }
    if (setjmp(cc.fail)) {
        it_program_free(out_prog);
        return -1;
    }
    for (int i = 0; i < script->count; i++)
        it_function_body(&cc, script->list[i], &out_prog->funcs[i]);
    return 0;
}

void it_program_free(it_program *prog)
{
    if (!prog || !prog->funcs)
        return;
    for (int i = 0; i < prog->n_funcs; i++) {
        free(prog->funcs[i].code);
        free(prog->funcs[i].consts);
    }
    free(prog->funcs);
    prog->funcs = NULL;
    prog->n_funcs = 0;
}

int it_program_find(const it_program *prog, const char *name)
{
    for (int i = 0; i < prog->n_funcs; i++) {
        if (strcmp(prog->funcs[i].name, name) == 0)
            return i;
    }
    return -1;
}

void it_disassemble(const it_func *fn)
{
    static const char *const names[] = {
        "const", "int", "nil", "load", "store", "pop", "dup", "add", "sub", "mul", "div",
        "mod", "lt", "le", "gt", "ge", "eq", "ne", "not", "neg", "jmp", "jz", "jz_keep",
        "jnz_keep", "call", "builtin", "ret", "index", "set_index", "array", "inc_local",
    };
    fprintf(stderr, "fn %s (%d params, %d locals)\n", fn->name, fn->n_params, fn->n_locals);
    for (int pc = 0; pc < fn->code_len;) {
        it_op op = (it_op)fn->code[pc];
        fprintf(stderr, "  %4d %s", pc, names[op]);
        int args = op == OP_CALL || op == OP_BUILTIN || op == OP_INC_LOCAL ? 2
                   : op == OP_CONST || op == OP_INT || op == OP_LOAD || op == OP_STORE ||
                           op == OP_JMP || op == OP_JZ || op == OP_JZ_KEEP ||
                           op == OP_JNZ_KEEP || op == OP_ARRAY
                       ? 1
                       : 0;
        for (int k = 1; k <= args; k++)
            fprintf(stderr, " %d", fn->code[pc + k]);
        fputc('\n', stderr);
        pc += 1 + args;
    }
}
