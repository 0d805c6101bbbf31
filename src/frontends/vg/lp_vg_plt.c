/* Where the PLT stubs are, for --skip-plt (the default): a call into a stub
 * is counted as a call of the function the stub jumps to (lp_vg_run.c).
 *
 * Valgrind knows one PLT section per object, ".plt" (Vg_SectPLT). Stubs
 * also live in ".plt.sec" (the stubs code calls when built for Intel CET's
 * IBT) and ".plt.got" (functions whose address is also taken), which it
 * takes for plain code without symbols. So the section headers of each
 * object's file are read once, with Valgrind's own file calls (the tool has
 * no libc), and Valgrind's ".plt" is kept as well in case the file cannot
 * be read. Answers are cached per address: calls and indirect jumps ask at
 * run time, a few thousand distinct addresses in a large program. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#include "lp_vg.h"

#define LP_VG_PLT_MAX 6 /* ranges per object: three sections, and Valgrind's .plt */

typedef struct lp_vg_plt_obj {
    const DebugInfo *di;
    Addr text; /* di's text address, so a record reused for another object is noticed */
    ULong lo[LP_VG_PLT_MAX], hi[LP_VG_PLT_MAX]; /* runtime addresses [lo, hi) */
    UInt n;
} lp_vg_plt_obj;

static lp_vg_plt_obj *lp_vg_plt_objs;
static UInt lp_vg_plt_nobjs, lp_vg_plt_capobjs;
static lp_table lp_vg_plt_cache; /* address -> 1 in a PLT, 2 not */
static Bool lp_vg_plt_ready;
/* In front of the table, for the indirect calls and jumps of an
 * interpreter's dispatch loop, which ask at run time: a direct-mapped
 * cache of (address << 1 | in a PLT), 0 when empty (user addresses stay
 * below 2^63). */
#define LP_VG_PLT_FAST 4096
static ULong lp_vg_plt_fast[LP_VG_PLT_FAST];

static ULong lp_vg_le(const UChar *p, UInt bytes)
{
    ULong v = 0;
    for (UInt i = bytes; i > 0; i--)
        v = v << 8 | p[i - 1];
    return v;
}

static void lp_vg_plt_add(lp_vg_plt_obj *o, ULong lo, ULong size)
{
    if (size && o->n < LP_VG_PLT_MAX) {
        o->lo[o->n] = lo;
        o->hi[o->n] = lo + size;
        o->n++;
    }
}

/* Reads len bytes at off of fd into buf; True if all were read. */
static Bool lp_vg_plt_pread(Int fd, ULong off, void *buf, Int len)
{
    return VG_(lseek)(fd, (Off64T)off, VKI_SEEK_SET) == (Off64T)off &&
           VG_(read)(fd, buf, len) == len;
}

/* Adds the .plt, .plt.sec and .plt.got sections of the 64-bit ELF file to
 * o, at bias. A file that cannot be read or parsed adds nothing. */
static void lp_vg_plt_read(lp_vg_plt_obj *o, const HChar *file, PtrdiffT bias)
{
    SysRes r = VG_(open)(file, VKI_O_RDONLY, 0);
    if (sr_isError(r))
        return;
    Int fd = (Int)sr_Res(r);
    UChar eh[64], *sh = NULL;
    HChar *names = NULL;
    if (!lp_vg_plt_pread(fd, 0, eh, sizeof eh) || VG_(memcmp)(eh, "\177ELF", 4) != 0 ||
        eh[4] != 2 /* ELFCLASS64 */ || eh[5] != 1 /* little-endian */)
        goto out;
    ULong shoff = lp_vg_le(eh + 0x28, 8);
    UInt shentsize = (UInt)lp_vg_le(eh + 0x3a, 2), shnum = (UInt)lp_vg_le(eh + 0x3c, 2),
         shstrndx = (UInt)lp_vg_le(eh + 0x3e, 2);
    if (shentsize != 64 || shnum == 0 || shnum > 65000 || shstrndx >= shnum)
        goto out;
    sh = VG_(malloc)("lp.plt.sh", (SizeT)shnum * 64);
    if (!lp_vg_plt_pread(fd, shoff, sh, (Int)(shnum * 64)))
        goto out;
    const UChar *strsec = sh + (SizeT)shstrndx * 64;
    ULong stroff = lp_vg_le(strsec + 0x18, 8), strsize = lp_vg_le(strsec + 0x20, 8);
    if (strsize == 0 || strsize > (1u << 20))
        goto out;
    names = VG_(malloc)("lp.plt.names", (SizeT)strsize + 1);
    if (!lp_vg_plt_pread(fd, stroff, names, (Int)strsize))
        goto out;
    names[strsize] = 0;
    for (UInt i = 0; i < shnum; i++) {
        const UChar *s = sh + (SizeT)i * 64;
        ULong name = lp_vg_le(s, 4), addr = lp_vg_le(s + 0x10, 8), size = lp_vg_le(s + 0x20, 8);
        if (name >= strsize || !addr)
            continue;
        const HChar *nm = names + name;
        if (VG_(strcmp)(nm, ".plt") == 0 || VG_(strcmp)(nm, ".plt.sec") == 0 ||
            VG_(strcmp)(nm, ".plt.got") == 0)
            lp_vg_plt_add(o, addr + (ULong)bias, size);
    }
out:
    if (sh)
        VG_(free)(sh);
    if (names)
        VG_(free)(names);
    VG_(close)(fd);
}

/* The PLT ranges of di, read on first use. */
static const lp_vg_plt_obj *lp_vg_plt_obj_of(const DebugInfo *di)
{
    Addr text = VG_(DebugInfo_get_text_avma)(di);
    lp_vg_plt_obj *o = NULL;
    for (UInt i = 0; i < lp_vg_plt_nobjs && !o; i++)
        if (lp_vg_plt_objs[i].di == di)
            o = &lp_vg_plt_objs[i];
    if (o && o->text == text)
        return o;
    if (!o && lp_vg_plt_nobjs == lp_vg_plt_capobjs) {
        lp_vg_plt_capobjs = lp_vg_plt_capobjs ? 2 * lp_vg_plt_capobjs : 32;
        lp_vg_plt_objs = VG_(realloc)("lp.plt.objs", lp_vg_plt_objs,
                                      lp_vg_plt_capobjs * sizeof *lp_vg_plt_objs);
    }
    if (!o)
        o = &lp_vg_plt_objs[lp_vg_plt_nobjs++];
    VG_(memset)(o, 0, sizeof *o);
    o->di = di;
    o->text = text;
    lp_vg_plt_add(o, VG_(DebugInfo_get_plt_avma)(di), VG_(DebugInfo_get_plt_size)(di));
    const HChar *file = VG_(DebugInfo_get_filename)(di);
    if (file && file[0] == '/')
        lp_vg_plt_read(o, file, VG_(DebugInfo_get_text_bias)(di));
    return o;
}

Bool lp_vg_in_plt(ULong addr)
{
    ULong *fast = &lp_vg_plt_fast[(addr ^ (addr >> 12)) & (LP_VG_PLT_FAST - 1)];
    if (*fast && *fast >> 1 == addr)
        return (Bool)(*fast & 1);
    if (!lp_vg_plt_ready) {
        lp_table_init(&lp_vg_plt_cache, 256);
        lp_vg_plt_ready = True;
    }
    lp_entry *e = lp_table_upsert(&lp_vg_plt_cache, (lp_key){addr, 0});
    if (e && e->v[0]) {
        *fast = addr << 1 | (e->v[0] == 1);
        return e->v[0] == 1;
    }
    /* Every object is asked: VG_(find_DebugInfo) knows only text ranges,
     * and a PLT lies outside .text. */
    Bool in = False;
    for (const DebugInfo *di = VG_(next_DebugInfo)(NULL); di && !in;
         di = VG_(next_DebugInfo)(di)) {
        const lp_vg_plt_obj *o = lp_vg_plt_obj_of(di);
        for (UInt i = 0; i < o->n && !in; i++)
            in = addr >= o->lo[i] && addr < o->hi[i];
    }
    if (e)
        e->v[0] = in ? 1 : 2;
    *fast = addr << 1 | in;
    return in;
}
