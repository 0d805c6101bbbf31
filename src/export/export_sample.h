/* The sample-profile model that the compiler-feedback exports share
 * (llvm-sample's text, gcov-afdo's binary for gcc): per function, the
 * samples of each source line as an offset from the function's declaration
 * line, the call targets seen at a line, and the functions inlined at each
 * call site, nested as DWARF's inline chains nest them. Private to
 * src/export. */
#ifndef LP_EXPORT_SAMPLE_H
#define LP_EXPORT_SAMPLE_H

#include "export_internal.h"

typedef struct ls_target {
    const char *name;
    uint64_t count;
} ls_target;

typedef struct ls_line {
    unsigned offset, disc;
    uint64_t samples;
    ls_target *targets;
    size_t ntargets;
} ls_line;

typedef struct ls_node ls_node;

typedef struct ls_site {
    unsigned offset, disc;
    ls_node *callee;
} ls_site;

/* The samples of one function, top-level or inlined at one call site. */
struct ls_node {
    const char *name;
    uint64_t head;
    uint64_t total; /* body samples plus inlined totals, filled before writing */
    ls_line *lines;
    size_t nlines;
    ls_site *sites;
    size_t nsites;
};

/* Interned copies of callee names that did not come from DWARF or the
 * symbolizer (PLT names with their suffix cut). */
typedef struct ls_strings {
    char **items;
    size_t count;
} ls_strings;

/* The model: top-level functions, sorted by total samples (descending). */
typedef struct ls_state {
    ls_node **top;
    size_t ntop;
    int nomem;
    int discriminators; /* keep base discriminators (LLVM); 0 merges them (gcc) */
    ls_strings names;   /* callee names kept for the model's life */
} ls_state;

/* Builds the model of s into *out: body samples from the block profile
 * (each line's largest instruction count), call targets from call pairs,
 * head samples from the method profile (else from blocks at function
 * entries); discriminators 0 leaves every discriminator 0, merging lines
 * and call sites that differ only in it. Every node's total is filled.
 * Returns 0 (free with lp__sample_free), LP_ENOENT when s has no block
 * profile or none of its blocks lies in code with DWARF, or LP_ENOMEM. */
int lp__sample_build(const lp_profile_set *s, lp_names *nm, int discriminators, ls_state *out);
/* Adds the executions of the native runtime's blocks in v (those with
 * v[1] 0) to their instructions in insns (key (address, 0), v[0]), with
 * the blocks its copies leave without a counter solved by flow over each
 * function's machine code (export_sample_flow.c), and sets done[i] for
 * every entry i so handled; the others are left to the caller. Returns 0
 * or LP_ENOMEM. */
int lp__sample_flow(lp_names *nm, const lp_report_view *v, lp_table *insns, uint8_t *done);
void lp__sample_free(ls_state *st);

#endif
