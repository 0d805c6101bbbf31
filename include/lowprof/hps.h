/* lowprof hps: Hybrid Profiling Support.
 *
 * Implements Mousa, Krintz, Sherwood et al.'s HPS (paper 000, section 3):
 * the production language of an ACF (patterns over instruction attributes,
 * conditional control on the zero and overflow flags of a few counters,
 * micro-operations inc/dec/set, replacement sequences and null), the counter
 * engine, the three profile handlers of Fig. 6, the software step a plain
 * DISE machine runs instead of conditional control, and the software
 * sampling framework (Arnold and Ryder; section 3.4) that the counter trigger
 * is checked against.
 *
 * Freestanding: the Valgrind tool compiles it again with its own flags, and
 * the engine code it runs is this code. The language is documented in
 * doc/acf.md.
 *
 * Semantics, in one place (doc/acf.md explains them):
 * - every instruction is matched against every production, in file order;
 * - a pattern reads the flags as they were before the instruction (one
 *   snapshot), so the micro-operations of one production cannot change which
 *   other productions match the same instruction;
 * - every matching production applies its micro-operations, in order, and
 *   queues its replacement's handler calls; the program's own instruction
 *   then runs once. A null replacement is a failed match that still ran its
 *   micro-operations. */
#ifndef LOWPROF_HPS_H
#define LOWPROF_HPS_H

#include <stddef.h>
#include <stdint.h>

#include "lowprof/core.h"

/* Limits of the engine. Three counters give six flags, so a pattern's
 * truth table over them is one 64-bit word (the paper's n x 1 CT memory
 * with n = 16 for two counters). */
#define LP_HPS_MAX_COUNTERS 3
#define LP_HPS_FLAG_STATES 64 /* 1 << (2 * LP_HPS_MAX_COUNTERS) */
#define LP_HPS_MAX_WIDTH 32
#define LP_HPS_DEFAULT_WIDTH 16
#define LP_HPS_MAX_REGS 16
#define LP_HPS_MAX_OPS 4       /* micro-operations per production */
#define LP_HPS_MAX_CALLS 4     /* handler calls per replacement */
#define LP_HPS_MAX_PRODUCTIONS 64
#define LP_HPS_MAX_REPLACEMENTS 32
#define LP_HPS_MAX_WARNINGS 8
#define LP_HPS_LABEL_MAX 16

/* The flag word: bit 2c is zero_c, bit 2c + 1 is overflow_c. */
#define LP_HPS_ZERO_BIT(c) (1u << (2 * (c)))
#define LP_HPS_OVERFLOW_BIT(c) (1u << (2 * (c) + 1))

/* ---- instructions ------------------------------------------------------- */

/* Instruction classes, as bits: one instruction may be several (an indirect
 * call through memory is a call and a load). The pattern names map onto them
 * in doc/acf.md: branch = COND|JUMP|IJUMP, proc_call = call = CALL|ICALL,
 * indirect = IJUMP|ICALL, uncond_branch = JUMP|IJUMP. */
enum {
    LP_HPS_COND = 1u << 0,  /* conditional branch */
    LP_HPS_JUMP = 1u << 1,  /* direct unconditional jump */
    LP_HPS_IJUMP = 1u << 2, /* indirect jump */
    LP_HPS_CALL = 1u << 3,  /* direct call */
    LP_HPS_ICALL = 1u << 4, /* indirect call */
    LP_HPS_RET = 1u << 5,
    LP_HPS_LOAD = 1u << 6,
    LP_HPS_STORE = 1u << 7,
};

/* T.OP: the trigger operations; every other instruction is LP_HPS_OP_NONE. */
typedef enum lp_hps_op {
    LP_HPS_OP_NONE = 0,
    LP_HPS_OP_ON = 1,  /* on_trig_inst */
    LP_HPS_OP_OFF = 2, /* off_trig_inst */
} lp_hps_op;

/* What the decoder knows of one instruction. target is the static target;
 * has_target is 0 for indirect transfers, returns and non-branches, and any
 * comparison that reads T.TARGET is then false (a decoder cannot know it). */
typedef struct lp_hps_insn {
    uint64_t pc;
    uint64_t target;
    unsigned classes; /* LP_HPS_* class bits */
    unsigned op;      /* lp_hps_op */
    int has_target;
} lp_hps_insn;

/* ---- the ACF ------------------------------------------------------------ */

typedef enum lp_hps_handler {
    LP_HPS_H_BRANCH = 1,    /* Branch_handler: hot code region */
    LP_HPS_H_METHOD = 2,    /* HotMethod_handler: hot method */
    LP_HPS_H_CALL_PAIR = 3, /* CallPair_handler: hot call pair */
    LP_HPS_H_MAX = 3,
} lp_hps_handler;

typedef enum lp_hps_uop_kind {
    LP_HPS_UOP_INC = 1,
    LP_HPS_UOP_DEC = 2,
    LP_HPS_UOP_SET = 3, /* counter = register */
} lp_hps_uop_kind;

typedef struct lp_hps_uop {
    uint8_t kind;    /* lp_hps_uop_kind */
    uint8_t counter;
    uint8_t reg;     /* SET only */
} lp_hps_uop;

typedef struct lp_hps_production {
    char label[LP_HPS_LABEL_MAX]; /* as written ("P0"); labels may repeat */
    unsigned line;
    int pattern;                  /* root node in the ACF's node pool */
    lp_hps_uop ops[LP_HPS_MAX_OPS];
    unsigned nops;                /* 0: conditional control null */
    int replacement;              /* index into replacements, or -1 for null */
    int control_first;            /* written "control, replacement" */
} lp_hps_production;

typedef struct lp_hps_replacement {
    char label[LP_HPS_LABEL_MAX]; /* "R1" */
    unsigned line;
    uint8_t calls[LP_HPS_MAX_CALLS]; /* lp_hps_handler, in order */
    unsigned ncalls;
} lp_hps_replacement;

typedef struct lp_hps_counter {
    unsigned width; /* bits, 1..LP_HPS_MAX_WIDTH */
    int init_reg;   /* register holding the initial value, or -1 */
    uint64_t init;  /* the initial value when init_reg is -1 */
} lp_hps_counter;

typedef struct lp_hps_diag {
    unsigned line;   /* 1-based */
    unsigned column; /* 1-based, in bytes */
    char message[160];
} lp_hps_diag;

struct lp_hps_node; /* the pattern expressions (src/hps) */

/* A parsed ACF. Holds no pointers into the text it was parsed from. */
typedef struct lp_hps_acf {
    lp_hps_production prod[LP_HPS_MAX_PRODUCTIONS];
    size_t nprod;
    lp_hps_replacement repl[LP_HPS_MAX_REPLACEMENTS];
    size_t nrepl;
    lp_hps_counter counter[LP_HPS_MAX_COUNTERS];
    unsigned ncounters;            /* 1 + the highest counter used or declared */
    uint64_t reg[LP_HPS_MAX_REGS]; /* HPS_Rk; a register no line sets holds k */
    struct lp_hps_node *nodes;     /* lp_malloc'd pool */
    size_t nnodes;
    lp_hps_diag warning[LP_HPS_MAX_WARNINGS];
    size_t nwarnings;
} lp_hps_acf;

/* Parses an ACF from text[0..len) into out (caller memory). Returns 0, or
 * LP_ESPEC with err set to the first error's line, column and message (out
 * then holds nothing to free), or LP_ENOMEM. Warnings (accepted but
 * doubtful input, such as Fig. 6's missing operator) go to out->warning. */
int lp_hps_parse(const char *text, size_t len, lp_hps_acf *out, lp_hps_diag *err);
/* Frees the node pool. Accepts NULL and a zeroed acf. */
void lp_hps_acf_free(lp_hps_acf *acf);
/* Sets register HPS_R<k> by name ("HPS_R2") to value, as a command line
 * override. Returns 0 or LP_EINVAL for a name that is not a register. */
int lp_hps_set_register(lp_hps_acf *acf, const char *name, size_t len, uint64_t value);
/* Writes the production table (counters, registers, productions with their
 * patterns re-printed in full form, replacements) as text. 0 or the sink's
 * error. */
int lp_hps_print(const lp_hps_acf *acf, lp_sink *sink);
const char *lp_hps_handler_name(unsigned handler);

/* ---- matching ----------------------------------------------------------- */

/* Evaluates production p's pattern on insn with the flag word flags. */
int lp_hps_eval(const lp_hps_acf *acf, size_t p, const lp_hps_insn *insn, unsigned flags);
/* The production's truth table on insn: bit f is set when its pattern holds
 * with flag word f. 0 means it can never match this instruction; all flag
 * states of the ACF's counters set means it always matches. */
uint64_t lp_hps_when(const lp_hps_acf *acf, size_t p, const lp_hps_insn *insn);
/* Every flag word the ACF's counters can produce, as a truth table: a
 * production whose table covers it needs no flag check. */
uint64_t lp_hps_all_states(const lp_hps_acf *acf);

/* ---- the counters ------------------------------------------------------- */

typedef struct lp_hps_state {
    uint64_t value[LP_HPS_MAX_COUNTERS];
    uint64_t mask[LP_HPS_MAX_COUNTERS]; /* 2^width - 1 */
    uint64_t flags;                     /* the flag word */
    uint64_t uops;                      /* micro-operations applied */
} lp_hps_state;

/* Sets every counter to its initial value; overflow flags clear. */
void lp_hps_state_init(lp_hps_state *s, const lp_hps_acf *acf);
/* Applies one micro-operation. inc wraps from the maximum to 0 and dec from
 * 0 to the maximum, each setting the counter's sticky overflow flag; set
 * loads a register (masked to the width) and clears it. zero tracks the
 * value. */
void lp_hps_apply(lp_hps_state *s, const lp_hps_acf *acf, const lp_hps_uop *op);
/* One instruction in software: takes the flag snapshot, applies the
 * micro-operations of the productions prods[0..n) whose tables when[0..n)
 * hold for it, and returns the bit mask (bit i for prods[i]) of those that
 * matched. n <= 64. This is the DISE machine's check, run in its handler. */
uint64_t lp_hps_step(lp_hps_state *s, const lp_hps_acf *acf, const uint8_t *prods,
                     const uint64_t *when, size_t n);
/* A trigger instruction (a client request, or the daemon's toggle) in
 * either mode: applies the micro-operations of every production matching
 * T.OP == op. Trigger instructions call no handler. Returns the number of
 * productions that matched. */
size_t lp_hps_trigger(lp_hps_state *s, const lp_hps_acf *acf, lp_hps_op op);

/* ---- the profile handlers ----------------------------------------------- */

/* The profiles the three handlers build, in core's profile shapes:
 * code-region (branch pc; executions, instructions since the previous
 * branch), method (entry; invocations, backward branches taken) and
 * call-pair (site, callee; calls, 0). */
typedef struct lp_hps_profiles {
    lp_table code_region;
    lp_table method;
    lp_table call_pair;
    uint64_t calls[LP_HPS_H_MAX + 1]; /* handler invocations that recorded */
    int failed;                       /* an allocation failed: counts are short */
} lp_hps_profiles;

int lp_hps_profiles_init(lp_hps_profiles *p);
void lp_hps_profiles_fini(lp_hps_profiles *p);
void lp_hps_on_branch(lp_hps_profiles *p, uint64_t pc, uint64_t insns_since);
/* A method invocation (backward 0, entry = the callee) or a backward branch
 * taken inside the method at entry (backward 1). */
void lp_hps_on_method(lp_hps_profiles *p, uint64_t entry, int backward);
void lp_hps_on_call_pair(lp_hps_profiles *p, uint64_t site, uint64_t callee);

/* ---- the software sampling framework ------------------------------------ */

/* Arnold and Ryder's counter-based sampling with Hirzel and Chilimbi's
 * bursts, as software would run it: checks (calls and backward branches)
 * count down n_check in the checking code; at zero the code switches to the
 * instrumented copy for n_instr checks, then back. The reference the HPS
 * counter trigger (share/lowprof/acf/bursty-*.acf) is tested against. */
typedef struct lp_hps_ar {
    uint64_t n_check; /* checks between bursts */
    uint64_t n_instr; /* checks in a burst */
    uint64_t left;    /* checks left in the current mode */
    int sampling;     /* in the instrumented copy */
    uint64_t checks;
    uint64_t bursts;
} lp_hps_ar;

/* n_check and n_instr at least 1. */
void lp_hps_ar_init(lp_hps_ar *a, uint64_t n_check, uint64_t n_instr);
/* One check point: counts down and switches copies at zero. */
void lp_hps_ar_check(lp_hps_ar *a);

#endif
