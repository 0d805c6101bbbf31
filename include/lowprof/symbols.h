/* lowprof symbols: runtime addresses to function, file and line, from the
 * ELF symbol tables and DWARF (elfutils libdw) of the recorded modules.
 * Hosted only. Results are cached per address; strings live as long as the
 * symbolizer. Not thread-safe. */
#ifndef LOWPROF_SYMBOLS_H
#define LOWPROF_SYMBOLS_H

#include "lowprof/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lp_symbolizer lp_symbolizer;

typedef struct lp_symbol {
    const char *function; /* symbol name, C++ names demangled; "target@plt" in a PLT
                             stub; NULL if none covers pc */
    const char *linkage;  /* the name as the symbol table has it (mangled for C++) */
    uint64_t function_start; /* runtime address of that symbol or stub (pc if unknown) */
    uint64_t function_size;  /* the symbol's size in bytes (0 if unknown, and for a stub) */
    uint64_t function_entry; /* where the function this code belongs to starts: function_start,
                                or for a block-profiled copy's code (f.lpdup) f's start when
                                the symbol table has one f; the function's identity */
    const char *file;     /* source file from DWARF, or NULL */
    unsigned line;        /* 0 if unknown */
    const char *module;   /* module path, or NULL outside every module */
} lp_symbol;

/* Opens every module of the map (missing files are tolerated: their
 * addresses resolve to the module name only). Returns 0 or LP_ENOMEM. */
int lp_symbolizer_create(const lp_module_map *modules, lp_symbolizer **out);
/* Fills *out for pc; always succeeds (fields are NULL/0 where unknown). */
void lp_symbolize(lp_symbolizer *s, uint64_t pc, lp_symbol *out);
void lp_symbolizer_free(lp_symbolizer *s);

/* ---- inline chains and code bytes (symbols_inline.c) ------------------------ */

/* One level of the source position of an instruction, as DWARF's inlined
 * subroutines nest it: the function (its linkage name, the mangled name for
 * C++, else its DWARF name), the line where that function is declared, and
 * the line and discriminator inside it: the instruction's own for the
 * innermost level, the call site of the next inner level otherwise. The
 * strings live as long as the symbolizer. */
typedef struct lp_src_frame {
    const char *function; /* NULL if DWARF names none; lives as long as s */
    const char *name;     /* function as people read it (C++ demangled) */
    const char *decl_file; /* the file that declares function; NULL if unknown */
    unsigned decl_line;   /* DW_AT_decl_line; 0 if unknown */
    unsigned line;        /* 0 if unknown */
    unsigned discriminator; /* as DWARF holds it (not decoded) */
} lp_src_frame;

/* The inline chain of pc from DWARF, innermost level first: fills up to cap
 * frames of out and returns how many levels there are (0 when no DWARF
 * subprogram covers pc; more than cap when the chain is deeper). */
size_t lp_symbolize_frames(lp_symbolizer *s, uint64_t pc, lp_src_frame *out, size_t cap);
/* Copies up to cap bytes of the code at runtime address pc, from the
 * executable section of its module's file that holds it. Returns the
 * number of bytes copied: 0 when pc is in no such section or the file is
 * not readable (a separate debug file has no code). */
size_t lp_symbolizer_code(lp_symbolizer *s, uint64_t pc, void *buf, size_t cap);
/* The section called name in the file of the module holding pc: *data
 * gets its bytes (valid for the symbolizer's life) and *addr its runtime
 * address. Returns its size: 0 when there is no such section with
 * contents. */
size_t lp_symbolizer_section(lp_symbolizer *s, uint64_t pc, const char *name, const void **data,
                             uint64_t *addr);

#ifdef __cplusplus
}
#endif
#endif
