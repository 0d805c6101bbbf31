/* lowprof symbols: the function a block-profiled copy was made from.
 *
 * lowprof cc --blocks=clone gives each function f a copy f.lpdup (or
 * f.lpdupc), and the runtime profiles the copy's code while f is on. A
 * function that runs across a window's edge runs on in whichever of the
 * two it was in, so a profile holds call sites in both. Reported by their
 * own symbols they would be two functions of one name; so a copy's code is
 * reported at its function's start, found here by name.
 *
 * The names are hashed (FNV-1a) into one lp_table, key {hash, length},
 * value the address and the symbol's index, and each hit is confirmed
 * against the symbol table's own string. */
#include "symbols_copies.h"

#include <gelf.h>
#include <string.h>

#include "lowprof/core.h"

struct lp__origins {
    Dwfl_Module *mod;
    lp_table byname; /* v[0]: address (0: more than one), v[1]: symbol index */
};

static uint64_t lp__fnv(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
    return h;
}

lp__origins *lp__origins_load(Dwfl_Module *mod)
{
    lp__origins *o = lp_calloc(1, sizeof *o);
    if (!o || lp_table_init(&o->byname, 0) != LP_OK) {
        lp_free(o);
        return NULL;
    }
    o->mod = mod;
    int n = dwfl_module_getsymtab(mod);
    for (int i = 1; i < n; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL, NULL, NULL);
        if (!name || !name[0] || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
            sym.st_shndx == SHN_UNDEF)
            continue;
        size_t len = strlen(name);
        /* The reserved empty key is all ones: a length never is. */
        lp_entry *e = lp_table_upsert(&o->byname, (lp_key){lp__fnv(name, len), len});
        if (!e) {
            lp__origins_free(o);
            return NULL;
        }
        if (!e->v[1]) {
            e->v[0] = addr;
            e->v[1] = (uint64_t)i;
        } else if (e->v[0] != addr) {
            e->v[0] = 0; /* a second function of this name (or hash) */
        }
    }
    return o;
}

uint64_t lp__origins_find(const lp__origins *o, const char *name, size_t len)
{
    if (!o)
        return 0;
    const lp_entry *e = lp_table_find(&o->byname, (lp_key){lp__fnv(name, len), len});
    if (!e || !e->v[0])
        return 0;
    GElf_Sym sym;
    GElf_Addr addr;
    const char *have = dwfl_module_getsym_info(o->mod, (int)e->v[1], &sym, &addr, NULL, NULL, NULL);
    return have && strlen(have) == len && memcmp(have, name, len) == 0 ? e->v[0] : 0;
}

void lp__origins_free(lp__origins *o)
{
    if (!o)
        return;
    lp_table_fini(&o->byname);
    lp_free(o);
}
