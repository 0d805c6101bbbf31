/* Translation time: where DBI plays the decoder. Each superblock is scanned
 * once; every way out of it (each side exit and the final jump) becomes a
 * site whose static facts are settled here: which instruction is the branch,
 * its kind, how many instructions ran up to it, its signature bucket, and
 * whether taking it is a backward branch or a tail call. A dirty call guarded
 * like the exit itself runs the site's helper, so exactly one helper runs per
 * superblock execution.
 *
 * Chasing is off (lp_vg_main.c), so VEX ends a superblock at every control
 * transfer and a conditional branch is the block's last instruction: one
 * side exit plus the final jump, one to the target and one to the
 * fall-through (VEX may invert the condition). Side exits elsewhere are
 * rep-string steps or synthesised faults, which are not program branches. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"

#include "lp_vg.h"

typedef struct lp_vg_insn {
    ULong addr;
    UInt len;
} lp_vg_insn;

typedef struct lp_vg_ctx {
    IRSB *out;
    const VexGuestLayout *layout;
    lp_vg_block *block;
    ULong block_start;
    Bool profiling; /* any profile type: otherwise signature-only helpers */
} lp_vg_ctx;

static IRExpr *lp_vg_sp(lp_vg_ctx *c)
{
    return lp_vg_tmp(c->out, Ity_I64, IRExpr_Get(c->layout->offset_SP, Ity_I64));
}

/* Whether a direct jump from pc to dst enters another function. */
static Bool lp_vg_is_tail_jump(ULong pc, ULong dst)
{
    if (!lp_vg_is_function_entry(dst))
        return False;
    DiEpoch ep = VG_(current_DiEpoch)();
    const HChar *name;
    HChar from[256];
    if (!VG_(get_fnname)(ep, pc, &name))
        return True;
    VG_(strncpy)(from, name, sizeof from - 1);
    from[sizeof from - 1] = 0;
    if (!VG_(get_fnname)(ep, dst, &name))
        return True;
    return VG_(strcmp)(from, name) != 0;
}

_Static_assert(LP_PHASE_WIDE_BUCKETS <= 256, "a site keeps its wide bucket in a UChar");

static lp_vg_site *lp_vg_make_site(lp_vg_ctx *c, lp_vg_exit_kind kind, const lp_vg_insn *insn,
                                   UInt ninsns, ULong dst)
{
    lp_vg_site *s = lp_vg_site_new();
    s->kind = (UChar)kind;
    s->ninsns = ninsns;
    s->dst = dst;
    s->block = c->block;
    s->sig_bucket = (UChar)lp_phase_wide_bucket(insn->addr);
    if (kind != LP_VG_NONBRANCH && c->profiling) {
        lp_vg_branch *b = lp_vg_branch_get(insn->addr);
        b->kind = (UChar)kind;
        b->fallthrough = insn->addr + insn->len;
        if (dst && kind != LP_VG_COND)
            b->target = dst;
        if (kind == LP_VG_COND && dst != b->fallthrough)
            b->target = dst;
        if (kind == LP_VG_IJUMP || kind == LP_VG_CALL || kind == LP_VG_RET)
            b->dyn_edges = 1;
        s->branch = b;
    }
    if (kind == LP_VG_COND)
        s->taken = dst != insn->addr + insn->len;
    if ((kind == LP_VG_COND && s->taken) || kind == LP_VG_JUMP)
        s->backward = dst <= insn->addr;
    /* Settled here, so that at run time only an indirect transfer asks
     * where its destination lies (lp_vg_run.c). */
    if (lp_vg_clo_skip_plt && c->profiling && kind != LP_VG_NONBRANCH && kind != LP_VG_RET) {
        s->from_plt = lp_vg_in_plt(insn->addr);
        s->to_plt = dst ? lp_vg_in_plt(dst) : 2;
    }
    return s;
}

/* The value a load produced, widened to 64 bits (vectors: their low 64
 * bits), or NULL for types lowprof does not profile. */
static IRExpr *lp_vg_widen(IRSB *out, IRExpr *v, IRType ty)
{
    switch (ty) {
    case Ity_I8: return lp_vg_tmp(out, Ity_I64, IRExpr_Unop(Iop_8Uto64, v));
    case Ity_I16: return lp_vg_tmp(out, Ity_I64, IRExpr_Unop(Iop_16Uto64, v));
    case Ity_I32: return lp_vg_tmp(out, Ity_I64, IRExpr_Unop(Iop_32Uto64, v));
    case Ity_I64: return v;
    case Ity_F32: {
        IRExpr *i = lp_vg_tmp(out, Ity_I32, IRExpr_Unop(Iop_ReinterpF32asI32, v));
        return lp_vg_tmp(out, Ity_I64, IRExpr_Unop(Iop_32Uto64, i));
    }
    case Ity_F64: return lp_vg_tmp(out, Ity_I64, IRExpr_Unop(Iop_ReinterpF64asI64, v));
    case Ity_V128: return lp_vg_tmp(out, Ity_I64, IRExpr_Unop(Iop_V128to64, v));
    case Ity_V256: return lp_vg_tmp(out, Ity_I64, IRExpr_Unop(Iop_V256to64_0, v));
    default: return NULL;
    }
}

/* coproc_only: the co-processor is the loads' only consumer, so its
 * filter is tested inline and the helper called only when it passes. */
static void lp_vg_instrument_load(IRSB *out, ULong pc, IRExpr *addr, IRTemp dst, IRExpr *guard,
                                  Bool coproc_only)
{
    IRType ty = typeOfIRTemp(out->tyenv, dst);
    IRExpr *v = lp_vg_widen(out, IRExpr_RdTmp(dst), ty);
    if (!v)
        return;
    lp_vg_counters[LP_VG_STAT_LOAD_SITES]++;
    if (coproc_only) {
        lp_vg_value_ir(out, pc, v, guard);
        return;
    }
    lp_vg_dirty_call(out, "lp_vg_on_load", lp_vg_on_load,
                mkIRExprVec_4(mkIRExpr_HWord(pc), addr, v, mkIRExpr_HWord(sizeofIRType(ty))),
                guard);
}

static void lp_vg_instrument_store(IRSB *out, ULong pc, IRExpr *addr, IRExpr *data, IRExpr *guard)
{
    IRType ty = typeOfIRExpr(out->tyenv, data);
    lp_vg_dirty_call(out, "lp_vg_on_store", lp_vg_on_store,
                mkIRExprVec_3(mkIRExpr_HWord(pc), addr, mkIRExpr_HWord(sizeofIRType(ty))), guard);
}

/* Whether the final instruction is a conditional branch: its one side exit
 * and the block's final jump go to the fall-through and somewhere else that
 * is not the instruction itself (a rep-string step jumps to itself). */
static Bool lp_vg_last_is_cond(const IRSB *sb, const lp_vg_insn *last, Int last_imark)
{
    const IRStmt *exit = NULL;
    for (Int i = last_imark + 1; i < sb->stmts_used; i++) {
        if (sb->stmts[i]->tag != Ist_Exit)
            continue;
        if (exit)
            return False;
        exit = sb->stmts[i];
    }
    if (!exit || exit->Ist.Exit.jk != Ijk_Boring || sb->jumpkind != Ijk_Boring ||
        sb->next->tag != Iex_Const)
        return False;
    ULong a = exit->Ist.Exit.dst->Ico.U64, b = sb->next->Iex.Const.con->Ico.U64;
    ULong ft = last->addr + last->len;
    ULong other = a == ft ? b : b == ft ? a : 0;
    return other && other != ft && other != last->addr;
}

/* A direct jump, or the taken side of a conditional branch, that enters
 * another function is a tail call: its helper maintains the shadow stack
 * and counts the call, and its edge is counted there too. */
static void lp_vg_mark_tail(lp_vg_ctx *c, lp_vg_site *s, ULong pc)
{
    if (!c->profiling || !(s->kind == LP_VG_JUMP || (s->kind == LP_VG_COND && s->taken)))
        return;
    s->tail = lp_vg_is_tail_jump(pc, s->dst);
    /* A jump into a PLT stub ("jmp free@plt"): under --skip-plt its helper
     * defers the tail call until the stub jumps to free (lp_vg_run.c). */
    if (!s->tail && lp_vg_clo_skip_plt && lp_vg_in_plt(s->dst) && !lp_vg_in_plt(pc))
        s->tail = 1;
    if (s->tail)
        s->branch->tail_taken = 1;
}

/* A bursty-tracing check on a loop back-edge: runs when the branch goes to
 * dst (taken or falling through, whichever side closes the loop), before
 * the site's helper, so the next iteration runs in the mode the check
 * chose. */
static void lp_vg_add_backedge_check(lp_vg_ctx *c, const lp_vg_insn *insn, ULong dst,
                                     IRExpr *guard)
{
    if (!lp_vg_bursty_on || !dst || !lp_vg_bursty_backedge_check(insn->addr, dst))
        return;
    lp_vg_dirty_call(c->out, "lp_vg_bursty_check", lp_vg_bursty_check, mkIRExprVec_0(), guard);
}

static void lp_vg_add_exit_call(lp_vg_ctx *c, lp_vg_site *s, IRExpr *dst, IRExpr *guard)
{
    IRExpr *site = mkIRExpr_HWord((HWord)s);
    if (!c->profiling) {
        lp_vg_dirty_call(c->out, "lp_vg_on_static_sig", lp_vg_on_static_sig, mkIRExprVec_1(site), guard);
        return;
    }
    Bool moves_stack = s->kind == LP_VG_CALL || s->kind == LP_VG_RET ||
                       s->kind == LP_VG_IJUMP || s->tail;
    if ((lp_vg_strategy_on || lp_vg_bursty_on) && !moves_stack) {
        /* Conditional replacement: the profiling helper runs only while
         * the daemon's flag is set, the signature helper only while it is
         * clear. Both guards come from one load of the flag, so a cut in
         * the first helper cannot make the second run as well. Calls,
         * returns and tail jumps always run their helper, which checks the
         * flag itself and keeps the shadow stack while it is clear. */
        IRExpr *flag = lp_vg_tmp(
            c->out, Ity_I32, IRExpr_Load(Iend_LE, Ity_I32, mkIRExpr_HWord((HWord)&lp_vg_sampling)));
        IRExpr *on = lp_vg_tmp(c->out, Ity_I1,
                               IRExpr_Binop(Iop_CmpNE32, flag, IRExpr_Const(IRConst_U32(0))));
        IRExpr *off = lp_vg_tmp(c->out, Ity_I1, IRExpr_Unop(Iop_Not1, on));
        if (guard) {
            on = lp_vg_tmp(c->out, Ity_I1, IRExpr_Binop(Iop_And1, guard, on));
            off = lp_vg_tmp(c->out, Ity_I1, IRExpr_Binop(Iop_And1, guard, off));
        }
        lp_vg_dirty_call(c->out, "lp_vg_on_static_sig", lp_vg_on_static_sig, mkIRExprVec_1(site), off);
        guard = on;
    }
    switch (s->kind) {
    case LP_VG_CALL:
        lp_vg_dirty_call(c->out, "lp_vg_on_call", lp_vg_on_call, mkIRExprVec_3(site, dst, lp_vg_sp(c)),
                    guard);
        break;
    case LP_VG_RET:
        lp_vg_dirty_call(c->out, "lp_vg_on_ret", lp_vg_on_ret, mkIRExprVec_3(site, dst, lp_vg_sp(c)),
                    guard);
        break;
    case LP_VG_IJUMP:
        lp_vg_dirty_call(c->out, "lp_vg_on_ijump", lp_vg_on_ijump,
                    mkIRExprVec_3(site, dst, lp_vg_sp(c)), guard);
        break;
    case LP_VG_COND: /* the taken side of a conditional tail call */
    case LP_VG_JUMP:
        if (s->tail) {
            lp_vg_dirty_call(c->out, "lp_vg_on_ijump", lp_vg_on_ijump,
                        mkIRExprVec_3(site, dst, lp_vg_sp(c)), guard);
            break;
        }
        /* fall through */
    default:
        lp_vg_dirty_call(c->out, "lp_vg_on_static", lp_vg_on_static, mkIRExprVec_1(site), guard);
        break;
    }
}

/* *addr += delta, as IR; returns the new value. */
static IRExpr *lp_vg_add_u64(IRSB *out, void *addr, IRExpr *delta)
{
    IRExpr *a = mkIRExpr_HWord((HWord)addr);
    IRExpr *old = lp_vg_tmp(out, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, a));
    IRExpr *sum = lp_vg_tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, old, delta));
    addStmtToIRSB(out, IRStmt_Store(Iend_LE, a, sum));
    return sum;
}

/* The signature-only work of a block, inline: count its instructions,
 * then either add them (with the carry) to the branch's bucket or carry
 * them to the next branch, and call the cutter only when an interval is
 * due. Inline IR instead of a helper call is what makes recording the
 * matrix alone cheap. */
static void lp_vg_inline_sig(IRSB *out, Bool branch, UInt ninsns, unsigned bucket)
{
    IRExpr *n = IRExpr_Const(IRConst_U64(ninsns));
    IRExpr *icount = lp_vg_add_u64(out, &lp_vg_icount, n);
    if (branch) {
        IRExpr *carry = lp_vg_tmp(out, Ity_I64,
                                  IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)&lp_vg_carry)));
        IRExpr *since = lp_vg_tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, carry, n));
        lp_vg_add_u64(out, &lp_vg_wide.bucket[bucket], since);
        addStmtToIRSB(out, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&lp_vg_carry),
                                        IRExpr_Const(IRConst_U64(0))));
    } else {
        lp_vg_add_u64(out, &lp_vg_carry, n);
    }
    IRExpr *cut = lp_vg_tmp(
        out, Ity_I64,
        IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)&lp_vg_cutter.next_cut)));
    IRExpr *due = lp_vg_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpLE64U, cut, icount));
    lp_vg_dirty_call(out, "lp_vg_sig_cut", lp_vg_sig_cut, mkIRExprVec_0(), due);
}

/* Whether every exit of the block does the same signature work, so that it
 * can be done once, unconditionally, before the first exit: true unless a
 * side exit sits before the last instruction, or the last instruction's
 * side exits are non-branches (a fault, a rep step) while the final jump is
 * a branch. A conditional branch's two sides share pc and length. */
static Bool lp_vg_sig_uniform(const IRSB *sb, Int last_imark, Bool cond, lp_vg_exit_kind final)
{
    Bool side = False;
    for (Int i = 0; i < sb->stmts_used; i++) {
        if (sb->stmts[i]->tag != Ist_Exit)
            continue;
        if (i < last_imark)
            return False;
        side = True;
    }
    return !side || cond || final == LP_VG_NONBRANCH;
}

/* Whether the instruction at addr is an unconditional direct jmp (rel8 or
 * rel32, after any branch-hint, bnd or notrack prefixes). Needed because a
 * jmp to the very next instruction looks, in IR, exactly like a block that
 * VEX cut at its size limit. Guest code is mapped while it is translated. */
static Bool lp_vg_is_direct_jmp(ULong addr, UInt len)
{
    const UChar *p = (const UChar *)(Addr)addr;
    UInt i = 0;
    while (i + 1 < len && (p[i] == 0xF2 || p[i] == 0xF3 || p[i] == 0x2E || p[i] == 0x3E))
        i++;
    return (p[i] == 0xEB && len - i == 2) || (p[i] == 0xE9 && len - i == 5);
}

/* Classifies the final jump of a block whose last instruction is last. */
static lp_vg_exit_kind lp_vg_final_kind(const IRSB *sb, const lp_vg_insn *last, Bool cond)
{
    if (cond)
        return LP_VG_COND;
    switch (sb->jumpkind) {
    case Ijk_Call: return LP_VG_CALL;
    case Ijk_Ret: return LP_VG_RET;
    case Ijk_Boring:
        if (sb->next->tag != Iex_Const)
            return LP_VG_IJUMP;
        {
            ULong d = sb->next->Iex.Const.con->Ico.U64;
            /* Falling off a size-limited block, or a rep-string step,
             * unless the instruction really is a jmp (to itself or to the
             * next instruction). */
            if ((d == last->addr + last->len || d == last->addr) &&
                !lp_vg_is_direct_jmp(last->addr, last->len))
                return LP_VG_NONBRANCH;
        }
        return LP_VG_JUMP;
    default: return LP_VG_NONBRANCH; /* syscalls, client requests, yields, faults */
    }
}

/* What the HPS decoder sees of each instruction of the block: its classes
 * (a control transfer is always the last instruction), its static target,
 * and whether its IR loads or stores. Returns how many were described. */
#define LP_VG_HPS_MAX_INSNS 128
static lp_hps_insn lp_vg_hps_insns[LP_VG_HPS_MAX_INSNS];

static UInt lp_vg_hps_describe(const IRSB *sb, lp_vg_exit_kind final)
{
    UInt n = 0, last_len = 0;
    lp_hps_insn *in = NULL;
    ULong exit_dst = 0;
    for (Int i = 0; i < sb->stmts_used; i++) {
        const IRStmt *st = sb->stmts[i];
        switch (st->tag) {
        case Ist_IMark:
            if (n == LP_VG_HPS_MAX_INSNS)
                return n;
            in = &lp_vg_hps_insns[n++];
            VG_(memset)(in, 0, sizeof *in);
            in->pc = st->Ist.IMark.addr + (ULong)st->Ist.IMark.delta;
            last_len = st->Ist.IMark.len;
            break;
        case Ist_WrTmp:
            if (in && st->Ist.WrTmp.data->tag == Iex_Load)
                in->classes |= LP_HPS_LOAD;
            break;
        case Ist_LoadG:
            if (in)
                in->classes |= LP_HPS_LOAD;
            break;
        case Ist_Store:
        case Ist_StoreG:
            if (in)
                in->classes |= LP_HPS_STORE;
            break;
        case Ist_CAS:
        case Ist_LLSC:
            if (in)
                in->classes |= LP_HPS_LOAD | LP_HPS_STORE;
            break;
        case Ist_Exit:
            exit_dst = st->Ist.Exit.dst->Ico.U64;
            break;
        default: break;
        }
    }
    if (!n)
        return 0;
    ULong next = sb->next->tag == Iex_Const ? sb->next->Iex.Const.con->Ico.U64 : 0;
    {
        in = &lp_vg_hps_insns[n - 1];
        ULong ft = in->pc + last_len;
        switch (final) {
        case LP_VG_COND:
            in->classes |= LP_HPS_COND;
            in->target = exit_dst == ft ? next : exit_dst;
            in->has_target = 1;
            break;
        case LP_VG_JUMP:
            in->classes |= LP_HPS_JUMP;
            in->target = next;
            in->has_target = 1;
            break;
        case LP_VG_IJUMP: in->classes |= LP_HPS_IJUMP; break;
        case LP_VG_CALL:
            in->classes |= next ? LP_HPS_CALL : LP_HPS_ICALL;
            in->target = next;
            in->has_target = next != 0;
            break;
        case LP_VG_RET: in->classes |= LP_HPS_RET; break;
        default: break;
        }
    }
    return n;
}

IRSB *lp_vg_instrument(VgCallbackClosure *closure, IRSB *sb_in,
                       const VexGuestLayout *layout, const VexGuestExtents *vge,
                       const VexArchInfo *archinfo_host, IRType gWordTy, IRType hWordTy)
{
    (void)closure;
    (void)vge;
    (void)archinfo_host;
    if (gWordTy != Ity_I64 || hWordTy != Ity_I64)
        VG_(tool_panic)((HChar *)"lowprof: only 64-bit guests are supported");

    /* Pass 1: the instructions. */
    Int ninsns = 0, last_imark = -1;
    lp_vg_insn first = {0, 0}, last = {0, 0};
    for (Int i = 0; i < sb_in->stmts_used; i++) {
        const IRStmt *st = sb_in->stmts[i];
        if (st->tag != Ist_IMark)
            continue;
        lp_vg_insn in = {st->Ist.IMark.addr + (ULong)st->Ist.IMark.delta, st->Ist.IMark.len};
        if (!ninsns)
            first = in;
        last = in;
        last_imark = i;
        ninsns++;
    }
    if (!ninsns || !lp_vg_enabled)
        return sb_in;

    lp_vg_ctx c = {.layout = layout, .block_start = first.addr,
                   .profiling = lp_vg_clo_types != 0 ||
                                (lp_vg_clo_tuples & ~(1u << LP_TUPLE_VALUE)) != 0};
    c.out = deepCopyIRSBExceptStmts(sb_in);
    c.block = c.profiling ? lp_vg_block_get(first.addr) : NULL;
    Bool cond = lp_vg_last_is_cond(sb_in, &last, last_imark);
    Bool other_values = (lp_vg_clo_types & (1u << LP_PROF_VALUE)) != 0 ||
                        (lp_vg_clo_tuples & (1u << LP_TUPLE_VALUE)) != 0;
    Bool values = other_values || lp_vg_value_on();
    Bool trace_loads = (lp_vg_clo_trace && (lp_vg_clo_trace_kinds & (1u << LP_EV_LOAD))) ||
                       lp_vg_streams_wanted();
    Bool coproc_only = !other_values && !trace_loads && lp_vg_value_inline();
    Bool trace_stores = (lp_vg_clo_trace && (lp_vg_clo_trace_kinds & (1u << LP_EV_STORE))) ||
                        lp_vg_streams_wanted();
    lp_vg_exit_kind final = lp_vg_final_kind(sb_in, &last, cond);
    /* Signature-only blocks whose exits agree get inline IR instead of
     * helper calls; sig_pending stays set until that IR is emitted. */
    Bool sig_inline_ok = !c.profiling && !lp_vg_bursty_on &&
                         lp_vg_sig_uniform(sb_in, last_imark, cond, final);
    Bool sig_pending = sig_inline_ok;
    UInt hps_n = 0;
    if (lp_vg_hps_on) {
        lp_vg_hps_block_begin();
        hps_n = lp_vg_hps_describe(sb_in, final);
    }
    const lp_hps_insn *hps_last = hps_n ? &lp_vg_hps_insns[hps_n - 1] : NULL;
    /* A procedure entry with a bursty-tracing check runs it first. */
    Bool entry_check = lp_vg_bursty_entry_check(first.addr);

    /* Pass 2: copy, adding a guarded helper before each side exit and after
     * each load (and store, when tracing). */
    lp_vg_insn cur = {0, 0};
    UInt k = 0;
    for (Int i = 0; i < sb_in->stmts_used; i++) {
        IRStmt *st = sb_in->stmts[i];
        switch (st->tag) {
        case Ist_IMark:
            cur.addr = st->Ist.IMark.addr + (ULong)st->Ist.IMark.delta;
            cur.len = st->Ist.IMark.len;
            k++;
            addStmtToIRSB(c.out, st);
            if (k == 1 && entry_check)
                lp_vg_dirty_call(c.out, "lp_vg_bursty_check", lp_vg_bursty_check,
                                 mkIRExprVec_0(), NULL);
            if (k <= hps_n)
                lp_vg_hps_insn(c.out, &lp_vg_hps_insns[k - 1], k);
            break;
        case Ist_Exit: {
            ULong dst = st->Ist.Exit.dst->Ico.U64;
            if (hps_last && k == hps_n && i > last_imark)
                lp_vg_hps_exit(c.out, dst, st->Ist.Exit.guard, hps_last);
            if (sig_pending) {
                lp_vg_inline_sig(c.out, final != LP_VG_NONBRANCH, (UInt)ninsns,
                                 lp_phase_wide_bucket(last.addr));
                sig_pending = False;
            }
            if (sig_inline_ok) {
                addStmtToIRSB(c.out, st);
                break;
            }
            lp_vg_exit_kind kind = LP_VG_NONBRANCH;
            if (cond && i > last_imark) {
                kind = LP_VG_COND;
            } else if (st->Ist.Exit.jk == Ijk_Boring && dst != cur.addr &&
                       dst != cur.addr + cur.len) {
                /* Not expected with chasing off; counted so a report can
                 * say if a VEX change ever breaks the assumption. */
                lp_vg_counters[LP_VG_STAT_MID_BRANCH_EXITS]++;
                kind = LP_VG_COND;
            }
            lp_vg_site *s = lp_vg_make_site(&c, kind, &cur, k, dst);
            lp_vg_mark_tail(&c, s, cur.addr);
            if (kind == LP_VG_COND)
                lp_vg_add_backedge_check(&c, &cur, dst, st->Ist.Exit.guard);
            lp_vg_add_exit_call(&c, s, mkIRExpr_HWord(dst), st->Ist.Exit.guard);
            addStmtToIRSB(c.out, st);
            break;
        }
        case Ist_WrTmp:
            addStmtToIRSB(c.out, st);
            if ((values || trace_loads) && st->Ist.WrTmp.data->tag == Iex_Load)
                lp_vg_instrument_load(c.out, cur.addr, st->Ist.WrTmp.data->Iex.Load.addr,
                                      st->Ist.WrTmp.tmp, NULL, coproc_only);
            break;
        case Ist_LoadG:
            addStmtToIRSB(c.out, st);
            if (values || trace_loads)
                lp_vg_instrument_load(c.out, cur.addr, st->Ist.LoadG.details->addr,
                                      st->Ist.LoadG.details->dst, st->Ist.LoadG.details->guard,
                                      coproc_only);
            break;
        case Ist_Store:
            addStmtToIRSB(c.out, st);
            if (trace_stores)
                lp_vg_instrument_store(c.out, cur.addr, st->Ist.Store.addr, st->Ist.Store.data,
                                       NULL);
            break;
        case Ist_StoreG:
            addStmtToIRSB(c.out, st);
            if (trace_stores)
                lp_vg_instrument_store(c.out, cur.addr, st->Ist.StoreG.details->addr,
                                       st->Ist.StoreG.details->data,
                                       st->Ist.StoreG.details->guard);
            break;
        default:
            addStmtToIRSB(c.out, st);
            break;
        }
    }

    if (hps_last && hps_n == (UInt)ninsns)
        lp_vg_hps_end(c.out, sb_in->next, hps_last);
    if (sig_inline_ok) {
        if (sig_pending)
            lp_vg_inline_sig(c.out, final != LP_VG_NONBRANCH, (UInt)ninsns,
                             lp_phase_wide_bucket(last.addr));
        return c.out;
    }
    lp_vg_exit_kind kind = final;
    ULong dst = sb_in->next->tag == Iex_Const ? sb_in->next->Iex.Const.con->Ico.U64 : 0;
    lp_vg_site *s = lp_vg_make_site(&c, kind, &last, (UInt)ninsns, dst);
    lp_vg_mark_tail(&c, s, last.addr);
    if (kind == LP_VG_COND || kind == LP_VG_JUMP)
        lp_vg_add_backedge_check(&c, &last, dst, NULL);
    lp_vg_add_exit_call(&c, s, sb_in->next, NULL);
    return c.out;
}
