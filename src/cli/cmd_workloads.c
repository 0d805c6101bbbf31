/* Placeholder until the subcommand lands. */
#include "cli.h"
const char cmd_workloads_help[] = "usage: lowprof workloads ...\n";
int cmd_workloads(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return lp_cli_fail("workloads is not built yet");
}
