/* compress: the driver. Generates SIZE KiB of text, compresses it at two
 * settings (a fast greedy one and a thorough lazy one), decompresses both,
 * checks the round trip and the detection of a corrupted stream, and
 * prints a checksum of the compressed streams. */
#include "compress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cz_setting {
    const char *name;
    int max_chain, lazy;
} cz_setting;

/* Compresses, decompresses and verifies; returns the stream's hash folded
 * into h, or sets *out_failed. */
static uint64_t cz_round_trip(const cz_setting *st, const unsigned char *text, size_t n,
                              uint64_t h, int *out_failed)
{
    unsigned char *packed, *unpacked = NULL;
    size_t packed_len, unpacked_len = 0;
    cz_stats stats;
    cz_compress(text, n, st->max_chain, st->lazy, &packed, &packed_len, &stats);
    if (cz_decompress(packed, packed_len, &unpacked, &unpacked_len) != 0 ||
        unpacked_len != n || memcmp(unpacked, text, n) != 0) {
        fprintf(stderr, "compress: %s: round trip failed\n", st->name);
        *out_failed = 1;
    }
    /* A flipped bit must not go unnoticed or crash: either an error or
     * different output. */
    packed[packed_len / 2] ^= 0x10;
    unsigned char *bad = NULL;
    size_t bad_len = 0;
    if (cz_decompress(packed, packed_len, &bad, &bad_len) == 0 && bad_len == n &&
        memcmp(bad, text, n) == 0) {
        fprintf(stderr, "compress: %s: corruption not detected\n", st->name);
        *out_failed = 1;
    }
    packed[packed_len / 2] ^= 0x10;
    fprintf(stderr, "compress: %s: %zu -> %zu bytes (%.1f%%), %zu tokens, %zu matches, %zu blocks\n",
            st->name, n, packed_len, 100.0 * (double)packed_len / (double)n, stats.tokens,
            stats.matches, stats.blocks);
    h = nw_hash_u64(h, packed_len);
    h = nw_hash_bytes(h, packed, packed_len);
    free(bad);
    free(unpacked);
    free(packed);
    return h;
}

int main(int argc, char **argv)
{
    static const nw_sizes sizes = {16, 12288, 49152};
    long kib;
    if (nw_args_parse(argc, argv, "SIZE: KiB of text (small 16, default 12288)", &sizes, &kib,
                      NULL))
        return 2;
    static const cz_setting settings[] = {{"fast", 4, 0}, {"best", 128, 1}};
    cz_classes_init();
    size_t n = (size_t)kib * 1024;
    unsigned char *text = nw_alloc(n);
    cz_text_generate(20240601, text, n);
    uint64_t h = nw_hash_bytes(NW_HASH_INIT, text, n);
    int failed = 0;
    for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++)
        h = cz_round_trip(&settings[i], text, n, h, &failed);
    free(text);
    if (failed)
        return 1;
    nw_report("compress", h);
    return 0;
}
