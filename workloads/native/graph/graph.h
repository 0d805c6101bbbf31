/* graph: graph kernels on a generated road-like network, as a benchmark of
 * pointer-chasing, priority queues and irregular memory access. The network
 * is a W x H grid with random travel times, some roads missing, diagonal
 * shortcuts and a sparse layer of fast "highways" (graph_gen.c), stored in
 * compressed sparse rows. The kernels: BFS (graph_bfs.c), Dijkstra and A*
 * over a binary heap with decrease-key (graph_heap.c, graph_sssp.c), and
 * union-find for connected components and Kruskal's spanning forest
 * (graph_uf.c). Every shortest-path result is cross-checked: A* against
 * Dijkstra, path weights against reported distances. */
#ifndef GRAPH_H
#define GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "../support/native_common.h"

typedef struct gr_graph {
    int n;            /* vertices: w * h */
    int w, h;
    int64_t m;        /* directed arcs */
    int64_t *first;   /* first[v]..first[v+1]: arcs out of v */
    int *target;
    uint32_t *weight; /* travel time, >= 1 */
    uint32_t min_cost_per_step; /* for the A* heuristic: the least weight per grid step */
} gr_graph;

typedef struct gr_edge {
    int u, v;
    uint32_t w;
} gr_edge;

/* ---- construction (graph_gen.c) -------------------------------------- */

void gr_generate(gr_graph *g, int w, int h, uint64_t seed);
void gr_free(gr_graph *g);
int gr_x(const gr_graph *g, int v);
int gr_y(const gr_graph *g, int v);
/* The undirected edge list (u < v), one entry per road. */
gr_edge *gr_edges(const gr_graph *g, size_t *out_count);

/* ---- heap (graph_heap.c) ---------------------------------------------- */

typedef struct gr_heap {
    int *items;    /* vertex ids in heap order */
    int *pos;      /* position of each vertex in items, -1 if absent */
    uint64_t *key; /* priority of each vertex */
    int count;
} gr_heap;

void gr_heap_init(gr_heap *hp, int n);
void gr_heap_free(gr_heap *hp);
void gr_heap_clear(gr_heap *hp);
int gr_heap_empty(const gr_heap *hp);
/* Inserts v or lowers its key; a higher key is ignored. */
void gr_heap_push_or_lower(gr_heap *hp, int v, uint64_t key);
int gr_heap_pop(gr_heap *hp);
int gr_heap_check(const gr_heap *hp); /* 1 when the heap property holds */

/* ---- searches (graph_bfs.c, graph_sssp.c) -------------------------------- */

enum { GR_UNREACHED = -1 };
#define GR_INF UINT64_MAX

typedef struct gr_search {
    uint64_t *dist;
    int *parent;
    int64_t settled; /* vertices taken from the heap or queue */
    gr_heap heap;
    int *queue;
    int *touched; /* vertices whose dist was set, for a reset in O(touched) */
    int n_touched;
} gr_search;

void gr_search_init(gr_search *s, int n);
void gr_search_free(gr_search *s);
/* Forgets the previous search: every vertex unreached, the heap empty. */
void gr_search_reset(gr_search *s);
/* Sets v's distance and parent, noting v for the next reset. */
void gr_search_reach(gr_search *s, int v, uint64_t dist, int parent);

/* Hop counts from src into s->dist (GR_INF when unreachable). */
void gr_bfs(const gr_graph *g, int src, gr_search *s);
/* Eccentricity in hops of src within its component, by BFS. */
int gr_bfs_eccentricity(const gr_graph *g, int src, gr_search *s);
/* Shortest travel times from src to all vertices. */
void gr_dijkstra(const gr_graph *g, int src, gr_search *s);
/* Shortest travel time from src to dst, GR_INF when unreachable; stops
 * when dst is settled. */
uint64_t gr_astar(const gr_graph *g, int src, int dst, gr_search *s);
/* Walks parents from dst back to src, summing arc weights; GR_INF when the
 * chain is broken. Stores the hop count in *out_hops. */
uint64_t gr_path_weight(const gr_graph *g, const gr_search *s, int src, int dst,
                        int *out_hops);

/* ---- union-find (graph_uf.c) -------------------------------------------- */

typedef struct gr_uf {
    int *parent;
    uint8_t *rank;
    int sets;
} gr_uf;

void gr_uf_init(gr_uf *uf, int n);
void gr_uf_free(gr_uf *uf);
int gr_uf_find(gr_uf *uf, int x);
/* 1 when x and y were in different sets. */
int gr_uf_union(gr_uf *uf, int x, int y);

/* Number of connected components; *out_largest the size of the largest and
 * *out_root a vertex in it. */
int gr_components(const gr_graph *g, int *out_largest, int *out_root);
/* Weight of a minimum spanning forest (Kruskal); *out_edges its edges. */
uint64_t gr_spanning_forest(const gr_graph *g, size_t *out_edges);

#endif
