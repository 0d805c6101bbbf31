/* Placeholder until the subcommand lands. */
#include "cli.h"
const char cmd_report_help[] = "usage: lowprof report ...\n";
int cmd_report(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return lp_cli_fail("report is not built yet");
}
