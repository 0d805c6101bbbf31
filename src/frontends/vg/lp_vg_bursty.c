/* Bursty tracing in the Valgrind tool (Hirzel and Chilimbi, sections 2-5):
 * the Fig. 3 check runs at the procedure entries and loop back-edges a
 * placement chose, with one lp_bursty per guest thread, and decides whether
 * the code up to the thread's next check runs "instrumented". The DBI has
 * one copy of the code, so "instrumented" is the profile builders' flag
 * (lp_vg_sampling, which the translated code already obeys for the
 * interval strategies) and the data-reference recorder's; a return lands
 * in whatever mode the last check chose, which is what the paper's
 * duplicated code does when it returns into the other copy.
 *
 * Placement: without a checks file every function entry (the first
 * instruction of a symbol) and every taken backward branch has a check,
 * the paper's "orig". A checks file, which `lowprof record --checks`
 * writes from its binary analysis, lists the checked entries and
 * back-edges (branch and loop header) per module at link-time addresses;
 * code of modules it does not name has no checks.
 *
 * Data references (loads and stores) go to two hot-data-stream builders:
 * the sampled one sees those made in bursts, the exhaustive one every
 * reference, so that one run gives both profiles and their overlap
 * (equation 5). Both stop at --streams-limit references of the exhaustive
 * trace, so they cover the same stretch of the run. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"

#include "lowprof/bursty.h"
#include "lowprof/metrics.h"
#include "lowprof/streams.h"
#include "lp_vg.h"

/* Streams reported in the profile's metadata with their whole signature. */
#define LP_VG_STREAMS_DESCRIBED 20

static lp_table lp_vg_checks;     /* key (module index + 1, link-time address): 1 entry, 2 back-edge */
static HChar **lp_vg_check_mods;  /* module paths of the checks file */
static UInt lp_vg_ncheck_mods;
static lp_streams_builder *lp_vg_streams_sampled, *lp_vg_streams_exact;
static Bool lp_vg_streams_full;   /* the window of --streams-limit references is over */
static ULong lp_vg_streams_dropped; /* references a builder refused (out of memory) */

Bool lp_vg_bursty_parse(const HChar *v)
{
    HChar *end;
    if (VG_(strncmp)(v, "inf:", 4) == 0) {
        lp_vg_clo_bursty_check = LP_BURSTY_INFINITE;
        end = (HChar *)v + 3;
    } else {
        lp_vg_clo_bursty_check = VG_(strtoull10)(v, &end);
        if (lp_vg_clo_bursty_check == 0 || lp_vg_clo_bursty_check == LP_BURSTY_INFINITE)
            return False;
    }
    if (*end != ':')
        return False;
    lp_vg_clo_bursty_instr = VG_(strtoull10)(end + 1, &end);
    return *end == 0 && lp_vg_clo_bursty_instr >= 1;
}

/* ---- the checks file ------------------------------------------------------- */

/* "module PATH", then "e 0xADDR" and "b 0xADDR" lines for it; '#' starts a
 * comment line. The CLI wrote it, so a malformed line is a bug: fatal. */
static void lp_vg_checks_load(const HChar *path)
{
    SizeT len;
    HChar *text = lp_vg_read_file(path, &len);
    if (!text)
        VG_(fmsg_bad_option)("--checks-file", "cannot read %s\n", path);
    lp_table_init(&lp_vg_checks, 1024);
    UInt line = 0;
    for (SizeT i = 0; i < len;) {
        SizeT e = i;
        while (e < len && text[e] != '\n')
            e++;
        text[e] = 0;
        HChar *s = text + i;
        line++;
        i = e + 1;
        if (*s == 0 || *s == '#')
            continue;
        if (VG_(strncmp)(s, "module ", 7) == 0) {
            lp_vg_check_mods = VG_(realloc)("lp.checks", lp_vg_check_mods,
                                            (lp_vg_ncheck_mods + 1) * sizeof *lp_vg_check_mods);
            lp_vg_check_mods[lp_vg_ncheck_mods++] = VG_(strdup)("lp.checks", s + 7);
            continue;
        }
        HChar *end;
        ULong addr = (s[0] == 'e' || s[0] == 'b') && s[1] == ' ' ? VG_(strtoull16)(s + 2, &end) : 0;
        ULong to = 0;
        if (addr && s[0] == 'b' && *end == ' ')
            to = VG_(strtoull16)(end + 1, &end);
        if (!lp_vg_ncheck_mods || !addr || *end || (s[0] == 'b' && !to))
            VG_(fmsg_bad_option)("--checks-file", "%s:%u: not a check line\n", path, line);
        lp_entry *en = lp_table_upsert(&lp_vg_checks, (lp_key){lp_vg_ncheck_mods, addr});
        if (!en)
            VG_(tool_panic)((HChar *)"lowprof: out of memory reading the checks");
        en->v[0] |= s[0] == 'e' ? 1 : 2;
        if (s[0] == 'b')
            en->v[1] = to;
    }
    VG_(free)(text);
}

/* Whether the checks file puts a check of kind (1 entry, 2 back-edge) at
 * addr, for a back-edge the transfer from addr to dst (either side of a
 * conditional branch: a loop whose header follows the branch is closed by
 * its fall-through); without a file, every entry and every taken backward
 * branch has one (orig). */
static Bool lp_vg_has_check(ULong addr, ULong kind, ULong dst)
{
    if (!lp_vg_ncheck_mods)
        return kind == 1 || (dst && dst <= addr);
    DebugInfo *di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), (Addr)addr);
    if (!di)
        return False;
    const HChar *file = VG_(DebugInfo_get_filename)(di);
    for (UInt m = 0; m < lp_vg_ncheck_mods; m++) {
        if (VG_(strcmp)(file, lp_vg_check_mods[m]) != 0)
            continue;
        ULong bias = (ULong)VG_(DebugInfo_get_text_bias)(di);
        lp_entry *e = lp_table_find(&lp_vg_checks, (lp_key){m + 1, addr - bias});
        return e && (e->v[0] & kind) && (kind == 1 || e->v[1] == dst - bias);
    }
    return False;
}

Bool lp_vg_bursty_entry_check(ULong addr)
{
    return lp_vg_bursty_on && lp_vg_is_function_entry(addr) && lp_vg_has_check(addr, 1, 0);
}

Bool lp_vg_bursty_backedge_check(ULong pc, ULong dst)
{
    return lp_vg_bursty_on && lp_vg_has_check(pc, 2, dst);
}

/* ---- run time ----------------------------------------------------------------- */

void lp_vg_bursty_init(void)
{
    if (!lp_vg_clo_bursty_check) {
        if (lp_vg_clo_types & (1u << LP_PROF_STREAMS)) {
            /* Streams without bursts: the exhaustive trace's alone. */
            if (lp_streams_builder_create(&lp_vg_streams_exact) != 0)
                VG_(tool_panic)((HChar *)"lowprof: out of memory for the streams");
        }
        return;
    }
    lp_vg_bursty_on = True;
    if (lp_vg_clo_checks)
        lp_vg_checks_load(lp_vg_clo_checks);
    if ((lp_vg_clo_types & (1u << LP_PROF_STREAMS)) &&
        (lp_streams_builder_create(&lp_vg_streams_sampled) != 0 ||
         lp_streams_builder_create(&lp_vg_streams_exact) != 0))
        VG_(tool_panic)((HChar *)"lowprof: out of memory for the streams");
    lp_vg_sampling = 0; /* every thread starts in the checking code */
}

/* Every thread's state, for the totals at the end. */
static lp_vg_thread **lp_vg_bursty_threads;
static UInt lp_vg_bursty_nthreads;

void lp_vg_bursty_thread(lp_vg_thread *t)
{
    if (!lp_vg_bursty_on)
        return;
    lp_bursty_init(&t->bursty, lp_vg_clo_bursty_check, lp_vg_clo_bursty_instr);
    lp_vg_bursty_threads = VG_(realloc)("lp.bursty", lp_vg_bursty_threads,
                                        (lp_vg_bursty_nthreads + 1) * sizeof *lp_vg_bursty_threads);
    lp_vg_bursty_threads[lp_vg_bursty_nthreads++] = t;
}

void lp_vg_bursty_switch(lp_vg_thread *t)
{
    if (lp_vg_bursty_on)
        lp_vg_sampling = (UInt)t->bursty.mode;
}

VG_REGPARM(0) void lp_vg_bursty_check(void)
{
    if (lp_vg_enabled)
        lp_vg_sampling = (UInt)lp_bursty_check(&lp_vg_cur->bursty);
}

Bool lp_vg_streams_wanted(void)
{
    return lp_vg_streams_exact != NULL;
}

/* The thread and burst the last reference of each builder came from. */
static const lp_vg_thread *lp_vg_streams_exact_from, *lp_vg_streams_sampled_from;
static ULong lp_vg_streams_sampled_burst;

void lp_vg_streams_ref(ULong pc, ULong addr)
{
    if (lp_vg_streams_full)
        return;
    if (lp_streams_builder_length(lp_vg_streams_exact) >= lp_vg_clo_streams_limit) {
        lp_vg_streams_full = True;
        return;
    }
    /* Each thread's references are its own trace: a stream never runs from
     * one thread's references into another's. */
    if (lp_vg_cur != lp_vg_streams_exact_from) {
        lp_streams_builder_cut(lp_vg_streams_exact);
        lp_vg_streams_exact_from = lp_vg_cur;
    }
    if (lp_streams_builder_push(lp_vg_streams_exact, pc, addr) != 0)
        lp_vg_streams_dropped++;
    if (!lp_vg_streams_sampled || !lp_vg_sampling)
        return;
    /* Two bursts are not adjacent in the trace, so the bursts' trace is cut
     * between them: a sequence that ended one burst and one that began the
     * next are not a stream. */
    if (lp_vg_cur != lp_vg_streams_sampled_from ||
        lp_vg_cur->bursty.bursts != lp_vg_streams_sampled_burst) {
        lp_streams_builder_cut(lp_vg_streams_sampled);
        lp_vg_streams_sampled_from = lp_vg_cur;
        lp_vg_streams_sampled_burst = lp_vg_cur->bursty.bursts;
    }
    if (lp_streams_builder_push(lp_vg_streams_sampled, pc, addr) != 0)
        lp_vg_streams_dropped++;
}

/* ---- the end ------------------------------------------------------------------- */

/* The hot streams of b as a profile table; *out_streams keeps the result
 * (for describing them), freed by the caller. */
static void lp_vg_streams_table(lp_streams_builder *b, lp_table *out, lp_streams **out_streams)
{
    lp_table_init(out, 0);
    *out_streams = NULL;
    if (lp_streams_builder_find(b, NULL, out_streams) != 0 ||
        lp_streams_profile_table(*out_streams, out) != 0)
        VG_(umsg)("lowprof: out of memory finding the hot data streams; they are left out\n");
}

/* "pc,pc,..." of the hottest streams, one metadata key each. */
static void lp_vg_streams_describe(lp_meta *m, const lp_streams *s)
{
    for (size_t i = 0; s && i < s->count && i < LP_VG_STREAMS_DESCRIBED; i++) {
        const lp_stream *st = &s->stream[i];
        HChar key[48];
        VG_(sprintf)(key, "stream.%016llx", (ULong)st->signature);
        SizeT cap = (SizeT)st->length * 19 + 1, len = 0;
        HChar *v = VG_(malloc)("lp.streams", cap);
        v[0] = 0;
        for (UInt k = 0; k < st->length; k++)
            len += (SizeT)VG_(sprintf)(v + len, "%s%llx", k ? "," : "", (ULong)st->refs[k].pc);
        lp_meta_set(m, key, v);
        VG_(free)(v);
    }
}

static void lp_vg_streams_finish(lp_profile_set *set)
{
    lp_meta *m = &set->meta;
    lp_vg_meta_u64(m, "streams-references", lp_streams_builder_length(lp_vg_streams_exact));
    lp_vg_meta_u64(m, "streams-window-full", lp_vg_streams_full);
    lp_vg_meta_u64(m, "streams-dropped", lp_vg_streams_dropped);
    lp_vg_meta_u64(m, "streams-cuts", lp_streams_builder_cuts(lp_vg_streams_exact));
    lp_table exact;
    lp_streams *se;
    lp_vg_streams_table(lp_vg_streams_exact, &exact, &se);
    lp_vg_meta_u64(m, "streams-exact-count", se ? se->count : 0);
    lp_vg_meta_u64(m, "streams-exact-coverage-ppm", se ? (ULong)(se->coverage * 1e6 + 0.5) : 0);
    lp_table *keep = &exact;
    lp_streams *shown = se;
    lp_table sampled;
    lp_streams *ss = NULL;
    if (lp_vg_streams_sampled) {
        lp_vg_meta_u64(m, "streams-sampled-references",
                       lp_streams_builder_length(lp_vg_streams_sampled));
        lp_vg_meta_u64(m, "streams-sampled-cuts", lp_streams_builder_cuts(lp_vg_streams_sampled));
        lp_vg_streams_table(lp_vg_streams_sampled, &sampled, &ss);
        lp_table he, hs;
        lp_table_init(&he, 0);
        lp_table_init(&hs, 0);
        if (lp_streams_heat_table(&exact, &he) == 0 && lp_streams_heat_table(&sampled, &hs) == 0)
            lp_vg_meta_u64(m, "streams-overlap-ppm",
                           (ULong)(lp_manhattan_accuracy(&he, &hs) * 1e6 + 0.5));
        lp_table_fini(&he);
        lp_table_fini(&hs);
        lp_vg_meta_u64(m, "streams-sampled-count", ss ? ss->count : 0);
        lp_vg_meta_u64(m, "streams-sampled-coverage-ppm",
                       ss ? (ULong)(ss->coverage * 1e6 + 0.5) : 0);
        keep = &sampled;
        shown = ss;
    }
    lp_vg_streams_describe(m, shown);
    lp_profile *p = lp_profile_set_find(set, LP_PROF_STREAMS, LP_PHASE_NONE);
    if (p || lp_profile_set_add(set, LP_PROF_STREAMS, LP_PHASE_NONE, &p) == 0) {
        lp_table_fini(&p->table);
        p->table = *keep; /* frequencies as found in the (sampled) trace: not scaled */
        lp_table_init(keep, 0);
    }
    lp_table_fini(&exact);
    if (lp_vg_streams_sampled)
        lp_table_fini(&sampled);
    lp_streams_free(se);
    lp_streams_free(ss);
}

void lp_vg_bursty_finish(lp_profile_set *set)
{
    if (lp_vg_streams_exact)
        lp_vg_streams_finish(set);
    if (!lp_vg_bursty_on)
        return;
    lp_bursty_stats total = {0};
    for (UInt i = 0; i < lp_vg_bursty_nthreads; i++) {
        lp_bursty_stats st;
        lp_bursty_stats_get(&lp_vg_bursty_threads[i]->bursty, &st);
        total.checks += st.checks;
        total.bursts += st.bursts;
        total.checks_in_instr += st.checks_in_instr;
        total.stretches_instr += st.stretches_instr;
    }
    lp_meta *m = &set->meta;
    lp_meta_set(m, "strategy", "bursty");
    lp_vg_meta_u64(m, "bursty-n-check0", lp_vg_clo_bursty_check);
    lp_vg_meta_u64(m, "bursty-n-instr0", lp_vg_clo_bursty_instr);
    lp_meta_set(m, "bursty-placement", lp_vg_clo_placement ? lp_vg_clo_placement : "orig");
    lp_vg_meta_u64(m, "bursty-checks", total.checks);
    lp_vg_meta_u64(m, "bursty-bursts", total.bursts);
    lp_vg_meta_u64(m, "bursty-instrumented-checks", total.stretches_instr);
    /* Basic overhead, modeled: every check executes its fast path, a
     * load, a decrement, a store and a branch of the counter in memory
     * (our count; the paper measures it instead). */
    lp_vg_meta_u64(m, "bursty-check-insns", LP_VG_CHECK_INSNS);
    lp_vg_meta_u64(m, "bursty-basic-overhead-ppm",
                   lp_vg_icount ? (ULong)((double)total.checks * LP_VG_CHECK_INSNS * 1e6 /
                                          (double)lp_vg_icount + 0.5)
                                : 0);
    /* The profile builders ran only in bursts: scale their counts by the
     * checks over the instrumented stretches, the inverse of the sampling
     * rate actually achieved (r = nInstr0 / (nCheck0 + nInstr0) over whole
     * periods). */
    if (!total.stretches_instr)
        return;
    for (UInt t = 1; t <= LP_PROF_TYPE_MAX; t++) {
        lp_profile *p = lp_profile_set_find(set, t, LP_PHASE_NONE);
        if (!p || t == LP_PROF_STREAMS || t == LP_PROF_VALUE)
            continue;
        p->scale_num = total.checks;
        p->scale_den = total.stretches_instr;
    }
}
