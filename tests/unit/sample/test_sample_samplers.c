/* sample: the samplers against plain reference loops.
 *
 * Deterministic ones (P, C, H[P] with both hashes, CR's and CD's counters)
 * must give exactly the reference's messages; random ones are held to
 * statistical bounds (R's message count within 5 sigma, D's reloads in
 * [1, 2r] with the right mean). Every spec is also checked for giving the
 * same messages whatever the push_many chunking. */
#include <math.h>

#include "sample_test_util.h"
#include "../../../src/sample/sample_internal.h"

/* The plain reference for P_r over substreams: slot(t) picks the
 * substream; a count reaching r sends (t, r); finish sends each non-zero
 * count with the first tuple of its unfinished period, in slot order. */
typedef uint32_t (*slot_fn)(const lp_compressor *c, const lp_tuple *t);

static void reference_periodic(const lp_compressor *c, slot_fn slot, uint32_t strata, uint32_t r,
                               const lp_tuple *t, size_t n, recorder *out)
{
    uint32_t *count = calloc(strata, sizeof *count);
    lp_tuple *first = calloc(strata, sizeof *first);
    for (size_t k = 0; k < n; k++) {
        uint32_t i = slot(c, &t[k]);
        if (count[i] == 0)
            first[i] = t[k];
        count[i]++;
        if (count[i] == r) {
            lp_message m = {t[k].pc, t[k].w, r, t[k].type};
            recorder_fn(out, &m, 1);
            count[i] = 0;
        }
    }
    for (uint32_t i = 0; i < strata; i++) {
        if (count[i]) {
            lp_message m = {first[i].pc, first[i].w, count[i], first[i].type};
            recorder_fn(out, &m, 1);
        }
    }
    free(count);
    free(first);
}

static uint32_t slot_zero(const lp_compressor *c, const lp_tuple *t)
{
    (void)c;
    (void)t;
    return 0;
}

/* Section 3.5's formula, byte by byte, with the compressor's random table. */
static uint32_t slot_paper(const lp_compressor *c, const lp_tuple *t)
{
    return lp__hash_reference(c->hash, t->pc, t->w, t->type);
}

static uint32_t slot_fast(const lp_compressor *c, const lp_tuple *t)
{
    uint64_t h =
        (t->pc * c->fast.k_pc) ^ (t->w * c->fast.k_w) ^ ((uint64_t)t->type * c->fast.k_type);
    unsigned bits = 0;
    while ((1u << bits) < c->strata)
        bits++;
    return bits ? (uint32_t)(h >> (64 - bits)) : 0;
}

static void check_against_periodic(const char *spec, slot_fn slot, size_t n, unsigned distinct)
{
    recorder got = {0}, want = {0};
    lp_tuple *t = make_stream(n, distinct, 5);
    lp_compressor *c = run_spec(spec, 77, t, n, 300, &got);
    if (!c) {
        free(t);
        return;
    }
    reference_periodic(c, slot, c->strata, c->spec.rate, t, n, &want);
    long d = messages_diff(got.m, got.n, want.m, want.n);
    LP_CHECK(d == -1);
    if (d != -1)
        fprintf(stderr, "  %s: message %ld differs (%zu vs %zu messages)\n", spec, d, got.n,
                want.n);
    LP_CHECK_EQ_U64(recorder_sum(&got), n);
    lp_compressor_stats st;
    lp_compressor_get_stats(c, &st);
    LP_CHECK_EQ_U64(st.tuples, n);
    LP_CHECK_EQ_U64(st.messages, got.n);
    LP_CHECK_EQ_U64(st.first_level_messages, got.n);
    lp_compressor_free(c);
    free(t);
    recorder_free(&got);
    recorder_free(&want);
}

static void test_periodic(void)
{
    check_against_periodic("P1", slot_zero, 5000, 40);
    check_against_periodic("P2", slot_zero, 5000, 40);
    check_against_periodic("P7", slot_zero, 100000, 300);
    check_against_periodic("P256", slot_zero, 100000, 300);
    check_against_periodic("CP256", slot_zero, 100000, 300);
    check_against_periodic("P100000", slot_zero, 50000, 300); /* never fires: drain only */
    check_against_periodic("H[P1]64", slot_paper, 20000, 300);
    check_against_periodic("H[P3]64", slot_paper, 50000, 300);
    check_against_periodic("H[P256]2048", slot_paper, 300000, 5000);
    check_against_periodic("H[P512]2048", slot_paper, 300000, 5000);
    check_against_periodic("H[P16]1", slot_zero, 20000, 300);
    check_against_periodic("H[P16]256/fast", slot_fast, 100000, 3000);
    check_against_periodic("H[P256]2048/fast", slot_fast, 300000, 5000);
}

static void test_hash(void)
{
    /* The precomputed tables give the paper's formula exactly, and a packed
     * tag (the tagged compressor's) is xor-fold(pc ^ w ^ type) above it. */
    lp__hash *h = malloc(sizeof *h), *plain = malloc(sizeof *plain);
    uint64_t s = 41;
    static const unsigned tags[] = {0, 1, 2, 3, 8, 13};
    for (unsigned bits = 0; bits <= 24; bits += 1) {
        for (size_t k = 0; k < sizeof tags / sizeof tags[0]; k++) {
            unsigned tb = bits + tags[k] <= 32 ? tags[k] : 0;
            lp__hash_init(plain, bits * 1000 + 7, bits, 0);
            lp__hash_init(h, bits * 1000 + 7, bits, tags[k]);
            LP_CHECK_EQ_U64(h->tag_bits, tb);
            int bad = 0;
            for (int i = 0; i < 500; i++) {
                lp_tuple t = {test_random(&s), test_random(&s) >> (i % 64),
                              (uint8_t)test_random(&s)};
                uint32_t a = lp__hash_index(h, t.pc, t.w, t.type);
                uint32_t index = lp__hash_index(plain, t.pc, t.w, t.type);
                uint32_t mask = bits ? (uint32_t)((1ULL << bits) - 1) : 0;
                bad += a != lp__hash_reference(h, t.pc, t.w, t.type) ||
                       a != lp__hash_tuple(h, &t) || index >> bits != 0 || (a & mask) != index ||
                       (bits + tb < 32 && a >> (bits + tb) != 0) ||
                       (tb && a >> bits != lp__xor_fold(t.pc ^ t.w ^ t.type, tb));
            }
            LP_CHECK_EQ_U64(bad, 0);
        }
    }
    free(plain);
    /* The random table is a permutation. */
    int seen[256] = {0};
    for (int b = 0; b < 256; b++)
        seen[h->table[b]]++;
    int perm = 1;
    for (int b = 0; b < 256; b++)
        perm &= seen[b] == 1;
    LP_CHECK(perm);
    /* xor-fold by the definition: split into chunks, xor them. */
    for (unsigned bits = 1; bits <= 40; bits++) {
        int bad = 0;
        for (int k = 0; k < 200; k++) {
            uint64_t x = test_random(&s), r = 0;
            for (unsigned at = 0; at < 64; at += bits)
                r ^= (x >> at) & ((1ULL << bits) - 1);
            bad += lp__xor_fold(x, bits) != (uint32_t)r;
        }
        LP_CHECK_EQ_U64(bad, 0);
    }
    LP_CHECK_EQ_U64(lp__xor_fold(0x123456789abcdefULL, 0), 0);
    free(h);

    /* Types are part of the identity: the same <pc, w> under three types
     * spreads over substreams (with 2048 of them, all three collide with
     * probability about 2^-22 per pair). */
    recorder r = {0};
    lp_compressor *c = make_compressor("H[P256]2048", 3, &r);
    int spread = 0;
    for (uint64_t pc = 0; pc < 64; pc++) {
        lp_tuple a = {pc, 5, LP_TUPLE_VALUE}, b = {pc, 5, LP_TUPLE_EDGE};
        spread += slot_paper(c, &a) != slot_paper(c, &b);
    }
    LP_CHECK(spread >= 60);
    lp_compressor_free(c);
    recorder_free(&r);
}

static void test_counter(void)
{
    recorder r = {0};
    lp_compressor *c = make_compressor("C", 1, &r);
    lp_tuple *t = make_stream(12345, 100, 1);
    push_chunked(c, t, 12345, 1000, 2);
    LP_CHECK_EQ_U64(r.n, 0);
    lp_compressor_finish(c);
    LP_CHECK_EQ_U64(r.n, 1);
    LP_CHECK(r.m[0].type == LP_MESSAGE_LENGTH && r.m[0].count == 12345 && r.m[0].pc == 0 &&
             r.m[0].w == 0);
    lp_compressor_finish(c); /* nothing more to say */
    LP_CHECK_EQ_U64(r.n, 1);
    lp_compressor_free(c);
    free(t);
    recorder_free(&r);
}

/* Selected positions of a sampler run over make_positions (w = position). */
static size_t *positions_of(const recorder *r, size_t *out_n)
{
    size_t *p = malloc((r->n + 1) * sizeof *p);
    for (size_t i = 0; i < r->n; i++)
        p[i] = (size_t)r->m[i].w;
    *out_n = r->n;
    return p;
}

/* The counted variant selects exactly where the plain one does (same seed,
 * same draws) and its counts are the gaps; the drain holds the rest. */
static void check_counted(const char *plain_spec, const char *counted_spec, size_t n)
{
    recorder plain = {0}, counted = {0};
    lp_tuple *t = make_positions(n);
    lp_compressor *p = run_spec(plain_spec, 1234, t, n, 500, &plain);
    lp_compressor *c = run_spec(counted_spec, 1234, t, n, 97, &counted);
    if (!p || !c)
        abort();
    size_t sel_n;
    size_t *sel = positions_of(&plain, &sel_n);
    LP_CHECK(sel_n > 0);
    /* the drain, if any, comes last */
    LP_CHECK(counted.n == sel_n + (sel_n == 0 || sel[sel_n - 1] != n - 1));
    int bad = 0;
    size_t prev = (size_t)-1;
    for (size_t i = 0; i < sel_n && i < counted.n; i++) {
        bad += counted.m[i].w != sel[i] || counted.m[i].count != sel[i] - prev;
        prev = sel[i];
    }
    LP_CHECK_EQ_U64(bad, 0);
    if (counted.n > sel_n) {
        const lp_message *d = &counted.m[sel_n];
        LP_CHECK_EQ_U64(d->count, n - 1 - prev);
        LP_CHECK_EQ_U64(d->w, prev + 1); /* first tuple of the open period */
    }
    LP_CHECK_EQ_U64(recorder_sum(&counted), n);
    for (size_t i = 0; i < plain.n; i++)
        bad += plain.m[i].count != p->spec.rate;
    LP_CHECK_EQ_U64(bad, 0);
    lp_compressor_free(p);
    lp_compressor_free(c);
    free(sel);
    free(t);
    recorder_free(&plain);
    recorder_free(&counted);
}

static void test_random_sampler(void)
{
    /* Bernoulli(1/r): count within 5 sigma, for a power of two (bit pool)
     * and for another rate (threshold). */
    static const uint32_t rates[] = {16, 10, 256, 1000};
    const size_t n = 1000000;
    lp_tuple *t = make_positions(n);
    for (size_t k = 0; k < sizeof rates / sizeof rates[0]; k++) {
        char spec[32];
        snprintf(spec, sizeof spec, "R%u", rates[k]);
        recorder r = {0};
        lp_compressor *c = make_compressor(spec, 99 + k, &r);
        push_chunked(c, t, n, 4096, k);
        lp_compressor_finish(c);
        double p = 1.0 / rates[k], mean = (double)n * p, sd = sqrt((double)n * p * (1 - p));
        LP_CHECK(fabs((double)r.n - mean) < 5 * sd);
        if (fabs((double)r.n - mean) >= 5 * sd)
            fprintf(stderr, "  %s: %zu messages, expected %.0f +- %.0f\n", spec, r.n, mean, sd);
        /* The selections are spread: each half of the stream gets its share. */
        size_t first_half = 0;
        for (size_t i = 0; i < r.n; i++)
            first_half += r.m[i].w < n / 2;
        LP_CHECK(fabs((double)first_half - mean / 2) < 5 * sd);
        lp_compressor_free(c);
        recorder_free(&r);
    }
    /* R1 selects everything; different seeds give different selections. */
    recorder all = {0}, a = {0}, b = {0};
    lp_compressor *c1 = make_compressor("R1", 1, &all);
    lp_compressor_push_many(c1, t, 1000);
    lp_compressor_finish(c1);
    LP_CHECK_EQ_U64(all.n, 1000);
    lp_compressor *ca = make_compressor("R8", 1, &a), *cb = make_compressor("R8", 2, &b);
    lp_compressor_push_many(ca, t, 10000);
    lp_compressor_push_many(cb, t, 10000);
    lp_compressor_finish(ca);
    lp_compressor_finish(cb);
    LP_CHECK(messages_diff(a.m, a.n, b.m, b.n) != -1);
    /* reset with the first seed repeats the first run exactly */
    recorder_clear(&b);
    lp_compressor_reset(cb, 1);
    lp_compressor_push_many(cb, t, 10000);
    lp_compressor_finish(cb);
    LP_CHECK(messages_diff(a.m, a.n, b.m, b.n) == -1);
    lp_compressor_free(c1);
    lp_compressor_free(ca);
    lp_compressor_free(cb);
    recorder_free(&all);
    recorder_free(&a);
    recorder_free(&b);
    free(t);

    check_counted("R16", "CR16", 100000);
    check_counted("R10", "CR10", 100000);
    check_counted("R1", "CR1", 1000);
    check_counted("D16", "CD16", 100000);
    check_counted("D1", "CD1", 1000);
    check_counted("H[R16]1", "H[CR16]1", 50000);
    check_counted("H[D16]1", "H[CD16]1", 50000);
}

/* H[R]_n is R_r: stratifying a stateless sampler changes nothing (3.3). */
static void test_hashed_random_is_random(void)
{
    recorder a = {0}, b = {0}, c = {0};
    lp_tuple *t = make_stream(200000, 2000, 8);
    lp_compressor *r = run_spec("R32", 8, t, 200000, 1000, &a);
    lp_compressor *h = run_spec("H[R32]2048", 8, t, 200000, 10, &b);
    lp_compressor *f = run_spec("H[R32]64/fast", 8, t, 200000, 333, &c);
    LP_CHECK(a.n > 0);
    LP_CHECK(messages_diff(a.m, a.n, b.m, b.n) == -1);
    LP_CHECK(messages_diff(a.m, a.n, c.m, c.n) == -1);
    lp_compressor_free(r);
    lp_compressor_free(h);
    lp_compressor_free(f);
    free(t);
    recorder_free(&a);
    recorder_free(&b);
    recorder_free(&c);
}

/* D_r's reloads are uniform in [1, 2r]: gaps between selections stay in
 * range, reach both ends, and average r + 1/2. Per substream too. */
static void test_countdown(void)
{
    const size_t n = 400000;
    const uint32_t r = 4;
    recorder rec = {0};
    lp_tuple *t = make_positions(n);
    lp_compressor *c = run_spec("D4", 17, t, n, 50, &rec);
    size_t k;
    size_t *sel = positions_of(&rec, &k);
    size_t lo = SIZE_MAX, hi = 0, prev = (size_t)-1;
    for (size_t i = 0; i < k; i++) {
        size_t gap = sel[i] - prev;
        lo = gap < lo ? gap : lo;
        hi = gap > hi ? gap : hi;
        prev = sel[i];
    }
    LP_CHECK_EQ_U64(lo, 1);
    LP_CHECK_EQ_U64(hi, 2 * r);
    double mean = (double)(sel[k - 1] + 1) / (double)k;
    double sd = sqrt(((2.0 * r) * (2.0 * r) - 1) / 12 / (double)k);
    LP_CHECK(fabs(mean - (r + 0.5)) < 5 * sd);
    free(sel);
    lp_compressor_free(c);

    /* Under H: per-substream gaps, counted against the substream's own
     * tuple sequence, are in [1, 2r]; H[CD]'s counts are exactly them. */
    recorder hd = {0}, hcd = {0};
    lp_tuple *s = make_stream(100000, 500, 12);
    for (size_t i = 0; i < 100000; i++)
        s[i].w = (s[i].w << 20) | i; /* keep tuples distinct and positions readable */
    lp_compressor *d = run_spec("H[D3]8", 5, s, 100000, 64, &hd);
    lp_compressor *cd = run_spec("H[CD3]8", 5, s, 100000, 7, &hcd);
    LP_CHECK(hd.n > 0);
    LP_CHECK(hcd.n >= hd.n);
    size_t seen[8] = {0};
    size_t m = 0;
    int bad_gap = 0, bad_count = 0, bad_pos = 0;
    for (size_t i = 0; i < 100000; i++) {
        uint32_t slot = slot_paper(d, &s[i]);
        seen[slot]++;
        if (m < hd.n && (hd.m[m].w & 0xfffff) == i) {
            bad_gap += seen[slot] < 1 || seen[slot] > 6;
            bad_count += hcd.m[m].count != seen[slot];
            bad_pos += hcd.m[m].w != s[i].w;
            seen[slot] = 0;
            m++;
        }
    }
    LP_CHECK_EQ_U64(m, hd.n);
    LP_CHECK_EQ_U64(bad_gap, 0);
    LP_CHECK_EQ_U64(bad_count, 0);
    LP_CHECK_EQ_U64(bad_pos, 0);
    LP_CHECK_EQ_U64(recorder_sum(&hcd), 100000);
    lp_compressor_free(d);
    lp_compressor_free(cd);
    free(s);
    free(t);
    recorder_free(&rec);
    recorder_free(&hd);
    recorder_free(&hcd);
}

/* Every shape gives the same messages for one push_many of the whole
 * stream and for a ragged mix of single pushes and chunks; counted and
 * lossless ones account for every tuple. */
static void test_chunking(void)
{
    static const struct {
        const char *spec;
        int exact_total;
    } shapes[] = {
        {"P13", 1},
        {"CP13", 1},
        {"R13", 0},
        {"CR13", 1},
        {"D13", 0},
        {"CD13", 1},
        {"H[P13]64", 1},
        {"H[CR13]64", 1},
        {"H[D13]64", 0},
        {"H[CD13]64", 1},
        {"H[R13]64", 0},
        {"H[P13]64/fast", 1},
        {"H[CD13]64/fast", 1},
        {"T2:16x64w2", 1},
        {"T2:16x64w2/fast", 1},
        {"T4:16x64w1", 1},
        {"T3:16x64w4", 1},
        {"T2:16x4w4", 1},
        {"T2:16x2w2/fast", 1},
        {"A8", 1},
        {"A8/sat=3", 1},
        {"C", 1},
        {"H[P13]64+A4", 1},
        {"R13+A4/sat=2", 0},
        {"T2:16x64w2+A16", 1},
    };
    const size_t n = 60000;
    lp_tuple *t = make_stream(n, 400, 21);
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        recorder a = {0}, b = {0};
        lp_compressor *x = make_compressor(shapes[k].spec, 31, &a);
        lp_compressor *y = make_compressor(shapes[k].spec, 31, &b);
        LP_CHECK(x && y);
        if (!x || !y)
            continue;
        lp_compressor_push_many(x, t, n);
        push_chunked(y, t, n, 37, k);
        lp_compressor_finish(x);
        lp_compressor_finish(y);
        long d = messages_diff(a.m, a.n, b.m, b.n);
        LP_CHECK(d == -1);
        if (d != -1)
            fprintf(stderr, "  %s: chunked run differs at message %ld\n", shapes[k].spec, d);
        uint64_t sum = recorder_sum(&a);
        if (shapes[k].exact_total)
            LP_CHECK_EQ_U64(sum, n);
        else
            LP_CHECK(sum > n / 2 && sum < n * 2);
        lp_compressor_stats st;
        lp_compressor_get_stats(x, &st);
        LP_CHECK_EQ_U64(st.tuples, n);
        LP_CHECK_EQ_U64(st.messages, a.n);
        /* a second stream after finish starts on drained tables */
        recorder_clear(&a);
        lp_compressor_push_many(x, t, 1000);
        lp_compressor_finish(x);
        if (shapes[k].exact_total)
            LP_CHECK_EQ_U64(recorder_sum(&a), 1000);
        lp_compressor_free(x);
        lp_compressor_free(y);
        recorder_free(&a);
        recorder_free(&b);
    }
    free(t);
}

int main(void)
{
    test_hash();
    test_periodic();
    test_counter();
    test_random_sampler();
    test_hashed_random_is_random();
    test_countdown();
    test_chunking();
    return lp_test_done();
}
