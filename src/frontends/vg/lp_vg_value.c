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
 * The engine sees loads only through the tool's load helper, which runs
 * after the load and before the block's exit helper has counted the
 * block: instructions retire up to the end of the previous block, one
 * block late at most. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"

#include "lowprof/value.h"
#include "lp_vg.h"

static lp_value_profiler *lp_vg_coproc;
static ULong lp_vg_coproc_clock; /* instructions the model has retired */
static Bool lp_vg_coproc_failed;

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
}

VG_REGPARM(2) void lp_vg_value_load(ULong pc, ULong value)
{
    if (lp_vg_coproc_failed)
        return;
    int rc = 0;
    if (lp_vg_icount > lp_vg_coproc_clock) {
        rc = lp_value_retire(lp_vg_coproc, lp_vg_icount - lp_vg_coproc_clock);
        lp_vg_coproc_clock = lp_vg_icount;
    }
    if (rc == 0)
        rc = lp_value_push(lp_vg_coproc, pc, value, LP_VALUE_CLASS_LOAD);
    lp_vg_coproc_clock++;
    if (rc != 0) {
        VG_(umsg)("lowprof: the co-processor model ran out of memory; it stops here\n");
        lp_vg_coproc_failed = True;
    }
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
    if (!lp_vg_coproc_failed && lp_vg_icount > lp_vg_coproc_clock)
        lp_value_retire(lp_vg_coproc, lp_vg_icount - lp_vg_coproc_clock);
    if (!lp_vg_coproc_failed && lp_value_finish(lp_vg_coproc) != 0)
        VG_(umsg)("lowprof: the co-processor's final interrupt ran out of memory\n");
    lp_value_stats st;
    lp_value_get_stats(lp_vg_coproc, &st);
    lp_meta *m = &set->meta;
    lp_meta_set(m, "value-profiler", lp_vg_clo_value_profiler);
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
