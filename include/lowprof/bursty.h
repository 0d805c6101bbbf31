/* lowprof bursty: the bursty-tracing sampling framework of Hirzel and
 * Chilimbi ("Bursty Tracing: A Framework for Low-Overhead Temporal
 * Profiling"), which extends Arnold and Ryder's counter-based sampling so
 * that a burst spans many checks.
 *
 * Four parts, each usable alone:
 *   - the check (section 2, Fig. 3): per-thread counters nCheck and nInstr
 *     that decide, at every procedure entry and loop back-edge that has a
 *     check, whether the code up to the next check runs in the checking or
 *     the instrumented copy;
 *   - the overhead model (equations 1, 2 and 4) as pure functions;
 *   - check placement (sections 4.1, 4.2, 5.1): the named variants orig,
 *     EL, EC, EN, L4, L10, LN and EC+L4, and what each means for a
 *     procedure entry and for a loop back-edge;
 *   - the analyses placement needs, over a call graph and loop facts the
 *     caller extracts from the binary: strongly connected components,
 *     distances from the roots, recursion from below, the set C of
 *     equation (3), and k-boring loops.
 *
 * Freestanding: core's types and shim only, so the Valgrind tool, the native
 * runtime and the CLI link the same code. The check uses no memory but the
 * caller's lp_bursty; the graph analyses take scratch memory from lp_malloc.
 *
 * Names follow the paper: n_check is nCheck, n_check0 is nCheck_0, n_instr
 * is nInstr, n_instr0 is nInstr_0. */
#ifndef LOWPROF_BURSTY_H
#define LOWPROF_BURSTY_H

#include "lowprof/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the check (section 2, Fig. 3) -------------------------------------- */

/* n_check0 = LP_BURSTY_INFINITE never leaves the checking code: the setting
 * (with n_instr0 = 1) under which section 5.1 measures t_checking. No finite
 * n_check0 can be this value. */
#define LP_BURSTY_INFINITE UINT64_MAX

/* Which copy of the code runs (the paper's target_checking and
 * target_instrumented). */
enum {
    LP_BURSTY_CHECKING = 0,
    LP_BURSTY_INSTRUMENTED = 1,
};

/* One thread's framework state. Initialise it in caller memory with
 * lp_bursty_init; it holds no pointers and needs no fini. Fields are public
 * so the runtime can place it in thread-local storage and the Valgrind tool
 * in its per-thread record; read them only through the functions below,
 * except n_check, n_instr and mode, which are the paper's state.
 *
 * Between checks: in the checking code mode is LP_BURSTY_CHECKING, n_instr
 * is 0 and n_check (>= 1) counts the checks left before a burst; in the
 * instrumented code mode is LP_BURSTY_INSTRUMENTED, n_check is 1 (so every
 * check leaves the fast path) and n_instr (>= 1) counts the checks left in
 * the burst. */
typedef struct lp_bursty {
    uint64_t n_check;  /* nCheck */
    uint64_t n_instr;  /* nInstr */
    uint64_t n_check0; /* nCheck_0, or LP_BURSTY_INFINITE */
    uint64_t n_instr0; /* nInstr_0 */
    int mode;          /* LP_BURSTY_CHECKING or LP_BURSTY_INSTRUMENTED */
    /* Accounting, touched only off the fast path (see lp_bursty_stats). */
    uint64_t armed;            /* the value n_check was last set to in the checking code */
    uint64_t fast_checks;      /* fast-path checks of checking stretches already ended */
    uint64_t slow_checks;      /* checks that fell through to the remainder */
    uint64_t bursts;           /* transitions from checking to instrumented code */
    uint64_t checks_in_instr;  /* checks executed in the instrumented code */
    uint64_t stretches_instr;  /* checks after which instrumented code ran */
} lp_bursty;

/* Initialises s in the checking code with n_check = n_check0 and
 * n_instr = 0, so the first burst starts at the n_check0-th check. (Fig. 3
 * does not say how the counters start; this is the state the framework is
 * in right after a burst ends, which the paper's entry checks on roots
 * assume.) n_check0 >= 1 or LP_BURSTY_INFINITE; n_instr0 >= 1 (1 gives
 * Arnold and Ryder's one-stretch bursts). Returns 0, or LP_EINVAL for a
 * zero count, leaving *s unchanged. No allocation; async-signal-safe. */
int lp_bursty_init(lp_bursty *s, uint64_t n_check0, uint64_t n_instr0);

/* The remainder of a check, run when the fast path's decrement reaches
 * zero. Called by lp_bursty_check; not meant to be called alone. */
int lp_bursty_check_slow(lp_bursty *s);

/* One check (Fig. 3), executed at every procedure entry and loop back-edge
 * that has one. Returns LP_BURSTY_INSTRUMENTED when the code from here to
 * the next check runs in the instrumented copy, else LP_BURSTY_CHECKING.
 * The fast path is the paper's: a decrement and a branch. Over any whole
 * number of periods of n_check0 + n_instr0 checks, n_instr0 of them return
 * LP_BURSTY_INSTRUMENTED: the sampling rate r of section 2.
 *
 * s must be initialised. Touches nothing but *s: async-signal-safe and
 * usable in the Valgrind tool and the native runtime. Not thread-safe: one
 * lp_bursty per thread; a signal handler that runs checks on the state of
 * the check it interrupted may lose that check's decrement, as the paper's
 * code would. */
static inline int lp_bursty_check(lp_bursty *s)
{
    if (--s->n_check != 0)
        return LP_BURSTY_CHECKING; /* checking code, and we stay there */
    return lp_bursty_check_slow(s);
}

/* What a state has done since lp_bursty_init. */
typedef struct lp_bursty_stats {
    uint64_t checks;          /* checks executed */
    uint64_t bursts;          /* transitions from checking to instrumented code */
    uint64_t checks_in_instr; /* checks executed while in the instrumented code */
    uint64_t stretches_instr; /* checks that returned LP_BURSTY_INSTRUMENTED */
} lp_bursty_stats;

/* Fills *out from s (both non-NULL). Each complete period contributes
 * n_check0 + n_instr0 checks, one burst and n_instr0 to both instrumented
 * counts (stretches_instr counts the check that enters a burst,
 * checks_in_instr the one that leaves it). Pure; async-signal-safe. */
void lp_bursty_stats_get(const lp_bursty *s, lp_bursty_stats *out);

/* ---- the overhead model (equations 1, 2 and 4) -------------------------- */

/* The paper's inputs. Times are in any one unit (only ratios matter);
 * t_orig > 0. */
typedef struct lp_bursty_model {
    /* t_orig: running time of the original, unmodified program (eq. 4 and
     * the basic overhead t_checking / t_orig - 1 of sections 1 and 5.1). */
    double t_orig;
    /* t_checking: running time if the program always stays in the checking
     * code (eqs. 1, 2, 4); measured with n_check0 infinite, n_instr0 = 1. */
    double t_checking;
    /* t_instrumented: running time if it always stays in the instrumented
     * code (eqs. 1, 2, 4). */
    double t_instrumented;
    /* nCheck_0: checks between bursts (eqs. 1, 2; r of eq. 4), >= 1 or
     * LP_BURSTY_INFINITE. */
    uint64_t n_check0;
    /* nInstr_0: checks in a burst (eq. 2; r of eq. 4), >= 1. Equation (1)
     * is the Arnold-Ryder case and ignores it (a burst of one check). */
    uint64_t n_instr0;
} lp_bursty_model;

/* Equation (1), Arnold and Ryder's framework:
 * t(nCheck_0) = (nCheck_0 t_checking + t_instrumented) / (nCheck_0 + 1).
 * t_checking for an infinite n_check0. Pure. */
double lp_bursty_model_time_ar(const lp_bursty_model *m);

/* Equation (2), the long-burst framework:
 * t(nCheck_0, nInstr_0) =
 *   (nCheck_0 t_checking + nInstr_0 t_instrumented) / (nCheck_0 + nInstr_0).
 * t_checking for an infinite n_check0. Pure. */
double lp_bursty_model_time(const lp_bursty_model *m);

/* The sampling rate r = nInstr_0 / (nCheck_0 + nInstr_0) (sections 2 and
 * 5.1); 0 for an infinite n_check0. Pure. */
double lp_bursty_model_rate(const lp_bursty_model *m);

/* The basic overhead t_checking / t_orig - 1 (sections 1 and 5.1). Pure. */
double lp_bursty_model_basic_overhead(const lp_bursty_model *m);

/* Equation (4): overhead(r) = basic overhead
 *                           + r (t_instrumented - t_checking) / t_orig,
 * with r from lp_bursty_model_rate. It equals
 * lp_bursty_model_time(m) / t_orig - 1. Pure. */
double lp_bursty_model_overhead(const lp_bursty_model *m);

/* ---- placement variants (sections 4 and 5.1, Figs. 6 and 8) ------------- */

/* Which procedure entries get a check. */
enum {
    LP_BURSTY_ENTRY_ALL = 0,      /* every procedure ("orig") */
    LP_BURSTY_ENTRY_NON_LEAF = 1, /* every procedure that calls something ("EL") */
    LP_BURSTY_ENTRY_SET_C = 2,    /* the procedures of C, equation (3) ("EC") */
    LP_BURSTY_ENTRY_NONE = 3,     /* none: a limit, not a usable setting ("EN") */
};

/* Which loop back-edges get a check. */
enum {
    LP_BURSTY_LOOP_ALL = 0,         /* every loop ("orig") */
    LP_BURSTY_LOOP_SKIP_BORING = 1, /* all but k-boring loops ("L4", "L10": k = 4, 10) */
    LP_BURSTY_LOOP_NONE = 2,        /* none: a limit, not a usable setting ("LN") */
};

typedef struct lp_bursty_placement {
    uint8_t entry; /* LP_BURSTY_ENTRY_* */
    uint8_t loop;  /* LP_BURSTY_LOOP_* */
    uint32_t k;    /* for LP_BURSTY_LOOP_SKIP_BORING; 0 otherwise */
} lp_bursty_placement;

/* Parses a placement name, the paper's bar labels generalised to any k:
 *
 *   placement := "orig" | entry | loop | entry "+" loop
 *   entry     := "EL" | "EC" | "EN"
 *   loop      := "L" digits | "LN"          (k = digits, 0 .. 2^32 - 1)
 *
 * so "orig", "EL", "EC", "EN", "L4", "L10", "LN" and "EC+L4" are the eight
 * of Figs. 6 and 8; a part left out is "all" (orig's). Case matters and
 * no spaces are allowed. text need not be NUL-terminated. Returns 0 and
 * fills *out, or LP_ESPEC with *out_pos (may be NULL) the offset of the
 * first byte that does not fit; *out is then unchanged. Pure; reentrant. */
int lp_bursty_placement_parse(const char *text, size_t len, lp_bursty_placement *out,
                              size_t *out_pos);

/* Writes p's canonical name (the form the parser reads; "orig" when both
 * parts are "all") into buf, NUL-terminated and truncated to cap bytes.
 * Returns the length the full name needs, without the NUL, as snprintf
 * does, or 0 when p holds an unknown entry or loop value. buf may be NULL
 * when cap is 0. Pure; reentrant. */
size_t lp_bursty_placement_format(const lp_bursty_placement *p, char *buf, size_t cap);

/* ---- the call graph (section 4.1) --------------------------------------- */

/* Procedure flags, as the caller establishes them from the binary. */
enum {
    /* Calls nothing, directly or indirectly (then it has no edges). */
    LP_BURSTY_FN_LEAF = 1u << 0,
    /* Only called from the outside world (an entry point such as main, or
     * an exported function). */
    LP_BURSTY_FN_ROOT = 1u << 1,
    /* Its address is taken, so indirect calls may reach it. */
    LP_BURSTY_FN_ADDR_TAKEN = 1u << 2,
};

/* A direct call: the code of caller holds at least one direct call to
 * callee (Fig. 4's edge (f, g)). Repeated edges are allowed. */
typedef struct lp_bursty_call {
    uint32_t caller;
    uint32_t callee;
} lp_bursty_call;

/* The static call graph G = (N, E): procedures 0 .. n_fns - 1. */
typedef struct lp_bursty_graph {
    uint32_t n_fns;
    const uint8_t *flags; /* n_fns LP_BURSTY_FN_* sets */
    size_t n_calls;
    const lp_bursty_call *calls;
} lp_bursty_graph;

/* Distance of a procedure no root reaches. */
#define LP_BURSTY_UNREACHABLE UINT32_MAX

/* What the analysis finds for one procedure. */
typedef struct lp_bursty_fn_facts {
    /* Its strongly connected component. Components are numbered 0 .. n-1 in
     * the order Tarjan's algorithm completes them: every component a
     * procedure calls into has a number no greater than its own. */
    uint32_t scc;
    /* Length of the shortest path of direct calls from any root; 0 for a
     * root, LP_BURSTY_UNREACHABLE when no root reaches it. */
    uint32_t distance;
    /* Section 4.1: called by a procedure of its own component that is at
     * least as far from the roots. */
    uint8_t recursion_from_below;
    /* Equation (3): not a leaf, and a root, address-taken or with
     * recursion from below. */
    uint8_t in_c;
} lp_bursty_fn_facts;

/* Strongly connected components only (Tarjan's algorithm, iterative, so a
 * call chain of any depth is fine): out_scc[f] as lp_bursty_fn_facts.scc,
 * *out_count (may be NULL) the number of components. Returns 0, LP_EINVAL
 * for an edge naming a procedure >= n_fns (or a NULL array the graph needs),
 * or LP_ENOMEM. Scratch memory from lp_malloc, freed before returning.
 * Reentrant; not async-signal-safe (it allocates). */
int lp_bursty_graph_scc(const lp_bursty_graph *g, uint32_t *out_scc, uint32_t *out_count);

/* The full analysis of section 4.1 into out[0 .. n_fns): components,
 * distances (breadth-first from every root), recursion from below and
 * membership in C. Every cycle of G then contains a procedure of C, so a
 * program cannot recurse without executing entry checks. Returns 0,
 * LP_EINVAL as lp_bursty_graph_scc or for a leaf with an outgoing edge,
 * or LP_ENOMEM. Reentrant; allocates. */
int lp_bursty_graph_analyse(const lp_bursty_graph *g, lp_bursty_fn_facts *out);

/* Whether placement p puts a check on the entry of a procedure with flags
 * (LP_BURSTY_FN_*) and facts (from lp_bursty_graph_analyse; only read for
 * LP_BURSTY_ENTRY_SET_C, may be NULL otherwise). Returns 1 or 0. Pure. */
int lp_bursty_entry_has_check(const lp_bursty_placement *p, unsigned flags,
                              const lp_bursty_fn_facts *facts);

/* ---- loops (section 4.2) ------------------------------------------------ */

/* What the caller knows about one loop. Both fields describe the loop's
 * whole body as the rewriter sees it, nested loops included (the paper
 * does not say how nesting counts; counting the inner loops' events keeps
 * an outer loop that drives a busy inner loop from looking boring). */
typedef struct lp_bursty_loop {
    /* Profiling events of interest in the body: the instructions the
     * instrumented copy would record (loads and stores for hot data
     * streams), counted statically, once per instruction. */
    uint32_t events;
    /* Nonzero when the body holds a call, direct or indirect. */
    uint8_t has_call;
} lp_bursty_loop;

/* Section 4.2: a loop is k-boring when it has no calls and at most k
 * profiling events of interest. (The paper mentions, and leaves out, an
 * iteration-count test; it is not part of the definition, so there is no
 * trip-count input.) Returns 1 or 0. Pure. */
int lp_bursty_loop_is_boring(const lp_bursty_loop *loop, uint32_t k);

/* What a placement does to a loop, as bits. */
enum {
    LP_BURSTY_LOOP_CHECK = 1u << 0,      /* its back-edge gets a check */
    LP_BURSTY_LOOP_INSTRUMENT = 1u << 1, /* its instrumented copy records events */
};

/* Returns the LP_BURSTY_LOOP_CHECK | LP_BURSTY_LOOP_INSTRUMENT bits placement
 * p gives a loop: both for "all"; for "skip boring", neither when the loop
 * is k-boring (section 4.2 instruments neither copy of such a loop, so a
 * burst never stays in it unboundedly) and both otherwise; for "none",
 * instrumentation only (the paper removes the checks of LN to measure a
 * limit and says nothing of the instrumentation; keeping it changes only
 * where checks are). Pure. */
unsigned lp_bursty_loop_placement(const lp_bursty_placement *p, const lp_bursty_loop *loop);

#ifdef __cplusplus
}
#endif
#endif
