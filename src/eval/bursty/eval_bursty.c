/* lowprof eval bursty: the evaluation of bursty tracing (Hirzel and
 * Chilimbi, section 5) on the workload suite, under the Valgrind front end:
 *
 *   Fig. 6  basic overhead per check placement: the checks executed with
 *           nCheck0 = inf and nInstr0 = 1 (the program never leaves the
 *           checking code, as section 5.1 measures t_checking), each check
 *           modeled as the instructions of its fast path, over the
 *           program's instructions;
 *   Fig. 7  quality per sampling setting: the overlap (eq. 5) of the hot
 *           data streams found in the bursts with those of the exhaustive
 *           trace of the same run, at the paper's eight nCheck0:nInstr0
 *           settings (three sampling rates, bursts of several lengths);
 *   Fig. 8  quality per placement at 1000:50;
 *   HPS     the same framework driven by hardware counters (seed 000's
 *           HPS: the sampling and burst counters are decode-stage counters
 *           that step at every procedure call and backward branch), as a
 *           further arm of each figure. Hardware counting costs the program
 *           no instructions, so nothing need be left unchecked: the arm's
 *           events are orig's (every procedure entry and taken backward
 *           branch), its bursts are orig's, and its basic overhead is 0.
 *           It is modeled, not run on such hardware: its recordings are
 *           orig's, and only the cost of a check differs.
 *
 * Each point is one recording, `lowprof record --bursty ... --checks ...`,
 * run as a child by the experiments' workload runner; the tool computes
 * the checks, the streams and their overlap in that run, and this file
 * reads them from the profile's metadata and writes the tables.
 *
 * Tuned for: a few workloads of 50-200 M instructions in small mode, with
 * the streams found in the first 2 M data references (--streams-limit);
 * about a minute per workload. */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "eval_internal.h"

static const char eval_bursty_help[] =
    "usage: lowprof eval bursty [--full] [--out DIR] [--workloads LIST]\n"
    "                           [--placements LIST] [--settings LIST]\n"
    "                           [--streams-limit N] [--size S] [--data DIR]\n"
    "\n"
    "Bursty tracing's evaluation (doc/eval-bursty.md): Fig. 6, the basic\n"
    "overhead of each check placement (checks executed with NC = inf, each\n"
    "check modeled as 4 instructions); Fig. 7, the overlap of the hot data\n"
    "streams in the bursts with the exhaustive trace's at the paper's eight\n"
    "NC:NI settings; Fig. 8, the overlap per placement at 1000:50. Each\n"
    "figure also has the HPS arm: the same bursts counted by hardware\n"
    "counters at every entry and backward branch (orig's events), at a\n"
    "modeled basic overhead of 0.\n"
    "\n"
    "  --full             every workload of the size; streams in the first 16M\n"
    "                     data references (default: bzip2-9, gzip-9, cc1; 2M)\n"
    "  --out DIR          results folder [results/eval-bursty]\n"
    "  --workloads LIST   comma-separated workloads of workloads/suite.tsv\n"
    "  --placements LIST  placements of Figs. 6 and 8\n"
    "                     [orig,EL,EC,EN,L4,L10,LN,EC+L4]\n"
    "  --settings LIST    NC:NI settings of Fig. 7 [20:1,200:10,1000:50,100:1,\n"
    "                     1000:10,5000:50,200:1,2000:10]\n"
    "  --streams-limit N  data references the streams are found in\n"
    "  --size S           data set of the workloads [small]\n"
    "  --data DIR         inputs prepared by lowprof workloads [OUT/data]\n"
    "\n"
    "Writes fig6.csv, fig7.csv, fig8.csv and summary.md under DIR.\n";

static const char *const default_placements = "orig,EL,EC,EN,L4,L10,LN,EC+L4";
static const char *const default_settings =
    "20:1,200:10,1000:50,100:1,1000:10,5000:50,200:1,2000:10";
/* Fig. 7 runs with the placement the paper recommends; Fig. 8 at this
 * setting. */
static const char *const fig7_placement = "EC+L4";
static const char *const fig8_setting = "1000:50";
/* The HPS arm counts orig's events; its name in the tables and CSVs. */
static const char *const hps_events = "orig";
static const char *const hps_name = "HPS";

#define MAX_ITEMS 16

typedef struct eb_opts {
    const char *out_dir, *workloads, *size, *data, *streams_limit;
    char *placement[MAX_ITEMS], *setting[MAX_ITEMS];
    size_t nplacements, nsettings;
    int full;
} eb_opts;

/* One recording's figures, from its profile's metadata. */
typedef struct eb_point {
    int ok;
    double overhead;   /* modeled basic overhead, % */
    double overlap;    /* % */
    double rate;       /* achieved sampling rate, % */
    unsigned long long checks, insns, refs, sampled_refs;
} eb_point;

/* Splits a comma list into out (strings owned by the caller's copy). */
static int split(char *list, char **out, size_t *n, const char *opt)
{
    *n = 0;
    for (char *s = strtok(list, ","); s; s = strtok(NULL, ",")) {
        if (*n == MAX_ITEMS)
            return lp_host_usage("eval bursty", "%s takes at most %d items", opt, MAX_ITEMS);
        out[(*n)++] = s;
    }
    return *n ? 0 : lp_host_usage("eval bursty", "%s needs at least one item", opt);
}

static double meta_num(const lp_profile_set *s, const char *key, int *ok)
{
    const char *v = lp_meta_get(&s->meta, key);
    if (!v) {
        *ok = 0;
        return 0;
    }
    return strtod(v, NULL);
}

/* Records name with --bursty setting --checks placement and reads the
 * point. streams: also the hot data streams. */
static int eb_record(const eb_opts *o, const lp__eval_suite *suite, const char *name,
                     const char *setting, const char *placement, int streams, eb_point *pt)
{
    char prof[PATH_MAX + 96], log[PATH_MAX + 96], tag[64];
    snprintf(tag, sizeof tag, "%s-%s-%s", setting, placement, streams ? "s" : "c");
    for (char *c = tag; *c; c++)
        if (*c == ':' || *c == '+')
            *c = '_';
    if (lp__eval_pathf(prof, sizeof prof, "%s/rec/%s-%s.lpprof", o->out_dir, name, tag) ||
        lp__eval_pathf(log, sizeof log, "%s/rec/%s-%s.log", o->out_dir, name, tag))
        return lp_host_fail("%s: path too long", o->out_dir);
    char *opts[8];
    size_t n = 0;
    opts[n++] = (char *)"--bursty";
    opts[n++] = (char *)setting;
    opts[n++] = (char *)"--checks";
    opts[n++] = (char *)placement;
    opts[n++] = (char *)"--profile";
    opts[n++] = streams ? (char *)"data-streams" : (char *)"none";
    if (streams) {
        opts[n++] = (char *)"--streams-limit";
        opts[n++] = (char *)o->streams_limit;
    }
    memset(pt, 0, sizeof *pt);
    if (lp__eval_wl_run(suite, name, opts, n, prof, log, NULL) != 0)
        return 1;
    lp_profile_set set;
    if (lp_host_load_profile(prof, &set) != 0)
        return 1;
    int ok = 1;
    pt->checks = (unsigned long long)meta_num(&set, "bursty-checks", &ok);
    pt->insns = (unsigned long long)meta_num(&set, "instructions", &ok);
    pt->overhead = meta_num(&set, "bursty-basic-overhead-ppm", &ok) / 1e4;
    double instr = meta_num(&set, "bursty-instrumented-checks", &ok);
    pt->rate = pt->checks ? 100.0 * instr / (double)pt->checks : 0;
    if (streams) {
        pt->overlap = meta_num(&set, "streams-overlap-ppm", &ok) / 1e4;
        pt->refs = (unsigned long long)meta_num(&set, "streams-references", &ok);
        pt->sampled_refs = (unsigned long long)meta_num(&set, "streams-sampled-references", &ok);
    }
    lp_profile_set_fini(&set);
    if (!ok)
        return lp_host_fail("%s: %s lacks the bursty figures; see %s", name, prof, log);
    pt->ok = 1;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of the ok points' field at offset off (NAN-free: -1 when none). */
static double median(const eb_point *p, size_t n, size_t stride, int overlap)
{
    double v[64];
    size_t k = 0;
    for (size_t i = 0; i < n && k < 64; i++) {
        const eb_point *q = (const eb_point *)((const char *)p + i * stride);
        if (q->ok)
            v[k++] = overlap ? q->overlap : q->overhead;
    }
    if (!k)
        return -1;
    qsort(v, k, sizeof *v, cmp_double);
    return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

static void md_cell(FILE *f, const eb_point *q, int overlap)
{
    if (!q->ok)
        fprintf(f, " - |");
    else
        fprintf(f, overlap ? " %.1f |" : " %.2f |", overlap ? q->overlap : q->overhead);
}

/* A Markdown table: one row per workload, one column per item (a
 * placement or a setting), the points row-major; overlaps with one
 * decimal, overheads with two, "-" where a recording failed. With extra
 * not NULL, a last column of that name holds xpts[workload]. With a
 * median row, the median of each column. */
static void md_table(FILE *f, char *const *items, size_t n, const lp__eval_workload *wl,
                     size_t nwl, const eb_point *pts, int overlap, const char *extra,
                     const eb_point *xpts, int median_row)
{
    fprintf(f, "| workload |");
    for (size_t i = 0; i < n; i++)
        fprintf(f, " %s |", items[i]);
    if (extra)
        fprintf(f, " %s |", extra);
    fprintf(f, "\n|---|");
    for (size_t i = 0; i < n + (extra != NULL); i++)
        fprintf(f, "---|");
    fprintf(f, "\n");
    for (size_t w = 0; w < nwl; w++) {
        fprintf(f, "| %s |", wl[w].name);
        for (size_t i = 0; i < n; i++)
            md_cell(f, &pts[w * n + i], overlap);
        if (extra)
            md_cell(f, &xpts[w], overlap);
        fprintf(f, "\n");
    }
    if (!median_row)
        return;
    fprintf(f, "| median |");
    for (size_t i = 0; i < n + (extra != NULL); i++) {
        double m = i < n ? median(&pts[i], nwl, n * sizeof *pts, overlap)
                         : median(xpts, nwl, sizeof *xpts, overlap);
        fprintf(f, m < 0 ? " - |" : overlap ? " %.1f |" : " %.2f |", m);
    }
    fprintf(f, "\n");
}

int lp_eval_bursty(int argc, char **argv)
{
    eb_opts o = {"results/eval-bursty", NULL, "small", NULL, NULL, {0}, {0}, 0, 0, 0};
    char plist[512], slist[512];
    snprintf(plist, sizeof plist, "%s", default_placements);
    snprintf(slist, sizeof slist, "%s", default_settings);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(eval_bursty_help, stdout);
            return 0;
        }
        if (strcmp(a, "--full") == 0) {
            o.full = 1;
            continue;
        }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return lp_host_usage("eval bursty", "unknown option or missing value: '%s'", a);
        if (strcmp(a, "--out") == 0)
            o.out_dir = v;
        else if (strcmp(a, "--workloads") == 0)
            o.workloads = v;
        else if (strcmp(a, "--size") == 0)
            o.size = v;
        else if (strcmp(a, "--data") == 0)
            o.data = v;
        else if (strcmp(a, "--streams-limit") == 0) {
            uint64_t n;
            if (lp_host_parse_count(v, &n) != 0 || n < 1000)
                return lp_host_usage("eval bursty", "--streams-limit wants a count of at least "
                                                   "1000, not '%s'", v);
            o.streams_limit = v;
        } else if (strcmp(a, "--placements") == 0)
            snprintf(plist, sizeof plist, "%s", v);
        else if (strcmp(a, "--settings") == 0)
            snprintf(slist, sizeof slist, "%s", v);
        else
            return lp_host_usage("eval bursty", "unknown option '%s'", a);
        i++;
    }
    if (strcmp(o.size, "small") != 0 && strcmp(o.size, "full") != 0)
        return lp_host_usage("eval bursty", "--size is small or full, not '%s'", o.size);
    if (split(plist, o.placement, &o.nplacements, "--placements") ||
        split(slist, o.setting, &o.nsettings, "--settings"))
        return 2;
    if (!o.streams_limit)
        o.streams_limit = o.full ? "16777216" : "2097152";

    char out_abs[PATH_MAX], rec[PATH_MAX + 8];
    if (lp__eval_make_out(o.out_dir, out_abs) != 0)
        return 1;
    o.out_dir = out_abs;
    if (lp__eval_pathf(rec, sizeof rec, "%s/rec", out_abs) || lp_host_make_dir(rec) != 0)
        return lp_host_fail("%s: %s", rec, strerror(errno));
    lp__eval_suite suite = {o.full, out_abs, o.workloads, NULL, o.size, o.data};
    lp__eval_workload *wl = NULL;
    size_t nwl = 0;
    if (lp__eval_wl_select(&suite, &wl, &nwl) != 0)
        return 1;

    size_t np = o.nplacements, ns = o.nsettings;
    eb_point *f6 = calloc(nwl * np, sizeof *f6), *f7 = calloc(nwl * ns, sizeof *f7),
             *f8 = calloc(nwl * np, sizeof *f8);
    /* The HPS arm: per workload its Fig. 6 and Fig. 8 points, and its Fig. 7
     * row. */
    eb_point *h6 = calloc(nwl, sizeof *h6), *h7 = calloc(nwl * ns, sizeof *h7),
             *h8 = calloc(nwl, sizeof *h8);
    if (!f6 || !f7 || !f8 || !h6 || !h7 || !h8) {
        free(f6), free(f7), free(f8), free(h6), free(h7), free(h8), free(wl);
        return lp_host_fail("out of memory");
    }
    size_t orig = np;
    for (size_t p = 0; p < np; p++)
        if (strcmp(o.placement[p], hps_events) == 0)
            orig = p;
    int failed = 0;
    double t0 = lp_host_now_seconds();
    for (size_t w = 0; w < nwl; w++) {
        const char *name = wl[w].name;
        fprintf(stderr, "lowprof eval bursty: [%zu/%zu] %s\n", w + 1, nwl, name);
        for (size_t p = 0; p < np; p++)
            failed |= eb_record(&o, &suite, name, "inf:1", o.placement[p], 0, &f6[w * np + p]);
        for (size_t s = 0; s < ns; s++)
            failed |= eb_record(&o, &suite, name, o.setting[s], fig7_placement, 1,
                                &f7[w * ns + s]);
        for (size_t p = 0; p < np; p++)
            failed |= eb_record(&o, &suite, name, fig8_setting, o.placement[p], 1,
                                &f8[w * np + p]);
        /* HPS: orig's recordings where the figures have them already. */
        if (orig < np) {
            h6[w] = f6[w * np + orig];
            h8[w] = f8[w * np + orig];
        } else {
            failed |= eb_record(&o, &suite, name, "inf:1", hps_events, 0, &h6[w]);
            failed |= eb_record(&o, &suite, name, fig8_setting, hps_events, 1, &h8[w]);
        }
        for (size_t s = 0; s < ns; s++)
            failed |= eb_record(&o, &suite, name, o.setting[s], hps_events, 1, &h7[w * ns + s]);
        /* Counting in hardware adds no instructions to the program. */
        h6[w].overhead = h8[w].overhead = 0;
        for (size_t s = 0; s < ns; s++)
            h7[w * ns + s].overhead = 0;
    }

    /* Tables. */
    char path[PATH_MAX + 32];
    FILE *f;
    if ((f = lp__eval_open(out_abs, "fig6.csv", path, sizeof path))) {
        fprintf(f, "workload,placement,checks,instructions,checks_per_kinsn,basic_overhead_pct\n");
        for (size_t w = 0; w < nwl; w++)
            for (size_t p = 0; p < np; p++) {
                const eb_point *q = &f6[w * np + p];
                if (q->ok)
                    fprintf(f, "%s,%s,%llu,%llu,%.3f,%.3f\n", wl[w].name, o.placement[p],
                            q->checks, q->insns,
                            q->insns ? 1000.0 * (double)q->checks / (double)q->insns : 0,
                            q->overhead);
            }
        for (size_t w = 0; w < nwl; w++)
            if (h6[w].ok)
                fprintf(f, "%s,%s,%llu,%llu,%.3f,%.3f\n", wl[w].name, hps_name, h6[w].checks,
                        h6[w].insns,
                        h6[w].insns ? 1000.0 * (double)h6[w].checks / (double)h6[w].insns : 0,
                        0.0);
        failed |= lp__eval_close(f, path) != 0;
    }
    if ((f = lp__eval_open(out_abs, "fig7.csv", path, sizeof path))) {
        fprintf(f, "workload,setting,placement,rate_pct,overlap_pct,references,"
                   "sampled_references\n");
        for (int arm = 0; arm < 2; arm++)
            for (size_t w = 0; w < nwl; w++)
                for (size_t s = 0; s < ns; s++) {
                    const eb_point *q = arm ? &h7[w * ns + s] : &f7[w * ns + s];
                    if (q->ok)
                        fprintf(f, "%s,%s,%s,%.3f,%.2f,%llu,%llu\n", wl[w].name, o.setting[s],
                                arm ? hps_name : fig7_placement, q->rate, q->overlap, q->refs,
                                q->sampled_refs);
                }
        failed |= lp__eval_close(f, path) != 0;
    }
    if ((f = lp__eval_open(out_abs, "fig8.csv", path, sizeof path))) {
        fprintf(f, "workload,placement,setting,overlap_pct,basic_overhead_pct\n");
        for (size_t w = 0; w < nwl; w++)
            for (size_t p = 0; p < np; p++) {
                const eb_point *q = &f8[w * np + p];
                if (q->ok)
                    fprintf(f, "%s,%s,%s,%.2f,%.3f\n", wl[w].name, o.placement[p], fig8_setting,
                            q->overlap, f6[w * np + p].overhead);
            }
        for (size_t w = 0; w < nwl; w++)
            if (h8[w].ok)
                fprintf(f, "%s,%s,%s,%.2f,%.3f\n", wl[w].name, hps_name, fig8_setting,
                        h8[w].overlap, 0.0);
        failed |= lp__eval_close(f, path) != 0;
    }

    if ((f = lp__eval_open(out_abs, "summary.md", path, sizeof path))) {
        fprintf(f, "# lowprof eval bursty\n\nWorkloads: ");
        for (size_t w = 0; w < nwl; w++)
            fprintf(f, "%s%s", w ? ", " : "", wl[w].name);
        fprintf(f, " (size %s); streams in the first %s data references.\n\n", o.size,
                o.streams_limit);
        fprintf(f, "## Fig. 6: basic overhead (checks x 4 instructions / instructions), %%\n\n");
        md_table(f, o.placement, np, wl, nwl, f6, 0, hps_name, h6, 1);
        fprintf(f, "\n%s: orig's events counted by hardware counters, no instructions added "
                   "(modeled).\n", hps_name);
        fprintf(f, "\n## Fig. 7: overlap with the exhaustive trace's hot data streams, %%, "
                   "placement %s\n\n", fig7_placement);
        md_table(f, o.setting, ns, wl, nwl, f7, 1, NULL, NULL, 1);
        fprintf(f, "\n### The same with %s (orig's bursts, basic overhead 0)\n\n", hps_name);
        md_table(f, o.setting, ns, wl, nwl, h7, 1, NULL, NULL, 1);
        fprintf(f, "\n## Fig. 8: overlap per placement at %s, %%\n\n", fig8_setting);
        md_table(f, o.placement, np, wl, nwl, f8, 1, hps_name, h8, 1);
        /* The cheapest placement whose median overlap stays within 2
         * points of orig's. */
        if (orig < np) {
            double base = median(&f8[orig], nwl, np * sizeof *f8, 1);
            const char *best = NULL;
            double best_ovh = 0;
            for (size_t p = 0; p < np; p++) {
                double ov = median(&f8[p], nwl, np * sizeof *f8, 1);
                double oh = median(&f6[p], nwl, np * sizeof *f6, 0);
                if (ov >= 0 && oh >= 0 && ov >= base - 2.0 && (!best || oh < best_ovh)) {
                    best = o.placement[p];
                    best_ovh = oh;
                }
            }
            fprintf(f, "\nMedian overlap at %s with orig: %.1f %%. Cheapest placement within 2 "
                       "points of it: %s (median basic overhead %.2f %%).\n",
                    fig8_setting, base, best ? best : "none", best_ovh);
        }
        double hov = median(h8, nwl, sizeof *h8, 1);
        if (hov >= 0)
            fprintf(f, "\n%s at %s: median overlap %.1f %% at a basic overhead of 0 (modeled).\n",
                    hps_name, fig8_setting, hov);
        fprintf(f, "\nTook %.0f s. Recordings and their logs are in %s.\n",
                lp_host_now_seconds() - t0, rec);
        failed |= lp__eval_close(f, path) != 0;
        FILE *in = fopen(path, "r");
        if (in) {
            char line[1024];
            while (fgets(line, sizeof line, in))
                fputs(line, stdout);
            fclose(in);
        }
    }
    free(f6);
    free(f7);
    free(f8);
    free(h6);
    free(h7);
    free(h8);
    free(wl);
    return failed ? 1 : 0;
}
