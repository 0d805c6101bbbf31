/* Shared pieces of the native benchmark programs: the seeded generator, the
 * checksum, the command line and allocation that cannot fail. See
 * native_common.h. */
#include "native_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t nw_mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

void nw_rng_seed(nw_rng *r, uint64_t seed)
{
    r->state = nw_mix64(seed ^ 0x243f6a8885a308d3ULL);
}

uint64_t nw_rng_next(nw_rng *r)
{
    r->state += 0x9e3779b97f4a7c15ULL;
    return nw_mix64(r->state);
}

uint32_t nw_rng_below(nw_rng *r, uint32_t n)
{
    if (n == 0)
        return 0;
    /* Multiply-shift: no division, and the bias for n < 2^32 is far below
     * anything the programs could notice. */
    return (uint32_t)(((nw_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

int nw_rng_range(nw_rng *r, int lo, int hi)
{
    return lo + (int)nw_rng_below(r, (uint32_t)(hi - lo) + 1u);
}

uint64_t nw_hash_bytes(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

uint64_t nw_hash_u64(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (v >> (8 * i)) & 0xff;
        h *= 0x100000001b3ULL;
    }
    return h;
}

static int nw_parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int nw_usage(const char *prog, const char *usage, int threads)
{
    fprintf(stderr, "usage: %s [small|default|large|N]%s\n  %s\n", prog,
            threads ? " [-t THREADS]" : "", usage);
    return -1;
}

int nw_args_parse(int argc, char **argv, const char *usage, const nw_sizes *sizes, long *out_size,
                  int *out_threads)
{
    const char *prog = argc > 0 ? argv[0] : "prog";
    long size = sizes->dflt, threads = 4;
    int have_size = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-t") == 0 && out_threads) {
            if (i + 1 >= argc || nw_parse_long(argv[++i], 1, 64, &threads) != 0)
                return nw_usage(prog, usage, 1);
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0 || have_size) {
            return nw_usage(prog, usage, out_threads != NULL);
        } else {
            have_size = 1;
            if (strcmp(a, "small") == 0)
                size = sizes->small;
            else if (strcmp(a, "default") == 0)
                size = sizes->dflt;
            else if (strcmp(a, "large") == 0)
                size = sizes->large;
            else if (nw_parse_long(a, 1, 1L << 30, &size) != 0)
                return nw_usage(prog, usage, out_threads != NULL);
        }
    }
    *out_size = size;
    if (out_threads)
        *out_threads = (int)threads;
    return 0;
}

void nw_report(const char *name, uint64_t checksum)
{
    printf("%s checksum %016llx\n", name, (unsigned long long)checksum);
}

static void *nw_check(void *p)
{
    if (!p) {
        fputs("out of memory\n", stderr);
        exit(2);
    }
    return p;
}

void *nw_alloc(size_t n)
{
    return nw_check(malloc(n ? n : 1));
}

void *nw_zalloc(size_t count, size_t size)
{
    return nw_check(calloc(count ? count : 1, size ? size : 1));
}

void *nw_realloc(void *p, size_t n)
{
    return nw_check(realloc(p, n ? n : 1));
}

/* ---- arena ------------------------------------------------------------- */

enum { NW_CHUNK = 1 << 16 };

typedef struct nw_chunk {
    struct nw_chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} nw_chunk;

struct nw_arena {
    nw_chunk *head;  /* in use, newest first */
    nw_chunk *spare; /* emptied by nw_arena_reset */
    size_t bytes;
};

nw_arena *nw_arena_create(void)
{
    return nw_zalloc(1, sizeof(nw_arena));
}

void *nw_arena_alloc(nw_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (!a->head || a->head->cap - a->head->used < n) {
        nw_chunk *c;
        if (a->spare && a->spare->cap >= n) {
            c = a->spare;
            a->spare = c->next;
        } else {
            /* A request larger than a chunk gets a chunk of its own. */
            size_t cap = n > NW_CHUNK ? n : NW_CHUNK;
            c = nw_alloc(sizeof *c + cap);
            c->cap = cap;
        }
        c->next = a->head;
        c->used = 0;
        a->head = c;
    }
    void *p = a->head->data + a->head->used;
    a->head->used += n;
    a->bytes += n;
    return p;
}

size_t nw_arena_bytes(const nw_arena *a)
{
    return a->bytes;
}

void nw_arena_reset(nw_arena *a)
{
    while (a->head) {
        nw_chunk *next = a->head->next;
        a->head->next = a->spare;
        a->spare = a->head;
        a->head = next;
    }
    a->bytes = 0;
}

void nw_arena_free(nw_arena *a)
{
    if (!a)
        return;
    nw_arena_reset(a);
    while (a->spare) {
        nw_chunk *next = a->spare->next;
        free(a->spare);
        a->spare = next;
    }
    free(a);
}
