/* analysis: the direct call graph of section 4.1 and bursty's analysis of
 * it. Per function, its call sites and the jumps that leave it:
 *
 *   - call rel32 into the file's code: the edge (f, g), g the function
 *     whose extent holds the target (usually its start);
 *   - call into a PLT section, or to code no function holds: an external
 *     call, no edge;
 *   - indirect call: no edge;
 *   - direct jump or conditional jump out of f's extent: a tail call, the
 *     edge (f, g) when it lands in the file's function g; jmp *x(%rip): an
 *     indirect tail call.
 *
 * A function with none of these is a leaf. Then lp_bursty_graph_analyse
 * gives the components, distances, recursion from below and the set C,
 * and the components that can recurse (more than one member, or a
 * self-loop) are listed. */
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"

static int lp__an_cmp_call(const void *x, const void *y)
{
    const lp_bursty_call *a = x, *b = y;
    if (a->caller != b->caller)
        return a->caller < b->caller ? -1 : 1;
    return a->callee < b->callee ? -1 : a->callee > b->callee;
}

/* Edges and call counts of every function. */
static int lp__an_calls(lp_analysis *a, lp__an_vec *edges)
{
    for (uint32_t i = 0; i < a->n_fns; i++) {
        lp_analysis_fn *f = &a->fns[i];
        const lp__an_fnx *x = &a->fnx[i];
        const lp__an_sec *s = &a->secs[x->sec];
        for (size_t k = x->i0; k < x->i1; k++) {
            const lp__an_insn *in = &s->insns[k];
            uint64_t t = lp__an_insn_target(s, in);
            uint32_t g = UINT32_MAX;
            switch (in->kind) {
            case LP__I_CALL:
                if (!lp__an_sec_at(a, t, LP__AN_PLT))
                    g = lp__an_fn_containing(a, t);
                if (g == UINT32_MAX)
                    f->external_calls++;
                else
                    f->direct_calls++;
                break;
            case LP__I_CALL_IND:
                f->indirect_calls++;
                break;
            case LP__I_JMP:
            case LP__I_JCC:
                if (t - f->addr < f->size)
                    continue; /* stays inside */
                f->tail_jumps++;
                if (!lp__an_sec_at(a, t, LP__AN_PLT))
                    g = lp__an_fn_containing(a, t);
                if (g == i)
                    g = UINT32_MAX;
                break;
            case LP__I_JMP_SLOT:
                f->tail_jumps++;
                break;
            default:
                continue;
            }
            if (g != UINT32_MAX) {
                lp_bursty_call *c = lp__an_push(edges);
                if (!c)
                    return LP_ENOMEM;
                c->caller = i;
                c->callee = g;
            }
        }
        if (!f->direct_calls && !f->external_calls && !f->indirect_calls && !f->tail_jumps) {
            f->flags |= LP_BURSTY_FN_LEAF;
            a->sum.leaves++;
        }
        a->sum.direct_calls += f->direct_calls;
        a->sum.external_calls += f->external_calls;
        a->sum.indirect_calls += f->indirect_calls;
        a->sum.tail_jumps += f->tail_jumps;
    }
    lp_bursty_call *c = edges->data;
    if (edges->count > 1)
        qsort(c, edges->count, sizeof *c, lp__an_cmp_call);
    size_t n = 0;
    for (size_t i = 0; i < edges->count; i++)
        if (!n || c[n - 1].caller != c[i].caller || c[n - 1].callee != c[i].callee)
            c[n++] = c[i];
    edges->count = n;
    return 0;
}

/* The components with more than one member or a self-loop, ordered by
 * their first member. */
static int lp__an_sccs(lp_analysis *a)
{
    uint32_t n = a->n_fns, nscc = 0;
    for (uint32_t i = 0; i < n; i++)
        if (a->fns[i].facts.scc + 1 > nscc)
            nscc = a->fns[i].facts.scc + 1;
    uint32_t *size = lp_calloc(nscc ? nscc : 1, sizeof *size);
    uint32_t *slot = lp_malloc((nscc ? nscc : 1) * sizeof *slot);
    uint8_t *self = lp_calloc(nscc ? nscc : 1, 1);
    if (!size || !slot || !self) {
        lp_free(size);
        lp_free(slot);
        lp_free(self);
        return LP_ENOMEM;
    }
    for (uint32_t i = 0; i < n; i++)
        size[a->fns[i].facts.scc]++;
    for (size_t e = 0; e < a->n_calls; e++)
        if (a->calls[e].caller == a->calls[e].callee)
            self[a->fns[a->calls[e].caller].facts.scc] = 1;
    uint32_t out = 0, members = 0;
    for (uint32_t c = 0; c < nscc; c++)
        slot[c] = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c = a->fns[i].facts.scc;
        if ((size[c] > 1 || self[c]) && slot[c] == UINT32_MAX) {
            slot[c] = out++;
            members += size[c];
        }
    }
    a->scc_first = lp_calloc(out + 1, sizeof *a->scc_first);
    a->scc_members = lp_malloc((members ? members : 1) * sizeof *a->scc_members);
    uint32_t *fill = lp_calloc(out ? out : 1, sizeof *fill);
    int rc = LP_ENOMEM;
    if (a->scc_first && a->scc_members && fill) {
        for (uint32_t c = 0; c < nscc; c++)
            if (slot[c] != UINT32_MAX)
                a->scc_first[slot[c] + 1] = size[c];
        for (uint32_t k = 0; k < out; k++)
            a->scc_first[k + 1] += a->scc_first[k];
        for (uint32_t i = 0; i < n; i++) {
            uint32_t k = slot[a->fns[i].facts.scc];
            if (k != UINT32_MAX)
                a->scc_members[a->scc_first[k] + fill[k]++] = i;
        }
        a->sum.sccs = out;
        rc = 0;
    }
    lp_free(fill);
    lp_free(size);
    lp_free(slot);
    lp_free(self);
    return rc;
}

int lp__an_graph_build(lp_analysis *a, lp_analysis_error *err)
{
    lp__an_vec edges = {.elem = sizeof(lp_bursty_call)};
    int rc = lp__an_calls(a, &edges);
    if (rc) {
        lp__an_vec_free(&edges);
        return lp__an_fail(a, err, rc, 0, 0, "out of memory building the call graph");
    }
    a->calls = edges.data;
    a->n_calls = edges.count;
    a->sum.edges = (uint32_t)edges.count;

    uint32_t n = a->n_fns;
    uint8_t *flags = lp_malloc(n ? n : 1);
    lp_bursty_fn_facts *facts = lp_calloc(n ? n : 1, sizeof *facts);
    if (!flags || !facts) {
        lp_free(flags);
        lp_free(facts);
        return lp__an_fail(a, err, LP_ENOMEM, 0, 0, "out of memory");
    }
    for (uint32_t i = 0; i < n; i++)
        flags[i] = a->fns[i].flags;
    lp_bursty_graph g = {.n_fns = n, .flags = flags, .n_calls = a->n_calls, .calls = a->calls};
    rc = lp_bursty_graph_analyse(&g, facts);
    if (!rc) {
        for (uint32_t i = 0; i < n; i++) {
            a->fns[i].facts = facts[i];
            a->sum.recursion_from_below += facts[i].recursion_from_below;
            a->sum.set_c += facts[i].in_c;
        }
        rc = lp__an_sccs(a);
    }
    lp_free(flags);
    lp_free(facts);
    if (rc)
        return lp__an_fail(a, err, rc, 0, 0, "call graph analysis failed: %s", lp_strerror(rc));
    return 0;
}
