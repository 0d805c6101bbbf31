/* lowprof suite: the workload suite's manifest, workloads/suite.tsv, read
 * by `lowprof workloads` and by the experiments (src/eval), which run what
 * it lists.
 *
 * One line per workload and size, tab-separated: name, size (small, full or
 * * for every size), environment (NAME=VALUE words, or -), command (words).
 * The name "prepare" marks a preparation step run natively once after the
 * inputs are generated. In commands, {data}, {out}, {drivers} and {cc1} are
 * placeholders, a word <PATH sets standard input and >PATH standard output.
 * doc/workloads.md describes the format for people. */
#ifndef LOWPROF_SUITE_H
#define LOWPROF_SUITE_H

#include <stddef.h>

/* Where the build put the suite's pieces (meson passes all three; these
 * are for a compile outside it, run from the source tree). */
#ifndef LP_WLGEN_PATH
#define LP_WLGEN_PATH "lowprof-wlgen"
#endif
#ifndef LP_WL_MANIFEST
#define LP_WL_MANIFEST "workloads/suite.tsv"
#endif
#ifndef LP_WL_DRIVERS_DIR
#define LP_WL_DRIVERS_DIR "."
#endif

typedef struct lp_wl_entry {
    char *name;
    char *size;
    char **env; /* NAME=VALUE, nenv of them */
    size_t nenv;
    char **words; /* the command as written, nwords of them */
    size_t nwords;
    unsigned line; /* 1-based line in the manifest, for messages */
} lp_wl_entry;

typedef struct lp_wl_manifest {
    lp_wl_entry *items;
    size_t count;
} lp_wl_manifest;

/* Reads and checks path. On error prints "lowprof: PATH:LINE: why" and
 * returns a negative LP_E* code, leaving *out empty. */
int lp_wl_manifest_load(const char *path, lp_wl_manifest *out);
void lp_wl_manifest_fini(lp_wl_manifest *m);

/* True if e applies to size ("small" or "full"). */
int lp_wl_entry_has_size(const lp_wl_entry *e, const char *size);
/* True for a preparation step. */
int lp_wl_entry_is_prepare(const lp_wl_entry *e);

/* Values of the placeholders. */
typedef struct lp_wl_vars {
    const char *data;
    const char *out;
    const char *drivers;
    const char *cc1;
} lp_wl_vars;

/* A command ready to run: argv NULL-terminated, redirections apart (NULL
 * when the manifest names none). Everything is malloc'd. */
typedef struct lp_wl_command {
    char **argv;
    size_t argc;
    char *stdin_path;
    char *stdout_path;
} lp_wl_command;

/* Expands the placeholders of e's command and splits off redirections.
 * Returns 0, or LP_EFORMAT after printing "lowprof: PATH:LINE: why" for an
 * unknown placeholder or a command with no program (path names the
 * manifest in the message). */
int lp_wl_command_expand(const lp_wl_entry *e, const lp_wl_vars *vars, const char *path,
                         lp_wl_command *out);
void lp_wl_command_fini(lp_wl_command *c);

#endif
