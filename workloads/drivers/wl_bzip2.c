/* wl-bzip2: compresses a file at several block sizes with Debian's libbz2 and
 * decompresses each result, in one process.
 *
 *   wl-bzip2 FILE SPEC...     SPEC = block size 1-9, then 's' to decompress
 *                             in libbz2's small-memory mode
 *
 * The bzip2 program does one operation per run; SPEC CPU's bzip2 harness
 * instead compresses and decompresses its input at several block sizes in
 * one run, so a profile covers block sorting at different block lengths,
 * Huffman coding, and both decoders (the fast one and the small-memory one,
 * which runs different code). This does the same. Each round trip is
 * compared byte for byte with the input. */
#include <bzlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_driver.h"

static const char prog[] = "wl-bzip2";

static void run(const unsigned char *in, size_t size, int block, int small)
{
    if (size > 0x7fffffffu / 2)
        wl_drv_die(prog, 1, "input too large for one buffer (%zu bytes)", size);
    /* libbz2's documented worst case: 1 % larger plus 600 bytes. */
    unsigned cap = (unsigned)(size + size / 100 + 600);
    char *packed = wl_drv_xmalloc(prog, cap);
    unsigned packed_size = cap;
    int rc =
        BZ2_bzBuffToBuffCompress(packed, &packed_size, (char *)in, (unsigned)size, block, 0, 30);
    if (rc != BZ_OK)
        wl_drv_die(prog, 1, "compress -%d: libbz2 error %d", block, rc);
    char *out = wl_drv_xmalloc(prog, size + 1);
    unsigned out_size = (unsigned)size + 1;
    rc = BZ2_bzBuffToBuffDecompress(out, &out_size, packed, packed_size, small, 0);
    if (rc != BZ_OK)
        wl_drv_die(prog, 1, "decompress -%d%s: libbz2 error %d", block, small ? "s" : "", rc);
    if (out_size != size || memcmp(out, in, size) != 0)
        wl_drv_die(prog, 1, "round trip -%d%s: output differs from input", block, small ? "s" : "");
    printf("bzip2 -%d%s: %zu -> %u bytes, fnv %08lx, round trip ok\n", block, small ? "s" : "",
           size, packed_size, wl_drv_fnv32((unsigned char *)packed, packed_size));
    free(out);
    free(packed);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr,
                "usage: %s FILE SPEC...  (SPEC: block size 1-9, 's' suffix for the "
                "small-memory decoder)\n",
                prog);
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        const char *s = argv[i];
        if (!(s[0] >= '1' && s[0] <= '9') || !(s[1] == '\0' || (s[1] == 's' && s[2] == '\0')))
            wl_drv_die(prog, 2, "bad SPEC '%s' (expected 1-9, optionally followed by s)", s);
    }
    size_t size;
    unsigned char *in = wl_drv_read_file(prog, argv[1], &size);
    for (int i = 2; i < argc; i++)
        run(in, size, argv[i][0] - '0', argv[i][1] == 's');
    free(in);
    return 0;
}
