/* Shared by the subcommands: help detection (`lowprof CMD --help` prints the
 * same text as `lowprof help CMD`), and where report and export get their
 * profile (a file or a collector). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lowprof/collector.h"
#include "lowprof/upload.h"

int lp_cli_wants_help(const char *cmd, int argc, char **argv)
{
    /* Arguments after "--" belong to the profiled program (record), so a
     * "--help" there is the program's, not ours. */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            const lp_cli_cmd *c = lp_cli_find(cmd);
            if (c)
                fputs(c->help, stdout);
            return 1;
        }
    }
    return 0;
}

int lp_cli_source_option(const char *cmd, int argc, char **argv, int *i, lp_cli_source *src)
{
    static const char *const names[] = {"--collector", "--token", "--program", "--build"};
    const char **slots[] = {&src->collector, &src->token, &src->program, &src->build};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        int missing = 0;
        const char *val = lp_host_opt_value(argc, argv, i, names[k], &missing);
        if (missing)
            return lp_host_usage(cmd, "%s needs a value", names[k]);
        if (val) {
            *slots[k] = val;
            return 1;
        }
    }
    return 0;
}

/* Several runs of one build, merged as a collector merges them
 * (lowprof/collector.h): each run's estimate of its exhaustive profile,
 * added. A build is told by its program module's build id, so files of
 * two builds, or of a program without one, are refused. */
static int lp_cli_merge_files(const char *const *paths, size_t n, lp_profile_set *out)
{
    lp_merge *m = NULL;
    if (lp_merge_create(&m) != 0)
        return lp_host_fail("out of memory");
    char first[160] = "";
    int status = 0;
    for (size_t k = 0; k < n && !status; k++) {
        lp_profile_set run;
        if (lp_host_load_profile(paths[k], &run) != 0) {
            status = 1;
            break;
        }
        int rc = lp_upload_identify(&run, "local");
        const char *bid = rc ? NULL : lp_meta_get(&run.meta, "build-id");
        if (rc == LP_ENOENT)
            status = lp_host_fail("%s: no module has a build id, so its build cannot be told "
                                  "from another's: not merged",
                                  paths[k]);
        else if (rc || !bid)
            status = lp_host_fail("%s: %s", paths[k], lp_strerror(rc ? rc : LP_ENOMEM));
        else if (k == 0)
            snprintf(first, sizeof first, "%s", bid);
        else if (strcmp(bid, first) != 0)
            status = lp_host_fail("%s: build %s, where %s is build %s: only runs of one build "
                                  "merge",
                                  paths[k], bid, paths[0], first);
        if (!status && (rc = lp_merge_add(m, &run, "local")) != 0)
            status = lp_host_fail("%s: not merged: %s", paths[k], lp_strerror(rc));
        lp_profile_set_fini(&run);
    }
    if (!status && lp_merge_result(m, out) != 0)
        status = lp_host_fail("out of memory");
    lp_merge_free(m);
    return status;
}

int lp_cli_source_load(const char *cmd, lp_cli_source *src, const char *const *paths, size_t npaths,
                       lp_profile_set *out, char *label, size_t label_cap)
{
    const char *path = npaths ? paths[0] : NULL;
    if (!src->collector && !src->program && npaths > 1) {
        snprintf(label, label_cap, "%s and %zu more", path, npaths - 1);
        return lp_cli_merge_files(paths, npaths, out);
    }
    if (!src->collector && !src->program) {
        snprintf(label, label_cap, "%s", path);
        return lp_host_load_profile(path, out) == 0 ? 0 : 1;
    }
    if (path)
        return lp_host_usage(cmd, "give a FILE or --collector, not both ('%s')", path);
    if (!src->collector)
        src->collector = getenv("LOWPROF_COLLECTOR");
    if (!src->token)
        src->token = getenv("LOWPROF_TOKEN");
    if (!src->collector)
        return lp_host_usage(cmd, "--program needs --collector URL (or LOWPROF_COLLECTOR)");
    if (!src->token)
        return lp_host_usage(cmd, "--collector needs --token T (or LOWPROF_TOKEN)");
    if (!src->program)
        return lp_host_usage(cmd, "--collector needs --program NAME (lowprof's page lists "
                                  "the programs)");
    char why[512];
    if (lp_upload_fetch_profile(src->collector, src->token, src->program, src->build, out, why,
                                sizeof why) != 0)
        return lp_host_fail("%s", why);
    const char *bid = lp_meta_get(&out->meta, "build-id");
    snprintf(label, label_cap, "%s %s (build %s)", src->collector, src->program,
             bid ? bid : src->build ? src->build : "?");
    return 0;
}
