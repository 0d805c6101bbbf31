/* The report's sections for estimated profiles (lowprof/report.h):
 * bursty tracing's figures and hot data streams (doc/bursty.md), and the
 * profiling co-processor's values (doc/value.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowprof/host.h"
#include "lowprof/value.h"
#include "report_internal.h"

/* Whether pc is in a "pc,pc,..." hex list of the metadata. */
static int report_pc_listed(const char *list, uint64_t pc)
{
    for (const char *p = list; p && *p;) {
        char *end;
        uint64_t v = strtoull(p, &end, 16);
        if (end == p)
            return 0;
        if (v == pc)
            return 1;
        p = *end == ',' ? end + 1 : end;
    }
    return 0;
}

/* The co-processor's estimated value profile (doc/value.md): loads by
 * estimated invariance (their top value's share of the samples they got),
 * most invariant first among those sampled enough to say, each with its
 * top values, the confidence of the invariance, and whether the
 * co-processor masked it as done; then what the profiling cost. */
int lp__report_coproc_values(lp_names *nm, const lp_report_view *v, const lp_report_opts *o,
                                const lp_meta *m)
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
        uint64_t top = 0;
        for (; j < v->count && v->entries[j].key.a == r.a; j++) {
            r.v0 += v->entries[j].v[0];
            if (v->entries[j].key.b != LP_VALUE_OTHER && v->entries[j].v[0] > top)
                top = v->entries[j].v[0];
        }
        r.aux = j - i;
        r.v1 = top;
        /* Sorted by invariance to two decimals, then by samples, so the
         * frequent loads lead each invariance band. */
        uint64_t band = r.v0 ? top * 100 / r.v0 : 0;
        r.weight = (band << 48) | (r.v0 < ((uint64_t)1 << 48) ? r.v0 : ((uint64_t)1 << 48) - 1);
        total += r.v0;
        loads[nloads++] = r;
        i = j;
    }
    qsort(loads, nloads, sizeof *loads, lp__report_row_cmp);
    const char *done = lp_meta_get(m, "coproc-done-pcs"), *phased = lp_meta_get(m, "coproc-phased-pcs");
    char c1[32], c2[32], what[200], pct[16], name[1024], dec[32];
    snprintf(what, sizeof what, "%s static loads, %s samples estimated by the co-processor",
             lp_fmt_count(nloads, c1), lp_fmt_count(total, c2));
    lp__report_heading("Load values (estimated)", what, o, nloads, v);
    uint64_t tagged = 0, samples = 0, dropped = 0, interrupts = 0, repl = 0, cycles = 0, ppm = 0;
    uint64_t masked = 0, alias_pc = 0, alias_value = 0, all = 0;
    lp_host_parse_count(lp_meta_get(m, "coproc-tagged"), &tagged);
    /* Recordings made before the total was kept lack it. */
    const char *loads_text = lp_meta_get(m, "coproc-loads");
    int have_all = loads_text && lp_host_parse_count(loads_text, &all) == 0;
    lp_host_parse_count(lp_meta_get(m, "coproc-samples"), &samples);
    lp_host_parse_count(lp_meta_get(m, "coproc-dropped"), &dropped);
    lp_host_parse_count(lp_meta_get(m, "coproc-interrupts"), &interrupts);
    lp_host_parse_count(lp_meta_get(m, "coproc-replacements"), &repl);
    lp_host_parse_count(lp_meta_get(m, "coproc-cycles"), &cycles);
    lp_host_parse_count(lp_meta_get(m, "coproc-overhead-ppm"), &ppm);
    lp_host_parse_count(lp_meta_get(m, "coproc-masked"), &masked);
    lp_host_parse_count(lp_meta_get(m, "coproc-alias-pc"), &alias_pc);
    lp_host_parse_count(lp_meta_get(m, "coproc-alias-value"), &alias_value);
    char of[64] = "";
    if (have_all)
        snprintf(of, sizeof of, " of %s", lp_fmt_count(all, dec));
    printf("  co-processor: %s loads%s passed the filter, %s samples processed, %s dropped "
           "(buffer full)\n", lp_fmt_count(tagged, c1), of, lp_fmt_count(samples, c2),
           lp_fmt_count(dropped, name));
    printf("  %s interrupts, %s slots replaced, %s loads masked as done; aliasing: %s samples "
           "on another PC's slot, %s hits on a value equal only in its stored bits\n",
           lp_fmt_count(interrupts, c1), lp_fmt_count(repl, c2), lp_fmt_count(masked, name),
           lp_fmt_count(alias_pc, dec), lp_fmt_count(alias_value, pct));
    printf("  modeled cost: %s main-processor cycles, %.3f%% of the program's instructions\n",
           lp_fmt_count(cycles, c1), (double)ppm / 1e4);
    if (nloads == 0) {
        lp__report_none("loads");
        free(loads);
        free(vals);
        return 0;
    }
    const char *heading[] = {"samples", "invariance", "confidence", "done",
                             "load pc / value", "function (location) / share"};
    lp_tab t;
    lp_tab_init(&t, "rrrrll", heading);
    for (size_t i = 0, n = lp__report_shown(o, nloads); i < n; i++) {
        const lp__report_row *l = &loads[i];
        double inv = l->v0 ? (double)l->v1 / (double)l->v0 : 0.0;
        lp_tab_cell(&t, "%s", lp_fmt_count(l->v0, c1));
        lp_tab_cell(&t, "%.3f", inv);
        lp_tab_cell(&t, "%.3f", lp_value_confidence(inv, l->v0));
        lp_tab_cell(&t, "%s%s", report_pc_listed(done, l->a) ? "yes" : "no",
                    report_pc_listed(phased, l->a) ? ", phased" : "");
        lp_tab_cell(&t, "0x%llx", (unsigned long long)l->a);
        lp_tab_cell(&t, "%s", lp_names_describe(nm, l->a, 1, name, sizeof name));
        size_t first = (size_t)l->b;
        for (size_t k = 0; k < l->aux; k++) {
            const lp_entry *e = &v->entries[first + k];
            vals[k] = (lp__report_row){e->key.b, 0, e->v[0], 0, 0, e->v[0]};
        }
        qsort(vals, l->aux, sizeof *vals, lp__report_row_cmp);
        size_t shown = 0;
        for (size_t k = 0; k < l->aux && (o->values_top == 0 || shown < o->values_top); k++) {
            int other = vals[k].a == LP_VALUE_OTHER;
            lp_tab_cell(&t, "%s", lp_fmt_count(vals[k].v0, c1));
            lp_tab_cell(&t, "%s", lp_fmt_percent(vals[k].v0, l->v0, pct));
            lp_tab_cell(&t, "%s", "");
            lp_tab_cell(&t, "%s", "");
            if (other) {
                lp_tab_cell(&t, "%s", "  (values never active)");
                lp_tab_cell(&t, "%s", "");
            } else {
                lp_tab_cell(&t, "  = 0x%llx", (unsigned long long)vals[k].a);
                lp__report_value_text(vals[k].a, 8, dec, sizeof dec);
                lp_tab_cell(&t, "  %s", dec);
            }
            shown++;
        }
    }
    lp_tab_print(&t, stdout, 2);
    lp_tab_fini(&t);
    free(loads);
    free(vals);
    return 0;
}

/* Hot data streams (bursty-tracing paper, section 5.2), hottest first by
 * heat = length x frequency. A stream is named by where it starts (its
 * first reference's function and line) and its access signature; the
 * metadata holds the whole signature of the hottest ones. Frequencies are
 * those of the (sampled) trace the streams were found in, not scaled. */
int lp__report_streams(lp_names *nm, const lp_report_view *v, const lp_report_opts *o,
                          const lp_meta *m)
{
    lp__report_row *rows = calloc(v->count ? v->count : 1, sizeof *rows);
    if (!rows)
        return LP_ENOMEM;
    uint64_t heat = 0;
    for (size_t i = 0; i < v->count; i++) {
        const lp_entry *e = &v->entries[i];
        rows[i] = (lp__report_row){e->key.a, e->key.b, e->v[0], e->v[1], 0, e->v[0] * e->v[1]};
        heat += rows[i].weight;
    }
    qsort(rows, v->count, sizeof *rows, lp__report_row_cmp);
    uint64_t refs = 0;
    const char *sampled = lp_meta_get(m, "streams-sampled-references");
    lp_host_parse_count(sampled ? sampled : lp_meta_get(m, "streams-references"), &refs);
    char c1[32], c2[32], c3[32], what[200], pct[16], x[1024];
    snprintf(what, sizeof what, "%s streams covering %s of %s references", lp_fmt_count(v->count, c1),
             lp_fmt_count(heat, c2), lp_fmt_count(refs, c3));
    lp__report_heading("Hot data streams", what, o, v->count, v);
    if (v->count == 0) {
        lp__report_none("streams");
        free(rows);
        return 0;
    }
    const char *heading[] = {"heat", "% refs", "frequency", "length", "signature", "starts at"};
    lp_tab t;
    lp_tab_init(&t, "rrrrll", heading);
    for (size_t i = 0, n = lp__report_shown(o, v->count); i < n; i++) {
        const lp__report_row *r = &rows[i];
        lp_tab_cell(&t, "%s", lp_fmt_count(r->weight, c1));
        lp_tab_cell(&t, "%s", lp_fmt_percent(r->weight, refs, pct));
        lp_tab_cell(&t, "%s", lp_fmt_count(r->v0, c2));
        lp_tab_cell(&t, "%llu", (unsigned long long)r->v1);
        lp_tab_cell(&t, "%016llx", (unsigned long long)r->a);
        lp_tab_cell(&t, "%s", r->b ? lp_names_describe(nm, r->b, 1, x, sizeof x) : "?");
    }
    lp_tab_print(&t, stdout, 2);
    lp_tab_fini(&t);
    free(rows);
    return 0;
}

/* Bursty tracing's figures (doc/bursty.md): the framework's counters, the
 * sampling rate they achieved, the modeled basic overhead, and how well
 * the sampled streams overlap the exhaustive ones of the same run. */
void lp__report_bursty(const lp_meta *m)
{
    uint64_t nc = 0, ni = 0, checks = 0, bursts = 0, instr = 0, ppm = 0, ov = 0, insns = 0;
    if (lp_host_parse_count(lp_meta_get(m, "bursty-n-instr0"), &ni) != 0)
        return;
    const char *nc_text = lp_meta_get(m, "bursty-n-check0");
    int inf = lp_host_parse_count(nc_text, &nc) != 0 || nc == UINT64_MAX;
    lp_host_parse_count(lp_meta_get(m, "bursty-checks"), &checks);
    lp_host_parse_count(lp_meta_get(m, "bursty-bursts"), &bursts);
    lp_host_parse_count(lp_meta_get(m, "bursty-instrumented-checks"), &instr);
    lp_host_parse_count(lp_meta_get(m, "bursty-basic-overhead-ppm"), &ppm);
    lp_host_parse_count(lp_meta_get(m, "instructions"), &insns);
    const char *placement = lp_meta_get(m, "bursty-placement");
    char c1[32], c2[32];
    printf("\nSampling: bursty tracing, nCheck0 %s, nInstr0 %llu, placement %s\n",
           inf ? "inf" : lp_fmt_count(nc, c1), (unsigned long long)ni,
           placement ? placement : "?");
    printf("  checks executed  %s", lp_fmt_count(checks, c1));
    if (insns) /* the native runtime counts no instructions */
        printf(" (%.2f per 1,000 instructions)", 1000.0 * (double)checks / (double)insns);
    printf(", bursts %s\n", lp_fmt_count(bursts, c2));
    printf("  sampling rate    %.3f%% of checks instrumented (nominal %.3f%%)\n",
           checks ? 100.0 * (double)instr / (double)checks : 0.0,
           inf ? 0.0 : 100.0 * (double)ni / ((double)nc + (double)ni));
    if (lp_meta_get(m, "bursty-basic-overhead-ppm"))
        printf("  basic overhead   %.2f%% modeled (each check's fast path as %s instructions)\n",
               (double)ppm / 1e4,
               lp_meta_get(m, "bursty-check-insns") ? lp_meta_get(m, "bursty-check-insns") : "?");
    else
        printf("  checks           compiled into the program (lowprof cc --profiles=bursty); "
               "their cost is measured, not modeled (bench/bursty_native.sh)\n");
    uint64_t refs = 0, dropped = 0;
    if (lp_host_parse_count(lp_meta_get(m, "streams-sampled-references"), &refs) == 0 &&
        !lp_meta_get(m, "streams-references")) {
        lp_host_parse_count(lp_meta_get(m, "streams-dropped"), &dropped);
        printf("  references       %s recorded in bursts", lp_fmt_count(refs, c1));
        if (dropped)
            printf(", %s dropped (streams-limit)", lp_fmt_count(dropped, c2));
        printf("\n");
    }
    if (lp_host_parse_count(lp_meta_get(m, "streams-overlap-ppm"), &ov) == 0)
        printf("  stream overlap   %.2f%% with the exhaustive trace's hot data streams (eq. 5)\n",
               (double)ov / 1e4);
}
