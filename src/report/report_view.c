/* Counter names per profile type and whole-run views of a profile set
 * (lowprof/report.h). */
#include "lowprof/report.h"

#include <stdlib.h>
#include <string.h>

/* ---- profile types ------------------------------------------------------------ */

static const char *const lp__counters[LP_PROF_TYPE_MAX + 1][2] = {
    [LP_PROF_CODE_REGION] = {"executions", "instructions"},
    [LP_PROF_METHOD] = {"invocations", "backward branches"},
    [LP_PROF_CALL_PAIR] = {"calls", "tail calls"},
    [LP_PROF_EDGE] = {"transfers", NULL},
    [LP_PROF_BLOCK] = {"executions", "instructions"},
    [LP_PROF_CALL_GRAPH] = {"calls", NULL},
    [LP_PROF_VALUE] = {"loads", NULL}, /* v1 is the access size, not a count */
    [LP_PROF_CALL_TARGET] = {"calls", NULL},
    [LP_PROF_STREAMS] = {"frequency", NULL}, /* v1 is the stream's length */
    [LP_PROF_CONTEXT] = {"calls", "self instructions"},
};

const char *lp_report_counter_name(unsigned type, int which)
{
    if (type == 0 || type > LP_PROF_TYPE_MAX)
        return which ? "v1" : "v0";
    return lp__counters[type][which ? 1 : 0];
}

const char *lp_report_counter_name_in(const lp_meta *m, unsigned type, int which)
{
    if (type == LP_PROF_CONTEXT && which && m && lp_meta_get(m, "context-weight"))
        return "self samples";
    return lp_report_counter_name(type, which);
}

int lp_report_key_b_is_code(unsigned type)
{
    return type == LP_PROF_CALL_PAIR || type == LP_PROF_EDGE || type == LP_PROF_CALL_GRAPH ||
           type == LP_PROF_CALL_TARGET;
}

/* v1 of value and streams profiles describes the key (size, length) rather
 * than counting events: it is neither scaled nor summed. */
static int lp__v1_is_count(unsigned type)
{
    return type != LP_PROF_VALUE && type != LP_PROF_STREAMS;
}

/* ---- views ---------------------------------------------------------------------- */

static int lp__entry_cmp_key(const void *x, const void *y)
{
    const lp_entry *a = x, *b = y;
    if (a->key.a != b->key.a)
        return a->key.a < b->key.a ? -1 : 1;
    if (a->key.b != b->key.b)
        return a->key.b < b->key.b ? -1 : 1;
    return 0;
}

static uint64_t lp__scale(uint64_t v, uint64_t num, uint64_t den)
{
    if (num == den || den == 0)
        return v;
    unsigned __int128 x = (unsigned __int128)v * num + den / 2;
    x /= den;
    return x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
}

int lp_report_view_build(const lp_profile_set *s, unsigned type, uint32_t phase, lp_report_view *out)
{
    memset(out, 0, sizeof *out);
    /* Which profiles make the view: the one for phase if present; for the
     * whole run without a whole-run profile, every per-phase one. */
    int use_all_phases = phase == LP_PHASE_NONE && !lp_profile_set_find(s, type, LP_PHASE_NONE);
    size_t total = 0;
    for (size_t i = 0; i < s->count; i++) {
        const lp_profile *p = &s->profiles[i];
        if (p->type == type && (use_all_phases || p->phase == phase))
            total += p->table.count;
    }
    lp_entry *all = lp_malloc((total ? total : 1) * sizeof *all);
    if (!all)
        return LP_ENOMEM;
    size_t n = 0;
    for (size_t i = 0; i < s->count; i++) {
        const lp_profile *p = &s->profiles[i];
        if (p->type != type || !(use_all_phases || p->phase == phase))
            continue;
        out->merged++;
        if (p->scale_num != p->scale_den)
            out->sampled = 1;
        size_t cursor = 0;
        for (lp_entry *e; (e = lp_table_next(&p->table, &cursor)) != NULL && n < total;) {
            all[n] = *e;
            all[n].v[0] = lp__scale(e->v[0], p->scale_num, p->scale_den);
            if (lp__v1_is_count(type))
                all[n].v[1] = lp__scale(e->v[1], p->scale_num, p->scale_den);
            n++;
        }
        if (!use_all_phases)
            break; /* the first profile of (type, phase), as lp_profile_set_find */
    }
    qsort(all, n, sizeof *all, lp__entry_cmp_key);
    /* Combine equal keys (they occur only when phases were summed). */
    size_t w = 0;
    for (size_t r = 0; r < n; r++) {
        if (w > 0 && all[w - 1].key.a == all[r].key.a && all[w - 1].key.b == all[r].key.b) {
            all[w - 1].v[0] += all[r].v[0];
            if (lp__v1_is_count(type))
                all[w - 1].v[1] += all[r].v[1];
            else if (all[r].v[1] > all[w - 1].v[1])
                all[w - 1].v[1] = all[r].v[1];
        } else {
            all[w++] = all[r];
        }
    }
    out->entries = all;
    out->count = w;
    return 0;
}

void lp_report_view_fini(lp_report_view *v)
{
    if (!v)
        return;
    lp_free(v->entries);
    memset(v, 0, sizeof *v);
}
