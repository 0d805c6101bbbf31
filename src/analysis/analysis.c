/* analysis: opening a file, the steps in order, the accessors, and the small
 * helpers the other files share (errors, growable arrays, strings).
 *
 * The whole file is read into memory once; every later step reads that
 * copy, never the file again, so a file that changes underneath cannot
 * make two steps disagree. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis_internal.h"

int lp__an_fail(const lp_analysis *a, lp_analysis_error *err, int code, int has_offset,
                uint64_t offset, const char *fmt, ...)
{
    if (!err)
        return code;
    err->code = code;
    err->has_offset = has_offset;
    err->offset = offset;
    int n = snprintf(err->message, sizeof err->message, "%s: ", a && a->name ? a->name : "?");
    if (n < 0 || (size_t)n >= sizeof err->message)
        return code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message + n, sizeof err->message - (size_t)n, fmt, ap);
    va_end(ap);
    return code;
}

void *lp__an_push(lp__an_vec *v)
{
    if (v->count == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 64;
        void *d = lp_realloc(v->data, v->cap * v->elem, cap * v->elem);
        if (!d)
            return NULL;
        v->data = d;
        v->cap = cap;
    }
    void *e = (char *)v->data + v->count++ * v->elem;
    memset(e, 0, v->elem);
    return e;
}

void lp__an_vec_free(lp__an_vec *v)
{
    lp_free(v->data);
    v->data = NULL;
    v->count = v->cap = 0;
}

const char *lp__an_strdup(lp_analysis *a, const char *s, size_t n)
{
    char **slot = lp__an_push(&a->strs);
    if (!slot)
        return NULL;
    char *d = lp_malloc(n + 1);
    if (!d) {
        a->strs.count--;
        return NULL;
    }
    memcpy(d, s, n);
    d[n] = '\0';
    *slot = d;
    return d;
}

lp__an_sec *lp__an_sec_at(const lp_analysis *a, uint64_t addr, int role)
{
    for (size_t i = 0; i < a->n_secs; i++) {
        lp__an_sec *s = &a->secs[i];
        if (role ? s->role != role : s->role == LP__AN_OTHER)
            continue;
        if (addr >= s->addr && addr - s->addr < s->size)
            return s;
    }
    return NULL;
}

void lp_analysis_free(lp_analysis *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->n_secs; i++)
        lp_free(a->secs[i].insns);
    lp_free(a->secs);
    char **strs = a->strs.data;
    for (size_t i = 0; i < a->strs.count; i++)
        lp_free(strs[i]);
    lp__an_vec_free(&a->strs);
    lp__an_vec_free(&a->syms);
    lp__an_vec_free(&a->ptrs);
    lp__an_vec_free(&a->cptrs);
    lp__an_vec_free(&a->loops);
    lp__an_vec_free(&a->back_edges);
    lp_free(a->fns);
    lp_free(a->fnx);
    lp_free(a->fn_reach);
    lp_free(a->calls);
    lp_free(a->scc_first);
    lp_free(a->scc_members);
    lp_free(a->image);
    lp_free(a->name);
    lp_free(a);
}

int lp_analysis_open_memory(const char *name, const void *data, size_t size, lp_analysis **out,
                            lp_analysis_error *err)
{
    *out = NULL;
    if (err)
        memset(err, 0, sizeof *err);
    lp_analysis *a = lp_calloc(1, sizeof *a);
    if (!a)
        return lp__an_fail(NULL, err, LP_ENOMEM, 0, 0, "out of memory");
    a->syms.elem = sizeof(lp__an_sym);
    a->ptrs.elem = sizeof(lp__an_ptr);
    a->cptrs.elem = sizeof(lp__an_ptr);
    a->strs.elem = sizeof(char *);
    a->loops.elem = sizeof(lp_analysis_loop);
    a->back_edges.elem = sizeof(lp_analysis_back_edge);
    if (!name)
        name = "(memory)";
    size_t n = strlen(name);
    a->name = lp_malloc(n + 1);
    a->image = lp_malloc(size ? size : 1);
    if (!a->name || !a->image) {
        lp_analysis_free(a);
        return lp__an_fail(NULL, err, LP_ENOMEM, 0, 0, "out of memory");
    }
    memcpy(a->name, name, n + 1);
    const char *slash = strrchr(a->name, '/');
    a->base = slash && slash[1] ? slash + 1 : a->name;
    if (size)
        memcpy(a->image, data, size);
    a->size = size;

    int rc = lp__an_elf_read(a, err);
    if (!rc)
        rc = lp__an_funcs_build(a, err);
    if (!rc)
        rc = lp__an_graph_build(a, err);
    if (!rc)
        rc = lp__an_loops_build(a, err);
    if (rc) {
        lp_analysis_free(a);
        return rc;
    }
    *out = a;
    return 0;
}

int lp_analysis_open_file(const char *path, lp_analysis **out, lp_analysis_error *err)
{
    *out = NULL;
    lp_analysis tmp = {.name = (char *)path};
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno;
        return lp__an_fail(&tmp, err, e == ENOENT ? LP_ENOENT : LP_EIO, 0, 0, "%s", strerror(e));
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return lp__an_fail(&tmp, err, LP_EIO, 0, 0, "not a regular file");
    }
    size_t cap = st.st_size > 0 ? (size_t)st.st_size : 4096, size = 0;
    uint8_t *buf = lp_malloc(cap);
    if (!buf) {
        fclose(f);
        return lp__an_fail(&tmp, err, LP_ENOMEM, 0, 0, "out of memory reading %zu bytes", cap);
    }
    /* Read to the end even if the size changed since fstat. */
    for (;;) {
        size_t got = fread(buf + size, 1, cap - size, f);
        size += got;
        if (size < cap)
            break;
        uint8_t *more = lp_realloc(buf, cap, cap * 2);
        if (!more) {
            lp_free(buf);
            fclose(f);
            return lp__an_fail(&tmp, err, LP_ENOMEM, 0, 0, "out of memory reading the file");
        }
        buf = more;
        cap *= 2;
    }
    int bad = ferror(f);
    int e = errno;
    fclose(f);
    if (bad) {
        lp_free(buf);
        return lp__an_fail(&tmp, err, LP_EIO, 0, 0, "read error: %s", strerror(e));
    }
    int rc = lp_analysis_open_memory(path, buf, size, out, err);
    lp_free(buf);
    return rc;
}

/* ---- accessors ---- */

const lp_analysis_summary *lp_analysis_summary_get(const lp_analysis *a)
{
    return &a->sum;
}

const char *lp_analysis_name(const lp_analysis *a)
{
    return a->name;
}

const lp_analysis_fn *lp_analysis_fn_get(const lp_analysis *a, uint32_t i)
{
    return i < a->n_fns ? &a->fns[i] : NULL;
}

const lp_analysis_loop *lp_analysis_loop_get(const lp_analysis *a, uint32_t i)
{
    return i < a->loops.count ? &((const lp_analysis_loop *)a->loops.data)[i] : NULL;
}

const lp_analysis_back_edge *lp_analysis_back_edge_get(const lp_analysis *a, uint32_t i)
{
    return i < a->back_edges.count ? &((const lp_analysis_back_edge *)a->back_edges.data)[i]
                                   : NULL;
}

size_t lp_analysis_edges(const lp_analysis *a, const lp_bursty_call **out)
{
    *out = a->calls;
    return a->n_calls;
}

uint32_t lp_analysis_fn_at(const lp_analysis *a, uint64_t addr)
{
    uint32_t lo = 0, hi = a->n_fns;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a->fns[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < a->n_fns && a->fns[lo].addr == addr ? lo : UINT32_MAX;
}

uint32_t lp_analysis_fn_find(const lp_analysis *a, const char *name)
{
    for (uint32_t i = 0; i < a->n_fns; i++)
        if (strcmp(a->fns[i].name, name) == 0)
            return i;
    return UINT32_MAX;
}

uint32_t lp_analysis_scc_get(const lp_analysis *a, uint32_t i, const uint32_t **members)
{
    *members = NULL;
    if (i >= a->sum.sccs)
        return 0;
    *members = a->scc_members + a->scc_first[i];
    return a->scc_first[i + 1] - a->scc_first[i];
}
