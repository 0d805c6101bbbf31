/* `lowprof report`'s text (lowprof/report.h): a profile file as text
 * tables, hottest first: code regions, methods, call pairs, edges, basic
 * blocks and, when the file has them, load values and the other pair
 * profiles. Every row names its function and file:line (and the library,
 * outside the main program) and gives its share of the section's total.
 *
 * Tuned for: profiles of a few hundred thousand entries; each section
 * copies its entries once, sorts them, and symbolizes only the rows it
 * prints (plus, for call pairs by function, every site, which is what the
 * aggregation needs). */
#include <stdlib.h>
#include <string.h>

#include "lowprof/host.h"
#include "lowprof/report.h"
#include "report_internal.h"


/* One row before sorting: the key, its counters, an extra figure (call
 * sites, distinct values) and the weight it is sorted and shared by. */

int lp__report_row_cmp(const void *x, const void *y)
{
    const lp__report_row *p = x, *q = y;
    if (p->weight != q->weight)
        return p->weight > q->weight ? -1 : 1;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    return 0;
}

size_t lp__report_shown(const lp_report_opts *o, size_t n)
{
    return o->top == 0 || o->top > n ? n : (size_t)o->top;
}

/* Prints a section heading: "Title: what (sorted by, top N)". */
void lp__report_heading(const char *title, const char *what, const lp_report_opts *o, size_t n,
                           const lp_report_view *v)
{
    printf("\n%s: %s", title, what);
    if (o->top && o->top < n)
        printf(" (top %llu)", (unsigned long long)o->top);
    if (v->sampled)
        printf(" [sampled: estimated counts]");
    if (v->merged > 1)
        printf(" [summed over %zu phase profiles]", v->merged);
    printf("\n");
}

void lp__report_none(const char *what)
{
    printf("  (no %s)\n", what);
}

/* ---- sections ------------------------------------------------------------------ */

/* Code regions and blocks share a shape: per address, executions and
 * instructions (since the previous branch, or in the block). */
static int report_exec_insns(lp_names *nm, const lp_report_view *v, const lp_report_opts *o,
                             const char *title, const char *noun, const char *column)
{
    lp__report_row *rows = calloc(v->count ? v->count : 1, sizeof *rows);
    if (!rows)
        return LP_ENOMEM;
    uint64_t execs = 0, insns = 0;
    for (size_t i = 0; i < v->count; i++) {
        execs += v->entries[i].v[0];
        insns += v->entries[i].v[1];
    }
    /* The native runtime's blocks carry no instruction counts: rank them by
     * executions, not by a column of zeros. */
    int by_insns = o->sort_insns && insns > 0;
    for (size_t i = 0; i < v->count; i++) {
        const lp_entry *e = &v->entries[i];
        rows[i] = (lp__report_row){e->key.a, e->key.b, e->v[0], e->v[1], 0,
                               by_insns ? e->v[1] : e->v[0]};
    }
    qsort(rows, v->count, sizeof *rows, lp__report_row_cmp);
    char c1[32], c2[32], what[160], pct[16], mean[32], name[1024];
    char c0[32];
    snprintf(what, sizeof what, "%s %s, %s executions, %s instructions",
             lp_fmt_count(v->count, c0), noun, lp_fmt_count(execs, c1), lp_fmt_count(insns, c2));
    lp__report_heading(title, what, o, v->count, v);
    if (v->count == 0) {
        lp__report_none(noun);
        free(rows);
        return 0;
    }
    const char *heading[] = {by_insns ? "instructions" : "executions",
                             "%",
                             by_insns ? "executions" : "instructions",
                             "insns/exec",
                             column,
                             "function (location)"};
    lp_tab t;
    lp_tab_init(&t, "rrrrll", heading);
    uint64_t total = by_insns ? insns : execs;
    for (size_t i = 0, n = lp__report_shown(o, v->count); i < n; i++) {
        const lp__report_row *r = &rows[i];
        lp_tab_cell(&t, "%s", lp_fmt_count(r->weight, c1));
        lp_tab_cell(&t, "%s", lp_fmt_percent(r->weight, total, pct));
        lp_tab_cell(&t, "%s", lp_fmt_count(by_insns ? r->v0 : r->v1, c2));
        lp_tab_cell(&t, "%s", lp_fmt_mean(r->v1, r->v0, mean));
        lp_tab_cell(&t, "0x%llx", (unsigned long long)r->a);
        lp_tab_cell(&t, "%s", lp_names_describe(nm, r->a, 1, name, sizeof name));
    }
    lp_tab_print(&t, stdout, 2);
    lp_tab_fini(&t);
    free(rows);
    return 0;
}

static int report_code_regions(lp_names *nm, const lp_report_view *v, const lp_report_opts *o)
{
    return report_exec_insns(nm, v, o, "Hot code regions", "branches", "branch");
}

static int report_methods(lp_names *nm, const lp_report_view *v, const lp_report_opts *o)
{
    lp__report_row *rows = calloc(v->count ? v->count : 1, sizeof *rows);
    if (!rows)
        return LP_ENOMEM;
    uint64_t calls = 0, back = 0;
    for (size_t i = 0; i < v->count; i++) {
        const lp_entry *e = &v->entries[i];
        rows[i] = (lp__report_row){e->key.a, e->key.b, e->v[0], e->v[1], 0, e->v[0]};
        calls += e->v[0];
        back += e->v[1];
    }
    qsort(rows, v->count, sizeof *rows, lp__report_row_cmp);
    char c1[32], c2[32], what[160], pct[16], name[1024];
    char c0[32];
    snprintf(what, sizeof what, "%s functions, %s invocations, %s backward branches taken",
             lp_fmt_count(v->count, c0), lp_fmt_count(calls, c1), lp_fmt_count(back, c2));
    lp__report_heading("Hot methods", what, o, v->count, v);
    if (v->count == 0) {
        lp__report_none("invocations");
        free(rows);
        return 0;
    }
    const char *heading[] = {"invocations", "%", "backward branches", "entry",
                             "function (location)"};
    lp_tab t;
    lp_tab_init(&t, "rrrll", heading);
    for (size_t i = 0, n = lp__report_shown(o, v->count); i < n; i++) {
        const lp__report_row *r = &rows[i];
        lp_tab_cell(&t, "%s", lp_fmt_count(r->v0, c1));
        lp_tab_cell(&t, "%s", lp_fmt_percent(r->v0, calls, pct));
        lp_tab_cell(&t, "%s", lp_fmt_count(r->v1, c2));
        lp_tab_cell(&t, "0x%llx", (unsigned long long)r->a);
        lp_tab_cell(&t, "%s", lp_names_describe(nm, r->a, 1, name, sizeof name));
    }
    lp_tab_print(&t, stdout, 2);
    lp_tab_fini(&t);
    free(rows);
    return 0;
}

/* Call pairs: per call site as recorded, or summed per (caller function,
 * callee function), the caller being the function that holds the site. */
static int report_call_pairs(lp_names *nm, const lp_report_view *v, const lp_report_opts *o)
{
    lp__report_row *rows = calloc(v->count ? v->count : 1, sizeof *rows);
    if (!rows)
        return LP_ENOMEM;
    size_t nrows = 0;
    uint64_t calls = 0, tails = 0;
    for (size_t i = 0; i < v->count; i++) {
        calls += v->entries[i].v[0];
        tails += v->entries[i].v[1];
    }
    if (o->by_site) {
        for (size_t i = 0; i < v->count; i++) {
            const lp_entry *e = &v->entries[i];
            rows[nrows++] = (lp__report_row){e->key.a, e->key.b, e->v[0], e->v[1], 1, e->v[0]};
        }
    } else {
        lp_table agg;
        if (lp_table_init(&agg, v->count) != 0) {
            free(rows);
            return LP_ENOMEM;
        }
        for (size_t i = 0; i < v->count; i++) {
            const lp_entry *e = &v->entries[i];
            lp_key k = {lp_names_start(nm, e->key.a), lp_names_start(nm, e->key.b)};
            lp_entry *x = lp_table_find(&agg, k);
            if (!x) {
                x = lp_table_upsert(&agg, k);
                if (!x) {
                    lp_table_fini(&agg);
                    free(rows);
                    return LP_ENOMEM;
                }
                /* v[1] of the table holds the row index; the row the sums. */
                x->v[1] = nrows;
                rows[nrows++] = (lp__report_row){k.a, k.b, 0, 0, 0, 0};
            }
            lp__report_row *r = &rows[x->v[1]];
            r->v0 += e->v[0];
            r->v1 += e->v[1];
            r->aux++;
            r->weight = r->v0;
        }
        lp_table_fini(&agg);
    }
    qsort(rows, nrows, sizeof *rows, lp__report_row_cmp);
    char c1[32], c2[32], c3[32], what[200], pct[16], caller[1024], callee[1024];
    char c4[32], c5[32];
    snprintf(what, sizeof what, "%s %s, %s call sites, %s calls (%s tail calls)",
             lp_fmt_count(nrows, c4),
             o->by_site ? "site -> callee pairs" : "caller -> callee function pairs",
             lp_fmt_count(v->count, c5), lp_fmt_count(calls, c1), lp_fmt_count(tails, c2));
    lp__report_heading("Hot call pairs", what, o, nrows, v);
    if (nrows == 0) {
        lp__report_none("calls");
        free(rows);
        return 0;
    }
    const char *heading[] = {"calls", "%", "tail calls", o->by_site ? "call site" : "sites",
                             "caller → callee"};
    lp_tab t;
    lp_tab_init(&t, "rrrrl", heading);
    for (size_t i = 0, n = lp__report_shown(o, nrows); i < n; i++) {
        const lp__report_row *r = &rows[i];
        lp_tab_cell(&t, "%s", lp_fmt_count(r->v0, c1));
        lp_tab_cell(&t, "%s", lp_fmt_percent(r->v0, calls, pct));
        lp_tab_cell(&t, "%s", lp_fmt_count(r->v1, c2));
        if (o->by_site)
            lp_tab_cell(&t, "0x%llx", (unsigned long long)r->a);
        else
            lp_tab_cell(&t, "%s", lp_fmt_count(r->aux, c3));
        lp_tab_cell(&t, "%s → %s", lp_names_describe(nm, r->a, 1, caller, sizeof caller),
                     lp_names_describe(nm, r->b, 1, callee, sizeof callee));
    }
    lp_tab_print(&t, stdout, 2);
    lp_tab_fini(&t);
    free(rows);
    return 0;
}

static int report_edges(lp_names *nm, const lp_report_view *v, const lp_report_opts *o)
{
    lp__report_row *rows = calloc(v->count ? v->count : 1, sizeof *rows);
    if (!rows)
        return LP_ENOMEM;
    uint64_t total = 0;
    for (size_t i = 0; i < v->count; i++) {
        const lp_entry *e = &v->entries[i];
        rows[i] = (lp__report_row){e->key.a, e->key.b, e->v[0], e->v[1], 0, e->v[0]};
        total += e->v[0];
    }
    qsort(rows, v->count, sizeof *rows, lp__report_row_cmp);
    char c1[32], what[160], pct[16], from[1024], to[1024];
    char c0[32];
    snprintf(what, sizeof what, "%s edges, %s transfers", lp_fmt_count(v->count, c0),
             lp_fmt_count(total, c1));
    lp__report_heading("Hot edges", what, o, v->count, v);
    if (v->count == 0) {
        lp__report_none("edges");
        free(rows);
        return 0;
    }
    const char *heading[] = {"transfers", "%", "branch", "destination", "from → to"};
    lp_tab t;
    lp_tab_init(&t, "rrlll", heading);
    for (size_t i = 0, n = lp__report_shown(o, v->count); i < n; i++) {
        const lp__report_row *r = &rows[i];
        lp_symbol s_from, s_to;
        lp_symbolize(nm->sym, r->a, &s_from);
        lp_symbolize(nm->sym, r->b, &s_to);
        /* Within one function the destination needs only its line. */
        int same = s_from.function && s_to.function && s_from.function_entry == s_to.function_entry;
        lp_tab_cell(&t, "%s", lp_fmt_count(r->v0, c1));
        lp_tab_cell(&t, "%s", lp_fmt_percent(r->v0, total, pct));
        lp_tab_cell(&t, "0x%llx", (unsigned long long)r->a);
        lp_tab_cell(&t, "0x%llx", (unsigned long long)r->b);
        lp_tab_cell(&t, "%s → %s", lp_names_describe(nm, r->a, 1, from, sizeof from),
                     lp_names_describe(nm, r->b, !same, to, sizeof to));
    }
    lp_tab_print(&t, stdout, 2);
    lp_tab_fini(&t);
    free(rows);
    return 0;
}

static int report_blocks(lp_names *nm, const lp_report_view *v, const lp_report_opts *o)
{
    return report_exec_insns(nm, v, o, "Hot basic blocks", "blocks", "block");
}

/* A loaded value as the load saw it: hex, and decimal read as a signed
 * integer of the access size (so -1 reads as -1, not 4294967295). */
void lp__report_value_text(uint64_t value, uint64_t size, char *buf, size_t bufsize)
{
    int64_t sval = (int64_t)value;
    if (size == 1)
        sval = (int8_t)value;
    else if (size == 2)
        sval = (int16_t)value;
    else if (size == 4)
        sval = (int32_t)value;
    snprintf(buf, bufsize, "%lld", (long long)sval);
}

/* Load values: the view is sorted by (load pc, value), so each load's values
 * are one run of entries; loads are ranked by their total count, values
 * within a load by count. */
static int report_values(lp_names *nm, const lp_report_view *v, const lp_report_opts *o)
{
    lp__report_row *loads = calloc(v->count ? v->count : 1, sizeof *loads);
    lp__report_row *vals = calloc(v->count ? v->count : 1, sizeof *vals);
    if (!loads || !vals) {
        free(loads);
        free(vals);
        return LP_ENOMEM;
    }
    size_t nloads = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < v->count;) {
        size_t j = i;
        lp__report_row r = {v->entries[i].key.a, i, 0, 0, 0, 0};
        for (; j < v->count && v->entries[j].key.a == r.a; j++) {
            r.v0 += v->entries[j].v[0];
            if (v->entries[j].v[1] > r.v1)
                r.v1 = v->entries[j].v[1];
        }
        r.aux = j - i; /* distinct values; b holds the first entry's index */
        r.weight = r.v0;
        total += r.v0;
        loads[nloads++] = r;
        i = j;
    }
    qsort(loads, nloads, sizeof *loads, lp__report_row_cmp);
    char c1[32], c2[32], what[200], pct[16], name[1024], dec[32];
    char c3[32], c4[32];
    snprintf(what, sizeof what, "%s static loads, %s distinct (load, value) pairs, %s loads",
             lp_fmt_count(nloads, c3), lp_fmt_count(v->count, c4), lp_fmt_count(total, c1));
    lp__report_heading("Load values", what, o, nloads, v);
    if (nloads == 0) {
        lp__report_none("loads");
        free(loads);
        free(vals);
        return 0;
    }
    if (o->values_top)
        printf("  (at most %llu values per load)\n", (unsigned long long)o->values_top);
    const char *heading[] = {"count",           "%",
                             "values",          "bytes",
                             "load pc / value", "function (location) / value in decimal"};
    lp_tab t;
    lp_tab_init(&t, "rrrrll", heading);
    for (size_t i = 0, n = lp__report_shown(o, nloads); i < n; i++) {
        const lp__report_row *l = &loads[i];
        lp_tab_cell(&t, "%s", lp_fmt_count(l->v0, c1));
        lp_tab_cell(&t, "%s", lp_fmt_percent(l->v0, total, pct));
        lp_tab_cell(&t, "%s", lp_fmt_count(l->aux, c2));
        lp_tab_cell(&t, "%llu", (unsigned long long)l->v1);
        lp_tab_cell(&t, "0x%llx", (unsigned long long)l->a);
        lp_tab_cell(&t, "%s", lp_names_describe(nm, l->a, 1, name, sizeof name));
        size_t first = (size_t)l->b;
        for (size_t k = 0; k < l->aux; k++) {
            const lp_entry *e = &v->entries[first + k];
            vals[k] = (lp__report_row){e->key.b, 0, e->v[0], e->v[1], 0, e->v[0]};
        }
        qsort(vals, l->aux, sizeof *vals, lp__report_row_cmp);
        size_t nv = o->values_top == 0 || o->values_top > l->aux ? l->aux : o->values_top;
        for (size_t k = 0; k < nv; k++) {
            lp_tab_cell(&t, "%s", lp_fmt_count(vals[k].v0, c1));
            lp_tab_cell(&t, "%s", lp_fmt_percent(vals[k].v0, l->v0, pct));
            lp_tab_cell(&t, "%s", "");
            lp_tab_cell(&t, "%s", "");
            lp_tab_cell(&t, "  = 0x%llx", (unsigned long long)vals[k].a);
            lp__report_value_text(vals[k].a, vals[k].v1, dec, sizeof dec);
            lp_tab_cell(&t, "  %s", dec);
        }
        if (nv < l->aux) {
            uint64_t rest = 0;
            for (size_t k = nv; k < l->aux; k++)
                rest += vals[k].v0;
            lp_tab_cell(&t, "%s", lp_fmt_count(rest, c1));
            lp_tab_cell(&t, "%s", lp_fmt_percent(rest, l->v0, pct));
            lp_tab_cell(&t, "%s", "");
            lp_tab_cell(&t, "%s", "");
            lp_tab_cell(&t, "  (%s others)", lp_fmt_count(l->aux - nv, c2));
            lp_tab_cell(&t, "%s", "");
        }
    }
    lp_tab_print(&t, stdout, 2);
    lp_tab_fini(&t);
    free(loads);
    free(vals);
    return 0;
}

/* call-graph (caller entry, callee entry), call-target (indirect site,
 * target) and streams (id, length): a count per key pair. */
static int report_pairs(lp_names *nm, unsigned type, const lp_report_view *v, const lp_report_opts *o)
{
    lp__report_row *rows = calloc(v->count ? v->count : 1, sizeof *rows);
    if (!rows)
        return LP_ENOMEM;
    uint64_t total = 0;
    for (size_t i = 0; i < v->count; i++) {
        const lp_entry *e = &v->entries[i];
        rows[i] = (lp__report_row){e->key.a, e->key.b, e->v[0], e->v[1], 0, e->v[0]};
        total += e->v[0];
    }
    qsort(rows, v->count, sizeof *rows, lp__report_row_cmp);
    const char *title = type == LP_PROF_CALL_GRAPH ? "Call graph" : "Call targets";
    const char *counter = lp_report_counter_name(type, 0);
    char c1[32], c2[32], what[160], pct[16], x[1024], y[1024];
    snprintf(what, sizeof what, "%s entries, %s %s", lp_fmt_count(v->count, c2),
             lp_fmt_count(total, c1), counter);
    lp__report_heading(title, what, o, v->count, v);
    if (v->count == 0) {
        lp__report_none("entries");
        free(rows);
        return 0;
    }
    lp_tab t;
    {
        const char *heading[] = {
            counter, "%", type == LP_PROF_CALL_GRAPH ? "caller → callee" : "call site → target"};
        lp_tab_init(&t, "rrl", heading);
    }
    for (size_t i = 0, n = lp__report_shown(o, v->count); i < n; i++) {
        const lp__report_row *r = &rows[i];
        lp_tab_cell(&t, "%s", lp_fmt_count(r->v0, c1));
        lp_tab_cell(&t, "%s", lp_fmt_percent(r->v0, total, pct));
        lp_tab_cell(&t, "%s → %s", lp_names_describe(nm, r->a, 1, x, sizeof x),
                    lp_names_describe(nm, r->b, 1, y, sizeof y));
    }
    lp_tab_print(&t, stdout, 2);
    lp_tab_fini(&t);
    free(rows);
    return 0;
}

/* ---- header --------------------------------------------------------------------- */

/* The function and line of the fault that ended the run (the native
 * runtime's fault-pc and fault-address), below its status. */
static void report_fault(const lp_meta *m, lp_names *names)
{
    const char *pc_text = lp_meta_get(m, "fault-pc"), *addr = lp_meta_get(m, "fault-address");
    char *end;
    if (!pc_text)
        return;
    uint64_t pc = strtoull(pc_text, &end, 0);
    char where[512];
    printf("  fault         at %s, pc %s, address %s\n",
           *end || end == pc_text ? "?" : lp_names_describe(names, pc, 1, where, sizeof where),
           pc_text, addr ? addr : "?");
}

static void report_header(const char *path, const lp_profile_set *s, lp_names *names)
{
    const lp_meta *m = &s->meta;
    const char *program = lp_meta_get(m, "program");
    const char *args = lp_meta_get(m, "args");
    const char *insns = lp_meta_get(m, "instructions");
    const char *complete = lp_meta_get(m, "complete");
    const char *reason = lp_meta_get(m, "incomplete-reason");
    const char *exit_status = lp_meta_get(m, "exit-status");
    printf("lowprof report: %s\n", path);
    const char *command = lp_meta_get(m, "command");
    printf("  program       %s\n", program ? program : "?");
    const char *runs = lp_meta_get(m, "runs");
    if (runs) {
        /* A collector's merge: many runs, no one command or status. */
        const char *devices = lp_meta_get(m, "devices"), *bid = lp_meta_get(m, "build-id");
        const char *partial = lp_meta_get(m, "incomplete-runs");
        uint64_t total = 0;
        char c[32];
        printf("  build         %s\n", bid ? bid : "?");
        printf("  merged        %s runs from %s devices", runs, devices ? devices : "?");
        if (partial && strcmp(partial, "0") != 0)
            printf(", %s of them incomplete", partial);
        printf(" (the collector's estimate)\n");
        if (insns && lp_host_parse_count(insns, &total) == 0 && total)
            printf("  instructions  %s, summed over the runs\n", lp_fmt_count(total, c));
        return;
    }
    /* Recordings give the whole command line; other writers the arguments. */
    if (command)
        printf("  command       %s\n", command);
    if (args || !command)
        printf("  arguments     %s\n", args ? args : "");
    uint64_t n;
    char c[32];
    if (insns && lp_host_parse_count(insns, &n) == 0)
        printf("  instructions  %s\n", lp_fmt_count(n, c));
    else
        printf("  instructions  %s\n",
               insns                                  ? insns
               : lp_meta_get(m, "cpu-ns") ? "not counted (the native runtime measures CPU time)"
                                          : "?");
    if (complete && strcmp(complete, "no") == 0)
        printf("  status        INCOMPLETE: %s", reason && reason[0] ? reason : "reason unknown");
    else if (complete && strcmp(complete, "yes") == 0)
        printf("  status        complete");
    else
        printf("  status        %s", complete ? complete : "unknown");
    if (exit_status)
        printf(", exit status %s", exit_status);
    printf("\n");
    report_fault(m, names);
}

/* Whether a stream compressor estimated the profile of type (the tool lists
 * those types in "estimated-types"). */
static int report_is_estimated(const lp_meta *m, unsigned type)
{
    const char *list = lp_meta_get(m, "estimated-types");
    const char *name = lp_profile_type_name(type);
    size_t n = strlen(name);
    for (const char *s = list; s && *s;) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == n && strncmp(s, name, n) == 0)
            return 1;
        s = e ? e + 1 : s + len;
    }
    return 0;
}

/* The cost of collecting the compressed profiles, in the paper's model. */
static void report_compressor(const lp_meta *m)
{
    const char *spec = lp_meta_get(m, "compressor");
    if (!spec)
        return;
    uint64_t tuples = 0, msgs = 0, first = 0, irqs = 0, cycles = 0, insns = 0;
    lp_host_parse_count(lp_meta_get(m, "compressor-tuples"), &tuples);
    lp_host_parse_count(lp_meta_get(m, "compressor-messages"), &msgs);
    lp_host_parse_count(lp_meta_get(m, "compressor-first-level-messages"), &first);
    lp_host_parse_count(lp_meta_get(m, "compressor-interrupts"), &irqs);
    lp_host_parse_count(lp_meta_get(m, "compressor-cycles"), &cycles);
    lp_host_parse_count(lp_meta_get(m, "instructions"), &insns);
    char a[32], b[32], c[32], d[32], e[32];
    const char *types = lp_meta_get(m, "estimated-types");
    printf("  compressor    %s over %s tuples\n", spec, types ? types : "?");
    printf("                %s tuples -> %s messages", lp_fmt_count(tuples, a),
           lp_fmt_count(msgs, b));
    if (first != msgs)
        printf(" (%s from the first level)", lp_fmt_count(first, c));
    printf(", %s interrupts\n", lp_fmt_count(irqs, d));
    printf("                %s modeled cycles", lp_fmt_count(cycles, e));
    if (insns)
        printf(" = %.2f%% of the program's instructions", 100.0 * (double)cycles / (double)insns);
    const char *ci = lp_meta_get(m, "cost-cycles-per-interrupt");
    const char *cm = lp_meta_get(m, "cost-cycles-per-message");
    const char *cb = lp_meta_get(m, "cost-buffer-messages");
    if (ci && cm && cb)
        printf(" (%s per interrupt of %s messages, %s per message)", ci, cb, cm);
    printf("\n");
}

/* What an ACF (or the software sampling framework) switched on, and what
 * it cost: the profiles then hold the sampled events only. */
static void report_hps(const lp_meta *m)
{
    const char *mode = lp_meta_get(m, "hps-mode");
    if (!mode)
        return;
    uint64_t repl = 0, insns = 0, trig_on = 0, trig_off = 0, checks = 0, bursts = 0;
    lp_host_parse_count(lp_meta_get(m, "hps-replacements"), &repl);
    lp_host_parse_count(lp_meta_get(m, "instructions"), &insns);
    lp_host_parse_count(lp_meta_get(m, "hps-triggers-on"), &trig_on);
    lp_host_parse_count(lp_meta_get(m, "hps-triggers-off"), &trig_off);
    char a[32], b[32], c[32];
    if (strcmp(mode, "software-framework") == 0) {
        lp_host_parse_count(lp_meta_get(m, "ar-checks"), &checks);
        lp_host_parse_count(lp_meta_get(m, "ar-bursts"), &bursts);
        printf("  sampling      software framework, %s checks between bursts, %s per burst: "
               "%s checks, %s bursts\n",
               lp_meta_get(m, "ar-n-check"), lp_meta_get(m, "ar-n-instr"),
               lp_fmt_count(checks, a), lp_fmt_count(bursts, b));
        return;
    }
    const char *acf = lp_meta_get(m, "acf");
    printf("  acf           %s (%s mode): %s replacements", acf ? acf : "?", mode,
           lp_fmt_count(repl, a));
    if (insns)
        printf(", %.3f%% of the program's instructions", 100.0 * (double)repl / (double)insns);
    printf("\n                triggers: %s on, %s off; counts are of sampled events\n",
           lp_fmt_count(trig_on, b), lp_fmt_count(trig_off, c));
}

/* Parses "id*count,..." (the phase-ID trace) into a fresh array of one
 * phase per interval; NULL when absent or malformed. */
static uint32_t *report_phase_trace(const char *text, size_t *out_n)
{
    *out_n = 0;
    if (!text)
        return NULL;
    size_t n = 0, cap = 0;
    uint32_t *tr = NULL;
    for (const char *s = text; *s;) {
        char *end;
        unsigned long id = strtoul(s, &end, 10);
        if (end == s || *end != '*')
            goto bad;
        s = end + 1;
        unsigned long long run = strtoull(s, &end, 10);
        if (end == s || run == 0 || run > (1u << 24) || (*end && *end != ','))
            goto bad;
        s = *end ? end + 1 : end;
        if (n + run > cap) {
            cap = 2 * (n + run);
            uint32_t *g = realloc(tr, cap * sizeof *tr);
            if (!g)
                goto bad;
            tr = g;
        }
        for (unsigned long long i = 0; i < run; i++)
            tr[n++] = (uint32_t)id;
    }
    *out_n = n;
    return tr;
bad:
    free(tr);
    return NULL;
}

static char report_phase_char(uint32_t id)
{
    static const char digits[] =
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    return id < sizeof digits - 1 ? digits[id] : '#';
}

/* The strategy, the phases and a timeline, for a recording made with
 * lowprof record --strategy. */
static void report_sampling(const lp_meta *m)
{
    const char *strategy = lp_meta_get(m, "strategy");
    if (!strategy)
        return;
    if (strcmp(strategy, "bursty") == 0 || strcmp(strategy, "bursty-checks") == 0) {
        lp__report_bursty(m);
        return;
    }
    uint64_t sampled = 0, intervals = 0, insns = 0, sampled_insns = 0, preds = 0, right = 0;
    uint64_t unrep = 0, resamples = 0, profile_calls = 0, sig_calls = 0;
    lp_host_parse_count(lp_meta_get(m, "sampled-intervals"), &sampled);
    lp_host_parse_count(lp_meta_get(m, "intervals"), &intervals);
    lp_host_parse_count(lp_meta_get(m, "instructions"), &insns);
    lp_host_parse_count(lp_meta_get(m, "sampled-instructions"), &sampled_insns);
    lp_host_parse_count(lp_meta_get(m, "phase-predictions"), &preds);
    lp_host_parse_count(lp_meta_get(m, "phase-predictions-correct"), &right);
    lp_host_parse_count(lp_meta_get(m, "phase-unrepresented-intervals"), &unrep);
    lp_host_parse_count(lp_meta_get(m, "phase-resamples"), &resamples);
    lp_host_parse_count(lp_meta_get(m, "profile-helper-calls"), &profile_calls);
    lp_host_parse_count(lp_meta_get(m, "signature-helper-calls"), &sig_calls);
    printf("\nSampling: %s", strategy);
    if (strcmp(strategy, "phase") == 0) {
        const char *thr = lp_meta_get(m, "phase-threshold"), *k = lp_meta_get(m, "phase-k");
        printf(" (threshold %s, interval %s of each phase", thr ? thr : "?", k ? k : "?");
        if (preds)
            printf(", next phase predicted right %.1f%% of the time",
                   100.0 * (double)right / (double)preds);
        printf(")");
    }
    uint64_t cpu = 0, on = 0, windows = 0;
    if (!intervals && lp_host_parse_count(lp_meta_get(m, "cpu-ns"), &cpu) == 0) {
        /* The native runtime switches in windows of CPU time, not intervals. */
        lp_host_parse_count(lp_meta_get(m, "profiled-cpu-ns"), &on);
        lp_host_parse_count(lp_meta_get(m, "windows"), &windows);
        printf("\n  %llu windows, on for %.3f s of %.3f s of CPU time (%.2f%%)",
               (unsigned long long)windows, (double)on / 1e9, (double)cpu / 1e9,
               cpu ? 100.0 * (double)on / (double)cpu : 0.0);
        uint64_t period = 0;
        if (windows == 0 && strcmp(strategy, "periodic") == 0 &&
            lp_host_parse_count(lp_meta_get(m, "period-ns"), &period) == 0)
            printf("\n  no window opened: the run ended before the first one, which starts "
                   "at a random\n  point of the first %.0f ms period; profile short runs "
                   "with LOWPROF=strategy=always\n  or a shorter period=",
                   (double)period / 1e6);
    } else {
        printf("\n  %llu of %llu intervals profiled, %.2f%% of the instructions",
               (unsigned long long)sampled, (unsigned long long)intervals,
               insns ? 100.0 * (double)sampled_insns / (double)insns : 0.0);
    }
    if (profile_calls + sig_calls)
        printf("; profiling helpers ran in %.2f%% of block executions",
               100.0 * (double)profile_calls / (double)(profile_calls + sig_calls));
    printf("\n");
    size_t n = 0;
    uint32_t *tr = report_phase_trace(lp_meta_get(m, "phase-trace"), &n);
    if (!tr || n == 0) {
        free(tr);
        return;
    }
    uint8_t *mark = calloc(n, 1);
    const char *list = lp_meta_get(m, "sampled");
    for (const char *s = list; s && *s && mark;) {
        char *end;
        unsigned long long iv = strtoull(s, &end, 10);
        if (end == s)
            break;
        if (iv < n)
            mark[iv] = 1;
        s = strchr(end, ',');
        s = s ? s + 1 : "";
    }
    uint32_t nphases = 0;
    for (size_t i = 0; i < n; i++)
        nphases = tr[i] + 1 > nphases ? tr[i] + 1 : nphases;
    printf("  %u phases", nphases);
    if (unrep) {
        const char *how = lp_meta_get(m, "phase-unrepresented-lent");
        const char *lent = !how                      ? "not in the estimate"
                           : strcmp(how, "yes") == 0 ? "lent to a neighbouring phase's profile"
                           : strcmp(how, "nearest-signature") == 0
                               ? "stood for by the samples nearest them in signature"
                           : strcmp(how, "scouted") == 0 ? "estimated from their own scout windows"
                                                         : "not in the estimate";
        /* Scouted runs lend the intervals that no scout counted. */
        const char *sf = lp_meta_get(m, "scouted-for-intervals");
        unsigned long long scouted = sf ? strtoull(sf, NULL, 10) : 0;
        if (how && strcmp(how, "scouted") == 0 && scouted < unrep)
            printf("; %llu intervals are in phases never profiled (%llu estimated from their own "
                   "scout windows, the rest lent to a neighbouring phase's profile)",
                   (unsigned long long)unrep, scouted);
        else
            printf("; %llu intervals are in phases never profiled (%s)", (unsigned long long)unrep,
                   lent);
    }
    /* Scouted intervals of profiled phases stand for themselves too. */
    const char *so = lp_meta_get(m, "scouted-own-intervals"),
               *sf = lp_meta_get(m, "scouted-for-intervals");
    unsigned long long own = so ? strtoull(so, NULL, 10) : 0,
                       never = sf ? strtoull(sf, NULL, 10) : 0;
    if (own > never)
        printf("; %llu intervals of profiled phases estimated from their own scout windows",
               own - never);
    if (resamples)
        printf("; %llu extra samples of phases already profiled",
               (unsigned long long)resamples);
    printf("\n  phase  intervals  share   profiled intervals\n");
    for (uint32_t p = 0; p < nphases && mark; p++) {
        size_t count = 0;
        for (size_t i = 0; i < n; i++)
            count += tr[i] == p;
        if (!count)
            continue;
        printf("  %5u  %9zu  %5.1f%%  ", p, count, 100.0 * (double)count / (double)n);
        int any = 0;
        for (size_t i = 0; i < n; i++)
            if (tr[i] == p && mark[i])
                printf("%s%zu", any++ ? "," : "", i);
        printf("%s\n", any ? "" : "-");
    }
    printf("  timeline: one character per interval (the phase, 0-9 a-z A-Z), '^' under "
           "the profiled ones\n");
    for (size_t row = 0; row < n && mark; row += 100) {
        size_t end = row + 100 < n ? row + 100 : n;
        printf("  %6zu  ", row);
        for (size_t i = row; i < end; i++)
            putchar(report_phase_char(tr[i]));
        printf("\n          ");
        for (size_t i = row; i < end; i++)
            putchar(mark[i] ? '^' : ' ');
        printf("\n");
    }
    free(mark);
    free(tr);
}

/* ---- the command ---------------------------------------------------------------- */

/* Section order: what a reader looks at first comes first. */
static const unsigned report_order[] = {
    LP_PROF_CODE_REGION, LP_PROF_METHOD,     LP_PROF_CALL_PAIR,   LP_PROF_EDGE,    LP_PROF_BLOCK,
    LP_PROF_VALUE,       LP_PROF_CALL_GRAPH, LP_PROF_CALL_TARGET, LP_PROF_STREAMS, LP_PROF_CONTEXT,
};

int lp_report_print(const char *path, const lp_profile_set *set, lp_names *names,
                    const lp_report_opts *opts)
{
    const lp_report_opts *o = opts;
    report_header(path, set, names);
    report_compressor(&set->meta);
    report_hps(&set->meta);
    report_sampling(&set->meta);
    if (o->phase != LP_PHASE_NONE)
        printf("  phase         %u\n", o->phase);

    int rc = 0, printed = 0;
    for (size_t k = 0; rc == 0 && k < sizeof report_order / sizeof report_order[0]; k++) {
        unsigned type = report_order[k];
        int asked = o->types && (o->types & (1u << type));
        if (o->types && !asked)
            continue;
        lp_report_view v;
        rc = lp_report_view_build(set, type, o->phase, &v);
        if (rc)
            break;
        if (report_is_estimated(&set->meta, type) || lp_meta_get(&set->meta, "hps-mode"))
            v.sampled = 1;
        if (v.merged == 0) {
            if (asked && o->types != ~1u)
                printf("\n(no %s profile in %s)\n", lp_profile_type_name(type), path);
            lp_report_view_fini(&v);
            continue;
        }
        printed++;
        switch (type) {
        case LP_PROF_CODE_REGION: rc = report_code_regions(names, &v, o); break;
        case LP_PROF_METHOD: rc = report_methods(names, &v, o); break;
        case LP_PROF_CALL_PAIR: rc = report_call_pairs(names, &v, o); break;
        case LP_PROF_EDGE: rc = report_edges(names, &v, o); break;
        case LP_PROF_BLOCK: rc = report_blocks(names, &v, o); break;
        case LP_PROF_VALUE:
            rc = lp_meta_get(&set->meta, "value-estimate")
                     ? lp__report_coproc_values(names, &v, o, &set->meta)
                     : report_values(names, &v, o);
            break;
        case LP_PROF_STREAMS: rc = lp__report_streams(names, &v, o, &set->meta); break;
        case LP_PROF_CONTEXT: rc = lp__report_contexts(names, &v, o, &set->meta); break;
        default: rc = report_pairs(names, type, &v, o); break;
        }
        lp_report_view_fini(&v);
    }
    if (rc == 0 && printed == 0)
        printf("\n(no profiles%s in %s)\n", o->phase != LP_PHASE_NONE ? " for this phase" : "",
               path);
    return rc;
}
