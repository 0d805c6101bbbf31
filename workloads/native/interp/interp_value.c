/* interp: values, strings, arrays and the mark-and-sweep heap. The VM's
 * operand stack and the pinned constants are the only roots, which is why
 * the allocating functions require every live value to be on the stack. */
#include "interp.h"
#include "../support/native_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

it_value it_int(int64_t i)
{
    it_value v;
    v.type = VT_INT;
    v.as.i = i;
    return v;
}

it_value it_nil(void)
{
    it_value v;
    v.type = VT_NIL;
    v.as.i = 0;
    return v;
}

static it_value it_obj_value(it_obj *o)
{
    it_value v;
    v.type = (it_vtype)o->kind;
    v.as.o = o;
    return v;
}

int it_is_str(it_value v)
{
    return v.type == VT_STR;
}

int it_is_arr(it_value v)
{
    return v.type == VT_ARR;
}

it_string *it_as_str(it_value v)
{
    return (it_string *)v.as.o;
}

it_array *it_as_arr(it_value v)
{
    return (it_array *)v.as.o;
}

int it_truthy(it_value v)
{
    switch (v.type) {
    case VT_NIL: return 0;
    case VT_INT: return v.as.i != 0;
    case VT_STR: return it_as_str(v)->len != 0;
    default: return 1;
    }
}

static int it_str_compare(const it_string *a, const it_string *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->chars, b->chars, n);
    if (c != 0)
        return c < 0 ? -1 : 1;
    return a->len < b->len ? -1 : a->len > b->len;
}

int it_values_equal(it_value x, it_value y)
{
    if (x.type != y.type)
        return 0;
    switch (x.type) {
    case VT_NIL: return 1;
    case VT_INT: return x.as.i == y.as.i;
    case VT_STR: return it_str_compare(it_as_str(x), it_as_str(y)) == 0;
    default: return x.as.o == y.as.o;
    }
}

int it_values_compare(it_value x, it_value y)
{
    if (x.type != y.type)
        return x.type < y.type ? -1 : 1;
    switch (x.type) {
    case VT_INT: return x.as.i < y.as.i ? -1 : x.as.i > y.as.i;
    case VT_STR: return it_str_compare(it_as_str(x), it_as_str(y));
    case VT_ARR: {
        /* Arrays compare by length, then element by element. */
        const it_array *a = it_as_arr(x), *b = it_as_arr(y);
        if (a->len != b->len)
            return a->len < b->len ? -1 : 1;
        for (size_t i = 0; i < a->len; i++) {
            int c = it_values_compare(a->items[i], b->items[i]);
            if (c)
                return c;
        }
        return 0;
    }
    default: return 0;
    }
}

uint64_t it_value_hash(uint64_t h, it_value v)
{
    h = nw_hash_u64(h, (uint64_t)v.type);
    switch (v.type) {
    case VT_INT: return nw_hash_u64(h, (uint64_t)v.as.i);
    case VT_STR: return nw_hash_bytes(h, it_as_str(v)->chars, it_as_str(v)->len);
    case VT_ARR: {
        const it_array *a = it_as_arr(v);
        for (size_t i = 0; i < a->len; i++)
            h = it_value_hash(h, a->items[i]);
        return h;
    }
    default: return h;
    }
}

/* ---- heap --------------------------------------------------------------- */

static void *it_heap_alloc(it_vm *vm, size_t size, it_vtype kind)
{
    if (vm->heap.live_bytes + size > vm->heap.next_gc)
        it_heap_collect(vm);
    it_obj *o = nw_alloc(size);
    o->kind = (unsigned char)kind;
    o->marked = 0;
    o->pinned = 0;
    o->next = vm->heap.objects;
    vm->heap.objects = o;
    vm->heap.live_bytes += size;
    return o;
}

static size_t it_obj_size(const it_obj *o)
{
    if (o->kind == VT_STR)
        return sizeof(it_string) + ((const it_string *)o)->len + 1;
    return sizeof(it_array) + ((const it_array *)o)->cap * sizeof(it_value);
}

it_value it_str_new(it_vm *vm, const char *chars, size_t len)
{
    it_string *s = it_heap_alloc(vm, sizeof(it_string) + len + 1, VT_STR);
    s->len = len;
    memcpy(s->chars, chars, len);
    s->chars[len] = '\0';
    return it_obj_value(&s->hdr);
}

/* Writes the text of an integer or string operand; returns its length. */
static size_t it_operand_text(it_value v, char *buf, const char **out_text)
{
    if (v.type == VT_STR) {
        *out_text = it_as_str(v)->chars;
        return it_as_str(v)->len;
    }
    int n = snprintf(buf, 24, "%lld", (long long)(v.type == VT_INT ? v.as.i : 0));
    *out_text = buf;
    return (size_t)n;
}

it_value it_str_concat(it_vm *vm, it_value x, it_value y)
{
    char bx[24], by[24];
    const char *tx, *ty;
    size_t nx = it_operand_text(x, bx, &tx), ny = it_operand_text(y, by, &ty);
    /* Both operands are on the VM stack, so the allocation cannot free
     * them; their characters are copied after it. */
    it_string *s = it_heap_alloc(vm, sizeof(it_string) + nx + ny + 1, VT_STR);
    s->len = nx + ny;
    memcpy(s->chars, tx, nx);
    memcpy(s->chars + nx, ty, ny);
    s->chars[nx + ny] = '\0';
    return it_obj_value(&s->hdr);
}

it_value it_arr_new(it_vm *vm, size_t len, it_value fill)
{
    it_array *a = it_heap_alloc(vm, sizeof(it_array), VT_ARR);
    a->len = len;
    a->cap = len < 4 ? 4 : len;
    a->items = nw_alloc(sizeof(it_value) * a->cap);
    for (size_t i = 0; i < len; i++)
        a->items[i] = fill;
    vm->heap.live_bytes += a->cap * sizeof(it_value);
    return it_obj_value(&a->hdr);
}

void it_arr_push(it_array *a, it_value v)
{
    if (a->len == a->cap) {
        a->cap *= 2;
        a->items = nw_realloc(a->items, sizeof(it_value) * a->cap);
    }
    a->items[a->len++] = v;
}

static void it_mark_value(it_value v);

static void it_mark_obj(it_obj *o)
{
    if (o->marked)
        return;
    o->marked = 1;
    if (o->kind == VT_ARR) {
        const it_array *a = (const it_array *)o;
        for (size_t i = 0; i < a->len; i++)
            it_mark_value(a->items[i]);
    }
}

static void it_mark_value(it_value v)
{
    if (v.type == VT_STR || v.type == VT_ARR)
        it_mark_obj(v.as.o);
}

static void it_obj_free(it_obj *o)
{
    if (o->kind == VT_ARR)
        free(((it_array *)o)->items);
    free(o);
}

static void it_sweep(it_heap *heap)
{
    it_obj **link = &heap->objects;
    size_t live = 0;
    while (*link) {
        it_obj *o = *link;
        if (o->marked || o->pinned) {
            o->marked = 0;
            live += it_obj_size(o);
            link = &o->next;
        } else {
            *link = o->next;
            it_obj_free(o);
        }
    }
    heap->live_bytes = live;
}

void it_heap_collect(it_vm *vm)
{
    for (int i = 0; i < vm->sp; i++)
        it_mark_value(vm->stack[i]);
    it_sweep(&vm->heap);
    vm->heap.collections++;
    /* The next collection when the heap has doubled, with a floor so that
     * small heaps are not collected at every allocation. */
    vm->heap.next_gc = vm->heap.live_bytes * 2 > 262144 ? vm->heap.live_bytes * 2 : 262144;
}

void it_heap_free(it_heap *heap)
{
    while (heap->objects) {
        it_obj *next = heap->objects->next;
        it_obj_free(heap->objects);
        heap->objects = next;
    }
    heap->live_bytes = 0;
}
