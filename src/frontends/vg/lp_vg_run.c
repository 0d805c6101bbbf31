/* The tool's run-time side: the helper that runs once per superblock
 * execution, the shadow call stack, and the persistent per-pc records.
 *
 * Tuned for the common case of a static exit (conditional branch, direct
 * jump, fall-through): everything it needs was resolved at translation time
 * into the site, so the helper only adds counters. Calls, returns and
 * indirect jumps need one or two hash look-ups (call pair, edge, method). */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"

#include "lp_vg.h"

/* Deep recursion beyond this many frames is not tracked (the frames are
 * counted in LP_VG_STAT_FRAME_OVERFLOW); attribution resumes as it unwinds. */
#define LP_VG_MAX_DEPTH (1u << 20)

static lp_vg_thread **lp_vg_threads;
static UInt lp_vg_nthreads;
static lp_table lp_vg_branch_tab, lp_vg_block_tab, lp_vg_method_tab, lp_vg_entry_tab;

void lp_vg_run_init(void)
{
    lp_table_init(&lp_vg_branch_tab, 4096);
    lp_table_init(&lp_vg_block_tab, 4096);
    lp_table_init(&lp_vg_method_tab, 1024);
    lp_table_init(&lp_vg_entry_tab, 256);
    lp_vg_context_init();
    lp_vg_switch_thread(1);
}

void lp_vg_switch_thread(ThreadId tid)
{
    if (tid >= lp_vg_nthreads) {
        UInt n = lp_vg_nthreads ? lp_vg_nthreads : 16;
        while (n <= tid)
            n *= 2;
        lp_vg_threads = VG_(realloc)("lp.threads", lp_vg_threads, n * sizeof *lp_vg_threads);
        for (UInt i = lp_vg_nthreads; i < n; i++)
            lp_vg_threads[i] = NULL;
        lp_vg_nthreads = n;
    }
    if (!lp_vg_threads[tid]) {
        lp_vg_thread *t = VG_(calloc)("lp.thread", 1, sizeof *t);
        t->tid = tid;
        lp_vg_threads[tid] = t;
        lp_vg_bursty_thread(t);
    }
    if (lp_vg_cur)
        lp_vg_cur->carry = lp_vg_carry;
    lp_vg_cur = lp_vg_threads[tid];
    lp_vg_carry = lp_vg_cur->carry;
    lp_vg_bursty_switch(lp_vg_cur);
}

/* A record per key, allocated once and never moved: sites keep pointers to
 * them across retranslations. The table maps the key to the pointer. */
static void *lp_vg_record(lp_table *tab, ULong key, SizeT size, const HChar *cc)
{
    lp_entry *e = lp_table_upsert(tab, (lp_key){key, 0});
    if (!e)
        VG_(tool_panic)((HChar *)"lowprof: out of memory for profile records");
    if (!e->v[0]) {
        ULong *rec = VG_(calloc)(cc, 1, size);
        rec[0] = key; /* every record type starts with its key */
        e->v[0] = (ULong)(Addr)rec;
    }
    return (void *)(Addr)e->v[0];
}

lp_vg_branch *lp_vg_branch_get(ULong pc)
{
    return lp_vg_record(&lp_vg_branch_tab, pc, sizeof(lp_vg_branch), "lp.branch");
}

lp_vg_block *lp_vg_block_get(ULong start)
{
    return lp_vg_record(&lp_vg_block_tab, start, sizeof(lp_vg_block), "lp.block");
}

static lp_vg_method *lp_vg_method_get(ULong entry)
{
    return lp_vg_record(&lp_vg_method_tab, entry, sizeof(lp_vg_method), "lp.method");
}

lp_vg_site *lp_vg_site_new(void)
{
    lp_vg_counters[LP_VG_STAT_SITES]++;
    return VG_(calloc)("lp.site", 1, sizeof(lp_vg_site));
}

/* Whether addr is the first instruction of a symbol; cached, since indirect
 * jumps ask at run time. */
Bool lp_vg_is_function_entry(ULong addr)
{
    lp_entry *e = lp_table_upsert(&lp_vg_entry_tab, (lp_key){addr, 0});
    if (!e)
        return False;
    if (!e->v[0]) {
        const HChar *name;
        e->v[0] = VG_(get_fnname_if_entry)(VG_(current_DiEpoch)(), addr, &name) ? 1 : 2;
    }
    return e->v[0] == 1;
}

static inline ULong lp_vg_stamp(void)
{
    return lp_vg_cutter.index + 1;
}

static inline void lp_vg_count_block(const lp_vg_site *s)
{
    lp_vg_block *b = s->block;
    if (b->stamp != lp_vg_stamp())
        lp_vg_mark_block(b);
    b->execs++;
    b->insns += s->ninsns;
}

static inline lp_vg_frame *lp_vg_top(lp_vg_thread *t)
{
    return t->depth ? &t->frames[t->depth - 1] : NULL;
}

static void lp_vg_push(lp_vg_thread *t, ULong sp, lp_vg_method *m, lp_vg_context *ctx)
{
    if (t->depth == t->capacity) {
        if (t->capacity >= LP_VG_MAX_DEPTH) {
            lp_vg_counters[LP_VG_STAT_FRAME_OVERFLOW]++;
            return;
        }
        t->capacity = t->capacity ? t->capacity * 2 : 256;
        t->frames = VG_(realloc)("lp.frames", t->frames, t->capacity * sizeof *t->frames);
    }
    t->frames[t->depth].sp = sp;
    t->frames[t->depth].method = m;
    t->frames[t->depth].ctx = ctx;
    t->depth++;
}

/* The thread's first block has no call: its root frame is the block where
 * execution began, and it is never popped (sp above every real frame).
 * Quiet while the builders are off: the root is made where an exhaustive
 * run makes it, but counted only by an interval that profiles it, or a
 * later sampled interval would count it again where it merely resumes. */
static void lp_vg_ensure_root(lp_vg_thread *t, const lp_vg_site *s, Bool quiet)
{
    if (t->depth)
        return;
    lp_vg_method *m = lp_vg_method_get(s->block->start);
    if (!quiet) {
        if (m->stamp != lp_vg_stamp())
            lp_vg_mark_method(m);
        m->invocations++;
    }
    lp_vg_context *c = lp_vg_ctx_child(NULL, m->entry);
    if (c && !quiet)
        c->calls++;
    lp_vg_push(t, ~0ULL, m, c);
}

/* --profile context: the block's instructions are the running context's
 * self cost. The frame already points at its context: no look-up here. */
static inline void lp_vg_count_context(const lp_vg_site *s)
{
    lp_vg_thread *t = lp_vg_cur;
    lp_vg_ensure_root(t, s, False);
    t->frames[t->depth - 1].ctx->self += s->ninsns;
}

/* A call or tail call from the top frame to entry has replaced the frame's
 * method (frame kept) or pushed a new frame: the context it enters, counted
 * unless quiet. NULL when contexts are off. */
static lp_vg_context *lp_vg_enter(lp_vg_context *from, ULong entry, Bool tail, Bool quiet)
{
    if (!lp_vg_ctx_on)
        return NULL;
    lp_vg_context *c = tail ? lp_vg_ctx_sibling(from, entry) : lp_vg_ctx_child(from, entry);
    if (!quiet)
        c->calls++;
    return c;
}

/* A tail call from the top frame to m (or, from the root frame or an empty
 * stack, a call): the frame becomes m's, in a sibling context. */
static void lp_vg_tail_to(lp_vg_thread *t, lp_vg_frame *top, ULong sp, lp_vg_method *m,
                          Bool quiet)
{
    if (top && top->sp != ~0ULL) {
        top->method = m;
        top->ctx = lp_vg_enter(top->ctx, m->entry, True, quiet);
    } else {
        lp_vg_push(t, sp, m, lp_vg_enter(top ? top->ctx : NULL, m->entry, False, quiet));
    }
}

static inline void lp_vg_count_branch(const lp_vg_site *s, ULong dst)
{
    lp_vg_thread *t = lp_vg_cur;
    ULong since = lp_vg_carry + s->ninsns;
    lp_vg_carry = 0;
    lp_vg_branch *br = s->branch;
    if (br->stamp != lp_vg_stamp())
        lp_vg_mark_branch(br);
    br->execs++;
    br->insns_since += since;
    br->taken += s->taken;
    lp_vg_wide.bucket[s->sig_bucket] += since;
    if (s->kind == LP_VG_COND || s->kind == LP_VG_IJUMP)
        lp_vg_tuple(LP_TUPLE_EDGE, br->pc, dst);
    if (s->backward) {
        lp_vg_ensure_root(t, s, False);
        lp_vg_method *m = lp_vg_top(t)->method;
        if (m->stamp != lp_vg_stamp())
            lp_vg_mark_method(m);
        m->backward++;
    }
    if (lp_vg_clo_trace) {
        lp_event ev = {.kind = LP_EV_BRANCH, .tid = t->tid, .pc = br->pc, .a = dst, .b = since,
                       .icount = lp_vg_icount};
        ev.flags = (UChar)((s->kind == LP_VG_COND ? LP_EVF_COND : 0) |
                           (s->kind == LP_VG_IJUMP ? LP_EVF_INDIRECT : 0) |
                           (dst != br->fallthrough ? LP_EVF_TAKEN : 0));
        lp_vg_emit(&ev);
    }
}

static inline void lp_vg_begin(const lp_vg_site *s)
{
    lp_vg_counters[LP_VG_STAT_PROFILE_CALLS]++;
    lp_vg_icount += s->ninsns;
    lp_vg_count_block(s);
    if (lp_vg_ctx_on)
        lp_vg_count_context(s);
    if (lp_vg_clo_trace) {
        lp_event ev = {.kind = LP_EV_BLOCK, .tid = lp_vg_cur->tid, .pc = s->block->start,
                       .a = s->ninsns, .icount = lp_vg_icount};
        lp_vg_emit(&ev);
    }
}

static inline void lp_vg_end(void)
{
    if (lp_interval_cutter_due(&lp_vg_cutter, lp_vg_icount))
        lp_vg_cut_interval(False);
}

static void lp_vg_add_edge(ULong from, ULong to)
{
    if (!(lp_vg_clo_types & (1u << LP_PROF_EDGE)))
        return;
    lp_entry *e = lp_table_upsert(&lp_vg_iv.tables[LP_PROF_EDGE], (lp_key){from, to});
    if (e)
        e->v[0]++;
}

static void lp_vg_record_call(ULong site, ULong callee, Bool tail)
{
    if (lp_vg_clo_types & (1u << LP_PROF_CALL_PAIR)) {
        lp_entry *e =
            lp_table_upsert(&lp_vg_iv.tables[LP_PROF_CALL_PAIR], (lp_key){site, callee});
        if (e) {
            e->v[0]++;
            e->v[1] += tail;
        }
    }
    lp_vg_method *m = lp_vg_method_get(callee);
    if (m->stamp != lp_vg_stamp())
        lp_vg_mark_method(m);
    m->invocations++;
}

/* Pops frames the stack pointer has moved above; returns how many. */
static UInt lp_vg_pop_dead(lp_vg_thread *t, ULong sp, Bool inclusive)
{
    UInt popped = 0;
    while (t->depth && (t->frames[t->depth - 1].sp < sp ||
                        (inclusive && t->frames[t->depth - 1].sp == sp))) {
        t->depth--;
        popped++;
    }
    return popped;
}

VG_REGPARM(1) void lp_vg_on_static(lp_vg_site *s)
{
    if (!lp_vg_enabled)
        return;
    lp_vg_begin(s);
    if (s->kind == LP_VG_NONBRANCH)
        lp_vg_carry += s->ninsns;
    else
        lp_vg_count_branch(s, s->dst);
    lp_vg_end();
}

/* The signature's share of a block: what still runs while a sampling
 * strategy has the profile builders switched off. */
static inline void lp_vg_sig_only(const lp_vg_site *s)
{
    lp_vg_counters[LP_VG_STAT_SIG_CALLS]++;
    lp_vg_icount += s->ninsns;
    if (s->kind == LP_VG_NONBRANCH) {
        lp_vg_carry += s->ninsns;
    } else {
        lp_vg_wide.bucket[s->sig_bucket] += lp_vg_carry + s->ninsns;
        lp_vg_carry = 0;
    }
}

VG_REGPARM(1) void lp_vg_on_static_sig(lp_vg_site *s)
{
    if (!lp_vg_enabled)
        return;
    lp_vg_sig_only(s);
    lp_vg_end();
}

/* What every dynamic transfer starts with: the block, the branch and its
 * edge. Returns the running thread. */
static inline lp_vg_thread *lp_vg_transfer(const lp_vg_site *s, ULong dst)
{
    lp_vg_begin(s);
    lp_vg_count_branch(s, dst);
    lp_vg_add_edge(s->branch->pc, dst);
    return lp_vg_cur;
}

void lp_vg_sig_cut(void)
{
    if (lp_vg_enabled)
        lp_vg_cut_interval(False);
}

/* --skip-plt. A call into a PLT stub records nothing: the thread remembers
 * the call site, and the frame pushed for the call keeps the caller's
 * method. The stub's jump out of the PLT then completes the call, from the
 * remembered site to where the jump lands (the real function, or the lazy
 * binding resolver on a first call), and the frame becomes the callee's.
 * A jump into a stub from outside (a tail call, "jmp free@plt") is deferred
 * the same way and completes as a tail call. So the stub is never a method
 * invocation, and "X -> puts@plt -> puts" is counted as "X -> puts", as
 * callgrind counts it. Returns whether the jump of site s to dst was such a
 * PLT transfer (nothing else then remains to be done for it); quiet: the
 * profile builders are off, only the shadow stack is kept. */
static Bool lp_vg_plt_jump(lp_vg_thread *t, const lp_vg_site *s, ULong dst, ULong sp,
                           Bool quiet)
{
    Bool from = s->from_plt, to = s->to_plt == 2 ? lp_vg_in_plt(dst) : s->to_plt;
    ULong pc = s->branch->pc;
    if (!from && to) {
        t->plt_site = pc;
        t->plt_tail = 1;
        t->plt_pending = 1;
        return True;
    }
    if (!from)
        return False;
    if (to)
        return True; /* a lazy stub's way to PLT0 */
    if (!t->plt_pending)
        return False; /* entered unseen: counted as without --skip-plt */
    t->plt_pending = 0;
    lp_vg_pop_dead(t, sp, False);
    lp_vg_frame *top = lp_vg_top(t);
    lp_vg_method *m = lp_vg_method_get(dst);
    if (!quiet) {
        lp_vg_record_call(t->plt_site, dst, t->plt_tail);
        if (!t->plt_tail)
            lp_vg_tuple(LP_TUPLE_CALL_TARGET, t->plt_site, dst);
        if (lp_vg_clo_trace) {
            lp_event ev = {.kind = LP_EV_CALL, .flags = t->plt_tail ? LP_EVF_TAIL : 0,
                           .tid = t->tid, .pc = t->plt_site, .a = dst, .b = sp,
                           .icount = lp_vg_icount};
            lp_vg_emit(&ev);
        }
    }
    if (!t->plt_tail && top && top->sp != ~0ULL) {
        /* the frame the stub's call pushed, still in the caller's context */
        top->method = m;
        top->ctx = lp_vg_enter(top->ctx, dst, False, quiet);
    } else {
        lp_vg_tail_to(t, top, sp, m, quiet);
    }
    return True;
}

/* A call into a PLT stub under --skip-plt: the call waits for the stub's
 * jump (lp_vg_plt_jump); its frame keeps the caller's method until then. */
static Bool lp_vg_plt_call(lp_vg_thread *t, const lp_vg_site *s, ULong dst, ULong sp)
{
    t->plt_pending = 0; /* a call of a stub never completes into another call */
    if (!lp_vg_clo_skip_plt || !(s->to_plt == 2 ? lp_vg_in_plt(dst) : s->to_plt))
        return False;
    lp_vg_frame *top = lp_vg_top(t);
    /* The stub's instructions count in the caller's context. */
    lp_vg_push(t, sp, top ? top->method : lp_vg_method_get(dst),
               top ? top->ctx : lp_vg_enter(NULL, dst, False, True));
    t->plt_site = s->branch->pc;
    t->plt_tail = 0;
    t->plt_pending = 1;
    return True;
}

/* Indirect jumps, and direct jumps to another function's entry. A jump that
 * lands on a function entry other than the running method's is a tail call:
 * the running frame now belongs to the callee (as a return from it will
 * return to our caller). */
VG_REGPARM(3) void lp_vg_on_ijump(lp_vg_site *s, ULong dst, ULong sp)
{
    if (!lp_vg_enabled)
        return;
    Bool quiet = !lp_vg_sampling;
    lp_vg_thread *t = quiet ? (lp_vg_sig_only(s), lp_vg_cur) : lp_vg_transfer(s, dst);
    if (lp_vg_clo_skip_plt && lp_vg_plt_jump(t, s, dst, sp, quiet)) {
        /* done: a transfer into, within or out of a PLT stub */
    } else if (quiet) {
        /* Builders off: keep only the shadow stack right, so that callers
         * are known when they are switched on again. */
        if (lp_vg_is_function_entry(dst)) {
            lp_vg_pop_dead(t, sp, False);
            lp_vg_frame *top = lp_vg_top(t);
            if (!top || top->method->entry != dst)
                lp_vg_tail_to(t, top, sp, lp_vg_method_get(dst), True);
        }
    } else if (lp_vg_is_function_entry(dst)) {
        lp_vg_pop_dead(t, sp, False);
        lp_vg_frame *top = lp_vg_top(t);
        if (!top || top->method->entry != dst) {
            lp_vg_record_call(s->branch->pc, dst, True);
            lp_vg_tail_to(t, top, sp, lp_vg_method_get(dst), False);
            if (lp_vg_clo_trace) {
                lp_event ev = {.kind = LP_EV_CALL, .flags = LP_EVF_TAIL, .tid = t->tid,
                               .pc = s->branch->pc, .a = dst, .b = sp, .icount = lp_vg_icount};
                lp_vg_emit(&ev);
            }
        }
    }
    lp_vg_end();
}

VG_REGPARM(3) void lp_vg_on_call(lp_vg_site *s, ULong dst, ULong sp)
{
    if (!lp_vg_enabled)
        return;
    if (!lp_vg_sampling) { /* builders off: the shadow stack only */
        lp_vg_sig_only(s);
        lp_vg_ensure_root(lp_vg_cur, s, True);
        lp_vg_pop_dead(lp_vg_cur, sp, True);
        if (!lp_vg_plt_call(lp_vg_cur, s, dst, sp)) {
            lp_vg_frame *top = lp_vg_top(lp_vg_cur);
            lp_vg_push(lp_vg_cur, sp, lp_vg_method_get(dst),
                       lp_vg_enter(top ? top->ctx : NULL, dst, False, True));
        }
        lp_vg_end();
        return;
    }
    lp_vg_thread *t = lp_vg_transfer(s, dst);
    lp_vg_ensure_root(t, s, False);
    /* A frame at or below the new call's stack pointer was left without a
     * return we saw (longjmp, exceptions): drop it before pushing. */
    lp_vg_pop_dead(t, sp, True);
    if (lp_vg_plt_call(t, s, dst, sp)) {
        lp_vg_end();
        return;
    }
    lp_vg_record_call(s->branch->pc, dst, False);
    lp_vg_tuple(LP_TUPLE_CALL_TARGET, s->branch->pc, dst);
    lp_vg_push(t, sp, lp_vg_method_get(dst), lp_vg_enter(lp_vg_top(t)->ctx, dst, False, False));
    if (lp_vg_clo_trace) {
        lp_event ev = {.kind = LP_EV_CALL, .tid = t->tid, .pc = s->branch->pc, .a = dst,
                       .b = sp, .icount = lp_vg_icount};
        lp_vg_emit(&ev);
    }
    lp_vg_end();
}

VG_REGPARM(3) void lp_vg_on_ret(lp_vg_site *s, ULong dst, ULong sp)
{
    if (!lp_vg_enabled)
        return;
    lp_vg_cur->plt_pending = 0; /* a stub that returned never jumped out */
    if (!lp_vg_sampling) { /* builders off: the shadow stack only */
        lp_vg_sig_only(s);
        lp_vg_pop_dead(lp_vg_cur, sp, False);
        lp_vg_end();
        return;
    }
    lp_vg_thread *t = lp_vg_transfer(s, dst);
    UInt popped = lp_vg_pop_dead(t, sp, False);
    if (lp_vg_clo_trace) {
        lp_event ev = {.kind = LP_EV_RETURN, .tid = t->tid, .pc = s->branch->pc, .a = dst,
                       .b = popped, .icount = lp_vg_icount};
        lp_vg_emit(&ev);
    }
    lp_vg_end();
}

VG_REGPARM(3) void lp_vg_on_load(ULong pc, ULong addr, ULong value, ULong size)
{
    if (!lp_vg_enabled)
        return;
    if (lp_vg_values) {
        lp_entry *e = lp_table_upsert(lp_vg_values, (lp_key){pc, value});
        if (e) {
            e->v[0]++;
            e->v[1] = size;
        }
    }
    lp_vg_tuple(LP_TUPLE_VALUE, pc, value);
    if (lp_vg_value_on())
        lp_vg_value_load(pc, value);
    if (lp_vg_streams_wanted())
        lp_vg_streams_ref(pc, addr);
    if (lp_vg_clo_trace) {
        lp_event ev = {.kind = LP_EV_LOAD, .size = (UShort)size, .tid = lp_vg_cur->tid,
                       .pc = pc, .a = addr, .b = value, .icount = lp_vg_icount};
        lp_vg_emit(&ev);
    }
}

VG_REGPARM(3) void lp_vg_on_store(ULong pc, ULong addr, ULong size)
{
    if (!lp_vg_enabled)
        return;
    if (lp_vg_streams_wanted())
        lp_vg_streams_ref(pc, addr);
    if (!lp_vg_clo_trace)
        return;
    lp_event ev = {.kind = LP_EV_STORE, .size = (UShort)size, .tid = lp_vg_cur->tid, .pc = pc,
                   .a = addr, .icount = lp_vg_icount};
    lp_vg_emit(&ev);
}
