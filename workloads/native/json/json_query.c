/* json: what a program does with a parsed document: walk it for
 * statistics, follow paths, and compute a few aggregates over items. */
#include "json.h"

#include <stdlib.h>
#include <string.h>

static void js_walk_depth(const js_value *v, js_stats *st, uint64_t depth)
{
    st->counts[v->type]++;
    if (depth > st->max_depth)
        st->max_depth = depth;
    switch (v->type) {
    case JS_NUMBER:
        st->number_hash = nw_hash_u64(st->number_hash, (uint64_t)v->u.num.mant);
        st->number_hash = nw_hash_u64(st->number_hash, (uint64_t)(int64_t)v->u.num.exp);
        break;
    case JS_STRING: st->string_bytes += v->u.str.len; break;
    case JS_ARRAY:
        for (size_t i = 0; i < v->u.arr.len; i++)
            js_walk_depth(v->u.arr.items[i], st, depth + 1);
        break;
    case JS_OBJECT:
        for (size_t i = 0; i < v->u.obj.len; i++) {
            st->string_bytes += v->u.obj.members[i].key_len;
            js_walk_depth(v->u.obj.members[i].value, st, depth + 1);
        }
        break;
    default: break;
    }
}

void js_walk(const js_value *v, js_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    stats->number_hash = NW_HASH_INIT;
    js_walk_depth(v, stats, 1);
}

/* One step of a path: a member name up to '.', '[' or the end, or an
 * index in brackets. Returns the rest of the path, or NULL on a bad path. */
static const char *js_path_step(const js_value **cur, const char *path)
{
    if (*path == '[') {
        char *end;
        unsigned long i = strtoul(path + 1, &end, 10);
        if (end == path + 1 || *end != ']')
            return NULL;
        *cur = js_array_get(*cur, i);
        return end + 1;
    }
    char key[64];
    size_t n = 0;
    while (path[n] && path[n] != '.' && path[n] != '[') {
        if (n + 1 >= sizeof key)
            return NULL;
        key[n] = path[n];
        n++;
    }
    key[n] = '\0';
    *cur = js_object_get(*cur, key);
    return path + n;
}

const js_value *js_query(const js_value *root, const char *path)
{
    const js_value *cur = root;
    while (cur && *path) {
        if (*path == '.')
            path++;
        path = js_path_step(&cur, path);
        if (!path)
            return NULL;
    }
    return cur;
}

/* A number in hundredths, or -1 when it has finer precision. */
static int64_t js_hundredths(const js_value *v)
{
    if (!v || v->type != JS_NUMBER || v->u.num.exp < -2 || v->u.num.exp > 10)
        return -1;
    int64_t x = v->u.num.mant;
    for (int32_t e = v->u.num.exp; e > -2; e--)
        x *= 10;
    return x;
}

int64_t js_order_total(const js_value *root)
{
    const js_value *items = js_object_get(root, "items");
    if (!items || items->type != JS_ARRAY)
        return -1;
    int64_t total = 0;
    for (size_t i = 0; i < items->u.arr.len; i++) {
        const js_value *item = items->u.arr.items[i];
        int64_t price = js_hundredths(js_object_get(item, "price"));
        const js_value *qty = js_object_get(item, "qty");
        if (price < 0 || !qty || qty->type != JS_NUMBER || qty->u.num.exp != 0)
            return -1;
        const js_value *stock = js_object_get(item, "in_stock");
        if (stock && stock->type == JS_TRUE)
            total += price * qty->u.num.mant;
    }
    return total;
}

size_t js_count_tag(const js_value *root, const char *tag)
{
    const js_value *items = js_object_get(root, "items");
    size_t count = 0, n = strlen(tag);
    for (size_t i = 0; items && i < items->u.arr.len; i++) {
        const js_value *tags = js_object_get(items->u.arr.items[i], "tags");
        for (size_t t = 0; tags && t < tags->u.arr.len; t++) {
            const js_value *s = tags->u.arr.items[t];
            if (s->type == JS_STRING && s->u.str.len == n && memcmp(s->u.str.chars, tag, n) == 0) {
                count++;
                break;
            }
        }
    }
    return count;
}
