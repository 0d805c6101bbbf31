/* Placeholder until the subcommand lands. */
#include "cli.h"
const char cmd_info_help[] = "usage: lowprof info ...\n";
int cmd_info(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return lp_cli_fail("info is not built yet");
}
