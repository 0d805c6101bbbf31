/* -finstrument-functions hooks that measure instead of doing nothing: the
 * number of instrumented calls and the deepest nesting of instrumented
 * functions (per thread, the maximum over threads), printed to stderr at
 * exit as "calls N max-depth D". Used to characterise the benchmark
 * programs (doc/native-workloads.md); compile this file without the
 * instrumentation flag. The call count is atomic, so it slows the program
 * down far more than a profiler's hooks would. */
#include <stdatomic.h>
#include <stdio.h>

void __cyg_profile_func_enter(void *fn, void *call_site);
void __cyg_profile_func_exit(void *fn, void *call_site);

static atomic_ullong cyg_calls;
static atomic_int cyg_max_depth;
static _Thread_local int cyg_depth;

void __cyg_profile_func_enter(void *fn, void *call_site)
{
    (void)fn;
    (void)call_site;
    atomic_fetch_add_explicit(&cyg_calls, 1, memory_order_relaxed);
    int d = ++cyg_depth;
    int seen = atomic_load_explicit(&cyg_max_depth, memory_order_relaxed);
    while (d > seen && !atomic_compare_exchange_weak_explicit(&cyg_max_depth, &seen, d,
                                                              memory_order_relaxed,
                                                              memory_order_relaxed))
        ;
}

void __cyg_profile_func_exit(void *fn, void *call_site)
{
    (void)fn;
    (void)call_site;
    cyg_depth--;
}

__attribute__((destructor)) static void cyg_report(void)
{
    fprintf(stderr, "calls %llu max-depth %d\n", (unsigned long long)atomic_load(&cyg_calls),
            atomic_load(&cyg_max_depth));
}
