/* The module half of the native bursty-tracing build (cc_bursty.h): the
 * file's types and functions, its direct call graph, the entries that
 * placement gives a check (section 4.1 of paper 003, on this file's
 * graph), and the declarations the checks use.
 *
 * The call graph is this file's: a function other files can call (not
 * internal) is a root, since callers elsewhere are out of sight, and so
 * EC puts a check on every such function that calls something. A cycle
 * through other files then still passes a root's check, and the
 * guarantee of section 4.1, that no recursion runs without checks,
 * holds for the program. */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_bursty.h"

typedef struct bt_mfn {
    const char *name;
    size_t name_len;
    size_t def, end; /* lines of `define` and `}` */
    uint8_t internal, copy, has_call, addr_taken;
} bt_mfn;

typedef struct bt_module {
    lp_cc_line *lines;
    size_t nlines;
    lp_cc_line *types;
    size_t ntypes;
    int numbered_types;
    bt_mfn *fns;
    size_t nfns;
    unsigned long max_node;
    int have_retaddr;
    int opaque;
    int declared_n, declared_mode; /* the file declares lp__bt_n, lp__bt_mode */
} bt_module;

static int bt_mfn_cmp(const void *x, const void *y)
{
    const bt_mfn *a = x, *b = y;
    return lp__cc_name_cmp(a->name, a->name_len, b->name, b->name_len);
}

static long bt_mfn_find(const bt_module *m, const char *name, size_t len)
{
    size_t lo = 0, hi = m->nfns;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = lp__cc_name_cmp(m->fns[mid].name, m->fns[mid].name_len, name, len);
        if (c == 0)
            return (long)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

int lp__cc_bt_is_type(const lp_cc_bt_module *m, const char *name, size_t len)
{
    for (size_t i = 0; i < m->ntypes; i++)
        if (m->types[i].n == len && memcmp(m->types[i].p, name, len) == 0)
            return 1;
    return 0;
}

/* Whether the line holds `ptr` as a type word, outside strings (the IR of
 * clang 15 and later). */
static int bt_opaque_line(lp_cc_line l)
{
    int q = 0;
    for (size_t i = 1; i + 4 <= l.n; i++) {
        q ^= l.p[i - 1] == '"';
        if (!q && memcmp(l.p + i, "ptr", 3) == 0 && (l.p[i - 1] == ' ' || l.p[i - 1] == '(') &&
            (l.p[i + 3] == ' ' || l.p[i + 3] == ',' || l.p[i + 3] == ')'))
            return 1;
    }
    return 0;
}

/* Whether the attribute group line `attributes #N = { ... }` says naked;
 * *group gets N. */
static int bt_naked_group(lp_cc_line l, unsigned long *group)
{
    if (!lp__cc_starts(l, "attributes #"))
        return 0;
    size_t used;
    *group = lp__cc_num(l.p + 12, l.n - 12, &used);
    return used && memmem(l.p, l.n, " naked", 6) != NULL;
}

/* The attribute group a define line names (`) #N`), or ULONG_MAX. */
static unsigned long bt_define_group(lp_cc_line l)
{
    for (size_t i = l.n; i-- > 1;)
        if (l.p[i] == '#' && l.p[i - 1] == ' ') {
            size_t used;
            unsigned long g = lp__cc_num(l.p + i + 1, l.n - i - 1, &used);
            return used ? g : (unsigned long)-1;
        }
    return (unsigned long)-1;
}

static int bt_scan(bt_module *m, char *err, size_t errcap)
{
    size_t ntypes = 0, nfns = 0;
    for (size_t i = 0; i < m->nlines; i++) {
        ntypes += m->lines[i].n && m->lines[i].p[0] == '%';
        nfns += lp__cc_starts(m->lines[i], "define ");
    }
    m->types = malloc((ntypes + 1) * sizeof *m->types);
    m->fns = calloc(nfns + 1, sizeof *m->fns);
    unsigned long *naked = malloc((m->nlines + 1) * sizeof *naked);
    size_t nnaked = 0;
    if (!m->types || !m->fns || !naked) {
        free(naked);
        return lp__cc_fail(err, errcap, "out of memory");
    }
    for (size_t i = 0; i < m->nlines; i++) {
        lp_cc_line l = m->lines[i];
        unsigned long g;
        if (l.n > 1 && l.p[0] == '%') {
            const char *eq = memmem(l.p, l.n, " = type ", 8);
            if (eq && l.p[1] >= '0' && l.p[1] <= '9')
                m->numbered_types = 1;
            else if (eq)
                m->types[m->ntypes++] = (lp_cc_line){l.p + 1, (size_t)(eq - l.p - 1)};
        } else if (l.n > 1 && l.p[0] == '!' && l.p[1] >= '0' && l.p[1] <= '9') {
            size_t used;
            unsigned long v = lp__cc_num(l.p + 1, l.n - 1, &used);
            if (v + 1 > m->max_node)
                m->max_node = v + 1;
        } else if (bt_naked_group(l, &g)) {
            naked[nnaked++] = g;
        } else if (lp__cc_starts(l, "declare ") && memmem(l.p, l.n, "@llvm.returnaddress(", 20)) {
            m->have_retaddr = 1;
        }
        if (!m->opaque && bt_opaque_line(l))
            m->opaque = 1;
        int is_n = lp__cc_starts(l, "@lp__bt_n = "), is_mode = lp__cc_starts(l, "@lp__bt_mode = ");
        if ((is_n || is_mode) && !memmem(l.p, l.n, " = external ", 12)) {
            free(naked);
            return lp__cc_fail(err, errcap,
                               "line %zu: the file defines the runtime's own counters (it is "
                               "lowprof's runtime), which cannot have checks",
                               i + 1);
        }
        m->declared_n |= is_n; /* a program that uses them itself */
        m->declared_mode |= is_mode;
    }
    for (size_t i = 0; i < m->nlines; i++) {
        lp_cc_line l = m->lines[i];
        if (!lp__cc_starts(l, "define "))
            continue;
        bt_mfn *f = &m->fns[m->nfns];
        const char *at = memchr(l.p, '@', l.n);
        if (!at || at + 1 >= l.p + l.n || at[1] == '"') {
            /* a quoted name: copied as it is, never a callee we can name */
            f->name = "";
        } else {
            f->name = at + 1;
            while (f->name + f->name_len < l.p + l.n && lp__cc_ident_char(f->name[f->name_len]))
                f->name_len++;
        }
        size_t head = at ? (size_t)(at - l.p) : l.n;
        f->internal = memmem(l.p, head, " internal ", 10) || memmem(l.p, head, " private ", 9);
        unsigned long g = bt_define_group(l);
        int is_naked = 0;
        for (size_t k = 0; k < nnaked; k++)
            is_naked |= naked[k] == g;
        f->copy = f->name_len && !is_naked && !memmem(l.p, head, "available_externally", 20) &&
                  !memmem(l.p, l.n, " prefix ", 8) && !memmem(l.p, l.n, " prologue ", 10) &&
                  l.p[l.n - 1] == '{';
        f->def = i;
        size_t j = i + 1;
        while (j < m->nlines && !(m->lines[j].n == 1 && m->lines[j].p[0] == '}'))
            j++;
        if (j == m->nlines) {
            free(naked);
            return lp__cc_fail(err, errcap, "line %zu: a definition without its end", i + 1);
        }
        f->end = j;
        m->nfns++;
        i = j;
    }
    free(naked);
    qsort(m->fns, m->nfns, sizeof *m->fns, bt_mfn_cmp);
    return 0;
}

/* Marks address-taken functions: a defined function's name anywhere but
 * as a call's callee or in its own define line. */
static void bt_address_taken(bt_module *m)
{
    for (size_t i = 0; i < m->nlines; i++) {
        lp_cc_line l = m->lines[i];
        if (lp__cc_starts(l, "define ") || lp__cc_starts(l, "declare "))
            continue;
        int q = 0;
        for (size_t k = 1; k < l.n; k++) {
            if (l.p[k] == '"')
                q = !q;
            if (q || l.p[k] != '@' || lp__cc_ident_char(l.p[k - 1]))
                continue;
            size_t e = k + 1;
            while (e < l.n && lp__cc_ident_char(l.p[e]))
                e++;
            long f = bt_mfn_find(m, l.p + k + 1, e - k - 1);
            if (f >= 0 && (e == l.n || l.p[e] != '('))
                m->fns[f].addr_taken = 1;
            k = e - 1;
        }
    }
}

/* The call graph of section 4.1 and its analysis: facts[i] for fns[i]. */
static int bt_graph(bt_module *m, uint8_t *flags, lp_bursty_fn_facts *facts)
{
    size_t ncalls = 0, cap = 0;
    lp_bursty_call *calls = NULL;
    int rc = 0;
    for (size_t i = 0; i < m->nfns && !rc; i++) {
        bt_mfn *f = &m->fns[i];
        for (size_t k = f->def + 1; k < f->end && !rc; k++) {
            const char *callee;
            size_t clen;
            if (!lp__cc_bt_call(m->lines[k].p, m->lines[k].n, &callee, &clen))
                continue;
            f->has_call = 1;
            long g = callee ? bt_mfn_find(m, callee, clen) : -1;
            if (g < 0)
                continue;
            lp_bursty_call *nc = lp__cc_grow(calls, ncalls, &cap, sizeof *nc, 256);
            if (!nc) {
                rc = -1;
                break;
            }
            calls = nc;
            calls[ncalls++] = (lp_bursty_call){(uint32_t)i, (uint32_t)g};
        }
    }
    for (size_t i = 0; i < m->nfns; i++)
        flags[i] = (uint8_t)((m->fns[i].has_call ? 0 : LP_BURSTY_FN_LEAF) |
                             (m->fns[i].internal ? 0 : LP_BURSTY_FN_ROOT) |
                             (m->fns[i].addr_taken ? LP_BURSTY_FN_ADDR_TAKEN : 0));
    lp_bursty_graph g = {(uint32_t)m->nfns, flags, ncalls, calls};
    if (!rc && m->nfns)
        rc = lp_bursty_graph_analyse(&g, facts) != 0 ? -1 : 0;
    free(calls);
    return rc;
}

/* The declarations the checks and reports use, their branch weights, and
 * the placement's name in the section the runtime looks for. */
static void bt_put_tail(const bt_module *m, const lp_cc_bt_module *mm, const char *in, size_t len,
                        const char *placement, lp_cc_buf *b)
{
    const char *tls = mm->pic ? "initialexec" : "localexec";
    const char *p8 = m->opaque ? "ptr" : "i8*";
    if (!m->declared_n)
        lp__cc_printf(b, "\n@lp__bt_n = external thread_local(%s) global i64, align 8\n", tls);
    if (!m->declared_mode)
        lp__cc_printf(b, "@lp__bt_mode = external thread_local(%s) global i32, align 4\n", tls);
    if (!m->have_retaddr)
        lp__cc_printf(b, "declare %s @llvm.returnaddress(i32 immarg)\n", p8);
    size_t n = strlen(placement);
    lp__cc_printf(
        b,
        "@lp.bursty.%zx = hidden constant [%zu x i8] c\"%s\\00\", section \"__lp_bursty\", "
        "align 1\n"
        "!%lu = !{!\"branch_weights\", i32 1, i32 2000}\n",
        lp__cc_hash(in, len), n + 1, placement, mm->weight_node);
}

long lp_cc_bursty_ir(const char *in, size_t len, const char *placement, unsigned flags, char **out,
                     size_t *out_len, lp_cc_bt_counts *out_counts, char *err, size_t errcap)
{
    lp_cc_bt_module mm;
    memset(&mm, 0, sizeof mm);
    size_t bad;
    if (lp_bursty_placement_parse(placement, strlen(placement), &mm.placement, &bad) != 0)
        return lp__cc_fail(err, errcap,
                           "bursty placement '%s': not one of orig, EL, EC, EN, L<k>, LN or "
                           "ENTRY+LOOP (at offset %zu)",
                           placement, bad);
    char canon[32];
    lp_bursty_placement_format(&mm.placement, canon, sizeof canon);
    bt_module m;
    memset(&m, 0, sizeof m);
    long copied = -1;
    uint8_t *fflags = NULL;
    lp_bursty_fn_facts *facts = NULL;
    lp_cc_buf b = {0}, fn = {0};
    lp_cc_line *fl = NULL;
    lp_cc_bt_counts counts = {0};
    m.lines = lp__cc_split(in, len, &m.nlines);
    if (!m.lines) {
        lp__cc_fail(err, errcap, "out of memory");
        goto done;
    }
    if (bt_scan(&m, err, errcap) != 0)
        goto done;
    bt_address_taken(&m);
    fflags = calloc(m.nfns + 1, 1);
    facts = calloc(m.nfns + 1, sizeof *facts);
    if (!fflags || !facts || bt_graph(&m, fflags, facts) != 0) {
        lp__cc_fail(err, errcap, "out of memory");
        goto done;
    }
    mm.types = m.types;
    mm.ntypes = m.ntypes;
    mm.opaque = m.opaque;
    mm.pic = (flags & LP_CC_PIC) != 0;
    mm.weight_node = m.max_node;
    /* Definitions in line order: fns is sorted by name. */
    long *at_line = malloc((m.nlines + 1) * sizeof *at_line);
    if (!at_line) {
        lp__cc_fail(err, errcap, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < m.nlines; i++)
        at_line[i] = -1;
    for (size_t i = 0; i < m.nfns; i++)
        at_line[m.fns[i].def] = (long)i;
    copied = 0;
    for (size_t i = 0; i < m.nlines; i++) {
        long k = at_line[i];
        if (k < 0 || !m.fns[k].copy || m.numbered_types) {
            lp__cc_put(&b, m.lines[i].p, m.lines[i].n);
            lp__cc_puts(&b, "\n");
            continue;
        }
        const bt_mfn *f = &m.fns[k];
        size_t nl;
        free(fl);
        fl = lp__cc_bt_fn_lines(m.lines, f->def, f->end, "lp.", &fn, &nl);
        if (!fl) {
            copied = -1;
            break;
        }
        int check = lp_bursty_entry_has_check(&mm.placement, fflags[k], &facts[k]);
        int done = lp__cc_bt_function(&mm, fl, nl, check, &counts, &b);
        if (done < 0) {
            copied = -1;
            break;
        }
        if (done == 1) /* not copied: as the input has it, numbers and all */
            for (size_t j = f->def; j <= f->end; j++) {
                lp__cc_put(&b, m.lines[j].p, m.lines[j].n);
                lp__cc_puts(&b, "\n");
            }
        copied += done == 0;
        i = f->end;
    }
    free(at_line);
    if (copied >= 0)
        bt_put_tail(&m, &mm, in, len, canon, &b);
    if (copied < 0 || b.failed) {
        lp__cc_fail(err, errcap, "out of memory");
        copied = -1;
        goto done;
    }
    *out = b.p;
    *out_len = b.n;
    b.p = NULL;
    if (out_counts)
        *out_counts = counts;
done:
    free(b.p);
    free(fn.p);
    free(fl);
    free(fflags);
    free(facts);
    free(m.lines);
    free(m.types);
    free(m.fns);
    return copied;
}
