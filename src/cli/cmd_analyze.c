/* `lowprof analyze checks`: where bursty tracing puts its checks in an
 * x86-64 ELF executable or shared library (paper 003, sections 4 and 5.1).
 * Options only: the analysis, the placement and both reports are the
 * analysis module's (src/analysis, lowprof/analysis.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "lowprof/analysis.h"

const char cmd_analyze_help[] =
    "usage: lowprof analyze checks BINARY [--placement P] [--json] [--functions]\n"
    "\n"
    "Reads an x86-64 ELF executable or shared library (ET_EXEC or ET_DYN, PIE or\n"
    "not) and says where bursty tracing puts its checks (Hirzel and Chilimbi,\n"
    "sections 4 and 5.1): which procedure entries and which loop back-edges.\n"
    "\n"
    "checks   prints the direct call graph (functions, edges, roots, leaves,\n"
    "         address-taken functions, components that can recurse, recursion\n"
    "         from below), the set C of equation (3), the natural loops and\n"
    "         which are k-boring, and how many entry and back-edge checks the\n"
    "         placement keeps, with its decisions grouped by reason.\n"
    "  --placement P   orig, EL, EC, EN, L<k> (L4, L10), LN, or ENTRY+LOOP such\n"
    "                  as EC+L4 (the default: the paper's preferred setting)\n"
    "  --json          the same as one JSON object (doc/lowprof-analyze.md)\n"
    "  --functions     also every function and every back-edge, each with its\n"
    "                  decision and reason\n"
    "\n"
    "Exit status: 0 analysed; 1 the file cannot be read or is not an x86-64\n"
    "ELF executable or shared library (the message names the file and what is\n"
    "wrong); 2 bad command line.\n"
    "\n"
    "Examples:\n"
    "  lowprof analyze checks /lib/x86_64-linux-gnu/libbz2.so.1.0\n"
    "  lowprof analyze checks --placement L10 --json --functions ./prog | jq .set_c\n";

static int lp_analyze_checks(int argc, char **argv)
{
    const char *binary = NULL, *placement = "EC+L4";
    int json = 0, all = 0;
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *v = lp_host_opt_value(argc, argv, &i, "--placement", &missing);
        if (missing)
            return lp_host_usage("analyze", "--placement needs a value such as EC+L4");
        if (v) {
            placement = v;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--functions") == 0) {
            all = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return lp_host_usage("analyze", "unknown option '%s'", argv[i]);
        } else if (binary) {
            return lp_host_usage("analyze", "checks takes one BINARY, not also '%s'", argv[i]);
        } else {
            binary = argv[i];
        }
    }
    if (!binary)
        return lp_host_usage("analyze", "checks needs a BINARY");
    lp_bursty_placement p;
    size_t pos = 0;
    if (lp_bursty_placement_parse(placement, strlen(placement), &p, &pos) != 0)
        return lp_host_usage("analyze",
                             "--placement '%s' does not parse at offset %zu: use orig, EL, EC, "
                             "EN, L<k>, LN, or ENTRY+LOOP such as EC+L4",
                             placement, pos);

    lp_analysis *a;
    lp_analysis_error err;
    if (lp_analysis_open_file(binary, &a, &err) != 0)
        return lp_host_fail("%s", err.message);
    lp_analysis_placement pl;
    int rc = lp_analysis_place(a, &p, &pl);
    if (rc) {
        lp_analysis_free(a);
        return lp_host_fail("%s: placement: %s", binary, lp_strerror(rc));
    }
    lp_sink out = lp_host_file_sink(stdout);
    rc = json ? lp_analysis_write_json(a, &pl, all, &out)
              : lp_analysis_write_text(a, &pl, all, &out);
    lp_analysis_placement_free(&pl);
    lp_analysis_free(a);
    if (rc || fflush(stdout) != 0)
        return lp_host_fail("standard output: %s", strerror(errno));
    return 0;
}

int cmd_analyze(int argc, char **argv)
{
    if (argc < 2)
        return lp_host_usage("analyze", "missing subcommand: checks");
    if (strcmp(argv[1], "checks") == 0)
        return lp_analyze_checks(argc - 1, argv + 1);
    return lp_host_usage("analyze", "unknown subcommand '%s': checks", argv[1]);
}
