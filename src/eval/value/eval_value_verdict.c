/* lowprof eval value: the co-processor against simple sampling at matched
 * overhead (the co-processor paper's claim: a more accurate profile than
 * simple sampling at a fraction of its overhead).
 *
 * Simple sampling at the tested rates gives points (overhead, error);
 * between two neighbours its error is taken as linear in log overhead, the
 * axis the paper's Fig. 1 and lowprof's errovh plot use. Outside the
 * tested overheads nothing is assumed but that sampling more often never
 * makes the error larger: so twice the co-processor's overhead below the
 * cheapest rate's still decides the question when the co-processor beats
 * that rate, and above the dearest rate's when it does not beat that one. */
#include <math.h>
#include <stddef.h>

#include "eval_value.h"

const char *lp_eval_val_answer_text(lp_eval_val_answer a)
{
    switch (a) {
    case LP_EVAL_VAL_YES: return "yes";
    case LP_EVAL_VAL_NO: return "no";
    default: return "undetermined";
    }
}

/* The simple runs that finished, by ascending overhead. */
static size_t simple_points(const lp_eval_val_wl *w, const lp_eval_val_run **out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < w->nruns && n < cap; i++) {
        const lp_eval_val_run *r = &w->runs[i];
        if (r->kind != LP_EVAL_VAL_SIMPLE || r->final.overhead <= 0)
            continue;
        size_t k = n++;
        while (k > 0 && out[k - 1]->final.overhead > r->final.overhead) {
            out[k] = out[k - 1];
            k--;
        }
        out[k] = r;
    }
    return n;
}

/* y at x on the line through (x0, y0) and (x1, y1), with x in log. */
static double log_interp(double x, double x0, double y0, double x1, double y1)
{
    if (x1 == x0)
        return y0;
    double t = (log(x) - log(x0)) / (log(x1) - log(x0));
    return y0 + t * (y1 - y0);
}

int lp_eval_val_judge(const lp_eval_val_wl *w, lp_eval_val_verdict *out)
{
    const lp_eval_val_run *c = lp_eval_val_base(w);
    const lp_eval_val_run *s[LP_EVAL_VAL_MAX_RATES];
    size_t n = simple_points(w, s, LP_EVAL_VAL_MAX_RATES);
    if (!c || n == 0)
        return -1;
    lp_eval_val_verdict v = {0};
    v.coproc_error = c->final.error;
    v.coproc_overhead = c->final.overhead;
    v.twice_overhead = 2 * v.coproc_overhead;
    v.simple_error = NAN;
    v.answer = LP_EVAL_VAL_UNKNOWN;
    double x = v.twice_overhead;
    if (x < s[0]->final.overhead) {
        v.hi = s[0];
        /* Below every tested rate: simple sampling is no better there than
         * at its cheapest rate. */
        if (v.coproc_error < s[0]->final.error)
            v.answer = LP_EVAL_VAL_YES;
    } else if (x > s[n - 1]->final.overhead) {
        v.lo = s[n - 1];
        /* Above every tested rate: simple sampling is no worse there than
         * at its dearest rate. */
        if (v.coproc_error >= s[n - 1]->final.error)
            v.answer = LP_EVAL_VAL_NO;
    } else {
        size_t i = 0;
        while (i + 1 < n && s[i + 1]->final.overhead < x)
            i++;
        v.lo = s[i];
        v.hi = i + 1 < n ? s[i + 1] : s[i];
        v.simple_error = log_interp(x, v.lo->final.overhead, v.lo->final.error,
                                    v.hi->final.overhead, v.hi->final.error);
        v.answer = v.coproc_error < v.simple_error ? LP_EVAL_VAL_YES : LP_EVAL_VAL_NO;
    }
    /* The overhead simple sampling needs for the co-processor's error: the
     * first crossing, from the cheapest rate up. */
    v.needed_overhead = NAN;
    v.needed_bound = 1;
    for (size_t i = 0; i < n; i++) {
        if (s[i]->final.error > v.coproc_error)
            continue;
        if (i == 0) {
            v.needed_overhead = s[0]->final.overhead;
            v.needed_bound = -1;
        } else {
            const lp_eval_val_run *a = s[i - 1], *b = s[i];
            double t = (a->final.error - v.coproc_error) / (a->final.error - b->final.error);
            v.needed_overhead =
                exp(log(a->final.overhead) +
                    t * (log(b->final.overhead) - log(a->final.overhead)));
            v.needed_bound = 0;
        }
        break;
    }
    *out = v;
    return 0;
}
