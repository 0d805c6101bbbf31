/* lowprof eval value: reproduces the evaluation of the programmable
 * profiling co-processor (Zilles and Sohi, paper 004) on the workload
 * suite. Each workload's first N loads are recorded once as an event
 * trace and replayed offline through the co-processor model (value.h:
 * filter, sample buffer, slots, interrupt handler, final estimation) and
 * through simple sampling (every r-th load, sample.h's P_r, with its
 * interrupt cost model), and both estimates are compared with the exact
 * value profile of the window by the weighted RMS error of invariance
 * (metrics.h). Parts:
 *
 *   (a) error against overhead per workload (the paper's Fig. 1 and its
 *       quantitative results), with the matched-overhead question;
 *   (b) convergence over time on the C compiler;
 *   (c) sensitivity to the slot array and the co-processor's clock;
 *   (d) estimated against true invariance per load (the paper's scatter).
 *
 * Tuned for: the small mode (three workloads, 4 M loads each) in a few
 * minutes on two cores; --full (every workload, 16 M loads) in well under
 * an hour. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "eval_value.h"
#include "lowprof/suite.h"

#define MEGA (1024u * 1024u)

/* Simple sampling's rates: from a sample every 10 loads, far more than any
 * deployed sampler takes, to one in 3000. */
static const uint32_t default_rates[] = {10, 30, 100, 300, 1000, 3000};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static lp__eval_suite suite_of(const lp_eval_val_opts *o)
{
    lp__eval_suite s = {o->full, o->out_dir, o->workloads, o->traces, o->size, o->data_dir};
    return s;
}

/* ---- one workload ------------------------------------------------------------------ */

/* Loads of the exact profile, and those executed at least min_count times. */
static int count_loads(const lp_table *exact, uint64_t min_count, uint64_t *out_loads,
                       uint64_t *out_measured)
{
    lp_table per_pc;
    if (lp_table_init(&per_pc, 1024) != 0)
        return LP_ENOMEM;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(exact, &cur)) != NULL) {
        lp_entry *p = lp_table_upsert(&per_pc, (lp_key){e->key.a, 0});
        if (!p) {
            lp_table_fini(&per_pc);
            return LP_ENOMEM;
        }
        p->v[0] += e->v[0];
    }
    *out_loads = per_pc.count;
    *out_measured = 0;
    cur = 0;
    while ((e = lp_table_next(&per_pc, &cur)) != NULL)
        *out_measured += e->v[0] >= min_count;
    lp_table_fini(&per_pc);
    return 0;
}

/* Records (unless given), loads and replays one workload. */
static int run_workload(const lp_eval_val_opts *o, lp__eval_workload *t, unsigned threads,
                        lp_eval_val_wl *w)
{
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "%s", t->name);
    double t0 = now();
    if (t->recorded) {
        fprintf(stderr, "lowprof eval: %s: recording the load trace...\n", t->name);
        lp__eval_suite suite = suite_of(o);
        /* Loads alone: the limit is then the number of loads. */
        if (lp__eval_trace_record(&suite, t, "load", o->skip + o->events,
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
    int rc = lp__eval_window_load(t->path, (size_t)o->skip, (size_t)o->events, 0, &win);
    if (t->recorded && !o->keep_traces)
        remove(t->path);
    if (rc)
        return 1;
    w->events = win.events;
    w->loads = win.nvalues;
    w->whole_trace = win.whole_trace;
    w->insns = win.nvalues ? win.value_insns[win.nvalues - 1] + 1 : 0;
    fprintf(stderr, "lowprof eval: %s: %llu loads over %llu instructions read in %.1f s\n",
            t->name, (unsigned long long)win.nvalues, (unsigned long long)w->insns, now() - t1);
    if (win.nvalues < o->events)
        fprintf(stderr, "lowprof eval: %s: note: only %llu loads in the trace (asked for %llu)\n",
                t->name, (unsigned long long)win.nvalues, (unsigned long long)o->events);
    rc = 1;
    lp_table exact = {0};
    uint64_t *cp = NULL;
    size_t ncp = 0;
    if (win.nvalues == 0) {
        lp_host_fail("%s: the trace %s holds no loads", t->name, t->path);
        goto out;
    }
    if (lp__eval_exact(win.values, win.nvalues, LP_TUPLE_VALUE, &exact) != 0 ||
        count_loads(&exact, o->min_count, &w->static_loads, &w->measured_loads) != 0 ||
        !(ncp = lp__eval_checkpoints(win.nvalues, &cp))) {
        lp_host_fail("%s: out of memory", t->name);
        goto out;
    }
    w->pairs = exact.count;
    fprintf(stderr,
            "lowprof eval: %s: %llu static loads, %llu executed at least %llu times, %llu "
            "(pc, value) pairs\n",
            t->name, (unsigned long long)w->static_loads, (unsigned long long)w->measured_loads,
            (unsigned long long)o->min_count, (unsigned long long)w->pairs);
    if (lp_eval_val_runs_make(o, &w->runs, &w->nruns) != 0)
        goto out;
    lp_eval_val_job job = {win.values, win.value_insns, win.nvalues, &exact, cp, ncp,
                           o->min_count, o->seed};
    if (lp_eval_val_replay(&job, w->runs, w->nruns, threads, t->name) != 0)
        goto out;
    w->ok = 1;
    rc = 0;
out:
    w->replay_seconds = now() - t1;
    lp_table_fini(&exact);
    free(cp);
    lp__eval_window_fini(&win);
    return rc;
}

/* ---- summary ----------------------------------------------------------------------- */

static void windows_md(const lp_eval_val_opts *o, const lp_eval_val_wl *w, size_t nw, FILE *md)
{
    fprintf(md,
            "## Windows\n\n"
            "| workload | loads | instructions | static loads | executed ≥ %llu times | "
            "(pc, value) pairs | recorded in s | replayed in s |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|\n",
            (unsigned long long)o->min_count);
    for (size_t i = 0; i < nw; i++) {
        if (!w[i].ok) {
            fprintf(md, "| %s | failed | | | | | | |\n", w[i].name);
            continue;
        }
        fprintf(md, "| %s | %llu | %llu | %llu | %llu | %llu | %.0f | %.0f |\n", w[i].name,
                (unsigned long long)w[i].loads, (unsigned long long)w[i].insns,
                (unsigned long long)w[i].static_loads, (unsigned long long)w[i].measured_loads,
                (unsigned long long)w[i].pairs, w[i].record_seconds, w[i].replay_seconds);
    }
    fprintf(md, "\n");
}

/* The answer for one workload in a sentence with its figures. */
static void answer_text(const lp_eval_val_wl *w, FILE *md)
{
    lp_eval_val_verdict v;
    if (lp_eval_val_judge(w, &v) != 0) {
        fprintf(md, "- **%s**: not measured (no co-processor or simple-sampling run).\n",
                w->name);
        return;
    }
    fprintf(md,
            "- **%s: %s.** The co-processor's weighted RMS error is %.2f %% at a modelled "
            "overhead of %.3f %%. ",
            w->name, lp_eval_val_answer_text(v.answer), 100 * v.coproc_error,
            100 * v.coproc_overhead);
    if (v.lo && v.hi)
        fprintf(md,
                "Simple sampling at twice that overhead (%.3f %%, between %s at %.3f %% and %s "
                "at %.3f %%) has an error of about %.2f %%. ",
                100 * v.twice_overhead, v.lo->name, 100 * v.lo->final.overhead, v.hi->name,
                100 * v.hi->final.overhead, 100 * v.simple_error);
    else if (v.hi)
        fprintf(md,
                "Twice that overhead (%.3f %%) is below every tested rate's; the cheapest, "
                "%s, costs %.3f %% with an error of %.2f %%. ",
                100 * v.twice_overhead, v.hi->name, 100 * v.hi->final.overhead,
                100 * v.hi->final.error);
    else
        fprintf(md,
                "Twice that overhead (%.3f %%) is above every tested rate's; the dearest, "
                "%s, costs %.3f %% with an error of %.2f %%. ",
                100 * v.twice_overhead, v.lo->name, 100 * v.lo->final.overhead,
                100 * v.lo->final.error);
    if (v.needed_bound == 0)
        fprintf(md,
                "To match the co-processor's error, simple sampling needs about %.3f %% "
                "overhead, %.1f times the co-processor's.\n",
                100 * v.needed_overhead, v.needed_overhead / v.coproc_overhead);
    else if (v.needed_bound < 0)
        fprintf(md,
                "Even the cheapest rate tested matches the co-processor's error, at %.3f %% "
                "overhead.\n",
                100 * v.needed_overhead);
    else
        fprintf(md, "No tested rate reaches the co-processor's error.\n");
}

/* The paper's largest workloads are gcc and perl: cc1 stands for gcc here;
 * perl is answered for when the suite has it. */
static void question_md(const lp_eval_val_opts *o, const lp_eval_val_wl *w, size_t nw, FILE *md)
{
    fprintf(md, "## The question\n\n"
                "Does the co-processor reach a lower weighted RMS error than simple sampling "
                "at no more than half simple sampling's modelled overhead? (The paper's claim "
                "on its largest workloads, gcc and perl.)\n\n");
    int cc1 = 0, perl_ran = 0;
    for (size_t i = 0; i < nw; i++) {
        int is_cc1 = strcmp(w[i].name, "cc1") == 0, is_perl = strncmp(w[i].name, "perl", 4) == 0;
        if (!w[i].ok || !(is_cc1 || is_perl))
            continue;
        cc1 |= is_cc1;
        perl_ran |= is_perl;
        answer_text(&w[i], md);
    }
    if (!cc1)
        fprintf(md, "- **cc1**: not in this run (`--workloads cc1`).\n");
    if (!perl_ran) {
        int in_suite = 0;
        lp_wl_manifest m;
        if (lp_wl_manifest_load(LP_WL_MANIFEST, &m) == 0) {
            for (size_t i = 0; i < m.count; i++)
                in_suite |= !lp_wl_entry_is_prepare(&m.items[i]) &&
                            strncmp(m.items[i].name, "perl", 4) == 0;
            lp_wl_manifest_fini(&m);
        }
        fprintf(md, "- **perl**: %s\n",
                in_suite ? "in the suite but not in this run (`--workloads perl...`)."
                         : "the suite (workloads/suite.tsv) has no perl workload.");
    }
    fprintf(md, "\nEvery workload's answer is in the table below. Errors are measured over "
                "loads executed at least %llu times.\n\n",
                (unsigned long long)o->min_count);
}

/* ---- the command ------------------------------------------------------------------- */

static int parse_u64(const char *opt, const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    uint64_t mult = 1;
    if (end != s && (*end == 'K' || *end == 'k'))
        mult = 1024, end++;
    else if (end != s && (*end == 'M' || *end == 'm'))
        mult = MEGA, end++;
    if (end == s || *end || errno || s[0] == '-' || v > hi / mult || v * mult < lo)
        return lp_host_usage("eval value",
                             "%s needs a whole number from %llu to %llu (K and M suffixes "
                             "allowed), not '%s'",
                             opt, (unsigned long long)lo, (unsigned long long)hi, s);
    *out = v * mult;
    return 0;
}

/* "10,30,100": ascending and distinct into o->rates. */
static int parse_rates(const char *text, lp_eval_val_opts *o)
{
    o->nrates = 0;
    for (const char *p = text;;) {
        size_t len = strcspn(p, ",");
        char one[32];
        uint64_t r;
        if (len == 0 || len >= sizeof one)
            return lp_host_usage("eval value", "--rates needs comma-separated whole numbers, "
                                               "not '%s'", text);
        memcpy(one, p, len);
        one[len] = '\0';
        if (parse_u64("--rates", one, 1, 1u << 30, &r))
            return 2;
        size_t k = 0;
        while (k < o->nrates && o->rates[k] < r)
            k++;
        if (k == o->nrates || o->rates[k] != r) {
            if (o->nrates == LP_EVAL_VAL_MAX_RATES)
                return lp_host_usage("eval value", "--rates takes at most %d rates",
                                     LP_EVAL_VAL_MAX_RATES);
            memmove(&o->rates[k + 1], &o->rates[k], (o->nrates - k) * sizeof o->rates[0]);
            o->rates[k] = (uint32_t)r;
            o->nrates++;
        }
        p += len;
        if (!*p)
            return 0;
        p++;
    }
}

static int parse_fraction(const char *opt, const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v > 0 && v <= 1))
        return lp_host_usage("eval value", "%s needs a fraction in (0, 1], not '%s'", opt, s);
    *out = v;
    return 0;
}

/* Options that take a value. */
static int takes_value(const char *a)
{
    static const char *const with[] = {"--out",  "--workloads", "--trace",     "--events",
                                       "--size", "--data",      "--seed",      "--rates",
                                       "--conv-rate", "--min-count", "--limit", "--coproc",
                                       "--skip"};
    for (size_t i = 0; i < sizeof with / sizeof with[0]; i++)
        if (strcmp(a, with[i]) == 0)
            return 1;
    return 0;
}

/* Fills *o from the command line. Returns 0 or 2 after printing why. */
static int parse_args(int argc, char **argv, lp_eval_val_opts *o, const char **out_dir)
{
    uint64_t events = 0, skip = 0, seed = 1, conv = 0, min_count = 100;
    const char *rates = NULL;
    o->size = "small";
    o->limit = 0.10;
    *out_dir = "results/eval-value";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--full") == 0) {
            o->full = 1;
            continue;
        }
        if (strcmp(a, "--keep-traces") == 0) {
            o->keep_traces = 1;
            continue;
        }
        if (!takes_value(a))
            return lp_host_usage("eval value", "unknown argument '%s' for eval value", a);
        if (i + 1 >= argc)
            return lp_host_usage("eval value", "%s needs a value", a);
        const char *v = argv[++i];
        int rc = 0;
        if (strcmp(a, "--out") == 0)
            *out_dir = v;
        else if (strcmp(a, "--workloads") == 0)
            o->workloads = v;
        else if (strcmp(a, "--trace") == 0)
            o->traces = v;
        else if (strcmp(a, "--size") == 0)
            o->size = v;
        else if (strcmp(a, "--data") == 0)
            o->data_dir = v;
        else if (strcmp(a, "--coproc") == 0)
            o->coproc_text = v;
        else if (strcmp(a, "--rates") == 0)
            rates = v;
        else if (strcmp(a, "--events") == 0)
            rc = parse_u64(a, v, 1, (uint64_t)1 << 34, &events);
        else if (strcmp(a, "--skip") == 0)
            rc = parse_u64(a, v, 0, (uint64_t)1 << 34, &skip);
        else if (strcmp(a, "--seed") == 0)
            rc = parse_u64(a, v, 1, UINT32_MAX, &seed);
        else if (strcmp(a, "--conv-rate") == 0)
            rc = parse_u64(a, v, 1, 1u << 30, &conv);
        else if (strcmp(a, "--min-count") == 0)
            rc = parse_u64(a, v, 1, UINT64_MAX, &min_count);
        else
            rc = parse_fraction(a, v, &o->limit);
        if (rc)
            return 2;
    }
    if (strcmp(o->size, "small") != 0 && strcmp(o->size, "full") != 0)
        return lp_host_usage("eval value", "--size must be small or full, not '%s'", o->size);
    if (o->traces && o->workloads)
        return lp_host_usage("eval value", "--trace and --workloads exclude each other");
    if (rates) {
        if (parse_rates(rates, o))
            return 2;
    } else {
        o->nrates = sizeof default_rates / sizeof default_rates[0];
        memcpy(o->rates, default_rates, sizeof default_rates);
    }
    if (conv) {
        int found = 0;
        for (size_t k = 0; k < o->nrates; k++)
            found |= o->rates[k] == conv;
        if (!found)
            return lp_host_usage("eval value", "--conv-rate %llu is not one of the rates",
                                 (unsigned long long)conv);
    }
    o->conv_rate = (uint32_t)conv;
    o->events = events ? events : (o->full ? 16 : 4) * (uint64_t)MEGA;
    o->skip = skip;
    o->seed = seed;
    o->min_count = min_count;
    lp_value_options_default(&o->coproc);
    o->coproc.seed = (uint32_t)seed;
    if (o->coproc_text) {
        lp_value_parse_error err;
        if (lp_value_options_parse(o->coproc_text, &o->coproc, &err) != 0)
            return lp_host_usage("eval value", "--coproc: %s%s%s at character %zu of '%s'",
                                 err.field ? err.field : "", err.field ? ": " : "",
                                 err.why ? err.why : "bad option", err.offset + 1,
                                 o->coproc_text);
    }
    return 0;
}

int lp_eval_value(int argc, char **argv)
{
    lp_eval_val_opts o;
    memset(&o, 0, sizeof o);
    const char *out;
    int rc = parse_args(argc, argv, &o, &out);
    if (rc)
        return rc;
    char dir[PATH_MAX];
    if (lp_wl_make_dirs(out) != 0 || !realpath(out, dir))
        return lp_host_fail("%s: %s", out, strerror(errno));
    o.out_dir = dir;
    char tdir[PATH_MAX + 16];
    snprintf(tdir, sizeof tdir, "%s/traces", dir);
    if (!o.traces && lp_wl_make_dirs(tdir) != 0)
        return lp_host_fail("%s: %s", tdir, strerror(errno));

    /* Check every name the command line gives before the long work. */
    lp__eval_workload *wls = NULL;
    size_t nwls = 0;
    lp__eval_suite suite = suite_of(&o);
    if ((rc = lp__eval_wl_select(&suite, &wls, &nwls)) != 0)
        return rc;

    double t0 = now();
    lp_eval_val_wl *w = calloc(nwls ? nwls : 1, sizeof *w);
    if (!w) {
        free(wls);
        return lp_host_fail("out of memory");
    }
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned threads = ncpu > 0 ? (unsigned)(ncpu < 16 ? ncpu : 16) : 1;
    size_t failed = 0;
    for (size_t i = 0; i < nwls; i++) {
        fprintf(stderr, "lowprof eval: [%zu/%zu] %s\n", i + 1, nwls, wls[i].name);
        if (run_workload(&o, &wls[i], threads, &w[i]) != 0)
            failed++;
    }
    const lp_eval_val_wl *focus = NULL;
    for (size_t i = 0; i < nwls; i++) {
        if (!w[i].ok)
            continue;
        if (!focus)
            focus = &w[i]; /* the first that ran, unless cc1 did */
        if (strcmp(w[i].name, "cc1") == 0) {
            focus = &w[i];
            break;
        }
    }

    char summary_path[PATH_MAX + 32];
    FILE *md = lp__eval_open(dir, "summary.md", summary_path, sizeof summary_path);
    rc = md ? 0 : 1;
    if (md) {
        fprintf(md,
                "# lowprof eval value (%s mode)\n\n"
                "Reproduces Zilles and Sohi, \"A Programmable Co-Processor for Profiling\": "
                "the co-processor's load-value profiler against simple sampling. See "
                "doc/eval-value.md.\n\nCommand: `lowprof eval",
                o.full ? "full" : "small");
        for (int i = 0; i < argc; i++)
            fprintf(md, " %s", argv[i]);
        if (o.skip)
            fprintf(md, "`. Window: %llu loads of each workload after its first %llu.",
                    (unsigned long long)o.events, (unsigned long long)o.skip);
        else
            fprintf(md, "`. Window: the first %llu loads of each workload.",
                    (unsigned long long)o.events);
        fprintf(md, " Co-processor: %s%s. Simple sampling: P<r> for r in",
                o.coproc_text ? "defaults with " : "the defaults",
                o.coproc_text ? o.coproc_text : "");
        for (size_t k = 0; k < o.nrates; k++)
            fprintf(md, "%s %u", k ? "," : "", o.rates[k]);
        fprintf(md, ". Error: weighted RMS error of invariance over loads executed at least "
                    "%llu times.\n\n",
                (unsigned long long)o.min_count);
        windows_md(&o, w, nwls, md);
        question_md(&o, w, nwls, md);
        if (lp_eval_val_write(&o, w, nwls, focus, md) != 0)
            rc = 1;
        if (!lp__eval_have_program("gnuplot"))
            fprintf(md, "Plots skipped: gnuplot is not installed (apt-get install gnuplot-nox); "
                        "the .gp scripts are written and can be run later.\n\n");
        fprintf(md,
                "Took %.0f s. Files: %s (summary.md, errovh.csv/.md, convergence.csv, "
                "sensitivity.csv/.md, scatter.csv, windows.csv, *.gp, *.svg).\n",
                now() - t0, dir);
        if (lp__eval_close(md, summary_path) != 0) {
            rc = 1;
        } else {
            /* The summary, as written, on standard output. */
            FILE *f = fopen(summary_path, "r");
            char buf[8192];
            size_t got;
            while (f && (got = fread(buf, 1, sizeof buf, f)) > 0)
                fwrite(buf, 1, got, stdout);
            if (f)
                fclose(f);
        }
    }
    if (failed)
        rc = lp_host_fail("%zu of %zu workloads failed (see the messages above)", failed, nwls);
    for (size_t i = 0; i < nwls; i++)
        lp_eval_val_runs_free(w[i].runs, w[i].nruns);
    free(w);
    free(wls);
    return rc;
}
