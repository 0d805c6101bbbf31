/* streams: profile overlap, equation (5), computed as metrics'
 * lp_manhattan_accuracy of the two profiles' heat tables: identical
 * profiles overlap 1, disjoint ones 0, a partial case worked out by hand
 * gives its value, and on random profiles the result equals a plain
 * transcription of equation (5) (the sum over the union of streams of the
 * smaller normalised heat). Then a whole trace against bursts sampled from
 * it. */
#include <stdlib.h>

#include "lowprof/metrics.h"
#include "lowprof/streams.h"
#include "../lp_test.h"

static int near(double a, double b)
{
    double d = a - b;
    return d < 1e-12 && d > -1e-12;
}

/* A profile of n hand-made streams: stream i has length len[i], frequency
 * freq[i] and pcs drawn from id[i] (streams with one id share their
 * access signature). */
typedef struct hand {
    lp_streams s;
    lp_stream v[8];
    lp_data_ref refs[8][40];
} hand;

static void make(hand *h, size_t n, const uint32_t *id, const uint32_t *len, const uint64_t *freq)
{
    h->s = (lp_streams){0};
    h->s.stream = h->v;
    h->s.count = n;
    for (size_t i = 0; i < n; i++) {
        for (uint32_t j = 0; j < len[i]; j++) {
            h->refs[i][j].pc = 0x400000 + 0x1000 * (uint64_t)id[i] + 4 * j;
            h->refs[i][j].addr = 0x9000000 + 0x100 * i + j;
        }
        h->v[i].refs = h->refs[i];
        h->v[i].length = len[i];
        h->v[i].frequency = freq[i];
        h->v[i].heat = len[i] * freq[i];
        h->v[i].signature = lp_streams_signature(h->refs[i], len[i]);
    }
}

/* Overlap of two hand profiles through the module and metrics. */
static double overlap(const hand *p, const hand *q)
{
    lp_table tp, tq, hp, hq;
    lp_table_init(&tp, 0);
    lp_table_init(&tq, 0);
    lp_table_init(&hp, 0);
    lp_table_init(&hq, 0);
    LP_CHECK(lp_streams_profile_table(&p->s, &tp) == 0 && lp_streams_profile_table(&q->s, &tq) == 0);
    LP_CHECK(lp_streams_heat_table(&tp, &hp) == 0 && lp_streams_heat_table(&tq, &hq) == 0);
    double o = lp_manhattan_accuracy(&hp, &hq);
    lp_table_fini(&tp);
    lp_table_fini(&tq);
    lp_table_fini(&hp);
    lp_table_fini(&hq);
    return o;
}

static void hand_cases(void)
{
    hand p, q;
    /* P: stream 1 of heat 10 * 30 = 300, stream 2 of 20 * 10 = 200:
     * normalised 0.6 and 0.4 */
    const uint32_t pid[] = {1, 2}, plen[] = {10, 20};
    const uint64_t pfreq[] = {30, 10};
    make(&p, 2, pid, plen, pfreq);

    /* identical, and identical up to scale (heats double): 1 */
    LP_CHECK(near(overlap(&p, &p), 1.0));
    hand p2;
    const uint64_t p2freq[] = {60, 20};
    make(&p2, 2, pid, plen, p2freq);
    LP_CHECK(near(overlap(&p, &p2), 1.0));

    /* disjoint: 0 */
    const uint32_t did[] = {3, 4}, dlen[] = {10, 20};
    const uint64_t dfreq[] = {30, 10};
    hand d;
    make(&d, 2, did, dlen, dfreq);
    LP_CHECK(near(overlap(&p, &d), 0.0));

    /* Q: stream 1 of heat 10 * 10 = 100, stream 3 of 10 * 30 = 300:
     * normalised 0.25 and 0.75. Overlap = min(0.6, 0.25) + min(0.4, 0)
     * + min(0, 0.75) = 0.25 */
    const uint32_t qid[] = {1, 3}, qlen[] = {10, 10};
    const uint64_t qfreq[] = {10, 30};
    make(&q, 2, qid, qlen, qfreq);
    LP_CHECK(near(overlap(&p, &q), 0.25));
    LP_CHECK(near(overlap(&q, &p), 0.25));

    /* streams of one signature (same pcs, other addresses) count as one:
     * R has stream 1 twice, 10 * 5 + 10 * 25 = 300, and stream 2 at 200,
     * so it is P */
    const uint32_t rid[] = {1, 1, 2}, rlen[] = {10, 10, 20};
    const uint64_t rfreq[] = {5, 25, 10};
    hand r;
    make(&r, 3, rid, rlen, rfreq);
    LP_CHECK(near(overlap(&p, &r), 1.0));

    /* the paper's example: v at 3 % in P and 4 % in Q contributes 3 %.
     * P: v 3, w 97; Q: v 4, x 96 (heats in references, lengths 1 apart) */
    const uint32_t vid[] = {5, 6}, vlen[] = {10, 10};
    const uint64_t vpf[] = {3, 97}, vqf[] = {4, 96};
    const uint32_t vqid[] = {5, 7};
    hand vp, vq;
    make(&vp, 2, vid, vlen, vpf);
    make(&vq, 2, vqid, vlen, vqf);
    LP_CHECK(near(overlap(&vp, &vq), 0.03));

    /* an empty profile: 0 against anything, 1 against another empty one */
    hand e;
    make(&e, 0, NULL, NULL, NULL);
    LP_CHECK(near(overlap(&p, &e), 0.0));
    LP_CHECK(near(overlap(&e, &e), 1.0));
}

/* Equation (5) written out: normalise each table's v[0], then sum over
 * the union of keys the smaller share. */
static double equation5(const lp_table *p, const lp_table *q)
{
    double tp = 0, tq = 0, sum = 0;
    size_t c = 0;
    const lp_entry *e;
    while ((e = lp_table_next(p, &c)) != NULL)
        tp += (double)e->v[0];
    c = 0;
    while ((e = lp_table_next(q, &c)) != NULL)
        tq += (double)e->v[0];
    c = 0;
    while ((e = lp_table_next(p, &c)) != NULL) {
        const lp_entry *o = lp_table_find(q, e->key);
        double a = (double)e->v[0] / tp, b = o ? (double)o->v[0] / tq : 0.0;
        sum += a < b ? a : b;
    }
    /* keys only q has contribute min(0, share) = 0 */
    return sum;
}

static void random_profiles(void)
{
    int bad = 0;
    for (uint64_t seed = 1; seed <= 500; seed++) {
        lp_rng r;
        lp_rng_seed(&r, seed);
        hand p, q;
        uint32_t id[8], len[8];
        uint64_t freq[8];
        size_t n = 1 + (size_t)lp_rng_below(&r, 8);
        for (size_t i = 0; i < n; i++) {
            id[i] = (uint32_t)lp_rng_below(&r, 10);
            len[i] = 10 + (uint32_t)lp_rng_below(&r, 31);
            freq[i] = 1 + lp_rng_below(&r, 1000);
        }
        make(&p, n, id, len, freq);
        n = 1 + (size_t)lp_rng_below(&r, 8);
        for (size_t i = 0; i < n; i++) {
            id[i] = (uint32_t)lp_rng_below(&r, 10);
            len[i] = 10 + (uint32_t)lp_rng_below(&r, 31);
            freq[i] = 1 + lp_rng_below(&r, 1000);
        }
        make(&q, n, id, len, freq);
        lp_table tp, tq, hp, hq;
        lp_table_init(&tp, 0);
        lp_table_init(&tq, 0);
        lp_table_init(&hp, 0);
        lp_table_init(&hq, 0);
        lp_streams_profile_table(&p.s, &tp);
        lp_streams_profile_table(&q.s, &tq);
        lp_streams_heat_table(&tp, &hp);
        lp_streams_heat_table(&tq, &hq);
        double got = lp_manhattan_accuracy(&hp, &hq), want = equation5(&hp, &hq);
        bad += !(got - want < 1e-9 && want - got < 1e-9);
        lp_table_fini(&tp);
        lp_table_fini(&tq);
        lp_table_fini(&hp);
        lp_table_fini(&hq);
    }
    LP_CHECK_EQ_U64(bad, 0);
}

/* A trace with two planted streams against the same trace seen through
 * bursts of 600 references every 3000: the sampled profile finds the same
 * streams in about the same proportion. */
static void sampled_trace(void)
{
    lp_rng r;
    lp_rng_seed(&r, 9);
    lp_data_ref a[20], b[12];
    for (uint32_t i = 0; i < 20; i++)
        a[i] = (lp_data_ref){0x401000 + 4 * i, 0x10000 + 8 * i};
    for (uint32_t i = 0; i < 12; i++)
        b[i] = (lp_data_ref){0x402000 + 4 * i, 0x20000 + 8 * i};
    lp_streams_builder *all, *burst;
    LP_CHECK(lp_streams_builder_create(&all) == 0 && lp_streams_builder_create(&burst) == 0);
    uint64_t position = 0;
    for (int k = 0; k < 20000; k++) {
        const lp_data_ref *s = lp_rng_below(&r, 3) ? a : b;
        uint32_t len = s == a ? 20 : 12;
        for (uint32_t i = 0; i <= len; i++, position++) {
            lp_data_ref ref = i < len ? s[i] : (lp_data_ref){lp_rng_next(&r), lp_rng_next(&r)};
            lp_streams_builder_push(all, ref.pc, ref.addr);
            if (position % 3000 < 600)
                lp_streams_builder_push(burst, ref.pc, ref.addr);
        }
    }
    lp_streams *sa, *sb;
    LP_CHECK(lp_streams_builder_find(all, NULL, &sa) == 0);
    LP_CHECK(lp_streams_builder_find(burst, NULL, &sb) == 0);
    LP_CHECK(sa->count == 2);
    lp_table ta, tb, ha, hb;
    lp_table_init(&ta, 0);
    lp_table_init(&tb, 0);
    lp_table_init(&ha, 0);
    lp_table_init(&hb, 0);
    LP_CHECK(lp_streams_profile_table(sa, &ta) == 0 && lp_streams_profile_table(sb, &tb) == 0);
    LP_CHECK(lp_streams_heat_table(&ta, &ha) == 0 && lp_streams_heat_table(&tb, &hb) == 0);
    double o = lp_manhattan_accuracy(&ha, &hb);
    LP_CHECK(o > 0.9 && o <= 1.0);
    LP_CHECK(near(o, equation5(&ha, &hb)));
    lp_table_fini(&ta);
    lp_table_fini(&tb);
    lp_table_fini(&ha);
    lp_table_fini(&hb);
    lp_streams_free(sa);
    lp_streams_free(sb);
    lp_streams_builder_free(all);
    lp_streams_builder_free(burst);
}

int main(void)
{
    hand_cases();
    random_profiles();
    sampled_trace();
    return lp_test_done();
}
