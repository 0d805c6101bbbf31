/* `lowprof export --format callgrind`: the Callgrind profile format (as
 * read by callgrind_annotate and KCachegrind), so the tools people already
 * use can browse a lowprof profile.
 *
 * What goes in:
 *   - one event, Ir (instructions executed), at source-line positions. Each
 *     basic block's instructions are charged to the file:line of the
 *     block's first instruction, inside the function holding it. Without a
 *     block profile, the code-region profile serves: each branch's
 *     instructions since the previous branch are charged to the branch.
 *   - calls from the call-pair profile: per call site line, callee and
 *     count. lowprof records pairs, not stacks, so it cannot know how much
 *     of the callee's cost each call caused: calls carry an inclusive cost
 *     of 0, and inclusive views show self cost only.
 * Code with no symbol is gathered per module into "[libfoo.so]". */
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

#ifndef LP_VERSION
#define LP_VERSION "unknown"
#endif

/* One cost line or one call, with the function it belongs to. */
typedef struct cg_rec {
    const char *fn;   /* function (group) name */
    const char *fl;   /* the function's file: where its entry is */
    const char *ob;   /* module path, or NULL */
    const char *file; /* the file of this line (differs from fl when inlined) */
    unsigned line;
    int is_call;
    const char *cfn, *cfl, *cob; /* callee, for calls */
    unsigned cline;              /* callee's entry line */
    uint64_t count;              /* Ir for costs, calls for calls */
} cg_rec;

static int cg_strcmp(const char *a, const char *b)
{
    if (a == b)
        return 0;
    if (!a || !b)
        return a ? 1 : -1;
    return strcmp(a, b);
}

static int cg_rec_cmp(const void *x, const void *y)
{
    const cg_rec *a = x, *b = y;
    int c;
    if ((c = cg_strcmp(a->fn, b->fn)) || (c = cg_strcmp(a->fl, b->fl)) ||
        (c = cg_strcmp(a->ob, b->ob)))
        return c;
    /* The function's own file first: its lines need no fi= switch. */
    int a_other = cg_strcmp(a->file, a->fl) != 0, b_other = cg_strcmp(b->file, b->fl) != 0;
    if (a_other != b_other)
        return a_other - b_other;
    if ((c = cg_strcmp(a->file, b->file)))
        return c;
    if (a->is_call != b->is_call)
        return a->is_call - b->is_call;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if ((c = cg_strcmp(a->cfn, b->cfn)) || (c = cg_strcmp(a->cfl, b->cfl)) ||
        (c = cg_strcmp(a->cob, b->cob)))
        return c;
    return 0;
}

/* Names go on one line each; a line break inside one would end it early. */
static void cg_name(lp_out *o, const char *prefix, const char *name)
{
    lp_outs(o, prefix);
    for (const char *p = name; *p; p++)
        lp_outn(o, (*p == '\n' || *p == '\r') ? " " : p, 1);
    lp_outs(o, "\n");
}

/* Where a function is, for fl=/cfi=: the file of its entry. */
static void cg_function(lp_names *nm, uint64_t pc, const char **out_fn, const char **out_fl,
                        const char **out_ob)
{
    lp_symbol sym;
    *out_fn = lp_names_group(nm, pc, &sym);
    *out_ob = sym.module;
    *out_fl = "???";
    if (sym.function) {
        lp_symbol entry;
        lp_symbolize(nm->sym, sym.function_start, &entry);
        if (entry.file)
            *out_fl = entry.file;
    }
}

typedef struct cg_recs {
    cg_rec *items;
    size_t count, cap;
} cg_recs;

static cg_rec *cg_push(cg_recs *r)
{
    if (r->count == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 1024;
        cg_rec *items = realloc(r->items, cap * sizeof *items);
        if (!items)
            return NULL;
        r->items = items;
        r->cap = cap;
    }
    cg_rec *x = &r->items[r->count++];
    memset(x, 0, sizeof *x);
    return x;
}

/* Adds one cost record per entry of the block (or code-region) view. */
static int cg_costs(lp_names *nm, const lp_report_view *v, cg_recs *r, uint64_t *total)
{
    for (size_t i = 0; i < v->count; i++) {
        const lp_entry *e = &v->entries[i];
        if (e->v[1] == 0)
            continue;
        cg_rec *x = cg_push(r);
        if (!x)
            return LP_ENOMEM;
        cg_function(nm, e->key.a, &x->fn, &x->fl, &x->ob);
        lp_symbol sym;
        lp_symbolize(nm->sym, e->key.a, &sym);
        x->file = sym.file ? sym.file : "???";
        x->line = sym.line;
        x->count = e->v[1];
        *total += e->v[1];
    }
    return 0;
}

static int cg_calls(lp_names *nm, const lp_report_view *v, uint64_t back, cg_recs *r)
{
    for (size_t i = 0; i < v->count; i++) {
        const lp_entry *e = &v->entries[i];
        if (e->v[0] == 0)
            continue;
        cg_rec *x = cg_push(r);
        if (!x)
            return LP_ENOMEM;
        cg_function(nm, e->key.a - back, &x->fn, &x->fl, &x->ob);
        lp_symbol site, callee;
        lp_symbolize(nm->sym, e->key.a - back, &site);
        x->file = site.file ? site.file : "???";
        x->line = site.line;
        x->is_call = 1;
        cg_function(nm, e->key.b, &x->cfn, &x->cfl, &x->cob);
        lp_symbolize(nm->sym, e->key.b, &callee);
        x->cline = callee.line;
        x->count = e->v[0];
    }
    return 0;
}

int lp__export_callgrind(const char *source, const lp_profile_set *s, lp_names *nm, lp_out *o)
{
    (void)source;
    cg_recs r = {0};
    uint64_t total = 0;
    lp_report_view v;
    int rc = lp_report_view_build(s, LP_PROF_BLOCK, LP_PHASE_NONE, &v);
    int from_blocks = v.merged > 0;
    if (rc == 0 && !from_blocks) {
        lp_report_view_fini(&v);
        rc = lp_report_view_build(s, LP_PROF_CODE_REGION, LP_PHASE_NONE, &v);
    }
    if (rc == 0)
        rc = cg_costs(nm, &v, &r, &total);
    lp_report_view_fini(&v);
    if (rc == 0)
        rc = lp_report_view_build(s, LP_PROF_CALL_PAIR, LP_PHASE_NONE, &v);
    if (rc == 0) {
        rc = cg_calls(nm, &v, lp__call_site_back(s), &r);
        lp_report_view_fini(&v);
    }
    if (rc) {
        free(r.items);
        return rc;
    }

    qsort(r.items, r.count, sizeof *r.items, cg_rec_cmp);

    /* cmd: the recorded command line, or the program and its arguments. */
    const char *command = lp_meta_get(&s->meta, "command");
    const char *program = command ? command : lp_meta_get(&s->meta, "program");
    const char *args = command ? NULL : lp_meta_get(&s->meta, "args");
    lp_outs(o, "# callgrind format\nversion: 1\ncreator: lowprof " LP_VERSION "\n");
    if (program) {
        lp_outs(o, "cmd: ");
        for (const char *p = program; *p; p++)
            lp_outn(o, (*p == '\n') ? " " : p, 1);
        if (args && args[0]) {
            lp_outs(o, " ");
            for (const char *p = args; *p; p++)
                lp_outn(o, (*p == '\n') ? " " : p, 1);
        }
        lp_outs(o, "\n");
    }
    lp_outf(o, "desc: Costs: %s\n",
             from_blocks ? "instructions of each basic block, at its first line"
                         : "instructions since the previous branch, at the branch");
    lp_outs(o, "desc: Calls: from call pairs; inclusive costs of calls are not recorded (0)\n");
    lp_outs(o, "positions: line\nevent: Ir : Instructions executed\nevents: Ir\n");
    lp_outf(o, "summary: %llu\n\n", (unsigned long long)total);

    const char *cur_fn = NULL, *cur_fl = NULL, *cur_ob = NULL, *cur_file = NULL;
    int have_fn = 0;
    for (size_t i = 0; i < r.count && !o->err;) {
        cg_rec x = r.items[i++];
        /* Merge the records that print as the same line. */
        while (i < r.count && cg_rec_cmp(&x, &r.items[i]) == 0)
            x.count += r.items[i++].count;
        if (!have_fn || cg_strcmp(x.fn, cur_fn) || cg_strcmp(x.fl, cur_fl) ||
            cg_strcmp(x.ob, cur_ob)) {
            lp_outs(o, "\n");
            if (x.ob && cg_strcmp(x.ob, cur_ob))
                cg_name(o, "ob=", x.ob);
            cg_name(o, "fl=", x.fl);
            cg_name(o, "fn=", x.fn);
            cur_fn = x.fn;
            cur_fl = cur_file = x.fl;
            cur_ob = x.ob;
            have_fn = 1;
        }
        if (cg_strcmp(x.file, cur_file)) {
            cg_name(o, "fi=", x.file);
            cur_file = x.file;
        }
        if (!x.is_call) {
            lp_outf(o, "%u %llu\n", x.line, (unsigned long long)x.count);
            continue;
        }
        if (x.cob)
            cg_name(o, "cob=", x.cob);
        cg_name(o, "cfi=", x.cfl);
        cg_name(o, "cfn=", x.cfn);
        lp_outf(o, "calls=%llu %u\n%u 0\n", (unsigned long long)x.count, x.cline, x.line);
    }
    lp_outf(o, "\ntotals: %llu\n", (unsigned long long)total);
    free(r.items);
    return o->err;
}
