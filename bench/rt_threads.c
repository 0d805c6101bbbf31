/* A call-heavy program for the native runtime's thread scaling
 * (bench/rt_threads.sh): THREADS threads each call small functions CALLS
 * times in a loop. Counters that every thread increments (one per call
 * site or per function, as clang's -fprofile-instr-generate keeps them)
 * bounce their cache lines between the cores; per-thread counters do not.
 *
 *   rt_threads THREADS CALLS
 *
 * Prints one line, "rt_threads checksum N", the same for every build. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* -DRT_PAD='"N"' puts N bytes ahead of the functions below, and
 * -DRT_COPY_PAD='"M"' M bytes ahead of lowprof cc's copies of them (the
 * section lp_copies, empty in the other builds), so that rt_threads.sh -l
 * can time each build at several code placements, the copies' and the
 * originals' apart: in a loop this small, where the functions and the
 * loop fall against cache lines and 4 KB pages, and against each other,
 * moves the time by more than what is measured. */
#ifdef RT_PAD
__asm__(".text\n.skip " RT_PAD ", 0xcc");
#endif
#ifdef RT_COPY_PAD
__asm__(".pushsection lp_copies,\"ax\",@progbits\n.skip " RT_COPY_PAD ", 0xcc\n.popsection");
#endif

#define NOINLINE __attribute__((noinline))

NOINLINE unsigned long rt_mix(unsigned long x)
{
    return x * 0x9e3779b97f4a7c15UL + (x >> 7);
}

NOINLINE unsigned long rt_step(unsigned long x, unsigned long i)
{
    return (i & 3) ? rt_mix(x ^ i) : x + i;
}

static unsigned long calls;

static void *rt_thread(void *arg)
{
    unsigned long x = (unsigned long)(uintptr_t)arg;
    for (unsigned long i = 0; i < calls; i++)
        x = rt_step(x, i);
    return (void *)(uintptr_t)x;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 16;
    calls = argc > 2 ? strtoul(argv[2], NULL, 10) : 20000000UL;
    if (threads < 1 || threads > 256) {
        fprintf(stderr, "rt_threads: THREADS must be 1..256\n");
        return 2;
    }
    pthread_t t[256];
    for (int i = 0; i < threads; i++)
        if (pthread_create(&t[i], NULL, rt_thread, (void *)(uintptr_t)(i + 1)) != 0) {
            fprintf(stderr, "rt_threads: pthread_create failed\n");
            return 1;
        }
    unsigned long sum = 0;
    for (int i = 0; i < threads; i++) {
        void *r;
        pthread_join(t[i], &r);
        sum += (unsigned long)(uintptr_t)r;
    }
    printf("rt_threads checksum %lu\n", sum);
    return 0;
}
