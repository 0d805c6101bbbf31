/* streams: hot data streams on synthetic traces with planted streams of
 * known length and frequency among references that never repeat: the
 * planted streams are found with their exact length, frequency and heat,
 * the threshold is the one the coverage target implies, and coverage is
 * what the planted streams account for. Then the length window, streams
 * that share PCs but not addresses, property checks on random structured
 * traces (heats add up, frequencies never exceed the non-overlapping
 * occurrences a plain scan finds), a target out of reach, a stream back to
 * back with itself, cuts between bursts, a trace of about two million
 * references, and the edges (empty trace, bad configurations, events, the
 * one reference core's table cannot hold). */
#include <stdlib.h>
#include <string.h>

#include "lowprof/streams.h"
#include "../lp_test.h"

typedef struct trace {
    lp_data_ref *ref;
    size_t n, cap;
} trace;

static void put(trace *t, uint64_t pc, uint64_t addr)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 1024;
        t->ref = realloc(t->ref, t->cap * sizeof *t->ref);
        if (!t->ref)
            abort();
    }
    t->ref[t->n].pc = pc;
    t->ref[t->n].addr = addr;
    t->n++;
}

/* A reference that never occurs again: a pc and an address drawn from 2^64. */
static void noise(trace *t, lp_rng *r)
{
    put(t, lp_rng_next(r) | 1u, lp_rng_next(r));
}

/* A planted stream: len references of distinct pcs from pc0, walking a
 * structure at base. */
static void plant(lp_data_ref *s, uint32_t len, uint64_t pc0, uint64_t base)
{
    for (uint32_t i = 0; i < len; i++) {
        s[i].pc = pc0 + 4 * i;
        s[i].addr = base + 24 * i;
    }
}

static void put_stream(trace *t, const lp_data_ref *s, uint32_t len)
{
    for (uint32_t i = 0; i < len; i++)
        put(t, s[i].pc, s[i].addr);
}

static int same(const lp_data_ref *a, const lp_data_ref *b, uint32_t n)
{
    return memcmp(a, b, n * sizeof *a) == 0;
}

static const lp_stream *find(const lp_streams *s, const lp_data_ref *refs, uint32_t len)
{
    for (size_t i = 0; i < s->count; i++)
        if (s->stream[i].length == len && same(s->stream[i].refs, refs, len))
            return &s->stream[i];
    return NULL;
}

static void one_planted(void)
{
    lp_rng r;
    lp_rng_seed(&r, 1);
    lp_data_ref a[20];
    plant(a, 20, 0x401000, 0x7f0000001000);
    trace t = {0};
    for (int i = 0; i < 1000; i++) {
        put_stream(&t, a, 20);
        for (int k = 0; k <= i % 3; k++)
            noise(&t, &r);
    }
    LP_CHECK_EQ_U64(t.n, 21999);

    lp_streams *s;
    LP_CHECK(lp_streams_find(t.ref, t.n, NULL, &s) == 0); /* the paper's 10..40, 90 % */
    LP_CHECK_EQ_U64(s->count, 1);
    LP_CHECK(s->count && s->stream[0].length == 20 && same(s->stream[0].refs, a, 20));
    LP_CHECK_EQ_U64(s->stream[0].frequency, 1000);
    LP_CHECK_EQ_U64(s->stream[0].heat, 20000);
    LP_CHECK_EQ_U64(s->stream[0].signature, lp_streams_signature(a, 20));
    LP_CHECK_EQ_U64(s->references, 21999);
    LP_CHECK_EQ_U64(s->covered, 20000);
    LP_CHECK(s->coverage == 20000.0 / 21999.0);
    LP_CHECK(s->target_met);
    LP_CHECK_EQ_U64(s->threshold, 20000); /* the largest that still covers 90 % */
    lp_streams_free(s);

    /* 95 % is out of reach: the target becomes 95 % of what the streams
     * can cover, which the planted one does alone */
    lp_streams_config cfg = {10, 40, 0.95};
    LP_CHECK(lp_streams_find(t.ref, t.n, &cfg, &s) == 0);
    LP_CHECK(!s->target_met && s->threshold == 20000);
    LP_CHECK(s->count == 1 && s->stream[0].frequency == 1000 && s->covered == 20000);
    lp_streams_free(s);
    free(t.ref);
}

static void two_planted(void)
{
    lp_rng r;
    lp_rng_seed(&r, 2);
    lp_data_ref a[20], b[12];
    plant(a, 20, 0x401000, 0x10000);
    plant(b, 12, 0x402000, 0x20000);
    trace t = {0};
    int left_a = 1000, left_b = 500;
    while (left_a || left_b) {
        if (lp_rng_below(&r, (uint64_t)(left_a + left_b)) < (uint64_t)left_a) {
            put_stream(&t, a, 20);
            left_a--;
        } else {
            put_stream(&t, b, 12);
            left_b--;
        }
        noise(&t, &r);
    }
    LP_CHECK_EQ_U64(t.n, 27500);

    /* 90 %: both (26000 of 27500); the threshold is B's heat */
    lp_streams *s;
    LP_CHECK(lp_streams_find(t.ref, t.n, NULL, &s) == 0);
    LP_CHECK_EQ_U64(s->count, 2);
    const lp_stream *sa = find(s, a, 20), *sb = find(s, b, 12);
    LP_CHECK(sa && sb && s->count == 2 && sa == &s->stream[0]); /* hottest first */
    if (sa && sb) {
        LP_CHECK_EQ_U64(sa->frequency, 1000);
        LP_CHECK_EQ_U64(sb->frequency, 500);
        LP_CHECK_EQ_U64(sb->heat, 6000);
    }
    LP_CHECK_EQ_U64(s->covered, 26000);
    LP_CHECK_EQ_U64(s->threshold, 6000);
    LP_CHECK(s->target_met);
    lp_streams_free(s);

    /* 70 %: A alone (20000 of 27500) is enough */
    lp_streams_config cfg = {10, 40, 0.70};
    LP_CHECK(lp_streams_find(t.ref, t.n, &cfg, &s) == 0);
    LP_CHECK(s->count == 1 && find(s, a, 20) != NULL);
    LP_CHECK_EQ_U64(s->threshold, 20000);
    LP_CHECK_EQ_U64(s->covered, 20000);
    LP_CHECK(s->coverage == 20000.0 / 27500.0);
    lp_streams_free(s);
    free(t.ref);
}

/* Whether refs[0 .. len) occurs in whole[0 .. n) as a contiguous run. */
static int substring(const lp_data_ref *whole, size_t n, const lp_data_ref *refs, uint32_t len)
{
    for (size_t i = 0; i + len <= n; i++)
        if (same(whole + i, refs, len))
            return 1;
    return 0;
}

static void length_window(void)
{
    lp_rng r;
    lp_rng_seed(&r, 3);
    lp_data_ref a[50], c[8];
    plant(a, 50, 0x401000, 0x10000);
    plant(c, 8, 0x405000, 0x50000);
    trace t = {0};
    for (int i = 0; i < 400; i++) {
        put_stream(&t, a, 50);
        noise(&t, &r);
        put_stream(&t, c, 8);
        noise(&t, &r);
    }
    /* 10..40: both are out of the window. A sequence that always repeats
     * whole becomes one flat rule with no rule inside; the 50-reference one
     * stands for its first 40 references, the 8-reference one is too short. */
    lp_streams *s;
    LP_CHECK(lp_streams_find(t.ref, t.n, NULL, &s) == 0);
    LP_CHECK(s->count == 1 && s->stream[0].length == 40 && s->stream[0].frequency == 400 &&
             same(s->stream[0].refs, a, 40));
    LP_CHECK_EQ_U64(s->covered, 40 * 400);
    lp_streams_free(s);

    /* Now the long stream sometimes breaks off after 25 references: its
     * first half repeats on its own, becomes a rule inside the long one,
     * and is the only stream in the window. */
    trace u = {0};
    for (int i = 0; i < 400; i++) {
        put_stream(&u, a, (i % 4) ? 50 : 25);
        noise(&u, &r);
    }
    LP_CHECK(lp_streams_find(u.ref, u.n, NULL, &s) == 0);
    int outside = 0, foreign = 0;
    for (size_t i = 0; i < s->count; i++) {
        outside += s->stream[i].length < 10 || s->stream[i].length > 40;
        foreign += !substring(a, 50, s->stream[i].refs, s->stream[i].length);
    }
    LP_CHECK(s->count == 1 && s->stream[0].length == 25 && same(s->stream[0].refs, a, 25));
    LP_CHECK(s->count == 1 && s->stream[0].frequency == 400);
    LP_CHECK_EQ_U64(outside, 0);
    LP_CHECK_EQ_U64(foreign, 0);
    lp_streams_free(s);
    free(u.ref);

    lp_streams_config wide = {5, 60, 0.9};
    LP_CHECK(lp_streams_find(t.ref, t.n, &wide, &s) == 0);
    const lp_stream *sa = find(s, a, 50), *sc = find(s, c, 8);
    LP_CHECK(sa && sa->frequency == 400);
    LP_CHECK(sc && sc->frequency == 400);
    LP_CHECK_EQ_U64(s->covered, 58 * 400);
    lp_streams_free(s);
    free(t.ref);
}

/* One loop walking two lists: the same pcs, other addresses. Two streams
 * within the trace, one access signature for the profile. */
static void same_pcs(void)
{
    lp_rng r;
    lp_rng_seed(&r, 4);
    lp_data_ref x[16], y[16];
    plant(x, 16, 0x401000, 0x10000);
    plant(y, 16, 0x401000, 0x90000);
    trace t = {0};
    for (int i = 0; i < 600; i++) {
        put_stream(&t, (i & 1) ? x : y, 16);
        noise(&t, &r);
        put_stream(&t, (i & 1) ? y : x, 16);
        noise(&t, &r);
    }
    lp_streams *s;
    LP_CHECK(lp_streams_find(t.ref, t.n, NULL, &s) == 0);
    const lp_stream *sx = find(s, x, 16), *sy = find(s, y, 16);
    LP_CHECK(s->count == 2 && sx && sy);
    if (sx && sy) {
        LP_CHECK(sx->frequency == 600 && sy->frequency == 600);
        LP_CHECK(sx->signature == sy->signature);
    }
    lp_table profile;
    LP_CHECK(lp_table_init(&profile, 0) == 0);
    LP_CHECK(lp_streams_profile_table(s, &profile) == 0);
    LP_CHECK_EQ_U64(profile.count, 1);
    lp_key k = {lp_streams_signature(x, 16), x[0].pc}; /* the key carries the first pc */
    const lp_entry *e = lp_table_find(&profile, k);
    LP_CHECK(e && e->v[0] == 1200 && e->v[1] == 16);
    lp_table_fini(&profile);
    lp_streams_free(s);
    free(t.ref);
}

/* A loop whose iteration makes 15 references at fixed addresses (its
 * locals) and one at an address that moves through a 400-slot buffer,
 * which the loop goes over 5 times, with noise between iterations. Each
 * iteration's variant (the moving reference and the fixed ones) repeats 5
 * times, and 90 % of the trace is out of reach (the noise is 3 of every 19
 * references). The hot stream is the fixed part, with every iteration
 * counted: a threshold of 1 would have made each of the 400 variants a
 * "hot" stream of 5 occurrences. */
static void unreachable_target(void)
{
    lp_rng r;
    lp_rng_seed(&r, 7);
    lp_data_ref c[15];
    plant(c, 15, 0x401000, 0x7ffe0000);
    trace t = {0};
    for (int i = 0; i < 2000; i++) {
        put(&t, 0x400f00, 0x600000 + 8 * (uint64_t)((i * 7) % 400));
        put_stream(&t, c, 15);
        for (int k = 0; k < 3; k++)
            noise(&t, &r);
    }
    lp_streams *s;
    LP_CHECK(lp_streams_find(t.ref, t.n, NULL, &s) == 0);
    LP_CHECK(!s->target_met);
    LP_CHECK(s->count == 1 && s->stream[0].length == 15 && same(s->stream[0].refs, c, 15));
    LP_CHECK(s->count == 1 && s->stream[0].frequency == 2000);
    LP_CHECK_EQ_U64(s->threshold, 30000);
    LP_CHECK_EQ_U64(s->covered, 30000);
    lp_streams_free(s);

    /* With a 16-reference minimum the fixed part is too short: the
     * variants are all there is, and all of them are needed. */
    lp_streams_config cfg = {16, 40, 0.9};
    LP_CHECK(lp_streams_find(t.ref, t.n, &cfg, &s) == 0);
    LP_CHECK_EQ_U64(s->count, 400);
    LP_CHECK(s->count && s->stream[0].length == 16 && s->stream[0].frequency == 5);
    LP_CHECK_EQ_U64(s->covered, 32000);
    lp_streams_free(s);
    free(t.ref);
}

/* A stream that runs twice back to back (a loop making two passes over
 * the same data) is that stream twice, not a stream of twice its length. */
static void back_to_back(void)
{
    lp_rng r;
    lp_rng_seed(&r, 8);
    lp_data_ref a[12];
    plant(a, 12, 0x401000, 0x10000);
    trace t = {0};
    for (int i = 0; i < 500; i++) {
        put_stream(&t, a, 12);
        if (i % 5)
            put_stream(&t, a, 12);
        noise(&t, &r);
    }
    lp_streams *s;
    LP_CHECK(lp_streams_find(t.ref, t.n, NULL, &s) == 0);
    LP_CHECK(s->count == 1 && s->stream[0].length == 12 && same(s->stream[0].refs, a, 12));
    LP_CHECK(s->count == 1 && s->stream[0].frequency == 900);
    LP_CHECK_EQ_U64(s->covered, 900 * 12);
    lp_streams_free(s);
    free(t.ref);
}

/* Bursts: a stream that one burst ends with and the next begins with is
 * two streams, not one, when the builder is cut between the bursts. */
static void cuts(void)
{
    lp_rng r;
    lp_rng_seed(&r, 9);
    lp_data_ref a[24];
    plant(a, 24, 0x401000, 0x10000);
    lp_streams_builder *cut, *whole;
    LP_CHECK(lp_streams_builder_create(&cut) == 0 && lp_streams_builder_create(&whole) == 0);
    LP_CHECK(lp_streams_builder_cut(cut) == 0); /* before any reference: nothing */
    int rc = 0;
    for (int i = 0; i < 300; i++) {
        for (int j = 0; j < 24; j++) {
            if (j == 10) {
                rc |= lp_streams_builder_cut(cut);
                rc |= lp_streams_builder_cut(cut); /* a second cut in a row: nothing */
            }
            rc |= lp_streams_builder_push(cut, a[j].pc, a[j].addr);
            rc |= lp_streams_builder_push(whole, a[j].pc, a[j].addr);
        }
        uint64_t pc = lp_rng_next(&r), addr = lp_rng_next(&r);
        rc |= lp_streams_builder_push(cut, pc, addr);
        rc |= lp_streams_builder_push(whole, pc, addr);
    }
    LP_CHECK(rc == 0);
    LP_CHECK_EQ_U64(lp_streams_builder_length(cut), 7500); /* cuts are not references */
    LP_CHECK_EQ_U64(lp_streams_builder_cuts(cut), 300);
    LP_CHECK_EQ_U64(lp_streams_builder_cuts(whole), 0);

    lp_streams *s;
    LP_CHECK(lp_streams_builder_find(whole, NULL, &s) == 0);
    LP_CHECK(s->count == 1 && s->stream[0].length == 24 && s->stream[0].frequency == 300);
    lp_streams_free(s);

    LP_CHECK(lp_streams_builder_find(cut, NULL, &s) == 0);
    const lp_stream *head = find(s, a, 10), *tail = find(s, a + 10, 14);
    LP_CHECK(s->count == 2 && head && tail);
    LP_CHECK(head && head->frequency == 300);
    LP_CHECK(tail && tail->frequency == 300);
    LP_CHECK_EQ_U64(s->references, 7500);
    LP_CHECK_EQ_U64(s->covered, 7200);
    LP_CHECK(s->coverage == 7200.0 / 7500.0 && s->target_met);
    lp_streams_free(s);
    lp_streams_builder_free(cut);
    lp_streams_builder_free(whole);
}

/* Non-overlapping occurrences of refs in the trace, greedily from the
 * left (which is the maximum). */
static uint64_t occurrences(const trace *t, const lp_data_ref *refs, uint32_t len)
{
    uint64_t count = 0;
    for (size_t i = 0; i + len <= t->n;) {
        if (same(t->ref + i, refs, len)) {
            count++;
            i += len;
        } else {
            i++;
        }
    }
    return count;
}

static void random_traces(void)
{
    int bad = 0, sum_bad = 0, freq_bad = 0, order_bad = 0, dup = 0, met_bad = 0;
    uint64_t streams_seen = 0;
    for (uint64_t seed = 1; seed <= 60; seed++) {
        lp_rng r;
        lp_rng_seed(&r, 100 + seed);
        /* a few patterns over a small pool of references, some sharing
         * pieces, and noise from the same pool or fresh */
        lp_data_ref pool[64], pat[8][48];
        uint32_t plen[8];
        for (int i = 0; i < 64; i++) {
            pool[i].pc = 0x400000 + 8 * (uint64_t)lp_rng_below(&r, 32);
            pool[i].addr = 0x1000 * (uint64_t)lp_rng_below(&r, 16);
        }
        for (int p = 0; p < 8; p++) {
            plen[p] = 3 + (uint32_t)lp_rng_below(&r, 46);
            for (uint32_t j = 0; j < plen[p]; j++)
                pat[p][j] = pool[lp_rng_below(&r, 64)];
        }
        trace t = {0};
        size_t n = 2000 + (size_t)lp_rng_below(&r, 20000);
        while (t.n < n) {
            uint64_t what = lp_rng_below(&r, 10);
            if (what < 6)
                put_stream(&t, pat[what], plen[what]);
            else if (what < 8)
                put(&t, pool[lp_rng_below(&r, 64)].pc, pool[lp_rng_below(&r, 64)].addr);
            else
                noise(&t, &r);
        }
        lp_streams_config cfg = {2 + (uint32_t)lp_rng_below(&r, 12), 0, 0.0};
        cfg.max_length = cfg.min_length + (uint32_t)lp_rng_below(&r, 40);
        cfg.coverage = 0.05 + 0.95 * (double)lp_rng_below(&r, 1000) / 1000.0;
        lp_streams *s;
        if (lp_streams_find(t.ref, t.n, &cfg, &s) != 0) {
            bad++;
            free(t.ref);
            continue;
        }
        uint64_t covered = 0;
        for (size_t i = 0; i < s->count; i++) {
            const lp_stream *v = &s->stream[i];
            covered += v->heat;
            bad += v->heat != (uint64_t)v->length * v->frequency;
            bad += v->length < cfg.min_length || v->length > cfg.max_length;
            bad += v->signature != lp_streams_signature(v->refs, v->length);
            bad += v->frequency < 1;
            freq_bad += v->frequency > occurrences(&t, v->refs, v->length);
            if (s->threshold > 1)
                bad += v->heat < s->threshold;
            if (i)
                order_bad += v->heat > s->stream[i - 1].heat;
            for (size_t j = 0; j < i; j++)
                dup += v->length == s->stream[j].length &&
                       same(v->refs, s->stream[j].refs, v->length);
        }
        streams_seen += s->count;
        sum_bad += covered != s->covered || s->covered > s->references || s->references != t.n;
        sum_bad += s->coverage != (double)s->covered / (double)s->references;
        met_bad += s->target_met != ((double)s->covered >= cfg.coverage * (double)t.n);
        lp_streams_free(s);
        free(t.ref);
    }
    LP_CHECK_EQ_U64(bad, 0);
    LP_CHECK_EQ_U64(sum_bad, 0);
    LP_CHECK_EQ_U64(freq_bad, 0);
    LP_CHECK_EQ_U64(order_bad, 0);
    LP_CHECK_EQ_U64(dup, 0);
    LP_CHECK_EQ_U64(met_bad, 0);
    LP_CHECK(streams_seen > 60);
}

/* About two million references through the builder, one at a time. */
static void large(void)
{
    lp_rng r;
    lp_rng_seed(&r, 5);
    lp_data_ref a[30], b[15];
    plant(a, 30, 0x401000, 0x10000);
    plant(b, 15, 0x402000, 0x20000);
    lp_streams_builder *bld;
    LP_CHECK(lp_streams_builder_create(&bld) == 0);
    int left_a = 40000, left_b = 40000, rc = 0;
    while (left_a || left_b) {
        const lp_data_ref *s = b;
        uint32_t len = 15;
        if (lp_rng_below(&r, (uint64_t)(left_a + left_b)) < (uint64_t)left_a) {
            s = a;
            len = 30;
            left_a--;
        } else {
            left_b--;
        }
        for (uint32_t i = 0; i < len; i++)
            rc |= lp_streams_builder_push(bld, s[i].pc, s[i].addr);
        rc |= lp_streams_builder_push(bld, lp_rng_next(&r), lp_rng_next(&r));
    }
    LP_CHECK(rc == 0);
    LP_CHECK_EQ_U64(lp_streams_builder_length(bld), 1880000);
    lp_streams *s;
    LP_CHECK(lp_streams_builder_find(bld, NULL, &s) == 0);
    const lp_stream *sa = find(s, a, 30), *sb = find(s, b, 15);
    LP_CHECK(s->count == 2 && sa && sb);
    LP_CHECK(sa && sa->frequency == 40000);
    LP_CHECK(sb && sb->frequency == 40000);
    LP_CHECK_EQ_U64(s->covered, 1800000);
    LP_CHECK_EQ_U64(s->threshold, 600000);
    lp_streams_free(s);
    lp_streams_builder_free(bld);
}

static void edges(void)
{
    lp_streams *s;
    LP_CHECK(lp_streams_find(NULL, 0, NULL, &s) == 0);
    LP_CHECK(s->count == 0 && s->references == 0 && s->covered == 0 && s->coverage == 0.0);
    LP_CHECK(!s->target_met);
    lp_streams_free(s);
    lp_streams_free(NULL);

    lp_data_ref one = {1, 2};
    static const lp_streams_config bad[] = {
        {1, 40, 0.9}, {10, 9, 0.9}, {10, 40, 0.0}, {10, 40, 1.01}, {10, 40, -1.0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        s = (lp_streams *)&one;
        LP_CHECK(lp_streams_find(&one, 1, &bad[i], &s) == LP_EINVAL && s == NULL);
    }
    lp_streams_config nan_cfg = {10, 40, 0.0};
    nan_cfg.coverage = nan_cfg.coverage / nan_cfg.coverage;
    LP_CHECK(lp_streams_find(&one, 1, &nan_cfg, &s) == LP_EINVAL);

    /* events: loads and stores count, branches and calls do not; the
     * reference (2^64 - 1, 2^64 - 1), which lp_table cannot key, works */
    lp_streams_builder *b;
    LP_CHECK(lp_streams_builder_create(&b) == 0);
    lp_data_ref x[12];
    plant(x, 12, 0x401000, 0x10000);
    x[5].pc = UINT64_MAX;
    x[5].addr = UINT64_MAX;
    lp_rng r;
    lp_rng_seed(&r, 6);
    for (int i = 0; i < 100; i++) {
        for (int j = 0; j < 12; j++) {
            lp_event ev = {0};
            ev.kind = (uint8_t)((j & 1) ? LP_EV_LOAD : LP_EV_STORE);
            ev.pc = x[j].pc;
            ev.a = x[j].addr;
            LP_CHECK(lp_streams_builder_push_event(b, &ev) == 0);
            lp_event other = {0};
            other.kind = LP_EV_BRANCH;
            other.pc = lp_rng_next(&r);
            LP_CHECK(lp_streams_builder_push_event(b, &other) == 0);
        }
        LP_CHECK(lp_streams_builder_push(b, lp_rng_next(&r), 3) == 0);
    }
    LP_CHECK_EQ_U64(lp_streams_builder_length(b), 1300);
    LP_CHECK(lp_streams_builder_find(b, NULL, &s) == 0);
    LP_CHECK(s->count == 1 && s->stream[0].length == 12 && same(s->stream[0].refs, x, 12));
    LP_CHECK(s->count == 1 && s->stream[0].frequency == 100);
    lp_data_ref back = lp_streams_builder_ref(b, 5);
    LP_CHECK(back.pc == UINT64_MAX && back.addr == UINT64_MAX);
    lp_streams_free(s);
    lp_streams_builder_free(b);
    lp_streams_builder_free(NULL);
}

int main(void)
{
    one_planted();
    two_planted();
    length_window();
    same_pcs();
    unreachable_target();
    back_to_back();
    cuts();
    random_traces();
    large();
    edges();
    return lp_test_done();
}
