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

/* Line l with pthread_create's name, at, replaced by the runtime's. */
static void lp_cc_put_renamed(lp_cc_buf *o, lp_cc_line l, const char *at)
{
    lp__cc_put(o, l.p, (size_t)(at - l.p));
    lp__cc_puts(o, lp_cc_rt_name);
    lp__cc_put(o, at + LP_CC_PC_LEN, l.n - (size_t)(at + LP_CC_PC_LEN - l.p));
    lp__cc_puts(o, "\n");
}

int lp__cc_thread_starts(lp_cc_buf *b)
{
    if (b->failed || !b->p || !memmem(b->p, b->n, lp_cc_pc_name, LP_CC_PC_LEN))
        return 0;
    size_t n;
    lp_cc_line *lines = lp__cc_split(b->p, b->n, &n);
    if (!lines)
        return -1;
    const lp_cc_line *decl = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!memmem(lines[i].p, lines[i].n, lp_cc_pc_name, LP_CC_PC_LEN))
            continue;
        if (lp__cc_starts(lines[i], "define ")) {
            free(lines);
            return 0; /* the program's own pthread_create */
        }
        if (lp__cc_starts(lines[i], "declare "))
            decl = &lines[i];
    }
    lp_cc_buf o = {0};
    int calls = 0;
    for (size_t i = 0; decl && i < n; i++) {
        const char *callee = lp__cc_callee(lines[i].p, lines[i].n);
        if (callee && (size_t)(lines[i].p + lines[i].n - callee) >= LP_CC_PC_LEN &&
            memcmp(callee, lp_cc_pc_name, LP_CC_PC_LEN) == 0) {
            lp_cc_put_renamed(&o, lines[i], callee);
            calls++;
        } else {
            lp__cc_put(&o, lines[i].p, lines[i].n);
            lp__cc_puts(&o, "\n");
        }
    }
    /* the runtime's function, declared as pthread_create is */
    if (calls)
        lp_cc_put_renamed(&o, *decl, memmem(decl->p, decl->n, lp_cc_pc_name, LP_CC_PC_LEN));
    free(lines);
    if (o.failed || !calls) { /* without a declaration, not IR clang wrote */
        free(o.p);
        return o.failed ? -1 : 0;
    }
    free(b->p);
    *b = o;
    return calls;
}
