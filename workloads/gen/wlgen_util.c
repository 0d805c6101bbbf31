/* lowprof-wlgen: random numbers, byte buffers and libm-free sines.
 *
 * These are the only sources of variety in the generated inputs, so they are
 * written to give the same bits on every machine: integer arithmetic, and
 * where floating point is used, only + - * / whose IEEE results are exact
 * functions of their operands (the build uses no -ffast-math, and C17 mode
 * keeps the compiler from contracting to fused multiply-adds). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "wlgen.h"

/* ---- pseudo-random numbers ---------------------------------------------- */

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

void wl_rng_seed(wl_rng *r, uint64_t seed)
{
    /* Mixing the seed keeps nearby seeds (1, 2, 3, ...) from giving
     * streams that start alike. */
    r->state = mix64(seed ^ 0x6a09e667f3bcc908ULL);
}

uint64_t wl_rng_next(wl_rng *r)
{
    r->state += 0x9e3779b97f4a7c15ULL;
    return mix64(r->state);
}

uint32_t wl_rng_below(wl_rng *r, uint32_t n)
{
    if (n == 0)
        return 0;
    /* Rejection removes the modulo bias; it almost never loops. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do {
        x = wl_rng_next(r);
    } while (x >= limit);
    return (uint32_t)(x % n);
}

int wl_rng_range(wl_rng *r, int lo, int hi)
{
    return lo + (int)wl_rng_below(r, (uint32_t)(hi - lo + 1));
}

double wl_rng_unit(wl_rng *r)
{
    return (double)(wl_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

int wl_rng_chance(wl_rng *r, unsigned percent)
{
    return wl_rng_below(r, 100) < percent;
}

uint32_t wl_hash3(uint32_t x, uint32_t y, uint32_t seed)
{
    uint64_t h = ((uint64_t)x << 32 | y) ^ ((uint64_t)seed * 0xd1b54a32d192ed03ULL);
    return (uint32_t)(mix64(h) >> 32);
}

/* ---- byte buffers ------------------------------------------------------------ */

void *wl_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p) {
        fprintf(stderr, "lowprof-wlgen: out of memory (%zu bytes)\n", size);
        exit(1);
    }
    return p;
}

void *wl_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "lowprof-wlgen: out of memory (%zu x %zu bytes)\n", count, size);
        exit(1);
    }
    return p;
}

static void buf_reserve(wl_buf *b, size_t extra)
{
    if (b->cap - b->size >= extra)
        return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->size < extra)
        cap *= 2;
    unsigned char *p = realloc(b->data, cap);
    if (!p) {
        fprintf(stderr, "lowprof-wlgen: out of memory (%zu bytes)\n", cap);
        exit(1);
    }
    b->data = p;
    b->cap = cap;
}

void wl_buf_put(wl_buf *b, const void *data, size_t size)
{
    buf_reserve(b, size);
    memcpy(b->data + b->size, data, size);
    b->size += size;
}

void wl_buf_byte(wl_buf *b, unsigned byte)
{
    buf_reserve(b, 1);
    b->data[b->size++] = (unsigned char)byte;
}

void wl_buf_str(wl_buf *b, const char *s)
{
    wl_buf_put(b, s, strlen(s));
}

void wl_buf_printf(wl_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    buf_reserve(b, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf((char *)b->data + b->size, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->size += (size_t)n;
}

void wl_buf_u16le(wl_buf *b, unsigned v)
{
    wl_buf_byte(b, v & 0xff);
    wl_buf_byte(b, (v >> 8) & 0xff);
}

void wl_buf_u32le(wl_buf *b, uint32_t v)
{
    wl_buf_u16le(b, v & 0xffff);
    wl_buf_u16le(b, v >> 16);
}

void wl_buf_free(wl_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->size = b->cap = 0;
}

/* ---- sines ------------------------------------------------------------------------- */

double wl_sin(double x)
{
    /* Reduce to [-pi, pi] with a truncating cast (exact for the magnitudes
     * used here), fold to [-pi/2, pi/2], then a Taylor series to x^17,
     * whose error there is below 1e-12. */
    double turns = x / (2.0 * WL_PI);
    long long k = (long long)(turns < 0 ? turns - 0.5 : turns + 0.5);
    x -= (double)k * (2.0 * WL_PI);
    if (x > WL_PI / 2)
        x = WL_PI - x;
    else if (x < -WL_PI / 2)
        x = -WL_PI - x;
    double x2 = x * x, term = x, sum = x;
    for (int n = 1; n <= 8; n++) {
        term *= -x2 / (double)((2 * n) * (2 * n + 1));
        sum += term;
    }
    return sum;
}

#define SIN_BITS 12
static int32_t sin_table[(1 << SIN_BITS) + 1];
static int sin_ready;

void wl_sin_table_init(void)
{
    if (sin_ready)
        return;
    for (int i = 0; i <= 1 << SIN_BITS; i++) {
        double v = wl_sin(2.0 * WL_PI * (double)i / (double)(1 << SIN_BITS)) * 32767.0;
        sin_table[i] = (int32_t)(v < 0 ? v - 0.5 : v + 0.5);
    }
    sin_ready = 1;
}

int32_t wl_sin_q15(uint32_t phase)
{
    /* Linear interpolation between table entries keeps the synthesised
     * audio free of the buzz a bare table lookup would add. */
    uint32_t i = phase >> (32 - SIN_BITS);
    int32_t frac = (int32_t)((phase >> (32 - SIN_BITS - 15)) & 0x7fff);
    int32_t a = sin_table[i], b = sin_table[i + 1];
    return a + (int32_t)(((int64_t)(b - a) * frac) >> 15);
}
