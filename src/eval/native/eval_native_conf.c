/* lowprof eval native: the state every part reads, in one place: the
 * configurations each program runs in, the names of the accuracies, and
 * the notes collected along the way (printed as they come, listed again in
 * the summary). */
#define _GNU_SOURCE /* strdup */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval_native.h"

/* Fixed order: one round runs them in this order. The windowed ones get
 * hot=N, the others hot=all. */
const lp__en_config lp__en_configs[] = {
    {"plain", "clang -O2 -g (baseline)", LP__EN_PLAIN, LP__EN_OUT_NONE, NULL, -2, 0, 0, 1},
    {"cg-0", "call graph 0 % (never)", LP__EN_CG, LP__EN_OUT_LOWPROF, "strategy=never", 0, 0, 0,
     1},
    {"cg-10", "call graph 10 %", LP__EN_CG, LP__EN_OUT_LOWPROF, "strategy=periodic,duty=10", 10,
     1, 0, 0},
    {"cg-25", "call graph 25 %", LP__EN_CG, LP__EN_OUT_LOWPROF, "strategy=periodic,duty=25", 25,
     1, 0, 0},
    {"cg-50", "call graph 50 %", LP__EN_CG, LP__EN_OUT_LOWPROF, "strategy=periodic,duty=50", 50,
     1, 0, 0},
    {"cg-100", "call graph 100 % (always)", LP__EN_CG, LP__EN_OUT_LOWPROF, "strategy=always", 100,
     0, 0, 1},
    {"cg-100h", "call graph 100 %, hot methods (the paper's 100 %)", LP__EN_CG,
     LP__EN_OUT_LOWPROF, "strategy=always", 100, 1, 0, 0},
    {"cg-phase", "call graph, phase", LP__EN_CG, LP__EN_OUT_LOWPROF, "strategy=phase", -1, 1, 0,
     0},
    {"bb-0", "blocks 0 % (never)", LP__EN_BB, LP__EN_OUT_LOWPROF,
     "strategy=never,profiles=block", 0, 0, 0, 1},
    {"bb-10", "blocks 10 %", LP__EN_BB, LP__EN_OUT_LOWPROF,
     "strategy=periodic,duty=10,profiles=block", 10, 1, 0, 0},
    {"bb-25", "blocks 25 %", LP__EN_BB, LP__EN_OUT_LOWPROF,
     "strategy=periodic,duty=25,profiles=block", 25, 1, 0, 0},
    {"bb-50", "blocks 50 %", LP__EN_BB, LP__EN_OUT_LOWPROF,
     "strategy=periodic,duty=50,profiles=block", 50, 1, 0, 0},
    {"bb-100", "blocks 100 % (always)", LP__EN_BB, LP__EN_OUT_LOWPROF,
     "strategy=always,profiles=block", 100, 0, 0, 1},
    {"bb-100h", "blocks 100 %, hot methods (the paper's 100 %)", LP__EN_BB, LP__EN_OUT_LOWPROF,
     "strategy=always,profiles=block", 100, 1, 0, 0},
    {"gprof", "gcc -O2 -pg (gprof)", LP__EN_PG, LP__EN_OUT_GMON, NULL, -2, 0, 1, 1},
    {"llvm", "clang -fprofile-instr-generate", LP__EN_PI, LP__EN_OUT_LLVM, NULL, -2, 0, 1, 1},
    {"cyg", "clang -finstrument-functions, counting hook", LP__EN_CYG, LP__EN_OUT_CYG, NULL, -2,
     0, 1, 1},
    {"perf", "perf record -e cpu-clock -F 4000", LP__EN_PLAIN, LP__EN_OUT_PERF, NULL, -2, 0, 1,
     0},
};
const size_t lp__en_nconfigs = sizeof lp__en_configs / sizeof lp__en_configs[0];

size_t lp__en_config_index(const char *name)
{
    for (size_t i = 0; i < lp__en_nconfigs; i++)
        if (strcmp(lp__en_configs[i].name, name) == 0)
            return i;
    assert(!"unknown configuration");
    return 0;
}

const char *const lp__en_acc_name[LP__EN_NACC] = {
    "method", "call-graph", "block", "top10", "method-hot", "call-graph-hot", "block-hot", "total"};

/* ---- notes ---- */

static char *notes[256];
static size_t nnotes;

void lp__en_note(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < nnotes; i++)
        if (strcmp(notes[i], buf) == 0)
            return;
    if (nnotes < sizeof notes / sizeof notes[0] && (notes[nnotes] = strdup(buf)) != NULL)
        fprintf(stderr, "lowprof eval native: note: %s\n", notes[nnotes++]);
}

size_t lp__en_note_count(void)
{
    return nnotes;
}

const char *lp__en_note_text(size_t i)
{
    return i < nnotes ? notes[i] : "";
}
