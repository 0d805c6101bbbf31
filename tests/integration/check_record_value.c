/* `lowprof record --value-profiler coproc` through the Valgrind tool, on
 * value_prog (400000 iterations of a loop with a load that is always 42
 * and one that cycles through 3, 5, 7 and 11):
 *
 * 1. with the co-processor as the loads' only consumer the tool tests the
 *    filter inline and calls the model only for loads that pass: the
 *    estimate still finds the invariant load (42 at >= 0.9) and takes no
 *    value of the cycling one for invariant (< 0.4), and the statistics add
 *    up (every sample was tagged, fewer loads than ran; interrupts were
 *    taken, and the done table rejected the loop's loads once masked);
 * 2. the same run with the exact value profile also asked for takes the
 *    tool's general load helper, which offers every load to the model: its
 *    statistics agree with the inline run's within 1 % (the inline path
 *    lets time pass a block at a time, not an instruction at a time), and
 *    so do both loads' estimates;
 * 3. a bad option string exits 2 and names the field.
 *
 * usage: check_record_value LOWPROF VALUE_PROG WORKDIR */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../unit/lp_test.h"
#include "lowprof/value.h"
#include "lp_itest.h"

static const char *lowprof, *prog, *work;

/* Records prog with opts (NULL-terminated) into WORK/name.lpprof; returns
 * the exit status (exits 77 when the tool is missing). */
static int record(const char *name, const char *const *opts, lp_profile_set *out)
{
    char path[4200], log[4200];
    snprintf(path, sizeof path, "%s/%s.lpprof", work, name);
    snprintf(log, sizeof log, "%s/%s.log", work, name);
    int st = lp_itest_record(lowprof, opts, prog, NULL, path, log);
    if (st == 0 && out)
        lp_itest_load(path, out);
    return st;
}

static uint64_t meta_u64(const lp_profile_set *s, const char *key)
{
    const char *v = lp_meta_get(&s->meta, key);
    LP_CHECK(v != NULL);
    return v ? strtoull(v, NULL, 10) : 0;
}

/* A load of value_loop as estimated: its pc and the share of its top value
 * (the largest estimate; ties to the lower value). With want != 0, the
 * load whose top value is want; else the most sampled load other than
 * not_pc (value_loop's ret, a load of its return address, runs once). */
typedef struct {
    double share_top;
    uint64_t pc, top;
} load_est;

static load_est find_load(const lp_profile_set *s, lp_symbolizer *sym, uint64_t want,
                          uint64_t not_pc)
{
    load_est r = {-1, 0, 0};
    const lp_profile *p = lp_profile_set_find(s, LP_PROF_VALUE, LP_PHASE_NONE);
    LP_CHECK(p != NULL);
    if (!p)
        return r;
    uint64_t pcs[16] = {0}, tot[16] = {0}, best[16] = {0}, bestv[16] = {0};
    size_t n = 0, cursor = 0;
    const lp_entry *e;
    while ((e = lp_table_next(&p->table, &cursor)) != NULL) {
        if (strcmp(lp_itest_fn(sym, e->key.a), "value_loop") != 0)
            continue;
        size_t i = 0;
        while (i < n && pcs[i] != e->key.a)
            i++;
        if (i == n) {
            if (n == 16)
                continue;
            pcs[n++] = e->key.a;
        }
        tot[i] += e->v[0];
        if (e->key.b == LP_VALUE_OTHER) /* the share of values never active */
            continue;
        if (e->v[0] > best[i] || (e->v[0] == best[i] && e->key.b < bestv[i])) {
            best[i] = e->v[0];
            bestv[i] = e->key.b;
        }
    }
    uint64_t most = 0;
    for (size_t i = 0; i < n; i++)
        if (tot[i] > most && (want ? bestv[i] == want : pcs[i] != not_pc)) {
            most = tot[i];
            r.share_top = (double)best[i] / (double)tot[i];
            r.pc = pcs[i];
            r.top = bestv[i];
        }
    return r;
}

static int within(uint64_t a, uint64_t b, double rel)
{
    double d = fabs((double)a - (double)b), m = (double)(a > b ? a : b);
    return m == 0 || d <= rel * m;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: check_record_value LOWPROF VALUE_PROG WORKDIR\n");
        return 2;
    }
    lowprof = argv[1];
    prog = argv[2];
    work = argv[3];
    mkdir(work, 0755);

    /* 1. inline filter */
    lp_profile_set in = {0}, gen = {0};
    /* Regions of 200000 instructions: copies come often enough that the
     * loop's loads are masked as done, so the done table's inline test
     * runs too. */
    const char *opts = "coproc:region-max=200000";
    const char *o_in[] = {"--profile", "method", "--value-profiler", opts, NULL};
    LP_CHECK(record("inline", o_in, &in) == 0);
    lp_symbolizer *sym = NULL;
    LP_CHECK(lp_symbolizer_create(&in.modules, &sym) == 0);
    if (!sym)
        return 1;
    load_est c_in = find_load(&in, sym, 42, 0), f_in = find_load(&in, sym, 0, c_in.pc);
    fprintf(stderr, "inline: load of 42 at %.3f, cycling load's top (%llu) at %.3f\n",
            c_in.share_top, (unsigned long long)f_in.top, f_in.share_top);
    LP_CHECK(c_in.share_top >= 0.9);
    /* No value of the cycling load is taken for invariant (doc/value.md:
     * values below the re-selection threshold end in "other"). */
    LP_CHECK(f_in.pc != 0 && f_in.share_top >= 0 && f_in.share_top < 0.4);
    uint64_t tagged = meta_u64(&in, "coproc-tagged"), samples = meta_u64(&in, "coproc-samples");
    uint64_t dropped = meta_u64(&in, "coproc-dropped");
    LP_CHECK(tagged > 0 && tagged < 800000); /* 800000 loop loads; done ones are masked */
    LP_CHECK_EQ_U64(samples + dropped, tagged);
    LP_CHECK(meta_u64(&in, "coproc-interrupts") > 0);
    LP_CHECK(meta_u64(&in, "coproc-done-rejected") > 10000);

    /* 2. the general helper, every load offered to the model */
    const char *o_gen[] = {"--profile", "method,value", "--value-profiler", opts, NULL};
    LP_CHECK(record("general", o_gen, &gen) == 0);
    load_est c_gen = find_load(&gen, sym, 42, 0), f_gen = find_load(&gen, sym, 0, c_gen.pc);
    fprintf(stderr, "general: load of 42 at %.3f, cycling load's top (%llu) at %.3f\n",
            c_gen.share_top, (unsigned long long)f_gen.top, f_gen.share_top);
    LP_CHECK(c_gen.pc == c_in.pc && f_gen.pc == f_in.pc);
    LP_CHECK(fabs(c_gen.share_top - c_in.share_top) < 0.02);
    LP_CHECK(fabs(f_gen.share_top - f_in.share_top) < 0.02);
    static const char *const keys[] = {"coproc-tagged", "coproc-samples", "coproc-slots-copied",
                                       "coproc-done-rejected", "coproc-interrupts",
                                       "coproc-masked"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        uint64_t a = meta_u64(&in, keys[i]), b = meta_u64(&gen, keys[i]);
        fprintf(stderr, "%s: inline %llu, general %llu\n", keys[i], (unsigned long long)a,
                (unsigned long long)b);
        LP_CHECK(within(a, b, 0.01));
    }

    /* 3. a bad field */
    const char *o_bad[] = {"--value-profiler", "coproc:slots=64,pc-bits=99", NULL};
    LP_CHECK(record("bad", o_bad, NULL) == 2);
    char log[4200];
    snprintf(log, sizeof log, "%s/bad.log", work);
    LP_CHECK(lp_itest_file_has(log, "pc-bits"));

    lp_symbolizer_free(sym);
    lp_profile_set_fini(&in);
    lp_profile_set_fini(&gen);
    return lp_test_done();
}
