/* lowprof suite: the workload suite's manifest, workloads/suite.tsv
 * (wl_manifest.c), and running what it lists (wl_run.c): preparing the
 * inputs and starting the programs in the suite's fixed environment, for
 * `lowprof workloads` and the experiments of src/eval alike.
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

/* ---- running (wl_run.c) ------------------------------------------------------- */

/* Runs argv (PATH searched) and waits for it. With fixed_env the child gets
 * the suite's fixed environment (PATH=/usr/local/bin:/usr/bin:/bin,
 * LC_ALL=C, and LOWPROF_VALGRIND, LOWPROF_VGTOOL_DIR, VALGRIND_LIB and
 * TMPDIR when set), else this process's; env's nenv NAME=VALUE entries are
 * added on top, replacing entries of the same name. Standard streams
 * from/to the named files: NULL is /dev/null for input and inherited for
 * the others; err is appended to when append_err. Returns the wait status,
 * or -1 if it could not start (errno set). Thread-safe (posix_spawn). */
int lp_wl_spawn(char *const *argv, char *const *env, size_t nenv, int fixed_env, const char *in,
                const char *out, const char *err, int append_err);

/* Creates path and its missing parents. Returns 0, or -1 with errno set. */
int lp_wl_make_dirs(const char *path);

/* The C compiler proper that the cc1 workload runs, as the gcc driver
 * would run it (`gcc -print-prog-name=cc1`), into buf. Returns 0, or -1
 * with buf "" when there is none. */
int lp_wl_find_cc1(char *buf, size_t cap);

/* Makes sure vars->data holds the current inputs of size: the stamp
 * DATA/.prepared records the generator's version and the manifest's
 * preparation steps, and when it differs (or is missing) the inputs are
 * generated again and the steps run, their output in LOG_DIR/prepare.log.
 * who names the command in progress lines ("lowprof workloads"). With
 * reuse_only, inputs that are not current are an error instead (inputs a
 * user pointed at are never overwritten). Returns 0, or 1 after printing
 * why. */
int lp_wl_prepare(const lp_wl_manifest *m, const char *manifest_path, const char *size,
                  const lp_wl_vars *vars, const char *log_dir, const char *who, int reuse_only);

#endif
