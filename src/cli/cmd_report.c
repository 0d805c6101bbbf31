/* `lowprof report`: parses its options, loads the profile and prints it
 * with lp_report_print (src/report/report_print.c). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "lowprof/report.h"

const char cmd_report_help[] =
    "usage: lowprof report [OPTIONS] [FILE]\n"
    "       lowprof report [OPTIONS] --collector URL --token T --program NAME [--build ID]\n"
    "\n"
    "Prints the profile in FILE (written by `lowprof record`; lowprof.lpprof, the\n"
    "file record writes by default, when FILE is left out): a header with the\n"
    "program, its arguments, the instructions it ran and whether the recording is\n"
    "complete, then one table per profile, hottest entries first. Each row gives\n"
    "its share of the table's total, the function, file:line from DWARF and, for\n"
    "shared libraries, the library. Sections:\n"
    "\n"
    "  code-region  per branch: executions, instructions since the previous branch\n"
    "               (total and mean per execution)\n"
    "  method       per function entry: invocations, backward branches taken\n"
    "  call-pair    caller -> callee by function (or per call site): calls, tail calls\n"
    "  edge         branch -> destination: transfers\n"
    "  block        per basic block: executions, instructions\n"
    "  value        per static load: its values, each with its exact count\n"
    "  context      per calling context: self instructions, calls, depth, innermost\n"
    "               functions (record --profile context)\n"
    "  call-graph, call-target, streams   when the file holds them\n"
    "\n"
    "Options:\n"
    "  --top N        rows per section (default 20; 0 prints every row)\n"
    "  --type LIST    sections to print, comma-separated (default: every profile\n"
    "                 in the file), e.g. --type method,call-pair\n"
    "  --sort KEY     insns (default): code regions and blocks by instructions;\n"
    "                 count: them by executions. Other sections always sort by\n"
    "                 their count. Percentages are of the sorted column.\n"
    "  --by-site      call pairs per call site instead of per caller function\n"
    "  --values N     values shown per load (default 10; 0 shows all)\n"
    "  --phase ID     the profiles of phase ID instead of the whole run\n"
    "  --collector URL  print the merged profile of a program's build that a\n"
    "                 collector holds (lowprof serve) instead of a file: every\n"
    "                 upload's estimate, weighted by its phases, summed. Needs\n"
    "                 --token T and --program NAME; --build ID (default: the\n"
    "                 build uploaded last). LOWPROF_COLLECTOR and LOWPROF_TOKEN\n"
    "                 stand in for the first two.\n"
    "\n"
    "Sampled profiles are shown as estimates (counts times the profile's scale).\n"
    "\n"
    "Example:\n"
    "  lowprof record -o bz.lpprof -- bzip2 -9 -k input.txt\n"
    "  lowprof report --top 10 --type method,call-pair bz.lpprof\n";

static int report_parse_types(const char *list, unsigned *out)
{
    *out = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == 3 && strncmp(p, "all", 3) == 0) {
            *out |= ~1u;
        } else {
            unsigned t = lp_profile_type_parse(p, len);
            if (!t)
                return lp_host_usage("report", "unknown profile type '%.*s' in --type", (int)len, p);
            *out |= 1u << t;
        }
        p += len;
        if (*p == ',')
            p++;
    }
    return *out ? 0 : lp_host_usage("report", "--type needs at least one type");
}

int cmd_report(int argc, char **argv)
{
    lp_report_opts o = {20, 10, 0, 1, 0, LP_PHASE_NONE};
    const char *path = NULL;
    lp_cli_source src = {0};
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *val;
        const char *arg = argv[i];
        int taken = lp_cli_source_option("report", argc, argv, &i, &src);
        if (taken == 2)
            return 2;
        if (taken)
            continue;
        if ((val = lp_host_opt_value(argc, argv, &i, "--top", &missing))) {
            if (lp_host_parse_count(val, &o.top) != 0)
                return lp_host_usage("report", "--top wants a count, not '%s'", val);
        } else if ((val = lp_host_opt_value(argc, argv, &i, "--values", &missing))) {
            if (lp_host_parse_count(val, &o.values_top) != 0)
                return lp_host_usage("report", "--values wants a count, not '%s'", val);
        } else if ((val = lp_host_opt_value(argc, argv, &i, "--type", &missing))) {
            int rc = report_parse_types(val, &o.types);
            if (rc)
                return rc;
        } else if ((val = lp_host_opt_value(argc, argv, &i, "--sort", &missing))) {
            if (strcmp(val, "insns") == 0)
                o.sort_insns = 1;
            else if (strcmp(val, "count") == 0)
                o.sort_insns = 0;
            else
                return lp_host_usage("report", "--sort wants insns or count, not '%s'", val);
        } else if ((val = lp_host_opt_value(argc, argv, &i, "--phase", &missing))) {
            uint64_t ph;
            if (lp_host_parse_count(val, &ph) != 0 || ph >= LP_PHASE_NONE)
                return lp_host_usage("report", "--phase wants a phase id, not '%s'", val);
            o.phase = (uint32_t)ph;
        } else if (missing) {
            return lp_host_usage("report", "%s needs a value", arg);
        } else if (strcmp(arg, "--by-site") == 0) {
            o.by_site = 1;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return lp_host_usage("report", "unknown option '%s'", arg);
        } else if (path) {
            return lp_host_usage("report", "one FILE only ('%s' and '%s')", path, arg);
        } else {
            path = arg;
        }
    }
    /* As perf report reads perf.data: the file record writes by default. */
    if (!path && !src.collector && !src.program) {
        path = "lowprof.lpprof";
        if (access(path, F_OK) != 0)
            return lp_host_usage("report", "no profile FILE given, and there is no %s here "
                                          "(the file lowprof record writes by default)", path);
    }

    lp_profile_set set;
    char label[1024];
    int lrc = lp_cli_source_load("report", &src, &path, path ? 1 : 0, &set, label, sizeof label);
    if (lrc)
        return lrc;
    path = label;
    if (o.phase != LP_PHASE_NONE) {
        int found = 0;
        for (size_t i = 0; i < set.count && !found; i++)
            found = set.profiles[i].phase == o.phase;
        if (!found) {
            lp_profile_set_fini(&set);
            return lp_host_fail("%s has no profile of phase %u (lowprof info lists its "
                                "profiles; phases exist only in --strategy phase recordings)",
                                path, o.phase);
        }
    }
    lp_names nm;
    if (lp_names_init(&nm, &set) != 0) {
        lp_profile_set_fini(&set);
        return lp_host_fail("out of memory");
    }
    int rc = lp_report_print(path, &set, &nm, &o);
    lp_names_fini(&nm);
    lp_profile_set_fini(&set);
    if (rc)
        return lp_host_fail("%s: %s", path, lp_strerror(rc));
    if (fflush(stdout) != 0)
        return lp_host_fail("standard output: write failed");
    return 0;
}
