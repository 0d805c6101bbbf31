/* lowprof eval value: the results files. CSV for re-plotting (errors and
 * overheads as fractions), Markdown for people (as percentages, also
 * appended to summary.md), and gnuplot scripts with absolute paths, run
 * through lp__eval_plot when gnuplot is installed. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "eval_value.h"

/* Writes the same text to a and b (either may be NULL). */
static void __attribute__((format(printf, 3, 4))) both(FILE *a, FILE *b, const char *fmt, ...)
{
    va_list ap;
    if (a) {
        va_start(ap, fmt);
        vfprintf(a, fmt, ap);
        va_end(ap);
    }
    if (b) {
        va_start(ap, fmt);
        vfprintf(b, fmt, ap);
        va_end(ap);
    }
}

static const char *u64_or_never(uint64_t v, char *buf, size_t cap)
{
    if (v == UINT64_MAX)
        snprintf(buf, cap, "never");
    else
        snprintf(buf, cap, "%llu", (unsigned long long)v);
    return buf;
}

/* ---- CSV ------------------------------------------------------------------------------- */

static int write_errovh_csv(const lp_eval_val_opts *o, const lp_eval_val_wl *w, size_t nw)
{
    char path[4200];
    FILE *f = lp__eval_open(o->out_dir, "errovh.csv", path, sizeof path);
    if (!f)
        return 1;
    fputs("workload,profiler,rate,loads,instructions,error,overhead,cycles,interrupts,samples,"
          "loads_measured,missing_executions,missing_error_share\n",
          f);
    for (size_t i = 0; i < nw; i++)
        for (size_t k = 0; w[i].ok && k < w[i].nruns; k++) {
            const lp_eval_val_run *r = &w[i].runs[k];
            if (r->kind == LP_EVAL_VAL_COPROC && !r->base)
                continue;
            const lp_eval_val_point *p = &r->final;
            fprintf(f, "%s,%s,", w[i].name, r->name);
            if (r->kind == LP_EVAL_VAL_SIMPLE)
                fprintf(f, "%u", r->rate);
            fprintf(f, ",%llu,%llu,%.6f,%.6f,%llu,%llu,%llu,%llu,%.6f,%.6f\n",
                    (unsigned long long)p->loads, (unsigned long long)p->insns, p->error,
                    p->overhead, (unsigned long long)p->cycles, (unsigned long long)p->interrupts,
                    (unsigned long long)p->samples, (unsigned long long)p->measured, p->missing,
                    p->missing_sq);
        }
    return lp__eval_close(f, path) ? 1 : 0;
}

static int write_convergence_csv(const lp_eval_val_opts *o, const lp_eval_val_wl *w, size_t nw)
{
    char path[4200];
    FILE *f = lp__eval_open(o->out_dir, "convergence.csv", path, sizeof path);
    if (!f)
        return 1;
    fputs("workload,profiler,loads,instructions,error,error_sofar,loads_measured,"
          "loads_measured_sofar,cycles,interrupts,samples,overhead\n",
          f);
    for (size_t i = 0; i < nw; i++)
        for (size_t k = 0; w[i].ok && k < w[i].nruns; k++) {
            const lp_eval_val_run *r = &w[i].runs[k];
            for (size_t j = 0; j < r->npoints; j++) {
                const lp_eval_val_point *p = &r->points[j];
                fprintf(f, "%s,%s,%llu,%llu,%.6f,%.6f,%llu,%llu,%llu,%llu,%llu,%.6f\n", w[i].name,
                        r->name, (unsigned long long)p->loads, (unsigned long long)p->insns,
                        p->error, p->error_sofar, (unsigned long long)p->measured,
                        (unsigned long long)p->measured_sofar, (unsigned long long)p->cycles,
                        (unsigned long long)p->interrupts, (unsigned long long)p->samples,
                        p->overhead);
            }
        }
    return lp__eval_close(f, path) ? 1 : 0;
}

static int write_sensitivity_csv(const lp_eval_val_opts *o, const lp_eval_val_wl *w, size_t nw)
{
    char path[4200], a[32];
    FILE *f = lp__eval_open(o->out_dir, "sensitivity.csv", path, sizeof path);
    if (!f)
        return 1;
    fputs("workload,profiler,slots,clock,loads,instructions,error,overhead,cycles,interrupts,"
          "samples,dropped_full,error_half,stays_below_limit_from,region_advances,mask_bits,"
          "masked\n",
          f);
    for (size_t i = 0; i < nw; i++)
        for (size_t k = 0; w[i].ok && k < w[i].nruns; k++) {
            const lp_eval_val_run *r = &w[i].runs[k];
            if (r->kind != LP_EVAL_VAL_COPROC)
                continue;
            const lp_eval_val_point *p = &r->final;
            fprintf(f, "%s,%s,%u,%g,%llu,%llu,%.6f,%.6f,%llu,%llu,%llu,%llu,%.6f,%s,%llu,%u,%llu\n",
                    w[i].name, r->name, r->vopt.slots, r->vopt.clock, (unsigned long long)p->loads,
                    (unsigned long long)p->insns, p->error, p->overhead,
                    (unsigned long long)p->cycles, (unsigned long long)p->interrupts,
                    (unsigned long long)p->samples, (unsigned long long)r->vstats.dropped_full,
                    lp_eval_val_error_at_half(r),
                    u64_or_never(lp_eval_val_stays_below(r, o->limit), a, sizeof a),
                    (unsigned long long)r->vstats.region_advances, r->vstats.mask_bits,
                    (unsigned long long)r->vstats.masked);
        }
    return lp__eval_close(f, path) ? 1 : 0;
}

static int write_scatter_csv(const lp_eval_val_opts *o, const lp_eval_val_wl *w, size_t nw)
{
    char path[4200];
    FILE *f = lp__eval_open(o->out_dir, "scatter.csv", path, sizeof path);
    if (!f)
        return 1;
    fputs("workload,pc,value,count,inv_true,inv_est,in_estimate\n", f);
    for (size_t i = 0; i < nw; i++) {
        const lp_eval_val_run *r = w[i].ok ? lp_eval_val_base(&w[i]) : NULL;
        for (size_t k = 0; r && k < r->nscatter; k++) {
            const lp_eval_val_scatter *s = &r->scatter[k];
            fprintf(f, "%s,%#llx,%#llx,%llu,%.6f,%.6f,%d\n", w[i].name,
                    (unsigned long long)s->pc, (unsigned long long)s->value,
                    (unsigned long long)s->count, s->inv_true, s->inv_est, s->in_estimate);
        }
    }
    return lp__eval_close(f, path) ? 1 : 0;
}

static int write_windows_csv(const lp_eval_val_opts *o, const lp_eval_val_wl *w, size_t nw)
{
    char path[4200];
    FILE *f = lp__eval_open(o->out_dir, "windows.csv", path, sizeof path);
    if (!f)
        return 1;
    fputs("workload,ok,events_read,loads,instructions,static_loads,loads_measured,value_pairs,"
          "whole_trace,record_seconds,replay_seconds\n",
          f);
    for (size_t i = 0; i < nw; i++)
        fprintf(f, "%s,%d,%llu,%llu,%llu,%llu,%llu,%llu,%d,%.1f,%.1f\n", w[i].name, w[i].ok,
                (unsigned long long)w[i].events, (unsigned long long)w[i].loads,
                (unsigned long long)w[i].insns, (unsigned long long)w[i].static_loads,
                (unsigned long long)w[i].measured_loads, (unsigned long long)w[i].pairs,
                w[i].whole_trace, w[i].record_seconds, w[i].replay_seconds);
    return lp__eval_close(f, path) ? 1 : 0;
}

/* ---- Markdown -------------------------------------------------------------------------- */

static void answer_row(const lp_eval_val_wl *w, FILE *a, FILE *b)
{
    lp_eval_val_verdict v;
    if (lp_eval_val_judge(w, &v) != 0)
        return;
    char simple[256], needed[128];
    if (v.lo && v.hi)
        snprintf(simple, sizeof simple, "%.2f (between %s and %s)", 100 * v.simple_error,
                 v.lo->name, v.hi->name);
    else if (v.hi)
        snprintf(simple, sizeof simple, "≥ %.2f (below %s's overhead)", 100 * v.hi->final.error,
                 v.hi->name);
    else
        snprintf(simple, sizeof simple, "≤ %.2f (above %s's overhead)", 100 * v.lo->final.error,
                 v.lo->name);
    if (v.needed_bound > 0)
        snprintf(needed, sizeof needed, "more than the dearest rate's");
    else if (v.needed_bound < 0)
        snprintf(needed, sizeof needed, "≤ %.3f (the cheapest rate already)",
                 100 * v.needed_overhead);
    else
        snprintf(needed, sizeof needed, "%.3f (%.1fx the co-processor's)", 100 * v.needed_overhead,
                 v.needed_overhead / v.coproc_overhead);
    both(a, b, "| %s | %.2f | %.3f | %.3f | %s | %s | **%s** |\n", w->name, 100 * v.coproc_error,
         100 * v.coproc_overhead, 100 * v.twice_overhead, simple, needed,
         lp_eval_val_answer_text(v.answer));
}

static int write_errovh_md(const lp_eval_val_opts *o, const lp_eval_val_wl *w, size_t nw,
                           FILE *summary)
{
    char path[4200];
    FILE *f = lp__eval_open(o->out_dir, "errovh.md", path, sizeof path);
    if (!f)
        return 1;
    both(f, summary,
         "## Error against overhead (the paper's Fig. 1 and quantitative results)\n\n"
         "Weighted RMS error of invariance over the loads executed at least %llu times in the "
         "window, against the exact profile of the window; overhead = modelled cycles / "
         "program instructions of the window. Final figures, after each profiler's end "
         "(the co-processor's last copy and final estimation included).\n\n"
         "\"Lacks\": the measured loads the estimate does not hold at all (never sampled, "
         "or never copied to memory), as a share of the measured executions and of the "
         "error's mean square.\n\n"
         "| workload | profiler | error %% | overhead %% | interrupts | samples or messages | "
         "loads measured | lacks: executions %% | lacks: mean square %% |\n"
         "|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
         (unsigned long long)o->min_count);
    for (size_t i = 0; i < nw; i++)
        for (size_t k = 0; w[i].ok && k < w[i].nruns; k++) {
            const lp_eval_val_run *r = &w[i].runs[k];
            if (r->kind == LP_EVAL_VAL_COPROC && !r->base)
                continue;
            const lp_eval_val_point *p = &r->final;
            both(f, summary, "| %s | %s | %.2f | %.3f | %llu | %llu | %llu | %.1f | %.1f |\n",
                 w[i].name, r->name, 100 * p->error, 100 * p->overhead,
                 (unsigned long long)p->interrupts, (unsigned long long)p->samples,
                 (unsigned long long)p->measured, 100 * p->missing, 100 * p->missing_sq);
        }
    both(f, summary,
         "\n### Lower error than simple sampling at no more than half its overhead?\n\n"
         "Simple sampling's error at twice the co-processor's overhead, interpolated "
         "linearly in log overhead between the tested rates, against the co-processor's "
         "error; and the overhead simple sampling needs to match the co-processor's error, "
         "interpolated the same way. Outside the tested rates only \"sampling more often "
         "never makes the error larger\" is assumed.\n\n"
         "| workload | co-processor error %% | its overhead %% | twice that %% | simple "
         "sampling's error there %% | simple sampling's overhead for the co-processor's "
         "error %% | answer |\n|---|---:|---:|---:|---|---|---|\n");
    for (size_t i = 0; i < nw; i++)
        if (w[i].ok)
            answer_row(&w[i], f, summary);
    both(f, summary, "\n");
    return lp__eval_close(f, path) ? 1 : 0;
}

static int write_sensitivity_md(const lp_eval_val_opts *o, const lp_eval_val_wl *w, size_t nw,
                                FILE *summary)
{
    char path[4200], a[32];
    FILE *f = lp__eval_open(o->out_dir, "sensitivity.md", path, sizeof path);
    if (!f)
        return 1;
    both(f, summary,
         "## Sensitivity: slot array and co-processor clock\n\n"
         "The base model and the paper's variations: half and twice the storage (the slot "
         "array), and the co-processor clocked at half and twice the base. \"Stays ≤ %.0f "
         "%%\": loads after which the error against the window stays at or under %.0f %%.\n\n"
         "| workload | profiler | slots | clock | error %% | error at half the window %% | "
         "stays ≤ %.0f %% from | overhead %% | interrupts | samples | dropped (buffer full) | "
         "region moves | mask bits | loads done |\n"
         "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
         100 * o->limit, 100 * o->limit, 100 * o->limit);
    for (size_t i = 0; i < nw; i++)
        for (size_t k = 0; w[i].ok && k < w[i].nruns; k++) {
            const lp_eval_val_run *r = &w[i].runs[k];
            if (r->kind != LP_EVAL_VAL_COPROC)
                continue;
            const lp_eval_val_point *p = &r->final;
            uint64_t stay = lp_eval_val_stays_below(r, o->limit);
            both(f, summary,
                 "| %s | %s | %u | %g | %.2f | %.2f | %s | %.3f | %llu | %llu | %llu | %llu | %u "
                 "| %llu |\n",
                 w[i].name, r->name, r->vopt.slots, r->vopt.clock, 100 * p->error,
                 100 * lp_eval_val_error_at_half(r),
                 lp__eval_events_text(stay, a, sizeof a), 100 * p->overhead,
                 (unsigned long long)p->interrupts, (unsigned long long)p->samples,
                 (unsigned long long)r->vstats.dropped_full,
                 (unsigned long long)r->vstats.region_advances, r->vstats.mask_bits,
                 (unsigned long long)r->vstats.masked);
        }
    both(f, summary, "\n");
    return lp__eval_close(f, path) ? 1 : 0;
}

/* The focus workload's convergence at whole octaves of loads and at the
 * end, for the co-processor and the simple rate plotted with it. */
static void convergence_md(const lp_eval_val_opts *o, const lp_eval_val_wl *w, FILE *summary)
{
    const lp_eval_val_run *c = lp_eval_val_base(w), *s = lp_eval_val_conv_run(o, w);
    if (!c || !s)
        return;
    char a[32];
    fprintf(summary,
            "## Convergence over time on %s\n\n"
            "The co-processor and %s (the simple rate %s) at checkpoints through the window: "
            "error against the whole window and against the loads so far, overhead so far. "
            "The co-processor's estimate at a checkpoint is what its handler has copied to "
            "memory; slots not yet copied do not count.\n\n"
            "| loads | instructions | coproc error %% | so far %% | overhead %% | %s error %% | "
            "so far %% | overhead %% |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n",
            w->name, s->name,
            o->conv_rate ? "chosen by --conv-rate"
                         : "whose final overhead is nearest the co-processor's",
            s->name);
    for (size_t j = 0; j < c->npoints && j < s->npoints; j++) {
        if (j % 4 != 0 && j + 1 != c->npoints)
            continue;
        const lp_eval_val_point *p = &c->points[j], *q = &s->points[j];
        fprintf(summary, "| %s | %llu | %.2f | %.2f | %.3f | %.2f | %.2f | %.3f |\n",
                lp__eval_events_text(p->loads, a, sizeof a), (unsigned long long)p->insns,
                100 * p->error, 100 * p->error_sofar, 100 * p->overhead, 100 * q->error,
                100 * q->error_sofar, 100 * q->overhead);
    }
    fprintf(summary, "\n");
}

/* ---- plots ----------------------------------------------------------------------------- */

static const char plot_head[] = "set terminal svg size 900,560 dynamic\n"
                                "set termoption noenhanced\n"
                                "set datafile separator ','\n"
                                "set grid\n";

static int write_errovh_plot(const lp_eval_val_opts *o, const lp_eval_val_wl *w, size_t nw)
{
    char path[4200];
    FILE *f = lp__eval_open(o->out_dir, "errovh.gp", path, sizeof path);
    if (!f)
        return 1;
    fprintf(f,
            "%sset logscale x\nset key outside right\n"
            "set xlabel 'modelled overhead (%%), log scale'\n"
            "set ylabel 'weighted RMS error of invariance (%%)'\n"
            "set output '%s/errovh.svg'\n"
            "set title 'Simple sampling P_r (open points; r grows to the left) and the "
            "co-processor (filled)'\nplot ",
            plot_head, o->out_dir);
    int first = 1;
    for (size_t i = 0, colour = 1; i < nw; i++) {
        if (!w[i].ok)
            continue;
        fprintf(f,
                "%s'%s/errovh.csv' using (strcol(1) eq '%s' && strcol(2) ne 'coproc' ? 100*$7 : "
                "NaN):(100*$6) with linespoints lc %zu pt 6 title '%s: simple', \\\n"
                "     '%s/errovh.csv' using (strcol(1) eq '%s' && strcol(2) eq 'coproc' ? 100*$7 : "
                "NaN):(100*$6) with points lc %zu pt 7 ps 1.6 title '%s: co-processor'",
                first ? "" : ", \\\n     ", o->out_dir, w[i].name, colour, w[i].name, o->out_dir,
                w[i].name, colour, w[i].name);
        first = 0;
        colour++;
    }
    fprintf(f, "\n");
    if (lp__eval_close(f, path))
        return 1;
    return first ? 0 : lp__eval_plot(o->out_dir, path) == 0 ? 0 : -1;
}

static int write_convergence_plot(const lp_eval_val_opts *o, const lp_eval_val_wl *w)
{
    const lp_eval_val_run *c = lp_eval_val_base(w), *s = lp_eval_val_conv_run(o, w);
    if (!c || !s)
        return 0;
    char path[4200];
    FILE *f = lp__eval_open(o->out_dir, "convergence.gp", path, sizeof path);
    if (!f)
        return 1;
    const char *csv = "convergence.csv";
    fprintf(f,
            "%sset terminal svg size 900,800 dynamic\nset logscale x\nset key top right\n"
            "set output '%s/convergence.svg'\n"
            "set multiplot layout 2,1 title '%s: the co-processor and %s over the window'\n"
            "set xlabel 'program instructions'\nset ylabel 'weighted RMS error (%%)'\nplot ",
            plot_head, o->out_dir, w->name, s->name);
    const lp_eval_val_run *two[2] = {c, s};
    for (int k = 0; k < 2; k++)
        fprintf(f,
                "%s'%s/%s' using (strcol(1) eq '%s' && strcol(2) eq '%s' ? $4 : NaN):($7 > 0 ? "
                "100*$5 : NaN) with linespoints lc %d title '%s (against the window)', \\\n"
                "     '%s/%s' using (strcol(1) eq '%s' && strcol(2) eq '%s' ? $4 : NaN):($8 > 0 ? "
                "100*$6 : NaN) with lines dt 2 lc %d title '%s (against the loads so far)'",
                k ? ", \\\n     " : "", o->out_dir, csv, w->name, two[k]->name, k + 1,
                two[k]->name, o->out_dir, csv, w->name, two[k]->name, k + 1, two[k]->name);
    fprintf(f, "\nset ylabel 'overhead so far (%%)'\nplot ");
    for (int k = 0; k < 2; k++)
        fprintf(f,
                "%s'%s/%s' using (strcol(1) eq '%s' && strcol(2) eq '%s' ? $4 : NaN):(100*$12) "
                "with linespoints lc %d title '%s'",
                k ? ", \\\n     " : "", o->out_dir, csv, w->name, two[k]->name, k + 1,
                two[k]->name);
    fprintf(f, "\nunset multiplot\n");
    /* The sensitivity variants over time. */
    fprintf(f,
            "set terminal svg size 900,560 dynamic\nset output '%s/sensitivity.svg'\n"
            "set title '%s: variants of the co-processor over the window'\n"
            "set ylabel 'weighted RMS error against the window (%%)'\nplot ",
            o->out_dir, w->name);
    int first = 1;
    for (size_t k = 0; k < w->nruns; k++) {
        const lp_eval_val_run *r = &w->runs[k];
        if (r->kind != LP_EVAL_VAL_COPROC)
            continue;
        fprintf(f,
                "%s'%s/%s' using (strcol(1) eq '%s' && strcol(2) eq '%s' ? $4 : NaN):($7 > 0 ? "
                "100*$5 : NaN) with linespoints title '%s'",
                first ? "" : ", \\\n     ", o->out_dir, csv, w->name, r->name, r->name);
        first = 0;
    }
    fprintf(f, "\n");
    if (lp__eval_close(f, path))
        return 1;
    return lp__eval_plot(o->out_dir, path) == 0 ? 0 : -1;
}

static int write_scatter_plot(const lp_eval_val_opts *o, const lp_eval_val_wl *w)
{
    char path[4200];
    FILE *f = lp__eval_open(o->out_dir, "scatter.gp", path, sizeof path);
    if (!f)
        return 1;
    const uint64_t busy = 100 * o->min_count;
    fprintf(f,
            "%sset size square\nset xrange [0:100]\nset yrange [0:100]\nset key below\n"
            "set xlabel 'true invariance of the top value (%%)'\n"
            "set ylabel 'estimated invariance (%%)'\n"
            "set output '%s/scatter.svg'\n"
            "set title '%s: the co-processor, one point per load executed at least %llu "
            "times'\n"
            "plot '%s/scatter.csv' using (strcol(1) eq '%s' && $4 >= %llu ? 100*$5 : "
            "NaN):(100*$6) with points pt 7 ps 0.5 title 'executed at least %llu times', \\\n"
            "     '%s/scatter.csv' using (strcol(1) eq '%s' && $4 < %llu ? 100*$5 : "
            "NaN):(100*$6) with points pt 6 ps 0.5 title 'fewer', \\\n"
            "     x with lines dt 1 lc 'black' title 'exact', \\\n"
            "     x + 10 with lines dt 3 lc 'gray' title '10 points off', \\\n"
            "     x - 10 with lines dt 3 lc 'gray' notitle\n",
            plot_head, o->out_dir, w->name, (unsigned long long)o->min_count, o->out_dir, w->name,
            (unsigned long long)busy, (unsigned long long)busy, o->out_dir, w->name,
            (unsigned long long)busy);
    if (lp__eval_close(f, path))
        return 1;
    return lp__eval_plot(o->out_dir, path) == 0 ? 0 : -1;
}

/* ---- all of it ------------------------------------------------------------------------- */

int lp_eval_val_write(const lp_eval_val_opts *o, const lp_eval_val_wl *w, size_t nw,
                      const lp_eval_val_wl *focus, FILE *summary)
{
    if (write_errovh_csv(o, w, nw) || write_convergence_csv(o, w, nw) ||
        write_sensitivity_csv(o, w, nw) || write_scatter_csv(o, w, nw) ||
        write_windows_csv(o, w, nw))
        return 1;
    if (write_errovh_md(o, w, nw, summary) || write_sensitivity_md(o, w, nw, summary))
        return 1;
    if (focus)
        convergence_md(o, focus, summary);
    /* Plots: 1 is a file error; -1 only means no plot (gnuplot missing or
     * failing, already said). */
    int plotted = 0, rc = write_errovh_plot(o, w, nw);
    if (rc > 0)
        return 1;
    plotted += rc == 0;
    if (focus) {
        if ((rc = write_convergence_plot(o, focus)) > 0)
            return 1;
        plotted += rc == 0;
        if ((rc = write_scatter_plot(o, focus)) > 0)
            return 1;
        plotted += rc == 0;
    }
    if (plotted && lp__eval_have_program("gnuplot"))
        fprintf(summary,
                "Plots: %s/errovh.svg (all workloads)%s%s%s.\n\n", o->out_dir,
                focus ? ", convergence.svg, sensitivity.svg and scatter.svg (" : "",
                focus ? focus->name : "", focus ? ")" : "");
    return 0;
}
