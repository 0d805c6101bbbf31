/* The copies' loops in two versions (check_rt's loops test;
 * src/frontends/cc/cc_loops.c). Built by `lowprof cc` with
 * rt_loops_probe.c compiled apart, without lowprof.
 *
 *   shapes  loops whose values leave them in several types (an integer, a
 *           double, a pointer, a call's result, a comparison), loops with
 *           two exits, a switch, nested loops and a static helper, each
 *           called a known number of times; prints what they compute
 *   long    long_iterations(), static, so that main's copy calls its copy:
 *           100 iterations of 100,000 calls of a static helper each, so
 *           that windows open and close inside an iteration
 *   spin    main's own loop (main starts in its copy) calls the probe
 *           N times (argv[2]); prints how many call sites the probe saw:
 *           the counted version's and, once a window has closed while the
 *           loop ran, the other version's */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lp_probe(void);
unsigned lp_probe_sites(void);

#define NOINLINE __attribute__((noinline))

NOINLINE double mean(const double *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return n ? s / n : 0;
}

NOINLINE const char *skip_blanks(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

NOINLINE int find(const int *a, int n, int key)
{
    for (int i = 0; i < n; i++)
        if (a[i] == key)
            return i;
    return -1;
}

NOINLINE long nested(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            s += (i ^ j) & 7;
    return s;
}

NOINLINE int classify(const char *s)
{
    int k = 0;
    for (; *s; s++)
        switch (*s) {
        case 'a': k += 1; break;
        case 'b': k *= 2; break;
        case 'c': k -= 3; break;
        default: k ^= 1;
        }
    return k;
}

static NOINLINE int scaled(int x)
{
    return x * 7 + (x >> 3);
}

/* The last element seen and whether a limit stopped the loop: values
 * computed in the loop and used after it. */
NOINLINE long last_over(const int *a, int n, long limit, int *stopped)
{
    long s = 0;
    int last = 0, over = 0;
    for (int i = 0; i < n; i++) {
        s += scaled(a[i]);
        last = a[i];
        over = s > limit;
        if (over)
            break;
    }
    *stopped = over;
    return s + last;
}

static NOINLINE int shapes(void)
{
    int a[100];
    double v[50];
    for (int i = 0; i < 100; i++)
        a[i] = (i * 37) % 101;
    for (int i = 0; i < 50; i++)
        v[i] = i * 0.5;
    long total = 0;
    int stops = 0;
    for (int r = 0; r < 200; r++) {
        int stopped;
        total += (long)mean(v, 50 - r % 7);
        total += skip_blanks(&"  \t x"[r % 3]) - "  \t x";
        total += find(a, 100, r % 120);
        total += nested(20 + r % 5);
        total += classify(&"abcabcxbba"[r % 5]);
        total += last_over(a, 100, 1000 + 40 * r, &stopped);
        stops += stopped;
    }
    printf("shapes %ld %d\n", total, stops);
    return 0;
}

static NOINLINE long helper_call(long x)
{
    return x * 3 + (x >> 2);
}

static NOINLINE long long_iterations(void)
{
    long s = 0;
    for (int i = 0; i < 100; i++)
        for (long j = 0; j < 100000; j++)
            s += helper_call(j + i);
    return s;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "long") == 0) {
        printf("long %ld\n", long_iterations());
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "shapes") == 0)
        return shapes();
    if (argc > 2 && strcmp(argv[1], "spin") == 0) {
        long n = atol(argv[2]);
        for (long i = 0; i < n; i++)
            lp_probe();
        printf("sites %u\n", lp_probe_sites());
        return 0;
    }
    fprintf(stderr, "usage: rt_loops shapes | spin N\n");
    return 2;
}
