/* One function's checking and instrumented code (cc_bursty.h): its
 * statements and blocks, the copy and the checks; its graph and loops are
 * cc_bursty_cfg.c's.
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
 * theirs. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_bursty_fn.h"

/* The longest label a copied function may have (clang's are short). */
#define LP_CC_BT_LABEL_MAX 1000

/* ---- names -------------------------------------------------------------------- */

/* The id of name, or -1. */
long lp__cc_bt_find(const lp__cc_btnames *t, const char *p, size_t n)
{
    if (!t->nslots)
        return -1;
    for (size_t i = lp__cc_hash(p, n) & (t->nslots - 1);; i = (i + 1) & (t->nslots - 1)) {
        uint32_t s = t->slot[i];
        if (!s)
            return -1;
        if (t->key[s - 1].n == n && memcmp(t->key[s - 1].p, p, n) == 0)
            return (long)s - 1;
    }
}

/* The id of name, added when new; -1 without memory. */
long lp__cc_bt_intern(lp__cc_btnames *t, const char *p, size_t n)
{
    long id = lp__cc_bt_find(t, p, n);
    if (id >= 0)
        return id;
    if (2 * (t->n + 1) > t->nslots) {
        size_t ns = t->nslots ? 2 * t->nslots : 64;
        uint32_t *slot = calloc(ns, sizeof *slot);
        if (!slot)
            return -1;
        for (size_t k = 0; k < t->n; k++) {
            size_t i = lp__cc_hash(t->key[k].p, t->key[k].n) & (ns - 1);
            while (slot[i])
                i = (i + 1) & (ns - 1);
            slot[i] = (uint32_t)k + 1;
        }
        free(t->slot);
        t->slot = slot;
        t->nslots = ns;
    }
    lp_cc_line *key = lp__cc_grow(t->key, t->n, &t->cap, sizeof *key, 64);
    if (!key)
        return -1;
    t->key = key;
    t->key[t->n] = (lp_cc_line){p, n};
    size_t i = lp__cc_hash(p, n) & (t->nslots - 1);
    while (t->slot[i])
        i = (i + 1) & (t->nslots - 1);
    t->slot[i] = (uint32_t)t->n + 1;
    return (long)t->n++;
}

static void bt_names_free(lp__cc_btnames *t)
{
    free(t->key);
    free(t->slot);
}

/* The local name at p[0] == '%' (not quoted): its length without '%'. */
size_t lp__cc_bt_local(const char *p, const char *end)
{
    size_t i = 1;
    while (p + i < end && lp__cc_ident_char(p[i]))
        i++;
    return i - 1;
}

int lp__cc_bt_starts(const char *p, const char *end, const char *s)
{
    size_t n = strlen(s);
    return (size_t)(end - p) >= n && memcmp(p, s, n) == 0;
}

size_t lp__cc_bt_loop_md(const char *s, const char *end)
{
    if (!lp__cc_bt_starts(s, end, ", !llvm.loop !"))
        return 0;
    const char *e = s + 14;
    while (e < end && *e >= '0' && *e <= '9')
        e++;
    return (size_t)(e - s);
}

lp_cc_line *lp__cc_bt_fn_lines(const lp_cc_line *lines, size_t first, size_t last,
                               const char *prefix, lp_cc_buf *fn, size_t *n)
{
    fn->n = 0;
    for (size_t j = first; j <= last; j++)
        if (!lp__cc_starts(lines[j], "  uselistorder")) {
            lp__cc_put(fn, lines[j].p, lines[j].n);
            lp__cc_puts(fn, "\n");
        }
    lp__cc_name_numbers_as(fn, 0, prefix);
    lp_cc_line *fl = fn->failed ? NULL : lp__cc_split(fn->p, fn->n, n);
    while (fl && *n && fl[*n - 1].n == 0)
        (*n)--;
    return fl;
}

static int bt_push_stmt(lp__cc_btfn *f, const char *p, size_t n)
{
    lp__cc_btstmt *v = lp__cc_grow(f->st, f->nst, &f->capst, sizeof *v, 256);
    if (!v)
        return -1;
    f->st = v;
    f->st[f->nst++] = (lp__cc_btstmt){.p = p, .n = n, .def = -1};
    return 0;
}

static int bt_push_block(lp__cc_btfn *f, const char *label, size_t len)
{
    lp__cc_btblock *v = lp__cc_grow(f->bl, f->nbl, &f->capbl, sizeof *v, 64);
    if (!v)
        return -1;
    f->bl = v;
    lp__cc_btblock *b = &f->bl[f->nbl++];
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
 * unnamed arguments, which lp__cc_name_numbers turned into `lp.N` (or the
 * module's prefix: a phi may name the entry as a predecessor). */
static void bt_entry_label(const lp__cc_btfn *f, char *out, size_t cap)
{
    lp_cc_line d = f->lines[0];
    const char *open = lp__cc_params(d.p, d.n);
    const char *prefix = f->m->numbered ? f->m->numbered : "lp.";
    size_t np = strlen(prefix);
    unsigned long unnamed = 0;
    for (const char *p = open ? open : d.p + d.n; p + np + 1 < d.p + d.n; p++)
        if (p[0] == '%' && memcmp(p + 1, prefix, np) == 0 && p[1 + np] >= '0' && p[1 + np] <= '9')
            unnamed++;
    snprintf(out, cap, "%s%lu", prefix, unnamed);
}

/* Splits the body into blocks of statements. Returns 0, -1 without memory. */
static int bt_parse(lp__cc_btfn *f)
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
static int bt_uncopyable(const lp__cc_btfn *f)
{
    static const char *const bad[] = {
        "indirectbr",  "blockaddress(", "callbr ",  "musttail ", "landingpad",      "invoke ",
        "catchswitch", "cleanuppad",    "catchpad", "%\"",       "@llvm.stacksave", "resume "};
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

/* The length of the type at p (an IR type: a word, %name, a bracketed
 * aggregate, then pointer stars and function parameter lists). */
size_t lp__cc_bt_type_len(const char *p, size_t n)
{
    size_t i = 0;
    if (i < n && (p[i] == '{' || p[i] == '[' || p[i] == '<')) {
        int d = 0;
        do
            d += lp__cc_depth(p[i++]);
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
                d += lp__cc_depth(p[i++]);
            while (i < n && d > 0);
        } else if (lp__cc_bt_starts(p + i, p + n, " addrspace(")) {
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
size_t lp__cc_bt_operands(const char *p, size_t n, lp_cc_line *out, size_t max)
{
    size_t k = 0, start = 0;
    int d = 0, q = 0;
    for (size_t i = 0; i <= n; i++) {
        char ch = i < n ? p[i] : ',';
        if (ch == '"')
            q = !q;
        if (q)
            continue;
        d += lp__cc_depth(ch);
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
lp_cc_line lp__cc_bt_rhs(const lp__cc_btstmt *s)
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
static lp_cc_line bt_access(const lp__cc_btstmt *s)
{
    lp_cc_line none = {NULL, 0}, r = lp__cc_bt_rhs(s);
    const char *end = r.p + r.n;
    const char *p = r.p;
    int load = lp__cc_bt_starts(p, end, "load ");
    if (!load && !lp__cc_bt_starts(p, end, "store "))
        return none;
    p += load ? 5 : 6;
    if (lp__cc_bt_starts(p, end, "atomic "))
        return none;
    if (lp__cc_bt_starts(p, end, "volatile "))
        p += 9;
    lp_cc_line ops[2];
    if (lp__cc_bt_operands(p, (size_t)(end - p), ops, 2) < 2)
        return none;
    return ops[1];
}

/* The value of "TYPE VALUE" (*type_len gets the type's length). */
static lp_cc_line bt_split_typed(lp_cc_line op, size_t *type_len)
{
    size_t t = lp__cc_bt_type_len(op.p, op.n);
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
static int bt_stack_pointer(const lp__cc_btfn *f, lp_cc_line v)
{
    for (int hops = 0; hops < 32; hops++) {
        if (!v.n || v.p[0] != '%')
            return 0;
        size_t len = lp__cc_bt_local(v.p, v.p + v.n);
        long id = lp__cc_bt_find(&f->vals, v.p + 1, len);
        if (id < 0)
            return 0;
        if (f->def_stmt[id] < 0)
            return 0; /* an argument */
        const lp__cc_btstmt *d = &f->st[f->def_stmt[id]];
        if (d->alloca)
            return 1;
        lp_cc_line r = lp__cc_bt_rhs(d);
        const char *end = r.p + r.n, *p = r.p;
        lp_cc_line ops[2];
        size_t tl;
        if (lp__cc_bt_starts(p, end, "getelementptr ")) {
            p += 14;
            if (lp__cc_bt_starts(p, end, "inbounds "))
                p += 9;
            if (lp__cc_bt_operands(p, (size_t)(end - p), ops, 2) < 2)
                return 0;
            v = bt_split_typed(ops[1], &tl);
        } else if (lp__cc_bt_starts(p, end, "bitcast ") ||
                   lp__cc_bt_starts(p, end, "addrspacecast ")) {
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
        if (d == 0 && lp__cc_bt_starts(q, end, "asm "))
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
        d += lp__cc_depth(*q);
    }
    return 0;
}

/* ---- writing -------------------------------------------------------------------------- */

/* Writes text with the copy's names (copy != 0: every local that is not
 * a type or shared gets the prefix), redirecting `label %H` of a latch to
 * its header's check block. A latch whose back-edge now goes through the
 * check loses its `, !llvm.loop !N` to the check (the header keeps it in
 * loop_md); the copy's loops lose theirs, since a loop identity belongs
 * to one loop. */
static void bt_put_text(lp__cc_btfn *f, lp_cc_buf *b, const char *p, size_t n, int copy,
                        const lp__cc_btblock *from)
{
    const char *end = p + n, *run = p;
    int q = 0;
    for (const char *s = p; s < end; s++) {
        if (*s == '"')
            q = !q;
        if (q)
            continue;
        size_t md_len = *s == ',' ? lp__cc_bt_loop_md(s, end) : 0;
        if (md_len && (copy || (from && from->latch_of >= 0))) {
            const char *e = s + md_len;
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
        size_t len = lp__cc_bt_local(s, end);
        if (!len)
            continue;
        lp__cc_put(b, run, (size_t)(s - run) + 1);
        run = s + 1;
        int is_label = s - p >= 6 && memcmp(s - 6, "label ", 6) == 0;
        if (is_label && from && from->latch_of >= 0) {
            const lp__cc_btblock *h = &f->bl[from->latch_of];
            if (h->label.n == len && memcmp(h->label.p, s + 1, len) == 0) {
                lp__cc_printf(b, "%s" LP_CC_BT_OWN "c%ld", copy ? LP_CC_BT_PREFIX : "", h->check);
                run = s + 1 + len;
                s += len;
                continue;
            }
        }
        long v = lp__cc_bt_find(&f->vals, s + 1, len);
        int keep =
            !copy || lp__cc_bt_is_type(f->m, s + 1, len) || (!is_label && v >= 0 && f->shared[v]);
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
#define BT_CLOBBERS                                                                                \
    "~{dirflag},~{fpsr},~{flags},~{r10},~{r11},~{xmm0},~{xmm1},~{xmm2},~{xmm3},~{xmm4},~{xmm5},~{" \
    "xmm6},"                                                                                       \
    "~{xmm7},~{xmm8},~{xmm9},~{xmm10},~{xmm11},~{xmm12},~{xmm13},~{xmm14},~{xmm15}"
/* `call void asm ...` with one pointer operand, pushed for the stub. */
#define BT_ASM_PUSH(stub)                                                                          \
    "asm sideeffect \"leaq -128(%rsp), %rsp\\0Apushq $0\\0Acall " stub                             \
    "@PLT\\0Aleaq 136(%rsp), %rsp\", \"r," BT_CLOBBERS "\""
static const char bt_asm_ref[] = BT_ASM_PUSH("lp__bt_ref_stub");
static const char bt_asm_enter[] = BT_ASM_PUSH("lp__bt_enter_stub");
/* The slow path of a check: the mode comes back in eax. */
static const char bt_asm_slow[] =
    "asm sideeffect \"leaq -128(%rsp), %rsp\\0Acall "
    "lp__bt_slow_stub@PLT\\0Aleaq 128(%rsp), %rsp\", \"={ax}," BT_CLOBBERS "\"";

static const char *bt_ptr(const lp__cc_btfn *f, const char *typed)
{
    return f->m->opaque ? "ptr" : typed;
}

/* A check named name (its values and blocks too), Fig. 3 in either copy:
 * the fast path goes on in the checking code (a return can have left the
 * thread in the instrumented copy while its counters say checking: the
 * check corrects that), the rest asks the runtime which copy goes on. md
 * is the loop identity of the original's check, or "". */
static void bt_put_check(lp__cc_btfn *f, lp_cc_buf *b, const char *name, const char *checking,
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
static void bt_put_ref(lp__cc_btfn *f, lp_cc_buf *b, size_t s)
{
    const lp__cc_btstmt *st = &f->st[s];
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

static void bt_put_block(lp__cc_btfn *f, lp_cc_buf *b, size_t bi, int copy)
{
    const lp__cc_btblock *bl = &f->bl[bi];
    if (copy)
        lp__cc_puts(b, LP_CC_BT_PREFIX);
    lp__cc_put(b, bl->label.p, bl->label.n);
    lp__cc_puts(b, ":\n");
    if (copy && bi == 0)
        lp__cc_printf(b,
                      "  %%" LP_CC_BT_OWN "ra = call %s @llvm.returnaddress(i32 0)\n"
                      "  call void %s(%s %%" LP_CC_BT_OWN "ra)\n",
                      bt_ptr(f, "i8*"), bt_asm_enter, bt_ptr(f, "i8*"));
    for (size_t s = bl->s0; s < bl->s0 + bl->ns; s++) {
        const lp__cc_btstmt *st = &f->st[s];
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
static int bt_classify(lp__cc_btfn *f)
{
    lp_cc_line d = f->lines[0];
    const char *end = d.p + d.n;
    const char *open = lp__cc_params(d.p, d.n);
    for (const char *p = open ? open : end; p < end; p++) /* the arguments */
        if (*p == '%' && !lp__cc_ident_char(p[-1])) {
            size_t len = lp__cc_bt_local(p, end);
            if (len && !lp__cc_bt_is_type(f->m, p + 1, len) &&
                lp__cc_bt_intern(&f->vals, p + 1, len) < 0)
                return -1;
            p += len;
        }
    size_t nargs = f->vals.n;
    for (size_t s = 0; s < f->nst; s++) {
        lp__cc_btstmt *st = &f->st[s];
        if (st->n && st->p[0] == '%') {
            size_t len = lp__cc_bt_local(st->p, st->p + st->n);
            if ((st->def = lp__cc_bt_intern(&f->vals, st->p + 1, len)) < 0)
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
    const lp__cc_btblock *e = &f->bl[0];
    for (size_t s = e->s0; s < e->s0 + e->ns; s++) {
        lp__cc_btstmt *st = &f->st[s];
        lp_cc_line r = lp__cc_bt_rhs(st);
        if (st->def >= 0 && lp__cc_bt_starts(r.p, r.p + r.n, "alloca ")) {
            st->alloca = 1;
            f->shared[st->def] = 1;
        }
    }
    for (size_t bi = 0; bi < f->nbl; bi++) {
        lp__cc_btblock *bl = &f->bl[bi];
        for (size_t s = bl->s0; s < bl->s0 + bl->ns; s++) {
            lp__cc_btstmt *st = &f->st[s];
            lp_cc_line r = lp__cc_bt_rhs(st);
            const char *callee;
            size_t clen;
            st->dbg = lp__cc_bt_starts(r.p, r.p + r.n, "call void @llvm.dbg.");
            st->call = (uint8_t)lp__cc_bt_call(r.p, r.n, &callee, &clen);
            bl->has_call |= st->call;
            lp_cc_line op = bt_access(st);
            if (op.n) {
                size_t tl;
                lp_cc_line v = bt_split_typed(op, &tl);
                int addrspace = memmem(op.p, tl, "addrspace", 9) != NULL;
                if (v.n && !addrspace && !lp__cc_bt_starts(v.p, v.p + v.n, "null") &&
                    !bt_stack_pointer(f, v)) {
                    st->ref = 1;
                    bl->events++;
                }
            }
        }
    }
    return 0;
}

void lp__cc_bt_free(lp__cc_btfn *f)
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

int lp__cc_bt_read(lp__cc_btfn *f, const lp_cc_bt_module *m, const lp_cc_line *lines, size_t n)
{
    memset(f, 0, sizeof *f);
    f->m = m;
    f->lines = lines;
    f->nlines = n;
    int rc = bt_parse(f);
    if (!rc && (f->nbl == 0 || bt_uncopyable(f)))
        return 1;
    if (!rc)
        rc = bt_classify(f);
    if (!rc)
        rc = lp__cc_bt_edges(f);
    if (!rc)
        rc = lp__cc_bt_rpo(f);
    if (!rc)
        lp__cc_bt_dominators(f);
    return rc;
}

int lp__cc_bt_function(const lp_cc_bt_module *m, const lp_cc_line *lines, size_t n, int entry_check,
                       lp_cc_bt_counts *c, lp_cc_buf *b)
{
    lp__cc_btfn f;
    int rc = lp__cc_bt_read(&f, m, lines, n);
    if (rc == 1) {
        c->fns_skipped++;
        lp__cc_bt_free(&f);
        return 1;
    }
    if (!rc)
        rc = lp__cc_bt_loops(&f, c);
    if (rc) {
        lp__cc_bt_free(&f);
        return -1;
    }
    for (size_t bi = 0; bi < f.nbl; bi++)
        if (f.bl[bi].record)
            c->refs += f.bl[bi].events;
    /* The define line, the shared slots and the entry's choice of copy. */
    lp__cc_put(b, lines[0].p, lines[0].n);
    lp__cc_puts(b, "\n" LP_CC_BT_OWN "pre:\n");
    const lp__cc_btblock *e = &f.bl[0];
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
            const lp__cc_btblock *h = &f.bl[bi];
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
    lp__cc_bt_free(&f);
    return b->failed ? -1 : 0;
}
