/* lowprof: one command, one subcommand per file (cmd_<name>.c). This file
 * holds the table and the help dispatch only. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "lowprof/eval.h"

extern int cmd_record(int, char **);
extern int cmd_report(int, char **);
extern int cmd_info(int, char **);
extern int cmd_export(int, char **);
extern int cmd_workloads(int, char **);
extern int cmd_eval(int, char **);
extern int cmd_cc(int, char **);
extern const char cmd_cc_help[];
extern int cmd_acf(int, char **);
extern int cmd_analyze(int, char **);
extern int cmd_push(int, char **);
extern int cmd_agent(int, char **);
extern const char cmd_push_help[], cmd_agent_help[];
extern int cmd_serve(int, char **);
extern int cmd_token(int, char **);
extern const char cmd_serve_help[], cmd_token_help[];
extern const char cmd_record_help[], cmd_report_help[], cmd_info_help[], cmd_export_help[],
    cmd_workloads_help[], cmd_eval_help[], cmd_acf_help[], cmd_analyze_help[];

static int cmd_help(int argc, char **argv);
static const char cmd_help_help[] =
    "usage: lowprof help [COMMAND]\n"
    "\n"
    "Without COMMAND, lists the commands. With one, prints its help, the same\n"
    "text as `lowprof COMMAND --help`.\n";

const lp_cli_cmd lp_cli_cmds[] = {
    {"record", cmd_record, "run a program under the DBI front end and write its profile",
     cmd_record_help},
    {"report", cmd_report, "print a profile: hot regions, methods, call pairs, edges, blocks",
     cmd_report_help},
    {"info", cmd_info, "describe any lowprof file (profile, interval matrix, event trace)",
     cmd_info_help},
    {"export", cmd_export, "convert a profile for other tools: pprof, clang, flame graphs, ...",
     cmd_export_help},
    {"workloads", cmd_workloads, "prepare and record the workload suite; print its statistics",
     cmd_workloads_help},
    {"eval", cmd_eval, "reproduce a paper's experiments; write tables and plots", cmd_eval_help},
    {"acf", cmd_acf, "check an ACF (HPS productions) or list the shipped ones", cmd_acf_help},
    {"analyze", cmd_analyze, "where bursty tracing puts its checks in an x86-64 ELF binary",
     cmd_analyze_help},
    {"cc", cmd_cc, "compile and link a program with the native runtime's profile instructions",
     cmd_cc_help},
    {"push", cmd_push, "upload profile files to a collector", cmd_push_help},
    {"agent", cmd_agent, "send a spool folder's messages to a collector", cmd_agent_help},
    {"serve", cmd_serve, "run the collector: store, merge and show uploaded profiles",
     cmd_serve_help},
    {"token", cmd_token, "create a project's token for uploading to and reading a collector",
     cmd_token_help},
    {"help", cmd_help, "show help for a command", cmd_help_help},
    {NULL, NULL, NULL, NULL},
};

const lp_cli_cmd *lp_cli_find(const char *name)
{
    for (const lp_cli_cmd *c = lp_cli_cmds; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: lowprof COMMAND [ARGS...]\n\n"
                 "lowprof records near-exact program profiles at low cost.\n\nCommands:\n");
    for (const lp_cli_cmd *c = lp_cli_cmds; c->name; c++)
        fprintf(out, "  %-10s %s\n", c->name, c->summary);
    fprintf(out, "\nRun `lowprof help COMMAND` for a command's options.\n");
}

static int cmd_help(int argc, char **argv)
{
    if (argc < 2) {
        usage(stdout);
        return 0;
    }
    const lp_cli_cmd *c = lp_cli_find(argv[1]);
    if (!c)
        return lp_host_usage("help", "no command named '%s'", argv[1]);
    fputs(c->help, stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        puts("lowprof " LP_VERSION);
        return 0;
    }
    const lp_cli_cmd *c = lp_cli_find(argv[1]);
    if (!c) {
        fprintf(stderr, "lowprof: '%s' is not a command\n", argv[1]);
        usage(stderr);
        return 2;
    }
    /* An experiment with help of its own answers `lowprof eval NAME --help`. */
    const lp_eval_experiment *e =
        strcmp(c->name, "eval") == 0 && argc > 2 ? lp_eval_find(argv[2]) : NULL;
    if (!(e && e->own_help) && lp_cli_wants_help(c->name, argc - 1, argv + 1))
        return 0;
    return c->fn(argc - 1, argv + 1);
}
