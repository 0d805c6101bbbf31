/* The program's thread starts, sent through the runtime (cc_clone.h).
 *
 * A thread runs its start routine until it ends. Started while the
 * runtime's windows are closed, it would run the original for good and
 * never count its own blocks; so every direct call of pthread_create, in
 * the originals and in the copies, calls lp__rt_pthread_create instead,
 * with the same arguments. The runtime there hands pthread_create the
 * start routine's copy when the strategy wants it (rt_start.c), and the
 * routine itself otherwise. A call through a pointer or a cast is left
 * alone, as is a module that defines pthread_create itself. */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>

#include "cc_clone.h"

static const char lp_cc_pc_name[] = "@pthread_create(";
#define LP_CC_PC_LEN (sizeof lp_cc_pc_name - 1)
static const char lp_cc_rt_name[] = "@lp__rt_pthread_create(";

/* The line at p (up to end), its length without the newline. */
static size_t lp_cc_line_len(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl ? (size_t)(nl - p) : (size_t)(end - p);
}

int lp__cc_thread_starts(lp_cc_buf *b)
{
    if (b->failed || !b->p || !memmem(b->p, b->n, lp_cc_pc_name, LP_CC_PC_LEN))
        return 0;
    const char *end = b->p + b->n;
    lp_cc_line decl = {NULL, 0};
    for (const char *p = b->p; p < end;) {
        size_t n = lp_cc_line_len(p, end);
        lp_cc_line l = {p, n};
        if (memmem(p, n, lp_cc_pc_name, LP_CC_PC_LEN)) {
            if (lp__cc_starts(l, "define "))
                return 0; /* the program's own pthread_create */
            if (lp__cc_starts(l, "declare "))
                decl = l;
        }
        p += n + 1;
    }
    if (!decl.p)
        return 0; /* called with no declaration: not IR clang wrote */
    lp_cc_buf o = {0};
    long calls = 0;
    for (const char *p = b->p; p < end;) {
        size_t n = lp_cc_line_len(p, end);
        const char *callee = lp__cc_callee(p, n);
        if (callee && (size_t)(p + n - callee) >= LP_CC_PC_LEN &&
            memcmp(callee, lp_cc_pc_name, LP_CC_PC_LEN) == 0) {
            lp__cc_put(&o, p, (size_t)(callee - p));
            lp__cc_puts(&o, lp_cc_rt_name);
            lp__cc_put(&o, callee + LP_CC_PC_LEN, n - (size_t)(callee + LP_CC_PC_LEN - p));
            calls++;
        } else {
            lp__cc_put(&o, p, n);
        }
        lp__cc_puts(&o, "\n");
        p += n + 1;
    }
    if (calls) { /* the runtime's function, declared as pthread_create is */
        const char *at = memmem(decl.p, decl.n, lp_cc_pc_name, LP_CC_PC_LEN);
        lp__cc_put(&o, decl.p, (size_t)(at - decl.p));
        lp__cc_puts(&o, lp_cc_rt_name);
        lp__cc_put(&o, at + LP_CC_PC_LEN, decl.n - (size_t)(at + LP_CC_PC_LEN - decl.p));
        lp__cc_puts(&o, "\n");
    }
    if (o.failed) {
        free(o.p);
        return -1;
    }
    if (!calls) {
        free(o.p);
        return 0;
    }
    free(b->p);
    *b = o;
    return (int)calls;
}
