/* The offsets in a thread's bursty record (rt_bursty.c, which asserts
 * them) where lp__bt_ref_stub (rt_tramp.S) appends a reference: plain
 * defines, for C and the assembler alike. */
#ifndef LP_RT_BT_LAYOUT_H
#define LP_RT_BT_LAYOUT_H

#define LP__RT_BT_OFF_NREFS 0    /* references in the buffer */
#define LP__RT_BT_OFF_CAP 8      /* its capacity */
#define LP__RT_BT_OFF_REFS 16    /* the buffer: (pc, address) pairs of 16 bytes */
#define LP__RT_BT_OFF_DROPPED 24 /* references past its end */

#endif
