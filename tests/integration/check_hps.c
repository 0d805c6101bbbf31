/* The HPS engine in the front end, on hps_prog.c (calls known exactly):
 *   - the client-request triggers switch the call-pair ACF at exactly the
 *     marked places, starting off or on, in HPS and in DISE mode (same
 *     profile; DISE replaces every call, HPS only the sampled ones);
 *   - the periodic ACF samples exactly one call in N for several N;
 *   - an ACF matching every control transfer with Branch_handler rebuilds
 *     the exhaustive code-region profile entry for entry;
 *   - the hot-method ACF counts outer's and leaf's invocations exactly;
 *   - the bursty counter ACF gives the software framework's profile;
 *   - the phase daemon's toggles drive the same counters.
 * usage: check_hps LOWPROF PROG WORKDIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../unit/lp_test.h"
#include "lp_itest.h"

static const char *lowprof, *prog, *dir;
static lp_symbolizer *syms;

/* Records prog [arg] with the options opts (NULL-terminated). */
static void record(const char *name, const char *const *opts, const char *arg,
                   lp_profile_set *out)
{
    char path[4096], log[4096];
    snprintf(path, sizeof path, "%s/%s.lpprof", dir, name);
    snprintf(log, sizeof log, "%s/%s.log", dir, name);
    if (lp_itest_record(lowprof, opts, prog, arg, path, log) != 0) {
        fprintf(stderr, "recording %s failed; see %s\n", name, log);
        exit(1);
    }
    lp_itest_load(path, out);
}

static uint64_t meta_u64(const lp_profile_set *s, const char *key)
{
    const char *v = lp_meta_get(&s->meta, key);
    return v ? strtoull(v, NULL, 10) : UINT64_MAX;
}

static const lp_table *table(const lp_profile_set *s, unsigned type)
{
    static const lp_table empty = {0};
    const lp_profile *p = lp_profile_set_find(s, type, LP_PHASE_NONE);
    return p ? &p->table : &empty;
}

/* Calls of an exhaustive call-pair profile, less its tail calls (v1): the
 * ACFs' proc_call matches call instructions, and a tail call is a jump. */
static uint64_t calls_only(const lp_table *t)
{
    uint64_t sum = 0;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(t, &cur)))
        sum += e->v[0] - e->v[1];
    return sum;
}

static uint64_t total(const lp_table *t)
{
    uint64_t sum = 0;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(t, &cur)))
        sum += e->v[0];
    return sum;
}

/* Calls into the function named fn (call pairs: key b is the callee). */
static uint64_t calls_to(const lp_table *t, const char *fn, uint64_t *other)
{
    uint64_t n = 0;
    size_t cur = 0;
    const lp_entry *e;
    *other = 0;
    while ((e = lp_table_next(t, &cur))) {
        if (strcmp(lp_itest_fn(syms, e->key.b), fn) == 0)
            n += e->v[0];
        else if (strcmp(lp_itest_fn(syms, e->key.b), "leaf") != 0 &&
                 strcmp(lp_itest_fn(syms, e->key.b), "outer") != 0)
            *other += e->v[0];
    }
    return n;
}

static int tables_equal(const lp_table *a, const lp_table *b, int both_words)
{
    if (a->count != b->count)
        return 0;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(a, &cur))) {
        const lp_entry *f = lp_table_find(b, e->key);
        if (!f || f->v[0] != e->v[0] || (both_words && f->v[1] != e->v[1]))
            return 0;
    }
    return 1;
}

static uint64_t method_count(const lp_table *t, const char *fn, int word)
{
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(t, &cur)))
        if (strcmp(lp_itest_fn(syms, e->key.a), fn) == 0)
            return e->v[word];
    return 0;
}

static void check_triggers(const lp_profile_set *exh)
{
    uint64_t all_calls = calls_only(table(exh, LP_PROF_CALL_PAIR)), other;
    const char *off_hps[] = {"--acf", "hot-call-pair", "--acf-set", "HPS_R2=1", NULL};
    const char *off_dise[] = {"--acf", "hot-call-pair", "--acf-set", "HPS_R2=1",
                              "--hps-mode", "dise", NULL};
    const char *on_hps[] = {"--acf", "hot-call-pair", NULL};
    lp_profile_set h = {0}, d = {0}, on = {0};
    record("trig-hps", off_hps, NULL, &h);
    record("trig-dise", off_dise, NULL, &d);
    record("trig-on", on_hps, NULL, &on);
    const lp_table *th = table(&h, LP_PROF_CALL_PAIR);
    LP_CHECK_EQ_U64(calls_to(th, "leaf", &other), 1000);
    LP_CHECK_EQ_U64(calls_to(th, "outer", &other), 1);
    LP_CHECK_EQ_U64(other, 0);
    LP_CHECK_EQ_U64(meta_u64(&h, "hps-client-requests"), 2);
    LP_CHECK_EQ_U64(meta_u64(&h, "hps-replacements"), 1001);
    LP_CHECK_EQ_U64(meta_u64(&h, "hps-call-pair-handler-calls"), 1001);
    /* DISE: the same profile, but every call of the run replaced. */
    LP_CHECK(tables_equal(th, table(&d, LP_PROF_CALL_PAIR), 1));
    LP_CHECK_EQ_U64(meta_u64(&d, "hps-replacements"), all_calls);
    LP_CHECK_EQ_U64(meta_u64(&d, "hps-call-pair-handler-calls"), 1001);
    /* Starting on: everything until OFF. */
    const lp_table *ton = table(&on, LP_PROF_CALL_PAIR);
    LP_CHECK_EQ_U64(calls_to(ton, "leaf", &other), 1100);
    LP_CHECK_EQ_U64(calls_to(ton, "outer", &other), 2);
    lp_profile_set_fini(&h);
    lp_profile_set_fini(&d);
    lp_profile_set_fini(&on);
}

static void check_periodic(const lp_profile_set *exh_plain)
{
    uint64_t all_calls = calls_only(table(exh_plain, LP_PROF_CALL_PAIR));
    static const unsigned periods[] = {2, 7, 100};
    for (size_t i = 0; i < sizeof periods / sizeof periods[0]; i++) {
        char set[64], name[64];
        snprintf(set, sizeof set, "HPS_R2=%u", 65536 - (periods[i] - 1));
        snprintf(name, sizeof name, "periodic-%u", periods[i]);
        const char *opts[] = {"--acf", "periodic-call-pair", "--acf-set", set, NULL};
        lp_profile_set p = {0};
        record(name, opts, "plain", &p);
        LP_CHECK_EQ_U64(total(table(&p, LP_PROF_CALL_PAIR)), all_calls / periods[i]);
        LP_CHECK_EQ_U64(meta_u64(&p, "hps-replacements"), all_calls / periods[i]);
        lp_profile_set_fini(&p);
    }
}

static void check_code_region(const lp_profile_set *exh_plain)
{
    char acf[4096];
    snprintf(acf, sizeof acf, "%s/every-transfer.acf", dir);
    FILE *f = fopen(acf, "w");
    if (!f) {
        perror(acf);
        exit(1);
    }
    fputs("P1: T.OPCLASS == branch || T.OPCLASS == call || T.OPCLASS == ret -> R1, null\n"
          "R1: call(Branch_handler, T.INSN); T.INSN\n",
          f);
    fclose(f);
    const char *opts[] = {"--acf", acf, NULL};
    lp_profile_set p = {0};
    record("every-transfer", opts, "plain", &p);
    LP_CHECK(tables_equal(table(exh_plain, LP_PROF_CODE_REGION), table(&p, LP_PROF_CODE_REGION), 1));
    LP_CHECK(table(&p, LP_PROF_CODE_REGION)->count > 100);
    lp_profile_set_fini(&p);
}

static void check_method(const lp_profile_set *exh_plain)
{
    const char *opts[] = {"--acf", "hot-method", NULL};
    lp_profile_set p = {0};
    record("hot-method", opts, "plain", &p);
    const lp_table *t = table(&p, LP_PROF_METHOD), *x = table(exh_plain, LP_PROF_METHOD);
    LP_CHECK_EQ_U64(method_count(t, "outer", 0), 3);
    LP_CHECK_EQ_U64(method_count(t, "leaf", 0), 1200);
    LP_CHECK_EQ_U64(method_count(t, "outer", 1), method_count(x, "outer", 1));
    LP_CHECK(method_count(t, "outer", 1) >= 1197);
    lp_profile_set_fini(&p);
}

static void check_bursty(void)
{
    const char *ar[] = {"--hps-ar", "10,3", NULL};
    const char *acf[] = {"--acf", "bursty-call-pair", "--acf-set", "HPS_R2=65526",
                         "--acf-set", "HPS_R3=65533", "--acf-set", "HPS_R4=65527", NULL};
    const char *dise[] = {"--acf", "bursty-call-pair", "--acf-set", "HPS_R2=65526",
                          "--acf-set", "HPS_R3=65533", "--acf-set", "HPS_R4=65527",
                          "--hps-mode", "dise", NULL};
    lp_profile_set s = {0}, h = {0}, d = {0};
    record("bursty-software", ar, "plain", &s);
    record("bursty-hps", acf, "plain", &h);
    record("bursty-dise", dise, "plain", &d);
    LP_CHECK(meta_u64(&s, "ar-bursts") > 10 && meta_u64(&s, "ar-bursts") != UINT64_MAX);
    LP_CHECK(total(table(&s, LP_PROF_CALL_PAIR)) > 0);
    LP_CHECK(tables_equal(table(&s, LP_PROF_CALL_PAIR), table(&h, LP_PROF_CALL_PAIR), 1));
    LP_CHECK(tables_equal(table(&s, LP_PROF_CALL_PAIR), table(&d, LP_PROF_CALL_PAIR), 1));
    lp_profile_set_fini(&s);
    lp_profile_set_fini(&h);
    lp_profile_set_fini(&d);
}

/* The daemon of --strategy toggles the same counters: a periodic:2 run at
 * short intervals samples some calls but not all. */
static void check_daemon(const lp_profile_set *exh_plain)
{
    const char *opts[] = {"--acf", "hot-call-pair", "--strategy", "periodic:2",
                          "--interval", "20000", NULL};
    lp_profile_set p = {0};
    record("daemon", opts, "plain", &p);
    uint64_t sampled = total(table(&p, LP_PROF_CALL_PAIR));
    uint64_t all = total(table(exh_plain, LP_PROF_CALL_PAIR));
    LP_CHECK(meta_u64(&p, "hps-triggers-on") >= 2 && meta_u64(&p, "hps-triggers-on") < 1000);
    LP_CHECK(meta_u64(&p, "hps-triggers-off") >= 2 && meta_u64(&p, "hps-triggers-off") < 1000);
    LP_CHECK(sampled > all / 5 && sampled < all);
    lp_profile_set_fini(&p);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: check_hps LOWPROF PROG WORKDIR\n");
        return 2;
    }
    lowprof = argv[1];
    prog = argv[2];
    dir = argv[3];
    mkdir(dir, 0777);
    const char *exh_opts[] = {"--profile", "code-region,method,call-pair", NULL};
    lp_profile_set exh = {0}, exh_plain = {0};
    record("exhaustive", exh_opts, NULL, &exh);
    record("exhaustive-plain", exh_opts, "plain", &exh_plain);
    if (lp_symbolizer_create(&exh.modules, &syms) != 0) {
        fprintf(stderr, "cannot symbolize %s\n", prog);
        return 1;
    }
    check_triggers(&exh);
    check_periodic(&exh_plain);
    check_code_region(&exh_plain);
    check_method(&exh_plain);
    check_bursty();
    check_daemon(&exh_plain);
    lp_profile_set_fini(&exh);
    lp_profile_set_fini(&exh_plain);
    lp_symbolizer_free(syms);
    return lp_test_done();
}
