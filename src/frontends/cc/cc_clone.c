/* Function copies in LLVM IR text (cc_clone.h).
 *
 * The IR is handled as text, line by line, in the form clang prints it: a
 * definition is a `define ... {` line through a line holding only `}`; a
 * metadata node is one `!N = ...` line. Only three things are rewritten in
 * a copy: its own name, direct calls to internal functions (`@g(`), and
 * references to the debug-information nodes the copy owns (`!N`). */
#define _GNU_SOURCE /* memmem */
#include "cc_clone.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lp_cc_fn {
    const char *name; /* without '@' and quotes */
    size_t name_len;
    int quoted, internal, copy;
    size_t def, end; /* line of `define`, line of `}` */
} lp_cc_fn;

static void lp_cc_putu(lp_cc_buf *b, unsigned long v)
{
    char t[24];
    int n = snprintf(t, sizeof t, "%lu", v);
    lp__cc_put(b, t, (size_t)n);
}

/* Whether the line holds s as a whole word (spaces or line ends around). */
static int lp_cc_has_word(lp_cc_line l, size_t upto, const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i + n <= upto; i++)
        if (memcmp(l.p + i, s, n) == 0 && (i == 0 || l.p[i - 1] == ' ') &&
            (i + n == l.n || l.p[i + n] == ' ' || l.p[i + n] == '('))
            return 1;
    return 0;
}

/* Reads a global name at p[0] == '@': sets *name, *len, *quoted and
 * returns the bytes it spans (0 if there is no name). */
static size_t lp_cc_global(const char *p, size_t avail, const char **name, size_t *len,
                           int *quoted)
{
    if (avail < 2 || p[0] != '@')
        return 0;
    if (p[1] == '"') {
        const char *q = memchr(p + 2, '"', avail - 2);
        if (!q)
            return 0;
        *name = p + 2;
        *len = (size_t)(q - (p + 2));
        *quoted = 1;
        return (size_t)(q - p) + 1;
    }
    size_t i = 1;
    while (i < avail && lp__cc_ident_char(p[i]))
        i++;
    *name = p + 1;
    *len = i - 1;
    *quoted = 0;
    return i > 1 ? i : 0;
}

/* ---- metadata nodes ----------------------------------------------------------- */

typedef struct lp_cc_meta {
    long *line;      /* node number -> line index, -1 when absent */
    unsigned long n; /* numbers 0 .. n-1 */
    unsigned long next; /* the next free number */
    unsigned long *map; /* per copy: old number -> new, 0 when not copied */
    unsigned char *state; /* per copy: 1 reached, 2 copied */
} lp_cc_meta;

/* Node numbers above this are refused: clang numbers nodes from 0, and a
 * module with this many is not one a compiler writes. */
#define LP_CC_MAX_NODE (1UL << 26)

/* The number in the digits at p[0, n) (the input is not terminated), and
 * in *used how many there were; saturates above LP_CC_MAX_NODE. */
/* Calls fn(number) for each `!N` reference in the line, outside strings. */
static void lp_cc_refs(lp_cc_line l, size_t from, void (*fn)(void *, unsigned long), void *ctx)
{
    int in_str = 0;
    for (size_t i = from; i < l.n; i++) {
        char c = l.p[i];
        if (c == '"')
            in_str = !in_str;
        if (in_str || c != '!' || i + 1 >= l.n || l.p[i + 1] < '0' || l.p[i + 1] > '9')
            continue;
        size_t used;
        unsigned long v = lp__cc_num(l.p + i + 1, l.n - i - 1, &used);
        fn(ctx, v);
        i += used;
    }
}

/* The text after "!N = " of node v, or an empty line. */
static lp_cc_line lp_cc_node(const lp_cc_meta *m, const lp_cc_line *lines, unsigned long v)
{
    lp_cc_line none = {"", 0};
    if (v >= m->n || m->line[v] < 0)
        return none;
    lp_cc_line l = lines[m->line[v]];
    const char *eq = memchr(l.p, '=', l.n);
    if (!eq || (size_t)(eq - l.p) + 2 > l.n)
        return none;
    size_t off = (size_t)(eq - l.p) + 2;
    lp_cc_line r = {l.p + off, l.n - off};
    return r;
}

/* Nodes that belong to one function and are copied with it when they lead
 * to its subprogram: scopes, locations, local variables, labels, tuples. */
static int lp_cc_local_kind(lp_cc_line t)
{
    if (lp__cc_starts(t, "distinct "))
        t.p += 9, t.n -= 9;
    static const char *const kinds[] = {"!DILocation(", "!DILexicalBlock(",
                                        "!DILexicalBlockFile(", "!DILocalVariable(",
                                        "!DILabel(", "!{"};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (lp__cc_starts(t, kinds[i]))
            return 1;
    return 0;
}

typedef struct lp_cc_walk {
    lp_cc_meta *m;
    const lp_cc_line *lines;
    unsigned long sp;
    unsigned long *stack;
    size_t depth, cap;
    int failed;
    int hit; /* a reference to a copied node was seen */
} lp_cc_walk;

static void lp_cc_reach(void *ctx, unsigned long v)
{
    lp_cc_walk *w = ctx;
    if (v >= w->m->n || w->m->state[v])
        return;
    /* A node referred to and never defined (a cut-short input) is not
     * copied: the copy keeps the reference, and clang reports it. */
    lp_cc_line t = lp_cc_node(w->m, w->lines, v);
    if (!t.n || (v != w->sp && !lp_cc_local_kind(t)))
        return;
    w->m->state[v] = 1;
    unsigned long *s = lp__cc_grow(w->stack, w->depth, &w->cap, sizeof *s, 64);
    if (!s) {
        w->failed = 1;
        return;
    }
    w->stack = s;
    w->stack[w->depth++] = v;
}

static void lp_cc_hits(void *ctx, unsigned long v)
{
    lp_cc_walk *w = ctx;
    if (v < w->m->n && w->m->state[v] == 2)
        w->hit = 1;
}

/* Marks (state 2) and numbers the nodes function f's copy owns: those
 * reachable from its text through local kinds that lead to its subprogram,
 * plus distinct tuples (loop identities). Returns the list of copied nodes
 * in w->stack[0 .. w->depth) or -1 on allocation failure. */
static int lp_cc_meta_plan(lp_cc_walk *w, const lp_cc_line *lines, const lp_cc_fn *f)
{
    lp_cc_meta *m = w->m;
    w->depth = 0;
    for (size_t i = f->def; i <= f->end; i++)
        lp_cc_refs(lines[i], 0, lp_cc_reach, w);
    for (size_t k = 0; k < w->depth; k++)
        lp_cc_refs(lp_cc_node(m, lines, w->stack[k]), 0, lp_cc_reach, w);
    if (w->failed)
        return -1;
    /* Fixpoint: a reached node referring to a copied one is copied. */
    for (size_t k = 0; k < w->depth; k++) {
        unsigned long v = w->stack[k];
        lp_cc_line t = lp_cc_node(m, lines, v);
        if (v == w->sp || lp__cc_starts(t, "distinct !{"))
            m->state[v] = 2;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t k = 0; k < w->depth; k++) {
            unsigned long v = w->stack[k];
            if (m->state[v] == 2)
                continue;
            w->hit = 0;
            lp_cc_refs(lp_cc_node(m, lines, v), 0, lp_cc_hits, w);
            if (w->hit) {
                m->state[v] = 2;
                changed = 1;
            }
        }
    }
    size_t keep = 0;
    for (size_t k = 0; k < w->depth; k++) {
        unsigned long v = w->stack[k];
        if (m->state[v] == 2) {
            m->map[v] = m->next++;
            w->stack[keep++] = v;
        } else {
            m->state[v] = 0;
        }
    }
    w->depth = keep;
    return 0;
}

/* ---- the rewrite ------------------------------------------------------------------- */

typedef struct lp_cc_ctx {
    const lp_cc_line *lines;
    size_t nlines;
    lp_cc_fn *fns;
    size_t nfns;
    lp_cc_meta meta;
    lp_cc_buf out;
    unsigned flags; /* lp_cc_clone_ir's */
} lp_cc_ctx;

static int lp_cc_fn_cmp(const void *x, const void *y)
{
    const lp_cc_fn *a = x, *b = y;
    int r = lp__cc_name_cmp(a->name, a->name_len, b->name, b->name_len);
    return r ? r : (a->def > b->def) - (a->def < b->def);
}

/* The definition named name (c->fns is sorted by name), or NULL. */
/* Definition order, for writing the copies. */
static int lp_cc_fn_def_cmp(const void *x, const void *y)
{
    const lp_cc_fn *a = *(const lp_cc_fn *const *)x, *b = *(const lp_cc_fn *const *)y;
    return a->def < b->def ? -1 : a->def > b->def;
}

static lp_cc_fn *lp_cc_find(const lp_cc_ctx *c, const char *name, size_t len)
{
    size_t lo = 0, hi = c->nfns;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = lp__cc_name_cmp(c->fns[mid].name, c->fns[mid].name_len, name, len);
        if (r == 0)
            return &c->fns[mid];
        if (r < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static void lp_cc_put_name(lp_cc_buf *b, const char *name, size_t len, int quoted,
                           const char *suffix)
{
    lp__cc_puts(b, quoted ? "@\"" : "@");
    lp__cc_put(b, name, len);
    lp__cc_puts(b, suffix);
    if (quoted)
        lp__cc_puts(b, "\"");
}

/* Copies text [from, l.n) of a line of function f's copy into b, renaming
 * what the copy changes. */
static void lp_cc_put_rewritten(lp_cc_ctx *c, lp_cc_buf *b, const lp_cc_fn *f, lp_cc_line l,
                                size_t from)
{
    int in_str = 0;
    size_t i = from, run = from;
    while (i < l.n) {
        char ch = l.p[i];
        if (ch == '@') {
            const char *name;
            size_t len;
            int quoted;
            size_t span = lp_cc_global(l.p + i, l.n - i, &name, &len, &quoted);
            if (span) {
                const lp_cc_fn *g = lp_cc_find(c, name, len);
                int call = i + span < l.n && l.p[i + span] == '(';
                int own_label = g == f && i >= 13 && memcmp(l.p + i - 13, "blockaddress(", 13) == 0;
                /* In a build for the call graph alone, a copy calls the
                 * copies of its file's static functions itself: the call
                 * stays among the copies, with no entry to go through,
                 * and a clock method called so is counted by its copy's
                 * entry. A copy that counts blocks calls the originals,
                 * as it does other functions, whose entries decide: there
                 * a recursion that began in a window (interp's it_call)
                 * ran in the copies, every block's increment with it, to
                 * the end of the program (interp +9.5 % of instructions
                 * at 10 % windows, +5.6 % so; doc/runtime.md). A copy
                 * for the call graph costs only its call blocks'
                 * increments, and calls that leave the copies pay the
                 * entries' jumps in windows. */
                if (g && g->copy &&
                    ((call && g->internal && (c->flags & LP_CC_CALLS_ONLY)) || own_label)) {
                    lp__cc_put(b, l.p + run, i - run);
                    lp_cc_put_name(b, name, len, quoted, LP_CC_CLONE_SUFFIX);
                    run = i + span;
                }
                i += span;
                continue;
            }
        } else if (ch == '"') {
            in_str = !in_str;
        } else if (!in_str && ch == '!' && i + 1 < l.n && l.p[i + 1] >= '0' && l.p[i + 1] <= '9') {
            unsigned long v = 0;
            size_t j = i + 1;
            while (j < l.n && l.p[j] >= '0' && l.p[j] <= '9')
                v = v * 10 + (unsigned long)(l.p[j++] - '0');
            if (v < c->meta.n && c->meta.state[v] == 2) {
                lp__cc_put(b, l.p + run, i - run);
                lp__cc_puts(b, "!");
                lp_cc_putu(b, c->meta.map[v]);
                run = j;
            }
            i = j;
            continue;
        }
        i++;
    }
    lp__cc_put(b, l.p + run, l.n - run);
}

/* The end of the word at p (before end): the next space outside brackets. */
static const char *lp_cc_word_end(const char *p, const char *end)
{
    int depth = 0;
    while (p < end && (depth > 0 || *p != ' '))
        depth += lp__cc_depth(*p++);
    return p;
}

/* Puts the copy whose define line's end was just written (from offset
 * from) into the section LP_CC_COPIES_SECTION, in place of any section it
 * had: its attributes end the line as `#N [!dbg !M] {`, and the section
 * goes before the metadata. The copies then lie together, so a copy's
 * entry can tell a call from another copy by the return address. */
static void lp_cc_put_section(lp_cc_buf *b, size_t from)
{
    if (b->failed || b->n < from + 2 || memcmp(b->p + b->n - 2, " {", 2) != 0)
        return;
    char *line = b->p + from, *end = b->p + b->n - 2;
    char *sec = memmem(line, (size_t)(end - line), " section \"", 10);
    if (sec) { /* drop `section "NAME"` */
        char *q = memchr(sec + 10, '"', (size_t)(end - (sec + 10)));
        if (!q)
            return;
        memmove(sec, q + 1, (size_t)(b->p + b->n - (q + 1)) + 1);
        b->n -= (size_t)(q + 1 - sec);
        end = b->p + b->n - 2;
    }
    char *dbg = memmem(line, (size_t)(end - line), " !dbg ", 6);
    char *at = dbg ? dbg : end;
    static const char ins[] = " section \"" LP_CC_COPIES_SECTION "\"";
    size_t tail = (size_t)(b->p + b->n - at);
    lp__cc_put(b, ins, sizeof ins - 1); /* grows the buffer (may move it) */
    if (b->failed)
        return;
    at = b->p + b->n - (sizeof ins - 1) - tail;
    memmove(at + sizeof ins - 1, at, tail);
    memcpy(at, ins, sizeof ins - 1);
}

/* The keywords before a definition's return type that a copy replaces
 * with its own linkage and visibility. */
static int lp_cc_linkage_word(const char *w, size_t n)
{
    static const char *const words[] = {
        "internal", "private", "weak", "weak_odr", "linkonce", "linkonce_odr", "external",
        "extern_weak", "common", "dso_local", "dso_preemptable", "default", "hidden",
        "protected", "dllexport", "dllimport"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strlen(words[i]) == n && memcmp(words[i], w, n) == 0)
            return 1;
    return 0;
}

static void lp_cc_put_copy(lp_cc_ctx *c, const lp_cc_fn *f)
{
    lp_cc_buf *b = &c->out;
    lp_cc_line d = c->lines[f->def];
    const char *at = memchr(d.p, '@', d.n);
    lp__cc_puts(b, f->internal ? "define internal" : "define hidden");
    /* The words between `define` and the name, less linkage and visibility. */
    for (const char *p = d.p + 6; p < at;) {
        while (p < at && *p == ' ')
            p++;
        const char *e = lp_cc_word_end(p, at);
        if (e > p && !lp_cc_linkage_word(p, (size_t)(e - p))) {
            lp__cc_puts(b, " ");
            lp__cc_put(b, p, (size_t)(e - p));
        }
        p = e;
    }
    lp__cc_puts(b, " ");
    lp_cc_put_name(b, f->name, f->name_len, f->quoted, LP_CC_CLONE_SUFFIX);
    const char *name;
    size_t len;
    int quoted;
    size_t span = lp_cc_global(at, d.n - (size_t)(at - d.p), &name, &len, &quoted);
    size_t from = b->n;
    lp_cc_put_rewritten(c, b, f, d, (size_t)(at - d.p) + span);
    lp_cc_put_section(b, from);
    lp__cc_puts(b, "\n");
    for (size_t i = f->def + 1; i <= f->end; i++) {
        lp_cc_put_rewritten(c, b, f, c->lines[i], 0);
        lp__cc_puts(b, "\n");
    }
}

/* A function whose labels' addresses are taken outside its own body (a
 * computed goto's table, such as an interpreter's dispatch table) gets no
 * copy: the addresses are the original's blocks, and a copy's indirect
 * branch would jump into them. */
static void lp_cc_keep_labelled(lp_cc_ctx *c)
{
    static const char ba[] = "blockaddress(";
    for (size_t i = 0; i < c->nlines; i++) {
        lp_cc_line l = c->lines[i];
        const char *p = l.p, *end = l.p + l.n, *hit;
        while ((hit = memmem(p, (size_t)(end - p), ba, sizeof ba - 1)) != NULL) {
            p = hit + sizeof ba - 1;
            const char *name;
            size_t len;
            int quoted;
            lp_cc_fn *g = p < end && *p == '@' &&
                                  lp_cc_global(p, (size_t)(end - p), &name, &len, &quoted)
                              ? lp_cc_find(c, name, len)
                              : NULL;
            if (g && (i < g->def || i > g->end))
                g->copy = 0;
        }
    }
}

/* Splits the text into lines and finds the definitions and metadata. */
static int lp_cc_scan(lp_cc_ctx *c, const char *in, size_t len, char *err, size_t errcap)
{
    size_t n = 0;
    lp_cc_line *lines = lp__cc_split(in, len, &n);
    c->fns = malloc((n + 1) * sizeof *c->fns);
    if (!lines || !c->fns) {
        free(lines);
        return lp__cc_fail(err, errcap, "out of memory");
    }
    c->lines = lines;
    c->nlines = n;
    unsigned long maxnode = 0;
    for (size_t i = 0; i < n; i++) {
        lp_cc_line l = lines[i];
        if (l.n > 1 && l.p[0] == '!' && l.p[1] >= '0' && l.p[1] <= '9') {
            size_t used;
            unsigned long v = lp__cc_num(l.p + 1, l.n - 1, &used);
            if (v >= LP_CC_MAX_NODE)
                return lp__cc_fail(err, errcap, "line %zu: metadata node number too large", i + 1);
            if (v + 1 > maxnode)
                maxnode = v + 1;
            continue;
        }
        if (!lp__cc_starts(l, "define "))
            continue;
        lp_cc_fn *f = &c->fns[c->nfns];
        memset(f, 0, sizeof *f);
        const char *at = memchr(l.p, '@', l.n);
        size_t span = at ? lp_cc_global(at, l.n - (size_t)(at - l.p), &f->name, &f->name_len,
                                         &f->quoted)
                         : 0;
        if (!span)
            return lp__cc_fail(err, errcap, "line %zu: a definition without a name", i + 1);
        size_t head = (size_t)(at - l.p);
        f->def = i;
        f->internal = lp_cc_has_word(l, head, "internal") || lp_cc_has_word(l, head, "private");
        f->copy = !lp_cc_has_word(l, head, "available_externally") &&
                  !lp_cc_has_word(l, l.n, "comdat") && !lp_cc_has_word(l, l.n, "prefix") &&
                  !lp_cc_has_word(l, l.n, "prologue") && l.n > 0 && l.p[l.n - 1] == '{';
        size_t j = i + 1;
        while (j < n && !(lines[j].n == 1 && lines[j].p[0] == '}'))
            j++;
        if (j == n)
            return lp__cc_fail(err, errcap, "line %zu: the definition of %.*s has no end", i + 1,
                              (int)f->name_len, f->name);
        f->end = j;
        c->nfns++;
        i = j;
    }
    qsort(c->fns, c->nfns, sizeof *c->fns, lp_cc_fn_cmp);
    lp_cc_keep_labelled(c);
    c->meta.n = maxnode;
    c->meta.next = maxnode;
    c->meta.line = malloc((maxnode + 1) * sizeof *c->meta.line);
    c->meta.map = calloc(maxnode + 1, sizeof *c->meta.map);
    c->meta.state = calloc(maxnode + 1, 1);
    if (!c->meta.line || !c->meta.map || !c->meta.state)
        return lp__cc_fail(err, errcap, "out of memory");
    for (unsigned long v = 0; v < maxnode; v++)
        c->meta.line[v] = -1;
    for (size_t i = 0; i < n; i++)
        if (lines[i].n > 1 && lines[i].p[0] == '!' && lines[i].p[1] >= '0' && lines[i].p[1] <= '9') {
            size_t used;
            unsigned long v = lp__cc_num(lines[i].p + 1, lines[i].n - 1, &used);
            if (v < maxnode) /* not, when the line is inside a definition */
                c->meta.line[v] = (long)i;
        }
    return 0;
}

/* The subprogram a definition line attaches (`!dbg !N` before `{`), or
 * ULONG_MAX. */
static unsigned long lp_cc_subprogram(lp_cc_line d)
{
    size_t at = 0, used = 0;
    for (size_t i = 0; i + 6 <= d.n; i++)
        if (memcmp(d.p + i, "!dbg !", 6) == 0)
            at = i + 6;
    unsigned long v = at ? lp__cc_num(d.p + at, d.n - at, &used) : 0;
    return used ? v : (unsigned long)-1;
}

long lp_cc_clone_ir(const char *in, size_t len, unsigned flags, char **out, size_t *out_len,
                    char *err, size_t errcap)
{
    lp_cc_ctx c;
    memset(&c, 0, sizeof c);
    c.flags = flags;
    lp_cc_walk w;
    memset(&w, 0, sizeof w);
    long copied = -1;
    lp_cc_buf meta_out = {0};
    const lp_cc_fn **order = NULL;
    if (lp_cc_scan(&c, in, len, err, errcap) != 0)
        goto done;
    /* The original text. */
    for (size_t i = 0; i < c.nlines; i++) {
        lp_cc_line l = c.lines[i];
        /* The order of a global's or a constant's uses no longer holds
         * once the copies use them too; the functions' own orders do, and
         * a copy takes its function's with its body. */
        if (lp__cc_starts(l, "uselistorder"))
            continue;
        lp__cc_put(&c.out, l.p, l.n);
        lp__cc_puts(&c.out, "\n");
    }
    w.m = &c.meta;
    w.lines = c.lines;
    copied = 0;
    /* The copies follow their originals' order, so that the code of a
     * file's copies lies in the order of its functions. */
    order = malloc((c.nfns + 1) * sizeof *order);
    if (!order) {
        copied = lp__cc_fail(err, errcap, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < c.nfns; i++)
        order[i] = &c.fns[i];
    qsort(order, c.nfns, sizeof *order, lp_cc_fn_def_cmp);
    for (size_t i = 0; i < c.nfns; i++) {
        const lp_cc_fn *f = order[i];
        if (!f->copy)
            continue;
        w.sp = lp_cc_subprogram(c.lines[f->def]);
        if (lp_cc_meta_plan(&w, c.lines, f) != 0) {
            copied = lp__cc_fail(err, errcap, "out of memory");
            goto done;
        }
        lp__cc_puts(&c.out, "\n");
        lp_cc_put_copy(&c, f);
        /* The copied nodes, renumbered, then forgotten for the next copy. */
        for (size_t k = 0; k < w.depth; k++) {
            unsigned long v = w.stack[k];
            lp_cc_line l = c.lines[c.meta.line[v]];
            const char *eq = memchr(l.p, '=', l.n);
            lp__cc_puts(&meta_out, "!");
            lp_cc_putu(&meta_out, c.meta.map[v]);
            lp__cc_puts(&meta_out, " ");
            lp_cc_put_rewritten(&c, &meta_out, f, l, (size_t)(eq - l.p));
            lp__cc_puts(&meta_out, "\n");
        }
        for (size_t k = 0; k < w.depth; k++)
            c.meta.state[w.stack[k]] = 0;
        copied++;
    }
    /* Even an empty text is a terminated buffer (put allocates it). */
    lp__cc_put(&c.out, meta_out.p ? meta_out.p : "", meta_out.n);
    if (c.out.failed || meta_out.failed || lp__cc_thread_starts(&c.out) < 0) {
        copied = lp__cc_fail(err, errcap, "out of memory");
        goto done;
    }
    *out = c.out.p;
    *out_len = c.out.n;
    c.out.p = NULL;
done:
    free(order);
    free(c.out.p);
    free(meta_out.p);
    free(w.stack);
    free((void *)c.lines);
    free(c.fns);
    free(c.meta.line);
    free(c.meta.map);
    free(c.meta.state);
    return copied;
}
