/* The collector's read API (doc/collector-api.md): programs, builds,
 * uploads and the merged profile of one build, always within the
 * project of the request's token.
 *
 * A merged profile is kept in memory per (project, program, build) with
 * the sequence number of the last upload folded into it; a later request
 * folds only the uploads stored since. So a build with 10,000 uploads is
 * merged once, and each view after that costs the newer uploads plus the
 * table it prints. The cache holds the 32 builds used last; a build being
 * read while all slots are busy gets a private merge. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collector_internal.h"

#define LP__TOP_DEFAULT 20
#define LP__TOP_MAX 10000
#define LP__GRAPH_EDGES 3000

struct lp__merge_entry {
    pthread_mutex_t lock; /* guards everything below but users and used */
    int64_t project;
    char program[LP_STORE_NAME_MAX + 1];
    char build[LP_STORE_BUILD_ID_MAX + 1];
    unsigned users; /* cache lock */
    uint64_t used;  /* cache lock: the clock at the last use */
    int private_;   /* not in the cache: freed by its last user */

    lp_merge *merge;
    int64_t last_seq;
    uint64_t folded, skipped;
    int have_result;
    lp_profile_set result;
    lp_names names;
    int have_names;
    lp_membuf packed; /* the result as a zstd message, for format=lpprof */
    int64_t packed_seq;
    /* The last JSON answer, for its top and last_seq: the page asks the
     * same view again and again, and sorting a large merged table is what
     * a view costs once the merge is current. */
    lp_membuf json;
    int64_t json_seq;
    uint64_t json_top;
    double merge_ms;  /* what the last fold and result took */
};

/* ---- replies ------------------------------------------------------------------ */

void lp__reply_error(lp__reply *r, unsigned status, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    lp_membuf_free(&r->body);
    r->status = status;
    r->type = "application/json";
    r->encoding = NULL;
    lp__json_raw(&r->body, "{\"error\":");
    lp__json_str(&r->body, why);
    lp__json_raw(&r->body, "}\n");
}

static void api_json(lp__reply *r)
{
    r->status = 200;
    r->type = "application/json";
}

static double api_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* ---- listings ------------------------------------------------------------------- */

typedef struct api_list {
    lp_membuf *b;
    size_t rows;
    int what; /* 0 programs, 1 builds, 2 uploads */
} api_list;

static int api_row(void *ctx, const lp_store_row *row)
{
    api_list *l = ctx;
    lp_membuf *b = l->b;
    lp__json_raw(b, l->rows++ ? ",{" : "{");
    if (l->what == 2) {
        lp__json_key(b, "seq", 1);
        lp__json_i64(b, row->seq);
        lp__json_key(b, "received_ms", 0);
        lp__json_i64(b, row->received_ms);
        lp__json_key(b, "device", 0);
        lp__json_str(b, row->device);
        lp__json_key(b, "message_id", 0);
        lp__json_str(b, row->message_id);
        lp__json_key(b, "instructions", 0);
        lp__json_u64(b, row->instructions);
        lp__json_key(b, "bytes", 0);
        lp__json_u64(b, row->body_size);
    } else {
        lp__json_key(b, l->what == 0 ? "program" : "build_id", 1);
        lp__json_str(b, l->what == 0 ? row->program : row->build_id);
        lp__json_key(b, "uploads", 0);
        lp__json_u64(b, row->uploads);
        lp__json_key(b, "devices", 0);
        lp__json_u64(b, row->devices);
        lp__json_key(b, "first_ms", 0);
        lp__json_i64(b, row->first_ms);
        lp__json_key(b, "last_ms", 0);
        lp__json_i64(b, row->received_ms);
        lp__json_key(b, "instructions", 0);
        lp__json_u64(b, row->instructions);
    }
    lp__json_raw(b, "}");
    return lp__json_failed(b) ? LP_ENOMEM : 0;
}

/* Takes a reader handle or answers 503. */
static lp_store *api_store(lp__server *s, lp__reply *r)
{
    char err[256];
    lp_store *st = lp__pool_take(&s->pool, err, sizeof err);
    if (!st)
        lp__reply_error(r, 503, "store: %s", err);
    return st;
}

static int api_failed(lp__reply *r, lp_store *st, int rc)
{
    if (rc == 0)
        return 0;
    if (rc == LP_ENOMEM)
        lp__reply_error(r, 500, "out of memory");
    else
        lp__reply_error(r, 500, "store: %s", lp_store_error(st));
    return 1;
}

void lp__api_programs(lp__server *s, int64_t project, const char *project_name, lp__reply *r)
{
    lp_store *st = api_store(s, r);
    if (!st)
        return;
    api_json(r);
    lp__json_raw(&r->body, "{\"project\":");
    lp__json_str(&r->body, project_name);
    lp__json_raw(&r->body, ",\"store\":");
    lp__json_str(&r->body, s->kind);
    lp__json_raw(&r->body, ",\"programs\":[");
    api_list l = {&r->body, 0, 0};
    int rc = lp_store_programs(st, project, api_row, &l);
    int failed = api_failed(r, st, rc); /* reads the handle's error: before giving it back */
    lp__pool_give(&s->pool, st, rc != 0 && rc != LP_ENOMEM);
    if (failed)
        return;
    lp__json_raw(&r->body, "]}\n");
}

/* A required query argument within its length limit, or NULL with r set to
 * a 400. */
static const char *api_need(lp__arg_fn arg, void *ctx, const char *name, size_t max,
                            lp__reply *r)
{
    const char *v = arg(ctx, name);
    if (!v || !*v) {
        lp__reply_error(r, 400, "missing query argument %s", name);
        return NULL;
    }
    if (strlen(v) > max) {
        lp__reply_error(r, 400, "query argument %s longer than %zu bytes", name, max);
        return NULL;
    }
    return v;
}

void lp__api_builds(lp__server *s, int64_t project, lp__arg_fn arg, void *ctx, lp__reply *r)
{
    const char *program = api_need(arg, ctx, "program", LP_STORE_NAME_MAX, r);
    if (!program)
        return;
    lp_store *st = api_store(s, r);
    if (!st)
        return;
    api_json(r);
    lp__json_raw(&r->body, "{\"program\":");
    lp__json_str(&r->body, program);
    lp__json_raw(&r->body, ",\"builds\":[");
    api_list l = {&r->body, 0, 1};
    int rc = lp_store_builds(st, project, program, api_row, &l);
    int failed = api_failed(r, st, rc); /* reads the handle's error: before giving it back */
    lp__pool_give(&s->pool, st, rc != 0 && rc != LP_ENOMEM);
    if (failed)
        return;
    /* Another project's program and one never seen look the same. */
    if (l.rows == 0) {
        lp__reply_error(r, 404, "no program %s in this project", program);
        return;
    }
    lp__json_raw(&r->body, "]}\n");
}

void lp__api_uploads(lp__server *s, int64_t project, lp__arg_fn arg, void *ctx, lp__reply *r)
{
    const char *program = api_need(arg, ctx, "program", LP_STORE_NAME_MAX, r);
    const char *build = program ? api_need(arg, ctx, "build", LP_STORE_BUILD_ID_MAX, r) : NULL;
    if (!build)
        return;
    const char *after_s = arg(ctx, "after");
    int64_t after = after_s ? strtoll(after_s, NULL, 10) : 0;
    lp_store *st = api_store(s, r);
    if (!st)
        return;
    api_json(r);
    lp__json_raw(&r->body, "{\"program\":");
    lp__json_str(&r->body, program);
    lp__json_raw(&r->body, ",\"build_id\":");
    lp__json_str(&r->body, build);
    lp__json_raw(&r->body, ",\"uploads\":[");
    api_list l = {&r->body, 0, 2};
    int rc = lp_store_uploads(st, project, program, build, after, api_row, &l);
    int failed = api_failed(r, st, rc); /* reads the handle's error: before giving it back */
    lp__pool_give(&s->pool, st, rc != 0 && rc != LP_ENOMEM);
    if (failed)
        return;
    if (l.rows == 0 && after <= 0) {
        lp__reply_error(r, 404, "no build %s of %s in this project", build, program);
        return;
    }
    lp__json_raw(&r->body, "]}\n");
}

/* ---- the merge cache -------------------------------------------------------------- */

void lp__cache_init(lp__cache *c)
{
    memset(c, 0, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    pthread_mutex_init(&c->names_lock, NULL);
}

static void merge_entry_free(lp__merge_entry *e)
{
    if (!e)
        return;
    if (e->have_names)
        lp_names_fini(&e->names);
    if (e->have_result)
        lp_profile_set_fini(&e->result);
    lp_merge_free(e->merge);
    lp_membuf_free(&e->packed);
    lp_membuf_free(&e->json);
    pthread_mutex_destroy(&e->lock);
    lp_free(e);
}

void lp__cache_fini(lp__cache *c)
{
    for (size_t i = 0; i < sizeof c->slots / sizeof c->slots[0]; i++)
        merge_entry_free(c->slots[i]);
    pthread_mutex_destroy(&c->lock);
    pthread_mutex_destroy(&c->names_lock);
}

static lp__merge_entry *merge_entry_new(int64_t project, const char *program, const char *build)
{
    lp__merge_entry *e = lp_calloc(1, sizeof *e);
    if (!e)
        return NULL;
    pthread_mutex_init(&e->lock, NULL);
    e->project = project;
    snprintf(e->program, sizeof e->program, "%s", program);
    snprintf(e->build, sizeof e->build, "%s", build);
    e->packed_seq = -1;
    e->json_seq = -1;
    return e;
}

/* The entry for the build, in use by the caller until cache_put: the
 * cached one, else a new one in an empty slot or in place of the least
 * recently used idle one, else a private one. NULL without memory. */
static lp__merge_entry *cache_get(lp__cache *c, int64_t project, const char *program,
                                  const char *build)
{
    size_t n = sizeof c->slots / sizeof c->slots[0], victim = n;
    lp__merge_entry *e = NULL;
    pthread_mutex_lock(&c->lock);
    for (size_t i = 0; i < n && !e; i++) {
        lp__merge_entry *x = c->slots[i];
        if (x && x->project == project && strcmp(x->program, program) == 0 &&
            strcmp(x->build, build) == 0)
            e = x;
    }
    for (size_t i = 0; i < n && !e; i++) {
        lp__merge_entry *x = c->slots[i];
        if (!x) {
            victim = i;
            break;
        }
        if (x->users == 0 && (victim == n || c->slots[victim]->used > x->used))
            victim = i;
    }
    if (!e) {
        e = merge_entry_new(project, program, build);
        if (e && victim < n) {
            merge_entry_free(c->slots[victim]);
            c->slots[victim] = e;
        } else if (e) {
            e->private_ = 1;
        }
    }
    if (e) {
        e->users++;
        e->used = ++c->clock;
    }
    pthread_mutex_unlock(&c->lock);
    return e;
}

static void cache_put(lp__cache *c, lp__merge_entry *e)
{
    pthread_mutex_lock(&c->lock);
    int gone = --e->users == 0 && e->private_;
    pthread_mutex_unlock(&c->lock);
    if (gone)
        merge_entry_free(e);
}

typedef struct api_fold {
    lp__merge_entry *e;
    size_t max_profile;
    uint64_t added;
} api_fold;

/* Adds one stored upload to the merge. An upload that no longer decodes or
 * merges (it was accepted by an older collector, say) is counted and
 * passed over, so one bad row cannot hide a build. */
static int api_fold_row(void *ctx, const lp_store_row *row)
{
    api_fold *f = ctx;
    lp_profile_set set;
    lp_upload_id id;
    char why[256];
    int rc = lp_upload_unpack(row->body, row->body_size, f->max_profile, &set, &id, NULL, why,
                              sizeof why);
    if (rc == 0) {
        rc = lp_merge_add(f->e->merge, &set, row->device);
        lp_profile_set_fini(&set);
    }
    if (rc == LP_ENOMEM)
        return rc;
    if (rc != 0)
        f->e->skipped++;
    else
        f->e->folded++;
    f->e->last_seq = row->seq;
    f->added++;
    return 0;
}

/* Brings e up to date with the store: folds newer uploads, rebuilds the
 * result and its names if any came. Caller holds e->lock. Returns 0, or a
 * negative code with r set. */
static int merge_refresh(lp__server *s, lp__merge_entry *e, lp__reply *r)
{
    double t0 = api_ms();
    if (!e->merge && lp_merge_create(&e->merge) != 0) {
        lp__reply_error(r, 500, "out of memory");
        return LP_ENOMEM;
    }
    lp_store *st = api_store(s, r);
    if (!st)
        return LP_EIO;
    api_fold f = {e, s->o.max_profile, 0};
    int rc = lp_store_bodies(st, e->project, e->program, e->build, e->last_seq, 0, api_fold_row,
                             &f);
    if (rc == LP_ENOMEM)
        lp__reply_error(r, 500, "out of memory");
    else if (rc != 0)
        lp__reply_error(r, 500, "store: %s", lp_store_error(st));
    lp__pool_give(&s->pool, st, rc != 0 && rc != LP_ENOMEM);
    if (rc != 0) {
        /* The merge may hold part of a row: start over next time. */
        lp_merge_free(e->merge);
        e->merge = NULL;
        e->last_seq = 0;
        e->folded = e->skipped = 0;
        return rc;
    }
    if (f.added == 0 && e->have_result)
        return 0;
    if (e->have_names) {
        lp_names_fini(&e->names);
        e->have_names = 0;
    }
    if (e->have_result) {
        lp_profile_set_fini(&e->result);
        e->have_result = 0;
    }
    if (lp_merge_result(e->merge, &e->result) != 0) {
        lp__reply_error(r, 500, "out of memory");
        return LP_ENOMEM;
    }
    e->have_result = 1;
    pthread_mutex_lock(&s->cache.names_lock);
    rc = lp_names_init(&e->names, &e->result);
    pthread_mutex_unlock(&s->cache.names_lock);
    if (rc != 0) {
        lp__reply_error(r, 500, "out of memory");
        return LP_ENOMEM;
    }
    e->have_names = 1;
    e->merge_ms = api_ms() - t0;
    return 0;
}

/* ---- the merged profile as JSON ------------------------------------------------------ */

static void json_hex(lp_membuf *b, uint64_t v)
{
    lp__json_printf(b, "\"0x%" PRIx64 "\"", v);
}

/* One profile type's table: totals and the top rows, hottest first. */
static int profile_type_json(lp__merge_entry *e, unsigned type, uint64_t top, lp_membuf *b,
                             int first)
{
    lp_report_view v;
    if (lp_report_view_build(&e->result, type, LP_PHASE_NONE, &v) != 0)
        return LP_ENOMEM;
    if (v.merged == 0 || v.count == 0) {
        lp_report_view_fini(&v);
        return 1; /* nothing to show */
    }
    uint64_t t0 = 0, t1 = 0;
    for (size_t i = 0; i < v.count; i++) {
        t0 += v.entries[i].v[0];
        t1 += v.entries[i].v[1];
    }
    lp_entries_sort(v.entries, v.count, lp_entry_count_greater);
    const char *c1 = lp_report_counter_name(type, 1);
    lp__json_raw(b, first ? "{" : ",{");
    lp__json_key(b, "type", 1);
    lp__json_str(b, lp_profile_type_name(type));
    lp__json_key(b, "counters", 0);
    lp__json_raw(b, "[");
    lp__json_str(b, lp_report_counter_name(type, 0));
    lp__json_raw(b, ",");
    lp__json_str(b, c1);
    lp__json_raw(b, "]");
    lp__json_key(b, "entries", 0);
    lp__json_u64(b, v.count);
    lp__json_key(b, "total", 0);
    lp__json_printf(b, "[%" PRIu64 ",%" PRIu64 "]", t0, t1);
    lp__json_key(b, "rows", 0);
    lp__json_raw(b, "[");
    int b_code = lp_report_key_b_is_code(type);
    size_t n = top && top < v.count ? (size_t)top : v.count;
    char name[512], where[512];
    for (size_t i = 0; i < n; i++) {
        const lp_entry *x = &v.entries[i];
        lp__json_raw(b, i ? ",{" : "{");
        lp__json_key(b, "a", 1);
        json_hex(b, x->key.a);
        lp__json_key(b, "name", 0);
        lp__json_str(b, lp_names_function(&e->names, x->key.a, name, sizeof name));
        lp__json_key(b, "where", 0);
        lp__json_str(b, lp_names_describe(&e->names, x->key.a, 0, where, sizeof where));
        if (x->key.b || b_code) {
            lp__json_key(b, "b", 0);
            json_hex(b, x->key.b);
        }
        if (b_code) {
            lp__json_key(b, "b_name", 0);
            lp__json_str(b, lp_names_function(&e->names, x->key.b, name, sizeof name));
        }
        lp__json_key(b, "v", 0);
        lp__json_printf(b, "[%" PRIu64 ",%" PRIu64 "]", x->v[0], x->v[1]);
        lp__json_raw(b, "}");
    }
    lp__json_raw(b, "]}");
    lp_report_view_fini(&v);
    return 0;
}

/* The call graph for the flame graph: function -> function edges with
 * their calls, from the call-graph profile, else from the call pairs
 * (a call site stands for the function that holds it). The hottest
 * LP__GRAPH_EDGES edges are sent; the page cuts cycles. */
static int profile_graph_json(lp__merge_entry *e, lp_membuf *b)
{
    unsigned type = LP_PROF_CALL_GRAPH;
    lp_profile *p = lp_profile_set_find(&e->result, type, LP_PHASE_NONE);
    if (!p || p->table.count == 0) {
        type = LP_PROF_CALL_PAIR;
        p = lp_profile_set_find(&e->result, type, LP_PHASE_NONE);
    }
    if (!p || p->table.count == 0)
        return 1;
    lp_table edges, nodes;
    if (lp_table_init(&edges, p->table.count) != 0)
        return LP_ENOMEM;
    if (lp_table_init(&nodes, 64) != 0) {
        lp_table_fini(&edges);
        return LP_ENOMEM;
    }
    int rc = 0;
    size_t cur = 0;
    for (lp_entry *x; (x = lp_table_next(&p->table, &cur));) {
        lp_key k = {type == LP_PROF_CALL_PAIR ? lp_names_start(&e->names, x->key.a) : x->key.a,
                    x->key.b};
        lp_entry *y = lp_table_upsert(&edges, k);
        if (!y) {
            rc = LP_ENOMEM;
            goto out;
        }
        y->v[0] += x->v[0];
    }
    lp_entry *sorted = NULL;
    if (lp_table_sorted(&edges, lp_entry_count_greater, &sorted) != 0) {
        rc = LP_ENOMEM;
        goto out;
    }
    size_t n = edges.count < LP__GRAPH_EDGES ? edges.count : LP__GRAPH_EDGES;
    /* Number the functions in order of first appearance. */
    size_t nn = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        for (int side = 0; side < 2; side++) {
            lp_key k = {side ? sorted[i].key.b : sorted[i].key.a, 0};
            lp_entry *y = lp_table_find(&nodes, k);
            if (y)
                continue;
            y = lp_table_upsert(&nodes, k);
            if (!y) {
                rc = LP_ENOMEM;
                break;
            }
            y->v[0] = nn++;
        }
    lp_profile *methods = lp_profile_set_find(&e->result, LP_PROF_METHOD, LP_PHASE_NONE);
    if (rc == 0) {
        /* Node names in number order. */
        uint64_t *addr = lp_calloc(nn + 1, sizeof *addr);
        if (!addr) {
            rc = LP_ENOMEM;
        } else {
            size_t c2 = 0;
            for (lp_entry *y; (y = lp_table_next(&nodes, &c2));)
                addr[y->v[0]] = y->key.a;
            lp__json_raw(b, ",\"graph\":{\"source\":");
            lp__json_str(b, lp_profile_type_name(type));
            lp__json_raw(b, ",\"nodes\":[");
            char name[512];
            for (size_t i = 0; i < nn; i++) {
                lp__json_raw(b, i ? ",{" : "{");
                lp__json_key(b, "name", 1);
                lp__json_str(b, lp_names_function(&e->names, addr[i], name, sizeof name));
                if (methods) {
                    lp_key k = {addr[i], 0};
                    lp_entry *m = lp_table_find(&methods->table, k);
                    lp__json_key(b, "calls", 0);
                    lp__json_u64(b, m ? m->v[0] : 0);
                }
                lp__json_raw(b, "}");
            }
            lp__json_raw(b, "],\"edges\":[");
            for (size_t i = 0; i < n; i++) {
                lp_key ka = {sorted[i].key.a, 0}, kb = {sorted[i].key.b, 0};
                lp__json_printf(b, "%s[%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]", i ? "," : "",
                                lp_table_find(&nodes, ka)->v[0],
                                lp_table_find(&nodes, kb)->v[0], sorted[i].v[0]);
            }
            lp__json_raw(b, "]}");
            lp_free(addr);
        }
    }
    lp_free(sorted);
out:
    lp_table_fini(&edges);
    lp_table_fini(&nodes);
    return rc;
}

static void profile_json(lp__merge_entry *e, uint64_t top, lp__reply *r)
{
    lp_membuf *b = &r->body;
    lp_merge_stats st;
    lp_merge_get_stats(e->merge, &st);
    api_json(r);
    lp__json_raw(b, "{");
    lp__json_key(b, "program", 1);
    lp__json_str(b, e->program);
    lp__json_key(b, "build_id", 0);
    lp__json_str(b, e->build);
    lp__json_key(b, "uploads", 0);
    lp__json_u64(b, e->folded + e->skipped);
    lp__json_key(b, "skipped", 0);
    lp__json_u64(b, e->skipped);
    lp__json_key(b, "last_seq", 0);
    lp__json_i64(b, e->last_seq);
    lp__json_key(b, "runs", 0);
    lp__json_u64(b, st.runs);
    lp__json_key(b, "devices", 0);
    lp__json_u64(b, st.devices);
    lp__json_key(b, "phased_runs", 0);
    lp__json_u64(b, st.phased_runs);
    lp__json_key(b, "intervals", 0);
    lp__json_u64(b, st.intervals);
    lp__json_key(b, "instructions", 0);
    lp__json_u64(b, st.instructions);
    lp__json_key(b, "merge_ms", 0);
    lp__json_printf(b, "%.1f", e->merge_ms);
    lp__json_key(b, "phases", 0);
    lp__json_raw(b, "[");
    for (size_t i = 0; i < st.nphases; i++)
        lp__json_printf(b, "%s{\"phase\":%" PRIu32 ",\"intervals\":%" PRIu64
                           ",\"sampled\":%" PRIu64 ",\"runs\":%" PRIu64 "}",
                        i ? "," : "", st.phases[i].phase, st.phases[i].intervals,
                        st.phases[i].sampled, st.phases[i].runs);
    lp__json_raw(b, "]");
    lp__json_key(b, "profiles", 0);
    lp__json_raw(b, "[");
    int first = 1;
    for (unsigned type = 1; type <= LP_PROF_TYPE_MAX; type++) {
        int rc = profile_type_json(e, type, top, b, first);
        if (rc < 0) {
            lp__reply_error(r, 500, "out of memory");
            return;
        }
        if (rc == 0)
            first = 0;
    }
    lp__json_raw(b, "]");
    if (profile_graph_json(e, b) < 0) {
        lp__reply_error(r, 500, "out of memory");
        return;
    }
    lp__json_raw(b, "}\n");
}

/* The JSON view of e for top: the cached one if it is current, else
 * rendered and kept. Caller holds e->lock; e's merge is current. */
static void merge_view_json(lp__server *s, lp__merge_entry *e, uint64_t top, lp__reply *r)
{
    if (e->json_seq == e->last_seq && e->json_top == top) {
        lp_sink sink = lp_membuf_sink(&r->body);
        if (sink.write(sink.ctx, e->json.data, e->json.size) != 0)
            lp__reply_error(r, 500, "out of memory");
        else
            api_json(r);
        return;
    }
    pthread_mutex_lock(&s->cache.names_lock);
    profile_json(e, top, r);
    pthread_mutex_unlock(&s->cache.names_lock);
    lp_membuf_free(&e->json);
    e->json_seq = -1;
    lp_sink sink = lp_membuf_sink(&e->json);
    if (r->status == 200 && !lp__json_failed(&r->body) &&
        sink.write(sink.ctx, r->body.data, r->body.size) == 0) {
        e->json_seq = e->last_seq;
        e->json_top = top;
    }
}

void lp__api_warm(lp__server *s, int64_t project, const char *program, const char *build)
{
    lp__merge_entry *e = cache_get(&s->cache, project, program, build);
    if (!e)
        return;
    lp__reply r;
    memset(&r, 0, sizeof r);
    pthread_mutex_lock(&e->lock);
    if (merge_refresh(s, e, &r) == 0 && e->folded + e->skipped > 0) {
        lp_membuf_free(&r.body);
        merge_view_json(s, e, LP__TOP_DEFAULT, &r);
    }
    pthread_mutex_unlock(&e->lock);
    lp_membuf_free(&r.body);
    cache_put(&s->cache, e);
}

void lp__api_profile(lp__server *s, int64_t project, lp__arg_fn arg, void *ctx, lp__reply *r)
{
    const char *program = api_need(arg, ctx, "program", LP_STORE_NAME_MAX, r);
    const char *build = program ? api_need(arg, ctx, "build", LP_STORE_BUILD_ID_MAX, r) : NULL;
    if (!build)
        return;
    const char *format = arg(ctx, "format");
    int lpprof = format && strcmp(format, "lpprof") == 0;
    if (format && !lpprof && strcmp(format, "json") != 0) {
        lp__reply_error(r, 400, "format must be json or lpprof");
        return;
    }
    uint64_t top = LP__TOP_DEFAULT;
    const char *top_s = arg(ctx, "top");
    if (top_s) {
        char *end;
        unsigned long long t = strtoull(top_s, &end, 10);
        if (!*top_s || *end || t > LP__TOP_MAX) {
            lp__reply_error(r, 400, "top must be a count from 0 (all) to %d", LP__TOP_MAX);
            return;
        }
        top = t ? t : LP__TOP_MAX;
    }

    lp__merge_entry *e = cache_get(&s->cache, project, program, build);
    if (!e) {
        lp__reply_error(r, 500, "out of memory");
        return;
    }
    pthread_mutex_lock(&e->lock);
    if (merge_refresh(s, e, r) != 0)
        goto out;
    if (e->folded + e->skipped == 0) {
        lp__reply_error(r, 404, "no build %s of %s in this project", build, program);
        goto out;
    }
    if (lpprof) {
        if (e->packed_seq != e->last_seq) {
            lp_membuf_free(&e->packed);
            /* The file carries a message id like any message, so every
             * message reader (lp_upload_unpack) takes it; the id names this
             * merge: project, program, build and the last upload in it. */
            char mid[33];
            uint64_t h = lp_hash_pair((uint64_t)e->project, (uint64_t)e->last_seq);
            for (const char *c = e->program; *c; c++)
                h = lp_hash_pair(h, (unsigned char)*c);
            uint64_t h2 = h;
            for (const char *c = e->build; *c; c++)
                h2 = lp_hash_pair(h2, (unsigned char)*c);
            snprintf(mid, sizeof mid, "%016" PRIx64 "%016" PRIx64, h, h2);
            if (lp_meta_set(&e->result.meta, "message-id", mid) != 0 ||
                lp_upload_pack(&e->result, &e->packed) != 0) {
                lp_membuf_free(&e->packed);
                e->packed_seq = -1;
                lp__reply_error(r, 500, "cannot compress the merged profile");
                goto out;
            }
            e->packed_seq = e->last_seq;
        }
        lp_sink sink = lp_membuf_sink(&r->body);
        if (sink.write(sink.ctx, e->packed.data, e->packed.size) != 0) {
            lp__reply_error(r, 500, "out of memory");
            goto out;
        }
        r->status = 200;
        r->type = "application/vnd.lowprof.profile";
        r->encoding = "zstd";
    } else {
        merge_view_json(s, e, top, r);
    }
out:
    pthread_mutex_unlock(&e->lock);
    cache_put(&s->cache, e);
}
