/* The checks file of `lowprof record --bursty --checks PLACEMENT`: the
 * binary analysis (lowprof/analysis.h) of the program's executable and of
 * the shared libraries it names (DT_NEEDED) decides every procedure entry
 * and loop back-edge for the placement, and the checked ones are written
 * for the Valgrind tool, by module path and link-time address
 * (doc/bursty.md). The C library and the dynamic loader are left out: they
 * are the system's, not the program's (Debian's bzip2 keeps its work in
 * libbz2, so the program's own libraries must be in). */
#define _GNU_SOURCE /* realpath */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lowprof/analysis.h"
#include "lowprof/host.h"
#include "lowprof/record.h"

/* Libraries of the system, not analysed. */
static int lp_system_library(const char *soname)
{
    static const char *const skip[] = {"libc.so", "ld-linux", "libm.so", "libpthread.so",
                                       "libdl.so", "librt.so", "libgcc_s.so", "libstdc++.so"};
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
        if (strncmp(soname, skip[i], strlen(skip[i])) == 0)
            return 1;
    return 0;
}

/* The DT_NEEDED names of path, found in the multiarch library folders,
 * into out (malloc'd paths, at most cap); returns how many. */
static size_t lp_needed_libraries(const char *path, char **out, size_t cap)
{
    static const char *const dirs[] = {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                                       "/lib64", "/usr/lib", "/lib"};
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    size_t n = 0;
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    Elf_Scn *scn = NULL;
    while (elf && (scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        GElf_Dyn dyn;
        for (int i = 0; d && gelf_getdyn(d, i, &dyn) && dyn.d_tag != DT_NULL; i++) {
            if (dyn.d_tag != DT_NEEDED || n == cap)
                continue;
            const char *name = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val);
            if (!name || strchr(name, '/') || lp_system_library(name))
                continue;
            for (size_t k = 0; k < sizeof dirs / sizeof dirs[0]; k++) {
                char p[PATH_MAX];
                snprintf(p, sizeof p, "%s/%s", dirs[k], name);
                if (access(p, R_OK) == 0) {
                    out[n++] = strdup(p);
                    break;
                }
            }
        }
    }
    if (elf)
        elf_end(elf);
    close(fd);
    return n;
}

/* Writes one module's checks under every name the tool may know it by:
 * the path found, its real path, and the /usr twin of a /lib path (merged
 * /usr systems load libraries through either). Returns 0, or 1 after a
 * message. */
static int lp_module_checks(FILE *f, const char *path, const lp_bursty_placement *pl,
                            const char *placement, uint32_t *out_entries, uint32_t *out_edges)
{
    lp_analysis *a = NULL;
    lp_analysis_error err;
    if (lp_analysis_open_file(path, &a, &err) != 0)
        return lp_host_fail("--checks %s: the analysis of %s failed: %s", placement, path,
                            err.message);
    lp_analysis_placement decided;
    if (lp_analysis_place(a, pl, &decided) != 0) {
        lp_analysis_free(a);
        return lp_host_fail("--checks %s: out of memory placing the checks", placement);
    }
    const lp_analysis_summary *sum = lp_analysis_summary_get(a);
    char real[PATH_MAX], twin[PATH_MAX + 8];
    const char *names[3] = {path, realpath(path, real), NULL};
    if (strncmp(path, "/lib/", 5) == 0) {
        snprintf(twin, sizeof twin, "/usr%s", path);
        names[2] = twin;
    }
    for (int k = 0; k < 3; k++) {
        if (!names[k] || (k && strcmp(names[k], path) == 0) ||
            (k == 2 && names[1] && strcmp(names[2], names[1]) == 0))
            continue;
        fprintf(f, "module %s\n", names[k]);
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
    *out_entries += decided.entry_checks;
    *out_edges += decided.back_edge_checks;
    lp_analysis_placement_free(&decided);
    lp_analysis_free(a);
    return 0;
}

int lp_record_write_checks(const char *program, const char *placement, const char *out_path)
{
    lp_bursty_placement pl;
    size_t pos = 0;
    if (lp_bursty_placement_parse(placement, strlen(placement), &pl, &pos) != 0)
        return lp_host_fail("--checks: '%s' is not a placement (character %zu)", placement,
                            pos + 1);
    FILE *f = fopen(out_path, "w");
    if (!f)
        return lp_host_fail("%s: cannot write the checks file", out_path);
    char *libs[64];
    size_t nlibs = lp_needed_libraries(program, libs, sizeof libs / sizeof libs[0]);
    fprintf(f, "# lowprof checks: placement %s for %s and %zu of its libraries\n", placement,
            program, nlibs);
    uint32_t entries = 0, edges = 0;
    int rc = lp_module_checks(f, program, &pl, placement, &entries, &edges);
    for (size_t i = 0; i < nlibs; i++) {
        if (!rc)
            rc = lp_module_checks(f, libs[i], &pl, placement, &entries, &edges);
        free(libs[i]);
    }
    fprintf(f, "# %u entry checks, %u back-edge checks\n", entries, edges);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (rc)
        return rc;
    return bad ? lp_host_fail("%s: writing the checks file failed", out_path) : 0;
}
