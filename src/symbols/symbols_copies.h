/* lowprof symbols, private: where the function a block-profiled copy was
 * made from starts (symbols_copies.c), so that a copy's code and its
 * function's are one function in reports. */
#ifndef LP_SYMBOLS_COPIES_H
#define LP_SYMBOLS_COPIES_H

#include <elfutils/libdwfl.h>
#include <stddef.h>
#include <stdint.h>

typedef struct lp__origins lp__origins;

/* Reads mod's symbol table: each function's runtime address by name.
 * Returns NULL when out of memory. */
lp__origins *lp__origins_load(Dwfl_Module *mod);
/* The runtime address of the function named name (len bytes), or 0 when
 * there is none, or more than one (static functions of one name in several
 * files: which one a copy belongs to is not known). NULL o: 0. */
uint64_t lp__origins_find(const lp__origins *o, const char *name, size_t len);
/* Frees o; NULL is fine. */
void lp__origins_free(lp__origins *o);

#endif
