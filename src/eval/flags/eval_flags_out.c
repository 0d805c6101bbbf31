/* lowprof eval flag-prediction: the tables. flags.csv (one row per program,
 * scope and duty), programs.csv (what each run and its blocks were),
 * sizes.csv (the table-shape sweep) and flags.md, which holds the same
 * numbers for people with the means over the programs. */
#include <stdio.h>
#include <string.h>

#include "eval_internal.h"
#include "eval_flags.h"

const unsigned lp__ef_sweep_sets[LP__EF_SWEEP_SETS] = {16, 64, 256, 1024};
const unsigned lp__ef_sweep_ways[LP__EF_SWEEP_WAYS] = {1, 2, 4};
const unsigned lp__ef_sweep_scope[LP__EF_SWEEP_SCOPES] = {LP__EF_ALL, LP__EF_HOT_ONLY};

unsigned lp__ef_nscopes(const lp__ef_opts *o)
{
    return o->hot ? LP__EF_NSCOPES : 1;
}

const char *lp__ef_scope_name(const lp__ef_opts *o, unsigned scope, char *buf, size_t cap)
{
    if (scope == LP__EF_ALL)
        snprintf(buf, cap, "all");
    else
        snprintf(buf, cap, "hot%u%s", o->hot, scope == LP__EF_HOT_ONLY ? "-only" : "");
    return buf;
}

uint64_t lp__ef_scope_insns(const lp__ef_result *r, unsigned scope)
{
    if (scope != LP__EF_HOT_ONLY)
        return r->program_insns;
    return r->program_insns - (r->profile_insns - r->hot_profile_insns);
}

static double pct(uint64_t a, uint64_t b)
{
    return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* A share as a table cell: none when the whole is 0 (nothing to share). */
static const char *pct_text(uint64_t a, uint64_t b, int digits, const char *none, char *buf,
                            size_t cap)
{
    if (!b)
        return none;
    snprintf(buf, cap, "%.*f", digits, pct(a, b));
    return buf;
}

/* The accuracy as a cell: none when no prediction was made (every instance
 * saw the flag on, so no entry was ever created). */
static const char *accuracy_text(const lp_pfpred_stats *t, int digits, const char *none, char *buf,
                                 size_t cap)
{
    return pct_text(t->correct, t->predictions, digits, none, buf, cap);
}

/* ---- CSV ----------------------------------------------------------------------------- */

static void csv_flags(FILE *f, const lp__ef_opts *o, const lp__ef_result *rs, size_t n)
{
    fprintf(f, "program,scope,duty_pct,period,program_insns,blocks,blocks_off,profile_insns,"
               "predictions,correct,accuracy_pct,skips,mispredicted_skips,short_blocks,"
               "insns_saved,saved_pct_profile,saved_pct_program,possible_saved,"
               "saved_pct_possible,creations,evictions\n");
    for (size_t i = 0; i < n; i++)
        for (unsigned s = 0; rs[i].ok && s < lp__ef_nscopes(o); s++)
            for (size_t d = 0; d < o->nduties; d++) {
                const lp_pfpred_stats *t = &rs[i].stats[s][d];
                uint64_t insns = lp__ef_scope_insns(&rs[i], s), possible = rs[i].possible[s][d];
                char sc[32], acc[32], sp[32], sa[32], spp[32];
                fprintf(f,
                        "%s,%s,%u,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%s,%llu,%llu,%llu,%llu,"
                        "%s,%s,%llu,%s,%llu,%llu\n",
                        rs[i].name, lp__ef_scope_name(o, s, sc, sizeof sc), o->duties[d],
                        (unsigned long long)o->period, (unsigned long long)insns,
                        (unsigned long long)t->blocks, (unsigned long long)t->blocks_off,
                        (unsigned long long)t->insns, (unsigned long long)t->predictions,
                        (unsigned long long)t->correct, accuracy_text(t, 3, "", acc, sizeof acc),
                        (unsigned long long)t->skips, (unsigned long long)t->mispredicted_skips,
                        (unsigned long long)t->short_blocks, (unsigned long long)t->insns_saved,
                        pct_text(t->insns_saved, t->insns, 3, "", sp, sizeof sp),
                        pct_text(t->insns_saved, insns, 3, "", sa, sizeof sa),
                        (unsigned long long)possible,
                        pct_text(t->insns_saved, possible, 3, "", spp, sizeof spp),
                        (unsigned long long)t->creations, (unsigned long long)t->evictions);
            }
}

static void csv_programs(FILE *f, const lp__ef_opts *o, const lp__ef_result *rs, size_t n)
{
    (void)o;
    fprintf(f, "program,instructions,events,truncated,sites,blocks,profile_insns,profile_pct,"
               "mean_length,min_length,max_length,hot_methods,hot_blocks_pct,unmatched,"
               "icount_mismatch,profile_disagree\n");
    for (size_t i = 0; i < n; i++) {
        const lp__ef_result *r = &rs[i];
        if (!r->ok)
            continue;
        fprintf(f, "%s,%llu,%llu,%s,%llu,%llu,%llu,%.3f,%.3f,%u,%u,%u,%.3f,%llu,%llu,%llu\n",
                r->name, (unsigned long long)r->program_insns, (unsigned long long)r->events,
                r->truncated ? "yes" : "no", (unsigned long long)r->sites,
                (unsigned long long)r->instances, (unsigned long long)r->profile_insns,
                pct(r->profile_insns, r->program_insns),
                r->instances ? (double)r->profile_insns / (double)r->instances : 0.0, r->len_min,
                r->len_max, r->nhot, pct(r->hot_instances, r->instances),
                (unsigned long long)r->unmatched, (unsigned long long)r->icount_mismatch,
                (unsigned long long)r->profile_disagree);
    }
}

static void csv_sizes(FILE *f, const lp__ef_opts *o, const lp__ef_result *rs, size_t n)
{
    fprintf(f, "program,scope,sets,ways,entries,duty_pct,blocks,accuracy_pct,skips,"
               "mispredicted_skips,insns_saved,saved_pct_profile,evictions\n");
    unsigned nsweep = o->hot ? LP__EF_SWEEP_SCOPES : 1;
    for (size_t i = 0; i < n; i++)
        for (unsigned s = 0; rs[i].ok && s < nsweep; s++)
            for (size_t k = 0; k < LP__EF_NSHAPES; k++) {
                const lp_pfpred_stats *t = &rs[i].shapes[s][k];
                unsigned sets = lp__ef_sweep_sets[k / LP__EF_SWEEP_WAYS],
                         ways = lp__ef_sweep_ways[k % LP__EF_SWEEP_WAYS];
                char sc[32], acc[32], sp[32];
                fprintf(f, "%s,%s,%u,%u,%u,%u,%llu,%s,%llu,%llu,%llu,%s,%llu\n", rs[i].name,
                        lp__ef_scope_name(o, lp__ef_sweep_scope[s], sc, sizeof sc), sets, ways,
                        sets * ways, LP__EF_SWEEP_DUTY, (unsigned long long)t->blocks,
                        accuracy_text(t, 3, "", acc, sizeof acc), (unsigned long long)t->skips,
                        (unsigned long long)t->mispredicted_skips,
                        (unsigned long long)t->insns_saved,
                        pct_text(t->insns_saved, t->insns, 3, "", sp, sizeof sp),
                        (unsigned long long)t->evictions);
            }
}

/* ---- Markdown ---------------------------------------------------------------------- */

void lp__ef_md_scope(FILE *f, const lp__ef_opts *o, const lp__ef_result *rs, size_t n, unsigned s)
{
    fprintf(f, "| program | on %% | blocks | flag off %% | accuracy %% | skips | "
               "mispredicted | saved %% of profile insns | saved %% of all insns | "
               "saved %% of possible |\n"
               "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    /* Means over the programs; accuracy over those that made predictions. */
    double sum_acc[LP__EF_MAX_DUTIES] = {0}, sum_sp[LP__EF_MAX_DUTIES] = {0},
           sum_sa[LP__EF_MAX_DUTIES] = {0}, sum_off[LP__EF_MAX_DUTIES] = {0};
    size_t nok = 0, nacc[LP__EF_MAX_DUTIES] = {0};
    char acc[32], sp[32], sa[32], spp[32];
    for (size_t i = 0; i < n; i++) {
        if (!rs[i].ok)
            continue;
        nok++;
        uint64_t insns = lp__ef_scope_insns(&rs[i], s);
        for (size_t d = 0; d < o->nduties; d++) {
            const lp_pfpred_stats *t = &rs[i].stats[s][d];
            if (t->predictions) {
                sum_acc[d] += lp_pfpred_accuracy(t);
                nacc[d]++;
            }
            sum_off[d] += pct(t->blocks_off, t->blocks);
            sum_sp[d] += pct(t->insns_saved, t->insns);
            sum_sa[d] += pct(t->insns_saved, insns);
            fprintf(f, "| %s | %u | %llu | %.2f | %s | %llu | %llu | %s | %s | %s |\n", rs[i].name,
                    o->duties[d], (unsigned long long)t->blocks, pct(t->blocks_off, t->blocks),
                    accuracy_text(t, 2, "n/a", acc, sizeof acc), (unsigned long long)t->skips,
                    (unsigned long long)t->mispredicted_skips,
                    pct_text(t->insns_saved, t->insns, 2, "n/a", sp, sizeof sp),
                    pct_text(t->insns_saved, insns, 2, "n/a", sa, sizeof sa),
                    pct_text(t->insns_saved, rs[i].possible[s][d], 2, "n/a", spp, sizeof spp));
        }
    }
    for (size_t d = 0; nok > 1 && d < o->nduties; d++) {
        snprintf(acc, sizeof acc, "%.2f", nacc[d] ? sum_acc[d] / (double)nacc[d] : 0.0);
        fprintf(f, "| **mean** | %u | | %.2f | %s | | | %.2f | %.2f | |\n", o->duties[d],
                sum_off[d] / (double)nok, nacc[d] ? acc : "n/a", sum_sp[d] / (double)nok,
                sum_sa[d] / (double)nok);
    }
}

static const char *const scope_title[LP__EF_NSCOPES] = {
    "Every guard a profile block, the window turns every flag on",
    "Every guard a profile block, the window turns the flag on only in the hot methods",
    "Only the hot methods instrumented (the paper's runtime), the window turns them on",
};

static void md_all(FILE *f, const lp__ef_opts *o, const lp__ef_result *rs, size_t n)
{
    char sc[32];
    fprintf(f,
            "# Profile flag prediction on trace-pc-guard blocks\n\n"
            "Written by `lowprof eval flag-prediction`%s; definitions and the comparison "
            "with the paper in doc/flags.md.\n\n"
            "Settings: window period %llu instructions; block descriptor table %u sets x "
            "%u ways; skip blocks of %u or more instructions; hot methods: %u; programs: "
            "%s.\n\n",
            o->full ? " --full" : "", (unsigned long long)o->period, o->pred.sets, o->pred.ways,
            o->pred.min_skip, o->hot, o->programs ? "from --program" : o->size);
    fprintf(f, "## Programs\n\n| program | instructions | guard sites | blocks | profile "
               "insns %% | mean block length | hot methods' blocks %% | trace |\n"
               "|---|---:|---:|---:|---:|---:|---:|---|\n");
    for (size_t i = 0; i < n; i++) {
        const lp__ef_result *r = &rs[i];
        if (!r->ok) {
            fprintf(f, "| %s | failed | | | | | | |\n", r->name);
            continue;
        }
        fprintf(f, "| %s | %llu | %llu | %llu | %.2f | %.2f | %.2f | %s |\n", r->name,
                (unsigned long long)r->program_insns, (unsigned long long)r->sites,
                (unsigned long long)r->instances, pct(r->profile_insns, r->program_insns),
                r->instances ? (double)r->profile_insns / (double)r->instances : 0.0,
                pct(r->hot_instances, r->instances), r->truncated ? "cut at the limit" : "whole");
    }
    for (unsigned s = 0; s < lp__ef_nscopes(o); s++) {
        fprintf(f, "\n## %s (%s)\n\n", scope_title[s], lp__ef_scope_name(o, s, sc, sizeof sc));
        lp__ef_md_scope(f, o, rs, n, s);
    }
    unsigned nsweep = o->hot ? LP__EF_SWEEP_SCOPES : 1;
    for (unsigned s = 0; s < nsweep; s++) {
        fprintf(f,
                "\n## Table shape (%s, %u %% on)\n\n| program | sets x ways | accuracy %% | "
                "skips | mispredicted | saved %% of profile insns | evictions |\n"
                "|---|---|---:|---:|---:|---:|---:|\n",
                lp__ef_scope_name(o, lp__ef_sweep_scope[s], sc, sizeof sc), LP__EF_SWEEP_DUTY);
        for (size_t i = 0; i < n; i++)
            for (size_t k = 0; rs[i].ok && k < LP__EF_NSHAPES; k++) {
                const lp_pfpred_stats *t = &rs[i].shapes[s][k];
                char acc[32], sp[32];
                fprintf(f, "| %s | %u x %u | %s | %llu | %llu | %s | %llu |\n", rs[i].name,
                        lp__ef_sweep_sets[k / LP__EF_SWEEP_WAYS],
                        lp__ef_sweep_ways[k % LP__EF_SWEEP_WAYS],
                        accuracy_text(t, 2, "n/a", acc, sizeof acc), (unsigned long long)t->skips,
                        (unsigned long long)t->mispredicted_skips,
                        pct_text(t->insns_saved, t->insns, 2, "n/a", sp, sizeof sp),
                        (unsigned long long)t->evictions);
            }
    }
    if (o->hot) {
        fprintf(f, "\n## Hot methods (most self instructions among the instrumented)\n\n");
        for (size_t i = 0; i < n; i++)
            if (rs[i].ok)
                fprintf(f, "- %s: %s\n", rs[i].name, rs[i].hot_names);
    }
    fprintf(f, "\n## Checks\n\n| program | unmatched guard calls | icount delta differs | "
               "sites whose count differs from the profile |\n|---|---:|---:|---:|\n");
    for (size_t i = 0; i < n; i++)
        if (rs[i].ok)
            fprintf(f, "| %s | %llu | %llu | %llu |\n", rs[i].name,
                    (unsigned long long)rs[i].unmatched, (unsigned long long)rs[i].icount_mismatch,
                    (unsigned long long)rs[i].profile_disagree);
}

/* ---- files ---------------------------------------------------------------------------- */

typedef void (*ef_writer)(FILE *f, const lp__ef_opts *o, const lp__ef_result *rs, size_t n);

int lp__ef_write(const lp__ef_opts *o, const lp__ef_result *rs, size_t n)
{
    static const struct {
        const char *name;
        ef_writer write;
    } files[] = {{"flags.csv", csv_flags},
                 {"programs.csv", csv_programs},
                 {"sizes.csv", csv_sizes},
                 {"flags.md", md_all}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4096];
        FILE *f = lp__eval_open(o->out, files[i].name, path, sizeof path);
        if (!f)
            return -1;
        files[i].write(f, o, rs, n);
        if (lp__eval_close(f, path) != 0)
            return -1;
    }
    return 0;
}
