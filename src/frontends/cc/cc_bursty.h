/* The native bursty-tracing build of `lowprof cc --profiles=bursty[:P]`
 * (doc/bursty.md, "The native front end"): the duplicated code of
 * Hirzel and Chilimbi's framework (paper 003, section 2, Fig. 3), written
 * into clang's IR before optimisation.
 *
 * Every function that can be copied gets its blocks twice in its own body:
 * the original blocks are the checking code, their copies (names prefixed
 * LP_CC_BT_PREFIX) the instrumented code, which reports each data
 * reference and its own entry to the runtime. A check is the paper's fast
 * path, a decrement of the thread's nCheck and a conditional branch; the
 * rest of Fig. 3 is the runtime's lp__bt_slow, whose answer picks the copy
 * the code goes on in. Checks sit on the procedure entries and loop
 * back-edges placement P chooses (lowprof/bursty.h) from this file's own
 * call graph and natural loops; an entry without a check goes on in the
 * copy its thread is in.
 *
 * cc_bursty.c reads the module (types, functions, the call graph, the
 * entries' placement); cc_bursty_fn.c rewrites one function, whose graph,
 * loops and liveness cc_bursty_cfg.c finds (cc_bursty_fn.h). */
#ifndef LP_CC_BURSTY_H
#define LP_CC_BURSTY_H

#include <stddef.h>
#include <stdint.h>

#include "cc_clone.h"
#include "lowprof/bursty.h"

/* The copy's names: the original's with this in front. The names the
 * rewrite makes itself (checks, the shared first block) start with
 * LP_CC_BT_OWN, so that no copy's name is one of them. */
#define LP_CC_BT_PREFIX "lpb."
#define LP_CC_BT_OWN "lpc."

/* What the module tells a function's rewrite. */
typedef struct lp_cc_bt_module {
    const lp_cc_line *types; /* named struct types, without '%' */
    size_t ntypes;
    int opaque;                /* pointers are `ptr` (clang 15 and later) */
    int pic;                   /* thread-local variables through the GOT */
    const char *numbered;      /* the prefix numbered values were named with (NULL: "lp.") */
    unsigned long weight_node; /* the branch-weights node the checks use */
    lp_bursty_placement placement;
} lp_cc_bt_module;

/* What a rewrite did: checks on entries and on loops, loops that would
 * have a check but cannot (a value other than the stack slots is live
 * into the header, or the header starts with a phi), the references the
 * instrumented code reports (statically), functions left as they were. */
typedef struct lp_cc_bt_counts {
    unsigned long entry_checks, loop_checks, loops_skipped, refs, fns_skipped;
} lp_cc_bt_counts;

/* Rewrites the function whose text (define line to `}`, numbered values
 * already named) is lines[0, n), with or without an entry check, into b.
 * A function it cannot copy (indirect branches, dynamic stack allocation,
 * exception handling, quoted local names, labels over 1000 bytes) is
 * counted in c->fns_skipped and not written: the caller writes it as the
 * input has it. Returns 0 (written), 1 (skipped), or -1 without memory. */
int lp__cc_bt_function(const lp_cc_bt_module *m, const lp_cc_line *lines, size_t n, int entry_check,
                       lp_cc_bt_counts *c, lp_cc_buf *b);

/* The text of the function in lines[first, last] (without its use-list
 * orders, which a rewrite no longer matches), its numbered values named
 * with prefix, into fn, and split into lines (malloc'd; *n of them, the
 * empty ones at the end dropped); NULL without memory. */
lp_cc_line *lp__cc_bt_fn_lines(const lp_cc_line *lines, size_t first, size_t last,
                               const char *prefix, lp_cc_buf *fn, size_t *n);

/* Whether name (len bytes, without '%') is one of the module's types. */
int lp__cc_bt_is_type(const lp_cc_bt_module *m, const char *name, size_t len);

/* Whether the statement text calls a function (not an intrinsic, not
 * inline assembly); *callee and *callee_len get a direct callee's name
 * (without '@'), or stay NULL for an indirect call. */
int lp__cc_bt_call(const char *p, size_t n, const char **callee, size_t *callee_len);

/* Rewrites the IR text in (len bytes), clang's before optimisation, into
 * a new malloc'd text (*out, *out_len) with the checks and copies of
 * placement (a name lp_bursty_placement_parse reads). Flags: LP_CC_PIC.
 * *out_counts (may be NULL) gets what it did. Returns the number of
 * functions copied, or -1 with a message in err. */
long lp_cc_bursty_ir(const char *in, size_t len, const char *placement, unsigned flags, char **out,
                     size_t *out_len, lp_cc_bt_counts *out_counts, char *err, size_t errcap);

#endif
