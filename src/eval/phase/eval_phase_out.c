/* lowprof eval phase: the results folder. CSV for every run and setting,
 * the paper's figures as Markdown tables and gnuplot plots (Figs. 10-13,
 * 15b), predictor accuracy, and summary.md with the check of the paper's
 * claims on our programs. Nothing here is hot: a few thousand rows. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lowprof/host.h"
#include "eval_phase.h"

#define TARGET_PERCENT 1.0 /* Fig. 10's "1 % sampled" */

static const char *strategy_name(unsigned s)
{
    static const char *const n[] = {"exhaustive", "periodic", "random", "phase"};
    return s < LP__EP_STRATEGIES ? n[s] : "?";
}

/* A setting's curve label: "periodic", "random", "phase-third-oracle", ... */
static void label(const lp__ep_setting *s, char *buf, size_t cap)
{
    if (s->strategy == LP__EP_PHASE)
        snprintf(buf, cap, "phase-%s-%s", lp__ep_policy_name[s->policy],
                 lp__ep_predictor_name(s->predictor));
    else
        snprintf(buf, cap, "%s", strategy_name(s->strategy));
}

static int same_curve(const lp__ep_setting *a, const lp__ep_setting *b)
{
    return a->strategy == b->strategy && a->policy == b->policy && a->predictor == b->predictor;
}

static FILE *open_out(const char *dir, const char *name, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        lp_host_fail("%s: %s", path, strerror(errno));
    return f;
}

static int close_out(FILE *f, const char *path)
{
    if (fclose(f) != 0)
        return lp_host_fail("%s: %s", path, strerror(errno));
    return 0;
}

/* ---- across workloads ---------------------------------------------------------------- */

/* The setting of w matching proto's curve and parameter, or NULL. */
static const lp__ep_setting *find_setting(const lp__ep_workload *w, const lp__ep_setting *proto)
{
    for (size_t i = 0; i < w->nsettings; i++)
        if (same_curve(&w->settings[i], proto) && w->settings[i].param == proto->param)
            return &w->settings[i];
    return NULL;
}

/* A setting averaged over the workloads that have it (mean of each
 * workload's mean percent, mean error and max error). */
static int average_setting(const lp__ep_workload *ws, size_t n, const lp__ep_setting *proto,
                           lp__ep_setting *out)
{
    memset(out, 0, sizeof *out);
    out->strategy = proto->strategy;
    out->policy = proto->policy;
    out->predictor = proto->predictor;
    out->param = proto->param;
    size_t k = 0;
    double acc = 0;
    size_t nacc = 0;
    for (size_t i = 0; i < n; i++) {
        const lp__ep_setting *s = find_setting(&ws[i], proto);
        if (!s)
            continue;
        k++;
        out->percent += s->percent;
        out->insns += s->insns;
        out->phases += s->phases;
        for (unsigned e = 0; e < LP__EP_ERRS; e++) {
            out->err_mean[e] += s->err_mean[e];
            out->err_max[e] += s->err_max[e];
        }
        if (s->pred_accuracy >= 0) {
            acc += s->pred_accuracy;
            nacc++;
        }
    }
    if (!k)
        return 0;
    out->runs = k; /* here: workloads averaged */
    out->percent /= (double)k;
    out->insns /= (double)k;
    out->phases /= (double)k;
    for (unsigned e = 0; e < LP__EP_ERRS; e++) {
        out->err_mean[e] /= (double)k;
        out->err_max[e] /= (double)k;
    }
    out->pred_accuracy = nacc ? acc / (double)nacc : -1;
    return 1;
}

/* Smallest average percent at which the averaged curve's error (mean, or
 * with use_max the per-workload maximum) is at most the target; -1 never. */
double lp__ep_curve_reaches(const lp__ep_workload *ws, size_t n, unsigned curve, unsigned err,
                            int use_max)
{
    double best = -1;
    if (!n)
        return best;
    for (size_t i = 0; i < ws[0].nsettings; i++) {
        const lp__ep_setting *p = &ws[0].settings[i];
        if (!lp__ep_curve_has(curve, p))
            continue;
        lp__ep_setting a;
        if (!average_setting(ws, n, p, &a))
            continue;
        double e = use_max ? a.err_max[err] : a.err_mean[err];
        if (e <= LP__EP_TARGET_ERROR && (best < 0 || a.percent < best))
            best = a.percent;
    }
    return best;
}

/* The smallest percent sampled above which every run of curve on w stays
 * within the target error: runs are the individual offsets, seeds or
 * thresholds. -1 if even the run sampling most fails. */
static double robust_percent(const lp__ep_workload *w, unsigned curve, unsigned err)
{
    double worst_fail = -1, min_ok = -1;
    for (size_t i = 0; i < w->nsettings; i++) {
        const lp__ep_setting *s = &w->settings[i];
        if (!lp__ep_curve_has(curve, s))
            continue;
        for (size_t q = s->first; q < s->first + s->runs; q++) {
            const lp__ep_run *r = &w->runs.items[q];
            if (r->err[err] > LP__EP_TARGET_ERROR && r->percent > worst_fail)
                worst_fail = r->percent;
        }
    }
    for (size_t i = 0; i < w->nsettings; i++) {
        const lp__ep_setting *s = &w->settings[i];
        if (!lp__ep_curve_has(curve, s))
            continue;
        for (size_t q = s->first; q < s->first + s->runs; q++) {
            const lp__ep_run *r = &w->runs.items[q];
            if (r->percent > worst_fail && (min_ok < 0 || r->percent < min_ok))
                min_ok = r->percent;
        }
    }
    return min_ok;
}

void lp__ep_put_pct(FILE *f, double v, int width)
{
    if (v < 0)
        fprintf(f, " %*s |", width, "never");
    else
        fprintf(f, " %*.1f |", width, v);
}

static double reduction(double phase, double other)
{
    return other > 0 ? 100.0 * (1.0 - phase / other) : 0;
}

/* ---- CSV ---------------------------------------------------------------------------- */

static int write_runs(const lp__ep_workload *ws, size_t n, const char *dir)
{
    char path[PATH_MAX + 64];
    FILE *f = open_out(dir, "runs.csv", path, sizeof path);
    if (!f)
        return 1;
    fprintf(f, "workload,strategy,policy,predictor,param,variant,intervals,sampled,"
               "percent_sampled,sampled_insns,profiled_branches,err_code_region,err_hot_branch,"
               "err_hot_method,err_hot_call_pair,err_method,err_call_pair,phases,resamples,"
               "unrepresented,predictions,correct\n");
    for (size_t w = 0; w < n; w++)
        for (size_t i = 0; i < ws[w].runs.count; i++) {
            const lp__ep_run *r = &ws[w].runs.items[i];
            fprintf(f,
                    "%s,%s,%s,%s,%g,%llu,%llu,%llu,%.4f,%llu,%llu,%.6f,%.6f,%.6f,%.6f,%.6f,"
                    "%.6f,%llu,%llu,%llu,%llu,%llu\n",
                    ws[w].m.name, strategy_name(r->strategy),
                    r->strategy == LP__EP_PHASE ? lp__ep_policy_name[r->policy] : "",
                    r->strategy == LP__EP_PHASE ? lp__ep_predictor_name(r->predictor) : "",
                    r->param, (unsigned long long)r->variant, (unsigned long long)r->intervals,
                    (unsigned long long)r->sampled, r->percent,
                    (unsigned long long)r->sampled_insns, (unsigned long long)r->sampled_branches,
                    r->err[0], r->err[1], r->err[2], r->err[3], r->err[4], r->err[5],
                    (unsigned long long)r->phases, (unsigned long long)r->resamples,
                    (unsigned long long)r->unrepresented, (unsigned long long)r->predictions,
                    (unsigned long long)r->correct);
        }
    return close_out(f, path);
}

static void setting_csv(FILE *f, const char *workload, const lp__ep_setting *s)
{
    char lab[64];
    label(s, lab, sizeof lab);
    fprintf(f, "%s,%s,%g,%zu,%.4f,%.3f", workload, lab, s->param, s->runs, s->percent,
            s->insns / 1e6);
    for (unsigned e = 0; e < LP__EP_ERRS; e++)
        fprintf(f, ",%.6f", s->err_mean[e]);
    for (unsigned e = 0; e < LP__EP_ERRS; e++)
        fprintf(f, ",%.6f", s->err_max[e]);
    fprintf(f, ",%.2f,%.4f\n", s->phases, s->pred_accuracy);
}

static const char setting_header[] =
    "curve,param,runs,percent_sampled,sampled_minsns,err_code_region,err_hot_branch,"
    "err_hot_method,err_hot_call_pair,err_method,err_call_pair,max_err_code_region,"
    "max_err_hot_branch,max_err_hot_method,max_err_hot_call_pair,max_err_method,"
    "max_err_call_pair,phases,predictor_accuracy\n";

/* settings.csv per workload; curves.csv averaged over the workloads (runs
 * there counts the workloads; max_* is the mean of the per-workload worst
 * offset or seed). */
static int write_settings(const lp__ep_workload *ws, size_t n, const char *dir)
{
    char path[PATH_MAX + 64];
    FILE *f = open_out(dir, "settings.csv", path, sizeof path);
    if (!f)
        return 1;
    fprintf(f, "workload,%s", setting_header);
    for (size_t w = 0; w < n; w++)
        for (size_t i = 0; i < ws[w].nsettings; i++)
            setting_csv(f, ws[w].m.name, &ws[w].settings[i]);
    if (close_out(f, path) != 0)
        return 1;
    if (!(f = open_out(dir, "curves.csv", path, sizeof path)))
        return 1;
    fprintf(f, "workload,%s", setting_header);
    for (size_t i = 0; n && i < ws[0].nsettings; i++) {
        lp__ep_setting a;
        if (average_setting(ws, n, &ws[0].settings[i], &a))
            setting_csv(f, "average", &a);
    }
    return close_out(f, path);
}

/* ---- plots -------------------------------------------------------------------------- */

/* One data block per curve (x: mean percent, y: error in percent), sorted
 * by x, for gnuplot's "index". */
typedef struct curve_spec {
    const char *title;
    unsigned strategy, policy, predictor;
    int use_max;
} curve_spec;

static const curve_spec plot_curves[] = {
    {"phase-aware (third, oracle)", LP__EP_PHASE, LP__EP_THIRD, LP_PREDICT_ORACLE, 0},
    {"phase-aware (third, markov)", LP__EP_PHASE, LP__EP_THIRD, LP_PREDICT_MARKOV, 0},
    {"phase-aware (refine, oracle)", LP__EP_PHASE, LP__EP_REFINE, LP_PREDICT_ORACLE, 0},
    {"phase-aware (refine, markov)", LP__EP_PHASE, LP__EP_REFINE, LP_PREDICT_MARKOV, 0},
    {"periodic (mean over offsets)", LP__EP_PERIODIC, 0, 0, 0},
    {"periodic (worst offset)", LP__EP_PERIODIC, 0, 0, 1},
    {"avg random", LP__EP_RANDOM, 0, 0, 0},
    {"max random", LP__EP_RANDOM, 0, 0, 1},
};
enum { NCURVES = sizeof plot_curves / sizeof plot_curves[0] };

static int cmp_xy(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int write_curve_data(const lp__ep_workload *ws, size_t n, const char *dir,
                            const char *name, unsigned err)
{
    char path[PATH_MAX + 64];
    FILE *f = open_out(dir, name, path, sizeof path);
    if (!f)
        return 1;
    for (size_t c = 0; c < NCURVES; c++) {
        const curve_spec *cs = &plot_curves[c];
        double(*xy)[2] = calloc(ws[0].nsettings + 1, sizeof *xy);
        size_t k = 0;
        for (size_t i = 0; xy && i < ws[0].nsettings; i++) {
            const lp__ep_setting *p = &ws[0].settings[i];
            if (p->strategy != cs->strategy || p->policy != cs->policy ||
                p->predictor != cs->predictor)
                continue;
            lp__ep_setting a;
            if (!average_setting(ws, n, p, &a))
                continue;
            xy[k][0] = a.percent;
            xy[k][1] = 100.0 * (cs->use_max ? a.err_max[err] : a.err_mean[err]);
            k++;
        }
        if (xy)
            qsort(xy, k, sizeof *xy, cmp_xy);
        fprintf(f, "# %s\n", cs->title);
        for (size_t i = 0; i < k; i++)
            if (xy[i][0] > 0)
                fprintf(f, "%.4f %.4f\n", xy[i][0], xy[i][1]);
        fprintf(f, "\n\n");
        free(xy);
    }
    return close_out(f, path);
}

static void plot_lines(FILE *f, const char *data)
{
    fprintf(f, "plot ");
    for (size_t c = 0; c < NCURVES; c++)
        fprintf(f, "%s'%s' index %zu using 1:2 with linespoints title '%s'", c ? ", \\\n     " : "",
                data, c, plot_curves[c].title);
    fprintf(f, "\n");
}

static int write_plots(const lp__ep_workload *ws, size_t n, const char *dir)
{
    static const char *const hot_data[3] = {"fig12_hot_branch.dat", "fig12_hot_method.dat",
                                            "fig12_hot_call_pair.dat"};
    if (write_curve_data(ws, n, dir, "fig11_error.dat", LP__EP_ERR_CR) != 0)
        return 1;
    for (unsigned k = 0; k < 3; k++)
        if (write_curve_data(ws, n, dir, hot_data[k], LP__EP_ERR_HOT_BRANCH + k) != 0)
            return 1;
    char path[PATH_MAX + 64];
    FILE *f = open_out(dir, "fig11_error.gp", path, sizeof path);
    if (!f)
        return 1;
    fprintf(f, "# Fig. 11: code-region count error against percent sampled, averaged over\n"
               "# the workloads. Run in this folder: gnuplot fig11_error.gp\n"
               "set terminal svg size 800,500 dynamic\nset output 'fig11_error.svg'\n"
               "set logscale x\nset xlabel 'percent of the program sampled'\n"
               "set ylabel 'error in branch counts (%%)'\nset yrange [0:*]\nset grid\n"
               "set key top right\n");
    plot_lines(f, "fig11_error.dat");
    if (close_out(f, path) != 0 || !(f = open_out(dir, "fig12_hot.gp", path, sizeof path)))
        return 1;
    fprintf(f, "# Fig. 12: hot-branch, hot-method and hot-call-pair error (top 15 %%)\n"
               "# against percent sampled, averaged over the workloads.\n"
               "set terminal svg size 1400,450 dynamic\nset output 'fig12_hot.svg'\n"
               "set multiplot layout 1,3\nset logscale x\nset grid\nset yrange [0:*]\n"
               "set xlabel 'percent sampled'\nset key top right font ',8'\n");
    static const char *const titles[3] = {"hot branches", "hot methods", "hot call pairs"};
    for (unsigned k = 0; k < 3; k++) {
        fprintf(f, "set title '%s'\nset ylabel 'error (%%)'\n", titles[k]);
        plot_lines(f, hot_data[k]);
    }
    fprintf(f, "unset multiplot\n");
    if (close_out(f, path) != 0 || !(f = open_out(dir, "fig10_policies.gp", path, sizeof path)))
        return 1;
    fprintf(f, "# Fig. 10: code-region error near 1 %% sampled per representative policy.\n"
               "set terminal svg size 800,450 dynamic\nset output 'fig10_policies.svg'\n"
               "set datafile separator ','\nset style data histograms\nset style fill solid\n"
               "set boxwidth 0.8\nset ylabel 'error in branch counts (%%)'\nset yrange [0:*]\n"
               "set xtics rotate by -30\nset grid ytics\n"
               "plot 'fig10_policies.csv' skip 1 using ($4*100):xtic(1) title 'mean error'\n");
    return close_out(f, path);
}

/* Runs the scripts in dir (after every data file is written). */
static void run_gnuplot(const char *dir)
{
    static const char *const scripts[] = {"fig10_policies.gp", "fig11_error.gp", "fig12_hot.gp"};
    for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "lowprof eval phase: fork: %s; no plots\n", strerror(errno));
            return;
        }
        if (pid == 0) {
            if (chdir(dir) != 0)
                _exit(127);
            execlp("gnuplot", "gnuplot", scripts[i], (char *)NULL);
            _exit(127);
        }
        int st = 0;
        while (waitpid(pid, &st, 0) < 0)
            if (errno != EINTR)
                break;
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
            fprintf(stderr, "lowprof eval phase: gnuplot %s failed; the script stays\n",
                    scripts[i]);
    }
}

/* ---- Markdown tables --------------------------------------------------------------- */

/* Fig. 10: per policy, the setting nearest 1 % sampled on each workload. */
static int fig10(const lp__ep_workload *ws, size_t n, const char *dir, FILE *md)
{
    static const struct {
        const char *name;
        unsigned strategy, policy, predictor;
    } rows[] = {
        {"first", LP__EP_PHASE, LP__EP_FIRST, LP_PREDICT_ORACLE},
        {"third", LP__EP_PHASE, LP__EP_THIRD, LP_PREDICT_ORACLE},
        {"random", LP__EP_PHASE, LP__EP_RANDOM_REP, LP_PREDICT_ORACLE},
        {"centroid", LP__EP_PHASE, LP__EP_CENTROID, LP_PREDICT_ORACLE},
        {"third (last)", LP__EP_PHASE, LP__EP_THIRD, LP_PREDICT_LAST},
        {"third (markov)", LP__EP_PHASE, LP__EP_THIRD, LP_PREDICT_MARKOV},
        {"third (run-length)", LP__EP_PHASE, LP__EP_THIRD, LP_PREDICT_RUN_LENGTH},
        {"refine", LP__EP_PHASE, LP__EP_REFINE, LP_PREDICT_ORACLE},
        {"refine (last)", LP__EP_PHASE, LP__EP_REFINE, LP_PREDICT_LAST},
        {"refine (markov)", LP__EP_PHASE, LP__EP_REFINE, LP_PREDICT_MARKOV},
        {"refine (run-length)", LP__EP_PHASE, LP__EP_REFINE, LP_PREDICT_RUN_LENGTH},
        {"avg random sampling", LP__EP_RANDOM, 0, 0},
    };
    char path[PATH_MAX + 64];
    FILE *f = open_out(dir, "fig10_policies.csv", path, sizeof path);
    if (!f)
        return 1;
    fprintf(f, "policy,workloads,percent_sampled,err_code_region,max_err_code_region\n");
    fprintf(md, "| policy | mean %% sampled | mean error %% | worst workload error %% |\n"
                "| --- | ---: | ---: | ---: |\n");
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        double pct = 0, err = 0, worst = 0;
        size_t k = 0;
        for (size_t w = 0; w < n; w++) {
            const lp__ep_setting *best = NULL;
            for (size_t i = 0; i < ws[w].nsettings; i++) {
                const lp__ep_setting *s = &ws[w].settings[i];
                if (s->strategy != rows[r].strategy || s->policy != rows[r].policy ||
                    s->predictor != rows[r].predictor || s->percent <= 0)
                    continue;
                if (!best || fabs(log(s->percent / TARGET_PERCENT)) <
                                 fabs(log(best->percent / TARGET_PERCENT)))
                    best = s;
            }
            if (!best)
                continue;
            k++;
            pct += best->percent;
            err += best->err_mean[LP__EP_ERR_CR];
            if (best->err_mean[LP__EP_ERR_CR] > worst)
                worst = best->err_mean[LP__EP_ERR_CR];
        }
        if (!k)
            continue;
        fprintf(f, "%s,%zu,%.4f,%.6f,%.6f\n", rows[r].name, k, pct / (double)k, err / (double)k,
                worst);
        fprintf(md, "| %s | %.2f | %.2f | %.2f |\n", rows[r].name, pct / (double)k,
                100 * err / (double)k, 100 * worst);
    }
    return close_out(f, path);
}

/* Fig. 13: per workload and error kind, what reaching 5 % takes. */
static int fig13(const lp__ep_workload *ws, size_t n, const char *dir, FILE *md,
                 double out_avg_pct[LP__EP_ERRS][3])
{
    static const unsigned curves[] = {LP__EP_C_PHASE, LP__EP_C_PERIODIC, LP__EP_C_RANDOM,
                                      LP__EP_C_PHASE_MARKOV};
    char path[PATH_MAX + 64];
    FILE *f = open_out(dir, "fig13_5pct.csv", path, sizeof path);
    if (!f)
        return 1;
    fprintf(f, "error,workload,curve,percent_sampled,cost_minsns,robust_percent\n");
    for (unsigned e = 0; e < LP__EP_ERRS; e++) {
        fprintf(md, "\n#### %s error <= 5 %%\n\n", lp__ep_err_name[e]);
        fprintf(md, "Cheapest setting (mean over offsets or seeds): %% sampled / profiling cost "
                    "in M instructions; reductions of phase-aware's cost. \"every >=\": the "
                    "smallest %% sampled above which every run of the strategy stays within "
                    "5 %%.\n\n");
        fprintf(md, "| workload | phase %% | phase cost | periodic %% | periodic cost | red. vs "
                    "periodic | random %% | random cost | red. vs random | phase (markov) %% | "
                    "every >= phase | every >= periodic | every >= random |\n"
                    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
                    "| ---: | ---: |\n");
        double sum_pct[4] = {0}, sum_cost[4] = {0}, sum_red[2] = {0};
        size_t cnt[4] = {0}, cnt_red[2] = {0};
        for (size_t w = 0; w < n; w++) {
            const lp__ep_setting *s[4];
            for (unsigned c = 0; c < 4; c++) {
                s[c] = lp__ep_cheapest(ws[w].settings, ws[w].nsettings, curves[c], e,
                                       LP__EP_TARGET_ERROR);
                double rob = robust_percent(&ws[w], curves[c], e);
                fprintf(f, "%s,%s,%s,%.4f,%.3f,%.4f\n", lp__ep_err_name[e], ws[w].m.name,
                        lp__ep_curve_name[curves[c]], s[c] ? s[c]->percent : -1,
                        s[c] ? s[c]->insns / 1e6 : -1, rob);
                if (s[c]) {
                    sum_pct[c] += s[c]->percent;
                    sum_cost[c] += s[c]->insns / 1e6;
                    cnt[c]++;
                }
            }
            fprintf(md, "| %s |", ws[w].m.name);
            for (unsigned c = 0; c < 3; c++) {
                lp__ep_put_pct(md, s[c] ? s[c]->percent : -1, 1);
                if (s[c])
                    fprintf(md, " %.1f |", s[c]->insns / 1e6);
                else
                    fprintf(md, " - |");
                if (c > 0) {
                    if (s[0] && s[c]) {
                        double red = reduction(s[0]->insns, s[c]->insns);
                        fprintf(md, " %.0f |", red);
                        sum_red[c - 1] += red;
                        cnt_red[c - 1]++;
                    } else {
                        fprintf(md, " - |");
                    }
                }
            }
            lp__ep_put_pct(md, s[3] ? s[3]->percent : -1, 1);
            lp__ep_put_pct(md, robust_percent(&ws[w], LP__EP_C_PHASE, e), 1);
            lp__ep_put_pct(md, robust_percent(&ws[w], LP__EP_C_PERIODIC, e), 1);
            lp__ep_put_pct(md, robust_percent(&ws[w], LP__EP_C_RANDOM, e), 1);
            fprintf(md, "\n");
        }
        fprintf(md, "| average (of those reaching) |");
        for (unsigned c = 0; c < 3; c++) {
            lp__ep_put_pct(md, cnt[c] ? sum_pct[c] / (double)cnt[c] : -1, 1);
            fprintf(md, cnt[c] ? " %.1f |" : " - |", cnt[c] ? sum_cost[c] / (double)cnt[c] : 0);
            if (c > 0)
                fprintf(md, cnt_red[c - 1] ? " %.0f |" : " - |",
                        cnt_red[c - 1] ? sum_red[c - 1] / (double)cnt_red[c - 1] : 0);
            out_avg_pct[e][c] = cnt[c] ? sum_pct[c] / (double)cnt[c] : -1;
        }
        lp__ep_put_pct(md, cnt[3] ? sum_pct[3] / (double)cnt[3] : -1, 1);
        fprintf(md, " | | |\n");
        fprintf(md, "\nReached by phase-aware on %zu, periodic on %zu, random on %zu of %zu "
                    "workloads.\n",
                cnt[0], cnt[1], cnt[2], n);
    }
    return close_out(f, path);
}

/* The mean over workloads of strategy s's Interleaved bytes over
 * random's, each at its cheapest setting reaching 5 % code-region error,
 * over the workloads where both reach it (-1 if none); *out_n gets how
 * many, *out_sum_ratio total bytes over total bytes. */
double lp__ep_bytes_ratio(const lp__ep_workload *ws, size_t n, unsigned s, size_t *out_n,
                          double *out_sum_ratio)
{
    double ratio = 0, phase_bytes = 0, random_bytes = 0;
    size_t k = 0;
    for (size_t w = 0; w < n; w++)
        if (ws[w].cost_valid[s] && ws[w].cost_valid[2] && ws[w].cost[2][1].bytes) {
            ratio += (double)ws[w].cost[s][1].bytes / (double)ws[w].cost[2][1].bytes;
            phase_bytes += (double)ws[w].cost[s][1].bytes;
            random_bytes += (double)ws[w].cost[2][1].bytes;
            k++;
        }
    *out_n = k;
    *out_sum_ratio = random_bytes > 0 ? phase_bytes / random_bytes : -1;
    return k ? ratio / (double)k : -1;
}

/* Fig. 15b: energy, computation and bytes at 5 % code-region error. Sets
 * *out_bytes_ratio to the mean over workloads of phase-aware Interleaved
 * bytes over random's (-1 if no workload has both). */
static int fig15(const lp__ep_workload *ws, size_t n, const char *dir, FILE *md,
                 double *out_bytes_ratio, size_t *out_ratio_n, double *out_sum_ratio)
{
    static const char *const strat[5] = {"phase-aware", "periodic", "random", "refine-markov",
                                         "refine-run-length"};
    static const char *const proto[2] = {"At End", "Interleaved"};
    char path[PATH_MAX + 64];
    FILE *f = open_out(dir, "fig15_energy.csv", path, sizeof path);
    if (!f)
        return 1;
    fprintf(f, "workload,strategy,protocol,energy_mj,compute_mj,transmit_mj,instr_minsns,"
               "compress_minsns,bytes\n");
    for (size_t w = 0; w < n; w++)
        for (unsigned s = 0; s < 5; s++)
            for (unsigned p = 0; p < 2 && ws[w].cost_valid[s]; p++) {
                const lp__ep_cost *c = &ws[w].cost[s][p];
                fprintf(f, "%s,%s,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%llu\n", ws[w].m.name, strat[s],
                        proto[p], 1e3 * c->energy_j, 1e3 * c->compute_j, 1e3 * c->transmit_j,
                        (double)c->instr_insns / 1e6, (double)c->compress_insns / 1e6,
                        (unsigned long long)c->bytes);
            }
    /* Averages over the workloads where all three reach 5 %. */
    size_t k = 0;
    double avg[3][2][3] = {{{0}}}; /* [strategy][protocol][energy, computation, bytes] */
    for (size_t w = 0; w < n; w++) {
        if (!ws[w].cost_valid[0] || !ws[w].cost_valid[1] || !ws[w].cost_valid[2])
            continue;
        k++;
        for (unsigned s = 0; s < 3; s++)
            for (unsigned p = 0; p < 2; p++) {
                const lp__ep_cost *c = &ws[w].cost[s][p];
                avg[s][p][0] += 1e3 * c->energy_j;
                avg[s][p][1] += (double)(c->instr_insns + c->compress_insns) / 1e6;
                avg[s][p][2] += (double)c->bytes;
            }
    }
    *out_bytes_ratio = lp__ep_bytes_ratio(ws, n, 0, out_ratio_n, out_sum_ratio);
    static const char *const what[3] = {"energy (mJ)", "computation (M instructions)",
                                        "bytes transmitted"};
    fprintf(md, "Averages over the %zu of %zu workloads where phase-aware, periodic and random "
                "all reach 5 %% code-region error, each at its cheapest such setting.\n\n",
                k, n);
    fprintf(md, "| metric | protocol | phase-aware | periodic | avg random | phase red. vs "
                "periodic %% | phase red. vs random %% |\n"
                "| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
    for (unsigned m = 0; m < 3 && k; m++)
        for (unsigned p = 0; p < 2; p++) {
            double v[3];
            for (unsigned s = 0; s < 3; s++)
                v[s] = avg[s][p][m] / (double)k;
            fprintf(md, "| %s | %s | %.*f | %.*f | %.*f | %.0f | %.0f |\n", what[m], proto[p],
                    m == 2 ? 0 : 3, v[0], m == 2 ? 0 : 3, v[1], m == 2 ? 0 : 3, v[2],
                    reduction(v[0], v[1]), reduction(v[0], v[2]));
        }
    fprintf(md, "\nPer workload (energy mJ / bytes), At End | Interleaved:\n\n"
                "| workload | phase At End | periodic At End | random At End | phase Interl. | "
                "periodic Interl. | random Interl. |\n| --- | ---: | ---: | ---: | ---: | ---: | "
                "---: |\n");
    for (size_t w = 0; w < n; w++) {
        fprintf(md, "| %s |", ws[w].m.name);
        for (unsigned p = 0; p < 2; p++)
            for (unsigned s = 0; s < 3; s++) {
                if (ws[w].cost_valid[s])
                    fprintf(md, " %.3f / %llu |", 1e3 * ws[w].cost[s][p].energy_j,
                            (unsigned long long)ws[w].cost[s][p].bytes);
                else
                    fprintf(md, " never |");
            }
        fprintf(md, "\n");
    }
    return close_out(f, path);
}

/* Predictor accuracy per workload at each threshold (third interval). */
static int predictors(const lp__ep_workload *ws, size_t n, const char *dir, FILE *md)
{
    static const unsigned preds[3] = {LP_PREDICT_LAST, LP_PREDICT_MARKOV, LP_PREDICT_RUN_LENGTH};
    char path[PATH_MAX + 64];
    FILE *f = open_out(dir, "predictors.csv", path, sizeof path);
    if (!f)
        return 1;
    fprintf(f, "workload,threshold,phases,predictor,accuracy,percent_sampled,err_code_region\n");
    fprintf(md, "| workload | phases at 0.1 | last | markov | run-length | (accuracy at threshold "
                "0.1; mean over thresholds in brackets) |\n| --- | ---: | ---: | ---: | ---: | "
                "--- |\n");
    for (size_t w = 0; w < n; w++) {
        double at[3] = {-1, -1, -1}, mean[3] = {0};
        size_t cnt[3] = {0};
        double phases = 0;
        for (size_t i = 0; i < ws[w].nsettings; i++) {
            const lp__ep_setting *s = &ws[w].settings[i];
            if (s->strategy != LP__EP_PHASE || s->policy != LP__EP_THIRD)
                continue;
            for (unsigned p = 0; p < 3; p++) {
                if (s->predictor != preds[p])
                    continue;
                fprintf(f, "%s,%g,%.0f,%s,%.4f,%.4f,%.6f\n", ws[w].m.name, s->param, s->phases,
                        lp__ep_predictor_name(preds[p]), s->pred_accuracy, s->percent,
                        s->err_mean[LP__EP_ERR_CR]);
                if (s->pred_accuracy >= 0) {
                    mean[p] += s->pred_accuracy;
                    cnt[p]++;
                }
                if (fabs(s->param - 0.1) < 1e-9) {
                    at[p] = s->pred_accuracy;
                    phases = s->phases;
                }
            }
        }
        fprintf(md, "| %s | %.0f |", ws[w].m.name, phases);
        for (unsigned p = 0; p < 3; p++)
            fprintf(md, " %.0f %% (%.0f %%) |", 100 * at[p],
                    cnt[p] ? 100 * mean[p] / (double)cnt[p] : 0);
        fprintf(md, " |\n");
    }
    return close_out(f, path);
}

/* ---- everything ----------------------------------------------------------------------- */

int lp__ep_report(const lp__ep_workload *ws, size_t n, const lp__ep_report_opts *o)
{
    if (!n)
        return lp_host_fail("no workload to report");
    if (write_runs(ws, n, o->out_dir) != 0 || write_settings(ws, n, o->out_dir) != 0 ||
        write_plots(ws, n, o->out_dir) != 0)
        return 1;
    char path[PATH_MAX + 64];
    FILE *md = open_out(o->out_dir, "summary.md", path, sizeof path);
    if (!md)
        return 1;
    fprintf(md, "# lowprof eval phase: %s\n\n", o->mode);
    fprintf(md, "Remote-profiling paper, sections 5.3-5.4, on lowprof's workload suite, "
                "offline on interval matrices (doc/eval-phase.md). Percent sampled is the "
                "sampled intervals' instructions over all; profiling cost is the instructions "
                "of the sampled intervals (the instrumented work).\n\n");
    fprintf(md, "| workload | intervals | interval length | instructions (M) | runs | sweep "
                "(s) |\n| --- | ---: | ---: | ---: | ---: | ---: |\n");
    double total = 0;
    for (size_t w = 0; w < n; w++) {
        fprintf(md, "| %s | %zu | %llu | %.1f | %zu | %.2f |\n", ws[w].m.name, ws[w].m.n,
                (unsigned long long)ws[w].m.interval_length, (double)ws[w].m.total_insns / 1e6,
                ws[w].runs.count, ws[w].seconds);
        total += ws[w].seconds;
    }
    fprintf(md, "\nRecording: %.1f s (0: reused). Offline evaluation: %.1f s. Plots: %s.\n",
            o->recording_seconds, total,
            o->have_gnuplot ? "fig10_policies.svg, fig11_error.svg, fig12_hot.svg"
                            : "skipped, gnuplot is not installed (scripts *.gp written)");
    fprintf(md, "\n## Fig. 10: representative policies near 1 %% sampled\n\n"
                "Per workload the threshold whose %% sampled is nearest 1 %% (by ratio); "
                "code-region error.\n\n");
    int rc = fig10(ws, n, o->out_dir, md);
    double avg_pct[LP__EP_ERRS][3];
    if (rc == 0) {
        fprintf(md, "\n## Figs. 11-12: error against percent sampled\n\n"
                    "curves.csv (averaged over workloads), settings.csv (per workload), "
                    "runs.csv (every run); fig11_error.svg, fig12_hot.svg.\n");
        fprintf(md, "\n## Fig. 13: what 5 %% error takes\n");
        rc = fig13(ws, n, o->out_dir, md, avg_pct);
    }
    double ratio = -1, sum_ratio = -1;
    size_t ratio_n = 0;
    if (rc == 0) {
        fprintf(md, "\n## Fig. 15b: energy, computation and bytes at 5 %% code-region "
                    "error\n\n");
        rc = fig15(ws, n, o->out_dir, md, &ratio, &ratio_n, &sum_ratio);
    }
    if (rc == 0) {
        fprintf(md, "\n## Next-phase predictors\n\n");
        rc = predictors(ws, n, o->out_dir, md);
    }
    if (rc == 0) {
        fprintf(md, "\n## Online policies against the targets\n\n");
        lp__ep_targets(ws, n, md);
    }
    if (rc == 0) {
        fprintf(md, "\n## The paper's claims on our programs\n");
        lp__ep_claims(ws, n, md, ratio, sum_ratio, ratio_n, avg_pct);
    }
    if (close_out(md, path) != 0 || rc != 0)
        return 1;
    if (o->have_gnuplot)
        run_gnuplot(o->out_dir);
    printf("lowprof eval phase: results in %s (summary: %s)\n", o->out_dir, path);
    return 0;
}
