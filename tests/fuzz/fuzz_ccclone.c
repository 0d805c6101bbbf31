/* Fuzz target for the IR rewriter behind `lowprof cc --blocks=clone`
 * (src/cli/cc_clone.c), which reads clang's textual IR: any bytes either
 * fail with a terminated message naming a line, or give a terminated text
 * holding at least one definition line with a copy suffix per function it
 * says it copied. */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/frontends/cc/cc_clone.h"
#include "fuzz_assert.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Definition lines in text[0, n) that hold the copy suffix (both suffixes
 * begin with it). */
static long copies_defined(const char *text, size_t n)
{
    long found = 0;
    const char *p = text, *end = text + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (len > 7 && memcmp(p, "define ", 7) == 0 &&
            memmem(p, len, LP_CC_CLONE_SUFFIX, strlen(LP_CC_CLONE_SUFFIX)))
            found++;
        p += len + 1;
    }
    return found;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    memset(err, 'x', sizeof err);
    char *out = NULL;
    size_t out_len = 0;
    long copied = lp_cc_clone_ir((const char *)data, size, &out, &out_len, err, sizeof err);
    if (!fuzz_rewrite_result(copied, err, sizeof err, out, out_len))
        return 0;
    FUZZ_ASSERT(copies_defined(out, out_len) >= copied);
    free(out);
    return 0;
}
