/* lowprof eval pgo: the pieces of the experiment (private to src/eval/pgo).
 *
 * Whether a lowprof profile makes a faster program: each native benchmark
 * program built plain, with clang's instrumentation PGO (the anchor), and
 * with -fprofile-sample-use of two llvm-sample exports, one from an
 * exhaustive Valgrind recording and one from the native runtime's 10 %
 * windows, each trained on the training input and timed on the measured one.
 *
 *   eval_pgo.c        the command: options, programs, the order of work
 *   eval_pgo_build.c  the builds, the training runs and the profiles
 *   eval_pgo_run.c    one checked run and its CPU time; the timed rounds
 *   eval_pgo_model.c  the builds' cost in a model of cachegrind's events
 *   eval_pgo_debian.c Debian's bzip2 from its source package, as a program
 *   eval_pgo_out.c    pgo.csv, pgo.md and the summary
 *
 * Children are spawned through eval native's lp__en_spawn (the suite's
 * fixed environment), so both experiments run programs alike. */
#ifndef LP_EVAL_PGO_H
#define LP_EVAL_PGO_H

#include <stddef.h>

#include "eval_internal.h"

/* The timed builds, in the order of a round (each round rotates it). The
 * last is no build of its own: the native runtime's build collecting its
 * profile at the measured size, for the collection overhead there. */
enum {
    LP__PG_PLAIN,   /* clang -O2 */
    LP__PG_INSTR,   /* -fprofile-instr-use: the anchor */
    LP__PG_VG,      /* -fprofile-sample-use of the Valgrind recording */
    LP__PG_RT,      /* -fprofile-sample-use of the runtime's 10 % windows */
    LP__PG_COLLECT, /* lowprof cc build, LOWPROF=...duty=10..., measured size */
    LP__PG_NTIMED
};

/* The helper builds that make the profiles. */
enum {
    LP__PG_GEN, /* clang -O2 -fprofile-instr-generate */
    LP__PG_DBG, /* clang -O2 -g -gdwarf-4, recorded under Valgrind */
    LP__PG_RTB, /* lowprof cc --profiles=call-graph,block */
    LP__PG_NHELPERS
};

extern const char *const lp__pg_timed_name[LP__PG_NTIMED];

typedef struct lp__pg_opts {
    const char *out;      /* absolute, created */
    const char *programs; /* comma list, or NULL for the mode's choice */
    unsigned rounds;
    int full;        /* measured at the default size (else the small one) */
    int debian;      /* also Debian's bzip2, built from its source package */
    int train_small; /* train on the small size (else on a sixteenth of the default one) */
    int no_model;    /* no cachegrind runs (eval_pgo_model.c) */
    unsigned duty;   /* the runtime's windows, percent of the time (rt builds) */
    int loops_two;   /* lowprof cc --loops=two for the runtime's build */
    unsigned rt_runs; /* training runs of the runtime's build merged into its profile */
    char self[4096]; /* this lowprof binary */
} lp__pg_opts;

/* One program of workloads/native/suite.tsv and what happened to it. */
typedef struct lp__pg_program {
    char name[64];
    const char *sources[32]; /* absolute, malloc'd */
    const char *link[8];
    const char *train[8];   /* the small size's arguments */
    const char *measure[8]; /* the measured size's arguments */
    char train_sum[96];     /* "NAME checksum HEX", or "" when by_output */
    char measure_sum[96];
    int by_output;         /* no checksum line: each build's stdout must equal plain's */
    char arg_buf[2][4200]; /* a Debian program's input files (train, measure) */
    char work[4096];       /* OUT/work/NAME */
    char bin[LP__PG_NTIMED][4200];
    char helper[LP__PG_NHELPERS][4200];
    char profile[LP__PG_NTIMED][4200]; /* what the build used ("" for plain) */
    int warnings[LP__PG_NTIMED];       /* "warning:" lines of the build's log beyond plain's */
    double train_cpu[LP__PG_NTIMED];   /* median CPU s of the training run with collection */
    double collect[LP__PG_NTIMED];     /* training with collection / plain training */
    double *seconds[LP__PG_NTIMED];    /* CPU s, one per round */
    double median[LP__PG_NTIMED];
    double model[LP__PG_NTIMED];    /* modelled cycles on the training input (NAN: not run) */
    double model_ir[LP__PG_NTIMED]; /* instructions there */
    int ok;
    char why[512]; /* why not ok */
} lp__pg_program;

/* ---- eval_pgo_build.c ---- */

/* Builds p's helper builds, trains them, makes the profiles and builds the
 * four timed builds. Returns 0, or 1 with p->why set. */
int lp__pg_build(const lp__pg_opts *o, lp__pg_program *p);

/* ---- eval_pgo_run.c ---- */

/* Runs argv (env: NULL-terminated NAME=VALUE additions) with stdout and
 * stderr to LOG.out and LOG.err; with want non-NULL checks the first
 * stdout line is it (starts with it when want ends in a space), or, when
 * want starts with '/', that stdout is byte for
 * byte the file want names. *cpu gets the child's CPU seconds (user and system).
 * Returns 0, or 1 with why set. */
int lp__pg_run(char *const *argv, char *const *env, const char *log, const char *want, double *cpu,
               char *why, size_t cap);
/* Runs the timed builds of p in o->rounds rounds. 0, or 1 with p->why set. */
int lp__pg_measure(const lp__pg_opts *o, lp__pg_program *p);
/* The LOWPROF= setting of the runtime's collecting runs, writing to out. */
void lp__pg_runtime_env(const lp__pg_opts *o, const char *out, char *buf, size_t cap);
/* The median of v[0..n). */
double lp__pg_median(const double *v, size_t n);

/* ---- eval_pgo_model.c ---- */

/* Runs plain, instr, vg and rt once each under cachegrind (cache and
 * branch simulation) on the training input, checks their output, and
 * fills p->model and p->model_ir. 0, or 1 with p->why set. */
int lp__pg_model(lp__pg_program *p);

/* ---- eval_pgo_debian.c ---- */

/* Fills p with Debian's bzip2 built from its source package: fetched once
 * with `apt-get source` into OUT/cache (a private deb-src list of the
 * archive apt already uses), with generated text to compress as its
 * inputs. Returns 0, or 1 after printing why. */
int lp__pg_debian(const lp__pg_opts *o, lp__pg_program *p);

/* ---- eval_pgo_out.c ---- */

/* Writes pgo.csv and pgo.md under o->out and prints the summary. 0 or 1. */
int lp__pg_write(const lp__pg_opts *o, const lp__pg_program *ps, size_t n);

#endif
