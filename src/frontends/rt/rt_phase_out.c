/* The phase strategy's output (rt_phase.c runs the strategy): the
 * whole-run estimate and per-phase profiles of a dump, with the trace and
 * the samples in the metadata, and under ship=interleaved a message per
 * profiled interval as it ends. Daemon (or the dump), under the lock. */
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

/* Interleaved shipping: what the messages sent so far covered. */
static size_t lp__rt_ship_samples, lp__rt_ship_trace;
static uint64_t lp__rt_ship_part;
static char lp__rt_run_id[33];

__extension__ typedef unsigned __int128 lp__rt_u128;

/* a / b as num / den, both shifted down to fit 64 bits; 0 when either
 * is 0 */
static int lp__rt_ratio64(lp__rt_u128 a, lp__rt_u128 b, uint64_t *num, uint64_t *den)
{
    while (a > UINT64_MAX || b > UINT64_MAX) {
        a >>= 1;
        b >>= 1;
    }
    if (!a || !b)
        return 0;
    *num = (uint64_t)a;
    *den = (uint64_t)b;
    return 1;
}

/* ---- scouts: the intervals not profiled ----------------------------------------------------- */

/* Each phase's scouted intervals, their tables added up
 * (lp__rt_scout_tables, rt_phase.c), standing for themselves
 * (lp_phase_daemon_cover): the k-th policy profiles a phase from its k-th
 * predicted interval on, so a phase shorter than that (the run's
 * start-up, an input generator that runs once) was lent to a neighbour's
 * profile, and its own functions were missing from the estimate; and a
 * profiled phase's other intervals need not hold its profiled one's mix
 * (lp__rt_scout_wanted, rt_phase.c). Those the clock did not time (no
 * clock yet) stand for themselves only in a phase never profiled; in a
 * profiled one they count as its other intervals do. Their size rests on
 * the run's slowdown, measured in later intervals: standing for
 * themselves there, the run's first interval read rt/scale's
 * single-thread loop up to 34 % high, and call-graph accuracy on the
 * native suite was the same either way (doc/eval-native.md). One entry
 * per phase that had a scouted interval, in order of appearance. */
typedef struct lp__rt_scout {
    uint32_t phase;
    uint64_t n, nk;           /* intervals scouted, those the clock timed */
    lp__rt_kept tab[2][2];    /* [timed by CPU time (no clock yet)][h]: lp__rt_scout_keep */
    uint64_t rate[4];         /* the timed ones' clock calls and CPU time, as lp__rt_scout_rate */
} lp__rt_scout;

static lp__rt_scout *lp__rt_scouts;
static size_t lp__rt_nscouts, lp__rt_scouts_cap;

void lp__rt_scout_keep(uint32_t phase, lp__rt_kept k[2], int by_cpu, const uint64_t rate[4])
{
    size_t i = 0;
    while (i < lp__rt_nscouts && lp__rt_scouts[i].phase != phase)
        i++;
    if (i == lp__rt_nscouts && lp__rt_nscouts == lp__rt_scouts_cap) {
        size_t cap = lp__rt_scouts_cap ? 2 * lp__rt_scouts_cap : 8;
        lp__rt_scout *g = lp_realloc(lp__rt_scouts, lp__rt_scouts_cap * sizeof *g, cap * sizeof *g);
        if (g) {
            lp__rt_scouts = g;
            lp__rt_scouts_cap = cap;
        }
    }
    if (i == lp__rt_nscouts && lp__rt_nscouts < lp__rt_scouts_cap) {
        lp__rt_scouts[i].phase = phase;
        lp__rt_scouts[i].n = lp__rt_scouts[i].nk = 0;
        memset(lp__rt_scouts[i].rate, 0, sizeof lp__rt_scouts[i].rate);
        for (unsigned c = 0; c < 2; c++)
            for (unsigned h = 0; h < 2; h++)
                for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
                    lp_table_init(&lp__rt_scouts[i].tab[c][h].t[t], 0);
        lp__rt_nscouts++;
    }
    /* Short of memory the interval is lost to the estimate (lent to a
     * neighbour if its phase has no profile), not the run. */
    int keep = i < lp__rt_nscouts && lp_phase_daemon_cover(lp__rt_pd, !by_cpu) == 0;
    if (keep) {
        lp__rt_scouts[i].n++;
        lp__rt_scouts[i].nk += !by_cpu;
        for (unsigned r = 0; r < 4; r++)
            lp__rt_scouts[i].rate[r] += rate[r];
    }
    for (unsigned h = 0; h < 2; h++)
        for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++) {
            if (keep)
                (void)lp_table_merge(&lp__rt_scouts[i].tab[by_cpu != 0][h].t[t], &k[h].t[t]);
            lp_table_fini(&k[h].t[t]);
        }
}

void lp__rt_scouts_free(void)
{
    for (size_t i = 0; i < lp__rt_nscouts; i++)
        for (unsigned c = 0; c < 2; c++)
            for (unsigned h = 0; h < 2; h++)
                for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
                    lp_table_fini(&lp__rt_scouts[i].tab[c][h].t[t]);
    lp_free(lp__rt_scouts);
    lp__rt_scouts = NULL;
    lp__rt_nscouts = lp__rt_scouts_cap = 0;
}

/* How much slower the program ran counting than not, as num / den (at
 * least 1, at most 8): the clock's calls per CPU ns out of the windows
 * (r[2] calls in r[3] ns) over those in them (r[0] in r[1]). 0, with num
 * and den as they were, where either side saw too few calls to tell. */
static int lp__rt_slowdown_of(const lp__rt_u128 r[4], uint64_t *num, uint64_t *den)
{
    if (r[0] < LP__RT_SCOUT_TICKS || r[2] < LP__RT_SCOUT_TICKS)
        return 0;
    if (!lp__rt_ratio64(r[2] * r[1], r[3] * r[0], num, den) || *num <= *den)
        *num = *den = 1;
    else if (*num / 8 > *den)
        *num = 8 * *den;
    return 1;
}

/* Adds to out the type-t tables of the scouted intervals that stand for
 * themselves (lp_phase_daemon_cover): those the clock timed, and in a
 * phase never profiled every one; its profile stands for the rest.
 * Returns 0 or an error; in *never the intervals scouted in phases never
 * profiled, in *own all that stand for themselves.
 * Each is its windows' counts plus s times them times the rest of its
 * interval's CPU time over theirs (lp__rt_scout_tables), s the windows'
 * slowdown: that of its phase's scouts where their windows and the rest
 * saw enough of the clock's calls (the slowdown differs between phases
 * as their mix of counted calls does), else the run's, slow_num /
 * slow_den (lp__rt_slowdown). */
static int lp__rt_scouts_add(unsigned t, lp_table *out, uint64_t *never, uint64_t *own,
                             uint64_t slow_num, uint64_t slow_den)
{
    int rc = 0;
    *never = *own = 0;
    for (size_t i = 0; i < lp__rt_nscouts && !rc; i++) {
        const lp__rt_scout *sc = &lp__rt_scouts[i];
        uint64_t intervals = 0, sampled = 0, num = slow_num, den = slow_den;
        lp_phase_daemon_stratum(lp__rt_pd, sc->phase, &intervals, &sampled);
        *never += sampled ? 0 : sc->n;
        *own += sampled ? sc->nk : sc->n;
        lp__rt_u128 r[4] = {sc->rate[0], sc->rate[1], sc->rate[2], sc->rate[3]};
        (void)lp__rt_slowdown_of(r, &num, &den);
        rc = lp_table_merge(out, &sc->tab[0][0].t[t]);
        if (!rc)
            rc = lp_phase_scale_add(out, &sc->tab[0][1].t[t], num, den);
        if (!rc && !sampled)
            rc = lp_table_merge(out, &sc->tab[1][0].t[t]);
        if (!rc && !sampled)
            rc = lp_phase_scale_add(out, &sc->tab[1][1].t[t], slow_num, slow_den);
    }
    return rc;
}

/* ---- the phase strategy's profiles ---------------------------------------------------------- */

/* "id*count,...": the phase-ID trace from interval `from` on, run-length
 * coded (as lowprof record). */
static void lp__rt_meta_trace(lp_meta *m, size_t from)
{
    size_t n = 0;
    const uint32_t *tr = lp_phase_daemon_trace(lp__rt_pd, &n);
    size_t cap = 64 + n * 24, len = 0;
    char *buf = lp_malloc(cap);
    if (!buf)
        return;
    buf[0] = 0;
    char a[24], b[24];
    for (size_t i = from; i < n;) {
        size_t j = i;
        while (j < n && tr[j] == tr[i])
            j++;
        const char *parts[4] = {i > from ? "," : "", lp__rt_u64(tr[i], a), "*",
                                lp__rt_u64(j - i, b)};
        for (int p = 0; p < 4; p++)
            for (const char *s = parts[p]; *s && len + 1 < cap; s++)
                buf[len++] = *s;
        buf[len] = 0;
        i = j;
    }
    lp_meta_set(m, "phase-trace", buf);
    lp_free(buf);
}

/* "interval:phase,...": the daemon's samples from the from-th on. */
static void lp__rt_meta_sampled(lp_meta *m, size_t from)
{
    size_t ns = 0;
    const lp_phase_sample *samples = lp_phase_daemon_samples(lp__rt_pd, &ns);
    size_t cap = ns * 24 + 1, len = 0;
    char *list = lp_malloc(cap);
    if (!list)
        return;
    list[0] = 0;
    char a[24], b[24];
    for (size_t j = from; j < ns; j++) {
        const char *parts[4] = {j > from ? "," : "", lp__rt_u64(samples[j].interval, a), ":",
                                lp__rt_u64(samples[j].stratum, b)};
        for (int p = 0; p < 4; p++)
            for (const char *s = parts[p]; *s && len + 1 < cap; s++)
                list[len++] = *s;
        list[len] = 0;
    }
    lp_meta_set(m, "sampled", list);
    lp_free(list);
}

/* Whether interval i was profiled. */
static int lp__rt_iv_kept(const lp_phase_sample *samples, size_t ns, uint64_t i)
{
    for (size_t q = 0; q < ns; q++)
        if (samples[q].interval == i)
            return 1;
    return 0;
}

/* The clock's calls in interval i: counted, or for an interval before the
 * clock was chosen, its CPU time at rate (calls per ns, rate_num /
 * rate_den) of the unprofiled intervals counted. A run without a clock
 * measures its intervals in CPU time. */
static uint64_t lp__rt_iv_calls(size_t i, uint64_t rate_num, uint64_t rate_den)
{
    const lp__rt_iv *iv = &lp__rt_ivs[i];
    if (lp__rt_tk.method < 0)
        return iv->cpu;
    if (iv->ticks != UINT64_MAX)
        return iv->ticks;
    return rate_den ? lp__rt_muldiv(iv->cpu, rate_num, rate_den) : 0;
}

/* The whole-run estimate's weight of each profiled interval, num[j] /
 * den[j]. lp_phase_reconstruct counts each profiled interval as some
 * number of its phase's intervals (the k-th interval policy: the phase's
 * intervals over its profiled ones; refine: its calibrated weight), but a
 * profiled interval ran slower and held less of the program's progress,
 * and the last interval is cut short. With a clock each profiled interval
 * is first brought to one average interval of its phase: its counts times
 * the phase's mean clock calls per interval (those lent to it included:
 * lp_phase_daemon_stands_for) over the calls in this one. Without a
 * clock the unit is CPU time, which leaves the slowdown in but takes out
 * a cut-short last interval and a boundary the daemon reached late: a
 * loop whose phase was one profiled interval and four more, the last
 * three-quarters long, read 5 % high by a whole interval's weight.
 * 1/1 where neither says anything. (Its counts were already scaled from
 * its window to the whole interval: lp__rt_keep_interval.)
 * The per-phase profiles stay raw: the collector weights them by the trace
 * alone, and the Interleaved messages, sent before a phase's other
 * intervals are known, carry the same. */
static void lp__rt_clock_weights(const lp_phase_sample *samples, size_t ns, uint64_t *num,
                                 uint64_t *den)
{
    size_t nt = 0;
    (void)lp_phase_daemon_trace(lp__rt_pd, &nt);
    nt = nt < lp__rt_niv ? nt : lp__rt_niv;
    uint64_t rate_num = 0, rate_den = 0; /* the unprofiled intervals' clock rate */
    for (size_t i = 0; i < nt; i++)
        if (lp__rt_ivs[i].ticks != UINT64_MAX && !lp__rt_iv_kept(samples, ns, i)) {
            rate_num += lp__rt_ivs[i].ticks;
            rate_den += lp__rt_ivs[i].cpu;
        }
    for (size_t j = 0; j < ns; j++) {
        num[j] = den[j] = 1;
        uint64_t all = 0, nall = 0, kept = 0;
        for (size_t i = 0; i < nt; i++)
            if (lp_phase_daemon_stands_for(lp__rt_pd, i) == samples[j].stratum) {
                all += lp__rt_iv_calls(i, rate_num, rate_den);
                nall++;
            }
        if (samples[j].interval < nt)
            kept = lp__rt_iv_calls(samples[j].interval, rate_num, rate_den);
        /* (all / nall) / kept */
        uint64_t a, b;
        if (lp__rt_ratio64(all, (lp__rt_u128)kept * nall, &a, &b)) {
            num[j] = a;
            den[j] = b;
        }
    }
}

/* The run's windows' slowdown, num / den (lp__rt_slowdown_of): measured
 * in the intervals the clock timed whole (lp__rt_scout_rate); where those
 * saw too few of its calls (the clock rarely called in the scouts'
 * phases), by whole profiled intervals against the unprofiled ones of the
 * same phase, where both saw enough of its calls (an interval profiled in
 * part is neither). The scouts before the clock need it, and those of a
 * phase whose own scouts saw too few of its calls: on a call-heavy loop
 * (rt/scale) scouts scaled by CPU time alone came out half the truth. */
static void lp__rt_slowdown(const lp_phase_sample *samples, size_t ns, uint64_t *num, uint64_t *den)
{
    lp__rt_u128 r[4] = {lp__rt_scout_rate[0], lp__rt_scout_rate[1], lp__rt_scout_rate[2],
                        lp__rt_scout_rate[3]};
    *num = *den = 1;
    if (lp__rt_slowdown_of(r, num, den))
        return;
    memset(r, 0, sizeof r);
    lp_table by; /* key {phase, profiled}: v[0] clock calls, v[1] CPU ns */
    lp_table_init(&by, 0);
    size_t nt = 0;
    const uint32_t *trace = lp_phase_daemon_trace(lp__rt_pd, &nt);
    nt = nt < lp__rt_niv ? nt : lp__rt_niv;
    for (size_t i = 0; i < nt; i++) {
        if (lp__rt_ivs[i].ticks == UINT64_MAX || !lp__rt_ivs[i].cpu)
            continue;
        int kept = lp__rt_iv_kept(samples, ns, i);
        if (kept && !lp__rt_ivs[i].whole)
            continue;
        lp_key k = {trace[i], (uint64_t)kept};
        lp_entry *e = lp_table_upsert(&by, k);
        if (e) {
            e->v[0] += lp__rt_ivs[i].ticks;
            e->v[1] += lp__rt_ivs[i].cpu;
        }
    }
    size_t cur = 0;
    for (const lp_entry *e; (e = lp_table_next(&by, &cur)) != NULL;) {
        lp_key k = {e->key.a, 0};
        const lp_entry *plain = e->key.b ? lp_table_find(&by, k) : NULL;
        if (!plain || e->v[0] < LP__RT_SCOUT_TICKS || plain->v[0] < LP__RT_SCOUT_TICKS)
            continue;
        r[0] += e->v[0];
        r[1] += e->v[1];
        r[2] += plain->v[0];
        r[3] += plain->v[1];
    }
    lp_table_fini(&by);
    (void)lp__rt_slowdown_of(r, num, den);
}

int lp__rt_daemon_profiles(lp_profile_set *set, int final)
{
    (void)final;
    if (lp__rt.cfg.strategy != LP__RT_PHASE || !lp__rt_pd)
        return 0;
    size_t ns = 0;
    const lp_phase_sample *samples = lp_phase_daemon_samples(lp__rt_pd, &ns);
    if (ns != lp__rt_nkept)
        return LP_EINVAL;
    const lp_table **tabs = lp_malloc((ns ? ns : 1) * sizeof *tabs);
    lp_table *scaled = lp_calloc(ns ? ns : 1, sizeof *scaled);
    uint64_t *num = lp_calloc(2 * (ns ? ns : 1), sizeof *num), *den = num ? num + ns : NULL;
    if (!tabs || !scaled || !num) {
        lp_free(tabs);
        lp_free(scaled);
        lp_free(num);
        return LP_ENOMEM;
    }
    lp__rt_clock_weights(samples, ns, num, den);
    uint64_t slow_num, slow_den;
    lp__rt_slowdown(samples, ns, &slow_num, &slow_den);
    int rc = 0;
    uint64_t scouted_for = 0, scouted_own = 0; /* in phases never profiled, in all */
    for (unsigned t = 1; t <= LP_PROF_TYPE_MAX && !rc; t++) {
        if (!lp__rt_type_written(t))
            continue;
        lp_profile *p;
        if ((rc = lp_profile_set_add(set, t, LP_PHASE_NONE, &p)) != 0)
            break;
        for (size_t j = 0; j < ns && !rc; j++) {
            lp_table_init(&scaled[j], 0);
            rc = lp_phase_scale_add(&scaled[j], &lp__rt_kept_tabs[j].t[t], num[j], den[j]);
            tabs[j] = &scaled[j];
        }
        if (!rc)
            rc = lp_phase_reconstruct(lp__rt_pd, tabs, ns, &p->table);
        if (!rc)
            rc = lp__rt_scouts_add(t, &p->table, &scouted_for, &scouted_own, slow_num, slow_den);
        for (size_t j = 0; j < ns; j++)
            lp_table_fini(&scaled[j]);
        for (size_t j = 0; j < ns && !rc; j++) {
            lp_profile *q = lp_profile_set_find(set, t, samples[j].stratum);
            if (!q) {
                if ((rc = lp_profile_set_add(set, t, samples[j].stratum, &q)) != 0)
                    break;
                uint64_t intervals = 0, sampled = 0;
                lp_phase_daemon_stratum(lp__rt_pd, samples[j].stratum, &intervals, &sampled);
                q->scale_num = intervals;
                q->scale_den = sampled ? sampled : 1;
            }
            rc = lp_table_merge(&q->table, &lp__rt_kept_tabs[j].t[t]);
        }
    }
    lp_free(tabs);
    lp_free(scaled);
    lp_free(num);
    lp_meta *m = &set->meta;
    lp_phase_daemon_stats st;
    lp_phase_daemon_get_stats(lp__rt_pd, &st);
    lp__rt_meta_u64(m, "intervals", st.intervals);
    lp__rt_meta_u64(m, "sampled-intervals", st.sampled);
    lp__rt_meta_u64(m, "phases", st.phases);
    lp__rt_meta_u64(m, "phase-resamples", st.resamples);
    lp__rt_meta_u64(m, "phase-unrepresented-intervals", st.unrepresented);
    /* dc.lend, and refine; or the scouts */
    lp_meta_set(m, "phase-unrepresented-lent", lp__rt_scout_wanted() ? "scouted" : "yes");
    if (lp__rt_nscouted) {
        lp__rt_meta_u64(m, "scout-percent", lp__rt.cfg.scout);
        lp__rt_meta_u64(m, "scouted-intervals", lp__rt_nscouted);
        lp__rt_meta_u64(m, "scouted-for-intervals", scouted_for);
        lp__rt_meta_u64(m, "scouted-own-intervals", scouted_own);
        lp__rt_meta_u64(m, "scout-cpu-ns", lp__rt_scout_cpu);
    }
    lp__rt_meta_u64(m, "phase-predictions", st.predictions);
    lp__rt_meta_u64(m, "phase-predictions-correct", st.correct);
    lp__rt_meta_u64(m, "phase-k", lp__rt.cfg.k);
    lp_meta_set(m, "phase-policy", lp__rt.cfg.refine ? "refine" : "kth");
    char thr[32], frac[24];
    uint64_t ppm = (uint64_t)(lp__rt.cfg.threshold * 1e6 + 0.5);
    lp__rt_u64(ppm / 1000000, thr);
    lp__rt_u64(1000000 + ppm % 1000000, frac); /* "1" and six digits */
    frac[0] = '.';
    lp_meta_set(m, "phase-threshold", strcat(thr, frac));
    lp__rt_meta_u64(m, "phase-bits", lp__rt_tracker.bits);
    lp__rt_meta_u64(m, "sampled-cpu-ns", lp__rt_sampled_ns);
    lp__rt_meta_trace(m, 0);
    lp__rt_meta_sampled(m, 0);
    return rc ? rc : 1;
}

/* ---- Interleaved: a message per profiled interval ------------------------------------------ */

/* Writes the samples and the stretch of the phase trace that no message
 * carried yet into the spool as part lp__rt_ship_part of the run (final:
 * the last part, sent even with nothing new). Each sample is a per-phase
 * profile at scale 1/1: how much a phase weighs is known only from the
 * whole trace, so the collector works it out when it has every part. Runs
 * in the daemon with lp__rt.lock held; the write is one small file per
 * profiled interval. */
void lp__rt_ship_interleaved(int final)
{
    size_t ns = 0, nt = 0;
    const lp_phase_sample *samples = lp_phase_daemon_samples(lp__rt_pd, &ns);
    lp_phase_daemon_trace(lp__rt_pd, &nt);
    if ((!final && ns == lp__rt_ship_samples) || ns != lp__rt_nkept)
        return;
    if (lp__rt_ship_part == 0)
        lp__rt_random_id(lp__rt_run_id);
    lp_profile_set set;
    memset(&set, 0, sizeof set);
    lp_meta *m = &set.meta;
    lp_meta_set(m, "recorder", "lowprof native runtime");
    lp_meta_set(m, "program", lp__rt.program);
    lp_meta_set(m, "args", lp__rt.args);
    lp_meta_set(m, "strategy", "phase");
    lp_meta_set(m, "ship", "interleaved");
    lp_meta_set(m, "run-id", lp__rt_run_id);
    lp__rt_meta_u64(m, "part", lp__rt_ship_part);
    lp_meta_set(m, "final", final ? "yes" : "no");
    lp__rt_meta_u64(m, "first-interval", lp__rt_ship_trace);
    lp__rt_meta_trace(m, lp__rt_ship_trace);
    lp__rt_meta_sampled(m, lp__rt_ship_samples);
    if (final)
        lp__rt_meta_u64(m, "parts", lp__rt_ship_part + 1);
    lp__rt_module_map(&set.modules);
    int rc = 0;
    for (unsigned t = 1; t <= LP_PROF_TYPE_MAX && !rc; t++) {
        if (!lp__rt_type_written(t))
            continue;
        for (size_t j = lp__rt_ship_samples; j < ns && !rc; j++) {
            lp_profile *q = lp_profile_set_find(&set, t, samples[j].stratum);
            if (!q)
                rc = lp_profile_set_add(&set, t, samples[j].stratum, &q);
            if (!rc)
                rc = lp_table_merge(&q->table, &lp__rt_kept_tabs[j].t[t]);
        }
    }
    /* The last part also carries the run's own estimate, which weighs each
     * profiled interval by the clock and lends the phases never profiled:
     * the collector takes it in place of weighing the parts' profiles by
     * the trace alone, so the parts merge to what the run's file gives. */
    lp_profile_set est;
    memset(&est, 0, sizeof est);
    if (final && !rc && (rc = lp__rt_daemon_profiles(&est, 1)) > 0)
        rc = 0;
    for (size_t i = 0; i < est.count && !rc; i++) {
        const lp_profile *e = &est.profiles[i];
        lp_profile *q;
        if (e->phase != LP_PHASE_NONE)
            continue;
        rc = lp_profile_set_add(&set, e->type, LP_PHASE_NONE, &q);
        if (!rc)
            rc = lp_table_merge(&q->table, &e->table);
        if (!rc) {
            q->scale_num = e->scale_num;
            q->scale_den = e->scale_den;
        }
    }
    lp_profile_set_fini(&est);
    /* A part that could not be built or written is not retried: the
     * collector then estimates the run from the parts it has. */
    if (!rc)
        lp__rt_spool_write(&set);
    lp_profile_set_fini(&set);
    lp__rt_ship_samples = ns;
    lp__rt_ship_trace = nt;
    lp__rt_ship_part++;
}

void lp__rt_ship_forget(void)
{
    /* The child is a run of its own: a new run-id with its first part. */
    lp__rt_ship_samples = lp__rt_ship_trace = 0;
    lp__rt_ship_part = 0;
}
