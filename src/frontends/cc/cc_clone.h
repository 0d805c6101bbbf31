/* The instrumented copies `lowprof cc` gives each function for block
 * profiles (doc/lowprof-cc.md, "Blocks: cloned functions").
 *
 * The input is the LLVM IR clang's optimisation passes wrote (-S
 * -emit-llvm), the module a plain build compiles, so the originals keep the
 * plain build's inlining. For every function defined there that can be
 * copied, the output adds a copy named NAME.lpdup, to be given clang's
 * block coverage while the original is not, and compiled without further
 * optimisation:
 *
 * - a copy of an external function is hidden and external, so it is never
 *   removed; a copy of an internal function is internal;
 * - the runtime sends calls of a function to its copy (through the
 *   function's patchable entry, while its blocks are on): the copy is made
 *   from the optimised function, and nothing after it changes either's
 *   arguments or calling convention, so every copy may take its
 *   function's calls, a static function's too;
 * - inside copies, direct calls to a static function of the file go to its
 *   copy, so a profiled caller profiles its static helpers;
 * - a copy gets its own debug-information nodes (subprogram, scopes,
 *   locations, variables, loop identities), so its blocks have source
 *   lines.
 *
 * Functions that are not copied: available_externally ones, and ones with a
 * comdat, prefix or prologue data. */
#ifndef LP_CC_CLONE_H
#define LP_CC_CLONE_H

#include <stddef.h>

/* The suffix of a copy's name (the coverage allow-list matches it). Copies
 * made from IR before optimisation were named NAME.lpdupc where the
 * runtime could not send NAME's calls to them; lowprof cc no longer makes
 * such copies, and the runtime and the symbolizer still handle the name. */
#define LP_CC_CLONE_SUFFIX ".lpdup"
/* The section every copy goes into (a C identifier, so that the linker
 * gives its bounds as __start_lp_copies and __stop_lp_copies). */
#define LP_CC_COPIES_SECTION "lp_copies"

/* ---- IR text (cc_text.c) ---- */

/* One line of the input, without its newline. */
typedef struct lp_cc_line {
    const char *p;
    size_t n;
} lp_cc_line;

/* A growing output text; failed is set when memory ran out (what follows
 * is dropped, and the caller reports it once). */
typedef struct lp_cc_buf {
    char *p;
    size_t n, cap;
    int failed;
} lp_cc_buf;

void lp__cc_put(lp_cc_buf *b, const char *s, size_t n);
void lp__cc_puts(lp_cc_buf *b, const char *s);
/* At most 2 KiB at a time. */
void lp__cc_printf(lp_cc_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A rewriter's failure: the message into err (errcap bytes); returns -1. */
int lp__cc_fail(char *err, size_t errcap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The decimal number at p, of digits only and within n bytes (*used of
 * them; 0: none), saturated above LP__CC_NUM_MAX. */
#define LP__CC_NUM_MAX 1000000000000000UL
unsigned long lp__cc_num(const char *p, size_t n, size_t *used);
/* Whether c may appear in an IR name after its first character. */
int lp__cc_ident_char(char c);
/* The '(' that opens a define or declare line's parameters, after the
 * function's name, or NULL. The words before the name may hold
 * parentheses of their own: a function pointer's parameters in the return
 * type, dereferenceable(N). */
const char *lp__cc_params(const char *l, size_t n);
/* Whether the line starts with s. */
int lp__cc_starts(lp_cc_line l, const char *s);
/* Orders names as memcmp does, a prefix first. */
int lp__cc_name_cmp(const char *a, size_t na, const char *b, size_t nb);
/* +1 for an opening bracket, -1 for a closing one, 0 otherwise. */
int lp__cc_depth(char ch);
/* A hash of the n bytes at p (FNV-1a). */
size_t lp__cc_hash(const char *p, size_t n);
/* Room for element n of an array of size-byte elements at p whose
 * capacity is *cap: p itself while n < *cap, else p reallocated to twice
 * *cap (first when 0) and *cap updated. NULL without memory, p then still
 * valid. */
void *lp__cc_grow(void *p, size_t n, size_t *cap, size_t size, size_t first);
/* Where a call line's callee starts (`@name(` or `%value(`), or NULL
 * when the line is no call or calls something else (a cast, inline
 * assembly). */
const char *lp__cc_callee(const char *l, size_t n);
/* The lines of in (malloc'd; *count of them), or NULL without memory. */
lp_cc_line *lp__cc_split(const char *in, size_t len, size_t *count);

/* ---- the rewriters ---- */

/* Rewrites the IR text in (len bytes) into a new malloc'd text (*out,
 * *out_len). Flags: LP_CC_CALLS_ONLY, a build for the call graph alone,
 * whose copies call the copies of their file's static functions directly
 * (a block build's call the originals). Returns the number of functions
 * copied, or -1 with a message naming the line in err. */
long lp_cc_clone_ir(const char *in, size_t len, unsigned flags, char **out, size_t *out_len,
                    char *err, size_t errcap);

/* What lp_cc_loops_ir did: copies rewritten, outermost loops given two
 * versions, loops left in one (a value leaving the loop that cannot be
 * merged at its exit, or flow that is not reducible), and copies left as
 * they were because their bodies hold a form the rewrite does not read. */
typedef struct lp_cc_loops_counts {
    size_t fns, loops, loops_left, fns_unread;
} lp_cc_loops_counts;

/* Gives each copy's outermost loops two versions, the counted one and one
 * that does not count, chosen at the loop's header by a check the runtime
 * switches with the copies' windows (cc_loops.c says how). The input is
 * lp_cc_clone_ir's text; the new text goes to *out (malloc'd). Returns the
 * number of loops given two versions (counts, may be NULL, gets the
 * rest), or -1 with a message naming the line in err. */
long lp_cc_loops_ir(const char *in, size_t len, char **out, size_t *out_len,
                    lp_cc_loops_counts *counts, char *err, size_t errcap);

/* Makes the direct calls of pthread_create in the text in b (originals
 * and copies) call the runtime's lp__rt_pthread_create, which starts the
 * thread in its routine's copy when the runtime's strategy wants it
 * (cc_threads.c), and declares that function. Returns the number of calls
 * rewritten (b unchanged when 0), or -1 without memory. */
int lp__cc_thread_starts(lp_cc_buf *b);

/* Makes the block counters that clang's inline-8bit-counters coverage put
 * into the optimised IR text in (len bytes) 64-bit, per thread, and
 * lowprof's own, and gives the copies their call sites and entry checks
 * (cc_counters.c says how). Flags: LP_CC_PIC, the object may go into a
 * shared library (the runtime's thread-local variables are then reached
 * through the GOT); LP_CC_CALLS_ONLY, only the call graph is wanted, so
 * only entry blocks and blocks with calls keep their increments;
 * LP_CC_NO_PREFIX, every original keeps its patchable entry. The new
 * text goes to *out (malloc'd). Returns the number of counter arrays, or
 * -1 with a message naming the line in err. (LP_CC_ONE_VERSION is the
 * build's: the copies' loops are left as compiled, without
 * lp_cc_loops_ir.) */
enum { LP_CC_PIC = 1, LP_CC_CALLS_ONLY = 2, LP_CC_NO_PREFIX = 4, LP_CC_ONE_VERSION = 8 };
long lp_cc_counters_ir(const char *in, size_t len, unsigned flags, char **out, size_t *out_len,
                       char *err, size_t errcap);

/* ---- the copies' call sites (cc_sites.c), for cc_counters.c ---- */

/* A direct call site: the counter of its block (array name with '@',
 * index) and the callee's name (without '@'). */
typedef struct lp_cc_site {
    const char *arr;
    size_t arr_len;
    unsigned long j;
    const char *callee;
    size_t callee_len;
} lp_cc_site;

typedef struct lp_cc_sites {
    lp_cc_site *v;
    size_t n, cap;
    unsigned long icalls; /* indirect calls given the counting call */
} lp_cc_sites;

/* Line i of lines[] lies in a copy (whose define is line fn_first), in a
 * block counted by counter j of the array arr (arr_k counters long): a
 * direct call there is recorded in s, and an indirect one gets the
 * counting call written into b before it. Returns 0, or -1 without memory. */
int lp__cc_sites_line(lp_cc_sites *s, const lp_cc_line *lines, size_t i, size_t fn_first,
                      const char *arr, size_t arr_len, unsigned long arr_k, unsigned long j,
                      lp_cc_buf *b);
/* Whether line l is a call that lp__cc_sites_line counts (so its block
 * needs a counter). */
int lp__cc_sites_wants(const char *l, size_t n);
/* Appends the site table and the declarations the calls need. */
void lp__cc_sites_emit(const lp_cc_sites *s, lp_cc_buf *b);

/* Counters added for blocks with calls that the coverage pass left out
 * (cc_sites.c): the copy (name with '@') and the block's label, and the
 * counter's own name (its own allocation: call sites keep it). */
typedef struct lp_cc_extra {
    const char *fn, *label;
    size_t fn_len, label_len;
    char *name;
} lp_cc_extra;

typedef struct lp_cc_extras {
    lp_cc_extra *v;
    size_t n, cap;
} lp_cc_extras;

/* Adds a counter, an array of one named @lp.x.N, for the block label
 * (label_len bytes, without '%') of the copy fn; returns its name, or NULL
 * without memory. */
const char *lp__cc_extra_add(lp_cc_extras *x, const char *fn, size_t fn_len, const char *label,
                             size_t label_len);
/* Writes the added counters and their pc-table entries (@lp.xp.N). */
void lp__cc_extras_emit(const lp_cc_extras *x, lp_cc_buf *b);
void lp__cc_extras_free(lp_cc_extras *x);

/* ---- each copy as a whole (cc_entry.c), for cc_counters.c ---- */

/* Whether a define line defines a copy (`@NAME.lpdup(`). */
int lp__cc_is_copy_define(const char *l, size_t n);
/* The number of the entry block of the function a define line begins. */
long lp__cc_entry_label(const char *l, size_t n);
/* Writes the entry check that follows a copy's entry counter (counter j
 * of the array arr, arr_len bytes with '@', k counters long), which ends
 * the entry block: the rest of it is the block lp.go. */
void lp__cc_split_entry(lp_cc_buf *b, const char *arr, size_t arr_len, unsigned long k,
                        unsigned long j);
/* The checking entry of a copy, NAME.lpdupe: the entry check of
 * lp__cc_split_entry, then a tail call of the copy with the same
 * arguments. The runtime sends calls from outside the copies there, and
 * the copies' own calls go to the copy, which then has no check: a check
 * costs four instructions an entry, as much as the small function it
 * guards (interp's copies ran 13 % more instructions than plain between
 * windows, two thirds of it in checks of calls from other copies). */
#define LP_CC_ENTRY_SUFFIX "e"
/* What a define line says that the checking entry repeats (pointers into
 * the line): the words the call repeats (calling convention, the
 * return's attributes and type), the type alone, the name with '@', the
 * parameters with their brackets, the attribute group, and the comdat's
 * name (without '$'), or NULL. */
typedef struct lp_cc_sig {
    const char *call, *type, *name, *params, *comdat;
    size_t call_len, type_len, name_len, params_len, comdat_len;
    unsigned long group;
    int has_group;
    int byval; /* an argument passed in memory: a plain call forwards it */
} lp_cc_sig;
/* Reads a copy's define line into s; 0 when a checking entry cannot
 * forward its call: variadic, arguments in memory other than byval
 * (inalloca and kin), a linkage the copy may share with other objects
 * (weak, linkonce), code before the function. */
int lp__cc_entry_sig(const char *l, size_t n, lp_cc_sig *s);
/* Appends the checking entry of the copy s describes (its group the
 * copy's own, twin included), whose entry counter is counter j of the
 * array arr (arr_len bytes with '@', k counters long). Its parameters are
 * the define line's as written; numbered ones are the caller's to name. */
void lp__cc_entry_fn(lp_cc_buf *b, const lp_cc_sig *s, const char *arr, size_t arr_len,
                     unsigned long k, unsigned long j);
/* The longest name of an entry block lp__cc_fix_phi takes (without '%'). */
#define LP_CC_ENTRY_REF_MAX 256
/* Writes a phi line of a split copy with the entry block (entry: its
 * number or label, without '%') named lp.go; returns 0 (nothing written)
 * for any other line. */
int lp__cc_fix_phi(lp_cc_buf *b, const char *l, size_t n, const char *entry);
/* Names the numbered values and blocks in b from offset from on. */
void lp__cc_name_numbers(lp_cc_buf *b, size_t from);
/* The same with another prefix than `lp.` (a rewrite before the one that
 * counts, whose own numbered values lp__cc_name_numbers names later). */
void lp__cc_name_numbers_as(lp_cc_buf *b, size_t from, const char *prefix);
/* In a global's definition in b from offset from on, names the numbered
 * blocks that blockaddress takes of a copy as lp__cc_name_numbers names
 * them in the copy; an original's (a function left without a copy) keep
 * their numbers. */
void lp__cc_name_copy_blocks(lp_cc_buf *b, size_t from);

/* Attribute groups given a twin, numbered base higher, in which the
 * patchable entry attribute is replaced by entry ("" to drop it): the
 * copies' groups (they count inline, and a NOP run at every call would be
 * patched by nothing), and the groups of originals whose copy takes calls
 * (lp__cc_prefixed). */
typedef struct lp_cc_attrs {
    unsigned long base;
    const char *entry;
    unsigned long *v;
    size_t n, cap;
} lp_cc_attrs;
#define LP_CC_ATTRS_COPIES 100000UL
#define LP_CC_ATTRS_PREFIXED 200000UL
/* What an original whose copy takes calls has in place of its patchable
 * entry: 16 bytes before the function, whose last five the runtime fills
 * with a jump to the copy, and a first instruction of at least two bytes,
 * which it overwrites with a short jump back to them while the function
 * is on. Switched off, the entry runs no instruction of lowprof's. Five
 * bytes would do; 16 keep the function where the compiler aligned it
 * (clang aligns the prefix's start). */
#define LP_CC_ENTRY_PREFIXED                                                                       \
    "\"patchable-function-prefix\"=\"16\" \"patchable-function\"=\"prologue-short-redirect\""
/* Writes a define line naming its group's twin, and notes the group. 0,
 * or -1 without memory. */
int lp__cc_twin_define(lp_cc_attrs *a, lp_cc_buf *b, const char *l, size_t n);
/* After an `attributes #N = {...}` line: its twin, if a noted define uses
 * it. */
void lp__cc_attrs_twin(const lp_cc_attrs *a, lp_cc_buf *b, const char *l, size_t n);

/* The originals whose copy takes calls (`@NAME.lpdup` is defined) and
 * whose entry can be prefixed: their names with '@', sorted. clang 14's
 * short redirect wraps the function's first machine instruction as it
 * stands before the last lowering, so it crashes when that is inline
 * assembly or when the first block has no instruction left, and it drops
 * a pseudo instruction (a tail call's jump; a general-dynamic TLS access,
 * which only -fPIC code has) without a word. So a function whose entry
 * block has inline assembly or a tail call, starts with `unreachable`, or
 * has no store or call and ends in an unconditional branch, a naked one,
 * and every function of a -fPIC build (LP_CC_PIC) keep their patchable
 * entry. (cc_build.c compiles a file again without prefixes if clang
 * crashes all the same.) */
typedef struct lp_cc_prefix_name {
    lp_cc_line name;
    int unsafe;
} lp_cc_prefix_name;
typedef struct lp_cc_prefixed {
    lp_cc_prefix_name *v;
    size_t n;
} lp_cc_prefixed;
/* Collects them from the module. 0, or -1 without memory. */
int lp__cc_prefixed_scan(lp_cc_prefixed *s, const lp_cc_line *lines, size_t n);
/* Whether the define line l names one of them. */
int lp__cc_prefixed(const lp_cc_prefixed *s, const char *l, size_t n);

#endif
