/* The copies' block counters made 64-bit and per thread, and the walk
 * over the optimised IR that gives the copies their call sites and entry
 * checks (cc_clone.h).
 *
 * clang's inline-8bit-counters coverage gives the blocks of the copies an
 * increment of a byte, with no call: the cheapest counting the compiler
 * has, but a byte wraps after 255. This pass takes the IR clang prints
 * after its optimisations with that coverage (-S -emit-llvm) and rewrites
 * it, as text, before the IR goes to the code generator:
 *
 * - each counter array `@__sancov_gen_.N` of [K x i8] becomes [K x i64] in
 *   lowprof's own section, so counts do not wrap;
 * - each array gets a thread-local twin `NAME.lpt` of as many 64-bit
 *   counters, and each increment (a load, an add of 1 and a store, as the
 *   coverage pass writes them, one after the other) becomes a 64-bit
 *   increment of the twin's counter: in an executable one instruction,
 *   `addq $1, %fs:OFFSET`, with no register and no shared cache line
 *   between threads. The arrays themselves are never written: they give
 *   each counter its index (and the pc-table its order). The runtime
 *   learns where the twins are from the table this pass writes into the
 *   section __lp_tls64 (three quads an array: the array's address, its
 *   twin's offset from the thread pointer, its length), and counts a
 *   window as the difference of each thread's twins between the window's
 *   edges, so a copy that runs on after its window adds nothing to it;
 * - the section and callback names, so that these counters never meet a
 *   library's own 8-bit coverage: __lp_cnt64 with lp__rt_cov_counters_init,
 *   __lp_pcs64 with lp__rt_cov_pcs_init;
 * - in each copy, its calls (cc_sites.c: the site table, counters for the
 *   blocks with calls that the coverage pass left out, the counting call
 *   before an indirect call) and the copy as a whole (cc_entry.c: the
 *   entry check, names for numbered values, attributes);
 * - for a build that profiles only the call graph, the increments of the
 *   blocks that neither enter a copy nor call: their counts are not
 *   needed, and a counter costs two instructions;
 * - in the blocks whose label starts with `lpu.` (a copy's loops' second
 *   versions, cc_loops.c, which run while the copies' windows are
 *   closed, and the edges the coverage pass split out of them), the
 *   increments of the blocks without calls. Those with calls keep theirs
 *   and their sites, as in a build for the call graph: an iteration that
 *   began there runs to its end there, also once a window opens, and its
 *   calls then reach the callees' copies, whose entry check leaves the
 *   pair to the caller's site.
 *
 * Anything else that names a counter array is refused, so a change in how
 * clang writes the increments fails the build instead of miscounting. */
#define _GNU_SOURCE /* memmem */
#include "cc_clone.h"

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

/* One counter array: its name (with '@') and length. */
typedef struct lp_cc_arr {
    const char *name;
    size_t len;
    unsigned long k;
} lp_cc_arr;

typedef struct lp_cc_cctx {
    lp_cc_arr *arrs;
    size_t narrs, cap;
    int switchable; /* increments written as switchable instructions */
} lp_cc_cctx;

/* The length of the label a line begins (`NAME:` with NAME of IR name
 * characters), or 0. */
static size_t lp_cc_label_len(const char *l, size_t n)
{
    size_t k = 0;
    while (k < n && lp__cc_ident_char(l[k]))
        k++;
    return k > 0 && k < n && l[k] == ':' ? k : 0;
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
    size_t used;
    unsigned long k = lp__cc_num(br + 1, (size_t)(l + n - (br + 1)), &used);
    const char *end = br + 1 + used;
    if (!used || l + n - end < 6 || memcmp(end, " x i8]", 6) != 0)
        return 0;
    out->name = l;
    out->len = (size_t)(eq - l);
    out->k = k;
    return 1;
}

/* The arrays are sorted by name (lp_cc_arr_cmp) once they are all known:
 * a module has one per copy, and each line asks. */
static int lp_cc_arr_cmp(const void *x, const void *y)
{
    const lp_cc_arr *a = x, *b = y;
    int d = memcmp(a->name, b->name, a->len < b->len ? a->len : b->len);
    return d ? d : (a->len > b->len) - (a->len < b->len);
}

static const lp_cc_arr *lp_cc_arr_find(const lp_cc_cctx *c, const char *name, size_t len)
{
    lp_cc_arr key = {name, len, 0};
    return c->narrs ? bsearch(&key, c->arrs, c->narrs, sizeof *c->arrs, lp_cc_arr_cmp) : NULL;
}

/* Whether the line names a counter array (a whole name, not a prefix of a
 * longer one). */
static const lp_cc_arr *lp_cc_names_arr(const lp_cc_cctx *c, const char *l, size_t n)
{
    const char *end = l + n;
    for (const char *p = memchr(l, '@', n); p; p = memchr(p + 1, '@', (size_t)(end - p - 1))) {
        const char *q = p + 1;
        while (q < end && lp__cc_ident_char(*q))
            q++;
        const lp_cc_arr *a = lp_cc_arr_find(c, p, (size_t)(q - p));
        if (a)
            return a;
        if (q >= end)
            break;
    }
    return NULL;
}

/* The counter a byte increment's line addresses: `[K x i8], [K x i8]* @NAME,
 * i64 0, i64 J)` after prefix; fills the array and J, returns the text after
 * the closing parenthesis, or NULL. *arr stays NULL when the global there is
 * not a counter array (the program's own bytes). */
static const char *lp_cc_counter_ref(const lp_cc_cctx *c, const char *l, size_t n,
                                     const char *prefix, const lp_cc_arr **arr, unsigned long *j)
{
    size_t pn = strlen(prefix);
    const char *p = memmem(l, n, prefix, pn);
    *arr = NULL;
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
    if (!*arr || end - comma < 13 || memcmp(comma, ", i64 0, i64 ", 13) != 0)
        return NULL;
    size_t used;
    *j = lp__cc_num(comma + 13, (size_t)(end - (comma + 13)), &used);
    const char *e = comma + 13 + used;
    if (!used || e >= end || *e != ')' || *j >= (*arr)->k)
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

/* Writes a 64-bit increment of counter j of the array name's thread-local
 * twin (name: len bytes, with '@'; k counters): serial names its pointer
 * (%lp.q.S), v and a are the loaded and added values' names, meta the
 * metadata for the memory accesses, add_meta the add's.
 *
 * In an executable (c->switchable) the increment is the one instruction
 * the code generator would make of the IR, `addq $1, %fs:TWIN@tpoff+8j`,
 * written as inline assembly so that its address goes into the section
 * __lp_inc64 (a 32-bit offset from the entry, so the table needs no
 * relocation at load): the runtime turns it into a `cmpq` (one byte
 * changes) while no window is open (rt_patch.c, "the copies'
 * increments"). A shared library's twins are reached through the GOT
 * (initial-exec), in two instructions, and keep the IR's increment. */
static void lp_cc_put_increment(const lp_cc_cctx *c, lp_cc_buf *b, unsigned long serial,
                                const char *name, size_t len, unsigned long k, unsigned long j,
                                const char *v, const char *a, const char *meta, size_t meta_len,
                                const char *add_meta, size_t add_meta_len)
{
    if (c->switchable) {
        lp__cc_printf(
            b,
            "  call void asm sideeffect \"1:\\0A\\09addq $$1, %%fs:%.*s.lpt@tpoff+%lu\\0A\\09"
            ".pushsection __lp_inc64,\\22a\\22,@progbits\\0A\\09.p2align 2\\0A\\09.long 1b - "
            ".\\0A\\09.popsection\", \"~{dirflag},~{fpsr},~{flags}\"()\n",
            (int)len - 1, name + 1, 8 * j);
        return;
    }
    /* A plain load and store: the code generator makes them one `add` to
     * memory. Where they land never changes, so nothing has to be re-read
     * in a loop. */
    lp__cc_printf(b,
                  "  %%lp.q.%lu = getelementptr inbounds [%lu x i64], [%lu x i64]* %.*s.lpt, i64 0, "
                  "i64 %lu\n",
                  serial, k, k, (int)len, name, j);
    lp__cc_printf(b, "  %s = load i64, i64* %%lp.q.%lu, align 8%.*s\n", v, serial, (int)meta_len,
                  meta);
    lp__cc_printf(b, "  %s = add i64 %s, 1%.*s\n", a, v, (int)add_meta_len, add_meta);
    lp__cc_printf(b, "  store i64 %s, i64* %%lp.q.%lu, align 8%.*s\n", a, serial, (int)meta_len,
                  meta);
}

/* The twin of each counter array (and of each added one), thread-local in
 * the given TLS model, and the table that tells the runtime where they
 * are: `.quad ARRAY, TWIN@dtpoff, K` in __lp_tls64. The linker resolves
 * the twin's offset in its module's TLS block in an executable and in a
 * shared library alike (@tpoff, the offset from the thread pointer, has
 * no relocation ld can write into a shared library's data); the runtime
 * reads the executable's table and adds the block's place. */
static void lp_cc_put_twins(const lp_cc_cctx *c, const lp_cc_extras *x, const char *model,
                            lp_cc_buf *b)
{
    size_t total = c->narrs + x->n;
    for (size_t i = 0; i < total; i++) {
        const char *name = i < c->narrs ? c->arrs[i].name : x->v[i - c->narrs].name;
        size_t len = i < c->narrs ? c->arrs[i].len : strlen(name);
        unsigned long k = i < c->narrs ? c->arrs[i].k : 1;
        lp__cc_printf(b, "%.*s.lpt = internal thread_local(%s) global [%lu x i64] zeroinitializer, "
                         "align 8\n",
                      (int)len, name, model, k);
    }
    if (!total)
        return;
    lp__cc_printf(b, "module asm \"\\09.pushsection __lp_tls64,\\22aw\\22,@progbits\"\n");
    lp__cc_printf(b, "module asm \"\\09.p2align 3\"\n");
    for (size_t i = 0; i < total; i++) {
        const char *name = i < c->narrs ? c->arrs[i].name : x->v[i - c->narrs].name;
        size_t len = i < c->narrs ? c->arrs[i].len : strlen(name);
        unsigned long k = i < c->narrs ? c->arrs[i].k : 1;
        /* The names without their '@'. */
        lp__cc_printf(b, "module asm \"\\09.quad %.*s, %.*s.lpt@dtpoff, %lu\"\n", (int)len - 1,
                      name + 1, (int)len - 1, name + 1, k);
    }
    lp__cc_printf(b, "module asm \"\\09.popsection\"\n");
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
    if (!rest && !arr)
        return 0; /* a byte of the program's own array (gzip's window[]) */
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
    lp_cc_put_increment(c, b, (*serial)++, arr->name, arr->len, arr->k, j, vname, aname, meta, tn,
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

/* Whether the block that line i is in (up to the next label or the
 * function's end) makes a call the site table counts. */
static int lp_cc_block_calls(const lp_cc_line *lines, size_t n, size_t i)
{
    for (; i < n; i++) {
        const char *l = lines[i].p;
        size_t ln = lines[i].n;
        if ((ln == 1 && l[0] == '}') || lp_cc_label_len(l, ln))
            return 0;
        if (lp__cc_sites_wants(l, ln))
            return 1;
    }
    return 0;
}

long lp_cc_counters_ir(const char *input, size_t len, unsigned flags, char **out,
                       size_t *out_len, char *err, size_t errcap)
{
    lp_cc_cctx c = {0};
    lp_cc_buf b = {0};
    lp_cc_sites sites = {0};
    lp_cc_extras extras = {0};
    lp_cc_attrs attrs = {.base = LP_CC_ATTRS_COPIES, .entry = ""};
    lp_cc_attrs prefixed_attrs = {.base = LP_CC_ATTRS_PREFIXED, .entry = LP_CC_ENTRY_PREFIXED};
    lp_cc_prefixed prefixed = {0};
    long rc = 0, arrays = 0;
    size_t n = 0;
    /* A terminated copy: the number parsers and comparisons below may read
     * past a line's end, never past the text's. */
    char *in = malloc(len + 1);
    lp_cc_line *lines = in ? lp__cc_split(memcpy(in, input, len), len, &n) : NULL;
    if (!lines) {
        free(in);
        return lp__cc_fail(err, errcap, "out of memory");
    }
    in[len] = 0;
    c.switchable = !(flags & LP_CC_PIC);
    if (!(flags & (LP_CC_NO_PREFIX | LP_CC_PIC)) &&
        lp__cc_prefixed_scan(&prefixed, lines, n) != 0) {
        free(prefixed.v);
        free(lines);
        free(in);
        return lp__cc_fail(err, errcap, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        lp_cc_arr a;
        if (!lp_cc_arr_def(lines[i].p, lines[i].n, &a))
            continue;
        lp_cc_arr *p = lp__cc_grow(c.arrs, c.narrs, &c.cap, sizeof *p, 64);
        if (!p) {
            rc = lp__cc_fail(err, errcap, "out of memory");
            goto done;
        }
        c.arrs = p;
        c.arrs[c.narrs++] = a;
    }
    if (c.narrs)
        qsort(c.arrs, c.narrs, sizeof *c.arrs, lp_cc_arr_cmp);
    unsigned long serial = 0;
    /* Where the walk is: in a copy (from its define line), in a block
     * counted by which counter. */
    int in_copy = 0, entry_split = 0, quiet = 0;
    /* The copy's check goes into a checking entry (cc_entry.c): whether it
     * can, whether its entry counter was seen (which), and whether the
     * entry is to be written after the copy's closing line. */
    int chk = 0, entry_seen = 0, entry_due = 0;
    lp_cc_sig sig; /* the copy's define line, read (chk) */
    const lp_cc_arr *entry_arr = NULL;
    unsigned long entry_j = 0;
    char entry_ref[LP_CC_ENTRY_REF_MAX]; /* the entry block's number or label */
    entry_ref[0] = 0;
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
        /* The order of uses (-emit-llvm-uselists) holds for what is left
         * as it was: the originals' own values. The copies' and the
         * module's (constants, globals) change here. */
        if ((ln >= 12 && memcmp(l, "uselistorder", 12) == 0) ||
            (in_copy && ln >= 14 && memcmp(l, "  uselistorder", 14) == 0))
            continue;
        if (ln >= 7 && memcmp(l, "define ", 7) == 0) {
            if (first_define == SIZE_MAX)
                first_define = b.n;
            fn_out = b.n;
            in_copy = lp__cc_is_copy_define(l, ln);
            fn_first = i;
            cur = NULL;
            quiet = 0;
            entry_split = 0;
            entry_seen = 0;
            chk = in_copy && lp__cc_entry_sig(l, ln, &sig);
            if (chk) /* the copies' twin group, as lp__cc_twin_define writes it */
                sig.group += attrs.base;
            snprintf(entry_ref, sizeof entry_ref, "%ld", lp__cc_entry_label(l, ln));
            fn_name = memchr(l, '@', ln);
            const char *paren = fn_name ? memchr(fn_name, '(', (size_t)(l + ln - fn_name)) : NULL;
            fn_name_len = paren ? (size_t)(paren - fn_name) : 0;
            label = NULL;
            if (in_copy && lp__cc_twin_define(&attrs, &b, l, ln) < 0)
                b.failed = 1;
            /* A copy left whole keeps its entry block, which the naming of
             * numbered values below must find by a label of its own when
             * phis name it. */
            if (in_copy && chk && i + 1 < n && !lp_cc_label_len(lines[i + 1].p, lines[i + 1].n))
                lp__cc_printf(&b, "%s:\n", entry_ref);
            if (in_copy)
                continue;
            if (lp__cc_prefixed(&prefixed, l, ln)) {
                if (lp__cc_twin_define(&prefixed_attrs, &b, l, ln) < 0)
                    b.failed = 1;
                continue;
            }
        } else if (ln == 1 && l[0] == '}') {
            if (in_copy)
                lp__cc_name_numbers(&b, fn_out);
            entry_due = in_copy && chk && entry_seen;
            in_copy = 0;
        } else if (in_copy && lp_cc_label_len(l, ln)) {
            cur = NULL; /* a block's label */
            label = l;
            label_len = lp_cc_label_len(l, ln);
            /* A loop's version that does not count (cc_loops.c), with the
             * edges the coverage pass split out of it. */
            quiet = label_len > 4 && memcmp(l, "lpu.", 4) == 0;
            if (i == fn_first + 1) {
                /* The entry block has a name (an optimised function's
                 * loop preheader, say): phis of its successors use it. */
                if (label_len >= sizeof entry_ref) {
                    rc = lp__cc_fail(err, errcap, "line %zu: an entry block's label of %zu "
                                     "characters (at most %zu)", i + 1, label_len,
                                     sizeof entry_ref - 1);
                    break;
                }
                memcpy(entry_ref, l, label_len);
                entry_ref[label_len] = 0;
            }
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
        if (ln && l[0] == '@' && (memmem(l, ln, "section \"__lp_cnt64\"", 20) ||
                                  memmem(l, ln, "section \"__lp_pcs64\"", 20))) {
            rc = lp__cc_fail(err, errcap, "line %zu: the IR already holds lowprof's counters",
                             i + 1);
            break;
        }
        if (ln && l[0] == '@' && memmem(l, ln, "section \"__sancov_cntrs\"", 24)) {
            rc = lp__cc_fail(err, errcap, "line %zu: a coverage counter array in an unknown form",
                             i + 1);
            break;
        }
        size_t before = b.n;
        int w = lp_cc_widen(&c, &lines[i], n - i, &serial, &b);
        if (w < 0) {
            rc = lp__cc_fail(err, errcap,
                             "line %zu: a coverage counter increment in an unknown form", i + 1);
            break;
        }
        if (w > 0) {
            lp_cc_counter_ref(&c, l, ln, "load i8, i8* getelementptr inbounds (", &cur, &cur_j);
            i += (size_t)w - 1;
            if (in_copy && chk && !entry_seen) {
                entry_arr = cur;
                entry_j = cur_j;
                entry_seen = 1;
            } else if (in_copy && !chk && !entry_split) {
                lp__cc_split_entry(&b, cur->name, cur->len, cur->k, cur_j);
                entry_split = 1;
            } else if (in_copy && quiet && !lp_cc_block_calls(lines, n, i + 1)) {
                b.n = before; /* its counter stays 0 */
                cur = NULL;
            } else if (in_copy && (flags & LP_CC_CALLS_ONLY) &&
                       !lp_cc_block_calls(lines, n, i + 1)) {
                /* For the call graph a copy needs its entry count and its
                 * calls' counts: a block without calls goes uncounted (its
                 * counter stays 0, and the runtime refuses block profiles
                 * of such a build: @lp__cc_calls_only below). */
                b.n = before;
            }
            continue;
        }
        if (in_copy && entry_split && lp__cc_fix_phi(&b, l, ln, entry_ref))
            continue;
        if (in_copy && !cur && label && fn_name_len && lp__cc_sites_wants(l, ln)) {
            /* A call in a block the coverage pass left out (its count is
             * implied by others'): the block gets a counter of its own,
             * here, before the call. */
            const char *xname = lp__cc_extra_add(&extras, fn_name, fn_name_len, label, label_len);
            if (!xname)
                b.failed = 1;
            else {
                xarr = (lp_cc_arr){xname, strlen(xname), 1};
                char v[40], a[40];
                snprintf(v, sizeof v, "%%lp.v.%lu", serial);
                snprintf(a, sizeof a, "%%lp.w.%lu", serial);
                lp_cc_put_increment(&c, &b, serial++, xarr.name, xarr.len, 1, 0, v, a, "", 0, "",
                                    0);
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
            rc = lp__cc_fail(err, errcap, "line %zu: a coverage counter used in an unknown way",
                             i + 1);
            break;
        }
        size_t line_out = b.n;
        lp_cc_put_renamed(&b, l, ln);
        lp__cc_put(&b, "\n", 1);
        if (entry_due) {
            /* From the define line as read (sig points into the input):
             * its numbered parameters get the copy's names. */
            entry_due = 0;
            size_t at = b.n;
            lp__cc_entry_fn(&b, &sig, entry_arr->name, entry_arr->len, entry_arr->k, entry_j);
            lp__cc_name_numbers(&b, at);
        }
        if (ln && l[0] == '@' && memmem(l, ln, "blockaddress(", 13))
            lp__cc_name_copy_blocks(&b, line_out);
        if (ln > 12 && memcmp(l, "attributes #", 12) == 0) {
            lp__cc_attrs_twin(&attrs, &b, l, ln);
            lp__cc_attrs_twin(&prefixed_attrs, &b, l, ln);
        }
    }
    if (rc == 0 && (arrays > 0 || extras.n > 0)) {
        /* The runtime is linked into the executable: its thread-local
         * variables sit at fixed offsets from the thread pointer, one
         * instruction away, unless this object may go into a shared
         * library. */
        const char *model = (flags & LP_CC_PIC) ? "initialexec" : "localexec";
        lp__cc_printf(&b,
                      "\n@lp__rt_cp_lo = external thread_local(%s) global i64, align 8\n"
                      "@lp__rt_cp_len = external thread_local(%s) global i64, align 8\n"
                      "@lp__rt_cp_skip = external thread_local(%s) global i32, align 4\n",
                      model, model, model);
        lp_cc_put_twins(&c, &extras, model, &b);
        if (!memmem(in, len, "declare i8* @llvm.returnaddress(i32", 35))
            lp__cc_printf(&b, "declare i8* @llvm.returnaddress(i32)\n");
        /* The runtime's sign that some blocks of the program's copies do
         * not count (weak: one per object, the linker keeps one). */
        if (flags & LP_CC_CALLS_ONLY)
            lp__cc_printf(&b, "@lp__cc_calls_only = weak global i8 1, align 1\n");
        lp__cc_sites_emit(&sites, &b);
        /* The added counters' pc-table entries take the addresses of
         * numbered blocks, which IR allows only before the function's
         * definition: they go before the first one. */
        lp_cc_buf x = {0};
        lp__cc_extras_emit(&extras, &x);
        lp__cc_name_numbers(&x, 0);
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
        rc = lp__cc_fail(err, errcap, "out of memory");
done:
    arrays += (long)extras.n; /* the added counters are arrays of one */
    free(lines);
    free(in);
    free(c.arrs);
    free(sites.v);
    free(attrs.v);
    free(prefixed_attrs.v);
    free(prefixed.v);
    lp__cc_extras_free(&extras);
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
