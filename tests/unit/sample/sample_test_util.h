/* Shared helpers for the sample module's unit tests: a message recorder that
 * stands in for the software side, a reproducible tuple stream, and
 * compressor construction from a spec string. */
#ifndef SAMPLE_TEST_UTIL_H
#define SAMPLE_TEST_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "lowprof/sample.h"
#include "../lp_test.h"

/* Every message delivered, in order, and the size of each interrupt. */
typedef struct recorder {
    lp_message *m;
    size_t n, cap;
    size_t interrupts;
    size_t last_batch;
} recorder;

static inline void recorder_fn(void *ctx, const lp_message *msgs, size_t n)
{
    recorder *r = ctx;
    if (r->n + n > r->cap) {
        r->cap = (r->n + n) * 2 + 64;
        r->m = realloc(r->m, r->cap * sizeof *r->m);
        if (!r->m)
            abort();
    }
    memcpy(r->m + r->n, msgs, n * sizeof *msgs);
    r->n += n;
    r->interrupts++;
    r->last_batch = n;
}

static inline void recorder_clear(recorder *r)
{
    r->n = 0;
    r->interrupts = 0;
    r->last_batch = 0;
}

static inline void recorder_free(recorder *r)
{
    free(r->m);
    memset(r, 0, sizeof *r);
}

static inline uint64_t recorder_sum(const recorder *r)
{
    uint64_t s = 0;
    for (size_t i = 0; i < r->n; i++)
        s += r->m[i].count;
    return s;
}

static inline int message_equal(const lp_message *a, const lp_message *b)
{
    return a->pc == b->pc && a->w == b->w && a->count == b->count && a->type == b->type;
}

static inline int message_order(const void *x, const void *y)
{
    const lp_message *a = x, *b = y;
    if (a->pc != b->pc)
        return a->pc < b->pc ? -1 : 1;
    if (a->w != b->w)
        return a->w < b->w ? -1 : 1;
    if (a->type != b->type)
        return a->type < b->type ? -1 : 1;
    if (a->count != b->count)
        return a->count < b->count ? -1 : 1;
    return 0;
}

/* Index of the first differing message, or -1 when both lists are equal. */
static inline long messages_diff(const lp_message *a, size_t na, const lp_message *b, size_t nb)
{
    size_t n = na < nb ? na : nb;
    for (size_t i = 0; i < n; i++)
        if (!message_equal(&a[i], &b[i]))
            return (long)i;
    return na == nb ? -1 : (long)n;
}

/* xorshift64: the tests' own randomness, independent of lp_rng. */
static inline uint64_t test_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A skewed stream over `distinct` tuples of mixed types; w of every tuple
 * also encodes nothing positional, so identical tuples recur. */
static inline lp_tuple *make_stream(size_t n, unsigned distinct, uint64_t seed)
{
    lp_tuple *t = malloc(n * sizeof *t);
    uint64_t s = seed | 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t u = test_random(&s);
        unsigned k = (unsigned)((u >> 11) % distinct);
        if (u & 1) /* half the stream from the first few tuples */
            k %= 1 + distinct / 16;
        t[i].pc = 0x400000 + (uint64_t)(k % 97) * 4;
        t[i].w = (uint64_t)k * 0x10001;
        t[i].type = (uint8_t)(1 + k % 3);
    }
    return t;
}

/* A stream whose w is the tuple's position, so a message names where the
 * sampler fired. */
static inline lp_tuple *make_positions(size_t n)
{
    lp_tuple *t = malloc(n * sizeof *t);
    for (size_t i = 0; i < n; i++) {
        t[i].pc = 0x1000;
        t[i].w = i;
        t[i].type = LP_TUPLE_VALUE;
    }
    return t;
}

static inline lp_compressor *make_compressor(const char *text, uint64_t seed, recorder *r)
{
    lp_compressor_spec s;
    size_t pos;
    const char *why;
    lp_compressor *c = NULL;
    int rc = lp_compressor_spec_parse(text, &s, &pos, &why);
    if (rc) {
        fprintf(stderr, "spec %s: %s at %zu\n", text, why, pos);
        return NULL;
    }
    if (lp_compressor_create(&s, NULL, seed, r ? recorder_fn : NULL, r, &c))
        return NULL;
    return c;
}

/* Pushes the stream in chunks of random length (1 to max_chunk), mixing
 * single pushes in, so the specialised loops are checked at every boundary. */
static inline void push_chunked(lp_compressor *c, const lp_tuple *t, size_t n, size_t max_chunk,
                                uint64_t seed)
{
    uint64_t s = seed | 1;
    size_t i = 0;
    while (i < n) {
        size_t k = 1 + (size_t)(test_random(&s) % max_chunk);
        if (k > n - i)
            k = n - i;
        if (k == 1)
            lp_compressor_push(c, &t[i]);
        else
            lp_compressor_push_many(c, &t[i], k);
        i += k;
    }
}

/* make_compressor, then the whole stream through push_chunked, then
 * finish. NULL (after a failed check) when the spec is refused. */
static inline lp_compressor *run_spec(const char *text, uint64_t seed, const lp_tuple *t, size_t n,
                                      size_t max_chunk, recorder *r)
{
    lp_compressor *c = make_compressor(text, seed, r);
    LP_CHECK(c != NULL);
    if (c) {
        push_chunked(c, t, n, max_chunk, seed);
        lp_compressor_finish(c);
    }
    return c;
}

#endif
