/* lowprof symbols: runtime addresses of a recorded process to function,
 * source file and line, read from each module's ELF symbol table and DWARF
 * with elfutils' libdwfl in offline mode.
 *
 * Each module of the recorded map gets its own Dwfl session, reported at the
 * module's recorded load bias, so a runtime address from the profile is
 * looked up as it is, with no translation. A separate session per module
 * keeps modules whose recorded ranges overlap, or whose files changed, from
 * disturbing each other. Sessions open lazily, on the first address that
 * falls in the module: a process maps dozens of libraries and a report
 * usually touches a few.
 *
 * Tuned for: reports and exports that ask for the same pcs again and again
 * (a call pair's site, its caller's entry, the same function from many
 * blocks), so every answer is cached per pc in the one lp_table. */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC */
#include "lowprof/symbols.h"
#include "symbols_internal.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols_copies.h"
#include "symbols_plt.h"

/* One module of the map and its (lazily opened) session. */
typedef struct lp__sym_module {
    char *path;
    uint64_t start;
    uint64_t size;
    int64_t bias;
    uint8_t build_id[32];
    uint8_t build_id_len;
    bool tried; /* the session was attempted (it may have failed) */
    Dwfl *dwfl; /* NULL if the file is missing, unreadable or changed */
    Dwfl_Module *mod;
    bool cus_built;           /* the compile-unit index below was attempted */
    struct lp__cu_range *cus; /* sorted by lo; NULL when none or not built */
    size_t ncus;
    bool plt_tried; /* the PLT stub names below were read */
    lp__plt *plt;   /* symbols_plt.c; NULL when none or not read */
    bool origins_tried;   /* the functions by name below were read */
    lp__origins *origins; /* symbols_copies.c; NULL when not read */
} lp__sym_module;

/* Where a compile unit's code lies, for modules without .debug_aranges
 * (clang writes none by default): runtime addresses [lo, hi) and the
 * offset of the unit's DIE. */
typedef struct lp__cu_range {
    uint64_t lo, hi;
    Dwarf_Off die;
} lp__cu_range;

struct lp_symbolizer {
    lp__sym_module *mods; /* sorted by start */
    size_t count;
    lp_table cache; /* key (pc, 0) -> v[0] = index into results */
    lp_symbol *results;
    size_t nresults;
    size_t cap;
    lp_table paths; /* key (DWARF file name, comp dir) pointers -> v[0] index */
    char **joined;  /* absolute source paths built from relative ones */
    size_t njoined;
    size_t joined_cap;
};

/* libdwfl keeps a pointer to the callbacks and the search path for the
 * session's lifetime, so both are static. NULL as the path selects the
 * default search: beside the file, .debug/, and /usr/lib/debug (including
 * /usr/lib/debug/.build-id/xx/yyyy.debug, where Debian's -dbg and -dbgsym
 * packages install separate debug info). */
static char *lp__debuginfo_path = NULL;
static const Dwfl_Callbacks lp__offline_callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = &lp__debuginfo_path,
};

static char *lp__strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = lp_malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static int lp__module_cmp_start(const void *a, const void *b)
{
    const lp__sym_module *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start ? 1 : 0;
}

int lp_symbolizer_create(const lp_module_map *modules, lp_symbolizer **out)
{
    *out = NULL;
    lp_symbolizer *s = lp_calloc(1, sizeof *s);
    if (!s)
        return LP_ENOMEM;
    size_t n = modules ? modules->count : 0;
    if (n) {
        s->mods = lp_calloc(n, sizeof *s->mods);
        if (!s->mods)
            goto nomem;
    }
    for (size_t i = 0; i < n; i++) {
        const lp_module *m = &modules->items[i];
        lp__sym_module *d = &s->mods[s->count];
        d->path = lp__strdup(m->path ? m->path : "");
        if (!d->path)
            goto nomem;
        s->count++;
        d->start = m->start;
        d->size = m->size;
        d->bias = m->bias;
        d->build_id_len = m->build_id_len <= sizeof d->build_id ? m->build_id_len : 0;
        memcpy(d->build_id, m->build_id, d->build_id_len);
    }
    if (s->count > 1)
        qsort(s->mods, s->count, sizeof *s->mods, lp__module_cmp_start);
    if (lp_table_init(&s->cache, 64) != 0 || lp_table_init(&s->paths, 16) != 0)
        goto nomem;
    *out = s;
    return 0;
nomem:
    lp_symbolizer_free(s);
    return LP_ENOMEM;
}

void lp_symbolizer_free(lp_symbolizer *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->count; i++) {
        if (s->mods[i].dwfl)
            dwfl_end(s->mods[i].dwfl);
        lp_free(s->mods[i].path);
        lp_free(s->mods[i].cus);
        lp__plt_free(s->mods[i].plt);
        lp__origins_free(s->mods[i].origins);
    }
    lp_free(s->mods);
    lp_table_fini(&s->cache);
    lp_free(s->results);
    for (size_t i = 0; i < s->njoined; i++)
        lp_free(s->joined[i]);
    lp_free(s->joined);
    lp_table_fini(&s->paths);
    lp_free(s);
}

/* The module whose runtime text range holds pc, or NULL. Binary search for
 * the last module starting at or below pc; if the map has overlapping
 * ranges that one may not hold pc, so fall back to a scan. */
static lp__sym_module *lp__find_module(lp_symbolizer *s, uint64_t pc)
{
    size_t lo = 0, hi = s->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->mods[mid].start <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0) {
        lp__sym_module *m = &s->mods[lo - 1];
        if (pc - m->start < m->size)
            return m;
    }
    for (size_t i = 0; i < s->count; i++)
        if (pc >= s->mods[i].start && pc - s->mods[i].start < s->mods[i].size)
            return &s->mods[i];
    return NULL;
}

/* Reports file at m's bias in a new session. Returns 0 and fills
 * m->dwfl/m->mod, or -1 when the file is missing or not ELF, or when its
 * build id differs from the recorded one: a file that changed since the
 * recording would give confidently wrong names. */
static int lp__module_try(lp__sym_module *m, const char *file)
{
    /* Only a regular file, opened without blocking: a profile is input, and
     * a module path naming a FIFO or a device must not hang the reader. */
    int fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return -1;
    }
    Dwfl *dwfl = dwfl_begin(&lp__offline_callbacks);
    if (!dwfl) {
        close(fd);
        return -1;
    }
    dwfl_report_begin(dwfl);
    /* add_p_vaddr: base is the bias (runtime minus ELF address) for ET_DYN;
     * libdwfl ignores it for ET_EXEC, whose addresses are absolute. The
     * session takes the descriptor over. */
    Dwfl_Module *mod = dwfl_report_elf(dwfl, m->path, file, fd, (GElf_Addr)m->bias, true);
    if (dwfl_report_end(dwfl, NULL, NULL) != 0 || !mod) {
        dwfl_end(dwfl);
        return -1;
    }
    if (m->build_id_len) {
        const unsigned char *bits = NULL;
        GElf_Addr vaddr;
        int len = dwfl_module_build_id(mod, &bits, &vaddr);
        if (len > 0 &&
            ((size_t)len != m->build_id_len || memcmp(bits, m->build_id, m->build_id_len) != 0)) {
            dwfl_end(dwfl);
            return -1;
        }
    }
    m->dwfl = dwfl;
    m->mod = mod;
    return 0;
}

/* Opens m's session once: from the recorded path, or, when that file is
 * gone or was replaced (a package upgrade), from the separate debug file
 * that Debian's debug packages install under the recorded build id. That
 * file carries the same symbols, DWARF and program headers, so addresses
 * line up. If neither works, m->dwfl stays NULL. */
static void lp__module_open(lp__sym_module *m)
{
    if (m->tried)
        return;
    m->tried = true;
    if (m->path[0] == '/' && lp__module_try(m, m->path) == 0)
        return;
    if (m->build_id_len < 2)
        return; /* "[vdso]" and the like, with nothing on disk to read */
    char debug[64 + 2 * sizeof m->build_id];
    int n = snprintf(debug, sizeof debug, "/usr/lib/debug/.build-id/%02x/", m->build_id[0]);
    for (size_t i = 1; i < m->build_id_len; i++)
        n += snprintf(debug + n, sizeof debug - (size_t)n, "%02x", m->build_id[i]);
    snprintf(debug + n, sizeof debug - (size_t)n, ".debug");
    lp__module_try(m, debug);
}

/* Joins dir and a relative file name, dropping "." segments and folding
 * "name/.." pairs, as compilers record paths like "../src/x.c" relative to
 * the build directory. Returns an lp_malloc'd string or NULL. */
static char *lp__join_path(const char *dir, const char *file)
{
    size_t dl = strlen(dir), fl = strlen(file);
    char *res = lp_malloc(dl + fl + 2);
    if (!res)
        return NULL;
    size_t root = dir[0] == '/' ? 1 : 0; /* the leading '/' is never folded */
    size_t out = root, depth = 0;        /* depth: foldable segments in res */
    if (root)
        res[0] = '/';
    const char *parts[2] = {dir, file};
    for (int k = 0; k < 2; k++) {
        for (const char *p = parts[k]; *p;) {
            while (*p == '/')
                p++;
            const char *seg = p;
            while (*p && *p != '/')
                p++;
            size_t len = (size_t)(p - seg);
            if (len == 0 || (len == 1 && seg[0] == '.'))
                continue;
            int dotdot = len == 2 && seg[0] == '.' && seg[1] == '.';
            if (dotdot && depth > 0) {
                while (out > root && res[out - 1] != '/')
                    out--;
                if (out > root)
                    out--;
                depth--;
                continue;
            }
            if (dotdot && root)
                continue; /* "/.." is "/" */
            if (out > root)
                res[out++] = '/';
            memcpy(res + out, seg, len);
            out += len;
            if (!dotdot)
                depth++;
        }
    }
    res[out] = '\0';
    return res;
}

/* Keeps str (lp_malloc'd; taken over) under key and returns it; on
 * failure frees it and returns fallback. */
static const char *lp__keep(lp_symbolizer *s, lp_key key, char *str, const char *fallback)
{
    if (!str)
        return fallback;
    if (s->njoined == s->joined_cap) {
        size_t cap = s->joined_cap ? s->joined_cap * 2 : 16;
        char **j = lp_realloc(s->joined, s->joined_cap * sizeof *j, cap * sizeof *j);
        if (!j) {
            lp_free(str);
            return fallback;
        }
        s->joined = j;
        s->joined_cap = cap;
    }
    lp_entry *e = lp_table_upsert(&s->paths, key);
    if (!e) {
        lp_free(str);
        return fallback;
    }
    e->v[0] = s->njoined;
    s->joined[s->njoined++] = str;
    return str;
}

/* The source path to show for a DWARF file name: absolute names as they
 * are, relative ones joined to their compilation directory (once per
 * distinct pair; the strings live as long as s). */
const char *lp__source_path(lp_symbolizer *s, const char *file, const char *comp_dir)
{
    /* An absolute name is kept as it is unless it has "." or ".." steps
     * (libdw joins DWARF 5's directory table in without folding them). */
    if (file[0] == '/') {
        if (!strstr(file, "/./") && !strstr(file, "/../") && !strstr(file, "//"))
            return file;
        comp_dir = "/";
    } else if (!comp_dir || comp_dir[0] != '/') {
        return file;
    }
    lp_key key = {(uint64_t)(uintptr_t)file, (uint64_t)(uintptr_t)comp_dir};
    lp_entry *e = lp_table_find(&s->paths, key);
    if (e)
        return s->joined[e->v[0]];
    return lp__keep(s, key, lp__join_path(comp_dir, file), file);
}

/* The name of the function a block-profiled copy was made from (lowprof cc
 * --blocks=clone names the copy of f f.lpdup or f.lpdupc, and the copy's
 * checking entry f.lpdupe): a copy's code is reported as its function's. Other names are returned
 * as they are. */
static const char *lp__copy_origin(lp_symbolizer *s, const char *name)
{
    size_t n = strlen(name), cut = 0;
    if (n > 7 && (strcmp(name + n - 7, ".lpdupc") == 0 || strcmp(name + n - 7, ".lpdupe") == 0))
        cut = 7;
    else if (n > 6 && strcmp(name + n - 6, ".lpdup") == 0)
        cut = 6;
    if (!cut)
        return name;
    /* Kept with the joined paths, under a key no path pair has. */
    lp_key key = {(uint64_t)(uintptr_t)name, 1};
    lp_entry *e = lp_table_find(&s->paths, key);
    if (e)
        return s->joined[e->v[0]];
    char *base = lp_malloc(n - cut + 1);
    if (base) {
        memcpy(base, name, n - cut);
        base[n - cut] = 0;
    }
    return lp__keep(s, key, base, name);
}

/* The C++ ABI's demangler, from the C++ runtime (libstdc++); C code may
 * call it by this declaration. It returns a malloc'd string. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/* name as people read it: a C++ name (Itanium ABI, "_Z...") demangled, as
 * perf shows it ("ns::Klass::method(int)"); any other name as it is. Kept
 * per distinct name for the symbolizer's life. */
const char *lp__demangled(lp_symbolizer *s, const char *name)
{
    if (!name || name[0] != '_' || name[1] != 'Z')
        return name;
    lp_key key = {(uint64_t)(uintptr_t)name, 2}; /* 1: copies' origins */
    lp_entry *e = lp_table_find(&s->paths, key);
    if (e)
        return s->joined[e->v[0]];
    int status = -1;
    char *d = __cxa_demangle(name, NULL, NULL, &status);
    char *kept = NULL;
    if (d && status == 0) {
        size_t n = strlen(d) + 1;
        if ((kept = lp_malloc(n)) != NULL)
            memcpy(kept, d, n);
    }
    free(d);
    return lp__keep(s, key, kept, name);
}

static int lp__cu_cmp(const void *x, const void *y)
{
    const lp__cu_range *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Indexes m's compile units by the address ranges their DIEs declare
 * (DW_AT_low_pc/high_pc or DW_AT_ranges), once. This is what addr2line and
 * perf fall back to when there are no aranges. Out of memory leaves the
 * index partial or empty: lines are then missing, never wrong. */
static void lp__cus_build(lp__sym_module *m, Dwarf *dw, Dwarf_Addr bias)
{
    m->cus_built = true;
    size_t cap = 0;
    Dwarf_Off off = 0, next;
    size_t hsize;
    while (dwarf_next_unit(dw, off, &next, &hsize, NULL, NULL, NULL, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu;
        if (dwarf_offdie(dw, off + hsize, &cu)) {
            Dwarf_Addr base, lo, hi;
            for (ptrdiff_t it = 0; (it = dwarf_ranges(&cu, it, &base, &lo, &hi)) > 0;) {
                if (hi <= lo)
                    continue;
                if (m->ncus == cap) {
                    size_t ncap = cap ? 2 * cap : 16;
                    lp__cu_range *g =
                        lp_realloc(m->cus, cap * sizeof *g, ncap * sizeof *g);
                    if (!g)
                        goto done;
                    m->cus = g;
                    cap = ncap;
                }
                m->cus[m->ncus++] = (lp__cu_range){lo + bias, hi + bias, off + hsize};
            }
        }
        off = next;
    }
done:
    if (m->ncus > 1)
        qsort(m->cus, m->ncus, sizeof *m->cus, lp__cu_cmp);
}

/* The compile unit whose ranges hold pc, from the module's index of units
 * (built on first use): *out_cu and the module's *out_bias. Returns 0, or
 * -1 when no unit holds pc. */
static int lp__cu_by_index(lp__sym_module *m, uint64_t pc, Dwarf_Die *out_cu,
                           Dwarf_Addr *out_bias)
{
    Dwarf_Addr bias = 0;
    Dwarf *dw = dwfl_module_getdwarf(m->mod, &bias);
    if (!dw)
        return -1;
    if (!m->cus_built)
        lp__cus_build(m, dw, bias);
    /* The last range starting at or below pc; ranges of different units
     * do not overlap in a well-formed file, so checking it suffices. */
    size_t lo = 0, hi = m->ncus;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->cus[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || pc >= m->cus[lo - 1].hi || !dwarf_offdie(dw, m->cus[lo - 1].die, out_cu))
        return -1;
    *out_bias = bias;
    return 0;
}

/* The line of pc through the compile-unit index, for a module whose
 * aranges do not cover it. Returns 0 and sets *out_file, *out_line and
 * *out_comp_dir (strings libdw owns), or -1. */
static int lp__line_by_cu(lp__sym_module *m, uint64_t pc, const char **out_file,
                          int *out_line, const char **out_comp_dir)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die cu;
    if (lp__cu_by_index(m, pc, &cu, &bias) != 0)
        return -1;
    Dwarf_Line *line = dwarf_getsrc_die(&cu, pc - bias);
    if (!line || dwarf_lineno(line, out_line) != 0)
        return -1;
    *out_file = dwarf_linesrc(line, NULL, NULL);
    Dwarf_Attribute attr;
    *out_comp_dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &attr));
    return *out_file ? 0 : -1;
}

/* A sized function of mod that covers pc, for when libdwfl answered with
 * a zero-size marker at the same address (the linker's __start_SECTION
 * at the first function of a section: libdwfl prefers it, a global, to
 * the local function there). The name, its symbol in *sym and pc's
 * offset into it in *offset; NULL if there is none. A scan of the table:
 * such markers are few. */
static const char *lp__func_covering(Dwfl_Module *mod, uint64_t pc, GElf_Sym *sym, GElf_Off *offset)
{
    int n = dwfl_module_getsymtab(mod);
    for (int i = 1; i < n; i++) {
        GElf_Sym y;
        GElf_Addr addr;
        const char *name = dwfl_module_getsym_info(mod, i, &y, &addr, NULL, NULL, NULL);
        if (name && name[0] && GELF_ST_TYPE(y.st_info) == STT_FUNC && y.st_size &&
            y.st_shndx != SHN_UNDEF && pc >= addr && pc - addr < y.st_size) {
            *sym = y;
            *offset = pc - addr;
            return name;
        }
    }
    return NULL;
}

/* Resolves pc against m (or against nothing when m is NULL). */
static void lp__resolve(lp_symbolizer *s, lp__sym_module *m, uint64_t pc, lp_symbol *out)
{
    memset(out, 0, sizeof *out);
    out->function_start = out->function_entry = pc;
    if (!m)
        return;
    out->module = m->path;
    lp__module_open(m);
    if (!m->dwfl)
        return;

    GElf_Off offset = 0;
    GElf_Sym sym;
    const char *name = dwfl_module_addrinfo(m->mod, (GElf_Addr)pc, &offset, &sym, NULL, NULL, NULL);
    if (name && sym.st_size == 0 && GELF_ST_TYPE(sym.st_info) == STT_NOTYPE) {
        GElf_Sym fsym;
        GElf_Off foff;
        const char *f = lp__func_covering(m->mod, pc, &fsym, &foff);
        if (f) {
            name = f;
            sym = fsym;
            offset = foff;
        }
    }
    /* libdwfl may answer with the nearest symbol below pc even when pc lies
     * past its end (a stripped library whose static functions are gone from
     * .dynsym): a sized symbol that does not cover pc is not the function. */
    if (name && name[0] && !(sym.st_size != 0 && offset >= sym.st_size)) {
        out->linkage = lp__copy_origin(s, name);
        out->function = lp__demangled(s, out->linkage);
        out->function_start = out->function_entry = pc - offset;
        out->function_size = sym.st_size;
        if (out->linkage != name) { /* a copy: one function with its original */
            if (!m->origins_tried) {
                m->origins_tried = true;
                m->origins = lp__origins_load(m->mod);
            }
            uint64_t at = lp__origins_find(m->origins, out->linkage, strlen(out->linkage));
            if (at)
                out->function_entry = at;
        }
    }
    if (!out->function) { /* a PLT stub has no symbol: "target@plt" */
        if (!m->plt_tried) {
            GElf_Addr elf_bias = 0;
            Elf *elf = dwfl_module_getelf(m->mod, &elf_bias);
            m->plt_tried = true;
            m->plt = lp__plt_load(elf, elf_bias);
        }
        uint64_t stub;
        const char *plt_name = lp__plt_lookup(m->plt, pc, &stub);
        if (plt_name) {
            out->function = out->linkage = plt_name;
            out->function_start = out->function_entry = stub;
        }
    }

    Dwfl_Line *line = dwfl_module_getsrc(m->mod, (Dwarf_Addr)pc);
    int lineno = 0;
    const char *file = NULL, *comp_dir = NULL;
    if (line) {
        file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
        comp_dir = dwfl_line_comp_dir(line);
    } else if (lp__line_by_cu(m, pc, &file, &lineno, &comp_dir) != 0) {
        file = NULL;
    }
    if (file && lineno > 0) {
        out->file = lp__source_path(s, file, comp_dir);
        out->line = (unsigned)lineno;
    }
}

void lp_symbolize(lp_symbolizer *s, uint64_t pc, lp_symbol *out)
{
    lp_key key = {pc, 0};
    lp_entry *e = lp_table_find(&s->cache, key);
    if (e) {
        *out = s->results[e->v[0]];
        return;
    }
    lp__resolve(s, lp__find_module(s, pc), pc, out);

    /* Caching is an optimisation: when memory runs out the answer is still
     * right, only recomputed next time. */
    if (s->nresults == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        lp_symbol *r =
            lp_realloc(s->results, s->cap * sizeof *s->results, cap * sizeof *s->results);
        if (!r)
            return;
        s->results = r;
        s->cap = cap;
    }
    e = lp_table_upsert(&s->cache, key);
    if (!e)
        return;
    e->v[0] = s->nresults;
    s->results[s->nresults++] = *out;
}

/* ---- for symbols_inline.c (symbols_internal.h) ----------------------------- */

int lp__symbolizer_locate(lp_symbolizer *s, uint64_t pc, Dwfl_Module **out_mod,
                          Dwarf_Die *out_cu, Dwarf_Addr *out_bias)
{
    lp__sym_module *m = lp__find_module(s, pc);
    if (!m)
        return -1;
    lp__module_open(m);
    if (!m->dwfl)
        return -1;
    *out_mod = m->mod;
    if (!out_cu)
        return 0;
    Dwarf_Addr bias = 0;
    /* The aranges answer is checked against the unit's own ranges: a
     * program that links gcc-built objects (with aranges) and clang-built
     * ones (without) can get a unit of the former for code of the latter. */
    Dwarf_Die *cu = dwfl_module_addrdie(m->mod, (Dwarf_Addr)pc, &bias);
    if (cu && dwarf_haspc(cu, (Dwarf_Addr)pc - bias) > 0) {
        *out_cu = *cu;
        *out_bias = bias;
        return 0;
    }
    return lp__cu_by_index(m, pc, out_cu, out_bias);
}
