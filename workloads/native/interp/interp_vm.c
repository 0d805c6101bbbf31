/* interp: the stack VM. One C activation of it_vm_run per script call, so
 * the native stack mirrors the script's (fib(20) is twenty frames of
 * it_vm_run deep, tak deeper); the dispatch loop is a switch. Frames share
 * one value stack: a frame's parameters and locals sit at its base, its
 * operands above them. */
#include "interp.h"
#include "../support/native_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    IT_STACK_VALUES = 1 << 20,
    IT_MAX_DEPTH = 20000,
    /* Room a frame needs above its locals: no expression in a script nests
     * deeper than this (a parser limit in practice: 256-element lists). */
    IT_FRAME_SLACK = 600,
};

void it_vm_init(it_vm *vm)
{
    memset(vm, 0, sizeof *vm);
    vm->stack_cap = IT_STACK_VALUES;
    vm->stack = nw_alloc(sizeof(it_value) * (size_t)vm->stack_cap);
    vm->heap.next_gc = 262144;
    vm->emitted = NW_HASH_INIT;
}

void it_vm_free(it_vm *vm)
{
    it_heap_free(&vm->heap);
    free(vm->stack);
    vm->stack = NULL;
}

int it_vm_fail(it_vm *vm, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(vm->error, sizeof vm->error, fmt, ap);
    va_end(ap);
    return -1;
}

#define PUSH(v) (vm->stack[vm->sp++] = (v))
#define POP() (vm->stack[--vm->sp])
#define PEEK(k) (vm->stack[vm->sp - 1 - (k)])

static int it_arith(it_vm *vm, it_op op)
{
    it_value y = PEEK(0), x = PEEK(1);
    if (op == OP_ADD && (it_is_str(x) || it_is_str(y))) {
        it_value s = it_str_concat(vm, x, y);
        vm->sp -= 2;
        PUSH(s);
        return 0;
    }
    if (x.type != VT_INT || y.type != VT_INT)
        return it_vm_fail(vm, "arithmetic on a non-integer");
    uint64_t a = (uint64_t)x.as.i, b = (uint64_t)y.as.i;
    int64_t r;
    switch (op) {
    case OP_ADD: r = (int64_t)(a + b); break;
    case OP_SUB: r = (int64_t)(a - b); break;
    case OP_MUL: r = (int64_t)(a * b); break;
    default:
        if (y.as.i == 0)
            return it_vm_fail(vm, "division by zero");
        if (y.as.i == -1) /* INT64_MIN / -1 wraps instead of trapping */
            r = op == OP_DIV ? (int64_t)(0 - a) : 0;
        else
            r = op == OP_DIV ? x.as.i / y.as.i : x.as.i % y.as.i;
        break;
    }
    vm->sp -= 2;
    PUSH(it_int(r));
    return 0;
}

static void it_compare(it_vm *vm, it_op op)
{
    it_value y = POP(), x = POP();
    int c, r;
    if (op == OP_EQ || op == OP_NE) {
        r = it_values_equal(x, y) == (op == OP_EQ);
    } else {
        if (x.type == VT_INT && y.type == VT_INT)
            c = x.as.i < y.as.i ? -1 : x.as.i > y.as.i;
        else
            c = it_values_compare(x, y);
        r = op == OP_LT ? c < 0 : op == OP_LE ? c <= 0 : op == OP_GT ? c > 0 : c >= 0;
    }
    PUSH(it_int(r));
}

static int it_index(it_vm *vm)
{
    it_value ix = POP(), obj = POP();
    if (ix.type != VT_INT)
        return it_vm_fail(vm, "index is not an integer");
    if (it_is_arr(obj)) {
        const it_array *a = it_as_arr(obj);
        if (ix.as.i < 0 || (uint64_t)ix.as.i >= a->len)
            return it_vm_fail(vm, "index %lld out of range", (long long)ix.as.i);
        PUSH(a->items[ix.as.i]);
        return 0;
    }
    if (it_is_str(obj)) {
        const it_string *s = it_as_str(obj);
        if (ix.as.i < 0 || (uint64_t)ix.as.i >= s->len)
            return it_vm_fail(vm, "index %lld out of range", (long long)ix.as.i);
        PUSH(it_int((unsigned char)s->chars[ix.as.i]));
        return 0;
    }
    return it_vm_fail(vm, "indexing a non-array");
}

static int it_set_index(it_vm *vm)
{
    it_value v = POP(), ix = POP(), obj = POP();
    if (!it_is_arr(obj) || ix.type != VT_INT)
        return it_vm_fail(vm, "element assignment needs an array and an integer");
    it_array *a = it_as_arr(obj);
    if (ix.as.i < 0 || (uint64_t)ix.as.i >= a->len)
        return it_vm_fail(vm, "index %lld out of range", (long long)ix.as.i);
    a->items[ix.as.i] = v;
    return 0;
}

static int it_make_array(it_vm *vm, int n)
{
    /* The elements stay on the stack while the array is allocated. */
    it_value arr = it_arr_new(vm, (size_t)n, it_nil());
    it_array *a = it_as_arr(arr);
    memcpy(a->items, &vm->stack[vm->sp - n], sizeof(it_value) * (size_t)n);
    vm->sp -= n;
    PUSH(arr);
    return 0;
}

static int it_vm_run(it_vm *vm, const it_func *fn, int base, it_value *out);

static int it_call(it_vm *vm, int f, int argc)
{
    const it_func *callee = &vm->prog->funcs[f];
    int base = vm->sp - argc;
    if (vm->depth >= IT_MAX_DEPTH)
        return it_vm_fail(vm, "recursion too deep in %s", callee->name);
    if (base + callee->n_locals + IT_FRAME_SLACK > vm->stack_cap)
        return it_vm_fail(vm, "value stack overflow in %s", callee->name);
    for (int i = argc; i < callee->n_locals; i++)
        vm->stack[base + i] = it_nil();
    vm->sp = base + callee->n_locals;
    vm->depth++;
    if (vm->depth > vm->max_depth)
        vm->max_depth = vm->depth;
    vm->calls++;
    it_value result;
    int rc = it_vm_run(vm, callee, base, &result);
    vm->depth--;
    if (rc)
        return rc;
    vm->sp = base;
    PUSH(result);
    return 0;
}

static int it_builtin(it_vm *vm, int id, int argc)
{
    it_value result;
    if (it_builtin_call(vm, id, argc, &vm->stack[vm->sp - argc], &result))
        return -1;
    vm->sp -= argc;
    PUSH(result);
    return 0;
}

static int it_vm_run(it_vm *vm, const it_func *fn, int base, it_value *out)
{
    const int32_t *code = fn->code;
    int pc = 0;
    for (;;) {
        it_op op = (it_op)code[pc++];
        switch (op) {
        case OP_CONST: PUSH(fn->consts[code[pc++]]); break;
        case OP_INT: PUSH(it_int(code[pc++])); break;
        case OP_NIL: PUSH(it_nil()); break;
        case OP_LOAD: PUSH(vm->stack[base + code[pc++]]); break;
        case OP_STORE: vm->stack[base + code[pc++]] = POP(); break;
        case OP_POP: vm->sp--; break;
        case OP_DUP: {
            it_value top = PEEK(0);
            PUSH(top);
            break;
        }
        case OP_ADD:
        case OP_SUB:
        case OP_MUL:
        case OP_DIV:
        case OP_MOD:
            if (it_arith(vm, op))
                return -1;
            break;
        case OP_LT:
        case OP_LE:
        case OP_GT:
        case OP_GE:
        case OP_EQ:
        case OP_NE: it_compare(vm, op); break;
        case OP_NOT: PEEK(0) = it_int(!it_truthy(PEEK(0))); break;
        case OP_NEG:
            if (PEEK(0).type != VT_INT)
                return it_vm_fail(vm, "negating a non-integer");
            PEEK(0).as.i = (int64_t)(0 - (uint64_t)PEEK(0).as.i);
            break;
        case OP_JMP: pc = code[pc]; break;
        case OP_JZ: pc = it_truthy(POP()) ? pc + 1 : code[pc]; break;
        case OP_JZ_KEEP:
            if (!it_truthy(PEEK(0))) {
                pc = code[pc];
            } else {
                vm->sp--;
                pc++;
            }
            break;
        case OP_JNZ_KEEP:
            if (it_truthy(PEEK(0))) {
                pc = code[pc];
            } else {
                vm->sp--;
                pc++;
            }
            break;
        case OP_CALL:
            if (it_call(vm, code[pc], code[pc + 1]))
                return -1;
            pc += 2;
            break;
        case OP_BUILTIN:
            if (it_builtin(vm, code[pc], code[pc + 1]))
                return -1;
            pc += 2;
            break;
        case OP_RET: *out = POP(); return 0;
        case OP_INDEX:
            if (it_index(vm))
                return -1;
            break;
        case OP_SET_INDEX:
            if (it_set_index(vm))
                return -1;
            break;
        case OP_ARRAY: it_make_array(vm, code[pc++]); break;
        case OP_INC_LOCAL: {
            it_value *slot = &vm->stack[base + code[pc]];
            if (slot->type != VT_INT)
                return it_vm_fail(vm, "incrementing a non-integer");
            slot->as.i = (int64_t)((uint64_t)slot->as.i + (uint64_t)(int64_t)code[pc + 1]);
            pc += 2;
            break;
        }
        default: return it_vm_fail(vm, "bad opcode %d in %s", (int)op, fn->name);
        }
    }
}

int it_vm_invoke(it_vm *vm, const it_program *prog, int fn_index, int argc, const it_value *args,
                 it_value *out)
{
    vm->prog = prog;
    vm->sp = 0;
    for (int i = 0; i < argc; i++)
        PUSH(args[i]);
    if (it_call(vm, fn_index, argc))
        return -1;
    *out = POP();
    return 0;
}
