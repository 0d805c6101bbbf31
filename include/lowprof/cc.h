/* lowprof cc: the native front end's build half. It compiles C files so
 * that each function gets an instrumented copy beside its plain self
 * (src/frontends/cc: cc_build.c drives clang, cc_clone.c rewrites its LLVM
 * IR), for the runtime in src/frontends/rt to switch calls into while
 * blocks are on. Hosted: runs the compiler as a child. */
#ifndef LOWPROF_CC_H
#define LOWPROF_CC_H

#include <stddef.h>

typedef struct lp_cc_build {
    const char *compiler;   /* clang */
    int argc;               /* the compiler arguments of the command */
    char **argv;
    const char *entry_flag; /* the patchable-entry flag every function needs */
    const char *block_flag; /* the coverage flag, given to the copies only */
    char **link_tail;       /* what a link appends after the objects */
    size_t nlink_tail;
    int print;              /* print each command on stderr */
    int calls_only;         /* the call graph only: blocks without calls go uncounted */
    int one_version;        /* the copies' loops as compiled, not in two versions */
    /* Bursty tracing's placement (lowprof/bursty.h names it), or NULL:
     * each function gets checking and instrumented code in its own body
     * instead of a copy (src/frontends/cc/cc_bursty.h); entry_flag and
     * block_flag are then NULL. */
    const char *bursty;
    /* LLVM's opt of the compiler's version, which inlines before the
     * bursty rewrite; NULL: the rewrite takes the IR as clang wrote it. */
    const char *opt;
} lp_cc_build;

/* Whether a compiler argument is a C file to compile (NAME.c, not an
 * option). */
int lp_cc_is_c_source(const char *arg);

/* Compiles every C source of the command through the copies (into the
 * objects -c or -S names, or temporaries that the link then uses in the
 * sources' places), then links when the command links. Arguments that are
 * not C sources go to the link unchanged. Returns the first failing
 * step's exit status, or 0. */
int lp_cc_clone_build(const lp_cc_build *b);

#endif
