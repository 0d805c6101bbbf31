/* lowprof eval hps: the cost of sampling with conditional control (HPS)
 * against plain DISE replacement, Fig. 9 of the remote-profiling paper
 * (section 5.2), and the check of the counter trigger against the software
 * sampling framework (section 3.4).
 *
 * Each workload is recorded four times with the periodic ACFs (one event of
 * interest in N sampled, by counters): hot code region and hot call pair,
 * each in HPS and in DISE mode. The front end counts the replacements each
 * mode performs and the handler calls that recorded; the instructions a
 * replacement executes are counted, not assumed: the same C code the front
 * end runs (the hps module's step and handlers, behind a dispatch shaped as
 * in src/frontends/vg/lp_vg_hps.c) runs natively under callgrind on the
 * keys the run sampled, and callgrind's instruction count per replacement
 * is taken from that (the cost driver, --cost-driver). A replacement costs
 * one cycle besides (the decode stall the paper charges). */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eval_internal.h"
#include "lowprof/suite.h"
#include "lowprof/hps.h"

int lp_eval_hps(int argc, char **argv);

static const char eval_hps_help[] =
    "usage: lowprof eval hps [--out DIR] [--workloads LIST] [--period N]\n"
    "                        [--size small|full] [--data DIR]\n"
    "\n"
    "Fig. 9 of the remote-profiling paper: the instructions DISE and HPS add\n"
    "to sample one event of interest in N (hot code region: branches; hot\n"
    "call pair: calls), per workload, as a share of the program's own\n"
    "instructions, with the real slowdown of the two modes under the front\n"
    "end; then the counter trigger (share/acf/bursty-call-pair.acf) against\n"
    "the software sampling framework (--hps-ar) on the first workload.\n"
    "\n"
    "  --out DIR         results folder [results/eval-hps]\n"
    "  --workloads LIST  comma-separated workloads [bzip2-9,gzip-9,cc1]\n"
    "  --period N        sample one event in N [100]\n"
    "  --size S          data set of the workloads [small]\n"
    "  --data DIR        inputs prepared by lowprof workloads [OUT/data]\n"
    "\n"
    "Needs valgrind's callgrind. Writes fig9.csv, fig9.md, trigger.md and\n"
    "summary.md under DIR; see doc/eval-hps.md.\n";

enum { KIND_CR = 0, KIND_CP = 1, KINDS = 2 };
static const char *const kind_name[KINDS] = {"code-region", "call-pair"};
static const char *const kind_acf[KINDS] = {"periodic-code-region", "periodic-call-pair"};
static const unsigned kind_type[KINDS] = {LP_PROF_CODE_REGION, LP_PROF_CALL_PAIR};

/* ---- the cost driver: the front end's replacement paths, natively ---- */

/* Shaped as lp_vg_hps_call in the front end. */
typedef struct eh_call {
    const uint8_t *prods;
    const uint64_t *when;
    size_t n;
    uint64_t fired;
    uint64_t bit;
    uint64_t pc;
    unsigned handler;
} eh_call;

static lp_hps_profiles eh_prof;
static lp_hps_state eh_state;
static lp_hps_acf eh_acf;

static void eh_handler(const eh_call *c, uint64_t a, uint64_t b)
{
    switch (c->handler) {
    case LP_HPS_H_BRANCH: lp_hps_on_branch(&eh_prof, a, b); break;
    case LP_HPS_H_CALL_PAIR: lp_hps_on_call_pair(&eh_prof, a, b); break;
    default: break;
    }
}

/* HPS: the guard held, so the handler runs. */
__attribute__((noinline)) void lp__eh_hps_replacement(eh_call *c, uint64_t a, uint64_t b)
{
    eh_handler(c, a, b);
}

/* DISE: the step checks the flags and runs the micro-operations in
 * software, then the handler call checks whether its production matched. */
__attribute__((noinline)) void lp__eh_dise_replacement(eh_call *c, uint64_t a, uint64_t b)
{
    c->fired = lp_hps_step(&eh_state, &eh_acf, c->prods, c->when, c->n);
    if (c->fired & c->bit)
        eh_handler(c, a, b);
}

/* DISE with the check written by hand for this one ACF, as the paper's
 * hand-optimised replacement sequences were: count down, and at zero
 * reload and profile. The lower bound of any software check. */
static uint64_t eh_countdown, eh_period;

__attribute__((noinline)) void lp__eh_dise_countdown(eh_call *c, uint64_t a, uint64_t b)
{
    if (--eh_countdown)
        return;
    eh_countdown = eh_period;
    eh_handler(c, a, b);
}

__attribute__((noinline)) void lp__eh_ar_check(lp_hps_ar *a)
{
    lp_hps_ar_check(a);
}

/* The sampled keys of a recording, repeated by their counts (scaled to at
 * most cap events) and shuffled with a fixed seed. */
static int eh_keys(const char *prof, unsigned type, size_t cap, lp_key **out, size_t *out_n)
{
    lp_profile_set set;
    if (lp_host_load_profile(prof, &set) != 0)
        return 1;
    const lp_profile *p = lp_profile_set_find(&set, type, LP_PHASE_NONE);
    uint64_t sum = 0;
    size_t cur = 0;
    const lp_entry *e;
    while (p && (e = lp_table_next(&p->table, &cur)))
        sum += e->v[0];
    if (!sum) {
        lp_profile_set_fini(&set);
        return lp_host_fail("%s: no sampled %s events to replay", prof, lp_profile_type_name(type));
    }
    lp_key *k = malloc(cap * sizeof *k);
    size_t n = 0;
    cur = 0;
    while (k && (e = lp_table_next(&p->table, &cur))) {
        uint64_t reps = sum <= cap ? e->v[0] : (e->v[0] * cap + sum - 1) / sum;
        for (uint64_t r = 0; r < reps && n < cap; r++)
            k[n++] = e->key;
    }
    lp_profile_set_fini(&set);
    if (!k)
        return lp_host_fail("out of memory");
    lp_rng rng;
    lp_rng_seed(&rng, 1);
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)lp_rng_below(&rng, i);
        lp_key t = k[i - 1];
        k[i - 1] = k[j];
        k[j] = t;
    }
    *out = k;
    *out_n = n;
    return 0;
}

/* --cost-driver MODE KIND PERIOD PROFILE: runs MODE (hps, dise, ar) over
 * the profile's keys with KIND's periodic ACF; prints the number of
 * replacements (or checks). */
static int eh_driver(int argc, char **argv)
{
    if (argc != 5)
        return lp_host_usage("eval hps", "--cost-driver MODE KIND PERIOD PROFILE");
    const char *mode = argv[1];
    int kind = strcmp(argv[2], kind_name[KIND_CP]) == 0 ? KIND_CP : KIND_CR;
    if (strcmp(mode, "ar") == 0) {
        lp_hps_ar a;
        lp_hps_ar_init(&a, 1000, 10);
        for (int i = 0; i < 1000000; i++)
            lp__eh_ar_check(&a);
        printf("%d\n", 1000000);
        return a.bursts ? 0 : 1;
    }
    char path[PATH_MAX];
    unsigned long period = strtoul(argv[3], NULL, 10);
    if (lp_host_acf_load(kind_acf[kind], &eh_acf, path, sizeof path) != 0)
        return 1;
    if (period >= 2 && period <= 65535)
        lp_hps_set_register(&eh_acf, "HPS_R2", 6, 65536 - (period - 1));
    lp_key *keys = NULL;
    size_t n = 0;
    if (eh_keys(argv[4], kind_type[kind], 1u << 18, &keys, &n) != 0 ||
        lp_hps_profiles_init(&eh_prof) != 0)
        return 1;
    lp_hps_state_init(&eh_state, &eh_acf);
    lp_hps_insn in = {0x1000, 0x800, kind == KIND_CP ? LP_HPS_CALL : LP_HPS_COND, 0, 1};
    uint8_t prods[LP_HPS_MAX_PRODUCTIONS];
    uint64_t when[LP_HPS_MAX_PRODUCTIONS];
    size_t m = 0, repl = 0;
    for (size_t p = 0; p < eh_acf.nprod; p++)
        if ((when[m] = lp_hps_when(&eh_acf, p, &in)) != 0) {
            if (eh_acf.prod[p].replacement >= 0)
                repl = m;
            prods[m++] = (uint8_t)p;
        }
    eh_call c = {prods, when, m, 0, UINT64_C(1) << repl, in.pc,
                 kind == KIND_CP ? LP_HPS_H_CALL_PAIR : LP_HPS_H_BRANCH};
    int dise = strcmp(mode, "dise") == 0, countdown = strcmp(mode, "countdown") == 0;
    eh_period = eh_countdown = period;
    /* DISE replaces every event; the keys are those sampled, a fair draw
     * of every event's keys. HPS replaces only the sampled ones. */
    for (size_t i = 0; i < n; i++) {
        if (dise)
            lp__eh_dise_replacement(&c, keys[i].a, kind == KIND_CP ? keys[i].b : 5);
        else if (countdown)
            lp__eh_dise_countdown(&c, keys[i].a, kind == KIND_CP ? keys[i].b : 5);
        else
            lp__eh_hps_replacement(&c, keys[i].a, kind == KIND_CP ? keys[i].b : 5);
    }
    printf("%zu\n", n);
    free(keys);
    lp_hps_profiles_fini(&eh_prof);
    lp_hps_acf_free(&eh_acf);
    return 0;
}

/* ---- measuring ---- */

/* snprintf for paths; an over-long path is cut (and then fails to open,
 * naming itself), which the checks of out_dir's length make unlikely. */
__attribute__((format(printf, 3, 4))) static void hps_pathf(char *buf, size_t cap,
                                                            const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
}

typedef struct hps_opts {
    const char *out_dir;
    const char *workloads;
    const char *size;
    const char *data;
    unsigned period;
} hps_opts;

static int run_capture(char *const *argv, const char *log, char *out, size_t cap)
{
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.out", log);
    int st = lp_wl_spawn(argv, NULL, 0, 0, NULL, tmp, log, 0);
    out[0] = '\0';
    FILE *f = fopen(tmp, "r");
    if (f) {
        size_t n = fread(out, 1, cap - 1, f);
        out[n] = '\0';
        fclose(f);
    }
    return st;
}

/* Instructions callgrind counted inside the toggled function, divided by
 * the replacements the driver reports. Returns 0 or 1 after a message. */
static int cost_per_call(const hps_opts *o, const char *mode, int kind, const char *prof,
                         double *out_cost)
{
    char cg[PATH_MAX], log[PATH_MAX], toggle[64], period[16];
    hps_pathf(cg, sizeof cg, "%s/callgrind.%s.%s.out", o->out_dir, mode, kind_name[kind]);
    hps_pathf(log, sizeof log, "%s/callgrind.%s.%s.log", o->out_dir, mode, kind_name[kind]);
    snprintf(toggle, sizeof toggle, "--toggle-collect=%s",
             strcmp(mode, "ar") == 0          ? "lp__eh_ar_check"
             : strcmp(mode, "dise") == 0      ? "lp__eh_dise_replacement"
             : strcmp(mode, "countdown") == 0 ? "lp__eh_dise_countdown"
                                              : "lp__eh_hps_replacement");
    snprintf(period, sizeof period, "%u", o->period);
    char cgopt[PATH_MAX + 32];
    snprintf(cgopt, sizeof cgopt, "--callgrind-out-file=%s", cg);
    /* This binary's own path: valgrind would read /proc/self/exe as itself. */
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return lp_host_fail("cannot find this program's own path: %s", strerror(errno));
    self[len] = '\0';
    char *argv[] = {(char *)"valgrind", (char *)"--tool=callgrind", cgopt, toggle, self,
                    (char *)"eval", (char *)"hps",
                    (char *)"--cost-driver", (char *)mode, (char *)kind_name[kind], period,
                    (char *)prof, NULL};
    char out[64];
    int st = run_capture(argv, log, out, sizeof out);
    unsigned long long calls = strtoull(out, NULL, 10);
    if (st != 0 || !calls) {
        char why[128];
        return lp_host_fail("the cost driver failed under callgrind (%s); see %s",
                           lp_host_status_text(st, why, sizeof why), log);
    }
    FILE *f = fopen(cg, "r");
    if (!f)
        return lp_host_fail("%s: %s", cg, strerror(errno));
    char line[512];
    unsigned long long ir = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "summary:", 8) == 0)
            ir = strtoull(line + 8, NULL, 10);
    fclose(f);
    if (!ir)
        return lp_host_fail("%s: no instruction count", cg);
    *out_cost = (double)ir / (double)calls;
    return 0;
}

typedef struct hps_row {
    char name[64];
    uint64_t insns;
    uint64_t events[KINDS];   /* DISE replacements: every event of interest */
    uint64_t sampled[KINDS];  /* HPS replacements */
    double c_hps[KINDS];      /* instructions per HPS replacement */
    double c_dise[KINDS];     /* per DISE replacement: the front end's generic step */
    double c_hand[KINDS];     /* per DISE replacement: a hand-written countdown */
    double t_none, t_mode[KINDS][2]; /* seconds: signatures only; [kind][dise] */
    int same_profile[KINDS];
} hps_row;

static uint64_t meta_u64(const lp_profile_set *s, const char *key)
{
    const char *v = lp_meta_get(&s->meta, key);
    return v ? strtoull(v, NULL, 10) : 0;
}

static int tables_equal(const lp_profile_set *a, const lp_profile_set *b, unsigned type)
{
    const lp_profile *p = lp_profile_set_find(a, type, LP_PHASE_NONE);
    const lp_profile *q = lp_profile_set_find(b, type, LP_PHASE_NONE);
    if (!p || !q || p->table.count != q->table.count)
        return 0;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(&p->table, &cur))) {
        const lp_entry *f = lp_table_find(&q->table, e->key);
        if (!f || f->v[0] != e->v[0] || f->v[1] != e->v[1])
            return 0;
    }
    return 1;
}

static int measure(const hps_opts *o, lp__eval_suite *co, hps_row *r)
{
    char prof[PATH_MAX], log[PATH_MAX], reg[64];
    snprintf(reg, sizeof reg, "HPS_R2=%u", 65536 - (o->period - 1));
    char *none[] = {(char *)"--profile", (char *)"none"};
    hps_pathf(prof, sizeof prof, "%s/rec/%s.none.lpprof", o->out_dir, r->name);
    hps_pathf(log, sizeof log, "%s/rec/%s.none.log", o->out_dir, r->name);
    fprintf(stderr, "lowprof eval hps: %s: signatures only\n", r->name);
    if (lp__eval_wl_run(co, r->name, none, 2, prof, log, &r->t_none) != 0)
        return 1;
    for (int k = 0; k < KINDS; k++) {
        lp_profile_set sets[2];
        char paths[2][PATH_MAX];
        for (int dise = 0; dise < 2; dise++) {
            char *opts[] = {(char *)"--acf", (char *)kind_acf[k], (char *)"--acf-set", reg,
                            (char *)"--hps-mode", (char *)(dise ? "dise" : "hps")};
            hps_pathf(paths[dise], sizeof paths[dise], "%s/rec/%s.%s.%s.lpprof", o->out_dir,
                     r->name, kind_name[k], dise ? "dise" : "hps");
            hps_pathf(log, sizeof log, "%s/rec/%s.%s.%s.log", o->out_dir, r->name, kind_name[k],
                     dise ? "dise" : "hps");
            fprintf(stderr, "lowprof eval hps: %s: %s, %s\n", r->name, kind_name[k],
                    dise ? "DISE" : "HPS");
            if (lp__eval_wl_run(co, r->name, opts, 6, paths[dise], log, &r->t_mode[k][dise]) !=
                    0 ||
                lp_host_load_profile(paths[dise], &sets[dise]) != 0)
                return 1;
        }
        r->insns = meta_u64(&sets[0], "instructions");
        r->sampled[k] = meta_u64(&sets[0], "hps-replacements");
        r->events[k] = meta_u64(&sets[1], "hps-replacements");
        r->same_profile[k] = tables_equal(&sets[0], &sets[1], kind_type[k]);
        lp_profile_set_fini(&sets[0]);
        lp_profile_set_fini(&sets[1]);
        if (cost_per_call(o, "hps", k, paths[0], &r->c_hps[k]) != 0 ||
            cost_per_call(o, "dise", k, paths[0], &r->c_dise[k]) != 0 ||
            cost_per_call(o, "countdown", k, paths[0], &r->c_hand[k]) != 0)
            return 1;
    }
    return 0;
}

/* ---- the trigger check ---- */

static int trigger_check(const hps_opts *o, lp__eval_suite *co, const char *name, FILE *md)
{
    static const unsigned nc = 1000, ni = 10;
    char r2[32], r3[32], r4[32], ar[32];
    snprintf(r2, sizeof r2, "HPS_R2=%u", 65536 - nc);
    snprintf(r3, sizeof r3, "HPS_R3=%u", 65536 - ni);
    snprintf(r4, sizeof r4, "HPS_R4=%u", 65536 - nc + 1);
    snprintf(ar, sizeof ar, "%u,%u", nc, ni);
    char *hw[] = {(char *)"--acf", (char *)"bursty-call-pair", (char *)"--acf-set", r2,
                  (char *)"--acf-set", r3, (char *)"--acf-set", r4};
    char *sw[] = {(char *)"--hps-ar", ar};
    char p_hw[PATH_MAX], p_sw[PATH_MAX], log[PATH_MAX];
    double t_hw = 0, t_sw = 0, c_check = 0;
    hps_pathf(p_hw, sizeof p_hw, "%s/rec/%s.bursty-hps.lpprof", o->out_dir, name);
    hps_pathf(p_sw, sizeof p_sw, "%s/rec/%s.bursty-software.lpprof", o->out_dir, name);
    fprintf(stderr, "lowprof eval hps: %s: the counter trigger and the software framework\n",
            name);
    hps_pathf(log, sizeof log, "%s/rec/%s.bursty-hps.log", o->out_dir, name);
    if (lp__eval_wl_run(co, name, hw, 8, p_hw, log, &t_hw) != 0)
        return 1;
    hps_pathf(log, sizeof log, "%s/rec/%s.bursty-software.log", o->out_dir, name);
    if (lp__eval_wl_run(co, name, sw, 2, p_sw, log, &t_sw) != 0 ||
        cost_per_call(o, "ar", KIND_CP, p_sw, &c_check) != 0)
        return 1;
    lp_profile_set a, b;
    if (lp_host_load_profile(p_hw, &a) != 0 || lp_host_load_profile(p_sw, &b) != 0)
        return 1;
    int same = tables_equal(&a, &b, LP_PROF_CALL_PAIR);
    uint64_t checks = meta_u64(&b, "ar-checks"), insns = meta_u64(&b, "instructions");
    const lp_profile *p = lp_profile_set_find(&a, LP_PROF_CALL_PAIR, LP_PHASE_NONE);
    fprintf(md,
            "## The counter trigger against the software sampling framework\n\n"
            "Workload %s; checks are calls and direct backward branches, %u checks between "
            "bursts, %u checks per burst; calls profiled while sampling.\n\n"
            "| | value |\n|---|---:|\n"
            "| call-pair profiles identical (every key and count) | %s |\n"
            "| sampled call pairs (distinct) | %zu |\n"
            "| bursts | %llu |\n| checks | %llu |\n"
            "| instructions per software check (callgrind) | %.1f |\n"
            "| software checking cost, share of the program's instructions | %.2f %% |\n"
            "| HPS counters' cost to the program | 0 instructions |\n"
            "| front-end time: counters / software framework | %.2f s / %.2f s |\n\n",
            name, nc, ni, same ? "yes" : "**no**", p ? p->table.count : (size_t)0,
            (unsigned long long)meta_u64(&b, "ar-bursts"), (unsigned long long)checks, c_check,
            insns ? 100.0 * (double)checks * c_check / (double)insns : 0.0, t_hw, t_sw);
    lp_profile_set_fini(&a);
    lp_profile_set_fini(&b);
    return same ? 0 : lp_host_fail("the counter trigger and the software framework disagree");
}

/* ---- output ---- */

static double pct(double x, uint64_t insns)
{
    return insns ? 100.0 * x / (double)insns : 0.0;
}

static void write_tables(const hps_opts *o, const hps_row *rows, size_t n, FILE *md)
{
    char path[PATH_MAX];
    hps_pathf(path, sizeof path, "%s/fig9.csv", o->out_dir);
    FILE *csv = fopen(path, "w");
    if (csv)
        fprintf(csv, "workload,profile,instructions,events,sampled,insns_per_hps_replacement,"
                     "insns_per_dise_step,insns_per_dise_countdown,dise_pct,dise_countdown_pct,"
                     "hps_pct,replacement_pct_dise,handler_pct,check_pct_dise,"
                     "check_pct_dise_countdown,replacement_pct_hps,seconds_signatures_only,"
                     "seconds_dise,seconds_hps,same_profile\n");
    fprintf(md, "## Fig. 9: sampling one event in %u\n\n", o->period);
    for (int k = 0; k < KINDS; k++) {
        fprintf(md,
                "### Hot %s\n\n"
                "| workload | instructions | events | sampled | DISE, generic step | DISE, "
                "hand-written check | HPS | replacements DISE / HPS | handlers | checks: step "
                "/ hand-written | insns per replacement: HPS / step / hand-written | front "
                "end: DISE, HPS time | same profile |\n"
                "|---|---:|---:|---:|---:|---:|---:|---|---:|---|---|---|---|\n",
                k == KIND_CR ? "code region (branches)" : "call pair (calls)");
        double sum_d = 0, sum_c = 0, sum_h = 0;
        for (size_t i = 0; i < n; i++) {
            const hps_row *r = &rows[i];
            double rep_d = (double)r->events[k], rep_h = (double)r->sampled[k];
            double handler = rep_h * r->c_hps[k];
            double check = rep_d * r->c_dise[k] - handler;
            double check_hand = rep_d * r->c_hand[k] - handler;
            double dise = rep_d + rep_d * r->c_dise[k], hand = rep_d + rep_d * r->c_hand[k];
            double hps = rep_h + handler;
            sum_d += pct(dise, r->insns);
            sum_c += pct(hand, r->insns);
            sum_h += pct(hps, r->insns);
            double sd = r->t_none > 0 ? r->t_mode[k][1] / r->t_none : 0;
            double sh = r->t_none > 0 ? r->t_mode[k][0] / r->t_none : 0;
            fprintf(md,
                    "| %s | %llu | %llu | %llu | %.1f %% | %.1f %% | %.2f %% | %.1f / %.3f %% | "
                    "%.2f %% | %.1f / %.1f %% | %.1f / %.1f / %.1f | %.2fx, %.2fx | %s |\n",
                    r->name, (unsigned long long)r->insns, (unsigned long long)r->events[k],
                    (unsigned long long)r->sampled[k], pct(dise, r->insns), pct(hand, r->insns),
                    pct(hps, r->insns), pct(rep_d, r->insns), pct(rep_h, r->insns),
                    pct(handler, r->insns), pct(check, r->insns), pct(check_hand, r->insns),
                    r->c_hps[k], r->c_dise[k], r->c_hand[k], sd, sh,
                    r->same_profile[k] ? "yes" : "**no**");
            if (csv)
                fprintf(csv,
                        "%s,%s,%llu,%llu,%llu,%.2f,%.2f,%.2f,%.3f,%.3f,%.4f,%.3f,%.4f,%.3f,%.3f,"
                        "%.4f,%.2f,%.2f,%.2f,%d\n",
                        r->name, kind_name[k], (unsigned long long)r->insns,
                        (unsigned long long)r->events[k], (unsigned long long)r->sampled[k],
                        r->c_hps[k], r->c_dise[k], r->c_hand[k], pct(dise, r->insns),
                        pct(hand, r->insns), pct(hps, r->insns), pct(rep_d, r->insns),
                        pct(handler, r->insns), pct(check, r->insns), pct(check_hand, r->insns),
                        pct(rep_h, r->insns), r->t_none, r->t_mode[k][1], r->t_mode[k][0],
                        r->same_profile[k]);
        }
        double m = n ? (double)n : 1;
        fprintf(md,
                "\nMean overhead: DISE %.1f %% with the front end's generic step, %.1f %% with "
                "a hand-written check; HPS %.2f %% (paper: %s). The front-end times are the "
                "recordings' wall time over a signatures-only recording of the same run.\n\n",
                sum_d / m, sum_c / m, sum_h / m,
                k == KIND_CR ? "DISE 120 %, HPS 24 %" : "DISE 18 %, HPS 1.3 %");
    }
    if (csv)
        fclose(csv);
}

int lp_eval_hps(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--cost-driver") == 0)
        return eh_driver(argc - 1, argv + 1);
    hps_opts o = {"results/eval-hps", "bzip2-9,gzip-9,cc1", "small", NULL, 100};
    for (int i = 1; i < argc; i += 2) { /* every option takes a value */
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(eval_hps_help, stdout);
            return 0;
        }
        if (!v)
            return lp_host_usage("eval hps", "unknown option or missing value: '%s'", a);
        if (strcmp(a, "--out") == 0)
            o.out_dir = v;
        else if (strcmp(a, "--workloads") == 0)
            o.workloads = v;
        else if (strcmp(a, "--size") == 0)
            o.size = v;
        else if (strcmp(a, "--data") == 0)
            o.data = v;
        else if (strcmp(a, "--period") == 0) {
            char *end;
            unsigned long p = strtoul(v, &end, 10);
            if (*end || p < 2 || p > 65535)
                return lp_host_usage("eval hps", "--period is 2 to 65535, not '%s'", v);
            o.period = (unsigned)p;
        } else
            return lp_host_usage("eval hps", "unknown option '%s'", a);
    }
    if (strcmp(o.size, "small") != 0 && strcmp(o.size, "full") != 0)
        return lp_host_usage("eval hps", "--size is small or full");
    if (!lp__eval_have_program("valgrind"))
        return lp_host_fail("eval hps needs valgrind (callgrind counts the handlers)");
    char out_abs[PATH_MAX], rec[PATH_MAX + 8];
    mkdir(o.out_dir, 0777);
    if (!realpath(o.out_dir, out_abs))
        return lp_host_fail("%s: %s", o.out_dir, strerror(errno));
    o.out_dir = out_abs;
    hps_pathf(rec, sizeof rec, "%s/rec", out_abs);
    mkdir(rec, 0777);
    lp__eval_suite co = {0};
    co.out_dir = out_abs;
    co.size = o.size;
    co.data_dir = o.data;
    co.workloads = o.workloads;
    lp__eval_workload *wl = NULL;
    size_t nwl = 0;
    if (lp__eval_wl_select(&co, &wl, &nwl) != 0)
        return 1;
    hps_row *rows = calloc(nwl, sizeof *rows);
    int rc = rows ? 0 : lp_host_fail("out of memory");
    for (size_t i = 0; i < nwl && rc == 0; i++) {
        snprintf(rows[i].name, sizeof rows[i].name, "%s", wl[i].name);
        rc = measure(&o, &co, &rows[i]);
    }
    char path[PATH_MAX];
    hps_pathf(path, sizeof path, "%s/summary.md", out_abs);
    FILE *md = rc == 0 ? fopen(path, "w") : NULL;
    if (rc == 0 && !md)
        rc = lp_host_fail("%s: %s", path, strerror(errno));
    if (rc == 0) {
        fprintf(md, "# lowprof eval hps\n\nOverheads are instructions added by sampling, as a "
                    "share of the program's own instructions: one cycle per replacement plus "
                    "the instructions each replacement executes, counted by callgrind on the "
                    "front end's replacement code run natively (doc/eval-hps.md).\n\n");
        write_tables(&o, rows, nwl, md);
        rc = trigger_check(&o, &co, rows[0].name, md);
        fclose(md);
        FILE *f = fopen(path, "r");
        char buf[4096];
        size_t n;
        while (f && (n = fread(buf, 1, sizeof buf, f)) > 0)
            fwrite(buf, 1, n, stdout);
        if (f)
            fclose(f);
    }
    free(rows);
    free(wl);
    return rc;
}
