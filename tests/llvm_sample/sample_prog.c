/* A program whose profile is known, for the llvm-sample export test: a hot
 * loop in hot_sum() with a branch taken on every third iteration, a call to
 * an out-of-line helper on the taken side, and a small static function that
 * clang inlines into the loop. The results are printed so that nothing is
 * optimised away. */
#include <stdio.h>
#include <stdlib.h>

/* Out of line, so each call shows as a call pair and a call target. */
__attribute__((noinline)) unsigned helper(unsigned x)
{
    return x * 2654435761u ^ (x >> 7);
}

/* Inlined into hot_sum(): its lines appear there as an inlined call site. */
static inline unsigned mix(unsigned a, unsigned b)
{
    return (a << 5) + (a >> 3) + b;
}

__attribute__((noinline)) unsigned hot_sum(unsigned n)
{
    unsigned acc = 0;
    for (unsigned i = 0; i < n; i++) {
        if (i % 3 == 0)
            acc += helper(i);
        else
            acc = mix(acc, i);
    }
    return acc;
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 30000;
    printf("%u\n", hot_sum(n));
    return 0;
}
