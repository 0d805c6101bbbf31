/* streams: the reference builder, which numbers each distinct (pc,
 * address) pair in order of first appearance and feeds the numbers to
 * Sequitur, keeping the table back from number to reference.
 *
 * A cut (lp_streams_builder_cut) is a terminal of its own that occurs once:
 * references count up from 0, cuts down from LP_SEQUITUR_MAX_TERMINAL, and
 * the two ranges must not meet. Since no pair holding a cut repeats, no
 * rule spans one, and no cut is ever looked up as a reference.
 *
 * One lookup in core's lp_table per reference; memory is the grammar plus
 * two table words and one lp_data_ref per distinct reference. */
#include "lp_streams_internal.h"

struct lp_streams_builder {
    lp_sequitur *grammar;
    lp_table number; /* key (pc, addr): v[0] its terminal + 1 */
    lp_data_ref *refs; /* terminal -> reference */
    size_t n_refs, refs_cap;
    uint64_t cuts;     /* cut terminals pushed */
    int after_ref;     /* the last terminal pushed was a reference */
    uint32_t all_ones; /* terminal + 1 of the pair lp_table cannot hold, or 0 */
    int error;
};

int lp_streams_builder_create(lp_streams_builder **out)
{
    lp_streams_builder *b = lp_calloc(1, sizeof *b);
    *out = NULL;
    if (!b)
        return LP_ENOMEM;
    if (lp_sequitur_create(&b->grammar) || lp_table_init(&b->number, 0)) {
        lp_streams_builder_free(b);
        return LP_ENOMEM;
    }
    *out = b;
    return 0;
}

void lp_streams_builder_free(lp_streams_builder *b)
{
    if (!b)
        return;
    lp_sequitur_free(b->grammar);
    lp_table_fini(&b->number);
    lp_free(b->refs);
    lp_free(b);
}

/* The terminal of (pc, addr), numbering it if new; LP__NONE with b->error
 * set on failure. */
static uint32_t terminal_of(lp_streams_builder *b, uint64_t pc, uint64_t addr)
{
    lp_entry *e = NULL;
    if (pc == UINT64_MAX && addr == UINT64_MAX) {
        if (b->all_ones)
            return b->all_ones - 1;
    } else {
        lp_key k = {pc, addr};
        e = lp_table_upsert(&b->number, k);
        if (!e) {
            b->error = LP_ENOMEM;
            return LP__NONE;
        }
        if (e->v[0])
            return (uint32_t)(e->v[0] - 1);
    }
    if (b->n_refs + b->cuts > LP_SEQUITUR_MAX_TERMINAL) {
        b->error = LP_ELIMIT;
        return LP__NONE;
    }
    if (b->n_refs == b->refs_cap) {
        size_t cap = b->refs_cap ? b->refs_cap * 2 : 256;
        lp_data_ref *p = lp_realloc(b->refs, b->refs_cap * sizeof *p, cap * sizeof *p);
        if (!p) {
            b->error = LP_ENOMEM;
            return LP__NONE;
        }
        b->refs = p;
        b->refs_cap = cap;
    }
    uint32_t t = (uint32_t)b->n_refs++;
    b->refs[t].pc = pc;
    b->refs[t].addr = addr;
    if (e)
        e->v[0] = (uint64_t)t + 1;
    else
        b->all_ones = t + 1;
    return t;
}

int lp_streams_builder_push(lp_streams_builder *b, uint64_t pc, uint64_t addr)
{
    if (b->error)
        return b->error;
    uint32_t t = terminal_of(b, pc, addr);
    if (t == LP__NONE)
        return b->error;
    int rc = lp_sequitur_push(b->grammar, t);
    if (rc)
        b->error = rc;
    b->after_ref = 1;
    return rc;
}

int lp_streams_builder_cut(lp_streams_builder *b)
{
    if (b->error || !b->after_ref)
        return b->error;
    if (b->n_refs + b->cuts > LP_SEQUITUR_MAX_TERMINAL)
        return b->error = LP_ELIMIT;
    int rc = lp_sequitur_push(b->grammar, (uint32_t)(LP_SEQUITUR_MAX_TERMINAL - b->cuts));
    if (rc)
        return b->error = rc;
    b->cuts++;
    b->after_ref = 0;
    return 0;
}

int lp_streams_builder_push_event(lp_streams_builder *b, const lp_event *ev)
{
    if (ev->kind != LP_EV_LOAD && ev->kind != LP_EV_STORE)
        return b->error;
    return lp_streams_builder_push(b, ev->pc, ev->a);
}

uint64_t lp_streams_builder_length(const lp_streams_builder *b)
{
    return lp_sequitur_length(b->grammar) - b->cuts;
}

uint64_t lp_streams_builder_cuts(const lp_streams_builder *b)
{
    return b->cuts;
}

const lp_sequitur *lp_streams_builder_sequitur(const lp_streams_builder *b)
{
    return b->grammar;
}

lp_data_ref lp_streams_builder_ref(const lp_streams_builder *b, uint32_t t)
{
    return b->refs[t];
}

int lp_streams_find(const lp_data_ref *refs, size_t n, const lp_streams_config *cfg,
                    lp_streams **out)
{
    lp_streams_builder *b;
    int rc = lp_streams_builder_create(&b);
    *out = NULL;
    for (size_t i = 0; !rc && i < n; i++)
        rc = lp_streams_builder_push(b, refs[i].pc, refs[i].addr);
    if (!rc)
        rc = lp_streams_builder_find(b, cfg, out);
    lp_streams_builder_free(b);
    return rc;
}
