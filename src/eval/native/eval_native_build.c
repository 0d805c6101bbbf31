/* lowprof eval native: building. Each program once per variant, every
 * variant at -O2 -gdwarf-4 from the same sources: the plain clang baseline, the
 * runtime's two builds through `lowprof cc` (this very binary, so the
 * compiler flags and the runtime archive are those of the build under
 * test), and the real profilers' builds. A variant whose compiler is
 * missing is skipped with a note; a compiler error stops the program. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowprof/host.h"
#include "eval_native.h"
#include "lowprof/suite.h"

static const char *const variant_name[LP__EN_NBUILDS] = {"plain", "cg", "bb", "pg", "pi", "cyg"};

/* The compiler arguments before the sources, per variant (NULL-terminated).
 * DWARF 4, not clang 14's default 5, which valgrind 3.19 cannot read. */
static const char *const variant_flags[LP__EN_NBUILDS][10] = {
    {"clang", "-O2", "-gdwarf-4", NULL},
    {"@self", "cc", "--profiles=call-graph", "--cc=clang", "--", "-O2", "-gdwarf-4", NULL},
    {"@self", "cc", "--profiles=block", "--cc=clang", "--", "-O2", "-gdwarf-4", NULL},
    {"gcc", "-O2", "-gdwarf-4", "-pg", NULL},
    {"clang", "-O2", "-gdwarf-4", "-fprofile-instr-generate", NULL},
    {"clang", "-O2", "-gdwarf-4", "-finstrument-functions", NULL},
};

/* Runs argv, its output in log; 0, or 1 after naming the log. */
static int run_build(char **argv, const char *what, const char *log)
{
    /* lowprof cc finds the runtime through LOWPROF_RT when it is set, so a
     * copy of the build tree can be evaluated. */
    char rt[4200];
    const char *given = getenv("LOWPROF_RT");
    char *env[] = {rt, NULL};
    snprintf(rt, sizeof rt, "LOWPROF_RT=%s", given ? given : "");
    int st = lp__en_spawn(argv, given ? env : NULL, log, log);
    return st == 0 ? 0 : lp__en_failed(st, what, "", log);
}

/* Compiles cyg_count.c (without the instrumentation) into work. */
static int build_hook(const lp__en_opts *o, char *obj, size_t cap)
{
    char src[4096], log[4200];
    const char *slash = strrchr(LP_WL_MANIFEST, '/');
    snprintf(src, sizeof src, "%.*snative/support/cyg_count.c",
             slash ? (int)(slash - LP_WL_MANIFEST + 1) : 0, LP_WL_MANIFEST);
    snprintf(obj, cap, "%s/work/cyg_count.o", o->out);
    snprintf(log, sizeof log, "%s/work/cyg_count.log", o->out);
    char *argv[] = {"clang", "-O2", "-gdwarf-4", "-c", src, "-o", obj, NULL};
    return run_build(argv, "compiling the -finstrument-functions hook", log);
}

static int build_variant(const lp__en_opts *o, lp__en_program *p, unsigned v, const char *hook)
{
    const char *argv[96];
    size_t k = 0;
    char loops[32];
    snprintf(loops, sizeof loops, "--loops=%s", o->loops);
    for (size_t i = 0; variant_flags[v][i]; i++) {
        argv[k++] = strcmp(variant_flags[v][i], "@self") == 0 ? o->self : variant_flags[v][i];
        if (strcmp(variant_flags[v][i], "cc") == 0)
            argv[k++] = loops;
    }
    for (size_t i = 0; p->sources[i]; i++)
        argv[k++] = p->sources[i];
    if (v == LP__EN_CYG)
        argv[k++] = hook;
    snprintf(p->bin[v], sizeof p->bin[v], "%s/work/%s-%s", o->out, p->name, variant_name[v]);
    argv[k++] = "-o";
    argv[k++] = p->bin[v];
    for (size_t i = 0; p->link[i]; i++)
        argv[k++] = p->link[i];
    if (v == LP__EN_CYG)
        argv[k++] = "-pthread"; /* the hook's registration lock */
    argv[k] = NULL;
    char log[4200], what[128];
    snprintf(log, sizeof log, "%s.build.log", p->bin[v]);
    snprintf(what, sizeof what, "%s: building the %s variant", p->name, variant_name[v]);
    if (run_build((char **)argv, what, log) != 0)
        return 1;
    p->built[v] = 1;
    return 0;
}

int lp__en_build(const lp__en_opts *o, lp__en_program *p)
{
    char hook[4200] = "";
    for (unsigned v = 0; v < LP__EN_NBUILDS; v++) {
        if (v >= LP__EN_PG && !o->real)
            continue;
        if (v == LP__EN_PG && !lp__en_have("gcc")) {
            lp__en_note("gcc is not installed: no gcc -pg (gprof) build");
            continue;
        }
        if (v == LP__EN_CYG && build_hook(o, hook, sizeof hook) != 0)
            return 1;
        if (build_variant(o, p, v, hook) != 0)
            return 1;
    }
    return 0;
}
