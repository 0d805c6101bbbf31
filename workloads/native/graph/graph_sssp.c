/* graph: single-source shortest paths. Dijkstra settles the whole graph;
 * A* runs towards one target with the grid distance times the least cost
 * per step as its heuristic, which is consistent for this network, so a
 * settled vertex is final and A* returns exactly Dijkstra's distance. */
#include "graph.h"

#include <stdlib.h>

static uint64_t gr_heuristic(const gr_graph *g, int v, int dst)
{
    int dx = abs(gr_x(g, v) - gr_x(g, dst)), dy = abs(gr_y(g, v) - gr_y(g, dst));
    return (uint64_t)(dx + dy) * g->min_cost_per_step;
}

/* Relaxes the arcs out of u; key offset by the heuristic when dst >= 0. */
static void gr_relax(const gr_graph *g, gr_search *s, int u, int dst)
{
    for (int64_t a = g->first[u]; a < g->first[u + 1]; a++) {
        int v = g->target[a];
        uint64_t nd = s->dist[u] + g->weight[a];
        if (nd >= s->dist[v])
            continue;
        gr_search_reach(s, v, nd, u);
        gr_heap_push_or_lower(&s->heap, v, dst >= 0 ? nd + gr_heuristic(g, v, dst) : nd);
    }
}

void gr_dijkstra(const gr_graph *g, int src, gr_search *s)
{
    gr_search_reset(s);
    gr_search_reach(s, src, 0, GR_UNREACHED);
    gr_heap_push_or_lower(&s->heap, src, 0);
    while (!gr_heap_empty(&s->heap)) {
        int u = gr_heap_pop(&s->heap);
        s->settled++;
        gr_relax(g, s, u, -1);
    }
}

uint64_t gr_astar(const gr_graph *g, int src, int dst, gr_search *s)
{
    gr_search_reset(s);
    gr_search_reach(s, src, 0, GR_UNREACHED);
    gr_heap_push_or_lower(&s->heap, src, gr_heuristic(g, src, dst));
    while (!gr_heap_empty(&s->heap)) {
        int u = gr_heap_pop(&s->heap);
        s->settled++;
        if (u == dst)
            return s->dist[u];
        gr_relax(g, s, u, dst);
    }
    return GR_INF;
}

static uint32_t gr_arc_weight(const gr_graph *g, int u, int v)
{
    for (int64_t a = g->first[u]; a < g->first[u + 1]; a++) {
        if (g->target[a] == v)
            return g->weight[a];
    }
    return 0;
}

uint64_t gr_path_weight(const gr_graph *g, const gr_search *s, int src, int dst, int *out_hops)
{
    uint64_t total = 0;
    int hops = 0;
    for (int v = dst; v != src; v = s->parent[v]) {
        int u = s->parent[v];
        uint32_t w = u >= 0 ? gr_arc_weight(g, u, v) : 0;
        if (w == 0 || hops > g->n)
            return GR_INF;
        total += w;
        hops++;
    }
    *out_hops = hops;
    return total;
}
