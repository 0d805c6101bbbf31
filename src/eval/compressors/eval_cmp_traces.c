/* lowprof eval compressors: the event traces it replays, one per workload,
 * recorded by the experiments' workload runner (src/eval/common).
 *
 * The trace holds loads, branches and calls. Branch and call events exist
 * only when the front end builds a control-flow profile, so the recording
 * keeps record's default profile types (with --profile none the tool runs
 * signature-only and traces loads alone). */
#include <limits.h>
#include <stdio.h>

#include "eval_cmp.h"

lp__eval_suite lp_eval_cmp_suite(const lp_eval_cmp_opts *o)
{
    lp__eval_suite s = {o->full, o->out_dir, o->workloads, o->traces, o->size, o->data_dir};
    return s;
}

int lp_eval_cmp_wl_record(const lp_eval_cmp_opts *o, lp__eval_workload *t, uint64_t limit)
{
    lp__eval_suite suite = lp_eval_cmp_suite(o);
    char prof[PATH_MAX + 64], log[PATH_MAX + 64], lim[32];
    snprintf(lim, sizeof lim, "%llu", (unsigned long long)limit);
    if (lp__eval_pathf(t->path, sizeof t->path, "%s/traces/%s.lpev", o->out_dir, t->name) ||
        lp__eval_pathf(prof, sizeof prof, "%s/traces/%s.lpprof", o->out_dir, t->name) ||
        lp__eval_pathf(log, sizeof log, "%s/traces/%s.log", o->out_dir, t->name))
        return lp_host_fail("%s: path too long", o->out_dir);
    char *opts[] = {(char *)"--trace", t->path, (char *)"--trace-kinds",
                    (char *)"load,branch,call", (char *)"--trace-limit", lim};
    int rc = lp__eval_wl_run(&suite, t->name, opts, sizeof opts / sizeof opts[0], prof, log, NULL);
    if (!o->keep_traces)
        remove(prof);
    return rc;
}
