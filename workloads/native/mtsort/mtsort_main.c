/* mtsort: the driver. With SIZE in thousands of keys: sorts that many keys
 * and checks the order, joins SIZE/2 thousand R tuples with SIZE thousand S
 * tuples, and runs k-means on SIZE/2 thousand points; -t sets the worker
 * count (default 4). The checksum covers the sorted keys, the join and the
 * centroids, and is the same for every thread count. */
#include "mtsort.h"

#include <stdio.h>
#include <stdlib.h>

static int mt_is_sorted(const uint64_t *keys, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        if (keys[i - 1] > keys[i])
            return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    static const nw_sizes sizes = {20, 8000, 32000};
    long kilo;
    int threads;
    if (nw_args_parse(argc, argv,
                      "SIZE: thousands of keys (small 20, default 8000); -t worker threads",
                      &sizes, &kilo, &threads))
        return 2;
    size_t n = (size_t)kilo * 1000;
    mt_pool *pool = mt_pool_create(threads);

    uint64_t *keys = nw_alloc(sizeof(uint64_t) * n), *scratch = nw_alloc(sizeof(uint64_t) * n);
    mt_fill_random(pool, keys, n, 42);
    uint64_t h = nw_hash_u64(NW_HASH_INIT, mt_hash_keys(pool, keys, n));
    mt_sort(pool, keys, scratch, n);
    int failed = !mt_is_sorted(keys, n);
    h = nw_hash_u64(h, mt_hash_keys(pool, keys, n));
    free(scratch);
    free(keys);

    mt_join_result j = mt_hash_join(pool, n / 2, n, 99);
    h = nw_hash_u64(h, j.matches);
    h = nw_hash_u64(h, j.payload_sum);
    h = nw_hash_u64(h, j.key_xor);

    mt_kmeans_result km = mt_kmeans(pool, n / 2, 12, 7);
    for (int c = 0; c < 16; c++) {
        h = nw_hash_u64(h, (uint64_t)km.cx[c]);
        h = nw_hash_u64(h, (uint64_t)km.cy[c]);
        h = nw_hash_u64(h, km.sizes[c]);
    }
    h = nw_hash_u64(h, km.inertia);

    fprintf(stderr, "mtsort: %zu keys, %d threads, %llu tasks, join %llu matches, "
            "k-means inertia %llu\n", n, threads, (unsigned long long)mt_pool_executed(pool),
            (unsigned long long)j.matches, (unsigned long long)km.inertia);
    mt_pool_free(pool);
    if (failed) {
        fprintf(stderr, "mtsort: keys not sorted\n");
        return 1;
    }
    nw_report("mtsort", h);
    return 0;
}
