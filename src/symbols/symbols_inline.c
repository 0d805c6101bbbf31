/* lowprof symbols: the inline chain of an instruction from DWARF, and the
 * bytes of the code at an address, for exporters that place counts on
 * source lines the way a compiler sees them (lowprof/symbols.h).
 *
 * The chain is found by walking the compile unit's DIE tree down through
 * the subprogram, lexical blocks and inlined subroutines whose ranges hold
 * the address; each inlined subroutine's DW_AT_call_line is the line, in the
 * level above, where it was inlined. Names come from the abstract origin or
 * specification when the DIE itself has none (dwarf_attr_integrate).
 *
 * Tuned for: exporters that ask once per distinct instruction; nothing is
 * cached here. */
#include <dwarf.h>
#include <gelf.h>
#include <string.h>

#include "symbols_internal.h"

/* DWARF 4 has no standard attribute for an inlined call's discriminator;
 * GCC and LLVM both write this GNU extension. Not in every dwarf.h. */
#define LP__DW_AT_GNU_DISCRIMINATOR 0x2136

/* Deepest nesting followed; deeper inline chains are cut here. */
#define LP__MAX_DEPTH 64

static const char *lp__die_string(Dwarf_Die *die, unsigned name)
{
    Dwarf_Attribute attr;
    return dwarf_formstring(dwarf_attr_integrate(die, name, &attr));
}

/* The name a compiler knows a function by: its linkage name when it has
 * one (C++, and C functions clang renamed), else its plain name. */
static const char *lp__die_function(Dwarf_Die *die)
{
    const char *name = lp__die_string(die, DW_AT_linkage_name);
    if (!name)
        name = lp__die_string(die, DW_AT_MIPS_linkage_name);
    if (!name)
        name = lp__die_string(die, DW_AT_name);
    return name;
}

static unsigned lp__die_udata(Dwarf_Die *die, unsigned name)
{
    Dwarf_Attribute attr;
    Dwarf_Word w = 0;
    if (!dwarf_attr(die, name, &attr) || dwarf_formudata(&attr, &w) != 0)
        return 0;
    return w > 0xffffffffu ? 0 : (unsigned)w;
}

/* Appends to chain the subprogram and inlined subroutines below parent
 * that hold addr, outermost first. Returns 1 once the innermost is found
 * (a DIE that holds addr and has no child that does), else 0. */
static int lp__walk(Dwarf_Die *parent, Dwarf_Addr addr, Dwarf_Die *chain, size_t *depth)
{
    Dwarf_Die child;
    if (dwarf_child(parent, &child) != 0)
        return 0;
    do {
        int tag = dwarf_tag(&child);
        if (tag == DW_TAG_namespace || tag == DW_TAG_module) {
            /* C++ and Fortran definitions may sit inside these, which
             * have no ranges of their own. */
            if (lp__walk(&child, addr, chain, depth))
                return 1;
            continue;
        }
        if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine &&
            tag != DW_TAG_lexical_block)
            continue;
        if (dwarf_haspc(&child, addr) <= 0)
            continue;
        if (tag != DW_TAG_lexical_block && *depth < LP__MAX_DEPTH)
            chain[(*depth)++] = child;
        lp__walk(&child, addr, chain, depth);
        return 1;
    } while (dwarf_siblingof(&child, &child) == 0);
    return 0;
}

size_t lp_symbolize_frames(lp_symbolizer *s, uint64_t pc, lp_src_frame *out, size_t cap)
{
    Dwfl_Module *mod;
    Dwarf_Die cu;
    Dwarf_Addr bias;
    if (lp__symbolizer_locate(s, pc, &mod, &cu, &bias) != 0)
        return 0;
    Dwarf_Addr addr = (Dwarf_Addr)pc - bias;
    Dwarf_Die chain[LP__MAX_DEPTH];
    size_t depth = 0;
    lp__walk(&cu, addr, chain, &depth);
    if (depth == 0 || dwarf_tag(&chain[0]) != DW_TAG_subprogram)
        return 0;

    Dwarf_Attribute attr;
    const char *comp_dir = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &attr));
    int line = 0;
    unsigned disc = 0;
    Dwarf_Line *row = dwarf_getsrc_die(&cu, addr);
    if (row) {
        if (dwarf_lineno(row, &line) != 0 || line < 0)
            line = 0;
        if (dwarf_linediscriminator(row, &disc) != 0)
            disc = 0;
    }
    /* Level k (innermost 0) is chain[depth - 1 - k]; its line is the
     * instruction's for k = 0, else the call line of the level inside it. */
    for (size_t k = 0; k < depth && k < cap; k++) {
        Dwarf_Die *fn = &chain[depth - 1 - k];
        lp_src_frame *f = &out[k];
        memset(f, 0, sizeof *f);
        f->function = lp__die_function(fn);
        f->name = lp__demangled(s, f->function);
        const char *decl_file = dwarf_decl_file(fn);
        f->decl_file = decl_file ? lp__source_path(s, decl_file, comp_dir) : NULL;
        int decl = 0;
        if (dwarf_decl_line(fn, &decl) == 0 && decl > 0)
            f->decl_line = (unsigned)decl;
        if (k == 0) {
            f->line = (unsigned)line;
            f->discriminator = disc;
        } else {
            Dwarf_Die *inner = &chain[depth - k];
            f->line = lp__die_udata(inner, DW_AT_call_line);
            f->discriminator = lp__die_udata(inner, LP__DW_AT_GNU_DISCRIMINATOR);
        }
    }
    return depth;
}

size_t lp_symbolizer_code(lp_symbolizer *s, uint64_t pc, void *buf, size_t cap)
{
    Dwfl_Module *mod;
    if (lp__symbolizer_locate(s, pc, &mod, NULL, NULL) != 0)
        return 0;
    GElf_Addr bias = 0;
    Elf *elf = dwfl_module_getelf(mod, &bias);
    if (!elf)
        return 0;
    GElf_Addr addr = (GElf_Addr)pc - bias;
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_PROGBITS ||
            !(shdr.sh_flags & SHF_EXECINSTR) || addr < shdr.sh_addr ||
            addr - shdr.sh_addr >= shdr.sh_size)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        uint64_t off = addr - shdr.sh_addr;
        if (!data || !data->d_buf || off >= data->d_size)
            return 0;
        size_t n = data->d_size - (size_t)off < cap ? data->d_size - (size_t)off : cap;
        memcpy(buf, (const char *)data->d_buf + off, n);
        return n;
    }
    return 0;
}

size_t lp_symbolizer_section(lp_symbolizer *s, uint64_t pc, const char *name, const void **data,
                             uint64_t *addr)
{
    Dwfl_Module *mod;
    if (lp__symbolizer_locate(s, pc, &mod, NULL, NULL) != 0)
        return 0;
    GElf_Addr bias = 0;
    Elf *elf = dwfl_module_getelf(mod, &bias);
    size_t names;
    if (!elf || elf_getshdrstrndx(elf, &names) != 0)
        return 0;
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr shdr;
        const char *n;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_PROGBITS ||
            !(n = elf_strptr(elf, names, shdr.sh_name)) || strcmp(n, name) != 0)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d || !d->d_buf)
            return 0;
        *data = d->d_buf;
        *addr = shdr.sh_addr + bias;
        return d->d_size;
    }
    return 0;
}
