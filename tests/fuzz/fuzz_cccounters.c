/* Fuzz target for the rewriter that makes the copies' block counters
 * 64-bit and per thread (src/frontends/cc/cc_counters.c, with the call
 * sites of cc_sites.c), which reads the IR clang prints after its
 * optimisations: any bytes either fail with a terminated message naming a
 * line (input that already holds lowprof's counters among them), or give
 * a terminated text that declares as many 64-bit counter arrays as the
 * rewriter says it made, with none of clang's 8-bit ones left, and a
 * thread-local twin of each in the table the runtime reads. */
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
    long arrays =
        lp_cc_counters_ir((const char *)data, size, (unsigned)size & 3, &out, &out_len, err, sizeof err);
    if (!fuzz_rewrite_result(arrays, err, sizeof err, out, out_len))
        return 0;
    FUZZ_ASSERT(fuzz_lines_with(out, out_len, "@", "section \"__lp_cnt64\"") == arrays);
    FUZZ_ASSERT(fuzz_lines_with(out, out_len, "@", "section \"__sancov_cntrs\"") == 0);
    /* Every array has its thread-local twin, and the twins' table names
     * each twin once. Lines of the input that look like either pass
     * through as they are, so they are not counted. */
    static const char twin[] = ".lpt = internal thread_local(", entry[] = ".lpt@dtpoff";
    const char *in = (const char *)data;
    long twins = fuzz_lines_with(out, out_len, "@", twin) - fuzz_lines_with(in, size, "@", twin);
    FUZZ_ASSERT(twins >= arrays);
    FUZZ_ASSERT(fuzz_lines_with(out, out_len, "module asm", entry) -
                    fuzz_lines_with(in, size, "module asm", entry) ==
                twins);
    free(out);
    return 0;
}
