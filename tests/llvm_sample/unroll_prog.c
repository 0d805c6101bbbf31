/* A loop that clang -O2 unrolls, for the llvm-sample export's test: a
 * byte hash like the one the json workload spends its time in. The loop's
 * lines must read as many samples as they ran: in the unrolled body, whose
 * discriminators carry the unroller's duplication factor, and in the
 * native runtime's copies, where that body has no counter of its own.
 * main's call of fold returns to the next line's code: the call target
 * belongs to the call's line all the same. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) unsigned long fold(unsigned long h, const unsigned char *p,
                                             unsigned long n)
{
    for (unsigned long i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ul;
    }
    return h;
}

int main(int argc, char **argv)
{
    unsigned long calls = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
    unsigned char buf[41];
    for (unsigned i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(i * 7 + 1);
    unsigned long h = 1469598103934665603ul, odd = 0;
    for (unsigned long c = 0; c < calls; c++) {
        h = fold(h, buf, sizeof buf);
        odd += h & 1; /* the code after the call is this line's */
    }
    printf("%lu %lu\n", h, odd);
    return 0;
}
