/* lowprof eval native: accuracy. Every profile is turned into an lp_table
 * keyed by function names (a 64-bit hash of the name), so that profiles of
 * different builds compare: methods as (function, 0), call-graph arcs as
 * (caller, callee), blocks as (function, offset in it). lowprof's files are
 * named through the same symbolisation `lowprof report` uses; gprof,
 * llvm-profdata and perf report name functions themselves; the
 * -finstrument-functions hook's addresses go through the symbolizer on its
 * binary. Names are compared without compiler suffixes (".part.0",
 * ".cold", llvm's "file.c:" prefix), and every caller outside the program
 * itself (libc calling main, qsort calling a comparator) is one caller,
 * "[outside]", since only some profilers see those.
 *
 * The accuracy is the profile-flags paper's: (1 - MD/2) x 100, MD the
 * Manhattan distance of the two profiles normalised to sum 1, over the
 * union of keys (lp_manhattan_accuracy). perf samples time, not calls, so
 * against it only the rankings compare: how many of the ten hottest
 * functions by samples are among the ten most called. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowprof/host.h"
#include "eval_native.h"
#include "lowprof/metrics.h"
#include "lowprof/symbols.h"
#include "lowprof/report.h"

#define OUTSIDE "[outside]"

/* FNV-1a of the name without compiler suffixes and file prefixes. */
static uint64_t name_key(const char *name)
{
    const char *colon = strrchr(name, ':');
    if (colon && colon[1])
        name = colon + 1;
    size_t n = strcspn(name + 1, ".") + 1; /* keep a leading '.' */
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < n && name[i]; i++)
        h = (h ^ (uint8_t)name[i]) * 0x100000001b3u;
    return h == UINT64_MAX ? 0 : h;
}

static void add(lp_table *t, uint64_t a, uint64_t b, uint64_t count)
{
    lp_key k = {a, b};
    lp_entry *e = count ? lp_table_upsert(t, k) : NULL;
    if (e)
        e->v[0] += count;
}

/* ---- lowprof's own files ---- */

/* The name of the function holding pc, or OUTSIDE for code outside the
 * program's own module. */
static const char *lowprof_name(lp_names *n, uint64_t pc)
{
    const lp_module *m = lp_module_map_find(n->modules, pc);
    if (n->main_module && m != n->main_module)
        return OUTSIDE;
    return lp_names_group(n, pc, NULL);
}

/* Loads type's whole-run view of path into t (empty when the file or the
 * type is missing). */
static void load_lowprof(const char *path, unsigned type, lp_table *t)
{
    lp_profile_set set;
    if (!path[0] || lp_host_load_profile(path, &set) != 0)
        return;
    lp_names names;
    lp_report_view v = {0};
    if (lp_names_init(&names, &set) == 0) {
        if (lp_report_view_build(&set, type, LP_PHASE_NONE, &v) == 0)
            for (size_t i = 0; i < v.count; i++) {
                const lp_entry *e = &v.entries[i];
                uint64_t a = name_key(lowprof_name(&names, e->key.a)), b = 0;
                if (type == LP_PROF_CALL_GRAPH)
                    b = name_key(lowprof_name(&names, e->key.b));
                else if (type == LP_PROF_BLOCK)
                    b = e->key.a - lp_names_start(&names, e->key.a);
                add(t, a, b, e->v[0]);
            }
        lp_report_view_fini(&v);
        lp_names_fini(&names);
    }
    lp_profile_set_fini(&set);
}

/* ---- tools' text output ---- */

/* Runs argv with its stdout into path; 0 or -1 (a note names the log). */
static int tool_text(char **argv, const char *path, const char *what)
{
    char err[4400];
    if (snprintf(err, sizeof err, "%s.stderr", path) >= (int)sizeof err)
        return -1;
    int st = lp__en_spawn(argv, NULL, path, err);
    if (st == 0)
        return 0;
    lp__en_note("%s failed; see %s", what, err);
    return -1;
}

/* gprof -b -q: blocks between dashed lines; in each, the lines before the
 * primary line ("[N] ...") are its callers, with "calls/total" or, inside
 * a cycle or for recursion, a bare count; the primary line's count is
 * "calls" or "calls+recursive"; the lines after it are its callees. Cycles as a whole are skipped (their members are
 * listed apart). */
static void parse_gprof(FILE *f, lp_table *method, lp_table *cg)
{
    char line[1024];
    uint64_t callers[512], counts[512];
    size_t ncallers = 0;
    int callees = 0; /* past the primary line: these lines are its callees */
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "-----", 5) == 0) {
            ncallers = 0;
            callees = 0;
            continue;
        }
        if (callees)
            continue;
        char *tok[32];
        size_t nt = 0;
        for (char *q = line, *w; nt < 32 && (w = strsep(&q, " \t\n")) != NULL;)
            if (*w)
                tok[nt++] = w;
        size_t c = 0; /* the count token: digits with '/' or '+' */
        while (c < nt && !(tok[c][0] >= '0' && tok[c][0] <= '9' && !strchr(tok[c], '.')))
            c++;
        if (c + 2 > nt || tok[nt - 1][0] != '[' || strstr(line, "as a whole"))
            continue;
        char *end;
        uint64_t first = strtoull(tok[c], &end, 10), count = first;
        if (*end == '+')
            count += strtoull(end + 1, NULL, 10);
        uint64_t key = name_key(tok[c + 1]);
        if (tok[0][0] != '[') { /* a caller */
            if (ncallers < 512)
                callers[ncallers] = key, counts[ncallers++] = first;
            continue;
        }
        /* Recursive calls are among the caller lines, with a bare count. */
        add(method, key, 0, count);
        for (size_t i = 0; i < ncallers; i++)
            add(cg, callers[i], key, counts[i]);
        callees = 1;
    }
}

static void load_gprof(const lp__en_opts *o, const lp__en_program *p, const char *gmon,
                       lp_table *method, lp_table *cg)
{
    char txt[4200];
    snprintf(txt, sizeof txt, "%s/work/%s-gprof.txt", o->out, p->name);
    char *argv[] = {"gprof", "-b", "-q", (char *)p->bin[LP__EN_PG], (char *)gmon, NULL};
    if (!lp__en_have("gprof")) {
        lp__en_note("gprof is not installed: no gcc -pg accuracy");
        return;
    }
    FILE *f = tool_text(argv, txt, "gprof") == 0 ? fopen(txt, "r") : NULL;
    if (f) {
        parse_gprof(f, method, cg);
        fclose(f);
    }
}

/* llvm-profdata show --all-functions --counts: "  NAME:" then, a few lines
 * on, "    Function count: N". */
static void load_llvm(const lp__en_opts *o, const lp__en_program *p, const char *raw,
                      lp_table *method)
{
    if (!lp__en_have("llvm-profdata")) {
        lp__en_note("llvm-profdata is not installed: no clang profile accuracy");
        return;
    }
    char txt[4200], line[1024];
    snprintf(txt, sizeof txt, "%s/work/%s-llvm.txt", o->out, p->name);
    char *argv[] = {"llvm-profdata", "show", "--all-functions", "--counts", (char *)raw, NULL};
    FILE *f = tool_text(argv, txt, "llvm-profdata show") == 0 ? fopen(txt, "r") : NULL;
    uint64_t key = 0;
    while (f && fgets(line, sizeof line, f)) {
        size_t len = strcspn(line, "\n");
        const char *count = strstr(line, "Function count:");
        if (count)
            add(method, key, 0, strtoull(count + 15, NULL, 10));
        else if (strncmp(line, "  ", 2) == 0 && line[2] != ' ' && len > 3 &&
                 line[len - 1] == ':') {
            line[len - 1] = '\0';
            key = name_key(line + 2);
        }
    }
    if (f)
        fclose(f);
}

/* The hook's file (see workloads/native/support/cyg_count.c). */
static void load_cyg(const lp__en_program *p, const char *path, lp_table *method, lp_table *cg)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        lp__en_note("%s: the -finstrument-functions hook wrote nothing", p->name);
        return;
    }
    char line[256];
    unsigned long long bias = 0, fn, site, count;
    lp_module_map map = {0};
    lp_symbolizer *sym = NULL;
    if (fgets(line, sizeof line, f) && sscanf(line, "bias %llx", &bias) == 1 &&
        lp_module_map_add(&map, p->bin[LP__EN_CYG], bias, UINT64_C(1) << 40, (int64_t)bias, NULL,
                          0) == 0 &&
        lp_symbolizer_create(&map, &sym) == 0) {
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "%llx %llx %llu", &fn, &site, &count) == 3) {
                lp_symbol s;
                lp_symbolize(sym, fn, &s);
                uint64_t callee = name_key(s.function ? s.function : "?");
                /* A return address: the call is the byte before it. */
                lp_symbolize(sym, site - 1, &s);
                uint64_t caller = name_key(s.function && s.module ? s.function : OUTSIDE);
                add(method, callee, 0, count);
                add(cg, caller, callee, count);
            } else if (sscanf(line, "dropped %llu", &count) == 1 && count) {
                lp__en_note("%s: the hook's table dropped %llu calls", p->name, count);
            }
    }
    lp_symbolizer_free(sym);
    lp_module_map_fini(&map);
    fclose(f);
}

/* perf report --stdio --sort symbol: "  12.34%  [.] name" for user code;
 * v0 is the share in thousandths of a percent. */
static void load_perf(const lp__en_opts *o, const lp__en_program *p, const char *data,
                      lp_table *share)
{
    char txt[4200], line[1024];
    snprintf(txt, sizeof txt, "%s/work/%s-perf.txt", o->out, p->name);
    char *argv[] = {"perf", "report", "-i", (char *)data, "--stdio", "--sort", "symbol", NULL};
    FILE *f = tool_text(argv, txt, "perf report") == 0 ? fopen(txt, "r") : NULL;
    while (f && fgets(line, sizeof line, f)) {
        double pct;
        char name[512];
        if (sscanf(line, " %lf%% [.] %511s", &pct, name) == 2)
            add(share, name_key(name), 0, (uint64_t)(pct * 1000 + 0.5));
    }
    if (f)
        fclose(f);
}

/* How many of the ten hottest keys of b are among the ten hottest of a
 * (ties by key); *out_n is how many a ranking could share. */
static size_t top10_overlap(const lp_table *a, const lp_table *b, size_t *out_n)
{
    lp_entry *x = NULL, *y = NULL;
    size_t hits = 0;
    if (lp_table_sorted(a, lp_entry_count_greater, &x) == 0 &&
        lp_table_sorted(b, lp_entry_count_greater, &y) == 0) {
        size_t na = a->count < 10 ? a->count : 10, nb = b->count < 10 ? b->count : 10;
        for (size_t i = 0; i < nb; i++)
            for (size_t j = 0; j < na; j++)
                hits += x[j].key.a == y[i].key.a;
        *out_n = na < nb ? na : nb;
    }
    lp_free(x);
    lp_free(y);
    return hits;
}

static void set_acc(lp__en_acc *acc, unsigned k, const lp_table *ref, const lp_table *t)
{
    acc->pct[k] = 100.0 * lp_manhattan_accuracy(ref, t);
    acc->entries[k] = t->count;
    acc->ref_entries[k] = ref->count;
}

/* The sum of t's counts against ref's, in percent off (signed). */
static void set_total(lp__en_acc *acc, const lp_table *ref, const lp_table *t)
{
    double st = lp_table_total(t), sr = lp_table_total(ref);
    if (sr <= 0)
        return;
    acc->pct[LP__EN_ACC_TOTAL] = 100.0 * (st / sr - 1.0);
    acc->entries[LP__EN_ACC_TOTAL] = t->count;
    acc->ref_entries[LP__EN_ACC_TOTAL] = ref->count;
}

void lp__en_accuracy(const lp__en_opts *o, const lp__en_program *p, lp__en_result *r)
{
    enum { M, CG, BB, N };
    lp_table ref[N], hot[N], t[N];
    for (unsigned k = 0; k < N; k++)
        if (lp_table_init(&ref[k], 256) != 0 || lp_table_init(&hot[k], 256) != 0 ||
            lp_table_init(&t[k], 256) != 0)
            return;
    const char *cg = r->cells[lp__en_config_index("cg-100")].profile,
               *cgh = r->cells[lp__en_config_index("cg-100h")].profile,
               *bb = r->cells[lp__en_config_index("bb-100")].profile,
               *bbh = r->cells[lp__en_config_index("bb-100h")].profile;
    load_lowprof(cg, LP_PROF_METHOD, &ref[M]);
    load_lowprof(cg, LP_PROF_CALL_GRAPH, &ref[CG]);
    load_lowprof(bb, LP_PROF_BLOCK, &ref[BB]);
    load_lowprof(cgh, LP_PROF_METHOD, &hot[M]);
    load_lowprof(cgh, LP_PROF_CALL_GRAPH, &hot[CG]);
    load_lowprof(bbh, LP_PROF_BLOCK, &hot[BB]);
    for (size_t c = 0; c < lp__en_nconfigs; c++) {
        const lp__en_config *cf = &lp__en_configs[c];
        const char *prof = r->cells[c].profile;
        lp__en_acc *acc = &r->acc[c];
        if (!r->cells[c].ran || !prof[0])
            continue;
        for (unsigned k = 0; k < N; k++)
            lp_table_clear(&t[k]);
        switch (cf->output) {
        case LP__EN_OUT_LOWPROF:
            if (cf->build == LP__EN_BB) {
                load_lowprof(prof, LP_PROF_BLOCK, &t[BB]);
                set_acc(acc, LP__EN_ACC_BLOCK, &ref[BB], &t[BB]);
                set_total(acc, &ref[BB], &t[BB]);
                if (cf->windowed && hot[BB].count)
                    set_acc(acc, LP__EN_ACC_BLOCK_HOT, &hot[BB], &t[BB]);
                break;
            }
            load_lowprof(prof, LP_PROF_METHOD, &t[M]);
            load_lowprof(prof, LP_PROF_CALL_GRAPH, &t[CG]);
            set_acc(acc, LP__EN_ACC_METHOD, &ref[M], &t[M]);
            set_acc(acc, LP__EN_ACC_CG, &ref[CG], &t[CG]);
            set_total(acc, &ref[M], &t[M]);
            if (cf->windowed && hot[M].count) {
                set_acc(acc, LP__EN_ACC_METHOD_HOT, &hot[M], &t[M]);
                set_acc(acc, LP__EN_ACC_CG_HOT, &hot[CG], &t[CG]);
            }
            break;
        case LP__EN_OUT_GMON:
        case LP__EN_OUT_CYG:
            if (cf->output == LP__EN_OUT_GMON)
                load_gprof(o, p, prof, &t[M], &t[CG]);
            else
                load_cyg(p, prof, &t[M], &t[CG]);
            if (t[M].count) {
                set_acc(acc, LP__EN_ACC_METHOD, &ref[M], &t[M]);
                set_acc(acc, LP__EN_ACC_CG, &ref[CG], &t[CG]);
            }
            break;
        case LP__EN_OUT_LLVM:
            load_llvm(o, p, prof, &t[M]);
            if (t[M].count)
                set_acc(acc, LP__EN_ACC_METHOD, &ref[M], &t[M]);
            break;
        case LP__EN_OUT_PERF:
            load_perf(o, p, prof, &t[M]);
            if (t[M].count) {
                size_t n = 0;
                acc->pct[LP__EN_ACC_TOP10] = (double)top10_overlap(&ref[M], &t[M], &n);
                acc->entries[LP__EN_ACC_TOP10] = t[M].count;
                acc->ref_entries[LP__EN_ACC_TOP10] = ref[M].count;
                if (n < 10)
                    lp__en_note("%s: perf's ranking has %zu functions, lowprof's %zu: the top-10 "
                                "overlap is out of %zu",
                                p->name, t[M].count, ref[M].count, n);
            }
            break;
        default: break;
        }
    }
    for (unsigned k = 0; k < N; k++) {
        lp_table_fini(&ref[k]);
        lp_table_fini(&hot[k]);
        lp_table_fini(&t[k]);
    }
}
