/* mtsort: multi-threaded kernels over a pthreads pool, as a benchmark of a
 * program whose time is spread over worker threads, locks and condition
 * variables. The pool (mtsort_pool.c) is a fixed set of workers fed from
 * one mutex-protected queue. On it run a parallel merge sort whose last
 * merges are split by co-ranking (mtsort_sort.c), a radix-partitioned hash
 * join (mtsort_join.c) and integer k-means (mtsort_kmeans.c).
 *
 * Every result is independent of the thread count and of scheduling: work
 * is cut into a fixed number of pieces, each piece writes only its own
 * slot, and slots are combined in piece order. */
#ifndef MTSORT_H
#define MTSORT_H

#include <stddef.h>
#include <stdint.h>

#include "../support/native_common.h"

enum { MT_PIECES = 64 };

/* ---- pool (mtsort_pool.c) ---------------------------------------------- */

typedef struct mt_pool mt_pool;
typedef void (*mt_task_fn)(void *arg);

mt_pool *mt_pool_create(int threads);
/* Stops and joins the workers once the queue is empty. NULL is fine. */
void mt_pool_free(mt_pool *p);
/* Queues fn(arg). May be called from inside a task. */
void mt_pool_submit(mt_pool *p, mt_task_fn fn, void *arg);
/* Returns when every submitted task, and every task they submitted, has
 * finished. Must not be called from inside a task. */
void mt_pool_wait(mt_pool *p);
uint64_t mt_pool_executed(mt_pool *p);

/* Where piece i of n items starts; piece MT_PIECES - 1 ends at n. */
size_t mt_piece_bound(size_t n, size_t i);

/* Runs fn(&args[i * size]) for i in [0, n) on the pool and waits. */
void mt_pool_map(mt_pool *p, mt_task_fn fn, void *args, size_t size, size_t n);

/* ---- kernels ---------------------------------------------------------------- */

/* Sorts keys[0..n) ascending; scratch has room for n keys. */
void mt_sort(mt_pool *p, uint64_t *keys, uint64_t *scratch, size_t n);
/* Fills keys[0..n) from seed, in parallel pieces. */
void mt_fill_random(mt_pool *p, uint64_t *keys, size_t n, uint64_t seed);
/* Hash of keys[0..n), computed piecewise and combined in order. */
uint64_t mt_hash_keys(mt_pool *p, const uint64_t *keys, size_t n);

typedef struct mt_join_result {
    uint64_t matches, payload_sum, key_xor;
} mt_join_result;

/* Generates R (n_r tuples, unique keys) and S (n_s tuples, most matching
 * a key of R) from seed and joins them on the key. */
mt_join_result mt_hash_join(mt_pool *p, size_t n_r, size_t n_s, uint64_t seed);

typedef struct mt_kmeans_result {
    int64_t cx[16], cy[16];
    uint64_t sizes[16];
    uint64_t inertia; /* sum of squared distances after the last step */
} mt_kmeans_result;

/* k = 16 clusters of n generated points, `iterations` Lloyd steps. */
mt_kmeans_result mt_kmeans(mt_pool *p, size_t n, int iterations, uint64_t seed);

#endif
