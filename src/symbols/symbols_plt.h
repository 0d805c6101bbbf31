/* lowprof symbols, private: names for the PLT stubs of one module
 * (symbols_plt.c), which have no symbol of their own. */
#ifndef LP_SYMBOLS_PLT_H
#define LP_SYMBOLS_PLT_H

#include <gelf.h>
#include <stdint.h>

typedef struct lp__plt lp__plt;

/* Reads elf's PLT sections (.plt, .plt.sec, .plt.got) and the relocations
 * their GOT slots carry, and names each stub "target@plt". bias is added to
 * every ELF address (runtime minus link-time address). Returns a table
 * (possibly with no entries: not x86-64, no PLT, a separate debug file whose
 * sections hold no bytes) or NULL when out of memory. */
lp__plt *lp__plt_load(Elf *elf, uint64_t bias);
/* The name of the stub holding runtime address pc, or NULL; *out_start is
 * the stub's first address. The string lives as long as p. NULL p: NULL. */
const char *lp__plt_lookup(const lp__plt *p, uint64_t pc, uint64_t *out_start);
/* Frees p; NULL is fine. */
void lp__plt_free(lp__plt *p);

#endif
