/* analysis: the basic blocks of one function, from its instruction
 * records. A block starts at the function's first record, at the target of
 * a direct jump or conditional jump that stays inside the function, and
 * after every jump, return, stop or undecodable byte. Calls do not end a
 * block (they return). Successors: the target of a direct jump, both sides
 * of a conditional one, the next block after anything else that goes on;
 * none after an indirect jump (jump tables are not followed), a return, a
 * stop, or a jump that leaves the function.
 *
 * Tuned for: being run once per function over millions of records; the
 * arrays live in one lp__an_cfg reused for every function. */
#include <string.h>

#include "analysis_internal.h"

static int lp__an_grow(void **p, size_t old_count, size_t new_count, size_t elem)
{
    void *q = lp_realloc(*p, old_count * elem, new_count * elem);
    if (!q)
        return LP_ENOMEM;
    *p = q;
    return 0;
}

static int lp__an_cfg_reserve(lp__an_cfg *c, size_t n)
{
    if (n <= c->cap_insns)
        return 0;
    size_t cap = c->cap_insns ? c->cap_insns : 256;
    while (cap < n)
        cap *= 2;
    size_t old = c->cap_insns;
    if (lp__an_grow((void **)&c->leader, old, cap, sizeof *c->leader) ||
        lp__an_grow((void **)&c->blk_of, old, cap, sizeof *c->blk_of) ||
        lp__an_grow((void **)&c->first, old, cap, sizeof *c->first) ||
        lp__an_grow((void **)&c->last, old, cap, sizeof *c->last) ||
        lp__an_grow((void **)&c->mem, old, cap, sizeof *c->mem) ||
        lp__an_grow((void **)&c->insns, old, cap, sizeof *c->insns) ||
        lp__an_grow((void **)&c->calls, old, cap, sizeof *c->calls) ||
        lp__an_grow((void **)&c->succ, 2 * old, 2 * cap, sizeof *c->succ))
        return LP_ENOMEM; /* what did grow stays owned by c */
    c->cap_insns = cap;
    c->cap_blocks = cap;
    return 0;
}

void lp__an_cfg_free(lp__an_cfg *c)
{
    lp_free(c->leader);
    lp_free(c->blk_of);
    lp_free(c->first);
    lp_free(c->last);
    lp_free(c->mem);
    lp_free(c->insns);
    lp_free(c->calls);
    lp_free(c->succ);
    memset(c, 0, sizeof *c);
}

/* The record of [i0, i1) starting exactly at addr, as an index from i0, or
 * LP__AN_NONE (outside, or inside an instruction). */
static uint32_t lp__an_record_at(const lp__an_sec *s, size_t i0, size_t i1, uint64_t addr)
{
    uint64_t off = addr - s->addr;
    size_t lo = i0, hi = i1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->insns[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < i1 && s->insns[lo].off == off ? (uint32_t)(lo - i0) : LP__AN_NONE;
}

static int lp__an_ends_block(uint8_t kind)
{
    return kind == LP__I_JMP || kind == LP__I_JCC || kind == LP__I_JMP_IND ||
           kind == LP__I_JMP_SLOT || kind == LP__I_RET || kind == LP__I_STOP ||
           kind == LP__I_BAD;
}

int lp__an_cfg_build(lp__an_cfg *c, const lp__an_sec *s, size_t i0, size_t i1, uint64_t lo,
                     uint64_t hi)
{
    size_t n = i1 - i0;
    c->n_blocks = 0;
    if (n == 0)
        return 0;
    if (n > UINT32_MAX / 2 || lp__an_cfg_reserve(c, n))
        return LP_ENOMEM;
    const lp__an_insn *in = s->insns + i0;
    memset(c->leader, 0, n);
    c->leader[0] = 1;
    for (size_t k = 0; k < n; k++) {
        uint8_t kind = in[k].kind;
        if (kind == LP__I_JMP || kind == LP__I_JCC) {
            uint64_t t = lp__an_insn_target(s, &in[k]);
            if (t >= lo && t < hi) {
                uint32_t r = lp__an_record_at(s, i0, i1, t);
                if (r != LP__AN_NONE)
                    c->leader[r] = 1;
            }
        }
        if (lp__an_ends_block(kind) && k + 1 < n)
            c->leader[k + 1] = 1;
    }
    uint32_t b = 0;
    for (size_t k = 0; k < n; k++) {
        if (c->leader[k]) {
            b = c->n_blocks++;
            c->first[b] = (uint32_t)k;
            c->mem[b] = 0;
            c->insns[b] = 0;
            c->calls[b] = 0;
        }
        c->last[b] = (uint32_t)k;
        c->blk_of[k] = b;
        c->mem[b] += in[k].mem;
        c->insns[b] += in[k].kind != LP__I_BAD;
        c->calls[b] |= in[k].kind == LP__I_CALL || in[k].kind == LP__I_CALL_IND;
    }
    for (b = 0; b < c->n_blocks; b++) {
        const lp__an_insn *l = &in[c->last[b]];
        uint32_t target = LP__AN_NONE, next = b + 1 < c->n_blocks ? b + 1 : LP__AN_NONE;
        if (l->kind == LP__I_JMP || l->kind == LP__I_JCC) {
            uint64_t t = lp__an_insn_target(s, l);
            uint32_t r = t >= lo && t < hi ? lp__an_record_at(s, i0, i1, t) : LP__AN_NONE;
            if (r != LP__AN_NONE)
                target = c->blk_of[r];
        }
        switch (l->kind) {
        case LP__I_JCC:
            c->succ[2 * b] = target;
            c->succ[2 * b + 1] = next != target ? next : LP__AN_NONE;
            break;
        case LP__I_JMP:
            c->succ[2 * b] = target;
            c->succ[2 * b + 1] = LP__AN_NONE;
            break;
        case LP__I_JMP_IND:
        case LP__I_JMP_SLOT:
        case LP__I_RET:
        case LP__I_STOP:
        case LP__I_BAD:
            c->succ[2 * b] = c->succ[2 * b + 1] = LP__AN_NONE;
            break;
        default:
            c->succ[2 * b] = next;
            c->succ[2 * b + 1] = LP__AN_NONE;
            break;
        }
    }
    return 0;
}
