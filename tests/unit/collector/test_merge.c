/* The collector's merge on runs whose estimates are worked out by hand:
 * a phased run's own estimate where it brings one, else its phases
 * weighted by the intervals the trace says they ran, runs without
 * phases by their scale, addresses moved across runs loaded at different
 * places, and traces that do not fit their profiles refused. */
#include <string.h>

#include "../lp_test.h"
#include "lowprof/collector.h"

static const uint8_t bid_prog[4] = {0xaa, 0xbb, 0xcc, 0x01};
static const uint8_t bid_lib[4] = {0x11, 0x22, 0x33, 0x02};

/* A run of "/bin/prog" (and optionally "/lib/libx.so") at the given bases. */
static void run_init(lp_profile_set *s, uint64_t prog_base, uint64_t lib_base)
{
    memset(s, 0, sizeof *s);
    lp_meta_set(&s->meta, "program", "/bin/prog");
    lp_meta_set(&s->meta, "build-id", "aabbcc01");
    lp_meta_set(&s->meta, "recorder", "lowprof native runtime");
    /* ELF text at 0x1000: bias = base. */
    lp_module_map_add(&s->modules, "/bin/prog", prog_base + 0x1000, 0x4000, (int64_t)prog_base,
                      bid_prog, sizeof bid_prog);
    if (lib_base)
        lp_module_map_add(&s->modules, "/lib/libx.so", lib_base + 0x1000, 0x2000,
                          (int64_t)lib_base, bid_lib, sizeof bid_lib);
}

static void put(lp_profile_set *s, unsigned type, uint32_t phase, uint64_t a, uint64_t b,
                uint64_t v0, uint64_t num, uint64_t den)
{
    lp_profile *p = lp_profile_set_find(s, type, phase);
    if (!p) {
        LP_CHECK(lp_profile_set_add(s, type, phase, &p) == 0);
        p->scale_num = num;
        p->scale_den = den;
    }
    lp_entry *e = lp_table_upsert(&p->table, (lp_key){a, b});
    e->v[0] += v0;
}

static uint64_t get(const lp_profile_set *s, unsigned type, uint64_t a, uint64_t b)
{
    const lp_profile *p = lp_profile_set_find(s, type, LP_PHASE_NONE);
    if (!p)
        return UINT64_MAX;
    const lp_entry *e = lp_table_find(&p->table, (lp_key){a, b});
    return e ? e->v[0] : 0;
}

int main(void)
{
    lp_merge *m;
    LP_CHECK(lp_merge_create(&m) == 0);

    /* Run 1, phase-aware: phase 0 ran 8 intervals, phase 1 two; one
     * interval of each was profiled. Its methods come with the device's
     * own whole-run estimate (85 and 7 where the trace alone would give 80
     * and 6: the native runtime weighs its profiled intervals by its
     * clock), which stands for them, the phases' profiles not counted
     * again. Its blocks come by phase only, weighed by the trace (the
     * device's scales, 1/1 here, ignored). */
    lp_profile_set r1;
    run_init(&r1, 0x400000, 0);
    lp_meta_set(&r1.meta, "strategy", "phase");
    lp_meta_set(&r1.meta, "phase-trace", "0*6,1*2,0*2");
    lp_meta_set(&r1.meta, "sampled", "2:0,6:1");
    lp_meta_set(&r1.meta, "instructions", "100");
    put(&r1, LP_PROF_METHOD, 0, 0x401100, 0, 10, 1, 1);
    put(&r1, LP_PROF_METHOD, 1, 0x401200, 0, 3, 1, 1);
    put(&r1, LP_PROF_METHOD, LP_PHASE_NONE, 0x401100, 0, 85, 1, 1);
    put(&r1, LP_PROF_METHOD, LP_PHASE_NONE, 0x401200, 0, 7, 1, 1);
    put(&r1, LP_PROF_BLOCK, 0, 0x401300, 0, 2, 1, 1);
    put(&r1, LP_PROF_BLOCK, 1, 0x401300, 0, 1, 1, 1);
    LP_CHECK(lp_merge_add(m, &r1, "dev-a") == 0);

    /* Run 2, periodic 1 in 4, loaded elsewhere (ASLR), with a library at
     * the place run 1 gave the program. */
    lp_profile_set r2;
    run_init(&r2, 0x500000, 0x400000);
    lp_meta_set(&r2.meta, "strategy", "periodic:4");
    lp_meta_set(&r2.meta, "instructions", "50");
    put(&r2, LP_PROF_METHOD, LP_PHASE_NONE, 0x501100, 0, 5, 4, 1);
    put(&r2, LP_PROF_METHOD, LP_PHASE_NONE, 0x401800, 0, 7, 4, 1); /* in libx */
    put(&r2, LP_PROF_CALL_PAIR, LP_PHASE_NONE, 0x501150, 0x401800, 3, 3, 2);
    LP_CHECK(lp_merge_add(m, &r2, "dev-b") == 0);

    /* Run 3, exhaustive, same device as run 1. */
    lp_profile_set r3;
    run_init(&r3, 0x400000, 0);
    put(&r3, LP_PROF_METHOD, LP_PHASE_NONE, 0x401100, 0, 1, 1, 1);
    LP_CHECK(lp_merge_add(m, &r3, "dev-a") == 0);

    lp_merge_stats st;
    lp_merge_get_stats(m, &st);
    LP_CHECK_EQ_U64(st.runs, 3);
    LP_CHECK_EQ_U64(st.devices, 2);
    LP_CHECK_EQ_U64(st.phased_runs, 1);
    LP_CHECK_EQ_U64(st.intervals, 10);
    LP_CHECK_EQ_U64(st.instructions, 150);
    LP_CHECK_EQ_U64(st.nphases, 2);
    LP_CHECK_EQ_U64(st.phases[0].intervals + st.phases[1].intervals, 10);
    LP_CHECK_EQ_U64(st.phases[0].phase == 0 ? st.phases[0].intervals : st.phases[1].intervals, 8);

    lp_profile_set out;
    LP_CHECK(lp_merge_result(m, &out) == 0);
    /* 0x401100: run 1's own 85, run 2 5 * 4 = 20 (moved from 0x501100),
     * run 3 1: 106. */
    LP_CHECK_EQ_U64(get(&out, LP_PROF_METHOD, 0x401100, 0), 106);
    LP_CHECK_EQ_U64(get(&out, LP_PROF_METHOD, 0x401200, 0), 7);
    LP_CHECK_EQ_U64(get(&out, LP_PROF_BLOCK, 0x401300, 0), 18); /* 2 * 8/1 + 1 * 2/1 */
    /* The library took a new place past the program; its bias follows, so
     * its ELF address (0x1800) is unchanged. */
    LP_CHECK_EQ_U64(out.modules.count, 2);
    const lp_module *lib = NULL, *prog = NULL;
    for (size_t i = 0; i < out.modules.count; i++) {
        if (strcmp(out.modules.items[i].path, "/lib/libx.so") == 0)
            lib = &out.modules.items[i];
        if (strcmp(out.modules.items[i].path, "/bin/prog") == 0)
            prog = &out.modules.items[i];
    }
    LP_CHECK(lib && prog);
    if (lib && prog) {
        LP_CHECK(prog->start == 0x401000 && prog->bias == 0x400000);
        LP_CHECK(lib->start >= prog->start + prog->size);
        uint64_t lib_pc = (uint64_t)((int64_t)0x1800 + lib->bias);
        LP_CHECK_EQ_U64(get(&out, LP_PROF_METHOD, lib_pc, 0), 28);
        /* Both words of a call pair move: 3 * 3/2 = 4.5, rounded up. */
        LP_CHECK_EQ_U64(get(&out, LP_PROF_CALL_PAIR, 0x401150, lib_pc), 5);
    }
    LP_CHECK(strcmp(lp_meta_get(&out.meta, "runs"), "3") == 0);
    LP_CHECK(strcmp(lp_meta_get(&out.meta, "build-id"), "aabbcc01") == 0);
    /* The runs' one recorder is kept: the exports read call sites by it. */
    const char *rec = lp_meta_get(&out.meta, "recorder");
    LP_CHECK(rec && strcmp(rec, "lowprof native runtime") == 0);
    lp_profile_set_fini(&out);

    /* Fractions are kept across runs: 1/3 of a count, three times, is one.
     * The runs name two recorders, so the merge names none. */
    lp_merge *f;
    LP_CHECK(lp_merge_create(&f) == 0);
    for (int i = 0; i < 3; i++) {
        lp_profile_set r;
        run_init(&r, 0x400000, 0);
        if (i == 1)
            lp_meta_set(&r.meta, "recorder", "lowprof valgrind tool");
        put(&r, LP_PROF_BLOCK, LP_PHASE_NONE, 0x401000, 0, 1, 1, 3);
        LP_CHECK(lp_merge_add(f, &r, "d") == 0);
        lp_profile_set_fini(&r);
    }
    LP_CHECK(lp_merge_result(f, &out) == 0);
    LP_CHECK_EQ_U64(get(&out, LP_PROF_BLOCK, 0x401000, 0), 1);
    LP_CHECK(lp_meta_get(&out.meta, "recorder") == NULL);
    lp_profile_set_fini(&out);
    lp_merge_free(f);

    /* A per-phase profile whose phase the trace never visits, and a trace
     * that does not parse, are refused and change nothing. */
    lp_profile_set bad;
    run_init(&bad, 0x400000, 0);
    lp_meta_set(&bad.meta, "strategy", "phase");
    lp_meta_set(&bad.meta, "phase-trace", "0*4");
    put(&bad, LP_PROF_METHOD, 7, 0x401100, 0, 1, 1, 1);
    LP_CHECK(lp_merge_add(m, &bad, "x") == LP_EFORMAT);
    lp_meta_set(&bad.meta, "phase-trace", "0*4,7");
    LP_CHECK(lp_merge_add(m, &bad, "x") == LP_EFORMAT);
    lp_meta_set(&bad.meta, "phase-trace", "0*4,7*1");
    lp_meta_set(&bad.meta, "sampled", "1:9");
    LP_CHECK(lp_merge_add(m, &bad, "x") == LP_EFORMAT);
    lp_merge_get_stats(m, &st);
    LP_CHECK_EQ_U64(st.runs, 3);
    LP_CHECK(lp_merge_result(m, &out) == 0);
    LP_CHECK_EQ_U64(get(&out, LP_PROF_METHOD, 0x401100, 0), 106);
    lp_profile_set_fini(&out);

    /* Interleaved: run 1 again, in three parts (part 0: intervals 0-2 with
     * the sample at 2; part 1: 3-6 with the sample at 6; part 2, the last:
     * 7-9), in any order; before its last part comes, it counts with the
     * trace so far. In the first order the last part brings the device's
     * own estimate, as the native runtime's does, and the run merges to it
     * (85 and 7, run 1's At-End file); in the second it brings none, and
     * the parts are weighed by the trace (80 and 6). */
    static const char *const traces[3] = {"0*3", "0*3,1*1", "1*1,0*2"};
    static const char *const samples[3] = {"2:0", "6:1", ""};
    static const int orders[2][3] = {{0, 1, 2}, {2, 0, 1}};
    for (int o = 0; o < 2; o++) {
        lp_merge *im;
        LP_CHECK(lp_merge_create(&im) == 0);
        for (int k = 0; k < 3; k++) {
            int part = orders[o][k];
            lp_profile_set ps;
            run_init(&ps, 0x400000, 0);
            char num[4] = {(char)('0' + part), 0};
            lp_meta_set(&ps.meta, "strategy", "phase");
            lp_meta_set(&ps.meta, "run-id", "0123456789abcdef0123456789abcdef");
            lp_meta_set(&ps.meta, "part", num);
            lp_meta_set(&ps.meta, "final", part == 2 ? "yes" : "no");
            if (part == 2)
                lp_meta_set(&ps.meta, "parts", "3");
            lp_meta_set(&ps.meta, "phase-trace", traces[part]);
            lp_meta_set(&ps.meta, "sampled", samples[part]);
            if (part == 0)
                put(&ps, LP_PROF_METHOD, 0, 0x401100, 0, 10, 1, 1);
            if (part == 1)
                put(&ps, LP_PROF_METHOD, 1, 0x401200, 0, 3, 1, 1);
            if (part == 2 && o == 0) {
                put(&ps, LP_PROF_METHOD, LP_PHASE_NONE, 0x401100, 0, 85, 1, 1);
                put(&ps, LP_PROF_METHOD, LP_PHASE_NONE, 0x401200, 0, 7, 1, 1);
            }
            LP_CHECK(lp_merge_add(im, &ps, "dev-a") == 0);
            lp_profile_set_fini(&ps);
            lp_merge_get_stats(im, &st);
            LP_CHECK_EQ_U64(st.runs, 1);
            if (o == 0 && k == 1) {
                /* Phase 0 has run 6 intervals so far, phase 1 one. */
                LP_CHECK_EQ_U64(st.runs_in_progress, 1);
                LP_CHECK(lp_merge_result(im, &out) == 0);
                LP_CHECK_EQ_U64(get(&out, LP_PROF_METHOD, 0x401100, 0), 60);
                LP_CHECK_EQ_U64(get(&out, LP_PROF_METHOD, 0x401200, 0), 3);
                LP_CHECK(strcmp(lp_meta_get(&out.meta, "runs-in-progress"), "1") == 0);
                lp_profile_set_fini(&out);
            }
        }
        lp_merge_get_stats(im, &st);
        LP_CHECK_EQ_U64(st.runs_in_progress, 0);
        LP_CHECK_EQ_U64(st.phased_runs, 1);
        LP_CHECK_EQ_U64(st.intervals, 10);
        LP_CHECK(lp_merge_result(im, &out) == 0);
        LP_CHECK_EQ_U64(get(&out, LP_PROF_METHOD, 0x401100, 0), o == 0 ? 85 : 80);
        LP_CHECK_EQ_U64(get(&out, LP_PROF_METHOD, 0x401200, 0), o == 0 ? 7 : 6);
        LP_CHECK(lp_meta_get(&out.meta, "runs-in-progress") == NULL);
        lp_profile_set_fini(&out);
        lp_merge_free(im);
    }
    /* A part whose sample lies outside its own stretch of the trace. */
    lp_merge *im;
    LP_CHECK(lp_merge_create(&im) == 0);
    lp_profile_set ps;
    run_init(&ps, 0x400000, 0);
    lp_meta_set(&ps.meta, "run-id", "0123456789abcdef0123456789abcdef");
    lp_meta_set(&ps.meta, "phase-trace", "0*3");
    put(&ps, LP_PROF_METHOD, 4, 0x401100, 0, 10, 1, 1);
    LP_CHECK(lp_merge_add(im, &ps, "d") == LP_EFORMAT);
    lp_profile_set_fini(&ps);
    lp_merge_free(im);

    lp_profile_set_fini(&bad);
    lp_profile_set_fini(&r1);
    lp_profile_set_fini(&r2);
    lp_profile_set_fini(&r3);
    lp_merge_free(m);
    return lp_test_done();
}
