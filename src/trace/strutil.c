/* The few string helpers trace needs, since it may not call libc: lengths,
 * comparisons against counted bytes, and copies through core's allocator.
 * (A hosted -O2 build may turn the length loop into a call to libc's
 * strlen; builds without libc use -fno-builtin or -ffreestanding, which
 * keep the loop.) */
#include "trace_internal.h"

size_t lp__strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

int lp__strneq(const char *a, size_t n, const char *b)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != a[i] || b[i] == '\0')
            return 0;
    return b[n] == '\0';
}

char *lp__strndup(const char *s, size_t n)
{
    if (n == SIZE_MAX)
        return NULL;
    char *d = lp_malloc(n + 1);
    if (!d)
        return NULL;
    if (n)
        __builtin_memcpy(d, s, n);
    d[n] = '\0';
    return d;
}
