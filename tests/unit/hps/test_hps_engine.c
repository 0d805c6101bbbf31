/* hps engine: counters and flags against a plain model, the flag snapshot,
 * truth tables against direct evaluation, triggers, and the shipped ACFs'
 * sampling behaviour (periodic one in N; the bursty counters against the
 * software framework on random instruction streams). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowprof/hps.h"
#include "../lp_test.h"

static const char *acf_dir = "share/acf";

static int parse_text(const char *text, lp_hps_acf *acf)
{
    lp_hps_diag err;
    int rc = lp_hps_parse(text, strlen(text), acf, &err);
    if (rc != 0)
        fprintf(stderr, "parse: %u:%u: %s\n", err.line, err.column, err.message);
    return rc;
}

static int parse_file(const char *name, lp_hps_acf *acf)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.acf", acf_dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return -1;
    }
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return parse_text(buf, acf);
}

/* inc/dec/set against arithmetic done by hand on a 3-bit counter. */
static void test_counter_semantics(void)
{
    lp_hps_acf acf;
    LP_CHECK(parse_text("HPS_R3 = 5\ncounter 0 width 3 = 6\nP1: T.OPCLASS == any -> inc_0, null\n",
                        &acf) == 0);
    lp_hps_state s;
    lp_hps_state_init(&s, &acf);
    LP_CHECK(s.value[0] == 6 && s.mask[0] == 7 && s.flags == 0);
    lp_hps_uop inc = {LP_HPS_UOP_INC, 0, 0}, dec = {LP_HPS_UOP_DEC, 0, 0},
               set = {LP_HPS_UOP_SET, 0, 3};
    lp_hps_apply(&s, &acf, &inc);
    LP_CHECK(s.value[0] == 7 && s.flags == 0);
    lp_hps_apply(&s, &acf, &inc); /* 7 -> 0: wraps, zero and overflow */
    LP_CHECK(s.value[0] == 0 && s.flags == (LP_HPS_ZERO_BIT(0) | LP_HPS_OVERFLOW_BIT(0)));
    lp_hps_apply(&s, &acf, &inc); /* overflow is sticky */
    LP_CHECK(s.value[0] == 1 && s.flags == LP_HPS_OVERFLOW_BIT(0));
    lp_hps_apply(&s, &acf, &set); /* set clears it */
    LP_CHECK(s.value[0] == 5 && s.flags == 0);
    lp_hps_apply(&s, &acf, &dec);
    LP_CHECK(s.value[0] == 4 && s.flags == 0);
    s.value[0] = 1;
    lp_hps_apply(&s, &acf, &dec);
    LP_CHECK(s.value[0] == 0 && s.flags == LP_HPS_ZERO_BIT(0));
    lp_hps_apply(&s, &acf, &dec); /* 0 -> 7: borrow */
    LP_CHECK(s.value[0] == 7 && s.flags == LP_HPS_OVERFLOW_BIT(0));
    LP_CHECK(s.uops == 7);
    lp_hps_acf_free(&acf);
}

/* Every production sees the flags from before the instruction: P2 must not
 * see the zero flag P1 produced on the same instruction. */
static void test_snapshot(void)
{
    lp_hps_acf acf;
    LP_CHECK(parse_text("counter 0 width 4 = 15\n"
                        "P1: T.OPCLASS == call -> inc_0, null\n"
                        "P2: T.OPCLASS == call && zero_0 -> R1, null\n"
                        "R1: call(CallPair_handler, T.INSN); T.INSN\n",
                        &acf) == 0);
    lp_hps_state s;
    lp_hps_state_init(&s, &acf);
    lp_hps_insn call = {0x1000, 0x2000, LP_HPS_CALL, LP_HPS_OP_NONE, 1};
    uint8_t prods[2] = {0, 1};
    uint64_t when[2] = {lp_hps_when(&acf, 0, &call), lp_hps_when(&acf, 1, &call)};
    LP_CHECK(lp_hps_step(&s, &acf, prods, when, 2) == 1); /* P1 only */
    LP_CHECK(s.value[0] == 0 && (s.flags & LP_HPS_ZERO_BIT(0)));
    LP_CHECK(lp_hps_step(&s, &acf, prods, when, 2) == 3); /* now both */
    LP_CHECK(s.value[0] == 1);
    lp_hps_acf_free(&acf);
}

/* lp_hps_when agrees with lp_hps_eval in every flag state, for patterns
 * mixing attributes and flags of two counters. */
static void test_truth_tables(void)
{
    lp_hps_acf acf;
    LP_CHECK(parse_text("P1: (T.OPCLASS == branch && T.TARGET < T.PC) || overflow_1 -> inc_0\n"
                        "P2: !(zero_0 && overflow_0) && T.OPCLASS != load -> inc_1\n"
                        "P3: T.OP == on_trig_inst || T.PC >= 0x4000 && !zero_1 -> dec_1\n",
                        &acf) == 0);
    LP_CHECK(acf.ncounters == 2);
    LP_CHECK(lp_hps_all_states(&acf) == 0xffff);
    lp_hps_insn insns[] = {
        {0x5000, 0x4000, LP_HPS_COND, 0, 1},  {0x3000, 0x4000, LP_HPS_JUMP, 0, 1},
        {0x3000, 0, LP_HPS_IJUMP, 0, 0},      {0x4000, 0, LP_HPS_LOAD, 0, 0},
        {0, 0, 0, LP_HPS_OP_ON, 0},           {0x6000, 0x6000, LP_HPS_COND | LP_HPS_LOAD, 0, 1},
    };
    for (size_t i = 0; i < sizeof insns / sizeof insns[0]; i++)
        for (size_t p = 0; p < acf.nprod; p++) {
            uint64_t w = lp_hps_when(&acf, p, &insns[i]);
            for (unsigned f = 0; f < 16; f++)
                LP_CHECK(((w >> f) & 1) == (uint64_t)lp_hps_eval(&acf, p, &insns[i], f));
            LP_CHECK((w >> 16) == 0);
        }
    /* An unknown target makes the comparison false, not true. */
    LP_CHECK(lp_hps_eval(&acf, 0, &insns[2], 0) == 0);
    LP_CHECK(lp_hps_eval(&acf, 0, &insns[0], 0) == 1);
    lp_hps_acf_free(&acf);
}

/* Equations (1) and (2): the trigger instructions set counter 0, and Fig. 6's
 * productions follow the zero flag. */
static void test_triggers(void)
{
    lp_hps_acf acf;
    LP_CHECK(parse_file("hot-call-pair", &acf) == 0);
    LP_CHECK(lp_hps_set_register(&acf, "HPS_R2", 6, 1) == 0);
    lp_hps_state s;
    lp_hps_state_init(&s, &acf);
    lp_hps_insn call = {0x1000, 0x2000, LP_HPS_CALL, LP_HPS_OP_NONE, 1};
    size_t p3 = acf.nprod - 1;
    LP_CHECK(!((lp_hps_when(&acf, p3, &call) >> s.flags) & 1));
    LP_CHECK(lp_hps_trigger(&s, &acf, LP_HPS_OP_ON) == 1);
    LP_CHECK(s.value[0] == 0 && ((lp_hps_when(&acf, p3, &call) >> s.flags) & 1));
    LP_CHECK(lp_hps_trigger(&s, &acf, LP_HPS_OP_OFF) == 1);
    LP_CHECK(s.value[0] == 1 && !((lp_hps_when(&acf, p3, &call) >> s.flags) & 1));
    lp_hps_acf_free(&acf);
}

/* Runs a stream of instructions through an ACF in software, as the DISE
 * mode does, and calls the call-pair handler for matched replacements. */
static void run_acf(const lp_hps_acf *acf, const lp_hps_insn *stream, size_t n,
                    lp_hps_profiles *prof)
{
    lp_hps_state s;
    lp_hps_state_init(&s, acf);
    for (size_t i = 0; i < n; i++) {
        uint8_t prods[LP_HPS_MAX_PRODUCTIONS];
        uint64_t when[LP_HPS_MAX_PRODUCTIONS];
        size_t m = 0;
        for (size_t p = 0; p < acf->nprod; p++) {
            uint64_t w = lp_hps_when(acf, p, &stream[i]);
            if (w) {
                prods[m] = (uint8_t)p;
                when[m++] = w;
            }
        }
        uint64_t fired = lp_hps_step(&s, acf, prods, when, m);
        for (size_t j = 0; j < m; j++) {
            if (!((fired >> j) & 1) || acf->prod[prods[j]].replacement < 0)
                continue;
            const lp_hps_replacement *r = &acf->repl[acf->prod[prods[j]].replacement];
            for (unsigned c = 0; c < r->ncalls; c++)
                if (r->calls[c] == LP_HPS_H_CALL_PAIR)
                    lp_hps_on_call_pair(prof, stream[i].pc, stream[i].target);
                else if (r->calls[c] == LP_HPS_H_BRANCH)
                    lp_hps_on_branch(prof, stream[i].pc, 1);
        }
    }
}

static size_t random_stream(lp_hps_insn *out, size_t n, uint64_t seed)
{
    lp_rng r;
    lp_rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++) {
        uint64_t pc = 0x1000 + 16 * lp_rng_below(&r, 64);
        lp_hps_insn in = {pc, 0, 0, LP_HPS_OP_NONE, 0};
        switch (lp_rng_below(&r, 6)) {
        case 0: in.classes = LP_HPS_CALL, in.target = 0x8000 + 64 * lp_rng_below(&r, 8), in.has_target = 1; break;
        case 1: in.classes = LP_HPS_COND, in.target = pc - 32, in.has_target = 1; break; /* back edge */
        case 2: in.classes = LP_HPS_COND, in.target = pc + 32, in.has_target = 1; break;
        case 3: in.classes = LP_HPS_ICALL; break;
        case 4: in.classes = LP_HPS_LOAD; break;
        default: in.classes = LP_HPS_RET; break;
        }
        out[i] = in;
    }
    return n;
}

/* The bursty ACF samples exactly the calls the software framework samples,
 * for several thresholds (the registers are the ACF's documented form). */
static void test_bursty_matches_framework(void)
{
    static lp_hps_insn stream[200000];
    static const uint64_t checks[][2] = {{2, 1}, {3, 2}, {10, 3}, {100, 10}, {1000, 37}};
    for (size_t t = 0; t < sizeof checks / sizeof checks[0]; t++) {
        uint64_t nc = checks[t][0], ni = checks[t][1];
        size_t n = random_stream(stream, sizeof stream / sizeof stream[0], 7 + t);
        lp_hps_acf acf;
        LP_CHECK(parse_file("bursty-call-pair", &acf) == 0);
        LP_CHECK(lp_hps_set_register(&acf, "HPS_R2", 6, 65536 - nc) == 0);
        LP_CHECK(lp_hps_set_register(&acf, "HPS_R3", 6, 65536 - ni) == 0);
        LP_CHECK(lp_hps_set_register(&acf, "HPS_R4", 6, 65536 - nc + 1) == 0);
        lp_hps_profiles hw, sw;
        LP_CHECK(lp_hps_profiles_init(&hw) == 0 && lp_hps_profiles_init(&sw) == 0);
        run_acf(&acf, stream, n, &hw);
        lp_hps_ar ar;
        lp_hps_ar_init(&ar, nc, ni);
        for (size_t i = 0; i < n; i++) {
            const lp_hps_insn *in = &stream[i];
            int call = (in->classes & (LP_HPS_CALL | LP_HPS_ICALL)) != 0;
            int back = in->has_target && in->target <= in->pc && (in->classes & LP_HPS_COND);
            if (call && ar.sampling)
                lp_hps_on_call_pair(&sw, in->pc, in->target);
            if (call || back)
                lp_hps_ar_check(&ar);
        }
        LP_CHECK(hw.calls[LP_HPS_H_CALL_PAIR] == sw.calls[LP_HPS_H_CALL_PAIR]);
        LP_CHECK(hw.calls[LP_HPS_H_CALL_PAIR] > 0);
        LP_CHECK(hw.call_pair.count == sw.call_pair.count);
        size_t cur = 0;
        lp_entry *e;
        while ((e = lp_table_next(&hw.call_pair, &cur))) {
            lp_entry *f = lp_table_find(&sw.call_pair, e->key);
            LP_CHECK(f && f->v[0] == e->v[0]);
        }
        lp_hps_profiles_fini(&hw);
        lp_hps_profiles_fini(&sw);
        lp_hps_acf_free(&acf);
    }
}

/* One in N exactly: the 100th, 200th, ... call is sampled. */
static void test_periodic(void)
{
    static lp_hps_insn stream[100000];
    size_t n = random_stream(stream, sizeof stream / sizeof stream[0], 99);
    lp_hps_acf acf;
    LP_CHECK(parse_file("periodic-call-pair", &acf) == 0);
    lp_hps_profiles prof;
    LP_CHECK(lp_hps_profiles_init(&prof) == 0);
    run_acf(&acf, stream, n, &prof);
    uint64_t calls = 0;
    lp_hps_profiles ref;
    LP_CHECK(lp_hps_profiles_init(&ref) == 0);
    for (size_t i = 0; i < n; i++)
        if (stream[i].classes & (LP_HPS_CALL | LP_HPS_ICALL))
            if (++calls % 100 == 0)
                lp_hps_on_call_pair(&ref, stream[i].pc, stream[i].target);
    LP_CHECK(prof.calls[LP_HPS_H_CALL_PAIR] == calls / 100);
    size_t cur = 0;
    lp_entry *e;
    while ((e = lp_table_next(&ref.call_pair, &cur))) {
        lp_entry *f = lp_table_find(&prof.call_pair, e->key);
        LP_CHECK(f && f->v[0] == e->v[0]);
    }
    lp_hps_profiles_fini(&prof);
    lp_hps_profiles_fini(&ref);
    lp_hps_acf_free(&acf);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        acf_dir = argv[1];
    test_counter_semantics();
    test_snapshot();
    test_truth_tables();
    test_triggers();
    test_bursty_matches_framework();
    test_periodic();
    return lp_test_done();
}
