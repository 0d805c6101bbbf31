/* mtsort: k-means (Lloyd's algorithm) on integer points, k = 16. Each step
 * assigns points to the nearest centroid in parallel pieces that
 * accumulate their own integer sums; the sums are added in piece order and
 * divided (rounding toward zero) into the next centroids. Integer
 * arithmetic makes every step exact, so the result does not depend on how
 * the pieces were scheduled. */
#include "mtsort.h"

#include <stdlib.h>
#include <string.h>

enum { MT_K = 16 };

typedef struct mt_point {
    int32_t x, y;
} mt_point;

typedef struct mt_km_job {
    mt_point *pts;
    size_t lo, hi;
    uint64_t seed;
    const int64_t *cx, *cy;
    int64_t sx[MT_K], sy[MT_K];
    uint64_t count[MT_K];
    uint64_t inertia;
} mt_km_job;

/* Points around MT_K hidden centres, spread by a sum of uniforms. */
static void mt_km_generate(void *arg)
{
    mt_km_job *j = arg;
    nw_rng r;
    nw_rng_seed(&r, j->seed);
    for (size_t i = j->lo; i < j->hi; i++) {
        uint32_t c = nw_rng_below(&r, MT_K);
        int32_t cx = (int32_t)(c % 4) * 25000 - 37500, cy = (int32_t)(c / 4) * 25000 - 37500;
        int32_t dx = 0, dy = 0;
        for (int k = 0; k < 4; k++) {
            dx += nw_rng_range(&r, -4000, 4000);
            dy += nw_rng_range(&r, -4000, 4000);
        }
        j->pts[i] = (mt_point){cx + dx, cy + dy};
    }
}

static int mt_nearest(const mt_km_job *j, mt_point p, uint64_t *out_d2)
{
    int best = 0;
    uint64_t best_d2 = UINT64_MAX;
    for (int c = 0; c < MT_K; c++) {
        int64_t dx = p.x - j->cx[c], dy = p.y - j->cy[c];
        uint64_t d2 = (uint64_t)(dx * dx) + (uint64_t)(dy * dy);
        if (d2 < best_d2) {
            best_d2 = d2;
            best = c;
        }
    }
    *out_d2 = best_d2;
    return best;
}

static void mt_km_assign(void *arg)
{
    mt_km_job *j = arg;
    memset(j->sx, 0, sizeof j->sx);
    memset(j->sy, 0, sizeof j->sy);
    memset(j->count, 0, sizeof j->count);
    j->inertia = 0;
    for (size_t i = j->lo; i < j->hi; i++) {
        uint64_t d2;
        int c = mt_nearest(j, j->pts[i], &d2);
        j->sx[c] += j->pts[i].x;
        j->sy[c] += j->pts[i].y;
        j->count[c]++;
        j->inertia += d2;
    }
}

static void mt_km_update(const mt_km_job *jobs, int64_t *cx, int64_t *cy, mt_kmeans_result *res)
{
    int64_t sx[MT_K] = {0}, sy[MT_K] = {0};
    uint64_t count[MT_K] = {0};
    res->inertia = 0;
    for (size_t i = 0; i < MT_PIECES; i++) {
        for (int c = 0; c < MT_K; c++) {
            sx[c] += jobs[i].sx[c];
            sy[c] += jobs[i].sy[c];
            count[c] += jobs[i].count[c];
        }
        res->inertia += jobs[i].inertia;
    }
    for (int c = 0; c < MT_K; c++) {
        if (count[c]) { /* an empty cluster keeps its centroid */
            cx[c] = sx[c] / (int64_t)count[c];
            cy[c] = sy[c] / (int64_t)count[c];
        }
        res->sizes[c] = count[c];
    }
}

mt_kmeans_result mt_kmeans(mt_pool *p, size_t n, int iterations, uint64_t seed)
{
    mt_point *pts = nw_alloc(sizeof(mt_point) * (n ? n : 1));
    mt_km_job *jobs = nw_zalloc(MT_PIECES, sizeof *jobs);
    int64_t cx[MT_K] = {0}, cy[MT_K] = {0};
    for (size_t i = 0; i < MT_PIECES; i++) {
        jobs[i].pts = pts;
        jobs[i].lo = mt_piece_bound(n, i);
        jobs[i].hi = mt_piece_bound(n, i + 1);
        jobs[i].seed = seed + i;
        jobs[i].cx = cx;
        jobs[i].cy = cy;
    }
    mt_pool_map(p, mt_km_generate, jobs, sizeof *jobs, MT_PIECES);
    /* Start from points spread through the data. */
    for (int c = 0; c < MT_K; c++) {
        size_t i = n ? (size_t)c * (n / MT_K) : 0;
        cx[c] = n ? pts[i].x : 0;
        cy[c] = n ? pts[i].y : 0;
    }
    mt_kmeans_result res;
    memset(&res, 0, sizeof res);
    for (int it = 0; it < iterations; it++) {
        mt_pool_map(p, mt_km_assign, jobs, sizeof *jobs, MT_PIECES);
        mt_km_update(jobs, cx, cy, &res);
    }
    memcpy(res.cx, cx, sizeof cx);
    memcpy(res.cy, cy, sizeof cy);
    free(jobs);
    free(pts);
    return res;
}
