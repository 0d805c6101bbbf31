/* The checks file of `lowprof record --bursty --checks PLACEMENT`: the
 * binary analysis (lowprof/analysis.h) of the program's executable decides
 * every procedure entry and loop back-edge for the placement, and the
 * checked ones are written for the Valgrind tool, by module path and
 * link-time address (doc/bursty.md). Shared libraries are not analysed:
 * their code gets no checks, as the paper instruments the program's own
 * binary. */
#define _DEFAULT_SOURCE /* realpath */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowprof/analysis.h"
#include "lowprof/host.h"
#include "lowprof/record.h"

int lp_record_write_checks(const char *program, const char *placement, const char *out_path)
{
    lp_bursty_placement pl;
    size_t pos = 0;
    if (lp_bursty_placement_parse(placement, strlen(placement), &pl, &pos) != 0)
        return lp_host_fail("--checks: '%s' is not a placement (character %zu)", placement,
                            pos + 1);
    lp_analysis *a = NULL;
    lp_analysis_error err;
    if (lp_analysis_open_file(program, &a, &err) != 0)
        return lp_host_fail("--checks %s: the analysis of %s failed: %s", placement, program,
                            err.message);
    lp_analysis_placement decided;
    if (lp_analysis_place(a, &pl, &decided) != 0) {
        lp_analysis_free(a);
        return lp_host_fail("--checks %s: out of memory placing the checks", placement);
    }
    FILE *f = fopen(out_path, "w");
    if (!f) {
        lp_analysis_placement_free(&decided);
        lp_analysis_free(a);
        return lp_host_fail("%s: cannot write the checks file", out_path);
    }
    const lp_analysis_summary *sum = lp_analysis_summary_get(a);
    /* The tool knows the executable by the path it was started from; the
     * real path goes in as well, for a path with symbolic links. */
    char real[PATH_MAX];
    const char *paths[2] = {program, realpath(program, real)};
    int npaths = paths[1] && strcmp(paths[1], paths[0]) != 0 ? 2 : 1;
    fprintf(f, "# lowprof checks: placement %s, %u of %u entries, %u of %u back-edges\n",
            placement, decided.entry_checks, sum->fns, decided.back_edge_checks,
            sum->back_edges);
    for (int k = 0; k < npaths; k++) {
        fprintf(f, "module %s\n", paths[k]);
        for (uint32_t i = 0; i < sum->fns; i++)
            if (decided.entry[i].check)
                fprintf(f, "e 0x%llx\n", (unsigned long long)lp_analysis_fn_get(a, i)->addr);
        for (uint32_t i = 0; i < sum->back_edges; i++)
            if (decided.back_edge[i].check) {
                const lp_analysis_back_edge *b = lp_analysis_back_edge_get(a, i);
                fprintf(f, "b 0x%llx 0x%llx\n", (unsigned long long)b->from,
                        (unsigned long long)b->to);
            }
    }
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    lp_analysis_placement_free(&decided);
    lp_analysis_free(a);
    return bad ? lp_host_fail("%s: writing the checks file failed", out_path) : 0;
}
