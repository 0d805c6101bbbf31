/* Exactness on a program written for the purpose (exact_prog.c): the
 * recorded call pairs, invocations, branch counts, instructions since the
 * previous branch, edges, blocks and load values must equal the numbers the
 * program was built to produce, across two threads.
 * usage: check_exact LOWPROF EXACT_PROG WORKDIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../unit/lp_test.h"
#include "lp_itest.h"

static lp_symbolizer *sym;
static lp_profile_set set;

static lp_profile *prof(unsigned type)
{
    lp_profile *p = lp_profile_set_find(&set, type, LP_PHASE_NONE);
    if (!p) {
        fprintf(stderr, "no %s profile recorded\n", lp_profile_type_name(type));
        exit(1);
    }
    return p;
}

static int is_fn(uint64_t pc, const char *name)
{
    return strcmp(lp_itest_fn(sym, pc), name) == 0;
}

/* The one entry of type whose key.a lies in function name and whose v0
 * equals execs (the loop branch among the function's branches). */
static const lp_entry *entry_in(unsigned type, const char *name, uint64_t execs)
{
    const lp_entry *found = NULL, *e;
    size_t cur = 0;
    while ((e = lp_table_next(&prof(type)->table, &cur)) != NULL)
        if (is_fn(e->key.a, name) && e->v[0] == execs)
            found = e;
    return found;
}

static uint64_t sum_calls(const char *caller, const char *callee)
{
    uint64_t n = 0;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(&prof(LP_PROF_CALL_PAIR)->table, &cur)) != NULL)
        if (is_fn(e->key.a, caller) && is_fn(e->key.b, callee))
            n += e->v[0];
    return n;
}

static const lp_entry *method(const char *name)
{
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(&prof(LP_PROF_METHOD)->table, &cur)) != NULL)
        if (is_fn(e->key.a, name) && lp_itest_fn(sym, e->key.a)[0])
            return e;
    return NULL;
}

static uint64_t edge(uint64_t from, uint64_t to)
{
    const lp_entry *e = lp_table_find(&prof(LP_PROF_EDGE)->table, (lp_key){from, to});
    return e ? e->v[0] : 0;
}

static void check_loop(const char *fn, uint64_t execs, uint64_t since, uint64_t calls)
{
    const lp_entry *br = entry_in(LP_PROF_CODE_REGION, fn, execs);
    LP_CHECK(br != NULL);
    if (!br)
        return;
    LP_CHECK_EQ_U64(br->v[1], since);
    /* The loop's jnz: taken back to the dec before it, else to the ret
     * right after it (jnz rel8 is 2 bytes, dec %ecx 2 bytes). */
    uint64_t back = br->key.a - 2, next = br->key.a + 2;
    LP_CHECK_EQ_U64(edge(br->key.a, back), execs - calls);
    LP_CHECK_EQ_U64(edge(br->key.a, next), calls);
    const lp_entry *blk = lp_table_find(&prof(LP_PROF_BLOCK)->table, (lp_key){back, 0});
    LP_CHECK(blk != NULL);
    if (blk) {
        LP_CHECK_EQ_U64(blk->v[0], execs - calls);
        LP_CHECK_EQ_U64(blk->v[1], 2 * (execs - calls));
    }
    const lp_entry *m = method(fn);
    LP_CHECK(m != NULL);
    if (m) {
        LP_CHECK_EQ_U64(m->v[0], calls);
        LP_CHECK_EQ_U64(m->v[1], execs - calls);
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: check_exact LOWPROF EXACT_PROG WORKDIR\n");
        return 2;
    }
    mkdir(argv[3], 0755);
    char out[4096], log[4096];
    snprintf(out, sizeof out, "%s/exact.lpprof", argv[3]);
    snprintf(log, sizeof log, "%s/exact.log", argv[3]);
    char *cmd[] = {argv[1], "record", "-q", "--profile", "all", "-o", out, "--", argv[2], NULL};
    int rc = lp_itest_run(cmd, log);
    LP_CHECK_EQ_U64(rc, 0);
    if (rc != 0) {
        fprintf(stderr, "lowprof record failed; see %s\n", log);
        return lp_test_done();
    }
    lp_itest_load(out, &set);
    if (lp_symbolizer_create(&set.modules, &sym) != LP_OK)
        return 1;
    LP_CHECK(strcmp(lp_meta_get(&set.meta, "complete"), "yes") == 0);
    LP_CHECK(strcmp(lp_meta_get(&set.meta, "exit-status"), "0") == 0);

    /* f: 1000 calls from two call sites in two callers. */
    LP_CHECK_EQ_U64(sum_calls("call_a", "f"), 600);
    LP_CHECK_EQ_U64(sum_calls("call_b", "f"), 400);
    const lp_entry *mf = method("f");
    LP_CHECK(mf && mf->v[0] == 1000);
    LP_CHECK(method("call_a") && method("call_a")->v[0] == 1);
    LP_CHECK_EQ_U64(sum_calls("main", "call_a"), 1);

    /* The assembly loops: one call of known_loop from main, one call of
     * thread_loop from each worker thread. */
    check_loop("known_loop", 777, 3 + 776 * 2, 1);
    check_loop("thread_loop", 1000, 2 * (3 + 499 * 2), 2);

    /* Tail calls by a jmp to the next instruction and by a conditional
     * jump: counted as calls (and as tail calls), the jnext jmp as a branch,
     * and jcond's taken edge equal to its tail calls. */
    LP_CHECK_EQ_U64(sum_calls("jnext", "jnext_target"), 1000);
    LP_CHECK_EQ_U64(sum_calls("jcond", "cond_target"), 500);
    LP_CHECK(method("jnext_target") && method("jnext_target")->v[0] == 1000);
    LP_CHECK(method("cond_target") && method("cond_target")->v[0] == 500);
    LP_CHECK(entry_in(LP_PROF_CODE_REGION, "jnext", 1000) != NULL);
    const lp_entry *jc = entry_in(LP_PROF_CODE_REGION, "jcond", 1000);
    LP_CHECK(jc != NULL);
    if (jc && method("cond_target")) {
        LP_CHECK_EQ_U64(edge(jc->key.a, method("cond_target")->key.a), 500);
        LP_CHECK_EQ_U64(edge(jc->key.a, jc->key.a + 2), 500);
    }

    /* Threads: g called 100 times by each of two workers. */
    LP_CHECK_EQ_U64(sum_calls("worker", "g"), 200);
    LP_CHECK(method("worker") && method("worker")->v[0] == 2);

    /* Load values: one static load in load_values, 5 x750 and 7 x250. */
    uint64_t fives = 0, sevens = 0, other = 0, load_pc = 0;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(&prof(LP_PROF_VALUE)->table, &cur)) != NULL) {
        if (!is_fn(e->key.a, "load_values") || e->v[1] != 4)
            continue;
        if (load_pc && e->key.a != load_pc)
            other += e->v[0];
        load_pc = e->key.a;
        if (e->key.b == 5)
            fives += e->v[0];
        else if (e->key.b == 7)
            sevens += e->v[0];
        else
            other += e->v[0];
    }
    LP_CHECK_EQ_U64(fives, 750);
    LP_CHECK_EQ_U64(sevens, 250);
    LP_CHECK_EQ_U64(other, 0);

    lp_symbolizer_free(sym);
    lp_profile_set_fini(&set);
    return lp_test_done();
}
