/* lowprof eval native: output. CSV files for re-analysis (overhead.csv,
 * runs.csv, accuracy.csv), one Markdown page for people (native.md), and
 * the summary: call-graph and block overhead and accuracy per window size
 * next to the profile-flags paper's figures, and the targets met or missed.
 * The summary is Markdown too; it is printed and ends native.md. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "eval_internal.h"
#include "eval_native.h"

/* The paper's figures (profile-flags paper, Tables IV-VI): overhead and
 * accuracy in percent; NAN where it gives none. */
typedef struct paper_row {
    const char *config, *label;
    double overhead, accuracy;
} paper_row;

/* The paper's 100 % profiled only the hot methods. */
static const paper_row paper[] = {{"cg-25", "25 %", 11.41, 96.24},
                                  {"cg-100h", "100 % (hot methods)", 41.81, NAN},
                                  {"bb-25", "25 %", 16.31, 96.20},
                                  {"bb-100h", "100 % (hot methods)", 26.42, NAN}};

/* The targets: accuracy at least 95 % at a median overhead of at most 3 %
 * for 10 % windows or phase; 0 % overhead at most 1 % (functions) and 5 %
 * (blocks). */
#define TARGET_ACCURACY 95.0
#define TARGET_OVERHEAD 3.0
#define TARGET_BASIC_CG 1.0
#define TARGET_BASIC_BB 5.0
/* ... and estimated counts whose sum is within 10 % of the truth. */
#define TARGET_TOTAL 10.0

static const char *fmtd(double v, const char *format, char *buf, size_t cap)
{
    if (isnan(v))
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, format, v);
    return buf;
}

/* Overhead in percent of configuration c over the plain build. */
static double overhead(const lp__en_result *r, size_t c)
{
    const lp__en_cell *base = &r->cells[0], *cell = &r->cells[c];
    if (!r->ok || !cell->ran || !base->ran || base->median <= 0)
        return NAN;
    return (cell->median / base->median - 1.0) * 100.0;
}

static double insn_overhead(const lp__en_result *r, size_t c)
{
    const lp__en_cell *base = &r->cells[0], *cell = &r->cells[c];
    if (!r->ok || !cell->insns || !base->insns)
        return NAN;
    return ((double)cell->insns / (double)base->insns - 1.0) * 100.0;
}

static double accuracy(const lp__en_result *r, size_t c, unsigned k)
{
    return r->ok ? r->acc[c].pct[k] : NAN;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median over programs of value(r, c, k), NaNs left out. */
static double median_over(const lp__en_result *rs, size_t n, size_t c, unsigned k,
                          double (*value)(const lp__en_result *, size_t, unsigned))
{
    double v[64];
    size_t m = 0;
    for (size_t i = 0; i < n && m < 64; i++) {
        double x = value(&rs[i], c, k);
        if (!isnan(x))
            v[m++] = x;
    }
    qsort(v, m, sizeof *v, cmp_double);
    return m == 0 ? NAN : m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
}

static double overhead_k(const lp__en_result *r, size_t c, unsigned k)
{
    (void)k;
    return overhead(r, c);
}

static double insn_k(const lp__en_result *r, size_t c, unsigned k)
{
    (void)k;
    return insn_overhead(r, c);
}

/* ---- CSV ---- */

static int write_csv(const lp__en_opts *o, const lp__en_program *ps, const lp__en_result *rs,
                     size_t n)
{
    char p1[4200], p2[4200], p3[4200];
    FILE *ov = lp__eval_open(o->out, "overhead.csv", p1, sizeof p1);
    FILE *runs = ov ? lp__eval_open(o->out, "runs.csv", p2, sizeof p2) : NULL;
    FILE *acc = runs ? lp__eval_open(o->out, "accuracy.csv", p3, sizeof p3) : NULL;
    if (!acc) {
        if (ov)
            fclose(ov);
        if (runs)
            fclose(runs);
        return 1;
    }
    fprintf(ov, "program,config,rounds,median_s,ratio,overhead_pct,insns,insn_ratio\n");
    fprintf(runs, "program,config,round,seconds\n");
    fprintf(acc, "program,config,profile,accuracy_pct,top10_overlap,entries,ref_entries,"
                 "total_off_pct\n");
    char b1[32], b2[32], b3[32];
    for (size_t i = 0; i < n; i++) {
        const lp__en_result *r = &rs[i];
        if (!r->ok)
            continue;
        for (size_t c = 0; c < lp__en_nconfigs; c++) {
            const lp__en_cell *cell = &r->cells[c];
            const char *name = lp__en_configs[c].name;
            if (!cell->ran)
                continue;
            double oh = overhead(r, c), io = insn_overhead(r, c);
            fprintf(ov, "%s,%s,%u,%.4f,%s,%s,%llu,%s\n", ps[i].name, name, o->rounds,
                    cell->median, fmtd(1 + oh / 100, "%.4f", b1, sizeof b1),
                    fmtd(oh, "%.2f", b2, sizeof b2), (unsigned long long)cell->insns,
                    fmtd(1 + io / 100, "%.4f", b3, sizeof b3));
            for (unsigned k = 0; k < o->rounds; k++)
                fprintf(runs, "%s,%s,%u,%.4f\n", ps[i].name, name, k + 1, cell->seconds[k]);
            for (unsigned k = 0; k < LP__EN_NACC; k++) {
                double a = r->acc[c].pct[k];
                if (isnan(a))
                    continue;
                int top = k == LP__EN_ACC_TOP10, total = k == LP__EN_ACC_TOTAL;
                fprintf(acc, "%s,%s,%s,%s,%s,%zu,%zu,%s\n", ps[i].name, name, lp__en_acc_name[k],
                        top || total ? "" : fmtd(a, "%.2f", b1, sizeof b1),
                        top ? fmtd(a, "%.0f", b2, sizeof b2) : "", r->acc[c].entries[k],
                        r->acc[c].ref_entries[k], total ? fmtd(a, "%.2f", b3, sizeof b3) : "");
            }
        }
    }
    int rc = lp__eval_close(ov, p1) | lp__eval_close(runs, p2) | lp__eval_close(acc, p3);
    return rc ? 1 : 0;
}

/* ---- Markdown ---- */

/* Whether configuration c ran for some program (the hot methods' 100 %
 * rows do not with --hot all). */
static int ran_any(const lp__en_result *rs, size_t n, size_t c)
{
    for (size_t i = 0; i < n; i++)
        if (rs[i].ok && rs[i].cells[c].ran)
            return 1;
    return 0;
}

/* Whether accuracy k was measured for some configuration. */
static int measured(const lp__en_result *rs, size_t n, unsigned k)
{
    for (size_t c = 0; c < lp__en_nconfigs; c++)
        if (!isnan(median_over(rs, n, c, k, accuracy)))
            return 1;
    return 0;
}

/* One table: a row per configuration that has a value, a column per
 * program and the median. */
static void md_table(FILE *f, const lp__en_program *ps, const lp__en_result *rs, size_t n,
                     const char *title, unsigned k, const char *format,
                     double (*value)(const lp__en_result *, size_t, unsigned))
{
    fprintf(f, "| %s |", title);
    for (size_t i = 0; i < n; i++)
        fprintf(f, " %s |", ps[i].name);
    fprintf(f, " median |\n|---|");
    for (size_t i = 0; i <= n; i++)
        fprintf(f, "---:|");
    fputc('\n', f);
    char buf[32];
    for (size_t c = 1; c < lp__en_nconfigs; c++) {
        double med = median_over(rs, n, c, k, value);
        if (isnan(med))
            continue;
        fprintf(f, "| %s |", lp__en_configs[c].label);
        for (size_t i = 0; i < n; i++)
            fprintf(f, " %s |", fmtd(value(&rs[i], c, k), format, buf, sizeof buf));
        fprintf(f, " %s |\n", fmtd(med, format, buf, sizeof buf));
    }
    fputc('\n', f);
}

/* "met" or "missed by X" for value against limit (at most when upper). */
static const char *verdict(double v, double limit, int upper, char *buf, size_t cap)
{
    if (isnan(v))
        snprintf(buf, cap, "not measured");
    else if (upper ? v <= limit : v >= limit)
        snprintf(buf, cap, "met");
    else
        snprintf(buf, cap, "missed by %.2f points", upper ? v - limit : limit - v);
    return buf;
}

/* The summary of one profile kind ("cg" or "bb"): per program the overhead
 * at each window size, the accuracy of profile k against the exhaustive
 * profile and, in parentheses, of profile kh against the hot methods'. */
static void summary_kind(FILE *f, const lp__en_program *ps, const lp__en_result *rs, size_t n,
                         const char *kind, unsigned k, unsigned kh, const char *what)
{
    static const char *const sizes[] = {"0", "10", "25", "50", "100", "100h", "phase"};
    static const char *const labels[] = {"0 %",  "10 %",      "25 %", "50 %",
                                         "100 %", "100 % hot", "phase"};
    enum { NSIZES = sizeof sizes / sizeof sizes[0] };
    char name[32], buf[32];
    size_t cfg[NSIZES];
    for (size_t s = 0; s < NSIZES; s++) {
        snprintf(name, sizeof name, "%s-%s", kind, sizes[s]);
        for (cfg[s] = 0; cfg[s] < lp__en_nconfigs && strcmp(lp__en_configs[cfg[s]].name, name) != 0;
             cfg[s]++)
            ;
    }
    /* A column for each configuration that ran: phase has no block row,
     * and the hot methods' 100 % does not run with --hot all. */
    int col[NSIZES];
    for (size_t s = 0; s < NSIZES; s++)
        col[s] = cfg[s] < lp__en_nconfigs && ran_any(rs, n, cfg[s]);
    fprintf(f, "### %s: overhead %% (wall time) / %s accuracy %% against every method at 100 %%%s"
               "\n\n| program |",
            what, lp__en_acc_name[k],
            measured(rs, n, kh) ? " (against the hot methods at 100 %, the paper's reference)" : "");
    for (size_t s = 0; s < NSIZES; s++)
        if (col[s])
            fprintf(f, " %s |", labels[s]);
    fprintf(f, "\n|---|");
    for (size_t s = 0; s < NSIZES; s++)
        if (col[s])
            fprintf(f, "---:|");
    fputc('\n', f);
    for (size_t i = 0; i <= n; i++) {
        fprintf(f, "| %s |", i < n ? ps[i].name : "**median**");
        for (size_t s = 0; s < NSIZES; s++) {
            size_t c = cfg[s];
            if (!col[s])
                continue;
            double oh = i < n ? overhead(&rs[i], c) : median_over(rs, n, c, 0, overhead_k);
            double ac = i < n ? accuracy(&rs[i], c, k) : median_over(rs, n, c, k, accuracy);
            double ah = i < n ? accuracy(&rs[i], c, kh) : median_over(rs, n, c, kh, accuracy);
            fprintf(f, " %s", fmtd(oh, "%.2f", buf, sizeof buf));
            fprintf(f, " / %s", fmtd(ac, "%.2f", buf, sizeof buf));
            fprintf(f, isnan(ah) ? " |" : " (%s) |", fmtd(ah, "%.2f", buf, sizeof buf));
        }
        fputc('\n', f);
    }
    fprintf(f, "\nThe paper:");
    for (size_t p = 0; p < sizeof paper / sizeof paper[0]; p++)
        if (strncmp(paper[p].config, kind, 2) == 0) {
            fprintf(f, " %s: overhead %.2f %%", paper[p].label, paper[p].overhead);
            if (!isnan(paper[p].accuracy))
                fprintf(f, ", accuracy %.2f %%", paper[p].accuracy);
            if (strcmp(paper[p].config, "bb-25") == 0)
                fprintf(f, " (12.52 %% with flag prediction)");
            fprintf(f, ";");
        }
    fprintf(f, " the others it does not give.\n\n");
}

/* The windowed configuration c's total counts: the median program's
 * percent off, and how many programs are within TARGET_TOTAL. */
static void summary_total(FILE *f, const lp__en_result *rs, size_t n, size_t c)
{
    char b1[64], b2[64];
    double med = median_over(rs, n, c, LP__EN_ACC_TOTAL, accuracy);
    size_t within = 0, measured_n = 0;
    for (size_t i = 0; i < n; i++) {
        double t = accuracy(&rs[i], c, LP__EN_ACC_TOTAL);
        if (isnan(t))
            continue;
        measured_n++;
        within += fabs(t) <= TARGET_TOTAL;
    }
    fprintf(f,
            "  - total counts: %s %% off on the median program (within +-%.0f: %s); %zu of "
            "%zu programs within +-%.0f %%\n",
            fmtd(med, "%+.2f", b1, sizeof b1), TARGET_TOTAL,
            verdict(fabs(med), TARGET_TOTAL, 1, b2, sizeof b2), within, measured_n, TARGET_TOTAL);
}

static void summary_targets(FILE *f, const lp__en_result *rs, size_t n)
{
    char b1[64], b2[64], b3[64], b4[64], b5[64], b6[64];
    fprintf(f, "### Targets (medians over programs)\n\n");
    const char *windows[] = {"cg-10", "cg-phase"};
    for (size_t w = 0; w < 2; w++) {
        size_t c = lp__en_config_index(windows[w]);
        double oh = median_over(rs, n, c, 0, overhead_k);
        fprintf(f, "- %s: overhead %s %% (<= %.0f: %s)\n", lp__en_configs[c].label,
                fmtd(oh, "%.2f", b1, sizeof b1), TARGET_OVERHEAD,
                verdict(oh, TARGET_OVERHEAD, 1, b2, sizeof b2));
        for (unsigned hot = 0; hot < 2; hot++) {
            double m = median_over(rs, n, c, hot ? LP__EN_ACC_METHOD_HOT : LP__EN_ACC_METHOD,
                                   accuracy),
                   g = median_over(rs, n, c, hot ? LP__EN_ACC_CG_HOT : LP__EN_ACC_CG, accuracy);
            if (hot && isnan(m) && isnan(g))
                continue; /* --hot all: no hot methods' reference */
            fprintf(f,
                    "  - against %s: hot-method accuracy %s %% (>= %.0f: %s), call-graph "
                    "accuracy %s %% (>= %.0f: %s)\n",
                    hot ? "the hot methods at 100 % (the paper's reference)"
                        : "every method at 100 %",
                    fmtd(m, "%.2f", b3, sizeof b3), TARGET_ACCURACY,
                    verdict(m, TARGET_ACCURACY, 0, b4, sizeof b4), fmtd(g, "%.2f", b5, sizeof b5),
                    TARGET_ACCURACY, verdict(g, TARGET_ACCURACY, 0, b6, sizeof b6));
        }
        summary_total(f, rs, n, c);
    }
    const struct {
        const char *config, *what;
        double limit;
    } basic[] = {{"cg-0", "function events", TARGET_BASIC_CG},
                 {"bb-0", "blocks", TARGET_BASIC_BB}};
    for (size_t b = 0; b < 2; b++) {
        size_t c = lp__en_config_index(basic[b].config);
        double oh = median_over(rs, n, c, 0, overhead_k), io = median_over(rs, n, c, 0, insn_k);
        fprintf(f,
                "- basic overhead (0 %%), %s: wall time %s %% (<= %.0f: %s); instructions %s "
                "%% (<= %.0f: %s)\n",
                basic[b].what, fmtd(oh, "%.2f", b1, sizeof b1), basic[b].limit,
                verdict(oh, basic[b].limit, 1, b2, sizeof b2), fmtd(io, "%.2f", b3, sizeof b3),
                basic[b].limit, verdict(io, basic[b].limit, 1, b4, sizeof b4));
    }
    fputc('\n', f);
}

static void summary(FILE *f, const lp__en_program *ps, const lp__en_result *rs, size_t n)
{
    fprintf(f, "## Summary\n\n");
    summary_kind(f, ps, rs, n, "cg", LP__EN_ACC_CG, LP__EN_ACC_CG_HOT, "Call graph");
    summary_kind(f, ps, rs, n, "bb", LP__EN_ACC_BLOCK, LP__EN_ACC_BLOCK_HOT, "Basic blocks");
    summary_targets(f, rs, n);
    if (lp__en_note_count()) {
        fprintf(f, "### Notes\n\n");
        for (size_t i = 0; i < lp__en_note_count(); i++)
            fprintf(f, "- %s\n", lp__en_note_text(i));
        fputc('\n', f);
    }
}

int lp__en_write(const lp__en_opts *o, const lp__en_program *ps, const lp__en_result *rs,
                 size_t n)
{
    if (write_csv(o, ps, rs, n) != 0)
        return 1;
    char path[4200], date[32];
    FILE *f = lp__eval_open(o->out, "native.md", path, sizeof path);
    if (!f)
        return 1;
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", localtime(&now));
    char hot[32] = "all";
    if (o->hot)
        snprintf(hot, sizeof hot, "%u", o->hot);
    fprintf(f,
            "# lowprof eval native\n\n`lowprof eval native --size %s --rounds %u --hot %s "
            "--loops %s%s%s`, %s.\n\n",
            o->size, o->rounds, hot, o->loops, o->callgrind ? "" : " --no-callgrind",
            o->real ? "" : " --no-real", date);
    fprintf(f, "## Overhead: wall time over the plain build's, %% (median of %u rounds)\n\n",
            o->rounds);
    fprintf(f, "Plain build's median:");
    for (size_t i = 0; i < n; i++)
        if (rs[i].ok)
            fprintf(f, " %s %.3f s;", ps[i].name, rs[i].cells[0].median);
    fprintf(f, "\n\n");
    md_table(f, ps, rs, n, "configuration", 0, "%.2f", overhead_k);
    if (o->callgrind) {
        fprintf(f, "## Instructions over the plain build's, %% (valgrind, reduced size)\n\n"
                   "The windowed configurations are left out: their windows are in CPU time, "
                   "and under valgrind a program runs about 50 times slower.\n\n");
        md_table(f, ps, rs, n, "configuration", 0, "%.2f", insn_k);
    }
    static const char *const titles[LP__EN_NACC] = {
        "hot-method accuracy %",
        "call-graph accuracy %",
        "block accuracy %",
        "top-10 overlap (perf samples vs lowprof calls)",
        "hot-method accuracy % against the hot methods at 100 %",
        "call-graph accuracy % against the hot methods at 100 %",
        "block accuracy % against the hot methods at 100 %",
        "total counts: the estimate's sum against the 100 % profile's, % off"};
    for (unsigned k = 0; k < LP__EN_NACC; k++) {
        if (!measured(rs, n, k))
            continue;
        fprintf(f, "## %s\n\n", titles[k]);
        if (k == LP__EN_ACC_TOP10)
            fprintf(f, "perf samples time, lowprof counts calls: this compares rankings, "
                       "how many of perf's ten hottest functions are among the ten most "
                       "called.\n\n");
        else if (k == LP__EN_ACC_TOTAL)
            fprintf(f, "The sum of the estimated counts over the sum of the exhaustive ones "
                       "(strategy=always, hot=all), less one: invocations for the call-graph "
                       "builds, block executions for the block builds. Accuracy above compares "
                       "proportions; this says whether the estimates are right in absolute "
                       "terms.\n\n");
        else if (k >= LP__EN_ACC_METHOD_HOT)
            fprintf(f, "(1 - MD/2) x 100 against the profile of the hot methods at 100 %% "
                       "(strategy=always, hot=N), the paper's reference: what choosing only "
                       "hot methods leaves out is not counted as error.\n\n");
        else
            fprintf(f, "(1 - MD/2) x 100 against the 100 %% profile (strategy=always, "
                       "hot=all), by function name.\n\n");
        md_table(f, ps, rs, n, "configuration", k,
                 k == LP__EN_ACC_TOP10   ? "%.0f"
                 : k == LP__EN_ACC_TOTAL ? "%+.2f"
                                         : "%.2f",
                 accuracy);
    }
    summary(f, ps, rs, n);
    if (lp__eval_close(f, path) != 0)
        return 1;
    summary(stdout, ps, rs, n);
    printf("Tables in %s (native.md, overhead.csv, accuracy.csv, runs.csv)\n", o->out);
    return 0;
}
