/* json: the generated documents. Shaped like an API response from a shop
 * (metadata, items, users, an index), with random nested extras so that no
 * two items have quite the same shape, and strings that exercise escapes
 * and multi-byte UTF-8. */
#include "json.h"

#include <stdio.h>
#include <string.h>

static const char *const js_syllables[] = {
    "ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po", "qu", "dra",
    "fen", "gor", "hil", "jun", "ber", "cas", "del", "ost", "ush", "wyn",
};
static const char *const js_tags[] = {
    "new", "sale", "eco", "kids", "garden", "tools", "kitchen", "outdoor", "gift", "bulk",
};
static const char *const js_specials[] = {
    "say \"hi\"", "back\\slash", "line\nbreak", "tab\there", "bell\x01", "caf\xc3\xa9",
    "na\xc3\xafve", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", "smile \xf0\x9f\x98\x80",
    "\xe2\x82\xac 12", "slash/ok",
};

#define JS_COUNT(a) (sizeof(a) / sizeof((a)[0]))

typedef struct js_gen {
    js_doc *doc;
    nw_rng rng;
} js_gen;

static uint32_t js_pick(js_gen *g, uint32_t n)
{
    return nw_rng_below(&g->rng, n);
}

static js_value *js_words(js_gen *g, int min_words, int max_words)
{
    char buf[256];
    size_t len = 0;
    int words = min_words + (int)js_pick(g, (uint32_t)(max_words - min_words + 1));
    for (int w = 0; w < words; w++) {
        if (w)
            buf[len++] = ' ';
        int syl = 1 + (int)js_pick(g, 3);
        for (int s = 0; s < syl; s++) {
            const char *part = js_syllables[js_pick(g, JS_COUNT(js_syllables))];
            size_t n = strlen(part);
            memcpy(buf + len, part, n);
            len += n;
        }
    }
    if (js_pick(g, 6) == 0) {
        const char *sp = js_specials[js_pick(g, JS_COUNT(js_specials))];
        size_t n = strlen(sp);
        buf[len++] = ' ';
        memcpy(buf + len, sp, n);
        len += n;
    }
    return js_new_string(g->doc, buf, len);
}

static void js_set(js_gen *g, js_value *obj, const char *key, js_value *v)
{
    js_object_set(g->doc, obj, key, strlen(key), v);
}

static js_value *js_int(js_gen *g, int64_t v)
{
    return js_new_number(g->doc, v, 0);
}

/* A number of any form: integer, decimal, tiny, huge, negative. */
static js_value *js_any_number(js_gen *g)
{
    uint64_t bits = nw_rng_next(&g->rng);
    int64_t mant = (int64_t)(bits >> (12 + js_pick(g, 40)));
    if (js_pick(g, 4) == 0)
        mant = -mant;
    static const int32_t exps[] = {0, 0, 0, -1, -2, -3, -7, 5, -30, 40, 300, -300};
    return js_new_number(g->doc, mant, exps[js_pick(g, JS_COUNT(exps))]);
}

static js_value *js_any(js_gen *g, int depth)
{
    uint32_t kind = js_pick(g, depth > 0 ? 8 : 6);
    switch (kind) {
    case 0: return js_new(g->doc, JS_NULL);
    case 1: return js_new(g->doc, js_pick(g, 2) ? JS_TRUE : JS_FALSE);
    case 2:
    case 3: return js_any_number(g);
    case 4:
    case 5: return js_words(g, 1, 4);
    case 6: {
        js_value *arr = js_new(g->doc, JS_ARRAY);
        int n = (int)js_pick(g, 6);
        for (int i = 0; i < n; i++)
            js_array_push(g->doc, arr, js_any(g, depth - 1));
        return arr;
    }
    default: {
        js_value *obj = js_new(g->doc, JS_OBJECT);
        int n = (int)js_pick(g, 6);
        for (int i = 0; i < n; i++) {
            /* Two draws in two statements: the order of evaluation of
             * function arguments is unspecified. */
            char key[16];
            const char *stem = js_syllables[js_pick(g, JS_COUNT(js_syllables))];
            snprintf(key, sizeof key, "%s%u", stem, js_pick(g, 10));
            js_set(g, obj, key, js_any(g, depth - 1));
        }
        return obj;
    }
    }
}

static js_value *js_meta(js_gen *g, uint64_t seed)
{
    js_value *meta = js_new(g->doc, JS_OBJECT);
    js_set(g, meta, "version", js_int(g, 3));
    js_set(g, meta, "seed", js_int(g, (int64_t)(seed & 0xffffffff)));
    js_set(g, meta, "source", js_new_string(g->doc, "lowprof native suite", 20));
    js_set(g, meta, "ratio", js_new_number(g->doc, 75, -2));
    js_set(g, meta, "huge", js_new_number(g->doc, 15, 299));
    js_set(g, meta, "tiny", js_new_number(g->doc, -25, -13));
    js_value *flags = js_new(g->doc, JS_ARRAY);
    js_array_push(g->doc, flags, js_new(g->doc, JS_TRUE));
    js_array_push(g->doc, flags, js_new(g->doc, JS_FALSE));
    js_array_push(g->doc, flags, js_new(g->doc, JS_NULL));
    js_set(g, meta, "flags", flags);
    return meta;
}

static js_value *js_item(js_gen *g, int id)
{
    js_value *item = js_new(g->doc, JS_OBJECT);
    char sku[24];
    snprintf(sku, sizeof sku, "SKU-%05d", id * 37 % 100000);
    js_set(g, item, "id", js_int(g, id));
    js_set(g, item, "sku", js_new_string(g->doc, sku, strlen(sku)));
    js_set(g, item, "name", js_words(g, 1, 3));
    js_set(g, item, "price", js_new_number(g->doc, 99 + js_pick(g, 99900), -2));
    js_set(g, item, "qty", js_int(g, 1 + js_pick(g, 20)));
    js_value *tags = js_new(g->doc, JS_ARRAY);
    int n_tags = (int)js_pick(g, 5);
    for (int t = 0; t < n_tags; t++) {
        const char *tag = js_tags[js_pick(g, JS_COUNT(js_tags))];
        js_array_push(g->doc, tags, js_new_string(g->doc, tag, strlen(tag)));
    }
    js_set(g, item, "tags", tags);
    js_set(g, item, "in_stock", js_new(g->doc, js_pick(g, 5) ? JS_TRUE : JS_FALSE));
    js_value *dims = js_new(g->doc, JS_OBJECT);
    js_set(g, dims, "w", js_new_number(g->doc, 1 + js_pick(g, 2000), -1));
    js_set(g, dims, "h", js_new_number(g->doc, 1 + js_pick(g, 2000), -1));
    js_set(g, dims, "d", js_new_number(g->doc, 1 + js_pick(g, 2000), -1));
    js_set(g, item, "dims", dims);
    if (js_pick(g, 3) == 0)
        js_set(g, item, "notes", js_words(g, 3, 12));
    js_set(g, item, "extra", js_any(g, 4));
    return item;
}

static js_value *js_user(js_gen *g, int id, int n_items)
{
    js_value *user = js_new(g->doc, JS_OBJECT);
    js_set(g, user, "name", js_words(g, 2, 2));
    char email[32];
    snprintf(email, sizeof email, "user%d@example.org", id);
    js_set(g, user, "email", js_new_string(g->doc, email, strlen(email)));
    js_set(g, user, "age", js_int(g, 18 + js_pick(g, 70)));
    js_value *addr = js_new(g->doc, JS_OBJECT);
    js_set(g, addr, "street", js_words(g, 2, 3));
    js_set(g, addr, "city", js_words(g, 1, 1));
    js_set(g, addr, "zip", js_int(g, 10000 + js_pick(g, 89999)));
    js_set(g, user, "address", addr);
    js_value *orders = js_new(g->doc, JS_ARRAY);
    int n = (int)js_pick(g, 8);
    for (int i = 0; i < n; i++)
        js_array_push(g->doc, orders, js_int(g, js_pick(g, (uint32_t)n_items)));
    js_set(g, user, "orders", orders);
    return user;
}

js_value *js_generate(js_doc *doc, uint64_t seed, int n_items)
{
    js_gen g;
    g.doc = doc;
    nw_rng_seed(&g.rng, seed);
    js_value *root = js_new(doc, JS_OBJECT);
    js_set(&g, root, "meta", js_meta(&g, seed));
    js_value *items = js_new(doc, JS_ARRAY);
    js_value *index = js_new(doc, JS_OBJECT);
    for (int i = 0; i < n_items; i++) {
        js_value *item = js_item(&g, i);
        js_array_push(doc, items, item);
        const js_value *sku = js_object_get(item, "sku");
        js_object_set(doc, index, sku->u.str.chars, sku->u.str.len, js_int(&g, i));
    }
    js_set(&g, root, "items", items);
    js_value *users = js_new(doc, JS_ARRAY);
    for (int u = 0; u < n_items / 4 + 1; u++)
        js_array_push(doc, users, js_user(&g, u, n_items));
    js_set(&g, root, "users", users);
    js_set(&g, root, "index", index);
    return root;
}
