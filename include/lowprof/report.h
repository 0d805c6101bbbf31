/* lowprof report: reading a profile the way people and tools see it, for
 * every read-side consumer (`lowprof report`, `info`, the exporters, the
 * experiments that compare profiles): what each profile type's counters
 * are called, a whole-run view of a profile set's entries, naming
 * addresses with function, file:line and module, number formatting,
 * aligned text tables, and formatted output to a sink.
 *
 * Hosted (stdio, the symbolizer): above the freestanding line.
 * report_view.c holds the views, report_names.c the naming,
 * report_text.c the numbers, tables and sink output, report_print.c the
 * text report itself. */
#ifndef LOWPROF_REPORT_H
#define LOWPROF_REPORT_H

#include <stdarg.h>
#include <stdio.h>

#include "lowprof/symbols.h"
#include "lowprof/trace.h"

/* ---- profile types ---------------------------------------------------------- */

/* What v0 and v1 count for type ("executions", "instructions", ...); v1 is
 * NULL where it carries no summable quantity. Unknown types get "v0"/"v1". */
const char *lp_report_counter_name(unsigned type, int which);
/* The same for a profile of the set whose meta is m: the native runtime's
 * context profile (meta context-weight) counts self samples in v1. */
const char *lp_report_counter_name_in(const lp_meta *m, unsigned type, int which);
/* 1 if key b of type is a code address (a callee, a destination), so it
 * deserves a symbol too. */
int lp_report_key_b_is_code(unsigned type);

/* ---- a view of one type's entries ---------------------------------------------- */

/* The entries of one profile type, as estimates for the whole run (or for
 * one phase): a sampled profile's counts are multiplied by its scale, and a
 * set holding only per-phase profiles has them summed. */
typedef struct lp_report_view {
    lp_entry *entries; /* lp_malloc'd, sorted by key (a, then b) */
    size_t count;
    size_t merged; /* how many profiles were summed (0: none found) */
    int sampled;   /* 1 if any of them was sampled (scale not 1/1) */
} lp_report_view;

/* Builds the view of type for phase (LP_PHASE_NONE: the whole-run profile,
 * or the sum of all phases when the set has no whole-run one). An absent
 * type gives an empty view with merged 0. Returns 0 or LP_ENOMEM. */
int lp_report_view_build(const lp_profile_set *s, unsigned type, uint32_t phase, lp_report_view *out);
void lp_report_view_fini(lp_report_view *v);

/* ---- symbols -------------------------------------------------------------------- */

/* A symbolizer plus what is needed to name things compactly: which module
 * is the program itself (its rows carry no module name). */
typedef struct lp_names {
    lp_symbolizer *sym;
    const lp_module_map *modules;
    const lp_module *main_module; /* may be NULL */
    char **group_names;           /* "[libfoo.so]" per module, built on demand */
    uint64_t *entries;            /* witnessed function entries, sorted */
    char **entry_names;           /* their "MODULE+0xOFFSET" names, on demand */
    size_t nentries;
} lp_names;

/* Opens the symbolizer for s's module map. Returns 0 or LP_ENOMEM. */
int lp_names_init(lp_names *n, const lp_profile_set *s);
void lp_names_fini(lp_names *n);

/* Function name of pc, or when no symbol covers it "MODULE+0xOFFSET" (the
 * ELF address inside the module's file, which addr2line understands), or
 * "0xPC" outside every module. Writes into buf, returns buf. */
const char *lp_names_function(lp_names *n, uint64_t pc, char *buf, size_t size);
/* "function (file:line)", "function (file:line, libfoo.so.1)",
 * "function (libfoo.so.1)", ...: the function of pc with its source
 * position (file shown by basename) and, outside the main program, the
 * module's basename. With with_function 0, only what is inside the
 * parentheses. */
const char *lp_names_describe(lp_names *n, uint64_t pc, int with_function, char *buf,
                               size_t size);
/* Where the function holding pc starts: its symbol's start, or for code
 * no symbol covers, the function entry the profiles witnessed (a method
 * entry, a callee) closest below pc in the same module, as long as no
 * named entry lies between them; pc itself if there is none. Stripped
 * binaries thus still group their code by the functions that ran. */
uint64_t lp_names_start(lp_names *n, uint64_t pc);
/* The name of the function holding pc, for tables and exports that group
 * by function: its symbol name; for code without a symbol, the witnessed
 * entry as above, named "MODULE+0xOFFSET"; failing that, one
 * pseudo-function per module, "[libfoo.so.1]" ("[unknown]" outside every
 * module). The string lives as long as n. sym may be NULL; otherwise it
 * receives pc's symbol. */
const char *lp_names_group(lp_names *n, uint64_t pc, lp_symbol *sym);
/* 1 if pc lies in a module other than the main program. */
int lp_names_is_library(lp_names *n, const char *module_path);

/* The part of path after its last '/'. */
const char *lp_report_basename(const char *path);

/* ---- numbers and tables ----------------------------------------------------------- */

/* "12,345,678". buf needs 27 bytes. */
const char *lp_fmt_count(uint64_t v, char *buf);
/* "12.34%" of part in total ("-" when total is 0). buf needs 16 bytes. */
const char *lp_fmt_percent(uint64_t part, uint64_t total, char *buf);
/* part / whole with one decimal ("-" when whole is 0). buf needs 32 bytes. */
const char *lp_fmt_mean(uint64_t part, uint64_t whole, char *buf);

/* A text table: columns right-aligned ('r') or left-aligned ('l'); the last
 * column is never padded, so long names only push their own row. */
typedef struct lp_tab {
    size_t ncols;
    char align[12];
    char **cells; /* row-major, row 0 is the heading */
    size_t nrows;
    size_t cap;  /* rows allocated */
    size_t fill; /* cells filled in the row being built */
} lp_tab;

/* align: one character per column, at most 11 columns. heading: the column
 * titles, ncols of them. Returns 0 or LP_ENOMEM (later calls then do
 * nothing). */
int lp_tab_init(lp_tab *t, const char *align, const char *const *heading);
/* Appends a cell to the row in progress; a full row is closed. */
void lp_tab_cell(lp_tab *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints the table, each line indented by indent spaces. */
void lp_tab_print(const lp_tab *t, FILE *out, int indent);
void lp_tab_fini(lp_tab *t);

/* ---- formatted output to a sink ------------------------------------------------------ */

/* A sink with a sticky error: once a write fails every later call is a
 * no-op and err keeps the first code, so writers check once at the end. */
typedef struct lp_out {
    lp_sink sink;
    int err;
} lp_out;

void lp_outf(lp_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lp_outs(lp_out *o, const char *s);
void lp_outn(lp_out *o, const void *data, size_t size);

/* ---- the report (report_print.c) --------------------------------------------------------- */

/* What `lowprof report` prints. */
typedef struct lp_report_opts {
    uint64_t top;        /* rows per section; 0: all rows */
    uint64_t values_top; /* values per load; 0: all values */
    unsigned types;      /* bit mask (1u << lp_profile_type) of the sections asked for; 0:
                            every profile present; ~1u: all, without naming absent ones */
    int sort_insns;      /* code regions and blocks by instructions (else by executions) */
    int by_site;         /* call pairs per call site (else per caller function) */
    uint32_t phase;      /* LP_PHASE_NONE: the whole run */
} lp_report_opts;

/* Prints set, read from path, to standard output as `lowprof report` does:
 * the header (program, arguments, instructions, completeness, sampling,
 * compressor and HPS figures), then one table per profile type, hottest
 * first, addresses named through names. Returns 0 or a negative LP_E* code
 * (no memory); the caller checks standard output's errors. */
int lp_report_print(const char *path, const lp_profile_set *set, lp_names *names,
                    const lp_report_opts *opts);

#endif
