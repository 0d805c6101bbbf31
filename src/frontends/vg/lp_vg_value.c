/* The profiling co-processor in the Valgrind tool (Zilles and Sohi; model
 * and algorithm in src/value, doc/value.md): every load the program
 * retires is offered to the co-processor's filter with its value, and the
 * instructions between loads retire through the model's clock, so the
 * sample buffer drains and the interrupt handler's timers run as they
 * would beside a real main processor. At the end the final estimation
 * becomes the file's value profile (key (pc, value), estimated samples;
 * the share of values never active under (pc, LP_VALUE_OTHER)), and the
 * co-processor's costs go to the metadata.
 *
 * When the co-processor is the loads' only consumer, the filter is tested
 * inline, in the code Valgrind generates for each load, as the hardware
 * tests it at decode (lp_vg_value_ir): a load the filter rejects only
 * bumps a counter of its reason, and the helper is called for a load that
 * passes, or once the model may change the filter by itself (a timer due,
 * a buffered sample processed: lp_value_quiet), so an idle region is still
 * left on time.
 * Otherwise the load helper of lp_vg_run.c calls lp_vg_value_load for
 * every load.
 *
 * Either way the helper runs after the load and before the block's exit
 * helper has counted the block: instructions retire up to the end of the
 * previous block, one block late at most. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"

#include "lowprof/value.h"
#include "lp_vg.h"

static lp_value_profiler *lp_vg_coproc;
static ULong lp_vg_coproc_clock; /* instructions the model has retired */
static Bool lp_vg_coproc_failed;

/* The inline filter's side: loads it rejected since the helper last ran,
 * by reason (region, small table, done table; [3] is a load that passed,
 * counted by the model itself, and [4] a guarded load that did not
 * happen), and the instruction count at which the helper must next run. */
static ULong lp_vg_value_rejected[5];
static ULong lp_vg_value_due;
static lp_value_regs lp_vg_value_regs;

Bool lp_vg_value_on(void)
{
    return lp_vg_coproc != NULL;
}

void lp_vg_value_init(void)
{
    if (!lp_vg_clo_value_profiler)
        return;
    lp_value_options o;
    lp_value_options_default(&o);
    const HChar *opts = lp_vg_clo_value_profiler + 6; /* after "coproc" */
    if (*opts == ':')
        opts++;
    lp_value_parse_error err;
    if (*opts && lp_value_options_parse(opts, &o, &err) != 0)
        VG_(fmsg_bad_option)("--value-profiler", "at character %lu (%s): %s\n",
                             (unsigned long)err.offset + 1, err.field ? err.field : "name",
                             err.why ? err.why : "bad option");
    if (lp_value_create(&o, &lp_vg_coproc) != 0)
        VG_(fmsg_bad_option)("--value-profiler", "the co-processor refused its options\n");
    lp_value_get_regs(lp_vg_coproc, &lp_vg_value_regs);
    lp_vg_value_due = lp_value_quiet(lp_vg_coproc);
}

/* Hands the model the loads the inline filter rejected. */
static int lp_vg_value_flush(void)
{
    ULong *r = lp_vg_value_rejected;
    if (!(r[0] | r[1] | r[2]))
        return 0;
    int rc = lp_value_account(lp_vg_coproc, r[0], r[1], r[2]);
    r[0] = r[1] = r[2] = 0;
    return rc;
}

/* One load: the model first catches up with the loads rejected inline and
 * the instructions retired since; then the load is pushed (through its
 * site's constants when the caller has them), unless pc is 0. */
static void lp_vg_value_step(ULong pc, ULong value, const lp_value_site *site)
{
    if (lp_vg_coproc_failed)
        return;
    int rc = lp_vg_value_flush();
    if (rc == 0 && lp_vg_icount > lp_vg_coproc_clock) {
        rc = lp_value_retire(lp_vg_coproc, lp_vg_icount - lp_vg_coproc_clock);
        lp_vg_coproc_clock = lp_vg_icount;
    }
    if (rc == 0 && pc) {
        rc = site ? lp_value_push_site(lp_vg_coproc, pc, value, LP_VALUE_CLASS_LOAD, site)
                  : lp_value_push(lp_vg_coproc, pc, value, LP_VALUE_CLASS_LOAD);
        lp_vg_coproc_clock++;
    }
    if (rc != 0) {
        VG_(umsg)("lowprof: the co-processor model ran out of memory; it stops here\n");
        lp_vg_coproc_failed = True;
    }
}

VG_REGPARM(2) void lp_vg_value_load(ULong pc, ULong value)
{
    lp_vg_value_step(pc, value, NULL);
}

/* The helper the inline filter calls: with passed 0 only to let the
 * model's time pass. The site's constants come packed in two words, so the
 * call needs no memory of its own. */
static VG_REGPARM(3) void lp_vg_value_sync(ULong pc, ULong value, ULong passed, ULong hash_done,
                                           ULong ignore)
{
    if (!lp_vg_enabled) /* a fork child: the parent's recording is not its */
        return;
    lp_value_site site = {(uint32_t)hash_done, (uint32_t)ignore, (uint32_t)(hash_done >> 32)};
    lp_vg_value_step(passed ? pc : 0, value, &site);
    /* Only the inline filter needs to know when to call in next. */
    if (!lp_vg_coproc_failed)
        lp_vg_value_due = lp_vg_icount + lp_value_quiet(lp_vg_coproc);
}

static IRExpr *lp_vg_value_u64(ULong v)
{
    return IRExpr_Const(IRConst_U64(v));
}

/* Whether bit of the table word at addr is set, as an I1. */
static IRExpr *lp_vg_value_bit(IRSB *out, const uint64_t *word, UInt bit)
{
    IRExpr *w = lp_vg_tmp(out, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)word)));
    IRExpr *b = lp_vg_tmp(out, Ity_I64, IRExpr_Binop(Iop_And64, w, lp_vg_value_u64(1ULL << bit)));
    return lp_vg_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpNE64, b, lp_vg_value_u64(0)));
}

Bool lp_vg_value_inline(void)
{
    return lp_vg_coproc != NULL && (lp_vg_value_regs.classes & LP_VALUE_CLASS_LOAD);
}

void lp_vg_value_ir(IRSB *out, ULong pc, IRExpr *value, IRExpr *guard)
{
    lp_value_site s;
    lp_value_get_site(lp_vg_coproc, pc, &s);
    const lp_value_regs *r = &lp_vg_value_regs;
    IRExpr *mask = lp_vg_tmp(out, Ity_I32,
                             IRExpr_Load(Iend_LE, Ity_I32, mkIRExpr_HWord((HWord)r->mask)));
    IRExpr *match = lp_vg_tmp(out, Ity_I32,
                              IRExpr_Load(Iend_LE, Ity_I32, mkIRExpr_HWord((HWord)r->match)));
    IRExpr *h = lp_vg_tmp(out, Ity_I32,
                          IRExpr_Binop(Iop_And32, IRExpr_Const(IRConst_U32(s.region_hash)), mask));
    IRExpr *in = lp_vg_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpEQ32, h, match));
    IRExpr *ign = lp_vg_value_bit(out, r->ignore + (s.ignore_index >> 6), s.ignore_index & 63);
    IRExpr *done = lp_vg_value_bit(out, r->done + (s.done_index >> 6), s.done_index & 63);
    /* The filter's order: region, small table, done table. */
    IRExpr *k = lp_vg_tmp(out, Ity_I64,
                          IRExpr_ITE(done, lp_vg_value_u64(2), lp_vg_value_u64(3)));
    k = lp_vg_tmp(out, Ity_I64, IRExpr_ITE(ign, lp_vg_value_u64(1), k));
    k = lp_vg_tmp(out, Ity_I64, IRExpr_ITE(in, k, lp_vg_value_u64(0)));
    if (guard)
        k = lp_vg_tmp(out, Ity_I64, IRExpr_ITE(guard, k, lp_vg_value_u64(4)));
    /* Flat IR: every operand an atom, so each step gets its temporary. */
    IRExpr *off = lp_vg_tmp(out, Ity_I64, IRExpr_Binop(Iop_Shl64, k, IRExpr_Const(IRConst_U8(3))));
    IRExpr *slot = lp_vg_tmp(
        out, Ity_I64, IRExpr_Binop(Iop_Add64, mkIRExpr_HWord((HWord)lp_vg_value_rejected), off));
    IRExpr *old = lp_vg_tmp(out, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, slot));
    IRExpr *sum = lp_vg_tmp(out, Ity_I64, IRExpr_Binop(Iop_Add64, old, lp_vg_value_u64(1)));
    addStmtToIRSB(out, IRStmt_Store(Iend_LE, slot, sum));
    IRExpr *passed = lp_vg_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, k, lp_vg_value_u64(3)));
    IRExpr *due_at = lp_vg_tmp(
        out, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)&lp_vg_value_due)));
    IRExpr *now = lp_vg_tmp(out, Ity_I64,
                            IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)&lp_vg_icount)));
    IRExpr *due = lp_vg_tmp(out, Ity_I1, IRExpr_Binop(Iop_CmpLE64U, due_at, now));
    /* VEX has no Or1: or the two as 32-bit words. */
    IRExpr *p32 = lp_vg_tmp(out, Ity_I32, IRExpr_Unop(Iop_1Uto32, passed));
    IRExpr *d32 = lp_vg_tmp(out, Ity_I32, IRExpr_Unop(Iop_1Uto32, due));
    IRExpr *either = lp_vg_tmp(out, Ity_I32, IRExpr_Binop(Iop_Or32, p32, d32));
    IRExpr *call = lp_vg_tmp(out, Ity_I1,
                             IRExpr_Binop(Iop_CmpNE32, either, IRExpr_Const(IRConst_U32(0))));
    lp_vg_dirty_call(out, "lp_vg_value_sync", lp_vg_value_sync,
                     mkIRExprVec_5(mkIRExpr_HWord(pc), value,
                                   lp_vg_tmp(out, Ity_I64, IRExpr_Unop(Iop_1Uto64, passed)),
                                   lp_vg_value_u64(s.region_hash | (ULong)s.done_index << 32),
                                   lp_vg_value_u64(s.ignore_index)),
                     call);
}

/* "pc,pc,..." of the loads with flag, for the report. */
static void lp_vg_value_flagged(lp_meta *m, const HChar *key, uint32_t flag)
{
    SizeT cap = 256, len = 0;
    HChar *list = VG_(malloc)("lp.value", cap);
    list[0] = 0;
    size_t cursor = 0;
    lp_value_load ld;
    while (lp_value_estimate_next(lp_vg_coproc, &cursor, &ld) == 1) {
        if (!(ld.flags & flag))
            continue;
        if (len + 24 > cap) {
            cap *= 2;
            list = VG_(realloc)("lp.value", list, cap);
        }
        len += (SizeT)VG_(sprintf)(list + len, "%s%llx", len ? "," : "", (ULong)ld.pc);
    }
    lp_meta_set(m, key, list);
    VG_(free)(list);
}

void lp_vg_value_finish(lp_profile_set *set)
{
    if (!lp_vg_coproc)
        return;
    if (!lp_vg_coproc_failed && lp_vg_value_flush() != 0)
        lp_vg_coproc_failed = True;
    if (!lp_vg_coproc_failed && lp_vg_icount > lp_vg_coproc_clock)
        lp_value_retire(lp_vg_coproc, lp_vg_icount - lp_vg_coproc_clock);
    if (!lp_vg_coproc_failed && lp_value_finish(lp_vg_coproc) != 0)
        VG_(umsg)("lowprof: the co-processor's final interrupt ran out of memory\n");
    lp_value_stats st;
    lp_value_get_stats(lp_vg_coproc, &st);
    lp_meta *m = &set->meta;
    lp_meta_set(m, "value-profiler", lp_vg_clo_value_profiler);
    lp_vg_meta_u64(m, "coproc-loads", st.class_passed);
    lp_vg_meta_u64(m, "coproc-tagged", st.tagged);
    lp_vg_meta_u64(m, "coproc-samples", st.samples);
    lp_vg_meta_u64(m, "coproc-dropped", st.dropped_full);
    lp_vg_meta_u64(m, "coproc-failed", st.failed);
    lp_vg_meta_u64(m, "coproc-interrupts", st.interrupts);
    lp_vg_meta_u64(m, "coproc-replacements", st.replacements);
    lp_vg_meta_u64(m, "coproc-slots-copied", st.slots_copied);
    lp_vg_meta_u64(m, "coproc-masked", st.masked);
    lp_vg_meta_u64(m, "coproc-resampled", st.resampled);
    lp_vg_meta_u64(m, "coproc-done-rejected", st.done_rejected);
    lp_vg_meta_u64(m, "coproc-alias-pc", st.alias_pc);
    lp_vg_meta_u64(m, "coproc-alias-value", st.alias_value);
    lp_vg_meta_u64(m, "coproc-cycles", st.cycles);
    lp_vg_meta_u64(m, "coproc-coproc-cycles", st.coproc_cycles);
    lp_vg_meta_u64(m, "coproc-overhead-ppm",
                   lp_vg_icount ? (ULong)((double)st.cycles * 1e6 / (double)lp_vg_icount + 0.5)
                                : 0);
    lp_vg_value_flagged(m, "coproc-done-pcs", LP_VALUE_LOAD_DONE);
    lp_vg_value_flagged(m, "coproc-phased-pcs", LP_VALUE_LOAD_PHASED);
    lp_profile *p = lp_profile_set_find(set, LP_PROF_VALUE, LP_PHASE_NONE);
    if (!p && lp_profile_set_add(set, LP_PROF_VALUE, LP_PHASE_NONE, &p) != 0)
        return;
    lp_table_clear(&p->table);
    if (lp_value_table(lp_vg_coproc, &p->table, 1.0) != 0)
        VG_(umsg)("lowprof: out of memory writing the co-processor's estimates\n");
    lp_meta_set(m, "value-estimate", "coproc");
}
