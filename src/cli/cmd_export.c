/* Placeholder until the subcommand lands. */
#include "cli.h"
const char cmd_export_help[] = "usage: lowprof export ...\n";
int cmd_export(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return lp_cli_fail("export is not built yet");
}
