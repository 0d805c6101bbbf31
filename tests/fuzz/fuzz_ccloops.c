/* Fuzz target for the rewrite that gives the copies' loops two versions
 * (src/frontends/cc/cc_loops.c), which reads the IR lowprof cc's copier
 * wrote: any bytes either fail with a terminated message, or give a
 * terminated text with one switched check (listed in __lp_loop64) per
 * loop it says it gave two versions, and a copy it could not read is left as it was. */
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
    /* one check a loop, besides those the input already had */
    FUZZ_ASSERT(fuzz_lines_with(out, out_len, "  callbr ", "__lp_loop64") ==
                loops + fuzz_lines_with((const char *)data, size, "  callbr ", "__lp_loop64"));
    free(out);
    return 0;
}
