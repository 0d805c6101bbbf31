/* `lowprof export --format folded` and `folded-calls`: folded stacks for
 * flame-graph tools (flamegraph.pl, speedscope, inferno).
 *
 * With a context profile (--profile context) every line is a whole calling
 * context, "root;...;leaf N", weighted by the instructions executed in the
 * leaf function itself (folded) or by the calls into that context
 * (folded-calls): the flame graph of where the run's instructions went, or
 * of who calls whom how often, along full stacks.
 *
 * Without one, lowprof has call pairs, not whole stacks, so folded writes
 * every line two frames deep, "caller;callee CALLS", weighted by the number
 * of calls from caller to callee (summed over call sites). That picture is
 * a call-count map of who calls whom, not a time profile of full stacks. */
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

typedef struct folded_pair {
    const char *caller, *callee;
    uint64_t calls;
} folded_pair;

static int folded_cmp(const void *x, const void *y)
{
    const folded_pair *a = x, *b = y;
    int c = strcmp(a->caller, b->caller);
    return c ? c : strcmp(a->callee, b->callee);
}

/* name, as folded stacks carry it. */
static void folded_frame(lp_out *o, const char *name)
{
    for (const char *p = name; *p; p++) {
        char c = lp__folded_char(*p);
        lp_outn(o, &c, 1);
    }
}

/* Full stacks from the context profile; LP_ENOENT without one. */
static int folded_contexts(const lp_profile_set *s, lp_names *nm, lp_out *o, int calls)
{
    lp__context_tree t;
    int rc = lp__context_tree_build(s, nm, &t);
    if (rc)
        return rc;
    lp__context_stack *st;
    size_t n;
    rc = lp__context_stacks(&t, calls, &st, &n);
    for (size_t i = 0; rc == 0 && i < n && !o->err; i++)
        lp_outf(o, "%s %llu\n", st[i].text, (unsigned long long)st[i].weight);
    if (rc == 0)
        lp__context_stacks_free(st, n);
    lp__context_tree_fini(&t);
    return rc ? rc : o->err;
}

int lp__export_folded_calls(const char *source, const lp_profile_set *s, lp_names *nm,
                            lp_out *o)
{
    (void)source;
    return folded_contexts(s, nm, o, 1);
}

int lp__export_folded(const char *source, const lp_profile_set *s, lp_names *nm, lp_out *o)
{
    (void)source;
    int rc = folded_contexts(s, nm, o, 0);
    if (rc != LP_ENOENT)
        return rc;
    lp_report_view v;
    rc = lp_report_view_build(s, LP_PROF_CALL_PAIR, LP_PHASE_NONE, &v);
    if (rc)
        return rc;
    if (v.merged == 0) {
        lp_report_view_fini(&v);
        return LP_ENOENT;
    }
    folded_pair *pairs = malloc((v.count ? v.count : 1) * sizeof *pairs);
    if (!pairs) {
        lp_report_view_fini(&v);
        return LP_ENOMEM;
    }
    size_t n = 0;
    for (size_t i = 0; i < v.count; i++) {
        const lp_entry *e = &v.entries[i];
        if (e->v[0] == 0)
            continue;
        pairs[n].caller = lp_names_group(nm, e->key.a, NULL);
        pairs[n].callee = lp_names_group(nm, e->key.b, NULL);
        pairs[n].calls = e->v[0];
        n++;
    }
    lp_report_view_fini(&v);
    qsort(pairs, n, sizeof *pairs, folded_cmp);
    for (size_t i = 0; i < n && !o->err;) {
        folded_pair p = pairs[i++];
        while (i < n && folded_cmp(&p, &pairs[i]) == 0)
            p.calls += pairs[i++].calls;
        /* Spaces in a frame are fine: the count is after the last one. */
        folded_frame(o, p.caller);
        lp_outs(o, ";");
        folded_frame(o, p.callee);
        lp_outf(o, " %llu\n", (unsigned long long)p.calls);
    }
    free(pairs);
    return o->err;
}
