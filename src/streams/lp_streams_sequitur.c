/* streams: Sequitur (Nevill-Manning and Witten, "Identifying hierarchical
 * structure in sequences: a linear-time algorithm", 1997), the grammar
 * that Chilimbi's hot data streams and Larus's whole program paths are
 * found on.
 *
 * Two properties hold after every push: no pair of adjacent symbols
 * (digram) occurs twice in the grammar without overlapping, and every rule
 * but the start rule is used at least twice. A new digram that repeats one
 * already in the index becomes a rule (or reuses the rule that is exactly
 * that digram); a rule whose uses fall to one is expanded in place.
 *
 * Tuned for traces of many millions of references: nodes and rules are
 * 32-bit indices into arrays (12 bytes a symbol), and the cascade of
 * checks one push may start is kept on an explicit list instead of the
 * recursion of the published algorithm, so depth never grows with the
 * grammar. Every change of adjacency queues the left node for a check;
 * checking is idempotent (it acts only on a digram that really repeats),
 * so queued nodes that have changed since are harmless. The same holds for
 * overlapping runs such as "aaa": when the index forgets one occurrence of
 * a digram of two equal symbols, its overlapping neighbours are queued so
 * one of them takes its place. */
#include "lp_streams_internal.h"

/* ---- storage -------------------------------------------------------------- */

static int set_error(lp_sequitur *g, int code)
{
    if (!g->error)
        g->error = code;
    return g->error;
}

static int grow_nodes(lp_sequitur *g, uint32_t need)
{
    if ((uint64_t)g->node_top + need <= g->node_cap)
        return 0;
    if (g->node_top > LP__NONE - 1 - need)
        return set_error(g, LP_ELIMIT);
    uint64_t want = (uint64_t)g->node_top + need, cap = g->node_cap ? g->node_cap : 1024;
    while (cap < want)
        cap *= 2;
    if (cap > LP__NONE - 1)
        cap = LP__NONE - 1;
    size_t old = (size_t)g->node_cap * sizeof(uint32_t), now = (size_t)cap * sizeof(uint32_t);
    uint32_t *p;
    if (!(p = lp_realloc(g->val, old, now)))
        return set_error(g, LP_ENOMEM);
    g->val = p;
    if (!(p = lp_realloc(g->prev, old, now)))
        return set_error(g, LP_ENOMEM);
    g->prev = p;
    if (!(p = lp_realloc(g->next, old, now)))
        return set_error(g, LP_ENOMEM);
    g->next = p;
    g->node_cap = (uint32_t)cap;
    return 0;
}

static int grow_rules(lp_sequitur *g)
{
    if (g->rule_free != LP__NONE || g->rule_top < g->rule_cap)
        return 0;
    if (g->rule_top >= LP__MAX_RULES)
        return set_error(g, LP_ELIMIT);
    uint32_t cap = g->rule_cap ? g->rule_cap * 2 : 256;
    if (cap > LP__MAX_RULES)
        cap = LP__MAX_RULES;
    size_t old = (size_t)g->rule_cap * sizeof(uint32_t), now = (size_t)cap * sizeof(uint32_t);
    uint32_t *p;
    if (!(p = lp_realloc(g->guard, old, now)))
        return set_error(g, LP_ENOMEM);
    g->guard = p;
    if (!(p = lp_realloc(g->uses, old, now)))
        return set_error(g, LP_ENOMEM);
    g->uses = p;
    g->rule_cap = cap;
    return 0;
}

/* Room for everything one match or one push allocates: at most three
 * nodes, one rule and one index entry. Taken before anything changes, so a
 * failure leaves a consistent grammar. */
static int reserve(lp_sequitur *g)
{
    if (grow_nodes(g, 4) || grow_rules(g))
        return g->error;
    if (lp__digrams_reserve(&g->digrams, 4))
        return set_error(g, LP_ENOMEM);
    return 0;
}

static uint32_t node_new(lp_sequitur *g, uint32_t v)
{
    uint32_t n = g->node_free;
    if (n != LP__NONE)
        g->node_free = g->next[n];
    else
        n = g->node_top++;
    g->val[n] = v;
    g->prev[n] = g->next[n] = LP__NONE;
    return n;
}

static void node_free(lp_sequitur *g, uint32_t n)
{
    g->val[n] = LP__SYM_FREE;
    g->next[n] = g->node_free;
    g->node_free = n;
}

static void adjoin(lp_sequitur *g, uint32_t a, uint32_t b)
{
    g->next[a] = b;
    g->prev[b] = a;
}

static uint32_t rule_new(lp_sequitur *g)
{
    uint32_t r = g->rule_free;
    if (r != LP__NONE)
        g->rule_free = g->uses[r];
    else
        r = g->rule_top++;
    uint32_t guard = node_new(g, LP__SYM_GUARD | r);
    adjoin(g, guard, guard);
    g->guard[r] = guard;
    g->uses[r] = 0;
    g->live_rules++;
    return r;
}

static void rule_free(lp_sequitur *g, uint32_t r)
{
    node_free(g, g->guard[r]);
    g->guard[r] = LP__NONE;
    g->uses[r] = g->rule_free;
    g->rule_free = r;
    g->live_rules--;
}

/* ---- digrams ---------------------------------------------------------------- */

static int is_guard(uint32_t v)
{
    return (v & LP__SYM_TAGS) == LP__SYM_GUARD;
}

static int is_rule(uint32_t v)
{
    return (v & LP__SYM_TAGS) == LP__SYM_RULE;
}

static uint64_t digram_key(uint32_t a, uint32_t b)
{
    return (uint64_t)a << 32 | b;
}

static void want_check(lp_sequitur *g, uint32_t n)
{
    if (n == LP__NONE)
        return;
    if (g->pending_len == g->pending_cap) {
        size_t cap = g->pending_cap ? g->pending_cap * 2 : 64;
        uint32_t *p = lp_realloc(g->pending, g->pending_cap * sizeof *p, cap * sizeof *p);
        if (!p) {
            /* A lost check costs uniqueness of one digram, never correctness
             * of the expansion; the error stops further pushes. */
            set_error(g, LP_ENOMEM);
            return;
        }
        g->pending = p;
        g->pending_cap = cap;
    }
    g->pending[g->pending_len++] = n;
}

/* The digram starting at n is about to break: drop it from the index if the
 * index holds it at n. */
static void forget(lp_sequitur *g, uint32_t n)
{
    uint32_t v = g->val[n];
    if (is_guard(v))
        return;
    uint32_t x = g->next[n], w = g->val[x];
    if (is_guard(w))
        return;
    uint64_t key = digram_key(v, w);
    if (lp__digrams_get(&g->digrams, key) != n)
        return;
    lp__digrams_del(&g->digrams, key);
    if (v == w) { /* "aaa": an overlapping neighbour may now stand for it */
        want_check(g, g->prev[n]);
        want_check(g, x);
    }
}

static void drop_use(lp_sequitur *g, uint32_t v)
{
    if (is_rule(v))
        g->uses[LP__SYM_ID(v)]--;
}

/* Replaces the digram at a (a and its successor) with one use of rule r. */
static void replace_pair(lp_sequitur *g, uint32_t a, uint32_t r)
{
    uint32_t b = g->next[a], p = g->prev[a], c = g->next[b];
    forget(g, p);
    forget(g, a);
    forget(g, b);
    drop_use(g, g->val[a]);
    drop_use(g, g->val[b]);
    node_free(g, a);
    node_free(g, b);
    uint32_t n = node_new(g, LP__SYM_RULE | r);
    g->uses[r]++;
    adjoin(g, p, n);
    adjoin(g, n, c);
    want_check(g, p);
    want_check(g, n);
}

/* Rule utility: n is the last use of its rule; put the rule's symbols in
 * its place and delete the rule. */
static void expand(lp_sequitur *g, uint32_t n)
{
    uint32_t r = LP__SYM_ID(g->val[n]), guard = g->guard[r];
    uint32_t first = g->next[guard], last = g->prev[guard];
    uint32_t p = g->prev[n], c = g->next[n];
    forget(g, p);
    forget(g, n);
    adjoin(g, p, first);
    adjoin(g, last, c);
    node_free(g, n);
    rule_free(g, r);
    want_check(g, p);
    want_check(g, last);
}

static int is_whole_rule(const lp_sequitur *g, uint32_t a)
{
    return is_guard(g->val[g->prev[a]]) && is_guard(g->val[g->next[g->next[a]]]);
}

/* The digram at ss repeats the one the index holds at m, without overlap. */
static void match(lp_sequitur *g, uint32_t ss, uint32_t m)
{
    if (reserve(g))
        return;
    uint64_t key = digram_key(g->val[m], g->val[g->next[m]]);
    uint32_t r;
    if (is_whole_rule(g, m)) {
        r = LP__SYM_ID(g->val[g->prev[m]]);
        replace_pair(g, ss, r);
    } else if (is_whole_rule(g, ss)) {
        /* Not seen in testing with symbols pushed in order, but the
         * deferred checks do not rule it out; reusing the rule keeps every
         * rule at two symbols or more. */
        r = LP__SYM_ID(g->val[g->prev[ss]]);
        replace_pair(g, m, r);
        lp__digrams_put(&g->digrams, key, ss);
    } else {
        r = rule_new(g);
        uint32_t guard = g->guard[r];
        uint32_t x = node_new(g, g->val[m]), y = node_new(g, g->val[g->next[m]]);
        if (is_rule(g->val[x]))
            g->uses[LP__SYM_ID(g->val[x])]++;
        if (is_rule(g->val[y]))
            g->uses[LP__SYM_ID(g->val[y])]++;
        adjoin(g, guard, x);
        adjoin(g, x, y);
        adjoin(g, y, guard);
        replace_pair(g, m, r);
        replace_pair(g, ss, r);
        lp__digrams_put(&g->digrams, key, x);
    }
    /* The symbols that lost uses are r's first and last; a rule among them
     * left with one use has that use inside r. (With symbols pushed in
     * order it is the first; the published algorithm looks only there.) */
    uint32_t first = g->next[g->guard[r]];
    if (is_rule(g->val[first]) && g->uses[LP__SYM_ID(g->val[first])] == 1)
        expand(g, first);
    uint32_t last = g->prev[g->guard[r]];
    if (is_rule(g->val[last]) && g->uses[LP__SYM_ID(g->val[last])] == 1)
        expand(g, last);
}

/* Enforces digram uniqueness for the digram starting at n, if there is one. */
static void check(lp_sequitur *g, uint32_t n)
{
    uint32_t v = g->val[n];
    if (v == LP__SYM_FREE || is_guard(v))
        return;
    uint32_t x = g->next[n], w = g->val[x];
    if (is_guard(w))
        return;
    uint64_t key = digram_key(v, w);
    uint32_t m = lp__digrams_get(&g->digrams, key);
    if (m == LP__NONE) {
        if (lp__digrams_reserve(&g->digrams, 1)) {
            set_error(g, LP_ENOMEM);
            return;
        }
        lp__digrams_put(&g->digrams, key, n);
        return;
    }
    if (m == n || g->next[m] == n || x == m)
        return; /* this very occurrence, or one overlapping it */
    match(g, n, m);
}

/* ---- the interface ------------------------------------------------------------ */

int lp_sequitur_create(lp_sequitur **out)
{
    lp_sequitur *g = lp_calloc(1, sizeof *g);
    *out = NULL;
    if (!g)
        return LP_ENOMEM;
    g->node_free = LP__NONE;
    g->rule_free = LP__NONE;
    lp__digrams_init(&g->digrams);
    if (reserve(g)) {
        lp_sequitur_free(g);
        return LP_ENOMEM;
    }
    rule_new(g); /* rule 0: the start rule */
    *out = g;
    return 0;
}

void lp_sequitur_free(lp_sequitur *g)
{
    if (!g)
        return;
    lp_free(g->val);
    lp_free(g->prev);
    lp_free(g->next);
    lp_free(g->guard);
    lp_free(g->uses);
    lp_free(g->pending);
    lp__digrams_fini(&g->digrams);
    lp_free(g);
}

int lp_sequitur_push(lp_sequitur *g, uint32_t terminal)
{
    if (g->error)
        return g->error;
    if (terminal > LP_SEQUITUR_MAX_TERMINAL)
        return LP_EINVAL;
    if (reserve(g))
        return g->error;
    uint32_t guard = g->guard[0], last = g->prev[guard];
    uint32_t t = node_new(g, terminal);
    adjoin(g, last, t);
    adjoin(g, t, guard);
    g->length++;
    want_check(g, last);
    while (g->pending_len && !g->error)
        check(g, g->pending[--g->pending_len]);
    return g->error;
}

uint64_t lp_sequitur_length(const lp_sequitur *g)
{
    return g->length;
}
