/* One function's IR read into statements, blocks, values and its graph:
 * the rewrite for bursty tracing, shared by cc_bursty_fn.c (reading its
 * statements, writing its two copies and checks) and cc_bursty_cfg.c (its
 * graph, loops and liveness), and the copies' loops in two versions
 * (cc_loops.c), which reads functions the same way. Private to
 * src/frontends/cc. */
#ifndef LP_CC_BURSTY_FN_H
#define LP_CC_BURSTY_FN_H

#include <stddef.h>
#include <stdint.h>

#include "cc_bursty.h"

/* An interning table of local names (without '%'): name -> dense id. */
typedef struct lp__cc_btnames {
    lp_cc_line *key;
    size_t n, cap;
    uint32_t *slot; /* id + 1, 0 empty */
    size_t nslots;
} lp__cc_btnames;

/* A statement: its text (one line, or several for a switch) without the
 * leading spaces. */
typedef struct lp__cc_btstmt {
    const char *p;
    size_t n;
    long def;       /* the value it defines (names id), -1 */
    uint8_t alloca; /* a stack slot of the entry block */
    uint8_t ref;    /* a load or store the copy reports */
    uint8_t call;   /* calls a function */
    uint8_t dbg;    /* a call of a debug intrinsic (dropped from the copy) */
} lp__cc_btstmt;

/* A block: its statements, edges, place in the graph and the loop
 * decisions that concern it. */
typedef struct lp__cc_btblock {
    lp_cc_line label; /* without '%' */
    size_t s0, ns;    /* statements */
    size_t *succ, nsucc;
    size_t *pred, npred;
    long rpo; /* reverse postorder number, -1 when unreachable */
    size_t idom;
    uint32_t events; /* statements with ref */
    uint8_t has_call;
    uint8_t record;   /* its copy reports references (no enclosing loop is boring) */
    long check;       /* this header's loop check number, -1 */
    long latch_of;    /* a back-edge from here goes to this header's check, -1 */
    char loop_md[32]; /* a header's `, !llvm.loop !N`, moved to its check */
} lp__cc_btblock;

/* The function being rewritten. */
typedef struct lp__cc_btfn {
    const lp_cc_bt_module *m;
    const lp_cc_line *lines;
    size_t nlines;
    lp__cc_btstmt *st;
    size_t nst, capst;
    lp__cc_btblock *bl;
    size_t nbl, capbl;
    lp__cc_btnames vals; /* every value a statement defines, and the arguments */
    uint8_t *shared;     /* per value id: the same in both copies */
    long *def_stmt;      /* per value id: its statement, -1 for an argument */
    long *def_block;     /* per value id: its statement's block, -1 */
    uint64_t *live_in;   /* bt_liveness's sets, NULL until needed */
    size_t live_words;
    lp__cc_btnames labels;
    size_t *order; /* blocks in reverse postorder */
    size_t norder;
    char entry_label[32];
} lp__cc_btfn;

/* The id of a local name (len bytes, without '%'), or -1. */
long lp__cc_bt_find(const lp__cc_btnames *t, const char *p, size_t n);
/* The id of a name, added when new; -1 without memory. */
long lp__cc_bt_intern(lp__cc_btnames *t, const char *p, size_t n);
/* The local name at p[0] == '%' (not quoted): its length without '%'. */
size_t lp__cc_bt_local(const char *p, const char *end);
/* Whether [p, end) starts with s. */
int lp__cc_bt_starts(const char *p, const char *end, const char *s);
/* The text after `%x = ` (or the whole statement). */
lp_cc_line lp__cc_bt_rhs(const lp__cc_btstmt *s);

/* Reads the function whose text (define line to `}`, numbered values
 * already named) is lines[0, n) into f: statements, blocks, values and
 * their definitions, edges, reverse postorder, dominators. Returns 0; 1
 * for a body no rewrite takes (indirect branches, dynamic stack
 * allocation, exception handling, quoted local names, long labels); -1
 * without memory. f is freed by lp__cc_bt_free whatever the result. */
int lp__cc_bt_read(lp__cc_btfn *f, const lp_cc_bt_module *m, const lp_cc_line *lines, size_t n);
void lp__cc_bt_free(lp__cc_btfn *f);
/* The length of the loop identity `, !llvm.loop !N` that starts at s, or
 * 0. */
size_t lp__cc_bt_loop_md(const char *s, const char *end);
/* The length of the IR type at p (a word, %name, a bracketed aggregate,
 * then pointer stars and function parameter lists). */
size_t lp__cc_bt_type_len(const char *p, size_t n);
/* The operands of a statement after its opcode, split at commas outside
 * brackets: fills up to max of them and returns how many there are. */
size_t lp__cc_bt_operands(const char *p, size_t n, lp_cc_line *out, size_t max);

/* Each block's successors (the `label %X` of its terminator) and
 * predecessors; 0, or -1 without memory. */
int lp__cc_bt_edges(lp__cc_btfn *f);
/* Reverse postorder from the entry; 0, or -1 without memory. */
int lp__cc_bt_rpo(lp__cc_btfn *f);
/* Immediate dominators (after lp__cc_bt_rpo). */
void lp__cc_bt_dominators(lp__cc_btfn *f);
/* Calls fn for each local value statement st uses (types, labels and
 * names the function does not define are left out; a phi's operands
 * too, though each is used at the end of its predecessor). */
void lp__cc_bt_uses(const lp__cc_btfn *f, const lp__cc_btstmt *st, void (*fn)(void *, long),
                    void *ctx);
/* Whether block a dominates block b (after lp__cc_bt_dominators; an
 * unreachable b is dominated by nothing). */
int lp__cc_bt_dominates(const lp__cc_btfn *f, size_t a, size_t b);
/* The natural loops: for each, the placement's check and instrumentation
 * (blocks' record, check and latch_of), counted in c; 0, or -1 without
 * memory. */
int lp__cc_bt_loops(lp__cc_btfn *f, lp_cc_bt_counts *c);

#endif
