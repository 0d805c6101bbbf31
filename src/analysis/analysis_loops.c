/* analysis: loops, per function (section 4.2 needs them to decide which
 * back-edges keep a check).
 *
 *   - back-edges: an iterative depth-first search from the entry block; an
 *     edge to a block still on the search stack is a back-edge;
 *   - natural loops: per header, the header plus every block that reaches
 *     the source of one of its back-edges without passing the header
 *     (reverse reachability over the predecessors of blocks the search
 *     reached) and that the header reaches (which matters only under
 *     irreducible flow);
 *   - nesting: with loops taken from the largest body down, a loop's
 *     parent is the innermost loop seen so far that holds its header and
 *     has a larger body;
 *   - per loop, the events of interest (memory references) and whether a
 *     call is in the body, nested loops included, as lp_bursty_loop.
 *
 * Tuned for: one pass per function with scratch arrays reused across
 * functions, linear in blocks and edges plus the loop bodies' sizes. */
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"

typedef struct lp__an_edge {
    uint32_t tail, head;
} lp__an_edge;

/* Per-function scratch beyond the blocks. */
typedef struct lp__an_loopwork {
    lp__an_cfg cfg;
    size_t cap;           /* blocks the arrays below hold */
    uint8_t *state;       /* search: 0 unseen, 1 on the stack, 2 done */
    uint32_t *stack_b;    /* search stack: block */
    uint8_t *stack_i;     /* search stack: next successor to try */
    uint32_t *pred_start; /* predecessors, CSR over reached blocks */
    uint32_t *pred;
    uint32_t *stamp;      /* loop body membership: the loop's stamp */
    uint32_t *inner;      /* nesting: innermost loop holding the block */
    uint32_t *work;       /* worklist for body search */
    lp__an_vec edges;     /* lp__an_edge back-edges */
    lp__an_vec body;      /* uint32_t blocks of every loop of the function, concatenated */
    lp__an_vec loops;     /* lp__an_local loops of the function */
    lp__an_vec order;     /* lp__an_bysize, for nesting */
    uint32_t next_stamp;
} lp__an_loopwork;

typedef struct lp__an_local {
    uint32_t header;
    uint32_t body_at, body_n;
    uint32_t edge_at, edge_n; /* into work.edges, sorted by header */
    uint32_t parent;          /* local index, or LP__AN_NONE */
    uint32_t depth;
    uint32_t events, insns;
    uint8_t has_call;
} lp__an_local;

static int lp__an_work_reserve(lp__an_loopwork *w, size_t nb)
{
    if (nb <= w->cap)
        return 0;
    size_t cap = w->cap ? w->cap : 256;
    while (cap < nb)
        cap *= 2;
    void *p;
#define LP__AN_GROW(field, count)                                                                  \
    do {                                                                                           \
        p = lp_realloc(w->field, 0, (count) * sizeof *w->field);                                   \
        if (!p)                                                                                    \
            return LP_ENOMEM;                                                                      \
        w->field = p;                                                                              \
    } while (0)
    /* Contents need not survive, so nothing is copied (old size 0). */
    LP__AN_GROW(state, cap);
    LP__AN_GROW(stack_b, cap);
    LP__AN_GROW(stack_i, cap);
    LP__AN_GROW(pred_start, cap + 1);
    LP__AN_GROW(pred, 2 * cap);
    LP__AN_GROW(stamp, cap);
    LP__AN_GROW(inner, cap);
    LP__AN_GROW(work, cap);
#undef LP__AN_GROW
    w->cap = cap;
    memset(w->stamp, 0, cap * sizeof *w->stamp);
    w->next_stamp = 0;
    return 0;
}

static void lp__an_work_free(lp__an_loopwork *w)
{
    lp__an_cfg_free(&w->cfg);
    lp_free(w->state);
    lp_free(w->stack_b);
    lp_free(w->stack_i);
    lp_free(w->pred_start);
    lp_free(w->pred);
    lp_free(w->stamp);
    lp_free(w->inner);
    lp_free(w->work);
    lp__an_vec_free(&w->edges);
    lp__an_vec_free(&w->body);
    lp__an_vec_free(&w->loops);
    lp__an_vec_free(&w->order);
}

/* Depth-first search from block 0: marks reached blocks (state 2) and
 * collects back-edges. */
static int lp__an_dfs(lp__an_loopwork *w)
{
    const lp__an_cfg *c = &w->cfg;
    uint32_t nb = c->n_blocks, top = 0;
    memset(w->state, 0, nb);
    w->edges.count = 0;
    if (!nb)
        return 0;
    w->stack_b[top] = 0;
    w->stack_i[top++] = 0;
    w->state[0] = 1;
    while (top) {
        uint32_t b = w->stack_b[top - 1];
        if (w->stack_i[top - 1] == 2) {
            w->state[b] = 2;
            top--;
            continue;
        }
        uint32_t s = c->succ[2 * b + w->stack_i[top - 1]++];
        if (s == LP__AN_NONE)
            continue;
        if (w->state[s] == 1) {
            lp__an_edge *e = lp__an_push(&w->edges);
            if (!e)
                return LP_ENOMEM;
            e->tail = b;
            e->head = s;
        } else if (w->state[s] == 0) {
            w->state[s] = 1;
            w->stack_b[top] = s;
            w->stack_i[top++] = 0;
        }
    }
    return 0;
}

static void lp__an_preds(lp__an_loopwork *w)
{
    const lp__an_cfg *c = &w->cfg;
    uint32_t nb = c->n_blocks;
    memset(w->pred_start, 0, (nb + 1) * sizeof *w->pred_start);
    for (uint32_t b = 0; b < nb; b++)
        for (int k = 0; k < 2 && w->state[b]; k++)
            if (c->succ[2 * b + k] != LP__AN_NONE)
                w->pred_start[c->succ[2 * b + k] + 1]++;
    for (uint32_t b = 0; b < nb; b++)
        w->pred_start[b + 1] += w->pred_start[b];
    /* Fill using inner[] as a cursor (it is reset before nesting). */
    for (uint32_t b = 0; b < nb; b++)
        w->inner[b] = w->pred_start[b];
    for (uint32_t b = 0; b < nb; b++)
        for (int k = 0; k < 2 && w->state[b]; k++) {
            uint32_t s = c->succ[2 * b + k];
            if (s != LP__AN_NONE)
                w->pred[w->inner[s]++] = b;
        }
}

static int lp__an_cmp_edge(const void *x, const void *y)
{
    const lp__an_edge *a = x, *b = y;
    if (a->head != b->head)
        return a->head < b->head ? -1 : 1;
    return a->tail < b->tail ? -1 : a->tail > b->tail;
}

/* The natural loop of each header, into w->loops and w->body. */
/* Two fresh stamps, `back` (returned) and back + 1, clearing the array
 * before the counter would wrap. */
static uint32_t lp__an_new_stamps(lp__an_loopwork *w)
{
    if (w->next_stamp >= UINT32_MAX - 2) {
        memset(w->stamp, 0, w->cap * sizeof *w->stamp);
        w->next_stamp = 0;
    }
    w->next_stamp += 2;
    return w->next_stamp - 1;
}

/* The loop of each header, into w->loops and w->body: the blocks that
 * reach the source of one of its back-edges without passing the header
 * (backward, stamped `back`), and of those, the ones the header reaches
 * (forward within them, stamped `in`). For a reducible loop the second
 * step keeps every block, and this is the natural loop; under irreducible
 * flow, where the header does not dominate the source, it leaves out the
 * code before the loop that the first step would take in. */
static int lp__an_bodies(lp__an_loopwork *w)
{
    const lp__an_cfg *c = &w->cfg;
    lp__an_edge *e = w->edges.data;
    size_t ne = w->edges.count;
    w->loops.count = 0;
    w->body.count = 0;
    if (ne > 1)
        qsort(e, ne, sizeof *e, lp__an_cmp_edge);
    for (size_t i = 0; i < ne;) {
        size_t j = i;
        while (j < ne && e[j].head == e[i].head)
            j++;
        lp__an_local *l = lp__an_push(&w->loops);
        if (!l)
            return LP_ENOMEM;
        uint32_t h = e[i].head, nw = 0;
        l->header = h;
        l->edge_at = (uint32_t)i;
        l->edge_n = (uint32_t)(j - i);
        l->body_at = (uint32_t)w->body.count;

        uint32_t back = lp__an_new_stamps(w), in = back + 1;
        w->stamp[h] = back;
        for (size_t k = i; k < j; k++)
            if (w->stamp[e[k].tail] != back) {
                w->stamp[e[k].tail] = back;
                w->work[nw++] = e[k].tail;
            }
        while (nw) {
            uint32_t b = w->work[--nw];
            for (uint32_t p = w->pred_start[b]; p < w->pred_start[b + 1]; p++)
                if (w->stamp[w->pred[p]] != back) {
                    w->stamp[w->pred[p]] = back;
                    w->work[nw++] = w->pred[p];
                }
        }

        w->stamp[h] = in;
        w->work[nw++] = h;
        while (nw) {
            uint32_t b = w->work[--nw];
            uint32_t *slot = lp__an_push(&w->body);
            if (!slot)
                return LP_ENOMEM;
            *slot = b;
            for (int k = 0; k < 2; k++) {
                uint32_t s = c->succ[2 * b + k];
                if (s != LP__AN_NONE && w->stamp[s] == back) {
                    w->stamp[s] = in;
                    w->work[nw++] = s;
                }
            }
        }
        l = &((lp__an_local *)w->loops.data)[w->loops.count - 1];
        l->body_n = (uint32_t)(w->body.count - l->body_at);
        const uint32_t *body = (const uint32_t *)w->body.data + l->body_at;
        for (uint32_t k = 0; k < l->body_n; k++) {
            l->events += c->mem[body[k]];
            l->insns += c->insns[body[k]];
            l->has_call |= c->calls[body[k]];
        }
        i = j;
    }
    return 0;
}

/* A loop's place in the largest-body-first order. */
typedef struct lp__an_bysize {
    uint32_t body_n, header, loop;
} lp__an_bysize;

static int lp__an_cmp_size(const void *x, const void *y)
{
    const lp__an_bysize *a = x, *b = y;
    if (a->body_n != b->body_n)
        return a->body_n > b->body_n ? -1 : 1;
    return a->header < b->header ? -1 : a->header > b->header;
}

/* Parent and depth of each loop. */
static int lp__an_nesting(lp__an_loopwork *w)
{
    lp__an_local *l = w->loops.data;
    size_t nl = w->loops.count;
    w->order.count = 0;
    for (size_t i = 0; i < nl; i++) {
        lp__an_bysize *o = lp__an_push(&w->order);
        if (!o)
            return LP_ENOMEM;
        o->body_n = l[i].body_n;
        o->header = l[i].header;
        o->loop = (uint32_t)i;
    }
    lp__an_bysize *order = w->order.data;
    if (nl > 1)
        qsort(order, nl, sizeof *order, lp__an_cmp_size);
    for (uint32_t b = 0; b < w->cfg.n_blocks; b++)
        w->inner[b] = LP__AN_NONE;
    for (size_t k = 0; k < nl; k++) {
        lp__an_local *x = &l[order[k].loop];
        /* Under irreducible flow several headers can have one and the same
         * body; none of them is nested in another. */
        uint32_t p = w->inner[x->header];
        while (p != LP__AN_NONE && l[p].body_n == x->body_n)
            p = l[p].parent;
        x->parent = p;
        x->depth = p == LP__AN_NONE ? 1 : l[p].depth + 1;
        const uint32_t *body = (const uint32_t *)w->body.data + x->body_at;
        for (uint32_t i = 0; i < x->body_n; i++)
            w->inner[body[i]] = order[k].loop;
    }
    return 0;
}

/* Appends the function's loops and back-edges to the analysis. */
static int lp__an_emit(lp_analysis *a, lp__an_loopwork *w, uint32_t fi, const lp__an_sec *s,
                       size_t i0)
{
    const lp__an_cfg *c = &w->cfg;
    lp_analysis_fn *f = &a->fns[fi];
    const lp__an_local *l = w->loops.data;
    const lp__an_edge *e = w->edges.data;
    uint32_t base = (uint32_t)a->loops.count;
    f->first_loop = base;
    f->loops = (uint32_t)w->loops.count;
    for (uint32_t i = 0; i < f->loops; i++) {
        lp_analysis_loop *o = lp__an_push(&a->loops);
        if (!o)
            return LP_ENOMEM;
        o->fn = fi;
        o->header = lp__an_insn_addr(s, &s->insns[i0 + c->first[l[i].header]]);
        o->depth = l[i].depth;
        o->parent = l[i].parent == LP__AN_NONE ? UINT32_MAX : base + l[i].parent;
        o->blocks = l[i].body_n;
        o->insns = l[i].insns;
        o->first_back_edge = (uint32_t)a->back_edges.count;
        o->back_edges = l[i].edge_n;
        o->facts.events = l[i].events;
        o->facts.has_call = l[i].has_call;
        if (o->depth > a->sum.max_depth)
            a->sum.max_depth = o->depth;
        for (uint32_t k = 0; k < l[i].edge_n; k++) {
            lp_analysis_back_edge *be = lp__an_push(&a->back_edges);
            if (!be)
                return LP_ENOMEM;
            const lp__an_edge *x = &e[l[i].edge_at + k];
            be->loop = base + i;
            be->from = lp__an_insn_addr(s, &s->insns[i0 + c->last[x->tail]]);
            be->to = o->header;
        }
    }
    return 0;
}

int lp__an_loops_build(lp_analysis *a, lp_analysis_error *err)
{
    lp__an_loopwork w;
    memset(&w, 0, sizeof w);
    w.edges.elem = sizeof(lp__an_edge);
    w.body.elem = sizeof(uint32_t);
    w.loops.elem = sizeof(lp__an_local);
    w.order.elem = sizeof(lp__an_bysize);
    int rc = 0;
    for (uint32_t i = 0; !rc && i < a->n_fns; i++) {
        lp_analysis_fn *f = &a->fns[i];
        const lp__an_fnx *x = &a->fnx[i];
        const lp__an_sec *s = &a->secs[x->sec];
        rc = lp__an_cfg_build(&w.cfg, s, x->i0, x->i1, f->addr, f->addr + f->size);
        if (!rc)
            rc = lp__an_work_reserve(&w, w.cfg.n_blocks + 1);
        if (!rc)
            rc = lp__an_dfs(&w);
        if (rc)
            break;
        for (uint32_t b = 0; b < w.cfg.n_blocks; b++)
            f->blocks += w.state[b] != 0;
        f->first_loop = (uint32_t)a->loops.count;
        if (!w.edges.count)
            continue;
        lp__an_preds(&w);
        rc = lp__an_bodies(&w);
        if (!rc)
            rc = lp__an_nesting(&w);
        if (!rc)
            rc = lp__an_emit(a, &w, i, s, x->i0);
    }
    lp__an_work_free(&w);
    if (rc)
        return lp__an_fail(a, err, rc, 0, 0, "out of memory finding loops");
    a->sum.loops = (uint32_t)a->loops.count;
    a->sum.back_edges = (uint32_t)a->back_edges.count;
    return 0;
}
