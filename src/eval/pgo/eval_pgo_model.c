/* lowprof eval pgo: the builds in a cost model. Instrumentation PGO gains
 * a few percent on these programs, and this machine's CPU times move by as
 * much from run to run and from one code placement to the next, so a
 * recovered share measured in time is a ratio of noises (doc/eval-pgo.md).
 * Here each of the four builds runs once under cachegrind with its cache
 * and branch simulations, on the training input (a run of a tenth of a
 * second takes ten seconds or so there), and its cost is modelled from the
 * simulated events:
 *
 *   cycles = L1 hits + 5 x LL hits + 35 x memory accesses
 *            + 20 x mispredicted branches
 *
 * with L1 hits = Ir + Dr + Dw - (I1mr + D1mr + D1mw), LL hits = the L1
 * misses less the LL misses (ILmr + DLmr + DLmw), memory accesses = the
 * LL misses: the weights iai-callgrind and the article it takes them from
 * give an L1 hit, an LL hit and a memory access, and 20 cycles, about a
 * Zen core's, for a mispredicted branch (Bcm + Bim). The same count
 * repeats to the instruction; what it models (fewer instructions, fewer
 * misses and mispredictions) is most of what a profile changes, and what
 * it leaves out (taken-branch and fetch costs of the code's layout) is
 * what the timed rounds keep. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval_pgo.h"

/* The events of cachegrind's file at path, by name, into ev (0 for those
 * it lacks). 0, or 1 when the file has no events and summary lines. */
static int read_events(const char *path, const char *const *names, size_t nnames, double *ev)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    char line[1024], events[1024] = "";
    int have = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "events: ", 8) == 0) {
            snprintf(events, sizeof events, "%s", line + 8);
        } else if (strncmp(line, "summary: ", 9) == 0 && events[0]) {
            for (size_t i = 0; i < nnames; i++)
                ev[i] = 0;
            char *se, *sv;
            char *e = strtok_r(events, " \n", &se), *v = strtok_r(line + 9, " \n", &sv);
            for (; e && v; e = strtok_r(NULL, " \n", &se), v = strtok_r(NULL, " \n", &sv))
                for (size_t i = 0; i < nnames; i++)
                    if (strcmp(e, names[i]) == 0)
                        ev[i] = strtod(v, NULL);
            have = 1;
        }
    }
    fclose(f);
    return !have;
}

enum { IR, DR, DW, I1MR, D1MR, D1MW, ILMR, DLMR, DLMW, BCM, BIM, NEV };

static double model_cycles(const double *ev)
{
    double access = ev[IR] + ev[DR] + ev[DW];
    double l1m = ev[I1MR] + ev[D1MR] + ev[D1MW], llm = ev[ILMR] + ev[DLMR] + ev[DLMW];
    return (access - l1m) + 5 * (l1m - llm) + 35 * llm + 20 * (ev[BCM] + ev[BIM]);
}

int lp__pg_model(lp__pg_program *p)
{
    static const char *const names[NEV] = {"Ir",   "Dr",   "Dw",   "I1mr", "D1mr", "D1mw",
                                           "ILmr", "DLmr", "DLmw", "Bcm",  "Bim"};
    char reference[4400];
    lp__eval_pathf(reference, sizeof reference, "%s/train-plain.out", p->work);
    for (unsigned b = LP__PG_PLAIN; b <= LP__PG_RT; b++) {
        fprintf(stderr, "lowprof eval pgo: %s: modelling %s\n", p->name, lp__pg_timed_name[b]);
        char out[4400], log[4400];
        lp__eval_pathf(out, sizeof out, "%s/model-%s.cg", p->work, lp__pg_timed_name[b]);
        lp__eval_pathf(log, sizeof log, "%s/model-%s", p->work, lp__pg_timed_name[b]);
        char flag[4500];
        snprintf(flag, sizeof flag, "--cachegrind-out-file=%s", out);
        const char *argv[24] = {
            "valgrind", "--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes", flag,
            p->bin[b]};
        size_t a = 6;
        for (size_t i = 0; p->train[i] && a < 23; i++)
            argv[a++] = p->train[i];
        argv[a] = NULL;
        double cpu;
        if (lp__pg_run((char **)argv, NULL, log, p->by_output ? reference : p->train_sum, &cpu,
                       p->why, sizeof p->why))
            return 1;
        double ev[NEV];
        if (read_events(out, names, NEV, ev) != 0) {
            snprintf(p->why, sizeof p->why, "%.300s: no events and summary lines", out);
            return 1;
        }
        p->model[b] = model_cycles(ev);
        p->model_ir[b] = ev[IR];
    }
    return 0;
}
