/* bursty: check placement. The call-graph analysis of section 4.1 on small
 * graphs whose answers are worked out by hand (the paper's Fig. 5 example,
 * mutual recursion, self loops, address-taken callbacks, leaves, roots,
 * unreached cycles), then on random graphs against plain reference
 * computations (components by mutual reachability, distances by repeated
 * relaxation, equation (3) from its definition) and against the property
 * the set C exists for: every cycle holds a procedure of C. Then k-boring
 * loops, the eight placement names and what each does to entries and
 * loops, and the name parser's errors. */
#include <stdlib.h>
#include <string.h>

#include "lowprof/bursty.h"
#include "../lp_test.h"

#define L LP_BURSTY_FN_LEAF
#define R LP_BURSTY_FN_ROOT
#define A LP_BURSTY_FN_ADDR_TAKEN
#define FAR LP_BURSTY_UNREACHABLE

typedef struct expect {
    uint32_t distance;
    int rfb, in_c;
} expect;

static void check_graph(const char *name, uint32_t n, const uint8_t *flags,
                        const lp_bursty_call *calls, size_t n_calls, const expect *want,
                        const int *same_scc_pairs, size_t n_pairs)
{
    lp_bursty_graph g = {n, flags, n_calls, calls};
    lp_bursty_fn_facts facts[16];
    int rc = lp_bursty_graph_analyse(&g, facts);
    LP_CHECK(rc == 0);
    if (rc)
        return;
    for (uint32_t f = 0; f < n; f++) {
        if (facts[f].distance != want[f].distance || facts[f].recursion_from_below != want[f].rfb ||
            facts[f].in_c != want[f].in_c) {
            fprintf(stderr, "%s: procedure %u: distance %u rfb %u in_c %u\n", name, f,
                    facts[f].distance, facts[f].recursion_from_below, facts[f].in_c);
            LP_CHECK(0);
        }
    }
    /* pairs (a, b, same): whether a and b share a component */
    for (size_t i = 0; i < n_pairs; i++) {
        int a = same_scc_pairs[3 * i], b = same_scc_pairs[3 * i + 1];
        int same = same_scc_pairs[3 * i + 2];
        if ((facts[a].scc == facts[b].scc) != same) {
            fprintf(stderr, "%s: components of %d and %d\n", name, a, b);
            LP_CHECK(0);
        }
    }
}

/* Section 4.1's example (Fig. 5): main the only root, delete_digram the
 * only leaf, {check, match, substitute} the only non-trivial component;
 * only check has recursion from below (substitute, farther from main,
 * calls it), so C = {main, check}. */
static void paper_example(void)
{
    enum { MAIN, CHECK, MATCH, SUBSTITUTE, DELETE_DIGRAM };
    const uint8_t flags[] = {R, 0, 0, 0, L};
    const lp_bursty_call calls[] = {{MAIN, CHECK},       {MAIN, DELETE_DIGRAM},
                                    {CHECK, MATCH},      {MATCH, SUBSTITUTE},
                                    {MATCH, DELETE_DIGRAM}, {SUBSTITUTE, CHECK},
                                    {SUBSTITUTE, DELETE_DIGRAM}, {SUBSTITUTE, CHECK}};
    const expect want[] = {{0, 0, 1}, {1, 1, 1}, {2, 0, 0}, {3, 0, 0}, {1, 0, 0}};
    const int pairs[] = {CHECK, MATCH, 1, MATCH, SUBSTITUTE, 1, MAIN, CHECK, 0,
                         DELETE_DIGRAM, SUBSTITUTE, 0};
    check_graph("fig5", 5, flags, calls, 8, want, pairs, 4);
}

static void hand_graphs(void)
{
    {
        /* Mutual recursion at equal distance: each calls the other from no
         * nearer, so both have recursion from below. */
        const uint8_t flags[] = {R, 0, 0};
        const lp_bursty_call calls[] = {{0, 1}, {0, 2}, {1, 2}, {2, 1}};
        const expect want[] = {{0, 0, 1}, {1, 1, 1}, {1, 1, 1}};
        const int pairs[] = {1, 2, 1, 0, 1, 0};
        check_graph("mutual", 3, flags, calls, 4, want, pairs, 2);
    }
    {
        /* Mutual recursion entered at one end: only the entry gets a check. */
        const uint8_t flags[] = {R, 0, 0};
        const lp_bursty_call calls[] = {{0, 1}, {1, 2}, {2, 1}};
        const expect want[] = {{0, 0, 1}, {1, 1, 1}, {2, 0, 0}};
        check_graph("mutual-entered", 3, flags, calls, 3, want, NULL, 0);
    }
    {
        /* A self loop is recursion from below; a leaf that is a root or has
         * its address taken still needs no check; a root that is a leaf
         * neither. */
        const uint8_t flags[] = {R, 0, L | A, L | R};
        const lp_bursty_call calls[] = {{0, 1}, {1, 1}, {1, 2}};
        const expect want[] = {{0, 0, 1}, {1, 1, 1}, {2, 0, 0}, {0, 0, 0}};
        const int pairs[] = {0, 1, 0, 1, 2, 0};
        check_graph("self", 4, flags, calls, 3, want, pairs, 2);
    }
    {
        /* Callbacks: main calls a sort routine that calls its comparison
         * only through a pointer (no edge); the comparison is address-taken
         * and calls a helper, so it is in C though no root reaches it; the
         * sort routine, neither root nor recursive, is not; an address-taken
         * leaf is not either. */
        const uint8_t flags[] = {R, 0, A, L, A | L};
        const lp_bursty_call calls[] = {{0, 1}, {2, 3}, {0, 3}};
        const expect want[] = {{0, 0, 1}, {1, 0, 0}, {FAR, 0, 1}, {1, 0, 0}, {FAR, 0, 0}};
        check_graph("callback", 5, flags, calls, 3, want, NULL, 0);
    }
    {
        /* A cycle of three entered at two points: a (distance 1) is called
         * by c (distance 1), c by b (distance 2); b only by a (nearer). */
        enum { ROOT, A_, B_, C_ };
        const uint8_t flags[] = {R, 0, 0, 0};
        const lp_bursty_call calls[] = {{ROOT, A_}, {ROOT, C_}, {A_, B_}, {B_, C_}, {C_, A_}};
        const expect want[] = {{0, 0, 1}, {1, 1, 1}, {2, 0, 0}, {1, 1, 1}};
        const int pairs[] = {A_, B_, 1, B_, C_, 1, ROOT, A_, 0};
        check_graph("cycle3", 4, flags, calls, 5, want, pairs, 3);
    }
    {
        /* Two roots: distance is the minimum over roots. A cycle no root
         * reaches: both members count as infinitely far, so both have
         * recursion from below (the choice documented in lp_bursty_setc.c). */
        const uint8_t flags[] = {R, R, 0, 0, 0, 0};
        const lp_bursty_call calls[] = {{0, 2}, {2, 3}, {1, 3}, {4, 5}, {5, 4}};
        const expect want[] = {{0, 0, 1}, {0, 0, 1}, {1, 0, 0}, {1, 0, 0}, {FAR, 1, 1},
                               {FAR, 1, 1}};
        const int pairs[] = {4, 5, 1, 2, 3, 0};
        check_graph("roots", 6, flags, calls, 5, want, pairs, 2);
    }
    {
        /* A root that is also called from inside (main re-entered through a
         * cycle): it is in C as a root and has recursion from below. */
        const uint8_t flags[] = {R, 0};
        const lp_bursty_call calls[] = {{0, 1}, {1, 0}};
        const expect want[] = {{0, 1, 1}, {1, 0, 0}};
        check_graph("root-cycle", 2, flags, calls, 2, want, NULL, 0);
    }
}

static void bad_graphs(void)
{
    lp_bursty_fn_facts facts[4];
    uint32_t scc[4];
    const uint8_t flags[] = {R, L, 0};
    const lp_bursty_call leaf_calls[] = {{0, 1}, {1, 2}};
    lp_bursty_graph g = {3, flags, 2, leaf_calls};
    LP_CHECK(lp_bursty_graph_analyse(&g, facts) == LP_EINVAL); /* a leaf with a call */
    LP_CHECK(lp_bursty_graph_scc(&g, scc, NULL) == 0);         /* components do not care */
    const lp_bursty_call out_of_range[] = {{0, 3}};
    lp_bursty_graph h = {3, flags, 1, out_of_range};
    LP_CHECK(lp_bursty_graph_analyse(&h, facts) == LP_EINVAL);
    LP_CHECK(lp_bursty_graph_scc(&h, scc, NULL) == LP_EINVAL);
    lp_bursty_graph empty = {0, NULL, 0, NULL};
    uint32_t count = 99;
    LP_CHECK(lp_bursty_graph_scc(&empty, NULL, &count) == 0 && count == 0);
    LP_CHECK(lp_bursty_graph_analyse(&empty, NULL) == 0);
}

/* A cycle of 300000 procedures and a chain as long: the iterative Tarjan
 * and the search must not run out of stack. */
static void deep(void)
{
    uint32_t n = 300000;
    uint8_t *flags = calloc(n, 1);
    lp_bursty_call *calls = malloc(n * sizeof *calls);
    lp_bursty_fn_facts *facts = malloc(n * sizeof *facts);
    LP_CHECK(flags && calls && facts);
    if (!flags || !calls || !facts)
        return;
    flags[0] = R;
    for (uint32_t f = 0; f < n; f++)
        calls[f] = (lp_bursty_call){f, (f + 1) % n};
    lp_bursty_graph g = {n, flags, n, calls};
    LP_CHECK(lp_bursty_graph_analyse(&g, facts) == 0);
    uint64_t in_c = 0, same = 0;
    for (uint32_t f = 0; f < n; f++) {
        in_c += facts[f].in_c;
        same += facts[f].scc == facts[0].scc;
    }
    LP_CHECK_EQ_U64(same, n);
    LP_CHECK_EQ_U64(in_c, 1);
    LP_CHECK(facts[0].recursion_from_below && facts[n - 1].distance == n - 1);

    g.n_calls = n - 1; /* the chain: every procedure its own component */
    flags[n - 1] = L;
    uint32_t count = 0;
    uint32_t *scc = malloc(n * sizeof *scc);
    LP_CHECK(scc && lp_bursty_graph_scc(&g, scc, &count) == 0);
    LP_CHECK_EQ_U64(count, n);
    if (scc)
        LP_CHECK(scc[n - 1] == 0 && scc[0] == n - 1); /* callees complete first */
    LP_CHECK(lp_bursty_graph_analyse(&g, facts) == 0);
    in_c = 0;
    for (uint32_t f = 0; f < n; f++)
        in_c += facts[f].in_c;
    LP_CHECK_EQ_U64(in_c, 1);
    free(scc);
    free(flags);
    free(calls);
    free(facts);
}

/* ---- random graphs against plain references ------------------------------ */

#define RN 24

static void reference_reach(uint32_t n, const lp_bursty_call *calls, size_t m,
                            uint8_t reach[RN][RN])
{
    memset(reach, 0, sizeof(uint8_t[RN][RN]));
    for (size_t i = 0; i < m; i++)
        reach[calls[i].caller][calls[i].callee] = 1;
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < n; j++)
                if (reach[i][k] && reach[k][j])
                    reach[i][j] = 1;
}

static void reference_distance(uint32_t n, const uint8_t *flags, const lp_bursty_call *calls,
                               size_t m, uint32_t *dist)
{
    for (uint32_t f = 0; f < n; f++)
        dist[f] = (flags[f] & R) ? 0 : FAR;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < m; i++) {
            uint32_t a = calls[i].caller, b = calls[i].callee;
            if (dist[a] != FAR && dist[a] + 1 < dist[b]) {
                dist[b] = dist[a] + 1;
                changed = 1;
            }
        }
    }
}

/* Whether the graph restricted to procedures outside C has a cycle. */
static int cycle_avoiding_c(uint32_t n, const lp_bursty_call *calls, size_t m,
                            const lp_bursty_fn_facts *facts)
{
    uint32_t indegree[RN] = {0}, queue[RN], head = 0, tail = 0, kept = 0;
    for (size_t i = 0; i < m; i++)
        if (!facts[calls[i].caller].in_c && !facts[calls[i].callee].in_c)
            indegree[calls[i].callee]++;
    for (uint32_t f = 0; f < n; f++)
        if (!facts[f].in_c) {
            kept++;
            if (!indegree[f])
                queue[tail++] = f;
        }
    while (head < tail) {
        uint32_t f = queue[head++];
        for (size_t i = 0; i < m; i++)
            if (calls[i].caller == f && !facts[calls[i].callee].in_c &&
                --indegree[calls[i].callee] == 0)
                queue[tail++] = calls[i].callee;
    }
    return tail != kept;
}

static void random_graphs(void)
{
    int bad_scc = 0, bad_order = 0, bad_dist = 0, bad_c = 0, uncovered = 0, bad_count = 0;
    for (uint64_t seed = 1; seed <= 2000; seed++) {
        lp_rng r;
        lp_rng_seed(&r, seed);
        uint32_t n = 1 + (uint32_t)lp_rng_below(&r, RN);
        size_t m = (size_t)lp_rng_below(&r, 3 * n);
        uint8_t flags[RN];
        lp_bursty_call calls[3 * RN];
        for (uint32_t f = 0; f < n; f++) {
            flags[f] = 0;
            if (lp_rng_below(&r, 5) == 0)
                flags[f] |= R;
            if (lp_rng_below(&r, 6) == 0)
                flags[f] |= A;
        }
        for (size_t i = 0; i < m; i++)
            calls[i] = (lp_bursty_call){(uint32_t)lp_rng_below(&r, n),
                                        (uint32_t)lp_rng_below(&r, n)};
        /* procedures without calls are leaves, unless they call indirectly */
        for (uint32_t f = 0; f < n; f++) {
            int calls_any = 0;
            for (size_t i = 0; i < m; i++)
                calls_any |= calls[i].caller == f;
            if (!calls_any && lp_rng_below(&r, 4) != 0)
                flags[f] |= L;
        }

        lp_bursty_graph g = {n, flags, m, calls};
        lp_bursty_fn_facts facts[RN];
        uint32_t scc[RN], count = 0;
        if (lp_bursty_graph_analyse(&g, facts) != 0 || lp_bursty_graph_scc(&g, scc, &count) != 0) {
            LP_CHECK(0);
            continue;
        }
        uint8_t reach[RN][RN];
        uint32_t dist[RN];
        reference_reach(n, calls, m, reach);
        reference_distance(n, flags, calls, m, dist);
        uint32_t max_scc = 0;
        for (uint32_t a = 0; a < n; a++) {
            bad_scc += scc[a] != facts[a].scc;
            max_scc = scc[a] > max_scc ? scc[a] : max_scc;
            for (uint32_t b = 0; b < n; b++) {
                int same = a == b || (reach[a][b] && reach[b][a]);
                bad_scc += (facts[a].scc == facts[b].scc) != same;
            }
        }
        bad_count += count != max_scc + 1;
        for (size_t i = 0; i < m; i++)
            bad_order += facts[calls[i].callee].scc > facts[calls[i].caller].scc;
        for (uint32_t f = 0; f < n; f++) {
            bad_dist += facts[f].distance != dist[f];
            int rfb = 0;
            for (size_t i = 0; i < m; i++) {
                uint32_t caller = calls[i].caller;
                int same = caller == f || (reach[caller][f] && reach[f][caller]);
                if (calls[i].callee == f && same && dist[caller] >= dist[f])
                    rfb = 1;
            }
            int in_c = !(flags[f] & L) && ((flags[f] & (R | A)) || rfb);
            bad_c += facts[f].recursion_from_below != rfb || facts[f].in_c != in_c;
        }
        uncovered += cycle_avoiding_c(n, calls, m, facts);
    }
    LP_CHECK_EQ_U64(bad_scc, 0);
    LP_CHECK_EQ_U64(bad_count, 0);
    LP_CHECK_EQ_U64(bad_order, 0);
    LP_CHECK_EQ_U64(bad_dist, 0);
    LP_CHECK_EQ_U64(bad_c, 0);
    LP_CHECK_EQ_U64(uncovered, 0);
}

/* ---- loops and placements ------------------------------------------------ */

static void boring_loops(void)
{
    lp_bursty_loop copy = {4, 0}, compare = {2, 0}, calling = {0, 1}, busy = {11, 0};
    lp_bursty_loop empty = {0, 0};
    LP_CHECK(lp_bursty_loop_is_boring(&copy, 4));
    LP_CHECK(!lp_bursty_loop_is_boring(&copy, 3));
    LP_CHECK(lp_bursty_loop_is_boring(&compare, 4));
    LP_CHECK(!lp_bursty_loop_is_boring(&calling, 4)); /* a call is never boring */
    LP_CHECK(!lp_bursty_loop_is_boring(&calling, UINT32_MAX));
    LP_CHECK(!lp_bursty_loop_is_boring(&busy, 10));
    LP_CHECK(lp_bursty_loop_is_boring(&busy, 11));
    LP_CHECK(lp_bursty_loop_is_boring(&empty, 0));
}

static void placements(void)
{
    /* name, entry, loop, k; then entry checks for a leaf, a non-leaf in C,
     * a non-leaf outside C; then the loop bits for loops of 3 and 7 events
     * without calls and one of 0 events with a call */
    const unsigned CI = LP_BURSTY_LOOP_CHECK | LP_BURSTY_LOOP_INSTRUMENT;
    const unsigned I = LP_BURSTY_LOOP_INSTRUMENT;
    static const struct {
        const char *name;
        int entry, loop;
        uint32_t k;
        int leaf, in_c, out_c;
        unsigned l3, l7, lcall;
    } cases[] = {
        {"orig", LP_BURSTY_ENTRY_ALL, LP_BURSTY_LOOP_ALL, 0, 1, 1, 1, 3, 3, 3},
        {"EL", LP_BURSTY_ENTRY_NON_LEAF, LP_BURSTY_LOOP_ALL, 0, 0, 1, 1, 3, 3, 3},
        {"EC", LP_BURSTY_ENTRY_SET_C, LP_BURSTY_LOOP_ALL, 0, 0, 1, 0, 3, 3, 3},
        {"EN", LP_BURSTY_ENTRY_NONE, LP_BURSTY_LOOP_ALL, 0, 0, 0, 0, 3, 3, 3},
        {"L4", LP_BURSTY_ENTRY_ALL, LP_BURSTY_LOOP_SKIP_BORING, 4, 1, 1, 1, 0, 3, 3},
        {"L10", LP_BURSTY_ENTRY_ALL, LP_BURSTY_LOOP_SKIP_BORING, 10, 1, 1, 1, 0, 0, 3},
        {"LN", LP_BURSTY_ENTRY_ALL, LP_BURSTY_LOOP_NONE, 0, 1, 1, 1, 2, 2, 2},
        {"EC+L4", LP_BURSTY_ENTRY_SET_C, LP_BURSTY_LOOP_SKIP_BORING, 4, 0, 1, 0, 0, 3, 3},
    };
    LP_CHECK(CI == 3 && I == 2);
    lp_bursty_fn_facts in_c = {0, 1, 1, 1}, out_c = {0, 1, 0, 0};
    lp_bursty_loop l3 = {3, 0}, l7 = {7, 0}, lcall = {0, 1};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lp_bursty_placement p = {9, 9, 9};
        size_t pos = 99;
        int rc = lp_bursty_placement_parse(cases[i].name, strlen(cases[i].name), &p, &pos);
        LP_CHECK(rc == 0);
        LP_CHECK(p.entry == cases[i].entry && p.loop == cases[i].loop && p.k == cases[i].k);
        LP_CHECK(lp_bursty_entry_has_check(&p, L, NULL) == cases[i].leaf);
        LP_CHECK(lp_bursty_entry_has_check(&p, 0, &in_c) == cases[i].in_c);
        LP_CHECK(lp_bursty_entry_has_check(&p, 0, &out_c) == cases[i].out_c);
        LP_CHECK(lp_bursty_loop_placement(&p, &l3) == cases[i].l3);
        LP_CHECK(lp_bursty_loop_placement(&p, &l7) == cases[i].l7);
        LP_CHECK(lp_bursty_loop_placement(&p, &lcall) == cases[i].lcall);
        char buf[32];
        size_t len = lp_bursty_placement_format(&p, buf, sizeof buf);
        LP_CHECK(len == strlen(cases[i].name) && strcmp(buf, cases[i].name) == 0);
    }
    /* beyond the paper's eight: other k, other combinations */
    lp_bursty_placement p;
    LP_CHECK(lp_bursty_placement_parse("EL+LN", 5, &p, NULL) == 0);
    LP_CHECK(p.entry == LP_BURSTY_ENTRY_NON_LEAF && p.loop == LP_BURSTY_LOOP_NONE);
    LP_CHECK(lp_bursty_placement_parse("L4294967295", 11, &p, NULL) == 0 && p.k == UINT32_MAX);
    LP_CHECK(lp_bursty_placement_parse("EC+L4 trailing", 5, &p, NULL) == 0); /* len bounds it */
    char small[4];
    LP_CHECK(lp_bursty_placement_format(&p, small, sizeof small) == 5 && strcmp(small, "EC+") == 0);
    LP_CHECK(lp_bursty_placement_format(&p, NULL, 0) == 5);
    lp_bursty_placement odd = {7, 0, 0};
    LP_CHECK(lp_bursty_placement_format(&odd, small, sizeof small) == 0);
}

static void placement_errors(void)
{
    static const struct {
        const char *text;
        size_t pos;
    } cases[] = {
        {"", 0},      {"ec", 0},    {"EX", 1},     {"E", 1},       {"EC+", 3},
        {"EC+", 3},   {"ECL4", 2},  {"L", 1},      {"LX", 1},      {"L4x", 2},
        {"EC+L4+", 5}, {"orig+L4", 0}, {"Orig", 0}, {"L4294967296", 10}, {"EC+EL", 3},
        {"LN4", 2},   {" EC", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lp_bursty_placement p = {1, 1, 77};
        size_t pos = 99;
        int rc = lp_bursty_placement_parse(cases[i].text, strlen(cases[i].text), &p, &pos);
        if (rc != LP_ESPEC || pos != cases[i].pos) {
            fprintf(stderr, "parse \"%s\": rc %d pos %zu\n", cases[i].text, rc, pos);
            LP_CHECK(0);
        }
        LP_CHECK(p.entry == 1 && p.loop == 1 && p.k == 77); /* untouched */
    }
    lp_bursty_placement p;
    LP_CHECK(lp_bursty_placement_parse(NULL, 3, &p, NULL) == LP_ESPEC);
    LP_CHECK(strcmp(lp_strerror(LP_ESPEC), lp_strerror(0)) != 0);
}

int main(void)
{
    paper_example();
    hand_graphs();
    bad_graphs();
    deep();
    random_graphs();
    boring_loops();
    placements();
    placement_errors();
    return lp_test_done();
}
