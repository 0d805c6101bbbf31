/* `lowprof export --format llvm-sample`: LLVM's sample-profile text format,
 * which clang reads with -fprofile-sample-use=FILE and llvm-profdata shows
 * and converts, so a lowprof recording steers clang's optimizer the way a
 * perf-based AutoFDO profile does.
 *
 * What goes in (doc/lowprof-export.md says it for users):
 *   - body samples from the block profile: every instruction of a block
 *     gets the block's executions (the block profile holds a block's start
 *     and, from Valgrind, its instruction count; the instructions are
 *     decoded from the module's file with capstone); an instruction in
 *     several blocks gets their sum. Each instruction goes to its source line and discriminator
 *     inside its function, or inside the functions DWARF says were inlined
 *     there, nested under the call sites. A line's count is the largest
 *     count of its instructions, as LLVM's own profile converters do: every
 *     instruction of a line ran as often as the line, so the largest is the
 *     line's executions and a sum would count a line of many instructions
 *     many times.
 *   - call targets from the call-pair profile, at the call site's line;
 *   - head samples: the function's invocations from the method profile, or
 *     without one the executions of the blocks at the function's entry,
 *     matched by name (the native runtime counts blocks in a copy of each
 *     function, f.lpdup, and invocations at f).
 * Offsets are source lines minus the function's DW_AT_decl_line, and
 * discriminators are LLVM's base discriminators, both as clang computes
 * them when it reads the profile. Code without DWARF is left out: clang
 * could not match it to anything. */
#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>

#include "export_sample.h"

/* Deepest inline nesting followed; code nested deeper (never seen) is left
 * out rather than charged to the wrong function. */
#define LS_MAX_FRAMES 32
/* A block's instructions are at most this many bytes apart from its start
 * (x86 instructions are at most 15 bytes). */
#define LS_MAX_INSN 15
/* How far a block of unknown length is followed looking for its branch. */
#define LS_SCAN_INSNS 256

/* Grows an array of n elements of size sz by one zeroed element (doubling
 * at powers of two); returns the new element or NULL. */
static void *ls_grow(void **items, size_t *n, size_t sz)
{
    size_t k = *n;
    if (k == 0 || (k & (k - 1)) == 0) {
        void *p = realloc(*items, (k ? 2 * k : 4) * sz);
        if (!p)
            return NULL;
        *items = p;
    }
    char *x = (char *)*items + k * sz;
    memset(x, 0, sz);
    *n = k + 1;
    return x;
}

static ls_node *ls_node_new(ls_state *st, const char *name)
{
    ls_node *n = calloc(1, sizeof *n);
    if (!n) {
        st->nomem = 1;
        return NULL;
    }
    n->name = name;
    return n;
}

static void ls_node_free(ls_node *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->nlines; i++)
        free(n->lines[i].targets);
    free(n->lines);
    for (size_t i = 0; i < n->nsites; i++)
        ls_node_free(n->sites[i].callee);
    free(n->sites);
    free(n);
}

static ls_node *ls_top(ls_state *st, const char *name)
{
    for (size_t i = 0; i < st->ntop; i++)
        if (strcmp(st->top[i]->name, name) == 0)
            return st->top[i];
    ls_node *n = ls_node_new(st, name);
    ls_node **slot = n ? ls_grow((void **)&st->top, &st->ntop, sizeof *slot) : NULL;
    if (!slot) {
        ls_node_free(n);
        st->nomem = 1;
        return NULL;
    }
    *slot = n;
    return n;
}

static ls_node *ls_site_node(ls_state *st, ls_node *caller, unsigned offset, unsigned disc,
                             const char *callee)
{
    for (size_t i = 0; i < caller->nsites; i++) {
        ls_site *s = &caller->sites[i];
        if (s->offset == offset && s->disc == disc && strcmp(s->callee->name, callee) == 0)
            return s->callee;
    }
    ls_node *n = ls_node_new(st, callee);
    ls_site *s = n ? ls_grow((void **)&caller->sites, &caller->nsites, sizeof *s) : NULL;
    if (!s) {
        ls_node_free(n);
        st->nomem = 1;
        return NULL;
    }
    s->offset = offset;
    s->disc = disc;
    s->callee = n;
    return n;
}

static ls_line *ls_line_at(ls_state *st, ls_node *n, unsigned offset, unsigned disc)
{
    for (size_t i = 0; i < n->nlines; i++)
        if (n->lines[i].offset == offset && n->lines[i].disc == disc)
            return &n->lines[i];
    ls_line *l = ls_grow((void **)&n->lines, &n->nlines, sizeof *l);
    if (!l) {
        st->nomem = 1;
        return NULL;
    }
    l->offset = offset;
    l->disc = disc;
    return l;
}

/* LLVM's base discriminator of a DWARF discriminator: the low component of
 * its prefix encoding (duplication factor and copy id sit above it, in
 * the same encoding); 0 when absent. */
static unsigned ls_base_disc(unsigned d)
{
    if (d & 1)
        return 0;
    d >>= 1;
    return (d & 0x20) ? (((d >> 1) & 0xfe0) | (d & 0x1f)) : (d & 0x1f);
}

/* LLVM's duplication factor: how many copies of the code the unroller or
 * the vectoriser made, each running 1/factor of the line's executions
 * (the second component; 1 when absent). clang reads a line's samples as
 * its executions, so each copy's count is multiplied back, as LLVM's own
 * profile converters do: json's byte-hash loop, unrolled 4 times, read a
 * quarter of its trip count, and clang unrolled it no more in the build
 * that used the profile. */
static unsigned ls_dup_factor(unsigned d)
{
    unsigned next = (d & 1) ? d >> 1 : d >> ((d & 0x40) ? 14 : 7);
    unsigned f = ls_base_disc(next); /* the next component, decoded alike */
    return f ? f : 1;
}

/* Names in the file are separated by ':' and ' '; a name holding either
 * would not read back, so such a (rare) target is left out. */
static int ls_name_ok(const char *s)
{
    return s && s[0] && !strpbrk(s, ": \t\n\r");
}

/* LLVM's line offset: the line minus the function's, in 16 bits. */
static unsigned ls_offset(unsigned line, unsigned decl_line)
{
    return (line - decl_line) & 0xffffu;
}

/* The line record of the innermost level of pc's inline chain, creating
 * the nodes on the way; NULL when pc has no DWARF function (st->nomem says
 * whether memory ran out). Discriminators are 0 unless st->discriminators;
 * then *dup gets the instruction's duplication factor, else 1. */
static ls_line *ls_place(ls_state *st, lp_names *nm, uint64_t pc, unsigned *dup)
{
    *dup = 1;
    lp_src_frame fr[LS_MAX_FRAMES];
    size_t depth = lp_symbolize_frames(nm->sym, pc, fr, LS_MAX_FRAMES);
    if (depth > LS_MAX_FRAMES)
        return NULL;
    for (size_t k = 0; k < depth; k++)
        if (!ls_name_ok(fr[k].function))
            return NULL;
    /* Line 0 marks code the compiler made up (spills, merged tails): it
     * belongs to no line, and clang gives it no profile either. */
    if (depth == 0 || fr[0].line == 0)
        return NULL;
    ls_node *n = ls_top(st, fr[depth - 1].function);
    if (!n)
        return NULL;
    for (size_t k = depth - 1; k > 0; k--) {
        n = ls_site_node(st, n, ls_offset(fr[k].line, fr[k].decl_line),
                         st->discriminators ? ls_base_disc(fr[k].discriminator) : 0,
                         fr[k - 1].function);
        if (!n)
            return NULL;
    }
    if (st->discriminators)
        *dup = ls_dup_factor(fr[0].discriminator);
    return ls_line_at(st, n, ls_offset(fr[0].line, fr[0].decl_line),
                      st->discriminators ? ls_base_disc(fr[0].discriminator) : 0);
}

/* Adds each block's executions to each of its instructions in insns
 * (key (address, 0), v[0] count). A block whose instruction count is
 * known (Valgrind's) is decoded for that many instructions. The native
 * runtime's (v1 0) go through lp__sample_flow, which also fills in the
 * blocks without a counter; where it cannot, such a block runs from its
 * start to its first jump or return, or to the next block start of the
 * profile, whichever comes first (clang's coverage blocks are basic
 * blocks). */
static int ls_block_insns(lp_names *nm, const lp_report_view *v, lp_table *insns)
{
    csh cs;
    int have_cs = cs_open(CS_ARCH_X86, CS_MODE_64, &cs) == CS_ERR_OK;
    if (have_cs)
        cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
    uint8_t *buf = NULL;
    size_t bufcap = 0;
    uint8_t *done = calloc(v->count ? v->count : 1, 1);
    int rc = done ? lp__sample_flow(nm, v, insns, done) : LP_ENOMEM;
    for (size_t i = 0; i < v->count && rc == 0; i++) {
        const lp_entry *e = &v->entries[i];
        if (e->v[0] == 0 || done[i])
            continue;
        uint64_t n = (e->v[1] + e->v[0] / 2) / e->v[0];
        int to_branch = n == 0;
        uint64_t next = i + 1 < v->count ? v->entries[i + 1].key.a : UINT64_MAX;
        if (to_branch)
            n = LS_SCAN_INSNS;
        cs_insn *insn = NULL;
        size_t got = 0;
        if (have_cs && n > 1 && n < 4096) {
            size_t want = (size_t)n * LS_MAX_INSN;
            if (want > bufcap) {
                uint8_t *b = realloc(buf, want);
                if (!b) {
                    rc = LP_ENOMEM;
                    break;
                }
                buf = b;
                bufcap = want;
            }
            size_t len = lp_symbolizer_code(nm->sym, e->key.a, buf, want);
            if (len)
                got = cs_disasm(cs, buf, len, e->key.a, (size_t)n, &insn);
        }
        for (size_t k = 0; k < (got ? got : 1); k++) {
            lp_key key = {got ? insn[k].address : e->key.a, 0};
            if (to_branch && k > 0 && key.a >= next)
                break;
            lp_entry *x = lp_table_upsert(insns, key);
            if (!x) {
                rc = LP_ENOMEM;
                break;
            }
            x->v[0] += e->v[0];
            if (to_branch && got &&
                (cs_insn_group(cs, &insn[k], CS_GRP_JUMP) ||
                 cs_insn_group(cs, &insn[k], CS_GRP_RET)))
                break;
        }
        if (insn)
            cs_free(insn, got);
    }
    free(buf);
    free(done);
    if (have_cs)
        cs_close(&cs);
    return rc;
}

/* The name to give a call target: the callee's DWARF linkage name, else
 * its symbol without a PLT suffix; NULL for code no name covers. */
static const char *ls_callee(lp_names *nm, uint64_t pc, char *buf, size_t cap)
{
    lp_src_frame fr[LS_MAX_FRAMES];
    size_t depth = lp_symbolize_frames(nm->sym, pc, fr, LS_MAX_FRAMES);
    if (depth && depth <= LS_MAX_FRAMES && fr[depth - 1].function)
        return fr[depth - 1].function;
    lp_symbol sym;
    lp_symbolize(nm->sym, pc, &sym);
    if (!sym.function || sym.function_start != pc)
        return NULL;
    const char *at = strstr(sym.function, "@plt");
    if (!at)
        return sym.function;
    snprintf(buf, cap, "%.*s", (int)(at - sym.function), sym.function);
    return buf;
}

uint64_t lp__call_site_back(const lp_profile_set *s)
{
    /* A return address may lie on the next line (compress's matcher tests
     * cz_find's result there); the call's own last byte is the call's. */
    const char *rec = lp_meta_get(&s->meta, "recorder");
    return rec && strcmp(rec, "lowprof native runtime") == 0;
}

static int ls_add_target(ls_state *st, ls_line *l, const char *name, uint64_t count)
{
    for (size_t i = 0; i < l->ntargets; i++)
        if (strcmp(l->targets[i].name, name) == 0) {
            l->targets[i].count += count;
            return 0;
        }
    ls_target *t = ls_grow((void **)&l->targets, &l->ntargets, sizeof *t);
    if (!t) {
        st->nomem = 1;
        return LP_ENOMEM;
    }
    t->name = name; /* DWARF's or the symbolizer's string, or ls_intern's */
    t->count = count;
    return 0;
}

static uint64_t ls_totals(ls_node *n)
{
    uint64_t t = 0;
    for (size_t i = 0; i < n->nlines; i++)
        t += n->lines[i].samples;
    for (size_t i = 0; i < n->nsites; i++)
        t += ls_totals(n->sites[i].callee);
    n->total = t;
    return t;
}

static int ls_line_cmp(const void *x, const void *y)
{
    const ls_line *a = x, *b = y;
    if (a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    return a->disc < b->disc ? -1 : a->disc > b->disc;
}

static int ls_site_cmp(const void *x, const void *y)
{
    const ls_site *a = x, *b = y;
    if (a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    if (a->disc != b->disc)
        return a->disc < b->disc ? -1 : 1;
    return strcmp(a->callee->name, b->callee->name);
}

static int ls_target_cmp(const void *x, const void *y)
{
    const ls_target *a = x, *b = y;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int ls_top_cmp(const void *x, const void *y)
{
    const ls_node *a = *(ls_node *const *)x, *b = *(ls_node *const *)y;
    if (a->total != b->total)
        return a->total > b->total ? -1 : 1;
    return strcmp(a->name, b->name);
}

static void ls_location(lp_out *o, int indent, unsigned offset, unsigned disc)
{
    lp_outf(o, "%*s%u", indent, "", offset);
    if (disc)
        lp_outf(o, ".%u", disc);
    lp_outs(o, ": ");
}

/* The body of n, each line indented by indent spaces. */
static void ls_write_body(lp_out *o, ls_node *n, int indent)
{
    /* qsort must not be handed a NULL array, even an empty one. */
    if (n->nlines)
        qsort(n->lines, n->nlines, sizeof *n->lines, ls_line_cmp);
    if (n->nsites)
        qsort(n->sites, n->nsites, sizeof *n->sites, ls_site_cmp);
    for (size_t i = 0; i < n->nlines; i++) {
        ls_line *l = &n->lines[i];
        ls_location(o, indent, l->offset, l->disc);
        lp_outf(o, "%llu", (unsigned long long)l->samples);
        if (l->ntargets)
            qsort(l->targets, l->ntargets, sizeof *l->targets, ls_target_cmp);
        for (size_t k = 0; k < l->ntargets; k++)
            lp_outf(o, " %s:%llu", l->targets[k].name, (unsigned long long)l->targets[k].count);
        lp_outs(o, "\n");
    }
    for (size_t i = 0; i < n->nsites; i++) {
        ls_site *s = &n->sites[i];
        if (s->callee->total == 0)
            continue;
        ls_location(o, indent, s->offset, s->disc);
        lp_outf(o, "%s:%llu\n", s->callee->name, (unsigned long long)s->callee->total);
        ls_write_body(o, s->callee, indent + 1);
    }
}

static const char *ls_intern(ls_strings *ss, const char *s)
{
    for (size_t i = 0; i < ss->count; i++)
        if (strcmp(ss->items[i], s) == 0)
            return ss->items[i];
    size_t n = strlen(s) + 1;
    char *copy = malloc(n);
    char **slot = copy ? ls_grow((void **)&ss->items, &ss->count, sizeof *slot) : NULL;
    if (!slot) {
        free(copy);
        return NULL;
    }
    memcpy(copy, s, n);
    *slot = copy;
    return copy;
}

int lp__sample_build(const lp_profile_set *s, lp_names *nm, int discriminators, ls_state *st)
{
    memset(st, 0, sizeof *st);
    st->discriminators = discriminators;
    ls_strings *names = &st->names;
    lp_table insns;
    lp_entry *sorted = NULL;
    lp_report_view blocks = {0}, calls = {0}, methods = {0};
    int rc = lp_table_init(&insns, 1024);
    if (rc)
        return rc;
    rc = lp_report_view_build(s, LP_PROF_BLOCK, LP_PHASE_NONE, &blocks);
    if (rc == 0 && blocks.merged == 0)
        rc = LP_ENOENT;
    if (rc == 0)
        rc = lp_report_view_build(s, LP_PROF_CALL_PAIR, LP_PHASE_NONE, &calls);
    if (rc == 0)
        rc = lp_report_view_build(s, LP_PROF_METHOD, LP_PHASE_NONE, &methods);
    if (rc == 0)
        rc = ls_block_insns(nm, &blocks, &insns);
    if (rc == 0)
        rc = lp_table_sorted(&insns, lp_entry_key_less, &sorted);

    /* Body samples: the largest instruction count of each line, each
     * times its duplication factor. */
    for (size_t i = 0; rc == 0 && i < insns.count; i++) {
        unsigned dup;
        ls_line *l = ls_place(st, nm, sorted[i].key.a, &dup);
        if (l && sorted[i].v[0] * dup > l->samples)
            l->samples = sorted[i].v[0] * dup;
        if (st->nomem)
            rc = LP_ENOMEM;
    }
    /* Call targets at the call site's line. */
    uint64_t ret_keys = lp__call_site_back(s);
    for (size_t i = 0; rc == 0 && i < calls.count; i++) {
        const lp_entry *e = &calls.entries[i];
        char buf[512];
        const char *callee = e->v[0] ? ls_callee(nm, e->key.b, buf, sizeof buf) : NULL;
        if (!ls_name_ok(callee))
            continue;
        if (callee == buf && !(callee = ls_intern(names, buf))) {
            rc = LP_ENOMEM;
            break;
        }
        /* A call's count is its own: the copies of an unrolled call add up. */
        unsigned dup;
        ls_line *l = ls_place(st, nm, e->key.a - ret_keys, &dup);
        if (l)
            rc = ls_add_target(st, l, callee, e->v[0]);
        if (st->nomem)
            rc = LP_ENOMEM;
    }
    /* Head samples: invocations, or the executions of blocks that start a
     * function. Matched by name, as the native runtime counts blocks in a
     * copy of each function and invocations at the function itself. */
    const lp_report_view *heads = methods.merged ? &methods : &blocks;
    for (size_t i = 0; rc == 0 && i < heads->count; i++) {
        const lp_entry *e = &heads->entries[i];
        if (!methods.merged) {
            lp_symbol sym;
            lp_symbolize(nm->sym, e->key.a, &sym);
            if (!sym.function || sym.function_start != e->key.a)
                continue;
        }
        char buf[512];
        const char *name = ls_callee(nm, e->key.a, buf, sizeof buf);
        for (size_t k = 0; name && k < st->ntop; k++)
            if (strcmp(st->top[k]->name, name) == 0)
                st->top[k]->head += e->v[0];
    }

    /* Blocks that all lie in code without DWARF give nothing a compiler
     * could use: said as a missing profile rather than written as an empty
     * file. */
    uint64_t written = 0;
    for (size_t i = 0; rc == 0 && i < st->ntop; i++)
        written += ls_totals(st->top[i]);
    if (rc == 0 && written == 0)
        rc = LP_ENOENT;
    if (rc == 0)
        qsort(st->top, st->ntop, sizeof *st->top, ls_top_cmp);
    lp_free(sorted);
    lp_report_view_fini(&blocks);
    lp_report_view_fini(&calls);
    lp_report_view_fini(&methods);
    lp_table_fini(&insns);
    if (rc)
        lp__sample_free(st);
    return rc;
}

void lp__sample_free(ls_state *st)
{
    for (size_t i = 0; i < st->ntop; i++)
        ls_node_free(st->top[i]);
    free(st->top);
    for (size_t i = 0; i < st->names.count; i++)
        free(st->names.items[i]);
    free(st->names.items);
    memset(st, 0, sizeof *st);
}

int lp__export_llvm_sample(const char *source, const lp_profile_set *s, lp_names *nm, lp_out *o)
{
    (void)source;
    ls_state st;
    int rc = lp__sample_build(s, nm, 1, &st);
    if (rc)
        return rc;
    for (size_t i = 0; i < st.ntop && !o->err; i++) {
        ls_node *n = st.top[i];
        if (n->total == 0)
            continue;
        lp_outf(o, "%s:%llu:%llu\n", n->name, (unsigned long long)n->total,
                (unsigned long long)n->head);
        ls_write_body(o, n, 1);
    }
    rc = o->err;
    lp__sample_free(&st);
    return rc;
}
