/* A program with planted phases for check_eval_phase: three loops that
 * execute very different branches (an integer hash, a sweep over an array,
 * a byte-classifying switch) run in the fixed schedule A B C A B C A B C,
 * each segment about 2 million instructions, so with 100,000-instruction
 * intervals every segment spans some twenty intervals of one phase, and
 * the three phases recur. Everything is deterministic: no input, no clock,
 * and the result is printed so the work cannot be optimised away.
 *
 * An argument of letters A, B and C runs that schedule instead (check_merge
 * records runs with different mixes of the same phases). */
#include <stdint.h>
#include <stdio.h>

#define SEGMENT_ITERS 60000u

static uint32_t table[4096];
static unsigned char bytes[8192];

__attribute__((noinline)) static uint64_t phase_hash(uint64_t x, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        x ^= x >> 13;
        x *= 0x9e3779b97f4a7c15ULL;
        if (x & 1)
            x += i;
    }
    return x;
}

__attribute__((noinline)) static uint64_t phase_sweep(unsigned n)
{
    uint64_t sum = 0;
    for (unsigned i = 0; i < n; i++) {
        uint32_t v = table[i & 4095];
        if (v > 0x7fffffffu)
            sum += v;
        else
            sum -= v >> 3;
        table[i & 4095] = v * 1103515245u + 12345u;
    }
    return sum;
}

__attribute__((noinline)) static uint64_t phase_classify(unsigned n)
{
    uint64_t counts[4] = {0};
    for (unsigned i = 0; i < n; i++) {
        unsigned char c = bytes[i & 8191];
        switch (c & 3) {
        case 0: counts[0] += c; break;
        case 1: counts[1] ^= c; break;
        case 2: counts[2] += c >> 1; break;
        default: counts[3]++; break;
        }
        bytes[i & 8191] = (unsigned char)(c * 5 + 1);
    }
    return counts[0] + counts[1] + counts[2] + counts[3];
}

int main(int argc, char **argv)
{
    const char *schedule = argc > 1 ? argv[1] : "ABCABCABC";
    for (unsigned i = 0; i < 4096; i++)
        table[i] = i * 2654435761u;
    for (unsigned i = 0; i < 8192; i++)
        bytes[i] = (unsigned char)(i * 7);
    uint64_t acc = 0;
    for (unsigned i = 0; schedule[i]; i++) {
        if (schedule[i] == 'A')
            acc += phase_hash(acc + i / 3, SEGMENT_ITERS);
        else if (schedule[i] == 'B')
            acc += phase_sweep(SEGMENT_ITERS);
        else if (schedule[i] == 'C')
            acc += phase_classify(SEGMENT_ITERS);
    }
    printf("%llu\n", (unsigned long long)acc);
    return 0;
}
