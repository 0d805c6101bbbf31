/* lowprof record: the Valgrind front end's driver. It runs a program under
 * the tool in src/frontends/vg, follows its progress, and finishes its
 * files (profile, interval matrix, event trace), also when the program or
 * the tool dies (src/record: record_run.c runs, record_elf.c reads build
 * ids). `lowprof record` (src/cli/cmd_record.c) parses the options. Hosted. */
#ifndef LOWPROF_RECORD_H
#define LOWPROF_RECORD_H

#include <stddef.h>

#include "lowprof/trace.h"

enum { LP_PROGRESS_NONE, LP_PROGRESS_TTY, LP_PROGRESS_LINES };

typedef struct lp_record_opts {
    const char *out;
    const char *imatrix;  /* NULL: derived from out */
    int no_imatrix;
    const char *trace;    /* NULL: no event trace */
    unsigned long long interval;    /* 0: default */
    unsigned long long trace_limit; /* 0: default */
    const char *types;
    int progress;
    int no_children;      /* record only the command's own process, not what it runs */
    /* Further --name=value options for the tool, already validated. */
    char *tool_args[16];
    int ntool_args;
    char **argv;
    int argc;
} lp_record_opts;

/* Records; returns the command's exit status (0 when the profile was
 * written, also for a program that crashed or was killed). */
int lp_record_run(const lp_record_opts *o);

/* Fills each module's build id from its file's GNU build-id note, where the
 * file can be read. */
void lp_record_add_build_ids(lp_module_map *m);

/* Analyses the executable program (a path) and writes the checks file of
 * placement (orig, EL, EC, EN, L4, L10, LN, EC+L4) to out_path for the
 * Valgrind tool's --checks-file (record_checks.c). Returns 0, or 1 after
 * printing why (the analysis's message names the file and the problem). */
int lp_record_write_checks(const char *program, const char *placement, const char *out_path);

/* PROGRAM as execvp would find it (malloc'd), or NULL. */
char *lp_record_find_program(const char *prog);

#endif
