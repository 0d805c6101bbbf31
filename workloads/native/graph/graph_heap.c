/* graph: an indexed binary min-heap of vertices with decrease-key, the
 * priority queue of Dijkstra and A*. Ties are broken by vertex id, so every
 * search settles vertices in one order on every build. */
#include "graph.h"

#include <stdlib.h>

void gr_heap_init(gr_heap *hp, int n)
{
    hp->items = nw_alloc(sizeof(int) * (size_t)n);
    hp->pos = nw_alloc(sizeof(int) * (size_t)n);
    hp->key = nw_alloc(sizeof(uint64_t) * (size_t)n);
    for (int v = 0; v < n; v++)
        hp->pos[v] = -1;
    hp->count = 0;
}

void gr_heap_free(gr_heap *hp)
{
    free(hp->items);
    free(hp->pos);
    free(hp->key);
}

void gr_heap_clear(gr_heap *hp)
{
    for (int i = 0; i < hp->count; i++)
        hp->pos[hp->items[i]] = -1;
    hp->count = 0;
}

int gr_heap_empty(const gr_heap *hp)
{
    return hp->count == 0;
}

static int gr_heap_less(const gr_heap *hp, int a, int b)
{
    return hp->key[a] != hp->key[b] ? hp->key[a] < hp->key[b] : a < b;
}

static void gr_heap_place(gr_heap *hp, int i, int v)
{
    hp->items[i] = v;
    hp->pos[v] = i;
}

static void gr_sift_up(gr_heap *hp, int i)
{
    int v = hp->items[i];
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!gr_heap_less(hp, v, hp->items[parent]))
            break;
        gr_heap_place(hp, i, hp->items[parent]);
        i = parent;
    }
    gr_heap_place(hp, i, v);
}

static void gr_sift_down(gr_heap *hp, int i)
{
    int v = hp->items[i];
    for (;;) {
        int child = 2 * i + 1;
        if (child >= hp->count)
            break;
        if (child + 1 < hp->count && gr_heap_less(hp, hp->items[child + 1], hp->items[child]))
            child++;
        if (!gr_heap_less(hp, hp->items[child], v))
            break;
        gr_heap_place(hp, i, hp->items[child]);
        i = child;
    }
    gr_heap_place(hp, i, v);
}

void gr_heap_push_or_lower(gr_heap *hp, int v, uint64_t key)
{
    if (hp->pos[v] >= 0) {
        if (key >= hp->key[v])
            return;
        hp->key[v] = key;
        gr_sift_up(hp, hp->pos[v]);
        return;
    }
    hp->key[v] = key;
    hp->items[hp->count] = v;
    hp->pos[v] = hp->count;
    gr_sift_up(hp, hp->count++);
}

int gr_heap_pop(gr_heap *hp)
{
    int top = hp->items[0];
    hp->pos[top] = -1;
    if (--hp->count > 0) {
        hp->items[0] = hp->items[hp->count];
        hp->pos[hp->items[0]] = 0;
        gr_sift_down(hp, 0);
    }
    return top;
}

int gr_heap_check(const gr_heap *hp)
{
    for (int i = 1; i < hp->count; i++) {
        if (gr_heap_less(hp, hp->items[i], hp->items[(i - 1) / 2]))
            return 0;
        if (hp->pos[hp->items[i]] != i)
            return 0;
    }
    return 1;
}
