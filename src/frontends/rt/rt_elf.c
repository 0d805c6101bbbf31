/* What the runtime knows about the program it lives in: the loaded modules
 * (for the profile's module chunk, so `lowprof report` names functions),
 * the executable's function symbols (to map a call's return address to its
 * caller and a PC sample to its method), the instrumented methods and
 * their profile instructions:
 *
 *   - function entries: the addresses the compiler lists in the
 *     __patchable_function_entries section (-fpatchable-function-entry=5,0:
 *     five NOP bytes at the function's first byte, after endbr64 when
 *     -fcf-protection adds one);
 *   - coverage calls: every `call` (or tail `jmp`) whose rel32 lands on
 *     __sanitizer_cov_trace_pc_guard, found by scanning the executable's
 *     text once and kept only inside a function that the coverage pc-table
 *     lists (-fsanitize-coverage=trace-pc-guard,pc-table). The guard's
 *     address cannot be read back from the bytes before the call (clang
 *     hoists `lea reg, [guard]` out of loops), and need not be: the
 *     callback gets the guard, the site only has to be switched.
 *
 * Runs once, in the constructor; everything after is read-only lookups. */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_internal.h"

extern const uint64_t __start___patchable_function_entries[]
    __attribute__((weak, visibility("hidden")));
extern const uint64_t __stop___patchable_function_entries[]
    __attribute__((weak, visibility("hidden")));

void __sanitizer_cov_trace_pc_guard(uint32_t *guard);

/* ---- modules ---------------------------------------------------------------- */

static void lp__rt_note_build_id(lp__rt_module *m, const uint8_t *p, size_t size)
{
    size_t off = 0;
    while (off + 12 <= size) {
        uint32_t namesz, descsz, type;
        memcpy(&namesz, p + off, 4);
        memcpy(&descsz, p + off + 4, 4);
        memcpy(&type, p + off + 8, 4);
        size_t name_off = off + 12;
        size_t desc_off = name_off + ((namesz + 3u) & ~3u);
        size_t next = desc_off + ((descsz + 3u) & ~3u);
        if (next > size || next <= off)
            return;
        if (type == NT_GNU_BUILD_ID && namesz == 4 && memcmp(p + name_off, "GNU", 4) == 0) {
            size_t n = descsz < sizeof m->build_id ? descsz : sizeof m->build_id;
            memcpy(m->build_id, p + desc_off, n);
            m->build_id_len = (uint8_t)n;
            return;
        }
        off = next;
    }
}

static int lp__rt_module_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    int *first = data;
    int is_main = *first;
    *first = 0;
    if (lp__rt.nmodules >= LP__RT_MAX_MODULES)
        return 1;
    const char *name = info->dlpi_name;
    if (!is_main && (!name || name[0] != '/'))
        return 0; /* the vDSO and other objects without a file */
    lp__rt_module *m = &lp__rt.modules[lp__rt.nmodules];
    memset(m, 0, sizeof *m);
    uint64_t lo = UINT64_MAX, hi = 0, note_lo = UINT64_MAX, note_hi = 0;
    unsigned nx = 0, nro = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uint64_t a = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            nx++;
            lo = a < lo ? a : lo;
            hi = a + ph->p_memsz > hi ? a + ph->p_memsz : hi;
        } else if (ph->p_type == PT_LOAD && !(ph->p_flags & PF_W)) {
            nro++;
        } else if (ph->p_type == PT_NOTE) {
            note_lo = a < note_lo ? a : note_lo;
            note_hi = a + ph->p_memsz > note_hi ? a + ph->p_memsz : note_hi;
            if (!m->build_id_len)
                lp__rt_note_build_id(m, (const uint8_t *)(uintptr_t)a, ph->p_memsz);
        }
    }
    if (hi <= lo)
        return 0;
    if (is_main) {
        ssize_t n = readlink("/proc/self/exe", m->path, sizeof m->path - 1);
        m->path[n > 0 ? n : 0] = 0;
        lp__rt.text_lo = lo;
        lp__rt.text_hi = hi;
        lp__rt.text_one = nx == 1;
        /* The linkers' separate-code layout (ld's default on x86-64 Linux,
         * lld's): read-only data in segments of its own, the notes too. */
        lp__rt.text_code_only = nx == 1 && nro > 0 && (note_hi <= lo || note_lo >= hi);
        lp__rt.exe_bias = (int64_t)info->dlpi_addr;
    } else {
        size_t n = strlen(name);
        if (n >= sizeof m->path)
            n = sizeof m->path - 1;
        memcpy(m->path, name, n);
        m->path[n] = 0;
    }
    m->start = lo;
    m->size = hi - lo;
    m->bias = (int64_t)info->dlpi_addr;
    lp__rt.nmodules++;
    return 0;
}

void lp__rt_modules_scan(void)
{
    int first = 1;
    lp__rt.nmodules = 0;
    dl_iterate_phdr(lp__rt_module_cb, &first);
}

/* ---- function symbols ---------------------------------------------------------- */

static int lp__rt_func_cmp(const void *x, const void *y)
{
    const lp__rt_func *a = x, *b = y;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->end < b->end ? 1 : a->end > b->end ? -1 : 0; /* longest first */
}

/* The symbol table of the executable file (.symtab, else .dynsym), every
 * sized function, moved by the load bias. Missing or stripped: no symbols,
 * and methods end where the next one starts. */
void lp__rt_funcs_load(void)
{
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st;
    void *map = MAP_FAILED;
    if (fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(Elf64_Ehdr))
        map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return;
    const uint8_t *base = map;
    size_t fsize = (size_t)st.st_size;
    const Elf64_Ehdr *eh = map;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > fsize ||
        (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > fsize - eh->e_shoff)
        goto out;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(base + eh->e_shoff);
    const Elf64_Shdr *tab = NULL;
    for (unsigned i = 0; i < eh->e_shnum; i++)
        if (sh[i].sh_type == SHT_SYMTAB || (!tab && sh[i].sh_type == SHT_DYNSYM))
            tab = &sh[i];
    if (!tab || tab->sh_offset > fsize || tab->sh_size > fsize - tab->sh_offset ||
        tab->sh_entsize != sizeof(Elf64_Sym))
        goto out;
    size_t n = tab->sh_size / sizeof(Elf64_Sym);
    const Elf64_Sym *sym = (const Elf64_Sym *)(base + tab->sh_offset);
    lp__rt_func *f = malloc((n ? n : 1) * sizeof *f);
    if (!f)
        goto out;
    uint64_t bias = eh->e_type == ET_DYN ? (uint64_t)lp__rt.exe_bias : 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned t = ELF64_ST_TYPE(sym[i].st_info);
        if ((t != STT_FUNC && t != STT_GNU_IFUNC) || sym[i].st_size == 0 ||
            sym[i].st_shndx == SHN_UNDEF)
            continue;
        f[k].start = sym[i].st_value + bias;
        f[k].end = f[k].start + sym[i].st_size;
        k++;
    }
    if (tab->sh_link < eh->e_shnum) {
        const Elf64_Shdr *strs = &sh[tab->sh_link];
        if (strs->sh_offset <= fsize && strs->sh_size <= fsize - strs->sh_offset)
            lp__rt_copies_load(sym, n, (const char *)base + strs->sh_offset, strs->sh_size, bias);
    }
    qsort(f, k, sizeof *f, lp__rt_func_cmp);
    /* Aliases share a start: keep the longest (sorted first). */
    size_t w = 0;
    for (size_t i = 0; i < k; i++)
        if (w == 0 || f[i].start != f[w - 1].start)
            f[w++] = f[i];
    lp__rt.funcs = f;
    lp__rt.nfuncs = w;
out:
    munmap(map, fsize);
}

/* Index of the last element with start <= pc in a sorted array of structs
 * whose first member is a uint64_t start, or -1. */
static long lp__rt_floor(const void *base, size_t n, size_t stride, uint64_t pc)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t v;
        memcpy(&v, (const char *)base + mid * stride, sizeof v);
        if (v <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (long)lo - 1;
}

long lp__rt_method_at(uint64_t pc)
{
    long i = lp__rt_floor(lp__rt.methods, lp__rt.nmethods, sizeof *lp__rt.methods, pc);
    if (i >= 0 && pc < lp__rt.methods[i].end)
        return i;
    long c = lp__rt.ncopies ? lp__rt_copy_at(pc) : -1;
    return c >= 0 ? lp__rt.copies[c].method : -1;
}

long lp__rt_method_exact(uint64_t addr)
{
    long i = lp__rt_floor(lp__rt.methods, lp__rt.nmethods, sizeof *lp__rt.methods, addr);
    return i >= 0 && lp__rt.methods[i].entry == addr ? i : -1;
}

uint64_t lp__rt_func_start(uint64_t pc)
{
    long c = lp__rt.ncopies ? lp__rt_copy_at(pc) : -1;
    if (c >= 0 && lp__rt.copies[c].method >= 0)
        return lp__rt.methods[lp__rt.copies[c].method].entry;
    /* a copy only its callers' copies call (a static helper's) has no
     * method, but is its original all the same: the phase tracker hashed
     * its samples apart, and json's profiled intervals came out phases of
     * their own */
    if (c >= 0 && lp__rt.copies[c].plain)
        return lp__rt.copies[c].plain;
    long i = lp__rt_floor(lp__rt.funcs, lp__rt.nfuncs, sizeof *lp__rt.funcs, pc);
    if (i >= 0 && pc < lp__rt.funcs[i].end)
        return lp__rt.funcs[i].start;
    long m = lp__rt_method_at(pc);
    return m >= 0 ? lp__rt.methods[m].entry : 0;
}

/* Signatures hash 32 buckets (lp_signature_bucket): by address, two
 * functions shared a bucket in about one run in 32, as the load address
 * fell, and a phase change between them went unseen in that run (rt test
 * phase-scout: the start-up and the loop in one phase, the start-up
 * missing from the profile). By offset, a program's phases are told
 * apart the same way in every run. */
uint64_t lp__rt_phase_key(uint64_t pc)
{
    uint64_t f = lp__rt_func_start(pc), at = f ? f : pc;
    long m = lp__rt_module_at(at);
    return m < 0 ? at : ((uint64_t)m << 48) + (at - (uint64_t)lp__rt.modules[m].bias);
}

long lp__rt_module_at(uint64_t pc)
{
    for (size_t m = 0; m < lp__rt.nmodules; m++)
        if (pc - lp__rt.modules[m].start < lp__rt.modules[m].size)
            return (long)m;
    return -1;
}

/* ---- methods and sites ----------------------------------------------------------- */

static int lp__rt_u64_cmp(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static int lp__rt_in_text(uint64_t a, size_t len)
{
    return a >= lp__rt.text_lo && a + len <= lp__rt.text_hi;
}

/* Whether the 5 bytes at a are what a patchable entry may hold: the
 * compiler's NOPs (gcc: five 0x90; clang: nopl 8(%rax,%rax,1)), a 5-byte
 * NOP, or this runtime's own off/on forms (a fork child re-reads them):
 * to the trampoline, or straight to a copy. */
LP__TEXT_ACCESS static int lp__rt_entry_bytes_ok(const uint8_t *p, uint64_t site)
{
    if (p[0] == 0x90 && p[1] == 0x90 && p[2] == 0x90 && p[3] == 0x90 && p[4] == 0x90)
        return 1;
    if (p[0] == 0x0f && p[1] == 0x1f && p[2] == 0x44 && p[3] == 0x00)
        return 1;
    if (p[0] == 0xa9 || p[0] == 0xe8 || p[0] == 0xe9) {
        uint64_t to = site + 5 + (uint64_t)(int64_t)lp__rt_text_rel32(p + 1);
        long c = p[0] != 0xe8 && lp__rt.ncopies ? lp__rt_copy_at(to) : -1;
        return (p[0] != 0xe9 && to == (uint64_t)(uintptr_t)&lp__rt_entry_tramp) ||
               (c >= 0 && lp__rt.copies[c].start == to);
    }
    return 0;
}

/* Whether the 4 bytes before p are endbr64 (F3 0F 1E FA). */
LP__TEXT_ACCESS static int lp__rt_endbr_before(const uint8_t *p)
{
    return p[-4] == 0xf3 && p[-3] == 0x0f && p[-2] == 0x1e && p[-1] == 0xfa;
}

/* The longest prefix taken for one (lowprof cc asks for 16 bytes). */
#define LP__RT_PREFIX_MAX 64

/* The function a patchable entry belongs to: its first byte. A prefix
 * (lowprof cc's originals whose copy takes calls, LP_CC_ENTRY_PREFIXED)
 * lies in no function and ends where one starts; the compiler's entry
 * NOPs are a function's first bytes, or follow its endbr64. */
static uint64_t lp__rt_site_function(uint64_t site)
{
    long f = lp__rt_floor(lp__rt.funcs, lp__rt.nfuncs, sizeof *lp__rt.funcs, site);
    if (f >= 0 && lp__rt.funcs[f].end > site)
        return site;
    size_t next = (size_t)(f + 1);
    if (next < lp__rt.nfuncs && lp__rt.funcs[next].start >= site + 5 &&
        lp__rt.funcs[next].start - site <= LP__RT_PREFIX_MAX)
        return lp__rt.funcs[next].start;
    return site;
}

/* Function entries of the methods: the patchable entries (less a preceding
 * endbr64; after a prefix) and the pc-table's function-entry blocks, sorted
 * and unique. */
static int lp__rt_collect_entries(uint64_t **out, size_t *out_n, uint64_t **out_sites,
                                  size_t *out_nsites)
{
    const uint64_t *pb = __start___patchable_function_entries;
    const uint64_t *pe = __stop___patchable_function_entries;
    size_t npatch = pb && pe && pe > pb ? (size_t)(pe - pb) : 0;
    size_t npcs = lp__rt.pcs_start ? (size_t)(lp__rt.pcs_end - lp__rt.pcs_start) / 2 : 0;
    uint64_t *e = malloc((npatch + npcs + 1) * sizeof *e);
    uint64_t *sites = malloc((npatch + 1) * sizeof *sites);
    if (!e || !sites) {
        free(e);
        free(sites);
        return LP_ENOMEM;
    }
    size_t n = 0, ns = 0;
    for (size_t i = 0; i < npatch; i++) {
        uint64_t site = pb[i];
        if (!lp__rt_in_text(site, 5))
            continue;
        sites[ns++] = site;
        if (lp__rt_copy_at(site) >= 0)
            continue; /* a copy's entry is not a method's */
        const uint8_t *p = (const uint8_t *)(uintptr_t)site;
        uint64_t fn = lp__rt_site_function(site);
        if (fn == site && lp__rt_in_text(site - 4, 4) && lp__rt_endbr_before(p))
            fn = site - 4;
        e[n++] = fn;
    }
    for (size_t i = 0; i < npcs; i++)
        if ((lp__rt.pcs_start[2 * i + 1] & 1) && /* PCFLAG_FUNC_ENTRY */
            lp__rt_copy_at(lp__rt.pcs_start[2 * i]) < 0)
            e[n++] = lp__rt.pcs_start[2 * i];
    qsort(e, n, sizeof *e, lp__rt_u64_cmp);
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (w == 0 || e[i] != e[w - 1])
            e[w++] = e[i];
    qsort(sites, ns, sizeof *sites, lp__rt_u64_cmp);
    *out = e;
    *out_n = w;
    *out_sites = sites;
    *out_nsites = ns;
    return 0;
}

/* The open-addressing map entry site -> method index that the trampoline's
 * handler reads. */
static int lp__rt_map_build(void)
{
    size_t cap = 16;
    unsigned bits = 4;
    while (cap < 4 * lp__rt.nmethods + 2) {
        cap *= 2;
        bits++;
    }
    lp__rt.map_bits = bits;
    lp__rt.map_keys = calloc(cap, sizeof *lp__rt.map_keys);
    lp__rt.map_vals = calloc(cap, sizeof *lp__rt.map_vals);
    if (!lp__rt.map_keys || !lp__rt.map_vals)
        return LP_ENOMEM;
    lp__rt.map_mask = cap - 1;
    for (size_t i = 0; i < 2 * lp__rt.nmethods; i++) {
        const lp__rt_method *m = &lp__rt.methods[i / 2];
        uint64_t k = i % 2 ? m->copy_site : m->site;
        if (!k)
            continue;
        size_t s = lp__rt_fib(k, lp__rt.map_bits);
        while (lp__rt.map_keys[s])
            s = (s + 1) & lp__rt.map_mask;
        lp__rt.map_keys[s] = k;
        lp__rt.map_vals[s] = (uint32_t)(i / 2);
    }
    return 0;
}

/* Finds the coverage call sites in the executable's text. */
LP__TEXT_ACCESS static int lp__rt_cov_scan(void)
{
    if (!lp__rt.guards_start || lp__rt.text_hi <= lp__rt.text_lo + 5)
        return 0;
    const uint64_t cb = (uint64_t)(uintptr_t)&__sanitizer_cov_trace_pc_guard;
    size_t cap = lp__rt.nguards + 64, n = 0;
    lp__rt_site *s = malloc(cap * sizeof *s);
    if (!s)
        return LP_ENOMEM;
    const uint8_t *p = (const uint8_t *)(uintptr_t)lp__rt.text_lo;
    size_t len = (size_t)(lp__rt.text_hi - lp__rt.text_lo);
    uint64_t last_end = 0;
    for (size_t i = 0; i + 5 <= len; i++) {
        uint8_t op = p[i];
        uint64_t a = lp__rt.text_lo + i;
        if (lp__rt_text_branch_to(p + i, 5, a, cb) != 5)
            continue;
        long m = lp__rt_method_at(a);
        if (m < 0 || a < last_end || !lp__rt.methods[m].has_cov) {
            lp__rt.cov_rejected++;
            continue;
        }
        if (n == cap) {
            cap *= 2;
            lp__rt_site *g = realloc(s, cap * sizeof *s);
            if (!g) {
                free(s);
                return LP_ENOMEM;
            }
            s = g;
        }
        int tail = op == 0xe9;
        s[n].addr = a;
        s[n].on_byte = tail ? 0xe9 : 0xe8;
        s[n].off_byte = tail ? 0xc3 : 0xa9;
        n++;
        last_end = a + 5;
    }
    /* Sites come out in address order, so each method's are contiguous. */
    for (size_t i = 0; i < n; i++) {
        long m = lp__rt_method_at(s[i].addr);
        lp__rt_method *mm = &lp__rt.methods[m];
        if (mm->cov_count == 0)
            mm->cov_first = (uint32_t)i;
        mm->cov_count++;
    }
    lp__rt.cov = s;
    lp__rt.ncov = n;
    return 0;
}

/* Gives each copy its method (the one its original's address falls in),
 * and each method the copy that takes its calls. */
static void lp__rt_copies_attach(void)
{
    for (size_t i = 0; i < lp__rt.ncopies; i++) {
        lp__rt_copy *c = &lp__rt.copies[i];
        long m = c->plain ? lp__rt_method_at(c->plain) : -1;
        c->method = m;
        /* Only a NAME.lpdup copy takes NAME's calls: a static function
         * whose address is never taken may have had its arguments dropped
         * or reordered by the optimiser in the original and not in its
         * NAME.lpdupc copy, which its file's other copies call directly. */
        if (m >= 0 && c->takes_calls && lp__rt.methods[m].site) {
            lp__rt.methods[m].copy = c->entry;
            lp__rt.methods[m].copy_body = c->start;
        }
    }
}

int lp__rt_methods_build(void)
{
    uint64_t *entries, *sites;
    size_t n, nsites;
    int rc = lp__rt_collect_entries(&entries, &n, &sites, &nsites);
    if (rc)
        return rc;
    if (n > LP__RT_MAX_METHODS)
        n = LP__RT_MAX_METHODS; /* the call-pair key has room for no more */
    lp__rt_method *m = calloc(n ? n : 1, sizeof *m);
    if (!m) {
        free(entries);
        free(sites);
        return LP_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        m[i].entry = entries[i];
        uint64_t end = i + 1 < n ? entries[i + 1] : lp__rt.text_hi;
        long f = lp__rt_floor(lp__rt.funcs, lp__rt.nfuncs, sizeof *lp__rt.funcs, entries[i]);
        if (f >= 0 && lp__rt.funcs[f].start == entries[i] && lp__rt.funcs[f].end < end)
            end = lp__rt.funcs[f].end;
        m[i].end = end;
    }
    lp__rt.methods = m;
    lp__rt.nmethods = n;
    free(entries);
    /* Attach each patchable entry to its method; then the copies, and the
     * entries of the copies that only their callers' copies call. */
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            lp__rt_copies_attach();
        for (size_t i = 0; i < nsites; i++) {
            long c = lp__rt.ncopies ? lp__rt_copy_at(sites[i]) : -1;
            if ((c >= 0) != (pass == 1))
                continue;
            long k =
                c >= 0 ? lp__rt.copies[c].method : lp__rt_method_at(lp__rt_site_function(sites[i]));
            const uint8_t *p = (const uint8_t *)(uintptr_t)sites[i];
            if (k < 0 || (c < 0 ? m[k].site : m[k].copy_site) ||
                (c >= 0 && lp__rt.copies[c].takes_calls) || !lp__rt_entry_bytes_ok(p, sites[i]))
                continue;
            /* The trampoline must be within a rel32 of the site. */
            int64_t d = (int64_t)((uint64_t)(uintptr_t)&lp__rt_entry_tramp - (sites[i] + 5));
            if (d != (int32_t)d) {
                m[k].unswitchable = 1;
                lp__rt.entry_unswitchable++;
                continue;
            }
            if (c >= 0) {
                m[k].copy_site = sites[i];
                continue;
            }
            /* A prefix's jump to the copy is its last five bytes. */
            m[k].prefixed = lp__rt_site_function(sites[i]) != sites[i];
            m[k].site = m[k].prefixed ? m[k].entry - 5 : sites[i];
            lp__rt.entry_sites++;
        }
    }
    free(sites);
    /* Guards to methods, and which methods have coverage. */
    if (lp__rt.nguards && lp__rt.pcs_start &&
        (size_t)(lp__rt.pcs_end - lp__rt.pcs_start) / 2 == lp__rt.nguards) {
        lp__rt.guard_method = malloc(lp__rt.nguards * sizeof *lp__rt.guard_method);
        lp__rt.guard_icall = calloc(lp__rt.nguards, 1);
        if (!lp__rt.guard_method || !lp__rt.guard_icall)
            return LP_ENOMEM;
        for (size_t i = 0; i < lp__rt.nmethods; i++)
            m[i].entry_guard = -1;
        for (size_t g = 0; g < lp__rt.nguards; g++) {
            long k = lp__rt_method_at(lp__rt.pcs_start[2 * g]);
            lp__rt.guard_method[g] = (int32_t)k;
            if (k >= 0)
                m[k].has_cov = 1;
            /* a copy's entry block (pc-table flag 1): its invocations */
            if (k >= 0 && lp__rt_cnt_start && (lp__rt.pcs_start[2 * g + 1] & 1) &&
                lp__rt_copy_at(lp__rt.pcs_start[2 * g]) >= 0)
                m[k].entry_guard = (int32_t)g;
        }
    }
    if ((rc = lp__rt_map_build()) != 0)
        return rc;
    return lp__rt_cov_scan();
}
