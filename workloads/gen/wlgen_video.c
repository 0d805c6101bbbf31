/* lowprof-wlgen: YUV4MPEG2 video for mpeg2enc.
 *
 * An MPEG-2 encoder spends its time in motion estimation, and how much
 * depends on the motion: a static shot finds its matches at once, a pan
 * shifts every block, moving objects uncover background, and a scene cut
 * makes prediction fail so the encoder falls back to intra coding. The clip
 * is therefore a sequence of scenes (10 to 40 frames each), each with its own
 * textured background panned at its own speed, a handful of shapes moving
 * across it, and sometimes a fade to black at the end. Backgrounds are
 * procedural (a pure function of world coordinates), so a pan really moves
 * the same picture content across the frame. */
#include <stdlib.h>

#include "wlgen.h"

#define MAX_OBJECTS 10

typedef struct object {
    int disc;
    int x, y, vx, vy; /* position and velocity in 1/16 pixel */
    int rx, ry;
    int luma, u, v;
    int striped;
} object;

typedef struct scene {
    int frames;
    int background;   /* 0 terrain, 1 stripes, 2 tiles, 3 sky */
    int pan_x, pan_y; /* velocity in 1/16 pixel per frame */
    uint32_t seed;
    int base_luma, base_u, base_v;
    int fade; /* frames of fade-out at the end */
    object obj[MAX_OBJECTS];
    int nobj;
} scene;

static int noise(uint32_t seed, int x, int y, int cell)
{
    /* Floor division, so negative world coordinates (pans) stay smooth. */
    int gx = x >= 0 ? x / cell : -((-x + cell - 1) / cell);
    int gy = y >= 0 ? y / cell : -((-y + cell - 1) / cell);
    int fx = x - gx * cell, fy = y - gy * cell;
    int v00 = (int)(wl_hash3((uint32_t)gx, (uint32_t)gy, seed) >> 24);
    int v10 = (int)(wl_hash3((uint32_t)gx + 1, (uint32_t)gy, seed) >> 24);
    int v01 = (int)(wl_hash3((uint32_t)gx, (uint32_t)gy + 1, seed) >> 24);
    int v11 = (int)(wl_hash3((uint32_t)gx + 1, (uint32_t)gy + 1, seed) >> 24);
    int top = v00 * (cell - fx) + v10 * fx, bottom = v01 * (cell - fx) + v11 * fx;
    return (top * (cell - fy) + bottom * fy) / (cell * cell);
}

static void new_scene(wl_rng *r, scene *s, int width, int height)
{
    s->frames = wl_rng_range(r, 10, 40);
    s->background = (int)wl_rng_below(r, 4);
    s->pan_x = wl_rng_chance(r, 30) ? 0 : wl_rng_range(r, -80, 80);
    s->pan_y = wl_rng_chance(r, 60) ? 0 : wl_rng_range(r, -24, 24);
    s->seed = (uint32_t)wl_rng_next(r);
    s->base_luma = wl_rng_range(r, 60, 180);
    s->base_u = wl_rng_range(r, 90, 166);
    s->base_v = wl_rng_range(r, 90, 166);
    s->fade = wl_rng_chance(r, 30) ? wl_rng_range(r, 4, 10) : 0;
    s->nobj = wl_rng_range(r, 1, MAX_OBJECTS);
    for (int i = 0; i < s->nobj; i++) {
        object *o = &s->obj[i];
        o->disc = wl_rng_chance(r, 50);
        o->x = wl_rng_range(r, 0, width * 16);
        o->y = wl_rng_range(r, 0, height * 16);
        o->vx = wl_rng_range(r, -96, 96);
        o->vy = wl_rng_range(r, -48, 48);
        o->rx = wl_rng_range(r, width / 40 + 2, width / 6 + 3);
        o->ry = o->disc ? o->rx : wl_rng_range(r, height / 40 + 2, height / 5 + 3);
        o->luma = wl_rng_range(r, 16, 235);
        o->u = wl_rng_range(r, 40, 216);
        o->v = wl_rng_range(r, 40, 216);
        o->striped = wl_rng_chance(r, 30);
    }
}

static int background(const scene *s, int x, int y)
{
    switch (s->background) {
    case 0:
        return s->base_luma + noise(s->seed, x, y, 32) / 2 + noise(s->seed + 1u, x, y, 6) / 4 - 96;
    case 1:
        return s->base_luma + (wl_sin_q15((uint32_t)(x * 3 + y) << 24) >> 10) +
               noise(s->seed, x, y, 12) / 8;
    case 2:
        return s->base_luma + ((((x >> 4) ^ (y >> 4)) & 1) ? 40 : -40) +
               (int)(wl_hash3((uint32_t)x, (uint32_t)y, s->seed) >> 29);
    default: return s->base_luma + y / 8 + (noise(s->seed, x, y, 48) > 170 ? 50 : 0) - 30;
    }
}

/* The object covering pixel (x, y) of the frame, topmost, or NULL. */
static const object *object_at(const scene *s, int x, int y)
{
    for (int i = s->nobj - 1; i >= 0; i--) {
        const object *o = &s->obj[i];
        long dx = x - o->x / 16, dy = y - o->y / 16;
        if (dx < -o->rx || dx > o->rx || dy < -o->ry || dy > o->ry)
            continue;
        if (!o->disc || dx * dx * o->ry * o->ry + dy * dy * o->rx * o->rx <=
                            (long)o->rx * o->rx * o->ry * o->ry)
            return o;
    }
    return NULL;
}

static void move_objects(scene *s, int width, int height)
{
    for (int i = 0; i < s->nobj; i++) {
        object *o = &s->obj[i];
        o->x += o->vx;
        o->y += o->vy;
        /* bounce off the frame edges, slightly outside */
        if (o->x < -o->rx * 16 || o->x > (width + o->rx) * 16)
            o->vx = -o->vx;
        if (o->y < -o->ry * 16 || o->y > (height + o->ry) * 16)
            o->vy = -o->vy;
    }
}

int wl_video_write(uint64_t seed, int width, int height, int frames, FILE *f)
{
    wl_sin_table_init();
    wl_rng r;
    wl_rng_seed(&r, seed);
    if (fprintf(f, "YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n", width, height) < 0)
        return -1;
    size_t ysize = (size_t)width * height, csize = ysize / 4;
    unsigned char *plane = wl_xmalloc(ysize + 2 * csize);
    scene s;
    new_scene(&r, &s, width, height);
    int in_scene = 0, cam_x = 0, cam_y = 0; /* camera in 1/16 pixel */
    int rc = 0;
    for (int n = 0; n < frames && rc == 0; n++) {
        if (in_scene == s.frames) {
            new_scene(&r, &s, width, height);
            in_scene = 0;
            cam_x = cam_y = 0;
        }
        int gain = 256;
        if (s.fade && in_scene >= s.frames - s.fade)
            gain = 256 * (s.frames - in_scene) / (s.fade + 1);
        int ox = cam_x / 16, oy = cam_y / 16;
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                const object *o = object_at(&s, x, y);
                int l;
                if (o)
                    l = o->striped ? o->luma + (((x + y) >> 2) & 1) * 30 - 15 : o->luma;
                else
                    l = background(&s, x + ox, y + oy);
                l = 16 + (l - 16) * gain / 256;
                plane[(size_t)y * width + x] = (unsigned char)wl_clamp(l, 16, 235);
            }
        }
        for (int y = 0; y < height / 2; y++) {
            for (int x = 0; x < width / 2; x++) {
                const object *o = object_at(&s, 2 * x, 2 * y);
                int u =
                    o ? o->u : s.base_u + (noise(s.seed + 5u, x + ox / 2, y + oy / 2, 40) >> 4) - 8;
                int v =
                    o ? o->v : s.base_v + (noise(s.seed + 6u, x + ox / 2, y + oy / 2, 40) >> 4) - 8;
                u = 128 + (u - 128) * gain / 256;
                v = 128 + (v - 128) * gain / 256;
                size_t i = (size_t)y * (width / 2) + x;
                plane[ysize + i] = (unsigned char)wl_clamp(u, 16, 240);
                plane[ysize + csize + i] = (unsigned char)wl_clamp(v, 16, 240);
            }
        }
        if (fputs("FRAME\n", f) < 0 || fwrite(plane, 1, ysize + 2 * csize, f) != ysize + 2 * csize)
            rc = -1;
        move_objects(&s, width, height);
        cam_x += s.pan_x;
        cam_y += s.pan_y;
        in_scene++;
    }
    free(plane);
    return rc;
}
