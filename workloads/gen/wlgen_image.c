/* lowprof-wlgen: a synthetic photograph.
 *
 * JPEG's cost per block depends on what the block holds: flat sky codes to a
 * DC term and an end-of-block, texture and noise fill every coefficient and
 * keep the Huffman coder busy. A real photograph mixes these regions, so
 * this one does too: a vertical sky gradient over ground with soft value
 * noise, then shapes (discs, rectangles, ellipses) filled with flat colour,
 * stripes, checkerboards, radial gradients or grain, and a few patches of
 * strong noise such as foliage or gravel give. Every pixel is a pure
 * function of its coordinates, so rows can be rendered in any order (the
 * compressors' mixed input takes rows of several images). */
#include <stdlib.h>

#include "wlgen.h"

enum { SHAPE_DISC, SHAPE_RECT, SHAPE_ELLIPSE };
enum { FILL_FLAT, FILL_STRIPES, FILL_CHECKER, FILL_RADIAL, FILL_GRAIN, FILL_NOISE };

typedef struct shape {
    int kind, fill;
    int x0, y0, x1, y1; /* bounding box, inclusive-exclusive */
    int cx, cy, rx, ry;
    unsigned char rgb[3], rgb2[3];
    int period;     /* stripes and checkers, pixels */
    uint32_t angle; /* stripes: direction as a phase-accumulator turn */
} shape;

struct wl_image {
    int width, height, horizon;
    uint32_t seed;
    unsigned char sky_top[3], sky_bottom[3], ground[3];
    shape *shapes;
    int nshapes;
};

static void random_colour(wl_rng *r, unsigned char *rgb)
{
    for (int i = 0; i < 3; i++)
        rgb[i] = (unsigned char)wl_rng_range(r, 20, 235);
}

wl_image *wl_image_create(uint64_t seed, int width, int height)
{
    wl_sin_table_init();
    wl_rng r;
    wl_rng_seed(&r, seed);
    wl_image *im = wl_xcalloc(1, sizeof *im);
    im->width = width;
    im->height = height;
    im->seed = (uint32_t)wl_rng_next(&r);
    im->horizon = height * wl_rng_range(&r, 30, 60) / 100;
    im->sky_top[0] = 40, im->sky_top[1] = 90,
    im->sky_top[2] = (unsigned char)wl_rng_range(&r, 150, 220);
    im->sky_bottom[0] = 180, im->sky_bottom[1] = 200, im->sky_bottom[2] = 230;
    im->ground[0] = (unsigned char)wl_rng_range(&r, 60, 120);
    im->ground[1] = (unsigned char)wl_rng_range(&r, 80, 140);
    im->ground[2] = (unsigned char)wl_rng_range(&r, 30, 70);
    /* Shape count grows with area so large images are as busy as small. */
    long area = (long)width * height;
    im->nshapes = (int)(20 + area / 8000);
    if (im->nshapes > 400)
        im->nshapes = 400;
    im->shapes = wl_xcalloc((size_t)im->nshapes, sizeof *im->shapes);
    int minside = width < height ? width : height;
    for (int i = 0; i < im->nshapes; i++) {
        shape *s = &im->shapes[i];
        s->kind = (int)wl_rng_below(&r, 3);
        unsigned f = wl_rng_below(&r, 100);
        s->fill = f < 35   ? FILL_FLAT
                  : f < 50 ? FILL_STRIPES
                  : f < 60 ? FILL_CHECKER
                  : f < 75 ? FILL_RADIAL
                  : f < 90 ? FILL_GRAIN
                           : FILL_NOISE;
        s->cx = wl_rng_range(&r, 0, width - 1);
        s->cy = wl_rng_range(&r, 0, height - 1);
        /* Many small objects, few large ones: size ~ u^2. */
        int big = minside / 4 > 8 ? minside / 4 : 8;
        uint32_t u = wl_rng_below(&r, 1000), v = wl_rng_below(&r, 1000);
        s->rx = 3 + (int)((uint64_t)big * u * u / 1000000);
        s->ry = s->kind == SHAPE_DISC ? s->rx : 3 + (int)((uint64_t)big * v * v / 1000000);
        s->x0 = s->cx - s->rx, s->x1 = s->cx + s->rx + 1;
        s->y0 = s->cy - s->ry, s->y1 = s->cy + s->ry + 1;
        random_colour(&r, s->rgb);
        random_colour(&r, s->rgb2);
        s->period = wl_rng_range(&r, 3, 24);
        s->angle = (uint32_t)wl_rng_next(&r);
    }
    return im;
}

void wl_image_free(wl_image *im)
{
    if (!im)
        return;
    free(im->shapes);
    free(im);
}

/* Smooth value noise in [0, 255]: bilinear interpolation of hashed lattice
 * values, cell size in pixels. */
static int value_noise(uint32_t seed, int x, int y, int cell)
{
    int gx = x / cell, gy = y / cell, fx = x % cell, fy = y % cell;
    int v00 = (int)(wl_hash3((uint32_t)gx, (uint32_t)gy, seed) >> 24);
    int v10 = (int)(wl_hash3((uint32_t)gx + 1, (uint32_t)gy, seed) >> 24);
    int v01 = (int)(wl_hash3((uint32_t)gx, (uint32_t)gy + 1, seed) >> 24);
    int v11 = (int)(wl_hash3((uint32_t)gx + 1, (uint32_t)gy + 1, seed) >> 24);
    int top = v00 * (cell - fx) + v10 * fx;
    int bottom = v01 * (cell - fx) + v11 * fx;
    return (top * (cell - fy) + bottom * fy) / (cell * cell);
}

static int inside(const shape *s, int x, int y)
{
    if (x < s->x0 || x >= s->x1 || y < s->y0 || y >= s->y1)
        return 0;
    if (s->kind == SHAPE_RECT)
        return 1;
    long dx = x - s->cx, dy = y - s->cy, rx = s->rx, ry = s->ry;
    return dx * dx * ry * ry + dy * dy * rx * rx <= rx * rx * ry * ry;
}

static void shade(const wl_image *im, const shape *s, int x, int y, int *rgb)
{
    int t = 0; /* 0..256: mix from rgb to rgb2 */
    switch (s->fill) {
    case FILL_FLAT:
        /* Lit from above: a gradient down the shape, and fine grain, as
         * no real surface photographs as one flat colour. */
        t = (y - s->y0) * 96 / (s->y1 - s->y0) +
            (int)(wl_hash3((uint32_t)x, (uint32_t)y, im->seed + 3u) >> 28);
        break;
    case FILL_STRIPES: {
        /* Project onto the stripe direction with Q15 sine and cosine. */
        int32_t c = wl_sin_q15(s->angle + 0x40000000u), sn = wl_sin_q15(s->angle);
        long d = ((long)x * c + (long)y * sn) >> 15;
        uint32_t ph = (uint32_t)((d * 65536 / s->period) & 0xffff) << 16;
        t = (wl_sin_q15(ph) + 32768) >> 8;
        break;
    }
    case FILL_CHECKER: t = (((x / s->period) ^ (y / s->period)) & 1) * 256; break;
    case FILL_RADIAL: {
        long dx = x - s->cx, dy = y - s->cy;
        long rr = (long)s->rx * s->rx + 1;
        long q = (dx * dx + dy * dy) * 256 / rr;
        t = q > 256 ? 256 : (int)q;
        break;
    }
    case FILL_GRAIN: t = value_noise(im->seed ^ (uint32_t)s->period, x, y, 3); break;
    case FILL_NOISE: t = (int)(wl_hash3((uint32_t)x, (uint32_t)y, im->seed + 7u) >> 24); break;
    }
    for (int i = 0; i < 3; i++)
        rgb[i] = (s->rgb[i] * (256 - t) + s->rgb2[i] * t) >> 8;
}

void wl_image_row(const wl_image *im, int y, unsigned char *out)
{
    for (int x = 0; x < im->width; x++) {
        int rgb[3];
        if (y < im->horizon) {
            int t = im->horizon > 1 ? y * 256 / im->horizon : 0;
            for (int i = 0; i < 3; i++)
                rgb[i] = (im->sky_top[i] * (256 - t) + im->sky_bottom[i] * t) >> 8;
            /* faint clouds */
            int c = value_noise(im->seed, x, y, 64) - 150;
            if (c > 0)
                for (int i = 0; i < 3; i++)
                    rgb[i] += c;
        } else {
            int n = value_noise(im->seed + 1u, x, y, 16) + value_noise(im->seed + 2u, x, y, 5) / 2;
            for (int i = 0; i < 3; i++)
                rgb[i] = im->ground[i] + n / 3 - 64;
        }
        for (int k = 0; k < im->nshapes; k++)
            if (inside(&im->shapes[k], x, y))
                shade(im, &im->shapes[k], x, y, rgb);
        /* Sensor noise of a couple of levels everywhere, as in a photograph. */
        uint32_t h = wl_hash3((uint32_t)x, (uint32_t)y, im->seed + 99u);
        for (int i = 0; i < 3; i++) {
            int v = rgb[i] + (int)((h >> (8 * i)) & 3) - 1;
            out[3 * x + i] = (unsigned char)wl_clamp(v, 0, 255);
        }
    }
}

int wl_image_write_ppm(const wl_image *im, FILE *f)
{
    if (fprintf(f, "P6\n%d %d\n255\n", im->width, im->height) < 0)
        return -1;
    unsigned char *row = wl_xmalloc((size_t)im->width * 3);
    int rc = 0;
    for (int y = 0; y < im->height && rc == 0; y++) {
        wl_image_row(im, y, row);
        if (fwrite(row, 3, (size_t)im->width, f) != (size_t)im->width)
            rc = -1;
    }
    free(row);
    return rc;
}
