/* wl-zlib: deflates a file at several levels and strategies with Debian's
 * zlib and inflates each result, in one process.
 *
 *   wl-zlib FILE SPEC...    SPEC = level 0-9, then optionally a strategy:
 *                           f filtered, h Huffman only, r run-length
 *
 * gzip runs one level per invocation. Levels select different match
 * searches in deflate (deflate_fast below 4, lazy matching above, longer
 * chains as the level rises) and the strategies select other loops
 * altogether, so running several in one process gives the mode changes a
 * harness like SPEC's produces. Data moves through 64 KiB buffers as it does
 * in gzip, so the stream bookkeeping runs too. Each round trip is compared
 * byte for byte with the input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "wl_driver.h"

static const char prog[] = "wl-zlib";

#define CHUNK (64u << 10)

static unsigned char *deflate_all(const unsigned char *in, size_t size, int level, int strategy,
                                  size_t *out_size)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    /* windowBits 31: a gzip wrapper, as the gzip program writes */
    int rc = deflateInit2(&z, level, Z_DEFLATED, 31, 8, strategy);
    if (rc != Z_OK)
        wl_drv_die(prog, 1, "deflateInit2 level %d: zlib error %d", level, rc);
    size_t cap = deflateBound(&z, (uLong)size) + CHUNK, used = 0;
    unsigned char *out = wl_drv_xmalloc(prog, cap);
    size_t pos = 0;
    int flush;
    do {
        size_t take = size - pos < CHUNK ? size - pos : CHUNK;
        z.next_in = (Bytef *)(in + pos);
        z.avail_in = (uInt)take;
        pos += take;
        flush = pos == size ? Z_FINISH : Z_NO_FLUSH;
        do {
            if (cap - used < CHUNK)
                wl_drv_die(prog, 1, "deflate level %d: output exceeds its bound", level);
            z.next_out = out + used;
            z.avail_out = CHUNK;
            rc = deflate(&z, flush);
            if (rc == Z_STREAM_ERROR)
                wl_drv_die(prog, 1, "deflate level %d: zlib error %d", level, rc);
            used += CHUNK - z.avail_out;
        } while (z.avail_out == 0);
    } while (flush != Z_FINISH);
    if (rc != Z_STREAM_END)
        wl_drv_die(prog, 1, "deflate level %d: stream did not end (%d)", level, rc);
    deflateEnd(&z);
    *out_size = used;
    return out;
}

static void inflate_check(const unsigned char *packed, size_t packed_size, const unsigned char *in,
                          size_t size, const char *spec)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    int rc = inflateInit2(&z, 31);
    if (rc != Z_OK)
        wl_drv_die(prog, 1, "inflateInit2: zlib error %d", rc);
    unsigned char *buf = wl_drv_xmalloc(prog, CHUNK);
    size_t pos = 0, done = 0;
    do {
        size_t take = packed_size - pos < CHUNK ? packed_size - pos : CHUNK;
        z.next_in = (Bytef *)(packed + pos);
        z.avail_in = (uInt)take;
        pos += take;
        do {
            z.next_out = buf;
            z.avail_out = CHUNK;
            rc = inflate(&z, Z_NO_FLUSH);
            if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
                wl_drv_die(prog, 1, "inflate %s: zlib error %d", spec, rc);
            size_t got = CHUNK - z.avail_out;
            if (got > size - done || memcmp(buf, in + done, got) != 0)
                wl_drv_die(prog, 1, "round trip %s: output differs from input", spec);
            done += got;
        } while (z.avail_out == 0 && rc != Z_STREAM_END);
    } while (rc != Z_STREAM_END && pos < packed_size);
    if (rc != Z_STREAM_END || done != size)
        wl_drv_die(prog, 1, "round trip %s: output ends early (%zu of %zu bytes)", spec, done,
                   size);
    inflateEnd(&z);
    free(buf);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s FILE SPEC...  (SPEC: level 0-9, optional strategy f, h or r)\n",
                prog);
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        const char *s = argv[i];
        if (!(s[0] >= '0' && s[0] <= '9') || (s[1] != '\0' && (!strchr("fhr", s[1]) || s[2])))
            wl_drv_die(prog, 2, "bad SPEC '%s' (expected 0-9, optionally followed by f, h or r)",
                       s);
    }
    size_t size;
    unsigned char *in = wl_drv_read_file(prog, argv[1], &size);
    for (int i = 2; i < argc; i++) {
        const char *spec = argv[i];
        int strategy = spec[1] == 'f'   ? Z_FILTERED
                       : spec[1] == 'h' ? Z_HUFFMAN_ONLY
                       : spec[1] == 'r' ? Z_RLE
                                        : Z_DEFAULT_STRATEGY;
        size_t packed_size;
        unsigned char *packed = deflate_all(in, size, spec[0] - '0', strategy, &packed_size);
        inflate_check(packed, packed_size, in, size, spec);
        printf("deflate -%s: %zu -> %zu bytes, fnv %08lx, round trip ok\n", spec, size, packed_size,
               wl_drv_fnv32(packed, packed_size));
        free(packed);
    }
    free(in);
    return 0;
}
