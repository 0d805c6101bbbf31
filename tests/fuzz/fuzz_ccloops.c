/* Fuzz target for the rewrite that gives the copies' loops two versions
 * (src/frontends/cc/cc_loops.c), which reads the IR lowprof cc's copier
 * wrote: any bytes either fail with a terminated message, or give a
 * terminated text with switched checks (listed in __lp_loop64) on the
 * back-edges of both versions of each loop it says it gave two, and a
 * copy it could not read is left as it was. */
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
    lp_cc_loops_counts c;
    long loops = lp_cc_loops_ir((const char *)data, size, &out, &out_len, &c, err, sizeof err);
    if (!fuzz_rewrite_result(loops, err, sizeof err, out, out_len))
        return 0;
    FUZZ_ASSERT((size_t)loops == c.loops);
    /* a check on each back-edge, in both versions */
    long checks = fuzz_lines_with(out, out_len, "  callbr ", "__lp_loop64");
    FUZZ_ASSERT(loops ? checks >= 2 * loops : checks == 0);
    free(out);
    return 0;
}
