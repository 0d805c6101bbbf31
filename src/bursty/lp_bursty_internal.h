/* Private to bursty: the call graph in compressed-row form, built from the
 * caller's edge list so each procedure's callees are contiguous. */
#ifndef LP_BURSTY_INTERNAL_H
#define LP_BURSTY_INTERNAL_H

#include "lowprof/bursty.h"

typedef struct lp__bursty_csr {
    uint32_t n;
    uint32_t *start;  /* n + 1 offsets into callee */
    uint32_t *callee; /* the callees of f are callee[start[f] .. start[f + 1]) */
} lp__bursty_csr;

/* Builds c from g. Returns 0, LP_EINVAL (an edge names a procedure out of
 * range, more than UINT32_MAX edges, or a NULL array the graph needs) or
 * LP_ENOMEM. On failure c holds nothing to free. */
int lp__bursty_csr_build(const lp_bursty_graph *g, lp__bursty_csr *c);
void lp__bursty_csr_free(lp__bursty_csr *c);

/* Tarjan's algorithm over c into scc[0 .. c->n); *out_count the number of
 * components. 0 or LP_ENOMEM. */
int lp__bursty_tarjan(const lp__bursty_csr *c, uint32_t *scc, uint32_t *out_count);

#endif
