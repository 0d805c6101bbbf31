/* The lowprof command: shared pieces of the subcommands (private to src/cli).
 *
 * One file per subcommand, cmd_<name>.c, exporting cmd_<name>() and its help
 * text cmd_<name>_help; lowprof.c holds the table. `lowprof help CMD` and
 * `lowprof CMD --help` print the same text. Exit codes: 0 success, 1 the
 * work failed (bad file, failed recording), 2 bad command line. */
#ifndef LP_CLI_H
#define LP_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "lowprof/core.h"
#include "lowprof/hps.h"
#include "lowprof/sample.h"
#include "lowprof/trace.h"

typedef struct lp_cli_cmd {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
    const char *help;
} lp_cli_cmd;

/* NULL-terminated table, in lowprof.c. */
extern const lp_cli_cmd lp_cli_cmds[];
const lp_cli_cmd *lp_cli_find(const char *name);

/* Prints "lowprof CMD: message" and a pointer to the help; returns 2. */
int lp_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Describes a child's wait status that is not a clean exit 0 ("exit status
 * 3", "killed by signal 9"; a negative status: could not start, from errno)
 * into buf; returns buf. */
const char *lp_cli_status_text(int status, char *buf, size_t cap);
/* Seconds on the monotonic clock, for timing a command's steps. */
double lp_cli_now_seconds(void);
/* Creates dir (its parent must exist), accepting one that already exists.
 * Returns 0, or -1 with errno set. */
int lp_cli_make_dir(const char *dir);
/* Parses a compressor spec; on error prints it with a caret under the bad
 * character and returns 2 (the usage exit status), else 0. */
int lp_cli_parse_compressor(const char *cmd, const char *text, lp_compressor_spec *out);
/* Prints "lowprof: message" to stderr; returns 1. */
int lp_cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* True if argv[1..] asks for help (-h / --help); prints the help if so. */
int lp_cli_wants_help(const char *cmd, int argc, char **argv);

/* Reads a whole file. On error prints "lowprof: PATH: reason" and returns a
 * negative code. *out is lp_malloc'd. */
int lp_cli_read_file(const char *path, uint8_t **out, size_t *out_size);
/* Writes a whole file through a temporary and rename, so an existing file is
 * never left half-written. Prints the error; returns 0 or negative. */
int lp_cli_write_file(const char *path, const void *data, size_t size);
/* Prints a reader error as "lowprof: PATH: offset N: FIELD: DETAIL (reason)". */
void lp_cli_print_read_error(const char *path, int code, const lp_read_error *err);
/* Loads a profile file, printing any error as above. */
int lp_cli_load_profile(const char *path, lp_profile_set *out);

/* `lowprof eval phase` (eval_phase.c), dispatched by cmd_eval.c. */
int lp_eval_phase(int argc, char **argv);

/* Finds (a path, or a shipped NAME: see `lowprof acf`), reads and parses
 * an ACF into out; applies nothing else. Errors and warnings go to stderr
 * as FILE:LINE:COL: error|warning: MESSAGE with the source line and a
 * caret. path_out (may be NULL) gets the path read. Returns 0, or a
 * negative LP_E* code with out holding nothing to free. */
int lp_cli_acf_load(const char *name_or_path, lp_hps_acf *out, char *path_out, size_t path_size);

/* A sink over a stdio FILE*. */
lp_sink lp_cli_file_sink(void *stdio_file);

#endif
