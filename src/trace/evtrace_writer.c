/* Writes an event trace (doc/format-events.md): header, meta, chunks of up
 * to LP__EVENTS_PER_CHUNK delta-coded events, module map, end. Tuned for
 * the front end's per-event call: lp_evtrace_writer_add only appends a few
 * bytes to a buffer the writer keeps; a chunk (a few tens of KiB) goes to
 * the sink when it is full, so a trace cut short loses at most one chunk. */
#include "trace_internal.h"

struct lp_evtrace_writer {
    lp_sink sink;
    lp__buf body; /* the events of the chunk in progress */
    uint32_t pending;
    lp__evstate state;
    uint64_t total;
    int err; /* sticky after a failed write */
    int finished;
};

/* *out is NULL on failure; meta may be NULL. */
int lp_evtrace_writer_create(lp_sink sink, const lp_meta *meta, lp_evtrace_writer **out)
{
    if (!out)
        return LP_EINVAL;
    *out = NULL;
    if (!sink.write)
        return LP_EINVAL;
    lp_evtrace_writer *w = lp_calloc(1, sizeof *w);
    if (!w)
        return LP_ENOMEM;
    w->sink = sink;
    lp__evstate_reset(&w->state);
    int rc = lp__header_write(sink, LP_FILE_EVENTS);
    if (!rc)
        rc = lp__meta_write(sink, meta, &w->body);
    lp__buf_reset(&w->body);
    if (rc) {
        lp_evtrace_writer_free(w);
        return rc;
    }
    *out = w;
    return 0;
}

static int flush(lp_evtrace_writer *w)
{
    if (!w->pending)
        return 0;
    if (w->body.err)
        return w->body.err;
    uint8_t count[10];
    int rc = lp__chunk_write(w->sink, LP__CH_EVENTS, count, lp__varint_encode(count, w->pending),
                             w->body.data, w->body.size);
    lp__buf_reset(&w->body);
    w->pending = 0;
    lp__evstate_reset(&w->state);
    return rc;
}

/* LP_EINVAL for NULL arguments, an unknown kind or a finished writer. Not
 * thread-safe: a front end with threads serialises its calls. */
int lp_evtrace_writer_add(lp_evtrace_writer *w, const lp_event *ev)
{
    if (!w || !ev || w->finished || ev->kind < LP_EV_BRANCH || ev->kind > LP_EV_STORE)
        return LP_EINVAL;
    if (w->err)
        return w->err;
    lp__event_put(&w->body, &w->state, ev);
    if (w->body.err) {
        w->err = w->body.err;
        return w->err;
    }
    w->total++;
    if (++w->pending == LP__EVENTS_PER_CHUNK)
        w->err = flush(w);
    return w->err;
}

/* modules may be NULL (an empty map). */
int lp_evtrace_writer_finish(lp_evtrace_writer *w, const lp_module_map *modules)
{
    if (!w || w->finished)
        return LP_EINVAL;
    if (w->err)
        return w->err;
    int rc = flush(w);
    if (rc) {
        w->err = rc;
        return rc;
    }
    rc = lp__modules_write(w->sink, modules, &w->body);
    if (!rc) {
        uint8_t end[10];
        rc = lp__chunk_write(w->sink, LP__CH_END, end, lp__varint_encode(end, w->total), NULL, 0);
    }
    lp__buf_reset(&w->body);
    if (rc && rc != LP_EINVAL && rc != LP_ELIMIT)
        w->err = rc;
    else if (!rc)
        w->finished = 1;
    return rc;
}

void lp_evtrace_writer_free(lp_evtrace_writer *w)
{
    if (!w)
        return;
    lp__buf_free(&w->body);
    lp_free(w);
}
