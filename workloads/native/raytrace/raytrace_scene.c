/* raytrace: shapes and the scene. A checkered floor, a back wall, three
 * large spheres (mirror, glass, matte), a ring of small spheres of random
 * materials, two mirror discs and three lights. Spheres and discs go in the
 * BVH; the two unbounded planes are tested on their own. */
#include "raytrace.h"

#include <math.h>
#include <stdlib.h>

/* ---- shapes ------------------------------------------------------------------ */

static int rt_sphere_intersect(const rt_shape *s, const rt_ray *r, double t_min, double t_max,
                               double *out_t)
{
    rt_vec oc = rt_sub(r->origin, s->p);
    double b = rt_dot(oc, r->dir);
    double c = rt_dot(oc, oc) - s->r * s->r;
    double disc = b * b - c;
    if (disc < 0)
        return 0;
    double root = sqrt(disc);
    double t = -b - root;
    if (t <= t_min)
        t = -b + root;
    if (t <= t_min || t >= t_max)
        return 0;
    *out_t = t;
    return 1;
}

static rt_vec rt_sphere_normal(const rt_shape *s, rt_vec p)
{
    return rt_scale(rt_sub(p, s->p), 1.0 / s->r);
}

static void rt_sphere_bounds(const rt_shape *s, rt_vec *lo, rt_vec *hi)
{
    rt_vec e = rt_v(s->r, s->r, s->r);
    *lo = rt_sub(s->p, e);
    *hi = rt_add(s->p, e);
}

static int rt_plane_intersect(const rt_shape *s, const rt_ray *r, double t_min, double t_max,
                              double *out_t)
{
    double denom = rt_dot(s->n, r->dir);
    if (denom > -1e-12 && denom < 1e-12)
        return 0;
    double t = rt_dot(rt_sub(s->p, r->origin), s->n) / denom;
    if (t <= t_min || t >= t_max)
        return 0;
    *out_t = t;
    return 1;
}

static rt_vec rt_plane_normal(const rt_shape *s, rt_vec p)
{
    (void)p;
    return s->n;
}

static void rt_plane_bounds(const rt_shape *s, rt_vec *lo, rt_vec *hi)
{
    (void)s;
    *lo = rt_v(-1e300, -1e300, -1e300);
    *hi = rt_v(1e300, 1e300, 1e300);
}

static int rt_disc_intersect(const rt_shape *s, const rt_ray *r, double t_min, double t_max,
                             double *out_t)
{
    double t;
    if (!rt_plane_intersect(s, r, t_min, t_max, &t))
        return 0;
    rt_vec d = rt_sub(rt_at(r, t), s->p);
    if (rt_dot(d, d) > s->r * s->r)
        return 0;
    *out_t = t;
    return 1;
}

static void rt_disc_bounds(const rt_shape *s, rt_vec *lo, rt_vec *hi)
{
    rt_sphere_bounds(s, lo, hi); /* the disc fits in its sphere */
}

static const rt_shape_ops rt_shape_table[RT_N_KINDS] = {
    [RT_SPHERE] = {rt_sphere_intersect, rt_sphere_normal, rt_sphere_bounds},
    [RT_PLANE] = {rt_plane_intersect, rt_plane_normal, rt_plane_bounds},
    [RT_DISC] = {rt_disc_intersect, rt_plane_normal, rt_disc_bounds},
};

const rt_shape_ops *rt_ops(rt_shape_kind kind)
{
    return &rt_shape_table[kind];
}

/* ---- building --------------------------------------------------------------- */

static int rt_add_material(rt_scene *sc, rt_material m)
{
    sc->materials[sc->n_materials] = m;
    return sc->n_materials++;
}

static void rt_add_shape(rt_scene *sc, rt_shape_kind kind, rt_vec p, rt_vec n, double r, int mat)
{
    rt_shape *s = &sc->shapes[sc->n_shapes++];
    s->kind = kind;
    s->p = p;
    s->n = rt_normalize(n);
    s->r = r;
    s->material = mat;
}

static rt_material rt_matte(rt_vec color)
{
    rt_material m = {color, 0.9, 0.2, 16, 0.0, 0.0, 1.0, 0};
    return m;
}

static void rt_add_fixed_shapes(rt_scene *sc)
{
    rt_material floor = rt_matte(rt_v(0.9, 0.9, 0.85));
    floor.checker = 1;
    floor.reflect = 0.15;
    rt_material wall = rt_matte(rt_v(0.55, 0.6, 0.75));
    rt_material mirror = {rt_v(0.95, 0.95, 0.95), 0.05, 0.9, 128, 0.85, 0.0, 1.0, 0};
    rt_material glass = {rt_v(1.0, 1.0, 1.0), 0.02, 0.9, 256, 0.1, 0.9, 1.5, 0};
    rt_material red = rt_matte(rt_v(0.8, 0.2, 0.15));
    rt_add_shape(sc, RT_PLANE, rt_v(0, 0, 0), rt_v(0, 1, 0), 0, rt_add_material(sc, floor));
    rt_add_shape(sc, RT_PLANE, rt_v(0, 0, 14), rt_v(0, 0, -1), 0, rt_add_material(sc, wall));
    int mir = rt_add_material(sc, mirror);
    rt_add_shape(sc, RT_SPHERE, rt_v(-2.2, 1.5, 2.0), rt_v(0, 1, 0), 1.5, mir);
    rt_add_shape(sc, RT_SPHERE, rt_v(1.2, 1.1, 0.2), rt_v(0, 1, 0), 1.1,
                 rt_add_material(sc, glass));
    rt_add_shape(sc, RT_SPHERE, rt_v(3.4, 1.0, 3.5), rt_v(0, 1, 0), 1.0, rt_add_material(sc, red));
    rt_add_shape(sc, RT_DISC, rt_v(-5.5, 2.5, 6.0), rt_v(1, 0, -0.6), 2.0, mir);
    rt_add_shape(sc, RT_DISC, rt_v(6.0, 2.0, 8.0), rt_v(-1, 0.1, -0.4), 1.6, mir);
}

static double rt_unit(nw_rng *r)
{
    return (double)(nw_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Small spheres on a ring around the centre, each of a random material. */
static void rt_add_ring(rt_scene *sc, nw_rng *r, int count)
{
    for (int i = 0; i < count; i++) {
        double rad = 0.2 + 0.25 * rt_unit(r);
        double x = -7.0 + 14.0 * rt_unit(r), z = -3.0 + 14.0 * rt_unit(r);
        /* One draw per statement: argument evaluation order is unspecified. */
        double red = 0.2 + 0.8 * rt_unit(r), green = 0.2 + 0.8 * rt_unit(r);
        double blue = 0.2 + 0.8 * rt_unit(r);
        rt_material m = rt_matte(rt_v(red, green, blue));
        uint32_t kind = nw_rng_below(r, 6);
        if (kind == 0) {
            m.reflect = 0.6;
            m.specular = 0.8;
            m.shininess = 64;
        } else if (kind == 1) {
            m.transmit = 0.7;
            m.ior = 1.33;
            m.diffuse = 0.1;
        }
        rt_add_shape(sc, RT_SPHERE, rt_v(x, rad, z), rt_v(0, 1, 0), rad, rt_add_material(sc, m));
    }
}

void rt_scene_build(rt_scene *sc, uint64_t seed)
{
    enum { RING = 60 };
    nw_rng r;
    nw_rng_seed(&r, seed);
    sc->shapes = nw_alloc(sizeof(rt_shape) * (RING + 16));
    sc->materials = nw_alloc(sizeof(rt_material) * (RING + 16));
    sc->lights = nw_alloc(sizeof(rt_light) * 4);
    sc->n_shapes = sc->n_materials = 0;
    rt_add_fixed_shapes(sc);
    rt_add_ring(sc, &r, RING);
    sc->lights[0] = (rt_light){rt_v(-6, 9, -6), rt_v(0.8, 0.75, 0.7)};
    sc->lights[1] = (rt_light){rt_v(7, 6, -3), rt_v(0.35, 0.4, 0.5)};
    sc->lights[2] = (rt_light){rt_v(0, 12, 10), rt_v(0.3, 0.3, 0.3)};
    sc->n_lights = 3;
    sc->sky_top = rt_v(0.35, 0.5, 0.85);
    sc->sky_bottom = rt_v(0.9, 0.9, 0.95);
    sc->ambient = rt_v(0.08, 0.08, 0.1);
    sc->rays = sc->shadow_rays = sc->node_visits = 0;
    int *ids = nw_alloc(sizeof(int) * (size_t)sc->n_shapes);
    int n_bounded = 0;
    for (int i = 0; i < sc->n_shapes; i++) {
        if (sc->shapes[i].kind != RT_PLANE)
            ids[n_bounded++] = i;
    }
    sc->bvh = rt_bvh_build(sc->shapes, ids, n_bounded);
    free(ids);
}

void rt_scene_free(rt_scene *sc)
{
    rt_bvh_free(sc->bvh);
    free(sc->shapes);
    free(sc->materials);
    free(sc->lights);
}

/* ---- queries ------------------------------------------------------------------- */

/* Nearest hit over planes and the BVH; any_hit stops at the first. */
static const rt_shape *rt_nearest(rt_scene *sc, const rt_ray *r, double t_min, double *io_t,
                                  int any_hit)
{
    const rt_shape *best = NULL;
    for (int i = 0; i < sc->n_shapes; i++) {
        const rt_shape *s = &sc->shapes[i];
        double t;
        if (s->kind == RT_PLANE && rt_ops(s->kind)->intersect(s, r, t_min, *io_t, &t)) {
            *io_t = t;
            best = s;
            if (any_hit)
                return best;
        }
    }
    rt_bvh_intersect(sc->bvh, sc->shapes, r, t_min, io_t, &best, any_hit, &sc->node_visits);
    return best;
}

int rt_scene_intersect(rt_scene *sc, const rt_ray *r, double t_min, double t_max, rt_hit *out)
{
    double t = t_max;
    const rt_shape *s = rt_nearest(sc, r, t_min, &t, 0);
    if (!s)
        return 0;
    out->t = t;
    out->shape = s;
    out->point = rt_at(r, t);
    rt_vec n = rt_ops(s->kind)->normal(s, out->point);
    out->inside = rt_dot(n, r->dir) > 0;
    out->normal = out->inside ? rt_scale(n, -1.0) : n;
    return 1;
}

int rt_scene_occluded(rt_scene *sc, const rt_ray *r, double t_max)
{
    double t = t_max;
    sc->shadow_rays++;
    return rt_nearest(sc, r, 1e-6, &t, 1) != NULL;
}
