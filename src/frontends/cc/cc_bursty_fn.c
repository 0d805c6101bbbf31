/* One function's checking and instrumented code (cc_bursty.h): its blocks,
 * their natural loops, the copy and the checks.
 *
 * The input is clang's IR before optimisation, where a C function's
 * variables live in stack slots (allocas) of its entry block and few
 * values cross a block boundary. The slots move to a new first block that
 * both copies share, so a check may move a running loop from one copy to
 * the other: the loop's state is in the slots. A value that is still live
 * into a loop's header (a statement expression with a loop inside, a
 * variable-length array) would be undefined in the other copy, so that
 * loop gets no check. The copy's names are the original's with
 * LP_CC_BT_PREFIX in front; types, arguments and the shared slots keep
 * theirs. Tuned for functions of up to some thousands of blocks: the
 * dominators are the iterative algorithm of Cooper, Harvey and Kennedy,
 * liveness a bit set per block. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_bursty.h"

/* The longest label a copied function may have (clang's are short). */
#define LP_CC_BT_LABEL_MAX 1000

/* ---- names -------------------------------------------------------------------- */

/* An interning table of local names (without '%'): name -> dense id. */
typedef struct bt_names {
    lp_cc_line *key;
    size_t n, cap;
    uint32_t *slot; /* id + 1, 0 empty */
    size_t nslots;
} bt_names;

static size_t bt_hash(const char *p, size_t n)
{
    size_t h = 1469598103934665603u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211u;
    return h;
}

/* The id of name, or -1. */
static long bt_find(const bt_names *t, const char *p, size_t n)
{
    if (!t->nslots)
        return -1;
    for (size_t i = bt_hash(p, n) & (t->nslots - 1);; i = (i + 1) & (t->nslots - 1)) {
        uint32_t s = t->slot[i];
        if (!s)
            return -1;
        if (t->key[s - 1].n == n && memcmp(t->key[s - 1].p, p, n) == 0)
            return (long)s - 1;
    }
}

/* The id of name, added when new; -1 without memory. */
static long bt_intern(bt_names *t, const char *p, size_t n)
{
    long id = bt_find(t, p, n);
    if (id >= 0)
        return id;
    if (2 * (t->n + 1) > t->nslots) {
        size_t ns = t->nslots ? 2 * t->nslots : 64;
        uint32_t *slot = calloc(ns, sizeof *slot);
        if (!slot)
            return -1;
        for (size_t k = 0; k < t->n; k++) {
            size_t i = bt_hash(t->key[k].p, t->key[k].n) & (ns - 1);
            while (slot[i])
                i = (i + 1) & (ns - 1);
            slot[i] = (uint32_t)k + 1;
        }
        free(t->slot);
        t->slot = slot;
        t->nslots = ns;
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        lp_cc_line *key = realloc(t->key, cap * sizeof *key);
        if (!key)
            return -1;
        t->key = key;
        t->cap = cap;
    }
    t->key[t->n] = (lp_cc_line){p, n};
    size_t i = bt_hash(p, n) & (t->nslots - 1);
    while (t->slot[i])
        i = (i + 1) & (t->nslots - 1);
    t->slot[i] = (uint32_t)t->n + 1;
    return (long)t->n++;
}

static void bt_names_free(bt_names *t)
{
    free(t->key);
    free(t->slot);
}

/* The local name at p[0] == '%' (not quoted): its length without '%'. */
static size_t bt_local(const char *p, const char *end)
{
    size_t i = 1;
    while (p + i < end && lp__cc_ident_char(p[i]))
        i++;
    return i - 1;
}

static int bt_starts(const char *p, const char *end, const char *s)
{
    size_t n = strlen(s);
    return (size_t)(end - p) >= n && memcmp(p, s, n) == 0;
}

/* ---- statements and blocks ---------------------------------------------------- */

/* A statement: its text (one line, or several for a switch) without the
 * leading spaces. */
typedef struct bt_stmt {
    const char *p;
    size_t n;
    long def;      /* the value it defines (names id), -1 */
    uint8_t alloca; /* a stack slot of the entry block */
    uint8_t ref;   /* a load or store the copy reports */
    uint8_t call;  /* calls a function */
    uint8_t dbg;   /* a call of a debug intrinsic (dropped from the copy) */
} bt_stmt;

typedef struct bt_block {
    lp_cc_line label; /* without '%' */
    size_t s0, ns;    /* statements */
    size_t *succ, nsucc;
    size_t *pred, npred;
    long rpo;         /* reverse postorder number, -1 when unreachable */
    size_t idom;
    uint32_t events;  /* statements with ref */
    uint8_t has_call;
    uint8_t record;   /* its copy reports references (no enclosing loop is boring) */
    long check;       /* this header's loop check number, -1 */
    long latch_of;    /* a back-edge from here goes to this header's check, -1 */
    char loop_md[32]; /* a header's `, !llvm.loop !N`, moved to its check */
} bt_block;

typedef struct bt_fn {
    const lp_cc_bt_module *m;
    const lp_cc_line *lines;
    size_t nlines;
    bt_stmt *st;
    size_t nst, capst;
    bt_block *bl;
    size_t nbl, capbl;
    bt_names vals;   /* every value a statement defines, and the arguments */
    uint8_t *shared;   /* per value id: the same in both copies */
    long *def_stmt;    /* per value id: its statement, -1 for an argument */
    long *def_block;   /* per value id: its statement's block, -1 */
    uint64_t *live_in; /* bt_liveness's sets, NULL until needed */
    size_t live_words;
    bt_names labels;
    size_t *order; /* blocks in reverse postorder */
    size_t norder;
    char entry_label[32];
} bt_fn;

static int bt_push_stmt(bt_fn *f, const char *p, size_t n)
{
    if (f->nst == f->capst) {
        size_t cap = f->capst ? 2 * f->capst : 256;
        bt_stmt *v = realloc(f->st, cap * sizeof *v);
        if (!v)
            return -1;
        f->st = v;
        f->capst = cap;
    }
    f->st[f->nst++] = (bt_stmt){.p = p, .n = n, .def = -1};
    return 0;
}

static int bt_push_block(bt_fn *f, const char *label, size_t len)
{
    if (f->nbl == f->capbl) {
        size_t cap = f->capbl ? 2 * f->capbl : 64;
        bt_block *v = realloc(f->bl, cap * sizeof *v);
        if (!v)
            return -1;
        f->bl = v;
        f->capbl = cap;
    }
    bt_block *b = &f->bl[f->nbl++];
    memset(b, 0, sizeof *b);
    b->label = (lp_cc_line){label, len};
    b->s0 = f->nst;
    b->rpo = -1;
    b->check = b->latch_of = -1;
    return 0;
}

/* Bracket depth change of a line, outside strings. */
static int bt_line_depth(lp_cc_line l)
{
    int d = 0, q = 0;
    for (size_t i = 0; i < l.n; i++) {
        if (l.p[i] == '"')
            q = !q;
        else if (!q)
            d += (l.p[i] == '[') - (l.p[i] == ']');
    }
    return d;
}

/* The entry block's name when it has no label: the number after the
 * unnamed arguments, which lp__cc_name_numbers turned into `lp.N` (a phi
 * may name the entry as a predecessor). */
static void bt_entry_label(const bt_fn *f, char *out, size_t cap)
{
    lp_cc_line d = f->lines[0];
    const char *open = memchr(d.p, '(', d.n);
    unsigned long unnamed = 0;
    for (const char *p = open ? open : d.p + d.n; p + 4 < d.p + d.n; p++)
        if (memcmp(p, "%lp.", 4) == 0 && p[4] >= '0' && p[4] <= '9')
            unnamed++;
    snprintf(out, cap, "lp.%lu", unnamed);
}

/* Splits the body into blocks of statements. Returns 0, -1 without memory. */
static int bt_parse(bt_fn *f)
{
    char *entry_label = f->entry_label;
    bt_entry_label(f, entry_label, sizeof f->entry_label);
    for (size_t i = 1; i + 1 < f->nlines; i++) {
        lp_cc_line l = f->lines[i];
        size_t k = 0;
        while (k < l.n && l.p[k] == ' ')
            k++;
        if (k == l.n || l.p[k] == ';')
            continue;
        if (k == 0) { /* a label line `NAME:` */
            const char *colon = memchr(l.p, ':', l.n);
            if (!colon)
                continue;
            if (bt_push_block(f, l.p, (size_t)(colon - l.p)) != 0)
                return -1;
            continue;
        }
        if (!f->nbl && bt_push_block(f, entry_label, strlen(entry_label)) != 0)
            return -1;
        const char *start = l.p + k;
        int depth = bt_line_depth(l);
        while (depth > 0 && i + 2 < f->nlines)
            depth += bt_line_depth(f->lines[++i]);
        const char *end = f->lines[i].p + f->lines[i].n;
        if (bt_push_stmt(f, start, (size_t)(end - start)) != 0)
            return -1;
        f->bl[f->nbl - 1].ns++;
    }
    return 0;
}

/* Whether the body holds something the copy cannot take. */
static int bt_uncopyable(const bt_fn *f)
{
    static const char *const bad[] = {"indirectbr", "blockaddress(", "callbr ", "musttail ",
                                      "landingpad", "invoke ", "catchswitch", "cleanuppad",
                                      "catchpad", "%\"", "@llvm.stacksave", "resume "};
    for (size_t s = 0; s < f->nst; s++)
        for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
            size_t n = strlen(bad[k]);
            for (size_t i = 0; i + n <= f->st[s].n; i++)
                if (memcmp(f->st[s].p + i, bad[k], n) == 0)
                    return 1;
        }
    for (size_t b = 0; b < f->nbl; b++)
        if (f->bl[b].label.n > LP_CC_BT_LABEL_MAX)
            return 1;
    for (size_t b = 1; b < f->nbl; b++) /* dynamic stack allocation */
        for (size_t s = f->bl[b].s0; s < f->bl[b].s0 + f->bl[b].ns; s++)
            if (memmem(f->st[s].p, f->st[s].n, " = alloca ", 10))
                return 1;
    return 0;
}

/* ---- operands --------------------------------------------------------------------- */

static int bt_depth(char ch)
{
    return (ch == '(' || ch == '{' || ch == '[' || ch == '<') -
           (ch == ')' || ch == '}' || ch == ']' || ch == '>');
}

/* The length of the type at p (an IR type: a word, %name, a bracketed
 * aggregate, then pointer stars and function parameter lists). */
static size_t bt_type_len(const char *p, size_t n)
{
    size_t i = 0;
    if (i < n && (p[i] == '{' || p[i] == '[' || p[i] == '<')) {
        int d = 0;
        do
            d += bt_depth(p[i++]);
        while (i < n && d > 0);
    } else {
        if (i < n && p[i] == '%')
            i++;
        while (i < n && lp__cc_ident_char(p[i]))
            i++;
    }
    for (;;) {
        if (i < n && p[i] == '*') {
            i++;
        } else if (i + 1 < n && p[i] == ' ' && p[i + 1] == '(') {
            int d = 0;
            i++;
            do
                d += bt_depth(p[i++]);
            while (i < n && d > 0);
        } else if (bt_starts(p + i, p + n, " addrspace(")) {
            while (i < n && p[i] != ')')
                i++;
            i += i < n;
        } else {
            return i;
        }
    }
}

/* The operands of a statement after its opcode, split at commas outside
 * brackets: fills up to max of them and returns how many there are. */
static size_t bt_operands(const char *p, size_t n, lp_cc_line *out, size_t max)
{
    size_t k = 0, start = 0;
    int d = 0, q = 0;
    for (size_t i = 0; i <= n; i++) {
        char ch = i < n ? p[i] : ',';
        if (ch == '"')
            q = !q;
        if (q)
            continue;
        d += bt_depth(ch);
        if (ch == ',' && d == 0) {
            size_t s = start;
            while (s < i && p[s] == ' ')
                s++;
            if (k < max)
                out[k] = (lp_cc_line){p + s, i - s};
            k++;
            start = i + 1;
        }
    }
    return k;
}

/* The text after `%x = ` (or the whole statement). */
static lp_cc_line bt_rhs(const bt_stmt *s)
{
    if (s->n && s->p[0] == '%') {
        const char *eq = memmem(s->p, s->n, " = ", 3);
        if (eq)
            return (lp_cc_line){eq + 3, s->n - (size_t)(eq + 3 - s->p)};
    }
    return (lp_cc_line){s->p, s->n};
}

/* The pointer operand "TYPE VALUE" of a load or store statement, or an
 * empty line for anything else (atomic accesses are not reported). */
static lp_cc_line bt_access(const bt_stmt *s)
{
    lp_cc_line none = {NULL, 0}, r = bt_rhs(s);
    const char *end = r.p + r.n;
    const char *p = r.p;
    int load = bt_starts(p, end, "load ");
    if (!load && !bt_starts(p, end, "store "))
        return none;
    p += load ? 5 : 6;
    if (bt_starts(p, end, "atomic "))
        return none;
    if (bt_starts(p, end, "volatile "))
        p += 9;
    lp_cc_line ops[2];
    if (bt_operands(p, (size_t)(end - p), ops, 2) < 2)
        return none;
    return ops[1];
}

/* The value of "TYPE VALUE" (*type_len gets the type's length). */
static lp_cc_line bt_split_typed(lp_cc_line op, size_t *type_len)
{
    size_t t = bt_type_len(op.p, op.n);
    *type_len = t;
    size_t v = t;
    while (v < op.n && op.p[v] == ' ')
        v++;
    return (lp_cc_line){op.p + v, op.n - v};
}

/* Whether the pointer value is a local that leads, through address
 * arithmetic and casts, to a stack slot: such references are the
 * function's own variables, most of which the optimiser keeps in
 * registers, and a call that received a slot's address would stop it. */
static int bt_stack_pointer(const bt_fn *f, lp_cc_line v)
{
    for (int hops = 0; hops < 32; hops++) {
        if (!v.n || v.p[0] != '%')
            return 0;
        size_t len = bt_local(v.p, v.p + v.n);
        long id = bt_find(&f->vals, v.p + 1, len);
        if (id < 0)
            return 0;
        if (f->def_stmt[id] < 0)
            return 0; /* an argument */
        const bt_stmt *d = &f->st[f->def_stmt[id]];
        if (d->alloca)
            return 1;
        lp_cc_line r = bt_rhs(d);
        const char *end = r.p + r.n, *p = r.p;
        lp_cc_line ops[2];
        size_t tl;
        if (bt_starts(p, end, "getelementptr ")) {
            p += 14;
            if (bt_starts(p, end, "inbounds "))
                p += 9;
            if (bt_operands(p, (size_t)(end - p), ops, 2) < 2)
                return 0;
            v = bt_split_typed(ops[1], &tl);
        } else if (bt_starts(p, end, "bitcast ") || bt_starts(p, end, "addrspacecast ")) {
            p += p[0] == 'b' ? 8 : 14;
            v = bt_split_typed((lp_cc_line){p, (size_t)(end - p)}, &tl);
        } else {
            return 0;
        }
        const char *sp = memchr(v.p, ' ', v.n);
        if (sp)
            v.n = (size_t)(sp - v.p);
        while (v.n && v.p[v.n - 1] == ',')
            v.n--;
    }
    return 0;
}

int lp__cc_bt_call(const char *p, size_t n, const char **callee, size_t *callee_len)
{
    *callee = NULL;
    *callee_len = 0;
    const char *end = p + n, *c = NULL;
    for (const char *q = p; q + 5 <= end && *q != '('; q++)
        if (memcmp(q, "call ", 5) == 0 && (q == p || q[-1] == ' ')) {
            c = q + 5;
            break;
        }
    if (!c)
        return 0;
    int d = 0;
    for (const char *q = c; q < end; q++) {
        if (d == 0 && bt_starts(q, end, "asm "))
            return 0;
        if (d == 0 && (*q == '@' || *q == '%') && q + 1 < end) {
            const char *name = q + 1, *e = name;
            if (*e == '"') {
                const char *close = memchr(e + 1, '"', (size_t)(end - e - 1));
                if (!close)
                    return 0;
                name = e + 1;
                e = close + 1;
            } else {
                while (e < end && lp__cc_ident_char(*e))
                    e++;
            }
            if (e < end && *e == '(') {
                size_t len = (size_t)(e - name) - (name[-1] == '"');
                if (*q == '@' && len >= 5 && memcmp(name, "llvm.", 5) == 0)
                    return 0;
                if (*q == '@') {
                    *callee = name;
                    *callee_len = len;
                }
                return 1;
            }
            q = e - 1;
            continue;
        }
        d += bt_depth(*q);
    }
    return 0;
}

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
static int bt_edges(bt_fn *f)
{
    for (size_t b = 0; b < f->nbl; b++)
        if (bt_intern(&f->labels, f->bl[b].label.p, f->bl[b].label.n) < 0)
            return -1;
    for (size_t b = 0; b < f->nbl; b++) {
        if (!f->bl[b].ns)
            continue;
        const bt_stmt *t = &f->st[f->bl[b].s0 + f->bl[b].ns - 1];
        const char *end = t->p + t->n;
        for (const char *q = t->p; q + 7 < end; q++) {
            if (memcmp(q, "label %", 7) != 0)
                continue;
            size_t len = bt_local(q + 6, end);
            long to = bt_find(&f->labels, q + 7, len);
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
static int bt_rpo(bt_fn *f)
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
static void bt_dominators(bt_fn *f)
{
    for (size_t b = 0; b < f->nbl; b++)
        f->bl[b].idom = SIZE_MAX;
    f->bl[0].idom = 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 1; i < f->norder; i++) {
            bt_block *b = &f->bl[f->order[i]];
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

static int bt_dominates(const bt_fn *f, size_t a, size_t b)
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

/* Calls fn for each local value statement st uses (types, labels and
 * names the function does not define are left out). */
static void bt_uses(const bt_fn *f, const bt_stmt *st, void (*fn)(void *, long), void *ctx)
{
    lp_cc_line r = bt_rhs(st);
    const char *end = r.p + r.n;
    int q = 0;
    for (const char *p = r.p; p < end; p++) {
        if (*p == '"')
            q = !q;
        if (q || *p != '%' || (p > r.p && lp__cc_ident_char(p[-1])))
            continue;
        size_t len = bt_local(p, end);
        int is_label = p - r.p >= 6 && memcmp(p - 6, "label ", 6) == 0;
        long v = len && !is_label ? bt_find(&f->vals, p + 1, len) : -1;
        p += len;
        if (v >= 0)
            fn(ctx, v);
    }
}

typedef struct bt_live {
    const bt_fn *f;
    long *cross;      /* value -> its number among the values used away from their block, -1 */
    size_t ncross;
    size_t words;     /* 64-bit words per block's set */
    uint64_t *use, *def, *in;
    size_t block;     /* the block being scanned */
    int phi;          /* the use is a phi's operand */
    int pass;         /* 0: find the crossing values, 1: fill use */
} bt_live;

/* A use of v at the end of block `block` (a phi's operand: at the end of
 * its predecessor) or in it. */
static void bt_live_use(void *ctx, long v)
{
    bt_live *l = ctx;
    const bt_fn *f = l->f;
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
static void bt_phi_uses(bt_live *l, const bt_stmt *st)
{
    const bt_fn *f = l->f;
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
            long pred = bt_find(&f->labels, lab + 1, bt_local(lab, close));
            long val = bt_find(&f->vals, v + 1, bt_local(v, close));
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
static int bt_liveness(bt_fn *f)
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
                lp_cc_line r = bt_rhs(&f->st[s]);
                l.phi = bt_starts(r.p, r.p + r.n, "phi ");
                if (l.phi)
                    bt_phi_uses(&l, &f->st[s]);
                else
                    bt_uses(f, &f->st[s], bt_live_use, &l);
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
static int bt_live_into(const bt_fn *f, size_t h)
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
static int bt_loops(bt_fn *f, lp_cc_bt_counts *c)
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
            if (!bt_dominates(f, h, t))
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
            lp_cc_line r = bt_rhs(&f->st[f->bl[h].s0]);
            ok = !bt_starts(r.p, r.p + r.n, "phi ");
        }
        for (size_t k = 0; k < f->bl[h].npred && ok; k++) {
            size_t t = f->bl[h].pred[k];
            if (!loops[i].body[t])
                continue;
            const bt_stmt *term = &f->st[f->bl[t].s0 + f->bl[t].ns - 1];
            ok = (bt_starts(term->p, term->p + term->n, "br ") ||
                  bt_starts(term->p, term->p + term->n, "switch ")) &&
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

/* ---- writing -------------------------------------------------------------------------- */

/* Writes text with the copy's names (copy != 0: every local that is not
 * a type or shared gets the prefix), redirecting `label %H` of a latch to
 * its header's check block. A latch whose back-edge now goes through the
 * check loses its `, !llvm.loop !N` to the check (the header keeps it in
 * loop_md); the copy's loops lose theirs, since a loop identity belongs
 * to one loop. */
static void bt_put_text(bt_fn *f, lp_cc_buf *b, const char *p, size_t n, int copy,
                        const bt_block *from)
{
    const char *end = p + n, *run = p;
    int q = 0;
    for (const char *s = p; s < end; s++) {
        if (*s == '"')
            q = !q;
        if (q)
            continue;
        if (*s == ',' && bt_starts(s, end, ", !llvm.loop !") &&
            (copy || (from && from->latch_of >= 0))) {
            const char *e = s + 14;
            while (e < end && *e >= '0' && *e <= '9')
                e++;
            lp__cc_put(b, run, (size_t)(s - run));
            char *md = copy ? NULL : f->bl[from->latch_of].loop_md;
            if (md && (size_t)(e - s) < sizeof f->bl[0].loop_md) {
                memcpy(md, s, (size_t)(e - s));
                md[e - s] = 0;
            }
            run = s = e;
            s--;
            continue;
        }
        if (*s != '%' || (s > p && lp__cc_ident_char(s[-1])))
            continue;
        size_t len = bt_local(s, end);
        if (!len)
            continue;
        lp__cc_put(b, run, (size_t)(s - run) + 1);
        run = s + 1;
        int is_label = s - p >= 6 && memcmp(s - 6, "label ", 6) == 0;
        if (is_label && from && from->latch_of >= 0) {
            const bt_block *h = &f->bl[from->latch_of];
            if (h->label.n == len && memcmp(h->label.p, s + 1, len) == 0) {
                lp__cc_printf(b, "%s" LP_CC_BT_OWN "c%ld", copy ? LP_CC_BT_PREFIX : "", h->check);
                run = s + 1 + len;
                s += len;
                continue;
            }
        }
        long v = bt_find(&f->vals, s + 1, len);
        int keep = !copy || lp__cc_bt_is_type(f->m, s + 1, len) ||
                   (!is_label && v >= 0 && f->shared[v]);
        if (!keep)
            lp__cc_puts(b, LP_CC_BT_PREFIX);
        s += len;
    }
    lp__cc_put(b, run, (size_t)(end - run));
}

/* The runtime's calls as the compiled code makes them: inline assembly
 * that steps over the red zone and calls a stub of the runtime (rt_tramp.S
 * says why and how), so that the compiler sees no call and a small
 * function keeps the frame and registers of its plain build. The stubs
 * save every register but the flags and xmm0-15, which the constraints
 * name, with r10 and r11: in a shared library the call goes through the
 * PLT, whose first call runs the dynamic linker's resolver, which may
 * change them (a library built so summed wrongly until they were named:
 * check_rt's bursty-cc test). */
#define BT_CLOBBERS                                                                             \
    "~{dirflag},~{fpsr},~{flags},~{r10},~{r11},~{xmm0},~{xmm1},~{xmm2},~{xmm3},~{xmm4},~{xmm5},~{xmm6},"      \
    "~{xmm7},~{xmm8},~{xmm9},~{xmm10},~{xmm11},~{xmm12},~{xmm13},~{xmm14},~{xmm15}"
/* `call void asm ...` with one pointer operand, pushed for the stub. */
#define BT_ASM_PUSH(stub)                                                                       \
    "asm sideeffect \"leaq -128(%rsp), %rsp\\0Apushq $0\\0Acall " stub                          \
    "@PLT\\0Aleaq 136(%rsp), %rsp\", \"r," BT_CLOBBERS "\""
static const char bt_asm_ref[] = BT_ASM_PUSH("lp__bt_ref_stub");
static const char bt_asm_enter[] = BT_ASM_PUSH("lp__bt_enter_stub");
/* The slow path of a check: the mode comes back in eax. */
static const char bt_asm_slow[] = "asm sideeffect \"leaq -128(%rsp), %rsp\\0Acall "
                                  "lp__bt_slow_stub@PLT\\0Aleaq 128(%rsp), %rsp\", \"={ax},"
                                  BT_CLOBBERS "\"";

static const char *bt_ptr(const bt_fn *f, const char *typed)
{
    return f->m->opaque ? "ptr" : typed;
}

/* A check named name (its values and blocks too), Fig. 3 in either copy:
 * the fast path goes on in the checking code (a return can have left the
 * thread in the instrumented copy while its counters say checking: the
 * check corrects that), the rest asks the runtime which copy goes on. md
 * is the loop identity of the original's check, or "". */
static void bt_put_check(bt_fn *f, lp_cc_buf *b, const char *name, const char *checking,
                         const char *instrumented, const char *md)
{
    const char *p64 = bt_ptr(f, "i64*");
    lp__cc_printf(b,
                  "  %%%s.n0 = load volatile i64, %s @lp__bt_n, align 8\n"
                  "  %%%s.n1 = add i64 %%%s.n0, -1\n"
                  "  store volatile i64 %%%s.n1, %s @lp__bt_n, align 8\n"
                  "  %%%s.z = icmp eq i64 %%%s.n1, 0\n"
                  "  br i1 %%%s.z, label %%%s.s, label %%%s, !prof !%lu%s\n"
                  "%s.s:\n"
                  "  %%%s.m = call i32 %s()\n"
                  "  %%%s.i = icmp ne i32 %%%s.m, 0\n"
                  "  br i1 %%%s.i, label %%%s, label %%%s%s\n",
                  name, p64, name, name, name, p64, name, name, name, name, checking,
                  f->m->weight_node, md, name, name, bt_asm_slow, name, name, name, instrumented,
                  checking, md);
}

/* The copy's report of the reference of statement s, before it. */
static void bt_put_ref(bt_fn *f, lp_cc_buf *b, size_t s)
{
    const bt_stmt *st = &f->st[s];
    lp_cc_line op = bt_access(st);
    size_t tl;
    lp_cc_line v = bt_split_typed(op, &tl);
    const char *dbg = memmem(st->p, st->n, ", !dbg !", 8);
    size_t dbg_n = 0;
    if (dbg) {
        const char *e = dbg + 8;
        while (e < st->p + st->n && *e >= '0' && *e <= '9')
            e++;
        dbg_n = (size_t)(e - dbg);
    }
    lp_cc_buf t = {0};
    if (f->m->opaque || (tl == 3 && memcmp(op.p, "i8*", 3) == 0)) {
        lp__cc_printf(&t, "  call void %s(%s ", bt_asm_ref, bt_ptr(f, "i8*"));
        lp__cc_put(&t, v.p, v.n);
    } else {
        lp__cc_printf(&t, "  %%" LP_CC_BT_OWN "r%zu = bitcast ", s);
        lp__cc_put(&t, op.p, op.n);
        lp__cc_printf(&t, " to i8*\n  call void %s(i8* %%" LP_CC_BT_OWN "r%zu", bt_asm_ref, s);
    }
    lp__cc_puts(&t, ")");
    if (dbg)
        lp__cc_put(&t, dbg, dbg_n);
    lp__cc_puts(&t, "\n");
    if (t.failed)
        b->failed = 1;
    else
        bt_put_text(f, b, t.p, t.n, 1, NULL);
    free(t.p);
}

static void bt_put_block(bt_fn *f, lp_cc_buf *b, size_t bi, int copy)
{
    const bt_block *bl = &f->bl[bi];
    if (copy)
        lp__cc_puts(b, LP_CC_BT_PREFIX);
    lp__cc_put(b, bl->label.p, bl->label.n);
    lp__cc_puts(b, ":\n");
    if (copy && bi == 0)
        lp__cc_printf(b, "  %%" LP_CC_BT_OWN "ra = call %s @llvm.returnaddress(i32 0)\n"
                         "  call void %s(%s %%" LP_CC_BT_OWN "ra)\n",
                      bt_ptr(f, "i8*"), bt_asm_enter, bt_ptr(f, "i8*"));
    for (size_t s = bl->s0; s < bl->s0 + bl->ns; s++) {
        const bt_stmt *st = &f->st[s];
        if (st->alloca || (copy && st->dbg))
            continue;
        if (copy && st->ref && bl->record)
            bt_put_ref(f, b, s);
        lp__cc_puts(b, "  ");
        bt_put_text(f, b, st->p, st->n, copy, bl);
        lp__cc_puts(b, "\n");
    }
}

/* ---- the function ------------------------------------------------------------------ */

/* Names, definitions and what each statement is. */
static int bt_classify(bt_fn *f)
{
    lp_cc_line d = f->lines[0];
    const char *end = d.p + d.n;
    const char *open = memchr(d.p, '(', d.n);
    for (const char *p = open ? open : end; p < end; p++) /* the arguments */
        if (*p == '%' && !lp__cc_ident_char(p[-1])) {
            size_t len = bt_local(p, end);
            if (len && !lp__cc_bt_is_type(f->m, p + 1, len) && bt_intern(&f->vals, p + 1, len) < 0)
                return -1;
            p += len;
        }
    size_t nargs = f->vals.n;
    for (size_t s = 0; s < f->nst; s++) {
        bt_stmt *st = &f->st[s];
        if (st->n && st->p[0] == '%') {
            size_t len = bt_local(st->p, st->p + st->n);
            if ((st->def = bt_intern(&f->vals, st->p + 1, len)) < 0)
                return -1;
        }
    }
    f->shared = calloc(f->vals.n + 1, 1);
    f->def_stmt = malloc((f->vals.n + 1) * sizeof *f->def_stmt);
    f->def_block = malloc((f->vals.n + 1) * sizeof *f->def_block);
    if (!f->shared || !f->def_stmt || !f->def_block)
        return -1;
    memset(f->shared, 1, nargs);
    for (size_t v = 0; v < f->vals.n; v++)
        f->def_stmt[v] = f->def_block[v] = -1;
    for (size_t bi = 0; bi < f->nbl; bi++)
        for (size_t s = f->bl[bi].s0; s < f->bl[bi].s0 + f->bl[bi].ns; s++)
            if (f->st[s].def >= 0) {
                f->def_stmt[f->st[s].def] = (long)s;
                f->def_block[f->st[s].def] = (long)bi;
            }
    const bt_block *e = &f->bl[0];
    for (size_t s = e->s0; s < e->s0 + e->ns; s++) {
        bt_stmt *st = &f->st[s];
        lp_cc_line r = bt_rhs(st);
        if (st->def >= 0 && bt_starts(r.p, r.p + r.n, "alloca ")) {
            st->alloca = 1;
            f->shared[st->def] = 1;
        }
    }
    for (size_t bi = 0; bi < f->nbl; bi++) {
        bt_block *bl = &f->bl[bi];
        for (size_t s = bl->s0; s < bl->s0 + bl->ns; s++) {
            bt_stmt *st = &f->st[s];
            lp_cc_line r = bt_rhs(st);
            const char *callee;
            size_t clen;
            st->dbg = bt_starts(r.p, r.p + r.n, "call void @llvm.dbg.");
            st->call = (uint8_t)lp__cc_bt_call(r.p, r.n, &callee, &clen);
            bl->has_call |= st->call;
            lp_cc_line op = bt_access(st);
            if (op.n) {
                size_t tl;
                lp_cc_line v = bt_split_typed(op, &tl);
                int addrspace = memmem(op.p, tl, "addrspace", 9) != NULL;
                if (v.n && !addrspace && !bt_starts(v.p, v.p + v.n, "null") &&
                    !bt_stack_pointer(f, v)) {
                    st->ref = 1;
                    bl->events++;
                }
            }
        }
    }
    return 0;
}

static void bt_fn_free(bt_fn *f)
{
    for (size_t b = 0; b < f->nbl; b++) {
        free(f->bl[b].succ);
        free(f->bl[b].pred);
    }
    free(f->bl);
    free(f->st);
    free(f->order);
    free(f->shared);
    free(f->def_stmt);
    free(f->def_block);
    free(f->live_in);
    bt_names_free(&f->vals);
    bt_names_free(&f->labels);
}

int lp__cc_bt_function(const lp_cc_bt_module *m, const lp_cc_line *lines, size_t n,
                       int entry_check, lp_cc_bt_counts *c, lp_cc_buf *b)
{
    bt_fn f;
    memset(&f, 0, sizeof f);
    f.m = m;
    f.lines = lines;
    f.nlines = n;
    int rc = bt_parse(&f);
    if (!rc && (f.nbl == 0 || bt_uncopyable(&f))) {
        c->fns_skipped++;
        bt_fn_free(&f);
        return 1;
    }
    if (!rc)
        rc = bt_classify(&f);
    if (!rc)
        rc = bt_edges(&f);
    if (!rc)
        rc = bt_rpo(&f);
    if (!rc) {
        bt_dominators(&f);
        rc = bt_loops(&f, c);
    }
    if (rc) {
        bt_fn_free(&f);
        return -1;
    }
    for (size_t bi = 0; bi < f.nbl; bi++)
        if (f.bl[bi].record)
            c->refs += f.bl[bi].events;
    /* The define line, the shared slots and the entry's choice of copy. */
    lp__cc_put(b, lines[0].p, lines[0].n);
    lp__cc_puts(b, "\n" LP_CC_BT_OWN "pre:\n");
    const bt_block *e = &f.bl[0];
    for (size_t s = e->s0; s < e->s0 + e->ns; s++)
        if (f.st[s].alloca) {
            lp__cc_puts(b, "  ");
            lp__cc_put(b, f.st[s].p, f.st[s].n);
            lp__cc_puts(b, "\n");
        }
    /* Labels are at most LP_CC_BT_LABEL_MAX bytes (bt_uncopyable). */
    char entry[LP_CC_BT_LABEL_MAX + 8], copy_entry[LP_CC_BT_LABEL_MAX + 8];
    snprintf(entry, sizeof entry, "%.*s", (int)e->label.n, e->label.p);
    snprintf(copy_entry, sizeof copy_entry, LP_CC_BT_PREFIX "%.*s", (int)e->label.n, e->label.p);
    if (entry_check) {
        c->entry_checks++;
        bt_put_check(&f, b, LP_CC_BT_OWN "ck", entry, copy_entry, "");
    } else {
        lp__cc_printf(b,
                      "  %%" LP_CC_BT_OWN "mode = load volatile i32, %s @lp__bt_mode, align 4\n"
                      "  %%" LP_CC_BT_OWN "in = icmp ne i32 %%" LP_CC_BT_OWN "mode, 0\n"
                      "  br i1 %%" LP_CC_BT_OWN "in, label %%%s, label %%%s, !prof !%lu\n",
                      bt_ptr(&f, "i32*"), copy_entry, entry, m->weight_node);
    }
    for (int copy = 0; copy < 2; copy++) {
        for (size_t bi = 0; bi < f.nbl; bi++)
            bt_put_block(&f, b, bi, copy);
        for (size_t bi = 0; bi < f.nbl; bi++) {
            const bt_block *h = &f.bl[bi];
            if (h->check < 0)
                continue;
            char name[64], checking[LP_CC_BT_LABEL_MAX + 8], instrumented[LP_CC_BT_LABEL_MAX + 8];
            snprintf(name, sizeof name, "%s" LP_CC_BT_OWN "c%ld", copy ? LP_CC_BT_PREFIX : "",
                     h->check);
            snprintf(checking, sizeof checking, "%.*s", (int)h->label.n, h->label.p);
            snprintf(instrumented, sizeof instrumented, LP_CC_BT_PREFIX "%.*s", (int)h->label.n,
                     h->label.p);
            lp__cc_printf(b, "%s:\n", name);
            bt_put_check(&f, b, name, checking, instrumented, copy ? "" : h->loop_md);
        }
    }
    lp__cc_puts(b, "}\n");
    bt_fn_free(&f);
    return b->failed ? -1 : 0;
}
