/* The tool's output: cutting intervals, folding the interval's counters into
 * the run totals, and writing the three files through the freestanding
 * encoders (Valgrind's file calls stand in for libc).
 *
 * Records touched in an interval sit on dirty lists, so a cut costs the
 * number of distinct branches, blocks and methods that ran in it, not the
 * number the program has. The interval matrix is written as it goes, so a
 * recording that dies leaves every finished interval on disk. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#include "pub_tool_clientstate.h"

#include "lp_vg.h"

typedef struct lp_vg_dirty {
    void **items;
    UInt count;
    UInt capacity;
} lp_vg_dirty;

static lp_vg_dirty lp_vg_dirty_branches, lp_vg_dirty_blocks, lp_vg_dirty_methods;
static lp_imatrix_writer *lp_vg_imw;
static lp_evtrace_writer *lp_vg_evw;
static Int lp_vg_im_fd = -1, lp_vg_ev_fd = -1;
static ULong lp_vg_events;
static UInt lp_vg_last_progress_ms;

static void lp_vg_push_dirty(lp_vg_dirty *d, void *p)
{
    if (d->count == d->capacity) {
        d->capacity = d->capacity ? d->capacity * 2 : 1024;
        d->items = VG_(realloc)("lp.dirty", d->items, d->capacity * sizeof *d->items);
    }
    d->items[d->count++] = p;
}

void lp_vg_mark_branch(lp_vg_branch *b)
{
    b->stamp = lp_vg_cutter.index + 1;
    lp_vg_push_dirty(&lp_vg_dirty_branches, b);
}

void lp_vg_mark_block(lp_vg_block *b)
{
    b->stamp = lp_vg_cutter.index + 1;
    lp_vg_push_dirty(&lp_vg_dirty_blocks, b);
}

void lp_vg_mark_method(lp_vg_method *m)
{
    m->stamp = lp_vg_cutter.index + 1;
    lp_vg_push_dirty(&lp_vg_dirty_methods, m);
}

/* ---- files ---- */

static int lp_vg_fd_write(void *ctx, const void *data, size_t size)
{
    Int fd = (Int)(Addr)ctx;
    const UChar *p = data;
    while (size) {
        Int chunk = size > (1u << 30) ? (1 << 30) : (Int)size;
        Int n = VG_(write)(fd, p, chunk);
        if (n <= 0)
            return LP_EIO;
        p += n;
        size -= (size_t)n;
    }
    return LP_OK;
}

static Int lp_vg_create(const HChar *path)
{
    SysRes r = VG_(open)(path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC, 0644);
    if (sr_isError(r)) {
        VG_(umsg)("lowprof: cannot create %s\n", path);
        return -1;
    }
    return (Int)sr_Res(r);
}

static lp_sink lp_vg_fd_sink(Int fd)
{
    lp_sink s = {lp_vg_fd_write, (void *)(Addr)fd};
    return s;
}

static void lp_vg_base_meta(lp_meta *m)
{
    lp_meta_set(m, "recorder", "lowprof valgrind tool");
    lp_vg_meta_u64(m, "interval-length", lp_vg_cutter.length);
    lp_vg_meta_u64(m, "pid", (ULong)VG_(getpid)());
    /* The program this process runs: under --trace-children a command's
     * other processes are recorded too, and named by it. */
    if (VG_(args_the_exename))
        lp_meta_set(m, "executable", VG_(args_the_exename));
}

int lp_vg_out_open(void)
{
    lp_interval_cutter_init(&lp_vg_cutter, lp_vg_clo_interval);
    if (lp_interval_init(&lp_vg_iv) != LP_OK)
        return -1;
    for (UInt t = 1; t <= LP_PROF_TYPE_MAX; t++) {
        lp_profile *p;
        if ((lp_vg_clo_types & (1u << t)) && lp_profile_set_add(&lp_vg_totals, t, LP_PHASE_NONE, &p))
            return -1;
    }
    lp_profile *vp = lp_profile_set_find(&lp_vg_totals, LP_PROF_VALUE, LP_PHASE_NONE);
    lp_vg_values = vp ? &vp->table : NULL;

    lp_meta meta = {0};
    lp_vg_base_meta(&meta);
    if (lp_vg_clo_imatrix) {
        lp_vg_im_fd = lp_vg_create(lp_vg_clo_imatrix);
        /* The value profile is whole-run only: per interval it would be as
         * large as the run's load stream. So is the context profile: a
         * context's id names its whole path, which an interval cannot
         * rebuild from its own entries alone. */
        UInt types = lp_vg_clo_types & ~(1u << LP_PROF_VALUE) & ~(1u << LP_PROF_CONTEXT);
        if (lp_vg_im_fd < 0 || lp_imatrix_writer_create(lp_vg_fd_sink(lp_vg_im_fd), &meta,
                                                        lp_vg_cutter.length, types, &lp_vg_imw))
            return -1;
    }
    if (lp_vg_clo_trace) {
        lp_vg_ev_fd = lp_vg_create(lp_vg_clo_trace);
        if (lp_vg_ev_fd < 0 ||
            lp_evtrace_writer_create(lp_vg_fd_sink(lp_vg_ev_fd), &meta, &lp_vg_evw))
            return -1;
    }
    lp_meta_fini(&meta);
    lp_vg_last_progress_ms = VG_(read_millisecond_timer)();
    return 0;
}

void lp_vg_emit(const lp_event *ev)
{
    if (!lp_vg_evw || !(lp_vg_clo_trace_kinds & (1u << ev->kind)))
        return;
    if (lp_vg_events >= lp_vg_clo_trace_limit) {
        lp_vg_counters[LP_VG_STAT_TRACE_DROPPED]++;
        return;
    }
    lp_vg_events++;
    if (lp_evtrace_writer_add(lp_vg_evw, ev) != LP_OK) {
        VG_(umsg)("lowprof: writing the event trace failed; tracing stops\n");
        lp_evtrace_writer_free(lp_vg_evw);
        lp_vg_evw = NULL;
    }
}

/* ---- intervals ---- */

static void lp_vg_add(UInt type, ULong a, ULong b, ULong v0, ULong v1)
{
    if (!(lp_vg_clo_types & (1u << type)) || (!v0 && !v1))
        return;
    lp_entry *e = lp_table_upsert(&lp_vg_iv.tables[type], (lp_key){a, b});
    if (e) {
        e->v[0] += v0;
        e->v[1] += v1;
    }
}

static void lp_vg_fold_dirty(void)
{
    for (UInt i = 0; i < lp_vg_dirty_branches.count; i++) {
        lp_vg_branch *b = lp_vg_dirty_branches.items[i];
        lp_vg_add(LP_PROF_CODE_REGION, b->pc, 0, b->execs, b->insns_since);
        if (b->kind == LP_VG_COND) {
            if (b->target && !b->tail_taken)
                lp_vg_add(LP_PROF_EDGE, b->pc, b->target, b->taken, 0);
            lp_vg_add(LP_PROF_EDGE, b->pc, b->fallthrough, b->execs - b->taken, 0);
        } else if (b->kind == LP_VG_JUMP && !b->dyn_edges && !b->tail_taken) {
            lp_vg_add(LP_PROF_EDGE, b->pc, b->target, b->execs, 0);
        }
        b->execs = b->insns_since = b->taken = 0;
        b->stamp = 0;
    }
    for (UInt i = 0; i < lp_vg_dirty_blocks.count; i++) {
        lp_vg_block *b = lp_vg_dirty_blocks.items[i];
        lp_vg_add(LP_PROF_BLOCK, b->start, 0, b->execs, b->insns);
        b->execs = b->insns = 0;
        b->stamp = 0;
    }
    for (UInt i = 0; i < lp_vg_dirty_methods.count; i++) {
        lp_vg_method *m = lp_vg_dirty_methods.items[i];
        lp_vg_add(LP_PROF_METHOD, m->entry, 0, m->invocations, m->backward);
        m->invocations = m->backward = 0;
        m->stamp = 0;
    }
    lp_vg_dirty_branches.count = lp_vg_dirty_blocks.count = lp_vg_dirty_methods.count = 0;
}

static void lp_vg_progress(void)
{
    if (!lp_vg_clo_progress)
        return;
    UInt now = VG_(read_millisecond_timer)();
    if (now - lp_vg_last_progress_ms < 1000)
        return;
    lp_vg_last_progress_ms = now;
    VG_(umsg)("lowprof-progress: %llu instructions, %llu intervals\n", lp_vg_icount,
              (ULong)lp_vg_cutter.index + 1);
}

void lp_vg_cut_interval(Bool last)
{
    lp_vg_fold_dirty();
    lp_phase_wide_fold(&lp_vg_wide, &lp_vg_iv.sig);
    lp_vg_iv.index = lp_vg_cutter.index;
    lp_vg_iv.first_insn = lp_vg_cutter.start;
    lp_vg_iv.insns = lp_vg_icount - lp_vg_cutter.start;
    if (lp_vg_imw && lp_imatrix_writer_add(lp_vg_imw, &lp_vg_iv) != LP_OK) {
        VG_(umsg)("lowprof: writing the interval matrix failed; it stops here\n");
        lp_imatrix_writer_free(lp_vg_imw);
        lp_vg_imw = NULL;
    }
    /* Under a sampling strategy the totals are the reconstruction, built
     * at the end from the sampled intervals the daemon keeps. */
    for (UInt t = 1; t <= LP_PROF_TYPE_MAX && !lp_vg_strategy_on; t++) {
        lp_profile *p = lp_profile_set_find(&lp_vg_totals, t, LP_PHASE_NONE);
        if (p && t != LP_PROF_VALUE && lp_table_merge(&p->table, &lp_vg_iv.tables[t]) != LP_OK)
            VG_(tool_panic)((HChar *)"lowprof: out of memory merging an interval");
    }
    lp_vg_phase_cut(&lp_vg_iv, last);
    lp_interval_clear(&lp_vg_iv);
    VG_(memset)(&lp_vg_iv.sig, 0, sizeof lp_vg_iv.sig);
    VG_(memset)(&lp_vg_wide, 0, sizeof lp_vg_wide);
    lp_interval_cutter_advance(&lp_vg_cutter, lp_vg_icount);
    lp_vg_progress();
}

/* ---- the end ---- */

/* The objects Valgrind has debug info for; each range covers the text and
 * PLT sections so that calls through PLT stubs resolve to their module. */
static void lp_vg_module_map(lp_module_map *m)
{
    for (const DebugInfo *di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di)) {
        Addr lo = VG_(DebugInfo_get_text_avma)(di);
        Addr hi = lo + VG_(DebugInfo_get_text_size)(di);
        Addr plo = VG_(DebugInfo_get_plt_avma)(di);
        Addr phi = plo + VG_(DebugInfo_get_plt_size)(di);
        if (VG_(DebugInfo_get_plt_size)(di)) {
            lo = plo < lo || lo == hi ? plo : lo;
            hi = phi > hi ? phi : hi;
        }
        /* Valgrind keeps debug info for the tool itself too; it is never
         * guest code. */
        Addr self = (Addr)&lp_vg_module_map;
        if (hi <= lo || (lo <= self && self < hi))
            continue;
        lp_module_map_add(m, VG_(DebugInfo_get_filename)(di), lo, hi - lo,
                          VG_(DebugInfo_get_text_bias)(di), NULL, 0);
    }
}

static void lp_vg_close(Int *fd)
{
    if (*fd >= 0)
        VG_(close)(*fd);
    *fd = -1;
}

void lp_vg_out_finish(Int exitcode)
{
    if (!lp_vg_enabled)
        return; /* a forked child: the parent owns the files */
    /* The daemon needs every interval ended, the last one included, so a
     * strategy run always cuts here (even an empty interval). */
    if (lp_vg_icount > lp_vg_cutter.start || lp_vg_cutter.index == 0 || lp_vg_strategy_on)
        lp_vg_cut_interval(True);
    lp_module_map modules = {0};
    lp_vg_module_map(&modules);
    if (lp_vg_imw) {
        if (lp_imatrix_writer_finish(lp_vg_imw, &modules) != LP_OK)
            VG_(umsg)("lowprof: finishing the interval matrix failed\n");
        lp_imatrix_writer_free(lp_vg_imw);
    }
    lp_vg_close(&lp_vg_im_fd);
    if (lp_vg_evw) {
        if (lp_evtrace_writer_finish(lp_vg_evw, &modules) != LP_OK)
            VG_(umsg)("lowprof: finishing the event trace failed\n");
        lp_evtrace_writer_free(lp_vg_evw);
    }
    lp_vg_close(&lp_vg_ev_fd);

    lp_meta *m = &lp_vg_totals.meta;
    lp_vg_base_meta(m);
    lp_vg_tuples_finish(&lp_vg_totals);
    lp_vg_phase_finish(&lp_vg_totals);
    lp_vg_bursty_finish(&lp_vg_totals);
    lp_vg_value_finish(&lp_vg_totals);
    lp_vg_context_finish(&lp_vg_totals);
    lp_vg_hps_finish(&lp_vg_totals);
    lp_vg_meta_u64(m, "instructions", lp_vg_icount);
    lp_meta_set(m, "skip-plt", lp_vg_clo_skip_plt ? "yes" : "no");
    lp_vg_meta_u64(m, "intervals", lp_vg_cutter.index);
    lp_vg_meta_u64(m, "exit-code", (ULong)(Long)exitcode);
    lp_vg_meta_u64(m, "sites", lp_vg_counters[LP_VG_STAT_SITES]);
    lp_vg_meta_u64(m, "mid-block-branch-exits", lp_vg_counters[LP_VG_STAT_MID_BRANCH_EXITS]);
    lp_vg_meta_u64(m, "frame-overflows", lp_vg_counters[LP_VG_STAT_FRAME_OVERFLOW]);
    /* Block executions that ran a profiling helper, and those that ran the
     * signature helper instead (inline signature code is not counted). */
    lp_vg_meta_u64(m, "profile-helper-calls", lp_vg_counters[LP_VG_STAT_PROFILE_CALLS]);
    lp_vg_meta_u64(m, "signature-helper-calls", lp_vg_counters[LP_VG_STAT_SIG_CALLS]);
    if (lp_vg_values)
        lp_vg_meta_u64(m, "load-sites", lp_vg_counters[LP_VG_STAT_LOAD_SITES]);
    if (lp_vg_clo_trace) {
        lp_vg_meta_u64(m, "trace-events", lp_vg_events);
        lp_vg_meta_u64(m, "trace-dropped", lp_vg_counters[LP_VG_STAT_TRACE_DROPPED]);
    }
    lp_module_map_copy(&lp_vg_totals.modules, &modules);
    lp_module_map_fini(&modules);
    Int fd = lp_vg_create(lp_vg_clo_out);
    if (fd >= 0) {
        if (lp_profile_file_write(&lp_vg_totals, lp_vg_fd_sink(fd)) != LP_OK)
            VG_(umsg)("lowprof: writing %s failed\n", lp_vg_clo_out);
        VG_(close)(fd);
    }
}
