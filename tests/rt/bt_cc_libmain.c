/* The program that calls bt_cc_lib.c's function (check_rt's bursty-cc
 * test, built plain and linked with the runtime; calls-cg, built for the
 * call graph). */
#include <stdio.h>

long bt_lib_sum(const int *a, int n, long k);

int main(void)
{
    static int a[1000];
    for (int i = 0; i < 1000; i++)
        a[i] = i * 7 % 1013;
    long t = 0;
    for (int r = 0; r < 20000; r++)
        t += bt_lib_sum(a, 1000, r & 15);
    printf("bt_cc_libmain: %ld\n", t);
    return 0;
}
