/* The fuzz targets' trap on a broken invariant, and the check every
 * rewriter of lowprof cc's IR shares: a failure is -1 with a terminated,
 * non-empty message and no output; a success gives a terminated text. */
#ifndef FUZZ_ASSERT_H
#define FUZZ_ASSERT_H

#include <stddef.h>
#include <string.h>

#define FUZZ_ASSERT(cond)                                                                          \
    do {                                                                                           \
        if (!(cond))                                                                               \
            __builtin_trap();                                                                      \
    } while (0)

/* rc, err (errcap bytes, filled with 'x' before the call) and out (NULL
 * before the call) after one of lowprof cc's rewriters ran; returns
 * whether it succeeded. */
static inline int fuzz_rewrite_result(long rc, const char *err, size_t errcap, const char *out,
                                      size_t out_len)
{
    if (rc < 0) {
        FUZZ_ASSERT(rc == -1);
        FUZZ_ASSERT(memchr(err, '\0', errcap) != NULL && err[0]);
        FUZZ_ASSERT(out == NULL);
        return 0;
    }
    FUZZ_ASSERT(out != NULL && out[out_len] == '\0');
    return 1;
}

#endif
