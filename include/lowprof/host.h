/* lowprof host: what the commands and the hosted services (eval, export,
 * record, the workload suite, the cc front end) share above the
 * freestanding line: one shape of message ("lowprof: PATH: why", usage
 * errors pointing at the help), whole-file reads and atomic writes,
 * reader-error printing, loading a profile, option values, and finding
 * ACFs. Uses libc; never linked into the Valgrind tool or the runtime.
 *
 * Exit codes the helpers return stay the command line's: 0 success, 1 the
 * work failed (bad file, failed recording), 2 bad command line. */
#ifndef LOWPROF_HOST_H
#define LOWPROF_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "lowprof/core.h"
#include "lowprof/hps.h"
#include "lowprof/sample.h"
#include "lowprof/trace.h"

/* ---- messages (host_util.c) ------------------------------------------------ */

/* Prints "lowprof CMD: message" and a pointer to `lowprof help CMD`;
 * returns 2. CMD may name a sub-subcommand ("eval phase"). */
int lp_host_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints "lowprof: message" to stderr after flushing stdout; returns 1. */
int lp_host_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Describes a child's wait status that is not a clean exit 0 ("exit status
 * 3", "killed by signal 9"; a negative status: could not start, from errno)
 * into buf; returns buf. */
const char *lp_host_status_text(int status, char *buf, size_t cap);
/* Seconds on the monotonic clock, for timing a command's steps. */
double lp_host_now_seconds(void);

/* ---- files (host_util.c) --------------------------------------------------- */

/* Creates dir (its parent must exist), accepting one that already exists.
 * Returns 0, or -1 with errno set. */
int lp_host_make_dir(const char *dir);
/* Reads a whole file. On error prints "lowprof: PATH: reason" and returns a
 * negative code. *out is lp_malloc'd. */
int lp_host_read_file(const char *path, uint8_t **out, size_t *out_size);
/* Writes a whole file through a temporary and rename, so an existing file is
 * never left half-written. Prints the error; returns 0 or negative. */
int lp_host_write_file(const char *path, const void *data, size_t size);
/* Prints a reader error as "lowprof: PATH: offset N: FIELD: DETAIL (reason)". */
void lp_host_print_read_error(const char *path, int code, const lp_read_error *err);
/* Loads a profile file, printing any error as above. */
int lp_host_load_profile(const char *path, lp_profile_set *out);
/* A sink over a stdio FILE*. */
lp_sink lp_host_file_sink(void *stdio_file);

/* ---- options (host_util.c) -------------------------------------------------- */

/* Matches argv[*i] against option name ("--top"), in either form "--top N"
 * or "--top=N". Returns the value (advancing *i past a separate value), or
 * NULL if argv[*i] is another option. A missing value sets *out_missing. */
const char *lp_host_opt_value(int argc, char **argv, int *i, const char *name, int *out_missing);
/* Parses a decimal count; returns 0 or -1 if s is not one. */
int lp_host_parse_count(const char *s, uint64_t *out);
/* Parses a compressor spec; on error prints it with a caret under the bad
 * character and returns 2 (the usage exit status), else 0. */
int lp_host_parse_compressor(const char *cmd, const char *text, lp_compressor_spec *out);

/* ---- ACFs (host_acf.c) ---------------------------------------------------------- */

/* The folder shipped ACF NAMEs resolve in: $LOWPROF_ACF_DIR if set; else
 * the source tree's share/acf if it is there; else the installed one beside
 * this binary (bin/../share/lowprof/acf), written into installed. tried
 * gets the folder used, or those looked at, for messages. NULL if none
 * exists. */
const char *lp_host_acf_dir(char *installed, size_t cap, char *tried, size_t tried_cap);
/* Finds (a path, or a shipped NAME), reads and parses an ACF into out;
 * applies nothing else. Errors and warnings go to stderr as
 * FILE:LINE:COL: error|warning: MESSAGE with the source line and a caret.
 * path_out (may be NULL) gets the path read. Returns 0, or a negative LP_E*
 * code with out holding nothing to free. */
int lp_host_acf_load(const char *name_or_path, lp_hps_acf *out, char *path_out, size_t path_size);

#endif
