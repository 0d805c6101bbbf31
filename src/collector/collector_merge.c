/* The collector's merge: many runs of one build into one estimate of their
 * exhaustive profile (remote-profiling paper, section 4: the optimization
 * center combines the phase-tagged profiles devices send).
 *
 * Each run is first turned into the estimate of its own exhaustive
 * profile, then added:
 * - under the phase-aware strategy, the device's own whole-run estimate
 *   where it wrote one: its phases weighed by the intervals its trace
 *   gives them, the intervals of phases it never profiled lent to a
 *   neighbour's (refine, and the native runtime's k-th policy), each
 *   profiled interval timed by its clock (native runtime: it runs slower
 *   than the intervals it stands for). Weighing the tagged profiles here
 *   instead knew none of that: a native run of a call-heavy loop merged
 *   69 % low where its own estimate was within 0.2 %, and over the native
 *   suite (one run each) the median program's total 19 % off against 6 %
 *   for its own estimate. Where a type has tagged profiles only, each counts
 *   times the intervals its phase ran, as the run's phase-ID trace says,
 *   over the intervals sampled in it (the run's "sampled" list; the
 *   profile's own scale denominator if the list is missing);
 * - any other run counts its whole-run profiles times their scales.
 * A run shipped Interleaved comes in parts (one per profiled interval and a
 * last one, sharing a run-id): its parts' traces and samples are summed as
 * they come, and the run is weighted as above when all of them are in (the
 * native runtime's last part carries its own estimate); until then a
 * result counts it with the trace it has so far.
 *
 * Addresses: a program runs at different addresses in different runs
 * (ASLR moves the executable and every library), so keys are moved into
 * one layout before they are added. Each module (path and build id) gets
 * the place it had in the first run that mapped it, or, when that place is
 * taken by another module, a free place past the others; the merged module
 * map gives each its bias there, so symbols resolve as in a single run.
 *
 * Tuned for: up to thousands of runs of a build, each with tens of
 * thousands of entries; one pass over each run, tables sized by growth. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowprof/collector.h"
#include "lowprof/phase.h"

/* A module of the merged layout: which modules of the runs it stands for,
 * and where it sits. */
typedef struct lp__merge_module {
    char *path;
    uint8_t build_id[32];
    uint8_t build_id_len;
    uint64_t start, size; /* in the merged layout */
    int64_t bias;         /* merged address minus ELF address */
} lp__merge_module;

/* A run shipped Interleaved whose parts have not all arrived: its
 * per-phase counts and its phase trace so far, summed over its parts (each
 * part carries the intervals that ended since the previous one). */
typedef struct lp__merge_open_tab {
    unsigned type;
    uint32_t phase; /* LP_PHASE_NONE: the run's own estimate, in its last part */
    lp_table t;     /* raw counts, moved into the merged layout */
    uint64_t num, den; /* the estimate's scale */
} lp__merge_open_tab;

/* A run's phase-ID trace ("id*count,..."): the intervals of each phase. */
typedef struct lp__merge_trace {
    uint32_t *phase;
    uint64_t *intervals;
    uint64_t *sampled;
    size_t n;
} lp__merge_trace;

typedef struct lp__merge_open {
    char run_id[65];
    lp__merge_trace tr; /* the trace so far */
    lp__merge_open_tab *tabs;
    size_t ntabs;
    uint64_t parts_seen, parts_total; /* parts_total: 0 until the final part */
} lp__merge_open;

struct lp_merge {
    lp_table totals[LP_PROF_TYPE_MAX + 1]; /* estimates, in 1/256 counts */
    lp__merge_open *open;
    size_t nopen;
    lp__merge_module *mods;
    size_t nmods;
    lp_table devices;  /* key (hash of the name, 0) */
    lp_merge_phase *phases;
    size_t nphases;
    uint64_t runs, phased_runs, intervals, instructions, incomplete;
    char program[256];
    char build_id[81];
    /* The runs' recorder when they all name the same one: the exports
     * read a call pair's site by it (the native runtime's is a return
     * address). recorder_mixed once two differ. */
    char recorder[64];
    int recorder_seen, recorder_mixed;
};

/* Estimates are added in fixed point so that thousands of runs, each
 * rounded, do not drift: counts are kept times 2^8 and rounded once when
 * the result is written. */
#define LP__MERGE_FRAC_BITS 8

static void lp__merge_open_fini(lp__merge_open *o)
{
    free(o->tr.phase);
    free(o->tr.intervals);
    free(o->tr.sampled);
    for (size_t i = 0; i < o->ntabs; i++)
        lp_table_fini(&o->tabs[i].t);
    free(o->tabs);
    memset(o, 0, sizeof *o);
}

int lp_merge_create(lp_merge **out)
{
    lp_merge *m = lp_calloc(1, sizeof *m);
    if (!m)
        return LP_ENOMEM;
    for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
        if (lp_table_init(&m->totals[t], 0) != 0)
            goto nomem;
    if (lp_table_init(&m->devices, 0) != 0)
        goto nomem;
    *out = m;
    return 0;
nomem:
    lp_merge_free(m);
    return LP_ENOMEM;
}

void lp_merge_free(lp_merge *m)
{
    if (!m)
        return;
    for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
        lp_table_fini(&m->totals[t]);
    for (size_t i = 0; i < m->nmods; i++)
        free(m->mods[i].path);
    free(m->mods);
    lp_table_fini(&m->devices);
    free(m->phases);
    for (size_t i = 0; i < m->nopen; i++)
        lp__merge_open_fini(&m->open[i]);
    free(m->open);
    lp_free(m);
}

/* ---- the merged layout ------------------------------------------------------- */

static int lp__merge_same_module(const lp__merge_module *c, const lp_module *r)
{
    if (strcmp(c->path, r->path) != 0 || c->build_id_len != r->build_id_len)
        return 0;
    /* Without a build id, the text size tells two builds of a path apart. */
    if (!r->build_id_len)
        return c->size == r->size;
    return memcmp(c->build_id, r->build_id, r->build_id_len) == 0;
}

static int lp__merge_overlaps(const lp_merge *m, uint64_t start, uint64_t size)
{
    for (size_t i = 0; i < m->nmods; i++)
        if (start < m->mods[i].start + m->mods[i].size && m->mods[i].start < start + size)
            return 1;
    return 0;
}

/* The merged module standing for run module r (added if new), and how far
 * r's addresses move to reach it. */
static int lp__merge_place(lp_merge *m, const lp_module *r, int64_t *out_shift)
{
    for (size_t i = 0; i < m->nmods; i++)
        if (lp__merge_same_module(&m->mods[i], r)) {
            *out_shift = (int64_t)(m->mods[i].start - r->start);
            return 0;
        }
    uint64_t start = r->start;
    if (lp__merge_overlaps(m, start, r->size)) {
        uint64_t end = 0;
        for (size_t i = 0; i < m->nmods; i++)
            if (m->mods[i].start + m->mods[i].size > end)
                end = m->mods[i].start + m->mods[i].size;
        /* Past every other module, keeping the offset within a page so that
         * alignment-sensitive readers of the addresses see the same low
         * bits as the run did. */
        start = ((end + 0xfffff) & ~(uint64_t)0xfffff) + (r->start & 0xfff);
    }
    lp__merge_module *grown = realloc(m->mods, (m->nmods + 1) * sizeof *grown);
    if (!grown)
        return LP_ENOMEM;
    m->mods = grown;
    lp__merge_module *c = &m->mods[m->nmods];
    memset(c, 0, sizeof *c);
    if (!(c->path = strdup(r->path)))
        return LP_ENOMEM;
    memcpy(c->build_id, r->build_id, r->build_id_len);
    c->build_id_len = r->build_id_len;
    c->start = start;
    c->size = r->size;
    c->bias = r->bias + (int64_t)(start - r->start);
    m->nmods++;
    *out_shift = (int64_t)(start - r->start);
    return 0;
}

/* Which key words of a type are code addresses (bit 0: a, bit 1: b). A
 * value's b is the loaded value; a stream's a is its signature's hash. */
static unsigned lp__merge_address_words(unsigned type)
{
    switch (type) {
    case LP_PROF_CALL_PAIR:
    case LP_PROF_EDGE:
    case LP_PROF_CALL_GRAPH:
    case LP_PROF_CALL_TARGET:
        return 3;
    case LP_PROF_STREAMS:
        return 2;
    case LP_PROF_CONTEXT:
        return 0; /* ids hash the entries: moving one would orphan its subtree */
    default:
        return 1;
    }
}

/* A run's modules and how far each moves, for moving its addresses. */
typedef struct lp__merge_shifts {
    const lp_module_map *map;
    int64_t *shift; /* per run module */
    int moves;      /* some shift is not 0 */
} lp__merge_shifts;

static uint64_t lp__merge_move(const lp__merge_shifts *s, uint64_t pc)
{
    const lp_module *r = lp_module_map_find(s->map, pc);
    return r ? pc + (uint64_t)s->shift[r - s->map->items] : pc;
}

/* ---- one run's estimate ------------------------------------------------------ */

/* Adds t times num/den to dst, in the fixed point. */
static int lp__merge_scale(lp_table *dst, const lp_table *t, uint64_t num, uint64_t den)
{
    /* A scale numerator too large for the fixed point (never seen in
     * practice: it counts intervals or checks) moves the factor into the
     * denominator instead, losing only the fraction. */
    if (num <= UINT64_MAX >> LP__MERGE_FRAC_BITS)
        return lp_phase_scale_add(dst, t, num << LP__MERGE_FRAC_BITS, den);
    return lp_phase_scale_add(dst, t, num, den >> LP__MERGE_FRAC_BITS ? den >> LP__MERGE_FRAC_BITS : 1);
}

/* Table t of type with its addresses moved into the merged layout: t
 * itself when the run sits where the merge put it (no ASLR under the DBI,
 * or the same layout), else *tmp filled (the caller finis it). */
static int lp__merge_moved(const lp__merge_shifts *s, unsigned type, const lp_table *t,
                           lp_table *tmp, const lp_table **out)
{
    *out = t;
    if (lp_table_init(tmp, s->moves ? t->count : 0) != 0)
        return LP_ENOMEM;
    if (!s->moves)
        return 0;
    unsigned words = lp__merge_address_words(type);
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(t, &cur)) != NULL) {
        lp_key k = e->key;
        if (words & 1)
            k.a = lp__merge_move(s, k.a);
        if (words & 2)
            k.b = lp__merge_move(s, k.b);
        lp_entry *d = lp_table_upsert(tmp, k);
        if (!d)
            return LP_ENOMEM;
        d->v[0] += e->v[0];
        d->v[1] += e->v[1];
    }
    *out = tmp;
    return 0;
}

/* Adds table t, scaled by num/den and moved into the merged layout, to the
 * type's totals. */
static int lp__merge_add_table(lp_merge *m, const lp__merge_shifts *s, unsigned type,
                               const lp_table *t, uint64_t num, uint64_t den)
{
    lp_table tmp;
    const lp_table *src;
    int rc = lp__merge_moved(s, type, t, &tmp, &src);
    if (!rc)
        rc = lp__merge_scale(&m->totals[type], src, num, den);
    lp_table_fini(&tmp);
    return rc;
}


static void lp__merge_trace_fini(lp__merge_trace *tr)
{
    free(tr->phase);
    free(tr->intervals);
    free(tr->sampled);
    memset(tr, 0, sizeof *tr);
}

static size_t lp__merge_trace_find(const lp__merge_trace *tr, uint32_t phase)
{
    for (size_t i = 0; i < tr->n; i++)
        if (tr->phase[i] == phase)
            return i;
    return tr->n;
}

/* Parses an unsigned decimal at *p, advancing it; -1 if there is none. */
static int lp__merge_number(const char **p, uint64_t *out)
{
    const char *s = *p;
    if (*s < '0' || *s > '9')
        return -1;
    uint64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    *p = s;
    *out = v;
    return 0;
}

/* The index of phase in tr, appended with no intervals if new; tr->n on
 * a failed allocation. Phases are few (tens), so arrays grow one by one. */
static size_t lp__merge_trace_slot(lp__merge_trace *tr, uint32_t phase)
{
    size_t i = lp__merge_trace_find(tr, phase);
    if (i < tr->n)
        return i;
    uint32_t *ph = realloc(tr->phase, (i + 1) * sizeof *ph);
    if (ph)
        tr->phase = ph;
    uint64_t *iv = realloc(tr->intervals, (i + 1) * sizeof *iv);
    if (iv)
        tr->intervals = iv;
    uint64_t *sm = realloc(tr->sampled, (i + 1) * sizeof *sm);
    if (sm)
        tr->sampled = sm;
    if (!ph || !iv || !sm)
        return tr->n;
    tr->phase[i] = phase;
    tr->intervals[i] = tr->sampled[i] = 0;
    tr->n++;
    return i;
}

static int lp__merge_trace_parse(const char *text, const char *sampled, lp__merge_trace *tr)
{
    memset(tr, 0, sizeof *tr);
    for (const char *p = text; *p;) {
        uint64_t phase, count;
        if (lp__merge_number(&p, &phase) != 0 || phase > UINT32_MAX || *p++ != '*' ||
            lp__merge_number(&p, &count) != 0 || (*p && *p++ != ','))
            goto bad;
        size_t i = lp__merge_trace_slot(tr, (uint32_t)phase);
        if (i == tr->n) {
            lp__merge_trace_fini(tr);
            return LP_ENOMEM;
        }
        tr->intervals[i] += count;
    }
    /* "interval:phase,...": the intervals that were profiled. */
    for (const char *p = sampled ? sampled : ""; *p;) {
        uint64_t interval, phase;
        if (lp__merge_number(&p, &interval) != 0 || *p++ != ':' ||
            lp__merge_number(&p, &phase) != 0 || (*p && *p++ != ','))
            goto bad;
        size_t i = lp__merge_trace_find(tr, (uint32_t)phase);
        if (i == tr->n)
            goto bad;
        tr->sampled[i]++;
    }
    return 0;
bad:
    lp__merge_trace_fini(tr);
    return LP_EFORMAT;
}

static int lp__merge_note_phases(lp_merge *m, const lp__merge_trace *tr)
{
    for (size_t i = 0; i < tr->n; i++) {
        size_t j = 0;
        while (j < m->nphases && m->phases[j].phase != tr->phase[i])
            j++;
        if (j == m->nphases) {
            lp_merge_phase *grown = realloc(m->phases, (m->nphases + 1) * sizeof *grown);
            if (!grown)
                return LP_ENOMEM;
            m->phases = grown;
            memset(&m->phases[j], 0, sizeof m->phases[j]);
            m->phases[j].phase = tr->phase[i];
            m->nphases++;
        }
        m->phases[j].intervals += tr->intervals[i];
        m->phases[j].sampled += tr->sampled[i];
        m->phases[j].runs++;
        m->intervals += tr->intervals[i];
    }
    return 0;
}

/* Whether the run was sampled by the phase-aware strategy, whose per-phase
 * profiles are then its strata. */
static int lp__merge_is_phased(const lp_profile_set *run)
{
    const char *strategy = lp_meta_get(&run->meta, "strategy");
    const char *trace = lp_meta_get(&run->meta, "phase-trace");
    if (!strategy || !trace || strncmp(strategy, "phase", 5) != 0)
        return 0;
    for (size_t i = 0; i < run->count; i++)
        if (run->profiles[i].phase != LP_PHASE_NONE)
            return 1;
    return 0;
}

static int lp__merge_add_run(lp_merge *m, const lp_profile_set *run, const lp__merge_shifts *s)
{
    int phased = lp__merge_is_phased(run);
    lp__merge_trace tr;
    memset(&tr, 0, sizeof tr);
    if (phased) {
        int rc = lp__merge_trace_parse(lp_meta_get(&run->meta, "phase-trace"),
                                       lp_meta_get(&run->meta, "sampled"), &tr);
        if (rc)
            return rc;
        for (size_t i = 0; i < run->count; i++) {
            const lp_profile *p = &run->profiles[i];
            if (p->phase != LP_PHASE_NONE && lp__merge_trace_find(&tr, p->phase) == tr.n) {
                lp__merge_trace_fini(&tr);
                return LP_EFORMAT;
            }
        }
    }
    int rc = 0;
    for (size_t i = 0; i < run->count && !rc; i++) {
        const lp_profile *p = &run->profiles[i];
        if (p->type == 0 || p->type > LP_PROF_TYPE_MAX)
            continue;
        if (!phased) {
            if (p->phase == LP_PHASE_NONE)
                rc = lp__merge_add_table(m, s, p->type, &p->table, p->scale_num,
                                         p->scale_den ? p->scale_den : 1);
            continue;
        }
        if (p->phase == LP_PHASE_NONE) {
            rc = lp__merge_add_table(m, s, p->type, &p->table, p->scale_num,
                                     p->scale_den ? p->scale_den : 1);
            continue;
        }
        if (lp_profile_set_find(run, p->type, LP_PHASE_NONE))
            continue; /* the device's own estimate stands for its phases */
        size_t k = lp__merge_trace_find(&tr, p->phase);
        uint64_t sampled = tr.sampled[k] ? tr.sampled[k] : (p->scale_den ? p->scale_den : 1);
        rc = lp__merge_add_table(m, s, p->type, &p->table, tr.intervals[k], sampled);
    }
    if (!rc && phased) {
        rc = lp__merge_note_phases(m, &tr);
        m->phased_runs++;
    }
    lp__merge_trace_fini(&tr);
    return rc;
}

/* ---- runs shipped Interleaved ------------------------------------------------------ */

/* Whether the open run has its own estimate of type. */
static int lp__merge_open_has_estimate(const lp__merge_open *o, unsigned type)
{
    for (size_t i = 0; i < o->ntabs; i++)
        if (o->tabs[i].type == type && o->tabs[i].phase == LP_PHASE_NONE)
            return 1;
    return 0;
}

/* Adds the run's estimate into totals (an array by type): its own where
 * its last part brought one, else its parts' profiles weighed by the
 * trace. */
static int lp__merge_open_estimate(const lp__merge_open *o, lp_table *totals)
{
    int rc = 0;
    for (size_t i = 0; i < o->ntabs && !rc; i++) {
        const lp__merge_open_tab *t = &o->tabs[i];
        if (t->phase == LP_PHASE_NONE) {
            rc = lp__merge_scale(&totals[t->type], &t->t, t->num, t->den);
            continue;
        }
        if (lp__merge_open_has_estimate(o, t->type))
            continue;
        size_t k = lp__merge_trace_find(&o->tr, t->phase);
        if (k == o->tr.n)
            continue; /* cannot happen: parts are checked as they come */
        rc = lp__merge_scale(&totals[t->type], &t->t, o->tr.intervals[k],
                             o->tr.sampled[k] ? o->tr.sampled[k] : 1);
    }
    return rc;
}

/* One part of a run shipped Interleaved (it has a run-id): its stretch of
 * the trace and its samples join the run's; when every part is in, the run
 * is weighted and added like any other. *out_new says whether this part
 * opened the run. */
static int lp__merge_add_part(lp_merge *m, const lp_profile_set *part,
                              const lp__merge_shifts *s, int *out_new)
{
    const char *id = lp_meta_get(&part->meta, "run-id");
    const char *trace = lp_meta_get(&part->meta, "phase-trace");
    lp__merge_trace tr;
    int rc = lp__merge_trace_parse(trace ? trace : "", lp_meta_get(&part->meta, "sampled"), &tr);
    if (rc)
        return rc;
    /* A part's samples lie in its own stretch of the trace. */
    for (size_t i = 0; i < part->count && !rc; i++)
        if (part->profiles[i].phase != LP_PHASE_NONE &&
            lp__merge_trace_find(&tr, part->profiles[i].phase) == tr.n)
            rc = LP_EFORMAT;
    size_t r = 0;
    while (!rc && r < m->nopen && strcmp(m->open[r].run_id, id) != 0)
        r++;
    *out_new = !rc && r == m->nopen;
    if (*out_new) {
        lp__merge_open *grown = realloc(m->open, (m->nopen + 1) * sizeof *grown);
        if (!grown)
            rc = LP_ENOMEM;
        else {
            m->open = grown;
            memset(&m->open[r], 0, sizeof m->open[r]);
            snprintf(m->open[r].run_id, sizeof m->open[r].run_id, "%s", id);
            m->nopen++;
        }
    }
    lp__merge_open *o = rc ? NULL : &m->open[r];
    for (size_t i = 0; o && i < tr.n && !rc; i++) {
        size_t k = lp__merge_trace_slot(&o->tr, tr.phase[i]);
        if (k == o->tr.n)
            rc = LP_ENOMEM;
        else {
            o->tr.intervals[k] += tr.intervals[i];
            o->tr.sampled[k] += tr.sampled[i];
        }
    }
    for (size_t i = 0; o && i < part->count && !rc; i++) {
        const lp_profile *p = &part->profiles[i];
        if (p->type == 0 || p->type > LP_PROF_TYPE_MAX)
            continue;
        size_t j = 0;
        while (j < o->ntabs && !(o->tabs[j].type == p->type && o->tabs[j].phase == p->phase))
            j++;
        if (j == o->ntabs) {
            lp__merge_open_tab *grown = realloc(o->tabs, (j + 1) * sizeof *grown);
            if (!grown || lp_table_init(&grown[j].t, p->table.count) != 0) {
                if (grown)
                    o->tabs = grown;
                rc = LP_ENOMEM;
                break;
            }
            o->tabs = grown;
            o->tabs[j].type = p->type;
            o->tabs[j].phase = p->phase;
            o->tabs[j].num = p->scale_num;
            o->tabs[j].den = p->scale_den ? p->scale_den : 1;
            o->ntabs++;
        }
        lp_table tmp;
        const lp_table *src;
        rc = lp__merge_moved(s, p->type, &p->table, &tmp, &src);
        if (!rc)
            rc = lp_table_merge(&o->tabs[j].t, src);
        lp_table_fini(&tmp);
    }
    lp__merge_trace_fini(&tr);
    if (rc)
        return rc;
    o->parts_seen++;
    const char *final = lp_meta_get(&part->meta, "final");
    const char *parts = lp_meta_get(&part->meta, "parts");
    uint64_t n = o->parts_seen;
    if (final && strcmp(final, "yes") == 0)
        o->parts_total = parts && lp__merge_number(&parts, &n) == 0 ? n : o->parts_seen;
    if (!o->parts_total || o->parts_seen < o->parts_total)
        return 0;
    /* Complete: weighted once, then kept only in the totals. */
    rc = lp__merge_open_estimate(o, m->totals);
    if (!rc)
        rc = lp__merge_note_phases(m, &o->tr);
    m->phased_runs++;
    lp__merge_open_fini(o);
    m->open[r] = m->open[--m->nopen];
    return rc;
}

int lp_merge_add(lp_merge *m, const lp_profile_set *run, const char *device)
{
    lp__merge_shifts s = {&run->modules, NULL, 0};
    if (run->modules.count &&
        !(s.shift = lp_calloc(run->modules.count, sizeof *s.shift)))
        return LP_ENOMEM;
    int rc = 0;
    for (size_t i = 0; i < run->modules.count && !rc; i++) {
        rc = lp__merge_place(m, &run->modules.items[i], &s.shift[i]);
        s.moves |= s.shift[i] != 0;
    }
    int new_run = 1;
    if (!rc && lp_meta_get(&run->meta, "run-id"))
        rc = lp__merge_add_part(m, run, &s, &new_run);
    else if (!rc)
        rc = lp__merge_add_run(m, run, &s);
    lp_free(s.shift);
    if (rc)
        return rc;
    m->runs += (uint64_t)new_run;
    const char *complete = lp_meta_get(&run->meta, "complete");
    if (complete && strcmp(complete, "no") == 0)
        m->incomplete++;
    const char *insns = lp_meta_get(&run->meta, "instructions");
    uint64_t n;
    if (insns && lp__merge_number(&insns, &n) == 0)
        m->instructions += n;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const char *c = device ? device : ""; *c; c++)
        h = lp_hash64(h ^ (uint8_t)*c);
    lp_entry *d = lp_table_upsert(&m->devices, (lp_key){h, 0});
    if (!d)
        return LP_ENOMEM;
    d->v[0]++;
    const char *prog = lp_meta_get(&run->meta, "program");
    const char *bid = lp_meta_get(&run->meta, "build-id");
    if (prog && !m->program[0])
        snprintf(m->program, sizeof m->program, "%s", prog);
    if (bid && !m->build_id[0])
        snprintf(m->build_id, sizeof m->build_id, "%s", bid);
    const char *rec = lp_meta_get(&run->meta, "recorder");
    if (!m->recorder_seen)
        snprintf(m->recorder, sizeof m->recorder, "%s", rec ? rec : "");
    else if (strcmp(m->recorder, rec ? rec : "") != 0)
        m->recorder_mixed = 1;
    m->recorder_seen = 1;
    return 0;
}

void lp_merge_get_stats(const lp_merge *m, lp_merge_stats *out)
{
    memset(out, 0, sizeof *out);
    out->runs = m->runs;
    out->devices = m->devices.count;
    out->phased_runs = m->phased_runs;
    out->intervals = m->intervals;
    out->instructions = m->instructions;
    out->phases = m->phases;
    out->nphases = m->nphases;
    out->runs_in_progress = m->nopen;
}

/* ---- the result ------------------------------------------------------------------ */

static int lp__merge_meta_u64(lp_meta *meta, const char *key, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    return lp_meta_set(meta, key, buf);
}

int lp_merge_result(const lp_merge *m, lp_profile_set *out)
{
    memset(out, 0, sizeof *out);
    int rc = 0;
    for (size_t i = 0; i < m->nmods && !rc; i++) {
        const lp__merge_module *c = &m->mods[i];
        rc = lp_module_map_add(&out->modules, c->path, c->start, c->size, c->bias, c->build_id,
                               c->build_id_len);
    }
    /* Runs whose parts are still coming count with the trace they have so
     * far, in a copy: they are weighted again when the rest arrives. */
    lp_table pending[LP_PROF_TYPE_MAX + 1];
    for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
        lp_table_init(&pending[t], 0);
    for (unsigned t = 1; t <= LP_PROF_TYPE_MAX && !rc && m->nopen; t++)
        rc = lp_table_merge(&pending[t], &m->totals[t]);
    for (size_t i = 0; i < m->nopen && !rc; i++)
        rc = lp__merge_open_estimate(&m->open[i], pending);
    for (unsigned t = 1; t <= LP_PROF_TYPE_MAX && !rc; t++) {
        const lp_table *src = m->nopen ? &pending[t] : &m->totals[t];
        if (!src->count)
            continue;
        lp_profile *p;
        if ((rc = lp_profile_set_add(out, t, LP_PHASE_NONE, &p)) != 0)
            break;
        p->last_insn = m->instructions;
        size_t cur = 0;
        const lp_entry *e;
        const uint64_t half = 1u << (LP__MERGE_FRAC_BITS - 1);
        while ((e = lp_table_next(src, &cur)) != NULL) {
            uint64_t v0 = (e->v[0] >> LP__MERGE_FRAC_BITS) + ((e->v[0] & (2 * half - 1)) >= half);
            uint64_t v1 = (e->v[1] >> LP__MERGE_FRAC_BITS) + ((e->v[1] & (2 * half - 1)) >= half);
            if (!v0 && !v1)
                continue; /* a share below half a count */
            lp_entry *d = lp_table_upsert(&p->table, e->key);
            if (!d) {
                rc = LP_ENOMEM;
                break;
            }
            d->v[0] = v0;
            d->v[1] = v1;
        }
    }
    for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
        lp_table_fini(&pending[t]);
    lp_meta *meta = &out->meta;
    if (!rc && m->nopen)
        rc = lp__merge_meta_u64(meta, "runs-in-progress", m->nopen);
    if (!rc && m->program[0])
        rc = lp_meta_set(meta, "program", m->program);
    if (!rc && m->build_id[0])
        rc = lp_meta_set(meta, "build-id", m->build_id);
    if (!rc && m->recorder[0] && !m->recorder_mixed)
        rc = lp_meta_set(meta, "recorder", m->recorder);
    if (!rc)
        rc = lp__merge_meta_u64(meta, "runs", m->runs);
    if (!rc)
        rc = lp__merge_meta_u64(meta, "devices", m->devices.count);
    if (!rc)
        rc = lp__merge_meta_u64(meta, "instructions", m->instructions);
    if (!rc)
        rc = lp_meta_set(meta, "estimate", "merged by the collector");
    if (!rc)
        rc = lp__merge_meta_u64(meta, "incomplete-runs", m->incomplete);
    if (rc)
        lp_profile_set_fini(out);
    return rc;
}
