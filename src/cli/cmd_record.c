/* Placeholder until the subcommand lands. */
#include "cli.h"
const char cmd_record_help[] = "usage: lowprof record ...\n";
int cmd_record(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return lp_cli_fail("record is not built yet");
}
