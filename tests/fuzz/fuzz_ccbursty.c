/* Fuzz target for the IR rewriter of `lowprof cc --profiles=bursty`
 * (src/frontends/cc/cc_bursty.c and cc_bursty_fn.c), which reads clang's
 * IR before optimisation: any bytes either fail with a terminated message,
 * or give a terminated text with the shared slots' block (LP_CC_BT_OWN
 * "pre:") of every function it says it copied, at most one entry check per
 * copy (exactly one under orig, and no check at all under EN+LN), and the
 * runtime's declarations and the placement's section at its end.
 *
 * The whole input is the IR, so the corpus holds real IR files; the
 * placement and LP_CC_PIC follow from the input's size (size % 5 picks
 * the placement, the next bit PIC), as cccounters picks its flags, so a
 * mutation that changes the length tries another placement. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/frontends/cc/cc_bursty.h"
#include "fuzz_assert.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const placements[] = {"orig", "EC+L4", "EL", "L10", "EN+LN"};

/* Offset of the last line of text[0, n) that begins with prefix, or n. */
static size_t last_line_with(const char *text, size_t n, const char *prefix)
{
    size_t pn = strlen(prefix), found = n;
    for (size_t at = 0; at < n;) {
        const char *nl = memchr(text + at, '\n', n - at);
        size_t len = nl ? (size_t)(nl - (text + at)) : n - at;
        if (len >= pn && memcmp(text + at, prefix, pn) == 0)
            found = at;
        at += len + 1;
    }
    return found;
}

/* Lines of text[0, n) that are exactly line. */
static long lines_equal(const char *text, size_t n, const char *line)
{
    size_t ln = strlen(line);
    long found = 0;
    for (size_t at = 0; at < n;) {
        const char *nl = memchr(text + at, '\n', n - at);
        size_t len = nl ? (size_t)(nl - (text + at)) : n - at;
        found += len == ln && memcmp(text + at, line, ln) == 0;
        at += len + 1;
    }
    return found;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t which = size % 5;
    unsigned flags = (size / 5) & 1 ? LP_CC_PIC : 0;
    char err[256];
    memset(err, 'x', sizeof err);
    char *out = NULL;
    size_t out_len = 0;
    lp_cc_bt_counts c;
    memset(&c, 0xa5, sizeof c);
    long copied = lp_cc_bursty_ir((const char *)data, size, placements[which], flags, &out,
                                  &out_len, &c, err, sizeof err);
    if (!fuzz_rewrite_result(copied, err, sizeof err, out, out_len))
        return 0;
    FUZZ_ASSERT(lines_equal(out, out_len, LP_CC_BT_OWN "pre:") >= copied);
    FUZZ_ASSERT(c.entry_checks <= (unsigned long)copied);
    if (which == 0)
        FUZZ_ASSERT(c.entry_checks == (unsigned long)copied);
    if (which == 4)
        FUZZ_ASSERT(c.entry_checks == 0 && c.loop_checks == 0 && c.loops_skipped == 0);
    /* The tail: the thread's counter and mode (in the TLS model flags ask
     * for; not when the input declares them itself), and the placement's
     * name in its section, after all else. */
    const char *model = flags & LP_CC_PIC ? "(initialexec)" : "(localexec)";
    size_t tail = last_line_with(out, out_len, "@lp.bursty.");
    FUZZ_ASSERT(tail < out_len);
    if (!fuzz_lines_with((const char *)data, size, "@lp__bt_", "")) {
        tail = last_line_with(out, out_len, "@lp__bt_n = external thread_local(");
        FUZZ_ASSERT(tail < out_len);
        FUZZ_ASSERT(fuzz_lines_with(out + tail, out_len - tail, "@lp__bt_n = ", model) == 1);
        FUZZ_ASSERT(fuzz_lines_with(out + tail, out_len - tail, "@lp__bt_mode = ", model) == 1);
    }
    FUZZ_ASSERT(
        fuzz_lines_with(out + tail, out_len - tail, "@lp.bursty.", "section \"__lp_bursty\"") == 1);
    FUZZ_ASSERT(out_len > 0 && out[out_len - 1] == '\n');
    free(out);
    return 0;
}
