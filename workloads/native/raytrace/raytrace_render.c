/* raytrace: the camera and the image. A pinhole camera with a fixed field
 * of view, n x n stratified samples per pixel, gamma 2 (a square root) and
 * rounding to 8 bits. */
#include "raytrace.h"

#include <math.h>
#include <stdlib.h>

typedef struct rt_camera {
    rt_vec eye, forward, right, up;
    double half_w, half_h;
} rt_camera;

static rt_camera rt_camera_look(rt_vec eye, rt_vec target, double aspect)
{
    rt_camera c;
    c.eye = eye;
    c.forward = rt_normalize(rt_sub(target, eye));
    c.right = rt_normalize(rt_cross(rt_v(0, 1, 0), c.forward));
    c.up = rt_cross(c.forward, c.right);
    c.half_h = 0.55; /* tan of half the vertical field of view, about 58 degrees */
    c.half_w = c.half_h * aspect;
    return c;
}

static rt_ray rt_camera_ray(const rt_camera *c, double u, double v)
{
    rt_vec d = rt_add(c->forward, rt_add(rt_scale(c->right, u * c->half_w),
                                         rt_scale(c->up, v * c->half_h)));
    rt_ray r = {c->eye, rt_normalize(d)};
    return r;
}

static unsigned char rt_to_byte(double linear)
{
    double g = sqrt(rt_clamp(linear, 0.0, 1.0));
    return (unsigned char)(g * 255.0 + 0.5);
}

static rt_vec rt_pixel(rt_scene *sc, const rt_camera *cam, const rt_image *img, int x, int y,
                       int n)
{
    rt_vec sum = rt_v(0, 0, 0);
    for (int sy = 0; sy < n; sy++) {
        for (int sx = 0; sx < n; sx++) {
            double u = 2.0 * ((x + (sx + 0.5) / n) / img->w) - 1.0;
            double v = 1.0 - 2.0 * ((y + (sy + 0.5) / n) / img->h);
            rt_ray r = rt_camera_ray(cam, u, v);
            sum = rt_add(sum, rt_trace(sc, &r, 0));
        }
    }
    return rt_scale(sum, 1.0 / (n * n));
}

void rt_render(rt_scene *sc, rt_image *img, int samples_per_axis)
{
    rt_camera cam = rt_camera_look(rt_v(0, 2.6, -8.5), rt_v(0, 1.2, 2.0),
                                   (double)img->w / img->h);
    for (int y = 0; y < img->h; y++) {
        for (int x = 0; x < img->w; x++) {
            rt_vec c = rt_pixel(sc, &cam, img, x, y, samples_per_axis);
            unsigned char *p = img->rgb + 3 * ((size_t)y * (size_t)img->w + (size_t)x);
            p[0] = rt_to_byte(c.x);
            p[1] = rt_to_byte(c.y);
            p[2] = rt_to_byte(c.z);
        }
    }
}
