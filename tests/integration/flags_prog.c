/* The program of the flag-prediction integration test, compiled by
 * `lowprof eval flag-prediction --program` with clang's trace-pc-guard
 * coverage: a hot loop calling a small hashing function (the hot methods),
 * a cold setup run once, and an output that depends on every iteration so
 * nothing is optimised away. About 10 M instructions with the coverage calls. */
#include <stdio.h>

static unsigned checksum;
static unsigned table[256];

__attribute__((noinline)) static unsigned mix(unsigned x)
{
    x ^= x >> 15;
    x *= 2654435761u;
    return x ^ (x >> 13);
}

__attribute__((noinline)) static void hot_loop(unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned h = mix(i + checksum);
        if (h & 1)
            checksum += table[h & 255];
        else
            checksum ^= h;
    }
}

__attribute__((noinline)) static void cold_setup(void)
{
    for (unsigned i = 0; i < 256; i++)
        table[i] = i % 3 == 0 ? mix(i) : i * 7u;
}

int main(void)
{
    cold_setup();
    for (int round = 0; round < 50; round++)
        hot_loop(4000);
    printf("%u\n", checksum);
    return 0;
}
