/* analysis: what the files of src/analysis share. The flow is one way:
 *
 *   analysis.c (open, accessors)
 *     -> analysis_elf.c    sections, symbols, relocations, data words
 *     -> analysis_decode.c the capstone sweep into instruction records
 *     -> analysis_funcs.c  function starts, extents, roots, address-taken
 *     -> analysis_graph.c  calls and edges, bursty's graph analysis, SCCs
 *     -> analysis_loops.c  back-edges, natural loops, nesting (per function)
 *          -> analysis_cfg.c   the function's basic blocks
 *   analysis_checks.c (placement), analysis_text.c, analysis_json.c and
 *   analysis_out.c (formatted output to a sink) read the finished result. */
#ifndef LP_ANALYSIS_INTERNAL_H
#define LP_ANALYSIS_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "lowprof/analysis.h"

/* Roles of a section. */
enum {
    LP__AN_OTHER = 0,
    LP__AN_CODE = 1, /* executable, decoded */
    LP__AN_PLT = 2,  /* .plt, .plt.sec, .plt.got, .iplt: calls here leave the file */
    LP__AN_DATA = 3, /* allocated, not executable, may hold code addresses */
};

/* Instruction kinds. */
enum {
    LP__I_PLAIN = 0,
    LP__I_CALL,     /* direct call; rel holds the target */
    LP__I_CALL_IND, /* indirect call */
    LP__I_JMP,      /* direct unconditional jump */
    LP__I_JCC,      /* direct conditional jump (jcc, loop, jrcxz) */
    LP__I_JMP_IND,  /* indirect jump, taken for a jump table */
    LP__I_JMP_SLOT, /* jmp *x(%rip): an indirect tail call */
    LP__I_RET,      /* ret, iret */
    LP__I_STOP,     /* hlt, ud2, int3: execution does not go on */
    LP__I_BAD,      /* bytes capstone could not decode, or cut by a function start */
};

/* One decoded instruction, 12 bytes: cc1's 5 M instructions fit in 60 MB. */
typedef struct lp__an_insn {
    uint32_t off; /* from the section's start */
    int32_t rel;  /* direct branches: target - (address + len) */
    uint8_t len;
    uint8_t kind; /* LP__I_* */
    uint8_t mem;  /* 1: an event of interest (a memory reference) */
} lp__an_insn;

typedef struct lp__an_sec {
    const char *name;
    uint32_t index;
    uint32_t type;
    uint64_t flags;
    uint64_t addr, size, offset;
    uint8_t role;
    const uint8_t *bytes; /* in the image; NULL for NOBITS */
    lp__an_insn *insns;   /* code sections */
    size_t n_insns;
} lp__an_sec;

/* A function symbol. */
typedef struct lp__an_sym {
    uint64_t addr, size;
    const char *name;
    uint8_t from;     /* LP_ANALYSIS_FROM_SYMTAB or _DYNSYM */
    uint8_t exported; /* a .dynsym definition, global or weak, default or protected */
    uint8_t global;   /* binding global (preferred as the name) */
    uint8_t ifunc;    /* STT_GNU_IFUNC */
} lp__an_sym;

/* An address the file takes or names, with how (LP_ANALYSIS_TAKEN_* or, with
 * taken 0, a root reason in root). */
typedef struct lp__an_ptr {
    uint64_t value;
    uint64_t site; /* where it was found: an instruction (code candidates) or a slot */
    uint8_t taken; /* LP_ANALYSIS_TAKEN_* */
    uint8_t root;  /* LP_ANALYSIS_ROOT_* */
    uint8_t to_rdi; /* code candidates: the instruction writes rdi or edi */
    uint8_t discover; /* may start a function where no symbol covers it */
} lp__an_ptr;

/* A growable array of elements of one size. */
typedef struct lp__an_vec {
    void *data;
    size_t count, cap, elem;
} lp__an_vec;

/* Per function, what only the analysis needs. */
typedef struct lp__an_fnx {
    uint32_t sec;    /* its code section */
    size_t i0, i1;   /* its instruction records, [i0, i1) of the section's */
} lp__an_fnx;

struct lp_analysis {
    char *name;
    const char *base; /* the name's last path component */
    uint8_t *image;
    size_t size;
    int elf_type; /* ET_EXEC or ET_DYN */
    int kind;     /* LP_ANALYSIS_EXEC / PIE / LIBRARY */
    uint64_t entry;
    uint64_t dt_init, dt_fini;
    int has_interp, has_soname, pie_flag;

    lp__an_sec *secs;
    size_t n_secs;
    lp__an_vec syms;  /* lp__an_sym */
    lp__an_vec ptrs;  /* lp__an_ptr from data, relocations and named entries */
    lp__an_vec cptrs; /* lp__an_ptr from instructions (rebuilt by each sweep) */
    lp__an_vec strs;  /* char * each lp_malloc'd, freed with the analysis */
    int have_main_symbol;

    lp_analysis_fn *fns;
    lp__an_fnx *fnx;
    uint32_t *fn_reach; /* fn_reach[i]: of functions 0..i, the one whose extent ends last */
    uint32_t n_fns;
    lp_bursty_call *calls; /* distinct, sorted */
    size_t n_calls;
    lp__an_vec loops;      /* lp_analysis_loop */
    lp__an_vec back_edges; /* lp_analysis_back_edge */
    uint32_t *scc_first;   /* n_sccs + 1 offsets into scc_members */
    uint32_t *scc_members;
    lp_analysis_summary sum;
};

/* ---- analysis.c: small shared helpers ---- */

/* Fills *err (may be NULL) as "NAME: message" and returns code. */
int lp__an_fail(const lp_analysis *a, lp_analysis_error *err, int code, int has_offset,
                uint64_t offset, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Makes room for one more element and returns it (zeroed), or NULL. */
void *lp__an_push(lp__an_vec *v);
void lp__an_vec_free(lp__an_vec *v);
/* A copy of s (n bytes) owned by a, or NULL. */
const char *lp__an_strdup(lp_analysis *a, const char *s, size_t n);
/* The section of role `role` (or any allocated one with role 0) holding
 * addr, or NULL. */
lp__an_sec *lp__an_sec_at(const lp_analysis *a, uint64_t addr, int role);

/* ---- analysis_elf.c ---- */
int lp__an_elf_read(lp_analysis *a, lp_analysis_error *err);

/* ---- analysis_decode.c ---- */
/* Sweeps every code section, restarting at each of the sorted addresses
 * syncs[0..n) it would otherwise step over, and rebuilds a->cptrs. */
int lp__an_decode(lp_analysis *a, const uint64_t *syncs, size_t n, lp_analysis_error *err);
/* The index of the first record of sec at or after addr. */
size_t lp__an_insn_lower(const lp__an_sec *sec, uint64_t addr);
static inline uint64_t lp__an_insn_addr(const lp__an_sec *sec, const lp__an_insn *in)
{
    return sec->addr + in->off;
}
static inline uint64_t lp__an_insn_target(const lp__an_sec *sec, const lp__an_insn *in)
{
    return sec->addr + in->off + in->len + (uint64_t)(int64_t)in->rel;
}

/* ---- analysis_funcs.c ---- */
int lp__an_funcs_build(lp_analysis *a, lp_analysis_error *err);
/* The function whose extent holds addr, or UINT32_MAX. */
uint32_t lp__an_fn_containing(const lp_analysis *a, uint64_t addr);

/* ---- analysis_graph.c ---- */
int lp__an_graph_build(lp_analysis *a, lp_analysis_error *err);

/* ---- analysis_cfg.c: one function's basic blocks ---- */
#define LP__AN_NONE UINT32_MAX
typedef struct lp__an_cfg {
    uint32_t n_blocks;
    uint32_t *first, *last; /* per block: its first and last record, from the function's i0 */
    uint32_t *succ;         /* per block: two successors, LP__AN_NONE for none */
    uint32_t *mem;          /* per block: memory references (events of interest) */
    uint32_t *insns;        /* per block: instructions */
    uint8_t *calls;         /* per block: holds a call */
    /* scratch */
    uint8_t *leader;
    uint32_t *blk_of;
    size_t cap_insns, cap_blocks;
} lp__an_cfg;
/* Builds the blocks of the records [i0, i1) of s, a function whose extent
 * is [lo, hi). c is reused across calls; free with lp__an_cfg_free. */
int lp__an_cfg_build(lp__an_cfg *c, const lp__an_sec *s, size_t i0, size_t i1, uint64_t lo,
                     uint64_t hi);
void lp__an_cfg_free(lp__an_cfg *c);

/* ---- analysis_loops.c ---- */
int lp__an_loops_build(lp_analysis *a, lp_analysis_error *err);

/* ---- analysis_checks.c ---- */
/* The reason of d without its numbers, for grouping decisions. */
size_t lp__an_decision_label(const lp_analysis_decision *d, char *buf, size_t cap);
/* Decisions grouped by whether they check and their label, the checks
 * first, then by count (largest first). Returns how many groups (<= cap). */
typedef struct lp__an_tally {
    uint8_t check;
    uint32_t count;
    char label[120];
} lp__an_tally;
size_t lp__an_tally_build(const lp_analysis_decision *d, size_t n, lp__an_tally *out, size_t cap);
/* A name for a file kind: "executable", "position-independent executable",
 * "shared library". */
const char *lp__an_kind_name(int kind);
/* The k the reports use for "k-boring": the placement's, or the paper's 4
 * for a placement that does not skip boring loops. */
static inline uint32_t lp__an_report_k(const lp_bursty_placement *p)
{
    return p->loop == LP_BURSTY_LOOP_SKIP_BORING ? p->k : 4;
}

/* ---- analysis_out.c: formatted output to a sink, first error kept ---- */
typedef struct lp__an_out {
    lp_sink *sink;
    int rc;
} lp__an_out;
void lp__an_printf(lp__an_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lp__an_puts(lp__an_out *o, const char *s);
/* s as a JSON string, quotes included; invalid UTF-8 becomes U+FFFD. */
void lp__an_json_string(lp__an_out *o, const char *s);
/* s for a text line: control characters become '?'. */
void lp__an_text_name(lp__an_out *o, const char *s);

#endif
