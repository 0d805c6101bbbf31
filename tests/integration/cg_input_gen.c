/* Writes the input of the callgrind cross-check test (check_callgrind.c):
 * a small file of mixed content, so that the compressor it is fed to runs
 * more than one of its code paths (text, structured binary, runs, noise).
 *
 *   cg_input_gen OUT BYTES
 *
 * Deterministic: a fixed-seed generator, so every build writes the same
 * bytes and the test's counts are the same on every run. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t state = 0x2545f4914f6cdd1dULL;

static uint32_t next(void)
{
    /* xorshift64*: fast, and good enough to vary the content. */
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return (uint32_t)((state * 0x2545f4914f6cdd1dULL) >> 32);
}

static const char *const words[] = {
    "the", "of",   "and", "profile", "call",   "branch", "value",  "phase",
    "a",   "to",   "in",  "counts",  "each",   "loop",   "which",  "program",
    "was", "that", "is",  "for",     "with",   "load",   "return", "interval",
    "on",  "as",   "by",  "exact",   "sample", "method", "edge",   "signature",
};

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: cg_input_gen OUT BYTES\n");
        return 2;
    }
    long total = atol(argv[2]);
    FILE *f = fopen(argv[1], "wb");
    if (!f || total <= 0) {
        perror(argv[1]);
        return 1;
    }
    long n = 0;
    while (n < total) {
        /* A segment of one kind, 2-10 KB, kinds in turn. */
        long seg = 2048 + (long)(next() % 8192);
        int kind = (int)(n / 4096 % 4);
        for (long i = 0; i < seg && n < total; i++, n++) {
            int c;
            switch (kind) {
            case 0: { /* words, spaces, sentence ends */
                static const char *w = "";
                if (!*w) {
                    w = words[next() % (sizeof words / sizeof *words)];
                    c = next() % 12 == 0 ? '.' : ' ';
                    break;
                }
                c = *w++;
                break;
            }
            case 1: c = (int)(i * 7 % 251) ^ (int)(next() % 4); break; /* structured binary */
            case 2: c = (int)('A' + i / 97 % 26); break;               /* long runs */
            default: c = (int)(next() & 0xff); break;                  /* noise */
            }
            fputc(c, f);
        }
    }
    return fclose(f) == 0 ? 0 : 1;
}
