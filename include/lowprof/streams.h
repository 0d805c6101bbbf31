/* lowprof streams: hot data streams from a trace of data references, and
 * the profiles that compare them (Hirzel and Chilimbi, "Bursty Tracing",
 * section 5.2, after Chilimbi's PLDI 2001 and PACT 2001 papers).
 *
 * A data reference is a (pc, address) pair: the load or store instruction
 * and the address it touched. The references are compressed into a
 * context-free grammar by Sequitur (Nevill-Manning and Witten, 1997), whose
 * rules are the repeated subsequences of the trace. A data stream is a
 * rule's expansion; its heat (the paper's regularity magnitude) is
 *
 *   v.heat = v.length * v.frequency,
 *
 * with v.frequency its number of non-overlapping occurrences: the uses of
 * the rule in the grammar's derivation of the trace that do not lie inside
 * an occurrence of another hot stream, which counts them itself (Chilimbi's
 * cold uses). Occurrences in a derivation never overlap, so the hot
 * streams' heats add up to at most the trace. Streams whose length lies in
 * [min_length, max_length] (10 .. 40 in the paper) and whose heat reaches a
 * threshold are hot; the threshold is set so the hot streams together
 * account for a share of all references (90 % in the paper).
 *
 * Profiles are compared with the overlap of equation (5),
 *   overlap(P, Q) = sum over v in P u Q of min{v.heat_P, v.heat_Q},
 * with heats normalised to each profile's total and streams matched by
 * access signature, the ordered list of their instruction PCs. That sum of
 * minimums is metrics' lp_manhattan_accuracy (1 - L1/2 of normalised
 * tables is the sum of their minimums), and algorithm modules never include
 * each other, so this module only produces the tables: build each profile
 * with lp_streams_profile_table, turn it into heats with
 * lp_streams_heat_table, and pass the two to lp_manhattan_accuracy.
 *
 * Freestanding: core's types and shim only. Memory is O(references) and
 * no function recurses, so traces of many millions of references are fine.
 * Objects are not thread-safe; use one per thread. */
#ifndef LOWPROF_STREAMS_H
#define LOWPROF_STREAMS_H

#include "lowprof/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Sequitur ------------------------------------------------------------- */

/* Terminals are numbers below this bound (the grammar keeps two tag bits
 * beside them in 32-bit symbols). */
#define LP_SEQUITUR_MAX_TERMINAL ((1u << 30) - 1)

/* A grammar being built, one terminal at a time. Each push restores
 * Sequitur's two properties (no pair of adjacent symbols occurs twice
 * without overlapping; every rule but the start rule is used at least
 * twice), amortised constant time per terminal. Checks triggered by a push
 * are worked through with an explicit list, never by recursion. */
typedef struct lp_sequitur lp_sequitur;

/* Creates an empty grammar. Returns 0 or LP_ENOMEM. */
int lp_sequitur_create(lp_sequitur **out);
/* Frees g; accepts NULL. */
void lp_sequitur_free(lp_sequitur *g);

/* Appends terminal to the sequence. Returns 0, LP_EINVAL for a terminal
 * above LP_SEQUITUR_MAX_TERMINAL, LP_ELIMIT when the grammar would need
 * 2^30 rules or 2^32 - 1 symbols, or LP_ENOMEM. After LP_ENOMEM or
 * LP_ELIMIT the grammar still expands exactly to the terminals accepted
 * (lp_sequitur_length says how many; the failing one may be among them),
 * though it may hold a repeated pair not yet made a rule, and every later
 * push fails with the same code. */
int lp_sequitur_push(lp_sequitur *g, uint32_t terminal);

/* Terminals accepted so far. */
uint64_t lp_sequitur_length(const lp_sequitur *g);

/* A grammar in read-only, compact form. Rule 0 is the start rule and
 * expands to the whole sequence; rules are numbered so that a rule only
 * uses rules of higher number (parents before children), which lets every
 * pass over the grammar be a plain loop. */
#define LP_GRAMMAR_RULE 0x80000000u /* symbol bit: a rule, not a terminal */

typedef struct lp_grammar {
    uint32_t n_rules;
    uint32_t *first;    /* n_rules + 1: rule r's symbols are symbol[first[r] .. first[r+1]) */
    uint32_t *symbol;   /* a terminal, or LP_GRAMMAR_RULE | rule number */
    uint64_t *length;   /* n_rules: terminals in each rule's expansion */
    uint64_t *uses;     /* n_rules: times each rule occurs in the derivation of the
                           sequence (1 for rule 0) */
} lp_grammar;

/* Fills *out with g's grammar in compact form (g is unchanged and may take
 * more pushes). Returns 0 or LP_ENOMEM; free with lp_grammar_fini. */
int lp_sequitur_grammar(const lp_sequitur *g, lp_grammar *out);
/* Frees the arrays and zeroes *gr; accepts NULL. */
void lp_grammar_fini(lp_grammar *gr);

/* Writes the expansion of rule (the terminals it derives, in order) to
 * out[0 .. length[rule]). Returns 0, LP_EINVAL for a rule out of range or
 * cap below its length, or LP_ENOMEM (scratch for an explicit stack). */
int lp_grammar_expand(const lp_grammar *gr, uint32_t rule, uint32_t *out, size_t cap);

/* ---- hot data streams ----------------------------------------------------- */

/* One data reference. */
typedef struct lp_data_ref {
    uint64_t pc;   /* the load or store */
    uint64_t addr; /* the address it accessed */
} lp_data_ref;

typedef struct lp_streams_config {
    uint32_t min_length; /* shortest stream reported, >= 2 (the paper: 10) */
    uint32_t max_length; /* longest, >= min_length (the paper: 40) */
    double coverage;     /* share of references the hot streams should cover,
                            in (0, 1] (the paper: 0.90) */
} lp_streams_config;

/* The paper's setting: 10, 40, 0.90. */
extern const lp_streams_config lp_streams_paper;

/* One hot data stream. */
typedef struct lp_stream {
    const lp_data_ref *refs; /* its references, in order (owned by the lp_streams) */
    uint32_t length;         /* number of references */
    uint64_t frequency;      /* non-overlapping occurrences counted for it */
    uint64_t heat;           /* length * frequency */
    uint64_t signature;      /* lp_streams_signature(refs, length): its access signature */
} lp_stream;

/* The hot streams of one trace. */
typedef struct lp_streams {
    lp_stream *stream;   /* count streams, hottest first (ties: by signature, then
                            by first occurrence in the grammar) */
    size_t count;
    uint64_t references; /* references in the trace */
    uint64_t covered;    /* sum of the streams' heats: references they account for */
    double coverage;     /* covered / references (0 for an empty trace) */
    uint64_t threshold;  /* the heat threshold chosen */
    int target_met;      /* coverage >= the configured coverage */
    lp_data_ref *ref_storage;
} lp_streams;

/* Turns references into terminals and feeds a Sequitur grammar. */
typedef struct lp_streams_builder lp_streams_builder;

/* Returns 0 or LP_ENOMEM. */
int lp_streams_builder_create(lp_streams_builder **out);
/* Frees b; accepts NULL. */
void lp_streams_builder_free(lp_streams_builder *b);

/* Appends one reference. Returns 0, LP_ELIMIT past LP_SEQUITUR_MAX_TERMINAL
 * + 1 distinct references (or the grammar's limits), or LP_ENOMEM; after an
 * error the builder refuses further references with the same code. */
int lp_streams_builder_push(lp_streams_builder *b, uint64_t pc, uint64_t addr);

/* Appends ev if it is a load or a store (pc, address a); other kinds are
 * ignored (0). Errors as lp_streams_builder_push. */
int lp_streams_builder_push_event(lp_streams_builder *b, const lp_event *ev);

/* Ends the current run of references: the next reference does not follow
 * the last one in the trace, so no stream spans the cut. A sampler calls it
 * between two bursts (section 2: a burst is a subsequence of the trace, and
 * two bursts are not adjacent in it) and a recorder between two threads'
 * references. A cut right after another cut, or before the first
 * reference, does nothing. Returns 0, or the builder's error (LP_ELIMIT
 * when references and cuts together would pass LP_SEQUITUR_MAX_TERMINAL
 * + 1, or LP_ENOMEM), which sticks as with lp_streams_builder_push. */
int lp_streams_builder_cut(lp_streams_builder *b);

/* References accepted so far (cuts are not references). */
uint64_t lp_streams_builder_length(const lp_streams_builder *b);
/* Cuts made so far (those that did something). */
uint64_t lp_streams_builder_cuts(const lp_streams_builder *b);

/* The builder's grammar, for inspection (terminal t is the t-th distinct
 * reference, see lp_streams_builder_ref; terminals from
 * LP_SEQUITUR_MAX_TERMINAL down are the cuts, each used once). */
const lp_sequitur *lp_streams_builder_sequitur(const lp_streams_builder *b);
/* The reference of terminal t (t below the number of distinct references). */
lp_data_ref lp_streams_builder_ref(const lp_streams_builder *b, uint32_t t);

/* Finds the hot streams of the references pushed so far (b is unchanged and
 * may take more). cfg NULL means lp_streams_paper.
 *
 * The threshold is the largest heat H such that the streams of heat >= H
 * cover at least cfg->coverage of the references, found by bisection over
 * [1, references]. Coverage usually grows as H falls, but not always: a
 * long stream turning hot takes the uses of the shorter ones inside it, so
 * the search returns a local largest H (coverage(H) meets the target,
 * coverage(H + 1) does not). When no H meets the target (most of the
 * trace is in no repeated sequence of a suitable length), the target
 * becomes cfg->coverage of the most the candidates can cover (coverage(1),
 * every rule of a suitable length hot), and target_met is 0: the hot
 * streams are then the hottest that account for that share of the trace's
 * regular part, not every rule seen twice. Two rules with the same
 * expansion are one stream.
 *
 * Returns 0 with *out an lp_malloc'd result to release with
 * lp_streams_free, LP_EINVAL for a bad configuration, or LP_ENOMEM. */
int lp_streams_builder_find(const lp_streams_builder *b, const lp_streams_config *cfg,
                            lp_streams **out);

/* The same for an array of n references (refs may be NULL when n is 0). */
int lp_streams_find(const lp_data_ref *refs, size_t n, const lp_streams_config *cfg,
                    lp_streams **out);

/* Frees s; accepts NULL. */
void lp_streams_free(lp_streams *s);

/* ---- profiles and overlap (section 5.2, equation 5) ------------------------ */

/* A stream's access signature as a 64-bit key: lp_hash64 folded over its
 * length and its instruction PCs in order (addresses are left out, since
 * they change from run to run; section 5.2). Pure. */
uint64_t lp_streams_signature(const lp_data_ref *refs, size_t n);

/* Adds s's streams to out, an initialised table, in core's
 * LP_PROF_STREAMS shape: key (signature, PC of its first reference),
 * v[0] += frequency, v[1] = length. Streams with one signature (same PCs, other addresses) merge,
 * as section 5.2 counts them as one. Returns 0 or LP_ENOMEM. */
int lp_streams_profile_table(const lp_streams *s, lp_table *out);

/* Writes the heats of a streams profile (LP_PROF_STREAMS shape, as above
 * or read from a file) into out, an initialised table: same keys, v[0] =
 * v[0] * v[1] (frequency times length), v[1] = v[1]. Equation (5)'s
 * overlap of two profiles is lp_manhattan_accuracy of their heat tables.
 * Returns 0 or LP_ENOMEM. */
int lp_streams_heat_table(const lp_table *profile, lp_table *out);

#ifdef __cplusplus
}
#endif
#endif
