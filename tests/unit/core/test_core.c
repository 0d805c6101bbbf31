/* core: the table against a plain reference (an array searched linearly),
 * the allocator shim, the membuf sink and the interval cutter. */
#include <stdlib.h>
#include <string.h>

#include "lowprof/core.h"
#include "../lp_test.h"

typedef struct ref_entry {
    lp_key k;
    uint64_t v0, v1;
} ref_entry;

static void test_table_against_reference(void)
{
    enum { N = 20000, KEYS = 3000 };
    ref_entry *ref = calloc(2 * KEYS, sizeof *ref);
    size_t nref = 0;
    lp_table t;
    LP_CHECK(lp_table_init(&t, 0) == LP_OK);
    uint64_t x = 12345;
    for (int i = 0; i < N; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        lp_key k = {(x >> 33) % KEYS, (x >> 20) & 1};
        lp_entry *e = lp_table_upsert(&t, k);
        LP_CHECK(e != NULL);
        e->v[0] += 1;
        e->v[1] += (uint64_t)i;
        size_t j = 0;
        while (j < nref && (ref[j].k.a != k.a || ref[j].k.b != k.b))
            j++;
        if (j == nref) {
            ref[nref].k = k;
            nref++;
        }
        ref[j].v0 += 1;
        ref[j].v1 += (uint64_t)i;
    }
    LP_CHECK_EQ_U64(t.count, nref);
    int mismatches = 0;
    for (size_t j = 0; j < nref; j++) {
        lp_entry *e = lp_table_find(&t, ref[j].k);
        if (!e || e->v[0] != ref[j].v0 || e->v[1] != ref[j].v1)
            mismatches++;
    }
    LP_CHECK_EQ_U64(mismatches, 0);
    size_t cur = 0, seen = 0;
    while (lp_table_next(&t, &cur))
        seen++;
    LP_CHECK_EQ_U64(seen, nref);
    LP_CHECK(lp_table_find(&t, (lp_key){KEYS + 5, 0}) == NULL);
    LP_CHECK(lp_table_upsert(&t, (lp_key){UINT64_MAX, UINT64_MAX}) == NULL);

    lp_table m;
    LP_CHECK(lp_table_init(&m, 4) == LP_OK);
    LP_CHECK(lp_table_merge(&m, &t) == LP_OK);
    LP_CHECK(lp_table_merge(&m, &t) == LP_OK);
    lp_entry *e = lp_table_find(&m, ref[0].k);
    LP_CHECK(e && e->v[0] == 2 * ref[0].v0);
    lp_table_clear(&m);
    LP_CHECK_EQ_U64(m.count, 0);
    LP_CHECK(lp_table_find(&m, ref[0].k) == NULL);
    lp_table_fini(&m);
    lp_table_fini(&t);
    lp_table_fini(NULL);
    free(ref);
}

static int fail_calls;
static void *failing_alloc(void *ctx, size_t n)
{
    (void)ctx;
    (void)n;
    fail_calls++;
    return NULL;
}
static void plain_free(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

static void test_allocator_failure_is_reported(void)
{
    lp_allocator a = {failing_alloc, NULL, plain_free, NULL};
    lp_set_allocator(&a);
    lp_table t;
    LP_CHECK(lp_table_init(&t, 100) == LP_ENOMEM);
    LP_CHECK(lp_table_init(&t, 0) == LP_OK);
    LP_CHECK(lp_table_upsert(&t, (lp_key){1, 2}) == NULL);
    LP_CHECK(fail_calls == 2);
    LP_CHECK(lp_calloc(SIZE_MAX / 2, 4) == NULL);
    lp_set_allocator(NULL);
    LP_CHECK(lp_table_upsert(&t, (lp_key){1, 2}) != NULL);
    lp_table_fini(&t);
}

static void test_membuf(void)
{
    lp_membuf b = {0};
    lp_sink s = lp_membuf_sink(&b);
    char chunk[300];
    memset(chunk, 'x', sizeof chunk);
    for (int i = 0; i < 10; i++)
        LP_CHECK(s.write(s.ctx, chunk, sizeof chunk) == LP_OK);
    LP_CHECK_EQ_U64(b.size, 3000);
    LP_CHECK(b.data[2999] == 'x');
    lp_membuf_free(&b);
    LP_CHECK(b.data == NULL);
}

static void test_interval_cutter(void)
{
    lp_interval_cutter c;
    lp_interval_cutter_init(&c, 0);
    LP_CHECK_EQ_U64(c.length, LP_DEFAULT_INTERVAL);
    lp_interval_cutter_init(&c, 100);
    LP_CHECK(!lp_interval_cutter_due(&c, 99));
    LP_CHECK(lp_interval_cutter_due(&c, 100));
    lp_interval_cutter_advance(&c, 103); /* a block overshot by 3 */
    LP_CHECK_EQ_U64(c.index, 1);
    LP_CHECK_EQ_U64(c.start, 103);
    LP_CHECK_EQ_U64(c.next_cut, 200);
    lp_interval_cutter_advance(&c, 450); /* one block jumped two boundaries */
    LP_CHECK_EQ_U64(c.next_cut, 500);
}

static void test_profile_names(void)
{
    for (unsigned t = 1; t <= LP_PROF_TYPE_MAX; t++) {
        const char *n = lp_profile_type_name(t);
        LP_CHECK(n != NULL);
        LP_CHECK_EQ_U64(lp_profile_type_parse(n, strlen(n)), t);
    }
    LP_CHECK(lp_profile_type_parse("edg", 3) == 0);
    LP_CHECK(lp_profile_type_name(0) == NULL);
    lp_profile p;
    LP_CHECK(lp_profile_init(&p, 99) == LP_EINVAL);
    LP_CHECK(lp_profile_init(&p, LP_PROF_EDGE) == LP_OK);
    LP_CHECK(p.scale_num == 1 && p.scale_den == 1 && p.phase == LP_PHASE_NONE);
    lp_profile_fini(&p);
    LP_CHECK(strcmp(lp_strerror(LP_ETRUNC), "input ends early (truncated)") == 0);
}

static void test_signature_buckets(void)
{
    lp_signature s;
    memset(&s, 0, sizeof s);
    unsigned used = 0;
    for (uint64_t pc = 0x400000; pc < 0x400000 + 4096; pc += 4) {
        unsigned b = lp_signature_bucket(pc);
        LP_CHECK(b < LP_SIG_BUCKETS);
        used |= 1u << b;
        lp_signature_add(&s, pc, 1);
    }
    LP_CHECK(used == 0xffffffffu); /* the hash spreads nearby pcs */
    uint64_t sum = 0;
    for (int i = 0; i < LP_SIG_BUCKETS; i++)
        sum += s.bucket[i];
    LP_CHECK_EQ_U64(sum, 1024);
}

/* Same seed, same stream; lp_rng_below stays in range and spreads evenly
 * (each of 8 cells within 3 % of its share over 80000 draws: about 9 sigma). */
static void test_rng(void)
{
    lp_rng a, b;
    lp_rng_seed(&a, 42);
    lp_rng_seed(&b, 42);
    int same = 1;
    for (int i = 0; i < 100; i++)
        same &= lp_rng_next(&a) == lp_rng_next(&b);
    LP_CHECK(same);
    lp_rng_seed(&b, 43);
    LP_CHECK(lp_rng_next(&a) != lp_rng_next(&b));
    uint64_t cells[8] = {0};
    int in_range = 1;
    for (int i = 0; i < 80000; i++) {
        uint64_t x = lp_rng_below(&a, 8);
        in_range &= x < 8;
        cells[x & 7]++;
    }
    LP_CHECK(in_range);
    for (int i = 0; i < 8; i++)
        LP_CHECK(cells[i] > 9700 && cells[i] < 10300);
}

/* Both orders on 5000 random entries with many ties in a and in v[0]. */
static void test_sort(void)
{
    enum { N = 5000 };
    static lp_entry e[N];
    uint64_t x = 1;
    for (int i = 0; i < N; i++) {
        x = x * 6364136223846793005ULL + 1;
        e[i].key.a = (x >> 40) % 300;
        e[i].key.b = x >> 50;
        e[i].v[0] = (x >> 20) % 50;
    }
    lp_entries_sort(e, N, lp_entry_key_less);
    int sorted = 1;
    for (int i = 1; i < N; i++)
        sorted &= !lp_entry_key_less(&e[i], &e[i - 1]);
    LP_CHECK(sorted);
    lp_entries_sort(e, N, lp_entry_count_greater);
    sorted = 1;
    for (int i = 1; i < N; i++)
        sorted &= e[i - 1].v[0] > e[i].v[0] ||
                  (e[i - 1].v[0] == e[i].v[0] && !lp_entry_key_less(&e[i], &e[i - 1]));
    LP_CHECK(sorted);
}

int main(void)
{
    test_sort();
    test_rng();
    test_table_against_reference();
    test_allocator_failure_is_reported();
    test_membuf();
    test_interval_cutter();
    test_profile_names();
    test_signature_buckets();
    return lp_test_done();
}
