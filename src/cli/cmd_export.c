/* `lowprof export`: converts a profile (a file, several runs' files merged,
 * or a collector's merge) into
 * a format other tools read: JSON, CSV, the Callgrind format, folded
 * stacks, pprof, or LLVM's sample profile for clang. The document is built
 * in memory and then written to -o OUT through a temporary file and a
 * rename (so OUT is never left half-written), or to standard output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lowprof/export.h"

const char cmd_export_help[] =
    "usage: lowprof export --format FORMAT [-o OUT] FILE...\n"
    "       lowprof export --format FORMAT [-o OUT] --collector URL --token T\n"
    "                      --program NAME [--build ID]\n"
    "\n"
    "Converts the profile in FILE, or the merged profile of a program's build\n"
    "that a collector holds (lowprof serve; the latest build without --build),\n"
    "to FORMAT, written to OUT (replaced atomically)\n"
    "or to standard output. Addresses are named with function and file:line from\n"
    "the ELF symbol tables and DWARF of the recorded modules. Several FILEs,\n"
    "runs of one build (the program's build id must match), are merged as the\n"
    "collector merges them: each run's estimate of its whole run, added.\n"
    "\n"
    "Formats:\n"
    "  json       one object: meta, modules, and every profile (whole run and per\n"
    "             phase) with raw counters, scale, and per entry its addresses as\n"
    "             \"0x...\" strings plus function (C++ demangled), linkage (as\n"
    "             in the symbol table), function_start, file, line and module\n"
    "             (b_function, ... as well when key b is a code address)\n"
    "  csv        a header row, then type,key_a,key_b,v0,v1,function,file,line per\n"
    "             entry of each type's whole-run profile (RFC 4180 quoting)\n"
    "  callgrind  the Callgrind format for callgrind_annotate and KCachegrind:\n"
    "             Ir per source line from the basic-block profile (each block's\n"
    "             instructions at its first line), calls from the call pairs.\n"
    "             Calls carry no inclusive cost (lowprof records pairs, not stacks)\n"
    "  folded     folded stacks for flame graphs: with a context profile\n"
    "             (record --profile context) one line per calling context,\n"
    "             \"root;...;leaf N\", N its self instructions; without one,\n"
    "             two frames per call pair, \"caller;callee N\", N the calls\n"
    "  folded-calls  the context stacks weighted by the calls into each context\n"
    "  speedscope speedscope's JSON: one sampled profile, a sample per calling\n"
    "             context weighted by its self instructions (needs contexts)\n"
    "  llvm-sample  LLVM's sample-profile text, for clang -fprofile-sample-use\n"
    "             and llvm-profdata: per function, samples per line offset from\n"
    "             its start (with discriminators) from the block profile, call\n"
    "             targets from the call pairs, inlined call sites from DWARF;\n"
    "             needs a block profile of code built with -g\n"
    "  gcov-afdo  gcc's AutoFDO profile, for gcc -fauto-profile=FILE (gcc 12's\n"
    "             format, version 2): the llvm-sample samples without\n"
    "             discriminators, in gcov's binary words\n"
    "  pprof      gzipped profile.proto for the pprof tool: sample types\n"
    "             instructions, executions (blocks), invocations (methods) and\n"
    "             calls (call pairs); one-frame stacks, and two frames\n"
    "             [callee, call site] for calls; with a context profile, a\n"
    "             context type (instructions or samples) with whole stacks;\n"
    "             locations with lines (one per inlined level), functions,\n"
    "             mappings with build ids\n"
    "\n"
    "Options:\n"
    "  -f, --format FORMAT  one of the formats above (required)\n"
    "  -o, --output OUT     write to OUT instead of standard output\n"
    "  --collector URL      read the merged profile from this collector\n"
    "                       (or LOWPROF_COLLECTOR), with --token T (or LOWPROF_TOKEN),\n"
    "                       --program NAME and optionally --build ID\n"
    "\n"
    "Examples:\n"
    "  lowprof export --format json run.lpprof | jq '.profiles[0].entries[0]'\n"
    "  lowprof export --format callgrind -o callgrind.out.run run.lpprof\n"
    "  callgrind_annotate callgrind.out.run\n"
    "  lowprof export --format folded run.lpprof | flamegraph.pl > calls.svg\n"
    "  lowprof export --format speedscope -o run.speedscope.json run.lpprof\n"
    "  lowprof export --format llvm-sample -o prof.txt run.lpprof\n"
    "  lowprof export --format llvm-sample -o prof.txt run1.lpprof run2.lpprof\n"
    "  clang -O2 -gline-tables-only -fdebug-info-for-profiling \\\n"
    "        -fprofile-sample-use=prof.txt prog.c -o prog\n"
    "  lowprof export --format gcov-afdo -o prog.afdo run.lpprof\n"
    "  gcc -O2 -fauto-profile=prog.afdo prog.c -o prog\n";

int cmd_export(int argc, char **argv)
{
    const char *out_path = NULL, *format_name = NULL;
    const char **paths = calloc((size_t)argc, sizeof *paths);
    size_t npaths = 0;
    if (!paths)
        return lp_host_fail("out of memory");
    lp_cli_source src = {0};
    int urc = 0; /* a usage error's status */
    for (int i = 1; i < argc && !urc; i++) {
        int missing = 0;
        const char *val;
        const char *arg = argv[i];
        int taken = lp_cli_source_option("export", argc, argv, &i, &src);
        if (taken) {
            urc = taken == 2 ? 2 : 0;
            continue;
        }
        if ((val = lp_host_opt_value(argc, argv, &i, "--format", &missing)) ||
            (!missing && (val = lp_host_opt_value(argc, argv, &i, "-f", &missing)))) {
            format_name = val;
        } else if (!missing &&
                   ((val = lp_host_opt_value(argc, argv, &i, "--output", &missing)) ||
                    (!missing && (val = lp_host_opt_value(argc, argv, &i, "-o", &missing))))) {
            out_path = val;
        } else if (missing) {
            urc = lp_host_usage("export", "%s needs a value", arg);
        } else if (arg[0] == '-' && arg[1] != '\0') {
            urc = lp_host_usage("export", "unknown option '%s'", arg);
        } else {
            paths[npaths++] = arg;
        }
    }
    char names[128];
    lp_export_names(names, sizeof names);
    const lp_exporter *format = format_name ? lp_export_find(format_name) : NULL;
    if (!urc && !format_name)
        urc = lp_host_usage("export", "--format is required (%s)", names);
    else if (!urc && !format)
        urc = lp_host_usage("export", "unknown format '%s' (%s)", format_name, names);
    else if (!urc && !npaths && !src.collector && !src.program)
        urc = lp_host_usage("export", "no profile FILE given (or --collector URL --program NAME)");
    lp_profile_set set;
    char label[1024];
    int lrc =
        urc ? urc : lp_cli_source_load("export", &src, paths, npaths, &set, label, sizeof label);
    free(paths);
    if (lrc)
        return lrc;
    lp_names nm;
    if (lp_names_init(&nm, &set) != 0) {
        lp_profile_set_fini(&set);
        return lp_host_fail("out of memory");
    }
    /* Into memory first when writing a file, so it is replaced in one step;
     * straight through to standard output otherwise. */
    lp_membuf buf = {0};
    lp_out o = {out_path ? lp_membuf_sink(&buf) : lp_host_file_sink(stdout), 0};
    int rc = format->write(label, &set, &nm, &o);
    lp_names_fini(&nm);
    lp_profile_set_fini(&set);
    int status = 0;
    if (rc == LP_ENOENT && format->missing)
        status = lp_host_fail("%s: %s", label, format->missing);
    else if (rc)
        status = lp_host_fail("%s: export failed: %s", out_path ? out_path : "standard output",
                             lp_strerror(rc));
    else if (out_path)
        status = lp_host_write_file(out_path, buf.data, buf.size) == 0 ? 0 : 1;
    else if (fflush(stdout) != 0)
        status = lp_host_fail("standard output: write failed");
    lp_membuf_free(&buf);
    return status;
}
