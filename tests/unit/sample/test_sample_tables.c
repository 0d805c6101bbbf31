/* sample: the associative counter table A_k against a plain move-to-front
 * list, as a first level and as the second level behind a sampler, and the
 * message buffer's interrupt and cycle accounting. */
#include "sample_test_util.h"

/* Reference A_k: entries kept most recently used first; a hit moves the
 * entry to the front, a miss on a full table evicts the last one. */
typedef struct ref_assoc {
    lp_message e[64];
    uint32_t merges[64];
    size_t n;
    size_t k;
    uint32_t sat;
} ref_assoc;

static void ref_remove(ref_assoc *a, size_t j)
{
    memmove(&a->e[j], &a->e[j + 1], (a->n - j - 1) * sizeof a->e[0]);
    memmove(&a->merges[j], &a->merges[j + 1], (a->n - j - 1) * sizeof a->merges[0]);
    a->n--;
}

static void ref_front(ref_assoc *a, const lp_message *m, uint32_t merges)
{
    memmove(&a->e[1], &a->e[0], a->n * sizeof a->e[0]);
    memmove(&a->merges[1], &a->merges[0], a->n * sizeof a->merges[0]);
    a->e[0] = *m;
    a->merges[0] = merges;
    a->n++;
}

static void ref_put(ref_assoc *a, const lp_message *m, recorder *out)
{
    for (size_t j = 0; j < a->n; j++) {
        lp_message *x = &a->e[j];
        if (x->pc == m->pc && x->w == m->w && x->type == m->type) {
            lp_message merged = *x;
            merged.count += m->count;
            uint32_t merges = a->merges[j] + 1;
            ref_remove(a, j);
            if (merges >= a->sat)
                recorder_fn(out, &merged, 1);
            else
                ref_front(a, &merged, merges);
            return;
        }
    }
    if (a->n == a->k) {
        recorder_fn(out, &a->e[a->n - 1], 1);
        a->n--;
    }
    if (a->sat == 1)
        recorder_fn(out, m, 1);
    else
        ref_front(a, m, 1);
}

/* got must be want's run-time messages in order, then its drained entries
 * in any order. */
static void check_split(const recorder *got, const recorder *want_run, ref_assoc *left,
                        const char *what)
{
    LP_CHECK_EQ_U64(got->n, want_run->n + left->n);
    if (got->n != want_run->n + left->n)
        return;
    long d = messages_diff(got->m, want_run->n, want_run->m, want_run->n);
    LP_CHECK(d == -1);
    if (d != -1)
        fprintf(stderr, "  %s: message %ld differs\n", what, d);
    lp_message *tail = malloc((left->n + 1) * sizeof *tail);
    memcpy(tail, got->m + want_run->n, left->n * sizeof *tail);
    qsort(tail, left->n, sizeof *tail, message_order);
    qsort(left->e, left->n, sizeof left->e[0], message_order);
    LP_CHECK(messages_diff(tail, left->n, left->e, left->n) == -1);
    free(tail);
}

static void check_first_level(const char *spec, size_t k, uint32_t sat, unsigned distinct)
{
    const size_t n = 50000;
    recorder got = {0}, want = {0};
    lp_tuple *t = make_stream(n, distinct, 44);
    lp_compressor *c = run_spec(spec, 1, t, n, 100, &got);
    if (!c) {
        free(t);
        return;
    }
    ref_assoc a = {.k = k, .sat = sat};
    for (size_t i = 0; i < n; i++) {
        lp_message m = {t[i].pc, t[i].w, 1, t[i].type};
        ref_put(&a, &m, &want);
    }
    check_split(&got, &want, &a, spec);
    LP_CHECK_EQ_U64(recorder_sum(&got), n);
    lp_compressor_free(c);
    free(t);
    recorder_free(&got);
    recorder_free(&want);
}

static void test_assoc_first_level(void)
{
    check_first_level("A16", 16, 256, 40);
    check_first_level("A16", 16, 256, 400);
    check_first_level("A4/sat=3", 4, 3, 30);
    check_first_level("A1", 1, 256, 5);
    check_first_level("A64/sat=1000", 64, 1000, 100);
    check_first_level("A8/sat=1", 8, 1, 100);

    /* Identical <pc, w> of different types are different tuples. */
    recorder r = {0};
    lp_compressor *c = make_compressor("A4", 1, &r);
    lp_tuple t[3] = {{1, 2, LP_TUPLE_VALUE}, {1, 2, LP_TUPLE_EDGE}, {1, 2, LP_TUPLE_VALUE}};
    lp_compressor_push_many(c, t, 3);
    lp_compressor_finish(c);
    LP_CHECK_EQ_U64(r.n, 2);
    qsort(r.m, r.n, sizeof r.m[0], message_order);
    LP_CHECK(r.m[0].type == LP_TUPLE_VALUE && r.m[0].count == 2);
    LP_CHECK(r.m[1].type == LP_TUPLE_EDGE && r.m[1].count == 1);
    lp_compressor_free(c);
    recorder_free(&r);
}

/* first + A_k gives exactly first's messages folded by the reference A_k. */
static void check_second_level(const char *first, const char *chained, size_t k, uint32_t sat)
{
    const size_t n = 200000;
    recorder plain = {0}, got = {0}, want = {0};
    lp_tuple *t = make_stream(n, 300, 45);
    lp_compressor *p = run_spec(first, 6, t, n, 1000, &plain);
    lp_compressor *c = run_spec(chained, 6, t, n, 77, &got);
    if (!p || !c)
        abort();
    ref_assoc a = {.k = k, .sat = sat};
    for (size_t i = 0; i < plain.n; i++)
        ref_put(&a, &plain.m[i], &want);
    check_split(&got, &want, &a, chained);
    LP_CHECK_EQ_U64(recorder_sum(&got), recorder_sum(&plain));
    lp_compressor_stats sp, sc;
    lp_compressor_get_stats(p, &sp);
    lp_compressor_get_stats(c, &sc);
    LP_CHECK_EQ_U64(sc.first_level_messages, sp.messages);
    LP_CHECK_EQ_U64(sc.messages, got.n);
    LP_CHECK(sc.messages < sp.messages); /* the point of the second level */
    LP_CHECK(sc.interrupts < sp.interrupts);
    lp_compressor_free(p);
    lp_compressor_free(c);
    free(t);
    recorder_free(&plain);
    recorder_free(&got);
    recorder_free(&want);
}

static void test_assoc_second_level(void)
{
    check_second_level("H[P16]64", "H[P16]64+A16", 16, 256);
    check_second_level("P16", "P16+A16", 16, 256);
    check_second_level("CR16", "CR16+A8/sat=4", 8, 4);
    check_second_level("T2:16x64w2", "T2:16x64w2+A16", 16, 256);
    check_second_level("A4", "A4+A16", 16, 256);
}

static void test_buffer(void)
{
    lp_compressor_spec s;
    LP_CHECK(lp_compressor_spec_parse("P1", &s, NULL, NULL) == 0);
    lp_tuple *t = make_stream(2000, 10, 1);

    /* Defaults: 100 messages per interrupt, 214 + 30 per message. */
    recorder r = {0};
    lp_compressor *c = NULL;
    LP_CHECK(lp_compressor_create(&s, NULL, 1, recorder_fn, &r, &c) == 0);
    lp_compressor_push_many(c, t, 1050);
    lp_compressor_stats st;
    lp_compressor_get_stats(c, &st);
    LP_CHECK_EQ_U64(st.tuples, 1050);
    LP_CHECK_EQ_U64(st.messages, 1050);
    LP_CHECK_EQ_U64(st.interrupts, 10);
    LP_CHECK_EQ_U64(st.cycles, 10 * 214 + 1000 * 30);
    LP_CHECK_EQ_U64(r.n, 1000);
    LP_CHECK_EQ_U64(r.last_batch, 100);
    lp_compressor_finish(c);
    lp_compressor_get_stats(c, &st);
    LP_CHECK_EQ_U64(st.interrupts, 11);
    LP_CHECK_EQ_U64(st.cycles, 11 * 214 + 1050 * 30);
    LP_CHECK_EQ_U64(r.last_batch, 50);
    LP_CHECK_EQ_U64(r.n, 1050);
    lp_compressor_finish(c); /* nothing buffered: no interrupt */
    lp_compressor_get_stats(c, &st);
    LP_CHECK_EQ_U64(st.interrupts, 11);

    /* reset drops buffered messages and zeroes the counts */
    lp_compressor_push_many(c, t, 30);
    recorder_clear(&r);
    lp_compressor_reset(c, 2);
    lp_compressor_get_stats(c, &st);
    LP_CHECK(st.tuples == 0 && st.messages == 0 && st.interrupts == 0 && st.cycles == 0);
    lp_compressor_finish(c);
    LP_CHECK_EQ_U64(r.n, 0);
    lp_compressor_free(c);

    /* A settable cost model, and no callback at all. */
    lp_cost_model cost = {7, 1000, 1};
    recorder_clear(&r);
    LP_CHECK(lp_compressor_create(&s, &cost, 1, recorder_fn, &r, &c) == 0);
    lp_compressor *quiet = NULL;
    LP_CHECK(lp_compressor_create(&s, &cost, 1, NULL, NULL, &quiet) == 0);
    lp_compressor_push_many(c, t, 50);
    lp_compressor_push_many(quiet, t, 50);
    lp_compressor_finish(c);
    lp_compressor_finish(quiet);
    lp_compressor_stats sq;
    lp_compressor_get_stats(c, &st);
    lp_compressor_get_stats(quiet, &sq);
    LP_CHECK_EQ_U64(st.interrupts, 8);
    LP_CHECK_EQ_U64(st.cycles, 8 * 1000 + 50);
    LP_CHECK_EQ_U64(r.interrupts, 8);
    LP_CHECK_EQ_U64(r.last_batch, 1);
    LP_CHECK(memcmp(&st, &sq, sizeof st) == 0);
    lp_compressor_free(c);
    lp_compressor_free(quiet);

    /* Drained counts are messages too, and each finish costs an interrupt. */
    LP_CHECK(lp_compressor_spec_parse("H[P1000]4", &s, NULL, NULL) == 0);
    recorder_clear(&r);
    LP_CHECK(lp_compressor_create(&s, NULL, 1, recorder_fn, &r, &c) == 0);
    lp_compressor_push_many(c, t, 2000);
    lp_compressor_get_stats(c, &st);
    uint64_t before = st.messages;
    lp_compressor_finish(c);
    lp_compressor_get_stats(c, &st);
    LP_CHECK(st.messages > before);
    LP_CHECK_EQ_U64(st.messages, r.n);
    LP_CHECK_EQ_U64(st.interrupts, r.interrupts);
    LP_CHECK_EQ_U64(recorder_sum(&r), 2000);
    lp_compressor_free(c);

    free(t);
    recorder_free(&r);
}

int main(void)
{
    test_assoc_first_level();
    test_assoc_second_level();
    test_buffer();
    return lp_test_done();
}
