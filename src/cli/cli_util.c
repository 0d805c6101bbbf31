/* Help detection shared by the subcommands: `lowprof CMD --help` prints the
 * same text as `lowprof help CMD`. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int lp_cli_wants_help(const char *cmd, int argc, char **argv)
{
    /* Arguments after "--" belong to the profiled program (record), so a
     * "--help" there is the program's, not ours. */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            const lp_cli_cmd *c = lp_cli_find(cmd);
            if (c)
                fputs(c->help, stdout);
            return 1;
        }
    }
    return 0;
}
