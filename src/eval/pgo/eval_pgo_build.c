/* lowprof eval pgo: the builds and their profiles. Every build compiles
 * the same sources with clang -O2; the three profiles come from training
 * runs on the training input:
 *
 *   instr  -fprofile-instr-generate build, LLVM_PROFILE_FILE, then
 *          llvm-profdata merge and -fprofile-instr-use;
 *   vg     -g -gdwarf-4 build (Valgrind 3.19 reads no DWARF 5) recorded
 *          with `lowprof record --profile block,call-pair,method`;
 *   rt     `lowprof cc --profiles=call-graph,block` build run with the
 *          runtime's 10 % windows;
 *
 * the last two exported with `lowprof export --format llvm-sample` and
 * used with -gline-tables-only -fprofile-sample-use. Each training run
 * with collection is timed against the plain build's, in alternating
 * rounds, for the cost of collecting (Valgrind once: its slowdown). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval_pgo.h"
#include "../native/eval_native.h"
#include "lowprof/host.h"

/* Appends the program's sources, -o out and its link flags to argv at *k. */
static void add_program(const lp__pg_program *p, const char **argv, size_t *k, const char *out)
{
    for (size_t i = 0; p->sources[i]; i++)
        argv[(*k)++] = p->sources[i];
    argv[(*k)++] = "-o";
    argv[(*k)++] = out;
    for (size_t i = 0; p->link[i]; i++)
        argv[(*k)++] = p->link[i];
    argv[*k] = NULL;
}

/* Counts the lines of path that hold "warning:". */
static int count_warnings(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        n += strstr(line, "warning:") != NULL;
    if (f)
        fclose(f);
    return n;
}

/* Runs a compiler (or llvm-profdata, lowprof export) with flags, then the
 * program when with_program; the log is out.log. *warnings (may be NULL)
 * gets its warning lines. 0, or 1 with p->why set. */
static int compile(lp__pg_program *p, const char *const *flags, const char *out, int with_program,
                   int *warnings)
{
    const char *argv[96];
    size_t k = 0;
    for (size_t i = 0; flags[i]; i++)
        argv[k++] = flags[i];
    argv[k] = NULL;
    if (with_program)
        add_program(p, argv, &k, out);
    char log[4400];
    lp__eval_pathf(log, sizeof log, "%s.log", out);
    /* lowprof cc finds the runtime through LOWPROF_RT when it is set, as
     * in eval native's builds. */
    char rt[4200];
    const char *given = getenv("LOWPROF_RT");
    char *env[] = {rt, NULL};
    snprintf(rt, sizeof rt, "LOWPROF_RT=%s", given ? given : "");
    int st = lp__en_spawn((char **)argv, given ? env : NULL, log, log);
    if (warnings)
        *warnings = count_warnings(log);
    if (st != 0) {
        char text[128];
        snprintf(p->why, sizeof p->why, "%.200s failed (%s); see %.250s", argv[0],
                 lp_host_status_text(st, text, sizeof text), log);
        return 1;
    }
    return 0;
}

/* The training run of bin: argv is prefix, bin, the training input;
 * profile, if not NULL, is the file the native runtime writes (a crash
 * is then said with its place). */
static int train(lp__pg_program *p, const char *const *prefix, const char *bin, char *const *env,
                 const char *tag, const char *profile, double *cpu)
{
    const char *argv[32];
    size_t k = 0;
    for (size_t i = 0; prefix && prefix[i]; i++)
        argv[k++] = prefix[i];
    argv[k++] = bin;
    for (size_t i = 0; p->train[i] && k < 31; i++)
        argv[k++] = p->train[i];
    argv[k] = NULL;
    char log[4400];
    lp__eval_pathf(log, sizeof log, "%s/train-%s", p->work, tag);
    /* lowprof record prints its own line first; the program's output
     * follows it, so the checksum is checked on direct runs only. A
     * program without one must write what plain wrote, which runs first. */
    char reference[4400];
    lp__eval_pathf(reference, sizeof reference, "%s/train-plain.out", p->work);
    const char *want = prefix                      ? NULL
                       : !p->by_output             ? p->train_sum
                       : strcmp(tag, "plain") != 0 ? reference
                                                   : NULL;
    if (profile)
        remove(profile); /* a crash's note must be this run's */
    int rc = lp__pg_run((char **)argv, env, log, want, cpu, p->why, sizeof p->why);
    if (rc && profile) {
        size_t n = strlen(p->why);
        lp__eval_fault_note(profile, p->why + n, sizeof p->why - n);
    }
    return rc;
}

/* The runtime's profile of training round r (from 0). */
static void rt_profile_path(const lp__pg_program *p, unsigned r, char *buf, size_t cap)
{
    lp__eval_pathf(buf, cap, "%s/train-rt-%u.lpprof", p->work, r + 1);
}

/* The training rounds: plain, instrumented and runtime builds alternating,
 * then the Valgrind recording once. Each round's runtime profile is kept
 * (rt_profile_path): the first o->rt_runs are merged into its export. */
static int collect(const lp__pg_opts *o, lp__pg_program *p, const char *profraw,
                   const char *vg_prof)
{
    unsigned rounds = o->rounds < 3 ? 3 : o->rounds;
    if (rounds < o->rt_runs)
        rounds = o->rt_runs;
    double *t[3];
    for (int i = 0; i < 3; i++)
        if (!(t[i] = calloc(rounds, sizeof(double)))) {
            for (int j = 0; j < i; j++)
                free(t[j]);
            snprintf(p->why, sizeof p->why, "out of memory");
            return 1;
        }
    char gen_env[4400], rt_env[4400], rt_prof[4300];
    snprintf(gen_env, sizeof gen_env, "LLVM_PROFILE_FILE=%s", profraw);
    char *gen_envv[] = {gen_env, NULL}, *rt_envv[] = {rt_env, NULL};
    int rc = 0;
    for (unsigned r = 0; rc == 0 && r < rounds; r++) {
        rt_profile_path(p, r, rt_prof, sizeof rt_prof);
        lp__pg_runtime_env(o, rt_prof, rt_env, sizeof rt_env);
        rc = train(p, NULL, p->bin[LP__PG_PLAIN], NULL, "plain", NULL, &t[0][r]) ||
             train(p, NULL, p->helper[LP__PG_GEN], gen_envv, "instr", NULL, &t[1][r]) ||
             train(p, NULL, p->helper[LP__PG_RTB], rt_envv, "rt", rt_prof, &t[2][r]);
    }
    if (rc == 0) {
        p->train_cpu[LP__PG_PLAIN] = lp__pg_median(t[0], rounds);
        p->train_cpu[LP__PG_INSTR] = lp__pg_median(t[1], rounds);
        p->train_cpu[LP__PG_RT] = lp__pg_median(t[2], rounds);
        const char *record[] = {
            o->self, "record", "-q", "--no-imatrix", "--profile", "block,call-pair,method", "-o",
            vg_prof, "--",     NULL};
        rc = train(p, record, p->helper[LP__PG_DBG], NULL, "vg", NULL, &p->train_cpu[LP__PG_VG]);
    }
    for (int i = 0; i < 3; i++)
        free(t[i]);
    if (rc)
        return 1;
    double base = p->train_cpu[LP__PG_PLAIN];
    for (unsigned b = LP__PG_INSTR; b <= LP__PG_RT; b++)
        p->collect[b] = base > 0 ? p->train_cpu[b] / base : NAN;
    return 0;
}

int lp__pg_build(const lp__pg_opts *o, lp__pg_program *p)
{
    const char *w = p->work;
    for (unsigned b = 0; b < LP__PG_NTIMED; b++) {
        lp__eval_pathf(p->bin[b], sizeof p->bin[0], "%s/%s-%s", w, p->name, lp__pg_timed_name[b]);
        p->collect[b] = NAN;
        p->train_cpu[b] = NAN;
    }
    static const char *const helper_name[LP__PG_NHELPERS] = {"gen", "dbg", "rtb"};
    for (unsigned h = 0; h < LP__PG_NHELPERS; h++)
        lp__eval_pathf(p->helper[h], sizeof p->bin[0], "%s/%s-%s", w, p->name, helper_name[h]);
    /* The collect row runs the runtime's build: no binary of its own. */
    lp__eval_pathf(p->bin[LP__PG_COLLECT], sizeof p->bin[0], "%s", p->helper[LP__PG_RTB]);

    const char *plain[] = {"clang", "-O2", NULL};
    const char *gen[] = {"clang", "-O2", "-fprofile-instr-generate", NULL};
    /* The profiled builds and the builds that use their profiles carry
     * discriminators (-fdebug-info-for-profiling), as clang's manual asks
     * of sample profiles: without them a line with two calls gives clang's
     * sample loader one call site for both, and it passed over graph's
     * hot inlined gr_heuristic (2.2 % more instructions than plain). */
    const char *dbg[] = {"clang", "-O2", "-g", "-gdwarf-4", "-fdebug-info-for-profiling", NULL};
    const char *rtb[] = {o->self,
                         "cc",
                         "--profiles=call-graph,block",
                         o->loops_two ? "--loops=two" : "--loops=one",
                         "--cc=clang",
                         "--",
                         "-O2",
                         "-gdwarf-4",
                         "-fdebug-info-for-profiling",
                         NULL};
    fprintf(stderr, "lowprof eval pgo: %s: building\n", p->name);
    if (compile(p, plain, p->bin[LP__PG_PLAIN], 1, &p->warnings[LP__PG_PLAIN]) ||
        compile(p, gen, p->helper[LP__PG_GEN], 1, NULL) ||
        compile(p, dbg, p->helper[LP__PG_DBG], 1, NULL) ||
        compile(p, rtb, p->helper[LP__PG_RTB], 1, NULL))
        return 1;

    char profraw[4300], profdata[4300], vg_prof[4300];
    lp__eval_pathf(profraw, sizeof profraw, "%s/train.profraw", w);
    lp__eval_pathf(profdata, sizeof profdata, "%s/train.profdata", w);
    lp__eval_pathf(vg_prof, sizeof vg_prof, "%s/train-vg.lpprof", w);
    fprintf(stderr, "lowprof eval pgo: %s: training\n", p->name);
    if (collect(o, p, profraw, vg_prof))
        return 1;

    lp__eval_pathf(p->profile[LP__PG_INSTR], sizeof p->bin[0], "%s", profdata);
    lp__eval_pathf(p->profile[LP__PG_VG], sizeof p->bin[0], "%s/vg.prof.txt", w);
    lp__eval_pathf(p->profile[LP__PG_RT], sizeof p->bin[0], "%s/rt.prof.txt", w);
    const char *merge[] = {"llvm-profdata", "merge", "-o", profdata, profraw, NULL};
    const char *vg_export[] = {
        o->self, "export", "--format", "llvm-sample", "-o", p->profile[LP__PG_VG], vg_prof, NULL};
    /* The runtime's runs merged by the export, as a collector merges them. */
    enum { PATH_CAP = 4300 };
    const char *rt_export[7 + 32] = {o->self,       "export", "--format",
                                     "llvm-sample", "-o",     p->profile[LP__PG_RT]};
    char *rt_profs = calloc(o->rt_runs, PATH_CAP);
    if (!rt_profs) {
        snprintf(p->why, sizeof p->why, "out of memory");
        return 1;
    }
    for (unsigned r = 0; r < o->rt_runs && r < 32; r++) {
        rt_profile_path(p, r, rt_profs + (size_t)r * PATH_CAP, PATH_CAP);
        rt_export[6 + r] = rt_profs + (size_t)r * PATH_CAP;
    }
    int erc = compile(p, merge, profdata, 0, NULL) ||
              compile(p, vg_export, p->profile[LP__PG_VG], 0, NULL) ||
              compile(p, rt_export, p->profile[LP__PG_RT], 0, NULL);
    free(rt_profs);
    if (erc)
        return 1;

    fprintf(stderr, "lowprof eval pgo: %s: building with the profiles\n", p->name);
    char use_instr[4400], use_vg[4400], use_rt[4400];
    snprintf(use_instr, sizeof use_instr, "-fprofile-instr-use=%s", profdata);
    snprintf(use_vg, sizeof use_vg, "-fprofile-sample-use=%s", p->profile[LP__PG_VG]);
    snprintf(use_rt, sizeof use_rt, "-fprofile-sample-use=%s", p->profile[LP__PG_RT]);
    const char *instr[] = {"clang", "-O2", use_instr, NULL};
    /* DWARF 4 line tables: Valgrind 3.19 gives up on clang 14's default
     * DWARF 5 ones, and the cost model runs these builds under it (the
     * code is the same either way). */
    const char *vg[] = {
        "clang", "-O2", "-gline-tables-only", "-gdwarf-4", "-fdebug-info-for-profiling",
        use_vg,  NULL};
    const char *rt[] = {
        "clang", "-O2", "-gline-tables-only", "-gdwarf-4", "-fdebug-info-for-profiling",
        use_rt,  NULL};
    if (compile(p, instr, p->bin[LP__PG_INSTR], 1, &p->warnings[LP__PG_INSTR]) ||
        compile(p, vg, p->bin[LP__PG_VG], 1, &p->warnings[LP__PG_VG]) ||
        compile(p, rt, p->bin[LP__PG_RT], 1, &p->warnings[LP__PG_RT]))
        return 1;
    /* A program of others may warn anyway: only what the profile adds
     * counts. */
    for (unsigned b = LP__PG_INSTR; b <= LP__PG_RT; b++)
        p->warnings[b] -=
            p->warnings[LP__PG_PLAIN] < p->warnings[b] ? p->warnings[LP__PG_PLAIN] : p->warnings[b];
    return 0;
}
