/* remote: the profile buffer and the two transmission protocols of the
 * remote-profiling paper (section 4: the daemon stores each sample tagged
 * with its phase ID and a trace of phase IDs; section 5.4: At End merges
 * the sampled profiles and compresses and sends them once, Interleaved
 * compresses and sends each sampled interval's profile as it ends).
 *
 * Runs once per interval and once per sample, never per event. Records are
 * serialised with sorted, delta-coded keys (format in remote.h) so the
 * compressor finds repeats; the phase trace is kept run-length coded. */
#include "remote_internal.h"

typedef struct remote_group {
    uint32_t phase;
    unsigned type;
    uint64_t first_interval;
    uint64_t intervals;
    lp_table table;
} remote_group;

typedef struct remote_run {
    uint32_t phase;
    uint64_t length;
} remote_run;

struct lp_remote_buffer {
    unsigned protocol, flags;
    lp_sink sink;
    int finished;
    remote_group *groups; /* At End: one per (phase, type) */
    size_t group_count, group_cap;
    lp_table group_index; /* key {phase, type}: v[0] group position */
    lp_membuf pending;    /* Interleaved: records of the interval in progress */
    remote_run *runs;     /* trace not yet sent */
    size_t run_count, run_cap;
    lp_membuf payload, block;
    lp_remote_stats stats;
};

int lp_remote_buffer_create(unsigned protocol, unsigned flags, lp_sink sink,
                            lp_remote_buffer **out)
{
    *out = NULL;
    if (protocol != LP_REMOTE_AT_END && protocol != LP_REMOTE_INTERLEAVED)
        return LP_EINVAL;
    if (flags & ~(unsigned)LP_REMOTE_MERGE_PHASES)
        return LP_EINVAL;
    lp_remote_buffer *b = lp_calloc(1, sizeof *b);
    if (!b)
        return LP_ENOMEM;
    b->protocol = protocol;
    b->flags = flags;
    b->sink = sink;
    (void)lp_table_init(&b->group_index, 0);
    *out = b;
    return LP_OK;
}

void lp_remote_buffer_free(lp_remote_buffer *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->group_count; i++)
        lp_table_fini(&b->groups[i].table);
    lp_free(b->groups);
    lp_table_fini(&b->group_index);
    lp_membuf_free(&b->pending);
    lp_free(b->runs);
    lp_membuf_free(&b->payload);
    lp_membuf_free(&b->block);
    lp_free(b);
}

/* Makes room for one more element of a doubling array. */
static int grow(void **items, size_t *cap, size_t count, size_t elem)
{
    if (count < *cap)
        return LP_OK;
    size_t ncap = *cap ? 2 * *cap : 16;
    if (ncap > SIZE_MAX / elem)
        return LP_ENOMEM;
    void *p = lp_realloc(*items, *cap * elem, ncap * elem);
    if (!p)
        return LP_ENOMEM;
    *items = p;
    *cap = ncap;
    return LP_OK;
}

/* Writes a tag byte and n varints as one piece. */
static int write_fields(lp_membuf *m, int tag, const uint64_t *f, size_t n)
{
    uint8_t b[1 + 5 * LP__VARINT_MAX];
    size_t len = 0;
    if (tag >= 0)
        b[len++] = (uint8_t)tag;
    for (size_t i = 0; i < n; i++)
        len += lp__varint_put(b + len, f[i]);
    lp_sink s = lp_membuf_sink(m);
    return s.write(s.ctx, b, len);
}

static uint64_t phase_field(uint32_t phase)
{
    return phase == LP_PHASE_NONE ? 0 : (uint64_t)phase + 1;
}

static int serialise_profile(lp_membuf *m, uint32_t phase, unsigned type, uint64_t first,
                             uint64_t intervals, const lp_table *t)
{
    lp_entry *sorted = NULL;
    int rc = lp_table_sorted(t, lp_entry_key_less, &sorted);
    if (rc < 0)
        return rc;
    const uint64_t head[5] = {phase_field(phase), type, first, intervals, t->count};
    rc = write_fields(m, 1, head, 5);
    lp_key prev = {0, 0};
    for (size_t i = 0; i < t->count && rc == LP_OK; i++) {
        const lp_entry *e = &sorted[i];
        int same_a = i > 0 && e->key.a == prev.a;
        const uint64_t f[4] = {e->key.a - prev.a, same_a ? e->key.b - prev.b : e->key.b,
                               e->v[0], e->v[1]};
        rc = write_fields(m, -1, f, 4);
        prev = e->key;
    }
    lp_free(sorted);
    return rc;
}

static int serialise_trace(lp_membuf *m, const remote_run *runs, size_t n)
{
    const uint64_t count = n;
    int rc = write_fields(m, 2, &count, 1);
    for (size_t i = 0; i < n && rc == LP_OK; i++) {
        const uint64_t f[2] = {phase_field(runs[i].phase), runs[i].length};
        rc = write_fields(m, -1, f, 2);
    }
    return rc;
}

/* Compresses b->payload and writes one message to the sink. */
static int send_payload(lp_remote_buffer *b)
{
    b->block.size = 0;
    int rc = lp_lz_compress(b->payload.data, b->payload.size, &b->block, &b->stats.work);
    if (rc < 0)
        return rc;
    uint8_t head[5 + 2 * LP__VARINT_MAX] = {'L', 'P', 'R', 'M', 1};
    size_t n = 5;
    n += lp__varint_put(head + n, b->payload.size);
    n += lp__varint_put(head + n, b->block.size);
    if ((rc = b->sink.write(b->sink.ctx, head, n)) < 0 ||
        (rc = b->sink.write(b->sink.ctx, b->block.data, b->block.size)) < 0)
        return rc;
    b->stats.messages++;
    b->stats.raw_bytes += b->payload.size;
    b->stats.compressed_bytes += b->block.size;
    b->stats.sent_bytes += n + b->block.size;
    return LP_OK;
}

static int add_at_end(lp_remote_buffer *b, uint32_t phase, uint64_t interval, unsigned type,
                      const lp_table *t)
{
    if (b->flags & LP_REMOTE_MERGE_PHASES)
        phase = LP_PHASE_NONE;
    lp_key k = {phase, type};
    lp_entry *ix = lp_table_find(&b->group_index, k);
    if (!ix) {
        /* Room for the group first, so a failure leaves no index entry
         * pointing past the array. */
        int rc = grow((void **)&b->groups, &b->group_cap, b->group_count, sizeof *b->groups);
        if (rc < 0)
            return rc;
        if (!(ix = lp_table_upsert(&b->group_index, k)))
            return LP_ENOMEM;
        remote_group *g = &b->groups[b->group_count];
        g->phase = phase;
        g->type = type;
        g->first_interval = interval;
        g->intervals = 0;
        (void)lp_table_init(&g->table, 0);
        ix->v[0] = b->group_count++;
    }
    remote_group *g = &b->groups[ix->v[0]];
    g->intervals++;
    if (interval < g->first_interval)
        g->first_interval = interval;
    return lp_table_merge(&g->table, t);
}

int lp_remote_buffer_add(lp_remote_buffer *b, uint32_t phase, uint64_t interval, unsigned type,
                         const lp_table *t)
{
    if (b->finished || type == 0 || type > LP_PROF_TYPE_MAX)
        return LP_EINVAL;
    int rc = b->protocol == LP_REMOTE_AT_END
                 ? add_at_end(b, phase, interval, type, t)
                 : serialise_profile(&b->pending, phase, type, interval, 1, t);
    if (rc < 0)
        return rc;
    b->stats.samples++;
    if (b->protocol == LP_REMOTE_INTERLEAVED)
        b->stats.records++;
    return LP_OK;
}

/* Sends the pending records and the trace not yet sent as one message. */
static int send_interleaved(lp_remote_buffer *b)
{
    b->payload.size = 0;
    lp_sink s = lp_membuf_sink(&b->payload);
    int rc = b->pending.size ? s.write(s.ctx, b->pending.data, b->pending.size) : LP_OK;
    if (rc < 0)
        return rc;
    if (b->run_count && (rc = serialise_trace(&b->payload, b->runs, b->run_count)) < 0)
        return rc;
    if ((rc = send_payload(b)) < 0)
        return rc;
    b->pending.size = 0;
    b->run_count = 0;
    return LP_OK;
}

int lp_remote_buffer_interval_end(lp_remote_buffer *b, uint32_t phase)
{
    if (b->finished)
        return LP_EINVAL;
    if (b->run_count && b->runs[b->run_count - 1].phase == phase) {
        b->runs[b->run_count - 1].length++;
    } else {
        int rc = grow((void **)&b->runs, &b->run_cap, b->run_count, sizeof *b->runs);
        if (rc < 0)
            return rc;
        b->runs[b->run_count].phase = phase;
        b->runs[b->run_count++].length = 1;
    }
    if (b->protocol == LP_REMOTE_INTERLEAVED && b->pending.size)
        return send_interleaved(b);
    return LP_OK;
}

int lp_remote_buffer_finish(lp_remote_buffer *b)
{
    if (b->finished)
        return LP_EINVAL;
    b->finished = 1;
    if (b->protocol == LP_REMOTE_INTERLEAVED)
        return b->pending.size || b->run_count ? send_interleaved(b) : LP_OK;
    b->payload.size = 0;
    int rc = LP_OK;
    for (size_t i = 0; i < b->group_count && rc == LP_OK; i++) {
        const remote_group *g = &b->groups[i];
        rc = serialise_profile(&b->payload, g->phase, g->type, g->first_interval, g->intervals,
                               &g->table);
        b->stats.records++;
    }
    if (rc == LP_OK)
        rc = serialise_trace(&b->payload, b->runs, b->run_count);
    if (rc == LP_OK)
        rc = send_payload(b);
    return rc;
}

void lp_remote_buffer_get_stats(const lp_remote_buffer *b, lp_remote_stats *out)
{
    *out = b->stats;
}
