/* analysis: the JSON report of `lowprof analyze checks --json`, the text
 * report's content for scripts (doc/lowprof-analyze.md lists the keys).
 * Addresses are strings ("0x1139") so that no JSON reader rounds them;
 * a distance no root reaches is null. */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "analysis_internal.h"

static const char *lp__an_bool(int v)
{
    return v ? "true" : "false";
}

static void lp__an_key(lp__an_out *o, const char *key)
{
    lp__an_printf(o, "\"%s\": ", key);
}

/* A JSON array of the names of functions with pick true. */
static void lp__an_name_array(lp__an_out *o, const lp_analysis *a,
                              int (*pick)(const lp_analysis_fn *))
{
    int first = 1;
    lp__an_puts(o, "[");
    for (uint32_t i = 0; i < a->n_fns; i++) {
        if (!pick(&a->fns[i]))
            continue;
        lp__an_puts(o, first ? "" : ", ");
        lp__an_json_string(o, a->fns[i].name);
        first = 0;
    }
    lp__an_puts(o, "]");
}

static int lp__an_is_c(const lp_analysis_fn *f)
{
    return f->facts.in_c;
}

static int lp__an_is_rec(const lp_analysis_fn *f)
{
    return f->facts.recursion_from_below;
}

static void lp__an_bits(lp__an_out *o, unsigned bits, const char *const *names, int n)
{
    int first = 1;
    lp__an_puts(o, "[");
    for (int k = 0; k < n; k++)
        if (bits & (1u << k)) {
            lp__an_printf(o, "%s\"%s\"", first ? "" : ", ", names[k]);
            first = 0;
        }
    lp__an_puts(o, "]");
}

static void lp__an_tally_json(lp__an_out *o, const lp_analysis_decision *d, size_t n)
{
    lp__an_tally t[24];
    size_t g = lp__an_tally_build(d, n, t, sizeof t / sizeof t[0]);
    lp__an_puts(o, "[");
    for (size_t i = 0; i < g; i++) {
        lp__an_printf(o, "%s{\"check\": %s, \"count\": %u, \"reason\": ", i ? ", " : "",
                      lp__an_bool(t[i].check), t[i].count);
        lp__an_json_string(o, t[i].label);
        lp__an_puts(o, "}");
    }
    lp__an_puts(o, "]");
}

static void lp__an_functions_json(lp__an_out *o, const lp_analysis *a,
                                  const lp_analysis_placement *pl)
{
    static const char *const from[] = {"symtab", "dynsym", "call", "pointer", "entry"};
    static const char *const root[] = {"entry", "main", "init", "fini", "exported", "ifunc"};
    static const char *const taken[] = {"data", "relocation", "lea", "immediate"};
    lp__an_puts(o, ",\n  \"functions\": [");
    for (uint32_t i = 0; i < a->n_fns; i++) {
        const lp_analysis_fn *f = &a->fns[i];
        char why[160];
        lp_analysis_decision_text(&pl->entry[i], why, sizeof why);
        lp__an_puts(o, i ? ",\n    {" : "\n    {");
        lp__an_key(o, "name");
        lp__an_json_string(o, f->name);
        lp__an_printf(o, ", \"address\": \"0x%llx\", \"size\": %llu, \"from\": ",
                      (unsigned long long)f->addr, (unsigned long long)f->size);
        lp__an_bits(o, f->from, from, 5);
        lp__an_printf(o, ", \"leaf\": %s, \"root\": ", lp__an_bool(f->flags & LP_BURSTY_FN_LEAF));
        lp__an_bits(o, f->root_why, root, 6);
        lp__an_puts(o, ", \"address_taken\": ");
        lp__an_bits(o, f->taken_why, taken, 4);
        lp__an_printf(o,
                      ", \"instructions\": %u, \"blocks\": %u, \"direct_calls\": %u, "
                      "\"external_calls\": %u, \"indirect_calls\": %u, \"tail_jumps\": %u, "
                      "\"loops\": %u, \"scc\": %u, \"distance\": ",
                      f->insns, f->blocks, f->direct_calls, f->external_calls, f->indirect_calls,
                      f->tail_jumps, f->loops, f->facts.scc);
        if (f->facts.distance == LP_BURSTY_UNREACHABLE)
            lp__an_puts(o, "null");
        else
            lp__an_printf(o, "%u", f->facts.distance);
        lp__an_printf(o, ", \"recursion_from_below\": %s, \"in_c\": %s, \"entry_check\": %s, "
                         "\"reason\": ",
                      lp__an_bool(f->facts.recursion_from_below), lp__an_bool(f->facts.in_c),
                      lp__an_bool(pl->entry[i].check));
        lp__an_json_string(o, why);
        lp__an_puts(o, "}");
    }
    lp__an_puts(o, "\n  ],\n  \"edges\": [");
    for (size_t e = 0; e < a->n_calls; e++)
        lp__an_printf(o, "%s[%u, %u]", e ? ", " : "", a->calls[e].caller, a->calls[e].callee);
    lp__an_puts(o, "],\n  \"loops\": [");
    const lp_analysis_loop *loops = a->loops.data;
    const lp_analysis_back_edge *be = a->back_edges.data;
    uint32_t k = lp__an_report_k(&pl->placement);
    for (size_t i = 0; i < a->loops.count; i++) {
        const lp_analysis_loop *l = &loops[i];
        lp__an_puts(o, i ? ",\n    {\"function\": " : "\n    {\"function\": ");
        lp__an_json_string(o, a->fns[l->fn].name);
        lp__an_printf(o, ", \"function_index\": %u, \"header\": \"0x%llx\", \"depth\": %u, "
                         "\"parent\": ",
                      l->fn, (unsigned long long)l->header, l->depth);
        if (l->parent == UINT32_MAX)
            lp__an_puts(o, "null");
        else
            lp__an_printf(o, "%u", l->parent);
        lp__an_printf(o, ", \"blocks\": %u, \"instructions\": %u, \"events\": %u, \"has_call\": "
                         "%s, \"boring\": %s, \"back_edges\": [",
                      l->blocks, l->insns, l->facts.events, lp__an_bool(l->facts.has_call),
                      lp__an_bool(lp_bursty_loop_is_boring(&l->facts, k)));
        for (uint32_t j = 0; j < l->back_edges; j++) {
            uint32_t e = l->first_back_edge + j;
            char why[160];
            lp_analysis_decision_text(&pl->back_edge[e], why, sizeof why);
            lp__an_printf(o, "%s{\"from\": \"0x%llx\", \"to\": \"0x%llx\", \"check\": %s, "
                             "\"reason\": ",
                          j ? ", " : "", (unsigned long long)be[e].from,
                          (unsigned long long)be[e].to, lp__an_bool(pl->back_edge[e].check));
            lp__an_json_string(o, why);
            lp__an_puts(o, "}");
        }
        lp__an_puts(o, "]}");
    }
    lp__an_puts(o, "\n  ]");
}

int lp_analysis_write_json(const lp_analysis *a, const lp_analysis_placement *pl, int all,
                           lp_sink *out)
{
    lp__an_out o = {.sink = out};
    const lp_analysis_summary *s = &a->sum;
    char pname[64];
    lp_bursty_placement_format(&pl->placement, pname, sizeof pname);
    uint32_t k = lp__an_report_k(&pl->placement), boring = 0;
    const lp_analysis_loop *loops = a->loops.data;
    for (size_t i = 0; i < a->loops.count; i++)
        boring += lp_bursty_loop_is_boring(&loops[i].facts, k);

    lp__an_puts(&o, "{\n  \"file\": ");
    lp__an_json_string(&o, a->name);
    lp__an_printf(&o, ",\n  \"kind\": \"%s\", \"elf_type\": \"%s\", \"entry\": \"0x%llx\",\n",
                  lp__an_kind_name(s->kind), a->elf_type == ET_EXEC ? "ET_EXEC" : "ET_DYN",
                  (unsigned long long)s->entry);
    lp__an_printf(&o, "  \"code\": {\"sections\": %u, \"bytes\": %llu, \"instructions\": %llu, "
                      "\"undecodable_bytes\": %llu},\n",
                  s->code_sections, (unsigned long long)s->code_bytes,
                  (unsigned long long)s->insns, (unsigned long long)s->bad_bytes);
    lp__an_printf(&o,
                  "  \"call_graph\": {\"functions\": %u, \"from_symbols\": %u, \"from_calls\": %u, "
                  "\"from_pointers\": %u, \"edges\": %u, \"direct_calls\": %llu, "
                  "\"external_calls\": %llu, \"indirect_calls\": %llu, \"tail_jumps\": %llu, "
                  "\"roots\": %u, \"leaves\": %u, \"address_taken\": %u, \"sccs\": %u, "
                  "\"recursion_from_below\": %u, \"set_c\": %u},\n",
                  s->fns, s->fns_symbol, s->fns_call, s->fns_pointer, s->edges,
                  (unsigned long long)s->direct_calls, (unsigned long long)s->external_calls,
                  (unsigned long long)s->indirect_calls, (unsigned long long)s->tail_jumps,
                  s->roots, s->leaves, s->addr_taken, s->sccs, s->recursion_from_below, s->set_c);
    lp__an_puts(&o, "  \"sccs\": [");
    for (uint32_t i = 0; i < s->sccs; i++) {
        const uint32_t *m;
        uint32_t n = lp_analysis_scc_get(a, i, &m);
        lp__an_puts(&o, i ? ", [" : "[");
        for (uint32_t j = 0; j < n; j++) {
            lp__an_puts(&o, j ? ", " : "");
            lp__an_json_string(&o, a->fns[m[j]].name);
        }
        lp__an_puts(&o, "]");
    }
    lp__an_puts(&o, "],\n  \"recursion_from_below\": ");
    lp__an_name_array(&o, a, lp__an_is_rec);
    lp__an_puts(&o, ",\n  \"set_c\": ");
    lp__an_name_array(&o, a, lp__an_is_c);
    lp__an_printf(&o, ",\n  \"loops_summary\": {\"loops\": %u, \"back_edges\": %u, \"max_depth\": "
                      "%u, \"k\": %u, \"boring\": %u},\n",
                  s->loops, s->back_edges, s->max_depth, k, boring);
    lp__an_puts(&o, "  \"placement\": {\"name\": ");
    lp__an_json_string(&o, pname);
    lp__an_printf(&o, ", \"entry_checks\": %u, \"procedures\": %u, \"back_edge_checks\": %u, "
                      "\"back_edges\": %u,\n    \"entry_decisions\": ",
                  pl->entry_checks, s->fns, pl->back_edge_checks, s->back_edges);
    lp__an_tally_json(&o, pl->entry, s->fns);
    lp__an_puts(&o, ",\n    \"back_edge_decisions\": ");
    lp__an_tally_json(&o, pl->back_edge, s->back_edges);
    lp__an_puts(&o, "}");
    if (all)
        lp__an_functions_json(&o, a, pl);
    lp__an_puts(&o, "\n}\n");
    return o.rc;
}
