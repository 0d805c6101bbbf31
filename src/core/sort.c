/* Sorting table entries without libc (no qsort in the Valgrind tool). Heap
 * sort: in place, O(n log n) worst case whatever the input, no recursion, so
 * a hostile or unlucky table cannot blow the stack or go quadratic. Writers
 * sort by key to make output deterministic; metrics sort by count to find the
 * hot set. */
#include "lowprof/core.h"

int lp_entry_key_less(const lp_entry *x, const lp_entry *y)
{
    return x->key.a < y->key.a || (x->key.a == y->key.a && x->key.b < y->key.b);
}

int lp_entry_count_greater(const lp_entry *x, const lp_entry *y)
{
    if (x->v[0] != y->v[0])
        return x->v[0] > y->v[0];
    return lp_entry_key_less(x, y);
}

static void sift_entries(lp_entry *e, size_t root, size_t n, lp_entry_order before)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n)
            return;
        if (child + 1 < n && before(&e[child], &e[child + 1]))
            child++;
        if (!before(&e[root], &e[child]))
            return;
        lp_entry t = e[root];
        e[root] = e[child];
        e[child] = t;
        root = child;
    }
}

void lp_entries_sort(lp_entry *e, size_t n, lp_entry_order before)
{
    if (n < 2)
        return;
    for (size_t i = n / 2; i-- > 0;)
        sift_entries(e, i, n, before);
    for (size_t end = n - 1; end > 0; end--) {
        lp_entry t = e[0];
        e[0] = e[end];
        e[end] = t;
        sift_entries(e, 0, end, before);
    }
}

int lp_table_sorted(const lp_table *t, lp_entry_order before, lp_entry **out)
{
    *out = NULL;
    if (!t->count)
        return 0;
    lp_entry *e = lp_calloc(t->count, sizeof *e);
    if (!e)
        return LP_ENOMEM;
    size_t cursor = 0, n = 0;
    const lp_entry *src;
    while ((src = lp_table_next(t, &cursor)) != NULL && n < t->count)
        e[n++] = *src;
    lp_entries_sort(e, n, before);
    *out = e;
    return 0;
}
