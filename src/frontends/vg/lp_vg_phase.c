/* Interval-granular sampling inside the tool (remote-profiling paper,
 * section 4, Fig. 7): the phase tracker classifies each interval's
 * signature as it is cut, the profiling daemon decides whether the next
 * interval is profiled, and the profile builders obey its flag: while the
 * flag is clear, every block runs only the signature helper, so branches,
 * methods and call pairs cost nothing beyond the tracker.
 *
 * Each sampled interval's tables are kept, tagged with its phase, and at the
 * end the daemon's reconstruction turns them into the whole-run estimate
 * (each stratum's samples scaled by its intervals over its samples). The
 * same phase module runs offline on interval matrices (lowprof eval phase),
 * so an online run can be checked against an offline one. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"

#include "lp_vg.h"

static lp_phase_tracker lp_vg_tracker;
static lp_phase_daemon *lp_vg_daemon;
/* Per sample, one table per profile type (index = type). */
static lp_table (*lp_vg_samples)[LP_PROF_TYPE_MAX + 1];
static UInt lp_vg_nsamples, lp_vg_samples_cap;
static ULong lp_vg_sampled_insns;

static Bool lp_vg_u64_field(const HChar **s, uint64_t *out)
{
    HChar *end;
    if (**s < '0' || **s > '9')
        return False;
    *out = VG_(strtoull10)(*s, &end);
    *s = end;
    return True;
}

Bool lp_vg_strategy_parse(const HChar *s)
{
    lp_phase_daemon_config *d = &lp_vg_clo_daemon;
    lp_vg_clo_strategy = s;
    if (VG_(strcmp)(s, "exhaustive") == 0) {
        d->strategy = LP_STRATEGY_EXHAUSTIVE;
    } else if (VG_(strcmp)(s, "phase") == 0) {
        d->strategy = LP_STRATEGY_PHASE;
    } else if (VG_(strcmp)(s, "phase-refine") == 0) {
        d->strategy = LP_STRATEGY_PHASE;
        d->policy = LP_POLICY_REFINE;
    } else if (VG_(strncmp)(s, "periodic:", 9) == 0) {
        s += 9;
        d->strategy = LP_STRATEGY_PERIODIC;
        if (!lp_vg_u64_field(&s, &d->period) || d->period == 0)
            return False;
        if (*s == ':' && (s++, !lp_vg_u64_field(&s, &d->offset)))
            return False;
        if (*s || d->offset >= d->period)
            return False;
    } else if (VG_(strncmp)(s, "random:", 7) == 0) {
        s += 7;
        d->strategy = LP_STRATEGY_RANDOM;
        if (!lp_vg_u64_field(&s, &d->period) || d->period == 0 || *s++ != ':' ||
            !lp_vg_u64_field(&s, &d->seed) || *s)
            return False;
    } else {
        return False;
    }
    return True;
}

void lp_vg_phase_init(void)
{
    if (!lp_vg_clo_daemon.strategy)
        return;
    lp_vg_strategy_on = True;
    /* Online: no oracle. The paper's Markov predictor for its k-th policy;
     * run-length for refine, which needs far fewer samples with it on the
     * workload suite (doc/eval-phase.md). */
    if (lp_vg_clo_daemon.strategy == LP_STRATEGY_PHASE && !lp_vg_clo_daemon.predictor)
        lp_vg_clo_daemon.predictor =
            lp_vg_clo_daemon.policy == LP_POLICY_REFINE ? LP_PREDICT_RUN_LENGTH : LP_PREDICT_MARKOV;
    if (lp_phase_tracker_init(&lp_vg_tracker, &lp_vg_clo_tracker) != 0 ||
        lp_phase_daemon_create(&lp_vg_clo_daemon, &lp_vg_daemon) != 0)
        VG_(fmsg_bad_option)("--strategy", "the phase tracker or daemon refused its settings\n");
    int sample = 0;
    if (lp_phase_daemon_start(lp_vg_daemon, LP_PHASE_NONE, &sample) != 0)
        VG_(tool_panic)((HChar *)"lowprof: the profiling daemon would not start");
    lp_vg_sampling = (UInt)sample;
    lp_vg_hps_trigger(sample ? LP_HPS_OP_ON : LP_HPS_OP_OFF);
}

/* Keeps the tables of a sampled interval (moved, not copied: the interval
 * gets fresh empty tables). */
static void lp_vg_keep_sample(lp_interval *iv)
{
    if (lp_vg_nsamples == lp_vg_samples_cap) {
        lp_vg_samples_cap = lp_vg_samples_cap ? 2 * lp_vg_samples_cap : 16;
        lp_vg_samples = VG_(realloc)("lp.samples", lp_vg_samples,
                                     lp_vg_samples_cap * sizeof *lp_vg_samples);
    }
    for (UInt t = 0; t <= LP_PROF_TYPE_MAX; t++) {
        lp_vg_samples[lp_vg_nsamples][t] = iv->tables[t];
        lp_table_init(&iv->tables[t], 0);
    }
    lp_vg_sampled_insns += iv->insns;
    lp_vg_nsamples++;
}

void lp_vg_phase_cut(lp_interval *iv, Bool last)
{
    if (!lp_vg_strategy_on)
        return;
    uint32_t phase = lp_phase_tracker_classify(&lp_vg_tracker, &iv->sig);
    if (lp_vg_sampling)
        lp_vg_keep_sample(iv);
    (void)lp_phase_daemon_observe(lp_vg_daemon, &iv->sig);
    (void)lp_phase_daemon_observe_wide(lp_vg_daemon, &lp_vg_wide);
    int sample = 0, rc;
    if (last)
        rc = lp_phase_daemon_finish(lp_vg_daemon, phase);
    else
        rc = lp_phase_daemon_boundary(lp_vg_daemon, phase, LP_PHASE_NONE, &sample);
    if (rc != 0)
        VG_(tool_panic)((HChar *)"lowprof: the profiling daemon failed");
    /* The daemon's toggle instruction, when its decision changes. */
    if (!last && (UInt)sample != lp_vg_sampling)
        lp_vg_hps_trigger(sample ? LP_HPS_OP_ON : LP_HPS_OP_OFF);
    lp_vg_sampling = (UInt)sample;
}

/* "id*count,id*count,...": the phase-ID trace, run-length coded. */
static void lp_vg_meta_trace(lp_meta *m)
{
    size_t n = 0;
    const uint32_t *tr = lp_phase_daemon_trace(lp_vg_daemon, &n);
    SizeT cap = 64, len = 0;
    HChar *buf = VG_(malloc)("lp.phasetrace", cap);
    buf[0] = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && tr[j] == tr[i])
            j++;
        HChar item[48];
        Int k = VG_(snprintf)(item, sizeof item, "%s%u*%lu", i ? "," : "", tr[i],
                              (unsigned long)(j - i));
        if (len + (SizeT)k + 1 > cap) {
            cap = 2 * (len + (SizeT)k + 1);
            buf = VG_(realloc)("lp.phasetrace", buf, cap);
        }
        VG_(strcpy)(buf + len, item);
        len += (SizeT)k;
        i = j;
    }
    lp_meta_set(m, "phase-trace", buf);
    VG_(free)(buf);
}

void lp_vg_phase_finish(lp_profile_set *set)
{
    if (!lp_vg_strategy_on)
        return;
    lp_meta *m = &set->meta;
    lp_phase_daemon_stats st;
    lp_phase_daemon_get_stats(lp_vg_daemon, &st);
    size_t ns = 0;
    const lp_phase_sample *samples = lp_phase_daemon_samples(lp_vg_daemon, &ns);
    if (ns != lp_vg_nsamples)
        VG_(tool_panic)((HChar *)"lowprof: sampled intervals and kept tables disagree");
    const lp_table **tabs = VG_(malloc)("lp.tabs", (ns ? ns : 1) * sizeof *tabs);
    HChar types[128] = "";
    for (UInt t = 1; t <= LP_PROF_TYPE_MAX; t++) {
        if (!(lp_vg_clo_types & (1u << t)) || t == LP_PROF_VALUE)
            continue;
        /* The whole-run estimate. */
        lp_profile *p = lp_profile_set_find(set, t, LP_PHASE_NONE);
        if (!p)
            continue;
        lp_table_clear(&p->table);
        for (size_t j = 0; j < ns; j++)
            tabs[j] = &lp_vg_samples[j][t];
        if (lp_phase_reconstruct(lp_vg_daemon, tabs, ns, &p->table) != 0)
            lp_meta_set(m, "strategy-error", "out of memory reconstructing the estimate");
        if (types[0])
            VG_(strcat)(types, ",");
        VG_(strcat)(types, lp_profile_type_name(t));
        /* The sampled profiles, tagged with their phase (stratum), each
         * scaled by the intervals it stands for. */
        for (size_t j = 0; j < ns; j++) {
            if (samples[j].retired) /* replaced by a steadier sample of its phase */
                continue;
            lp_profile *q = lp_profile_set_find(set, t, samples[j].stratum);
            if (!q) {
                if (lp_profile_set_add(set, t, samples[j].stratum, &q) != 0)
                    continue;
                uint64_t intervals = 0, sampled = 0;
                lp_phase_daemon_stratum(lp_vg_daemon, samples[j].stratum, &intervals, &sampled);
                q->scale_num = intervals;
                q->scale_den = sampled ? sampled : 1;
            }
            lp_table_merge(&q->table, &lp_vg_samples[j][t]);
        }
    }
    VG_(free)(tabs);
    lp_meta_set(m, "strategy", lp_vg_clo_strategy);
    lp_meta_set(m, "estimated-types", types);
    ULong ppm = (ULong)((lp_vg_clo_tracker.threshold ? lp_vg_clo_tracker.threshold
                                                      : LP_PHASE_DEFAULT_THRESHOLD) * 1e6 + 0.5);
    HChar thr[40];
    VG_(snprintf)(thr, sizeof thr, "%llu.%06llu", ppm / 1000000, ppm % 1000000);
    lp_meta_set(m, "phase-threshold", thr);
    lp_vg_meta_u64(m, "phase-bits", lp_vg_tracker.bits);
    lp_vg_meta_u64(m, "phase-history", lp_vg_tracker.history_cap);
    lp_vg_meta_u64(m, "phase-table", lp_vg_clo_daemon.table_size ? lp_vg_clo_daemon.table_size
                                                                  : LP_PHASE_DEFAULT_TABLE);
    Bool refine = lp_vg_clo_daemon.policy == LP_POLICY_REFINE;
    lp_meta_set(m, "phase-policy", refine ? "refine" : "kth");
    lp_vg_meta_u64(m, "phase-k", lp_vg_clo_daemon.k ? lp_vg_clo_daemon.k
                                 : refine ? LP_PHASE_DEFAULT_REFINE_K
                                          : LP_PHASE_DEFAULT_K);
    lp_vg_meta_u64(m, "phase-predictor", lp_vg_clo_daemon.predictor);
    lp_vg_meta_u64(m, "strategy-seed", lp_vg_clo_daemon.seed);
    lp_vg_meta_u64(m, "sampled-intervals", st.sampled);
    lp_vg_meta_u64(m, "phases", st.phases);
    lp_vg_meta_u64(m, "phase-resamples", st.resamples);
    lp_vg_meta_u64(m, "phase-unrepresented-intervals", st.unrepresented);
    /* Refine here always has every interval's signature: each goes to the
     * sample nearest it in signature, not to a neighbour in time. */
    lp_meta_set(m, "phase-unrepresented-lent", refine ? "nearest-signature" : "no");
    lp_vg_meta_u64(m, "phase-table-misses", st.table_misses);
    lp_vg_meta_u64(m, "phase-table-evictions", st.table_evictions);
    lp_vg_meta_u64(m, "phase-predictions", st.predictions);
    lp_vg_meta_u64(m, "phase-predictions-correct", st.correct);
    lp_vg_meta_trace(m);
    /* "interval:phase,...": which interval represented which phase. */
    HChar *list = VG_(malloc)("lp.samplelist", ns * 48 + 1);
    SizeT len = 0;
    list[0] = 0;
    for (size_t j = 0; j < ns; j++)
        len += (SizeT)VG_(sprintf)(list + len, "%s%llu:%u", j ? "," : "",
                                   (ULong)samples[j].interval, samples[j].stratum);
    lp_meta_set(m, "sampled", list);
    VG_(free)(list);
    lp_vg_meta_u64(m, "sampled-instructions", lp_vg_sampled_insns);
}
