/* analysis: check placement (sections 4.1 and 4.2, the variants of
 * section 5.1). The decisions themselves are bursty's
 * (lp_bursty_entry_has_check, lp_bursty_loop_placement); this file records
 * them per procedure entry and per back-edge with the reason that holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"

static void lp__an_entry_reason(const lp_bursty_placement *p, const lp_analysis_fn *f,
                                lp_analysis_decision *d)
{
    switch (p->entry) {
    case LP_BURSTY_ENTRY_ALL:
        d->reason = LP_ANALYSIS_WHY_ENTRY_ALL;
        break;
    case LP_BURSTY_ENTRY_NON_LEAF:
        d->reason = f->flags & LP_BURSTY_FN_LEAF ? LP_ANALYSIS_WHY_LEAF : LP_ANALYSIS_WHY_CALLS;
        break;
    case LP_BURSTY_ENTRY_SET_C:
        if (f->flags & LP_BURSTY_FN_LEAF) {
            d->reason = LP_ANALYSIS_WHY_LEAF;
        } else if (f->facts.in_c) {
            d->reason = LP_ANALYSIS_WHY_IN_C;
            d->because = (uint8_t)((f->flags & LP_BURSTY_FN_ROOT ? LP_ANALYSIS_C_ROOT : 0) |
                                   (f->flags & LP_BURSTY_FN_ADDR_TAKEN ? LP_ANALYSIS_C_ADDR_TAKEN : 0) |
                                   (f->facts.recursion_from_below ? LP_ANALYSIS_C_RECURSION : 0));
        } else {
            d->reason = LP_ANALYSIS_WHY_NOT_IN_C;
        }
        break;
    default:
        d->reason = LP_ANALYSIS_WHY_ENTRY_NONE;
        break;
    }
}

int lp_analysis_place(const lp_analysis *a, const lp_bursty_placement *p,
                      lp_analysis_placement *out)
{
    memset(out, 0, sizeof *out);
    if (p->entry > LP_BURSTY_ENTRY_NONE || p->loop > LP_BURSTY_LOOP_NONE)
        return LP_EINVAL;
    out->placement = *p;
    uint32_t nf = a->n_fns, nb = (uint32_t)a->back_edges.count;
    out->entry = lp_calloc(nf ? nf : 1, sizeof *out->entry);
    out->back_edge = lp_calloc(nb ? nb : 1, sizeof *out->back_edge);
    if (!out->entry || !out->back_edge) {
        lp_analysis_placement_free(out);
        return LP_ENOMEM;
    }
    for (uint32_t i = 0; i < nf; i++) {
        const lp_analysis_fn *f = &a->fns[i];
        lp_analysis_decision *d = &out->entry[i];
        d->check = (uint8_t)lp_bursty_entry_has_check(p, f->flags, &f->facts);
        lp__an_entry_reason(p, f, d);
        out->entry_checks += d->check;
    }
    const lp_analysis_loop *loops = a->loops.data;
    for (size_t i = 0; i < a->loops.count; i++) {
        const lp_analysis_loop *l = &loops[i];
        unsigned bits = lp_bursty_loop_placement(p, &l->facts);
        lp_analysis_decision d = {.check = (bits & LP_BURSTY_LOOP_CHECK) != 0,
                                  .has_call = l->facts.has_call,
                                  .events = l->facts.events,
                                  .k = p->k};
        if (p->loop == LP_BURSTY_LOOP_ALL)
            d.reason = LP_ANALYSIS_WHY_LOOP_ALL;
        else if (p->loop == LP_BURSTY_LOOP_NONE)
            d.reason = LP_ANALYSIS_WHY_LOOP_NONE;
        else if (lp_bursty_loop_is_boring(&l->facts, p->k))
            d.reason = LP_ANALYSIS_WHY_BORING;
        else
            d.reason = l->facts.has_call ? LP_ANALYSIS_WHY_HAS_CALL : LP_ANALYSIS_WHY_MANY_EVENTS;
        out->boring_loops += bits == 0;
        for (uint32_t k = 0; k < l->back_edges; k++) {
            out->back_edge[l->first_back_edge + k] = d;
            out->back_edge_checks += d.check;
        }
    }
    return 0;
}

void lp_analysis_placement_free(lp_analysis_placement *pl)
{
    if (!pl)
        return;
    lp_free(pl->entry);
    lp_free(pl->back_edge);
    memset(pl, 0, sizeof *pl);
}

static size_t lp__an_because(uint8_t because, char *buf, size_t cap)
{
    static const char *const names[] = {"root", "address-taken", "recursion from below"};
    char text[64] = "";
    for (int i = 0; i < 3; i++)
        if (because & (1u << i)) {
            if (text[0])
                strcat(text, ", ");
            strcat(text, names[i]);
        }
    return (size_t)snprintf(buf, cap, "%s", text[0] ? text : "in C");
}

size_t lp_analysis_decision_text(const lp_analysis_decision *d, char *buf, size_t cap)
{
    int n;
    switch (d->reason) {
    case LP_ANALYSIS_WHY_ENTRY_ALL: n = snprintf(buf, cap, "orig: every procedure entry"); break;
    case LP_ANALYSIS_WHY_LEAF: n = snprintf(buf, cap, "leaf"); break;
    case LP_ANALYSIS_WHY_CALLS: n = snprintf(buf, cap, "not a leaf"); break;
    case LP_ANALYSIS_WHY_IN_C: return lp__an_because(d->because, buf, cap);
    case LP_ANALYSIS_WHY_NOT_IN_C:
        n = snprintf(buf, cap, "not in C: not a root, not address-taken, no recursion from below");
        break;
    case LP_ANALYSIS_WHY_ENTRY_NONE: n = snprintf(buf, cap, "EN: no entry checks"); break;
    case LP_ANALYSIS_WHY_LOOP_ALL: n = snprintf(buf, cap, "orig: every back-edge"); break;
    case LP_ANALYSIS_WHY_BORING:
        n = snprintf(buf, cap, "k-boring (%u events <= %u, no call)", d->events, d->k);
        break;
    case LP_ANALYSIS_WHY_HAS_CALL:
        n = snprintf(buf, cap, "not k-boring (has a call, %u events)", d->events);
        break;
    case LP_ANALYSIS_WHY_MANY_EVENTS:
        n = snprintf(buf, cap, "not k-boring (%u events > %u)", d->events, d->k);
        break;
    case LP_ANALYSIS_WHY_LOOP_NONE: n = snprintf(buf, cap, "LN: no back-edge checks"); break;
    default: n = snprintf(buf, cap, "?"); break;
    }
    return n < 0 ? 0 : (size_t)n;
}

size_t lp__an_decision_label(const lp_analysis_decision *d, char *buf, size_t cap)
{
    int n;
    switch (d->reason) {
    case LP_ANALYSIS_WHY_BORING:
        n = snprintf(buf, cap, "k-boring (<= %u events, no call)", d->k);
        break;
    case LP_ANALYSIS_WHY_HAS_CALL: n = snprintf(buf, cap, "not k-boring (has a call)"); break;
    case LP_ANALYSIS_WHY_MANY_EVENTS:
        n = snprintf(buf, cap, "not k-boring (more than %u events)", d->k);
        break;
    default: return lp_analysis_decision_text(d, buf, cap);
    }
    return n < 0 ? 0 : (size_t)n;
}

static int lp__an_cmp_tally(const void *x, const void *y)
{
    const lp__an_tally *a = x, *b = y;
    if (a->check != b->check)
        return a->check > b->check ? -1 : 1;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return strcmp(a->label, b->label);
}

size_t lp__an_tally_build(const lp_analysis_decision *d, size_t n, lp__an_tally *out, size_t cap)
{
    size_t groups = 0;
    for (size_t i = 0; i < n; i++) {
        char label[sizeof out->label];
        lp__an_decision_label(&d[i], label, sizeof label);
        size_t g = 0;
        while (g < groups && (out[g].check != d[i].check || strcmp(out[g].label, label) != 0))
            g++;
        if (g == groups) {
            if (groups == cap)
                continue; /* cannot happen: there are fewer labels than cap */
            out[g].check = d[i].check;
            out[g].count = 0;
            memcpy(out[g].label, label, sizeof label);
            groups++;
        }
        out[g].count++;
    }
    qsort(out, groups, sizeof *out, lp__an_cmp_tally);
    return groups;
}

const char *lp__an_kind_name(int kind)
{
    switch (kind) {
    case LP_ANALYSIS_EXEC: return "executable";
    case LP_ANALYSIS_PIE: return "position-independent executable";
    case LP_ANALYSIS_LIBRARY: return "shared library";
    default: return "?";
    }
}
