/* Block-profiled function copies (lowprof cc --blocks=clone): which copy
 * belongs to which function, from the executable's symbol table.
 *
 * A copy is the symbol NAME.lpdup or NAME.lpdupc (cc_clone.h). The copy of
 * an external function is a hidden global, paired with the global NAME
 * (unique in a program), or with a local NAME when the function itself was
 * hidden and the linker made it local; the copy of a file's static
 * function is a local paired with the local NAME of the same file (the
 * STT_FILE symbol that precedes a file's locals). */
#define _GNU_SOURCE
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

/* The suffix of a copy's name, and the letter after it that marks a copy
 * reached only through its callers' copies. */
#define LP__RT_COPY_SUFFIX ".lpdup"
#define LP__RT_COPY_SUFFIX_LEN (sizeof LP__RT_COPY_SUFFIX - 1)

/* The length of the suffix name ends with (".lpdup", ".lpdupc"), or 0. */
static size_t lp__rt_copy_suffix(const char *name, size_t len)
{
    if (len > LP__RT_COPY_SUFFIX_LEN + 1 && name[len - 1] == 'c' &&
        memcmp(name + len - 1 - LP__RT_COPY_SUFFIX_LEN, LP__RT_COPY_SUFFIX,
               LP__RT_COPY_SUFFIX_LEN) == 0)
        return LP__RT_COPY_SUFFIX_LEN + 1;
    if (len > LP__RT_COPY_SUFFIX_LEN &&
        memcmp(name + len - LP__RT_COPY_SUFFIX_LEN, LP__RT_COPY_SUFFIX, LP__RT_COPY_SUFFIX_LEN) == 0)
        return LP__RT_COPY_SUFFIX_LEN;
    return 0;
}

typedef struct lp__rt_copy_name {
    const char *name; /* the original's name */
    size_t len;
    size_t group; /* the file of a local; SIZE_MAX for a global */
    size_t index; /* in the copies */
} lp__rt_copy_name;

static int lp__rt_name_cmp(const char *a, size_t na, size_t ga, const char *b, size_t nb,
                           size_t gb)
{
    int c = memcmp(a, b, na < nb ? na : nb);
    if (c)
        return c;
    if (na != nb)
        return na < nb ? -1 : 1;
    return ga < gb ? -1 : ga > gb;
}

static int lp__rt_copy_name_cmp(const void *x, const void *y)
{
    const lp__rt_copy_name *a = x, *b = y;
    return lp__rt_name_cmp(a->name, a->len, a->group, b->name, b->len, b->group);
}

/* The copy named name in group g (SIZE_MAX: a global), as its index in
 * the copies, or -1. */
static long lp__rt_copy_find(const lp__rt_copy_name *names, size_t n, const char *name,
                             size_t len, size_t g)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = lp__rt_name_cmp(names[mid].name, names[mid].len, names[mid].group, name, len, g);
        if (r == 0)
            return (long)names[mid].index;
        if (r < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* The only copy named name in any group, as its index in the copies, or
 * -1 (none, or several). A copy of hidden visibility can come out of the
 * link as a local of no particular file: GNU ld turns hidden globals into
 * locals and lists them after the last file's. */
static long lp__rt_copy_find_any(const lp__rt_copy_name *names, size_t n, const char *name,
                                 size_t len)
{
    size_t lo = 0, hi = n;
    while (lo < hi) { /* the first entry not before (name, group 0) */
        size_t mid = lo + (hi - lo) / 2;
        if (lp__rt_name_cmp(names[mid].name, names[mid].len, names[mid].group, name, len, 0) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo >= n || names[lo].len != len || memcmp(names[lo].name, name, len) != 0)
        return -1;
    if (lo + 1 < n && names[lo + 1].len == len && memcmp(names[lo + 1].name, name, len) == 0)
        return -1;
    return (long)names[lo].index;
}

static int lp__rt_copy_cmp(const void *x, const void *y)
{
    const lp__rt_copy *a = x, *b = y;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* Whether sym is a sized function defined here; its name in *name. */
static int lp__rt_sym_func(const Elf64_Sym *sym, const char *str, size_t strsize, const char **name,
                           size_t *len)
{
    unsigned t = ELF64_ST_TYPE(sym->st_info);
    if ((t != STT_FUNC && t != STT_GNU_IFUNC) || sym->st_size == 0 || sym->st_shndx == SHN_UNDEF ||
        sym->st_name >= strsize)
        return 0;
    *name = str + sym->st_name;
    *len = strnlen(*name, strsize - sym->st_name);
    return 1;
}

void lp__rt_copies_load(const Elf64_Sym *sym, size_t n, const char *str, size_t strsize,
                        uint64_t bias)
{
    size_t ncopies = 0, group = 0;
    const char *name;
    size_t len;
    for (size_t i = 0; i < n; i++)
        if (lp__rt_sym_func(&sym[i], str, strsize, &name, &len) && lp__rt_copy_suffix(name, len))
            ncopies++;
    if (!ncopies)
        return;
    lp__rt_copy *c = calloc(ncopies, sizeof *c);
    lp__rt_copy_name *names = calloc(ncopies, sizeof *names);
    if (!c || !names) {
        free(c);
        free(names);
        return;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (ELF64_ST_TYPE(sym[i].st_info) == STT_FILE)
            group++;
        size_t suffix;
        if (!lp__rt_sym_func(&sym[i], str, strsize, &name, &len) ||
            !(suffix = lp__rt_copy_suffix(name, len)))
            continue;
        c[k].start = sym[i].st_value + bias;
        c[k].end = c[k].start + sym[i].st_size;
        c[k].method = -1;
        c[k].takes_calls = suffix == LP__RT_COPY_SUFFIX_LEN;
        names[k].name = name;
        names[k].len = len - suffix;
        names[k].group = ELF64_ST_BIND(sym[i].st_info) == STB_LOCAL ? group : SIZE_MAX;
        names[k].index = k;
        k++;
    }
    qsort(names, ncopies, sizeof *names, lp__rt_copy_name_cmp);
    for (k = 0; k < ncopies; k++)
        c[k].entry = c[k].start;
    static const char entry_suffix[] = LP__RT_COPY_SUFFIX "e";
    const size_t esl = sizeof entry_suffix - 1;
    /* How each copy was paired: 0 not yet, 1 with its own name and group,
     * 2 with one local of another group, 3 with two such (so with none). */
    unsigned char *how = calloc(ncopies, 1);
    group = 0;
    for (size_t i = 0; how && i < n; i++) {
        if (ELF64_ST_TYPE(sym[i].st_info) == STT_FILE)
            group++;
        if (!lp__rt_sym_func(&sym[i], str, strsize, &name, &len))
            continue;
        int local = ELF64_ST_BIND(sym[i].st_info) == STB_LOCAL;
        uint64_t at = sym[i].st_value + bias;
        /* A copy's checking entry, NAME.lpdupe, a local of the copy's
         * file: paired with a local copy of that file, else with the
         * global copy, else with the only copy of that name. A copy
         * without one is its own entry. */
        if (len > esl && memcmp(name + len - esl, entry_suffix, esl) == 0) {
            long e = lp__rt_copy_find(names, ncopies, name, len - esl, group);
            if (e < 0)
                e = lp__rt_copy_find(names, ncopies, name, len - esl, SIZE_MAX);
            if (e < 0)
                e = lp__rt_copy_find_any(names, ncopies, name, len - esl);
            if (e >= 0)
                c[e].entry = at;
            continue;
        }
        long k = lp__rt_copy_find(names, ncopies, name, len, local ? group : SIZE_MAX);
        if (k >= 0) {
            c[k].plain = at;
            how[k] = 1;
            continue;
        }
        /* A global original whose copy the linker made local (a hidden
         * global, listed after the last file's locals): the only copy of
         * that name. */
        if (!local) {
            k = lp__rt_copy_find_any(names, ncopies, name, len);
            if (k >= 0 && !how[k]) {
                c[k].plain = at;
                how[k] = 1;
            }
            continue;
        }
        /* A global copy whose original is a local: an external function
         * of hidden visibility, which the linker made local in the
         * executable (its copy, in a comdat, can stay global). Two locals
         * of that name in different files leave the copy unpaired. */
        if ((k = lp__rt_copy_find(names, ncopies, name, len, SIZE_MAX)) < 0 || how[k] == 1 ||
            how[k] == 3)
            continue;
        c[k].plain = how[k] == 2 ? 0 : at;
        how[k]++;
    }
    free(how);
    free(names);
    qsort(c, ncopies, sizeof *c, lp__rt_copy_cmp);
    lp__rt.copies = c;
    lp__rt.ncopies = ncopies;
}

long lp__rt_copy_at(uint64_t pc)
{
    size_t lo = 0, hi = lp__rt.ncopies;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (lp__rt.copies[mid].start <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && pc < lp__rt.copies[lo - 1].end ? (long)lo - 1 : -1;
}

/* Text is read a byte at a time (LP__TEXT_ACCESS): each candidate's
 * displacement must land exactly on target, so a byte that only looks
 * like an opcode cannot match by chance in practice. */
LP__TEXT_ACCESS uint64_t lp__rt_copy_call_after(uint64_t from, uint64_t target, uint64_t alt)
{
    long c = lp__rt_copy_at(from);
    if (c < 0)
        return 0;
    uint64_t end = lp__rt.copies[c].end;
    for (uint64_t a = from; a + 5 <= end; a++) {
        const uint8_t *p = (const uint8_t *)(uintptr_t)a;
        unsigned len = lp__rt_text_branch_to(p, (size_t)(end - a), a, target);
        if (!len && alt)
            len = lp__rt_text_branch_to(p, (size_t)(end - a), a, alt);
        if (len)
            return a + len;
    }
    return 0;
}

