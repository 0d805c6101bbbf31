/* lowprof cc's build of C files whose functions get block-profiled copies
 * (cc_build.c; the copies themselves: cc_clone.h). */
#ifndef LP_CC_BUILD_H
#define LP_CC_BUILD_H

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
