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
/* Folded stacks, two frames deep: "caller;callee CALLS" per function pair.
 * LP_ENOENT if s has no call-pair profile. */
int lp__export_folded(const char *source, const lp_profile_set *s, lp_names *nm, lp_out *o);

/* LLVM's sample-profile text format (clang -fprofile-sample-use): body
 * samples per line offset and discriminator from the block profile, call
 * targets from call pairs, inlined call sites from DWARF. LP_ENOENT if s
 * has no block profile, or none of its blocks lies in code with DWARF. */
int lp__export_llvm_sample(const char *source, const lp_profile_set *s, lp_names *nm,
                           lp_out *o);

/* pprof's profile.proto, gzipped: instructions, executions, invocations and
 * calls as sample types, one-frame stacks per address and two-frame
 * [callee, call site] stacks per call pair, locations with lines, functions
 * and mappings with build ids. LP_ENOENT if s has none of those types. */
int lp__export_pprof(const char *source, const lp_profile_set *s, lp_names *nm, lp_out *o);

#endif
