/* Threads that start in their copies.
 *
 * A function entered while the windows are closed runs in its original
 * until it returns, and a thread's start routine returns when the thread
 * ends. A worker loop started between windows therefore never counts its
 * own blocks, and each of its calls in a window reaches the callee's copy
 * from outside, through the entry stub's cache: 16 threads calling two
 * small functions cost up to 28 % more CPU time in the runs where they
 * started so (bench/rt_threads.c, doc/runtime.md). main has the same
 * problem, and the periodic strategy solves it by sending calls to the
 * copies until the first window (rt_daemon.c, lp__rt_begin); a thread can
 * start at any time, so lowprof cc sends the program's pthread_create
 * calls here instead, and the start routine's copy is what the thread
 * runs. Between
 * windows the copy costs its twins' increments (one instruction a block)
 * and calls the originals of the methods that are off; in a window it
 * counts, and its calls of methods that are on go to their copies
 * directly. */
#define _GNU_SOURCE
#include <pthread.h>

#include "rt_internal.h"

static uint64_t lp__rt_starts_copied;

/* fn's copy when the runtime profiles in windows with every method
 * switched on in them (hot=all), whose counts the estimates scale by the
 * windows' time, as they do the copies main runs in from the start; fn
 * otherwise, and for a function without a copy that takes its calls. */
static void *(*lp__rt_thread_start(void *(*fn)(void *)))(void *)
{
    const lp__rt_config *c = &lp__rt.cfg;
    if (!lp_rt_enabled() || !lp__rt.ncopies || c->hot != 0)
        return fn;
    if (c->strategy != LP__RT_PERIODIC && c->strategy != LP__RT_RANDOM &&
        c->strategy != LP__RT_PHASE)
        return fn;
    long m = lp__rt_method_exact((uint64_t)(uintptr_t)fn);
    if (m < 0 || !lp__rt.methods[m].copy)
        return fn;
    /* Not against the program's word: a method it switched off stays in
     * its original. The modes change under the lock. */
    pthread_mutex_lock(&lp__rt.lock);
    int off = 0;
    for (unsigned t = 0; t < LP_RT_TYPES; t++)
        off |= lp__rt.methods[m].mode[t] == LP__RT_FORCE_OFF;
    pthread_mutex_unlock(&lp__rt.lock);
    if (off)
        return fn;
    __atomic_add_fetch(&lp__rt_starts_copied, 1, __ATOMIC_RELAXED);
    return (void *(*)(void *))(uintptr_t)lp__rt.methods[m].copy;
}

__attribute__((visibility("default"))) int lp__rt_pthread_create(pthread_t *thread,
                                                                 const pthread_attr_t *attr,
                                                                 void *(*fn)(void *), void *arg);
int lp__rt_pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *),
                          void *arg)
{
    return pthread_create(thread, attr, lp__rt_thread_start(fn), arg);
}

uint64_t lp__rt_threads_started_in_copies(void)
{
    return __atomic_load_n(&lp__rt_starts_copied, __ATOMIC_RELAXED);
}
