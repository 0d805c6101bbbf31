/* graph: the generated road network. Grid neighbours are joined with
 * travel times from 10 to 99; about one road in twelve is missing (which
 * leaves some islands), one cell in six has a diagonal, and every eighth
 * row and column is a highway of fast roads. Arcs are built into CSR with a
 * counting pass, then sorted by target inside each row so the layout does
 * not depend on the order roads were generated. */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

int gr_x(const gr_graph *g, int v)
{
    return v % g->w;
}

int gr_y(const gr_graph *g, int v)
{
    return v / g->w;
}

static int gr_is_highway(int x, int y)
{
    return x % 8 == 0 || y % 8 == 0;
}

/* The roads of one cell to its right, lower and diagonal neighbours. */
static size_t gr_cell_roads(int w, int h, int x, int y, nw_rng *r, gr_edge *out)
{
    size_t n = 0;
    int v = y * w + x;
    if (x + 1 < w && nw_rng_below(r, 12) != 0) {
        int fast = y % 8 == 0;
        out[n++] = (gr_edge){v, v + 1, fast ? 4 + nw_rng_below(r, 4) : 10 + nw_rng_below(r, 90)};
    }
    if (y + 1 < h && nw_rng_below(r, 12) != 0) {
        int fast = x % 8 == 0;
        out[n++] = (gr_edge){v, v + w, fast ? 4 + nw_rng_below(r, 4) : 10 + nw_rng_below(r, 90)};
    }
    if (x + 1 < w && y + 1 < h && nw_rng_below(r, 6) == 0 && !gr_is_highway(x, y))
        out[n++] = (gr_edge){v, v + w + 1, 14 + nw_rng_below(r, 126)};
    return n;
}

static int gr_cmp_arc(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return *x < *y ? -1 : *x > *y;
}

/* Sorts each row's arcs by target (packed as target << 32 | weight). */
static void gr_sort_rows(gr_graph *g)
{
    uint64_t *tmp = nw_alloc(sizeof(uint64_t) * 16);
    for (int v = 0; v < g->n; v++) {
        int64_t a = g->first[v], b = g->first[v + 1];
        size_t k = (size_t)(b - a);
        for (size_t i = 0; i < k; i++)
            tmp[i] = (uint64_t)g->target[a + (int64_t)i] << 32 | g->weight[a + (int64_t)i];
        qsort(tmp, k, sizeof(uint64_t), gr_cmp_arc);
        for (size_t i = 0; i < k; i++) {
            g->target[a + (int64_t)i] = (int)(tmp[i] >> 32);
            g->weight[a + (int64_t)i] = (uint32_t)tmp[i];
        }
    }
    free(tmp);
}

static void gr_build_csr(gr_graph *g, const gr_edge *roads, size_t n_roads)
{
    g->first = nw_zalloc((size_t)g->n + 1, sizeof(int64_t));
    for (size_t i = 0; i < n_roads; i++) {
        g->first[roads[i].u + 1]++;
        g->first[roads[i].v + 1]++;
    }
    for (int v = 0; v < g->n; v++)
        g->first[v + 1] += g->first[v];
    g->m = g->first[g->n];
    g->target = nw_alloc(sizeof(int) * (size_t)g->m);
    g->weight = nw_alloc(sizeof(uint32_t) * (size_t)g->m);
    int64_t *fill = nw_alloc(sizeof(int64_t) * (size_t)g->n);
    memcpy(fill, g->first, sizeof(int64_t) * (size_t)g->n);
    for (size_t i = 0; i < n_roads; i++) {
        int64_t a = fill[roads[i].u]++, b = fill[roads[i].v]++;
        g->target[a] = roads[i].v;
        g->weight[a] = roads[i].w;
        g->target[b] = roads[i].u;
        g->weight[b] = roads[i].w;
    }
    free(fill);
    gr_sort_rows(g);
}

void gr_generate(gr_graph *g, int w, int h, uint64_t seed)
{
    nw_rng r;
    nw_rng_seed(&r, seed);
    memset(g, 0, sizeof *g);
    g->w = w;
    g->h = h;
    g->n = w * h;
    gr_edge *roads = nw_alloc(sizeof(gr_edge) * 3 * (size_t)g->n);
    size_t n_roads = 0;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++)
            n_roads += gr_cell_roads(w, h, x, y, &r, roads + n_roads);
    }
    gr_build_csr(g, roads, n_roads);
    free(roads);
    /* Highways cost 4 per step and diagonals at least 14 for two steps,
     * so 4 per grid step is a lower bound: an admissible A* heuristic. */
    g->min_cost_per_step = 4;
}

void gr_free(gr_graph *g)
{
    free(g->first);
    free(g->target);
    free(g->weight);
    memset(g, 0, sizeof *g);
}

gr_edge *gr_edges(const gr_graph *g, size_t *out_count)
{
    gr_edge *e = nw_alloc(sizeof(gr_edge) * (size_t)(g->m / 2 + 1));
    size_t n = 0;
    for (int u = 0; u < g->n; u++) {
        for (int64_t a = g->first[u]; a < g->first[u + 1]; a++) {
            if (u < g->target[a])
                e[n++] = (gr_edge){u, g->target[a], g->weight[a]};
        }
    }
    *out_count = n;
    return e;
}
