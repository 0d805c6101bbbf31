/* streams: Sequitur. On random sequences over small and large alphabets
 * the grammar must expand back to the input exactly, after the last push
 * and at points in between, and must keep Sequitur's properties (no two
 * non-overlapping occurrences of a digram, every rule but the start rule
 * used twice and at least two symbols long); the compact form's lengths,
 * derivation counts and parents-first numbering are checked against the
 * expansion. Small inputs whose grammars are known, a long run and a long
 * structured trace (no recursion), bad terminals, and allocation failures
 * at every point of a push (the grammar must still expand to what was
 * accepted). */
#include <stdlib.h>
#include <string.h>

#include "lowprof/streams.h"
#include "../lp_test.h"

/* Expands rule 0 and compares with want[0 .. n). */
static int expands_to(const lp_grammar *gr, const uint32_t *want, size_t n)
{
    if (gr->length[0] != n)
        return 0;
    uint32_t *got = malloc((n ? n : 1) * sizeof *got);
    if (!got || lp_grammar_expand(gr, 0, got, n) != 0) {
        free(got);
        return 0;
    }
    int same = n == 0 || memcmp(got, want, n * sizeof *got) == 0;
    free(got);
    return same;
}

typedef struct digram_at {
    uint64_t key;
    uint32_t rule, pos;
} digram_at;

static int by_key(const void *a, const void *b)
{
    const digram_at *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->rule != y->rule)
        return x->rule < y->rule ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Sequitur's two properties and the compact form's bookkeeping; returns
 * the number of violations. */
static int violations(const lp_grammar *gr, size_t n)
{
    int bad = 0;
    uint32_t R = gr->n_rules;
    size_t symbols = gr->first[R];
    uint64_t *occurs = calloc(R, sizeof *occurs);
    digram_at *d = malloc((symbols ? symbols : 1) * sizeof *d);
    size_t nd = 0;
    uint64_t terminals_derived = 0;
    if (!occurs || !d) {
        free(occurs);
        free(d);
        return 1;
    }
    for (uint32_t r = 0; r < R; r++) {
        uint32_t len = gr->first[r + 1] - gr->first[r];
        if (r && len < 2)
            bad++; /* a rule of one symbol */
        uint64_t length = 0;
        for (uint32_t i = gr->first[r]; i < gr->first[r + 1]; i++) {
            uint32_t v = gr->symbol[i];
            if (v & LP_GRAMMAR_RULE) {
                uint32_t c = v & ~LP_GRAMMAR_RULE;
                if (c <= r || c >= R) {
                    bad++; /* not parents first */
                    continue;
                }
                occurs[c]++;
                length += gr->length[c];
            } else {
                length++;
                terminals_derived += gr->uses[r];
            }
            if (i + 1 < gr->first[r + 1])
                d[nd++] = (digram_at){(uint64_t)v << 32 | gr->symbol[i + 1], r, i - gr->first[r]};
        }
        if (length != gr->length[r])
            bad++;
    }
    for (uint32_t r = 1; r < R; r++)
        if (occurs[r] < 2)
            bad++; /* rule utility */
    if (gr->uses[0] != 1 || terminals_derived != n)
        bad++;
    qsort(d, nd, sizeof *d, by_key);
    for (size_t i = 0; i + 1 < nd; i++) {
        if (d[i].key != d[i + 1].key)
            continue;
        int overlapping = d[i].rule == d[i + 1].rule && d[i + 1].pos == d[i].pos + 1;
        int third = i + 2 < nd && d[i + 2].key == d[i].key;
        if (!overlapping || third)
            bad++; /* digram uniqueness */
    }
    free(occurs);
    free(d);
    return bad;
}

static void random_inputs(void)
{
    static const uint32_t alphabets[] = {1, 2, 3, 4, 10, 256, 100000};
    int wrong = 0, broken = 0, pushes_failed = 0;
    for (uint64_t seed = 1; seed <= 420; seed++) {
        lp_rng r;
        lp_rng_seed(&r, seed);
        uint32_t alphabet = alphabets[seed % 7];
        size_t n = (size_t)lp_rng_below(&r, seed % 5 == 0 ? 20000 : 1500);
        uint32_t *in = malloc((n ? n : 1) * sizeof *in);
        lp_sequitur *g;
        LP_CHECK(in && lp_sequitur_create(&g) == 0);
        /* some inputs repeat chunks of themselves, as traces do */
        for (size_t i = 0; i < n; i++) {
            if (i > 50 && lp_rng_below(&r, 4) == 0) {
                size_t from = (size_t)lp_rng_below(&r, i - 20), len = 1 + (size_t)lp_rng_below(&r, 20);
                for (size_t j = 0; j < len && i < n; j++, i++)
                    in[i] = in[from + j];
                i--;
            } else {
                in[i] = (uint32_t)lp_rng_below(&r, alphabet);
            }
        }
        size_t probe = n / 3;
        for (size_t i = 0; i < n; i++) {
            pushes_failed += lp_sequitur_push(g, in[i]) != 0;
            if (i + 1 == probe || i + 1 == n) {
                lp_grammar gr;
                if (lp_sequitur_grammar(g, &gr) != 0) {
                    broken++;
                    continue;
                }
                wrong += !expands_to(&gr, in, i + 1);
                broken += violations(&gr, i + 1);
                lp_grammar_fini(&gr);
            }
        }
        LP_CHECK_EQ_U64(lp_sequitur_length(g), n);
        lp_sequitur_free(g);
        free(in);
    }
    LP_CHECK_EQ_U64(pushes_failed, 0);
    LP_CHECK_EQ_U64(wrong, 0);
    LP_CHECK_EQ_U64(broken, 0);
}

static void build(lp_sequitur **g, lp_grammar *gr, const char *text)
{
    LP_CHECK(lp_sequitur_create(g) == 0);
    for (const char *c = text; *c; c++)
        LP_CHECK(lp_sequitur_push(*g, (uint32_t)*c) == 0);
    LP_CHECK(lp_sequitur_grammar(*g, gr) == 0);
}

/* Writes rule r as text, rules as digits (rule numbers below 10). */
static void rule_text(const lp_grammar *gr, uint32_t r, char *out)
{
    for (uint32_t i = gr->first[r]; i < gr->first[r + 1]; i++) {
        uint32_t v = gr->symbol[i];
        *out++ = (v & LP_GRAMMAR_RULE) ? (char)('0' + (v & ~LP_GRAMMAR_RULE)) : (char)v;
    }
    *out = '\0';
}

static void known_grammars(void)
{
    static const struct {
        const char *in;
        const char *rules[4];
    } cases[] = {
        {"", {""}},
        {"a", {"a"}},
        {"aaa", {"aaa"}},          /* overlapping: no rule */
        {"aaaa", {"11", "aa"}},
        {"abab", {"11", "ab"}},
        {"abcdbc", {"a1d1", "bc"}},
        {"abcabcabc", {"111", "abc"}}, /* the rule for ab is used once in the end: expanded */
        {"abcdbcabcd", {"121", "a2d", "bc"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lp_sequitur *g;
        lp_grammar gr;
        build(&g, &gr, cases[i].in);
        uint32_t want_rules = 0;
        while (want_rules < 4 && cases[i].rules[want_rules])
            want_rules++;
        int ok = gr.n_rules == want_rules;
        for (uint32_t r = 0; ok && r < want_rules; r++) {
            char text[64];
            rule_text(&gr, r, text);
            ok = strcmp(text, cases[i].rules[r]) == 0;
        }
        if (!ok) {
            fprintf(stderr, "grammar of \"%s\":", cases[i].in);
            for (uint32_t r = 0; r < gr.n_rules && r < 10; r++) {
                char text[64];
                rule_text(&gr, r, text);
                fprintf(stderr, " %u -> %s;", r, text);
            }
            fprintf(stderr, "\n");
        }
        LP_CHECK(ok);
        lp_grammar_fini(&gr);
        lp_sequitur_free(g);
    }
}

/* A run of one symbol (rules double) and a long trace of repeated
 * patterns: millions of pushes, checked by expansion. */
static void long_inputs(void)
{
    lp_sequitur *g;
    lp_grammar gr;
    size_t n = 1u << 21;
    uint32_t *in = malloc(n * sizeof *in);
    LP_CHECK(in != NULL);
    if (!in)
        return;
    for (size_t i = 0; i < n; i++)
        in[i] = 7;
    LP_CHECK(lp_sequitur_create(&g) == 0);
    int failed = 0;
    for (size_t i = 0; i < n; i++)
        failed |= lp_sequitur_push(g, in[i]);
    LP_CHECK(failed == 0);
    LP_CHECK(lp_sequitur_grammar(g, &gr) == 0);
    LP_CHECK(expands_to(&gr, in, n));
    LP_CHECK(gr.n_rules <= 64); /* a power of two compresses to about log2 n rules */
    LP_CHECK_EQ_U64(violations(&gr, n), 0);
    lp_grammar_fini(&gr);
    lp_sequitur_free(g);

    /* patterns of 5..60 symbols from a few hundred, with noise */
    lp_rng r;
    lp_rng_seed(&r, 42);
    n = 3000000;
    uint32_t *big = realloc(in, n * sizeof *big);
    LP_CHECK(big != NULL);
    if (!big) {
        free(in);
        return;
    }
    in = big;
    uint32_t patterns[32][60], plen[32];
    for (int p = 0; p < 32; p++) {
        plen[p] = 5 + (uint32_t)lp_rng_below(&r, 56);
        for (uint32_t j = 0; j < plen[p]; j++)
            patterns[p][j] = (uint32_t)lp_rng_below(&r, 300);
    }
    for (size_t i = 0; i < n;) {
        if (lp_rng_below(&r, 3) == 0) {
            in[i++] = 300 + (uint32_t)lp_rng_below(&r, 1u << 20);
            continue;
        }
        int p = (int)lp_rng_below(&r, 32);
        for (uint32_t j = 0; j < plen[p] && i < n; j++)
            in[i++] = patterns[p][j];
    }
    LP_CHECK(lp_sequitur_create(&g) == 0);
    failed = 0;
    for (size_t i = 0; i < n; i++)
        failed |= lp_sequitur_push(g, in[i]);
    LP_CHECK(failed == 0);
    LP_CHECK(lp_sequitur_grammar(g, &gr) == 0);
    LP_CHECK(expands_to(&gr, in, n));
    LP_CHECK_EQ_U64(violations(&gr, n), 0);
    lp_grammar_fini(&gr);
    lp_sequitur_free(g);
    free(in);
}

static void bad_input(void)
{
    lp_sequitur *g;
    LP_CHECK(lp_sequitur_create(&g) == 0);
    LP_CHECK(lp_sequitur_push(g, LP_SEQUITUR_MAX_TERMINAL + 1) == LP_EINVAL);
    LP_CHECK(lp_sequitur_push(g, LP_SEQUITUR_MAX_TERMINAL) == 0);
    LP_CHECK(lp_sequitur_push(g, LP_SEQUITUR_MAX_TERMINAL) == 0);
    LP_CHECK_EQ_U64(lp_sequitur_length(g), 2);
    lp_grammar gr;
    LP_CHECK(lp_sequitur_grammar(g, &gr) == 0);
    uint32_t out[2];
    LP_CHECK(lp_grammar_expand(&gr, 0, out, 1) == LP_EINVAL);
    LP_CHECK(lp_grammar_expand(&gr, gr.n_rules, out, 2) == LP_EINVAL);
    LP_CHECK(lp_grammar_expand(&gr, 0, out, 2) == 0 && out[1] == LP_SEQUITUR_MAX_TERMINAL);
    lp_grammar_fini(&gr);
    lp_grammar_fini(NULL);
    lp_sequitur_free(g);
    lp_sequitur_free(NULL);
}

/* ---- allocation failures ---------------------------------------------------- */

static long budget = -1; /* allocations left before failing; -1: unlimited */

static void *fail_alloc(void *ctx, size_t size)
{
    (void)ctx;
    if (budget == 0)
        return NULL;
    if (budget > 0)
        budget--;
    return malloc(size);
}

static void *fail_realloc(void *ctx, void *p, size_t old, size_t size)
{
    (void)ctx;
    (void)old;
    if (budget == 0)
        return NULL;
    if (budget > 0)
        budget--;
    return realloc(p, size);
}

static void fail_free(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

static void allocation_failures(void)
{
    static const lp_allocator failing = {fail_alloc, fail_realloc, fail_free, NULL};
    enum { N = 30000 };
    static uint32_t in[N];
    lp_rng r;
    lp_rng_seed(&r, 7);
    for (size_t i = 0; i < N; i++)
        in[i] = (uint32_t)lp_rng_below(&r, 3);
    lp_set_allocator(&failing);
    int wrong = 0, refused = 0;
    for (long b = 0; b < 40; b++) {
        lp_sequitur *g = NULL;
        budget = b;
        if (lp_sequitur_create(&g) != 0) {
            LP_CHECK(g == NULL);
            continue;
        }
        int rc = 0;
        for (size_t i = 0; i < N && !rc; i++)
            rc = lp_sequitur_push(g, in[i]);
        if (rc) {
            refused += lp_sequitur_push(g, 1) == rc;
            budget = -1;
            lp_grammar gr;
            if (lp_sequitur_grammar(g, &gr) == 0) {
                wrong += !expands_to(&gr, in, (size_t)lp_sequitur_length(g));
                lp_grammar_fini(&gr);
            } else {
                wrong++;
            }
        }
        budget = -1;
        lp_sequitur_free(g);
    }
    lp_set_allocator(NULL);
    LP_CHECK_EQ_U64(wrong, 0);
    LP_CHECK(refused > 20); /* most budgets ran out inside the pushes */
}

int main(void)
{
    random_inputs();
    known_grammars();
    long_inputs();
    bad_input();
    allocation_failures();
    return lp_test_done();
}
