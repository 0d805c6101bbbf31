/* raytrace: a Whitted-style ray tracer, as a benchmark of floating-point
 * code with many small calls: vector operations live in their own file
 * (raytrace_vec.c) so that they stay real calls across translation units,
 * shapes are reached through a table of function pointers, the spheres sit
 * in a bounding volume hierarchy walked recursively (raytrace_bvh.c), and
 * shading recurses through reflection and refraction (raytrace_shade.c).
 *
 * The checksum must be the same for every compiler and flag, so the
 * arithmetic is limited to + - * / and sqrt, whose IEEE results are exact
 * functions of their operands: no pow, no trigonometry (the camera's angle
 * is a constant), integer powers by repeated multiplication, and no fused
 * multiply-add (gcc in ISO C mode does not contract; clang is told not to). */
#ifndef RAYTRACE_H
#define RAYTRACE_H

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#include <stddef.h>
#include <stdint.h>

#include "../support/native_common.h"

typedef struct rt_vec {
    double x, y, z;
} rt_vec;

typedef struct rt_ray {
    rt_vec origin, dir; /* dir has unit length */
} rt_ray;

/* ---- vectors (raytrace_vec.c) ------------------------------------------ */

rt_vec rt_v(double x, double y, double z);
rt_vec rt_add(rt_vec a, rt_vec b);
rt_vec rt_sub(rt_vec a, rt_vec b);
rt_vec rt_scale(rt_vec a, double s);
rt_vec rt_mul(rt_vec a, rt_vec b); /* component-wise, for colours */
double rt_dot(rt_vec a, rt_vec b);
rt_vec rt_cross(rt_vec a, rt_vec b);
double rt_length(rt_vec a);
rt_vec rt_normalize(rt_vec a);
rt_vec rt_reflect(rt_vec d, rt_vec n);
/* Refracts unit d through unit normal n (facing d) with eta = n1 / n2;
 * returns 0 on total internal reflection. */
int rt_refract(rt_vec d, rt_vec n, double eta, rt_vec *out);
rt_vec rt_at(const rt_ray *r, double t);
double rt_ipow(double x, int n);
double rt_clamp(double x, double lo, double hi);
rt_vec rt_vmin(rt_vec a, rt_vec b);
rt_vec rt_vmax(rt_vec a, rt_vec b);
double rt_axis(rt_vec a, int axis);

/* ---- scene (raytrace_scene.c) ------------------------------------------- */

typedef struct rt_material {
    rt_vec color;
    double diffuse, specular;
    int shininess;
    double reflect, transmit, ior;
    int checker; /* alternate color and color * 0.25 on a 1-unit grid */
} rt_material;

typedef enum rt_shape_kind { RT_SPHERE, RT_PLANE, RT_DISC, RT_N_KINDS } rt_shape_kind;

typedef struct rt_shape {
    rt_shape_kind kind;
    rt_vec p;       /* sphere centre, point on plane or disc centre */
    rt_vec n;       /* plane or disc normal */
    double r;       /* sphere or disc radius */
    int material;
} rt_shape;

typedef struct rt_light {
    rt_vec pos, color;
} rt_light;

typedef struct rt_hit {
    double t;
    rt_vec point, normal; /* normal faces the ray */
    int inside;           /* the ray started inside the shape */
    const rt_shape *shape;
} rt_hit;

/* Per-kind operations: the nearest t in (t_min, t_max) or 0 for a miss,
 * and the outward normal at a point. */
typedef struct rt_shape_ops {
    int (*intersect)(const rt_shape *s, const rt_ray *r, double t_min, double t_max,
                     double *out_t);
    rt_vec (*normal)(const rt_shape *s, rt_vec p);
    void (*bounds)(const rt_shape *s, rt_vec *lo, rt_vec *hi);
} rt_shape_ops;

const rt_shape_ops *rt_ops(rt_shape_kind kind);

typedef struct rt_bvh rt_bvh;

typedef struct rt_scene {
    rt_shape *shapes;
    int n_shapes;
    rt_material *materials;
    int n_materials;
    rt_light *lights;
    int n_lights;
    rt_vec sky_top, sky_bottom, ambient;
    rt_bvh *bvh;  /* over the bounded shapes; planes are tested apart */
    uint64_t rays, shadow_rays, node_visits;
} rt_scene;

void rt_scene_build(rt_scene *sc, uint64_t seed);
void rt_scene_free(rt_scene *sc);
/* The nearest hit in (t_min, t_max); 0 if none. */
int rt_scene_intersect(rt_scene *sc, const rt_ray *r, double t_min, double t_max,
                       rt_hit *out);
/* 1 when anything blocks the segment from the ray origin to t_max. */
int rt_scene_occluded(rt_scene *sc, const rt_ray *r, double t_max);

/* ---- BVH (raytrace_bvh.c) ------------------------------------------------- */

rt_bvh *rt_bvh_build(const rt_shape *shapes, const int *ids, int n);
void rt_bvh_free(rt_bvh *b);
int rt_bvh_depth(const rt_bvh *b);
/* Nearest hit among the BVH's shapes, closer than *io_t; updates *io_t and
 * *out_shape. any_hit stops at the first hit. */
int rt_bvh_intersect(const rt_bvh *b, const rt_shape *shapes, const rt_ray *r, double t_min,
                     double *io_t, const rt_shape **out_shape, int any_hit, uint64_t *visits);

/* ---- shading and rendering (raytrace_shade.c, raytrace_render.c) -------- */

enum { RT_MAX_DEPTH = 6 };

rt_vec rt_trace(rt_scene *sc, const rt_ray *r, int depth);

typedef struct rt_image {
    int w, h;
    unsigned char *rgb;
} rt_image;

void rt_render(rt_scene *sc, rt_image *img, int samples_per_axis);

#endif
