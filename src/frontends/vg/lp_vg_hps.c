/* The HPS engine in the decoder: an ACF's productions applied to every
 * guest instruction at translation time (paper 000, section 3), where DISE
 * sits in a decode stage.
 *
 * For each instruction the engine folds every production into a truth
 * table over the flag word (lp_hps_when). What it emits then depends on the
 * mode:
 * - HPS (conditional control): one load of the flag word, inline counter
 *   updates for the micro-operations, and each replacement's handler call
 *   guarded by its production's table, so nothing runs while the flags say
 *   no. The counters, flags and micro-operations cost no helper call.
 * - DISE (no conditional control): every instruction that some production
 *   could match is replaced unconditionally: a software step checks the
 *   flags and runs the micro-operations (lp_hps_step), and each handler call
 *   runs and checks in software whether its production matched.
 * Both modes keep the counters in one lp_hps_state and record the same
 * profile; only their costs differ, and the tool counts those.
 *
 * The software sampling framework (--hps-ar) is the reference for the
 * counter trigger: calls and direct backward branches are its checks, calls
 * its events, and bursty tracing's check (lowprof/bursty.h) its logic.
 *
 * Handler placement: everything but the handlers that need the outcome of
 * a control transfer runs at the instruction's IMark; a call's handlers run
 * where its destination is known (the block's end), a taken backward
 * branch's on its taken exit. Nothing runs between them, since with chasing
 * off a control transfer is its block's last instruction. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_tooliface.h"

#include "lowprof/hps.h"
#include "lp_vg.h"

static lp_hps_acf lp_vg_acf;
static lp_hps_state lp_vg_hps_state;
static lp_hps_profiles lp_vg_hps_prof;
static lp_bursty lp_vg_ar; /* the framework's counters (Fig. 3 of bursty tracing) */
static ULong lp_vg_hps_stat[LP_VG_HPS_NSTATS];

/* One instruction with productions, for the DISE step. */
typedef struct lp_vg_hps_site {
    ULong fired; /* productions that matched this execution (DISE) */
    UInt n;
    UChar prods[LP_HPS_MAX_PRODUCTIONS];
    ULong when[LP_HPS_MAX_PRODUCTIONS];
} lp_vg_hps_site;

/* One handler call of one replacement at one instruction. */
typedef struct lp_vg_hps_call {
    lp_vg_hps_site *site; /* DISE: where to find whether it matched */
    ULong bit;            /* this production's bit in site->fired */
    ULong pc;
    ULong entry;          /* the method holding pc (backward branches) */
    UInt k;               /* instructions of the block up to and including pc */
    UChar handler;        /* lp_hps_handler */
    UChar dise;
} lp_vg_hps_call;

/* ---- options and set-up ---- */

static void lp_vg_hps_fail(const HChar *what)
{
    VG_(fmsg)("lowprof: %s\n", what);
    VG_(exit)(1);
}

static void lp_vg_hps_apply_sets(void)
{
    for (UInt i = 0; i < lp_vg_clo_acf_nsets; i++) {
        const HChar *s = lp_vg_clo_acf_sets[i], *eq = VG_(strchr)(s, '=');
        HChar *end;
        ULong v = eq ? VG_(strtoull10)(eq + 1, &end) : 0;
        if (!eq || eq[1] == 0 || *end != 0 ||
            lp_hps_set_register(&lp_vg_acf, s, (size_t)(eq - s), v) != 0)
            lp_vg_hps_fail("--acf-set expects HPS_Rk=VALUE");
    }
}

void lp_vg_hps_init(void)
{
    if (lp_vg_clo_ar_check) {
        lp_bursty_init(&lp_vg_ar, lp_vg_clo_ar_check, lp_vg_clo_ar_instr);
        lp_vg_hps_on = True;
    } else if (lp_vg_clo_acf) {
        SizeT len = 0;
        HChar *text = lp_vg_read_file(lp_vg_clo_acf, &len);
        if (!text)
            lp_vg_hps_fail("cannot read the ACF given with --acf-file");
        lp_hps_diag err;
        if (lp_hps_parse(text, len, &lp_vg_acf, &err) != 0) {
            VG_(fmsg)("lowprof: %s:%u:%u: %s\n", lp_vg_clo_acf, err.line, err.column, err.message);
            VG_(exit)(1);
        }
        VG_(free)(text);
        lp_vg_hps_apply_sets();
        lp_hps_state_init(&lp_vg_hps_state, &lp_vg_acf);
        lp_vg_hps_on = True;
    } else {
        return;
    }
    if (lp_hps_profiles_init(&lp_vg_hps_prof) != 0)
        lp_vg_hps_fail("out of memory for the ACF's profiles");
}

/* ---- run time ---- */

VG_REGPARM(1) void lp_vg_hps_dise_step(lp_vg_hps_site *s)
{
    lp_vg_hps_stat[LP_VG_HPS_STEPS]++;
    s->fired = lp_hps_step(&lp_vg_hps_state, &lp_vg_acf, s->prods, (const uint64_t *)s->when, s->n);
}

/* A handler call: in DISE mode it runs for every execution and checks in
 * software whether its production matched; in HPS mode its guard did. */
VG_REGPARM(2) void lp_vg_hps_call_handler(lp_vg_hps_call *c, ULong dst)
{
    if (c->dise) {
        lp_vg_hps_stat[LP_VG_HPS_DISE_CALLS]++;
        if (!(c->site->fired & c->bit))
            return;
    }
    switch (c->handler) {
    case LP_HPS_H_BRANCH: lp_hps_on_branch(&lp_vg_hps_prof, c->pc, lp_vg_carry + c->k); break;
    case LP_HPS_H_METHOD:
        if (dst)
            lp_hps_on_method(&lp_vg_hps_prof, dst, 0);
        else
            lp_hps_on_method(&lp_vg_hps_prof, c->entry, 1);
        break;
    case LP_HPS_H_CALL_PAIR: lp_hps_on_call_pair(&lp_vg_hps_prof, c->pc, dst); break;
    default: break;
    }
}

/* The software framework: a call's event first (with the mode it found),
 * then its check. */
VG_REGPARM(2) void lp_vg_hps_ar_call(ULong site, ULong dst)
{
    if (lp_vg_ar.mode == LP_BURSTY_INSTRUMENTED)
        lp_hps_on_call_pair(&lp_vg_hps_prof, site, dst);
    lp_bursty_check(&lp_vg_ar);
}

VG_REGPARM(0) void lp_vg_hps_ar_backward(void)
{
    lp_bursty_check(&lp_vg_ar);
}

void lp_vg_hps_trigger(lp_hps_op op)
{
    if (!lp_vg_hps_on || lp_vg_clo_ar_check)
        return;
    lp_vg_hps_stat[op == LP_HPS_OP_ON ? LP_VG_HPS_TRIGGERS_ON : LP_VG_HPS_TRIGGERS_OFF]++;
    lp_vg_hps_stat[LP_VG_HPS_TRIGGER_MATCHES] += lp_hps_trigger(&lp_vg_hps_state, &lp_vg_acf, op);
}

/* ---- translation time ---- */

static IRExpr *lp_vg_hps_u64(ULong v)
{
    return IRExpr_Const(IRConst_U64(v));
}

static IRExpr *lp_vg_hps_load(IRSB *out, const void *addr)
{
    return lp_vg_tmp(out, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)addr)));
}

static IRExpr *lp_vg_hps_and1(IRSB *out, IRExpr *a, IRExpr *b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    return lp_vg_tmp(out, Ity_I1, IRExpr_Binop(Iop_And1, a, b));
}

/* One micro-operation as inline IR, applied only where guard (NULL:
 * always) holds; the same arithmetic as lp_hps_apply. */
static void lp_vg_hps_inline_uop(IRSB *out, const lp_hps_uop *op, IRExpr *guard)
{
    UInt c = op->counter;
    if (c >= lp_vg_acf.ncounters)
        return;
    ULong mask = lp_vg_hps_state.mask[c];
    ULong zbit = LP_HPS_ZERO_BIT(c), obit = LP_HPS_OVERFLOW_BIT(c);
    IRExpr *v = lp_vg_hps_load(out, &lp_vg_hps_state.value[c]);
    IRExpr *f = lp_vg_hps_load(out, &lp_vg_hps_state.flags);
    IRExpr *nv, *ovf;
    if (op->kind == LP_HPS_UOP_SET) {
        nv = lp_vg_hps_u64((op->reg < LP_HPS_MAX_REGS ? lp_vg_acf.reg[op->reg] : 0) & mask);
        ovf = lp_vg_hps_u64(0);
    } else {
        Bool inc = op->kind == LP_HPS_UOP_INC;
        IRExpr *step = lp_vg_tmp(
            out, Ity_I64, IRExpr_Binop(inc ? Iop_Add64 : Iop_Sub64, v, lp_vg_hps_u64(1)));
        nv = lp_vg_tmp(out, Ity_I64, IRExpr_Binop(Iop_And64, step, lp_vg_hps_u64(mask)));
        IRExpr *wrap = lp_vg_tmp(out, Ity_I1,
                                     IRExpr_Binop(Iop_CmpEQ64, v, lp_vg_hps_u64(inc ? mask : 0)));
        IRExpr *old = lp_vg_tmp(out, Ity_I64, IRExpr_Binop(Iop_And64, f, lp_vg_hps_u64(obit)));
        ovf = lp_vg_tmp(out, Ity_I64,
                            IRExpr_ITE(wrap, lp_vg_hps_u64(obit), old));
    }
    IRExpr *zero = lp_vg_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, nv, lp_vg_hps_u64(0)));
    IRExpr *zf = lp_vg_tmp(out, Ity_I64, IRExpr_ITE(zero, lp_vg_hps_u64(zbit), lp_vg_hps_u64(0)));
    IRExpr *rest = lp_vg_tmp(out, Ity_I64,
                                 IRExpr_Binop(Iop_And64, f, lp_vg_hps_u64(~(zbit | obit))));
    IRExpr *bits = lp_vg_tmp(out, Ity_I64, IRExpr_Binop(Iop_Or64, zf, ovf));
    IRExpr *nf = lp_vg_tmp(out, Ity_I64, IRExpr_Binop(Iop_Or64, rest, bits));
    if (guard) {
        nv = lp_vg_tmp(out, Ity_I64, IRExpr_ITE(guard, nv, v));
        nf = lp_vg_tmp(out, Ity_I64, IRExpr_ITE(guard, nf, f));
    }
    addStmtToIRSB(out, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&lp_vg_hps_state.value[c]), nv));
    addStmtToIRSB(out, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&lp_vg_hps_state.flags), nf));
}

/* ++*counter where guard (NULL: always) holds, inline: the replacement
 * count, which costs the engine a cycle and the program nothing. */
static void lp_vg_hps_inline_count(IRSB *out, ULong *counter, IRExpr *guard)
{
    IRExpr *v = lp_vg_hps_load(out, counter);
    IRExpr *nv = lp_vg_tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, v, lp_vg_hps_u64(1)));
    if (guard)
        nv = lp_vg_tmp(out, Ity_I64, IRExpr_ITE(guard, nv, v));
    addStmtToIRSB(out, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)counter), nv));
}

/* The guard "production holds with the current flags": the truth table
 * shifted by the flag word. NULL when it holds in every state. */
static IRExpr *lp_vg_hps_guard(IRSB *out, IRExpr *flags, ULong when)
{
    if (when == lp_hps_all_states(&lp_vg_acf))
        return NULL;
    IRExpr *sh = lp_vg_tmp(out, Ity_I8, IRExpr_Unop(Iop_64to8, flags));
    IRExpr *shifted = lp_vg_tmp(out, Ity_I64,
                                    IRExpr_Binop(Iop_Shr64, lp_vg_hps_u64(when), sh));
    IRExpr *bit = lp_vg_tmp(out, Ity_I64,
                                IRExpr_Binop(Iop_And64, shifted, lp_vg_hps_u64(1)));
    return lp_vg_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, bit, lp_vg_hps_u64(0)));
}

/* The entry of the function holding pc, from the "name+offset" the debug
 * info gives; pc itself when there is no symbol. */
static ULong lp_vg_hps_method_of(ULong pc)
{
    const HChar *name;
    if (!VG_(get_fnname_w_offset)(VG_(current_DiEpoch)(), pc, &name))
        return pc;
    const HChar *plus = VG_(strrchr)(name, '+');
    if (!plus)
        return pc;
    HChar *end;
    ULong off = VG_(strtoull10)(plus + 1, &end);
    return *end == 0 && off <= pc ? pc - off : pc;
}

/* Where a handler call needs to run: at the IMark, at the block's end (a
 * call's destination), or on a taken exit. */
static Bool lp_vg_hps_needs_exit(UChar handler, const lp_hps_insn *in)
{
    Bool call = (in->classes & (LP_HPS_CALL | LP_HPS_ICALL)) != 0;
    if (handler == LP_HPS_H_CALL_PAIR)
        return call;
    if (handler == LP_HPS_H_METHOD)
        return call || (in->has_target && in->target <= in->pc);
    return False;
}

/* Per-instruction state for the block being translated. */
typedef struct lp_vg_hps_pending {
    lp_vg_hps_call *call;
    IRExpr *guard;
} lp_vg_hps_pending;

#define LP_VG_HPS_PENDING 64
static lp_vg_hps_pending lp_vg_hps_pend[LP_VG_HPS_PENDING];
static UInt lp_vg_hps_npend;

static lp_vg_hps_call *lp_vg_hps_new_call(lp_vg_hps_site *site, UInt i, const lp_hps_insn *in,
                                          UInt k, UChar handler)
{
    lp_vg_hps_call *c = VG_(calloc)("lp.hpscall", 1, sizeof *c);
    c->site = site;
    c->bit = 1ULL << i;
    c->pc = in->pc;
    c->k = k;
    c->handler = handler;
    c->dise = lp_vg_clo_dise;
    if (handler == LP_HPS_H_METHOD && !(in->classes & (LP_HPS_CALL | LP_HPS_ICALL)))
        c->entry = lp_vg_hps_method_of(in->pc);
    return c;
}

static void lp_vg_hps_emit_call(IRSB *out, lp_vg_hps_call *c, IRExpr *dst, IRExpr *guard)
{
    lp_vg_dirty_call(out, "lp_vg_hps_call_handler", lp_vg_hps_call_handler,
                    mkIRExprVec_2(mkIRExpr_HWord((HWord)c), dst ? dst : lp_vg_hps_u64(0)), guard);
}

/* The software framework's checks and events at one instruction. */
static void lp_vg_hps_ar_insn(IRSB *out, const lp_hps_insn *in)
{
    if (in->has_target && in->target <= in->pc && (in->classes & (LP_HPS_COND | LP_HPS_JUMP)))
        lp_vg_dirty_call(out, "lp_vg_hps_ar_backward", lp_vg_hps_ar_backward, mkIRExprVec_0(),
                        NULL);
}

void lp_vg_hps_insn(IRSB *out, const lp_hps_insn *in, UInt k)
{
    if (lp_vg_clo_ar_check) {
        lp_vg_hps_ar_insn(out, in);
        return;
    }
    ULong when[LP_HPS_MAX_PRODUCTIONS];
    UChar prods[LP_HPS_MAX_PRODUCTIONS];
    UInt n = 0;
    for (UInt p = 0; p < lp_vg_acf.nprod; p++) {
        ULong w = lp_hps_when(&lp_vg_acf, p, in);
        if (!w || (lp_vg_acf.prod[p].nops == 0 && lp_vg_acf.prod[p].replacement < 0))
            continue;
        when[n] = w;
        prods[n++] = (UChar)p;
    }
    if (!n)
        return;
    lp_vg_hps_stat[LP_VG_HPS_STATIC_INSNS]++;
    lp_vg_hps_site *site = NULL;
    IRExpr *flags = NULL;
    if (lp_vg_clo_dise) {
        site = VG_(calloc)("lp.hpssite", 1, sizeof *site);
        site->n = n;
        VG_(memcpy)(site->prods, prods, n);
        VG_(memcpy)(site->when, when, n * sizeof when[0]);
        lp_vg_dirty_call(out, "lp_vg_hps_dise_step", lp_vg_hps_dise_step,
                        mkIRExprVec_1(mkIRExpr_HWord((HWord)site)), NULL);
    } else {
        flags = lp_vg_hps_load(out, &lp_vg_hps_state.flags);
    }
    for (UInt i = 0; i < n; i++) {
        const lp_hps_production *p = &lp_vg_acf.prod[prods[i]];
        IRExpr *guard = flags ? lp_vg_hps_guard(out, flags, when[i]) : NULL;
        if (flags)
            for (UInt u = 0; u < p->nops; u++)
                lp_vg_hps_inline_uop(out, &p->ops[u], guard);
        if (p->replacement < 0)
            continue;
        if (flags)
            lp_vg_hps_inline_count(out, &lp_vg_hps_stat[LP_VG_HPS_REPLACEMENTS], guard);
        const lp_hps_replacement *r = &lp_vg_acf.repl[p->replacement];
        for (UInt j = 0; j < r->ncalls; j++) {
            lp_vg_hps_call *c = lp_vg_hps_new_call(site, i, in, k, r->calls[j]);
            if (!lp_vg_hps_needs_exit(r->calls[j], in)) {
                lp_vg_hps_emit_call(out, c, NULL, guard);
            } else if (lp_vg_hps_npend < LP_VG_HPS_PENDING) {
                lp_vg_hps_pend[lp_vg_hps_npend].call = c;
                lp_vg_hps_pend[lp_vg_hps_npend++].guard = guard;
            } else {
                lp_vg_hps_stat[LP_VG_HPS_DROPPED]++;
            }
        }
    }
}

void lp_vg_hps_block_begin(void)
{
    lp_vg_hps_npend = 0;
}

/* A taken backward branch leaves by exit_dst; method handlers waiting for
 * it run here, under the exit's own guard. */
void lp_vg_hps_exit(IRSB *out, ULong exit_dst, IRExpr *exit_guard, const lp_hps_insn *last)
{
    if (!lp_vg_hps_npend || !last->has_target || exit_dst != last->target ||
        (last->classes & (LP_HPS_CALL | LP_HPS_ICALL)))
        return;
    for (UInt i = 0; i < lp_vg_hps_npend; i++) {
        lp_vg_hps_pending *p = &lp_vg_hps_pend[i];
        lp_vg_hps_emit_call(out, p->call, NULL, lp_vg_hps_and1(out, p->guard, exit_guard));
    }
    lp_vg_hps_npend = 0;
}

/* The block's end: a call's handlers with its destination, the software
 * framework's call, or a backward branch whose taken side is the final
 * jump. */
void lp_vg_hps_end(IRSB *out, IRExpr *next, const lp_hps_insn *last)
{
    Bool call = (last->classes & (LP_HPS_CALL | LP_HPS_ICALL)) != 0;
    if (lp_vg_clo_ar_check) {
        if (call)
            lp_vg_dirty_call(out, "lp_vg_hps_ar_call", lp_vg_hps_ar_call,
                            mkIRExprVec_2(mkIRExpr_HWord((HWord)last->pc), next), NULL);
        return;
    }
    if (!lp_vg_hps_npend)
        return;
    /* Reaching the end of a conditional branch's block means the side exit
     * was not taken: the final jump is the taken side only when it goes to
     * the target. */
    Bool taken = call || (next->tag == Iex_Const && next->Iex.Const.con->Ico.U64 == last->target);
    for (UInt i = 0; i < lp_vg_hps_npend && taken; i++)
        lp_vg_hps_emit_call(out, lp_vg_hps_pend[i].call, call ? next : NULL,
                            lp_vg_hps_pend[i].guard);
    lp_vg_hps_npend = 0;
}

/* ---- client requests: the trigger instructions ---- */

Bool lp_vg_hps_client_request(ThreadId tid, UWord *args, UWord *ret)
{
    (void)tid;
    if (!VG_IS_TOOL_USERREQ('L', 'P', args[0]))
        return False;
    switch (args[0]) {
    case LP_VG_REQ_SAMPLING_ON: lp_vg_hps_trigger(LP_HPS_OP_ON); break;
    case LP_VG_REQ_SAMPLING_OFF: lp_vg_hps_trigger(LP_HPS_OP_OFF); break;
    default: return False;
    }
    lp_vg_hps_stat[LP_VG_HPS_CLIENT_REQUESTS]++;
    *ret = lp_vg_hps_on ? 1 : 0;
    return True;
}

/* ---- output ---- */

static void lp_vg_hps_add(lp_profile_set *set, unsigned type, lp_table *t)
{
    lp_profile *p = lp_profile_set_find(set, type, LP_PHASE_NONE);
    if (!p && lp_profile_set_add(set, type, LP_PHASE_NONE, &p) != 0)
        return;
    lp_table_merge(&p->table, t);
}

void lp_vg_hps_finish(lp_profile_set *set)
{
    if (!lp_vg_hps_on)
        return;
    lp_meta *m = &set->meta;
    if (lp_vg_hps_prof.code_region.count)
        lp_vg_hps_add(set, LP_PROF_CODE_REGION, &lp_vg_hps_prof.code_region);
    if (lp_vg_hps_prof.method.count)
        lp_vg_hps_add(set, LP_PROF_METHOD, &lp_vg_hps_prof.method);
    if (lp_vg_hps_prof.call_pair.count)
        lp_vg_hps_add(set, LP_PROF_CALL_PAIR, &lp_vg_hps_prof.call_pair);
    if (lp_vg_clo_ar_check) {
        lp_meta_set(m, "hps-mode", "software-framework");
        lp_bursty_stats st;
        lp_bursty_stats_get(&lp_vg_ar, &st);
        lp_vg_meta_u64(m, "ar-n-check", lp_vg_ar.n_check0);
        lp_vg_meta_u64(m, "ar-n-instr", lp_vg_ar.n_instr0);
        lp_vg_meta_u64(m, "ar-checks", st.checks);
        lp_vg_meta_u64(m, "ar-bursts", st.bursts);
    } else {
        lp_meta_set(m, "acf", lp_vg_clo_acf);
        lp_meta_set(m, "hps-mode", lp_vg_clo_dise ? "dise" : "hps");
        /* Replacements: DISE replaces every instruction a production could
         * match (each step); HPS only those whose flags matched. */
        lp_vg_meta_u64(m, "hps-replacements", lp_vg_clo_dise ? lp_vg_hps_stat[LP_VG_HPS_STEPS]
                                                             : lp_vg_hps_stat[LP_VG_HPS_REPLACEMENTS]);
        lp_vg_meta_u64(m, "hps-dise-steps", lp_vg_hps_stat[LP_VG_HPS_STEPS]);
        lp_vg_meta_u64(m, "hps-dise-handler-calls", lp_vg_hps_stat[LP_VG_HPS_DISE_CALLS]);
        lp_vg_meta_u64(m, "hps-software-uops", lp_vg_hps_state.uops);
        lp_vg_meta_u64(m, "hps-static-instructions", lp_vg_hps_stat[LP_VG_HPS_STATIC_INSNS]);
        lp_vg_meta_u64(m, "hps-triggers-on", lp_vg_hps_stat[LP_VG_HPS_TRIGGERS_ON]);
        lp_vg_meta_u64(m, "hps-triggers-off", lp_vg_hps_stat[LP_VG_HPS_TRIGGERS_OFF]);
        lp_vg_meta_u64(m, "hps-trigger-matches", lp_vg_hps_stat[LP_VG_HPS_TRIGGER_MATCHES]);
        lp_vg_meta_u64(m, "hps-client-requests", lp_vg_hps_stat[LP_VG_HPS_CLIENT_REQUESTS]);
        lp_vg_meta_u64(m, "hps-dropped-calls", lp_vg_hps_stat[LP_VG_HPS_DROPPED]);
        for (UInt c = 0; c < lp_vg_acf.ncounters; c++) {
            HChar key[32];
            VG_(sprintf)(key, "hps-counter-%u", c);
            lp_vg_meta_u64(m, key, lp_vg_hps_state.value[c]);
        }
    }
    lp_vg_meta_u64(m, "hps-branch-handler-calls", lp_vg_hps_prof.calls[LP_HPS_H_BRANCH]);
    lp_vg_meta_u64(m, "hps-method-handler-calls", lp_vg_hps_prof.calls[LP_HPS_H_METHOD]);
    lp_vg_meta_u64(m, "hps-call-pair-handler-calls", lp_vg_hps_prof.calls[LP_HPS_H_CALL_PAIR]);
    if (lp_vg_hps_prof.failed)
        lp_meta_set(m, "hps-error", "out of memory: some handler counts are missing");
}
