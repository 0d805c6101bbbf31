/* -finstrument-functions hooks that count (function, call site) pairs, as
 * a plain call-graph profiler built on the compilers' hooks would: the
 * "real profiler" `lowprof eval native` compares the runtime with. Compile
 * this file without the instrumentation flag.
 *
 * Cheap on purpose, so the comparison is fair: each thread counts into its
 * own fixed open-addressing table (taken on the thread's first call, the
 * only step that locks), with plain adds and no atomics on the hot path.
 * A pair that finds its probe sequence full is counted as dropped. At exit
 * every table is written to the file named by LOWPROF_CYG_OUT (nothing is
 * written when it is unset), one line per pair and thread:
 *
 *   bias B                  the main executable's load bias (hex)
 *   FN SITE COUNT           runtime addresses (hex) and the count (decimal)
 *   dropped N
 *
 * Threads that exited keep their table, so their counts are written too. */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CYG_SLOTS (1u << 14) /* per thread; the programs have < 2000 pairs */
#define CYG_PROBES 64

typedef struct cyg_slot {
    uintptr_t fn, site;
    uint64_t count;
} cyg_slot;

typedef struct cyg_table {
    cyg_slot slot[CYG_SLOTS];
    uint64_t dropped;
    struct cyg_table *next;
} cyg_table;

static cyg_table *cyg_tables;
static pthread_mutex_t cyg_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local cyg_table *cyg_mine;

void __cyg_profile_func_enter(void *fn, void *call_site) __attribute__((no_instrument_function));
void __cyg_profile_func_exit(void *fn, void *call_site) __attribute__((no_instrument_function));

__attribute__((no_instrument_function, noinline)) static cyg_table *cyg_claim(void)
{
    cyg_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    pthread_mutex_lock(&cyg_lock);
    t->next = cyg_tables;
    cyg_tables = t;
    pthread_mutex_unlock(&cyg_lock);
    return cyg_mine = t;
}

void __cyg_profile_func_enter(void *fn, void *call_site)
{
    cyg_table *t = cyg_mine;
    if (__builtin_expect(!t, 0) && !(t = cyg_claim()))
        return;
    uintptr_t f = (uintptr_t)fn, s = (uintptr_t)call_site;
    uint64_t h = ((uint64_t)f * 0x9e3779b97f4a7c15u) ^ ((uint64_t)s * 0xc2b2ae3d27d4eb4fu);
    unsigned i = (unsigned)(h >> 50) & (CYG_SLOTS - 1);
    for (unsigned probe = 0; probe < CYG_PROBES; probe++, i = (i + 1) & (CYG_SLOTS - 1)) {
        cyg_slot *e = &t->slot[i];
        if (e->fn == f && e->site == s) {
            e->count++;
            return;
        }
        if (e->count == 0) {
            e->fn = f;
            e->site = s;
            e->count = 1;
            return;
        }
    }
    t->dropped++;
}

void __cyg_profile_func_exit(void *fn, void *call_site)
{
    (void)fn;
    (void)call_site;
}

__attribute__((no_instrument_function)) static int cyg_first_bias(struct dl_phdr_info *info,
                                                                  size_t size, void *data)
{
    (void)size;
    *(uintptr_t *)data = (uintptr_t)info->dlpi_addr;
    return 1; /* the first object is the executable */
}

__attribute__((no_instrument_function, destructor)) static void cyg_write(void)
{
    const char *path = getenv("LOWPROF_CYG_OUT");
    FILE *f = path && *path ? fopen(path, "w") : NULL;
    if (!f)
        return;
    uintptr_t bias = 0;
    dl_iterate_phdr(cyg_first_bias, &bias);
    fprintf(f, "bias %llx\n", (unsigned long long)bias);
    uint64_t dropped = 0;
    pthread_mutex_lock(&cyg_lock);
    for (const cyg_table *t = cyg_tables; t; t = t->next) {
        for (unsigned i = 0; i < CYG_SLOTS; i++)
            if (t->slot[i].count)
                fprintf(f, "%llx %llx %llu\n", (unsigned long long)t->slot[i].fn,
                        (unsigned long long)t->slot[i].site,
                        (unsigned long long)t->slot[i].count);
        dropped += t->dropped;
    }
    pthread_mutex_unlock(&cyg_lock);
    fprintf(f, "dropped %llu\n", (unsigned long long)dropped);
    fclose(f);
}
