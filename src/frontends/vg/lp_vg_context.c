/* The calling-context profile (--profile context): one record per calling
 * context, found from its parent and the function entered, and the
 * whole-run LP_PROF_CONTEXT profile written from them at the end.
 *
 * Each shadow-stack frame points at its context record (lp_vg_run.c), so
 * the per-block work is one addition to the running frame's record; a hash
 * look-up happens only when a call or tail call enters a context. Records
 * never move (sites and frames keep pointers), like the tool's other
 * per-key records. Contexts are whole-run: not per interval, not sampled. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"

#include "lp_vg.h"

Bool lp_vg_ctx_on;
static lp_table lp_vg_ctx_tab; /* context id -> record address */

void lp_vg_context_init(void)
{
    lp_vg_ctx_on = (lp_vg_clo_types & (1u << LP_PROF_CONTEXT)) != 0;
    if (lp_vg_ctx_on)
        lp_table_init(&lp_vg_ctx_tab, 1024);
}

/* Direct self-recursion is folded: a function that calls itself stays in
 * the caller's context, so a recursive program keeps a tree as deep as its
 * distinct callers rather than as its recursion. Mutual recursion (f calls
 * g calls f) is not folded: each level is a context of its own. */
lp_vg_context *lp_vg_ctx_child(lp_vg_context *parent, ULong entry)
{
    if (!lp_vg_ctx_on)
        return NULL;
    if (parent && parent->entry == entry)
        return parent;
    ULong pid = parent ? parent->id : 0;
    ULong id = lp_context_id(pid, entry);
    lp_entry *e = lp_table_upsert(&lp_vg_ctx_tab, (lp_key){id, 0});
    if (!e)
        VG_(tool_panic)((HChar *)"lowprof: out of memory for calling contexts");
    if (!e->v[0]) {
        lp_vg_context *c = VG_(calloc)("lp.ctx", 1, sizeof *c);
        c->id = id;
        c->entry = entry;
        c->parent = parent;
        e->v[0] = (ULong)(Addr)c;
    }
    return (lp_vg_context *)(Addr)e->v[0];
}

lp_vg_context *lp_vg_ctx_sibling(lp_vg_context *c, ULong entry)
{
    return lp_vg_ctx_child(c ? c->parent : NULL, entry);
}

void lp_vg_context_finish(lp_profile_set *set)
{
    if (!lp_vg_ctx_on)
        return;
    lp_profile *p = lp_profile_set_find(set, LP_PROF_CONTEXT, LP_PHASE_NONE);
    if (!p && lp_profile_set_add(set, LP_PROF_CONTEXT, LP_PHASE_NONE, &p) != 0)
        return;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(&lp_vg_ctx_tab, &cur)) != NULL) {
        const lp_vg_context *c = (const lp_vg_context *)(Addr)e->v[0];
        /* Contexts entered only while the builders were off keep their
         * place: a counted descendant needs its parent to be found. */
        lp_entry *d = lp_table_upsert(&p->table, (lp_key){c->parent ? c->parent->id : 0, c->entry});
        if (!d)
            VG_(tool_panic)((HChar *)"lowprof: out of memory writing calling contexts");
        d->v[0] += c->calls;
        d->v[1] += c->self;
    }
}
