/* analysis: the one capstone sweep over each code section (x86-64 mode,
 * detail on), turning every instruction into a 12-byte record: its kind
 * (call, jump, conditional jump, indirect, return, stop), the relative
 * target of a direct branch, and whether it references memory. Code
 * addresses that instructions take (RIP-relative lea, and in an ET_EXEC file
 * immediates) are collected on the way.
 *
 * Linear, not recursive: compilers put no data in x86-64 code sections, and
 * a linear sweep sees the code a jump table reaches too. The sweep restarts
 * at every known function start it would step over, so an undecodable byte
 * or padding cannot shift the decoding of the next function. All decoding
 * is capstone's; this file only reads capstone's answer.
 *
 * Tuned for: cc1's 5 M instructions in about 1.5 s; one capstone handle and
 * one cs_insn for the whole sweep. */
#include <capstone/capstone.h>
#include <elf.h>
#include <string.h>

#include "analysis_internal.h"

size_t lp__an_insn_lower(const lp__an_sec *sec, uint64_t addr)
{
    if (addr <= sec->addr)
        return 0;
    uint64_t off = addr - sec->addr;
    size_t lo = 0, hi = sec->n_insns;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sec->insns[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* State of one sweep. */
typedef struct lp__an_sweep {
    lp_analysis *a;
    uint64_t code_lo, code_hi; /* bounds of all code sections, a quick first test */
} lp__an_sweep;

static int lp__an_code_addr(const lp__an_sweep *w, uint64_t v)
{
    return v >= w->code_lo && v < w->code_hi && lp__an_sec_at(w->a, v, LP__AN_CODE);
}

static int lp__an_fits32(uint64_t target, uint64_t end, int32_t *out)
{
    int64_t d = (int64_t)(target - end);
    if (d < INT32_MIN || d > INT32_MAX)
        return 0;
    *out = (int32_t)d;
    return 1;
}

static int lp__an_no_access(unsigned id)
{
    switch (id) {
    case X86_INS_LEA:
    case X86_INS_NOP:
    case X86_INS_FNOP:
    case X86_INS_PREFETCH:
    case X86_INS_PREFETCHNTA:
    case X86_INS_PREFETCHT0:
    case X86_INS_PREFETCHT1:
    case X86_INS_PREFETCHT2:
    case X86_INS_PREFETCHW:
        return 1;
    default:
        return 0;
    }
}

static int lp__an_candidate(lp__an_sweep *w, const cs_insn *in, uint64_t value, uint8_t taken)
{
    const cs_x86 *x = &in->detail->x86;
    lp__an_ptr *p = lp__an_push(&w->a->cptrs);
    if (!p)
        return LP_ENOMEM;
    p->value = value;
    p->site = in->address;
    p->taken = taken;
    p->discover = 1;
    p->to_rdi = x->op_count > 0 && x->operands[0].type == X86_OP_REG &&
                (x->operands[0].reg == X86_REG_RDI || x->operands[0].reg == X86_REG_EDI);
    return 0;
}

static int lp__an_classify(lp__an_sweep *w, const cs_insn *in, lp__an_insn *r)
{
    const cs_detail *d = in->detail;
    const cs_x86 *x = &d->x86;
    int call = 0, jump = 0, ret = 0;
    for (unsigned g = 0; g < d->groups_count; g++) {
        switch (d->groups[g]) {
        case CS_GRP_CALL: call = 1; break;
        /* capstone 4 puts loop, loope and loopne in the relative-branch
         * group only, not in the jump group. */
        case CS_GRP_JUMP:
        case CS_GRP_BRANCH_RELATIVE: jump = 1; break;
        case CS_GRP_RET:
        case CS_GRP_IRET: ret = 1; break;
        default: break;
        }
    }
    uint64_t end = in->address + in->size;
    const cs_x86_op *op0 = x->op_count > 0 ? &x->operands[0] : NULL;
    int direct = op0 && x->op_count == 1 && op0->type == X86_OP_IMM &&
                 lp__an_fits32((uint64_t)op0->imm, end, &r->rel);
    if (call) {
        r->kind = direct ? LP__I_CALL : LP__I_CALL_IND;
        jump = 0;
    } else if (jump) {
        if (direct)
            r->kind = in->id == X86_INS_JMP ? LP__I_JMP : LP__I_JCC;
        else if (in->id == X86_INS_JMP && op0 && op0->type == X86_OP_MEM &&
                 op0->mem.base == X86_REG_RIP && op0->mem.index == X86_REG_INVALID)
            r->kind = LP__I_JMP_SLOT;
        else
            r->kind = LP__I_JMP_IND;
    } else if (ret) {
        r->kind = LP__I_RET;
    } else if (in->id == X86_INS_HLT || in->id == X86_INS_UD2 || in->id == X86_INS_UD2B ||
               in->id == X86_INS_UD0 || in->id == X86_INS_INT3) {
        r->kind = LP__I_STOP;
    }
    if (!direct)
        r->rel = 0;

    int access = !lp__an_no_access(in->id);
    for (unsigned i = 0; i < x->op_count; i++) {
        const cs_x86_op *op = &x->operands[i];
        if (op->type == X86_OP_MEM) {
            r->mem |= access;
            if (in->id == X86_INS_LEA && op->mem.base == X86_REG_RIP &&
                op->mem.index == X86_REG_INVALID) {
                uint64_t t = end + (uint64_t)op->mem.disp;
                if (lp__an_code_addr(w, t) && lp__an_candidate(w, in, t, LP_ANALYSIS_TAKEN_LEA))
                    return LP_ENOMEM;
            }
        } else if (op->type == X86_OP_IMM && !call && !jump && w->a->elf_type == ET_EXEC) {
            uint64_t t = (uint64_t)op->imm;
            if (lp__an_code_addr(w, t) && lp__an_candidate(w, in, t, LP_ANALYSIS_TAKEN_IMM))
                return LP_ENOMEM;
        }
    }
    return 0;
}

static int lp__an_sweep_section(lp__an_sweep *w, csh h, cs_insn *in, lp__an_sec *s,
                                const uint64_t *syncs, size_t n_sync)
{
    lp_analysis *a = w->a;
    size_t cap = s->size / 3 + 16, n = 0;
    lp__an_insn *recs = lp_malloc(cap * sizeof *recs);
    if (!recs)
        return LP_ENOMEM;
    size_t j = 0;
    while (j < n_sync && syncs[j] <= s->addr)
        j++;
    const uint8_t *code = s->bytes;
    uint64_t left = s->size, addr = s->addr;
    while (left) {
        while (j < n_sync && syncs[j] <= addr)
            j++;
        uint64_t limit = j < n_sync && syncs[j] - addr < left ? syncs[j] - addr : left;
        if (n == cap) {
            lp__an_insn *more = lp_realloc(recs, cap * sizeof *recs, 2 * cap * sizeof *recs);
            if (!more) {
                lp_free(recs);
                return LP_ENOMEM;
            }
            recs = more;
            cap *= 2;
        }
        const uint8_t *p = code;
        size_t sz = (size_t)limit;
        uint64_t at = addr;
        lp__an_insn r = {.off = (uint32_t)(addr - s->addr)};
        if (cs_disasm_iter(h, &p, &sz, &at, in)) {
            r.len = (uint8_t)in->size;
            if (lp__an_classify(w, in, &r)) {
                lp_free(recs);
                return LP_ENOMEM;
            }
            a->sum.insns++;
        } else {
            /* Not an instruction here (or one cut by the next function's
             * start): one byte, merged with undecodable bytes before it. */
            a->sum.bad_bytes++;
            if (n && recs[n - 1].kind == LP__I_BAD && recs[n - 1].len < 255 &&
                recs[n - 1].off + recs[n - 1].len == r.off) {
                recs[n - 1].len++;
                code++;
                left--;
                addr++;
                continue;
            }
            r.len = 1;
            r.kind = LP__I_BAD;
        }
        recs[n++] = r;
        code += r.len;
        left -= r.len;
        addr += r.len;
    }
    s->insns = recs;
    s->n_insns = n;
    return 0;
}

int lp__an_decode(lp_analysis *a, const uint64_t *syncs, size_t n_sync, lp_analysis_error *err)
{
    csh h;
    if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
        return lp__an_fail(a, err, LP_EIO, 0, 0, "capstone cannot decode x86-64");
    cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
    cs_insn *in = cs_malloc(h);
    if (!in) {
        cs_close(&h);
        return lp__an_fail(a, err, LP_ENOMEM, 0, 0, "out of memory");
    }
    lp__an_sweep w = {.a = a, .code_lo = UINT64_MAX, .code_hi = 0};
    for (size_t i = 0; i < a->n_secs; i++) {
        const lp__an_sec *s = &a->secs[i];
        if (s->role != LP__AN_CODE)
            continue;
        if (s->addr < w.code_lo)
            w.code_lo = s->addr;
        if (s->addr + s->size > w.code_hi)
            w.code_hi = s->addr + s->size;
    }
    a->cptrs.count = 0;
    a->sum.insns = 0;
    a->sum.bad_bytes = 0;
    int rc = 0;
    for (size_t i = 0; !rc && i < a->n_secs; i++) {
        lp__an_sec *s = &a->secs[i];
        if (s->role != LP__AN_CODE)
            continue;
        lp_free(s->insns);
        s->insns = NULL;
        s->n_insns = 0;
        if (s->bytes && s->size)
            rc = lp__an_sweep_section(&w, h, in, s, syncs, n_sync);
    }
    cs_free(in, 1);
    cs_close(&h);
    if (rc)
        return lp__an_fail(a, err, rc, 0, 0, "out of memory decoding the code");
    return 0;
}
