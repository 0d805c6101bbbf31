/* The fuzz targets' trap on a broken invariant, and what the targets of
 * lowprof cc's IR rewriters share: a failure is -1 with a terminated,
 * non-empty message and no output, a success a terminated text; and a
 * count of the text's lines of a kind. */
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

/* Lines of text[0, n) that begin with prefix and hold needle. */
static inline long fuzz_lines_with(const char *text, size_t n, const char *prefix,
                                   const char *needle)
{
    long found = 0;
    size_t pn = strlen(prefix);
    const char *p = text, *end = text + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (len > pn && memcmp(p, prefix, pn) == 0) {
            size_t k = strlen(needle), at = pn;
            while (at + k <= len && memcmp(p + at, needle, k) != 0)
                at++;
            found += at + k <= len;
        }
        p += len + 1;
    }
    return found;
}

#endif
