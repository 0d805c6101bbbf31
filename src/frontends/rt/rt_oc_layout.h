/* The layout of a thread's caches of its counted calls (rt_caches.c, which
 * asserts it): from outside the copies, which lp__rt_cp_enter_stub reads,
 * and through the trampoline, which lp__rt_entry_tramp reads (both in
 * rt_tramp.S). Plain defines, for C and the assembler alike. */
#ifndef LP_RT_OC_LAYOUT_H
#define LP_RT_OC_LAYOUT_H

#define LP__RT_OC_COUNTING 0 /* the thread's block's counting flag, or 0 */
#define LP__RT_OC_OUTSIDE 8  /* the block's count of these calls */
#define LP__RT_OC_RNG 16     /* the thread's xorshift state for the sampling */
#define LP__RT_OC_ENTS 32    /* the entries, LP__RT_OC_N of LP__RT_OC_ENT bytes */
#define LP__RT_OC_BITS 7
#define LP__RT_OC_N 128
#define LP__RT_OC_ENT 32
#define LP__RT_OC_OFF 0     /* in an entry: the return address less lp__rt_cp_lo */
#define LP__RT_OC_COUNTER 8 /* the copy's entry counter */
#define LP__RT_OC_SLOT 16   /* the pair's counter in the thread's block, or 0 */

/* the trampoline's: as many entries of as many bytes */
#define LP__RT_TC_GEN 0 /* lp__rt_tramp_gen when its entries were made */
#define LP__RT_TC_ENTS 32
#define LP__RT_TC_SITE 0   /* in an entry: the patched site + 5 */
#define LP__RT_TC_RET 8    /* the function's return address */
#define LP__RT_TC_MSLOT 16 /* the method's counter in the thread's block, or 0 */
#define LP__RT_TC_ASLOT 24 /* the pair's, or 0 when a copy called */

#endif
