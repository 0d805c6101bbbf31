/* The writers behind lowprof/export.h's table, one file each
 * (export_json.c, export_csv.c, export_callgrind.c, export_folded.c). Each
 * writes a whole document for the profile set s, read from source, to o,
 * naming addresses through nm. Private to src/export. */
#ifndef LP_EXPORT_INTERNAL_H
#define LP_EXPORT_INTERNAL_H

#include "lowprof/export.h"

/* Every profile of s (whole run and per phase) with raw counters and scale;
 * addresses as "0x..." strings, symbol fields beside them. */
int lp__export_json(const char *source, const lp_profile_set *s, lp_names *nm, lp_out *o);
/* One row per entry of each type's whole-run view: type, key_a, key_b, v0,
 * v1, function, file, line (RFC 4180 quoting). */
int lp__export_csv(const char *source, const lp_profile_set *s, lp_names *nm, lp_out *o);
/* The Callgrind format: Ir per source line from the block profile (or the
 * code-region profile), calls from the call-pair profile. */
int lp__export_callgrind(const char *source, const lp_profile_set *s, lp_names *nm, lp_out *o);
/* Folded stacks: full stacks from a context profile (below), else two
 * frames deep, "caller;callee CALLS" per function pair. LP_ENOENT if s has
 * neither a context nor a call-pair profile. */
int lp__export_folded(const char *source, const lp_profile_set *s, lp_names *nm, lp_out *o);

/* Full stacks from the context profile: "root;...;leaf WEIGHT" per
 * calling context, weighted by self instructions (folded) or by calls into
 * the context (folded-calls). Without a context profile, folded falls back
 * to the two-frame call pairs above; folded-calls returns LP_ENOENT. */
int lp__export_folded_calls(const char *source, const lp_profile_set *s, lp_names *nm,
                            lp_out *o);
/* speedscope's JSON file format: one sampled profile, one sample per
 * calling context, weighted by its self instructions. LP_ENOENT without a
 * context profile. */
int lp__export_speedscope(const char *source, const lp_profile_set *s, lp_names *nm,
                          lp_out *o);
/* What to subtract from a call pair's site (key a) to find the call's
 * own line: 1 for the native runtime, which keys a call by its return
 * address (the next line's code, at times); 0 for Valgrind, which keys it
 * by the call instruction (export_llvm_sample.c). The collector's merge
 * keeps the runs' recorder when they agree. */
uint64_t lp__call_site_back(const lp_profile_set *s);
/* s as a JSON string (invalid UTF-8 bytes escaped), or null for NULL
 * (export_json.c). */
void lp__json_string(lp_out *o, const char *s);

/* A frame name's character as folded stacks carry it: ';' separates
 * frames and the last space the weight, so neither may appear inside a
 * name as the tools read it, nor may a line break. */
static inline char lp__folded_char(char c)
{
    return c == ';' ? ':' : c == '\n' || c == '\r' ? ' ' : c;
}

/* ---- the calling-context tree (export_context.c) ---- */
typedef struct lp__context_node {
    uint64_t id, parent_id, entry; /* id = lp_context_id(parent_id, entry) */
    uint64_t calls, self;          /* v0, v1 */
    size_t parent;                 /* index of the parent node; SIZE_MAX for a root */
    char *name;                    /* lp_names_function of entry */
} lp__context_node;
typedef struct lp__context_tree {
    lp__context_node *nodes; /* in key order */
    size_t count;
} lp__context_tree;
/* Rebuilds the tree of s's whole-run context profile. 0, LP_ENOENT
 * without one, or LP_ENOMEM. */
int lp__context_tree_build(const lp_profile_set *s, lp_names *nm, lp__context_tree *out);
void lp__context_tree_fini(lp__context_tree *t);
/* Node i's path, root first, into path (room for t->count); returns its
 * length. */
size_t lp__context_path(const lp__context_tree *t, size_t i, size_t *path);
/* One stack per context with a non-zero weight (calls: v0, else v1), as
 * "root;...;leaf" text, sorted by text, equal texts merged; node is one of
 * the contexts behind it. Free with lp__context_stacks_free. */
typedef struct lp__context_stack {
    char *text;
    uint64_t weight;
    size_t node;
} lp__context_stack;
int lp__context_stacks(const lp__context_tree *t, int calls, lp__context_stack **out,
                       size_t *out_count);
void lp__context_stacks_free(lp__context_stack *st, size_t n);

/* LLVM's sample-profile text format (clang -fprofile-sample-use): body
 * samples per line offset and discriminator from the block profile, call
 * targets from call pairs, inlined call sites from DWARF. LP_ENOENT if s
 * has no block profile, or none of its blocks lies in code with DWARF. */
int lp__export_llvm_sample(const char *source, const lp_profile_set *s, lp_names *nm,
                           lp_out *o);

/* gcc's AutoFDO profile (gcc -fauto-profile=FILE, gcc 12's version 2):
 * the llvm-sample model with discriminators merged, in gcov's binary
 * words. LP_ENOENT as lp__export_llvm_sample. */
int lp__export_gcov_afdo(const char *source, const lp_profile_set *s, lp_names *nm, lp_out *o);

/* pprof's profile.proto, gzipped: instructions, executions, invocations and
 * calls as sample types, one-frame stacks per address and two-frame
 * [callee, call site] stacks per call pair; calling contexts as whole
 * stacks; locations with a line per inlined level, functions and mappings
 * with build ids. LP_ENOENT if s has none of those types. */
int lp__export_pprof(const char *source, const lp_profile_set *s, lp_names *nm, lp_out *o);

#endif
