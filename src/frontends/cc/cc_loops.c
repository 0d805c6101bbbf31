/* The copies' outermost loops in two versions, so that a copy that runs
 * on after its window stops counting at its next loop iteration
 * (doc/runtime.md, "Loops that leave the counting"; `lowprof cc
 * --loops=two`, not the default).
 *
 * A copy is entered in a window and runs until it returns: a main loop, a
 * long deflate or an interpreter's statement keeps counting (its
 * increments made inert, but run) for the rest of the program. The
 * Arnold-Ryder framework bounds this by a check on each back-edge that
 * goes back to the code without counters. Here the check is one
 * instruction the runtime switches, placed in each outermost loop's
 * header after its phis (inline assembly with a jump target, `callbr`):
 * `cmp $rel32, %eax` (3D) while the copies' windows are open, when the
 * code falls through to the copy's counted blocks, and `jmp` (E9 rel32,
 * the same four bytes) while they are closed, to a second version of the
 * body (names prefixed LP_CC_LOOPS_U) whose increments lp_cc_counters_ir
 * drops but in blocks with calls, and whose calls go to the originals.
 * The compiler lays out the jump's target as the unlikely path: with the
 * counted blocks there, Debian's gzip with blocks always on ran 52 %
 * slower than its plain build against 13 % with one version; with them as
 * the fall-through, 14 %.
 * One byte changes, as with the increments (rt_patch.c); each check's
 * address goes into the section __lp_loop64 (a 32-bit offset from the
 * entry). Both versions branch back to the one header, so a loop that
 * left the counting comes back to it when the next window opens. A load
 * of a flag and a branch cost three instructions an iteration, which an
 * interpreter's dispatch loop felt; the switched check costs one, and no
 * load.
 *
 * The input is the optimised IR with the copies (lp_cc_clone_ir), in SSA
 * form: the header's phis take the second version's latches as further
 * predecessors, with the second version's values. A value defined in the
 * loop and used after it gets a phi (LP_CC_LOOPS_X) at the exit the use
 * lies behind: the block outside the loop that dominates the use and
 * whose immediate dominator is in the loop. That needs the value's type,
 * and an exit that only the loop enters; a loop where a use has no such
 * exit, or where this file does not work the type out, stays in one
 * version and counts as before. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_bursty_fn.h"

#define LP_CC_LOOPS_U "lpu."   /* the body that does not count */
#define LP_CC_LOOPS_X "lpx."   /* a value leaving the loop, merged at an exit: lpx.EXIT.NAME */
#define LP_CC_LOOPS_OWN "lpv." /* the first block of the body after the check, in either version   \
                                */
/* The check: as compiled, a jump to the version without counters
 * (operand 0), whose address the section lists; the runtime makes it
 * `cmp`, on to the counted blocks, while the windows are open. The flags
 * are clobbered. */
#define LP_CC_LOOPS_CHECK                                                                          \
    "callbr void asm sideeffect \"0: .byte 0xe9\\0A .long ${0:l} - 1f\\0A1:\\0A "                  \
    ".pushsection __lp_loop64,\\22a\\22\\0A .long 0b - .\\0A .popsection\", "                      \
    "\"i,~{dirflag},~{fpsr},~{flags}\""
/* The names numbered values get here, apart from the `lp.N` that
 * lp_cc_counters_ir gives the numbered values the coverage pass adds. */
#define LP_CC_LOOPS_NUM "lpn."

/* One outermost loop. */
typedef struct lp_cc_lp {
    size_t head;
    long num;      /* its number among the function's versioned loops, -1 */
    int escapes;   /* some value defined in it is used after it */
    int mergeable; /* every such value can be merged at an exit */
} lp_cc_lp;

/* A value that leaves its loop and the exit where it is merged. */
typedef struct lp_cc_merge {
    long v;
    size_t exit;
} lp_cc_merge;

/* A function being rewritten. */
typedef struct lp_cc_lfn {
    lp__cc_btfn f;
    long *loop_of; /* per block: its outermost loop, -1 */
    lp_cc_lp *lp;
    size_t nlp, caplp;
    int tangled;       /* loops that share blocks (irreducible flow): none versioned */
    uint8_t *esc;      /* per value: used after its versioned loop */
    lp_cc_line *vtype; /* per value: its type, when esc */
    uint8_t *hphi;     /* per value: a phi of its loop's header (one name in both versions) */
    lp_cc_merge *mg;   /* the phis at the exits */
    size_t nmg, capmg;
    lp_cc_line fname; /* the function's name as its define line has it, without '@' */
} lp_cc_lfn;

/* ---- phis ------------------------------------------------------------------------- */

/* A phi's entries `[ VALUE, %PRED ]`. */
typedef struct lp_cc_phient {
    lp_cc_line val, pred; /* pred without '%' */
} lp_cc_phient;

/* Parses the text after `phi ` (r, n bytes): *head gets the length of the
 * flags and type before the first entry, *tail where the entries end; up
 * to max entries into out. Returns their number, or -1 for a form this
 * file does not know. */
static long lp_cc_phi_parse(const char *r, size_t n, size_t *head, size_t *tail, lp_cc_phient *out,
                            size_t max)
{
    const char *end = r + n, *p = memchr(r, '[', n);
    if (!p)
        return -1;
    *head = (size_t)(p - r);
    long k = 0;
    while (p < end && *p == '[') {
        int d = 0;
        const char *q = p, *comma = NULL;
        for (; q < end; q++) {
            d += lp__cc_depth(*q);
            if (d == 1 && *q == ',')
                comma = q;
            if (d == 0)
                break;
        }
        if (q == end || !comma)
            return -1;
        const char *v = p + 1, *ve = comma, *l = comma + 1, *le = q;
        while (v < ve && *v == ' ')
            v++;
        while (ve > v && ve[-1] == ' ')
            ve--;
        while (l < le && *l == ' ')
            l++;
        while (le > l && le[-1] == ' ')
            le--;
        if (l == le || *l != '%')
            return -1;
        if ((size_t)k < max)
            out[k] = (lp_cc_phient){{v, (size_t)(ve - v)}, {l + 1, (size_t)(le - l - 1)}};
        k++;
        p = q + 1;
        *tail = (size_t)(p - r);
        if (p + 2 < end && p[0] == ',' && p[1] == ' ' && p[2] == '[')
            p += 2;
    }
    return k;
}

/* The statement's phi entries (malloc'd into *out), or 0 when it is no
 * phi; -1 for a phi of unknown form or without memory. */
static long lp_cc_phi_of(const lp__cc_btstmt *s, lp_cc_phient **out, size_t *head, size_t *tail,
                         const char **r)
{
    lp_cc_line rhs = lp__cc_bt_rhs(s);
    *out = NULL;
    if (!lp__cc_bt_starts(rhs.p, rhs.p + rhs.n, "phi "))
        return 0;
    *r = rhs.p + 4;
    size_t n = rhs.n - 4;
    long k = lp_cc_phi_parse(*r, n, head, tail, NULL, 0);
    if (k <= 0)
        return -1;
    *out = malloc((size_t)k * sizeof **out);
    if (!*out)
        return -1;
    lp_cc_phi_parse(*r, n, head, tail, *out, (size_t)k);
    return k;
}

/* ---- what a name becomes ------------------------------------------------------------ */

static long lp_cc_val(const lp_cc_lfn *x, const char *p, size_t n)
{
    return lp__cc_bt_find(&x->f.vals, p, n);
}

/* The versioned loop of block b, or -1. */
static long lp_cc_vloop(const lp_cc_lfn *x, size_t b)
{
    long l = x->loop_of[b];
    return l >= 0 && x->lp[l].num >= 0 ? l : -1;
}

/* The loop that defines value v when it is versioned and v is not a
 * header's phi (the values the versions name apart), or -1. */
static long lp_cc_vdef(const lp_cc_lfn *x, long v)
{
    long b = x->f.def_block[v];
    if (b < 0 || x->hphi[v])
        return -1;
    return lp_cc_vloop(x, (size_t)b);
}

/* The exit of loop l that a use at block `at` (outside l) lies behind:
 * the dominator of `at` whose immediate dominator is in l, when only l
 * enters it; -1 otherwise (a use behind a join of two exits). */
static long lp_cc_exit_for(const lp_cc_lfn *x, long l, size_t at)
{
    const lp__cc_btfn *f = &x->f;
    size_t b = at;
    while (b != 0 && x->loop_of[f->bl[b].idom] != l)
        b = f->bl[b].idom;
    if (b == 0 || !f->bl[b].npred)
        return -1;
    for (size_t k = 0; k < f->bl[b].npred; k++)
        if (x->loop_of[f->bl[b].pred[k]] != l)
            return -1;
    return (long)b;
}

/* Writes value v used at block `at`, in loop l's version u (l -1: outside
 * the versioned loops). */
static void lp_cc_put_val(const lp_cc_lfn *x, lp_cc_buf *b, long v, long l, int u, size_t at)
{
    long d = lp_cc_vdef(x, v);
    lp_cc_line name = x->f.vals.key[v];
    if (d >= 0 && d == l && u)
        lp__cc_puts(b, LP_CC_LOOPS_U);
    else if (d >= 0 && d != l)
        lp__cc_printf(b, LP_CC_LOOPS_X "%ld.", lp_cc_exit_for(x, d, at));
    lp__cc_put(b, name.p, name.n);
}

/* Writes block bl's name as a predecessor in a phi: version u of its loop
 * or the counted one. A versioned header's terminator is its first
 * block's (lpv.N). */
static void lp_cc_put_pred(const lp_cc_lfn *x, lp_cc_buf *b, size_t bl, int u)
{
    long l = lp_cc_vloop(x, bl);
    if (l >= 0 && u)
        lp__cc_puts(b, LP_CC_LOOPS_U);
    if (l >= 0 && x->lp[l].head == bl)
        lp__cc_printf(b, LP_CC_LOOPS_OWN "%ld", x->lp[l].num);
    else
        lp__cc_put(b, x->f.bl[bl].label.p, x->f.bl[bl].label.n);
}

/* Writes the text of a statement of loop l's version u (l -1: a block
 * outside the versioned loops) with its names mapped: values as
 * lp_cc_put_val says, branch targets inside the loop to the version's
 * blocks (the header stays one). Version u also loses loop identities
 * (one loop each) and calls the originals of the copies it calls. */
static void lp_cc_put_text(const lp_cc_lfn *x, lp_cc_buf *b, const char *p, size_t n, long l, int u,
                           size_t at)
{
    const char *end = p + n, *run = p;
    int q = 0;
    for (const char *s = p; s < end; s++) {
        if (*s == '"')
            q = !q;
        if (q)
            continue;
        size_t md_len = u && *s == ',' ? lp__cc_bt_loop_md(s, end) : 0;
        if (md_len) {
            lp__cc_put(b, run, (size_t)(s - run));
            run = s + md_len;
            s = run - 1;
            continue;
        }
        if (u && *s == '@') {
            size_t len = lp__cc_bt_local(s, end);
            static const char dup[] = ".lpdup(";
            if (len > 6 && s + 1 + len < end && s[1 + len] == '(' &&
                memcmp(s + 1 + len - 6, dup, 6) == 0) {
                lp__cc_put(b, run, (size_t)(s - run) + len - 5);
                run = s + 1 + len;
            }
            s += len;
            continue;
        }
        if (*s != '%' || (s > p && lp__cc_ident_char(s[-1])))
            continue;
        size_t len = lp__cc_bt_local(s, end);
        if (!len)
            continue;
        int is_label = s - p >= 6 && memcmp(s - 6, "label ", 6) == 0;
        if (is_label) {
            long t = lp__cc_bt_find(&x->f.labels, s + 1, len);
            if (u && t >= 0 && x->loop_of[t] == l && x->lp[l].head != (size_t)t) {
                lp__cc_put(b, run, (size_t)(s - run) + 1);
                lp__cc_puts(b, LP_CC_LOOPS_U);
                run = s + 1;
            }
        } else {
            long v = lp_cc_val(x, s + 1, len);
            if (v >= 0) {
                lp__cc_put(b, run, (size_t)(s - run) + 1);
                lp_cc_put_val(x, b, v, l, u, at);
                run = s + 1 + len;
            }
        }
        s += len;
    }
    lp__cc_put(b, run, (size_t)(end - run));
}

/* Writes a phi of block bl in version u of its loop, or (u 0) as the
 * function has it with, for each entry from a versioned loop that bl is
 * the header or an exit of, the same entry from the loop's second
 * version. */
static int lp_cc_put_phi(const lp_cc_lfn *x, lp_cc_buf *b, const lp__cc_btstmt *s, size_t bl, int u)
{
    lp_cc_phient *e;
    size_t head, tail;
    const char *r;
    long k = lp_cc_phi_of(s, &e, &head, &tail, &r);
    if (k <= 0)
        return -1;
    long l = lp_cc_vloop(x, bl);
    lp__cc_puts(b, "  %");
    lp_cc_put_val(x, b, s->def, l, u, bl);
    lp__cc_puts(b, " = phi ");
    lp__cc_put(b, r, head);
    int first = 1;
    for (long i = 0; i < k; i++) {
        long pb = lp__cc_bt_find(&x->f.labels, e[i].pred.p, e[i].pred.n);
        if (pb < 0) {
            free(e);
            return -1;
        }
        long pl = lp_cc_vloop(x, (size_t)pb);
        int inner = pl >= 0 && pl == l && x->lp[l].head != bl; /* bl in the loop's body */
        for (int v = 0; v < 2; v++) {
            int uu = u ? 1 : v;
            if (v == 1 && (u || inner || pl < 0))
                break; /* one entry */
            if (v == 0 && !u && inner)
                uu = 0;
            lp__cc_puts(b, first ? "[ " : ", [ ");
            first = 0;
            long val = e[i].val.n && e[i].val.p[0] == '%'
                           ? lp_cc_val(x, e[i].val.p + 1, e[i].val.n - 1)
                           : -1;
            if (val >= 0) {
                lp__cc_puts(b, "%");
                lp_cc_put_val(x, b, val, pl, uu, (size_t)pb);
            } else {
                lp__cc_put(b, e[i].val.p, e[i].val.n);
            }
            lp__cc_puts(b, ", %");
            lp_cc_put_pred(x, b, (size_t)pb, uu);
            lp__cc_puts(b, " ]");
        }
    }
    lp_cc_put_text(x, b, r + tail, (size_t)(s->p + s->n - (r + tail)), l, u, bl);
    lp__cc_puts(b, "\n");
    free(e);
    return 0;
}

/* ---- the loops ------------------------------------------------------------------------- */

/* The outermost natural loops: headers in reverse postorder, each taking
 * the blocks that reach its latches without passing it (an inner loop's
 * header comes later and is already taken). 0, or -1 without memory. */
static int lp_cc_find_loops(lp_cc_lfn *x)
{
    lp__cc_btfn *f = &x->f;
    size_t edges = f->nbl + 1;
    for (size_t b = 0; b < f->nbl; b++)
        edges += f->bl[b].npred;
    size_t *stack = malloc(edges * sizeof *stack);
    if (!stack)
        return -1;
    for (size_t i = 0; i < f->norder; i++) {
        size_t h = f->order[i];
        if (x->loop_of[h] >= 0)
            continue;
        size_t sp = 0;
        for (size_t k = 0; k < f->bl[h].npred; k++) {
            size_t p = f->bl[h].pred[k];
            if (f->bl[p].rpo >= 0 && lp__cc_bt_dominates(f, h, p))
                stack[sp++] = p;
        }
        if (!sp)
            continue;
        lp_cc_lp *v = lp__cc_grow(x->lp, x->nlp, &x->caplp, sizeof *v, 4);
        if (!v) {
            free(stack);
            return -1;
        }
        x->lp = v;
        long id = (long)x->nlp++;
        x->lp[id] = (lp_cc_lp){.head = h, .num = -1, .mergeable = 1};
        x->loop_of[h] = id;
        while (sp) {
            size_t b = stack[--sp];
            if (x->loop_of[b] == id)
                continue;
            if (x->loop_of[b] >= 0)
                x->tangled = 1;
            x->loop_of[b] = id;
            for (size_t k = 0; k < f->bl[b].npred; k++) {
                size_t p = f->bl[b].pred[k];
                if (f->bl[p].rpo >= 0 && x->loop_of[p] != id)
                    stack[sp++] = p;
            }
        }
    }
    free(stack);
    return 0;
}

/* ---- values that leave a loop ------------------------------------------------------------- */

/* r starts with one of the words (each followed by a space): its length
 * with the space, or 0. */
static size_t lp_cc_word(const char *r, const char *end, const char *const *words)
{
    for (; *words; words++) {
        size_t n = strlen(*words);
        if ((size_t)(end - r) > n && memcmp(r, *words, n) == 0 && r[n] == ' ')
            return n + 1;
    }
    return 0;
}

/* Whether the t bytes at p look like a first-class type (not an
 * attribute that a form this file does not know left in their place). */
static int lp_cc_is_type(const char *p, size_t t)
{
    static const char *const words[] = {"half",     "bfloat", "float", "double",
                                        "x86_fp80", "fp128",  "ptr",   NULL};
    if (!t)
        return 0;
    if (p[0] == '%' || p[0] == '{' || p[0] == '[' || p[0] == '<' ||
        (p[0] == 'i' && t > 1 && p[1] >= '1' && p[1] <= '9'))
        return 1;
    for (const char *const *w = words; *w; w++) {
        size_t n = strlen(*w);
        if (t >= n && memcmp(p, *w, n) == 0 && (t == n || p[n] == '*'))
            return 1;
    }
    return 0;
}

/* The type of the value statement s defines, for a phi at the loop's
 * exit; an empty line when this file does not work it out (the loop then
 * stays in one version). */
static lp_cc_line lp_cc_type_of(const lp__cc_btstmt *s);

static lp_cc_line lp_cc_type(const lp__cc_btstmt *s)
{
    lp_cc_line t = lp_cc_type_of(s);
    if (!lp_cc_is_type(t.p, t.n))
        t.n = 0;
    return t;
}

static lp_cc_line lp_cc_type_of(const lp__cc_btstmt *s)
{
    static const char *const binops[] = {"add",  "sub",  "mul",  "udiv", "sdiv", "urem",   "srem",
                                         "shl",  "lshr", "ashr", "and",  "or",   "xor",    "fadd",
                                         "fsub", "fmul", "fdiv", "frem", "fneg", "freeze", NULL};
    static const char *const flags[] = {"nuw", "nsw",  "exact",    "fast", "nnan",    "ninf",
                                        "nsz", "arcp", "contract", "afn",  "reassoc", NULL};
    static const char *const casts[] = {"trunc",    "zext",    "sext",   "fptrunc", "fpext",
                                        "fptoui",   "fptosi",  "uitofp", "sitofp",  "ptrtoint",
                                        "inttoptr", "bitcast", NULL};
    static const char *const call_words[] = {"tail",    "musttail", "notail",  "call",    "fastcc",
                                             "coldcc",  "ccc",      "zeroext", "signext", "inreg",
                                             "noalias", "nonnull",  "noundef", NULL};
    lp_cc_line none = {NULL, 0}, r = lp__cc_bt_rhs(s);
    const char *p = r.p, *end = r.p + r.n;
    size_t w;
    if (s->def < 0 || r.p == s->p)
        return none;
    if ((w = lp_cc_word(p, end, binops)) || lp__cc_bt_starts(p, end, "phi ") ||
        lp__cc_bt_starts(p, end, "load ")) {
        p += w ? w : 4 + (p[0] == 'l');
        while ((w = lp_cc_word(p, end, flags)) != 0 ||
               (w = lp_cc_word(p, end, (const char *const[]){"atomic", "volatile", NULL})) != 0)
            p += w;
        size_t t = lp__cc_bt_type_len(p, (size_t)(end - p));
        return (lp_cc_line){p, t};
    }
    if (lp_cc_word(p, end, casts)) {
        const char *to = NULL;
        for (const char *q = p; q + 4 <= end; q++)
            if (memcmp(q, " to ", 4) == 0)
                to = q + 4;
        if (!to)
            return none;
        return (lp_cc_line){to, lp__cc_bt_type_len(to, (size_t)(end - to))};
    }
    if (lp__cc_bt_starts(p, end, "icmp ") || lp__cc_bt_starts(p, end, "fcmp ")) {
        const char *sp = memchr(p + 5, ' ', (size_t)(end - p - 5)); /* after the predicate */
        if (!sp || sp + 1 >= end || sp[1] == '<')
            return none; /* a vector compare */
        return (lp_cc_line){"i1", 2};
    }
    lp_cc_line ops[4];
    if (lp__cc_bt_starts(p, end, "select ")) {
        p += 7;
        while ((w = lp_cc_word(p, end, flags)) != 0)
            p += w;
        if (lp__cc_bt_operands(p, (size_t)(end - p), ops, 3) < 3)
            return none;
        return (lp_cc_line){ops[1].p, lp__cc_bt_type_len(ops[1].p, ops[1].n)};
    }
    if (lp__cc_bt_starts(p, end, "getelementptr ")) {
        /* one index: the pointer's own type */
        p += 14;
        if (lp__cc_bt_starts(p, end, "inbounds "))
            p += 9;
        if (lp__cc_bt_operands(p, (size_t)(end - p), ops, 4) != 3 || ops[1].p[0] == '<')
            return none;
        return (lp_cc_line){ops[1].p, lp__cc_bt_type_len(ops[1].p, ops[1].n)};
    }
    if (lp__cc_bt_starts(p, end, "call ") || lp__cc_bt_starts(p, end, "tail ")) {
        while ((w = lp_cc_word(p, end, call_words)) != 0 || (w = lp_cc_word(p, end, flags)) != 0)
            p += w;
        size_t t = lp__cc_bt_type_len(p, (size_t)(end - p));
        /* `i32 (i8*, ...) @f(`: the function's type; its return type first */
        const char *paren = memmem(p, t, " (", 2);
        if (paren && p[t - 1] == ')')
            t = (size_t)(paren - p);
        if (!t || memchr(p, '(', t) || lp__cc_bt_starts(p, end, "void "))
            return none;
        return (lp_cc_line){p, t};
    }
    return none;
}

/* A use found by lp__cc_bt_uses: the function and the block it is at. */
typedef struct lp_cc_use_at {
    lp_cc_lfn *x;
    size_t at;
    void (*use)(lp_cc_lfn *, long, size_t);
} lp_cc_use_at;

static void lp_cc_use_cb(void *ctx, long v)
{
    lp_cc_use_at *u = ctx;
    u->use(u->x, v, u->at);
}

/* Calls use(x, v, at) for each local value statement s of block bl uses,
 * at the block where the use happens: a phi's operand at the end of its
 * predecessor. -1 for a phi of unknown form or without memory. */
static int lp_cc_uses(lp_cc_lfn *x, const lp__cc_btstmt *s, size_t bl,
                      void (*use)(lp_cc_lfn *, long, size_t))
{
    lp_cc_phient *e;
    size_t head, tail;
    const char *r;
    long k = lp_cc_phi_of(s, &e, &head, &tail, &r);
    if (k < 0)
        return -1;
    if (k == 0) {
        lp_cc_use_at u = {x, bl, use};
        lp__cc_bt_uses(&x->f, s, lp_cc_use_cb, &u);
        return 0;
    }
    for (long i = 0; i < k; i++) {
        long pb = lp__cc_bt_find(&x->f.labels, e[i].pred.p, e[i].pred.n);
        if (pb < 0) {
            free(e);
            return -1;
        }
        if (e[i].val.n > 1 && e[i].val.p[0] == '%') {
            long v = lp_cc_val(x, e[i].val.p + 1, e[i].val.n - 1);
            if (v >= 0)
                use(x, v, (size_t)pb);
        }
    }
    free(e);
    return 0;
}

/* A use of v at block at: v leaves its loop when at lies outside it, and
 * is merged at the exit the use lies behind (lp_cc_exit_for). */
static void lp_cc_note_use(lp_cc_lfn *x, long v, size_t at)
{
    long b = x->f.def_block[v];
    long l = b >= 0 ? x->loop_of[b] : -1;
    if (l < 0 || x->hphi[v] || x->loop_of[at] == l)
        return;
    lp_cc_lp *lp = &x->lp[l];
    lp->escapes = 1;
    if (!x->esc[v]) {
        x->esc[v] = 1;
        x->vtype[v] = lp_cc_type(&x->f.st[x->f.def_stmt[v]]);
        if (!x->vtype[v].n)
            lp->mergeable = 0;
    }
    long e = lp_cc_exit_for(x, l, at);
    if (e < 0) {
        lp->mergeable = 0;
        return;
    }
    for (size_t i = 0; i < x->nmg; i++)
        if (x->mg[i].v == v && x->mg[i].exit == (size_t)e)
            return;
    /* v must be defined on every way into the exit */
    for (size_t k = 0; k < x->f.bl[e].npred; k++)
        if (!lp__cc_bt_dominates(&x->f, (size_t)b, x->f.bl[e].pred[k]))
            lp->mergeable = 0;
    lp_cc_merge *m = lp__cc_grow(x->mg, x->nmg, &x->capmg, sizeof *m, 16);
    if (!m) {
        lp->mergeable = 0; /* no memory: the loop stays in one version */
        return;
    }
    x->mg = m;
    x->mg[x->nmg++] = (lp_cc_merge){v, (size_t)e};
}

/* The values that leave each loop, and which loops get two versions. 0,
 * -1 for a statement of unknown form or without memory. */
static int lp_cc_decide(lp_cc_lfn *x)
{
    lp__cc_btfn *f = &x->f;
    for (size_t s = 0; s < f->nst; s++) {
        long v = f->st[s].def;
        if (v >= 0 && f->def_block[v] >= 0) {
            size_t b = (size_t)f->def_block[v];
            lp_cc_line r = lp__cc_bt_rhs(&f->st[s]);
            x->hphi[v] = x->loop_of[b] >= 0 && x->lp[x->loop_of[b]].head == b &&
                         lp__cc_bt_starts(r.p, r.p + r.n, "phi ");
        }
    }
    for (size_t b = 0; b < f->nbl; b++)
        for (size_t s = f->bl[b].s0; s < f->bl[b].s0 + f->bl[b].ns; s++)
            if (lp_cc_uses(x, &f->st[s], b, lp_cc_note_use) != 0)
                return -1;
    long num = 0;
    for (size_t l = 0; l < x->nlp && !x->tangled; l++)
        if (!x->lp[l].escapes || x->lp[l].mergeable)
            x->lp[l].num = num++;
    return 0;
}

/* ---- writing ------------------------------------------------------------------------------ */

/* How many edges the terminator of block p has to the block named t. */
static size_t lp_cc_edges_to(const lp__cc_btfn *f, size_t p, lp_cc_line t)
{
    const lp__cc_btstmt *s = &f->st[f->bl[p].s0 + f->bl[p].ns - 1];
    const char *end = s->p + s->n;
    size_t k = 0;
    for (const char *q = s->p; (q = memmem(q, (size_t)(end - q), "label %", 7)) != NULL; q += 7)
        if ((size_t)(end - q - 7) >= t.n && memcmp(q + 7, t.p, t.n) == 0 &&
            (q + 7 + t.n == end || !lp__cc_ident_char(q[7 + t.n])))
            k++;
    return k;
}

/* The phis that merge, at exit block e, the values that leave a loop
 * there. */
static void lp_cc_put_merges(const lp_cc_lfn *x, lp_cc_buf *b, size_t e)
{
    const lp__cc_btfn *f = &x->f;
    for (size_t i = 0; i < x->nmg; i++) {
        long v = x->mg[i].v;
        if (x->mg[i].exit != e || lp_cc_vdef(x, v) < 0)
            continue;
        lp_cc_line name = f->vals.key[v];
        lp__cc_printf(b, "  %%" LP_CC_LOOPS_X "%zu.%.*s = phi %.*s ", e, (int)name.n, name.p,
                      (int)x->vtype[v].n, x->vtype[v].p);
        int first = 1;
        for (int u = 0; u < 2; u++)
            for (size_t k = 0; k < f->bl[e].npred; k++) {
                size_t p = f->bl[e].pred[k];
                for (size_t m = lp_cc_edges_to(f, p, f->bl[e].label); m > 0; m--) {
                    lp__cc_printf(b, "%s[ %%%s%.*s, %%", first ? "" : ", ", u ? LP_CC_LOOPS_U : "",
                                  (int)name.n, name.p);
                    lp_cc_put_pred(x, b, p, u);
                    lp__cc_puts(b, " ]");
                    first = 0;
                }
            }
        lp__cc_puts(b, "\n");
    }
}

/* Writes block bl: as the function has it (u 0; a versioned header with
 * the check after its phis), or its copy in version u of its loop. */
static int lp_cc_put_block(const lp_cc_lfn *x, lp_cc_buf *b, size_t bl, int u)
{
    const lp__cc_btfn *f = &x->f;
    const lp__cc_btblock *k = &f->bl[bl];
    long l = lp_cc_vloop(x, bl);
    int head = l >= 0 && x->lp[l].head == bl, checked = 0;
    if (u && head)
        lp__cc_printf(b, LP_CC_LOOPS_U LP_CC_LOOPS_OWN "%ld:\n", x->lp[l].num);
    else
        lp__cc_printf(b, "%s%.*s:\n", u ? LP_CC_LOOPS_U : "", (int)k->label.n, k->label.p);
    if (!u)
        lp_cc_put_merges(x, b, bl);
    for (size_t i = k->s0; i < k->s0 + k->ns; i++) {
        const lp__cc_btstmt *s = &f->st[i];
        lp_cc_line r = lp__cc_bt_rhs(s);
        int phi = r.p != s->p && lp__cc_bt_starts(r.p, r.p + r.n, "phi ");
        if (phi && u && head)
            continue; /* the header's phis are both versions' */
        /* The counted blocks are the fall-through: the compiler lays the
         * jump's target out as the unlikely path (above). */
        if (!phi && head && !u && !checked) {
            long n = x->lp[l].num;
            lp__cc_printf(
                b,
                "  " LP_CC_LOOPS_CHECK "(i8* blockaddress(@%.*s, %%" LP_CC_LOOPS_U LP_CC_LOOPS_OWN
                "%ld)) to label %%" LP_CC_LOOPS_OWN "%ld [label %%" LP_CC_LOOPS_U LP_CC_LOOPS_OWN
                "%ld]\n" LP_CC_LOOPS_OWN "%ld:\n",
                (int)x->fname.n, x->fname.p, n, n, n, n);
            checked = 1;
        }
        if (phi) {
            if (lp_cc_put_phi(x, b, s, bl, u) != 0)
                return -1;
            continue;
        }
        lp__cc_puts(b, "  ");
        lp_cc_put_text(x, b, s->p, s->n, l, u, bl);
        lp__cc_puts(b, "\n");
    }
    return 0;
}

/* Rewrites one copy (lines[0, n), numbered values named) into b when some
 * loop of it gets two versions: returns how many did. 0 (nothing written)
 * also when the body cannot be read (a form this file does not know, or
 * no memory): the copy then stays as it is, as correct as before. */
static long lp_cc_loops_fn(const lp_cc_bt_module *m, const lp_cc_line *lines, size_t n,
                           lp_cc_loops_counts *c, lp_cc_buf *out)
{
    lp_cc_buf text = {0}, *b = &text;
    lp_cc_lfn x;
    memset(&x, 0, sizeof x);
    long rc = lp__cc_bt_read(&x.f, m, lines, n);
    const char *at = memchr(lines[0].p, '@', lines[0].n),
               *open = lp__cc_params(lines[0].p, lines[0].n);
    if (!at || !open || open <= at)
        rc = 1;
    else
        x.fname = (lp_cc_line){at + 1, (size_t)(open - at - 1)};
    if (rc == 1) {
        lp__cc_bt_free(&x.f);
        return 0;
    }
    lp__cc_btfn *f = &x.f;
    size_t nv = f->vals.n + 1;
    x.loop_of = rc ? NULL : malloc(f->nbl * sizeof *x.loop_of);
    x.esc = rc ? NULL : calloc(nv, 1);
    x.hphi = rc ? NULL : calloc(nv, 1);
    x.vtype = rc ? NULL : calloc(nv, sizeof *x.vtype);
    if (!rc && (!x.loop_of || !x.esc || !x.hphi || !x.vtype))
        rc = -1;
    for (size_t i = 0; !rc && i < f->nbl; i++)
        x.loop_of[i] = -1;
    int unreachable = 0;
    for (size_t i = 0; !rc && i < f->nbl; i++)
        unreachable |= f->bl[i].rpo < 0;
    if (!rc && !unreachable)
        rc = lp_cc_find_loops(&x);
    if (!rc && !unreachable && x.nlp)
        rc = lp_cc_decide(&x);
    long versioned = 0;
    for (size_t l = 0; !rc && l < x.nlp; l++)
        versioned += x.lp[l].num >= 0;
    if (!rc && versioned) {
        lp__cc_put(b, lines[0].p, lines[0].n);
        lp__cc_puts(b, "\n");
        for (size_t i = 0; i < f->nbl && !rc; i++)
            rc = lp_cc_put_block(&x, b, i, 0);
        for (size_t l = 0; l < x.nlp && !rc; l++)
            for (size_t i = 0; i < f->nbl && !rc; i++)
                if (x.lp[l].num >= 0 && x.loop_of[i] == (long)l)
                    rc = lp_cc_put_block(&x, b, i, 1);
        lp__cc_puts(b, "}\n");
    }
    if (!rc && !text.failed) {
        c->loops += (size_t)versioned;
        c->loops_left += x.nlp - (size_t)versioned;
        if (versioned)
            lp__cc_put(out, text.p, text.n);
    } else {
        c->fns_unread++;
        versioned = 0;
    }
    free(text.p);
    free(x.loop_of);
    free(x.esc);
    free(x.hphi);
    free(x.vtype);
    free(x.mg);
    free(x.lp);
    lp__cc_bt_free(f);
    return versioned;
}

long lp_cc_loops_ir(const char *in, size_t len, char **out, size_t *out_len,
                    lp_cc_loops_counts *counts, char *err, size_t errcap)
{
    lp_cc_loops_counts c = {0};
    lp_cc_bt_module m = {.numbered = LP_CC_LOOPS_NUM};
    lp_cc_buf b = {0}, fn = {0};
    size_t n = 0, nl = 0;
    lp_cc_line *lines = lp__cc_split(in, len, &n), *fl = NULL, *types = NULL;
    size_t captypes = 0;
    long rc = lines ? 0 : -1;
    if (errcap)
        err[0] = 0;
    int numbered_types = 0;
    for (size_t i = 0; !rc && i < n; i++) {
        lp_cc_line l = lines[i];
        const char *eq = l.n > 1 && l.p[0] == '%' ? memmem(l.p, l.n, " = type ", 8) : NULL;
        if (!eq)
            continue;
        numbered_types |= l.p[1] >= '0' && l.p[1] <= '9';
        lp_cc_line *t = lp__cc_grow(types, m.ntypes, &captypes, sizeof *t, 16);
        if (!t) {
            rc = -1;
            break;
        }
        types = t;
        types[m.ntypes++] = (lp_cc_line){l.p + 1, (size_t)(eq - l.p - 1)};
    }
    m.types = types;
    for (size_t i = 0; !rc && i < n; i++) {
        lp_cc_line l = lines[i];
        size_t end = i;
        if (numbered_types || !lp__cc_starts(l, "define ") || !lp__cc_is_copy_define(l.p, l.n)) {
            lp__cc_put(&b, l.p, l.n);
            lp__cc_puts(&b, "\n");
            continue;
        }
        while (end + 1 < n && !(lines[end].n == 1 && lines[end].p[0] == '}'))
            end++;
        free(fl);
        fl = lp__cc_bt_fn_lines(lines, i, end, LP_CC_LOOPS_NUM, &fn, &nl);
        if (!fl) {
            rc = -1;
            break;
        }
        long v = lp_cc_loops_fn(&m, fl, nl, &c, &b);
        c.fns += v > 0;
        for (size_t j = i; v == 0 && j <= end; j++) {
            lp__cc_put(&b, lines[j].p, lines[j].n);
            lp__cc_puts(&b, "\n");
        }
        i = end;
    }
    if (!rc && b.failed)
        rc = -1;
    if (rc < 0 && !err[0])
        lp__cc_fail(err, errcap, "out of memory");
    free(lines);
    free(fl);
    free(fn.p);
    free(types);
    if (rc < 0) {
        free(b.p);
        return -1;
    }
    if (!b.p)
        lp__cc_put(&b, "", 0);
    *out = b.p;
    *out_len = b.n;
    if (counts)
        *counts = c;
    return (long)c.loops;
}
