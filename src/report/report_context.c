/* The report's section for a calling-context profile: the contexts with
 * the most self instructions, each shown by its last frames.
 *
 * The whole tree belongs in a flame graph (lowprof export --format folded
 * or speedscope); here a context is found by its id (lp_context_id of its
 * key) and shown as its innermost few functions with its depth. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_internal.h"

#define LP__CONTEXT_SHOWN_FRAMES 4

int lp__report_contexts(lp_names *nm, const lp_report_view *v, const lp_report_opts *o,
                        const lp_meta *m)
{
    /* The native runtime's contexts come from PC samples: no calls, and a
     * sample count where the Valgrind tool counts instructions. */
    const char *self = lp_meta_get(m, "context-weight") ? "self samples" : "self instructions";
    lp__report_row *rows = calloc(v->count ? v->count : 1, sizeof *rows);
    lp_table by_id;
    if (!rows || lp_table_init(&by_id, v->count) != 0) {
        free(rows);
        return LP_ENOMEM;
    }
    uint64_t total = 0;
    for (size_t i = 0; i < v->count; i++) {
        const lp_entry *e = &v->entries[i];
        rows[i] = (lp__report_row){e->key.a, e->key.b, e->v[0], e->v[1], 0, e->v[1]};
        total += e->v[1];
        lp_entry *s = lp_table_upsert(&by_id, (lp_key){lp_context_id(e->key.a, e->key.b), 0});
        if (s)
            s->v[0] = i + 1;
    }
    qsort(rows, v->count, sizeof *rows, lp__report_row_cmp);
    char c1[32], c2[32], what[160], pct[16], name[1024];
    snprintf(what, sizeof what, "%s contexts, %s %s", lp_fmt_count(v->count, c2),
             lp_fmt_count(total, c1), self);
    lp__report_heading("Calling contexts", what, o, v->count, v);
    if (v->count == 0) {
        lp__report_none("contexts");
        lp_table_fini(&by_id);
        free(rows);
        return 0;
    }
    const char *heading[] = {self, "%", "calls", "depth", "context (innermost last)"};
    lp_tab t;
    lp_tab_init(&t, "rrrrl", heading);
    for (size_t i = 0, n = lp__report_shown(o, v->count); i < n; i++) {
        const lp__report_row *r = &rows[i];
        /* Walk up to the root for the depth, keeping the innermost frames;
         * the walk stops after as many steps as there are contexts, which
         * only a cycle in a crafted file could exceed. */
        uint64_t frames[LP__CONTEXT_SHOWN_FRAMES];
        size_t depth = 0;
        uint64_t parent = r->a, entry = r->b;
        for (;;) {
            if (depth < LP__CONTEXT_SHOWN_FRAMES)
                frames[depth] = entry;
            depth++;
            const lp_entry *p = parent ? lp_table_find(&by_id, (lp_key){parent, 0}) : NULL;
            if (!p || depth > v->count)
                break;
            const lp_entry *pe = &v->entries[p->v[0] - 1];
            parent = pe->key.a;
            entry = pe->key.b;
        }
        char stack[4096];
        size_t len = 0, k = depth < LP__CONTEXT_SHOWN_FRAMES ? depth : LP__CONTEXT_SHOWN_FRAMES;
        stack[0] = '\0';
        if (depth > k)
            len += (size_t)snprintf(stack, sizeof stack, "…;");
        while (k-- > 0 && len < sizeof stack) {
            lp_names_function(nm, frames[k], name, sizeof name);
            len += (size_t)snprintf(stack + len, sizeof stack - len, "%s%s", name, k ? ";" : "");
        }
        lp_tab_cell(&t, "%s", lp_fmt_count(r->v1, c1));
        lp_tab_cell(&t, "%s", lp_fmt_percent(r->v1, total, pct));
        lp_tab_cell(&t, "%s", lp_fmt_count(r->v0, c2));
        lp_tab_cell(&t, "%zu", depth);
        lp_tab_cell(&t, "%s", stack);
    }
    lp_tab_print(&t, stdout, 2);
    lp_tab_fini(&t);
    lp_table_fini(&by_id);
    free(rows);
    return 0;
}
