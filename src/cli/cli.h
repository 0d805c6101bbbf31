/* The lowprof command: shared pieces of the subcommands (private to src/cli).
 *
 * The cli is the top floor: each cmd_<name>.c parses its options and calls
 * the modules below (eval, export, record, report, suite, cc, host).
 *
 * One file per subcommand, cmd_<name>.c, exporting cmd_<name>() and its help
 * text cmd_<name>_help; lowprof.c holds the table. `lowprof help CMD` and
 * `lowprof CMD --help` print the same text. Exit codes: 0 success, 1 the
 * work failed (bad file, failed recording), 2 bad command line. */
#ifndef LP_CLI_H
#define LP_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "lowprof/host.h"

typedef struct lp_cli_cmd {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
    const char *help;
} lp_cli_cmd;

/* NULL-terminated table, in lowprof.c. */
extern const lp_cli_cmd lp_cli_cmds[];
const lp_cli_cmd *lp_cli_find(const char *name);

/* True if argv[1..] asks for help (-h / --help); prints the help if so. */
int lp_cli_wants_help(const char *cmd, int argc, char **argv);

/* Where report and export read a profile: a file, or a collector's merge of
 * a program's uploads (--collector URL --token T --program NAME [--build ID];
 * the token and collector may come from LOWPROF_TOKEN and LOWPROF_COLLECTOR). */
typedef struct lp_cli_source {
    const char *collector, *token, *program, *build;
} lp_cli_source;

/* Takes argv[*i] if it is one of the collector options (advancing *i past
 * its value). Returns 1 if taken, 0 if not, or 2 after printing a usage
 * error (a missing value). */
int lp_cli_source_option(const char *cmd, int argc, char **argv, int *i, lp_cli_source *src);

/* Loads the profile: the collector's merge when --collector or --program
 * was given (then there must be no paths), else the file at paths[0], or
 * the merge of the npaths files when there are several (runs of one
 * build, merged as the collector merges). label gets what messages should
 * call it (the path, "PATH and N more", or "URL program (build)").
 * Returns 0, or the exit status after printing why (2 for a usage error,
 * 1 when the profile cannot be had). */
int lp_cli_source_load(const char *cmd, lp_cli_source *src, const char *const *paths, size_t npaths,
                       lp_profile_set *out, char *label, size_t label_cap);

#endif
