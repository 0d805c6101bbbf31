/* A program with three hot functions whose rank differs by what is counted,
 * for the pprof export's check (check_pprof.c):
 *   - heavy() runs most instructions: 20 calls of a loop of 50,000 steps
 *     and more;
 *   - medium() 200 calls of a loop of about 2,000 steps;
 *   - light() is called most often, exactly 40,000 times, each call short.
 * So ranked by instructions the order is heavy, medium, ...; ranked by
 * invocations or calls light comes first with 40,000, medium has 200 and
 * heavy 20. Built -O1 -fno-inline so every call stays a call; each call
 * gets its own argument, so the compiler cannot merge calls to these pure
 * functions. */
#include <stdio.h>

static volatile unsigned sink;

__attribute__((noinline)) static unsigned heavy(unsigned n)
{
    unsigned x = 1;
    for (unsigned i = 0; i < n; i++)
        x = x * 33 + i;
    return x;
}

__attribute__((noinline)) static unsigned medium(unsigned n)
{
    unsigned x = 7;
    for (unsigned i = 0; i < n; i++)
        x ^= x << 3 | i;
    return x;
}

__attribute__((noinline)) static unsigned light(unsigned v)
{
    return v * 2654435761u >> 7;
}

int main(void)
{
    unsigned acc = 0;
    for (int i = 0; i < 20; i++)
        acc += heavy(50000 + (unsigned)i);
    for (int i = 0; i < 200; i++)
        acc += medium(2000 + (unsigned)i % 2);
    for (unsigned i = 0; i < 40000; i++)
        acc += light(i);
    sink = acc;
    printf("%u\n", acc);
    return 0;
}
