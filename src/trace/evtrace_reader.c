/* Reads an event trace (doc/format-events.md) one event at a time. Only
 * the current chunk is in memory and its events are decoded on demand, so
 * a trace of any length streams in constant space. A trace cut short
 * yields every event of its complete chunks, then LP_ETRUNC. */
#include "trace_internal.h"

static const uint16_t known[] = {LP__CH_META, LP__CH_MODULES, LP__CH_END, LP__CH_EVENTS};

enum { IN_EVENTS, AFTER_MODULES, AT_END };

struct lp_evtrace_reader {
    lp__reader rd;
    lp_meta meta;
    lp_module_map modules;
    lp__cur cur;   /* inside the current events chunk */
    uint64_t left; /* its events not yet returned */
    lp__evstate state;
    uint64_t total; /* events returned so far */
    int state_of_file;
    int failed;
    lp_read_error error;
};

static int type_error(lp__reader *r, unsigned want, lp_read_error *err)
{
    char field[48];
    return lp__fail(err, r->offset, LP_EFORMAT,
                    lp__fmt(field, sizeof field, "chunk[%llu].type", LP__ULL(r->index)),
                    "%s chunk where %s chunk belongs", lp__chunk_type_name(r->type),
                    lp__chunk_type_name(want));
}

/* *out is NULL on failure; err may be NULL. */
int lp_evtrace_reader_open(lp_source src, lp_evtrace_reader **out, lp_read_error *err)
{
    if (!out)
        return LP_EINVAL;
    *out = NULL;
    lp_evtrace_reader *r = lp_calloc(1, sizeof *r);
    if (!r)
        return lp__fail(err, 0, LP_ENOMEM, "file", "no memory for a reader");
    int rc =
        lp__reader_start(&r->rd, src, LP_FILE_EVENTS, known, sizeof known / sizeof known[0], err);
    if (!rc)
        rc = lp__reader_next(&r->rd, err);
    if (!rc && r->rd.type != LP__CH_META)
        rc = type_error(&r->rd, LP__CH_META, err);
    if (!rc)
        rc = lp__meta_decode(&r->rd, &r->meta, err);
    if (rc) {
        lp_evtrace_reader_free(r);
        return rc;
    }
    *out = r;
    return 0;
}

const lp_meta *lp_evtrace_reader_meta(const lp_evtrace_reader *r)
{
    return r ? &r->meta : NULL;
}

const lp_module_map *lp_evtrace_reader_modules(const lp_evtrace_reader *r)
{
    return r ? &r->modules : NULL;
}

/* Moves to the next events chunk; 1 when one is ready, 0 at the end. */
static int next_chunk(lp_evtrace_reader *r, lp_read_error *err)
{
    lp__reader *rd = &r->rd;
    char field[48];
    for (;;) {
        int rc = lp__reader_next(rd, err);
        if (rc)
            return rc;
        unsigned want = r->state_of_file == IN_EVENTS ? LP__CH_EVENTS : LP__CH_END;
        if (rd->type == LP__CH_EVENTS && r->state_of_file == IN_EVENTS) {
            r->cur = lp__reader_cursor(rd);
            /* The shortest event is five one-byte varints. */
            rc = lp__get_count(
                &r->cur, &r->left, LP__MAX_EVENTS_CHUNK, 5,
                lp__fmt(field, sizeof field, "chunk[%llu].count", LP__ULL(rd->index)), err);
            if (!rc && !r->left)
                rc = lp__fail(err, rd->offset + LP__CHUNK_HEAD, LP_EFORMAT, field,
                              "an events chunk with no events");
            if (rc)
                return rc;
            lp__evstate_reset(&r->state);
            return 1;
        }
        if (rd->type == LP__CH_MODULES && r->state_of_file == IN_EVENTS) {
            rc = lp__modules_decode(rd, &r->modules, err);
            if (rc)
                return rc;
            r->state_of_file = AFTER_MODULES;
            continue;
        }
        if (rd->type == LP__CH_END && r->state_of_file == AFTER_MODULES) {
            lp__cur c = lp__reader_cursor(rd);
            uint64_t n;
            rc = lp__get_range(&c, &n, r->total, r->total, 0, "end.events", err);
            if (!rc)
                rc = lp__cur_expect_end(&c, "end", err);
            if (!rc)
                rc = lp__reader_expect_eof(rd, err);
            if (rc)
                return rc;
            r->state_of_file = AT_END;
            return 0;
        }
        return type_error(rd, rd->type == LP__CH_END ? LP__CH_MODULES : want, err);
    }
}

static int next_event(lp_evtrace_reader *r, lp_event *out, lp_read_error *err)
{
    if (!r->left) {
        if (r->cur.p) {
            int rc = lp__cur_expect_end(&r->cur, "events", err);
            if (rc)
                return rc;
            r->cur.p = NULL;
        }
        int rc = next_chunk(r, err);
        if (rc <= 0)
            return rc;
    }
    int rc = lp__event_get(&r->cur, &r->state, out, r->total, err);
    if (rc)
        return rc;
    r->left--;
    r->total++;
    return 1;
}

int lp_evtrace_reader_next(lp_evtrace_reader *r, lp_event *out, lp_read_error *err)
{
    if (!r || !out)
        return LP_EINVAL;
    if (r->failed) {
        if (err)
            *err = r->error;
        return r->failed;
    }
    if (r->state_of_file == AT_END)
        return 0;
    __builtin_memset(out, 0, sizeof *out);
    int rc = next_event(r, out, &r->error);
    if (rc < 0) {
        r->failed = rc;
        if (err)
            *err = r->error;
    }
    return rc;
}

void lp_evtrace_reader_free(lp_evtrace_reader *r)
{
    if (!r)
        return;
    lp__reader_fini(&r->rd);
    lp_meta_fini(&r->meta);
    lp_module_map_fini(&r->modules);
    lp_free(r);
}
