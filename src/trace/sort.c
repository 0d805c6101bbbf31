/* Sorting without libc (no qsort in the Valgrind tool). Heap sort: in
 * place, O(n log n) worst case whatever the input, no recursion, so a
 * hostile or unlucky table cannot blow the stack or go quadratic. Used to
 * put profile entries and interval entries in key order before writing,
 * which is what makes output deterministic. */
#include "trace_internal.h"

static void sift_entries(lp_entry *e, size_t root, size_t n)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n)
            return;
        if (child + 1 < n && lp__key_less(e[child].key, e[child + 1].key))
            child++;
        if (!lp__key_less(e[root].key, e[child].key))
            return;
        lp_entry t = e[root];
        e[root] = e[child];
        e[child] = t;
        root = child;
    }
}

void lp__sort_entries(lp_entry *e, size_t n)
{
    if (n < 2)
        return;
    for (size_t i = n / 2; i-- > 0;)
        sift_entries(e, i, n);
    for (size_t end = n - 1; end > 0; end--) {
        lp_entry t = e[0];
        e[0] = e[end];
        e[end] = t;
        sift_entries(e, 0, end);
    }
}

int lp__table_sorted(const lp_table *t, lp_entry **out)
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
    lp__sort_entries(e, n);
    *out = e;
    return 0;
}
