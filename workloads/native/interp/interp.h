/* interp: a bytecode interpreter for a tiny language, as a benchmark of
 * deep and recursive native call graphs.
 *
 * The pipeline is the usual one: a lexer (interp_lex.c), a recursive
 * descent parser to an AST (interp_parse.c), a compiler to stack bytecode
 * (interp_compile.c) and a stack VM whose script-level calls recurse in C
 * (interp_vm.c), over values with a mark-and-sweep heap (interp_value.c)
 * and a few built-in functions (interp_builtin.c). The language has
 * functions with parameters and block-scoped locals, integers, strings and
 * growable arrays, if/else, while and return.
 *
 * Integer arithmetic wraps (two's complement) so that no script can reach
 * undefined behaviour in the host. */
#ifndef INTERP_H
#define INTERP_H

#include <stddef.h>
#include <stdint.h>

/* ---- tokens --------------------------------------------------------- */

typedef enum it_tok {
    TK_EOF, TK_ERROR, TK_NUM, TK_STR, TK_IDENT,
    TK_FN, TK_VAR, TK_IF, TK_ELSE, TK_WHILE, TK_RETURN,
    TK_LPAREN, TK_RPAREN, TK_LBRACE, TK_RBRACE, TK_LBRACKET, TK_RBRACKET,
    TK_COMMA, TK_SEMI, TK_ASSIGN,
    TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH, TK_PERCENT,
    TK_LT, TK_LE, TK_GT, TK_GE, TK_EQ, TK_NE, TK_AND, TK_OR, TK_NOT
} it_tok;

typedef struct it_token {
    it_tok kind;
    const char *start;
    int len;
    int line;
    int64_t num;
} it_token;

typedef struct it_lexer {
    const char *p;
    int line;
} it_lexer;

void it_lex_init(it_lexer *lx, const char *src);
/* The next token; TK_ERROR for a character the language does not know. */
it_token it_lex_next(it_lexer *lx);
const char *it_tok_name(it_tok kind);

/* ---- syntax tree ---------------------------------------------------- */

typedef enum it_node_kind {
    ND_NUM, ND_STR, ND_NAME, ND_INDEX, ND_BINARY, ND_UNARY, ND_AND, ND_OR, ND_CALL, ND_ARRAY,
    ND_BLOCK, ND_VAR, ND_ASSIGN, ND_SET_INDEX, ND_IF, ND_WHILE, ND_RETURN, ND_EXPR, ND_FN
} it_node_kind;

typedef struct it_node {
    it_node_kind kind;
    int line;
    it_tok op;              /* ND_BINARY, ND_UNARY */
    int64_t num;            /* ND_NUM */
    char *text;             /* names, and string literals unescaped */
    int text_len;
    struct it_node *a, *b, *c;
    struct it_node **list;  /* block statements, arguments, elements, parameters */
    int count;
} it_node;

/* Parses a whole script (a sequence of fn definitions) into an ND_BLOCK of
 * ND_FN nodes, every node and string allocated in ar. Returns NULL and
 * prints "line N: ..." to stderr on error. */
struct nw_arena;
it_node *it_parse(struct nw_arena *ar, const char *src);

/* ---- values and heap ------------------------------------------------ */

typedef enum it_vtype { VT_NIL, VT_INT, VT_STR, VT_ARR } it_vtype;

typedef struct it_obj {
    struct it_obj *next;
    unsigned char marked;
    unsigned char pinned; /* constants: never collected */
    unsigned char kind;   /* VT_STR or VT_ARR */
} it_obj;

typedef struct it_value {
    it_vtype type;
    union {
        int64_t i;
        it_obj *o;
    } as;
} it_value;

typedef struct it_string {
    it_obj hdr;
    size_t len;
    char chars[];
} it_string;

typedef struct it_array {
    it_obj hdr;
    size_t len, cap;
    it_value *items;
} it_array;

typedef struct it_heap {
    it_obj *objects;
    size_t live_bytes, next_gc;
    uint64_t collections;
} it_heap;

it_value it_int(int64_t i);
it_value it_nil(void);
int it_is_str(it_value v);
int it_is_arr(it_value v);
it_string *it_as_str(it_value v);
it_array *it_as_arr(it_value v);
int it_truthy(it_value v);
/* Equality by content for strings, identity for arrays. */
int it_values_equal(it_value x, it_value y);
/* -1, 0 or 1; integers before strings before arrays. */
int it_values_compare(it_value x, it_value y);
uint64_t it_value_hash(uint64_t h, it_value v);

struct it_vm;
/* Allocation may collect: every live value must be reachable from the VM's
 * stack (or pinned) when these are called. */
it_value it_str_new(struct it_vm *vm, const char *chars, size_t len);
it_value it_str_concat(struct it_vm *vm, it_value x, it_value y);
it_value it_arr_new(struct it_vm *vm, size_t len, it_value fill);
void it_arr_push(it_array *a, it_value v);
void it_heap_collect(struct it_vm *vm);
void it_heap_free(it_heap *heap);

/* ---- bytecode ------------------------------------------------------- */

typedef enum it_op {
    OP_CONST, OP_INT, OP_NIL, OP_LOAD, OP_STORE, OP_POP, OP_DUP,
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
    OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_NOT, OP_NEG,
    OP_JMP, OP_JZ, OP_JZ_KEEP, OP_JNZ_KEEP,
    OP_CALL, OP_BUILTIN, OP_RET,
    OP_INDEX, OP_SET_INDEX, OP_ARRAY,
    OP_INC_LOCAL
} it_op;

typedef struct it_func {
    char name[32];
    int n_params, n_locals;
    int32_t *code;
    int code_len, code_cap;
    it_value *consts;
    int n_consts, consts_cap;
} it_func;

typedef struct it_program {
    it_func *funcs;
    int n_funcs;
} it_program;

/* Compiles a parsed script. String constants are allocated, pinned, on the
 * VM's heap. Returns 0, or -1 after printing "line N: ..." to stderr. */
int it_compile(struct it_vm *vm, const it_node *script, it_program *out_prog);
void it_program_free(it_program *prog);
int it_program_find(const it_program *prog, const char *name);
/* Writes a listing of one function to stderr (for debugging the compiler). */
void it_disassemble(const it_func *fn);

/* ---- built-in functions --------------------------------------------- */

enum { IT_MAX_ARGS = 8 };
int it_builtin_find(const char *name, int len);
const char *it_builtin_name(int id);
/* Runs built-in id on args[0..argc) (which stay on the VM's stack during
 * the call). Returns 0, or -1 with vm->error set. */
int it_builtin_call(struct it_vm *vm, int id, int argc, const it_value *args, it_value *out);

/* ---- the VM ----------------------------------------------------------- */

typedef struct it_vm {
    it_heap heap;
    it_value *stack;
    int sp, stack_cap;
    int depth, max_depth;
    const it_program *prog;
    uint64_t emitted; /* hash of every value the script passed to emit() */
    uint64_t calls;
    char error[128];
} it_vm;

void it_vm_init(it_vm *vm);
void it_vm_free(it_vm *vm);
/* Calls script function fn_index with args; 0 and *out, or -1 with
 * vm->error set. */
int it_vm_invoke(it_vm *vm, const it_program *prog, int fn_index, int argc,
                 const it_value *args, it_value *out);
/* Sets vm->error, printf-style; returns -1 for convenience. */
int it_vm_fail(it_vm *vm, const char *fmt, ...);

/* The embedded benchmark script. */
extern const char it_script_source[];

#endif
