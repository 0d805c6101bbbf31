/* Shared by the integration checkers: run lowprof, load what it wrote, and
 * find profile entries by the function their address falls in. */
#ifndef LP_ITEST_H
#define LP_ITEST_H

#include "lowprof/symbols.h"
#include "lowprof/trace.h"

/* Runs argv (NULL-terminated) with stdout/stderr to log_path; returns the
 * exit status, or 128 + signal. */
int lp_itest_run(char *const argv[], const char *log_path);
/* Runs `lowprof record -q --no-imatrix -o path OPTS... -- prog [arg]`
 * with its output to log; opts is NULL-terminated (at most 48), arg may be
 * NULL. Returns the exit status; exits 77 (skip) when the log says the
 * Valgrind tool is missing. */
int lp_itest_record(const char *lowprof, const char *const *opts, const char *prog,
                    const char *arg, const char *path, const char *log);
/* Reads a profile file; aborts the test (exit 1) with a message if it can't. */
void lp_itest_load(const char *path, lp_profile_set *out);
/* The symbol name for pc ("" if none). */
const char *lp_itest_fn(lp_symbolizer *s, uint64_t pc);
/* Whether the file at path contains text. */
int lp_itest_file_has(const char *path, const char *text);
/* Whether the log of a failed `lowprof record` says the Valgrind tool or
 * Valgrind itself is missing (the test then skips with 77). */
int lp_itest_vgtool_missing(const char *log_path);

#endif
