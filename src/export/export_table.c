/* The table of export formats (lowprof/export.h). */
#include <stdio.h>
#include <string.h>

#include "export_internal.h"

const lp_exporter lp_exporters[] = {
    {"json", lp__export_json, NULL},
    {"csv", lp__export_csv, NULL},
    {"callgrind", lp__export_callgrind, NULL},
    {"folded", lp__export_folded,
     "no context or call-pair profile to fold (record with --profile context for full stacks)"},
    {"folded-calls", lp__export_folded_calls,
     "folded-calls needs a context profile: record with --profile context"},
    {"speedscope", lp__export_speedscope,
     "speedscope needs a context profile: record with --profile context"},
    {"llvm-sample", lp__export_llvm_sample,
     "llvm-sample needs a block profile of code with DWARF line tables: record with "
     "--profile block (lowprof record) or profiles=block (lowprof cc), from a program "
     "built with -g"},
    {"gcov-afdo", lp__export_gcov_afdo,
     "gcov-afdo needs a block profile of code with DWARF line tables: record with "
     "--profile block (lowprof record) or profiles=block (lowprof cc), from a program "
     "built with -g"},
    {"pprof", lp__export_pprof,
     "pprof needs a block, code-region, method, call-pair, call-graph or context profile"},
    {NULL, NULL, NULL},
};

const lp_exporter *lp_export_find(const char *name)
{
    for (const lp_exporter *e = lp_exporters; e->name; e++)
        if (strcmp(e->name, name) == 0)
            return e;
    return NULL;
}

const char *lp_export_names(char *buf, size_t cap)
{
    size_t n = 0, len = 0;
    while (lp_exporters[n].name)
        n++;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len < cap; i++) {
        const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";
        int w = snprintf(buf + len, cap - len, "%s%s", sep, lp_exporters[i].name);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return buf;
}
