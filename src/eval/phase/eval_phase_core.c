/* lowprof eval phase: an interval matrix in memory, the offline estimate of
 * one daemon configuration, and its errors.
 *
 * The estimate is the phase module's own code (tracker, daemon,
 * reconstruction) stepped over the matrix, and the errors are metrics.h's,
 * so there is one definition of each everywhere. Tuned for sweeps of about
 * a thousand configurations per matrix: the matrix is read once and each
 * configuration only merges the sampled intervals' tables. */
#include <stdio.h>
#include <string.h>

#include "lowprof/host.h"
#include "eval_phase.h"
#include "lowprof/metrics.h"

const unsigned lp__ep_type[LP__EP_TYPES] = {LP_PROF_CODE_REGION, LP_PROF_METHOD,
                                            LP_PROF_CALL_PAIR};
const char *const lp__ep_err_name[LP__EP_ERRS] = {"code-region",   "hot-branch", "hot-method",
                                                  "hot-call-pair", "method",     "call-pair"};

void lp__ep_matrix_fini(lp__ep_matrix *m)
{
    if (!m)
        return;
    for (size_t i = 0; m->tables && i < m->n; i++)
        for (unsigned t = 0; t < LP__EP_TYPES; t++)
            lp_table_fini(&m->tables[i][t]);
    for (unsigned t = 0; t < LP__EP_TYPES; t++)
        lp_table_fini(&m->exact[t]);
    lp_free(m->tables);
    lp_free(m->insns);
    lp_free(m->branches);
    lp_free(m->sigs);
    lp_free(m->wides);
    memset(m, 0, sizeof *m);
}

/* Grows the per-interval arrays to hold cap intervals. */
static int matrix_grow(lp__ep_matrix *m, size_t old_cap, size_t cap)
{
    void *p;
    if (!(p = lp_realloc(m->insns, old_cap * sizeof *m->insns, cap * sizeof *m->insns)))
        return LP_ENOMEM;
    m->insns = p;
    if (!(p = lp_realloc(m->branches, old_cap * sizeof *m->branches, cap * sizeof *m->branches)))
        return LP_ENOMEM;
    m->branches = p;
    if (!(p = lp_realloc(m->sigs, old_cap * sizeof *m->sigs, cap * sizeof *m->sigs)))
        return LP_ENOMEM;
    m->sigs = p;
    if (!(p = lp_realloc(m->tables, old_cap * sizeof *m->tables, cap * sizeof *m->tables)))
        return LP_ENOMEM;
    m->tables = p;
    return LP_OK;
}

/* Each interval's wide signature, rebuilt from its code-region profile:
 * the tool adds each branch's instructions-since-the-previous-branch to
 * the branch's bucket, and the profile holds the same sum per branch. Kept
 * only if every one folds to the stored signature, which checks that. */
static void matrix_wides(lp__ep_matrix *m)
{
    m->wides = lp_calloc(m->n, sizeof *m->wides);
    for (size_t i = 0; m->wides && i < m->n; i++) {
        size_t cur = 0;
        const lp_entry *e;
        while ((e = lp_table_next(&m->tables[i][LP__EP_CR], &cur)))
            lp_phase_wide_add(&m->wides[i], e->key.a, e->v[1]);
        lp_signature folded;
        lp_phase_wide_fold(&m->wides[i], &folded);
        if (memcmp(&folded, &m->sigs[i], sizeof folded) != 0) {
            fprintf(stderr,
                    "lowprof eval phase: %s: interval %zu's code-region profile does not add "
                    "up to its signature; refine calibrates on the 32-bucket signatures\n",
                    m->name, i);
            lp_free(m->wides);
            m->wides = NULL;
        }
    }
}

int lp__ep_matrix_load(const char *path, const char *name, lp__ep_matrix *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", name);
    uint8_t *data;
    size_t size;
    if (lp_host_read_file(path, &data, &size) != 0)
        return 1;
    lp_memsource ms;
    lp_source src = lp_memsource_init(&ms, data, size);
    lp_imatrix_reader *r = NULL;
    lp_read_error err = {0};
    lp_interval iv;
    int rc = lp_interval_init(&iv);
    for (unsigned t = 0; t < LP__EP_TYPES; t++)
        (void)lp_table_init(&out->exact[t], 0);
    if (rc == 0)
        rc = lp_imatrix_reader_open(src, &r, &err);
    if (rc == 0) {
        out->interval_length = lp_imatrix_reader_interval_length(r);
        uint32_t types = lp_imatrix_reader_types(r);
        for (unsigned t = 0; t < LP__EP_TYPES; t++)
            if (!(types & (1u << lp__ep_type[t]))) {
                fprintf(stderr, "lowprof: %s: the matrix has no %s profiles (record with "
                                "--profile code-region,method,call-pair)\n",
                        path, lp_profile_type_name(lp__ep_type[t]));
                rc = 1;
            }
    }
    size_t cap = 0;
    while (rc == 0) {
        int got = lp_imatrix_reader_next(r, &iv, &err);
        if (got <= 0) {
            rc = got;
            break;
        }
        if (out->n == cap) {
            size_t ncap = cap ? 2 * cap : 64;
            if ((rc = matrix_grow(out, cap, ncap)) != 0)
                break;
            cap = ncap;
        }
        size_t i = out->n;
        out->insns[i] = iv.insns;
        out->sigs[i] = iv.sig;
        uint64_t br = 0;
        for (unsigned t = 0; t < LP__EP_TYPES; t++) {
            /* Moved, not copied: the interval gets a fresh empty table
             * (initialising with no room never allocates, so never fails). */
            out->tables[i][t] = iv.tables[lp__ep_type[t]];
            (void)lp_table_init(&iv.tables[lp__ep_type[t]], 0);
        }
        out->n++;
        size_t cur = 0;
        const lp_entry *e;
        while ((e = lp_table_next(&out->tables[i][LP__EP_CR], &cur)))
            br += e->v[0];
        out->branches[i] = br;
        out->total_insns += iv.insns;
        out->total_branches += br;
        for (unsigned t = 0; t < LP__EP_TYPES && rc == 0; t++)
            rc = lp_table_merge(&out->exact[t], &out->tables[i][t]);
    }
    if (rc < 0)
        lp_host_print_read_error(path, rc, &err);
    else if (rc == 0 && out->n == 0) {
        fprintf(stderr, "lowprof: %s: the matrix holds no interval\n", path);
        rc = 1;
    }
    lp_interval_fini(&iv);
    lp_imatrix_reader_free(r);
    lp_free(data);
    if (rc != 0) {
        lp__ep_matrix_fini(out);
        return 1;
    }
    matrix_wides(out);
    return 0;
}

int lp__ep_classify(const lp__ep_matrix *m, const lp_phase_tracker_config *tc,
                    uint32_t *out_phases)
{
    lp_phase_tracker t;
    int rc = lp_phase_tracker_init(&t, tc);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < m->n; i++)
        out_phases[i] = lp_phase_tracker_classify(&t, &m->sigs[i]);
    lp_phase_tracker_fini(&t);
    return LP_OK;
}

void lp__ep_estimate_fini(lp__ep_estimate *e)
{
    if (!e)
        return;
    for (unsigned t = 0; t < LP__EP_TYPES; t++)
        lp_table_fini(&e->tables[t]);
    lp_phase_daemon_free(e->daemon);
    memset(e, 0, sizeof *e);
}

int lp__ep_estimate_phases(const lp__ep_matrix *m, const uint32_t *phases,
                           const lp_phase_daemon_config *dc, lp__ep_estimate *out)
{
    memset(out, 0, sizeof *out);
    int rc = lp_phase_daemon_create(dc, &out->daemon);
    if (rc == 0)
        rc = lp_phase_daemon_run_wide(out->daemon, phases, m->sigs, m->wides, m->n);
    size_t ns = 0;
    const lp_phase_sample *s = rc == 0 ? lp_phase_daemon_samples(out->daemon, &ns) : NULL;
    const lp_table **tabs = NULL;
    if (rc == 0 && ns && !(tabs = lp_malloc(ns * sizeof *tabs)))
        rc = LP_ENOMEM;
    for (unsigned t = 0; t < LP__EP_TYPES && rc == 0; t++) {
        if ((rc = lp_table_init(&out->tables[t], 0)) != 0)
            break;
        for (size_t j = 0; j < ns; j++)
            tabs[j] = &m->tables[s[j].interval][t];
        rc = lp_phase_reconstruct(out->daemon, tabs, ns, &out->tables[t]);
    }
    lp_free(tabs);
    for (size_t j = 0; rc == 0 && j < ns; j++) {
        out->sampled_insns += m->insns[s[j].interval];
        out->sampled_branches += m->branches[s[j].interval];
    }
    out->sampled_intervals = ns;
    if (rc != 0)
        lp__ep_estimate_fini(out);
    return rc;
}

int lp__ep_offline(const lp__ep_matrix *m, const lp_phase_tracker_config *tc,
                    const lp_phase_daemon_config *dc, lp__ep_estimate *out)
{
    memset(out, 0, sizeof *out);
    uint32_t *phases = lp_malloc(m->n * sizeof *phases);
    if (!phases)
        return LP_ENOMEM;
    int rc = lp__ep_classify(m, tc, phases);
    if (rc == 0)
        rc = lp__ep_estimate_phases(m, phases, dc, out);
    lp_free(phases);
    return rc;
}

int lp__ep_errors(const lp__ep_matrix *m, const lp__ep_estimate *e, double out[LP__EP_ERRS])
{
    out[LP__EP_ERR_CR] = lp_count_error(&m->exact[LP__EP_CR], &e->tables[LP__EP_CR], 1.0);
    out[LP__EP_ERR_METHOD] =
        lp_count_error(&m->exact[LP__EP_METHOD], &e->tables[LP__EP_METHOD], 1.0);
    out[LP__EP_ERR_CALL_PAIR] =
        lp_count_error(&m->exact[LP__EP_CALL_PAIR], &e->tables[LP__EP_CALL_PAIR], 1.0);
    static const unsigned hot_type[] = {LP__EP_CR, LP__EP_METHOD, LP__EP_CALL_PAIR};
    for (unsigned k = 0; k < 3; k++) {
        int rc = lp_hot_error(&m->exact[hot_type[k]], &e->tables[hot_type[k]],
                              LP__EP_HOT_FRACTION, &out[LP__EP_ERR_HOT_BRANCH + k]);
        if (rc != 0)
            return rc;
    }
    return LP_OK;
}
