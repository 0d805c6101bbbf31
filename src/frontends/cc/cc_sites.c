/* The copies' call sites, for call pairs without a handler (cc_clone.h).
 *
 * A call in a copy runs once each time its block runs, so a direct call's
 * count is its block's counter: the table this file writes pairs each
 * direct call site of a copy with that counter and the callee, and the
 * runtime reads the pairs' counts off the counters. The table goes into
 * the section __lp_sites64 as `module asm` (two quads a site: the
 * counter's address, the callee's), because assembly names a function
 * without the pointer type that LLVM 14's IR would need for it.
 *
 * An indirect call gets a call to lp__rt_cp_icall(counter, target) just
 * before it, which counts the pair by its target. The target's pointer
 * type must be known to pass it; it is taken from the value's definition
 * when that is a load (how C code reaches a function pointer almost
 * always); any other indirect call is left alone, and its calls have no
 * pair (their callees still count them). */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_clone.h"

static int lp_cc_site_add(lp_cc_sites *s, const char *arr, size_t arr_len, unsigned long j,
                          const char *callee, size_t callee_len)
{
    lp_cc_site *p = lp__cc_grow(s->v, s->n, &s->cap, sizeof *p, 256);
    if (!p)
        return -1;
    s->v = p;
    s->v[s->n++] = (lp_cc_site){arr, arr_len, j, callee, callee_len};
    return 0;
}

/* The type of value v (`%name`, len bytes) from its definition as a load
 * among lines [first, upto): `%v = load [volatile|atomic] TYPE, ...`.
 * Returns the type's text and length, or NULL. */
static const char *lp_cc_load_type(const lp_cc_line *lines, size_t first, size_t upto,
                                   const char *v, size_t len, size_t *tlen)
{
    for (size_t i = upto; i-- > first;) {
        const char *l = lines[i].p;
        size_t n = lines[i].n;
        size_t k = 0;
        while (k < n && l[k] == ' ')
            k++;
        if (n - k < len + 3 || memcmp(l + k, v, len) != 0 || memcmp(l + k + len, " = ", 3) != 0)
            continue;
        const char *p = l + k + len + 3;
        if ((size_t)(l + n - p) < 5 || memcmp(p, "load ", 5) != 0)
            return NULL;
        p += 5;
        if ((size_t)(l + n - p) > 9 && memcmp(p, "volatile ", 9) == 0)
            p += 9;
        if ((size_t)(l + n - p) > 7 && memcmp(p, "atomic ", 7) == 0)
            p += 7;
        /* The type runs to the comma at bracket depth 0. */
        int depth = 0;
        for (const char *q = p; q < l + n; q++) {
            if (*q == '(' || *q == '[' || *q == '{' || *q == '<')
                depth++;
            else if (*q == ')' || *q == ']' || *q == '}' || *q == '>')
                depth--;
            else if (*q == ',' && depth == 0) {
                *tlen = (size_t)(q - p);
                return p;
            }
        }
        return NULL;
    }
    return NULL;
}

/* Whether a direct callee is the program's business: not an intrinsic, a
 * sanitizer's hook or the runtime. */
static int lp_cc_counted_callee(const char *name, size_t len)
{
    static const char *const skip[] = {"llvm.",   "__tsan_",      "__asan_",
                                       "__msan_", "__sanitizer_", "lp__rt_"};
    for (size_t k = 0; k < sizeof skip / sizeof *skip; k++)
        if (len >= strlen(skip[k]) && memcmp(name, skip[k], strlen(skip[k])) == 0)
            return 0;
    return 1;
}

int lp__cc_sites_wants(const char *l, size_t n)
{
    const char *callee = lp__cc_callee(l, n);
    if (!callee)
        return 0;
    size_t len = 0;
    while (lp__cc_ident_char(callee[1 + len]))
        len++;
    return *callee == '%' || lp_cc_counted_callee(callee + 1, len);
}

int lp__cc_sites_line(lp_cc_sites *s, const lp_cc_line *lines, size_t i, size_t fn_first,
                      const char *arr, size_t arr_len, unsigned long arr_k, unsigned long j,
                      lp_cc_buf *b)
{
    const char *l = lines[i].p;
    size_t n = lines[i].n;
    const char *callee = lp__cc_callee(l, n);
    if (!callee)
        return 0;
    const char *name = callee + 1;
    size_t len = 0;
    while (lp__cc_ident_char(name[len]))
        len++;
    if (*callee == '@')
        return lp_cc_counted_callee(name, len) ? lp_cc_site_add(s, arr, arr_len, j, name, len) : 0;
    size_t tlen;
    const char *type = lp_cc_load_type(lines, fn_first, i, callee, len + 1, &tlen);
    if (!type)
        return 0;
    unsigned long k = s->icalls++;
    lp__cc_printf(b, "  %%lp.ic.%lu = bitcast %.*s %.*s to i8*\n", k, (int)tlen, type, (int)len + 1,
                  callee);
    /* The counting call takes the indirect call's source location, so
     * that its return address, the pair's key, names the call's line. */
    const char *dbg = memmem(l, n, ", !dbg !", 8);
    size_t dn = 0;
    if (dbg) {
        dn = 8;
        while (dbg + dn < l + n && dbg[dn] >= '0' && dbg[dn] <= '9')
            dn++;
    }
    lp__cc_printf(b,
                  "  call void @lp__rt_cp_icall(i64* getelementptr inbounds ([%lu x i64], "
                  "[%lu x i64]* %.*s, i64 0, i64 %lu), i8* %%lp.ic.%lu)%.*s\n",
                  arr_k, arr_k, (int)arr_len, arr, j, k, (int)dn, dbg ? dbg : "");
    return 0;
}

void lp__cc_sites_emit(const lp_cc_sites *s, lp_cc_buf *b)
{
    if (s->n) {
        lp__cc_printf(b, "\nmodule asm \"\\09.pushsection __lp_sites64,\\22aw\\22,@progbits\"\n");
        lp__cc_printf(b, "module asm \"\\09.p2align 3\"\n");
        for (size_t i = 0; i < s->n; i++) {
            const lp_cc_site *e = &s->v[i];
            /* The array's name without its '@'. */
            lp__cc_printf(b, "module asm \"\\09.quad %.*s+%lu, %.*s\"\n", (int)e->arr_len - 1,
                          e->arr + 1, e->j * 8, (int)e->callee_len, e->callee);
        }
        lp__cc_printf(b, "module asm \"\\09.popsection\"\n");
    }
    if (s->icalls)
        lp__cc_printf(b, "\ndeclare void @lp__rt_cp_icall(i64*, i8*)\n");
}

/* Counters added to blocks of the copies that the coverage pass left out
 * but whose calls need one: each is an array of one counter `@lp.x.N`,
 * with its pc-table entry `@lp.xp.N` (the block's address), in the copy's
 * comdat. The assembler appends them to the copy's own counter and
 * pc-table sections (same names, same group), in the order they are
 * written, so the two sections stay parallel. */
const char *lp__cc_extra_add(lp_cc_extras *x, const char *fn, size_t fn_len, const char *label,
                             size_t label_len)
{
    lp_cc_extra *p = lp__cc_grow(x->v, x->n, &x->cap, sizeof *p, 64);
    if (!p)
        return NULL;
    x->v = p;
    char *name = malloc(32);
    if (!name)
        return NULL;
    snprintf(name, 32, "@lp.x.%zu", x->n);
    x->v[x->n++] = (lp_cc_extra){fn, label, fn_len, label_len, name};
    return name;
}

void lp__cc_extras_free(lp_cc_extras *x)
{
    for (size_t i = 0; i < x->n; i++)
        free(x->v[i].name);
    free(x->v);
}

void lp__cc_extras_emit(const lp_cc_extras *x, lp_cc_buf *b)
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
