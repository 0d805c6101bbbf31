/* The lowprof Valgrind tool: registration, options and the thread and fork
 * hooks. Collection only; symbolization and reports are the CLI's, which
 * reads the files this tool writes (as cachegrind leaves analysis to
 * cg_annotate). Normally started by `lowprof record`, which passes these
 * options and reads Valgrind's log for progress lines. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"

#include "lp_vg.h"

/* Core's shim in this environment: Valgrind's allocator. */
static void *lp_vg_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return VG_(malloc)("lp.core", size);
}

static void *lp_vg_realloc(void *ctx, void *p, size_t old_size, size_t new_size)
{
    (void)ctx;
    (void)old_size;
    return VG_(realloc)("lp.core", p, new_size);
}

static void lp_vg_free(void *ctx, void *p)
{
    (void)ctx;
    VG_(free)(p);
}

const lp_allocator lp__default_allocator = {lp_vg_alloc, lp_vg_realloc, lp_vg_free, NULL};

/* "code-region,method,..." or "none" to a type mask; False if a name is bad. */
static Bool lp_vg_parse_types(const HChar *s, UInt *out)
{
    UInt mask = 0;
    if (VG_(strcmp)(s, "none") == 0) {
        *out = 0;
        return True;
    }
    while (*s) {
        const HChar *e = s;
        while (*e && *e != ',')
            e++;
        unsigned t = lp_profile_type_parse(s, (size_t)(e - s));
        if (!t)
            return False;
        mask |= 1u << t;
        s = *e ? e + 1 : e;
    }
    *out = mask;
    return True;
}

/* "branch,load,..." to an event-kind mask; False if a name is bad. */
static Bool lp_vg_parse_kinds(const HChar *s, UInt *out)
{
    static const HChar *const names[] = {NULL, "branch", "call", "return", "block", "load", "store"};
    UInt mask = 0;
    while (*s) {
        const HChar *e = s;
        while (*e && *e != ',')
            e++;
        UInt found = 0;
        for (UInt k = 1; k < sizeof names / sizeof names[0]; k++)
            if ((SizeT)(e - s) == VG_(strlen)(names[k]) &&
                VG_(strncmp)(s, names[k], (SizeT)(e - s)) == 0)
                found = 1u << k;
        if (!found)
            return False;
        mask |= found;
        s = *e ? e + 1 : e;
    }
    *out = mask;
    return mask != 0;
}

static Bool lp_vg_parse_u64(const HChar *arg, const HChar *s, ULong lo, ULong *out)
{
    HChar *end;
    ULong v = VG_(strtoull10)(s, &end);
    if (*s == 0 || *end != 0 || v < lo) {
        VG_(fmsg_bad_option)(arg, "expected a whole number of at least %llu\n", lo);
        return False;
    }
    *out = v;
    return True;
}

static Bool lp_vg_parse_u32(const HChar *arg, const HChar *s, ULong lo, UInt *out)
{
    ULong v;
    if (!lp_vg_parse_u64(arg, s, lo, &v))
        return False;
    if (v > 0xffffffffULL) {
        VG_(fmsg_bad_option)(arg, "at most 4294967295\n");
        return False;
    }
    *out = (UInt)v;
    return True;
}

static Bool lp_vg_process_cmd_line_option(const HChar *arg)
{
    const HChar *v;
    if VG_STR_CLO (arg, "--out-file", lp_vg_clo_out) {
    } else if VG_STR_CLO (arg, "--imatrix-file", lp_vg_clo_imatrix) {
    } else if VG_STR_CLO (arg, "--trace-file", lp_vg_clo_trace) {
    } else if VG_BOOL_CLO (arg, "--progress", lp_vg_clo_progress) {
    } else if VG_BOOL_CLO (arg, "--skip-plt", lp_vg_clo_skip_plt) {
    } else if VG_STR_CLO (arg, "--interval", v) {
        return lp_vg_parse_u64(arg, v, 1000, &lp_vg_clo_interval);
    } else if VG_STR_CLO (arg, "--trace-limit", v) {
        return lp_vg_parse_u64(arg, v, 0, &lp_vg_clo_trace_limit);
    } else if VG_STR_CLO (arg, "--trace-kinds", v) {
        if (!lp_vg_parse_kinds(v, &lp_vg_clo_trace_kinds))
            VG_(fmsg_bad_option)(arg, "event kinds are branch, call, return, block, load, store\n");
    } else if VG_STR_CLO (arg, "--strategy", v) {
        if (!lp_vg_strategy_parse(v))
            VG_(fmsg_bad_option)(arg, "strategies are exhaustive, periodic:N[:OFFSET], "
                                      "random:P:SEED, phase\n");
    } else if VG_STR_CLO (arg, "--phase-threshold", v) {
        HChar *end;
        double t = VG_(strtod)(v, &end);
        if (*v == 0 || *end != 0 || !(t > 0.0 && t <= 1.0))
            VG_(fmsg_bad_option)(arg, "expected a number in (0, 1]\n");
        lp_vg_clo_tracker.threshold = t;
    } else if VG_STR_CLO (arg, "--phase-bits", v) {
        ULong b = 0;
        if (!lp_vg_parse_u64(arg, v, LP_PHASE_MIN_BITS, &b) || b > LP_PHASE_MAX_BITS)
            VG_(fmsg_bad_option)(arg, "expected %d to %d\n", LP_PHASE_MIN_BITS, LP_PHASE_MAX_BITS);
        lp_vg_clo_tracker.bits = (unsigned)b;
    } else if VG_STR_CLO (arg, "--phase-table", v) {
        ULong n = 0;
        if (!lp_vg_parse_u64(arg, v, 1, &n) || n > 65536)
            VG_(fmsg_bad_option)(arg, "expected 1 to 65536 entries\n");
        lp_vg_clo_daemon.table_size = (size_t)n;
    } else if VG_STR_CLO (arg, "--phase-k", v) {
        ULong k = 0;
        if (!lp_vg_parse_u64(arg, v, 1, &k))
            return False;
        lp_vg_clo_daemon.k = k;
    } else if VG_STR_CLO (arg, "--phase-seed", v) {
        ULong seed = 0;
        if (!lp_vg_parse_u64(arg, v, 0, &seed))
            return False;
        lp_vg_clo_daemon.seed = seed;
    } else if VG_STR_CLO (arg, "--phase-predictor", v) {
        if (VG_(strcmp)(v, "last") == 0)
            lp_vg_clo_daemon.predictor = LP_PREDICT_LAST;
        else if (VG_(strcmp)(v, "markov") == 0)
            lp_vg_clo_daemon.predictor = LP_PREDICT_MARKOV;
        else if (VG_(strcmp)(v, "run-length") == 0)
            lp_vg_clo_daemon.predictor = LP_PREDICT_RUN_LENGTH;
        else
            VG_(fmsg_bad_option)(arg, "predictors are last, markov, run-length\n");
    } else if VG_STR_CLO (arg, "--compressor", lp_vg_clo_compressor) {
    } else if VG_STR_CLO (arg, "--tuples", v) {
        if (!lp_vg_tuples_parse(v, &lp_vg_clo_tuples))
            VG_(fmsg_bad_option)(arg, "tuple types are value, edge, call-target\n");
    } else if VG_STR_CLO (arg, "--seed", v) {
        return lp_vg_parse_u64(arg, v, 0, &lp_vg_clo_seed);
    } else if VG_STR_CLO (arg, "--cost-buffer", v) {
        return lp_vg_parse_u32(arg, v, 1, &lp_vg_clo_cost.buffer_messages);
    } else if VG_STR_CLO (arg, "--cost-interrupt", v) {
        return lp_vg_parse_u32(arg, v, 0, &lp_vg_clo_cost.cycles_per_interrupt);
    } else if VG_STR_CLO (arg, "--cost-message", v) {
        return lp_vg_parse_u32(arg, v, 0, &lp_vg_clo_cost.cycles_per_message);
    } else if VG_STR_CLO (arg, "--acf-file", lp_vg_clo_acf) {
    } else if VG_STR_CLO (arg, "--acf-set", v) {
        if (lp_vg_clo_acf_nsets == LP_VG_HPS_MAX_SETS)
            VG_(fmsg_bad_option)(arg, "at most %d register settings\n", LP_VG_HPS_MAX_SETS);
        lp_vg_clo_acf_sets[lp_vg_clo_acf_nsets++] = v;
    } else if VG_STR_CLO (arg, "--hps-mode", v) {
        if (VG_(strcmp)(v, "dise") == 0)
            lp_vg_clo_dise = True;
        else if (VG_(strcmp)(v, "hps") == 0)
            lp_vg_clo_dise = False;
        else
            VG_(fmsg_bad_option)(arg, "modes are hps, dise\n");
    } else if VG_STR_CLO (arg, "--hps-ar", v) {
        HChar *end;
        lp_vg_clo_ar_check = VG_(strtoull10)(v, &end);
        if (*end == ',')
            lp_vg_clo_ar_instr = VG_(strtoull10)(end + 1, &end);
        if (*end != 0 || lp_vg_clo_ar_check < 1 || lp_vg_clo_ar_instr < 1)
            VG_(fmsg_bad_option)(arg, "expected N_CHECK,N_INSTR, both at least 1\n");
    } else if VG_STR_CLO (arg, "--bursty", v) {
        if (!lp_vg_bursty_parse(v))
            VG_(fmsg_bad_option)(arg, "expected NCHECK:NINSTR, NCHECK at least 1 or inf, "
                                      "NINSTR at least 1\n");
    } else if VG_STR_CLO (arg, "--value-profiler", lp_vg_clo_value_profiler) {
        if (VG_(strncmp)(lp_vg_clo_value_profiler, "coproc", 6) != 0 ||
            (lp_vg_clo_value_profiler[6] != 0 && lp_vg_clo_value_profiler[6] != ':'))
            VG_(fmsg_bad_option)(arg, "the tool's value profiler is coproc[:OPTIONS]\n");
    } else if VG_STR_CLO (arg, "--checks-file", lp_vg_clo_checks) {
    } else if VG_STR_CLO (arg, "--placement-name", lp_vg_clo_placement) {
    } else if VG_STR_CLO (arg, "--streams-limit", v) {
        return lp_vg_parse_u64(arg, v, 1, &lp_vg_clo_streams_limit);
    } else if VG_STR_CLO (arg, "--profile", v) {
        if (!lp_vg_parse_types(v, &lp_vg_clo_types))
            VG_(fmsg_bad_option)(arg, "profile types are code-region, method, call-pair, "
                                      "edge, block, value, data-streams, context, or none\n");
    } else {
        return False;
    }
    return True;
}

/* clang-format reads VG_(printf)(...) as a call of a call and re-flows the
 * whole table at any change; the table keeps its column layout. */
/* clang-format off */
static void lp_vg_print_usage(void)
{
    VG_(printf)("    --out-file=FILE        profile file [lowprof.lpprof]\n"
                "    --imatrix-file=FILE    also write the interval matrix\n"
                "    --trace-file=FILE      also write every event (small runs)\n"
                "    --trace-limit=N        stop tracing after N events [10000000]\n"
                "    --trace-kinds=K,K...   branch,call,return,block,load,store [all]\n"
                "    --interval=N           interval length in instructions [10000000]\n"
                "    --profile=T,T...       code-region,method,call-pair,edge,block,value,\n"
                "                           context, or none (signatures only)\n"
                "    --strategy=S           profile only some intervals: exhaustive,\n"
                "                           periodic:N[:OFFSET], random:P:SEED, phase,\n"
                "                           phase-refine\n"
                "    --phase-threshold=T    phase similarity threshold in (0, 1] [0.1]\n"
                "    --phase-bits=B         bits per signature bucket [6]\n"
                "    --phase-table=N        phase table entries [20]\n"
                "    --phase-k=K            sample each phase's K-th interval [3]\n"
                "    --phase-predictor=P    last, markov, run-length [markov;\n"
                "                           run-length with phase-refine]\n"
                "    --phase-seed=N         seed of the phase table's replacement [0]\n"
                "    --tuples=T,T...        value,edge,call-target: feed them to a compressor\n"
                "    --compressor=SPEC      the compressor, e.g. H[P256]2048+A16 [H[P256]2048]\n"
                "    --seed=N               the compressor's random seed [1]\n"
                "    --cost-buffer=N        messages per interrupt [100]\n"
                "    --cost-interrupt=N     modeled cycles per interrupt [214]\n"
                "    --cost-message=N       modeled cycles per message [30]\n"
                "    --acf-file=FILE        apply an ACF's HPS productions (no other profiles)\n"
                "    --acf-set=HPS_Rk=V     set an ACF register (repeatable)\n"
                "    --hps-mode=hps|dise    conditional replacement, or plain DISE [hps]\n"
                "    --hps-ar=NC,NI         software sampling framework: NC checks off,\n"
                "                           NI checks on; profiles call pairs\n"
                "    --bursty=NC:NI         bursty tracing: per thread, NC checks in the\n"
                "                           checking code, then NI in the instrumented\n"
                "                           (NC may be inf); profiles only in bursts\n"
                "    --checks-file=FILE     the checked entries and back-edges [every one]\n"
                "    --placement-name=P     the placement's name, for the profile\n"
                "    --streams-limit=N      data references streamed [16777216]\n"
                "    --value-profiler=coproc[:OPTS]  the profiling co-processor's load\n"
                "                           value profiler (doc/value.md)\n"
                "    --progress=yes|no      report progress once a second [no]\n"
                "    --skip-plt=yes|no      count a call through a PLT stub as a call of\n"
                "                           the stub's target [yes]\n");
}
/* clang-format on */

static void lp_vg_print_debug_usage(void)
{
    VG_(printf)("    (none)\n");
}

static void lp_vg_thread_start(ThreadId tid, ULong blocks_done)
{
    (void)blocks_done;
    lp_vg_switch_thread(tid);
}

static void lp_vg_fork_child(ThreadId tid)
{
    (void)tid;
    lp_vg_enabled = False;
}

static void lp_vg_post_clo_init(void)
{
    /* Without chasing, every control transfer ends a superblock, and
     * without unrolling a superblock holds each instruction once: the
     * instrumenter relies on both (see lp_vg_instrument.c). Unrolling would
     * put copies of a tight loop's branch in the middle of one block. */
    VG_(clo_vex_control).guest_chase = False;
    VG_(clo_vex_control).iropt_unroll_thresh = 0;
    if (lp_vg_clo_bursty_check && (lp_vg_clo_daemon.strategy || lp_vg_clo_acf ||
                                    lp_vg_clo_ar_check))
        VG_(fmsg_bad_option)("--bursty", "bursts decide what is profiled alone: not with "
                                         "--strategy, --acf-file or --hps-ar\n");
    /* Calling contexts are counted over the whole run, from a shadow stack
     * kept exact by every call and return; a strategy's estimate of them
     * would be a different profile. */
    if ((lp_vg_clo_types & (1u << LP_PROF_CONTEXT)) &&
        (lp_vg_clo_daemon.strategy || lp_vg_clo_bursty_check))
        VG_(fmsg_bad_option)("--profile=context", "the context profile is whole-run: not with "
                                                  "--strategy or --bursty\n");
    lp_vg_bursty_init(); /* before the first thread exists */
    lp_vg_value_init();
    lp_vg_run_init();
    lp_vg_tuples_init();
    lp_vg_hps_init();
    lp_vg_phase_init();
    /* %p in a file name is the process id, as in Valgrind's own
     * --log-file: when a command runs other programs (--trace-children),
     * each process keeps files of its own. A program that execs keeps its
     * pid, so its new image takes over its files from the start. */
    lp_vg_clo_out = VG_(expand_file_name)("--out-file", lp_vg_clo_out);
    if (lp_vg_clo_imatrix)
        lp_vg_clo_imatrix = VG_(expand_file_name)("--imatrix-file", lp_vg_clo_imatrix);
    if (lp_vg_clo_trace)
        lp_vg_clo_trace = VG_(expand_file_name)("--trace-file", lp_vg_clo_trace);
    if (lp_vg_out_open() != 0)
        VG_(fmsg)("lowprof: cannot open the output files; nothing will be recorded\n");
}

static void lp_vg_fini(Int exitcode)
{
    lp_vg_out_finish(exitcode);
    if (lp_vg_counters[LP_VG_STAT_MID_BRANCH_EXITS])
        VG_(umsg)("lowprof: %llu conditional exits before a block's end were counted as "
                  "taken-only branches\n",
                  lp_vg_counters[LP_VG_STAT_MID_BRANCH_EXITS]);
}

static void lp_vg_pre_clo_init(void)
{
    VG_(details_name)("lowprof");
    VG_(details_version)("0.1.0");
    VG_(details_description)("near-exact profiles: regions, methods, call pairs, edges, values");
    VG_(details_copyright_author)("lowprof authors");
    VG_(details_bug_reports_to)("the lowprof issue tracker");
    VG_(details_avg_translation_sizeB)(400);
    VG_(basic_tool_funcs)(lp_vg_post_clo_init, lp_vg_instrument, lp_vg_fini);
    VG_(needs_command_line_options)(lp_vg_process_cmd_line_option, lp_vg_print_usage,
                                    lp_vg_print_debug_usage);
    VG_(needs_client_requests)(lp_vg_hps_client_request);
    VG_(track_start_client_code)(lp_vg_thread_start);
    VG_(atfork)(NULL, NULL, lp_vg_fork_child);
}

VG_DETERMINE_INTERFACE_VERSION(lp_vg_pre_clo_init)
