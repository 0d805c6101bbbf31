/* interp: the built-in functions a script can call. Each checks its
 * arguments itself, as a real interpreter's library must. */
#include "interp.h"
#include "../support/native_common.h"

#include <stdio.h>
#include <string.h>

typedef int (*it_builtin_fn)(it_vm *vm, const it_value *args, it_value *out);

static int it_want(it_vm *vm, const char *fn, it_value v, it_vtype type)
{
    static const char *const names[] = {"nil", "integer", "string", "array"};
    if (v.type == type)
        return 0;
    return it_vm_fail(vm, "%s: expected %s, got %s", fn, names[type], names[v.type]);
}

static int it_bi_len(it_vm *vm, const it_value *args, it_value *out)
{
    if (it_is_str(args[0]))
        *out = it_int((int64_t)it_as_str(args[0])->len);
    else if (it_is_arr(args[0]))
        *out = it_int((int64_t)it_as_arr(args[0])->len);
    else
        return it_vm_fail(vm, "len: expected a string or an array");
    return 0;
}

static int it_bi_array(it_vm *vm, const it_value *args, it_value *out)
{
    if (it_want(vm, "array", args[0], VT_INT))
        return -1;
    if (args[0].as.i < 0 || args[0].as.i > (1 << 24))
        return it_vm_fail(vm, "array: bad length %lld", (long long)args[0].as.i);
    *out = it_arr_new(vm, (size_t)args[0].as.i, args[1]);
    return 0;
}

static int it_bi_push(it_vm *vm, const it_value *args, it_value *out)
{
    if (it_want(vm, "push", args[0], VT_ARR))
        return -1;
    it_arr_push(it_as_arr(args[0]), args[1]);
    *out = args[0];
    return 0;
}

static int it_bi_str(it_vm *vm, const it_value *args, it_value *out)
{
    if (it_is_str(args[0])) {
        *out = args[0];
        return 0;
    }
    if (it_want(vm, "str", args[0], VT_INT))
        return -1;
    char buf[24];
    int n = snprintf(buf, sizeof buf, "%lld", (long long)args[0].as.i);
    *out = it_str_new(vm, buf, (size_t)n);
    return 0;
}

static int it_bi_ord(it_vm *vm, const it_value *args, it_value *out)
{
    if (it_want(vm, "ord", args[0], VT_STR) || it_want(vm, "ord", args[1], VT_INT))
        return -1;
    const it_string *s = it_as_str(args[0]);
    int64_t i = args[1].as.i;
    if (i < 0 || (uint64_t)i >= s->len)
        return it_vm_fail(vm, "ord: index %lld out of range", (long long)i);
    *out = it_int((unsigned char)s->chars[i]);
    return 0;
}

static int it_bi_chr(it_vm *vm, const it_value *args, it_value *out)
{
    if (it_want(vm, "chr", args[0], VT_INT))
        return -1;
    char c = (char)(args[0].as.i & 0xff);
    *out = it_str_new(vm, &c, 1);
    return 0;
}

static int it_bi_substr(it_vm *vm, const it_value *args, it_value *out)
{
    if (it_want(vm, "substr", args[0], VT_STR) || it_want(vm, "substr", args[1], VT_INT) ||
        it_want(vm, "substr", args[2], VT_INT))
        return -1;
    const it_string *s = it_as_str(args[0]);
    int64_t from = args[1].as.i, n = args[2].as.i;
    if (from < 0 || n < 0 || (uint64_t)from > s->len || (uint64_t)n > s->len - (uint64_t)from)
        return it_vm_fail(vm, "substr: range out of bounds");
    *out = it_str_new(vm, s->chars + from, (size_t)n);
    return 0;
}

static int it_bi_emit(it_vm *vm, const it_value *args, it_value *out)
{
    vm->emitted = it_value_hash(vm->emitted, args[0]);
    *out = it_nil();
    return 0;
}

static int it_bi_abs(it_vm *vm, const it_value *args, it_value *out)
{
    if (it_want(vm, "abs", args[0], VT_INT))
        return -1;
    int64_t v = args[0].as.i;
    *out = it_int(v < 0 ? (int64_t)(0 - (uint64_t)v) : v);
    return 0;
}

static const struct {
    const char *name;
    int argc;
    it_builtin_fn fn;
} it_builtins[] = {
    {"len", 1, it_bi_len},       {"array", 2, it_bi_array}, {"push", 2, it_bi_push},
    {"str", 1, it_bi_str},       {"ord", 2, it_bi_ord},     {"chr", 1, it_bi_chr},
    {"substr", 3, it_bi_substr}, {"emit", 1, it_bi_emit},   {"abs", 1, it_bi_abs},
};

enum { IT_N_BUILTINS = sizeof it_builtins / sizeof it_builtins[0] };

int it_builtin_find(const char *name, int len)
{
    for (int i = 0; i < IT_N_BUILTINS; i++) {
        if ((int)strlen(it_builtins[i].name) == len && memcmp(it_builtins[i].name, name,
                                                             (size_t)len) == 0)
            return i;
    }
    return -1;
}

const char *it_builtin_name(int id)
{
    return id >= 0 && id < IT_N_BUILTINS ? it_builtins[id].name : "?";
}

int it_builtin_call(it_vm *vm, int id, int argc, const it_value *args, it_value *out)
{
    if (id < 0 || id >= IT_N_BUILTINS)
        return it_vm_fail(vm, "no built-in %d", id);
    if (argc != it_builtins[id].argc)
        return it_vm_fail(vm, "%s: takes %d arguments, got %d", it_builtins[id].name,
                          it_builtins[id].argc, argc);
    return it_builtins[id].fn(vm, args, out);
}
