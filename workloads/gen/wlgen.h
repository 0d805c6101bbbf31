/* lowprof-wlgen: the pieces the workload input generators share.
 *
 * Every input of the workload suite is made here, from fixed seeds and this
 * project's own pseudo-random generator, so two runs (on any machine) write
 * byte-identical files. For that reason nothing below uses libm or the C
 * library's rand(): sines come from a polynomial in plain IEEE arithmetic and
 * most signal synthesis is integer or fixed point.
 *
 * The generators model the kinds of data the papers' benchmarks ran on
 * (English text, machine code, photographs, speech, video) closely enough
 * that the programs that consume them take the same varied paths they take
 * on real data; they are not meant to be statistically faithful. */
#ifndef WLGEN_H
#define WLGEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- pseudo-random numbers ---------------------------------------------- */

/* A counter passed through a 64-bit finaliser: tiny, fast, and good enough
 * for synthesis (every stream is seeded from a named constant). */
typedef struct wl_rng {
    uint64_t state;
} wl_rng;

void wl_rng_seed(wl_rng *r, uint64_t seed);
uint64_t wl_rng_next(wl_rng *r);
/* Uniform in [0, n); n == 0 returns 0. */
uint32_t wl_rng_below(wl_rng *r, uint32_t n);
/* Uniform in [lo, hi] (inclusive); lo <= hi. */
int wl_rng_range(wl_rng *r, int lo, int hi);
/* Uniform in [0, 1). */
double wl_rng_unit(wl_rng *r);
/* True with probability percent / 100. */
int wl_rng_chance(wl_rng *r, unsigned percent);

/* A well-mixed integer hash of coordinates, for procedural textures that
 * must give the same value for the same point whenever it is drawn. */
uint32_t wl_hash3(uint32_t x, uint32_t y, uint32_t seed);

/* ---- growable byte buffer ------------------------------------------------ */

/* Exits the program with a message on allocation failure: the generator is
 * a build tool with nothing to recover. */
typedef struct wl_buf {
    unsigned char *data;
    size_t size;
    size_t cap;
} wl_buf;

void wl_buf_put(wl_buf *b, const void *data, size_t size);
void wl_buf_byte(wl_buf *b, unsigned byte);
void wl_buf_str(wl_buf *b, const char *s);
void wl_buf_printf(wl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void wl_buf_u16le(wl_buf *b, unsigned v);
void wl_buf_u32le(wl_buf *b, uint32_t v);
void wl_buf_free(wl_buf *b);

void *wl_xmalloc(size_t size);
void *wl_xcalloc(size_t count, size_t size);

/* ---- arithmetic without libm --------------------------------------------- */

#define WL_PI 3.14159265358979323846

/* sin(x) to about 1e-12 for any finite x, from basic IEEE operations only. */
double wl_sin(double x);
/* Sine of phase in turns scaled to 2^32 (a phase accumulator), in Q15. */
int32_t wl_sin_q15(uint32_t phase);
void wl_sin_table_init(void);

static inline int wl_clamp(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* ---- the generators -------------------------------------------------------- */

/* Pseudo-English: a generated vocabulary with Zipf-like word frequencies
 * (short words common), sentences, paragraphs wrapped at 72 columns. */
typedef struct wl_text_model wl_text_model;
wl_text_model *wl_text_model_create(uint64_t seed, size_t words);
void wl_text_model_free(wl_text_model *m);
/* Shifts which mid-frequency words are common, as a change of topic does. */
void wl_text_model_topic(wl_text_model *m, uint32_t topic);
/* Appends whole paragraphs until at least bytes have been written. */
void wl_text_write(wl_text_model *m, wl_rng *r, wl_buf *out, size_t bytes);

/* x86-64-like machine code: functions built from real instruction
 * encodings (prologues, moves, arithmetic, compares, branches, calls to
 * earlier functions, padding). */
void wl_code_write(wl_rng *r, wl_buf *out, size_t bytes);

/* A synthetic photograph: gradient sky, shapes, textures, noise regions. */
typedef struct wl_image wl_image;
wl_image *wl_image_create(uint64_t seed, int width, int height);
void wl_image_free(wl_image *im);
/* Renders row y (0-based) as width RGB triples into rgb. */
void wl_image_row(const wl_image *im, int y, unsigned char *rgb);
/* Writes the whole image as binary PPM (P6). Returns 0 or -1 (errno set). */
int wl_image_write_ppm(const wl_image *im, FILE *f);

/* Speech-like 8 kHz audio: voiced syllables with moving pitch and formants,
 * unvoiced noise bursts, pauses. Samples are signed 16-bit with the low
 * three bits zero (GSM 06.10 uses 13 significant bits). */
typedef struct wl_audio wl_audio;
wl_audio *wl_audio_create(uint64_t seed);
void wl_audio_free(wl_audio *a);
int16_t wl_audio_next(wl_audio *a);

/* A C translation unit without #include: many functions of several kinds
 * (expressions, loops, switches, structs, recursion, dispatch tables,
 * floating point), grouped by kind and repeated in rounds; limit > 0 stops
 * after that many functions (cc1 -O2 spends 30-150 million instructions on
 * each, so the small size needs very few). */
void wl_csrc_write(uint64_t seed, int rounds, int functions_per_group, int limit, wl_buf *out);

/* YUV4MPEG2 4:2:0 video: scenes with panning textured backgrounds and
 * moving shapes, cut by scene changes. Returns 0 or -1 (errno set). */
int wl_video_write(uint64_t seed, int width, int height, int frames, FILE *f);

/* The compressors' input: rounds of text, machine code, image rows, audio
 * samples and high-entropy data, segment lengths varying around
 * segment_bytes. */
void wl_mixed_write(uint64_t seed, int rounds, size_t segment_bytes, wl_buf *out);

#endif
