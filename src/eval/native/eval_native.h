/* lowprof eval native: the pieces of the experiment (private to
 * src/eval/native).
 *
 * The profile-flags paper's Tables IV-VI (overhead and accuracy of
 * call-graph and basic-block profiles gathered in windows of 10, 25 and
 * 50 % of the time, against 100 %) on the native runtime and the six
 * native benchmark programs, next to profilers people use: gcc -pg (gprof),
 * clang -fprofile-instr-generate, -finstrument-functions with a counting
 * hook, and perf record.
 *
 *   eval_native.c        the command: options, programs, the order of work
 *   eval_native_conf.c   the configurations, accuracy names and notes the
 *                        parts share
 *   eval_native_build.c  one binary per build variant, through `lowprof cc`
 *                        for the runtime's
 *   eval_native_run.c    timed rounds, checksums, instruction counts under
 *                        valgrind
 *   eval_native_acc.c    every profile as a table keyed by function names,
 *                        and the accuracies against the 100 % profile
 *   eval_native_out.c    CSV and Markdown tables, the summary and targets
 *
 * Calls go one way: eval_native.c calls the parts; the parts call
 * eval_native_conf.c and the runner in eval_native_run.c, never back. */
#ifndef LP_EVAL_NATIVE_H
#define LP_EVAL_NATIVE_H

#include "eval_internal.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lowprof/core.h"

/* The build variants: one binary each per program. */
enum {
    LP__EN_PLAIN, /* clang -O2 -g: the baseline, also the one perf records */
    LP__EN_CG,    /* lowprof cc --profiles=call-graph */
    LP__EN_BB,    /* lowprof cc --profiles=block */
    LP__EN_PG,    /* gcc -O2 -pg */
    LP__EN_PI,    /* clang -O2 -fprofile-instr-generate */
    LP__EN_CYG,   /* clang -O2 -finstrument-functions + cyg_count.c */
    LP__EN_NBUILDS
};

/* What a configuration's run leaves to compare. */
enum {
    LP__EN_OUT_NONE,
    LP__EN_OUT_LOWPROF, /* a lowprof profile file */
    LP__EN_OUT_GMON,    /* gmon.out.<pid> for gprof */
    LP__EN_OUT_LLVM,    /* a .profraw for llvm-profdata */
    LP__EN_OUT_CYG,     /* the counting hook's pairs */
    LP__EN_OUT_PERF     /* perf.data */
};

/* One configuration: a build run with an environment. */
typedef struct lp__en_config {
    const char *name;   /* "cg-25", "gprof", ... (file names, CSV) */
    const char *label;  /* for people */
    unsigned build;     /* LP__EN_PLAIN ... */
    unsigned output;    /* LP__EN_OUT_* */
    const char *lowprof; /* LOWPROF without hot= and out= (NULL: not the runtime) */
    int duty;           /* 0, 10, 25, 50, 100; -1 for phase; -2 not a window */
    int windowed;       /* gets hot=N (else hot=all) */
    int real;           /* one of the real profilers (--no-real drops it) */
    int counted;        /* instruction counts under valgrind make sense */
} lp__en_config;

extern const lp__en_config lp__en_configs[];
extern const size_t lp__en_nconfigs;
/* The index of a configuration by name; the table is fixed, so a miss is a
 * bug (asserted). */
size_t lp__en_config_index(const char *name);

typedef struct lp__en_opts {
    const char *out;      /* absolute, created */
    const char *programs; /* comma list or NULL for all */
    const char *size;     /* "default" or "small" */
    unsigned rounds;
    unsigned hot;
    int callgrind;
    int real;
    const char *loops; /* lowprof cc --loops of the runtime's builds: "one" or "two" */
    char self[4096];   /* this lowprof binary */
} lp__en_opts;

/* One program of workloads/native/suite.tsv, resolved. */
typedef struct lp__en_program {
    char name[64];
    char *count_text;    /* count_args point into it; the others into the manifest */
    const char *sources[32];
    const char *link[8];
    const char *args[8];       /* the chosen size's arguments */
    const char *count_args[8]; /* the size run under valgrind */
    char checksum[96];         /* "NAME checksum HEX" of the chosen size */
    char bin[LP__EN_NBUILDS][4096];
    int built[LP__EN_NBUILDS];
} lp__en_program;

/* Measured per program and configuration. */
typedef struct lp__en_cell {
    int ran;           /* every round ran and printed the checksum */
    double *seconds;   /* one per round */
    double median;     /* seconds */
    uint64_t insns;    /* under valgrind; 0 when not counted */
    char profile[4096]; /* the last round's output file ("" if none) */
} lp__en_cell;

/* The accuracies of one program. NAN where not measured. The first three
 * are against the exhaustive profile (every method, 100 %); the *_HOT ones
 * against the profile of the hot methods at 100 %, the paper's reference,
 * which leaves out what choosing only hot methods loses. TOTAL is no
 * accuracy but the estimate's size: how far in percent the sum of a
 * lowprof profile's estimated counts (invocations for the call graph,
 * block executions for blocks) is from the exhaustive profile's, signed. */
enum {
    LP__EN_ACC_METHOD,
    LP__EN_ACC_CG,
    LP__EN_ACC_BLOCK,
    LP__EN_ACC_TOP10,
    LP__EN_ACC_METHOD_HOT,
    LP__EN_ACC_CG_HOT,
    LP__EN_ACC_BLOCK_HOT,
    LP__EN_ACC_TOTAL,
    LP__EN_NACC
};
extern const char *const lp__en_acc_name[LP__EN_NACC];

typedef struct lp__en_acc {
    double pct[LP__EN_NACC];      /* accuracy in percent (top10: overlap of 10) */
    size_t entries[LP__EN_NACC];  /* keys in the compared profile */
    size_t ref_entries[LP__EN_NACC];
} lp__en_acc;

typedef struct lp__en_result {
    lp__en_cell *cells; /* lp__en_nconfigs of them */
    lp__en_acc *acc;    /* lp__en_nconfigs of them */
    int ok;
} lp__en_result;

/* Notes for the output (a missing tool, fewer keys); printed and written. */
void lp__en_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
size_t lp__en_note_count(void);
const char *lp__en_note_text(size_t i);

/* ---- eval_native_build.c ---- */

/* Builds every variant of p the options need into OUT/work. Returns 0, or
 * 1 after printing why (the compiler's log is named). A variant whose tool
 * is missing is left unbuilt with a note. */
int lp__en_build(const lp__en_opts *o, lp__en_program *p);

/* ---- eval_native_run.c ---- */

/* Runs the configurations of p in o->rounds rounds (each round every
 * configuration once, in table order) and then, unless --no-callgrind,
 * the countable ones under valgrind. Fills r->cells. Returns 0, or 1 after
 * printing why (a wrong checksum, a crash). */
int lp__en_measure(const lp__en_opts *o, const lp__en_program *p, lp__en_result *r);
/* Runs argv with stdout to out and stderr to err (NULL: /dev/null) and the
 * given environment additions; returns the wait status or -1. */
int lp__en_spawn(char *const *argv, char *const *env, const char *out, const char *err);
/* Prints "WHAT failed (why)NOTE; see LOG" for a wait status (note: "" or
 * lp__eval_fault_note's text); returns 1. */
int lp__en_failed(int status, const char *what, const char *note, const char *log);
/* Whether a tool is on PATH. */
int lp__en_have(const char *tool);

/* ---- eval_native_acc.c ---- */

/* Fills r->acc from the profiles the runs left. Never fails for a missing
 * tool or an empty profile (a note instead). */
void lp__en_accuracy(const lp__en_opts *o, const lp__en_program *p, lp__en_result *r);

/* ---- eval_native_out.c ---- */

/* Writes overhead.csv, runs.csv, accuracy.csv and native.md under o->out
 * and prints the summary on stdout. Returns 0 or 1 (printed). */
int lp__en_write(const lp__en_opts *o, const lp__en_program *ps, const lp__en_result *rs,
                 size_t n);

#endif
