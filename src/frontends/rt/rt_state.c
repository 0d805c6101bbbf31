/* The runtime's shared state and clock, in one place: every part of the
 * runtime reads lp__rt (rt_internal.h says who writes what, under which
 * lock), so it belongs to none of them, and the parts call one another one
 * way only (rt_main drives the daemon, the sampler, patching and the dump;
 * the daemon drives patching and periodic dumps). */
#define _GNU_SOURCE
#include <time.h>

#include "rt_internal.h"

lp__rt_state lp__rt;

uint64_t lp__rt_cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}
