/* lowprof client requests: a program switches HPS sampling on and off at
 * places it chooses.
 *
 *     #include <lowprof/client.h>
 *     LOWPROF_SAMPLING_ON();   ... the region to profile ...   LOWPROF_SAMPLING_OFF();
 *
 * Under `lowprof record --acf` these are the trigger instructions of
 * section 3.4 of the HPS paper: ON is T.OP == on_trig_inst, OFF is
 * T.OP == off_trig_inst, and the ACF's productions decide what they do to
 * the counters (the shipped ACFs set counter 0 to 0, sampling, or to 1).
 * They are Valgrind client requests: run natively, each is a short
 * sequence of instructions that does nothing, and each expression is 0
 * there (1 under lowprof with an ACF). Needs Valgrind's valgrind.h, which
 * Debian's valgrind package installs. */
#ifndef LOWPROF_CLIENT_H
#define LOWPROF_CLIENT_H

#include <valgrind/valgrind.h>

#define LOWPROF__REQ_BASE VG_USERREQ_TOOL_BASE('L', 'P')

#define LOWPROF_SAMPLING_ON()                                                                  \
    ((unsigned)VALGRIND_DO_CLIENT_REQUEST_EXPR(0, LOWPROF__REQ_BASE, 0, 0, 0, 0, 0))
#define LOWPROF_SAMPLING_OFF()                                                                 \
    ((unsigned)VALGRIND_DO_CLIENT_REQUEST_EXPR(0, LOWPROF__REQ_BASE + 1, 0, 0, 0, 0, 0))

#endif
