/* raytrace: shading. Phong lighting with hard shadows from each point
 * light, a checker pattern, mirror reflection, and refraction weighted by
 * Schlick's Fresnel approximation; rays recurse up to RT_MAX_DEPTH. */
#include "raytrace.h"

#include <math.h>

static const double rt_eps = 1e-6;

static rt_vec rt_sky(const rt_scene *sc, rt_vec dir)
{
    double t = rt_clamp(0.5 * (dir.y + 1.0), 0.0, 1.0);
    return rt_add(rt_scale(sc->sky_bottom, 1.0 - t), rt_scale(sc->sky_top, t));
}

static rt_vec rt_surface_color(const rt_material *m, rt_vec p)
{
    if (!m->checker)
        return m->color;
    long cell = (long)floor(p.x) + (long)floor(p.z);
    return (cell & 1) ? rt_scale(m->color, 0.25) : m->color;
}

/* Diffuse and specular light from one light, zero when it is shadowed. */
static rt_vec rt_light_contribution(rt_scene *sc, const rt_light *light, const rt_hit *hit,
                                    const rt_material *m, rt_vec base, rt_vec view)
{
    rt_vec to_light = rt_sub(light->pos, hit->point);
    double dist = rt_length(to_light);
    rt_vec l = rt_scale(to_light, 1.0 / dist);
    double lambert = rt_dot(hit->normal, l);
    if (lambert <= 0)
        return rt_v(0, 0, 0);
    rt_ray shadow = {rt_add(hit->point, rt_scale(hit->normal, rt_eps * 10)), l};
    if (rt_scene_occluded(sc, &shadow, dist))
        return rt_v(0, 0, 0);
    rt_vec color = rt_scale(rt_mul(base, light->color), m->diffuse * lambert);
    rt_vec half = rt_normalize(rt_sub(l, view));
    double spec = rt_dot(hit->normal, half);
    if (spec > 0)
        color = rt_add(color, rt_scale(light->color, m->specular * rt_ipow(spec, m->shininess)));
    return color;
}

static rt_vec rt_local(rt_scene *sc, const rt_hit *hit, const rt_material *m, rt_vec view)
{
    rt_vec base = rt_surface_color(m, hit->point);
    rt_vec color = rt_mul(base, sc->ambient);
    for (int i = 0; i < sc->n_lights; i++)
        color = rt_add(color, rt_light_contribution(sc, &sc->lights[i], hit, m, base, view));
    return color;
}

static double rt_schlick(double cos_i, double n1, double n2)
{
    double r0 = (n1 - n2) / (n1 + n2);
    r0 *= r0;
    return r0 + (1.0 - r0) * rt_ipow(1.0 - cos_i, 5);
}

static rt_vec rt_secondary(rt_scene *sc, rt_vec origin, rt_vec dir, int depth)
{
    rt_ray r = {origin, dir};
    return rt_trace(sc, &r, depth + 1);
}

static rt_vec rt_reflection(rt_scene *sc, const rt_hit *hit, rt_vec dir, int depth)
{
    rt_vec d = rt_normalize(rt_reflect(dir, hit->normal));
    return rt_secondary(sc, rt_add(hit->point, rt_scale(hit->normal, rt_eps * 10)), d, depth);
}

/* Refracted light plus the Fresnel share of the reflection. */
static rt_vec rt_transmission(rt_scene *sc, const rt_hit *hit, const rt_material *m, rt_vec dir,
                              int depth)
{
    double n1 = hit->inside ? m->ior : 1.0, n2 = hit->inside ? 1.0 : m->ior;
    rt_vec refr;
    if (!rt_refract(dir, hit->normal, n1 / n2, &refr))
        return rt_reflection(sc, hit, dir, depth);
    double fresnel = rt_schlick(-rt_dot(dir, hit->normal), n1, n2);
    rt_vec through = rt_secondary(sc, rt_sub(hit->point, rt_scale(hit->normal, rt_eps * 10)), refr,
                                  depth);
    rt_vec back = rt_reflection(sc, hit, dir, depth);
    return rt_add(rt_scale(through, 1.0 - fresnel), rt_scale(back, fresnel));
}

rt_vec rt_trace(rt_scene *sc, const rt_ray *r, int depth)
{
    sc->rays++;
    rt_hit hit;
    if (!rt_scene_intersect(sc, r, rt_eps, 1e30, &hit))
        return rt_sky(sc, r->dir);
    const rt_material *m = &sc->materials[hit.shape->material];
    rt_vec color = rt_scale(rt_local(sc, &hit, m, r->dir), 1.0 - m->reflect - m->transmit);
    if (depth >= RT_MAX_DEPTH)
        return color;
    if (m->reflect > 0)
        color = rt_add(color, rt_scale(rt_reflection(sc, &hit, r->dir, depth), m->reflect));
    if (m->transmit > 0)
        color = rt_add(color, rt_scale(rt_transmission(sc, &hit, m, r->dir, depth), m->transmit));
    return color;
}
