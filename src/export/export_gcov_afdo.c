/* `lowprof export --format gcov-afdo`: gcc's AutoFDO profile (the file
 * `gcc -fauto-profile=FILE` reads), written straight from lowprof's sample
 * model (export_sample.h), so a lowprof recording steers gcc the way
 * llvm-sample steers clang, with no perf.data and no create_gcov.
 *
 * The layout is the one gcc's reader (gcc/auto-profile.cc, read_profile)
 * takes, in gcov's words: 32-bit unsigned words and 64-bit counters (low
 * word first), little-endian here (gcc detects the order from the magic):
 *
 *   "gcda" magic (0x67636461), version 2 (gcc 12's AUTO_PROFILE_VERSION,
 *   whose strings carry byte lengths), 0
 *   0xaa000000 (file names), 0, the number of names, then each name as its
 *     length in bytes with the NUL, and those bytes, unpadded
 *   0xac000000 (functions), 0, the number of top-level functions, then each:
 *     head count (counter), then the instance:
 *       name index, number of lines, number of inlined call sites,
 *       per line: offset, number of targets, count (counter), and per
 *         target: 3 (an indirect-call histogram, the kind gcc reads),
 *         name index (counter), count (counter)
 *       per call site: offset, then the callee's instance, nested
 *   0xae000000 (module grouping), 0, 0
 *
 * An offset is (source line - the function's declaration line) << 16: gcc
 * 12 keeps no discriminator (it masks the low half of line offsets, and
 * compares call-site offsets with the same shift), so the model is built
 * with discriminators merged. Names are DWARF's linkage names, as gcc's
 * assembler names. Counts are the model's: a line's largest instruction
 * execution count, a function's invocations as its head count. gcc uses
 * targets only at indirect calls; direct calls' targets are harmless. */
#include <stdlib.h>
#include <string.h>

#include "export_sample.h"

#define AFDO_MAGIC 0x67636461u
#define AFDO_VERSION 2u
#define AFDO_TAG_NAMES 0xaa000000u
#define AFDO_TAG_FUNCTIONS 0xac000000u
#define AFDO_TAG_MODULES 0xae000000u
#define AFDO_HIST_INDIRECT_CALL 3u

static void afdo_word(lp_out *o, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    lp_outn(o, b, 4);
}

static void afdo_counter(lp_out *o, uint64_t v)
{
    afdo_word(o, (uint32_t)v);
    afdo_word(o, (uint32_t)(v >> 32));
}

/* ---- the name table: every name the model uses, sorted, unique ------------ */

typedef struct afdo_names {
    const char **items;
    size_t count, cap;
} afdo_names;

static int afdo_name_add(afdo_names *t, const char *name)
{
    if (t->count == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        const char **p = realloc(t->items, cap * sizeof *p);
        if (!p)
            return LP_ENOMEM;
        t->items = p;
        t->cap = cap;
    }
    t->items[t->count++] = name;
    return 0;
}

static int afdo_names_collect(afdo_names *t, const ls_node *n)
{
    int rc = afdo_name_add(t, n->name);
    for (size_t i = 0; rc == 0 && i < n->nlines; i++)
        for (size_t k = 0; rc == 0 && k < n->lines[i].ntargets; k++)
            rc = afdo_name_add(t, n->lines[i].targets[k].name);
    for (size_t i = 0; rc == 0 && i < n->nsites; i++)
        if (n->sites[i].callee->total)
            rc = afdo_names_collect(t, n->sites[i].callee);
    return rc;
}

static int afdo_str_cmp(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static uint32_t afdo_index(const afdo_names *t, const char *name)
{
    const char **at = bsearch(&name, t->items, t->count, sizeof *t->items, afdo_str_cmp);
    return at ? (uint32_t)(at - t->items) : 0; /* every name was collected */
}

/* ---- functions ------------------------------------------------------------------ */

static uint32_t afdo_offset(unsigned offset)
{
    return (uint32_t)(offset & 0xffffu) << 16;
}

/* The instance n: lines, then the call sites with samples, nested. */
static void afdo_instance(lp_out *o, const afdo_names *t, const ls_node *n)
{
    uint32_t nsites = 0;
    for (size_t i = 0; i < n->nsites; i++)
        nsites += n->sites[i].callee->total != 0;
    afdo_word(o, afdo_index(t, n->name));
    afdo_word(o, (uint32_t)n->nlines);
    afdo_word(o, nsites);
    for (size_t i = 0; i < n->nlines; i++) {
        const ls_line *l = &n->lines[i];
        afdo_word(o, afdo_offset(l->offset));
        afdo_word(o, (uint32_t)l->ntargets);
        afdo_counter(o, l->samples);
        for (size_t k = 0; k < l->ntargets; k++) {
            afdo_word(o, AFDO_HIST_INDIRECT_CALL);
            afdo_counter(o, afdo_index(t, l->targets[k].name));
            afdo_counter(o, l->targets[k].count);
        }
    }
    for (size_t i = 0; i < n->nsites; i++) {
        if (!n->sites[i].callee->total)
            continue;
        afdo_word(o, afdo_offset(n->sites[i].offset));
        afdo_instance(o, t, n->sites[i].callee);
    }
}

int lp__export_gcov_afdo(const char *source, const lp_profile_set *s, lp_names *nm, lp_out *o)
{
    (void)source;
    ls_state st;
    int rc = lp__sample_build(s, nm, 0, &st);
    if (rc)
        return rc;
    afdo_names t = {0};
    uint32_t nfunctions = 0;
    for (size_t i = 0; rc == 0 && i < st.ntop; i++)
        if (st.top[i]->total) {
            nfunctions++;
            rc = afdo_names_collect(&t, st.top[i]);
        }
    if (rc == 0) {
        qsort(t.items, t.count, sizeof *t.items, afdo_str_cmp);
        size_t u = 0;
        for (size_t i = 0; i < t.count; i++)
            if (u == 0 || strcmp(t.items[u - 1], t.items[i]) != 0)
                t.items[u++] = t.items[i];
        t.count = u;

        afdo_word(o, AFDO_MAGIC);
        afdo_word(o, AFDO_VERSION);
        afdo_word(o, 0);
        afdo_word(o, AFDO_TAG_NAMES);
        afdo_word(o, 0);
        afdo_word(o, (uint32_t)t.count);
        for (size_t i = 0; i < t.count; i++) {
            size_t len = strlen(t.items[i]) + 1;
            afdo_word(o, (uint32_t)len);
            lp_outn(o, t.items[i], len);
        }
        afdo_word(o, AFDO_TAG_FUNCTIONS);
        afdo_word(o, 0);
        afdo_word(o, nfunctions);
        for (size_t i = 0; i < st.ntop; i++) {
            if (!st.top[i]->total)
                continue;
            afdo_counter(o, st.top[i]->head);
            afdo_instance(o, &t, st.top[i]);
        }
        afdo_word(o, AFDO_TAG_MODULES);
        afdo_word(o, 0);
        afdo_word(o, 0);
        rc = o->err;
    }
    free(t.items);
    lp__sample_free(&st);
    return rc;
}
