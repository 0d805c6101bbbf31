/* lowprof eval: the papers' experiments, reproduced on the workload suite
 * and the native programs, as a table of entry points. Each experiment is a
 * folder of src/eval (compressors, phase, hps, flags, native) that parses its
 * own options, like a command of its own (perf's bench/ does the same), and
 * src/eval/common holds what they share: running the workload suite under
 * `lowprof record`, spawning tools, results files, plots and the allocator
 * cache. A new experiment is a folder, its files in src/eval/meson.build and
 * one row of lp_eval_experiments.
 *
 * Hosted: experiments run children (the lowprof binary itself, compilers,
 * gnuplot) and write under a results folder. */
#ifndef LOWPROF_EVAL_H
#define LOWPROF_EVAL_H

typedef struct lp_eval_experiment {
    const char *name; /* lowprof eval NAME */
    /* Runs the experiment on argv[0] = NAME and its options. Returns the
     * command's exit status: 0 everything ran, 1 a workload or a file
     * failed (after printing why), 2 a bad command line. */
    int (*run)(int argc, char **argv);
    /* 1 when run answers -h and --help with the experiment's own text;
     * `lowprof eval NAME --help` then asks it rather than printing the
     * eval command's. */
    int own_help;
} lp_eval_experiment;

/* The experiments, in the order help lists them; ends with a NULL name. */
extern const lp_eval_experiment lp_eval_experiments[];

/* The experiment named name, or NULL. */
const lp_eval_experiment *lp_eval_find(const char *name);

#endif
