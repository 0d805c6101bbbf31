/* lowprof eval compressors: reproduces the evaluation of the
 * stratified-sampling paper (Sastry, Bodik and Smith, paper 001) on the
 * workload suite. Parts:
 *
 *   1. Monte Carlo (section 3.3, Fig. 4)          eval_cmp_mc.c
 *   2. load-value profiling (5.4, Figs. 7-8)      replay of one trace per
 *   3. sensitivity to n (5.5, Fig. 9)             workload, here, with the
 *   4. two-level compression (5.6, Fig. 10)       engine of eval_cmp_replay.c
 *   5. edge + call-target profiling (5.7, Fig. 11)
 *
 * Every figure lands in a CSV (to re-plot), a Markdown table, and, when
 * gnuplot is installed, an SVG plot under the results folder; summary.md
 * collects the tables and the findings and is printed at the end.
 *
 * Tuned for: the small mode (three workloads, 4 M loads each) in a few
 * minutes on two cores; --full (every workload, 16 M loads, the paper's
 * 2500 Monte Carlo trials) in about an hour. */
#define _XOPEN_SOURCE 700 /* realpath, and POSIX 2008 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "eval_cmp.h"

#define MEGA (1024u * 1024u)
#define VALUE_LIMIT 0.05 /* the paper's maximum tolerable error (section 5.4) */

/* Figs. 7-8: the five compressors of section 5.4. */
static const char *const main_specs[] = {"R256", "P256", "H[P256]2048", "H[P512]2048",
                                         "T2:256x2048w2"};
/* Fig. 9: H[P256]_n for n = 512, 1024, 2048 (in the main list), 4096. */
static const char *const sens_specs[] = {"H[P256]512", "H[P256]1024", "H[P256]2048", "H[P256]4096"};
/* Fig. 10: the same first levels with and without +A16. */
static const char *const two_specs[][2] = {{"R256", "R256+A16"},
                                           {"H[P256]2048", "H[P256]2048+A16"},
                                           {"T2:256x2048w2", "T2:256x2048w2+A16"}};
enum { NSENS = 4, NTWO = 3 };
/* Fig. 11: edges and call targets through one compressor. */
static const char control_spec[] = "H[P256]2048";

/* The workload runner's options taken from these. */
static lp__eval_suite suite_of(const lp_eval_cmp_opts *o)
{
    lp__eval_suite s = {o->full, o->out_dir, o->workloads, o->traces, o->size, o->data_dir};
    return s;
}

/* ---- per workload ---------------------------------------------------------------------- */

typedef struct wl_result {
    char name[64];
    int ok;
    double record_seconds, replay_seconds;
    uint64_t events, loads, controls, edges, calls, insns_values, insns_controls;
    int whole_trace;
    const char **specs; /* value compressors replayed: runs[i] is specs[i] */
    size_t nspecs;
    lp_eval_cmp_run *runs;
    lp_eval_cmp_run control; /* control_spec on edges and call targets */
    int have_control;
} wl_result;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const lp_eval_cmp_run *find_run(const wl_result *w, const char *spec)
{
    for (size_t i = 0; w->runs && i < w->nspecs; i++)
        if (strcmp(w->specs[i], spec) == 0)
            return &w->runs[i];
    return NULL;
}

/* The value compressors to replay: the main list (or --compressors), then
 * those of the sensitivity and two-level parts not already there. */
static int value_specs(const lp_eval_cmp_opts *o, const char ***out, size_t *out_n,
                       size_t *out_main)
{
    size_t cap = 32, n = 0;
    const char **v = calloc(cap, sizeof *v);
    char *copy = o->compressors ? strdup(o->compressors) : NULL;
    if (!v || (o->compressors && !copy)) {
        free(v);
        free(copy);
        return lp_host_fail("out of memory");
    }
    const char *add[32 + 16];
    size_t nadd = 0;
    if (copy) {
        /* Never freed: the specs point into it until the command ends. */
        for (char *p = strtok(copy, ","); p && nadd < 32; p = strtok(NULL, ","))
            add[nadd++] = p;
    } else {
        for (size_t i = 0; i < sizeof main_specs / sizeof main_specs[0]; i++)
            add[nadd++] = main_specs[i];
    }
    size_t nmain_in = nadd;
    *out_main = 0;
    for (size_t i = 0; i < NSENS; i++)
        add[nadd++] = sens_specs[i];
    for (size_t i = 0; i < NTWO; i++) {
        add[nadd++] = two_specs[i][0];
        add[nadd++] = two_specs[i][1];
    }
    for (size_t i = 0; i < nadd; i++) {
        lp_compressor_spec spec;
        if (lp_host_parse_compressor("eval", add[i], &spec) != 0) {
            free(v);
            free(copy);
            return 2;
        }
        int dup = 0;
        for (size_t k = 0; k < n && !dup; k++)
            dup = strcmp(v[k], add[i]) == 0;
        if (!dup && n < cap) {
            v[n++] = add[i];
            *out_main += i < nmain_in;
        }
    }
    *out = v;
    *out_n = n;
    return 0;
}

/* Records (unless given), loads and replays one workload. */
static int run_workload(const lp_eval_cmp_opts *o, lp__eval_workload *t, const char **specs,
                        size_t nspecs, uint64_t max_controls, unsigned threads, wl_result *w)
{
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "%s", t->name);
    w->specs = specs;
    w->nspecs = nspecs;
    double t0 = now();
    if (t->recorded) {
        fprintf(stderr, "lowprof eval: %s: recording the event trace...\n", t->name);
        /* Branch and call events exist only when the front end builds a
         * control-flow profile, so the recording keeps record's default
         * profile types (with --profile none the tool runs signature-only
         * and traces loads alone). The limit counts events of every kind:
         * loads are about a third of them. */
        lp__eval_suite suite = suite_of(o);
        if (lp__eval_trace_record(&suite, t, "load,branch,call", 3 * o->events + max_controls,
                                  o->keep_traces) != 0) {
            if (!o->keep_traces)
                remove(t->path); /* what a failed recording left */
            return 1;
        }
        w->record_seconds = now() - t0;
        fprintf(stderr, "lowprof eval: %s: recorded in %.0f s\n", t->name, w->record_seconds);
    }
    double t1 = now();
    lp__eval_window win;
    int rc = lp__eval_window_load(t->path, 0, (size_t)o->events, (size_t)max_controls, &win);
    if (t->recorded && !o->keep_traces)
        remove(t->path);
    if (rc)
        return 1;
    w->events = win.events;
    w->loads = win.nvalues;
    w->controls = win.ncontrols;
    w->whole_trace = win.whole_trace;
    for (size_t i = 0; i < win.ncontrols; i++) {
        w->edges += win.controls[i].type == LP_TUPLE_EDGE;
        w->calls += win.controls[i].type == LP_TUPLE_CALL_TARGET;
    }
    w->insns_values = win.nvalues ? win.value_insns[win.nvalues - 1] : 0;
    w->insns_controls = win.ncontrols ? win.control_insns[win.ncontrols - 1] : 0;
    fprintf(stderr,
            "lowprof eval: %s: %llu events read in %.1f s: %llu loads, %llu edge and "
            "call tuples\n",
            t->name, (unsigned long long)win.events, now() - t1, (unsigned long long)win.nvalues,
            (unsigned long long)win.ncontrols);
    if (win.nvalues < o->events)
        fprintf(stderr, "lowprof eval: %s: note: only %llu loads in the trace (asked for %llu)\n",
                t->name, (unsigned long long)win.nvalues, (unsigned long long)o->events);
    rc = 1;
    lp_table exact_v = {0}, exact_e = {0}, exact_c = {0};
    uint64_t *cp = NULL, *cpc = NULL;
    size_t ncp = 0, ncpc = 0;
    if (win.nvalues == 0) {
        lp_host_fail("%s: the trace %s holds no loads", t->name, t->path);
        goto out;
    }
    if (lp__eval_exact(win.values, win.nvalues, LP_TUPLE_VALUE, &exact_v) != 0 ||
        lp__eval_exact(win.controls, win.ncontrols, LP_TUPLE_EDGE, &exact_e) != 0 ||
        lp__eval_exact(win.controls, win.ncontrols, LP_TUPLE_CALL_TARGET, &exact_c) != 0 ||
        !(ncp = lp__eval_checkpoints(win.nvalues, &cp))) {
        lp_host_fail("%s: out of memory", t->name);
        goto out;
    }
    w->runs = calloc(nspecs, sizeof *w->runs);
    if (!w->runs) {
        lp_host_fail("out of memory");
        goto out;
    }
    lp_eval_cmp_job job = {win.values, win.value_insns, win.nvalues, {&exact_v, NULL, NULL}, cp,
                           ncp,        o->seed};
    if (lp_eval_cmp_replay(&job, specs, nspecs, threads, t->name, w->runs) != 0)
        goto out;
    if (win.ncontrols) {
        if (!(ncpc = lp__eval_checkpoints(win.ncontrols, &cpc))) {
            lp_host_fail("out of memory");
            goto out;
        }
        lp_eval_cmp_job cj = {
            win.controls, win.control_insns, win.ncontrols, {NULL, &exact_e, &exact_c}, cpc, ncpc,
            o->seed};
        const char *cs[] = {control_spec};
        if (lp_eval_cmp_replay(&cj, cs, 1, 1, t->name, &w->control) != 0)
            goto out;
        w->have_control = 1;
    } else {
        fprintf(stderr,
                "lowprof eval: %s: no branch or call events in the trace; the edge and "
                "call-target part is skipped\n",
                t->name);
    }
    w->ok = 1;
    rc = 0;
out:
    w->replay_seconds = now() - t1;
    lp_table_fini(&exact_v);
    lp_table_fini(&exact_e);
    lp_table_fini(&exact_c);
    free(cp);
    free(cpc);
    lp__eval_window_fini(&win);
    return rc;
}

static void wl_result_fini(wl_result *w)
{
    for (size_t i = 0; w->runs && i < w->nspecs; i++)
        lp_eval_cmp_run_fini(&w->runs[i]);
    free(w->runs);
    if (w->have_control)
        lp_eval_cmp_run_fini(&w->control);
}

/* ---- tables -----------------------------------------------------------------------------------
 */

static const lp_eval_cmp_point *last_point(const lp_eval_cmp_run *r)
{
    return &r->points[r->npoints - 1];
}

/* Closes the CSV file in *f (if any), then opens OUT/name and writes its
 * header line. Returns 0, or -1 after printing why. */
static int next_csv(FILE **f, char *path, size_t cap, const char *dir, const char *name,
                    const char *header)
{
    if (*f && lp__eval_close(*f, path) != 0) {
        *f = NULL;
        return -1;
    }
    *f = lp__eval_open(dir, name, path, cap);
    if (!*f)
        return -1;
    fputs(header, *f);
    return 0;
}

/* The CSV files of parts 2-5 for every workload that ran. */
static int write_csvs(const lp_eval_cmp_opts *o, const wl_result *w, size_t nw)
{
    char path[4200];
    char a[32], b[32];
    FILE *f = NULL;
    if (next_csv(&f, path, sizeof path, o->out_dir, "value-curves.csv",
                 "workload,compressor,events,instructions,error,error_sofar,selected,"
                 "selected_sofar,messages,interrupts,cycles,overhead\n"))
        return 1;
    for (size_t i = 0; i < nw; i++)
        for (size_t k = 0; w[i].ok && k < w[i].nspecs; k++)
            for (size_t p = 0; p < w[i].runs[k].npoints; p++) {
                const lp_eval_cmp_point *x = &w[i].runs[k].points[p];
                fprintf(f, "%s,%s,%llu,%llu,%.6f,%.6f,%llu,%llu,%llu,%llu,%llu,%.6f\n", w[i].name,
                        w[i].specs[k], (unsigned long long)x->tuples, (unsigned long long)x->insns,
                        x->error[0], x->sofar[0], (unsigned long long)x->selected[0],
                        (unsigned long long)x->sofar_selected[0], (unsigned long long)x->messages,
                        (unsigned long long)x->interrupts, (unsigned long long)x->cycles,
                        x->overhead);
            }
    if (next_csv(&f, path, sizeof path, o->out_dir, "value-summary.csv",
                 "workload,compressor,events,instructions,reach_5pct,stay_5pct,final_error,"
                 "reach_5pct_sofar,stay_5pct_sofar,drained_error,final_overhead,messages,"
                 "first_level_messages\n"))
        return 1;
    for (size_t i = 0; i < nw; i++)
        for (size_t k = 0; w[i].ok && k < w[i].nspecs; k++) {
            const lp_eval_cmp_run *r = &w[i].runs[k];
            const lp_eval_cmp_point *x = last_point(r);
            fprintf(f, "%s,%s,%llu,%llu,", w[i].name, r->spec, (unsigned long long)x->tuples,
                    (unsigned long long)x->insns);
            for (int sofar = 0; sofar < 2; sofar++) {
                uint64_t reach = lp_eval_cmp_reach(r, 0, sofar, VALUE_LIMIT);
                uint64_t stay = lp_eval_cmp_stay(r, 0, sofar, VALUE_LIMIT);
                snprintf(a, sizeof a, "%llu", (unsigned long long)reach);
                snprintf(b, sizeof b, "%llu", (unsigned long long)stay);
                fprintf(f, "%s,%s,", reach == UINT64_MAX ? "never" : a,
                        stay == UINT64_MAX ? "never" : b);
                if (!sofar)
                    fprintf(f, "%.6f,", x->error[0]);
            }
            fprintf(f, "%.6f,%.6f,%llu,%llu\n", r->drained.error[0], x->overhead,
                    (unsigned long long)x->messages, (unsigned long long)r->first_level_messages);
        }
    if (next_csv(&f, path, sizeof path, o->out_dir, "twolevel.csv",
                 "workload,compressor,messages,messages_a16,reduction,overhead,overhead_a16\n"))
        return 1;
    for (size_t i = 0; i < nw; i++)
        for (size_t k = 0; w[i].ok && k < NTWO; k++) {
            const lp_eval_cmp_run *r1 = find_run(&w[i], two_specs[k][0]);
            const lp_eval_cmp_run *r2 = find_run(&w[i], two_specs[k][1]);
            if (!r1 || !r2)
                continue;
            const lp_eval_cmp_point *x1 = last_point(r1), *x2 = last_point(r2);
            fprintf(f, "%s,%s,%llu,%llu,%.4f,%.6f,%.6f\n", w[i].name, two_specs[k][0],
                    (unsigned long long)x1->messages, (unsigned long long)x2->messages,
                    x2->messages ? (double)x1->messages / (double)x2->messages : 0.0, x1->overhead,
                    x2->overhead);
        }
    if (next_csv(&f, path, sizeof path, o->out_dir, "edgecall.csv",
                 "workload,compressor,tuples,edge_tuples,call_tuples,instructions,edge_error,"
                 "call_error,edge_selected,call_selected,drained_edge_error,drained_call_error,"
                 "messages,overhead\n"))
        return 1;
    for (size_t i = 0; i < nw; i++) {
        if (!w[i].ok || !w[i].have_control)
            continue;
        const lp_eval_cmp_run *r = &w[i].control;
        const lp_eval_cmp_point *x = last_point(r);
        fprintf(f, "%s,%s,%llu,%llu,%llu,%llu,%.6f,%.6f,%llu,%llu,%.6f,%.6f,%llu,%.6f\n", w[i].name,
                r->spec, (unsigned long long)x->tuples, (unsigned long long)w[i].edges,
                (unsigned long long)w[i].calls, (unsigned long long)x->insns, x->error[1],
                x->error[2], (unsigned long long)x->selected[1], (unsigned long long)x->selected[2],
                r->drained.error[1], r->drained.error[2], (unsigned long long)x->messages,
                x->overhead);
    }
    if (next_csv(&f, path, sizeof path, o->out_dir, "windows.csv",
                 "workload,ok,events_read,loads,edge_tuples,call_tuples,instructions_loads,"
                 "instructions_controls,whole_trace,record_seconds,replay_seconds\n"))
        return 1;
    for (size_t i = 0; i < nw; i++)
        fprintf(f, "%s,%d,%llu,%llu,%llu,%llu,%llu,%llu,%d,%.1f,%.1f\n", w[i].name, w[i].ok,
                (unsigned long long)w[i].events, (unsigned long long)w[i].loads,
                (unsigned long long)w[i].edges, (unsigned long long)w[i].calls,
                (unsigned long long)w[i].insns_values, (unsigned long long)w[i].insns_controls,
                w[i].whole_trace, w[i].record_seconds, w[i].replay_seconds);
    return lp__eval_close(f, path) ? 1 : 0;
}

/* One gnuplot script per workload: error and overhead against events (log
 * x) for the main compressors, and error for the sensitivity set. */
static int write_plots(const lp_eval_cmp_opts *o, const wl_result *w, const char *const *list,
                       size_t nlist, FILE *md)
{
    char name[128], path[4200];
    snprintf(name, sizeof name, "value-%s.gp", w->name);
    FILE *f = lp__eval_open(o->out_dir, name, path, sizeof path);
    if (!f)
        return 1;
    const char *csv = "value-curves.csv";
    fprintf(f, "set terminal svg size 800,500 dynamic\nset datafile separator ','\n"
               "set logscale x 2\nset format x '%%.0s%%c'\nset grid\nset key top right\n"
               "set xlabel 'load events'\n");
    static const struct {
        const char *what, *title, *ylabel, *column;
        int sens; /* plots the sensitivity set rather than the main list */
    } graphs[] = {
        {"error", "error against the whole window", "invariance error (%)", "$7 > 0 ? 100*$5 : NaN",
         0},
        {"error-sofar", "error against the loads so far", "invariance error (%)",
         "$8 > 0 ? 100*$6 : NaN", 0},
        {"overhead", "cumulative overhead", "overhead (%)", "100*$12", 0},
        {"sensitivity", "H[P256]_n, error against the loads so far", "invariance error (%)",
         "$8 > 0 ? 100*$6 : NaN", 1},
    };
    for (size_t g = 0; g < sizeof graphs / sizeof graphs[0]; g++) {
        const char *const *set = graphs[g].sens ? sens_specs : list;
        size_t nset = graphs[g].sens ? NSENS : nlist;
        fprintf(f, "set output '%s/%s-%s.svg'\nset title '%s: %s'\nset ylabel '%s'\nplot ",
                o->out_dir, graphs[g].what, w->name, w->name, graphs[g].title, graphs[g].ylabel);
        for (size_t i = 0; i < nset; i++)
            fprintf(f,
                    "%s'%s/%s' using (strcol(1) eq '%s' && strcol(2) eq '%s' ? $3 : NaN):(%s) "
                    "with linespoints title '%s'",
                    i ? ", \\\n     " : "", o->out_dir, csv, w->name, set[i], graphs[g].column,
                    set[i]);
        fprintf(f, "\n");
    }
    if (lp__eval_close(f, path))
        return 1;
    if (lp__eval_plot(o->out_dir, path) == 0)
        fprintf(md, "Plots (%s): %s/{error,error-sofar,overhead,sensitivity}-%s.svg\n\n", w->name,
                o->out_dir, w->name);
    return 0;
}

/* "3.1x" or a lower bound when the slower one never got there. */
static void ratio_text(uint64_t slow, uint64_t fast, uint64_t window, char *buf, size_t cap)
{
    if (fast == UINT64_MAX)
        snprintf(buf, cap, "n/a (H[P256]2048 never)");
    else if (slow == UINT64_MAX)
        snprintf(buf, cap, "> %.1fx (R256 never, within %llu)", (double)window / (double)fast,
                 (unsigned long long)window);
    else
        snprintf(buf, cap, "%.1fx", (double)slow / (double)fast);
}

static const char *verdict(double ratio, double paper)
{
    return ratio >= paper ? "holds" : ratio > 1.0 ? "weaker" : "no";
}

/* The same when R256 never got there: the ratio is a lower bound and the
 * direction is the paper's. */
static const char *verdict_bound(double ratio, double paper)
{
    return ratio >= paper ? "holds" : "weaker";
}

/* "3.53M / 92.7K": the figure against the whole window, then so far. */
static const char *both(uint64_t (*f)(const lp_eval_cmp_run *, unsigned, int, double),
                        const lp_eval_cmp_run *r, char *buf, size_t cap)
{
    char a[32], b[32];
    snprintf(buf, cap, "%s / %s", lp__eval_events_text(f(r, 0, 0, VALUE_LIMIT), a, sizeof a),
             lp__eval_events_text(f(r, 0, 1, VALUE_LIMIT), b, sizeof b));
    return buf;
}

/* One row of the gcc-finding table, judged against the whole window
 * (sofar 0) or the tuples so far (1). */
static void finding_row(const wl_result *w, int sofar, FILE *md)
{
    const lp_eval_cmp_run *r = find_run(w, "R256"), *h = find_run(w, "H[P256]2048"),
                          *h5 = find_run(w, "H[P512]2048");
    if (!w->ok || !r || !h || !h5)
        return;
    char a[64], b[64], reach[96], stay[96], c[96];
    uint64_t rr = lp_eval_cmp_reach(r, 0, sofar, VALUE_LIMIT);
    uint64_t hr = lp_eval_cmp_reach(h, 0, sofar, VALUE_LIMIT);
    uint64_t rs = lp_eval_cmp_stay(r, 0, sofar, VALUE_LIMIT);
    uint64_t hs = lp_eval_cmp_stay(h, 0, sofar, VALUE_LIMIT);
    uint64_t window = last_point(r)->tuples;
    ratio_text(rr, hr, window, a, sizeof a);
    snprintf(reach, sizeof reach, "%s -> %s", a,
             hr == UINT64_MAX   ? "no"
             : rr == UINT64_MAX ? verdict_bound((double)window / (double)hr, 3.0)
                                : verdict((double)rr / (double)hr, 3.0));
    ratio_text(rs, hs, window, b, sizeof b);
    snprintf(stay, sizeof stay, "%s -> %s", b,
             hs == UINT64_MAX   ? "no"
             : rs == UINT64_MAX ? verdict_bound((double)window / (double)hs, 20.0)
                                : verdict((double)rs / (double)hs, 20.0));
    const lp_eval_cmp_point *xr = last_point(r), *x5 = last_point(h5);
    double er = sofar ? xr->sofar[0] : xr->error[0], e5 = sofar ? x5->sofar[0] : x5->error[0];
    double ov = xr->overhead > 0 ? x5->overhead / xr->overhead : 0;
    /* "Matches": within a quarter of R256's error, or half a point. */
    int match = e5 <= er * 1.25 || e5 - er <= 0.005;
    snprintf(c, sizeof c, "%.2f / %.2f -> %s", 100 * er, 100 * e5,
             match ? (e5 < er ? "holds (better)" : "holds") : "no");
    fprintf(md, "| %s%s | %s | %s | %s | %s | %.2f -> %s |\n", w->name,
            strcmp(w->name, "cc1") == 0 ? " (the C compiler)" : "", sofar ? "so far" : "window",
            reach, stay, c, ov,
            ov <= 0.6 ? "holds"
            : ov < 1  ? "weaker"
                      : "no");
}

static void write_markdown(const lp_eval_cmp_opts *o, const wl_result *w, size_t nw,
                           const char *const *list, size_t nlist, FILE *md)
{
    char a[64], b[64];
    fprintf(md,
            "## Load-value profiling on the workload suite (paper Figs. 7-8)\n\n"
            "Each workload's first %llu loads (fewer where the run has fewer), replayed "
            "offline from one event trace. Error: invariance error (paper 5.3.1, filters "
            "1000 / 10 %% / 40 %%) of the estimate so far, against the exact value profile "
            "of the whole replayed window (\"window\") and against the exact profile of "
            "the loads seen so far (\"so far\": sampling error alone, without the "
            "program's phase changes). Overhead: modeled cycles (214 per interrupt of 100 "
            "messages, 30 per message) over program instructions so far, assuming one "
            "cycle per instruction. Reach: first checkpoint (quarter octaves from 32K "
            "loads) under 5 %%; stays: first checkpoint from which every later one is "
            "under 5 %%.\n\n",
            (unsigned long long)o->events);
    fprintf(md, "| workload | loads | instructions | compressor | reach 5 %% window / so far | "
                "stays < 5 %% window / so far | final error %% window / so far | overhead %% | "
                "messages |\n|---|---:|---:|---|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < nw; i++) {
        if (!w[i].ok) {
            fprintf(md, "| %s | failed | | | | | | | |\n", w[i].name);
            continue;
        }
        for (size_t k = 0; k < nlist; k++) {
            const lp_eval_cmp_run *r = find_run(&w[i], list[k]);
            if (!r)
                continue;
            const lp_eval_cmp_point *x = last_point(r);
            fprintf(md, "| %s | %llu | %llu | %s | %s | %s | %.2f / %.2f | %.2f | %llu |\n",
                    w[i].name, (unsigned long long)w[i].loads,
                    (unsigned long long)w[i].insns_values, list[k],
                    both(lp_eval_cmp_reach, r, a, sizeof a), both(lp_eval_cmp_stay, r, b, sizeof b),
                    100 * x->error[0], 100 * x->sofar[0], 100 * x->overhead,
                    (unsigned long long)x->messages);
        }
    }

    fprintf(md, "\n### The paper's gcc finding, per workload\n\n"
                "Paper (gcc): H[P256]2048 reaches 5 %% about 3x sooner than R256 and stays "
                "under it more than 20x sooner; H[P512]2048 matches R256's accuracy at half "
                "the overhead. \"holds\": at least the paper's factor; \"weaker\": same "
                "direction, smaller factor; \"no\": not at all.\n\n"
                "| workload | error against | reach: R256 / H[P256]2048 | "
                "stays: R256 / H[P256]2048 | final error R256 / H[P512]2048 (%%) | "
                "overhead H[P512]2048 / R256 |\n|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < nw; i++)
        for (int sofar = 0; sofar < 2; sofar++)
            finding_row(&w[i], sofar, md);

    fprintf(md, "\n## Sensitivity to the table size n (paper Fig. 9)\n\n"
                "| workload | compressor | reach 5 %% window / so far | stays < 5 %% window / "
                "so far | final error %% window / so far | overhead %% |\n"
                "|---|---|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < nw; i++)
        for (size_t k = 0; w[i].ok && k < NSENS; k++) {
            const lp_eval_cmp_run *r = find_run(&w[i], sens_specs[k]);
            if (!r)
                continue;
            fprintf(md, "| %s | %s | %s | %s | %.2f / %.2f | %.2f |\n", w[i].name, sens_specs[k],
                    both(lp_eval_cmp_reach, r, a, sizeof a), both(lp_eval_cmp_stay, r, b, sizeof b),
                    100 * last_point(r)->error[0], 100 * last_point(r)->sofar[0],
                    100 * last_point(r)->overhead);
        }

    fprintf(md, "\n## Two-level compression: +A16 (paper Fig. 10)\n\n"
                "Messages reaching software over the window, without and with a 16-entry "
                "associative second level. Paper: reduction 1.15-2.5x.\n\n"
                "| workload | compressor | messages | with +A16 | reduction | overhead %% | "
                "with +A16 %% | final error %% | with +A16 %% |\n"
                "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    double rmin = INFINITY, rmax = 0;
    for (size_t i = 0; i < nw; i++)
        for (size_t k = 0; w[i].ok && k < NTWO; k++) {
            const lp_eval_cmp_run *r1 = find_run(&w[i], two_specs[k][0]);
            const lp_eval_cmp_run *r2 = find_run(&w[i], two_specs[k][1]);
            if (!r1 || !r2)
                continue;
            const lp_eval_cmp_point *x1 = last_point(r1), *x2 = last_point(r2);
            double red = x2->messages ? (double)x1->messages / (double)x2->messages : 0;
            rmin = fmin(rmin, red);
            rmax = fmax(rmax, red);
            fprintf(md, "| %s | %s | %llu | %llu | %.2fx | %.2f | %.2f | %.2f | %.2f |\n",
                    w[i].name, two_specs[k][0], (unsigned long long)x1->messages,
                    (unsigned long long)x2->messages, red, 100 * x1->overhead, 100 * x2->overhead,
                    100 * x1->error[0], 100 * x2->error[0]);
        }
    if (rmax > 0)
        fprintf(md, "\nReduction factors here: %.2fx to %.2fx (paper: 1.15x to 2.5x).\n", rmin,
                rmax);

    fprintf(md,
            "\n## Simultaneous edge and call-target profiling (paper Fig. 11)\n\n"
            "One %s compressor fed both tuple types (conditional branches and indirect "
            "jumps: edges; calls: call targets) from the trace's first %u M of them. Error: "
            "invariance error with only the 1000-execution filter (doc/metrics.md). "
            "Paper: error < 3 %%, overhead < 4.5 %%.\n\n"
            "| workload | edge tuples | call tuples | instructions | edge error %% window / "
            "so far | call-target error %% window / so far | overhead %% | paper's bounds |\n"
            "|---|---:|---:|---:|---:|---:|---:|---|\n",
            control_spec, (unsigned)(4));
    for (size_t i = 0; i < nw; i++) {
        if (!w[i].ok || !w[i].have_control)
            continue;
        const lp_eval_cmp_point *x = last_point(&w[i].control);
        int within = x->error[1] < 0.03 && x->error[2] < 0.03 && x->overhead < 0.045;
        fprintf(md, "| %s | %llu | %llu | %llu | %.2f / %.2f | %.2f / %.2f | %.2f | %s |\n",
                w[i].name, (unsigned long long)w[i].edges, (unsigned long long)w[i].calls,
                (unsigned long long)x->insns, 100 * x->error[1], 100 * x->sofar[1],
                100 * x->error[2], 100 * x->sofar[2], 100 * x->overhead,
                within ? "within" : "outside");
    }
    fprintf(md, "\n");
}

/* ---- the command ------------------------------------------------------------------------------
 */

static int parse_u64(const char *opt, const char *s, uint64_t lo, uint64_t *out)
{
    char *end;
    errno = 0;
    double mult = 1;
    unsigned long long v = strtoull(s, &end, 10);
    if (end != s && (*end == 'K' || *end == 'k'))
        mult = 1024, end++;
    else if (end != s && (*end == 'M' || *end == 'm'))
        mult = MEGA, end++;
    if (end == s || *end || errno || s[0] == '-' || (double)v * mult < (double)lo ||
        (double)v * mult > 1e12)
        return lp_host_usage("eval",
                            "%s needs a whole number of at least %llu (K and M "
                            "suffixes allowed), not '%s'",
                            opt, (unsigned long long)lo, s);
    *out = (uint64_t)((double)v * mult);
    return 0;
}

static int mkdir_all(const char *path)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return -1;
    for (char *s = buf + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return -1;
            *s = '/';
        }
    return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

int lp_eval_compressors(int argc, char **argv)
{
    lp_eval_cmp_alloc_install();
    lp_eval_cmp_opts o = {0};
    const char *out = "results/eval-compressors";
    uint64_t events = 0, trials = 0, mc_n = 4, seed = 1;
    o.size = "small";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = 1;
        if (strcmp(a, "--full") == 0)
            o.full = 1, takes = 0;
        else if (strcmp(a, "--keep-traces") == 0)
            o.keep_traces = 1, takes = 0;
        else if (strcmp(a, "--mc-only") == 0)
            o.mc_only = 1, takes = 0;
        else if (strcmp(a, "--no-mc") == 0)
            o.no_mc = 1, takes = 0;
        else if (!v && (strcmp(a, "--out") == 0 || strcmp(a, "--workloads") == 0 ||
                        strcmp(a, "--events") == 0 || strcmp(a, "--trials") == 0 ||
                        strcmp(a, "--trace") == 0 || strcmp(a, "--compressors") == 0 ||
                        strcmp(a, "--size") == 0 || strcmp(a, "--data") == 0 ||
                        strcmp(a, "--mc-lengths") == 0 || strcmp(a, "--mc-n") == 0 ||
                        strcmp(a, "--seed") == 0))
            return lp_host_usage("eval", "%s needs a value", a);
        else if (strcmp(a, "--out") == 0)
            out = v;
        else if (strcmp(a, "--workloads") == 0)
            o.workloads = v;
        else if (strcmp(a, "--trace") == 0)
            o.traces = v;
        else if (strcmp(a, "--compressors") == 0)
            o.compressors = v;
        else if (strcmp(a, "--size") == 0)
            o.size = v;
        else if (strcmp(a, "--data") == 0)
            o.data_dir = v;
        else if (strcmp(a, "--mc-lengths") == 0)
            o.mc_lengths = v;
        else if (strcmp(a, "--events") == 0) {
            if (parse_u64(a, v, 1, &events))
                return 2;
        } else if (strcmp(a, "--trials") == 0) {
            if (parse_u64(a, v, 1, &trials))
                return 2;
        } else if (strcmp(a, "--mc-n") == 0) {
            if (parse_u64(a, v, 1, &mc_n) || (mc_n & (mc_n - 1)) || mc_n > (1u << 24))
                return lp_host_usage("eval", "--mc-n must be a power of two up to 2^24");
        } else if (strcmp(a, "--seed") == 0) {
            if (parse_u64(a, v, 0, &seed))
                return 2;
        } else
            return lp_host_usage("eval", "unknown argument '%s' for eval compressors", a);
        if (takes)
            i++;
    }
    if (strcmp(o.size, "small") != 0 && strcmp(o.size, "full") != 0)
        return lp_host_usage("eval", "--size must be small or full, not '%s'", o.size);
    if (o.mc_only && o.no_mc)
        return lp_host_usage("eval", "--mc-only and --no-mc exclude each other");
    if (o.traces && o.workloads)
        return lp_host_usage("eval", "--trace and --workloads exclude each other");
    o.events = events ? events : (o.full ? 16 : 4) * (uint64_t)MEGA;
    o.trials = trials ? trials : o.full ? 2500 : 300;
    o.mc_n = (uint32_t)mc_n;
    o.seed = seed;

    char dir[PATH_MAX];
    if (mkdir_all(out) != 0 || !realpath(out, dir))
        return lp_host_fail("%s: %s", out, strerror(errno));
    o.out_dir = dir;
    char tdir[PATH_MAX + 16];
    snprintf(tdir, sizeof tdir, "%s/traces", dir);
    if (!o.mc_only && !o.traces && mkdir_all(tdir) != 0)
        return lp_host_fail("%s: %s", tdir, strerror(errno));

    /* Check everything the command line names before the long work. */
    const char **specs = NULL;
    size_t nspecs = 0, nlist = 0;
    lp__eval_workload *traces = NULL;
    size_t ntraces = 0;
    int rc = 0;
    if (!o.mc_only) {
        if ((rc = value_specs(&o, &specs, &nspecs, &nlist)) != 0)
            return rc;
        lp__eval_suite suite = suite_of(&o);
        if ((rc = lp__eval_wl_select(&suite, &traces, &ntraces)) != 0) {
            free(specs);
            return rc;
        }
    }
    /* The main list (the five of Figs. 7-8, or --compressors) comes first. */
    const char *const *list = specs;

    double t0 = now();
    char summary_path[PATH_MAX + 32];
    FILE *md = lp__eval_open(dir, "summary.md", summary_path, sizeof summary_path);
    if (!md) {
        free(specs);
        free(traces);
        return 1;
    }
    fprintf(md,
            "# lowprof eval compressors (%s mode)\n\n"
            "Reproduces Sastry, Bodik and Smith, \"Rapid Profiling via Stratified "
            "Sampling\": Monte Carlo (Fig. 4), load-value profiling (Figs. 7-8), "
            "sensitivity (Fig. 9), two-level compression (Fig. 10), edge and call-target "
            "profiling (Fig. 11). See doc/lowprof-eval.md.\n\n",
            o.full ? "full" : "small");
    if (!o.no_mc && lp_eval_cmp_mc(&o, md) != 0)
        rc = 1;

    wl_result *w = NULL;
    size_t failed = 0;
    if (rc == 0 && !o.mc_only) {
        w = calloc(ntraces ? ntraces : 1, sizeof *w);
        if (!w) {
            rc = lp_host_fail("out of memory");
        } else {
            long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
            unsigned threads = ncpu > 0 ? (unsigned)(ncpu < 16 ? ncpu : 16) : 1;
            const uint64_t max_controls = 4 * (uint64_t)MEGA;
            for (size_t i = 0; i < ntraces; i++) {
                fprintf(stderr, "lowprof eval: [%zu/%zu] %s\n", i + 1, ntraces, traces[i].name);
                if (run_workload(&o, &traces[i], specs, nspecs, max_controls, threads, &w[i]))
                    failed++;
            }
            if (write_csvs(&o, w, ntraces) != 0)
                rc = 1;
            write_markdown(&o, w, ntraces, list, nlist, md);
            for (size_t i = 0; rc == 0 && i < ntraces; i++)
                if (w[i].ok && write_plots(&o, &w[i], list, nlist, md) != 0)
                    rc = 1;
        }
    }
    if (!lp__eval_have_program("gnuplot"))
        fprintf(md, "Plots skipped: gnuplot is not installed (apt-get install gnuplot-nox); "
                    "the .gp scripts are written and can be run later.\n\n");
    double seconds = now() - t0;
    fprintf(md,
            "Took %.0f s. Files: %s (summary.md, mc.csv/.md, value-curves.csv, "
            "value-summary.csv, twolevel.csv, edgecall.csv, windows.csv, *.svg).\n",
            seconds, dir);
    if (lp__eval_close(md, summary_path) != 0)
        rc = 1;
    else {
        /* The summary, as written, on standard output. */
        FILE *f = fopen(summary_path, "r");
        char buf[8192];
        size_t got;
        while (f && (got = fread(buf, 1, sizeof buf, f)) > 0)
            fwrite(buf, 1, got, stdout);
        if (f)
            fclose(f);
    }
    if (failed)
        rc = lp_host_fail("%zu of %zu workloads failed (see the messages above)", failed, ntraces);
    for (size_t i = 0; w && i < ntraces; i++)
        wl_result_fini(&w[i]);
    free(w);
    free(specs);
    free(traces);
    return rc;
}
