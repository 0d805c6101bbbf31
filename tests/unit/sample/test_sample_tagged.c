/* sample: the tagged compressor against Fig. 6, transition by transition.
 *
 * The reference below is the state diagram written as a table; constructed
 * sequences on one-set tables walk through every transition (E1-E6 and the
 * sub-transitions E5a, E6a) checking state, hit and miss counters and each
 * message, then random streams compare the compressor with the reference
 * message for message and entry for entry. */
#include "sample_test_util.h"
#include "../../../src/sample/sample_internal.h"

enum { E1, E2, E3, E4, E5, E5A, E6, E6A, TRANSITIONS };
static const char *const names[TRANSITIONS] = {"E1", "E2", "E3", "E4", "E5", "E5a", "E6", "E6a"};

typedef struct ref_entry {
    int state; /* LP__EMPTY, LP__VALID, LP__EVICT */
    uint32_t tag, hit, miss;
    lp_tuple owner; /* who took it, or the tuple E6 reported: drains it all */
} ref_entry;

typedef struct ref_tagged {
    ref_entry *e;
    uint32_t sets, ways, range, evict, replace;
    unsigned fired[TRANSITIONS];
} ref_tagged;

static void ref_message(const lp_tuple *t, uint64_t count, recorder *out)
{
    lp_message m = {t->pc, t->w, count, t->type};
    recorder_fn(out, &m, 1);
}

/* Fig. 6 as a table (range R, ShouldEvict: hit >= evict after counting,
 * ShouldReplace: miss >= replace after counting):
 *   Empty  access                 E1   Valid, tag, hit += 1, miss = 0
 *   Valid  hit                    E3   hit += 1; at R: E2 message, Empty, hit = 0
 *   Valid  miss                   E4   Evict, miss = 1
 *   Evict  miss  !ShouldReplace   E5a  miss += 1
 *   Evict  miss   ShouldReplace   E5   Valid, new tag, hit += miss, miss = 0 (E2 at R)
 *   Evict  hit   !ShouldEvict     E6a  hit += 1
 *   Evict  hit    ShouldEvict     E6   message (tuple, hit), Empty, hit = miss, miss = 0
 * A hit is a matching tag in a non-Empty way; a miss allocates the first
 * Empty way, else counts against the way with the fewest hits. */
static void ref_access(ref_tagged *r, uint32_t set, uint32_t tag, const lp_tuple *x, recorder *out)
{
    ref_entry *e = &r->e[(size_t)set * r->ways];
    for (uint32_t w = 0; w < r->ways; w++) {
        if (e[w].state == LP__EMPTY || e[w].tag != tag)
            continue;
        e[w].hit++;
        if (e[w].state == LP__VALID) {
            r->fired[E3]++;
            if (e[w].hit >= r->range) {
                r->fired[E2]++;
                ref_message(x, e[w].hit, out);
                e[w].hit = 0;
                e[w].state = LP__EMPTY;
            }
        } else if (e[w].hit >= r->evict) {
            r->fired[E6]++;
            ref_message(x, e[w].hit, out);
            e[w].hit = e[w].miss;
            e[w].miss = 0;
            e[w].state = LP__EMPTY;
            e[w].owner = *x;
        } else {
            r->fired[E6A]++;
        }
        return;
    }
    for (uint32_t w = 0; w < r->ways; w++) {
        if (e[w].state == LP__EMPTY) {
            r->fired[E1]++;
            e[w].state = LP__VALID;
            e[w].tag = tag;
            e[w].hit++;
            e[w].miss = 0;
            e[w].owner = *x;
            return; /* a count left by E6 is below replace < R: no E2 here */
        }
    }
    uint32_t v = 0;
    for (uint32_t w = 1; w < r->ways; w++)
        if (e[w].hit < e[v].hit)
            v = w;
    e[v].miss++;
    if (e[v].state == LP__VALID) {
        r->fired[E4]++;
        e[v].state = LP__EVICT;
    } else if (e[v].miss >= r->replace) {
        r->fired[E5]++;
        e[v].state = LP__VALID;
        e[v].tag = tag;
        e[v].hit += e[v].miss;
        e[v].miss = 0;
        e[v].owner = *x;
        if (e[v].hit >= r->range) {
            r->fired[E2]++;
            ref_message(x, e[v].hit, out);
            e[v].hit = 0;
            e[v].state = LP__EMPTY;
        }
    } else {
        r->fired[E5A]++;
    }
}

static void ref_drain(ref_tagged *r, recorder *out)
{
    for (size_t i = 0; i < (size_t)r->sets * r->ways; i++) {
        ref_entry *e = &r->e[i];
        if (e->hit + e->miss) /* all an entry holds goes with its one known tuple */
            ref_message(&e->owner, e->hit + e->miss, out);
        memset(e, 0, sizeof *e);
    }
}

static int ref_init(ref_tagged *r, const lp_compressor *c)
{
    memset(r, 0, sizeof *r);
    r->sets = c->sets;
    r->ways = c->ways;
    r->range = c->spec.rate;
    r->evict = c->spec.evict_hits;
    r->replace = c->spec.replace_misses;
    r->e = calloc((size_t)r->sets * r->ways, sizeof *r->e);
    return r->e != NULL;
}

/* Set and tag as section 4.1 defines them, from the compressor's hash. */
static void ref_place(const lp_compressor *c, const lp_tuple *t, uint32_t *set, uint32_t *tag)
{
    unsigned bits = 0;
    while ((1u << bits) < c->sets)
        bits++;
    if (c->spec.hash == LP_HASH_FAST) {
        uint64_t h =
            (t->pc * c->fast.k_pc) ^ (t->w * c->fast.k_w) ^ ((uint64_t)t->type * c->fast.k_type);
        *set = bits ? (uint32_t)(h >> (64 - bits)) : 0;
        uint32_t tb = c->spec.tag_bits;
        *tag = tb ? (uint32_t)((h >> (64 - bits - tb)) & ((1u << tb) - 1)) : 0;
        return;
    }
    *set = lp__hash_reference(c->hash, t->pc, t->w, t->type) & (c->sets - 1);
    uint64_t x = t->pc ^ t->w ^ t->type, folded = 0;
    uint32_t tb = c->spec.tag_bits;
    if (tb)
        for (unsigned at = 0; at < 64; at += tb)
            folded ^= (x >> at) & ((1ULL << tb) - 1);
    *tag = (uint32_t)folded;
}

/* ---- constructed sequences --------------------------------------------------- */

typedef struct step {
    lp_tuple t;
    int transition; /* the one expected to fire (E2 listed as its cause E3/E5) */
    uint32_t way;   /* entry checked afterwards */
    int state;
    uint32_t hit, miss;
    size_t messages;     /* messages delivered so far */
    uint64_t last_count; /* count of the newest message, when one was just sent */
} step;

static const lp_tuple A = {0x10, 0x00, 1};  /* tag 0x11 */
static const lp_tuple A2 = {0x00, 0x10, 1}; /* tag 0x11 too: aliases A */
static const lp_tuple B = {0x20, 0x00, 1};  /* tag 0x21 */
static const lp_tuple B2 = {0x00, 0x20, 1}; /* aliases B */
static const lp_tuple C = {0x30, 0x00, 1};  /* tag 0x31 */
static const lp_tuple D = {0x40, 0x00, 1};  /* tag 0x41 */

static int same_tuple(const lp_message *m, const lp_tuple *t)
{
    return m->pc == t->pc && m->w == t->w && m->type == t->type;
}

static void run_steps(const char *spec, const step *steps, size_t n)
{
    lp_compressor_spec s;
    LP_CHECK(lp_compressor_spec_parse(spec, &s, NULL, NULL) == 0);
    lp_cost_model one = {1, 214, 30}; /* every message delivered at once */
    recorder r = {0}, want = {0};
    lp_compressor *c = NULL;
    LP_CHECK(lp_compressor_create(&s, &one, 1, recorder_fn, &r, &c) == 0);
    if (!c)
        return;
    ref_tagged ref;
    ref_init(&ref, c);
    for (size_t i = 0; i < n; i++) {
        const step *st = &steps[i];
        unsigned before[TRANSITIONS];
        memcpy(before, ref.fired, sizeof before);
        lp_compressor_push(c, &st->t);
        uint32_t set, tag;
        ref_place(c, &st->t, &set, &tag);
        LP_CHECK_EQ_U64(set, 0);
        ref_access(&ref, set, tag, &st->t, &want);
        const lp__tentry *e = &c->tent[st->way];
        const uint32_t state = lp__tentry_state(e);
        int ok = state == (uint32_t)st->state && e->hit == st->hit && e->miss == st->miss &&
                 r.n == st->messages && ref.fired[st->transition] == before[st->transition] + 1;
        if (st->last_count && r.n)
            ok &= r.m[r.n - 1].count == st->last_count && same_tuple(&r.m[r.n - 1], &st->t);
        if (state != LP__EMPTY)
            ok &= lp__tentry_tag(e) == ref.e[st->way].tag;
        if (st->transition == E1 || (st->transition == E5 && state != LP__EMPTY))
            ok &= lp__tentry_tag(e) == tag; /* the entry now belongs to this tuple */
        LP_CHECK(ok);
        if (!ok)
            fprintf(stderr,
                    "  %s step %zu (%s): way %u state %u hit %u miss %u, %zu messages; "
                    "expected state %d hit %u miss %u, %zu messages\n",
                    spec, i, names[st->transition], st->way, state, e->hit, e->miss, r.n, st->state,
                    st->hit, st->miss, st->messages);
        /* the reference agrees entry for entry */
        for (uint32_t w = 0; w < c->ways; w++) {
            const ref_entry *x = &ref.e[w];
            const lp__tentry *y = &c->tent[w];
            LP_CHECK((uint32_t)x->state == lp__tentry_state(y) && x->hit == y->hit &&
                     x->miss == y->miss);
        }
    }
    LP_CHECK(messages_diff(r.m, r.n, want.m, want.n) == -1);
    free(ref.e);
    lp_compressor_free(c);
    recorder_free(&r);
    recorder_free(&want);
}

static void test_one_way(void)
{
    /* range 16, ShouldEvict at 6 hits, ShouldReplace at 3 misses */
    enum { V = LP__VALID, X = LP__EVICT, O = LP__EMPTY };
    /* Automatic, not static: the rows name the tuples A and B, which are
     * const objects, not constant expressions, to a strict C17 compiler. */
    const step steps[] = {
        {A, E1, 0, V, 1, 0, 0, 0},
        {A, E3, 0, V, 2, 0, 0, 0},
        {A, E3, 0, V, 3, 0, 0, 0},
        {B, E4, 0, X, 3, 1, 0, 0},
        {A, E6A, 0, X, 4, 1, 0, 0},
        {A, E6A, 0, X, 5, 1, 0, 0},
        {A, E6, 0, O, 1, 0, 1, 6}, /* message (A, 6); the miss count stays */
        {B, E1, 0, V, 2, 0, 1, 0}, /* ...and B inherits it */
        {B, E3, 0, V, 3, 0, 1, 0},
        {B2, E3, 0, V, 4, 0, 1, 0}, /* an alias counts as B */
        {B, E3, 0, V, 5, 0, 1, 0},
        {B, E3, 0, V, 6, 0, 1, 0},
        {B, E3, 0, V, 7, 0, 1, 0},
        {B, E3, 0, V, 8, 0, 1, 0},
        {B, E3, 0, V, 9, 0, 1, 0},
        {B, E3, 0, V, 10, 0, 1, 0},
        {B, E3, 0, V, 11, 0, 1, 0},
        {B, E3, 0, V, 12, 0, 1, 0},
        {B, E3, 0, V, 13, 0, 1, 0},
        {B, E3, 0, V, 14, 0, 1, 0},
        {B, E3, 0, V, 15, 0, 1, 0},
        {B2, E2, 0, O, 0, 0, 2, 16}, /* saturation: message (B2, 16), Empty */
        {A, E1, 0, V, 1, 0, 2, 0},
        {B, E4, 0, X, 1, 1, 2, 0},
        {B, E5A, 0, X, 1, 2, 2, 0},
        {B, E5, 0, V, 4, 0, 2, 0}, /* B takes over with A's hit and the misses */
        {B, E3, 0, V, 5, 0, 2, 0},
        {C, E4, 0, X, 5, 1, 2, 0},
        {B, E6, 0, O, 1, 0, 3, 6}, /* message (B, 6); C's miss waits in the entry */
        {D, E1, 0, V, 2, 0, 3, 0},
    };
    run_steps("T8:16x1w1/evict=6/replace=3", steps, sizeof steps / sizeof steps[0]);

    /* E5 into saturation: hit + misses reach the range at once. */
    const step sat[] = {
        {A, E1, 0, V, 1, 0, 0, 0},   {A, E3, 0, V, 2, 0, 0, 0},   {A, E3, 0, V, 3, 0, 0, 0},
        {A, E3, 0, V, 4, 0, 0, 0},   {A, E3, 0, V, 5, 0, 0, 0},   {A, E3, 0, V, 6, 0, 0, 0},
        {A, E3, 0, V, 7, 0, 0, 0},   {A, E3, 0, V, 8, 0, 0, 0},   {A, E3, 0, V, 9, 0, 0, 0},
        {A, E3, 0, V, 10, 0, 0, 0},  {A, E3, 0, V, 11, 0, 0, 0},  {A, E3, 0, V, 12, 0, 0, 0},
        {A, E3, 0, V, 13, 0, 0, 0},  {A2, E3, 0, V, 14, 0, 0, 0}, {B, E4, 0, X, 14, 1, 0, 0},
        {B, E5A, 0, X, 14, 2, 0, 0}, {C, E5, 0, O, 0, 0, 1, 17}, /* C replaces with 14 + 3 = 17 >=
                                                                    16: (C, 17) */
    };
    run_steps("T8:16x1w1/evict=15/replace=3", sat, sizeof sat / sizeof sat[0]);

    /* The hit counter reaching the range inside Evict is E6 (evict <= range). */
    const step top[] = {
        {A, E1, 0, V, 1, 0, 0, 0}, {A, E3, 0, V, 2, 0, 0, 0}, {A, E3, 0, V, 3, 0, 0, 0},
        {B, E4, 0, X, 3, 1, 0, 0}, {A, E6, 0, O, 1, 0, 1, 4},
    };
    run_steps("T8:4x1w1/evict=4/replace=3", top, sizeof top / sizeof top[0]);
}

static void test_two_ways(void)
{
    enum { V = LP__VALID, X = LP__EVICT };
    const step steps[] = {
        {A, E1, 0, V, 1, 0, 0, 0}, /* lowest Empty way */
        {B, E1, 1, V, 1, 0, 0, 0},
        {B, E3, 1, V, 2, 0, 0, 0},
        {B, E3, 1, V, 3, 0, 0, 0},
        {C, E4, 0, X, 1, 1, 0, 0}, /* the way with fewer hits takes the miss */
        {C, E5A, 0, X, 1, 2, 0, 0},
        {A, E6A, 0, X, 2, 2, 0, 0}, /* a hit in Evict, below ShouldEvict */
        {B, E3, 1, V, 4, 0, 0, 0},  /* the other way is unaffected */
        {C, E5, 0, V, 5, 0, 0, 0},  /* 2 hits + 3 misses */
        {C, E3, 0, V, 6, 0, 0, 0},
        {B, E3, 1, V, 5, 0, 0, 0},
        {B, E3, 1, V, 6, 0, 0, 0}, /* 6 and 6: a tie */
        {D, E4, 0, X, 6, 1, 0, 0}, /* ties go to the lower way */
        {B, E3, 1, V, 7, 0, 0, 0},
        {D, E5A, 0, X, 6, 2, 0, 0},
    };
    run_steps("T8:16x2w2/evict=6/replace=3", steps, sizeof steps / sizeof steps[0]);
}

/* finish drains what each entry holds, hits and misses, with its one known
 * tuple: the owner of a Valid or Evict entry, the tuple E6 reported for the
 * count E6 left in an Empty one. */
static void test_drain(void)
{
    lp_compressor_spec s;
    LP_CHECK(lp_compressor_spec_parse("T8:16x1w1/evict=6/replace=3", &s, NULL, NULL) == 0);
    const struct { /* automatic: the rows name A and B, see test_one_way */
        lp_tuple seq[8];
        size_t n;
        lp_tuple who;
        uint64_t count;
    } cases[] = {
        {{A}, 1, A, 1},
        {{A, A, B}, 3, A, 3},                /* Evict: 2 hits and B's miss */
        {{A, A, A, A, A, B, B, A}, 8, A, 2}, /* E6 sent (A, 6) and left B's 2 */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        recorder r = {0};
        lp_compressor *c = NULL;
        LP_CHECK(lp_compressor_create(&s, NULL, 1, recorder_fn, &r, &c) == 0);
        lp_compressor_push_many(c, cases[k].seq, cases[k].n);
        lp_compressor_finish(c);
        LP_CHECK(r.n >= 1);
        if (r.n >= 1) {
            LP_CHECK(same_tuple(&r.m[r.n - 1], &cases[k].who));
            LP_CHECK_EQ_U64(r.m[r.n - 1].count, cases[k].count);
        }
        LP_CHECK_EQ_U64(recorder_sum(&r), cases[k].n);
        LP_CHECK(lp__tentry_state(&c->tent[0]) == LP__EMPTY && c->tent[0].hit == 0 &&
                 c->tent[0].miss == 0);
        lp_compressor_free(c);
        recorder_free(&r);
    }
}

/* Random streams: the compressor equals the reference message for message,
 * every entry equals the reference's, and every transition is exercised. */
static void test_random_streams(void)
{
    const struct { /* automatic, as above */
        const char *spec;
        unsigned distinct;
    } cases[] = {
        {"T2:8x2w2/evict=3/replace=3", 10},
        {"T2:8x2w2/fast/evict=3/replace=3", 10},
        {"T1:16x1w1/evict=2/replace=2", 6},
        {"T2:16x8w2", 60},
        {"T2:16x8w2/fast", 60},
        {"T1:16x16w1/evict=5/replace=4", 100},
        {"T3:32x16w4/evict=5/replace=4", 200},
        {"T3:32x16w4/fast/evict=5/replace=4", 200},
        {"T0:8x4w4/evict=2", 30},
        {"T15:16x262144w1/evict=3", 5000}, /* index + tag over 32 bits: folded apart */
        {"T15:16x2048w2", 5000},
        {"T15:16x64w4/replace=2", 300},
        {"T2:256x2048w2", 5000},
        {"T2:256x2048w2/fast", 5000},
    };
    unsigned fired[TRANSITIONS] = {0};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const size_t n = 200000;
        recorder got = {0}, want = {0};
        lp_compressor *c = make_compressor(cases[k].spec, 100 + k, &got);
        LP_CHECK(c != NULL);
        if (!c)
            continue;
        lp_tuple *t = make_stream(n, cases[k].distinct, 7 + k);
        push_chunked(c, t, n, 200, k);
        ref_tagged ref;
        ref_init(&ref, c);
        for (size_t i = 0; i < n; i++) {
            uint32_t set, tag;
            ref_place(c, &t[i], &set, &tag);
            ref_access(&ref, set, tag, &t[i], &want);
        }
        int entries_differ = 0;
        for (size_t i = 0; i < (size_t)c->sets * c->ways; i++) {
            const ref_entry *x = &ref.e[i];
            const lp__tentry *y = &c->tent[i];
            entries_differ += (uint32_t)x->state != lp__tentry_state(y) || x->hit != y->hit ||
                              x->miss != y->miss ||
                              (x->state != LP__EMPTY && x->tag != lp__tentry_tag(y));
        }
        LP_CHECK_EQ_U64(entries_differ, 0);
        lp_compressor_finish(c);
        ref_drain(&ref, &want);
        long d = messages_diff(got.m, got.n, want.m, want.n);
        LP_CHECK(d == -1);
        if (d != -1)
            fprintf(stderr, "  %s: message %ld of %zu/%zu differs\n", cases[k].spec, d, got.n,
                    want.n);
        LP_CHECK_EQ_U64(recorder_sum(&got), n); /* E5 and E6 keep every count */
        for (int i = 0; i < TRANSITIONS; i++)
            fired[i] += ref.fired[i];
        free(ref.e);
        free(t);
        lp_compressor_free(c);
        recorder_free(&got);
        recorder_free(&want);
    }
    for (int i = 0; i < TRANSITIONS; i++) {
        LP_CHECK(fired[i] > 0);
        if (!fired[i])
            fprintf(stderr, "  transition %s never fired\n", names[i]);
    }
}

int main(void)
{
    test_one_way();
    test_two_ways();
    test_drain();
    test_random_streams();
    return lp_test_done();
}
