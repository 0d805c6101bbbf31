/* streams: hot data streams from a Sequitur grammar (Hirzel and Chilimbi,
 * section 5.2; Chilimbi, PLDI 2001).
 *
 * A rule's expansion is a candidate stream. Walking the rules parents
 * first, each rule receives the uses its parents did not claim (its cold
 * uses; the start rule has one). A rule whose length is in range and whose
 * heat, length times cold uses, reaches the threshold is hot: it claims its
 * uses, and its children get nothing from it, so no reference is counted
 * twice. Otherwise it hands its cold uses to each child occurrence. One
 * such walk is linear in the grammar; the threshold search repeats it
 * about log2(references) times.
 *
 * A rule longer than the longest stream whose body holds no rule (a
 * sequence that always repeats whole, which Sequitur keeps flat) would
 * otherwise hide every stream inside it; it stands for its prefix of the
 * longest stream's length instead, hot by the same rule. (Our reading of
 * "streams of length 10-40": the paper does not say how a longer hot
 * sequence is cut.)
 *
 * A rule whose body is one rule repeated (Sequitur's [X X] for a stream
 * that runs twice back to back, as a loop's second pass over the same
 * data) is not a stream of its own when X can be one: it hands its uses
 * down, and X counts both occurrences. The same stream is then the same
 * stream however many times in a row a trace happens to repeat it. (Ours
 * too: the paper's streams are subsequences, and one of them repeated is
 * not a new one.)
 *
 * The threshold (section 5.2: the hot streams together account for 90 %
 * of the references) is the largest heat that reaches that coverage. Most
 * references of a real trace may lie in no sequence of a stream's length
 * that repeats (a pass over an array touches each address once), so
 * coverage can stay below 90 % even with every candidate hot. A threshold
 * of 1 would then make a sequence seen twice hot, and the many address
 * variants of one loop iteration, each repeating a few times, would crowd
 * out the streams that repeat thousands of times. The paper does not say
 * what to do then; our choice is to aim for 90 % of what the candidates
 * can cover at most (the coverage at threshold 1), so that "hot" keeps its
 * meaning: the fewest, hottest streams that account for 90 % of the
 * trace's regularity. target_met still says whether 90 % of all
 * references was reached.
 *
 * The start rule is the trace itself, occurring once: never a stream. */
#include "lp_streams_internal.h"

const lp_streams_config lp_streams_paper = {10, 40, 0.90};

typedef struct hot_walk {
    const lp_grammar *gr;
    uint32_t min_length, max_length;
    uint64_t *cold; /* n_rules */
} hot_walk;

/* Whether rule r's body is all terminals. */
static int flat(const lp_grammar *gr, uint32_t r)
{
    for (uint32_t i = gr->first[r]; i < gr->first[r + 1]; i++)
        if (gr->symbol[i] & LP_GRAMMAR_RULE)
            return 0;
    return 1;
}

/* Whether rule r's body is one rule repeated, that rule long enough to be
 * a stream itself: r is then that stream's occurrences back to back. */
static int repeats(const hot_walk *w, uint32_t r)
{
    const lp_grammar *gr = w->gr;
    uint32_t a = gr->first[r], b = gr->first[r + 1], v = gr->symbol[a];
    if (b - a < 2 || !(v & LP_GRAMMAR_RULE) || gr->length[v & ~LP_GRAMMAR_RULE] < w->min_length)
        return 0;
    for (uint32_t i = a + 1; i < b; i++)
        if (gr->symbol[i] != v)
            return 0;
    return 1;
}

/* The length rule r counts as a stream with, or 0 when it cannot be one:
 * its own length in range, or for a longer flat rule the longest stream's
 * length (its prefix). */
static uint64_t stream_length(const hot_walk *w, uint32_t r)
{
    uint64_t len = w->gr->length[r];
    if (r == 0 || len < w->min_length || repeats(w, r))
        return 0;
    if (len <= w->max_length)
        return len;
    return flat(w->gr, r) ? w->max_length : 0;
}

/* References covered by the streams hot at threshold; with hot not NULL,
 * marks the hot rules there. */
static uint64_t covered_at(const hot_walk *w, uint64_t threshold, uint8_t *hot)
{
    const lp_grammar *gr = w->gr;
    uint64_t covered = 0;
    __builtin_memset(w->cold, 0, (size_t)gr->n_rules * sizeof *w->cold);
    w->cold[0] = 1;
    for (uint32_t r = 0; r < gr->n_rules; r++) {
        uint64_t cold = w->cold[r], len = stream_length(w, r);
        if (!cold)
            continue;
        if (len && len * cold >= threshold) {
            covered += len * cold;
            if (hot)
                hot[r] = 1;
            continue;
        }
        for (uint32_t i = gr->first[r]; i < gr->first[r + 1]; i++) {
            uint32_t v = gr->symbol[i];
            if (v & LP_GRAMMAR_RULE)
                w->cold[v & ~LP_GRAMMAR_RULE] += cold;
        }
    }
    return covered;
}

/* Whether covered references reach share of total, in integers where the
 * share allows (covered / total >= share). */
static int meets(uint64_t covered, uint64_t total, double share)
{
    return (double)covered >= share * (double)total;
}

/* The largest threshold whose coverage meets the target, by bisection
 * (see lp_streams_builder_find). When even threshold 1 falls short, the
 * target is the share of what the streams can cover at most, coverage(1):
 * see the file's comment. */
static uint64_t choose_threshold(const hot_walk *w, uint64_t total, double share)
{
    uint64_t lo = 1, hi = total + 1; /* coverage(hi) = 0: no heat exceeds the trace */
    uint64_t most = covered_at(w, lo, NULL);
    uint64_t goal = meets(most, total, share) ? total : most;
    if (!most)
        return 1;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (meets(covered_at(w, mid, NULL), goal, share))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static int same_refs(const lp_data_ref *a, const lp_data_ref *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (a[i].pc != b[i].pc || a[i].addr != b[i].addr)
            return 0;
    return 1;
}

void lp_streams_free(lp_streams *s)
{
    if (!s)
        return;
    lp_free(s->stream);
    lp_free(s->ref_storage);
    lp_free(s);
}

/* Builds the result from the hot rules marked in hot. */
static int collect(const lp_streams_builder *b, const hot_walk *w, const uint64_t *cold,
                   const uint8_t *hot, lp_streams *s)
{
    const lp_grammar *gr = w->gr;
    size_t count = 0, total_refs = 0;
    uint64_t longest = 0;
    for (uint32_t r = 0; r < gr->n_rules; r++)
        if (hot[r]) {
            count++;
            total_refs += (size_t)gr->length[r];
            longest = gr->length[r] > longest ? gr->length[r] : longest; /* enough for a prefix */
        }
    if (!count)
        return 0;

    lp_stream *stream = lp_malloc(count * sizeof *stream);
    lp_data_ref *storage = lp_malloc(total_refs * sizeof *storage);
    uint32_t *terminals = lp_malloc((size_t)longest * sizeof *terminals);
    lp_entry *order = lp_malloc(count * sizeof *order);
    lp_table seen; /* key (ref hash, length): v[0] stream index + 1 */
    int rc = lp_table_init(&seen, count);
    if (!stream || !storage || !terminals || !order || rc) {
        rc = LP_ENOMEM;
        goto out;
    }

    size_t n = 0, used = 0;
    for (uint32_t r = 0; r < gr->n_rules; r++) {
        if (!hot[r])
            continue;
        /* A long flat rule's prefix (stream_length): its body is its
         * expansion, so the first len symbols are the prefix's terminals. */
        uint32_t len = (uint32_t)stream_length(w, r);
        if (len == gr->length[r]) {
            if ((rc = lp_grammar_expand(gr, r, terminals, len)) != 0)
                goto out;
        } else {
            for (uint32_t i = 0; i < len; i++)
                terminals[i] = gr->symbol[gr->first[r] + i];
        }
        lp_data_ref *refs = storage + used;
        for (uint32_t i = 0; i < len; i++)
            refs[i] = lp_streams_builder_ref(b, terminals[i]);
        /* Two rules with one expansion are one stream. */
        lp_key k = {lp__streams_ref_hash(refs, len), len};
        lp_entry *e = k.a == UINT64_MAX && k.b == UINT64_MAX ? NULL : lp_table_upsert(&seen, k);
        if (e && e->v[0] && same_refs(stream[e->v[0] - 1].refs, refs, len)) {
            stream[e->v[0] - 1].frequency += cold[r];
            continue;
        }
        if (e && !e->v[0])
            e->v[0] = n + 1;
        stream[n].refs = refs;
        stream[n].length = len;
        stream[n].frequency = cold[r];
        stream[n].signature = lp_streams_signature(refs, len);
        n++;
        used += len;
    }

    /* Hottest first; lp_entry_count_greater breaks ties by key, here
     * (signature, position in rule order). */
    for (size_t i = 0; i < n; i++) {
        stream[i].heat = stream[i].length * stream[i].frequency;
        order[i].key.a = stream[i].signature;
        order[i].key.b = i;
        order[i].v[0] = stream[i].heat;
        order[i].v[1] = 0;
    }
    lp_entries_sort(order, n, lp_entry_count_greater);
    s->stream = lp_malloc(n * sizeof *s->stream);
    if (!s->stream) {
        rc = LP_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        s->stream[i] = stream[order[i].key.b];
    s->count = n;
    s->ref_storage = storage;
    storage = NULL;
    rc = 0;
out:
    lp_free(stream);
    lp_free(storage);
    lp_free(terminals);
    lp_free(order);
    lp_table_fini(&seen);
    return rc;
}

int lp_streams_builder_find(const lp_streams_builder *b, const lp_streams_config *cfg,
                            lp_streams **out)
{
    if (!cfg)
        cfg = &lp_streams_paper;
    *out = NULL;
    if (cfg->min_length < 2 || cfg->max_length < cfg->min_length || !(cfg->coverage > 0.0) ||
        cfg->coverage > 1.0)
        return LP_EINVAL;

    lp_streams *s = lp_calloc(1, sizeof *s);
    lp_grammar gr;
    uint8_t *hot = NULL;
    hot_walk w = {&gr, cfg->min_length, cfg->max_length, NULL};
    int rc = LP_ENOMEM;

    __builtin_memset(&gr, 0, sizeof gr);
    if (!s || (rc = lp_sequitur_grammar(lp_streams_builder_sequitur(b), &gr)) != 0)
        goto fail;
    rc = LP_ENOMEM;
    w.cold = lp_malloc((size_t)gr.n_rules * sizeof *w.cold);
    hot = lp_calloc(gr.n_rules, 1);
    if (!w.cold || !hot)
        goto fail;

    s->references = lp_streams_builder_length(b);
    s->threshold = choose_threshold(&w, s->references, cfg->coverage);
    s->covered = covered_at(&w, s->threshold, hot);
    s->coverage = s->references ? (double)s->covered / (double)s->references : 0.0;
    s->target_met = s->references && meets(s->covered, s->references, cfg->coverage);
    if ((rc = collect(b, &w, w.cold, hot, s)) != 0)
        goto fail;
    lp_free(w.cold);
    lp_free(hot);
    lp_grammar_fini(&gr);
    *out = s;
    return 0;
fail:
    lp_free(w.cold);
    lp_free(hot);
    lp_grammar_fini(&gr);
    lp_streams_free(s);
    return rc;
}
