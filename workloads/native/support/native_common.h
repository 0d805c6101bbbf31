/* Shared pieces of the native benchmark programs (workloads/native/).
 *
 * Every program takes the same command line, draws its input from the same
 * seeded generator and reports one checksum line, so that the evaluation can
 * drive all of them alike. Nothing here depends on the compiler, the
 * optimisation level or the instrumentation: the generator and the checksum
 * are integer arithmetic only. */
#ifndef NATIVE_COMMON_H
#define NATIVE_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* A splitmix64 stream: 64 bits of state, fully determined by the seed. */
typedef struct nw_rng {
    uint64_t state;
} nw_rng;

void nw_rng_seed(nw_rng *r, uint64_t seed);
uint64_t nw_rng_next(nw_rng *r);
/* A uniform value in [0, n); 0 when n is 0. */
uint32_t nw_rng_below(nw_rng *r, uint32_t n);
/* A uniform value in [lo, hi]; assumes lo <= hi. */
int nw_rng_range(nw_rng *r, int lo, int hi);

/* The splitmix64 finaliser: a bijection on 64 bits that scrambles well. */
uint64_t nw_mix64(uint64_t x);

/* FNV-1a, 64 bits, fed incrementally. Start from NW_HASH_INIT. */
#define NW_HASH_INIT 0xcbf29ce484222325ULL
uint64_t nw_hash_bytes(uint64_t h, const void *data, size_t n);
/* Hashes the value's eight bytes, least significant first, so the result
 * does not depend on the host's byte order. */
uint64_t nw_hash_u64(uint64_t h, uint64_t v);

/* The command line every program shares:
 *
 *   prog [SIZE] [-t THREADS]
 *
 * SIZE is "small", "default", "large" or a positive integer, which the
 * program reads as its own work unit (rounds, kilobytes, pixels, ...).
 * sizes[] gives the unit counts of the three names. -t is accepted only
 * when out_threads is not NULL; it defaults to 4 and must be 1..64.
 * Returns 0, or -1 after printing a usage message to stderr. */
typedef struct nw_sizes {
    long small, dflt, large;
} nw_sizes;

int nw_args_parse(int argc, char **argv, const char *usage, const nw_sizes *sizes, long *out_size,
                  int *out_threads);

/* Prints "<name> checksum <16 hex digits>" on stdout. */
void nw_report(const char *name, uint64_t checksum);

/* A bump allocator: allocations are 16-byte aligned, uninitialised, and
 * freed all at once by nw_arena_free (which accepts NULL). */
typedef struct nw_arena nw_arena;

nw_arena *nw_arena_create(void);
void *nw_arena_alloc(nw_arena *a, size_t n);
size_t nw_arena_bytes(const nw_arena *a); /* total handed out since reset */
/* Forgets every allocation but keeps the memory for the next ones. */
void nw_arena_reset(nw_arena *a);
void nw_arena_free(nw_arena *a);

/* malloc/calloc/realloc that end the program with a message when memory
 * runs out, so the programs need no error path for it. */
void *nw_alloc(size_t n);
void *nw_zalloc(size_t count, size_t size);
void *nw_realloc(void *p, size_t n);

#endif
