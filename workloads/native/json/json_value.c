/* json: documents: their arena, constructors, object member lookup (linear for
 * small objects, an open-addressing index past eight members), equality
 * and key sorting. */
#include "json.h"

#include <stdlib.h>
#include <string.h>

enum { JS_INDEX_FROM = 8 };

/* A document is its arena: nodes, strings and arrays all live there. */
struct js_doc {
    nw_arena *arena;
};

js_doc *js_doc_create(void)
{
    js_doc *doc = nw_alloc(sizeof *doc);
    doc->arena = nw_arena_create();
    return doc;
}

void js_doc_free(js_doc *doc)
{
    if (!doc)
        return;
    nw_arena_free(doc->arena);
    free(doc);
}

void js_doc_reset(js_doc *doc)
{
    nw_arena_reset(doc->arena);
}

void *js_doc_alloc(js_doc *doc, size_t n)
{
    return nw_arena_alloc(doc->arena, n);
}

size_t js_doc_bytes(const js_doc *doc)
{
    return nw_arena_bytes(doc->arena);
}

js_value *js_new(js_doc *doc, js_type type)
{
    js_value *v = js_doc_alloc(doc, sizeof *v);
    memset(v, 0, sizeof *v);
    v->type = type;
    return v;
}

void js_number_normalise(int64_t *mant, int32_t *exp)
{
    if (*mant == 0) {
        *exp = 0;
        return;
    }
    while (*mant % 10 == 0) {
        *mant /= 10;
        ++*exp;
    }
}

js_value *js_new_number(js_doc *doc, int64_t mant, int32_t exp)
{
    js_value *v = js_new(doc, JS_NUMBER);
    js_number_normalise(&mant, &exp);
    v->u.num.mant = mant;
    v->u.num.exp = exp;
    return v;
}

js_value *js_new_string(js_doc *doc, const char *chars, size_t len)
{
    js_value *v = js_new(doc, JS_STRING);
    char *copy = js_doc_alloc(doc, len + 1);
    memcpy(copy, chars, len);
    copy[len] = '\0';
    v->u.str.chars = copy;
    v->u.str.len = len;
    return v;
}

/* Grows an arena array; the old storage stays in the arena. */
static void *js_grow(js_doc *doc, void *old, size_t elem, size_t len, size_t *cap)
{
    size_t new_cap = *cap ? *cap * 2 : 4;
    void *p = js_doc_alloc(doc, elem * new_cap);
    if (len)
        memcpy(p, old, elem * len);
    *cap = new_cap;
    return p;
}

void js_array_push(js_doc *doc, js_value *arr, js_value *item)
{
    if (arr->u.arr.len == arr->u.arr.cap)
        arr->u.arr.items = js_grow(doc, arr->u.arr.items, sizeof(js_value *), arr->u.arr.len,
                                   &arr->u.arr.cap);
    arr->u.arr.items[arr->u.arr.len++] = item;
}

js_value *js_array_get(const js_value *arr, size_t i)
{
    if (!arr || arr->type != JS_ARRAY || i >= arr->u.arr.len)
        return NULL;
    return arr->u.arr.items[i];
}

/* ---- object index ------------------------------------------------------- */

static uint64_t js_key_hash(const char *key, size_t len)
{
    return nw_hash_bytes(NW_HASH_INIT, key, len);
}

static int js_key_equal(const js_member *m, const char *key, size_t len)
{
    return m->key_len == len && memcmp(m->key, key, len) == 0;
}

static void js_index_insert(js_value *obj, size_t member)
{
    size_t mask = obj->u.obj.index_cap - 1;
    const js_member *m = &obj->u.obj.members[member];
    size_t slot = (size_t)js_key_hash(m->key, m->key_len) & mask;
    while (obj->u.obj.index[slot])
        slot = (slot + 1) & mask;
    obj->u.obj.index[slot] = (uint32_t)member + 1;
}

static void js_index_rebuild(js_doc *doc, js_value *obj)
{
    size_t cap = 16;
    while (cap < obj->u.obj.len * 2)
        cap *= 2;
    obj->u.obj.index = js_doc_alloc(doc, sizeof(uint32_t) * cap);
    memset(obj->u.obj.index, 0, sizeof(uint32_t) * cap);
    obj->u.obj.index_cap = cap;
    for (size_t i = 0; i < obj->u.obj.len; i++)
        js_index_insert(obj, i);
}

/* The member number of key, or -1. */
static long js_find_member(const js_value *obj, const char *key, size_t len)
{
    if (!obj->u.obj.index) {
        for (size_t i = 0; i < obj->u.obj.len; i++) {
            if (js_key_equal(&obj->u.obj.members[i], key, len))
                return (long)i;
        }
        return -1;
    }
    size_t mask = obj->u.obj.index_cap - 1;
    for (size_t slot = (size_t)js_key_hash(key, len) & mask; obj->u.obj.index[slot];
         slot = (slot + 1) & mask) {
        size_t i = obj->u.obj.index[slot] - 1;
        if (js_key_equal(&obj->u.obj.members[i], key, len))
            return (long)i;
    }
    return -1;
}

void js_object_set(js_doc *doc, js_value *obj, const char *key, size_t key_len, js_value *value)
{
    long found = js_find_member(obj, key, key_len);
    if (found >= 0) {
        obj->u.obj.members[found].value = value;
        return;
    }
    if (obj->u.obj.len == obj->u.obj.cap)
        obj->u.obj.members = js_grow(doc, obj->u.obj.members, sizeof(js_member), obj->u.obj.len,
                                     &obj->u.obj.cap);
    js_member *m = &obj->u.obj.members[obj->u.obj.len++];
    char *copy = js_doc_alloc(doc, key_len + 1);
    memcpy(copy, key, key_len);
    copy[key_len] = '\0';
    m->key = copy;
    m->key_len = key_len;
    m->value = value;
    if (obj->u.obj.len > JS_INDEX_FROM &&
        (!obj->u.obj.index || obj->u.obj.len * 2 > obj->u.obj.index_cap))
        js_index_rebuild(doc, obj);
    else if (obj->u.obj.index)
        js_index_insert(obj, obj->u.obj.len - 1);
}

js_value *js_object_get(const js_value *obj, const char *key)
{
    if (!obj || obj->type != JS_OBJECT)
        return NULL;
    long i = js_find_member(obj, key, strlen(key));
    return i < 0 ? NULL : obj->u.obj.members[i].value;
}

/* ---- equality and sorting -------------------------------------------------- */

static int js_objects_equal(const js_value *a, const js_value *b)
{
    if (a->u.obj.len != b->u.obj.len)
        return 0;
    for (size_t i = 0; i < a->u.obj.len; i++) {
        const js_member *m = &a->u.obj.members[i];
        long j = js_find_member(b, m->key, m->key_len);
        if (j < 0 || !js_equal(m->value, b->u.obj.members[j].value))
            return 0;
    }
    return 1;
}

int js_equal(const js_value *a, const js_value *b)
{
    if (a->type != b->type)
        return 0;
    switch (a->type) {
    case JS_NUMBER: return a->u.num.mant == b->u.num.mant && a->u.num.exp == b->u.num.exp;
    case JS_STRING:
        return a->u.str.len == b->u.str.len &&
               memcmp(a->u.str.chars, b->u.str.chars, a->u.str.len) == 0;
    case JS_ARRAY:
        if (a->u.arr.len != b->u.arr.len)
            return 0;
        for (size_t i = 0; i < a->u.arr.len; i++) {
            if (!js_equal(a->u.arr.items[i], b->u.arr.items[i]))
                return 0;
        }
        return 1;
    case JS_OBJECT: return js_objects_equal(a, b);
    default: return 1;
    }
}

static int js_key_compare(const js_member *a, const js_member *b)
{
    size_t n = a->key_len < b->key_len ? a->key_len : b->key_len;
    int c = memcmp(a->key, b->key, n);
    if (c)
        return c;
    return a->key_len < b->key_len ? -1 : a->key_len > b->key_len;
}

/* Top-down merge sort through a scratch array: stable, n log n. */
static void js_merge_sort(js_member *m, js_member *tmp, size_t n)
{
    if (n < 2)
        return;
    size_t half = n / 2;
    js_merge_sort(m, tmp, half);
    js_merge_sort(m + half, tmp, n - half);
    size_t i = 0, j = half, k = 0;
    while (i < half && j < n)
        tmp[k++] = js_key_compare(&m[j], &m[i]) < 0 ? m[j++] : m[i++];
    while (i < half)
        tmp[k++] = m[i++];
    while (j < n)
        tmp[k++] = m[j++];
    memcpy(m, tmp, sizeof(js_member) * n);
}

void js_sort_keys(js_doc *doc, js_value *v)
{
    if (v->type == JS_ARRAY) {
        for (size_t i = 0; i < v->u.arr.len; i++)
            js_sort_keys(doc, v->u.arr.items[i]);
        return;
    }
    if (v->type != JS_OBJECT)
        return;
    for (size_t i = 0; i < v->u.obj.len; i++)
        js_sort_keys(doc, v->u.obj.members[i].value);
    if (v->u.obj.len < 2)
        return;
    js_member *tmp = js_doc_alloc(doc, sizeof(js_member) * v->u.obj.len);
    js_merge_sort(v->u.obj.members, tmp, v->u.obj.len);
    if (v->u.obj.index)
        js_index_rebuild(doc, v);
}
