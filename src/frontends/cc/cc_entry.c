/* What lowprof cc changes in each copy as a whole, after the counters
 * (cc_clone.h): the entry check after the entry counter, the phis that
 * named the entry block, names for the numbered values and blocks; and
 * the attribute groups of copies (no patchable entry) and of originals
 * whose copy takes calls (a patchable prefix in its place). */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_clone.h"

/* Whether the name before `end` (a global's, quoted or not) is a copy's. */
static int lp_cc_names_copy(const char *start, const char *end)
{
    if (end > start && end[-1] == '"')
        end--;
    static const char s1[] = LP_CC_CLONE_SUFFIX;
    size_t n = (size_t)(end - start);
    return n >= sizeof s1 - 1 && memcmp(end - (sizeof s1 - 1), s1, sizeof s1 - 1) == 0;
}

/* Whether a define line defines a copy: `@NAME.lpdup(`. */
int lp__cc_is_copy_define(const char *l, size_t n)
{
    const char *paren = lp__cc_params(l, n);
    return paren && lp_cc_names_copy(l, paren);
}

/* The number of a define's entry block: it follows the unnamed
 * parameters (%0, %1, ...) in the numbering of unnamed values. */
long lp__cc_entry_label(const char *l, size_t n)
{
    const char *p = lp__cc_params(l, n), *end = l + n;
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

/* A phi of the copy naming the entry block (`, %ENTRY ]`: a number, or
 * the entry's label) names lp.go instead, where the entry block's branch
 * now comes from. Returns 1 if it wrote the line. */
int lp__cc_fix_phi(lp_cc_buf *b, const char *l, size_t n, const char *entry)
{
    if (!memmem(l, n, " = phi ", 7))
        return 0;
    char pat[LP_CC_ENTRY_REF_MAX + 8];
    int pn = snprintf(pat, sizeof pat, ", %%%s ]", entry);
    const char *p = l, *end = l + n, *hit;
    if (pn <= 0 || (size_t)pn >= sizeof pat || !memmem(l, n, pat, (size_t)pn))
        return 0;
    while ((hit = memmem(p, (size_t)(end - p), pat, (size_t)pn)) != NULL) {
        lp__cc_put(b, p, (size_t)(hit - p));
        lp__cc_put(b, ", %lp.go ]", 10);
        p = hit + pn;
    }
    lp__cc_put(b, p, (size_t)(end - p));
    lp__cc_put(b, "\n", 1);
    return 1;
}

/* After a copy's entry counter, the slow path's test: the return address
 * lies outside [lp__rt_cp_lo, lp__rt_cp_lo + lp__rt_cp_len), the thread's
 * view of the section LP_CC_COPIES_SECTION. That is a call from outside
 * the copies (the program's start, a library's callback, an original that
 * was running when the copies went on), which no site of a copy counts; or
 * a thread the runtime has not met (its view is empty), which gets its
 * counter block there, so that no thread counts into the shared arrays for
 * long. Such a call goes on only when the thread's countdown
 * lp__rt_cp_skip is 0, and counts it down otherwise: the runtime counts
 * one in a few of them, at random, each for as many (rt_caches.c), since
 * an original that runs a loop through a window calls the copies from
 * outside at every turn. lp__rt_cp_enter does both, given the return
 * address's offset from lp__rt_cp_lo (what the test computed: no copy of
 * the address is kept) and the entry counter, through
 * lp__rt_cp_enter_stub (rt_tramp.S says how): from inline
 * assembly, which the code generator does not take for a call, so a leaf
 * copy stays a leaf, without a frame to set up on every entry. r10 and r11
 * are named clobbered: in a shared library the call goes through the PLT,
 * whose first call runs the dynamic linker's resolver, which may change
 * them. The entry block ends here; the rest of it becomes lp.go. */
void lp__cc_split_entry(lp_cc_buf *b, const char *arr, size_t arr_len, unsigned long k,
                        unsigned long j)
{
    lp__cc_printf(
        b,
        "  %%lp.ra = call i8* @llvm.returnaddress(i32 0)\n"
        "  %%lp.rai = ptrtoint i8* %%lp.ra to i64\n"
        "  %%lp.lo = load i64, i64* @lp__rt_cp_lo, align 8\n"
        "  %%lp.len = load i64, i64* @lp__rt_cp_len, align 8\n"
        "  %%lp.off = sub i64 %%lp.rai, %%lp.lo\n"
        "  %%lp.slow = icmp uge i64 %%lp.off, %%lp.len\n"
        "  br i1 %%lp.slow, label %%lp.out, label %%lp.go, !prof !{!\"branch_weights\", "
        "i32 1, i32 1000000}\n"
        "\nlp.out:\n"
        "  %%lp.sk = load i32, i32* @lp__rt_cp_skip, align 4\n"
        "  %%lp.due = icmp eq i32 %%lp.sk, 0\n"
        "  br i1 %%lp.due, label %%lp.enter, label %%lp.pass, !prof !{!\"branch_weights\", "
        "i32 1, i32 15}\n"
        "\nlp.pass:\n"
        "  %%lp.sk1 = add i32 %%lp.sk, -1\n"
        "  store i32 %%lp.sk1, i32* @lp__rt_cp_skip, align 4\n"
        "  br label %%lp.go\n"
        "\nlp.enter:\n"
        "  call void asm sideeffect \"leaq -128(%%rsp), %%rsp\\0A\\09pushq $1\\0A\\09pushq "
        "$0\\0A\\09call lp__rt_cp_enter_stub@PLT\\0A\\09leaq 144(%%rsp), %%rsp\", "
        "\"r,r,~{memory},~{dirflag},~{fpsr},~{flags},~{r10},~{r11},~{xmm0},~{xmm1},~{xmm2},~{xmm3},"
        "~{xmm4},"
        "~{xmm5},~{xmm6},~{xmm7},~{xmm8},~{xmm9},~{xmm10},~{xmm11},~{xmm12},~{xmm13},~{xmm14},"
        "~{xmm15}\"(i64 %%lp.off, i64* getelementptr inbounds ([%lu x i64], [%lu x i64]* %.*s, i64 "
        "0, i64 %lu))\n"
        "  br label %%lp.go\n"
        "\nlp.go:\n",
        k, k, (int)arr_len, arr, j);
}

/* Replaces b from offset from on with out's text, and frees out. */
static void lp_cc_replace_tail(lp_cc_buf *b, size_t from, lp_cc_buf *out)
{
    if (out->failed) {
        b->failed = 1;
        free(out->p);
        return;
    }
    b->n = from;
    lp__cc_put(b, out->p ? out->p : "", out->n);
    free(out->p);
}

/* Gives the numbered values and blocks in b from offset from on names:
 * %N becomes %lp.N and a label N: becomes lp.N:, outside quoted text. The
 * pc-table takes block addresses of the copies, and clang 14 drops what
 * makes such an address a block's own when the block is numbered in IR
 * text (the code generator then merges it with its neighbours, and
 * several counters get one address); named blocks keep it. A function
 * with no numbered values left needs no numbering either. */
void lp__cc_name_numbers(lp_cc_buf *b, size_t from)
{
    lp__cc_name_numbers_as(b, from, "lp.");
}

void lp__cc_name_numbers_as(lp_cc_buf *b, size_t from, const char *prefix)
{
    size_t np = strlen(prefix);
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
                lp__cc_put(&out, "%", 1);
                lp__cc_put(&out, prefix, np);
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
                lp__cc_put(&out, prefix, np);
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
    lp_cc_replace_tail(b, from, &out);
}

void lp__cc_name_copy_blocks(lp_cc_buf *b, size_t from)
{
    static const char ba[] = "blockaddress(";
    if (b->failed || from >= b->n)
        return;
    lp_cc_buf out = {0};
    const char *p = b->p + from, *end = b->p + b->n, *hit;
    while ((hit = memmem(p, (size_t)(end - p), ba, sizeof ba - 1)) != NULL) {
        const char *fn = hit + sizeof ba - 1;
        const char *comma = memchr(fn, ',', (size_t)(end - fn));
        if (!comma)
            break;
        lp__cc_put(&out, p, (size_t)(comma + 1 - p));
        p = comma + 1;
        while (p < end && *p == ' ')
            lp__cc_put(&out, p++, 1);
        if (lp_cc_names_copy(fn, comma) && p + 1 < end && *p == '%' && p[1] >= '0' &&
            p[1] <= '9') {
            lp__cc_put(&out, "%lp.", 4);
            p++;
        }
    }
    lp__cc_put(&out, p, (size_t)(end - p));
    lp_cc_replace_tail(b, from, &out);
}

/* Writes a define line with its attribute group (` #N` after the
 * parameters) replaced by the twin, and notes N. */
int lp__cc_twin_define(lp_cc_attrs *a, lp_cc_buf *b, const char *l, size_t n)
{
    const char *end = l + n, *p = lp__cc_params(l, n);
    int depth = 0;
    for (; p && p < end; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')' && --depth == 0)
            break;
    }
    const char *h = p ? memmem(p, (size_t)(end - p), " #", 2) : NULL;
    size_t used = 0;
    unsigned long g = h ? lp__cc_num(h + 2, (size_t)(end - (h + 2)), &used) : 0;
    const char *num_end = h ? h + 2 + used : NULL;
    if (!h || !used || (num_end < end && *num_end != ' ')) {
        lp__cc_put(b, l, n);
        lp__cc_put(b, "\n", 1);
        return 0;
    }
    lp__cc_put(b, l, (size_t)(h - l));
    lp__cc_printf(b, " #%lu", g + a->base);
    lp__cc_put(b, num_end, (size_t)(end - num_end));
    lp__cc_put(b, "\n", 1);
    for (size_t i = 0; i < a->n; i++)
        if (a->v[i] == g)
            return 0;
    unsigned long *q = lp__cc_grow(a->v, a->n, &a->cap, sizeof *q, 16);
    if (!q)
        return -1;
    a->v = q;
    a->v[a->n++] = g;
    return 0;
}

void lp__cc_attrs_twin(const lp_cc_attrs *a, lp_cc_buf *b, const char *l, size_t n)
{
    size_t used;
    unsigned long g = lp__cc_num(l + 12, n - 12, &used);
    const char *e = l + 12 + used;
    size_t i = 0;
    while (i < a->n && a->v[i] != g)
        i++;
    if (i == a->n || !used)
        return;
    static const char key[] = " \"patchable-function-entry\"=\"";
    const char *end = l + n, *k = memmem(e, (size_t)(end - e), key, sizeof key - 1);
    const char *kend =
        k ? memchr(k + sizeof key - 1, '"', (size_t)(end - (k + sizeof key - 1))) : NULL;
    lp__cc_printf(b, "attributes #%lu", g + a->base);
    if (kend) {
        lp__cc_put(b, e, (size_t)(k - e));
        if (*a->entry)
            lp__cc_printf(b, " %s", a->entry);
        lp__cc_put(b, kend + 1, (size_t)(end - (kend + 1)));
    } else {
        lp__cc_put(b, e, (size_t)(end - e));
    }
    lp__cc_put(b, "\n", 1);
}

/* A define line's name, from '@' up to its parameters' '('. */
static lp_cc_line lp_cc_define_name(const char *l, size_t n)
{
    const char *paren = lp__cc_params(l, n);
    const char *at = paren ? memrchr(l, '@', (size_t)(paren - l)) : NULL;
    lp_cc_line r = {at, at ? (size_t)(paren - at) : 0};
    return r;
}

static int lp_cc_name_cmp(const void *x, const void *y)
{
    const lp_cc_line *a = x, *b = y;
    return lp__cc_name_cmp(a->p, a->n, b->p, b->n);
}

/* Whether the function whose define line is lines[i] cannot have its
 * entry prefixed (lp_cc_prefixed): naked (its group is among the naked
 * ones), an entry block with inline assembly, a tail call or nothing but
 * `unreachable`, or one that has neither a store nor a call and ends in an
 * unconditional branch. */
static int lp_cc_prefix_unsafe(const lp_cc_line *lines, size_t n, size_t i,
                               const unsigned long *naked, size_t nnaked)
{
    const char *end = lines[i].p + lines[i].n, *h = lp__cc_params(lines[i].p, lines[i].n);
    h = h ? memmem(h, (size_t)(end - h), ") #", 3) : NULL;
    if (h) {
        size_t used;
        unsigned long g = lp__cc_num(h + 3, (size_t)(end - (h + 3)), &used);
        for (size_t k = 0; used && k < nnaked; k++)
            if (naked[k] == g)
                return 1;
    }
    int first = 1, effect = 0;
    lp_cc_line last = {NULL, 0};
    for (size_t j = i + 1; j < n; j++) {
        lp_cc_line l = lines[j];
        int label = l.n && l.p[0] != ' ' && memchr(l.p, ':', l.n);
        if (lp__cc_starts(l, "}") || (label && j > i + 1))
            break; /* the entry block ends (its own label comes first) */
        if (!l.n || label)
            continue;
        if ((first && lp__cc_starts(l, "  unreachable")) || memmem(l.p, l.n, " asm ", 5))
            return 1;
        /* Intrinsics (debug values, assumptions, lifetimes) are not code. */
        int intrinsic = memmem(l.p, l.n, " @llvm.", 7) != NULL;
        if (intrinsic && memmem(l.p, l.n, "call ", 5))
            continue;
        /* A tail call may be the first instruction, a jump that clang
         * writes only when it lowers the call, and the short redirect
         * takes it before then: the jump would be lost. */
        if (memmem(l.p, l.n, "tail call ", 10))
            return 1;
        first = 0;
        effect |= lp__cc_starts(l, "  store ") || memmem(l.p, l.n, "call ", 5) != NULL ||
                  memmem(l.p, l.n, "invoke ", 7) != NULL;
        last = l;
    }
    /* An entry block that only computes addresses and values for the
     * blocks it jumps to may lose every instruction to them in the code
     * generator: a leaf without a frame then starts at its loop's header. */
    return !effect && last.p && lp__cc_starts(last, "  br label ");
}

int lp__cc_prefixed_scan(lp_cc_prefixed *s, const lp_cc_line *lines, size_t n)
{
    static const char suffix[] = LP_CC_CLONE_SUFFIX;
    const size_t k = sizeof suffix - 1;
    size_t cap = 0, ncap = 0, nnaked = 0;
    unsigned long *naked = NULL;
    s->v = NULL;
    s->n = 0;
    for (size_t i = 0; i < n; i++) {
        if (lp__cc_starts(lines[i], "attributes #") &&
            memmem(lines[i].p, lines[i].n, " naked ", 7)) {
            unsigned long *q = lp__cc_grow(naked, nnaked, &ncap, sizeof *q, 8);
            if (!q) {
                free(naked);
                return -1;
            }
            naked = q;
            size_t used;
            naked[nnaked++] = lp__cc_num(lines[i].p + 12, lines[i].n - 12, &used);
        }
        if (!lp__cc_starts(lines[i], "define "))
            continue;
        lp_cc_line name = lp_cc_define_name(lines[i].p, lines[i].n);
        if (name.n <= k + 1 || memcmp(name.p + name.n - k, suffix, k) != 0)
            continue;
        lp_cc_prefix_name *q = lp__cc_grow(s->v, s->n, &cap, sizeof *q, 64);
        if (!q) {
            free(naked);
            return -1;
        }
        s->v = q;
        name.n -= k;
        s->v[s->n++] = (lp_cc_prefix_name){name, 0};
    }
    if (s->n)
        qsort(s->v, s->n, sizeof *s->v, lp_cc_name_cmp);
    for (size_t i = 0; i < n && s->n; i++) {
        if (!lp__cc_starts(lines[i], "define "))
            continue;
        lp_cc_line name = lp_cc_define_name(lines[i].p, lines[i].n);
        lp_cc_prefix_name *hit =
            name.n ? bsearch(&name, s->v, s->n, sizeof *s->v, lp_cc_name_cmp) : NULL;
        if (hit && lp_cc_prefix_unsafe(lines, n, i, naked, nnaked))
            hit->unsafe = 1;
    }
    free(naked);
    return 0;
}

int lp__cc_prefixed(const lp_cc_prefixed *s, const char *l, size_t n)
{
    lp_cc_line name = lp_cc_define_name(l, n);
    const lp_cc_prefix_name *hit =
        name.n && s->n ? bsearch(&name, s->v, s->n, sizeof *s->v, lp_cc_name_cmp) : NULL;
    return hit && !hit->unsafe;
}

/* ---- the checking entry: the check outside the copy ----------------------------------------- */

/* The word at [p, end): up to the next blank outside brackets. */
static size_t lp_cc_word(const char *p, const char *end)
{
    int depth = 0;
    const char *q = p;
    for (; q < end && (depth > 0 || *q != ' '); q++)
        depth += lp__cc_depth(*q);
    return (size_t)(q - p);
}

static const char *const lp_cc_linkage_ok[] = {
    "internal", "private", "dso_local", "dso_preemptable", "default", "hidden", "protected", NULL};
static const char *const lp_cc_linkage_no[] = {
    "linkonce",    "linkonce_odr",         "weak",      "weak_odr",  "common", "appending",
    "extern_weak", "available_externally", "dllimport", "dllexport", NULL};
/* A return's attributes, and the calling conventions clang gives C. */
static const char *const lp_cc_ret_words[] = {"zeroext", "signext", "inreg",  "noalias", "nonnull",
                                              "noundef", "ccc",     "fastcc", "coldcc",  NULL};

static int lp_cc_in(const char *p, size_t n, const char *const *set)
{
    for (size_t i = 0; set[i]; i++)
        if (n == strlen(set[i]) && memcmp(p, set[i], n) == 0)
            return 1;
    return 0;
}

int lp__cc_entry_sig(const char *l, size_t n, lp_cc_sig *s)
{
    const char *end = l + n, *params = lp__cc_params(l, n);
    if (n < 7 || memcmp(l, "define ", 7) != 0 || !params)
        return 0;
    const char *at = memchr(l, '@', n);
    /* [define, @): linkage and visibility words, then the rest the call
     * repeats (calling convention, the return's attributes, its type). */
    const char *p = l + 7;
    while (p < at) {
        size_t w = lp_cc_word(p, at);
        if (lp_cc_in(p, w, lp_cc_linkage_no))
            return 0;
        if (!lp_cc_in(p, w, lp_cc_linkage_ok))
            break;
        p += w;
        while (p < at && *p == ' ')
            p++;
    }
    s->call = p;
    s->call_len = (size_t)(at - p);
    while (s->call_len && p[s->call_len - 1] == ' ')
        s->call_len--;
    /* The type: past the calling convention and the return's attributes. */
    const char *cend = p + s->call_len;
    while (p < cend) {
        size_t w = lp_cc_word(p, cend);
        if (lp_cc_in(p, w, lp_cc_ret_words) || (w > 15 && memcmp(p, "dereferenceable", 15) == 0))
            p += w;
        else if (w == 5 && memcmp(p, "align", 5) == 0)
            p += w + 1 + lp_cc_word(p + w + 1 < cend ? p + w + 1 : cend, cend);
        else
            break;
        while (p < cend && *p == ' ')
            p++;
    }
    if (p >= cend)
        return 0;
    s->type = p;
    s->type_len = (size_t)(cend - p);
    s->name = at;
    s->name_len = (size_t)(params - at);
    /* The parameters, up to their closing bracket. */
    int depth = 0;
    const char *q = params;
    for (; q < end; q++) {
        depth += lp__cc_depth(*q);
        if (depth == 0)
            break;
    }
    if (q >= end)
        return 0;
    s->params = params;
    s->params_len = (size_t)(q + 1 - params);
    static const char *const refuse[] = {"...", "inalloca", "preallocated", "swift", NULL};
    for (size_t i = 0; refuse[i]; i++)
        if (memmem(params, s->params_len, refuse[i], strlen(refuse[i])))
            return 0;
    /* byval: clang 14's musttail copies such an argument through the
     * slot of the return address (a 32-byte struct: stored at 0(%rsp),
     * then back to 8(%rsp)), so the copy would return to garbage. The
     * entry calls the copy instead (lp__cc_entry_fn). */
    s->byval = memmem(params, s->params_len, "byval", 5) != NULL;
    /* After them: the attribute group, a section, the comdat (the
     * checking entry joins it, so that the linker keeps or drops the two
     * together); nothing that runs before the function (prefix,
     * prologue). */
    const char *rest = q + 1;
    size_t rn = (size_t)(end - rest);
    const char *cd = memmem(rest, rn, " comdat", 7);
    s->comdat = NULL;
    s->comdat_len = 0;
    if (cd && cd + 7 < end && cd[7] == '(') {
        const char *close = memchr(cd + 8, ')', (size_t)(end - (cd + 8)));
        if (!close || cd[8] != '$')
            return 0;
        s->comdat = cd + 9;
        s->comdat_len = (size_t)(close - (cd + 9));
    } else if (cd) {
        s->comdat = at + 1; /* the function's own */
        s->comdat_len = (size_t)(params - (at + 1));
    }
    static const char *const refuse_after[] = {" prefix ", " prologue ", " gc ", NULL};
    for (size_t i = 0; refuse_after[i]; i++)
        if (memmem(rest, rn, refuse_after[i], strlen(refuse_after[i])))
            return 0;
    const char *h = memmem(rest, rn, " #", 2);
    size_t used = 0;
    s->group = h ? lp__cc_num(h + 2, (size_t)(end - (h + 2)), &used) : 0;
    s->has_group = h && used;
    return 1;
}

/* The call passes the copy's parameters as they are written: each one's
 * type, attributes and name are what an argument of a call takes. */
void lp__cc_entry_fn(lp_cc_buf *b, const lp_cc_sig *s, const char *arr, size_t arr_len,
                     unsigned long k, unsigned long j)
{
    size_t nn = s->name_len;
    int quoted = nn > 2 && s->name[nn - 1] == '"';
    lp__cc_printf(b, "\ndefine internal %.*s %.*s%s%s", (int)s->call_len, s->call,
                  (int)(nn - (size_t)quoted), s->name, LP_CC_ENTRY_SUFFIX, quoted ? "\"" : "");
    lp__cc_put(b, s->params, s->params_len);
    if (s->has_group)
        lp__cc_printf(b, " #%lu", s->group);
    lp__cc_printf(b, " section \"%s\"", LP_CC_COPIES_SECTION);
    if (s->comdat)
        lp__cc_printf(b, " comdat($%.*s)", (int)s->comdat_len, s->comdat);
    lp__cc_printf(b, " {\n");
    lp__cc_split_entry(b, arr, arr_len, k, j);
    int is_void = s->type_len == 4 && memcmp(s->type, "void", 4) == 0;
    /* An argument in memory (byval) cannot go through a tail call here
     * (lp__cc_entry_sig): the entry calls the copy and returns, a frame
     * of its own, only for calls from outside the copies; notail, so that
     * the code generator does not make the same tail call of it. The
     * copies' own calls skip it, where the copy used to keep the check as
     * its first block and pay it on every call (raytrace's vector helpers,
     * called from the copies 30 M times a run). */
    lp__cc_printf(b, "  %s %s call %.*s %.*s",
                  is_void ? "" : "%lp.r =", s->byval ? "notail" : "musttail", (int)s->call_len,
                  s->call, (int)nn, s->name);
    lp__cc_put(b, s->params, s->params_len);
    if (is_void)
        lp__cc_printf(b, "\n  ret void\n}\n");
    else
        lp__cc_printf(b, "\n  ret %.*s %%lp.r\n}\n", (int)s->type_len, s->type);
}
