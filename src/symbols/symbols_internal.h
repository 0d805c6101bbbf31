/* Private to src/symbols: what symbols_inline.c needs from symbols.c's
 * per-module sessions, without exposing the symbolizer's layout. */
#ifndef LP_SYMBOLS_INTERNAL_H
#define LP_SYMBOLS_INTERNAL_H

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "lowprof/symbols.h"

/* name demangled when it is a C++ name ("_Z..."), else name itself; kept
 * for the symbolizer's life (symbols.c). name must live as long. */
const char *lp__demangled(lp_symbolizer *s, const char *name);
/* file as an absolute path: relative ones joined to comp_dir (the unit's
 * DW_AT_comp_dir, may be NULL); kept for the symbolizer's life. */
const char *lp__source_path(lp_symbolizer *s, const char *file, const char *comp_dir);

/* Finds the module holding runtime address pc and opens its session (once).
 * Sets *out_mod and returns 0, or returns -1 when pc is in no module or the
 * module's file cannot be read. With out_cu non-NULL it also needs the
 * compile unit whose code covers pc (through .debug_aranges, else through
 * the units' own ranges, as clang writes no aranges) and sets *out_cu and
 * *out_bias (runtime minus DWARF address); no such unit is -1 too. */
int lp__symbolizer_locate(lp_symbolizer *s, uint64_t pc, Dwfl_Module **out_mod, Dwarf_Die *out_cu,
                          Dwarf_Addr *out_bias);

#endif
