/* The lowprof Valgrind tool: private declarations shared by its files.
 *
 * The tool plays the profiling hardware for an unmodified binary. At
 * translation time (lp_vg_instrument.c) it classifies every way a superblock
 * can be left and gives each a static "site"; at run time exactly one helper
 * (lp_vg_run.c) fires per superblock execution, for the exit actually taken,
 * so the per-block work is one call with everything precomputed. Interval
 * cutting and the files live in lp_vg_out.c, options and wiring in
 * lp_vg_main.c. Every global declared here is defined in lp_vg_state.c, so
 * the files call one another one way: main -> instrument -> {run, hps, ir,
 * bursty, plt}, hps -> ir, run -> {out, bursty, plt, context}, out -> {phase, tuples,
 * hps, bursty, context}, phase -> hps.
 *
 * Threads: Valgrind runs one guest thread at a time and switches only between
 * superblocks, so the tool keeps a pointer to the running thread's state and
 * swaps it when Valgrind starts running another thread. */
#ifndef LP_VG_H
#define LP_VG_H

#include "pub_tool_basics.h"
#include "pub_tool_clreq.h"
#include "pub_tool_tooliface.h"

#include "lowprof/bursty.h"
#include "lowprof/core.h"
#include "lowprof/phase.h"
#include "lowprof/sample.h"
#include "lowprof/trace.h"

/* How a site leaves its superblock. */
typedef enum lp_vg_exit_kind {
    LP_VG_NONBRANCH = 0, /* fall through a size-limited block, syscall, rep-string step */
    LP_VG_COND = 1,      /* one side of a conditional branch */
    LP_VG_JUMP = 2,      /* direct unconditional jump */
    LP_VG_IJUMP = 3,     /* indirect jump */
    LP_VG_CALL = 4,      /* call, direct or indirect */
    LP_VG_RET = 5,       /* return */
} lp_vg_exit_kind;

/* Per static branch (keyed by pc, shared by every translation that ends in
 * it), per block start and per method entry: counters of the interval in
 * progress; they are folded into the tables when the interval is cut. */
typedef struct lp_vg_branch {
    ULong pc;
    ULong execs;
    ULong insns_since;
    ULong taken;        /* conditional branches only */
    ULong target;       /* static taken target (0 if indirect) */
    ULong fallthrough;  /* pc + length */
    ULong stamp;        /* interval index + 1 when on the dirty list */
    UChar kind;         /* lp_vg_exit_kind of the branch */
    UChar dyn_edges;    /* edges are counted at run time (indirect, call, return) */
    UChar tail_taken;   /* its taken side is a tail call, whose edge is counted at run time */
} lp_vg_branch;

typedef struct lp_vg_block {
    ULong start;
    ULong execs;
    ULong insns;
    ULong stamp;
} lp_vg_block;

typedef struct lp_vg_method {
    ULong entry;
    ULong invocations;
    ULong backward;
    ULong stamp;
} lp_vg_method;

/* One way out of one translated superblock. */
typedef struct lp_vg_site {
    lp_vg_branch *branch; /* NULL for LP_VG_NONBRANCH */
    lp_vg_block *block;
    ULong dst;            /* static destination (0 if dynamic) */
    UInt ninsns;          /* guest instructions executed from block start to this exit */
    UChar kind;           /* lp_vg_exit_kind */
    UChar taken;          /* COND: this side is the taken one */
    UChar backward;       /* taking this site is a backward branch (dst <= pc) */
    UChar tail;           /* JUMP: the static target is another function's entry */
    UChar sig_bucket;     /* lp_phase_wide_bucket(branch pc); LP_PHASE_WIDE_BUCKETS <= 256 */
    UChar from_plt;       /* --skip-plt: a jump whose instruction lies in a PLT stub */
    UChar to_plt;         /* --skip-plt: dst lies in a PLT stub: 0 no, 1 yes, 2 ask (dynamic) */
} lp_vg_site;

/* A calling context (--profile context, lp_vg_context.c): the id starts
 * the record, as every record's key does. */
typedef struct lp_vg_context {
    ULong id;                  /* lp_context_id(parent's id or 0, entry) */
    ULong entry;               /* the function entered */
    struct lp_vg_context *parent;  /* NULL for a thread's root */
    ULong calls;               /* entries into the context (folded self-calls too) */
    ULong self;                /* instructions executed in it, callees excluded */
} lp_vg_context;

/* A shadow call-stack frame: sp is the stack pointer right after the call
 * (pointing at the return address); frames whose sp the stack has moved
 * above are dead (returned through, or unwound by longjmp). */
typedef struct lp_vg_frame {
    ULong sp;
    lp_vg_method *method;
    lp_vg_context *ctx; /* its calling context; NULL without --profile context */
} lp_vg_frame;

typedef struct lp_vg_thread {
    UInt tid;
    ULong carry; /* saved lp_vg_carry while another thread runs */
    lp_vg_frame *frames;
    UInt depth;
    UInt capacity;
    lp_bursty bursty; /* the thread's check counters (--bursty) */
    /* --skip-plt: a call or jump into a PLT stub waits here until the stub
     * jumps out, to the function it stands for (lp_vg_run.c). */
    ULong plt_site;    /* the call or jump that entered the stub */
    UChar plt_pending; /* plt_site is waiting */
    UChar plt_tail;    /* it was a jump: the call will be a tail call */
} lp_vg_thread;

/* ---- options (lp_vg_main.c) ---- */
extern const HChar *lp_vg_clo_out;     /* profile file */
extern const HChar *lp_vg_clo_imatrix; /* interval matrix file, or NULL */
extern const HChar *lp_vg_clo_trace;   /* event trace file, or NULL */
extern ULong lp_vg_clo_interval;
extern ULong lp_vg_clo_trace_limit;
extern UInt lp_vg_clo_trace_kinds;     /* 1u << lp_event_kind traced */
extern UInt lp_vg_clo_types;           /* 1u << lp_profile_type */
extern Bool lp_vg_clo_progress;
extern Bool lp_vg_clo_skip_plt;        /* a call through a PLT stub goes to its target */

/* ---- run-time state and helpers (lp_vg_run.c) ---- */
extern ULong lp_vg_icount;
/* Instructions since the running thread's previous branch. A global rather
 * than a field so inline IR can update it; swapped on thread switches. */
extern ULong lp_vg_carry;
extern Bool lp_vg_enabled;      /* false in a forked child: it records nothing */
extern lp_vg_thread *lp_vg_cur; /* the running thread's state */
extern ULong lp_vg_counters[8]; /* diagnostic counts, see LP_VG_STAT_* */
extern lp_table *lp_vg_values;  /* whole-run value profile, or NULL */
enum {
    LP_VG_STAT_MID_BRANCH_EXITS, /* conditional exits found before a block's last insn */
    LP_VG_STAT_FRAME_OVERFLOW,   /* calls not pushed: shadow stack at its cap */
    LP_VG_STAT_TRACE_DROPPED,    /* events past --trace-limit */
    LP_VG_STAT_SITES,            /* sites created */
    LP_VG_STAT_LOAD_SITES,       /* loads instrumented */
    LP_VG_STAT_PROFILE_CALLS,    /* block executions that ran a profiling helper */
    LP_VG_STAT_SIG_CALLS,        /* ... that ran the signature-only helper */
};

void lp_vg_run_init(void);
void lp_vg_switch_thread(ThreadId tid);
lp_vg_branch *lp_vg_branch_get(ULong pc);
lp_vg_block *lp_vg_block_get(ULong start);
lp_vg_site *lp_vg_site_new(void);
Bool lp_vg_is_function_entry(ULong addr);

/* Superblock-exit helpers; exactly one runs per superblock execution. */
VG_REGPARM(1) void lp_vg_on_static(lp_vg_site *s);
VG_REGPARM(3) void lp_vg_on_ijump(lp_vg_site *s, ULong dst, ULong sp);
VG_REGPARM(3) void lp_vg_on_call(lp_vg_site *s, ULong dst, ULong sp);
VG_REGPARM(3) void lp_vg_on_ret(lp_vg_site *s, ULong dst, ULong sp);
/* The same for the signature-only mode (no profile types selected), used
 * for the rare blocks whose exits differ in their signature work; the rest
 * are updated by inline IR (lp_vg_instrument.c). */
VG_REGPARM(1) void lp_vg_on_static_sig(lp_vg_site *s);
/* Cuts the interval; inline signature code calls it when one is due. */
void lp_vg_sig_cut(void);
/* Memory accesses: value profile and event trace. */
VG_REGPARM(3) void lp_vg_on_load(ULong pc, ULong addr, ULong value, ULong size);
VG_REGPARM(3) void lp_vg_on_store(ULong pc, ULong addr, ULong size);

/* ---- the stream compressor (lp_vg_tuples.c) ---- */
extern const HChar *lp_vg_clo_compressor; /* spec text */
extern UInt lp_vg_clo_tuples;             /* 1u << lp_tuple_type */
extern ULong lp_vg_clo_seed;
extern lp_cost_model lp_vg_clo_cost;
extern lp_compressor *lp_vg_compressor;   /* NULL unless tuples are selected */
Bool lp_vg_tuples_parse(const HChar *s, UInt *out);
void lp_vg_tuples_init(void);
void lp_vg_tuples_finish(lp_profile_set *set);

/* Tuples wait in a small buffer and reach the compressor a batch at a time,
 * through its specialised loop: the order, and so every message, is the same
 * as pushing them one by one. */
#define LP_VG_TUPLE_BATCH 1024
extern lp_tuple lp_vg_tuple_buf[LP_VG_TUPLE_BATCH];
extern UInt lp_vg_tuple_count;
void lp_vg_tuples_flush(void);

/* Hands one selected tuple to the compressor (see lp_tuple_select). */
static inline void lp_vg_tuple(UInt type, ULong pc, ULong w)
{
    if (lp_vg_clo_tuples & (1u << type)) {
        lp_tuple *t = &lp_vg_tuple_buf[lp_vg_tuple_count++];
        t->pc = pc;
        t->w = w;
        t->type = (UChar)type;
        if (lp_vg_tuple_count == LP_VG_TUPLE_BATCH)
            lp_vg_tuples_flush();
    }
}

/* ---- interval sampling strategies (lp_vg_phase.c) ---- */
extern const HChar *lp_vg_clo_strategy; /* NULL: every interval, no daemon */
extern lp_phase_tracker_config lp_vg_clo_tracker;
extern lp_phase_daemon_config lp_vg_clo_daemon;
/* The sampling flag the profile builders obey (1 without a strategy). */
extern UInt lp_vg_sampling;
extern Bool lp_vg_strategy_on;
Bool lp_vg_strategy_parse(const HChar *s);
void lp_vg_phase_init(void);
/* Called at each cut with the finished interval (last: the run's end). */
void lp_vg_phase_cut(lp_interval *iv, Bool last);
void lp_vg_phase_finish(lp_profile_set *set);

/* ---- the HPS engine (lp_vg_hps.c) ---- */
#include "lowprof/hps.h"
#define LP_VG_HPS_MAX_SETS 16
extern const HChar *lp_vg_clo_acf;      /* --acf-file, or NULL */
extern const HChar *lp_vg_clo_acf_sets[LP_VG_HPS_MAX_SETS]; /* --acf-set=HPS_Rk=V */
extern UInt lp_vg_clo_acf_nsets;
extern Bool lp_vg_clo_dise;             /* --hps-mode=dise */
extern ULong lp_vg_clo_ar_check, lp_vg_clo_ar_instr; /* --hps-ar=N_CHECK,N_INSTR */
extern Bool lp_vg_hps_on;               /* an ACF or the software framework runs */
enum {
    LP_VG_HPS_STEPS,           /* DISE software steps (replacements) */
    LP_VG_HPS_DISE_CALLS,      /* DISE handler calls, matched or not */
    LP_VG_HPS_REPLACEMENTS,    /* HPS replacements performed */
    LP_VG_HPS_STATIC_INSNS,    /* translated instructions with productions */
    LP_VG_HPS_TRIGGERS_ON,
    LP_VG_HPS_TRIGGERS_OFF,
    LP_VG_HPS_TRIGGER_MATCHES, /* productions matched by trigger instructions */
    LP_VG_HPS_CLIENT_REQUESTS,
    LP_VG_HPS_DROPPED,         /* handler calls not placed: too many in one block */
    LP_VG_HPS_NSTATS
};
/* The client requests of include/lowprof/client.h. */
#define LP_VG_REQ_SAMPLING_ON VG_USERREQ_TOOL_BASE('L', 'P')
#define LP_VG_REQ_SAMPLING_OFF (VG_USERREQ_TOOL_BASE('L', 'P') + 1)
void lp_vg_hps_init(void);
/* A trigger instruction: the daemon's toggle or a client request. */
void lp_vg_hps_trigger(lp_hps_op op);
Bool lp_vg_hps_client_request(ThreadId tid, UWord *args, UWord *ret);
void lp_vg_hps_finish(lp_profile_set *set);
/* Translation: once per block, then per instruction (k: its 1-based index
 * in the block), then for each side exit of the last instruction, then at
 * the block's end. */
void lp_vg_hps_block_begin(void);
void lp_vg_hps_insn(IRSB *out, const lp_hps_insn *in, UInt k);
void lp_vg_hps_exit(IRSB *out, ULong exit_dst, IRExpr *exit_guard, const lp_hps_insn *last);
void lp_vg_hps_end(IRSB *out, IRExpr *next, const lp_hps_insn *last);

/* ---- bursty tracing (lp_vg_bursty.c) ---- */
extern ULong lp_vg_clo_bursty_check;  /* nCheck0 (LP_BURSTY_INFINITE: inf), 0: off */
extern ULong lp_vg_clo_bursty_instr;  /* nInstr0 */
extern const HChar *lp_vg_clo_checks; /* --checks-file: the placement, or NULL (orig) */
extern const HChar *lp_vg_clo_placement; /* --placement-name: its name, for the profile */
extern ULong lp_vg_clo_streams_limit; /* references of the exhaustive trace streamed */
extern Bool lp_vg_bursty_on;
/* Instructions a check's fast path costs in the basic-overhead model. */
#define LP_VG_CHECK_INSNS 4
Bool lp_vg_bursty_parse(const HChar *v);
void lp_vg_bursty_init(void);
/* A new thread's counters; a switch to t sets the builders' flag to its mode. */
void lp_vg_bursty_thread(lp_vg_thread *t);
void lp_vg_bursty_switch(lp_vg_thread *t);
/* Translation: whether a block starting at addr, or the transfer from the
 * branch at pc to dst, has a check under the placement. */
Bool lp_vg_bursty_entry_check(ULong addr);
Bool lp_vg_bursty_backedge_check(ULong pc, ULong dst);
/* Run time: one check of the running thread. */
VG_REGPARM(0) void lp_vg_bursty_check(void);
/* Data references for the hot data streams (when selected). */
Bool lp_vg_streams_wanted(void);
void lp_vg_streams_ref(ULong pc, ULong addr);
void lp_vg_bursty_finish(lp_profile_set *set);

/* ---- the co-processor's value profiler (lp_vg_value.c) ---- */
extern const HChar *lp_vg_clo_value_profiler; /* "coproc[:OPTIONS]", or NULL */
Bool lp_vg_value_on(void);
void lp_vg_value_init(void);
VG_REGPARM(2) void lp_vg_value_load(ULong pc, ULong value);
/* Whether loads may be filtered inline (the filter passes loads at all),
 * and the IR that does it for the load at pc with its widened value, under
 * guard (NULL: always). For blocks where the co-processor is the loads'
 * only consumer. */
Bool lp_vg_value_inline(void);
void lp_vg_value_ir(IRSB *out, ULong pc, IRExpr *value, IRExpr *guard);
void lp_vg_value_finish(lp_profile_set *set);

/* ---- calling contexts (lp_vg_context.c) ---- */
extern Bool lp_vg_ctx_on; /* --profile context */
void lp_vg_context_init(void);
/* The context a call of entry from parent enters (parent NULL: a root);
 * parent itself for a direct self-call. NULL when contexts are off. */
lp_vg_context *lp_vg_ctx_child(lp_vg_context *parent, ULong entry);
/* The context a tail call from c to entry enters: a child of c's parent. */
lp_vg_context *lp_vg_ctx_sibling(lp_vg_context *c, ULong entry);
/* Adds every context to set's whole-run LP_PROF_CONTEXT profile. */
void lp_vg_context_finish(lp_profile_set *set);

/* ---- PLT sections (lp_vg_plt.c) ---- */
/* Whether addr lies in a PLT stub (.plt, .plt.sec or .plt.got); cached. */
Bool lp_vg_in_plt(ULong addr);

/* ---- IR helpers (lp_vg_ir.c) ---- */
/* e into a fresh temporary of type ty (flat IR wants atoms as operands). */
IRExpr *lp_vg_tmp(IRSB *out, IRType ty, IRExpr *e);
/* A call of fn(args) under guard (NULL: always). */
void lp_vg_dirty_call(IRSB *out, const HChar *name, void *fn, IRExpr **args, IRExpr *guard);

/* ---- instrumentation (lp_vg_instrument.c) ---- */
IRSB *lp_vg_instrument(VgCallbackClosure *closure, IRSB *sb_in,
                       const VexGuestLayout *layout, const VexGuestExtents *vge,
                       const VexArchInfo *archinfo_host, IRType gWordTy, IRType hWordTy);

/* ---- output (lp_vg_out.c) ---- */
extern lp_interval lp_vg_iv;            /* the interval in progress */
/* Its signature, accumulated wide; folded into lp_vg_iv.sig at the cut. */
extern lp_phase_wide lp_vg_wide;
extern lp_interval_cutter lp_vg_cutter;
extern lp_profile_set lp_vg_totals;
int lp_vg_out_open(void);
void lp_vg_mark_branch(lp_vg_branch *b);
void lp_vg_mark_block(lp_vg_block *b);
void lp_vg_mark_method(lp_vg_method *m);
void lp_vg_cut_interval(Bool last);
void lp_vg_emit(const lp_event *ev);
void lp_vg_out_finish(Int exitcode);
/* Sets key to v in decimal (lp_vg_state.c). */
void lp_vg_meta_u64(lp_meta *m, const HChar *key, ULong v);
/* Reads a whole file into Valgrind's heap (lp_vg_state.c); NULL if it
 * cannot be opened. */
HChar *lp_vg_read_file(const HChar *path, SizeT *out_len);

#endif
