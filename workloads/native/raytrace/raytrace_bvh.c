/* raytrace: a bounding volume hierarchy over the bounded shapes, built by
 * median split on the longest axis of the centroids (ties broken by shape
 * number, so the tree is the same everywhere) and walked recursively,
 * nearer child first. */
#include "raytrace.h"

#include <stdlib.h>

typedef struct rt_node {
    rt_vec lo, hi;
    int left, right; /* children, or -1 in a leaf */
    int first, count; /* leaf: shapes ids[first .. first+count) */
} rt_node;

struct rt_bvh {
    rt_node *nodes;
    int n_nodes;
    int *ids;
};

typedef struct rt_build {
    rt_bvh *b;
    const rt_shape *shapes;
    int axis; /* for the comparator */
} rt_build;

static rt_vec rt_centroid(const rt_shape *s)
{
    rt_vec lo, hi;
    rt_ops(s->kind)->bounds(s, &lo, &hi);
    return rt_scale(rt_add(lo, hi), 0.5);
}

/* Sorts ids[0..n) by centroid on the axis: insertion sort, since leaves are
 * small and qsort cannot carry the axis without a global. */
static void rt_sort_ids(const rt_build *bd, int *ids, int n)
{
    for (int i = 1; i < n; i++) {
        int id = ids[i];
        double key = rt_axis(rt_centroid(&bd->shapes[id]), bd->axis);
        int j = i - 1;
        while (j >= 0) {
            double other = rt_axis(rt_centroid(&bd->shapes[ids[j]]), bd->axis);
            if (other < key || (other == key && ids[j] < id))
                break;
            ids[j + 1] = ids[j];
            j--;
        }
        ids[j + 1] = id;
    }
}

static int rt_longest_axis(rt_vec lo, rt_vec hi)
{
    rt_vec e = rt_sub(hi, lo);
    return e.x >= e.y && e.x >= e.z ? 0 : e.y >= e.z ? 1 : 2;
}

static int rt_build_node(rt_build *bd, int first, int count)
{
    rt_bvh *b = bd->b;
    int index = b->n_nodes++;
    rt_node *node = &b->nodes[index];
    rt_vec lo = rt_v(1e300, 1e300, 1e300), hi = rt_v(-1e300, -1e300, -1e300);
    rt_vec clo = lo, chi = hi;
    for (int i = first; i < first + count; i++) {
        rt_vec slo, shi, c = rt_centroid(&bd->shapes[b->ids[i]]);
        rt_ops(bd->shapes[b->ids[i]].kind)->bounds(&bd->shapes[b->ids[i]], &slo, &shi);
        lo = rt_vmin(lo, slo);
        hi = rt_vmax(hi, shi);
        clo = rt_vmin(clo, c);
        chi = rt_vmax(chi, c);
    }
    node->lo = lo;
    node->hi = hi;
    node->first = first;
    node->count = count;
    node->left = node->right = -1;
    if (count <= 2)
        return index;
    bd->axis = rt_longest_axis(clo, chi);
    rt_sort_ids(bd, b->ids + first, count);
    int half = count / 2;
    int left = rt_build_node(bd, first, half);
    int right = rt_build_node(bd, first + half, count - half);
    /* b->nodes does not move: it was sized for the whole tree. */
    b->nodes[index].left = left;
    b->nodes[index].right = right;
    return index;
}

rt_bvh *rt_bvh_build(const rt_shape *shapes, const int *ids, int n)
{
    rt_bvh *b = nw_alloc(sizeof *b);
    b->nodes = nw_alloc(sizeof(rt_node) * (size_t)(2 * n + 1));
    b->ids = nw_alloc(sizeof(int) * (size_t)(n + 1));
    b->n_nodes = 0;
    for (int i = 0; i < n; i++)
        b->ids[i] = ids[i];
    rt_build bd = {b, shapes, 0};
    rt_build_node(&bd, 0, n);
    return b;
}

void rt_bvh_free(rt_bvh *b)
{
    if (!b)
        return;
    free(b->nodes);
    free(b->ids);
    free(b);
}

static int rt_node_depth(const rt_bvh *b, int i)
{
    if (b->nodes[i].left < 0)
        return 1;
    int l = rt_node_depth(b, b->nodes[i].left), r = rt_node_depth(b, b->nodes[i].right);
    return 1 + (l > r ? l : r);
}

int rt_bvh_depth(const rt_bvh *b)
{
    return b->n_nodes ? rt_node_depth(b, 0) : 0;
}

static double rt_safe_inverse(double d)
{
    return d > -1e-300 && d < 1e-300 ? 1e300 : 1.0 / d;
}

/* Entry distance of the ray into the box, or -1 when it misses it within
 * (t_min, t_max). */
static double rt_box_entry(const rt_node *n, const rt_ray *r, rt_vec inv, double t_min,
                           double t_max)
{
    for (int axis = 0; axis < 3; axis++) {
        double o = rt_axis(r->origin, axis), iv = rt_axis(inv, axis);
        double t0 = (rt_axis(n->lo, axis) - o) * iv, t1 = (rt_axis(n->hi, axis) - o) * iv;
        if (t0 > t1) {
            double t = t0;
            t0 = t1;
            t1 = t;
        }
        if (t0 > t_min)
            t_min = t0;
        if (t1 < t_max)
            t_max = t1;
        if (t_max < t_min)
            return -1;
    }
    return t_min;
}

typedef struct rt_walk {
    const rt_bvh *b;
    const rt_shape *shapes;
    const rt_ray *r;
    rt_vec inv;
    double t_min;
    double *io_t;
    const rt_shape **out_shape;
    int any_hit, found;
    uint64_t visits;
} rt_walk;

static void rt_walk_leaf(rt_walk *w, const rt_node *n)
{
    for (int i = n->first; i < n->first + n->count; i++) {
        const rt_shape *s = &w->shapes[w->b->ids[i]];
        double t;
        if (rt_ops(s->kind)->intersect(s, w->r, w->t_min, *w->io_t, &t)) {
            *w->io_t = t;
            *w->out_shape = s;
            w->found = 1;
            if (w->any_hit)
                return;
        }
    }
}

static void rt_walk_node(rt_walk *w, int index)
{
    const rt_node *n = &w->b->nodes[index];
    w->visits++;
    if (n->left < 0) {
        rt_walk_leaf(w, n);
        return;
    }
    const rt_node *l = &w->b->nodes[n->left], *r = &w->b->nodes[n->right];
    double tl = rt_box_entry(l, w->r, w->inv, w->t_min, *w->io_t);
    double tr = rt_box_entry(r, w->r, w->inv, w->t_min, *w->io_t);
    int first = n->left, second = n->right;
    double t_second = tr;
    if (tr >= 0 && (tl < 0 || tr < tl)) {
        first = n->right;
        second = n->left;
        t_second = tl;
    }
    if ((first == n->left ? tl : tr) >= 0)
        rt_walk_node(w, first);
    if (w->any_hit && w->found)
        return;
    /* The far child only if it still starts before the best hit. */
    if (t_second >= 0 && t_second < *w->io_t)
        rt_walk_node(w, second);
}

int rt_bvh_intersect(const rt_bvh *b, const rt_shape *shapes, const rt_ray *r, double t_min,
                     double *io_t, const rt_shape **out_shape, int any_hit, uint64_t *visits)
{
    if (b->n_nodes == 0)
        return 0;
    rt_walk w = {b, shapes, r, rt_v(rt_safe_inverse(r->dir.x), rt_safe_inverse(r->dir.y),
                                    rt_safe_inverse(r->dir.z)),
                 t_min, io_t, out_shape, any_hit, 0, 0};
    if (rt_box_entry(&b->nodes[0], r, w.inv, t_min, *io_t) >= 0)
        rt_walk_node(&w, 0);
    *visits += w.visits;
    return w.found;
}
