/* lowprof eval flag-prediction: the replay. The recording's exhaustive
 * profile gives the callback's entry (the callee of call pairs that
 * symbolizes to __sanitizer_cov_trace_pc_guard), the guard sites (the call
 * pairs to it) and the hot methods (the instrumented functions with the most
 * self instructions); one pass over the event trace then cuts every guard
 * call into a profile block instance:
 *
 *   leader  the call's site (the event's pc); the instruction before it,
 *           which loads the guard's address into %rdi, belongs to the block
 *           but has no event of its own, so the call stands for the block;
 *   follow  the instruction after the call (the return's destination);
 *   length  2 (that load and the call) plus the callback's instructions up
 *           to and including its return, summed from the thread's block
 *           events between the call and the return (the icount delta must
 *           agree unless a thread switch fell inside the callback);
 *
 * and replays it through one predictor per (scope, duty) and per table
 * shape, with the flag the window policy gives at the call's instruction
 * count. Tuned for: traces of tens of millions of events read once; memory
 * does not grow with the trace. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowprof/host.h"
#include "eval_flags.h"
#include "lowprof/symbols.h"

/* ---- the recording's profile ---------------------------------------------------- */

/* A static profile block: one guard call site. */
typedef struct ef_site {
    uint64_t leader;
    uint64_t method;    /* entry of the function holding it */
    uint64_t calls;     /* calls the profile counted */
    uint64_t instances; /* instances the trace gave */
    int hot;
} ef_site;

typedef struct ef_sites {
    ef_site *items;
    size_t count;
    lp_table index;    /* leader -> 1 + position in items */
    uint64_t callback; /* the callback's entry */
} ef_sites;

static const lp_profile *find_profile(const lp_profile_set *set, unsigned type)
{
    for (size_t i = 0; i < set->count; i++)
        if (set->profiles[i].type == type && set->profiles[i].phase == LP_PHASE_NONE)
            return &set->profiles[i];
    return NULL;
}

static int cmp_method_hot(const void *a, const void *b)
{
    const lp_entry *x = a, *y = b;
    if (x->v[0] != y->v[0])
        return x->v[0] > y->v[0] ? -1 : 1;
    return x->key.a < y->key.a ? -1 : x->key.a > y->key.a;
}

/* From the exhaustive profile of the recorded run: the callback's entry
 * (the callee of call pairs that symbolizes to it), the guard sites (call
 * pairs to it), and the hot methods, the `hot` instrumented functions with
 * the most self instructions (block profile). */
static int sites_from_profile(const char *prof_path, unsigned hot, ef_sites *s, lp__ef_result *r)
{
    lp_profile_set set;
    if (lp_host_load_profile(prof_path, &set) != 0)
        return 1;
    int rc = 0;
    lp_symbolizer *sym = NULL;
    lp_table methods = {0}; /* entry -> v0 self instructions, v1 1 if instrumented */
    const lp_profile *pairs = find_profile(&set, LP_PROF_CALL_PAIR);
    const lp_profile *blocks = find_profile(&set, LP_PROF_BLOCK);
    const char *st = lp_meta_get(&set.meta, "exit-status");
    const char *sig = lp_meta_get(&set.meta, "signal");
    if ((st && strcmp(st, "0") != 0) || sig)
        rc = lp_host_fail("%s: the program %s %s", r->name,
                         sig ? "was killed by signal" : "exited with status", sig ? sig : st);
    else if (!pairs || !blocks)
        rc = lp_host_fail("%s: the recording has no call-pair or block profile", prof_path);
    else if (lp_symbolizer_create(&set.modules, &sym) != 0 || lp_table_init(&s->index, 1024) ||
             lp_table_init(&methods, 1024))
        rc = lp_host_fail("out of memory");
    lp_entry *e;
    size_t cur = 0;
    s->callback = 0;
    /* The callback: a callee whose symbol is LP__EF_CALLBACK and starts there. */
    while (rc == 0 && !s->callback && (e = lp_table_next(&pairs->table, &cur))) {
        lp_symbol y;
        lp_symbolize(sym, e->key.b, &y);
        if (y.function && strcmp(y.function, LP__EF_CALLBACK) == 0 && y.function_start == e->key.b)
            s->callback = e->key.b;
    }
    if (rc == 0 && !s->callback)
        rc = lp_host_fail("%s: no call of %s in the recording (built without "
                         "-fsanitize-coverage=trace-pc-guard?)",
                         r->name, LP__EF_CALLBACK);
    for (cur = 0; rc == 0 && (e = lp_table_next(&pairs->table, &cur));) {
        if (e->key.b != s->callback)
            continue;
        ef_site *ni = realloc(s->items, (s->count + 1) * sizeof *ni);
        if (ni)
            s->items = ni;
        lp_entry *ix = lp_table_upsert(&s->index, (lp_key){e->key.a, 0});
        lp_symbol y;
        lp_symbolize(sym, e->key.a, &y);
        lp_entry *m = lp_table_upsert(&methods, (lp_key){y.function_start, 0});
        if (!ni || !ix || !m) {
            rc = lp_host_fail("out of memory");
            break;
        }
        ni[s->count] = (ef_site){.leader = e->key.a, .method = y.function_start, .calls = e->v[0]};
        ix->v[0] = ++s->count;
        m->v[1] = 1;
    }
    for (cur = 0; rc == 0 && (e = lp_table_next(&blocks->table, &cur));) {
        lp_symbol y;
        lp_symbolize(sym, e->key.a, &y);
        lp_entry *m = lp_table_find(&methods, (lp_key){y.function_start, 0});
        if (m)
            m->v[0] += e->v[1];
    }
    /* Rank the instrumented methods; mark the top `hot`. */
    lp_entry *ranked = NULL;
    size_t nranked = 0;
    if (rc == 0 && methods.count) {
        ranked = malloc(methods.count * sizeof *ranked);
        if (!ranked)
            rc = lp_host_fail("out of memory");
        for (cur = 0; ranked && (e = lp_table_next(&methods, &cur));)
            if (e->v[1] && e->key.a != s->callback)
                ranked[nranked++] = *e;
        if (ranked)
            qsort(ranked, nranked, sizeof *ranked, cmp_method_hot);
    }
    lp_table hotset = {0};
    if (rc == 0 && lp_table_init(&hotset, 64) != 0)
        rc = lp_host_fail("out of memory");
    size_t pos = 0;
    r->hot_names[0] = '\0';
    for (size_t i = 0; rc == 0 && i < nranked && i < hot; i++) {
        lp_entry *h = lp_table_upsert(&hotset, ranked[i].key);
        if (!h) {
            rc = lp_host_fail("out of memory");
            break;
        }
        h->v[0] = 1;
        lp_symbol y;
        lp_symbolize(sym, ranked[i].key.a, &y);
        int n = snprintf(r->hot_names + pos, sizeof r->hot_names - pos, "%s%s", i ? " " : "",
                         y.function ? y.function : "?");
        if (n > 0 && pos + (size_t)n < sizeof r->hot_names)
            pos += (size_t)n;
        r->nhot++;
    }
    for (size_t i = 0; rc == 0 && i < s->count; i++)
        s->items[i].hot = lp_table_find(&hotset, (lp_key){s->items[i].method, 0}) != NULL;
    lp_table_fini(&hotset);
    free(ranked);
    lp_table_fini(&methods);
    lp_symbolizer_free(sym);
    lp_profile_set_fini(&set);
    return rc;
}

static void sites_fini(ef_sites *s)
{
    free(s->items);
    lp_table_fini(&s->index);
}

/* ---- replay ---------------------------------------------------------------------- */

static int file_read(void *ctx, void *buf, size_t size, size_t *out_got)
{
    FILE *f = ctx;
    *out_got = fread(buf, 1, size, f);
    return *out_got < size && ferror(f) ? LP_EIO : 0;
}

/* A guard call waiting for its return, per thread. */
typedef struct ef_pending {
    uint32_t tid;
    int active;
    size_t site;
    uint64_t icount; /* at the call */
    uint64_t insns;  /* the thread's block instructions since the call */
} ef_pending;

/* The predictors of one program: [scope][duty] and [sweep scope][shape]. */
typedef struct ef_preds {
    lp_pfpred *p[LP__EF_NSCOPES][LP__EF_MAX_DUTIES];
    lp_pfpred *shape[LP__EF_SWEEP_SCOPES][LP__EF_NSHAPES];
    unsigned nscopes, nsweep;
} ef_preds;

static void preds_fini(ef_preds *ps)
{
    for (unsigned s = 0; s < LP__EF_NSCOPES; s++)
        for (size_t d = 0; d < LP__EF_MAX_DUTIES; d++)
            lp_pfpred_free(ps->p[s][d]);
    for (unsigned s = 0; s < LP__EF_SWEEP_SCOPES; s++)
        for (size_t i = 0; i < LP__EF_NSHAPES; i++)
            lp_pfpred_free(ps->shape[s][i]);
}

static int preds_init(const lp__ef_opts *o, ef_preds *ps)
{
    memset(ps, 0, sizeof *ps);
    ps->nscopes = lp__ef_nscopes(o);
    ps->nsweep = o->hot ? LP__EF_SWEEP_SCOPES : 1;
    for (unsigned s = 0; s < ps->nscopes; s++)
        for (size_t d = 0; d < o->nduties; d++)
            if (lp_pfpred_create(&o->pred, &ps->p[s][d]) != 0)
                return -1;
    for (unsigned s = 0; s < ps->nsweep; s++)
        for (size_t i = 0; i < LP__EF_NSHAPES; i++) {
            lp_pfpred_config c = o->pred;
            c.sets = lp__ef_sweep_sets[i / LP__EF_SWEEP_WAYS];
            c.ways = lp__ef_sweep_ways[i % LP__EF_SWEEP_WAYS];
            if (lp_pfpred_create(&c, &ps->shape[s][i]) != 0)
                return -1;
        }
    return 0;
}

/* The window policy: is profiling on at instruction count icount? On for
 * the first duty % of every period. */
static inline int window_on(uint64_t icount, uint64_t period, unsigned duty)
{
    return icount % period < period / 100 * duty + period % 100 * duty / 100;
}

/* The flag an instance of site sees in scope when the window is on or off,
 * or -1 when the site is no profile block in that scope. */
static inline int scope_flag(unsigned scope, const ef_site *site, int window)
{
    switch (scope) {
    case LP__EF_ALL: return window;
    case LP__EF_HOT: return window && site->hot;
    default: /* LP__EF_HOT_ONLY */ return site->hot ? window : -1;
    }
}

/* One block instance through every predictor. */
static void replay_instance(const lp__ef_opts *o, ef_preds *ps, const ef_site *site,
                            uint64_t follow, uint32_t len, uint64_t icount, lp__ef_result *r)
{
    for (size_t d = 0; d < o->nduties; d++) {
        int window = window_on(icount, o->period, o->duties[d]);
        for (unsigned s = 0; s < ps->nscopes; s++) {
            int flag = scope_flag(s, site, window);
            if (flag < 0)
                continue;
            lp_pfpred_block(ps->p[s][d], site->leader, follow, len, flag);
            r->possible[s][d] += flag ? 0 : len - 1;
        }
    }
    int window = window_on(icount, o->period, LP__EF_SWEEP_DUTY);
    for (unsigned s = 0; s < ps->nsweep; s++) {
        int flag = scope_flag(lp__ef_sweep_scope[s], site, window);
        for (size_t i = 0; flag >= 0 && i < LP__EF_NSHAPES; i++)
            lp_pfpred_block(ps->shape[s][i], site->leader, follow, len, flag);
    }
}

static ef_pending *pending_of(ef_pending *pend, size_t *npend, size_t cap, uint32_t tid)
{
    for (size_t i = 0; i < *npend; i++)
        if (pend[i].tid == tid)
            return &pend[i];
    if (*npend == cap)
        return NULL;
    pend[*npend] = (ef_pending){.tid = tid};
    return &pend[(*npend)++];
}

/* Reads the trace once, cutting it into block instances and replaying them. */
static int replay_trace(const lp__ef_opts *o, const char *path, ef_sites *s, lp__ef_result *r)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return lp_host_fail("%s: %s", path, strerror(errno));
    lp_source src = {file_read, f};
    lp_evtrace_reader *rd;
    lp_read_error err;
    memset(&err, 0, sizeof err);
    int rc = lp_evtrace_reader_open(src, &rd, &err);
    if (rc) {
        lp_host_print_read_error(path, rc, &err);
        fclose(f);
        return 1;
    }
    ef_preds ps;
    if (preds_init(o, &ps) != 0) {
        preds_fini(&ps);
        lp_evtrace_reader_free(rd);
        fclose(f);
        return lp_host_fail("out of memory");
    }
    enum { MAX_THREADS = 1024 };
    ef_pending *pend = calloc(MAX_THREADS, sizeof *pend);
    size_t npend = 0;
    if (!pend)
        rc = lp_host_fail("out of memory");
    lp_event ev;
    r->len_min = UINT32_MAX;
    int got = 0;
    while (rc == 0 && (got = lp_evtrace_reader_next(rd, &ev, &err)) == 1) {
        r->events++;
        if (ev.icount > r->program_insns)
            r->program_insns = ev.icount;
        ef_pending *p = pending_of(pend, &npend, MAX_THREADS, ev.tid);
        if (!p) {
            rc = lp_host_fail("%s: more than %d threads", path, MAX_THREADS);
            break;
        }
        if (ev.kind == LP_EV_BLOCK) {
            p->insns += ev.a;
        } else if (ev.kind == LP_EV_CALL && ev.a == s->callback && !(ev.flags & LP_EVF_TAIL)) {
            if (p->active)
                r->unmatched++; /* the previous one never returned */
            lp_entry *ix = lp_table_find(&s->index, (lp_key){ev.pc, 0});
            if (!ix) { /* a site the profile did not count: cannot be */
                rc = lp_host_fail("%s: guard call at %#llx missing from the profile", path,
                                 (unsigned long long)ev.pc);
                break;
            }
            *p =
                (ef_pending){.tid = ev.tid, .active = 1, .site = ix->v[0] - 1, .icount = ev.icount};
        } else if (ev.kind == LP_EV_RETURN && p->active) {
            p->active = 0;
            ef_site *site = &s->items[p->site];
            /* The callback is a leaf: its return goes just past the call. */
            if (ev.a <= site->leader || ev.a > site->leader + 16) {
                r->unmatched++;
                continue;
            }
            if (ev.icount - p->icount != p->insns)
                r->icount_mismatch++;
            uint64_t len64 = 2 + p->insns;
            uint32_t len = len64 > UINT32_MAX ? UINT32_MAX : (uint32_t)len64;
            site->instances++;
            r->instances++;
            r->profile_insns += len;
            if (site->hot) {
                r->hot_instances++;
                r->hot_profile_insns += len;
            }
            if (len < r->len_min)
                r->len_min = len;
            if (len > r->len_max)
                r->len_max = len;
            replay_instance(o, &ps, site, ev.a, len, p->icount, r);
        }
    }
    if (rc == 0 && got < 0) {
        if (got == LP_ETRUNC) {
            fprintf(stderr,
                    "lowprof eval flag-prediction: %s: trace cut short; using the "
                    "events before the cut\n",
                    path);
            r->truncated = 1;
        } else {
            lp_host_print_read_error(path, got, &err);
            rc = 1;
        }
    }
    for (size_t i = 0; i < npend; i++)
        r->unmatched += pend[i].active != 0;
    if (r->events >= o->trace_limit)
        r->truncated = 1;
    if (r->instances == 0)
        r->len_min = 0;
    r->sites = s->count;
    for (size_t i = 0; i < s->count; i++)
        r->profile_disagree += s->items[i].instances != s->items[i].calls;
    for (unsigned sc = 0; sc < ps.nscopes; sc++)
        for (size_t d = 0; d < o->nduties; d++)
            r->stats[sc][d] = ps.p[sc][d]->stats;
    for (unsigned sc = 0; sc < ps.nsweep; sc++)
        for (size_t i = 0; i < LP__EF_NSHAPES; i++)
            r->shapes[sc][i] = ps.shape[sc][i]->stats;
    free(pend);
    preds_fini(&ps);
    lp_evtrace_reader_free(rd);
    fclose(f);
    return rc;
}

int lp__ef_replay(const lp__ef_opts *o, const char *prof_path, const char *trace_path,
                  lp__ef_result *r)
{
    ef_sites s = {0};
    int rc = sites_from_profile(prof_path, o->hot, &s, r);
    if (rc == 0)
        rc = replay_trace(o, trace_path, &s, r);
    sites_fini(&s);
    return rc;
}
