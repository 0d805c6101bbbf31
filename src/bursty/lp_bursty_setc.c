/* bursty: the procedures that get entry checks under "EC" (Hirzel and
 * Chilimbi, section 4.1, equation 3):
 *
 *   C = { f | not is_leaf(f) and (is_root(f) or addr_taken(f)
 *                                 or recursion_from_below(f)) }
 *
 * where f has recursion from below when a procedure g of f's strongly
 * connected component calls f and g is at least as far from the roots as
 * f, the distance being the length of the shortest path of direct calls
 * from any root.
 *
 * Choice the paper leaves open: a procedure no root reaches (only called
 * indirectly, say) has no finite distance. It is given an infinite one
 * that equals every other infinite one, so inside an unreached component
 * every procedure with a caller in its component has recursion from below.
 * That keeps the guarantee (on any cycle, the procedure farthest from the
 * roots calls one no farther, which is then in C) at the price of more
 * checks than needed there; address-taken entries usually carry a check
 * anyway.
 *
 * Runs once per binary, linear in procedures plus calls. */
#include "lp_bursty_internal.h"

/* Breadth-first search from every root at once: dist[f] is the minimum
 * over roots of the shortest path length. */
static int distances(const lp_bursty_graph *g, const lp__bursty_csr *c, uint32_t *dist)
{
    uint32_t n = g->n_fns, head = 0, tail = 0;
    uint32_t *queue = lp_malloc((n ? n : 1) * sizeof *queue);
    if (!queue)
        return LP_ENOMEM;
    for (uint32_t f = 0; f < n; f++) {
        dist[f] = LP_BURSTY_UNREACHABLE;
        if (g->flags[f] & LP_BURSTY_FN_ROOT) {
            dist[f] = 0;
            queue[tail++] = f;
        }
    }
    while (head < tail) {
        uint32_t f = queue[head++];
        for (uint32_t e = c->start[f]; e < c->start[f + 1]; e++) {
            uint32_t callee = c->callee[e];
            if (dist[callee] == LP_BURSTY_UNREACHABLE) {
                dist[callee] = dist[f] + 1;
                queue[tail++] = callee;
            }
        }
    }
    lp_free(queue);
    return 0;
}

int lp_bursty_graph_analyse(const lp_bursty_graph *g, lp_bursty_fn_facts *out)
{
    uint32_t n = g->n_fns;
    lp__bursty_csr c;
    uint32_t *scc = NULL, *dist = NULL;
    int rc;

    if (n && (!g->flags || !out))
        return LP_EINVAL;
    rc = lp__bursty_csr_build(g, &c);
    if (rc)
        return rc;
    for (uint32_t f = 0; f < n; f++)
        if ((g->flags[f] & LP_BURSTY_FN_LEAF) && c.start[f + 1] != c.start[f]) {
            rc = LP_EINVAL; /* a leaf calls nothing */
            goto out;
        }
    scc = lp_malloc((n ? n : 1) * sizeof *scc);
    dist = lp_malloc((n ? n : 1) * sizeof *dist);
    rc = LP_ENOMEM;
    if (!scc || !dist)
        goto out;
    if ((rc = lp__bursty_tarjan(&c, scc, NULL)) != 0 || (rc = distances(g, &c, dist)) != 0)
        goto out;

    for (uint32_t f = 0; f < n; f++) {
        out[f].scc = scc[f];
        out[f].distance = dist[f];
        out[f].recursion_from_below = 0;
        out[f].in_c = 0;
    }
    /* LP_BURSTY_UNREACHABLE is the largest uint32_t, so the unsigned
     * comparison ranks unreached procedures farthest and equal. */
    for (uint32_t caller = 0; caller < n; caller++)
        for (uint32_t e = c.start[caller]; e < c.start[caller + 1]; e++) {
            uint32_t f = c.callee[e];
            if (scc[caller] == scc[f] && dist[caller] >= dist[f])
                out[f].recursion_from_below = 1;
        }
    for (uint32_t f = 0; f < n; f++) {
        unsigned fl = g->flags[f];
        int in_c = !(fl & LP_BURSTY_FN_LEAF) &&
                   ((fl & (LP_BURSTY_FN_ROOT | LP_BURSTY_FN_ADDR_TAKEN)) ||
                    out[f].recursion_from_below);
        out[f].in_c = (uint8_t)in_c;
    }
    rc = 0;
out:
    lp_free(scc);
    lp_free(dist);
    lp__bursty_csr_free(&c);
    return rc;
}

int lp_bursty_entry_has_check(const lp_bursty_placement *p, unsigned flags,
                              const lp_bursty_fn_facts *facts)
{
    switch (p->entry) {
    case LP_BURSTY_ENTRY_ALL: return 1;
    case LP_BURSTY_ENTRY_NON_LEAF: return !(flags & LP_BURSTY_FN_LEAF);
    case LP_BURSTY_ENTRY_SET_C: return facts && facts->in_c;
    default: return 0;
    }
}
