/* graph: the driver. Builds a SIZE x SIZE road network, finds its
 * components and spanning forest, measures BFS eccentricities, runs
 * Dijkstra from a few sources and A* to many targets of each, and checks
 * A* against Dijkstra and every reported distance against its path. */
#include "graph.h"

#include <stdio.h>

enum { GR_SOURCES = 6, GR_TARGETS = 12, GR_BFS_SOURCES = 4 };

/* A vertex drawn at random from those reached by the search. */
static int gr_pick_vertex(nw_rng *r, const gr_search *reach)
{
    return reach->touched[nw_rng_below(r, (uint32_t)reach->n_touched)];
}

static uint64_t gr_check_paths(const gr_graph *g, gr_search *dij, gr_search *star, int src,
                               nw_rng *r, uint64_t h, int *failed)
{
    for (int t = 0; t < GR_TARGETS; t++) {
        int dst = gr_pick_vertex(r, dij);
        int hops = 0;
        uint64_t want = dij->dist[dst];
        uint64_t got = gr_astar(g, src, dst, star);
        uint64_t walked = gr_path_weight(g, star, src, dst, &hops);
        if (got != want || walked != want) {
            fprintf(stderr, "graph: %d -> %d: dijkstra %llu, a* %llu, path %llu\n", src, dst,
                    (unsigned long long)want, (unsigned long long)got,
                    (unsigned long long)walked);
            *failed = 1;
        }
        h = nw_hash_u64(h, got);
        h = nw_hash_u64(h, (uint64_t)hops);
        h = nw_hash_u64(h, (uint64_t)star->settled);
    }
    return h;
}

static uint64_t gr_dijkstra_summary(const gr_graph *g, const gr_search *s, uint64_t h)
{
    uint64_t sum = 0, reached = 0, farthest = 0;
    for (int v = 0; v < g->n; v++) {
        if (s->dist[v] == GR_INF)
            continue;
        sum += s->dist[v];
        reached++;
        if (s->dist[v] > farthest)
            farthest = s->dist[v];
    }
    h = nw_hash_u64(h, sum);
    h = nw_hash_u64(h, reached);
    return nw_hash_u64(h, farthest);
}

int main(int argc, char **argv)
{
    static const nw_sizes sizes = {30, 540, 1080};
    long side;
    if (nw_args_parse(argc, argv, "SIZE: grid side in vertices (small 30, default 540)", &sizes,
                      &side, NULL))
        return 2;
    if (side < 8 || side > 20000) {
        fprintf(stderr, "graph: side must be 8..20000\n");
        return 2;
    }
    gr_graph g;
    gr_generate(&g, (int)side, (int)side, 77);
    uint64_t h = nw_hash_u64(NW_HASH_INIT, (uint64_t)g.m);

    int largest, root;
    int comps = gr_components(&g, &largest, &root);
    size_t forest_edges;
    uint64_t forest = gr_spanning_forest(&g, &forest_edges);
    h = nw_hash_u64(h, (uint64_t)comps);
    h = nw_hash_u64(h, (uint64_t)largest);
    h = nw_hash_u64(h, forest);
    h = nw_hash_u64(h, forest_edges);
    int failed = forest_edges != (size_t)(g.n - comps);

    gr_search a, b;
    gr_search_init(&a, g.n);
    gr_search_init(&b, g.n);
    nw_rng r;
    nw_rng_seed(&r, 5);
    gr_search main_part;
    gr_search_init(&main_part, g.n);
    gr_bfs(&g, root, &main_part);
    for (int i = 0; i < GR_BFS_SOURCES; i++) {
        int src = gr_pick_vertex(&r, &main_part);
        h = nw_hash_u64(h, (uint64_t)gr_bfs_eccentricity(&g, src, &b));
    }
    for (int i = 0; i < GR_SOURCES && !failed; i++) {
        int src = gr_pick_vertex(&r, &main_part);
        gr_dijkstra(&g, src, &a);
        h = gr_dijkstra_summary(&g, &a, h);
        h = gr_check_paths(&g, &a, &b, src, &r, h, &failed);
        if (!gr_heap_check(&b.heap))
            failed = 1;
    }
    fprintf(stderr, "graph: %d vertices, %lld arcs, %d components (largest %d), forest %llu\n",
            g.n, (long long)g.m, comps, largest, (unsigned long long)forest);
    gr_search_free(&main_part);
    gr_search_free(&a);
    gr_search_free(&b);
    gr_free(&g);
    if (failed)
        return 1;
    nw_report("graph", h);
    return 0;
}
