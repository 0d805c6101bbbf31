/* The copies' block counters made 64-bit and per thread (cc_clone.h).
 *
 * clang's inline-8bit-counters coverage gives every block of the copies
 * an increment of a byte, with no call: the cheapest counting the compiler
 * has, but a byte wraps after 255. This pass takes the IR clang prints
 * after its optimisations with that coverage (-S -emit-llvm) and rewrites
 * three things, as text, before the IR goes to the code generator:
 *
 * - each counter array `@__sancov_gen_.N` of [K x i8] becomes [K x i64] in
 *   lowprof's own section, so counts do not wrap;
 * - each increment (a load, an add of 1 and a store, as the coverage pass
 *   writes them, one after the other) becomes a 64-bit increment at the
 *   counter's address plus the thread's `lp__rt_cnt_delta`: the runtime
 *   points each thread's delta at that thread's own counter block while
 *   the blocks are on (no cache line is shared between threads), at a
 *   block it never reads while they are off (a copy that runs on after its
 *   window counts nothing), and leaves it 0 for a thread it has not seen
 *   yet (its counts go to the arrays themselves, which the runtime adds);
 * - the section and callback names, so that these counters never meet a
 *   library's own 8-bit coverage: __lp_cnt64 with lp__rt_cov_counters_init,
 *   __lp_pcs64 with lp__rt_cov_pcs_init.
 *
 * Anything else that names a counter array is refused, so a change in how
 * clang writes the increments fails the build instead of miscounting. */
#define _GNU_SOURCE /* memmem */
#include "cc_clone.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names clang gives, and lowprof's in their place. */
static const char *const lp_cc_renames[][2] = {
    {"__sancov_cntrs", "__lp_cnt64"},
    {"__sancov_pcs", "__lp_pcs64"},
    {"@__sanitizer_cov_8bit_counters_init", "@lp__rt_cov_counters_init"},
    {"@__sanitizer_cov_pcs_init", "@lp__rt_cov_pcs_init"},
};

/* Appends line l (n bytes, without its newline) with the renames done. */
static void lp_cc_put_renamed(lp_cc_buf *b, const char *l, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t r, nr = sizeof lp_cc_renames / sizeof *lp_cc_renames;
        for (r = 0; r < nr; r++) {
            size_t k = strlen(lp_cc_renames[r][0]);
            if (i + k <= n && memcmp(l + i, lp_cc_renames[r][0], k) == 0)
                break;
        }
        if (r < nr) {
            lp__cc_put(b, lp_cc_renames[r][1], strlen(lp_cc_renames[r][1]));
            i += strlen(lp_cc_renames[r][0]);
        } else {
            lp__cc_put(b, l + i, 1);
            i++;
        }
    }
}

/* The copies' function attributes. A copy inherits its original's
 * patchable entry, a 5-byte NOP run at every call that nothing patches in
 * a copy that counts inline: each attribute group a copy uses gets a twin
 * without it, numbered LP_CC_ATTR_TWIN higher. */
#define LP_CC_ATTR_TWIN 100000UL

typedef struct lp_cc_attrs {
    unsigned long *v; /* the groups copies use */
    size_t n, cap;
} lp_cc_attrs;

/* Writes a copy's define line with its attribute group (` #N` after the
 * parameters) replaced by the twin, and notes N. 0, or -1 without memory. */
static int lp_cc_copy_attrs(lp_cc_attrs *a, lp_cc_buf *b, const char *l, size_t n)
{
    const char *end = l + n, *p = memchr(l, '(', n);
    int depth = 0;
    for (; p && p < end; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')' && --depth == 0)
            break;
    }
    const char *h = p ? memmem(p, (size_t)(end - p), " #", 2) : NULL;
    char *num_end;
    unsigned long g = h ? strtoul(h + 2, &num_end, 10) : 0;
    if (!h || num_end == h + 2 || (num_end < end && *num_end != ' ')) {
        lp_cc_put_renamed(b, l, n);
        lp__cc_put(b, "\n", 1);
        return 0;
    }
    lp_cc_put_renamed(b, l, (size_t)(h - l));
    lp__cc_printf(b, " #%lu", g + LP_CC_ATTR_TWIN);
    lp_cc_put_renamed(b, num_end, (size_t)(end - num_end));
    lp__cc_put(b, "\n", 1);
    for (size_t i = 0; i < a->n; i++)
        if (a->v[i] == g)
            return 0;
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 16;
        unsigned long *q = realloc(a->v, cap * sizeof *q);
        if (!q)
            return -1;
        a->v = q;
        a->cap = cap;
    }
    a->v[a->n++] = g;
    return 0;
}

/* After the line `attributes #N = { ... }`: the twin of a group copies use,
 * without "patchable-function-entry". */
static void lp_cc_attrs_copy_group(const lp_cc_attrs *a, lp_cc_buf *b, const char *l, size_t n)
{
    char *e;
    unsigned long g = strtoul(l + 12, &e, 10);
    size_t i = 0;
    while (i < a->n && a->v[i] != g)
        i++;
    if (i == a->n || e == l + 12)
        return;
    static const char key[] = " \"patchable-function-entry\"=\"";
    const char *end = l + n, *k = memmem(e, (size_t)(end - e), key, sizeof key - 1);
    const char *kend =
        k ? memchr(k + sizeof key - 1, '"', (size_t)(end - (k + sizeof key - 1))) : NULL;
    lp__cc_printf(b, "attributes #%lu", g + LP_CC_ATTR_TWIN);
    if (kend) {
        lp__cc_put(b, e, (size_t)(k - e));
        lp__cc_put(b, kend + 1, (size_t)(end - (kend + 1)));
    } else {
        lp__cc_put(b, e, (size_t)(end - e));
    }
    lp__cc_put(b, "\n", 1);
}

/* Gives the numbered values and blocks in b from offset from on names:
 * %N becomes %lp.N and a label N: becomes lp.N:, outside quoted text. The
 * pc-table takes block addresses of the copies, and clang 14 drops what
 * makes such an address a block's own when the block is numbered in IR
 * text (the code generator then merges it with its neighbours, and
 * several counters get one address); named blocks keep it. A function
 * with no numbered values left needs no numbering either. */
static void lp_cc_name_numbers(lp_cc_buf *b, size_t from)
{
    if (b->failed || from >= b->n)
        return;
    lp_cc_buf out = {0};
    const char *p = b->p + from, *end = b->p + b->n;
    int quoted = 0, line_start = 1;
    while (p < end) {
        char ch = *p;
        if (ch == '"')
            quoted = !quoted;
        int digits_at = 0;
        if (!quoted && ch == '%' && p + 1 < end && p[1] >= '0' && p[1] <= '9' &&
            (p == b->p + from || !(lp__cc_ident_char(p[-1]))))
            digits_at = 1;
        else if (!quoted && line_start && ch >= '0' && ch <= '9')
            digits_at = 0, line_start = 2; /* maybe a label `N:` */
        if (digits_at) {
            const char *q = p + 1;
            while (q < end && *q >= '0' && *q <= '9')
                q++;
            if (q == end || !lp__cc_ident_char(*q)) {
                lp__cc_put(&out, "%lp.", 4);
                lp__cc_put(&out, p + 1, (size_t)(q - p - 1));
                p = q;
                line_start = 0;
                continue;
            }
        }
        if (line_start == 2) {
            const char *q = p;
            while (q < end && *q >= '0' && *q <= '9')
                q++;
            if (q < end && *q == ':') {
                lp__cc_put(&out, "lp.", 3);
                lp__cc_put(&out, p, (size_t)(q - p));
                p = q;
                line_start = 0;
                continue;
            }
        }
        line_start = ch == '\n';
        if (ch == '\n')
            quoted = 0;
        lp__cc_put(&out, p, 1);
        p++;
    }
    if (out.failed) {
        b->failed = 1;
        free(out.p);
        return;
    }
    b->n = from;
    lp__cc_put(b, out.p ? out.p : "", out.n);
    free(out.p);
}

/* Whether a define line defines a copy: `@NAME.lpdup(` or `@NAME.lpdupc(`. */
static int lp_cc_is_copy_define(const char *l, size_t n)
{
    const char *paren = memchr(l, '(', n);
    if (!paren)
        return 0;
    static const char s1[] = LP_CC_CLONE_SUFFIX "(", s2[] = LP_CC_CLONE_SUFFIX_CALLERS "(";
    size_t k = (size_t)(paren + 1 - l);
    return (k >= sizeof s1 - 1 && memcmp(paren + 1 - (sizeof s1 - 1), s1, sizeof s1 - 1) == 0) ||
           (k >= sizeof s2 - 1 && memcmp(paren + 1 - (sizeof s2 - 1), s2, sizeof s2 - 1) == 0);
}

/* The number of a define's entry block: it follows the unnamed
 * parameters (%0, %1, ...) in the numbering of unnamed values. */
static long lp_cc_entry_label(const char *l, size_t n)
{
    const char *p = memchr(l, '(', n), *end = l + n;
    long count = 0;
    int depth = 0;
    for (; p && p < end; p++) {
        if (*p == '(' || *p == '[' || *p == '{' || *p == '<')
            depth++;
        else if (*p == ')' || *p == ']' || *p == '}' || *p == '>') {
            if (--depth == 0)
                break;
        } else if (*p == '%' && p + 1 < end && p[1] >= '0' && p[1] <= '9' && depth == 1) {
            const char *q = p + 1;
            while (q < end && *q >= '0' && *q <= '9')
                q++;
            count += q < end && (*q == ',' || *q == ')');
        }
    }
    return count;
}

/* A phi of the copy naming the entry block (`, %N ]`) names lp.go instead,
 * where the entry block's branch now comes from. Returns 1 if it wrote the
 * line. */
static int lp_cc_fix_phi(lp_cc_buf *b, const char *l, size_t n, long entry)
{
    if (!memmem(l, n, " = phi ", 7))
        return 0;
    char pat[32];
    int pn = snprintf(pat, sizeof pat, ", %%%ld ]", entry);
    const char *p = l, *end = l + n, *hit;
    if (!memmem(l, n, pat, (size_t)pn))
        return 0;
    while ((hit = memmem(p, (size_t)(end - p), pat, (size_t)pn)) != NULL) {
        lp_cc_put_renamed(b, p, (size_t)(hit - p));
        lp__cc_put(b, ", %lp.go ]", 10);
        p = hit + pn;
    }
    lp_cc_put_renamed(b, p, (size_t)(end - p));
    lp__cc_put(b, "\n", 1);
    return 1;
}

/* One counter array: its name (with '@') and length. */
typedef struct lp_cc_arr {
    const char *name;
    size_t len;
    unsigned long k;
} lp_cc_arr;

/* Counters added to blocks of the copies that the coverage pass left out
 * but whose calls need one: each is an array of one counter `@lp.x.N`,
 * with its pc-table entry `@lp.xp.N` (the block's address), in the copy's
 * comdat. The assembler appends them to the copy's own counter and
 * pc-table sections (same names, same group), in the order they are
 * written, so the two sections stay parallel. */
typedef struct lp_cc_extra {
    const char *fn, *label;
    size_t fn_len, label_len;
    char *name; /* its own allocation: call sites keep pointers to it */
} lp_cc_extra;

typedef struct lp_cc_extras {
    lp_cc_extra *v;
    size_t n, cap;
} lp_cc_extras;

/* Adds a counter for the block label (label_len bytes) of the copy fn
 * (with '@'), and describes it as an array in *arr (whose name lives in
 * the list). 0, or -1 without memory. */
static int lp_cc_extra_add(lp_cc_extras *x, const char *fn, size_t fn_len, const char *label,
                           size_t label_len, lp_cc_arr *arr)
{
    if (x->n == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 64;
        lp_cc_extra *p = realloc(x->v, cap * sizeof *p);
        if (!p)
            return -1;
        x->v = p;
        x->cap = cap;
    }
    char *name = malloc(32);
    if (!name)
        return -1;
    snprintf(name, 32, "@lp.x.%zu", x->n);
    lp_cc_extra *e = &x->v[x->n++];
    *e = (lp_cc_extra){fn, label, fn_len, label_len, name};
    *arr = (lp_cc_arr){e->name, strlen(e->name), 1};
    return 0;
}

static void lp_cc_extras_free(lp_cc_extras *x)
{
    for (size_t i = 0; i < x->n; i++)
        free(x->v[i].name);
    free(x->v);
}

static void lp_cc_extras_emit(const lp_cc_extras *x, lp_cc_buf *b)
{
    for (size_t i = 0; i < x->n; i++) {
        const lp_cc_extra *e = &x->v[i];
        lp__cc_printf(b,
                      "%s = internal global [1 x i64] zeroinitializer, section \"__lp_cnt64\", "
                      "comdat($%.*s), align 8\n",
                      e->name, (int)e->fn_len - 1, e->fn + 1);
        lp__cc_printf(b,
                      "@lp.xp.%zu = internal constant [2 x i64*] [i64* bitcast (i8* "
                      "blockaddress(%.*s, %%%.*s) to i64*), i64* null], section \"__lp_pcs64\", "
                      "comdat($%.*s), align 8\n",
                      i, (int)e->fn_len, e->fn, (int)e->label_len, e->label, (int)e->fn_len - 1,
                      e->fn + 1);
    }
}

typedef struct lp_cc_cctx {
    lp_cc_arr *arrs;
    size_t narrs, cap;
} lp_cc_cctx;

static int lp_cc_fail2(char *err, size_t errcap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errcap, fmt, ap);
    va_end(ap);
    return -1;
}

/* After a copy's entry counter, the slow path's test: the return address
 * lies outside [lp__rt_cp_lo, lp__rt_cp_lo + lp__rt_cp_len), the thread's
 * view of the section LP_CC_COPIES_SECTION. That is a call from outside
 * the copies (the program's start, a library's callback, an original that
 * was running when the copies went on), which no site of a copy counts; or
 * a thread the runtime has not met (its view is empty), which gets its
 * counter block there, so that no thread counts into the shared arrays for
 * long. lp__rt_cp_enter does both, given the return address and the entry
 * counter. The entry block ends here; the rest of it becomes lp.go. */
static void lp_cc_split_entry(lp_cc_buf *b, const lp_cc_arr *arr, unsigned long j)
{
    lp__cc_printf(
        b,
        "  %%lp.ra = call i8* @llvm.returnaddress(i32 0)\n"
        "  %%lp.rai = ptrtoint i8* %%lp.ra to i64\n"
        "  %%lp.lo = load i64, i64* @lp__rt_cp_lo, align 8\n"
        "  %%lp.len = load i64, i64* @lp__rt_cp_len, align 8\n"
        "  %%lp.off = sub i64 %%lp.rai, %%lp.lo\n"
        "  %%lp.slow = icmp uge i64 %%lp.off, %%lp.len\n"
        "  br i1 %%lp.slow, label %%lp.enter, label %%lp.go, !prof !{!\"branch_weights\", "
        "i32 1, i32 1000000}\n"
        "\nlp.enter:\n"
        "  call void @lp__rt_cp_enter(i8* %%lp.ra, i64* getelementptr inbounds ([%lu x i64], "
        "[%lu x i64]* %.*s, i64 0, i64 %lu))\n"
        "  br label %%lp.go\n"
        "\nlp.go:\n",
        arr->k, arr->k, (int)arr->len, arr->name, j);
}

/* The counter array a global's definition line declares, or 0:
 * `@NAME = private global [K x i8] zeroinitializer, section "__sancov_cntrs"...`. */
static int lp_cc_arr_def(const char *l, size_t n, lp_cc_arr *out)
{
    static const char sect[] = "section \"__sancov_cntrs\"";
    if (n == 0 || l[0] != '@' || !memmem(l, n, sect, sizeof sect - 1))
        return 0;
    const char *eq = memchr(l, ' ', n);
    const char *br = memchr(l, '[', n);
    if (!eq || !br)
        return 0;
    char *end;
    unsigned long k = strtoul(br + 1, &end, 10);
    if (strncmp(end, " x i8]", 6) != 0)
        return 0;
    out->name = l;
    out->len = (size_t)(eq - l);
    out->k = k;
    return 1;
}

static const lp_cc_arr *lp_cc_arr_find(const lp_cc_cctx *c, const char *name, size_t len)
{
    for (size_t i = 0; i < c->narrs; i++)
        if (c->arrs[i].len == len && memcmp(c->arrs[i].name, name, len) == 0)
            return &c->arrs[i];
    return NULL;
}

/* Whether the line names a counter array (a whole name, not a prefix of a
 * longer one). */
static const lp_cc_arr *lp_cc_names_arr(const lp_cc_cctx *c, const char *l, size_t n)
{
    for (size_t i = 0; i < c->narrs; i++) {
        const lp_cc_arr *a = &c->arrs[i];
        const char *p = l, *end = l + n;
        while ((p = memmem(p, (size_t)(end - p), a->name, a->len)) != NULL) {
            const char *q = p + a->len;
            if (q == end ||
                !(q[0] == '.' || (q[0] >= '0' && q[0] <= '9') || (q[0] >= 'a' && q[0] <= 'z') ||
                  (q[0] >= 'A' && q[0] <= 'Z') || q[0] == '_'))
                return a;
            p = q;
        }
    }
    return NULL;
}

/* The counter a byte increment's line addresses: `[K x i8], [K x i8]* @NAME,
 * i64 0, i64 J)` after prefix; fills the array and J, returns the text after
 * the closing parenthesis, or NULL. */
static const char *lp_cc_counter_ref(const lp_cc_cctx *c, const char *l, size_t n,
                                     const char *prefix, const lp_cc_arr **arr, unsigned long *j)
{
    size_t pn = strlen(prefix);
    const char *p = memmem(l, n, prefix, pn);
    if (!p)
        return NULL;
    p += pn;
    const char *end = l + n;
    const char *at = memchr(p, '@', (size_t)(end - p));
    if (!at)
        return NULL;
    const char *comma = memchr(at, ',', (size_t)(end - at));
    if (!comma)
        return NULL;
    *arr = lp_cc_arr_find(c, at, (size_t)(comma - at));
    if (!*arr || strncmp(comma, ", i64 0, i64 ", 13) != 0)
        return NULL;
    char *e;
    *j = strtoul(comma + 13, &e, 10);
    if (*e != ')' || *j >= (*arr)->k)
        return NULL;
    return e + 1;
}

/* The value a line defines (`  %X = `), as name and length, or NULL. */
static const char *lp_cc_defined(const char *l, size_t n, size_t *len)
{
    size_t i = 0;
    while (i < n && l[i] == ' ')
        i++;
    if (i >= n || l[i] != '%')
        return NULL;
    const char *eq = memmem(l + i, n - i, " = ", 3);
    if (!eq)
        return NULL;
    *len = (size_t)(eq - (l + i));
    return l + i;
}

/* Writes a 64-bit increment of counter j of the array name (len bytes,
 * with '@'; k counters) at its address plus the thread's delta: serial
 * names its values (%lp.d.S, %lp.p.S, %lp.q.S), v and a are the loaded and
 * added values' names, meta the metadata for the memory accesses, add_meta
 * the add's. */
static void lp_cc_put_increment(lp_cc_buf *b, unsigned long serial, const char *name, size_t len,
                                unsigned long k, unsigned long j, const char *v, const char *a,
                                const char *meta, size_t meta_len, const char *add_meta,
                                size_t add_meta_len)
{
    /* Volatile: read at every block, so that a loop already running in a
     * copy stops counting when the runtime switches the copies off (the
     * code generator would otherwise be free to hoist it out of a loop). */
    lp__cc_printf(b, "  %%lp.d.%lu = load volatile i64, i64* @lp__rt_cnt_delta, align 8%.*s\n",
                  serial, (int)meta_len, meta);
    lp__cc_printf(b,
                  "  %%lp.p.%lu = getelementptr i8, i8* bitcast (i64* getelementptr inbounds "
                  "([%lu x i64], [%lu x i64]* %.*s, i64 0, i64 %lu) to i8*), i64 %%lp.d.%lu\n",
                  serial, k, k, (int)len, name, j, serial);
    lp__cc_printf(b, "  %%lp.q.%lu = bitcast i8* %%lp.p.%lu to i64*\n", serial, serial);
    lp__cc_printf(b, "  %s = load i64, i64* %%lp.q.%lu, align 8%.*s\n", v, serial, (int)meta_len,
                  meta);
    lp__cc_printf(b, "  %s = add i64 %s, 1%.*s\n", a, v, (int)add_meta_len, add_meta);
    lp__cc_printf(b, "  store i64 %s, i64* %%lp.q.%lu, align 8%.*s\n", a, serial, (int)meta_len,
                  meta);
}

/* Rewrites the increment that starts at lines[0] if it is one; returns the
 * lines it took (3, or 4 with ThreadSanitizer's announcement), 0 when line
 * 0 is not an increment's load, -1 on a malformed one. */
static int lp_cc_widen(const lp_cc_cctx *c, const lp_cc_line *lines, size_t avail,
                       unsigned long *serial, lp_cc_buf *b)
{
    const lp_cc_arr *arr, *arr3;
    unsigned long j, j3;
    size_t vn, an;
    const char *v = lp_cc_defined(lines[0].p, lines[0].n, &vn);
    static const char load[] = "= load i8, i8* getelementptr inbounds (";
    if (!v || !memmem(lines[0].p, lines[0].n, load, sizeof load - 1))
        return 0;
    const char *rest = lp_cc_counter_ref(c, lines[0].p, lines[0].n, load + 2, &arr, &j);
    if (!rest || avail < 3)
        return -1;
    const char *a = lp_cc_defined(lines[1].p, lines[1].n, &an);
    char want[256];
    int wn = snprintf(want, sizeof want, " = add i8 %.*s, 1", (int)vn, v);
    /* The add may carry metadata of its own (`, !dbg !9`), kept. */
    const char *add_end = a ? a + an + wn : NULL;
    const char *line1_end = lines[1].p + lines[1].n;
    if (!a || wn <= 0 || (size_t)wn >= sizeof want || add_end > line1_end ||
        memcmp(a + an, want, (size_t)wn) != 0 || (add_end < line1_end && *add_end != ','))
        return -1;
    /* Under ThreadSanitizer the store is announced first
     * (`call void @__tsan_write1(i8* COUNTER)`): dropped, since the
     * counters are racy by design (a thread's own block, or the shared
     * arrays of threads not seen yet) and the runtime reads them
     * atomically. */
    size_t skip = 0;
    static const char tsan[] = "  call void @__tsan_write1(i8* getelementptr inbounds (";
    if (avail >= 4 && lines[2].n >= sizeof tsan - 1 &&
        memcmp(lines[2].p, tsan, sizeof tsan - 1) == 0) {
        if (!lp_cc_counter_ref(c, lines[2].p, lines[2].n, tsan + 2, &arr3, &j3) || arr3 != arr ||
            j3 != j)
            return -1;
        skip = 1;
    }
    char st[256];
    int sn = snprintf(st, sizeof st, "store i8 %.*s, i8* getelementptr inbounds (", (int)an, a);
    const char *rest3 =
        sn > 0 && (size_t)sn < sizeof st
            ? lp_cc_counter_ref(c, lines[2 + skip].p, lines[2 + skip].n, st, &arr3, &j3)
            : NULL;
    if (!rest3 || arr3 != arr || j3 != j)
        return -1;
    /* The metadata after the alignment (`, align 1, !nosanitize !5`). */
    const char *tail = memmem(rest, (size_t)(lines[0].p + lines[0].n - rest), ", align 1", 9);
    size_t tn = tail ? (size_t)(lines[0].p + lines[0].n - (tail + 9)) : 0;
    const char *meta = tail ? tail + 9 : "";
    char vname[64], aname[64];
    snprintf(vname, sizeof vname, "%.*s", (int)vn, v);
    snprintf(aname, sizeof aname, "%.*s", (int)an, a);
    lp_cc_put_increment(b, (*serial)++, arr->name, arr->len, arr->k, j, vname, aname, meta, tn,
                        add_end, (size_t)(line1_end - add_end));
    return 3 + (int)skip;
}

/* The compiler-used list names each array's first byte:
 * `i8* getelementptr inbounds ([K x i8], [K x i8]* @NAME, i32 0, i32 0)`
 * becomes `i8* bitcast ([K x i64]* @NAME to i8*)`. */
static void lp_cc_put_used(const lp_cc_cctx *c, lp_cc_buf *b, const char *l, size_t n)
{
    static const char pre[] = "i8* getelementptr inbounds ([";
    size_t i = 0;
    while (i < n) {
        if (i + sizeof pre - 1 <= n && memcmp(l + i, pre, sizeof pre - 1) == 0) {
            const char *at = memchr(l + i, '@', n - i);
            const char *comma = at ? memchr(at, ',', (size_t)(l + n - at)) : NULL;
            const lp_cc_arr *arr = comma ? lp_cc_arr_find(c, at, (size_t)(comma - at)) : NULL;
            if (arr && strncmp(comma, ", i32 0, i32 0)", 15) == 0) {
                lp__cc_printf(b, "i8* bitcast ([%lu x i64]* %.*s to i8*)", arr->k, (int)arr->len,
                              arr->name);
                i = (size_t)(comma + 15 - l);
                continue;
            }
        }
        lp__cc_put(b, l + i, 1);
        i++;
    }
}

long lp_cc_counters_ir(const char *in, size_t len, int pic, char **out, size_t *out_len, char *err,
                       size_t errcap)
{
    lp_cc_cctx c = {0};
    lp_cc_buf b = {0};
    lp_cc_sites sites = {0};
    lp_cc_extras extras = {0};
    lp_cc_attrs attrs = {0};
    long rc = 0, arrays = 0;
    size_t n = 0;
    lp_cc_line *lines = lp__cc_split(in, len, &n);
    if (!lines)
        return lp_cc_fail2(err, errcap, "out of memory");
    for (size_t i = 0; i < n; i++) {
        lp_cc_arr a;
        if (!lp_cc_arr_def(lines[i].p, lines[i].n, &a))
            continue;
        if (c.narrs == c.cap) {
            size_t cap = c.cap ? 2 * c.cap : 64;
            lp_cc_arr *p = realloc(c.arrs, cap * sizeof *p);
            if (!p) {
                rc = lp_cc_fail2(err, errcap, "out of memory");
                goto done;
            }
            c.arrs = p;
            c.cap = cap;
        }
        c.arrs[c.narrs++] = a;
    }
    unsigned long serial = 0;
    /* Where the walk is: in a copy (from its define line), in a block
     * counted by which counter. */
    int in_copy = 0, entry_split = 0;
    long entry_label = 0;
    size_t fn_first = 0;
    /* The copy's name (with '@') and the current block's label, for the
     * counters added to blocks the coverage pass left out. */
    const char *fn_name = NULL, *label = NULL;
    size_t fn_name_len = 0, label_len = 0;
    lp_cc_arr xarr;
    size_t first_define = SIZE_MAX; /* where the first function begins in b */
    size_t fn_out = 0;              /* where the current one begins */
    const lp_cc_arr *cur = NULL;
    unsigned long cur_j = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const char *l = lines[i].p;
        size_t ln = lines[i].n;
        lp_cc_arr a;
        if (ln >= 7 && memcmp(l, "define ", 7) == 0) {
            if (first_define == SIZE_MAX)
                first_define = b.n;
            fn_out = b.n;
            in_copy = lp_cc_is_copy_define(l, ln);
            fn_first = i;
            cur = NULL;
            entry_split = 0;
            entry_label = lp_cc_entry_label(l, ln);
            fn_name = memchr(l, '@', ln);
            const char *paren = fn_name ? memchr(fn_name, '(', (size_t)(l + ln - fn_name)) : NULL;
            fn_name_len = paren ? (size_t)(paren - fn_name) : 0;
            label = NULL;
            if (in_copy && lp_cc_copy_attrs(&attrs, &b, l, ln) < 0)
                b.failed = 1;
            if (in_copy)
                continue;
        } else if (ln == 1 && l[0] == '}') {
            if (in_copy)
                lp_cc_name_numbers(&b, fn_out);
            in_copy = 0;
        } else if (ln && l[0] != ' ' && l[0] != ';' && memchr(l, ':', ln)) {
            cur = NULL; /* a block's label */
            label = l;
            label_len = (size_t)((const char *)memchr(l, ':', ln) - l);
        }
        if (lp_cc_arr_def(l, ln, &a)) {
            /* `@N = private global [K x i8] zeroinitializer, section ..., align 1` */
            const char *br = memchr(l, '[', ln);
            const char *x = memmem(br, (size_t)(l + ln - br), " x i8]", 6);
            const char *al = memmem(l, ln, ", align 1", 9);
            /* Internal rather than private: the site table's assembly
             * names the arrays, and private ones have no symbol. */
            const char *priv = memmem(l, (size_t)(br - l), " private ", 9);
            if (priv) {
                lp_cc_put_renamed(&b, l, (size_t)(priv - l));
                lp__cc_put(&b, " internal ", 10);
                lp_cc_put_renamed(&b, priv + 9, (size_t)(x - (priv + 9)));
            } else {
                lp_cc_put_renamed(&b, l, (size_t)(x - l));
            }
            lp__cc_put(&b, " x i64]", 7);
            if (al && al + 9 == l + ln) {
                lp_cc_put_renamed(&b, x + 6, (size_t)(al - (x + 6)));
                lp__cc_put(&b, ", align 8", 9);
            } else {
                lp_cc_put_renamed(&b, x + 6, (size_t)(l + ln - (x + 6)));
            }
            lp__cc_put(&b, "\n", 1);
            arrays++;
            continue;
        }
        int w = lp_cc_widen(&c, &lines[i], n - i, &serial, &b);
        if (w < 0) {
            rc = lp_cc_fail2(err, errcap,
                             "line %zu: a coverage counter increment in an unknown form", i + 1);
            break;
        }
        if (w > 0) {
            lp_cc_counter_ref(&c, l, ln, "load i8, i8* getelementptr inbounds (", &cur, &cur_j);
            i += (size_t)w - 1;
            if (in_copy && !entry_split) {
                lp_cc_split_entry(&b, cur, cur_j);
                entry_split = 1;
            }
            continue;
        }
        if (in_copy && entry_split && lp_cc_fix_phi(&b, l, ln, entry_label))
            continue;
        if (in_copy && !cur && label && fn_name_len && lp__cc_sites_wants(l, ln)) {
            /* A call in a block the coverage pass left out (its count is
             * implied by others'): the block gets a counter of its own,
             * here, before the call. */
            if (lp_cc_extra_add(&extras, fn_name, fn_name_len, label, label_len, &xarr) < 0)
                b.failed = 1;
            else {
                char v[40], a[40];
                snprintf(v, sizeof v, "%%lp.v.%lu", serial);
                snprintf(a, sizeof a, "%%lp.w.%lu", serial);
                lp_cc_put_increment(&b, serial++, xarr.name, xarr.len, 1, 0, v, a, "", 0, "", 0);
                cur = &xarr;
                cur_j = 0;
            }
        }
        if (in_copy && cur &&
            lp__cc_sites_line(&sites, lines, i, fn_first, cur->name, cur->len, cur->k, cur_j, &b) <
                0)
            b.failed = 1;
        if (lp_cc_names_arr(&c, l, ln)) {
            if (ln >= 19 && memcmp(l, "@llvm.compiler.used", 19) == 0) {
                lp_cc_put_used(&c, &b, l, ln);
                lp__cc_put(&b, "\n", 1);
                continue;
            }
            rc = lp_cc_fail2(err, errcap, "line %zu: a coverage counter used in an unknown way",
                             i + 1);
            break;
        }
        size_t line_out = b.n;
        lp_cc_put_renamed(&b, l, ln);
        lp__cc_put(&b, "\n", 1);
        if (ln && l[0] == '@' && memmem(l, ln, "blockaddress(", 13))
            lp_cc_name_numbers(&b, line_out);
        if (ln > 12 && memcmp(l, "attributes #", 12) == 0)
            lp_cc_attrs_copy_group(&attrs, &b, l, ln);
    }
    if (rc == 0 && arrays > 0) {
        /* The runtime is linked into the executable: its thread-local
         * variables sit at fixed offsets from the thread pointer, one
         * instruction away, unless this object may go into a shared
         * library. */
        const char *model = pic ? "initialexec" : "localexec";
        lp__cc_printf(&b,
                      "\n@lp__rt_cnt_delta = external thread_local(%s) global i64, align 8\n"
                      "@lp__rt_cp_lo = external thread_local(%s) global i64, align 8\n"
                      "@lp__rt_cp_len = external thread_local(%s) global i64, align 8\n"
                      "declare void @lp__rt_cp_enter(i8*, i64*)\n",
                      model, model, model);
        if (!memmem(in, len, "declare i8* @llvm.returnaddress(i32", 35))
            lp__cc_printf(&b, "declare i8* @llvm.returnaddress(i32)\n");
        lp__cc_sites_emit(&sites, &b);
        /* The added counters' pc-table entries take the addresses of
         * numbered blocks, which IR allows only before the function's
         * definition: they go before the first one. */
        lp_cc_buf x = {0};
        lp_cc_extras_emit(&extras, &x);
        lp_cc_name_numbers(&x, 0);
        if (x.failed)
            b.failed = 1;
        else if (x.n && first_define != SIZE_MAX) {
            size_t tail = b.n - first_define;
            lp__cc_put(&b, x.p, x.n); /* grows b */
            if (!b.failed) {
                memmove(b.p + first_define + x.n, b.p + first_define, tail);
                memcpy(b.p + first_define, x.p, x.n);
            }
        }
        free(x.p);
    }
    if (rc >= 0 && b.failed)
        rc = lp_cc_fail2(err, errcap, "out of memory");
done:
    arrays += (long)extras.n; /* the added counters are arrays of one */
    free(lines);
    free(c.arrs);
    free(sites.v);
    free(attrs.v);
    lp_cc_extras_free(&extras);
    if (rc < 0) {
        free(b.p);
        return rc;
    }
    if (!b.p)
        lp__cc_put(&b, "", 0);
    *out = b.p;
    *out_len = b.n;
    return arrays;
}
