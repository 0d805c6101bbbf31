/* analysis: reading the ELF file with libelf (gelf): the header checks that
 * turn away what cannot be analysed, the sections and their roles, the
 * function symbols, the dynamic section, and every code address the file
 * stores or names (relocations, RELR entries, data words, init and fini
 * arrays, DT_INIT and DT_FINI).
 *
 * Nothing the file says about sizes and offsets is trusted: the identity
 * bytes are checked before libelf sees the file, the section header table
 * and every section's bytes must lie inside it, allocated address ranges
 * must not wrap, and every count comes from the bytes libelf hands back. */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>

#include "analysis_internal.h"

#ifndef SHT_RELR
#define SHT_RELR 19
#endif
#ifndef DF_1_PIE
#define DF_1_PIE 0x08000000
#endif

static uint64_t lp__an_le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static const char *lp__an_machine(unsigned m)
{
    switch (m) {
    case EM_386: return "Intel 80386";
    case EM_ARM: return "ARM";
    case EM_AARCH64: return "AArch64";
    case EM_PPC: return "PowerPC";
    case EM_PPC64: return "PowerPC64";
    case EM_S390: return "S/390";
    case EM_MIPS: return "MIPS";
    case EM_SPARCV9: return "SPARC v9";
    case EM_IA_64: return "IA-64";
    case 243: return "RISC-V";
    case 258: return "LoongArch";
    case EM_NONE: return "none";
    default: return "unknown";
    }
}

/* The identity and header fields, from the bytes, before libelf. */
static int lp__an_check_header(lp_analysis *a, lp_analysis_error *err)
{
    const uint8_t *im = a->image;
    size_t size = a->size;
    static const uint8_t magic[4] = {0x7f, 'E', 'L', 'F'};
    if (size == 0)
        return lp__an_fail(a, err, LP_ETRUNC, 1, 0, "empty file, not an ELF file");
    size_t m = size < 4 ? size : 4;
    if (memcmp(im, magic, m) != 0) {
        char hex[16] = "";
        for (size_t i = 0, at = 0; i < m; i++, at = strlen(hex))
            snprintf(hex + at, sizeof hex - at, "%s%02x", i ? " " : "", im[i]);
        return lp__an_fail(a, err, LP_EFORMAT, 1, 0,
                           "not an ELF file (it starts with bytes %s, not 7f 45 4c 46)", hex);
    }
    if (size < EI_NIDENT)
        return lp__an_fail(a, err, LP_ETRUNC, 1, size,
                           "truncated ELF file: %zu bytes, the ELF header needs 64", size);
    if (im[EI_CLASS] == ELFCLASS32)
        return lp__an_fail(a, err, LP_EFORMAT, 1, EI_CLASS,
                           "32-bit ELF file (ELFCLASS32 at offset 4); only 64-bit x86-64 files "
                           "can be analysed");
    if (im[EI_CLASS] != ELFCLASS64)
        return lp__an_fail(a, err, LP_EFORMAT, 1, EI_CLASS, "invalid ELF class %u at offset 4",
                           im[EI_CLASS]);
    if (im[EI_DATA] == ELFDATA2MSB)
        return lp__an_fail(a, err, LP_EFORMAT, 1, EI_DATA,
                           "big-endian ELF file (ELFDATA2MSB at offset 5); x86-64 files are "
                           "little-endian");
    if (im[EI_DATA] != ELFDATA2LSB)
        return lp__an_fail(a, err, LP_EFORMAT, 1, EI_DATA, "invalid ELF data encoding %u at offset 5",
                           im[EI_DATA]);
    if (size < sizeof(Elf64_Ehdr))
        return lp__an_fail(a, err, LP_ETRUNC, 1, size,
                           "truncated ELF file: %zu bytes, the ELF header needs 64", size);
    unsigned machine = (unsigned)lp__an_le(im + 18, 2);
    if (machine != EM_X86_64)
        return lp__an_fail(a, err, LP_EFORMAT, 1, 18,
                           "machine is %s (e_machine %u at offset 18), not x86-64", lp__an_machine(machine),
                           machine);
    unsigned type = (unsigned)lp__an_le(im + 16, 2);
    if (type == ET_REL)
        return lp__an_fail(a, err, LP_EFORMAT, 1, 16,
                           "a relocatable object file (ET_REL at offset 16), not an executable or "
                           "a shared library");
    if (type == ET_CORE)
        return lp__an_fail(a, err, LP_EFORMAT, 1, 16,
                           "a core dump (ET_CORE at offset 16), not an executable or a shared "
                           "library");
    if (type != ET_EXEC && type != ET_DYN)
        return lp__an_fail(a, err, LP_EFORMAT, 1, 16,
                           "ELF type %u at offset 16 is not an executable (ET_EXEC, ET_DYN) or "
                           "a shared library",
                           type);
    a->elf_type = (int)type;
    return 0;
}

static int lp__an_is_plt(const char *name)
{
    return strncmp(name, ".plt", 4) == 0 || strcmp(name, ".iplt") == 0;
}

/* Sections that hold no code addresses a program could call, though some
 * of their 8-byte words may look like one. */
static int lp__an_never_pointers(const char *name)
{
    return strcmp(name, ".eh_frame") == 0 || strcmp(name, ".eh_frame_hdr") == 0 ||
           strcmp(name, ".gcc_except_table") == 0 || strcmp(name, ".interp") == 0 ||
           strncmp(name, ".note", 5) == 0;
}

static int lp__an_sections(lp_analysis *a, Elf *elf, const GElf_Ehdr *eh, lp_analysis_error *err)
{
    size_t size = a->size, shnum = 0, shstrndx = 0;
    uint64_t shoff = eh->e_shoff;
    if (shoff == 0)
        return lp__an_fail(a, err, LP_EFORMAT, 1, 40,
                           "no section header table (e_shoff is 0); the analysis needs the "
                           "sections");
    if (eh->e_shentsize != sizeof(Elf64_Shdr))
        return lp__an_fail(a, err, LP_EFORMAT, 1, 58, "e_shentsize is %u, not %zu",
                           eh->e_shentsize, sizeof(Elf64_Shdr));
    if (shoff > size || size - shoff < sizeof(Elf64_Shdr))
        return lp__an_fail(a, err, LP_ETRUNC, 1, shoff,
                           "truncated: the section header table at offset 0x%llx lies past the "
                           "end of the file (0x%zx bytes)",
                           (unsigned long long)shoff, size);
    if (elf_getshdrnum(elf, &shnum) != 0)
        return lp__an_fail(a, err, LP_EFORMAT, 1, shoff,
                           "cannot count the sections (libelf: %s)", elf_errmsg(-1));
    if (shnum > (size - shoff) / sizeof(Elf64_Shdr))
        return lp__an_fail(a, err, LP_ETRUNC, 1, shoff,
                           "truncated: the section header table at offset 0x%llx has %zu "
                           "entries of 64 bytes and ends past the end of the file (0x%zx bytes)",
                           (unsigned long long)shoff, shnum, size);
    if (elf_getshdrstrndx(elf, &shstrndx) != 0 || shstrndx >= shnum)
        shstrndx = 0;

    a->secs = lp_calloc(shnum ? shnum : 1, sizeof *a->secs);
    if (!a->secs)
        return lp__an_fail(a, err, LP_ENOMEM, 0, 0, "out of memory");
    a->n_secs = shnum;
    for (size_t i = 0; i < shnum; i++) {
        lp__an_sec *s = &a->secs[i];
        uint64_t at = shoff + i * sizeof(Elf64_Shdr);
        Elf_Scn *scn = elf_getscn(elf, i);
        GElf_Shdr sh;
        if (!scn || !gelf_getshdr(scn, &sh))
            return lp__an_fail(a, err, LP_EFORMAT, 1, at,
                               "section [%zu]: cannot read its header (libelf: %s)", i,
                               elf_errmsg(-1));
        const char *name = shstrndx ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
        if (!name)
            name = "?";
        s->name = lp__an_strdup(a, name, strnlen(name, 200));
        if (!s->name)
            return lp__an_fail(a, err, LP_ENOMEM, 0, 0, "out of memory");
        s->index = (uint32_t)i;
        s->type = sh.sh_type;
        s->flags = sh.sh_flags;
        s->addr = sh.sh_addr;
        s->size = sh.sh_size;
        s->offset = sh.sh_offset;
        if (i == 0 || sh.sh_type == SHT_NULL)
            continue;
        if (sh.sh_type != SHT_NOBITS) {
            if (sh.sh_offset > size)
                return lp__an_fail(a, err, LP_ETRUNC, 1, sh.sh_offset,
                                   "truncated: section [%zu] %s starts at offset 0x%llx, past "
                                   "the end of the file (0x%zx bytes)",
                                   i, s->name, (unsigned long long)sh.sh_offset, size);
            if (sh.sh_size > size - sh.sh_offset)
                return lp__an_fail(a, err, LP_ETRUNC, 1, sh.sh_offset,
                                   "truncated: section [%zu] %s at offset 0x%llx with size "
                                   "0x%llx ends past the end of the file (0x%zx bytes)",
                                   i, s->name, (unsigned long long)sh.sh_offset,
                                   (unsigned long long)sh.sh_size, size);
            s->bytes = a->image + sh.sh_offset;
        }
        if (!(sh.sh_flags & SHF_ALLOC))
            continue;
        if (sh.sh_addr + sh.sh_size < sh.sh_addr)
            return lp__an_fail(a, err, LP_EFORMAT, 1, at,
                               "section [%zu] %s: address range 0x%llx + 0x%llx wraps around", i,
                               s->name, (unsigned long long)sh.sh_addr,
                               (unsigned long long)sh.sh_size);
        if ((sh.sh_flags & SHF_EXECINSTR) && sh.sh_type == SHT_PROGBITS) {
            if (lp__an_is_plt(s->name)) {
                s->role = LP__AN_PLT;
            } else {
                if (sh.sh_size > UINT32_MAX)
                    return lp__an_fail(a, err, LP_ELIMIT, 1, at,
                                       "section [%zu] %s: %llu bytes of code, more than the "
                                       "analysis reads (4 GiB)",
                                       i, s->name, (unsigned long long)sh.sh_size);
                s->role = LP__AN_CODE;
                a->sum.code_sections++;
                a->sum.code_bytes += sh.sh_size;
            }
        } else if (!(sh.sh_flags & SHF_EXECINSTR) &&
                   (sh.sh_type == SHT_PROGBITS || sh.sh_type == SHT_INIT_ARRAY ||
                    sh.sh_type == SHT_FINI_ARRAY || sh.sh_type == SHT_PREINIT_ARRAY) &&
                   !lp__an_never_pointers(s->name)) {
            s->role = LP__AN_DATA;
        }
    }
    return 0;
}

static int lp__an_program_headers(lp_analysis *a, Elf *elf, const GElf_Ehdr *eh,
                                  lp_analysis_error *err)
{
    size_t phnum = 0;
    if (eh->e_phnum == 0)
        return 0;
    if (eh->e_phentsize != sizeof(Elf64_Phdr))
        return lp__an_fail(a, err, LP_EFORMAT, 1, 54, "e_phentsize is %u, not %zu",
                           eh->e_phentsize, sizeof(Elf64_Phdr));
    if (elf_getphdrnum(elf, &phnum) != 0)
        return lp__an_fail(a, err, LP_EFORMAT, 1, 56,
                           "cannot count the program headers (libelf: %s)", elf_errmsg(-1));
    if (eh->e_phoff > a->size || phnum > (a->size - eh->e_phoff) / sizeof(Elf64_Phdr))
        return lp__an_fail(a, err, LP_ETRUNC, 1, eh->e_phoff,
                           "truncated: the program header table at offset 0x%llx (%zu entries) "
                           "ends past the end of the file (0x%zx bytes)",
                           (unsigned long long)eh->e_phoff, phnum, a->size);
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_INTERP)
            a->has_interp = 1;
    }
    return 0;
}

/* Elf_Data of section i and its number of entries of type t, or 0. */
static size_t lp__an_entries(Elf *elf, size_t i, Elf_Type t, Elf_Data **out)
{
    Elf_Scn *scn = elf_getscn(elf, i);
    Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
    size_t one = gelf_fsize(elf, t, 1, EV_CURRENT);
    *out = d;
    return d && d->d_buf && one ? d->d_size / one : 0;
}

static int lp__an_symbols(lp_analysis *a, Elf *elf, size_t si, uint8_t from,
                          lp_analysis_error *err)
{
    Elf_Data *d;
    size_t n = lp__an_entries(elf, si, ELF_T_SYM, &d);
    GElf_Shdr sh;
    Elf_Scn *scn = elf_getscn(elf, si);
    if (!scn || !gelf_getshdr(scn, &sh))
        return 0;
    size_t strtab = sh.sh_link;
    for (size_t i = 1; i < n; i++) {
        GElf_Sym s;
        if (!gelf_getsym(d, (int)i, &s))
            break;
        int type = GELF_ST_TYPE(s.st_info), bind = GELF_ST_BIND(s.st_info);
        int vis = GELF_ST_VISIBILITY(s.st_other);
        if (type != STT_FUNC && type != STT_GNU_IFUNC)
            continue;
        if (s.st_shndx == SHN_UNDEF || (s.st_shndx >= SHN_LORESERVE && s.st_shndx != SHN_XINDEX))
            continue;
        if (!lp__an_sec_at(a, s.st_value, LP__AN_CODE))
            continue;
        const char *name = strtab < a->n_secs ? elf_strptr(elf, strtab, s.st_name) : NULL;
        lp__an_sym *y = lp__an_push(&a->syms);
        if (!y)
            return lp__an_fail(a, err, LP_ENOMEM, 0, 0, "out of memory");
        y->addr = s.st_value;
        y->size = s.st_size;
        y->from = from;
        y->global = bind == STB_GLOBAL;
        y->ifunc = type == STT_GNU_IFUNC;
        y->exported = from == LP_ANALYSIS_FROM_DYNSYM &&
                      (bind == STB_GLOBAL || bind == STB_WEAK || bind == STB_GNU_UNIQUE) &&
                      (vis == STV_DEFAULT || vis == STV_PROTECTED);
        if (name && name[0]) {
            y->name = lp__an_strdup(a, name, strlen(name));
            if (!y->name)
                return lp__an_fail(a, err, LP_ENOMEM, 0, 0, "out of memory");
            if (strcmp(name, "main") == 0)
                a->have_main_symbol = 1;
        }
    }
    return 0;
}

static void lp__an_dynamic(lp_analysis *a, Elf *elf, size_t si)
{
    Elf_Data *d;
    size_t n = lp__an_entries(elf, si, ELF_T_DYN, &d);
    for (size_t i = 0; i < n; i++) {
        GElf_Dyn dyn;
        if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag == DT_NULL)
            break;
        switch (dyn.d_tag) {
        case DT_INIT: a->dt_init = dyn.d_un.d_ptr; break;
        case DT_FINI: a->dt_fini = dyn.d_un.d_ptr; break;
        case DT_SONAME: a->has_soname = 1; break;
        case DT_FLAGS_1: a->pie_flag = (dyn.d_un.d_val & DF_1_PIE) != 0; break;
        default: break;
        }
    }
}

static int lp__an_in_code(const lp_analysis *a, uint64_t v)
{
    return lp__an_sec_at(a, v, LP__AN_CODE) != NULL;
}

static int lp__an_add_ptr(lp_analysis *a, uint64_t value, uint64_t site, uint8_t taken,
                          uint8_t root, uint8_t discover, lp_analysis_error *err)
{
    if (!lp__an_in_code(a, value))
        return 0;
    lp__an_ptr *p = lp__an_push(&a->ptrs);
    if (!p)
        return lp__an_fail(a, err, LP_ENOMEM, 0, 0, "out of memory");
    p->value = value;
    p->site = site;
    p->taken = taken;
    p->root = root;
    p->discover = discover;
    return 0;
}

/* The 8-byte word the file holds at address addr, if it holds one. */
static int lp__an_word_at(const lp_analysis *a, uint64_t addr, uint64_t *out)
{
    const lp__an_sec *s = lp__an_sec_at(a, addr, 0);
    if (!s || !s->bytes || s->size - (addr - s->addr) < 8)
        return 0;
    *out = lp__an_le(s->bytes + (addr - s->addr), 8);
    return 1;
}

/* The root reason of an init, fini or preinit array slot at addr, or 0. */
static uint8_t lp__an_array_root(const lp_analysis *a, uint64_t addr)
{
    const lp__an_sec *s = lp__an_sec_at(a, addr, LP__AN_DATA);
    if (!s)
        return 0;
    if (s->type == SHT_INIT_ARRAY || s->type == SHT_PREINIT_ARRAY)
        return LP_ANALYSIS_ROOT_INIT;
    if (s->type == SHT_FINI_ARRAY)
        return LP_ANALYSIS_ROOT_FINI;
    return 0;
}

static int lp__an_relocations(lp_analysis *a, Elf *elf, size_t si, lp_analysis_error *err)
{
    Elf_Data *d, *symd = NULL;
    size_t n = lp__an_entries(elf, si, ELF_T_RELA, &d), nsyms = 0;
    GElf_Shdr sh;
    Elf_Scn *scn = elf_getscn(elf, si);
    if (!scn || !gelf_getshdr(scn, &sh))
        return 0;
    size_t link = sh.sh_link;
    if (link && link < a->n_secs &&
        (a->secs[link].type == SHT_DYNSYM || a->secs[link].type == SHT_SYMTAB))
        nsyms = lp__an_entries(elf, link, ELF_T_SYM, &symd);
    for (size_t i = 0; i < n; i++) {
        GElf_Rela r;
        if (!gelf_getrela(d, (int)i, &r))
            break;
        unsigned type = (unsigned)GELF_R_TYPE(r.r_info);
        size_t sym = GELF_R_SYM(r.r_info);
        uint64_t value;
        uint8_t root = lp__an_array_root(a, r.r_offset), taken = LP_ANALYSIS_TAKEN_RELOC;
        if (type == R_X86_64_RELATIVE || type == 38 /* R_X86_64_RELATIVE64 */) {
            value = (uint64_t)r.r_addend;
        } else if (type == R_X86_64_IRELATIVE) {
            value = (uint64_t)r.r_addend;
            root = LP_ANALYSIS_ROOT_IFUNC;
            taken = 0;
        } else if (type == R_X86_64_64 || type == R_X86_64_GLOB_DAT ||
                   type == R_X86_64_JUMP_SLOT) {
            GElf_Sym s;
            if (sym == 0 || sym >= nsyms || !gelf_getsym(symd, (int)sym, &s) ||
                s.st_shndx == SHN_UNDEF ||
                (GELF_ST_TYPE(s.st_info) != STT_FUNC && GELF_ST_TYPE(s.st_info) != STT_GNU_IFUNC))
                continue;
            value = s.st_value + (type == R_X86_64_64 ? (uint64_t)r.r_addend : 0);
        } else {
            continue;
        }
        int rc = lp__an_add_ptr(a, value, r.r_offset, taken, root, 1, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* RELR (SHT_RELR): a packed list of addresses whose words hold the value
 * to relocate, so the code address is the word the file holds there. */
static int lp__an_relr(lp_analysis *a, const lp__an_sec *s, lp_analysis_error *err)
{
    uint64_t where = 0;
    if (!s->bytes)
        return 0;
    for (uint64_t at = 0; at + 8 <= s->size; at += 8) {
        uint64_t e = lp__an_le(s->bytes + at, 8), word;
        if ((e & 1) == 0) {
            if (lp__an_word_at(a, e, &word)) {
                int rc = lp__an_add_ptr(a, word, e, LP_ANALYSIS_TAKEN_DATA,
                                        lp__an_array_root(a, e), 1, err);
                if (rc)
                    return rc;
            }
            where = e + 8;
            continue;
        }
        for (uint64_t bits = e >> 1, k = 0; bits; bits >>= 1, k++) {
            uint64_t addr = where + k * 8;
            if ((bits & 1) && lp__an_word_at(a, addr, &word)) {
                int rc = lp__an_add_ptr(a, word, addr, LP_ANALYSIS_TAKEN_DATA,
                                        lp__an_array_root(a, addr), 1, err);
                if (rc)
                    return rc;
            }
        }
        where += 63 * 8;
    }
    return 0;
}

/* Data words that hold code addresses. In an ET_EXEC file every 8-byte
 * aligned word of a data section counts; in a position-independent file
 * a code address in data needs a relocation (read above), except in the
 * init and fini arrays, whose slots hold the address in place when the
 * linker wrote the addend there. Array slots are roots either way. */
static int lp__an_data_words(lp_analysis *a, lp_analysis_error *err)
{
    for (size_t i = 0; i < a->n_secs; i++) {
        const lp__an_sec *s = &a->secs[i];
        if (s->role != LP__AN_DATA || !s->bytes)
            continue;
        uint8_t root = lp__an_array_root(a, s->addr);
        if (a->elf_type != ET_EXEC && !root)
            continue;
        uint64_t first = (s->addr + 7) & ~(uint64_t)7;
        if (first < s->addr)
            continue;
        for (uint64_t off = first - s->addr; off <= s->size && s->size - off >= 8; off += 8) {
            uint64_t v = lp__an_le(s->bytes + off, 8);
            if (v == 0)
                continue;
            /* A slot of an init or fini array may start a function: in a
             * stripped executable nothing else names it. */
            int rc = lp__an_add_ptr(a, v, s->addr + off,
                                    a->elf_type == ET_EXEC ? LP_ANALYSIS_TAKEN_DATA : 0, root,
                                    root != 0, err);
            if (rc)
                return rc;
        }
    }
    return 0;
}

int lp__an_elf_read(lp_analysis *a, lp_analysis_error *err)
{
    int rc = lp__an_check_header(a, err);
    if (rc)
        return rc;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return lp__an_fail(a, err, LP_EIO, 0, 0, "libelf is out of date");
    Elf *elf = elf_memory((char *)a->image, a->size);
    if (!elf || elf_kind(elf) != ELF_K_ELF) {
        rc = lp__an_fail(a, err, LP_EFORMAT, 1, 0, "libelf cannot read it: %s", elf_errmsg(-1));
        elf_end(elf);
        return rc;
    }
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf, &eh)) {
        rc = lp__an_fail(a, err, LP_EFORMAT, 1, 0, "cannot read the ELF header (libelf: %s)",
                         elf_errmsg(-1));
        elf_end(elf);
        return rc;
    }
    a->entry = eh.e_entry;
    rc = lp__an_sections(a, elf, &eh, err);
    if (!rc)
        rc = lp__an_program_headers(a, elf, &eh, err);
    size_t symtab = 0, dynsym = 0;
    for (size_t i = 1; !rc && i < a->n_secs; i++) {
        if (a->secs[i].type == SHT_SYMTAB && !symtab)
            symtab = i;
        else if (a->secs[i].type == SHT_DYNSYM && !dynsym)
            dynsym = i;
        else if (a->secs[i].type == SHT_DYNAMIC)
            lp__an_dynamic(a, elf, i);
    }
    if (!rc && symtab)
        rc = lp__an_symbols(a, elf, symtab, LP_ANALYSIS_FROM_SYMTAB, err);
    if (!rc && dynsym)
        rc = lp__an_symbols(a, elf, dynsym, LP_ANALYSIS_FROM_DYNSYM, err);
    for (size_t i = 1; !rc && i < a->n_secs; i++) {
        if (a->secs[i].type == SHT_RELA && (a->secs[i].flags & SHF_ALLOC))
            rc = lp__an_relocations(a, elf, i, err);
        else if (a->secs[i].type == SHT_RELR && (a->secs[i].flags & SHF_ALLOC))
            rc = lp__an_relr(a, &a->secs[i], err);
    }
    if (!rc)
        rc = lp__an_data_words(a, err);
    if (!rc && a->entry)
        rc = lp__an_add_ptr(a, a->entry, 0, 0, LP_ANALYSIS_ROOT_ENTRY, 1, err);
    if (!rc && a->dt_init)
        rc = lp__an_add_ptr(a, a->dt_init, 0, 0, LP_ANALYSIS_ROOT_INIT, 1, err);
    if (!rc && a->dt_fini)
        rc = lp__an_add_ptr(a, a->dt_fini, 0, 0, LP_ANALYSIS_ROOT_FINI, 1, err);
    elf_end(elf);
    if (rc)
        return rc;
    if (a->elf_type == ET_EXEC)
        a->kind = LP_ANALYSIS_EXEC;
    else if (a->pie_flag || (a->has_interp && !a->has_soname))
        a->kind = LP_ANALYSIS_PIE;
    else
        a->kind = LP_ANALYSIS_LIBRARY;
    a->sum.kind = a->kind;
    a->sum.entry = a->entry;
    return 0;
}
