/* raytrace: vector arithmetic. Deliberately a separate translation unit:
 * without link-time optimisation each operation is a real call, as in code
 * bases whose math library is compiled apart. */
#include "raytrace.h"

#include <math.h>

rt_vec rt_v(double x, double y, double z)
{
    rt_vec v = {x, y, z};
    return v;
}

rt_vec rt_add(rt_vec a, rt_vec b)
{
    return rt_v(a.x + b.x, a.y + b.y, a.z + b.z);
}

rt_vec rt_sub(rt_vec a, rt_vec b)
{
    return rt_v(a.x - b.x, a.y - b.y, a.z - b.z);
}

rt_vec rt_scale(rt_vec a, double s)
{
    return rt_v(a.x * s, a.y * s, a.z * s);
}

rt_vec rt_mul(rt_vec a, rt_vec b)
{
    return rt_v(a.x * b.x, a.y * b.y, a.z * b.z);
}

double rt_dot(rt_vec a, rt_vec b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

rt_vec rt_cross(rt_vec a, rt_vec b)
{
    return rt_v(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

double rt_length(rt_vec a)
{
    return sqrt(rt_dot(a, a));
}

rt_vec rt_normalize(rt_vec a)
{
    double len = rt_length(a);
    return len > 0 ? rt_scale(a, 1.0 / len) : a;
}

rt_vec rt_reflect(rt_vec d, rt_vec n)
{
    return rt_sub(d, rt_scale(n, 2.0 * rt_dot(d, n)));
}

int rt_refract(rt_vec d, rt_vec n, double eta, rt_vec *out)
{
    double cos_i = -rt_dot(d, n);
    double k = 1.0 - eta * eta * (1.0 - cos_i * cos_i);
    if (k < 0)
        return 0;
    *out = rt_normalize(rt_add(rt_scale(d, eta), rt_scale(n, eta * cos_i - sqrt(k))));
    return 1;
}

rt_vec rt_at(const rt_ray *r, double t)
{
    return rt_add(r->origin, rt_scale(r->dir, t));
}

double rt_ipow(double x, int n)
{
    double result = 1.0;
    while (n > 0) {
        if (n & 1)
            result *= x;
        x *= x;
        n >>= 1;
    }
    return result;
}

double rt_clamp(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

rt_vec rt_vmin(rt_vec a, rt_vec b)
{
    return rt_v(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z);
}

rt_vec rt_vmax(rt_vec a, rt_vec b)
{
    return rt_v(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z);
}

double rt_axis(rt_vec a, int axis)
{
    return axis == 0 ? a.x : axis == 1 ? a.y : a.z;
}
