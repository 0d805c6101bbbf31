/* wl-jpeg: compresses a PPM image at several qualities and modes with
 * Debian's libjpeg and decompresses each result, in one process.
 *
 *   wl-jpeg FILE.ppm SPEC...   SPEC = quality 1-100, then any of:
 *                              p progressive, o optimised Huffman tables,
 *                              4 no chroma subsampling (4:4:4),
 *                              i fast integer DCT, f floating-point DCT
 *
 * cjpeg and djpeg each do one operation per run, and MediaBench ran them
 * separately. Running encode and decode at several settings in one process
 * gives a profile that moves between colour conversion, forward DCT,
 * quantisation, Huffman or progressive coding, and the decoder's inverse
 * stages, as a harness would. Run with JSIMD_FORCENONE=1 so the C code
 * paths run (Valgrind hides AVX-512, so SIMD paths would differ from a
 * native run anyway). JPEG is lossy, so a round trip is checked by its
 * fidelity: same dimensions and a PSNR of at least 20 dB. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#include "wl_driver.h"

static const char prog[] = "wl-jpeg";

typedef struct image {
    unsigned width, height;
    unsigned char *rgb;
} image;

/* Reads the next header field of a PPM, skipping whitespace and comments. */
static unsigned ppm_field(const unsigned char *d, size_t size, size_t *pos)
{
    for (;;) {
        while (*pos < size &&
               (d[*pos] == ' ' || d[*pos] == '\t' || d[*pos] == '\n' || d[*pos] == '\r'))
            (*pos)++;
        if (*pos < size && d[*pos] == '#') {
            while (*pos < size && d[*pos] != '\n')
                (*pos)++;
            continue;
        }
        break;
    }
    unsigned long v = 0;
    size_t start = *pos;
    while (*pos < size && d[*pos] >= '0' && d[*pos] <= '9' && v < 1000000)
        v = v * 10 + (unsigned long)(d[(*pos)++] - '0');
    if (*pos == start || v == 0 || v >= 1000000)
        wl_drv_die(prog, 1, "not a binary PPM this driver reads (header at byte %zu)", start);
    return (unsigned)v;
}

static image read_ppm(const char *path)
{
    size_t size, pos = 2;
    unsigned char *d = wl_drv_read_file(prog, path, &size);
    if (size < 2 || d[0] != 'P' || d[1] != '6')
        wl_drv_die(prog, 1, "%s: not a binary PPM (P6)", path);
    image im;
    im.width = ppm_field(d, size, &pos);
    im.height = ppm_field(d, size, &pos);
    if (ppm_field(d, size, &pos) != 255)
        wl_drv_die(prog, 1, "%s: only 8-bit PPM (maxval 255) is supported", path);
    pos++; /* the single whitespace byte before the raster */
    size_t raster = (size_t)im.width * im.height * 3;
    if (size < pos || size - pos < raster)
        wl_drv_die(prog, 1, "%s: raster is truncated", path);
    im.rgb = wl_drv_xmalloc(prog, raster);
    memcpy(im.rgb, d + pos, raster);
    free(d);
    return im;
}

typedef struct spec {
    int quality, progressive, optimize, full_chroma;
    J_DCT_METHOD dct;
} spec;

static int parse_spec(const char *s, spec *out)
{
    char *end;
    long q = strtol(s, &end, 10);
    if (end == s || q < 1 || q > 100)
        return -1;
    memset(out, 0, sizeof *out);
    out->quality = (int)q;
    out->dct = JDCT_ISLOW;
    for (; *end; end++) {
        switch (*end) {
        case 'p': out->progressive = 1; break;
        case 'o': out->optimize = 1; break;
        case '4': out->full_chroma = 1; break;
        case 'i': out->dct = JDCT_IFAST; break;
        case 'f': out->dct = JDCT_FLOAT; break;
        default: return -1;
        }
    }
    return 0;
}

static void compress(const image *im, const spec *sp, unsigned char **out, unsigned long *out_size)
{
    struct jpeg_compress_struct c;
    struct jpeg_error_mgr err;
    c.err = jpeg_std_error(&err); /* libjpeg's handler prints and exits */
    jpeg_create_compress(&c);
    *out = NULL;
    *out_size = 0;
    jpeg_mem_dest(&c, out, out_size);
    c.image_width = im->width;
    c.image_height = im->height;
    c.input_components = 3;
    c.in_color_space = JCS_RGB;
    jpeg_set_defaults(&c);
    jpeg_set_quality(&c, sp->quality, TRUE);
    c.dct_method = sp->dct;
    c.optimize_coding = sp->optimize ? TRUE : FALSE;
    if (sp->full_chroma)
        for (int i = 0; i < c.num_components; i++)
            c.comp_info[i].h_samp_factor = c.comp_info[i].v_samp_factor = 1;
    if (sp->progressive)
        jpeg_simple_progression(&c);
    jpeg_start_compress(&c, TRUE);
    while (c.next_scanline < c.image_height) {
        JSAMPROW row = im->rgb + (size_t)c.next_scanline * im->width * 3;
        jpeg_write_scanlines(&c, &row, 1);
    }
    jpeg_finish_compress(&c);
    jpeg_destroy_compress(&c);
}

static double decompress_psnr(const image *im, const spec *sp, unsigned char *jpg,
                              unsigned long size)
{
    struct jpeg_decompress_struct d;
    struct jpeg_error_mgr err;
    d.err = jpeg_std_error(&err);
    jpeg_create_decompress(&d);
    jpeg_mem_src(&d, jpg, size);
    jpeg_read_header(&d, TRUE);
    d.out_color_space = JCS_RGB;
    d.dct_method = sp->dct;
    jpeg_start_decompress(&d);
    if (d.output_width != im->width || d.output_height != im->height || d.output_components != 3)
        wl_drv_die(prog, 1, "decoded image is %ux%ux%d, expected %ux%ux3", d.output_width,
                   d.output_height, d.output_components, im->width, im->height);
    size_t stride = (size_t)im->width * 3;
    unsigned char *row = wl_drv_xmalloc(prog, stride);
    double sq = 0;
    while (d.output_scanline < d.output_height) {
        const unsigned char *ref = im->rgb + (size_t)d.output_scanline * stride;
        JSAMPROW rp = row;
        jpeg_read_scanlines(&d, &rp, 1);
        for (size_t i = 0; i < stride; i++) {
            int e = (int)row[i] - (int)ref[i];
            sq += (double)(e * e);
        }
    }
    jpeg_finish_decompress(&d);
    jpeg_destroy_decompress(&d);
    free(row);
    double mse = sq / ((double)stride * im->height);
    return mse > 0 ? 10.0 * log10(255.0 * 255.0 / mse) : 99.0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr,
                "usage: %s FILE.ppm SPEC...  (SPEC: quality 1-100, then any of p o 4 i f)\n", prog);
        return 2;
    }
    spec sp;
    for (int i = 2; i < argc; i++)
        if (parse_spec(argv[i], &sp) != 0)
            wl_drv_die(prog, 2, "bad SPEC '%s' (quality 1-100, then any of p o 4 i f)", argv[i]);
    image im = read_ppm(argv[1]);
    for (int i = 2; i < argc; i++) {
        parse_spec(argv[i], &sp);
        unsigned char *jpg;
        unsigned long size;
        compress(&im, &sp, &jpg, &size);
        double psnr = decompress_psnr(&im, &sp, jpg, size);
        if (psnr < 20.0)
            wl_drv_die(prog, 1, "round trip %s: PSNR %.1f dB is below 20 dB", argv[i], psnr);
        printf("jpeg %s: %ux%u -> %lu bytes, fnv %08lx, PSNR %.2f dB\n", argv[i], im.width,
               im.height, size, wl_drv_fnv32(jpg, size), psnr);
        free(jpg);
    }
    free(im.rgb);
    return 0;
}
