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

#endif
