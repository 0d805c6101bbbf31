/* bursty: strongly connected components of the static call graph
 * (Hirzel and Chilimbi, section 4.1: recursion happens inside a component,
 * so entry checks are placed per component).
 *
 * Tarjan's algorithm with an explicit stack of frames instead of
 * recursion: binaries have call chains thousands deep, and the same code
 * may run where the stack is small. Linear in procedures plus calls; all
 * scratch is a few uint32_t arrays of the procedure count. */
#include "lp_bursty_internal.h"

#define UNSET UINT32_MAX

int lp__bursty_csr_build(const lp_bursty_graph *g, lp__bursty_csr *c)
{
    uint32_t n = g->n_fns;

    c->n = n;
    c->start = NULL;
    c->callee = NULL;
    if (g->n_calls && !g->calls)
        return LP_EINVAL;
    if (g->n_calls > UINT32_MAX - 1)
        return LP_EINVAL;
    for (size_t i = 0; i < g->n_calls; i++)
        if (g->calls[i].caller >= n || g->calls[i].callee >= n)
            return LP_EINVAL;

    c->start = lp_calloc((size_t)n + 1, sizeof *c->start);
    c->callee = lp_malloc((g->n_calls ? g->n_calls : 1) * sizeof *c->callee);
    if (!c->start || !c->callee) {
        lp__bursty_csr_free(c);
        return LP_ENOMEM;
    }
    /* Counting sort by caller; start[f + 1] first counts f's calls. */
    for (size_t i = 0; i < g->n_calls; i++)
        c->start[g->calls[i].caller + 1]++;
    for (uint32_t f = 0; f < n; f++)
        c->start[f + 1] += c->start[f];
    for (size_t i = 0; i < g->n_calls; i++)
        c->callee[c->start[g->calls[i].caller]++] = g->calls[i].callee;
    /* Each start[f] now holds the old start[f + 1]; shift back. */
    for (uint32_t f = n; f > 0; f--)
        c->start[f] = c->start[f - 1];
    c->start[0] = 0;
    return 0;
}

void lp__bursty_csr_free(lp__bursty_csr *c)
{
    lp_free(c->start);
    lp_free(c->callee);
    c->start = NULL;
    c->callee = NULL;
}

int lp__bursty_tarjan(const lp__bursty_csr *c, uint32_t *scc, uint32_t *out_count)
{
    uint32_t n = c->n, visited = 0, count = 0;
    size_t words = n ? n : 1;
    /* index: discovery order; low: lowest index reachable through the
     * frame's subtree and back edges to nodes still on the stack; next:
     * the frame's next callee; frames: the explicit call stack; stack:
     * Tarjan's stack of nodes not yet given a component. */
    uint32_t *index = lp_malloc(words * sizeof *index);
    uint32_t *low = lp_malloc(words * sizeof *low);
    uint32_t *next = lp_malloc(words * sizeof *next);
    uint32_t *frames = lp_malloc(words * sizeof *frames);
    uint32_t *stack = lp_malloc(words * sizeof *stack);
    int rc = LP_ENOMEM;

    if (!index || !low || !next || !frames || !stack)
        goto out;
    for (uint32_t v = 0; v < n; v++) {
        index[v] = UNSET;
        scc[v] = UNSET; /* visited and still UNSET: on Tarjan's stack */
    }

    uint32_t depth = 0, height = 0;
    for (uint32_t root = 0; root < n; root++) {
        if (index[root] != UNSET)
            continue;
        index[root] = low[root] = visited++;
        next[root] = c->start[root];
        stack[height++] = root;
        frames[depth++] = root;
        while (depth) {
            uint32_t v = frames[depth - 1];
            if (next[v] < c->start[v + 1]) {
                uint32_t w = c->callee[next[v]++];
                if (index[w] == UNSET) {
                    index[w] = low[w] = visited++;
                    next[w] = c->start[w];
                    stack[height++] = w;
                    frames[depth++] = w;
                } else if (scc[w] == UNSET && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            depth--;
            if (low[v] == index[v]) {
                uint32_t w;
                do {
                    w = stack[--height];
                    scc[w] = count;
                } while (w != v);
                count++;
            }
            if (depth) {
                uint32_t u = frames[depth - 1];
                if (low[v] < low[u])
                    low[u] = low[v];
            }
        }
    }
    if (out_count)
        *out_count = count;
    rc = 0;
out:
    lp_free(index);
    lp_free(low);
    lp_free(next);
    lp_free(frames);
    lp_free(stack);
    return rc;
}

int lp_bursty_graph_scc(const lp_bursty_graph *g, uint32_t *out_scc, uint32_t *out_count)
{
    lp__bursty_csr c;
    if (g->n_fns && !out_scc)
        return LP_EINVAL;
    int rc = lp__bursty_csr_build(g, &c);
    if (rc)
        return rc;
    rc = lp__bursty_tarjan(&c, out_scc, out_count);
    lp__bursty_csr_free(&c);
    return rc;
}
