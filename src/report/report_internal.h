/* What the report's files share (private to src/report): the row every
 * section sorts, its order, and the pieces of a section's text.
 * report_print.c holds the exact profiles' sections and the dispatch,
 * report_sampled.c those of the estimated profiles (bursty tracing's hot
 * data streams, the co-processor's values). */
#ifndef LP_REPORT_INTERNAL_H
#define LP_REPORT_INTERNAL_H

#include <stdint.h>

#include "lowprof/report.h"

/* One row before sorting: the key, its counters, an extra figure (call
 * sites, distinct values) and the weight it is sorted and shared by. */
typedef struct lp__report_row {
    uint64_t a, b;
    uint64_t v0, v1;
    uint64_t aux;
    uint64_t weight;
} lp__report_row;

/* qsort order: weight descending, then key. */
int lp__report_row_cmp(const void *x, const void *y);
/* Rows a section prints of n (--top). */
size_t lp__report_shown(const lp_report_opts *o, size_t n);
/* A section's title line. */
void lp__report_heading(const char *title, const char *what, const lp_report_opts *o, size_t n,
                        const lp_report_view *v);
/* The line of an empty section. */
void lp__report_none(const char *what);
/* A value in decimal, signed for its size. */
void lp__report_value_text(uint64_t value, uint64_t size, char *buf, size_t bufsize);

/* The estimated profiles' sections (report_sampled.c). */
int lp__report_coproc_values(lp_names *nm, const lp_report_view *v, const lp_report_opts *o,
                             const lp_meta *m);
int lp__report_streams(lp_names *nm, const lp_report_view *v, const lp_report_opts *o,
                       const lp_meta *m);
void lp__report_bursty(const lp_meta *m);
/* The calling contexts' section (report_context.c); m says what weighs
 * them (the native runtime's PC samples, else instructions). */
int lp__report_contexts(lp_names *nm, const lp_report_view *v, const lp_report_opts *o,
                        const lp_meta *m);

#endif
