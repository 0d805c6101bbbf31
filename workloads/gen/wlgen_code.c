/* lowprof-wlgen: x86-64-like machine code.
 *
 * Executables are a large share of what general-purpose compressors see, and
 * their statistics differ from text: short opcode patterns recurring with
 * varying register and displacement fields, little-endian immediates,
 * relative call offsets that repeat for a popular callee, runs of padding.
 * The functions below are assembled from real x86-64 encodings chosen with
 * weights resembling compiled C: many moves through the frame, arithmetic,
 * compares feeding conditional jumps, calls to a set of earlier functions. */
#include "wlgen.h"

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI };

typedef struct asm_state {
    wl_buf *out;
    size_t base;         /* offset of the code segment in out */
    uint32_t funcs[512]; /* segment offsets of function entries, for calls */
    int nfuncs;
    int frame; /* frame size of the function being written */
} asm_state;

static uint32_t here(const asm_state *s)
{
    return (uint32_t)(s->out->size - s->base);
}

static void emit(asm_state *s, unsigned b)
{
    wl_buf_byte(s->out, b);
}

static void emit32(asm_state *s, uint32_t v)
{
    wl_buf_u32le(s->out, v);
}

/* Registers a function body may use freely (not rsp or rbp). */
static unsigned any_reg(wl_rng *r)
{
    static const unsigned regs[] = {RAX, RAX, RCX, RDX, RDX, RBX, RSI, RDI, RDI};
    return regs[wl_rng_below(r, sizeof regs / sizeof regs[0])];
}

static unsigned frame_disp(asm_state *s, wl_rng *r)
{
    /* [rbp - 8k], as compilers lay out locals */
    int slots = s->frame / 8 ? s->frame / 8 : 1;
    return (unsigned)(256 - 8 * wl_rng_range(r, 1, slots)) & 0xff;
}

static void insn(asm_state *s, wl_rng *r)
{
    unsigned roll = wl_rng_below(r, 100);
    unsigned a = any_reg(r), b = any_reg(r);
    if (roll < 18) { /* mov [rbp-d], reg */
        emit(s, 0x48), emit(s, 0x89), emit(s, 0x45 | a << 3), emit(s, frame_disp(s, r));
    } else if (roll < 36) { /* mov reg, [rbp-d] */
        emit(s, 0x48), emit(s, 0x8b), emit(s, 0x45 | a << 3), emit(s, frame_disp(s, r));
    } else if (roll < 44) { /* mov reg, reg */
        emit(s, 0x48), emit(s, 0x89), emit(s, 0xc0 | a << 3 | b);
    } else if (roll < 50) { /* mov r32, imm32 (small constants dominate) */
        emit(s, 0xb8 + a);
        emit32(s, wl_rng_chance(r, 80) ? wl_rng_below(r, 256) : (uint32_t)wl_rng_next(r));
    } else if (roll < 58) { /* add/sub/and/or/cmp reg, imm8 */
        static const unsigned ops[] = {0, 5, 4, 1, 7};
        emit(s, 0x48), emit(s, 0x83), emit(s, 0xc0 | ops[wl_rng_below(r, 5)] << 3 | a);
        emit(s, wl_rng_below(r, 64));
    } else if (roll < 64) { /* add/sub/xor/imul reg, reg */
        static const unsigned ops[] = {0x01, 0x29, 0x31, 0x21, 0x09};
        emit(s, 0x48), emit(s, ops[wl_rng_below(r, 5)]), emit(s, 0xc0 | a << 3 | b);
    } else if (roll < 69) { /* lea reg, [rip + d32] */
        emit(s, 0x48), emit(s, 0x8d), emit(s, 0x05 | a << 3);
        emit32(s, 0x2000 + wl_rng_below(r, 0x4000) * 8 - here(s));
    } else if (roll < 75) { /* test/cmp then jcc rel8 */
        if (wl_rng_chance(r, 50))
            emit(s, 0x48), emit(s, 0x85), emit(s, 0xc0 | a << 3 | a);
        else
            emit(s, 0x48), emit(s, 0x39), emit(s, 0xc0 | a << 3 | b);
        static const unsigned cc[] = {0x74, 0x75, 0x7e, 0x7f, 0x7c, 0x7d, 0x76, 0x77};
        emit(s, cc[wl_rng_below(r, 8)]);
        emit(s, (unsigned)(wl_rng_chance(r, 70) ? wl_rng_range(r, 2, 60)
                                                : 256 - wl_rng_range(r, 8, 90)));
    } else if (roll < 78) { /* jcc rel32 */
        emit(s, 0x0f), emit(s, 0x84 + wl_rng_below(r, 12));
        emit32(s, (uint32_t)wl_rng_range(r, 16, 900));
    } else if (roll < 86) { /* call an earlier function: repeated offsets */
        uint32_t target = s->nfuncs ? s->funcs[wl_rng_below(r, (uint32_t)s->nfuncs)] : 0;
        if (s->nfuncs > 8 && wl_rng_chance(r, 40)) /* popular callees */
            target = s->funcs[wl_rng_below(r, 8)];
        emit(s, 0xe8);
        emit32(s, target - (here(s) + 4));
    } else if (roll < 90) { /* movzx r32, byte [reg + d8] */
        emit(s, 0x0f), emit(s, 0xb6), emit(s, 0x40 | a << 3 | (b == RSP ? RAX : b));
        emit(s, wl_rng_below(r, 32));
    } else if (roll < 93) { /* xor r32, r32 */
        emit(s, 0x31), emit(s, 0xc0 | a << 3 | a);
    } else if (roll < 96) { /* mov reg, [reg + d8] */
        emit(s, 0x48), emit(s, 0x8b), emit(s, 0x40 | a << 3 | (b == RSP ? RAX : b));
        emit(s, 8 * wl_rng_below(r, 8));
    } else { /* shl/shr/sar reg, imm8 */
        static const unsigned ops[] = {4, 5, 7};
        emit(s, 0x48), emit(s, 0xc1), emit(s, 0xc0 | ops[wl_rng_below(r, 3)] << 3 | a);
        emit(s, wl_rng_range(r, 1, 31));
    }
}

static void function(asm_state *s, wl_rng *r)
{
    if (s->nfuncs < (int)(sizeof s->funcs / sizeof s->funcs[0]))
        s->funcs[s->nfuncs++] = here(s);
    s->frame = 8 * wl_rng_range(r, 0, 12);
    int leaf = wl_rng_chance(r, 25);
    if (!leaf) {
        emit(s, 0xf3), emit(s, 0x0f), emit(s, 0x1e), emit(s, 0xfa); /* endbr64 */
        emit(s, 0x55);                                              /* push rbp */
        emit(s, 0x48), emit(s, 0x89), emit(s, 0xe5);                /* mov rbp, rsp */
        if (s->frame)
            emit(s, 0x48), emit(s, 0x83), emit(s, 0xec), emit(s, (unsigned)s->frame);
    }
    int n = leaf ? wl_rng_range(r, 3, 12) : wl_rng_range(r, 8, 70);
    for (int i = 0; i < n; i++)
        insn(s, r);
    if (!leaf)
        emit(s, s->frame ? 0xc9 : 0x5d); /* leave / pop rbp */
    emit(s, 0xc3);                       /* ret */
    /* Pad to 16 with the multi-byte nops assemblers use, or int3. */
    int fill = wl_rng_chance(r, 50);
    while (here(s) % 16) {
        unsigned left = 16 - here(s) % 16;
        if (!fill) {
            emit(s, 0xcc);
        } else if (left >= 5) {
            emit(s, 0x0f), emit(s, 0x1f), emit(s, 0x44), emit(s, 0x00), emit(s, 0x00);
        } else if (left >= 3) {
            emit(s, 0x0f), emit(s, 0x1f), emit(s, 0x00);
        } else {
            emit(s, 0x90);
        }
    }
}

void wl_code_write(wl_rng *r, wl_buf *out, size_t bytes)
{
    asm_state s = {.out = out, .base = out->size};
    while (out->size - s.base < bytes)
        function(&s, r);
}
