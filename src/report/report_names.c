/* Naming addresses for people and tools (lowprof/report.h): function,
 * file:line and module, with witnessed entries standing in for missing
 * symbols so stripped code still groups by the functions that ran. */
#define _GNU_SOURCE /* strdup */
#include "lowprof/report.h"

#include <stdlib.h>
#include <string.h>

/* ---- symbols ----------------------------------------------------------------------- */

/* Index of the module whose text holds pc, or map->count. A plain scan:
 * the symbolizer has already done the lookups that matter for speed. */
static size_t lp__module_index(const lp_module_map *map, uint64_t pc)
{
    for (size_t i = 0; i < map->count; i++)
        if (pc >= map->items[i].start && pc - map->items[i].start < map->items[i].size)
            return i;
    return map->count;
}

const char *lp_report_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int lp__u64_cmp(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Collects every function entry the profiles witnessed: method entries,
 * callees of call pairs, both ends of call-graph edges, indirect targets. */
static int lp__collect_entries(lp_names *n, const lp_profile_set *s)
{
    size_t total = 0;
    for (size_t i = 0; i < s->count; i++)
        total += s->profiles[i].table.count * 2;
    n->entries = malloc((total ? total : 1) * sizeof *n->entries);
    if (!n->entries)
        return LP_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < s->count; i++) {
        const lp_profile *p = &s->profiles[i];
        int a = p->type == LP_PROF_METHOD || p->type == LP_PROF_CALL_GRAPH;
        int b = p->type == LP_PROF_CALL_PAIR || p->type == LP_PROF_CALL_GRAPH ||
                p->type == LP_PROF_CALL_TARGET;
        if (!a && !b)
            continue;
        size_t cursor = 0;
        for (lp_entry *e; (e = lp_table_next(&p->table, &cursor)) != NULL && k + 2 <= total;) {
            if (a)
                n->entries[k++] = e->key.a;
            if (b)
                n->entries[k++] = e->key.b;
        }
    }
    qsort(n->entries, k, sizeof *n->entries, lp__u64_cmp);
    size_t w = 0;
    for (size_t r = 0; r < k; r++)
        if (w == 0 || n->entries[w - 1] != n->entries[r])
            n->entries[w++] = n->entries[r];
    n->nentries = w;
    n->entry_names = calloc(w ? w : 1, sizeof *n->entry_names);
    return n->entry_names ? 0 : LP_ENOMEM;
}

int lp_names_init(lp_names *n, const lp_profile_set *s)
{
    memset(n, 0, sizeof *n);
    n->modules = &s->modules;
    int rc = lp_symbolizer_create(&s->modules, &n->sym);
    if (rc == 0)
        rc = lp__collect_entries(n, s);
    if (rc) {
        lp_names_fini(n);
        return rc;
    }
    /* The program itself: the module named like the recorded program, or
     * else the first one mapped (the front end maps the executable first). */
    const char *program = lp_meta_get(&s->meta, "program");
    for (size_t i = 0; program && i < s->modules.count; i++) {
        const char *path = s->modules.items[i].path;
        if (path && (strcmp(path, program) == 0 ||
                     strcmp(lp_report_basename(path), lp_report_basename(program)) == 0)) {
            n->main_module = &s->modules.items[i];
            break;
        }
    }
    if (!n->main_module && s->modules.count)
        n->main_module = &s->modules.items[0];
    return 0;
}

void lp_names_fini(lp_names *n)
{
    if (!n)
        return;
    lp_symbolizer_free(n->sym);
    n->sym = NULL;
    if (n->group_names)
        for (size_t i = 0; i <= n->modules->count; i++)
            free(n->group_names[i]);
    free(n->group_names);
    n->group_names = NULL;
    for (size_t i = 0; n->entry_names && i < n->nentries; i++)
        free(n->entry_names[i]);
    free(n->entry_names);
    free(n->entries);
    n->entry_names = NULL;
    n->entries = NULL;
    n->nentries = 0;
}

/* For pc that no symbol covers: the index of the witnessed entry it
 * belongs to, or n->nentries. That is the closest entry at or below pc in
 * the same module, provided the entry has no symbol either: a named entry
 * closer to pc means pc lies past the end of a named function, in code
 * nothing identifies. */
static size_t lp__unnamed_entry(lp_names *n, uint64_t pc)
{
    size_t lo = 0, hi = n->nentries;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (n->entries[mid] <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return n->nentries;
    size_t i = lo - 1;
    if (lp__module_index(n->modules, n->entries[i]) != lp__module_index(n->modules, pc) ||
        lp__module_index(n->modules, pc) == n->modules->count)
        return n->nentries;
    lp_symbol entry;
    lp_symbolize(n->sym, n->entries[i], &entry);
    return entry.function ? n->nentries : i;
}

uint64_t lp_names_start(lp_names *n, uint64_t pc)
{
    lp_symbol sym;
    lp_symbolize(n->sym, pc, &sym);
    if (sym.function)
        return sym.function_entry;
    size_t i = lp__unnamed_entry(n, pc);
    return i < n->nentries ? n->entries[i] : pc;
}

const char *lp_names_group(lp_names *n, uint64_t pc, lp_symbol *sym)
{
    lp_symbol local;
    if (!sym)
        sym = &local;
    lp_symbolize(n->sym, pc, sym);
    if (sym->function)
        return sym->function;
    size_t e = lp__unnamed_entry(n, pc);
    if (e < n->nentries) {
        if (!n->entry_names[e]) {
            char buf[512];
            lp_names_function(n, n->entries[e], buf, sizeof buf);
            n->entry_names[e] = strdup(buf);
        }
        if (n->entry_names[e])
            return n->entry_names[e];
    }
    if (!n->group_names) {
        n->group_names = calloc(n->modules->count + 1, sizeof *n->group_names);
        if (!n->group_names)
            return "[unknown]";
    }
    size_t i = lp__module_index(n->modules, pc);
    const lp_module *m = i < n->modules->count ? &n->modules->items[i] : NULL;
    if (!n->group_names[i]) {
        const char *base = m && m->path ? lp_report_basename(m->path) : "unknown";
        size_t len = strlen(base) + 3;
        n->group_names[i] = malloc(len);
        if (!n->group_names[i])
            return "[unknown]";
        snprintf(n->group_names[i], len, "[%s]", base);
    }
    return n->group_names[i];
}

int lp_names_is_library(lp_names *n, const char *module_path)
{
    if (!module_path)
        return 0;
    return !n->main_module || !n->main_module->path ||
           strcmp(n->main_module->path, module_path) != 0;
}

const char *lp_names_function(lp_names *n, uint64_t pc, char *buf, size_t size)
{
    lp_symbol sym;
    lp_symbolize(n->sym, pc, &sym);
    if (sym.function) {
        snprintf(buf, size, "%s", sym.function);
    } else {
        size_t i = lp__module_index(n->modules, pc);
        const lp_module *m = i < n->modules->count ? &n->modules->items[i] : NULL;
        if (m && m->path)
            snprintf(buf, size, "%s+0x%llx", lp_report_basename(m->path),
                     (unsigned long long)(pc - (uint64_t)m->bias));
        else
            snprintf(buf, size, "0x%llx", (unsigned long long)pc);
    }
    return buf;
}

const char *lp_names_describe(lp_names *n, uint64_t pc, int with_function, char *buf, size_t size)
{
    lp_symbol sym;
    lp_symbolize(n->sym, pc, &sym);
    char where[512];
    size_t w = 0;
    where[0] = '\0';
    if (sym.file)
        w += (size_t)snprintf(where, sizeof where, "%s:%u", lp_report_basename(sym.file), sym.line);
    /* Code the compiler inlined: the line is in the inlined function's
     * source, so name that function too (the innermost level, from DWARF). */
    lp_src_frame inl[2];
    if (lp_symbolize_frames(n->sym, pc, inl, 2) >= 2 && inl[0].function && w < sizeof where)
        w += (size_t)snprintf(where + w, sizeof where - w, "%sinlined %s", w ? ", " : "",
                              inl[0].function);
    if (sym.module && lp_names_is_library(n, sym.module) && w < sizeof where)
        snprintf(where + w, sizeof where - w, "%s%s", w ? ", " : "", lp_report_basename(sym.module));
    if (!with_function) {
        snprintf(buf, size, "%s", where[0] ? where : "?");
        return buf;
    }
    char fn[512];
    lp_names_function(n, pc, fn, sizeof fn);
    /* An unnamed address already says its module in the name. */
    if (!sym.function && !sym.file)
        snprintf(buf, size, "%s", fn);
    else if (where[0])
        snprintf(buf, size, "%s (%s)", fn, where);
    else
        snprintf(buf, size, "%s", fn);
    return buf;
}
