/* The native runtime's block profiles, completed by flow for the sample
 * exports (llvm-sample, gcov-afdo).
 *
 * The copies count with clang's coverage pass, which leaves out a block
 * whose coverage another implies: one that dominates all its successors,
 * or post-dominates with several predecessors (doc/runtime.md, "Copies
 * that count inline"). Coverage, not executions: the body of a loop that
 * clang unrolled dominates its latch and its exit, so it has no counter,
 * and the lines of the loop had no samples at all in the export (json's
 * byte hash, whose sample-profile builds then ran 47 % more instructions
 * there than plain, doc/eval-pgo.md). Their executions follow from the
 * counted blocks around them: every block's executions are the sum of its
 * incoming edges and of its outgoing ones.
 *
 * So each counted function is decoded whole (its symbol's extent), cut
 * into machine blocks (at jump targets, after jumps and returns, and at
 * every counted block's start), and the unknown blocks and edges are
 * solved from the known ones the way a spanning-tree edge profiler solves
 * its uninstrumented edges: a block whose executions are known and whose
 * edges on one side are known but one gives that one; a block whose edges
 * on one side are all known gives its executions. The runtime writes only
 * counters that moved, so a block with an increment the profile does not
 * list ran no time while counted, and neither did code no edge enters.
 * Counts that disagree (a window's counters read while a loop ran) are
 * clamped at 0. A function with an indirect jump (a switch's table, whose
 * targets the decoder does not know) or code the decoder cannot read is
 * left to the caller's block-by-block reading, as are blocks whose
 * function has no sized symbol. */
#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>

#include "export_sample.h"

/* Functions larger than this are left to the block-by-block reading. */
#define LF_MAX_BYTES (1u << 20)
#define LF_NONE UINT32_MAX

typedef struct lf_block {
    uint64_t start; /* its first instruction */
    uint32_t first, ninsn;
    uint64_t count;
    int known;
} lf_block;

typedef struct lf_edge {
    uint32_t from, to; /* LF_NONE: entering the function, or leaving it */
    uint64_t count;
    int known;
} lf_edge;

/* Sites of a module's copies that lowprof cc lists in a section of an
 * executable, each entry the 32-bit distance from itself to the site, as
 * sorted runtime addresses: the increments (__lp_inc64) and the loops'
 * checks (__lp_loop64, lowprof cc --loops=two). */
typedef struct lf_sites {
    uint64_t *at;
    size_t n;
} lf_sites;

/* A module's increments and loop checks. */
typedef struct lf_module {
    const char *path; /* whose they are; NULL before the first */
    lf_sites inc, loop;
} lf_module;

static int lf_u64_cmp(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static int lf_has(const lf_sites *x, uint64_t a)
{
    /* bsearch must not be handed a NULL array, even an empty one. */
    return x->n && bsearch(&a, x->at, x->n, sizeof *x->at, lf_u64_cmp) != NULL;
}

/* Reads section name of the module holding pc into *x (none when it has
 * no such section). */
static int lf_sites_load(lp_names *nm, uint64_t pc, const char *name, lf_sites *x)
{
    free(x->at);
    *x = (lf_sites){NULL, 0};
    const void *data;
    uint64_t addr;
    size_t size = lp_symbolizer_section(nm->sym, pc, name, &data, &addr);
    size_t n = size / sizeof(int32_t);
    if (n == 0)
        return 0;
    if (!(x->at = malloc(n * sizeof *x->at)))
        return LP_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        int32_t rel;
        memcpy(&rel, (const char *)data + i * sizeof rel, sizeof rel);
        x->at[i] = addr + i * sizeof rel + (uint64_t)(int64_t)rel;
    }
    qsort(x->at, n, sizeof *x->at, lf_u64_cmp);
    x->n = n;
    return 0;
}

static int lf_module_load(lp_names *nm, uint64_t pc, const char *path, lf_module *m)
{
    m->path = path;
    int rc = lf_sites_load(nm, pc, "__lp_inc64", &m->inc);
    return rc ? rc : lf_sites_load(nm, pc, "__lp_loop64", &m->loop);
}

typedef struct lf_fn {
    cs_insn *insn;
    size_t ninsn;
    uint8_t *leader; /* per instruction: a block starts there */
    lf_block *blocks;
    uint32_t nblocks;
    lf_edge *edges;
    size_t nedges, capedges;
    uint32_t *by_insn;         /* per instruction: its block */
    uint32_t *off[2], *idx[2]; /* lf_sides */
} lf_fn;

static int lf_edge_add(lf_fn *f, uint32_t from, uint32_t to)
{
    if (f->nedges == f->capedges) {
        size_t cap = f->capedges ? 2 * f->capedges : 64;
        lf_edge *e = realloc(f->edges, cap * sizeof *e);
        if (!e)
            return LP_ENOMEM;
        f->edges = e;
        f->capedges = cap;
    }
    f->edges[f->nedges++] = (lf_edge){from, to, 0, 0};
    return 0;
}

/* The index of the instruction at address a (binary search), or
 * LF_NONE when no instruction starts there. */
static uint32_t lf_insn_at(const lf_fn *f, uint64_t a)
{
    size_t lo = 0, hi = f->ninsn;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->insn[mid].address < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < f->ninsn && f->insn[lo].address == a ? (uint32_t)lo : LF_NONE;
}

static int lf_is_jump(csh cs, const cs_insn *i)
{
    return cs_insn_group(cs, i, CS_GRP_JUMP);
}

/* A direct jump's target, or 0 for an indirect one. */
static uint64_t lf_target(const cs_insn *i)
{
    const cs_x86 *x = &i->detail->x86;
    return x->op_count == 1 && x->operands[0].type == X86_OP_IMM ? (uint64_t)x->operands[0].imm : 0;
}

/* Instructions after which nothing runs on. A loop's check is a jmp in
 * the file and a cmp that falls through to the counted blocks while the
 * windows are open: it goes both ways. */
static int lf_stops(csh cs, const cs_insn *i, const lf_module *m)
{
    if (i->id == X86_INS_JMP && lf_has(&m->loop, i->address))
        return 0;
    return cs_insn_group(cs, i, CS_GRP_RET) || i->id == X86_INS_UD2 || i->id == X86_INS_HLT ||
           i->id == X86_INS_INT3 || (lf_is_jump(cs, i) && i->id == X86_INS_JMP);
}

/* Cuts f into blocks and edges. Returns 0, 1 when the function is not for
 * this reading (an indirect jump, a counted block between instructions),
 * or LP_ENOMEM. */
static int lf_graph(csh cs, lf_fn *f, const lp_entry *known, size_t nknown, const lf_module *m)
{
    uint64_t lo = f->insn[0].address;
    uint64_t hi = f->insn[f->ninsn - 1].address + f->insn[f->ninsn - 1].size;
    f->leader = calloc(f->ninsn, 1);
    f->by_insn = malloc(f->ninsn * sizeof *f->by_insn);
    if (!f->leader || !f->by_insn)
        return LP_ENOMEM;
    f->leader[0] = 1;
    for (size_t k = 0; k < nknown; k++) {
        uint32_t at = lf_insn_at(f, known[k].key.a);
        if (at == LF_NONE)
            return 1;
        f->leader[at] = 1;
    }
    for (size_t k = 0; k < f->ninsn; k++) {
        const cs_insn *i = &f->insn[k];
        if (lf_is_jump(cs, i)) {
            uint64_t t = lf_target(i);
            if (!t) /* jmp *x: a jump table, or a tail call through a pointer */
                return 1;
            if (t >= lo && t < hi) {
                uint32_t at = lf_insn_at(f, t);
                if (at == LF_NONE)
                    return 1;
                f->leader[at] = 1;
            }
        }
        if ((lf_is_jump(cs, i) || lf_stops(cs, i, m)) && k + 1 < f->ninsn)
            f->leader[k + 1] = 1;
    }
    uint32_t nb = 0;
    for (size_t k = 0; k < f->ninsn; k++)
        nb += f->leader[k];
    f->blocks = calloc(nb, sizeof *f->blocks);
    if (!f->blocks)
        return LP_ENOMEM;
    uint32_t b = LF_NONE;
    for (size_t k = 0; k < f->ninsn; k++) {
        if (f->leader[k]) {
            b = b == LF_NONE ? 0 : b + 1;
            f->blocks[b].start = f->insn[k].address;
            f->blocks[b].first = (uint32_t)k;
        }
        f->blocks[b].ninsn++;
        f->by_insn[k] = b;
    }
    f->nblocks = nb;
    int rc = lf_edge_add(f, LF_NONE, 0);
    for (uint32_t j = 0; j < nb && rc == 0; j++) {
        const cs_insn *last = &f->insn[f->blocks[j].first + f->blocks[j].ninsn - 1];
        if (lf_is_jump(cs, last)) {
            uint64_t t = lf_target(last);
            rc = lf_edge_add(f, j, t >= lo && t < hi ? f->by_insn[lf_insn_at(f, t)] : LF_NONE);
        }
        if (rc == 0 && !lf_stops(cs, last, m))
            rc = lf_edge_add(f, j, j + 1 < nb ? j + 1 : LF_NONE);
        else if (rc == 0 && !lf_is_jump(cs, last))
            rc = lf_edge_add(f, j, LF_NONE); /* ret, ud2: the function's exits */
    }
    for (size_t k = 0; k < nknown && rc == 0; k++) {
        lf_block *bl = &f->blocks[f->by_insn[lf_insn_at(f, known[k].key.a)]];
        bl->count = known[k].v[0];
        bl->known = 1;
    }
    /* A block with an increment that the profile does not list ran no
     * time while counted: the runtime writes the counters that moved. */
    const lf_sites *inc = &m->inc;
    size_t k = 0, n = inc->n;
    while (k < n) { /* the first increment at or past lo */
        size_t mid = k + (n - k) / 2;
        if (inc->at[mid] < lo)
            k = mid + 1;
        else
            n = mid;
    }
    for (; k < inc->n && inc->at[k] < hi && rc == 0; k++) {
        uint32_t at = lf_insn_at(f, inc->at[k]);
        if (at != LF_NONE)
            f->blocks[f->by_insn[at]].known = 1;
    }
    return rc;
}

/* Each block's incoming (d = 0) and outgoing (d = 1) edges: those of
 * block b on side d are idx[d][off[d][b] .. off[d][b + 1]). */
static int lf_sides(lf_fn *f)
{
    for (int d = 0; d < 2; d++) {
        f->off[d] = calloc((size_t)f->nblocks + 1, sizeof *f->off[d]);
        f->idx[d] = malloc((f->nedges ? f->nedges : 1) * sizeof *f->idx[d]);
        if (!f->off[d] || !f->idx[d])
            return LP_ENOMEM;
        for (size_t e = 0; e < f->nedges; e++) {
            uint32_t b = d ? f->edges[e].from : f->edges[e].to;
            if (b != LF_NONE)
                f->off[d][b + 1]++;
        }
        for (uint32_t b = 0; b < f->nblocks; b++)
            f->off[d][b + 1] += f->off[d][b];
        uint32_t *fill = malloc(((size_t)f->nblocks + 1) * sizeof *fill);
        if (!fill)
            return LP_ENOMEM;
        memcpy(fill, f->off[d], ((size_t)f->nblocks + 1) * sizeof *fill);
        for (size_t e = 0; e < f->nedges; e++) {
            uint32_t b = d ? f->edges[e].from : f->edges[e].to;
            if (b != LF_NONE)
                f->idx[d][fill[b]++] = (uint32_t)e;
        }
        free(fill);
    }
    return 0;
}

/* Solves what the known blocks imply, until nothing changes: on each side
 * of each block, one unknown edge of a known block, or the block's count
 * from a side whose edges are all known. */
static void lf_solve(lf_fn *f)
{
    /* Code no edge enters (padding, or what only an unwinder reaches)
     * did not run. */
    for (uint32_t b = 1; b < f->nblocks; b++)
        if (f->off[0][b] == f->off[0][b + 1])
            f->blocks[b].known = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t b = 0; b < f->nblocks; b++) {
            lf_block *bl = &f->blocks[b];
            for (int d = 0; d < 2; d++) {
                uint32_t lo = f->off[d][b], hi = f->off[d][b + 1];
                uint64_t sum = 0;
                size_t unknown = 0;
                lf_edge *which = NULL;
                for (uint32_t k = lo; k < hi; k++) {
                    lf_edge *x = &f->edges[f->idx[d][k]];
                    if (x->known)
                        sum += x->count;
                    else {
                        unknown++;
                        which = x;
                    }
                }
                if (bl->known && unknown == 1) {
                    which->count = bl->count > sum ? bl->count - sum : 0;
                    which->known = 1;
                    changed = 1;
                } else if (!bl->known && unknown == 0 && hi > lo) {
                    bl->count = sum;
                    bl->known = 1;
                    changed = 1;
                }
            }
        }
    }
}

static void lf_fn_free(lf_fn *f)
{
    if (f->insn)
        cs_free(f->insn, f->ninsn);
    free(f->leader);
    free(f->by_insn);
    free(f->blocks);
    free(f->edges);
    for (int d = 0; d < 2; d++) {
        free(f->off[d]);
        free(f->idx[d]);
    }
    memset(f, 0, sizeof *f);
}

/* Adds the function at [start, start + size) to insns, from its counted
 * blocks known[0..nknown). Returns 0, 1 (left to the caller) or
 * LP_ENOMEM. */
static int lf_function(csh cs, lp_names *nm, uint64_t start, uint64_t size, const lp_entry *known,
                       size_t nknown, const lf_module *m, lp_table *insns, uint8_t **buf,
                       size_t *cap)
{
    if (size == 0 || size > LF_MAX_BYTES)
        return 1;
    if (size > *cap) {
        uint8_t *b = realloc(*buf, size);
        if (!b)
            return LP_ENOMEM;
        *buf = b;
        *cap = size;
    }
    if (lp_symbolizer_code(nm->sym, start, *buf, size) != size)
        return 1;
    lf_fn f = {0};
    f.ninsn = cs_disasm(cs, *buf, size, start, 0, &f.insn);
    int rc = 1;
    if (f.ninsn && f.insn[f.ninsn - 1].address + f.insn[f.ninsn - 1].size == start + size)
        rc = lf_graph(cs, &f, known, nknown, m);
    if (rc == 0)
        rc = lf_sides(&f);
    if (rc == 0) {
        lf_solve(&f);
        for (uint32_t b = 0; b < f.nblocks && rc == 0; b++) {
            const lf_block *bl = &f.blocks[b];
            if (!bl->known || bl->count == 0)
                continue;
            for (uint32_t k = 0; k < bl->ninsn; k++) {
                lp_entry *x = lp_table_upsert(insns, (lp_key){f.insn[bl->first + k].address, 0});
                if (!x) {
                    rc = LP_ENOMEM;
                    break;
                }
                x->v[0] += bl->count;
            }
        }
    }
    lf_fn_free(&f);
    return rc;
}

int lp__sample_flow(lp_names *nm, const lp_report_view *v, lp_table *insns, uint8_t *done)
{
    csh cs;
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
        return 0; /* every block is left to the block-by-block reading */
    cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
    uint8_t *buf = NULL;
    size_t cap = 0;
    lf_module mod = {0};
    int rc = 0;
    /* The view is sorted by address, so a function's blocks are a run. */
    for (size_t i = 0; i < v->count && rc == 0;) {
        if (v->entries[i].v[1] != 0) { /* Valgrind's blocks know their length */
            i++;
            continue;
        }
        lp_symbol sym;
        lp_symbolize(nm->sym, v->entries[i].key.a, &sym);
        if (sym.module && (!mod.path || strcmp(sym.module, mod.path) != 0) &&
            (rc = lf_module_load(nm, v->entries[i].key.a, sym.module, &mod)) != 0)
            break;
        uint64_t end = sym.function_start + sym.function_size;
        size_t j = i + 1;
        while (j < v->count && v->entries[j].v[1] == 0 && v->entries[j].key.a < end)
            j++;
        int r = sym.function_size ? lf_function(cs, nm, sym.function_start, sym.function_size,
                                                &v->entries[i], j - i, &mod, insns, &buf, &cap)
                                  : 1;
        if (r == 0)
            memset(done + i, 1, j - i);
        else if (r != 1)
            rc = r;
        i = j;
    }
    free(buf);
    free(mod.inc.at);
    free(mod.loop.at);
    cs_close(&cs);
    return rc;
}
