/* remote: the profile buffer under both protocols, read back with the
 * message reader: Interleaved sends one message per sampled interval, At
 * End one for the run; the profiles, phase tags and phase trace that come
 * back are the ones put in (merged per phase, or across phases on
 * request); byte and work counts add up; malformed messages are refused. */
#include <string.h>

#include "lowprof/remote.h"
#include "../lp_test.h"

#define N_INTERVALS 12
static const uint32_t phases[N_INTERVALS] = {0, 0, 1, 1, 1, 0, 2, 2, 0, 0, 1, 1};
static const int sampled[N_INTERVALS] = {0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0};

/* A code-region-like profile for interval i: a few hundred branch pcs. */
static void interval_profile(lp_table *t, size_t i)
{
    lp_table_init(t, 0);
    for (uint64_t j = 0; j < 300; j++) {
        lp_key k = {0x401000 + 16 * j + 4096 * phases[i], 0};
        lp_entry *e = lp_table_upsert(t, k);
        e->v[0] = 1000 + j % 7 + i;
        e->v[1] = 5 * (j % 3) + 1;
    }
    lp_key edge = {0x400000, 0x400010}, edge2 = {0x400000, 0x400020};
    lp_table_upsert(t, edge)->v[0] = 3;
    lp_table_upsert(t, edge2)->v[0] = 4;
}

typedef struct collected {
    lp_table by_phase[4]; /* [3]: LP_PHASE_NONE */
    uint64_t intervals[4];
    uint64_t first[4];
    int records;
    uint32_t trace[64];
    size_t trace_len;
} collected;

static int on_profile(void *ctx, uint32_t phase, unsigned type, uint64_t first,
                      uint64_t intervals, const lp_table *t)
{
    collected *c = ctx;
    size_t slot = phase == LP_PHASE_NONE ? 3 : phase;
    if (slot > 3 || type != LP_PROF_CODE_REGION)
        return LP_EFORMAT;
    c->records++;
    c->intervals[slot] += intervals;
    c->first[slot] = first;
    return lp_table_merge(&c->by_phase[slot], t);
}

static int on_trace(void *ctx, uint32_t phase, uint64_t run)
{
    collected *c = ctx;
    for (uint64_t i = 0; i < run; i++) {
        if (c->trace_len == 64)
            return LP_EFORMAT;
        c->trace[c->trace_len++] = phase;
    }
    return 0;
}

static int tables_equal(const lp_table *a, const lp_table *b)
{
    if (a->count != b->count)
        return 0;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(a, &cur)) != NULL) {
        const lp_entry *f = lp_table_find(b, e->key);
        if (!f || f->v[0] != e->v[0] || f->v[1] != e->v[1])
            return 0;
    }
    return 1;
}

/* Runs the schedule through a buffer; returns how many messages the sink
 * received and fills c from them. */
static size_t run(unsigned protocol, unsigned flags, collected *c, lp_remote_stats *st)
{
    lp_membuf wire = {0};
    lp_remote_buffer *b;
    LP_CHECK(lp_remote_buffer_create(protocol, flags, lp_membuf_sink(&wire), &b) == 0);
    for (size_t i = 0; i < N_INTERVALS; i++) {
        if (sampled[i]) {
            lp_table t;
            interval_profile(&t, i);
            LP_CHECK(lp_remote_buffer_add(b, phases[i], i, LP_PROF_CODE_REGION, &t) == 0);
            lp_table_fini(&t);
        }
        LP_CHECK(lp_remote_buffer_interval_end(b, phases[i]) == 0);
    }
    LP_CHECK(lp_remote_buffer_finish(b) == 0);
    lp_table dummy;
    lp_table_init(&dummy, 0);
    LP_CHECK(lp_remote_buffer_add(b, 0, 99, LP_PROF_CODE_REGION, &dummy) == LP_EINVAL);
    LP_CHECK(lp_remote_buffer_interval_end(b, 0) == LP_EINVAL);
    LP_CHECK(lp_remote_buffer_finish(b) == LP_EINVAL);
    lp_table_fini(&dummy);
    lp_remote_buffer_get_stats(b, st);
    lp_remote_buffer_free(b);

    memset(c, 0, sizeof *c);
    for (int i = 0; i < 4; i++)
        lp_table_init(&c->by_phase[i], 0);
    lp_remote_handler h = {on_profile, on_trace, c};
    size_t pos = 0, messages = 0;
    while (pos < wire.size) {
        size_t used = 0;
        int rc = lp_remote_message_read(wire.data + pos, wire.size - pos, 1 << 20, &h, &used);
        LP_CHECK(rc == 0);
        if (rc != 0)
            break;
        pos += used;
        messages++;
    }
    LP_CHECK_EQ_U64(st->sent_bytes, wire.size);
    LP_CHECK_EQ_U64(st->messages, messages);
    LP_CHECK_EQ_U64(c->trace_len, N_INTERVALS);
    LP_CHECK(memcmp(c->trace, phases, sizeof phases) == 0);
    LP_CHECK(st->raw_bytes > st->compressed_bytes);
    LP_CHECK(st->work.loads && st->work.stores && st->work.alu && st->work.branches);
    LP_CHECK_EQ_U64(st->samples, 4);
    lp_membuf_free(&wire);
    return messages;
}

/* The expected merged profile of the sampled intervals of phase p (or of
 * all phases for p < 0). */
static void expected(lp_table *t, int p)
{
    lp_table_init(t, 0);
    for (size_t i = 0; i < N_INTERVALS; i++) {
        if (!sampled[i] || (p >= 0 && phases[i] != (uint32_t)p))
            continue;
        lp_table one;
        interval_profile(&one, i);
        lp_table_merge(t, &one);
        lp_table_fini(&one);
    }
}

static void fini_collected(collected *c)
{
    for (int i = 0; i < 4; i++)
        lp_table_fini(&c->by_phase[i]);
}

static void test_protocols(void)
{
    collected c;
    lp_remote_stats inter, at_end, merged;
    /* Interleaved: one message per sampled interval (the last sample is
     * at interval 8, so the trace of 9..11 goes in a final message). */
    LP_CHECK_EQ_U64(run(LP_REMOTE_INTERLEAVED, 0, &c, &inter), 5);
    LP_CHECK_EQ_U64(c.records, 4);
    for (int p = 0; p < 3; p++) {
        lp_table want;
        expected(&want, p);
        LP_CHECK(tables_equal(&c.by_phase[p], &want));
        lp_table_fini(&want);
    }
    LP_CHECK_EQ_U64(c.intervals[0], 2);
    fini_collected(&c);

    /* At End: one message, one record per phase, samples of phase 0
     * (intervals 1 and 8) merged. */
    LP_CHECK_EQ_U64(run(LP_REMOTE_AT_END, 0, &c, &at_end), 1);
    LP_CHECK_EQ_U64(c.records, 3);
    LP_CHECK_EQ_U64(c.intervals[0], 2);
    LP_CHECK_EQ_U64(c.first[0], 1);
    for (int p = 0; p < 3; p++) {
        lp_table want;
        expected(&want, p);
        LP_CHECK(tables_equal(&c.by_phase[p], &want));
        lp_table_fini(&want);
    }
    fini_collected(&c);

    /* At End with the paper's single vector: one record without a phase. */
    LP_CHECK_EQ_U64(run(LP_REMOTE_AT_END, LP_REMOTE_MERGE_PHASES, &c, &merged), 1);
    LP_CHECK_EQ_U64(c.records, 1);
    LP_CHECK_EQ_U64(c.intervals[3], 4);
    lp_table want;
    expected(&want, -1);
    LP_CHECK(tables_equal(&c.by_phase[3], &want));
    lp_table_fini(&want);
    fini_collected(&c);

    /* Merging the samples of a phase sends fewer bytes than sending each
     * interval on its own. */
    LP_CHECK(at_end.sent_bytes < inter.sent_bytes);
    LP_CHECK(at_end.messages < inter.messages);
}

static int failing_write(void *ctx, const void *data, size_t size)
{
    (void)ctx;
    (void)data;
    (void)size;
    return LP_EIO;
}

static void test_refusals(void)
{
    lp_membuf wire = {0};
    lp_remote_buffer *b;
    LP_CHECK(lp_remote_buffer_create(3, 0, lp_membuf_sink(&wire), &b) == LP_EINVAL);
    LP_CHECK(lp_remote_buffer_create(LP_REMOTE_AT_END, 8, lp_membuf_sink(&wire), &b) ==
             LP_EINVAL);
    LP_CHECK(lp_remote_buffer_create(LP_REMOTE_AT_END, 0, lp_membuf_sink(&wire), &b) == 0);
    lp_table t;
    interval_profile(&t, 0);
    LP_CHECK(lp_remote_buffer_add(b, 0, 0, 0, &t) == LP_EINVAL);
    LP_CHECK(lp_remote_buffer_add(b, 0, 0, LP_PROF_TYPE_MAX + 1, &t) == LP_EINVAL);
    LP_CHECK(lp_remote_buffer_add(b, 0, 0, LP_PROF_EDGE, &t) == 0);
    LP_CHECK(lp_remote_buffer_interval_end(b, 0) == 0);
    LP_CHECK(lp_remote_buffer_finish(b) == 0);
    lp_remote_buffer_free(b);
    lp_remote_buffer_free(NULL);

    /* A sink error comes back from the call that sends. */
    lp_sink bad = {failing_write, NULL};
    LP_CHECK(lp_remote_buffer_create(LP_REMOTE_INTERLEAVED, 0, bad, &b) == 0);
    LP_CHECK(lp_remote_buffer_add(b, 0, 0, LP_PROF_EDGE, &t) == 0);
    LP_CHECK(lp_remote_buffer_interval_end(b, 0) == LP_EIO);
    lp_remote_buffer_free(b);
    lp_table_fini(&t);

    /* The reader: header, version, truncation, limits, a corrupt payload. */
    size_t used;
    LP_CHECK(lp_remote_message_read(wire.data, 4, 1 << 20, NULL, &used) == LP_ETRUNC);
    LP_CHECK(lp_remote_message_read(wire.data, wire.size - 1, 1 << 20, NULL, &used) ==
             LP_ETRUNC);
    LP_CHECK(lp_remote_message_read(wire.data, wire.size, 16, NULL, &used) == LP_ELIMIT);
    LP_CHECK(lp_remote_message_read(wire.data, wire.size, 1 << 20, NULL, &used) == 0);
    LP_CHECK_EQ_U64(used, wire.size);
    wire.data[4] = 2;
    LP_CHECK(lp_remote_message_read(wire.data, wire.size, 1 << 20, NULL, &used) == LP_EVERSION);
    wire.data[4] = 1;
    wire.data[0] = 'X';
    LP_CHECK(lp_remote_message_read(wire.data, wire.size, 1 << 20, NULL, &used) == LP_EFORMAT);
    lp_membuf_free(&wire);

    /* A payload with an unknown record tag, packed by hand. */
    lp_membuf msg = {0}, block = {0};
    const uint8_t payload[] = {7, 0};
    lp_lz_compress(payload, sizeof payload, &block, NULL);
    lp_sink s = lp_membuf_sink(&msg);
    const uint8_t head[] = {'L', 'P', 'R', 'M', 1, sizeof payload, (uint8_t)block.size};
    s.write(s.ctx, head, sizeof head);
    s.write(s.ctx, block.data, block.size);
    LP_CHECK(lp_remote_message_read(msg.data, msg.size, 1 << 20, NULL, &used) == LP_EFORMAT);
    lp_membuf_free(&msg);
    lp_membuf_free(&block);
}

int main(void)
{
    test_protocols();
    test_refusals();
    return lp_test_done();
}
