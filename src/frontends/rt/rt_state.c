/* The runtime's shared state and clock, in one place: every part of the
 * runtime reads lp__rt (rt_internal.h says who writes what, under which
 * lock), so it belongs to none of them, and the parts call one another one
 * way only (rt_main drives the daemon, the sampler, patching and the dump;
 * the daemon drives patching and periodic dumps). */
#define _GNU_SOURCE
#include <time.h>

#include "rt_internal.h"

lp__rt_state lp__rt;

/* The process's CPU time. Read from another thread, the kernel's sum
 * holds a running thread's time only up to that thread's last scheduler
 * tick (4 ms at HZ=250): the daemon's windows of 2 ms lasted one or two
 * ticks, and came half as often as asked (compress at duty=10: 43 windows
 * in 1.9 s where 90 were due). Reading a thread's own CPU clock makes the
 * kernel account its time so far, into the process's sum too; so the
 * clocks of up to threads of the threads that met the runtime are read
 * first, a system call each (a thread not among them is as fresh as its
 * last tick). */
uint64_t lp__rt_cpu_fresh(unsigned threads)
{
    struct timespec ts;
    unsigned k = 0;
    for (lp__rt_tcounts *tc = __atomic_load_n(&lp__rt.blocks, __ATOMIC_ACQUIRE); tc && k < threads;
         tc = tc->next) {
        int32_t tid = __atomic_load_n(&tc->tid, __ATOMIC_RELAXED);
        if (tid <= 0)
            continue;
        /* the thread's CPU clock, as pthread_getcpuclockid makes it */
        clockid_t id = (clockid_t)((~(uint32_t)tid << 3) | 6);
        clock_gettime(id, &ts);
        k++;
    }
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The daemon's many reads bring four threads up to date: those of most
 * programs, and a few system calls a read. */
uint64_t lp__rt_cpu_ns(void)
{
    return lp__rt_cpu_fresh(4);
}

uint64_t lp__rt_thread_cpu_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}
