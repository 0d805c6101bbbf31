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
    const char *function; /* symbol name, or NULL if none covers pc */
    uint64_t function_start; /* runtime address of that symbol (pc if unknown) */
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

#ifdef __cplusplus
}
#endif
#endif
