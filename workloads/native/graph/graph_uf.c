/* graph: union-find with union by rank and path halving, and the two
 * things built on it: connected components and Kruskal's minimum spanning
 * forest over the edges sorted by (weight, u, v). */
#include "graph.h"

#include <stdlib.h>

void gr_uf_init(gr_uf *uf, int n)
{
    uf->parent = nw_alloc(sizeof(int) * (size_t)n);
    uf->rank = nw_zalloc((size_t)n, 1);
    for (int i = 0; i < n; i++)
        uf->parent[i] = i;
    uf->sets = n;
}

void gr_uf_free(gr_uf *uf)
{
    free(uf->parent);
    free(uf->rank);
}

int gr_uf_find(gr_uf *uf, int x)
{
    while (uf->parent[x] != x) {
        uf->parent[x] = uf->parent[uf->parent[x]];
        x = uf->parent[x];
    }
    return x;
}

int gr_uf_union(gr_uf *uf, int x, int y)
{
    x = gr_uf_find(uf, x);
    y = gr_uf_find(uf, y);
    if (x == y)
        return 0;
    if (uf->rank[x] < uf->rank[y]) {
        int t = x;
        x = y;
        y = t;
    }
    uf->parent[y] = x;
    if (uf->rank[x] == uf->rank[y])
        uf->rank[x]++;
    uf->sets--;
    return 1;
}

int gr_components(const gr_graph *g, int *out_largest, int *out_root)
{
    gr_uf uf;
    gr_uf_init(&uf, g->n);
    for (int u = 0; u < g->n; u++) {
        for (int64_t a = g->first[u]; a < g->first[u + 1]; a++)
            gr_uf_union(&uf, u, g->target[a]);
    }
    int *size = nw_zalloc((size_t)g->n, sizeof(int));
    int largest = 0, root = 0;
    for (int v = 0; v < g->n; v++) {
        int r = gr_uf_find(&uf, v);
        if (++size[r] > largest) {
            largest = size[r];
            root = r;
        }
    }
    int sets = uf.sets;
    free(size);
    gr_uf_free(&uf);
    *out_largest = largest;
    *out_root = root;
    return sets;
}

static int gr_edge_cmp(const void *a, const void *b)
{
    const gr_edge *x = a, *y = b;
    if (x->w != y->w)
        return x->w < y->w ? -1 : 1;
    if (x->u != y->u)
        return x->u < y->u ? -1 : 1;
    return (x->v > y->v) - (x->v < y->v);
}

uint64_t gr_spanning_forest(const gr_graph *g, size_t *out_edges)
{
    size_t n;
    gr_edge *e = gr_edges(g, &n);
    qsort(e, n, sizeof *e, gr_edge_cmp);
    gr_uf uf;
    gr_uf_init(&uf, g->n);
    uint64_t total = 0;
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        if (gr_uf_union(&uf, e[i].u, e[i].v)) {
            total += e[i].w;
            used++;
        }
    }
    gr_uf_free(&uf);
    free(e);
    *out_edges = used;
    return total;
}
