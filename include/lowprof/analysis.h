/* lowprof analysis: the static facts bursty tracing's check placement
 * needs, read from an x86-64 ELF executable or shared library (Hirzel and
 * Chilimbi, "Bursty Tracing", sections 4.1 and 4.2), and the placement
 * itself with a reason for every decision.
 *
 * What it extracts:
 *   - functions, from .symtab (else .dynsym) and from code that a direct
 *     call, or an address the program takes, reaches where no symbol covers
 *     it (named "FILE+0xADDR", ADDR the link-time address);
 *   - the direct call graph of section 4.1 (edge (f, g) when f's code
 *     holds a direct call or a direct jump into g), the calls that leave
 *     the file (PLT) and the indirect ones, leaves, roots and address-taken
 *     functions, with the rules below;
 *   - per function, basic blocks, back-edges (by depth-first search from the
 *     entry block), natural loops with their nesting, and per loop the
 *     events of interest (memory references) and whether it calls;
 *   - the analyses of bursty.h on that graph (strongly connected components,
 *     recursion from below, the set C of equation (3)) and, for any
 *     lp_bursty_placement, which procedure entries and which loop
 *     back-edges get a check, and why.
 *
 * Rules where the paper leaves a choice (each also stated where it is used):
 *   - Leaf: a function is a leaf when its code holds no call at all
 *     (direct, through the PLT, or indirect) and no jump that leaves it
 *     (a tail call, or a jump into a split-off part such as foo.cold).
 *     "A procedure that calls nothing" (4.1): an external or indirect call
 *     may come back into the file, so only a function that calls nothing
 *     is certain not to lie on a recursive cycle.
 *   - Edges: a direct call or a direct jump from f into g's code gives the
 *     edge (f, g) (g is the function whose code holds the target). A call
 *     into .plt, .plt.sec, .plt.got or .iplt is an external call and gives
 *     no edge; an indirect call gives no edge. An indirect jump through a
 *     RIP-relative slot (jmp *x(%rip), a GOT entry) is an indirect tail
 *     call; every other indirect jump is taken for a jump table, whose
 *     targets are not followed (code reached only through a jump table
 *     forms no blocks of the CFG, so its loops are not seen).
 *   - Roots ("only called from the outside world", 4.1): the function at
 *     the entry point e_entry; main (by symbol, or in a file without a
 *     symbol for it, the function whose address the entry function puts in
 *     rdi, the first argument of __libc_start_main, before its first call);
 *     the functions in .preinit_array, .init_array and .fini_array and at
 *     DT_INIT and DT_FINI; IFUNC resolvers; and in a shared library every
 *     function the dynamic symbol table exports (global or weak, default or
 *     protected visibility). An executable's exported functions are not
 *     roots: its own code calls them.
 *   - Address-taken: a function whose start address is stored in data (in
 *     an ET_EXEC file, any 8-byte aligned word of a non-executable
 *     allocated section other than .eh_frame, .eh_frame_hdr and
 *     .gcc_except_table; in a position-independent file the address needs
 *     a relocation, so only relocations and RELR entries are read), named
 *     by a relocation (R_X86_64_RELATIVE/RELATIVE64 addends; R_X86_64_64,
 *     GLOB_DAT and JUMP_SLOT against a function the file defines), loaded
 *     by a RIP-relative lea, or (ET_EXEC only, where code sits at a fixed
 *     address) used as an instruction's immediate. Exported functions are
 *     roots, not address-taken, unless one of these holds too.
 *   - Events of interest (4.2) are memory references, the data references
 *     of the paper's hot data streams: instructions with an explicit memory
 *     operand, except lea, nop and prefetch, counted once per instruction
 *     in the loop's body, nested loops included. The stack traffic of
 *     push, pop, call and ret is not counted.
 *   - A loop is one natural loop per header: the union of the bodies of the
 *     back-edges into it (under irreducible flow, only the blocks the header
 *     reaches, so the code before the loop stays out). Its parent is the
 *     innermost loop with a larger body that holds its header. Each
 *     back-edge is a place for a check; all the back-edges of one loop get
 *     the same decision.
 *
 * Robustness: any input, however damaged, gives either an analysis or an
 * error with a code and a message that names the file and what is wrong
 * (and the offset where one makes sense); nothing is trusted that the file
 * says about sizes and offsets.
 *
 * Tuned for: large binaries (gcc's cc1, 20 MB of code) in a few seconds:
 * one linear capstone sweep per code section, compact instruction records,
 * and per-function CFG work in reused scratch memory.
 *
 * Hosted: libelf (elfutils) and capstone; memory through lp_malloc. */
#ifndef LOWPROF_ANALYSIS_H
#define LOWPROF_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "lowprof/bursty.h"
#include "lowprof/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One analysed file. Opaque; create with lp_analysis_open_file or
 * lp_analysis_open_memory, free with lp_analysis_free. */
typedef struct lp_analysis lp_analysis;

/* Why an analysis could not be made. */
typedef struct lp_analysis_error {
    int code;           /* LP_E*: LP_EFORMAT, LP_ETRUNC, LP_ENOENT, LP_EIO, LP_ELIMIT, LP_ENOMEM */
    int has_offset;     /* offset below is meaningful */
    uint64_t offset;    /* file offset of the problem */
    char message[512];  /* "NAME: what is wrong", NUL-terminated */
} lp_analysis_error;

/* Reads the file at path and analyses it. Returns 0 with *out set, or a
 * negative LP_E* code with *out NULL and *err filled (err may be NULL).
 * Reentrant; not async-signal-safe. */
int lp_analysis_open_file(const char *path, lp_analysis **out, lp_analysis_error *err);

/* The same over size bytes at data (copied; the caller keeps data). name
 * stands for the file in messages and synthetic function names. */
int lp_analysis_open_memory(const char *name, const void *data, size_t size, lp_analysis **out,
                            lp_analysis_error *err);

/* Frees a; accepts NULL. */
void lp_analysis_free(lp_analysis *a);

/* ---- the file and its functions ------------------------------------------------ */

/* What kind of file it is. */
enum {
    LP_ANALYSIS_EXEC = 1,    /* ET_EXEC: an executable at a fixed address */
    LP_ANALYSIS_PIE = 2,     /* ET_DYN that is an executable (DF_1_PIE, or PT_INTERP without DT_SONAME) */
    LP_ANALYSIS_LIBRARY = 3, /* any other ET_DYN: a shared library */
};

/* Where a function's start came from (bits). */
enum {
    LP_ANALYSIS_FROM_SYMTAB = 1u << 0,  /* a .symtab function symbol */
    LP_ANALYSIS_FROM_DYNSYM = 1u << 1,  /* a .dynsym function symbol */
    LP_ANALYSIS_FROM_CALL = 1u << 2,    /* the target of a direct call no symbol covers */
    LP_ANALYSIS_FROM_POINTER = 1u << 3, /* a code address the file takes (relocation, lea, immediate) */
    LP_ANALYSIS_FROM_ROOT = 1u << 4,    /* an entry the file names (e_entry, init/fini, DT_INIT/FINI) */
};

/* Why a function is a root (bits). */
enum {
    LP_ANALYSIS_ROOT_ENTRY = 1u << 0,    /* holds e_entry */
    LP_ANALYSIS_ROOT_MAIN = 1u << 1,     /* main, by symbol or as __libc_start_main's argument */
    LP_ANALYSIS_ROOT_INIT = 1u << 2,     /* in .preinit_array or .init_array, or at DT_INIT */
    LP_ANALYSIS_ROOT_FINI = 1u << 3,     /* in .fini_array, or at DT_FINI */
    LP_ANALYSIS_ROOT_EXPORTED = 1u << 4, /* exported by a shared library */
    LP_ANALYSIS_ROOT_IFUNC = 1u << 5,    /* an IFUNC resolver, run by the dynamic loader */
};

/* How a function's address is taken (bits). */
enum {
    LP_ANALYSIS_TAKEN_DATA = 1u << 0,  /* a data word (ET_EXEC) or a RELR entry */
    LP_ANALYSIS_TAKEN_RELOC = 1u << 1, /* a dynamic relocation */
    LP_ANALYSIS_TAKEN_LEA = 1u << 2,   /* a RIP-relative lea */
    LP_ANALYSIS_TAKEN_IMM = 1u << 3,   /* an instruction immediate (ET_EXEC) */
};

/* One function. Strings live as long as the analysis. */
typedef struct lp_analysis_fn {
    const char *name;  /* symbol name, or "FILE+0xADDR" */
    uint64_t addr;     /* link-time start address */
    uint64_t size;     /* bytes: the symbol's size, else up to the next function or section end */
    uint8_t flags;     /* LP_BURSTY_FN_LEAF | ROOT | ADDR_TAKEN, as given to lp_bursty_graph */
    uint8_t from;      /* LP_ANALYSIS_FROM_* */
    uint8_t root_why;  /* LP_ANALYSIS_ROOT_* */
    uint8_t taken_why; /* LP_ANALYSIS_TAKEN_* */
    uint32_t insns;    /* instructions decoded in its extent */
    uint32_t blocks;   /* basic blocks reachable from its entry */
    uint32_t direct_calls;   /* direct call sites into this file's functions */
    uint32_t external_calls; /* call sites into the PLT (or to no function of the file) */
    uint32_t indirect_calls; /* indirect call sites */
    uint32_t tail_jumps;     /* jumps that leave it: direct, PLT, or through a RIP-relative slot */
    uint32_t first_loop;     /* its loops are first_loop .. first_loop + loops - 1 */
    uint32_t loops;
    lp_bursty_fn_facts facts; /* from lp_bursty_graph_analyse */
} lp_analysis_fn;

/* One natural loop. */
typedef struct lp_analysis_loop {
    uint32_t fn;          /* its function */
    uint64_t header;      /* address of the header block */
    uint32_t depth;       /* 1 for an outermost loop */
    uint32_t parent;      /* the innermost enclosing loop, or UINT32_MAX */
    uint32_t blocks;      /* blocks in the body, nested loops included */
    uint32_t insns;       /* instructions in the body */
    uint32_t first_back_edge; /* its back-edges: first_back_edge .. + back_edges - 1 */
    uint32_t back_edges;
    lp_bursty_loop facts; /* events (memory references) and has_call, for bursty.h */
} lp_analysis_loop;

/* One back-edge: the branch (or fall-through) at the end of block `from`
 * that goes back to the loop's header. */
typedef struct lp_analysis_back_edge {
    uint32_t loop;
    uint64_t from; /* address of the last instruction of the source block */
    uint64_t to;   /* the header's address */
} lp_analysis_back_edge;

/* Totals over the file. */
typedef struct lp_analysis_summary {
    int kind;                 /* LP_ANALYSIS_EXEC, _PIE or _LIBRARY */
    uint64_t entry;           /* e_entry */
    uint32_t code_sections;   /* executable sections decoded (PLT sections excluded) */
    uint64_t code_bytes;
    uint64_t insns;           /* instructions decoded */
    uint64_t bad_bytes;       /* bytes capstone could not decode */
    uint32_t fns;
    uint32_t fns_symbol;      /* from .symtab or .dynsym */
    uint32_t fns_call;        /* found as direct call targets only */
    uint32_t fns_pointer;     /* found as taken code addresses or named entries only */
    uint32_t edges;           /* distinct (caller, callee) pairs */
    uint64_t direct_calls, external_calls, indirect_calls, tail_jumps;
    uint32_t roots, leaves, addr_taken;
    uint32_t sccs;            /* components with more than one member or a self-loop */
    uint32_t recursion_from_below;
    uint32_t set_c;           /* |C| of equation (3) */
    uint32_t loops, back_edges, max_depth;
} lp_analysis_summary;

/* Accessors (a must not be NULL; pointers stay valid until
 * lp_analysis_free). Indices run 0 .. count - 1; functions are sorted by
 * address, loops by function then header, back-edges by loop. A bad index
 * returns NULL. Pure: any number of threads may read one analysis. */
const lp_analysis_summary *lp_analysis_summary_get(const lp_analysis *a);
const char *lp_analysis_name(const lp_analysis *a); /* the name given at open */
const lp_analysis_fn *lp_analysis_fn_get(const lp_analysis *a, uint32_t i);
const lp_analysis_loop *lp_analysis_loop_get(const lp_analysis *a, uint32_t i);
const lp_analysis_back_edge *lp_analysis_back_edge_get(const lp_analysis *a, uint32_t i);
/* The direct call graph's distinct edges, sorted by caller then callee. */
size_t lp_analysis_edges(const lp_analysis *a, const lp_bursty_call **out);
/* The index of the function starting exactly at addr, or UINT32_MAX. */
uint32_t lp_analysis_fn_at(const lp_analysis *a, uint64_t addr);
/* The first function named name (symbol or synthetic), or UINT32_MAX; a
 * linear search. */
uint32_t lp_analysis_fn_find(const lp_analysis *a, const char *name);

/* Strongly connected components with more than one member or a self-loop:
 * lp_analysis_scc_get(a, i, &members) returns the size of component i
 * (0 .. summary.sccs - 1, ordered by their smallest function index) and
 * points *members at its function indices, ascending; 0 for a bad i. */
uint32_t lp_analysis_scc_get(const lp_analysis *a, uint32_t i, const uint32_t **members);

/* ---- placement ------------------------------------------------------------------ */

/* Why a decision is what it is. */
enum {
    LP_ANALYSIS_WHY_ENTRY_ALL = 1,  /* orig: every procedure entry */
    LP_ANALYSIS_WHY_LEAF,           /* no check: a leaf calls nothing (EL, EC) */
    LP_ANALYSIS_WHY_CALLS,          /* check: not a leaf (EL) */
    LP_ANALYSIS_WHY_IN_C,           /* check: in C; `because` says why */
    LP_ANALYSIS_WHY_NOT_IN_C,       /* no check: not a leaf, but not in C */
    LP_ANALYSIS_WHY_ENTRY_NONE,     /* EN: no entry checks */
    LP_ANALYSIS_WHY_LOOP_ALL,       /* orig: every back-edge */
    LP_ANALYSIS_WHY_BORING,         /* no check: k-boring */
    LP_ANALYSIS_WHY_HAS_CALL,       /* check: the loop calls */
    LP_ANALYSIS_WHY_MANY_EVENTS,    /* check: more than k events */
    LP_ANALYSIS_WHY_LOOP_NONE,      /* LN: no back-edge checks */
};

/* Bits of lp_analysis_decision.because for LP_ANALYSIS_WHY_IN_C. */
enum {
    LP_ANALYSIS_C_ROOT = 1u << 0,
    LP_ANALYSIS_C_ADDR_TAKEN = 1u << 1,
    LP_ANALYSIS_C_RECURSION = 1u << 2, /* recursion from below */
};

typedef struct lp_analysis_decision {
    uint8_t check;   /* 1: a check goes here */
    uint8_t reason;  /* LP_ANALYSIS_WHY_* */
    uint8_t because; /* LP_ANALYSIS_C_* for LP_ANALYSIS_WHY_IN_C */
    uint8_t has_call; /* loops: the body calls */
    uint32_t events; /* loops: events of interest in the body */
    uint32_t k;      /* loops: the placement's k */
} lp_analysis_decision;

/* The decisions for one placement: entry[f] for every function, and
 * back_edge[e] for every back-edge. */
typedef struct lp_analysis_placement {
    lp_bursty_placement placement;
    lp_analysis_decision *entry;     /* summary.fns of them */
    lp_analysis_decision *back_edge; /* summary.back_edges of them */
    uint32_t entry_checks;
    uint32_t back_edge_checks;
    uint32_t boring_loops;           /* loops with no check and no instrumentation */
} lp_analysis_placement;

/* Decides every procedure entry and back-edge for placement p, using
 * lp_bursty_entry_has_check and lp_bursty_loop_placement. Returns 0 with
 * *out filled (free with lp_analysis_placement_free), LP_EINVAL for an
 * unknown placement value, or LP_ENOMEM. Reentrant. */
int lp_analysis_place(const lp_analysis *a, const lp_bursty_placement *p,
                      lp_analysis_placement *out);

/* Frees what lp_analysis_place allocated and zeroes *pl; accepts NULL. */
void lp_analysis_placement_free(lp_analysis_placement *pl);

/* Writes the reason for d as people read it ("leaf", "root, address-taken",
 * "k-boring (3 events <= 4, no call)") into buf, NUL-terminated and
 * truncated to cap; returns the length the whole text needs, as snprintf.
 * Pure. */
size_t lp_analysis_decision_text(const lp_analysis_decision *d, char *buf, size_t cap);

/* ---- reports -------------------------------------------------------------------- */

/* Writes the report of `lowprof analyze checks` (doc/lowprof-analyze.md)
 * for pl, made by lp_analysis_place on a: the call graph summary, SCCs,
 * recursion from below, the set C, loops and k-boring loops, the counts of
 * checks, and the decisions grouped by reason; with all set, every
 * function and every back-edge with its decision. Returns 0 or the sink's
 * error. */
int lp_analysis_write_text(const lp_analysis *a, const lp_analysis_placement *pl, int all,
                           lp_sink *out);

/* The same as one JSON object (valid UTF-8: bytes of names that are not
 * UTF-8 become U+FFFD). With all set it holds the "functions", "edges" and
 * "loops" arrays too. Returns 0 or the sink's error. Both writers only
 * read a and pl. */
int lp_analysis_write_json(const lp_analysis *a, const lp_analysis_placement *pl, int all,
                           lp_sink *out);

#ifdef __cplusplus
}
#endif
#endif
