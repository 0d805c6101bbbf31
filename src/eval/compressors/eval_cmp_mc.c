/* lowprof eval compressors, part 1: the Monte Carlo study of the
 * stratified-sampling paper (section 3.3, Fig. 4).
 *
 * A stream of N tuples holds t = 0.3N copies of one tuple p; the other 0.7N
 * are distinct tuples (the same load pc with values drawn at random from
 * 2^64, so two of them coincide with negligible probability), and the
 * whole is randomly permuted afresh for every trial. Each of the six
 * samplers of Fig. 3 at r = 10 estimates t from its messages alone (count r
 * for R and P, the carried count for CR and for the counted samplers under
 * H), as the software estimator folds them; the error of a trial is
 * |EST - t| / t and the study reports its mean per stream length.
 *
 * Two choices the paper leaves open, made here and stated in the output:
 * - messages reach the estimator as they are made (a one-message buffer)
 *   and the compressor is never finished, so counts a sampler still holds
 *   at the end of the stream are lost, as they are to the paper's software;
 * - the paper does not give n for H[X]_n in this study. With distinct other
 *   tuples, p's substream holds p plus about 0.7N/n others, so n decides how
 *   biased it is: a large n makes it nearly pure and H[P] nearly exact. The
 *   default n = 4 is the smallest power of two whose expected crossing of
 *   4 % error (about 12000 * (1 - q) with q = 0.3 / (0.3 + 0.7/n) the share of
 *   p in its substream) is near the paper's 4600; the tables also show
 *   H[P10]_n for other n.
 *
 * Tuned for: 20 lengths x 2500 trials x 12 samplers (about 6 G tuples) in
 * some minutes; each trial builds its stream once and feeds every sampler,
 * which is reset (not rebuilt) between trials. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval_cmp.h"

#define MC_RATE 10u
#define MC_SHARE 0.3
#define MC_LIMIT 0.04
#define MC_PC 0x401000u
#define MC_VALUE 42u

/* The six samplers of Fig. 3 in the paper's class order, then the n sweep. */
enum { MC_SIX = 6 };
static const unsigned mc_sweep_n[] = {2, 4, 8, 16, 64, 2048};
enum { MC_SWEEP = sizeof mc_sweep_n / sizeof mc_sweep_n[0] };
static const char *const mc_class_of[MC_SIX] = {"worst",  "worst", "middle",
                                                "middle", "best",  "best"};

typedef struct mc_sampler {
    char spec[32];
    lp_compressor *c;
    lp_estimator est;
    uint64_t msgs, p_msgs, counts; /* this trial's messages, those of p, their counts */
    double *sum_ratio;             /* per length: the ratio estimator's sum of |EST - t| / t */
    double *sum;                   /* per length: sum of |EST - t| / t */
    double *sum_sq;
    double *sum_est; /* per length: sum of |EST - t| / EST (the paper's ERR; EST = 0 counts 1) */
} mc_sampler;

static int parse_lengths(const char *text, uint64_t **out, size_t *out_n)
{
    size_t cap = 20, n = 0;
    uint64_t *v = malloc(cap * sizeof *v);
    if (!v)
        return lp_host_fail("out of memory");
    if (!text) {
        for (uint64_t len = 1000; len <= 20000; len += 1000)
            v[n++] = len;
    } else {
        for (const char *p = text; *p;) {
            char *end;
            unsigned long long x = strtoull(p, &end, 10);
            if (end == p || (*end && *end != ',') || x < 10 || x > 100000000) {
                free(v);
                return lp_host_usage("eval",
                                    "--mc-lengths needs numbers from 10 to 1e8 "
                                    "separated by commas, not '%s'",
                                    text);
            }
            if (n == cap) {
                uint64_t *nv = realloc(v, 2 * cap * sizeof *v);
                if (!nv) {
                    free(v);
                    return lp_host_fail("out of memory");
                }
                v = nv;
                cap *= 2;
            }
            v[n++] = x;
            p = *end ? end + 1 : end;
        }
    }
    *out = v;
    *out_n = n;
    return 0;
}

/* Fills s[0..n) with t copies of p and distinct others, then shuffles it
 * (Fisher-Yates). */
static void mc_stream(lp_tuple *s, size_t n, size_t t, lp_rng *rng)
{
    for (size_t i = 0; i < n; i++) {
        s[i].pc = MC_PC;
        s[i].type = LP_TUPLE_VALUE;
        s[i].w = i < t ? MC_VALUE : lp_rng_next(rng) | (1ULL << 63); /* never 42 */
    }
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)lp_rng_below(rng, i + 1);
        lp_tuple x = s[i];
        s[i] = s[j];
        s[j] = x;
    }
}

static void mc_free(mc_sampler *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        lp_compressor_free(s[i].c);
        lp_estimator_fini(&s[i].est);
        free(s[i].sum);
        free(s[i].sum_sq);
        free(s[i].sum_est);
        free(s[i].sum_ratio);
    }
    free(s);
}

/* Folds messages into the sampler's estimator and counts them, for the
 * ratio estimator. */
static void mc_on_messages(void *ctx, const lp_message *m, size_t n)
{
    mc_sampler *s = ctx;
    lp_estimator_on_messages(&s->est, m, n);
    for (size_t i = 0; i < n; i++) {
        s->msgs++;
        s->counts += m[i].count;
        s->p_msgs += m[i].pc == MC_PC && m[i].w == MC_VALUE;
    }
}

static double mean_of(const mc_sampler *s, size_t li, uint64_t trials)
{
    return s->sum[li] / (double)trials;
}

/* Standard error of the mean. */
static double se_of(const mc_sampler *s, size_t li, uint64_t trials)
{
    double m = mean_of(s, li, trials);
    double var = s->sum_sq[li] / (double)trials - m * m;
    return trials > 1 && var > 0 ? sqrt(var / (double)(trials - 1)) : 0.0;
}

/* First length whose mean error is below the limit, and the length where
 * the curve crosses it by linear interpolation between grid points. */
static void crossing(const mc_sampler *s, const uint64_t *len, size_t nlen, uint64_t trials,
                     uint64_t *out_grid, double *out_interp)
{
    *out_grid = UINT64_MAX;
    *out_interp = -1;
    for (size_t i = 0; i < nlen; i++) {
        double e = mean_of(s, i, trials);
        if (e < MC_LIMIT) {
            *out_grid = len[i];
            if (i == 0) {
                *out_interp = (double)len[0];
            } else {
                double e0 = mean_of(s, i - 1, trials);
                *out_interp =
                    (double)len[i - 1] + (e0 - MC_LIMIT) / (e0 - e) * (double)(len[i] - len[i - 1]);
            }
            return;
        }
    }
}

/* Whether the classes order as the paper says at length index i: every
 * sampler of a worse class above every sampler of a better one. With
 * ratio_cr, CR's error is that of the ratio estimator (see below). */
static int classes_hold(const mc_sampler *s, size_t i, uint64_t trials, int ratio_cr)
{
    double cr = ratio_cr ? s[3].sum_ratio[i] / (double)trials : mean_of(&s[3], i, trials);
    double w_min = fmin(mean_of(&s[0], i, trials), mean_of(&s[1], i, trials));
    double m_max = fmax(mean_of(&s[2], i, trials), cr);
    double m_min = fmin(mean_of(&s[2], i, trials), cr);
    double b_max = fmax(mean_of(&s[4], i, trials), mean_of(&s[5], i, trials));
    return w_min > m_max && m_min > b_max;
}

int lp_eval_cmp_mc(const lp_eval_cmp_opts *o, FILE *summary)
{
    uint64_t *len = NULL;
    size_t nlen = 0;
    int rc = parse_lengths(o->mc_lengths, &len, &nlen);
    if (rc)
        return rc;
    size_t ns = MC_SIX;
    mc_sampler *s = calloc(MC_SIX + MC_SWEEP, sizeof *s);
    uint64_t max_len = 0;
    for (size_t i = 0; i < nlen; i++)
        max_len = len[i] > max_len ? len[i] : max_len;
    lp_tuple *stream = malloc(max_len * sizeof *stream);
    if (!s || !stream) {
        free(len);
        free(s);
        free(stream);
        return lp_host_fail("out of memory");
    }
    unsigned n = o->mc_n;
    snprintf(s[0].spec, sizeof s[0].spec, "R%u", MC_RATE);
    snprintf(s[1].spec, sizeof s[1].spec, "H[R%u]%u", MC_RATE, n);
    snprintf(s[2].spec, sizeof s[2].spec, "P%u", MC_RATE);
    snprintf(s[3].spec, sizeof s[3].spec, "CR%u", MC_RATE);
    snprintf(s[4].spec, sizeof s[4].spec, "H[P%u]%u", MC_RATE, n);
    snprintf(s[5].spec, sizeof s[5].spec, "H[CR%u]%u", MC_RATE, n);
    for (size_t k = 0; k < MC_SWEEP; k++)
        if (mc_sweep_n[k] != n) /* that one is among the six already */
            snprintf(s[ns++].spec, sizeof s[0].spec, "H[P%u]%u", MC_RATE, mc_sweep_n[k]);
    /* Every message reaches software at once: nothing waits in a buffer. */
    const lp_cost_model cost = {1, 214, 30};
    for (size_t i = 0; i < ns; i++) {
        lp_compressor_spec spec;
        if (lp_host_parse_compressor("eval", s[i].spec, &spec) != 0 ||
            lp_estimator_init(&s[i].est) != 0 ||
            lp_compressor_create(&spec, &cost, 1, mc_on_messages, &s[i], &s[i].c) != 0 ||
            !(s[i].sum_ratio = calloc(nlen, sizeof(double))) ||
            !(s[i].sum = calloc(nlen, sizeof(double))) ||
            !(s[i].sum_sq = calloc(nlen, sizeof(double))) ||
            !(s[i].sum_est = calloc(nlen, sizeof(double)))) {
            mc_free(s, ns);
            free(len);
            free(stream);
            return lp_host_fail("cannot build the Monte Carlo sampler %s", s[i].spec);
        }
    }
    const uint64_t trials = o->trials;
    fprintf(stderr, "lowprof eval: Monte Carlo: %zu stream lengths x %llu trials x %zu samplers\n",
            nlen, (unsigned long long)trials, ns);
    for (size_t li = 0; li < nlen; li++) {
        const size_t N = (size_t)len[li];
        const size_t t = (size_t)llround(MC_SHARE * (double)N);
        for (uint64_t trial = 0; trial < trials; trial++) {
            uint64_t seed = lp_hash_pair(lp_hash_pair(o->seed, N), trial);
            lp_rng rng;
            lp_rng_seed(&rng, seed);
            mc_stream(stream, N, t, &rng);
            for (size_t i = 0; i < ns; i++) {
                lp_compressor_reset(s[i].c, lp_hash_pair(seed, i + 1));
                lp_estimator_clear(&s[i].est);
                s[i].msgs = s[i].p_msgs = s[i].counts = 0;
                lp_compressor_push_many(s[i].c, stream, N);
                if (s[i].est.status != 0) {
                    mc_free(s, ns);
                    free(len);
                    free(stream);
                    return lp_host_fail("out of memory in the Monte Carlo estimator");
                }
                double est = (double)lp_estimator_count(&s[i].est, LP_TUPLE_VALUE, MC_PC, MC_VALUE);
                double err = fabs(est - (double)t) / (double)t;
                s[i].sum[li] += err;
                s[i].sum_sq[li] += err * err;
                s[i].sum_est[li] += est > 0 ? fabs(est - (double)t) / est : 1.0;
                double ratio =
                    s[i].msgs ? (double)s[i].counts * (double)s[i].p_msgs / (double)s[i].msgs : 0.0;
                s[i].sum_ratio[li] += fabs(ratio - (double)t) / (double)t;
            }
        }
        if ((li + 1) % 5 == 0 || li + 1 == nlen)
            fprintf(stderr, "lowprof eval: Monte Carlo: N = %zu done (%zu/%zu)\n", N, li + 1, nlen);
    }

    /* mc.csv: every sampler, every length. */
    char path[4200];
    FILE *f = lp__eval_open(o->out_dir, "mc.csv", path, sizeof path);
    if (!f) {
        rc = 1;
        goto done;
    }
    fprintf(f, "length,tuple_copies,trials,sampler,class,mean_error,stderr,mean_error_paper,"
               "mean_error_ratio\n");
    for (size_t li = 0; li < nlen; li++)
        for (size_t i = 0; i < ns; i++)
            fprintf(f, "%llu,%lld,%llu,%s,%s,%.6f,%.6f,%.6f,%.6f\n", (unsigned long long)len[li],
                    llround(MC_SHARE * (double)len[li]), (unsigned long long)trials, s[i].spec,
                    i < MC_SIX ? mc_class_of[i] : "n-sweep", mean_of(&s[i], li, trials),
                    se_of(&s[i], li, trials), s[i].sum_est[li] / (double)trials,
                    s[i].sum_ratio[li] / (double)trials);
    if (lp__eval_close(f, path) != 0) {
        rc = 1;
        goto done;
    }

    /* The table of Fig. 4, the crossings and the classes, in Markdown. */
    f = lp__eval_open(o->out_dir, "mc.md", path, sizeof path);
    if (!f) {
        rc = 1;
        goto done;
    }
    FILE *outs[2] = {f, summary};
    size_t held = 0, held_ratio = 0;
    for (size_t li = 0; li < nlen; li++) {
        held += (size_t)classes_hold(s, li, trials, 0);
        held_ratio += (size_t)classes_hold(s, li, trials, 1);
    }
    for (int k = 0; k < 2; k++) {
        FILE *g = outs[k];
        fprintf(g, "## Monte Carlo: estimating a tuple's frequency (paper Fig. 4)\n\n");
        fprintf(g,
                "Stream of N tuples, t = 0.3N copies of p, the rest distinct, permuted afresh "
                "per trial; r = %u, n = %u; %llu trials per length%s. Mean of |EST - t| / t "
                "in %%.\n\n",
                MC_RATE, n, (unsigned long long)trials,
                trials < 2500 ? " (fewer than the paper's 2500: small mode)" : " (as the paper)");
        fprintf(g, "| N |");
        for (size_t i = 0; i < MC_SIX; i++)
            fprintf(g, " %s |", s[i].spec);
        fprintf(g, " classes in order |\n|---:|");
        for (size_t i = 0; i < MC_SIX; i++)
            fprintf(g, "---:|");
        fprintf(g, ":---:|\n");
        for (size_t li = 0; li < nlen; li++) {
            fprintf(g, "| %llu |", (unsigned long long)len[li]);
            for (size_t i = 0; i < MC_SIX; i++)
                fprintf(g, " %.2f |", 100 * mean_of(&s[i], li, trials));
            fprintf(g, " %s |\n", classes_hold(s, li, trials, 0) ? "yes" : "no");
        }
        fprintf(g, "\nStream length at which the mean error falls under 4 %% (first length of "
                   "the grid; linear interpolation in brackets). Paper: about 12000 for R, "
                   "4600 for H[P].\n\n| sampler | under 4 %% from | interpolated |\n"
                   "|---|---:|---:|\n");
        for (size_t i = 0; i < ns; i++) {
            uint64_t grid;
            double interp;
            crossing(&s[i], len, nlen, trials, &grid, &interp);
            char b[32];
            if (grid == UINT64_MAX)
                fprintf(g, "| %s | not within %llu | - |\n", s[i].spec,
                        (unsigned long long)len[nlen - 1]);
            else
                fprintf(g, "| %s | %s | %.0f |\n", s[i].spec,
                        lp__eval_events_text(grid, b, sizeof b), interp);
        }
        size_t last = nlen - 1;
        fprintf(g,
                "\nEquivalence classes {R, H[R]} > {P, CR} > {H[P], H[CR]} (every sampler "
                "of a worse class has a higher mean error than every sampler of a better "
                "one): hold at %zu of %zu lengths; at N = %llu: %s (worst %.2f/%.2f, "
                "middle %.2f/%.2f, best %.2f/%.2f %%).\n\n",
                held, nlen, (unsigned long long)len[last],
                classes_hold(s, last, trials, 0) ? "yes" : "no", 100 * mean_of(&s[0], last, trials),
                100 * mean_of(&s[1], last, trials), 100 * mean_of(&s[2], last, trials),
                100 * mean_of(&s[3], last, trials), 100 * mean_of(&s[4], last, trials),
                100 * mean_of(&s[5], last, trials));
        fprintf(g,
                "CR with the paper's estimator (the sum of the counts of p's messages) "
                "attributes each gap between selections to the selected tuple, which adds "
                "the gaps' variance: it comes out worse than R here. The counter's "
                "information used as the paper's section 3.1 argues (stream length from the "
                "counts, times p's share of the messages: column mean_error_ratio of mc.csv) "
                "gives %s %.2f %% at N = %llu, against %.2f %% for %s; with it the three "
                "classes hold at %zu of %zu lengths (at N = %llu: %s).\n\n",
                s[3].spec, 100 * s[3].sum_ratio[last] / (double)trials,
                (unsigned long long)len[last], 100 * mean_of(&s[2], last, trials), s[2].spec,
                held_ratio, nlen, (unsigned long long)len[last],
                classes_hold(s, last, trials, 1) ? "yes" : "no");
    }
    if (lp__eval_close(f, path) != 0) {
        rc = 1;
        goto done;
    }

    /* The plot: one line per sampler of the six. */
    f = lp__eval_open(o->out_dir, "mc.gp", path, sizeof path);
    if (!f) {
        rc = 1;
        goto done;
    }
    fprintf(f,
            "set terminal svg size 800,500 dynamic\nset output '%s/mc.svg'\n"
            "set datafile separator ','\nset key top right\n"
            "set title 'Monte Carlo: mean error estimating t = 0.3N (r = %u, %llu trials)'\n"
            "set xlabel 'stream length N'\nset ylabel 'mean error (%%)'\nset grid\n"
            "set arrow from graph 0, first 4 to graph 1, first 4 nohead dt 2\nplot ",
            o->out_dir, MC_RATE, (unsigned long long)trials);
    for (size_t i = 0; i < MC_SIX; i++)
        fprintf(f,
                "%s'%s/mc.csv' using 1:(strcol(4) eq '%s' ? 100*$6 : NaN) with linespoints "
                "title '%s'",
                i ? ", \\\n     " : "", o->out_dir, s[i].spec, s[i].spec);
    fprintf(f, "\n");
    if (lp__eval_close(f, path) != 0) {
        rc = 1;
        goto done;
    }
    if (lp__eval_plot(o->out_dir, path) == 0)
        fprintf(summary, "Plot: %s/mc.svg\n\n", o->out_dir);
done:
    mc_free(s, ns);
    free(len);
    free(stream);
    return rc;
}
