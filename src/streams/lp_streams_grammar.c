/* streams: Sequitur's grammar in compact form, and expansions.
 *
 * The linked lists Sequitur edits are copied into flat arrays with the
 * rules renumbered parents first (Kahn's algorithm on the rule DAG, the
 * in-degree of a rule being its number of uses), so expansion lengths are
 * one loop from the last rule up and derivation counts one loop down; no
 * pass recurses. Linear in the grammar's size. */
#include "lp_streams_internal.h"

void lp_grammar_fini(lp_grammar *gr)
{
    if (!gr)
        return;
    lp_free(gr->first);
    lp_free(gr->symbol);
    lp_free(gr->length);
    lp_free(gr->uses);
    __builtin_memset(gr, 0, sizeof *gr);
}

int lp_sequitur_grammar(const lp_sequitur *g, lp_grammar *out)
{
    uint32_t n = g->live_rules, top = g->rule_top;
    uint32_t *order = lp_malloc((size_t)n * sizeof *order);   /* new number -> old */
    uint32_t *number = lp_malloc((size_t)top * sizeof *number); /* old -> new */
    uint32_t *indegree = lp_malloc((size_t)top * sizeof *indegree);
    int rc = LP_ENOMEM;

    __builtin_memset(out, 0, sizeof *out);
    if (!order || !number || !indegree)
        goto out;
    for (uint32_t r = 0; r < top; r++)
        indegree[r] = g->guard[r] == LP__NONE ? 0 : g->uses[r];

    /* Kahn's algorithm from the start rule; order doubles as the queue. */
    uint32_t head = 0, tail = 0;
    size_t symbols = 0;
    order[tail++] = 0;
    while (head < tail) {
        uint32_t r = order[head];
        number[r] = head++;
        uint32_t guard = g->guard[r];
        for (uint32_t s = g->next[guard]; s != guard; s = g->next[s]) {
            symbols++;
            uint32_t v = g->val[s];
            if ((v & LP__SYM_TAGS) == LP__SYM_RULE && --indegree[LP__SYM_ID(v)] == 0)
                order[tail++] = LP__SYM_ID(v);
        }
    }
    /* Every live rule is reached unless the invariants broke; export what
     * the start rule derives either way. */
    n = tail;

    out->first = lp_malloc(((size_t)n + 1) * sizeof *out->first);
    out->symbol = lp_malloc((symbols ? symbols : 1) * sizeof *out->symbol);
    out->length = lp_malloc((size_t)n * sizeof *out->length);
    out->uses = lp_calloc(n, sizeof *out->uses);
    if (!out->first || !out->symbol || !out->length || !out->uses)
        goto out;
    out->n_rules = n;

    size_t at = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t guard = g->guard[order[k]];
        out->first[k] = (uint32_t)at;
        for (uint32_t s = g->next[guard]; s != guard; s = g->next[s]) {
            uint32_t v = g->val[s];
            out->symbol[at++] = (v & LP__SYM_TAGS) == LP__SYM_RULE
                                    ? LP_GRAMMAR_RULE | number[LP__SYM_ID(v)]
                                    : v;
        }
    }
    out->first[n] = (uint32_t)at;

    /* Children have higher numbers: lengths from the bottom up, uses from
     * the top down. */
    for (uint32_t k = n; k-- > 0;) {
        uint64_t len = 0;
        for (uint32_t i = out->first[k]; i < out->first[k + 1]; i++) {
            uint32_t v = out->symbol[i];
            len += (v & LP_GRAMMAR_RULE) ? out->length[v & ~LP_GRAMMAR_RULE] : 1;
        }
        out->length[k] = len;
    }
    out->uses[0] = 1;
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t i = out->first[k]; i < out->first[k + 1]; i++) {
            uint32_t v = out->symbol[i];
            if (v & LP_GRAMMAR_RULE)
                out->uses[v & ~LP_GRAMMAR_RULE] += out->uses[k];
        }
    rc = 0;
out:
    if (rc)
        lp_grammar_fini(out);
    lp_free(order);
    lp_free(number);
    lp_free(indegree);
    return rc;
}

int lp_grammar_expand(const lp_grammar *gr, uint32_t rule, uint32_t *out, size_t cap)
{
    if (rule >= gr->n_rules || cap < gr->length[rule])
        return LP_EINVAL;
    /* A path down the grammar visits rules of increasing number, so the
     * stack never holds more than n_rules frames; it starts small because
     * most expansions are short streams. */
    size_t depth_cap = gr->n_rules < 64 ? gr->n_rules : 64, depth = 0, produced = 0;
    uint32_t *at = lp_malloc(depth_cap * sizeof *at); /* next symbol index of each frame */
    uint32_t *end = lp_malloc(depth_cap * sizeof *end);
    if (!at || !end) {
        lp_free(at);
        lp_free(end);
        return LP_ENOMEM;
    }
    at[0] = gr->first[rule];
    end[0] = gr->first[rule + 1];
    depth = 1;
    while (depth) {
        if (at[depth - 1] == end[depth - 1]) {
            depth--;
            continue;
        }
        uint32_t v = gr->symbol[at[depth - 1]++];
        if (!(v & LP_GRAMMAR_RULE)) {
            out[produced++] = v;
            continue;
        }
        if (depth == depth_cap) {
            size_t grown = depth_cap * 2 < gr->n_rules ? depth_cap * 2 : gr->n_rules;
            uint32_t *a = lp_realloc(at, depth_cap * sizeof *a, grown * sizeof *a);
            if (a)
                at = a;
            uint32_t *e = a ? lp_realloc(end, depth_cap * sizeof *e, grown * sizeof *e) : NULL;
            if (!e) {
                lp_free(at);
                lp_free(end);
                return LP_ENOMEM;
            }
            end = e;
            depth_cap = grown;
        }
        uint32_t child = v & ~LP_GRAMMAR_RULE;
        at[depth] = gr->first[child];
        end[depth] = gr->first[child + 1];
        depth++;
    }
    lp_free(at);
    lp_free(end);
    return 0;
}
