/* analysis: the text report of `lowprof analyze checks` (its layout is
 * documented in doc/lowprof-analyze.md): the file, the direct call graph,
 * the components that can recurse, recursion from below, the set C, the
 * loops and k-boring loops, and the placement's checks with the decisions
 * grouped by reason; with `all`, every function and every back-edge. */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "analysis_internal.h"

/* Names listed in a summary line before "and N more". */
#define LP__AN_SHORT_LIST 12

static void lp__an_flag_text(const lp_analysis_fn *f, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s%s%s", f->flags & LP_BURSTY_FN_LEAF ? "leaf " : "",
             f->flags & LP_BURSTY_FN_ROOT ? "root " : "",
             f->flags & LP_BURSTY_FN_ADDR_TAKEN ? "taken " : "",
             f->facts.recursion_from_below ? "rec " : "");
    size_t n = strlen(buf);
    if (n)
        buf[n - 1] = '\0';
    else
        snprintf(buf, cap, "-");
}

/* Writes the names of the functions i with pick(a, i) true, comma
 * separated, at most `limit` of them (0: all), then "and N more". */
static void lp__an_names(lp__an_out *o, const lp_analysis *a, int (*pick)(const lp_analysis_fn *),
                         uint32_t limit)
{
    uint32_t shown = 0, more = 0;
    for (uint32_t i = 0; i < a->n_fns; i++) {
        if (!pick(&a->fns[i]))
            continue;
        if (limit && shown == limit) {
            more++;
            continue;
        }
        lp__an_puts(o, shown ? ", " : "");
        lp__an_text_name(o, a->fns[i].name);
        shown++;
    }
    if (more)
        lp__an_printf(o, ", and %u more", more);
}

static int lp__an_pick_c(const lp_analysis_fn *f)
{
    return f->facts.in_c;
}

static int lp__an_pick_rec(const lp_analysis_fn *f)
{
    return f->facts.recursion_from_below;
}

static void lp__an_roots_line(lp__an_out *o, const lp_analysis *a)
{
    static const char *const why[] = {"entry", "main", "init", "fini", "exported", "ifunc"};
    uint32_t count[6] = {0};
    for (uint32_t i = 0; i < a->n_fns; i++)
        for (int k = 0; k < 6; k++)
            count[k] += (a->fns[i].root_why >> k) & 1;
    lp__an_printf(o, "roots             %u", a->sum.roots);
    const char *sep = " (";
    for (int k = 0; k < 6; k++)
        if (count[k]) {
            lp__an_printf(o, "%s%s %u", sep, why[k], count[k]);
            sep = ", ";
        }
    lp__an_puts(o, sep[0] == ',' ? ")\n" : "\n");
}

static void lp__an_sccs_text(lp__an_out *o, const lp_analysis *a, int all)
{
    lp__an_printf(o, "recursive SCCs    %u (more than one member, or a self-loop)\n", a->sum.sccs);
    uint32_t limit = all ? a->sum.sccs : (a->sum.sccs < 10 ? a->sum.sccs : 10);
    for (uint32_t i = 0; i < limit; i++) {
        const uint32_t *m;
        uint32_t n = lp_analysis_scc_get(a, i, &m);
        uint32_t show = all || n <= 8 ? n : 8;
        lp__an_printf(o, "  %u member%s: ", n, n == 1 ? "" : "s");
        for (uint32_t k = 0; k < show; k++) {
            lp__an_puts(o, k ? ", " : "");
            lp__an_text_name(o, a->fns[m[k]].name);
        }
        if (show < n)
            lp__an_printf(o, ", and %u more", n - show);
        lp__an_puts(o, "\n");
    }
    if (limit < a->sum.sccs)
        lp__an_printf(o, "  and %u more components (--functions lists them all)\n",
                      a->sum.sccs - limit);
}

static void lp__an_tally_text(lp__an_out *o, const lp_analysis_decision *d, size_t n)
{
    lp__an_tally t[24];
    size_t g = lp__an_tally_build(d, n, t, sizeof t / sizeof t[0]);
    for (size_t i = 0; i < g; i++)
        lp__an_printf(o, "  %-9s %8u  %s\n", t[i].check ? "check" : "no check", t[i].count,
                      t[i].label);
    if (!g)
        lp__an_puts(o, "  (none)\n");
}

static void lp__an_functions_text(lp__an_out *o, const lp_analysis *a,
                                  const lp_analysis_placement *pl)
{
    lp__an_puts(o, "\nfunctions: address, name, flags (leaf root taken rec), distance from the "
                   "roots, SCC, entry decision\n");
    for (uint32_t i = 0; i < a->n_fns; i++) {
        const lp_analysis_fn *f = &a->fns[i];
        char flags[32], dist[16], why[160];
        lp__an_flag_text(f, flags, sizeof flags);
        if (f->facts.distance == LP_BURSTY_UNREACHABLE)
            snprintf(dist, sizeof dist, "-");
        else
            snprintf(dist, sizeof dist, "%u", f->facts.distance);
        lp_analysis_decision_text(&pl->entry[i], why, sizeof why);
        lp__an_printf(o, "  0x%-12llx ", (unsigned long long)f->addr);
        lp__an_text_name(o, f->name);
        lp__an_printf(o, "  [%s] dist %s scc %u: %s (%s)\n", flags, dist, f->facts.scc,
                      pl->entry[i].check ? "check" : "no check", why);
    }
    lp__an_puts(o, "\nloops: header in function, depth, blocks, events, call; each back-edge "
                   "and its decision\n");
    const lp_analysis_loop *loops = a->loops.data;
    const lp_analysis_back_edge *be = a->back_edges.data;
    for (size_t i = 0; i < a->loops.count; i++) {
        const lp_analysis_loop *l = &loops[i];
        lp__an_printf(o, "  0x%llx in ", (unsigned long long)l->header);
        lp__an_text_name(o, a->fns[l->fn].name);
        lp__an_printf(o, ": depth %u, %u blocks, %u events, %s\n", l->depth, l->blocks,
                      l->facts.events, l->facts.has_call ? "calls" : "no call");
        for (uint32_t k = 0; k < l->back_edges; k++) {
            uint32_t e = l->first_back_edge + k;
            char why[160];
            lp_analysis_decision_text(&pl->back_edge[e], why, sizeof why);
            lp__an_printf(o, "    back-edge 0x%llx -> 0x%llx: %s (%s)\n",
                          (unsigned long long)be[e].from, (unsigned long long)be[e].to,
                          pl->back_edge[e].check ? "check" : "no check", why);
        }
    }
}

int lp_analysis_write_text(const lp_analysis *a, const lp_analysis_placement *pl, int all,
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

    lp__an_puts(&o, "file              ");
    lp__an_text_name(&o, a->name);
    lp__an_printf(&o, "\nkind              x86-64 %s (%s), entry 0x%llx\n", lp__an_kind_name(s->kind),
                  a->elf_type == ET_EXEC ? "ET_EXEC" : "ET_DYN", (unsigned long long)s->entry);
    lp__an_printf(&o, "code              %u section%s, %llu bytes, %llu instructions, %llu "
                      "undecodable bytes\n",
                  s->code_sections, s->code_sections == 1 ? "" : "s",
                  (unsigned long long)s->code_bytes, (unsigned long long)s->insns,
                  (unsigned long long)s->bad_bytes);
    lp__an_printf(&o, "functions         %u (%u from symbols, %u direct call targets, %u taken "
                      "addresses or named entries)\n",
                  s->fns, s->fns_symbol, s->fns_call, s->fns_pointer);
    lp__an_printf(&o, "call graph        %u edges; call sites: %llu direct, %llu external (PLT), "
                      "%llu indirect; %llu tail jumps\n",
                  s->edges, (unsigned long long)s->direct_calls,
                  (unsigned long long)s->external_calls, (unsigned long long)s->indirect_calls,
                  (unsigned long long)s->tail_jumps);
    lp__an_roots_line(&o, a);
    lp__an_printf(&o, "leaves            %u\n", s->leaves);
    lp__an_printf(&o, "address-taken     %u\n", s->addr_taken);
    lp__an_sccs_text(&o, a, all);
    lp__an_printf(&o, "recursion from below %u", s->recursion_from_below);
    lp__an_puts(&o, s->recursion_from_below ? ": " : "");
    lp__an_names(&o, a, lp__an_pick_rec, all ? 0 : LP__AN_SHORT_LIST);
    lp__an_printf(&o, "\nset C             %u of %u functions (eq. 3: not a leaf, and a root, "
                      "address-taken or with recursion from below)\n  ",
                  s->set_c, s->fns);
    lp__an_names(&o, a, lp__an_pick_c, all ? 0 : LP__AN_SHORT_LIST);
    lp__an_printf(&o, "\nloops             %u natural loops, %u back-edges, nesting depth up to %u\n",
                  s->loops, s->back_edges, s->max_depth);
    lp__an_printf(&o, "k-boring loops    %u of %u at k = %u (no call, at most k memory "
                      "references)\n",
                  boring, s->loops, k);
    lp__an_printf(&o, "placement         %s\n", pname);
    lp__an_printf(&o, "entry checks      %u of %u procedure entries\n", pl->entry_checks, s->fns);
    lp__an_printf(&o, "back-edge checks  %u of %u back-edges\n", pl->back_edge_checks,
                  s->back_edges);
    lp__an_puts(&o, "\nentry decisions\n");
    lp__an_tally_text(&o, pl->entry, s->fns);
    lp__an_puts(&o, "back-edge decisions\n");
    lp__an_tally_text(&o, pl->back_edge, s->back_edges);
    if (all)
        lp__an_functions_text(&o, a, pl);
    else
        lp__an_puts(&o, "(--functions lists every function and back-edge with its decision)\n");
    return o.rc;
}
