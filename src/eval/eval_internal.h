/* What the experiments of src/eval share (private to src/eval): their entry
 * points for the table in eval_table.c, and src/eval/common: the workload
 * runner (eval_suite.c), event traces and their windows (eval_trace.c) and
 * the results files (eval_out.c). */
#ifndef LP_EVAL_INTERNAL_H
#define LP_EVAL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lowprof/core.h"
#include "lowprof/eval.h"
#include "lowprof/host.h"

/* ---- the experiments, one folder each --------------------------------------- */

int lp_eval_compressors(int argc, char **argv); /* compressors/eval_compressors.c */
int lp_eval_flags(int argc, char **argv);       /* flags/eval_flags.c */
int lp_eval_phase(int argc, char **argv);       /* phase/eval_phase.c */
int lp_eval_hps(int argc, char **argv);         /* hps/eval_hps.c */
int lp_eval_native(int argc, char **argv);      /* native/eval_native.c */
int lp_eval_bursty(int argc, char **argv);      /* bursty/eval_bursty.c */
int lp_eval_value(int argc, char **argv);       /* value/eval_value.c */
int lp_eval_pgo(int argc, char **argv);         /* pgo/eval_pgo.c */

/* ---- the workload runner (common/eval_suite.c) --------------------------------- */

/* Which workloads of the suite, and where their inputs and outputs go. */
typedef struct lp__eval_suite {
    int full;              /* no workloads named: every one of the size (else the small three) */
    const char *out_dir;   /* absolute, created; inputs in OUT/data unless data_dir */
    const char *workloads; /* comma-separated names, or NULL for the mode's choice */
    const char *traces;    /* comma-separated existing event traces instead of workloads */
    const char *size;      /* data set: small or full */
    const char *data_dir;  /* prepared inputs to use, or NULL */
} lp__eval_suite;

/* One workload to run: its name and, for a trace given or recorded, the
 * event trace to read. */
typedef struct lp__eval_workload {
    char name[64];
    char path[4096];
    int recorded; /* 1 when this run made the trace (and may delete it) */
} lp__eval_workload;

/* True if name is in the comma list (NULL: every name). */
int lp__eval_listed(const char *list, const char *name);
/* The first line of the file at path into line, without its line break
 * (empty if the file is missing or empty). */
void lp__eval_first_line(const char *path, char *line, size_t cap);

/* One program's line of workloads/native/suite.tsv (tab-separated: name,
 * sources, link, default arguments, small arguments, their checksums),
 * handed to the caller to parse in place; dir is the manifest's folder,
 * index the program's place among those selected. 0, or non-zero after
 * printing why (the reading stops). */
typedef int (*lp__eval_native_fn)(void *ctx, const char *dir, const char *manifest,
                                  unsigned lineno, char *line, size_t index);

/* Reads the native programs' manifest and calls fn for each program the
 * comma list programs selects (NULL: all), at most max of them, in the
 * manifest's order; *out_text keeps the text the lines lie in (free() it),
 * *out_n gets how many fn took. Every name in programs must be in the
 * manifest, or be one also accepts (also may be NULL). Returns 0, or 1/2
 * after printing why (2: a bad --programs). */
int lp__eval_native_suite(const char *cmd, const char *programs,
                          int (*also)(const char *name, size_t len), size_t max,
                          lp__eval_native_fn fn, void *ctx, char **out_text, size_t *out_n);

/* Resolves the workloads the options select (manifest names checked) into
 * *out (malloc'd, *out_n of them) without recording anything yet. Returns
 * 0, or 1 (bad name, unreadable manifest) or 2 (bad command line) after
 * printing why. */
int lp__eval_wl_select(const lp__eval_suite *o, lp__eval_workload **out, size_t *out_n);

/* Prepares the inputs once per process, then runs
 * `lowprof record -q --no-imatrix -o PROF OPTS... -- <the workload>` with
 * its output in LOG and checks that the program itself exited 0. The wall
 * time of the recording goes to *out_seconds (may be NULL). Returns 0, or 1
 * after printing why (naming the workload and the log file). */
int lp__eval_wl_run(const lp__eval_suite *o, const char *name, char *const *record_opts,
                    size_t nopts, const char *prof, const char *log, double *out_seconds);

/* Children run through the suite's lp_wl_spawn (lowprof/suite.h). */

/* "; its profile PATH: killed by signal 11 (SIGSEGV) at FUNCTION (FILE:LINE),
 * pc 0x..., address 0x..." when the native runtime's profile at path was
 * written at a fault, else "" (common/eval_fault.c). Writes into buf,
 * returns buf. */
const char *lp__eval_fault_note(const char *profile, char *buf, size_t cap);

/* True if a program of that name is found on PATH. */
int lp__eval_have_program(const char *name);

/* snprintf for paths: -1 when the result did not fit (callers then report
 * the path as too long rather than use a truncated one). */
int lp__eval_pathf(char *buf, size_t cap, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- event traces (common/eval_trace.c) ------------------------------------------ */

/* Records t's event trace with `lowprof record --trace OUT/traces/NAME.lpev
 * --trace-kinds KINDS --trace-limit LIMIT` through lp__eval_wl_run (the
 * profile goes to OUT/traces/NAME.lpprof, deleted unless keep_profile; the
 * messages to OUT/traces/NAME.log) and sets t->path. kinds is record's list
 * ("load", "load,branch,call"); limit counts events of every kind. Returns
 * 0, or 1 after printing why (naming the workload and the log file). */
int lp__eval_trace_record(const lp__eval_suite *s, lp__eval_workload *t, const char *kinds,
                          uint64_t limit, int keep_profile);

/* The tuples of a trace's first events, in order: value tuples (loads: pc,
 * value) up to max_values, edge and call-target tuples up to max_controls,
 * each with the instruction count of its event (instructions the process
 * retired before it). */
typedef struct lp__eval_window {
    lp_tuple *values;
    uint64_t *value_insns;
    size_t nvalues;
    lp_tuple *controls;
    uint64_t *control_insns;
    size_t ncontrols;
    uint64_t events;      /* events read */
    uint64_t trace_insns; /* instruction count at the last event read */
    int whole_trace;      /* 1 when the trace ended before both windows were full */
    uint64_t skipped;     /* value tuples left out before the window */
    uint64_t base_insns;  /* instruction count at the last one left out: value_insns
                           * count from there */
} lp__eval_window;

/* Reads the trace at path (a trace cut short gives the events before the
 * cut, with a note), leaving out its first skip_values value tuples.
 * Returns 0, or 1 after printing "lowprof: PATH: ..."; *out is empty then. */
int lp__eval_window_load(const char *path, size_t skip_values, size_t max_values,
                         size_t max_controls, lp__eval_window *out);
/* Frees the arrays; accepts NULL. */
void lp__eval_window_fini(lp__eval_window *w);

/* Exact profile of the tuples of one type among t[0..n): key (pc, w), v[0]
 * the count, in a table it initialises. 0 or LP_ENOMEM (out then freed). */
int lp__eval_exact(const lp_tuple *t, size_t n, unsigned tuple_type, lp_table *out);

/* Log-spaced checkpoints: quarter octaves from 2^15 (or n when smaller) to
 * n, n included. *out is malloc'd. Returns the count, 0 on no memory. */
size_t lp__eval_checkpoints(uint64_t n, uint64_t **out);

/* ---- the job pool (common/eval_parallel.c) ------------------------------------ */

/* Runs run(ctx, i) for every i < n on up to threads threads (at least one;
 * with no thread to be had, on the caller's), storing its result in
 * status[i]; done (may be NULL) is called under the pool's lock after each
 * job with its index, status and the count finished so far, for progress
 * lines. Returns 0 once every job has run. */
int lp__eval_parallel(size_t n, unsigned threads, int (*run)(void *ctx, size_t i),
                      void (*done)(void *ctx, size_t i, int status, size_t finished), void *ctx,
                      int *status);

/* ---- results files (common/eval_out.c) ----------------------------------------- */

/* Creates the results folder dir (and its parents) and writes its absolute
 * path into out_abs (PATH_MAX bytes). Returns 0, or 1 after printing why. */
int lp__eval_make_out(const char *dir, char *out_abs);
/* Opens DIR/name for writing; prints the error and returns NULL on failure. */
FILE *lp__eval_open(const char *dir, const char *name, char *path_out, size_t cap);
/* Closes f, printing the error for path; 0 or -1. */
int lp__eval_close(FILE *f, const char *path);
/* Formats an event count compactly ("204.8K", "7.0M") or "never". */
const char *lp__eval_events_text(uint64_t v, char *buf, size_t cap);
/* Runs gnuplot on DIR/script. Returns 0 when the plot was made, -1 when
 * gnuplot is missing or failed (a message is printed once). */
int lp__eval_plot(const char *dir, const char *script);

#endif
