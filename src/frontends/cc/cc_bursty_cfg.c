/* One function's control-flow graph for the bursty rewrite (cc_bursty.h,
 * cc_bursty_fn.h): the blocks' edges, reverse postorder, dominators (the
 * iterative algorithm of Cooper, Harvey and Kennedy), natural loops from
 * back-edges, liveness at the loop headers (a bit set per block over the
 * values that cross blocks), and the placement's decision for each loop
 * (section 4.2 of paper 003). Tuned for functions of up to some thousands
 * of blocks, which clang's IR before optimisation has few values crossing. */
#include <stdlib.h>
#include <string.h>

#include "cc_bursty_fn.h"

/* ---- the control-flow graph, dominators, loops ------------------------------------ */

static int bt_add_edge(size_t **v, size_t *n, size_t to)
{
    for (size_t i = 0; i < *n; i++)
        if ((*v)[i] == to)
            return 0;
    size_t *nv = realloc(*v, (*n + 1) * sizeof *nv);
    if (!nv)
        return -1;
    nv[(*n)++] = to;
    *v = nv;
    return 0;
}

/* Each block's successors (the `label %X` of its terminator) and
 * predecessors. */
int lp__cc_bt_edges(lp__cc_btfn *f)
{
    for (size_t b = 0; b < f->nbl; b++)
        if (lp__cc_bt_intern(&f->labels, f->bl[b].label.p, f->bl[b].label.n) < 0)
            return -1;
    for (size_t b = 0; b < f->nbl; b++) {
        if (!f->bl[b].ns)
            continue;
        const lp__cc_btstmt *t = &f->st[f->bl[b].s0 + f->bl[b].ns - 1];
        const char *end = t->p + t->n;
        for (const char *q = t->p; q + 7 < end; q++) {
            if (memcmp(q, "label %", 7) != 0)
                continue;
            size_t len = lp__cc_bt_local(q + 6, end);
            long to = lp__cc_bt_find(&f->labels, q + 7, len);
            if (to < 0)
                continue;
            if (bt_add_edge(&f->bl[b].succ, &f->bl[b].nsucc, (size_t)to) != 0 ||
                bt_add_edge(&f->bl[to].pred, &f->bl[to].npred, b) != 0)
                return -1;
        }
    }
    return 0;
}

/* Reverse postorder from the entry (iterative depth-first search). */
int lp__cc_bt_rpo(lp__cc_btfn *f)
{
    size_t *stack = malloc(f->nbl * sizeof *stack), *next = calloc(f->nbl, sizeof *next);
    uint8_t *seen = calloc(f->nbl, 1);
    f->order = malloc(f->nbl * sizeof *f->order);
    if (!stack || !next || !seen || !f->order) {
        free(stack);
        free(next);
        free(seen);
        return -1;
    }
    size_t sp = 0, post = 0;
    stack[sp++] = 0;
    seen[0] = 1;
    while (sp) {
        size_t b = stack[sp - 1];
        if (next[b] < f->bl[b].nsucc) {
            size_t s = f->bl[b].succ[next[b]++];
            if (!seen[s]) {
                seen[s] = 1;
                stack[sp++] = s;
            }
            continue;
        }
        sp--;
        f->order[post++] = b;
    }
    for (size_t i = 0; i < post / 2; i++) { /* postorder -> reverse postorder */
        size_t t = f->order[i];
        f->order[i] = f->order[post - 1 - i];
        f->order[post - 1 - i] = t;
    }
    f->norder = post;
    for (size_t i = 0; i < post; i++)
        f->bl[f->order[i]].rpo = (long)i;
    free(stack);
    free(next);
    free(seen);
    return 0;
}

/* Immediate dominators (Cooper, Harvey and Kennedy, "A Simple, Fast
 * Dominance Algorithm"). */
void lp__cc_bt_dominators(lp__cc_btfn *f)
{
    for (size_t b = 0; b < f->nbl; b++)
        f->bl[b].idom = SIZE_MAX;
    f->bl[0].idom = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 1; i < f->norder; i++) {
            lp__cc_btblock *b = &f->bl[f->order[i]];
            size_t nd = SIZE_MAX;
            for (size_t k = 0; k < b->npred; k++) {
                size_t p = b->pred[k];
                if (f->bl[p].idom == SIZE_MAX)
                    continue;
                if (nd == SIZE_MAX) {
                    nd = p;
                    continue;
                }
                size_t x = p, y = nd;
                while (x != y) {
                    while (f->bl[x].rpo > f->bl[y].rpo)
                        x = f->bl[x].idom;
                    while (f->bl[y].rpo > f->bl[x].rpo)
                        y = f->bl[y].idom;
                }
                nd = x;
            }
            if (nd != b->idom) {
                b->idom = nd;
                changed = 1;
            }
        }
    }
}

int lp__cc_bt_dominates(const lp__cc_btfn *f, size_t a, size_t b)
{
    if (f->bl[b].rpo < 0)
        return 0;
    for (;;) {
        if (a == b)
            return 1;
        if (b == 0)
            return 0;
        b = f->bl[b].idom;
    }
}

/* ---- liveness at the loop headers ----------------------------------------------------- */

void lp__cc_bt_uses(const lp__cc_btfn *f, const lp__cc_btstmt *st, void (*fn)(void *, long),
                    void *ctx)
{
    lp_cc_line r = lp__cc_bt_rhs(st);
    const char *end = r.p + r.n;
    int q = 0;
    for (const char *p = r.p; p < end; p++) {
        if (*p == '"')
            q = !q;
        if (q || *p != '%' || (p > r.p && lp__cc_ident_char(p[-1])))
            continue;
        size_t len = lp__cc_bt_local(p, end);
        int is_label = p - r.p >= 6 && memcmp(p - 6, "label ", 6) == 0;
        long v = len && !is_label ? lp__cc_bt_find(&f->vals, p + 1, len) : -1;
        p += len;
        if (v >= 0)
            fn(ctx, v);
    }
}

typedef struct bt_live {
    const lp__cc_btfn *f;
    long *cross; /* value -> its number among the values used away from their block, -1 */
    size_t ncross;
    size_t words; /* 64-bit words per block's set */
    uint64_t *use, *def, *in;
    size_t block; /* the block being scanned */
    int phi;      /* the use is a phi's operand */
    int pass;     /* 0: find the crossing values, 1: fill use */
} bt_live;

/* A use of v at the end of block `block` (a phi's operand: at the end of
 * its predecessor) or in it. */
static void bt_live_use(void *ctx, long v)
{
    bt_live *l = ctx;
    const lp__cc_btfn *f = l->f;
    if (f->shared[v] || f->def_block[v] < 0)
        return;
    int away = (size_t)f->def_block[v] != l->block;
    if (l->pass == 0) {
        if ((away || l->phi) && l->cross[v] < 0)
            l->cross[v] = (long)l->ncross++;
    } else if (away && l->cross[v] >= 0) {
        size_t k = (size_t)l->cross[v];
        l->use[l->block * l->words + k / 64] |= 1ull << (k % 64);
    }
}

/* The operands of a phi statement, each a use at the end of its
 * predecessor: `phi TYPE [ VALUE, %LABEL ], ...`. */
static void bt_phi_uses(bt_live *l, const lp__cc_btstmt *st)
{
    const lp__cc_btfn *f = l->f;
    const char *p = st->p, *end = st->p + st->n;
    size_t here = l->block;
    while ((p = memchr(p, '[', (size_t)(end - p))) != NULL) {
        const char *close = memchr(p, ']', (size_t)(end - p));
        if (!close)
            break;
        const char *lab = NULL;
        for (const char *q = close; q > p; q--)
            if (q[0] == '%' && q[-1] == ' ' && q[-2] == ',') {
                lab = q;
                break;
            }
        const char *v = p + 1;
        while (v < close && *v == ' ')
            v++;
        if (lab && *v == '%') {
            long pred = lp__cc_bt_find(&f->labels, lab + 1, lp__cc_bt_local(lab, close));
            long val = lp__cc_bt_find(&f->vals, v + 1, lp__cc_bt_local(v, close));
            if (pred >= 0 && val >= 0) {
                l->block = (size_t)pred;
                bt_live_use(l, val);
                l->block = here;
            }
        }
        p = close + 1;
    }
}

/* live_in of every block over the values used outside their own block
 * (in clang's IR before optimisation, few: the parts of one expression,
 * since variables are in stack slots). A phi's operand is used at the end
 * of the predecessor it comes from. Sets
 * f->live_in (words per block in f->live_words); 0, or -1 without memory. */
static int bt_liveness(lp__cc_btfn *f)
{
    bt_live l = {.f = f};
    l.cross = malloc((f->vals.n + 1) * sizeof *l.cross);
    if (!l.cross)
        return -1;
    for (size_t v = 0; v < f->vals.n; v++)
        l.cross[v] = -1;
    for (l.pass = 0; l.pass < 2; l.pass++) {
        if (l.pass == 1) {
            l.words = (l.ncross + 63) / 64;
            size_t cells = f->nbl * l.words + 1;
            l.use = calloc(cells, sizeof *l.use);
            l.def = calloc(cells, sizeof *l.def);
            l.in = calloc(cells, sizeof *l.in);
            if (!l.use || !l.def || !l.in) {
                free(l.cross);
                free(l.use);
                free(l.def);
                free(l.in);
                return -1;
            }
        }
        for (l.block = 0; l.block < f->nbl; l.block++)
            for (size_t s = f->bl[l.block].s0; s < f->bl[l.block].s0 + f->bl[l.block].ns; s++) {
                lp_cc_line r = lp__cc_bt_rhs(&f->st[s]);
                l.phi = lp__cc_bt_starts(r.p, r.p + r.n, "phi ");
                if (l.phi)
                    bt_phi_uses(&l, &f->st[s]);
                else
                    lp__cc_bt_uses(f, &f->st[s], bt_live_use, &l);
                long d = f->st[s].def;
                if (l.pass == 1 && d >= 0 && l.cross[d] >= 0) {
                    size_t k = (size_t)l.cross[d];
                    l.def[l.block * l.words + k / 64] |= 1ull << (k % 64);
                }
            }
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = f->norder; i-- > 0;) {
            size_t b = f->order[i];
            uint64_t *in = l.in + b * l.words;
            for (size_t w = 0; w < l.words; w++) {
                uint64_t out = 0;
                for (size_t k = 0; k < f->bl[b].nsucc; k++)
                    out |= l.in[f->bl[b].succ[k] * l.words + w];
                uint64_t v = l.use[b * l.words + w] | (out & ~l.def[b * l.words + w]);
                if (v != in[w]) {
                    in[w] = v;
                    changed = 1;
                }
            }
        }
    }
    free(l.cross);
    free(l.use);
    free(l.def);
    f->live_in = l.in;
    f->live_words = l.words;
    return 0;
}

/* Whether any value other than the shared ones is live into block h. */
static int bt_live_into(const lp__cc_btfn *f, size_t h)
{
    for (size_t w = 0; w < f->live_words; w++)
        if (f->live_in[h * f->live_words + w])
            return 1;
    return 0;
}

/* ---- placement ---------------------------------------------------------------------- */

typedef struct bt_loop {
    size_t header;
    uint8_t *body;
} bt_loop;

/* Finds the natural loops, decides for each whether its back-edges get a
 * check and whether its copy reports references, and marks the blocks. */
int lp__cc_bt_loops(lp__cc_btfn *f, lp_cc_bt_counts *c)
{
    bt_loop *loops = NULL;
    size_t nloops = 0;
    size_t *work = malloc((f->nbl + 1) * sizeof *work);
    int rc = work ? 0 : -1;
    for (size_t h = 0; h < f->nbl && !rc; h++) {
        if (f->bl[h].rpo < 0)
            continue;
        uint8_t *body = NULL;
        size_t sp = 0;
        for (size_t k = 0; k < f->bl[h].npred; k++) {
            size_t t = f->bl[h].pred[k];
            if (!lp__cc_bt_dominates(f, h, t))
                continue;
            if (!body && !(body = calloc(f->nbl, 1))) {
                rc = -1;
                break;
            }
            body[h] = 1;
            if (!body[t]) {
                body[t] = 1;
                work[sp++] = t;
            }
        }
        while (sp) {
            size_t b = work[--sp];
            for (size_t k = 0; k < f->bl[b].npred; k++) {
                size_t p = f->bl[b].pred[k];
                if (!body[p] && f->bl[p].rpo >= 0) {
                    body[p] = 1;
                    work[sp++] = p;
                }
            }
        }
        if (!body)
            continue;
        bt_loop *nl = realloc(loops, (nloops + 1) * sizeof *nl);
        if (!nl) {
            free(body);
            rc = -1;
            break;
        }
        loops = nl;
        loops[nloops++] = (bt_loop){h, body};
    }
    for (size_t b = 0; b < f->nbl; b++)
        f->bl[b].record = 1;
    for (size_t i = 0; i < nloops && !rc; i++) {
        lp_bursty_loop facts = {0, 0};
        for (size_t b = 0; b < f->nbl; b++)
            if (loops[i].body[b]) {
                facts.events += f->bl[b].events;
                facts.has_call |= f->bl[b].has_call;
            }
        unsigned bits = lp_bursty_loop_placement(&f->m->placement, &facts);
        if (!(bits & LP_BURSTY_LOOP_INSTRUMENT))
            for (size_t b = 0; b < f->nbl; b++)
                if (loops[i].body[b])
                    f->bl[b].record = 0;
        if (!(bits & LP_BURSTY_LOOP_CHECK))
            continue;
        size_t h = loops[i].header;
        int ok = f->bl[h].ns > 0;
        if (ok) { /* no phi in the header */
            lp_cc_line r = lp__cc_bt_rhs(&f->st[f->bl[h].s0]);
            ok = !lp__cc_bt_starts(r.p, r.p + r.n, "phi ");
        }
        for (size_t k = 0; k < f->bl[h].npred && ok; k++) {
            size_t t = f->bl[h].pred[k];
            if (!loops[i].body[t])
                continue;
            const lp__cc_btstmt *term = &f->st[f->bl[t].s0 + f->bl[t].ns - 1];
            ok = (lp__cc_bt_starts(term->p, term->p + term->n, "br ") ||
                  lp__cc_bt_starts(term->p, term->p + term->n, "switch ")) &&
                 f->bl[t].latch_of < 0;
        }
        if (ok && !f->live_in && bt_liveness(f) != 0) {
            rc = -1;
            break;
        }
        if (ok && bt_live_into(f, h))
            ok = 0;
        if (!ok) {
            c->loops_skipped++;
            continue;
        }
        f->bl[h].check = (long)c->loop_checks++;
        for (size_t k = 0; k < f->bl[h].npred; k++)
            if (loops[i].body[f->bl[h].pred[k]])
                f->bl[f->bl[h].pred[k]].latch_of = (long)h;
    }
    for (size_t i = 0; i < nloops; i++)
        free(loops[i].body);
    free(loops);
    free(work);
    return rc;
}
