/* lowprof eval phase --check-online: does an online recording made with
 * `lowprof record --strategy ...` give what the offline evaluation says it
 * should?
 *
 * The recording's meta keys name its tracker and daemon configuration; the
 * same configuration is run offline (lp__ep_estimate) over the interval
 * matrix of a separate exhaustive recording of the same deterministic
 * program, and the whole-run estimates, the phase-ID trace and the sampled
 * intervals are compared exactly. Both sides run the phase module's code
 * on the same signatures, so any difference is a bug (or a program that is
 * not deterministic). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowprof/host.h"
#include "eval_phase.h"
#include "lowprof/metrics.h"

static int parse_u64(const char *s, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

/* "exhaustive", "phase", "periodic:N[:OFF]" or "random:P:SEED" into dc. */
static int parse_strategy(const char *s, lp_phase_daemon_config *dc)
{
    char *end;
    if (strcmp(s, "exhaustive") == 0) {
        dc->strategy = LP_STRATEGY_EXHAUSTIVE;
        return 0;
    }
    if (strcmp(s, "phase") == 0 || strcmp(s, "phase-refine") == 0) {
        dc->strategy = LP_STRATEGY_PHASE; /* the policy: meta phase-policy */
        return 0;
    }
    if (strncmp(s, "periodic:", 9) == 0) {
        dc->strategy = LP_STRATEGY_PERIODIC;
        dc->period = strtoull(s + 9, &end, 10);
        if (*end == ':')
            dc->offset = strtoull(end + 1, &end, 10);
        return *end || end == s + 9 ? -1 : 0;
    }
    if (strncmp(s, "random:", 7) == 0) {
        dc->strategy = LP_STRATEGY_RANDOM;
        dc->period = strtoull(s + 7, &end, 10);
        if (*end != ':')
            return -1;
        dc->seed = strtoull(end + 1, &end, 10);
        return *end ? -1 : 0;
    }
    return -1;
}

static unsigned parse_predictor(const char *s)
{
    uint64_t v;
    if (!s)
        return LP_PREDICT_MARKOV; /* the front end's default online */
    if (parse_u64(s, &v) == 0)
        return (unsigned)v;
    if (strcmp(s, "last") == 0)
        return LP_PREDICT_LAST;
    if (strcmp(s, "markov") == 0)
        return LP_PREDICT_MARKOV;
    if (strcmp(s, "run-length") == 0)
        return LP_PREDICT_RUN_LENGTH;
    return ~0u;
}

/* Compares the online estimate with the offline one key by key; prints the
 * differences. Returns the number of keys that differ. */
static size_t compare_tables(const char *type, const lp_table *online, const lp_table *offline)
{
    size_t diff = 0, shown = 0;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(offline, &cur))) {
        const lp_entry *o = lp_table_find(online, e->key);
        uint64_t v0 = o ? o->v[0] : 0, v1 = o ? o->v[1] : 0;
        if (v0 == e->v[0] && v1 == e->v[1])
            continue;
        if (!o && e->v[0] == 0 && e->v[1] == 0)
            continue;
        diff++;
        if (shown++ < 5)
            printf("  %s key (0x%llx, 0x%llx): online %llu/%llu, offline %llu/%llu\n", type,
                   (unsigned long long)e->key.a, (unsigned long long)e->key.b,
                   (unsigned long long)v0, (unsigned long long)v1,
                   (unsigned long long)e->v[0], (unsigned long long)e->v[1]);
    }
    cur = 0;
    while ((e = lp_table_next(online, &cur)))
        if (!lp_table_find(offline, e->key) && (e->v[0] || e->v[1])) {
            diff++;
            if (shown++ < 5)
                printf("  %s key (0x%llx, 0x%llx): online %llu/%llu, offline absent\n", type,
                       (unsigned long long)e->key.a, (unsigned long long)e->key.b,
                       (unsigned long long)e->v[0], (unsigned long long)e->v[1]);
        }
    return diff;
}

/* "id*count,id*count" into a fresh array (*out, *out_n). */
static int parse_trace(const char *s, uint32_t **out, size_t *out_n)
{
    *out = NULL;
    *out_n = 0;
    size_t cap = 0;
    while (s && *s) {
        char *end;
        unsigned long id = strtoul(s, &end, 10);
        if (end == s || *end != '*')
            return -1;
        s = end + 1;
        unsigned long long count = strtoull(s, &end, 10);
        if (end == s || (*end && *end != ','))
            return -1;
        s = *end ? end + 1 : end;
        if (count > (1u << 30) || *out_n + count > (1u << 30))
            return -1;
        if (*out_n + count > cap) {
            cap = 2 * (*out_n + count);
            uint32_t *p = realloc(*out, cap * sizeof *p);
            if (!p)
                return -1;
            *out = p;
        }
        for (unsigned long long k = 0; k < count; k++)
            (*out)[(*out_n)++] = (uint32_t)id;
    }
    return 0;
}

int lp__ep_check_online(const char *recording, const char *matrix)
{
    lp_profile_set set;
    if (lp_host_load_profile(recording, &set) != 0)
        return 1;
    const lp_meta *meta = &set.meta;
    const char *strategy = lp_meta_get(meta, "strategy");
    lp_phase_tracker_config tc = {0};
    lp_phase_daemon_config dc = {0};
    int rc = 1;
    lp__ep_matrix m = {0};
    lp__ep_estimate est = {0};
    uint32_t *trace = NULL;
    if (!strategy || parse_strategy(strategy, &dc) != 0) {
        lp_host_fail("%s: meta key 'strategy' is %s%s%s; record with --strategy", recording,
                    strategy ? "'" : "absent", strategy ? strategy : "", strategy ? "'" : "");
        goto done;
    }
    const char *thr = lp_meta_get(meta, "phase-threshold");
    uint64_t v;
    if (thr)
        tc.threshold = strtod(thr, NULL);
    else if (parse_u64(lp_meta_get(meta, "phase-threshold-ppm"), &v) == 0)
        tc.threshold = (double)v / 1e6;
    if (parse_u64(lp_meta_get(meta, "phase-bits"), &v) == 0)
        tc.bits = (unsigned)v;
    if (parse_u64(lp_meta_get(meta, "phase-history"), &v) == 0)
        tc.history = v;
    if (dc.strategy == LP_STRATEGY_PHASE) {
        /* Recordings from before the refine policy name none: the k-th. */
        const char *pol = lp_meta_get(meta, "phase-policy");
        dc.policy = pol && strcmp(pol, "refine") == 0 ? LP_POLICY_REFINE : LP_POLICY_KTH;
        if (parse_u64(lp_meta_get(meta, "phase-table"), &v) == 0)
            dc.table_size = v;
        if (parse_u64(lp_meta_get(meta, "phase-k"), &v) == 0)
            dc.k = v;
        dc.predictor = parse_predictor(lp_meta_get(meta, "phase-predictor"));
        if (parse_u64(lp_meta_get(meta, "strategy-seed"), &v) == 0)
            dc.seed = v;
    }
    printf("recording %s: strategy %s, policy %s, threshold %g, bits %u, history %zu, table %zu, "
           "k %llu, predictor %s, seed %llu\n",
           recording, strategy, dc.policy == LP_POLICY_REFINE ? "refine" : "k-th", tc.threshold,
           tc.bits, tc.history, dc.table_size,
           (unsigned long long)dc.k, lp__ep_predictor_name(dc.predictor),
           (unsigned long long)dc.seed);
    if (lp__ep_matrix_load(matrix, "exhaustive", &m) != 0)
        goto done;
    uint64_t rec_len = 0;
    if (parse_u64(lp_meta_get(meta, "interval-length"), &rec_len) == 0 &&
        rec_len != m.interval_length) {
        lp_host_fail("interval lengths differ: the recording's %llu, the matrix's %llu",
                    (unsigned long long)rec_len, (unsigned long long)m.interval_length);
        goto done;
    }
    int erc = lp__ep_offline(&m, &tc, &dc, &est);
    if (erc != 0) {
        lp_host_fail("the offline daemon refused the configuration: %s", lp_strerror(erc));
        goto done;
    }
    size_t differ = 0;
    /* Phase-ID trace. */
    size_t nt = 0, nrec = 0;
    const uint32_t *off_trace = lp_phase_daemon_trace(est.daemon, &nt);
    const char *tr = lp_meta_get(meta, "phase-trace");
    if (!tr) {
        printf("phase trace: the recording has none (meta 'phase-trace')\n");
        differ++;
    } else if (parse_trace(tr, &trace, &nrec) != 0) {
        printf("phase trace: meta 'phase-trace' does not parse\n");
        differ++;
    } else {
        size_t first = SIZE_MAX;
        for (size_t i = 0; i < nt && i < nrec && first == SIZE_MAX; i++)
            if (trace[i] != off_trace[i])
                first = i;
        if (nrec != nt || first != SIZE_MAX) {
            printf("phase trace: DIFFERS (online %zu intervals, offline %zu", nrec, nt);
            if (first != SIZE_MAX)
                printf("; first difference at interval %zu: online %u, offline %u", first,
                       trace[first], off_trace[first]);
            printf(")\n");
            differ++;
        } else {
            printf("phase trace: identical (%zu intervals)\n", nt);
        }
    }
    /* Sampled intervals. */
    size_t ns = 0;
    const lp_phase_sample *s = lp_phase_daemon_samples(est.daemon, &ns);
    uint64_t rec_sampled;
    if (parse_u64(lp_meta_get(meta, "sampled-intervals"), &rec_sampled) == 0) {
        int same = rec_sampled == ns;
        const char *list = lp_meta_get(meta, "sampled");
        for (size_t j = 0; list && same && j < ns; j++) {
            char *end;
            unsigned long long iv = strtoull(list, &end, 10);
            unsigned long st = *end == ':' ? strtoul(end + 1, &end, 10) : ~0ul;
            same = iv == s[j].interval && st == s[j].stratum;
            list = *end == ',' ? end + 1 : end;
        }
        printf("sampled intervals: %s (online %llu, offline %zu)\n", same ? "identical" : "DIFFER",
               (unsigned long long)rec_sampled, ns);
        differ += !same;
    }
    /* Whole-run estimates. */
    for (unsigned t = 0; t < LP__EP_TYPES; t++) {
        const lp_profile *p = lp_profile_set_find(&set, lp__ep_type[t], LP_PHASE_NONE);
        const char *name = lp_profile_type_name(lp__ep_type[t]);
        if (!p) {
            printf("%s: not in the recording\n", name);
            continue;
        }
        size_t d = compare_tables(name, &p->table, &est.tables[t]);
        double err = lp_count_error(&est.tables[t], &p->table, 1.0);
        double truth = lp_count_error(&m.exact[t], &est.tables[t], 1.0);
        if (d)
            printf("%s: DIFFERS in %zu keys (count error between them %.6f)\n", name, d, err);
        else
            printf("%s: identical (%zu keys; error against the exhaustive profile %.4f)\n", name,
                   est.tables[t].count, truth);
        differ += d != 0;
    }
    printf("%s\n", differ ? "online and offline DISAGREE" : "online and offline agree exactly");
    rc = differ ? 1 : 0;
done:
    free(trace);
    lp__ep_estimate_fini(&est);
    lp__ep_matrix_fini(&m);
    lp_profile_set_fini(&set);
    return rc;
}
