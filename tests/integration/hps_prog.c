/* A program whose calls are known, for the HPS engine checks:
 * main calls outer() three times; outer(n) calls leaf() n times. Only the
 * middle call runs between LOWPROF_SAMPLING_ON and LOWPROF_SAMPLING_OFF,
 * so a triggered call-pair profile holds exactly main -> outer once and
 * outer -> leaf 1000 times. Argument "plain" leaves the triggers out. */
#include <string.h>

#include "lowprof/client.h"

static volatile unsigned long sink;

__attribute__((noinline)) static void leaf(unsigned i)
{
    sink += i;
}

__attribute__((noinline)) static void outer(unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        leaf(i);
}

int main(int argc, char **argv)
{
    int triggers = !(argc > 1 && strcmp(argv[1], "plain") == 0);
    outer(100);
    if (triggers)
        (void)LOWPROF_SAMPLING_ON();
    outer(1000);
    if (triggers)
        (void)LOWPROF_SAMPLING_OFF();
    outer(100);
    return sink == 0;
}
