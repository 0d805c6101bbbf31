/* lowprof-wlgen: the compressors' mixed input.
 *
 * A general-purpose compressor's inner loops behave differently on each
 * kind of data: on text, long matches and deep hash chains; on machine code,
 * short matches and skewed literals; on pixels and samples, few matches and
 * many literals; on compressed data, no matches at all. A file of one kind
 * gives a program that is nearly one phase (gzip on uniform text: a median
 * interval differs from the whole run by only 0.06), which would leave the
 * phase-aware experiments nothing to find. Real archives mix kinds, and so
 * does this file: rounds of text, machine code, image rows, audio samples
 * and high-entropy data, each segment 0.6 to 1.4 times segment_bytes long,
 * so the compressors pass through the same phases again and again. */
#include <stdlib.h>

#include "wlgen.h"

enum { SEG_TEXT, SEG_CODE, SEG_IMAGE, SEG_AUDIO, SEG_RANDOM, SEG_COUNT };

static void image_segment(uint64_t seed, wl_buf *out, size_t bytes)
{
    int width = 512;
    int rows = (int)(bytes / (3 * (size_t)width)) + 1;
    wl_image *im = wl_image_create(seed, width, rows);
    unsigned char *row = wl_xmalloc(3 * (size_t)width);
    for (int y = 0; y < rows; y++) {
        wl_image_row(im, y, row);
        wl_buf_put(out, row, 3 * (size_t)width);
    }
    free(row);
    wl_image_free(im);
}

void wl_mixed_write(uint64_t seed, int rounds, size_t segment_bytes, wl_buf *out)
{
    wl_rng r;
    wl_rng_seed(&r, seed);
    wl_text_model *text = wl_text_model_create(seed + 1, 6000);
    wl_audio *audio = wl_audio_create(seed + 2);
    for (int round = 0; round < rounds; round++) {
        wl_text_model_topic(text, (uint32_t)round);
        for (int kind = 0; kind < SEG_COUNT; kind++) {
            size_t len = segment_bytes * (60 + wl_rng_below(&r, 81)) / 100;
            switch (kind) {
            case SEG_TEXT: wl_text_write(text, &r, out, len); break;
            case SEG_CODE: wl_code_write(&r, out, len); break;
            case SEG_IMAGE: image_segment(seed + 100 + (uint64_t)round, out, len); break;
            case SEG_AUDIO:
                for (size_t i = 0; i < len / 2; i++)
                    wl_buf_u16le(out, (uint16_t)wl_audio_next(audio));
                break;
            case SEG_RANDOM:
                /* Stands for embedded compressed data (a JPEG, a zip member):
                 * a short header, then bytes with no structure. */
                wl_buf_str(out, "PK\003\004");
                for (size_t i = 0; i < len; i += 8) {
                    uint64_t x = wl_rng_next(&r);
                    wl_buf_u32le(out, (uint32_t)x);
                    wl_buf_u32le(out, (uint32_t)(x >> 32));
                }
                break;
            }
        }
    }
    wl_audio_free(audio);
    wl_text_model_free(text);
}
