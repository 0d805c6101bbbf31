/* The layout of a thread's cache of its counted calls from outside the
 * copies (rt_count.c, which asserts it), which lp__rt_cp_enter_stub
 * (rt_tramp.S) reads: plain defines, for C and the assembler alike. */
#ifndef LP_RT_OC_LAYOUT_H
#define LP_RT_OC_LAYOUT_H

#define LP__RT_OC_COUNTING 0 /* the thread's block's counting flag, or 0 */
#define LP__RT_OC_OUTSIDE 8  /* the block's count of these calls */
#define LP__RT_OC_ENTS 32    /* the entries, LP__RT_OC_N of LP__RT_OC_ENT bytes */
#define LP__RT_OC_BITS 7
#define LP__RT_OC_N 128
#define LP__RT_OC_ENT 32
#define LP__RT_OC_OFF 0     /* in an entry: the return address less lp__rt_cp_lo */
#define LP__RT_OC_COUNTER 8 /* the copy's entry counter */
#define LP__RT_OC_SLOT 16   /* the pair's counter in the thread's block, or 0 */

#endif
