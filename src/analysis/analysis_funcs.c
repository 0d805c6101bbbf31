/* analysis: the functions of the file. Their starts come from function
 * symbols (.symtab and .dynsym), from the entries the file names (e_entry,
 * DT_INIT, DT_FINI, the init and fini arrays, IFUNC resolvers), and, where
 * no sized symbol covers the code, from direct call targets and from code
 * addresses the file takes (relocations, RIP-relative lea, ET_EXEC
 * immediates). Plain data words do not start functions: in an ET_EXEC
 * file the words of a jump table point into the middle of functions.
 *
 * A function's extent is its symbol's size, or, without one, the code up
 * to the next known start or the end of its section. Discovery and the
 * capstone sweep alternate until no new start appears that the sweep
 * stepped over (rarely more than one sweep).
 *
 * Then the roots and address-taken functions are marked (the rules are in
 * lowprof/analysis.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"

/* At most this many sweeps; after that a start inside an instruction the
 * sweep decoded begins at the next record. */
#define LP__AN_MAX_SWEEPS 6

typedef struct lp__an_start {
    uint64_t addr;
    uint8_t from;
} lp__an_start;

typedef struct lp__an_cover {
    uint64_t lo, hi;
} lp__an_cover;

static int lp__an_cmp_start(const void *x, const void *y)
{
    const lp__an_start *a = x, *b = y;
    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static int lp__an_cmp_cover(const void *x, const void *y)
{
    const lp__an_cover *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Sorts v (lp__an_start) and merges equal addresses. */
static void lp__an_starts_unique(lp__an_vec *v)
{
    lp__an_start *s = v->data;
    if (v->count > 1)
        qsort(s, v->count, sizeof *s, lp__an_cmp_start);
    size_t n = 0;
    for (size_t i = 0; i < v->count; i++) {
        if (n && s[n - 1].addr == s[i].addr)
            s[n - 1].from |= s[i].from;
        else
            s[n++] = s[i];
    }
    v->count = n;
}

static int lp__an_is_start(const lp__an_vec *v, uint64_t addr)
{
    const lp__an_start *s = v->data;
    size_t lo = 0, hi = v->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < v->count && s[lo].addr == addr;
}

/* The sized symbols' extents, sorted, with hi turned into the running
 * maximum so that "inside some symbol" is one binary search. */
typedef struct lp__an_covers {
    lp__an_cover *c;
    size_t n;
} lp__an_covers;

static int lp__an_covers_build(lp_analysis *a, lp__an_covers *out)
{
    const lp__an_sym *syms = a->syms.data;
    out->c = lp_malloc((a->syms.count ? a->syms.count : 1) * sizeof *out->c);
    out->n = 0;
    if (!out->c)
        return LP_ENOMEM;
    for (size_t i = 0; i < a->syms.count; i++) {
        const lp__an_sec *sec = lp__an_sec_at(a, syms[i].addr, LP__AN_CODE);
        if (!syms[i].size || !sec)
            continue;
        uint64_t room = sec->addr + sec->size - syms[i].addr;
        out->c[out->n].lo = syms[i].addr;
        out->c[out->n].hi = syms[i].addr + (syms[i].size < room ? syms[i].size : room);
        out->n++;
    }
    if (out->n > 1)
        qsort(out->c, out->n, sizeof *out->c, lp__an_cmp_cover);
    for (size_t i = 1; i < out->n; i++)
        if (out->c[i].hi < out->c[i - 1].hi)
            out->c[i].hi = out->c[i - 1].hi;
    return 0;
}

/* Whether addr lies strictly inside a sized symbol's extent. */
static int lp__an_covered(const lp__an_covers *cv, uint64_t addr)
{
    size_t lo = 0, hi = cv->n;
    while (lo < hi) { /* first cover with lo >= addr */
        size_t mid = lo + (hi - lo) / 2;
        if (cv->c[mid].lo < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && cv->c[lo - 1].hi > addr;
}

static int lp__an_add_start(lp__an_vec *v, uint64_t addr, uint8_t from)
{
    lp__an_start *s = lp__an_push(v);
    if (!s)
        return LP_ENOMEM;
    s->addr = addr;
    s->from = from;
    return 0;
}

/* Whether addr falls inside a record of its section instead of at one. */
static int lp__an_off_boundary(const lp_analysis *a, uint64_t addr)
{
    const lp__an_sec *s = lp__an_sec_at(a, addr, LP__AN_CODE);
    if (!s || !s->n_insns)
        return 0;
    size_t k = lp__an_insn_lower(s, addr);
    return k == s->n_insns || s->insns[k].off != addr - s->addr;
}

/* New starts from what the last sweep decoded, into *fresh (sorted):
 * direct call targets and taken code addresses that no sized symbol covers
 * and that are not starts yet. *out_redo says whether one of them lies
 * inside an instruction the sweep decoded, so that it must sweep again.
 * Returns 0 or LP_ENOMEM. */
static int lp__an_discover(lp_analysis *a, const lp__an_covers *cv, const lp__an_vec *known,
                           lp__an_vec *fresh, int *out_redo)
{
    *out_redo = 0;
    for (size_t i = 0; i < a->n_secs; i++) {
        const lp__an_sec *s = &a->secs[i];
        if (s->role != LP__AN_CODE)
            continue;
        for (size_t k = 0; k < s->n_insns; k++) {
            if (s->insns[k].kind != LP__I_CALL)
                continue;
            uint64_t t = lp__an_insn_target(s, &s->insns[k]);
            if (!lp__an_sec_at(a, t, LP__AN_CODE) || lp__an_covered(cv, t) ||
                lp__an_is_start(known, t))
                continue;
            if (lp__an_add_start(fresh, t, LP_ANALYSIS_FROM_CALL))
                return LP_ENOMEM;
        }
    }
    const lp__an_ptr *p = a->cptrs.data;
    for (size_t i = 0; i < a->cptrs.count; i++) {
        if (lp__an_covered(cv, p[i].value) || lp__an_is_start(known, p[i].value))
            continue;
        if (lp__an_add_start(fresh, p[i].value, LP_ANALYSIS_FROM_POINTER))
            return LP_ENOMEM;
    }
    lp__an_starts_unique(fresh);
    const lp__an_start *f = fresh->data;
    for (size_t i = 0; i < fresh->count; i++)
        if (lp__an_off_boundary(a, f[i].addr))
            *out_redo = 1;
    return 0;
}

static int lp__an_merge(lp__an_vec *known, const lp__an_vec *fresh)
{
    const lp__an_start *f = fresh->data;
    for (size_t i = 0; i < fresh->count; i++)
        if (lp__an_add_start(known, f[i].addr, f[i].from))
            return LP_ENOMEM;
    lp__an_starts_unique(known);
    return 0;
}

/* Finds every start, sweeping as often as needed. */
static int lp__an_find_starts(lp_analysis *a, lp__an_vec *known, lp_analysis_error *err)
{
    lp__an_covers cv;
    if (lp__an_covers_build(a, &cv))
        return lp__an_fail(a, err, LP_ENOMEM, 0, 0, "out of memory");
    int rc = 0;
    const lp__an_sym *syms = a->syms.data;
    for (size_t i = 0; !rc && i < a->syms.count; i++)
        rc = lp__an_add_start(known, syms[i].addr, syms[i].from);
    const lp__an_ptr *p = a->ptrs.data;
    for (size_t i = 0; !rc && i < a->ptrs.count; i++)
        if (p[i].discover && !lp__an_covered(&cv, p[i].value))
            rc = lp__an_add_start(known, p[i].value,
                                  p[i].root ? LP_ANALYSIS_FROM_ROOT : LP_ANALYSIS_FROM_POINTER);
    lp__an_starts_unique(known);
    lp__an_vec fresh = {.elem = sizeof(lp__an_start)};
    for (int sweep = 0; !rc && sweep < LP__AN_MAX_SWEEPS; sweep++) {
        uint64_t *syncs = lp_malloc((known->count ? known->count : 1) * sizeof *syncs);
        if (!syncs) {
            rc = LP_ENOMEM;
            break;
        }
        const lp__an_start *k = known->data;
        for (size_t i = 0; i < known->count; i++)
            syncs[i] = k[i].addr;
        rc = lp__an_decode(a, syncs, known->count, err);
        lp_free(syncs);
        if (rc) {
            lp_free(cv.c);
            lp__an_vec_free(&fresh);
            return rc;
        }
        int redo = 0;
        fresh.count = 0;
        rc = lp__an_discover(a, &cv, known, &fresh, &redo);
        if (!rc && fresh.count)
            rc = lp__an_merge(known, &fresh);
        if (!fresh.count || !redo)
            break;
    }
    lp_free(cv.c);
    lp__an_vec_free(&fresh);
    if (rc)
        return lp__an_fail(a, err, LP_ENOMEM, 0, 0, "out of memory");
    return 0;
}

/* Which of two symbols names a function: global before local or weak,
 * .symtab before .dynsym, then the smaller name, so the choice does not
 * depend on symbol order. */
static int lp__an_better_name(const lp__an_sym *x, const lp__an_sym *y)
{
    if (!y->name)
        return 1;
    if (!x->name)
        return 0;
    if (x->global != y->global)
        return x->global;
    if (x->from != y->from)
        return x->from == LP_ANALYSIS_FROM_SYMTAB;
    return strcmp(x->name, y->name) < 0;
}

static int lp__an_cmp_sym_addr(const void *x, const void *y)
{
    const lp__an_sym *a = x, *b = y;
    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static int lp__an_make_fns(lp_analysis *a, const lp__an_vec *known)
{
    const lp__an_start *st = known->data;
    uint32_t n = (uint32_t)known->count;
    a->fns = lp_calloc(n ? n : 1, sizeof *a->fns);
    a->fnx = lp_calloc(n ? n : 1, sizeof *a->fnx);
    a->fn_reach = lp_calloc(n ? n : 1, sizeof *a->fn_reach);
    if (!a->fns || !a->fnx || !a->fn_reach)
        return LP_ENOMEM;
    lp__an_sym *syms = a->syms.data;
    if (a->syms.count > 1)
        qsort(syms, a->syms.count, sizeof *syms, lp__an_cmp_sym_addr);
    size_t si = 0;
    for (uint32_t i = 0; i < n; i++) {
        lp_analysis_fn *f = &a->fns[i];
        lp__an_sec *sec = lp__an_sec_at(a, st[i].addr, LP__AN_CODE);
        if (!sec)
            return LP_EINVAL; /* every start was checked to be in code */
        f->addr = st[i].addr;
        f->from = st[i].from;
        const lp__an_sym *best = NULL;
        uint64_t size = 0;
        while (si < a->syms.count && syms[si].addr < f->addr)
            si++;
        for (size_t k = si; k < a->syms.count && syms[k].addr == f->addr; k++) {
            const lp__an_sym *y = &syms[k];
            if (!best || lp__an_better_name(y, best))
                best = y;
            if (y->size > size)
                size = y->size;
            if (y->exported && a->kind == LP_ANALYSIS_LIBRARY)
                f->root_why |= LP_ANALYSIS_ROOT_EXPORTED;
            if (y->ifunc)
                f->root_why |= LP_ANALYSIS_ROOT_IFUNC;
            if (y->name && strcmp(y->name, "main") == 0)
                f->root_why |= LP_ANALYSIS_ROOT_MAIN;
        }
        uint64_t room = sec->addr + sec->size - f->addr;
        if (!size) {
            size = room;
            if (i + 1 < n && st[i + 1].addr - f->addr < room)
                size = st[i + 1].addr - f->addr;
        }
        f->size = size < room ? size : room;
        if (best && best->name) {
            f->name = best->name;
        } else {
            char buf[64];
            int len = snprintf(buf, sizeof buf, "+0x%llx", (unsigned long long)f->addr);
            size_t bl = strlen(a->base);
            char *full = lp_malloc(bl + (size_t)len + 1);
            if (!full)
                return LP_ENOMEM;
            memcpy(full, a->base, bl);
            memcpy(full + bl, buf, (size_t)len + 1);
            f->name = lp__an_strdup(a, full, bl + (size_t)len);
            lp_free(full);
            if (!f->name)
                return LP_ENOMEM;
        }
        lp__an_fnx *x = &a->fnx[i];
        x->sec = (uint32_t)(sec - a->secs);
        x->i0 = lp__an_insn_lower(sec, f->addr);
        x->i1 = lp__an_insn_lower(sec, f->addr + f->size);
        for (size_t k = x->i0; k < x->i1; k++)
            f->insns += sec->insns[k].kind != LP__I_BAD;
        uint32_t prev = i ? a->fn_reach[i - 1] : 0;
        a->fn_reach[i] = i && a->fns[prev].addr + a->fns[prev].size > f->addr + f->size ? prev : i;
    }
    a->n_fns = n;
    return 0;
}

uint32_t lp__an_fn_containing(const lp_analysis *a, uint64_t addr)
{
    uint32_t lo = 0, hi = a->n_fns;
    while (lo < hi) { /* first function starting after addr */
        uint32_t mid = lo + (hi - lo) / 2;
        if (a->fns[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return UINT32_MAX;
    const lp_analysis_fn *f = &a->fns[lo - 1];
    if (addr - f->addr < f->size)
        return lo - 1;
    /* An earlier, longer function may still hold addr (nested symbols). */
    uint32_t r = a->fn_reach[lo - 1];
    f = &a->fns[r];
    return addr - f->addr < f->size ? r : UINT32_MAX;
}

/* Roots and address-taken functions from the addresses collected. */
static void lp__an_mark(lp_analysis *a, const lp__an_vec *v)
{
    const lp__an_ptr *p = v->data;
    for (size_t i = 0; i < v->count; i++) {
        uint32_t f = lp_analysis_fn_at(a, p[i].value);
        if (f != UINT32_MAX)
            a->fns[f].taken_why |= p[i].taken;
        else if (p[i].root)
            f = lp__an_fn_containing(a, p[i].value);
        if (f != UINT32_MAX)
            a->fns[f].root_why |= p[i].root;
    }
}

/* Without a symbol for main: glibc's _start passes main to
 * __libc_start_main in rdi, so main is the code address the entry
 * function last loads into rdi before its first call. */
static void lp__an_find_main(lp_analysis *a)
{
    if (a->have_main_symbol || !a->entry)
        return;
    uint32_t e = lp__an_fn_containing(a, a->entry);
    if (e == UINT32_MAX)
        return;
    const lp__an_fnx *x = &a->fnx[e];
    const lp__an_sec *s = &a->secs[x->sec];
    uint64_t limit = a->fns[e].addr + a->fns[e].size;
    for (size_t k = x->i0; k < x->i1; k++)
        if (s->insns[k].kind == LP__I_CALL || s->insns[k].kind == LP__I_CALL_IND) {
            limit = lp__an_insn_addr(s, &s->insns[k]);
            break;
        }
    const lp__an_ptr *p = a->cptrs.data;
    uint32_t main_fn = UINT32_MAX;
    uint64_t best_site = 0;
    for (size_t i = 0; i < a->cptrs.count; i++) {
        if (!p[i].to_rdi || p[i].site < a->fns[e].addr || p[i].site >= limit ||
            (main_fn != UINT32_MAX && p[i].site < best_site))
            continue;
        uint32_t f = lp_analysis_fn_at(a, p[i].value);
        if (f != UINT32_MAX) {
            main_fn = f;
            best_site = p[i].site;
        }
    }
    if (main_fn != UINT32_MAX)
        a->fns[main_fn].root_why |= LP_ANALYSIS_ROOT_MAIN;
}

int lp__an_funcs_build(lp_analysis *a, lp_analysis_error *err)
{
    lp__an_vec known = {.elem = sizeof(lp__an_start)};
    int rc = lp__an_find_starts(a, &known, err);
    if (rc) {
        lp__an_vec_free(&known);
        return rc;
    }
    rc = lp__an_make_fns(a, &known);
    lp__an_vec_free(&known);
    if (rc)
        return lp__an_fail(a, err, rc, 0, 0, "out of memory building the function table");
    lp__an_mark(a, &a->ptrs);
    lp__an_mark(a, &a->cptrs);
    lp__an_find_main(a);
    for (uint32_t i = 0; i < a->n_fns; i++) {
        lp_analysis_fn *f = &a->fns[i];
        if (f->root_why) {
            f->flags |= LP_BURSTY_FN_ROOT;
            a->sum.roots++;
        }
        if (f->taken_why) {
            f->flags |= LP_BURSTY_FN_ADDR_TAKEN;
            a->sum.addr_taken++;
        }
        if (f->from & (LP_ANALYSIS_FROM_SYMTAB | LP_ANALYSIS_FROM_DYNSYM))
            a->sum.fns_symbol++;
        else if (f->from & LP_ANALYSIS_FROM_CALL)
            a->sum.fns_call++;
        else
            a->sum.fns_pointer++;
    }
    a->sum.fns = a->n_fns;
    return 0;
}
