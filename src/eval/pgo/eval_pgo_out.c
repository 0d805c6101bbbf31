/* lowprof eval pgo: the results. pgo.csv has one row per program (every
 * figure, for re-plotting); pgo.md the same as a table for people, with
 * the medians over programs and the verdict on the target; stdout gets
 * the Markdown too.
 *
 * speedup   plain's median CPU time (user and system) over the build's;
 * recovered (speedup_sample - 1) / (speedup_instr - 1): the share of
 *           instrumentation PGO's gain a sample profile gets; left empty
 *           when instrumentation PGO gains under 1 %, where the ratio is
 *           noise over noise;
 * cost      a training run with collection over the plain training run
 *           (CPU time; Valgrind's is its slowdown), and the runtime's
 *           collection at the measured size over plain there;
 * model     the same speedups and shares in modelled cycles on the
 *           training input (eval_pgo_model.c); a share is left empty when
 *           instrumentation PGO gains under 1 % there too: such a gain is
 *           real in the model, but a share of it is mostly the sample
 *           build's own loss or gain (compress: 0.5 % gained, -482 %). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval_pgo.h"

/* The figures of one program. */
typedef struct pg_row {
    double speedup[LP__PG_NTIMED];
    double recovered_vg, recovered_rt;
    double model_speedup[LP__PG_NTIMED]; /* NAN without the model */
    double model_recovered_vg, model_recovered_rt;
    double collect_measured; /* runtime collecting at the measured size over plain */
} pg_row;

static double ratio(double num, double den)
{
    return isfinite(num) && isfinite(den) && den > 0 ? num / den : NAN;
}

static pg_row row_of(const lp__pg_program *p)
{
    pg_row r;
    for (unsigned b = 0; b < LP__PG_NTIMED; b++)
        r.speedup[b] = p->ok ? ratio(p->median[LP__PG_PLAIN], p->median[b]) : NAN;
    double gain = r.speedup[LP__PG_INSTR] - 1;
    int defined = isfinite(gain) && gain >= 0.01;
    r.recovered_vg = defined ? (r.speedup[LP__PG_VG] - 1) / gain : NAN;
    r.recovered_rt = defined ? (r.speedup[LP__PG_RT] - 1) / gain : NAN;
    r.collect_measured = p->ok ? ratio(p->median[LP__PG_COLLECT], p->median[LP__PG_PLAIN]) : NAN;
    for (unsigned b = 0; b < LP__PG_NTIMED; b++)
        r.model_speedup[b] = p->ok ? ratio(p->model[LP__PG_PLAIN], p->model[b]) : NAN;
    double mgain = r.model_speedup[LP__PG_INSTR] - 1;
    int mdefined = isfinite(mgain) && mgain >= 0.01;
    r.model_recovered_vg = mdefined ? (r.model_speedup[LP__PG_VG] - 1) / mgain : NAN;
    r.model_recovered_rt = mdefined ? (r.model_speedup[LP__PG_RT] - 1) / mgain : NAN;
    return r;
}

/* A number with the format, or empty (CSV) / "n/a" (Markdown) for NAN. */
static void num(FILE *f, const char *fmt, double v, const char *none)
{
    if (isfinite(v))
        fprintf(f, fmt, v);
    else
        fputs(none, f);
}

/* The median of the finite values among v[0..n) (NAN if none). */
static double finite_median(const double *v, size_t n)
{
    double *keep = malloc((n ? n : 1) * sizeof *keep);
    size_t k = 0;
    for (size_t i = 0; keep && i < n; i++)
        if (isfinite(v[i]))
            keep[k++] = v[i];
    double m = keep && k ? lp__pg_median(keep, k) : NAN;
    free(keep);
    return m;
}

/* A table's columns kept for their medians over programs (16 at most). */
typedef struct pg_cols {
    double v[7][16];
    size_t n;
} pg_cols;

static void cols_keep(pg_cols *t, const double *v, size_t ncols)
{
    if (t->n >= 16)
        return;
    for (size_t c = 0; c < ncols; c++)
        t->v[c][t->n] = v[c];
    t->n++;
}

static void cols_medians(const pg_cols *t, size_t ncols, double *m)
{
    for (size_t c = 0; c < ncols; c++)
        m[c] = finite_median(t->v[c], t->n);
}

/* Two recovered shares, "A | B" ("n/a" for NAN). */
static void put_shares(FILE *f, double vg, double rt)
{
    num(f, "%.0f %%", 100 * vg, "n/a");
    fputs(" | ", f);
    num(f, "%.0f %%", 100 * rt, "n/a");
}

/* The CSV fields ",v[from]" ... ",v[to - 1]" (empty for NAN). */
static void cols(FILE *f, const char *fmt, const double *v, unsigned from, unsigned to)
{
    for (unsigned i = from; i < to; i++) {
        fputc(',', f);
        num(f, fmt, v[i], "");
    }
}

static int write_csv(const lp__pg_opts *o, const lp__pg_program *ps, const pg_row *rows, size_t n)
{
    char path[4200];
    FILE *f = lp__eval_open(o->out, "pgo.csv", path, sizeof path);
    if (!f)
        return 1;
    fputs("program,ok,rounds,plain_s,instr_s,vg_s,rt_s,collect_s,speedup_instr,speedup_vg,"
          "speedup_rt,recovered_vg,recovered_rt,train_plain_s,cost_instr,cost_vg,cost_rt,"
          "cost_rt_measured,warnings_instr,warnings_vg,warnings_rt,model_plain,model_instr,"
          "model_vg,model_rt,model_ir_plain,model_ir_instr,model_ir_vg,model_ir_rt,"
          "model_speedup_instr,model_speedup_vg,model_speedup_rt,model_recovered_vg,"
          "model_recovered_rt\n",
          f);
    for (size_t i = 0; i < n; i++) {
        const lp__pg_program *p = &ps[i];
        const pg_row *r = &rows[i];
        fprintf(f, "%s,%d,%u", p->name, p->ok, o->rounds);
        double nan[LP__PG_NTIMED] = {NAN, NAN, NAN, NAN, NAN};
        cols(f, "%.4f", p->ok ? p->median : nan, 0, LP__PG_NTIMED);
        cols(f, "%.4f", r->speedup, LP__PG_INSTR, LP__PG_RT + 1);
        double rec[2] = {r->recovered_vg, r->recovered_rt};
        cols(f, "%.3f", rec, 0, 2);
        cols(f, "%.4f", p->train_cpu, LP__PG_PLAIN, LP__PG_PLAIN + 1);
        cols(f, "%.3f", p->collect, LP__PG_INSTR, LP__PG_RT + 1);
        cols(f, "%.4f", &r->collect_measured, 0, 1);
        fprintf(f, ",%d,%d,%d", p->warnings[LP__PG_INSTR], p->warnings[LP__PG_VG],
                p->warnings[LP__PG_RT]);
        cols(f, "%.0f", p->ok ? p->model : nan, LP__PG_PLAIN, LP__PG_RT + 1);
        cols(f, "%.0f", p->ok ? p->model_ir : nan, LP__PG_PLAIN, LP__PG_RT + 1);
        cols(f, "%.4f", r->model_speedup, LP__PG_INSTR, LP__PG_RT + 1);
        double mrec[2] = {r->model_recovered_vg, r->model_recovered_rt};
        cols(f, "%.3f", mrec, 0, 2);
        fputc('\n', f);
    }
    return lp__eval_close(f, path) ? 1 : 0;
}

/* The modelled speedups (eval_pgo_model.c), when the model ran. */
static void write_model(FILE *f, const lp__pg_program *ps, const pg_row *rows, size_t n)
{
    pg_cols t = {.n = 0};
    for (size_t i = 0; i < n; i++) {
        const pg_row *r = &rows[i];
        if (!ps[i].ok || !isfinite(r->model_speedup[LP__PG_INSTR]))
            continue;
        if (t.n == 0)
            fputs("\nModelled on the training input (cachegrind's cache and branch events: L1 "
                  "hit 1, LL hit 5, memory 35, mispredicted branch 20 cycles; one run each, "
                  "repeatable):\n\n"
                  "| program | instructions plain | speedup instr | speedup vg | speedup rt | "
                  "recovered vg | recovered rt |\n"
                  "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
                  f);
        fprintf(f, "| %s | %.0f | %.4f | %.4f | %.4f | ", ps[i].name, ps[i].model_ir[LP__PG_PLAIN],
                r->model_speedup[LP__PG_INSTR], r->model_speedup[LP__PG_VG],
                r->model_speedup[LP__PG_RT]);
        put_shares(f, r->model_recovered_vg, r->model_recovered_rt);
        fputs(" |\n", f);
        double v[5] = {r->model_speedup[LP__PG_INSTR], r->model_speedup[LP__PG_VG],
                       r->model_speedup[LP__PG_RT], r->model_recovered_vg, r->model_recovered_rt};
        cols_keep(&t, v, 5);
    }
    if (t.n == 0)
        return;
    double m[5];
    cols_medians(&t, 5, m);
    fprintf(f, "| **median** | | %.4f | %.4f | %.4f | ", m[0], m[1], m[2]);
    put_shares(f, m[3], m[4]);
    fputs(" |\n\nIn the model, the runtime's profile recovers ", f);
    num(f, "%.0f %%", 100 * m[4], "n/a");
    fputs(" of instrumentation PGO's gain on the median program (the target's 90 %, "
          "in modelled cycles rather than time).\n",
          f);
}

/* The Markdown table, the medians and the verdict, to f. */
static void write_table(FILE *f, const lp__pg_opts *o, const lp__pg_program *ps, const pg_row *rows,
                        size_t n)
{
    fprintf(f,
            "# lowprof eval pgo\n\n"
            "Trained on the %s input; measured on the %s input, CPU time (user + system), "
            "medians of %u alternating rounds. The runtime's profile: windows %u %% of the "
            "time, %u training run%s merged, its loops in %s.\n\n",
            o->train_small ? "small" : "large (a sixteenth of the default size)",
            o->full ? "default" : "small", o->rounds, o->duty, o->rt_runs,
            o->rt_runs == 1 ? "" : "s",
            o->loops_two ? "two versions (lowprof cc --loops=two)" : "one version");
    fputs("| program | plain s | speedup instr | speedup vg | speedup rt | recovered vg | "
          "recovered rt | cost instr | cost vg | cost rt (training) | cost rt (measured) |\n"
          "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
          f);
    pg_cols t = {.n = 0};
    for (size_t i = 0; i < n; i++) {
        const lp__pg_program *p = &ps[i];
        const pg_row *r = &rows[i];
        if (!p->ok) {
            fprintf(f, "| %s | failed: %s | | | | | | | | | |\n", p->name, p->why);
            continue;
        }
        fprintf(f, "| %s | %.3f | %.3f | %.3f | %.3f | ", p->name, p->median[LP__PG_PLAIN],
                r->speedup[LP__PG_INSTR], r->speedup[LP__PG_VG], r->speedup[LP__PG_RT]);
        put_shares(f, r->recovered_vg, r->recovered_rt);
        fputs(" | ", f);
        for (unsigned b = LP__PG_INSTR; b <= LP__PG_RT; b++) {
            num(f, "%.2fx", p->collect[b], "n/a");
            fputs(" | ", f);
        }
        num(f, "%+.1f %%", 100 * (r->collect_measured - 1), "n/a");
        fputs(" |\n", f);
        double v[7] = {r->speedup[LP__PG_INSTR], r->speedup[LP__PG_VG], r->speedup[LP__PG_RT],
                       r->recovered_vg,          r->recovered_rt,       p->collect[LP__PG_RT],
                       r->collect_measured};
        cols_keep(&t, v, 7);
    }
    double m[7];
    cols_medians(&t, 7, m);
    fprintf(f, "| **median** | | %.3f | %.3f | %.3f | ", m[0], m[1], m[2]);
    put_shares(f, m[3], m[4]);
    fputs(" | | | ", f);
    num(f, "%.2fx", m[5], "n/a");
    fputs(" | ", f);
    num(f, "%+.1f %%", 100 * (m[6] - 1), "n/a");
    fputs(" |\n\n", f);
    int met = isfinite(m[4]) && m[4] >= 0.9 && isfinite(m[6]) && m[6] < 1.03;
    fprintf(f,
            "Target: the runtime's windowed profile (here %u %% of the time) recovers at least "
            "90 %% of instrumentation PGO's speedup on the median program (here ",
            o->duty);
    num(f, "%.0f %%", 100 * m[4], "n/a");
    fputs(") at under 3 % collection overhead (here ", f);
    num(f, "%+.1f %%", 100 * (m[6] - 1), "n/a");
    fprintf(f, " at the measured size): %s.\n", met ? "met" : "not met");
    write_model(f, ps, rows, n);
}

int lp__pg_write(const lp__pg_opts *o, const lp__pg_program *ps, size_t n)
{
    pg_row *rows = calloc(n ? n : 1, sizeof *rows);
    if (!rows)
        return 1;
    for (size_t i = 0; i < n; i++)
        rows[i] = row_of(&ps[i]);
    int rc = write_csv(o, ps, rows, n);
    char path[4200];
    FILE *f = rc ? NULL : lp__eval_open(o->out, "pgo.md", path, sizeof path);
    if (f) {
        write_table(f, o, ps, rows, n);
        rc = lp__eval_close(f, path) ? 1 : 0;
        write_table(stdout, o, ps, rows, n);
    } else {
        rc = 1;
    }
    free(rows);
    return rc;
}
