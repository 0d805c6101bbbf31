/* graph: breadth-first search over hop counts, and the search state shared
 * with Dijkstra and A*. */
#include "graph.h"

#include <stdlib.h>

void gr_search_init(gr_search *s, int n)
{
    s->dist = nw_alloc(sizeof(uint64_t) * (size_t)n);
    s->parent = nw_alloc(sizeof(int) * (size_t)n);
    s->queue = nw_alloc(sizeof(int) * (size_t)n);
    s->touched = nw_alloc(sizeof(int) * (size_t)n);
    s->n_touched = 0;
    for (int v = 0; v < n; v++) {
        s->dist[v] = GR_INF;
        s->parent[v] = GR_UNREACHED;
    }
    gr_heap_init(&s->heap, n);
    s->settled = 0;
}

void gr_search_free(gr_search *s)
{
    free(s->dist);
    free(s->parent);
    free(s->queue);
    free(s->touched);
    gr_heap_free(&s->heap);
}

void gr_search_reset(gr_search *s)
{
    for (int i = 0; i < s->n_touched; i++) {
        s->dist[s->touched[i]] = GR_INF;
        s->parent[s->touched[i]] = GR_UNREACHED;
    }
    s->n_touched = 0;
    gr_heap_clear(&s->heap);
    s->settled = 0;
}

void gr_search_reach(gr_search *s, int v, uint64_t dist, int parent)
{
    if (s->dist[v] == GR_INF)
        s->touched[s->n_touched++] = v;
    s->dist[v] = dist;
    s->parent[v] = parent;
}

void gr_bfs(const gr_graph *g, int src, gr_search *s)
{
    (void)g;
    gr_search_reset(s);
    int head = 0, tail = 0;
    gr_search_reach(s, src, 0, GR_UNREACHED);
    s->queue[tail++] = src;
    while (head < tail) {
        int u = s->queue[head++];
        s->settled++;
        for (int64_t a = g->first[u]; a < g->first[u + 1]; a++) {
            int v = g->target[a];
            if (s->dist[v] == GR_INF) {
                gr_search_reach(s, v, s->dist[u] + 1, u);
                s->queue[tail++] = v;
            }
        }
    }
}

int gr_bfs_eccentricity(const gr_graph *g, int src, gr_search *s)
{
    gr_bfs(g, src, s);
    /* The queue holds the vertices in order of distance: the last is the
     * farthest. */
    return (int)s->dist[s->queue[s->settled - 1]];
}
