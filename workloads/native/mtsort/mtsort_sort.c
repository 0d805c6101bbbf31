/* mtsort: parallel merge sort. MT_PIECES pieces are sorted sequentially
 * (top-down merge sort, insertion sort for short runs) as independent
 * tasks; then rounds of pairwise merges, each merge cut into segments by
 * co-ranking so that the last rounds, with few long runs, still keep every
 * worker busy. The merges are stable and the cut points exact, so the
 * output is the same for any number of threads. */
#include "mtsort.h"

#include <stdlib.h>
#include <string.h>

/* ---- filling and hashing ----------------------------------------------- */

typedef struct mt_piece_job {
    uint64_t *keys;
    const uint64_t *ckeys;
    size_t lo, hi;
    uint64_t seed, hash;
} mt_piece_job;

static void mt_fill_piece(void *arg)
{
    mt_piece_job *j = arg;
    nw_rng r;
    nw_rng_seed(&r, j->seed);
    for (size_t i = j->lo; i < j->hi; i++) {
        /* Keys with many duplicates in the low range, like real sort keys. */
        uint64_t v = nw_rng_next(&r);
        j->keys[i] = (v & 3) == 0 ? v % 1000 : v >> 8;
    }
}

static void mt_hash_piece(void *arg)
{
    mt_piece_job *j = arg;
    uint64_t h = NW_HASH_INIT;
    for (size_t i = j->lo; i < j->hi; i++)
        h = nw_hash_u64(h, j->ckeys[i]);
    j->hash = h;
}

static mt_piece_job *mt_pieces(size_t n)
{
    mt_piece_job *jobs = nw_zalloc(MT_PIECES, sizeof *jobs);
    for (size_t i = 0; i < MT_PIECES; i++) {
        jobs[i].lo = mt_piece_bound(n, i);
        jobs[i].hi = mt_piece_bound(n, i + 1);
    }
    return jobs;
}

void mt_fill_random(mt_pool *p, uint64_t *keys, size_t n, uint64_t seed)
{
    mt_piece_job *jobs = mt_pieces(n);
    for (size_t i = 0; i < MT_PIECES; i++) {
        jobs[i].keys = keys;
        jobs[i].seed = seed * 1000003 + i;
    }
    mt_pool_map(p, mt_fill_piece, jobs, sizeof *jobs, MT_PIECES);
    free(jobs);
}

uint64_t mt_hash_keys(mt_pool *p, const uint64_t *keys, size_t n)
{
    mt_piece_job *jobs = mt_pieces(n);
    for (size_t i = 0; i < MT_PIECES; i++)
        jobs[i].ckeys = keys;
    mt_pool_map(p, mt_hash_piece, jobs, sizeof *jobs, MT_PIECES);
    uint64_t h = NW_HASH_INIT;
    for (size_t i = 0; i < MT_PIECES; i++)
        h = nw_hash_u64(h, jobs[i].hash);
    free(jobs);
    return h;
}

/* ---- sequential sort ------------------------------------------------------- */

static void mt_insertion_sort(uint64_t *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint64_t v = a[i];
        size_t j = i;
        while (j > 0 && a[j - 1] > v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

/* Stable merge of a[0..m) and b[0..n) into out; ties from a first. */
static void mt_merge(const uint64_t *a, size_t m, const uint64_t *b, size_t n, uint64_t *out)
{
    size_t i = 0, j = 0, k = 0;
    while (i < m && j < n)
        out[k++] = b[j] < a[i] ? b[j++] : a[i++];
    while (i < m)
        out[k++] = a[i++];
    while (j < n)
        out[k++] = b[j++];
}

static void mt_merge_sort(uint64_t *a, uint64_t *tmp, size_t n)
{
    if (n <= 24) {
        mt_insertion_sort(a, n);
        return;
    }
    size_t half = n / 2;
    mt_merge_sort(a, tmp, half);
    mt_merge_sort(a + half, tmp, n - half);
    if (a[half - 1] <= a[half])
        return; /* already in order */
    mt_merge(a, half, a + half, n - half, tmp);
    memcpy(a, tmp, n * sizeof *a);
}

typedef struct mt_sort_job {
    uint64_t *keys, *scratch;
    size_t lo, hi;
} mt_sort_job;

static void mt_sort_piece(void *arg)
{
    mt_sort_job *j = arg;
    mt_merge_sort(j->keys + j->lo, j->scratch + j->lo, j->hi - j->lo);
}

/* ---- parallel merging ------------------------------------------------------- */

/* How many of the first k outputs of a stable merge of a and b come from
 * a: the smallest i with b[k-i-1] < a[i]. */
static size_t mt_co_rank(size_t k, const uint64_t *a, size_t m, const uint64_t *b, size_t n)
{
    size_t lo = k > n ? k - n : 0, hi = k < m ? k : m;
    while (lo < hi) {
        size_t i = lo + (hi - lo) / 2, j = k - i;
        if (j > 0 && a[i] <= b[j - 1])
            lo = i + 1;
        else
            hi = i;
    }
    return lo;
}

typedef struct mt_merge_job {
    const uint64_t *a, *b;
    size_t m, n;
    uint64_t *out;
    size_t k0, k1; /* the output segment */
} mt_merge_job;

static void mt_merge_segment(void *arg)
{
    mt_merge_job *j = arg;
    size_t i0 = mt_co_rank(j->k0, j->a, j->m, j->b, j->n);
    size_t i1 = mt_co_rank(j->k1, j->a, j->m, j->b, j->n);
    size_t j0 = j->k0 - i0, j1 = j->k1 - i1;
    mt_merge(j->a + i0, i1 - i0, j->b + j0, j1 - j0, j->out + j->k0);
}

/* One round: runs bounds[0..runs] in src merged pairwise into dst. Returns
 * the number of runs left, with bounds updated. */
static size_t mt_merge_round(mt_pool *p, const uint64_t *src, uint64_t *dst, size_t *bounds,
                             size_t runs)
{
    size_t pairs = runs / 2;
    size_t segments = pairs && MT_PIECES / pairs > 1 ? MT_PIECES / pairs : 1;
    mt_merge_job *jobs = nw_alloc(sizeof *jobs * (pairs * segments + 1));
    size_t n_jobs = 0;
    for (size_t r = 0; r + 1 < runs; r += 2) {
        size_t lo = bounds[r], mid = bounds[r + 1], hi = bounds[r + 2];
        for (size_t s = 0; s < segments; s++) {
            mt_merge_job *j = &jobs[n_jobs++];
            j->a = src + lo;
            j->m = mid - lo;
            j->b = src + mid;
            j->n = hi - mid;
            j->out = dst + lo;
            j->k0 = (hi - lo) * s / segments;
            j->k1 = (hi - lo) * (s + 1) / segments;
        }
    }
    if (runs % 2) {
        /* The odd run out is merged with nothing: a plain copy. */
        size_t lo = bounds[runs - 1], hi = bounds[runs];
        jobs[n_jobs++] = (mt_merge_job){src + lo, src + hi, hi - lo, 0, dst + lo, 0, hi - lo};
    }
    mt_pool_map(p, mt_merge_segment, jobs, sizeof *jobs, n_jobs);
    free(jobs);
    size_t kept = 0;
    for (size_t r = 0; r <= runs; r += 2)
        bounds[kept++] = bounds[r];
    if (runs % 2 == 0)
        return kept - 1;
    bounds[kept] = bounds[runs];
    return kept;
}

void mt_sort(mt_pool *p, uint64_t *keys, uint64_t *scratch, size_t n)
{
    mt_sort_job jobs[MT_PIECES];
    size_t bounds[MT_PIECES + 1];
    for (size_t i = 0; i < MT_PIECES; i++) {
        jobs[i] = (mt_sort_job){keys, scratch, mt_piece_bound(n, i), mt_piece_bound(n, i + 1)};
        bounds[i] = jobs[i].lo;
    }
    bounds[MT_PIECES] = n;
    mt_pool_map(p, mt_sort_piece, jobs, sizeof jobs[0], MT_PIECES);
    uint64_t *src = keys, *dst = scratch;
    size_t runs = MT_PIECES;
    while (runs > 1) {
        runs = mt_merge_round(p, src, dst, bounds, runs);
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != keys)
        memcpy(keys, src, n * sizeof *keys);
}
