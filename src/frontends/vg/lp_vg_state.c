/* The tool's shared state, in one place: the options every part reads
 * (clo_*, set by lp_vg_main.c's option parser), the running counts, and
 * the per-part state other parts look at, as lp_vg.h declares them. Parts
 * call one another one way (main drives instrumentation, the run-time
 * helpers and the output; instrumentation asks HPS; the output finishes
 * the phase, tuple and HPS parts), so no part owns what another reads. */
#include "pub_tool_basics.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#include "lp_vg.h"

/* options of lp_vg_main.c */
const HChar *lp_vg_clo_out = "lowprof.lpprof";
const HChar *lp_vg_clo_imatrix = NULL;
const HChar *lp_vg_clo_trace = NULL;
ULong lp_vg_clo_interval = LP_DEFAULT_INTERVAL;
ULong lp_vg_clo_trace_limit = 10000000;
UInt lp_vg_clo_trace_kinds = (1u << LP_EV_BRANCH) | (1u << LP_EV_CALL) | (1u << LP_EV_RETURN) |
                             (1u << LP_EV_BLOCK) | (1u << LP_EV_LOAD) | (1u << LP_EV_STORE);
UInt lp_vg_clo_types = (1u << LP_PROF_CODE_REGION) | (1u << LP_PROF_METHOD) |
                       (1u << LP_PROF_CALL_PAIR) | (1u << LP_PROF_EDGE) | (1u << LP_PROF_BLOCK);
Bool lp_vg_clo_progress = False;
Bool lp_vg_clo_skip_plt = True;

/* the running counts (lp_vg_run.c) */
ULong lp_vg_icount;
ULong lp_vg_carry;
Bool lp_vg_enabled = True;
lp_vg_thread *lp_vg_cur;
ULong lp_vg_counters[8];
lp_table *lp_vg_values;

/* HPS (lp_vg_hps.c) */
const HChar *lp_vg_clo_acf = NULL;
const HChar *lp_vg_clo_acf_sets[LP_VG_HPS_MAX_SETS];
UInt lp_vg_clo_acf_nsets = 0;
Bool lp_vg_clo_dise = False;
ULong lp_vg_clo_ar_check = 0, lp_vg_clo_ar_instr = 0;
Bool lp_vg_hps_on = False;

/* the stream compressor (lp_vg_tuples.c) */
const HChar *lp_vg_clo_compressor = NULL;
UInt lp_vg_clo_tuples = 0;
ULong lp_vg_clo_seed = 1;
lp_cost_model lp_vg_clo_cost = LP_COST_MODEL_DEFAULT;
lp_compressor *lp_vg_compressor;
lp_tuple lp_vg_tuple_buf[LP_VG_TUPLE_BATCH];
UInt lp_vg_tuple_count;

/* interval strategies (lp_vg_phase.c) */
const HChar *lp_vg_clo_strategy = NULL;
lp_phase_tracker_config lp_vg_clo_tracker = {0};
lp_phase_daemon_config lp_vg_clo_daemon = {0};
UInt lp_vg_sampling = 1;
Bool lp_vg_strategy_on = False;

/* output (lp_vg_out.c) */
lp_interval lp_vg_iv;
lp_phase_wide lp_vg_wide;
lp_interval_cutter lp_vg_cutter;
lp_profile_set lp_vg_totals;

/* bursty tracing (lp_vg_bursty.c) */
ULong lp_vg_clo_bursty_check = 0, lp_vg_clo_bursty_instr = 0;
const HChar *lp_vg_clo_checks = NULL;
const HChar *lp_vg_clo_placement = NULL;
ULong lp_vg_clo_streams_limit = 16u << 20;
Bool lp_vg_bursty_on = False;

/* the co-processor (lp_vg_value.c) */
const HChar *lp_vg_clo_value_profiler = NULL;

/* A number as a metadata value: every part that writes metadata uses it. */
void lp_vg_meta_u64(lp_meta *m, const HChar *key, ULong v)
{
    HChar buf[32];
    VG_(sprintf)(buf, "%llu", v);
    lp_meta_set(m, key, buf);
}

/* Reads a whole file (an ACF, a checks file) into Valgrind's heap. */
HChar *lp_vg_read_file(const HChar *path, SizeT *out_len)
{
    SysRes r = VG_(open)(path, VKI_O_RDONLY, 0);
    if (sr_isError(r))
        return NULL;
    Int fd = (Int)sr_Res(r);
    SizeT cap = 4096, len = 0;
    HChar *buf = VG_(malloc)("lp.file", cap);
    for (;;) {
        if (len == cap) {
            cap *= 2;
            buf = VG_(realloc)("lp.file", buf, cap);
        }
        Int n = VG_(read)(fd, buf + len, (Int)(cap - len));
        if (n <= 0)
            break;
        len += (SizeT)n;
    }
    VG_(close)(fd);
    *out_len = len;
    return buf;
}
