/* The program the window-scaling test builds with `lowprof cc` and runs:
 * a call-heavy loop whose call counts are known, so that the estimates a
 * windowed strategy writes can be compared with the truth.
 *
 * usage: rt_scale THREADS ROUNDS [LATE_MS [PIECES]]
 * With LATE_MS, the main thread first spins for that much CPU time, in a
 * loop that calls no instrumented function, so that the threads start
 * well after the runtime's first window. With PIECES (one thread), the
 * main thread calls work() that many times, each for ROUNDS / PIECES
 * rounds (ROUNDS a multiple of PIECES): a long-running function entered
 * again and again. Each of THREADS threads (the main thread alone when
 * THREADS is 1) runs
 * work(), which makes ROUNDS rounds of 256 calls of hot() and one call of
 * tick(): hot() runs THREADS x ROUNDS x 256 times, tick() THREADS x ROUNDS
 * times and work() THREADS times. The loop is uniform from start to end:
 * every stretch of the run makes the same calls at the same rate. Prints
 * the sum of hot()'s results so the calls cannot be optimised away. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static unsigned long long g_rounds;

/* Built as it is, hot() and tick() get prefixed entries from lowprof cc
 * (doc/runtime.md), so tick() is a clock method counted by its copy.
 * With -DLP_SCALE_ASM_FIRST each starts with inline assembly, which keeps
 * them on the compiler's 5-byte entry and tick() on the trampoline. */
#ifdef LP_SCALE_ASM_FIRST
#define LP_SCALE_FIRST(x) __asm__ volatile("" : "+r"(x))
#else
#define LP_SCALE_FIRST(x) (void)0
#endif

static __thread unsigned long t_ticks;

/* A few instructions of work per call: the windows' cost per call is then
 * several times the call's own, as in the programs that showed it. */
__attribute__((noinline)) unsigned hot(unsigned x)
{
    LP_SCALE_FIRST(x);
    return x * 2654435761u + 12345u;
}

/* Once a round: the loop's outer level, as a program's main loop calls
 * its step once per item. */
__attribute__((noinline)) void tick(void)
{
    unsigned long t = t_ticks;
    LP_SCALE_FIRST(t);
    t_ticks = t + 1;
}

__attribute__((noinline)) void *work(void *arg)
{
    unsigned x = (unsigned)(unsigned long)arg;
    for (unsigned long long i = 0; i < g_rounds; i++) {
        for (int j = 0; j < 256; j++)
            x = hot(x);
        tick();
    }
    return (void *)(unsigned long)x;
}

/* Spins until the process has used ms milliseconds of CPU time. */
static void spin(long ms)
{
    struct timespec t;
    do
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    while (t.tv_sec * 1000L + t.tv_nsec / 1000000L < ms);
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 5) {
        fputs("usage: rt_scale THREADS ROUNDS [LATE_MS [PIECES]]\n", stderr);
        return 2;
    }
    int threads = atoi(argv[1]);
    unsigned long long rounds = strtoull(argv[2], NULL, 10), pieces = 1;
    if (argc == 5)
        pieces = strtoull(argv[4], NULL, 10);
    if (threads < 1 || threads > 64 || pieces < 1 || rounds % pieces || (pieces > 1 && threads > 1))
        return 2;
    g_rounds = rounds / pieces;
    if (argc >= 4)
        spin(atol(argv[3]));
    unsigned long sum = 0;
    if (threads == 1) {
        for (unsigned long long p = 0; p < pieces; p++)
            sum += (unsigned long)work((void *)1ul);
    } else {
        pthread_t tid[64];
        for (int t = 0; t < threads; t++)
            if (pthread_create(&tid[t], NULL, work, (void *)(unsigned long)(t + 1)) != 0)
                return 1;
        for (int t = 0; t < threads; t++) {
            void *r;
            pthread_join(tid[t], &r);
            sum += (unsigned long)r;
        }
    }
    printf("%lu\n", sum);
    return 0;
}
