/* The calling-context tree rebuilt from an LP_PROF_CONTEXT profile, for
 * the exports that draw whole stacks (folded, speedscope).
 *
 * A context's key is (parent's id, function entry) and its id is
 * lp_context_id of that key, so the tree needs nothing but the keys: each
 * entry finds its parent by id. A parent id of 0 marks a root (a thread's
 * first function); a parent id that no entry has (a damaged or hand-made
 * file) makes its context a root too, so every count stays in the output. */
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

static char *copy_name(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    return c ? memcpy(c, s, n) : NULL;
}

void lp__context_tree_fini(lp__context_tree *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->count; i++)
        free(t->nodes[i].name);
    free(t->nodes);
    memset(t, 0, sizeof *t);
}

int lp__context_tree_build(const lp_profile_set *s, lp_names *nm, lp__context_tree *out)
{
    memset(out, 0, sizeof *out);
    lp_report_view v;
    int rc = lp_report_view_build(s, LP_PROF_CONTEXT, LP_PHASE_NONE, &v);
    if (rc)
        return rc;
    if (v.merged == 0) {
        lp_report_view_fini(&v);
        return LP_ENOENT;
    }
    lp_table by_id;
    out->nodes = calloc(v.count ? v.count : 1, sizeof *out->nodes);
    if (!out->nodes || lp_table_init(&by_id, v.count) != 0) {
        free(out->nodes);
        out->nodes = NULL;
        lp_report_view_fini(&v);
        return LP_ENOMEM;
    }
    char buf[1024];
    for (size_t i = 0; i < v.count && !rc; i++) {
        const lp_entry *e = &v.entries[i];
        lp__context_node *n = &out->nodes[out->count];
        n->id = lp_context_id(e->key.a, e->key.b);
        n->parent_id = e->key.a;
        n->entry = e->key.b;
        n->calls = e->v[0];
        n->self = e->v[1];
        n->parent = SIZE_MAX;
        n->name = copy_name(lp_names_function(nm, e->key.b, buf, sizeof buf));
        lp_entry *slot = lp_table_upsert(&by_id, (lp_key){n->id, 0});
        if (!n->name || !slot) {
            free(n->name);
            rc = LP_ENOMEM;
            break;
        }
        slot->v[0] = out->count + 1; /* a later duplicate id would win: ids are unique hashes */
        out->count++;
    }
    for (size_t i = 0; i < out->count && !rc; i++) {
        lp__context_node *n = &out->nodes[i];
        const lp_entry *p = n->parent_id ? lp_table_find(&by_id, (lp_key){n->parent_id, 0}) : NULL;
        if (p && p->v[0] - 1 != i)
            n->parent = (size_t)(p->v[0] - 1);
    }
    lp_table_fini(&by_id);
    lp_report_view_fini(&v);
    if (rc)
        lp__context_tree_fini(out);
    return rc;
}

size_t lp__context_path(const lp__context_tree *t, size_t i, size_t *path)
{
    size_t depth = 0;
    /* A chain longer than the tree has nodes can only be a cycle (ids that
     * a crafted file made point at each other): it is cut there. */
    for (size_t k = i; k != SIZE_MAX && depth < t->count; k = t->nodes[k].parent)
        path[depth++] = k;
    for (size_t a = 0, b = depth; a + 1 < b; a++, b--) {
        size_t x = path[a];
        path[a] = path[b - 1];
        path[b - 1] = x;
    }
    return depth;
}

/* name into dst at *len, as folded stacks carry it. */
static void stack_frame(char *dst, size_t *len, const char *name)
{
    for (const char *p = name; *p; p++)
        dst[(*len)++] = lp__folded_char(*p);
}

static int stack_cmp(const void *x, const void *y)
{
    const lp__context_stack *a = x, *b = y;
    return strcmp(a->text, b->text);
}

void lp__context_stacks_free(lp__context_stack *st, size_t n)
{
    for (size_t i = 0; st && i < n; i++)
        free(st[i].text);
    free(st);
}

int lp__context_stacks(const lp__context_tree *t, int calls, lp__context_stack **out,
                       size_t *out_count)
{
    *out = NULL;
    *out_count = 0;
    lp__context_stack *st = calloc(t->count ? t->count : 1, sizeof *st);
    size_t *path = malloc((t->count ? t->count : 1) * sizeof *path);
    if (!st || !path) {
        free(st);
        free(path);
        return LP_ENOMEM;
    }
    size_t n = 0;
    int rc = 0;
    for (size_t i = 0; i < t->count; i++) {
        uint64_t w = calls ? t->nodes[i].calls : t->nodes[i].self;
        if (w == 0)
            continue; /* drawn through its descendants, if any */
        size_t depth = lp__context_path(t, i, path), len = 0;
        for (size_t k = 0; k < depth; k++)
            len += strlen(t->nodes[path[k]].name) + 1;
        char *text = malloc(len + 1);
        if (!text) {
            rc = LP_ENOMEM;
            break;
        }
        len = 0;
        for (size_t k = 0; k < depth; k++) {
            if (k)
                text[len++] = ';';
            stack_frame(text, &len, t->nodes[path[k]].name);
        }
        text[len] = '\0';
        st[n].text = text;
        st[n].weight = w;
        st[n].node = i;
        n++;
    }
    free(path);
    if (rc) {
        lp__context_stacks_free(st, n);
        return rc;
    }
    qsort(st, n, sizeof *st, stack_cmp);
    /* Contexts that print the same (two functions of one name, or code
     * without symbols grouped under one name) become one stack. */
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && strcmp(st[m - 1].text, st[i].text) == 0) {
            st[m - 1].weight += st[i].weight;
            free(st[i].text);
        } else {
            st[m++] = st[i];
        }
    }
    *out = st;
    *out_count = m;
    return 0;
}
