/* lowprof symbols: names for PLT stubs, "target@plt", as perf and objdump
 * give them. A stub has no symbol; what names it is the GOT slot its jump
 * reads, and the relocation the dynamic linker applies to that slot.
 *
 * x86-64 layouts (GNU ld; lld alike):
 *   .plt      16-byte PLT0 (the lazy-binding jump), then 16-byte entries
 *             "jmp *slot(%rip); push $index; jmp PLT0";
 *   with IBT (-fcf-protection, -z ibtplt) the .plt entries become
 *             "endbr64; push $index; bnd jmp PLT0" and the stubs that code
 *             calls live in .plt.sec: "endbr64; bnd jmp *slot(%rip); nop";
 *   .plt.got  8-byte "jmp *slot(%rip); xchg %ax,%ax" (16 bytes with IBT) for
 *             functions whose address is also taken: their slot is in .got
 *             with a GLOB_DAT relocation in .rela.dyn.
 * So each entry is decoded: an optional endbr64, an optional bnd prefix,
 * then either "jmp *disp32(%rip)" (the slot: JUMP_SLOT, GLOB_DAT or
 * IRELATIVE relocation at that address) or "push $index" (.rela.plt's
 * index-th relocation). An IRELATIVE slot has no symbol; it is named after
 * the IFUNC symbol whose value is the relocation's addend (the resolver),
 * or "*ABS*+0xADDEND" as objdump does when none is.
 *
 * Built once per module, on the first address that no symbol covers; a
 * library has tens to a few hundred stubs. */
#include "symbols_plt.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowprof/core.h"

typedef struct lp__plt_stub {
    uint64_t lo, hi; /* runtime addresses [lo, hi) */
    char *name;      /* "target@plt" */
} lp__plt_stub;

struct lp__plt {
    lp__plt_stub *stubs; /* sorted by lo */
    size_t count, cap;
};

/* A GOT slot the dynamic linker fills, and what it fills it with. */
typedef struct lp__plt_slot {
    uint64_t addr; /* ELF address of the slot (r_offset) */
    const char *target; /* symbol name (owned by libelf), or NULL */
    uint64_t addend;    /* IRELATIVE: the resolver's address */
} lp__plt_slot;

typedef struct lp__plt_relocs {
    lp__plt_slot *slots; /* every JUMP_SLOT, GLOB_DAT and IRELATIVE */
    size_t nslots, capslots;
    size_t *jump_index; /* .rela.plt's relocations in order: index into slots */
    size_t njump, capjump;
    struct lp__plt_addr *by_addr; /* every slot's address, sorted */
} lp__plt_relocs;

typedef struct lp__plt_addr {
    uint64_t addr;
    size_t slot; /* index into slots */
} lp__plt_addr;

/* p with room for element n (of size bytes), or NULL when out of memory
 * (p is then still valid). */
static void *lp__grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    size_t ncap = *cap ? *cap * 2 : 64;
    void *q = lp_realloc(p, *cap * size, ncap * size);
    if (q)
        *cap = ncap;
    return q;
}

static bool lp__plt_push_index(lp__plt_relocs *r, size_t v)
{
    size_t *q = lp__grow(r->jump_index, &r->capjump, r->njump, sizeof *q);
    if (!q)
        return false;
    r->jump_index = q;
    q[r->njump++] = v;
    return true;
}

/* The name of the function symbol (FUNC or GNU_IFUNC) of the symbol table
 * scn whose value is addr, or NULL. */
static const char *lp__plt_symbol_at(Elf *elf, Elf_Scn *scn, uint64_t addr)
{
    GElf_Shdr sh;
    Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
    if (!data || !gelf_getshdr(scn, &sh) || !sh.sh_entsize)
        return NULL;
    size_t n = sh.sh_size / sh.sh_entsize;
    for (size_t i = 1; i < n; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(data, (int)i, &sym) || sym.st_value != addr || sym.st_shndx == SHN_UNDEF)
            continue;
        int type = GELF_ST_TYPE(sym.st_info);
        if (type != STT_FUNC && type != STT_GNU_IFUNC)
            continue;
        const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
        if (name && name[0])
            return name;
    }
    return NULL;
}

/* Collects the slot relocations of every SHT_RELA section. Returns false
 * when out of memory. */
static bool lp__plt_read_relocs(Elf *elf, size_t shstrndx, lp__plt_relocs *r)
{
    Elf_Scn *dynsym = NULL, *symtab = NULL;
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNSYM)
            dynsym = scn;
        else if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
            symtab = scn;
    }
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data || !data->d_buf)
            continue; /* SHT_NOBITS in a separate debug file */
        const char *secname = elf_strptr(elf, shstrndx, sh.sh_name);
        bool jump_section = secname && strcmp(secname, ".rela.plt") == 0;
        Elf_Scn *symscn = elf_getscn(elf, sh.sh_link);
        GElf_Shdr symsh;
        Elf_Data *symdata = NULL;
        if (symscn && gelf_getshdr(symscn, &symsh) && symsh.sh_entsize)
            symdata = elf_getdata(symscn, NULL);
        size_t n = sh.sh_size / sh.sh_entsize;
        for (size_t i = 0; i < n; i++) {
            GElf_Rela rela;
            if (!gelf_getrela(data, (int)i, &rela))
                continue;
            unsigned type = (unsigned)GELF_R_TYPE(rela.r_info);
            if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT &&
                type != R_X86_64_IRELATIVE) {
                /* keeps .rela.plt's indexes aligned with the pushes */
                if (jump_section && !lp__plt_push_index(r, (size_t)-1))
                    return false;
                continue;
            }
            lp__plt_slot slot = {rela.r_offset, NULL, 0};
            if (type == R_X86_64_IRELATIVE) {
                slot.addend = (uint64_t)rela.r_addend;
                slot.target = lp__plt_symbol_at(elf, dynsym, slot.addend);
                if (!slot.target)
                    slot.target = lp__plt_symbol_at(elf, symtab, slot.addend);
            } else if (symdata) {
                GElf_Sym sym;
                size_t symi = (size_t)GELF_R_SYM(rela.r_info);
                if (symi && gelf_getsym(symdata, (int)symi, &sym))
                    slot.target = elf_strptr(elf, symsh.sh_link, sym.st_name);
            }
            lp__plt_slot *slots = lp__grow(r->slots, &r->capslots, r->nslots, sizeof *slots);
            if (!slots)
                return false;
            r->slots = slots;
            if (jump_section && !lp__plt_push_index(r, r->nslots))
                return false;
            r->slots[r->nslots++] = slot;
        }
    }
    return true;
}

static int lp__plt_cmp_addr(const void *x, const void *y)
{
    const lp__plt_addr *a = x, *b = y;
    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Sorts the slots by address for lp__plt_slot_at (a library has thousands
 * of GLOB_DAT slots and as many stubs). False when out of memory. */
static bool lp__plt_index(lp__plt_relocs *r)
{
    if (!r->nslots)
        return true;
    r->by_addr = lp_malloc(r->nslots * sizeof *r->by_addr);
    if (!r->by_addr)
        return false;
    for (size_t i = 0; i < r->nslots; i++)
        r->by_addr[i] = (lp__plt_addr){r->slots[i].addr, i};
    qsort(r->by_addr, r->nslots, sizeof *r->by_addr, lp__plt_cmp_addr);
    return true;
}

static const lp__plt_slot *lp__plt_slot_at(const lp__plt_relocs *r, uint64_t addr)
{
    size_t lo = 0, hi = r->nslots;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->by_addr[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->nslots && r->by_addr[lo].addr == addr ? &r->slots[r->by_addr[lo].slot] : NULL;
}

static uint32_t lp__le32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* The slot of the stub at ELF address addr whose bytes are b[0..len), or
 * NULL when the entry is of no layout above (PLT0, padding). */
static const lp__plt_slot *lp__plt_decode(const lp__plt_relocs *r, uint64_t addr,
                                          const unsigned char *b, size_t len)
{
    size_t i = 0;
    if (len >= 4 && b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e && b[3] == 0xfa)
        i = 4; /* endbr64 */
    if (i < len && b[i] == 0xf2)
        i++; /* bnd */
    if (i + 6 <= len && b[i] == 0xff && b[i + 1] == 0x25) {
        int32_t disp = (int32_t)lp__le32(b + i + 2);
        return lp__plt_slot_at(r, addr + i + 6 + (uint64_t)(int64_t)disp);
    }
    if (i + 5 <= len && b[i] == 0x68) {
        uint32_t index = lp__le32(b + i + 1);
        if (index < r->njump && r->jump_index[index] != (size_t)-1)
            return &r->slots[r->jump_index[index]];
    }
    return NULL;
}

static bool lp__plt_add(lp__plt *p, uint64_t lo, uint64_t hi, const lp__plt_slot *slot)
{
    char buf[64];
    const char *target = slot->target;
    if (!target || !target[0]) {
        snprintf(buf, sizeof buf, "*ABS*+0x%llx", (unsigned long long)slot->addend);
        target = buf;
    }
    size_t n = strlen(target);
    char *name = lp_malloc(n + 5);
    lp__plt_stub *stubs = name ? lp__grow(p->stubs, &p->cap, p->count, sizeof *stubs) : NULL;
    if (!stubs) {
        lp_free(name);
        return false;
    }
    p->stubs = stubs;
    memcpy(name, target, n);
    memcpy(name + n, "@plt", 5);
    p->stubs[p->count++] = (lp__plt_stub){lo, hi, name};
    return true;
}

static int lp__plt_cmp(const void *x, const void *y)
{
    const lp__plt_stub *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Names the entries of one PLT section. Returns false when out of memory. */
static bool lp__plt_section(lp__plt *p, const lp__plt_relocs *r, Elf_Scn *scn,
                            const GElf_Shdr *sh, bool lazy_plt, uint64_t bias)
{
    Elf_Data *data = elf_getdata(scn, NULL);
    if (!data || !data->d_buf || data->d_size < sh->sh_size)
        return true;
    /* The entry size ld records (8 or 16); anything else is not a layout
     * known here, and 16 is what every x86-64 PLT but .plt.got uses. */
    uint64_t ent = sh->sh_entsize == 8 || sh->sh_entsize == 16 ? sh->sh_entsize : 16;
    const unsigned char *bytes = data->d_buf;
    for (uint64_t off = lazy_plt ? ent : 0; off + ent <= sh->sh_size; off += ent) {
        const lp__plt_slot *slot = lp__plt_decode(r, sh->sh_addr + off, bytes + off, (size_t)ent);
        if (slot && !lp__plt_add(p, sh->sh_addr + off + bias, sh->sh_addr + off + ent + bias, slot))
            return false;
    }
    return true;
}

lp__plt *lp__plt_load(Elf *elf, uint64_t bias)
{
    lp__plt *p = lp_calloc(1, sizeof *p);
    if (!p)
        return NULL;
    GElf_Ehdr eh;
    size_t shstrndx;
    if (!elf || !gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64 ||
        elf_getshdrstrndx(elf, &shstrndx) != 0)
        return p;
    lp__plt_relocs r = {0};
    bool ok = lp__plt_read_relocs(elf, shstrndx, &r) && lp__plt_index(&r);
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); ok && scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
            continue;
        const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
        if (name && (strcmp(name, ".plt") == 0 || strcmp(name, ".plt.sec") == 0 ||
                     strcmp(name, ".plt.got") == 0))
            ok = lp__plt_section(p, &r, scn, &sh, strcmp(name, ".plt") == 0, bias);
    }
    lp_free(r.slots);
    lp_free(r.jump_index);
    lp_free(r.by_addr);
    if (!ok) {
        lp__plt_free(p);
        return NULL;
    }
    if (p->count > 1)
        qsort(p->stubs, p->count, sizeof *p->stubs, lp__plt_cmp);
    return p;
}

const char *lp__plt_lookup(const lp__plt *p, uint64_t pc, uint64_t *out_start)
{
    if (!p)
        return NULL;
    size_t lo = 0, hi = p->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->stubs[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || pc >= p->stubs[lo - 1].hi)
        return NULL;
    *out_start = p->stubs[lo - 1].lo;
    return p->stubs[lo - 1].name;
}

void lp__plt_free(lp__plt *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->count; i++)
        lp_free(p->stubs[i].name);
    lp_free(p->stubs);
    lp_free(p);
}
