/* Fuzz target for the IR rewriter behind `lowprof cc --blocks=clone`
 * (src/frontends/cc/cc_clone.c), which reads clang's textual IR: any bytes either
 * fail with a terminated message naming a line, or give a terminated text
 * holding at least one definition line with a copy suffix per function it
 * says it copied. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/frontends/cc/cc_clone.h"
#include "fuzz_assert.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    memset(err, 'x', sizeof err);
    char *out = NULL;
    size_t out_len = 0;
    /* Both kinds of build: an odd length stands for the call graph alone. */
    long copied = lp_cc_clone_ir((const char *)data, size, size & 1 ? LP_CC_CALLS_ONLY : 0u, &out,
                                 &out_len, err, sizeof err);
    if (!fuzz_rewrite_result(copied, err, sizeof err, out, out_len))
        return 0;
    FUZZ_ASSERT(fuzz_lines_with(out, out_len, "define ", LP_CC_CLONE_SUFFIX) >= copied);
    free(out);
    return 0;
}
