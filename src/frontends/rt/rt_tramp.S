/* The entry trampoline (x86-64 System V). A switched-on function entry is
 * `call lp__rt_entry_tramp` at the function's first byte (after endbr64),
 * before its prologue, so on arrival:
 *
 *     [rsp]      the patched site + 5
 *     [rsp + 8]  the instrumented function's own return address (its call site)
 *
 * and every argument register still holds the function's arguments. A
 * call the thread's cache holds (rt_caches.c, lp__rt_tc_cache) is counted
 * there with four registers saved. Otherwise the
 * trampoline saves the integer ones (rdi, rsi, rdx, rcx, r8, r9, rax for a
 * variadic call's vector count, r10 for a static chain; r11 too, in the
 * frame it shares with the copies' stub below), aligns the stack
 * to 16 bytes whatever the caller did, and calls lp__rt_on_entry(site,
 * return address), which uses no vector register. When that asks for the
 * slow path (the thread's first event), or when the C code was built
 * without a way to keep off vector registers (lp__rt_tramp_full), it also
 * saves xmm0-7 and calls lp__rt_on_entry_slow. r11 is not an argument and
 * holds nothing at a function's entry, but saving it costs one store;
 * flags are dead there.
 *
 * A handler that returns an address (the function's block-profiled copy,
 * while its blocks are on) gets it written over the trampoline's return
 * address: the trampoline then returns into the copy's first byte with
 * every argument register and the stack as the call left them, so the
 * copy runs in the original's place and returns to the original's caller.
 * (This is a return to an address no call pushed: with user-space shadow
 * stacks enabled it would fault; Linux enables them only for programs
 * that ask.) */
#include "rt_oc_layout.h"

/* A frame that saves the integer registers a C function may change (the
 * argument ones, rax and r10-r11) on a 16-byte aligned stack, and its
 * undoing, for the trampoline and the copies' stub. */
    .macro LP_SAVE_CALLER_REGS
    pushq %rbp
    .cfi_def_cfa_offset 16
    .cfi_offset %rbp, -16
    movq %rsp, %rbp
    .cfi_def_cfa_register %rbp
    andq $-16, %rsp
    subq $80, %rsp
    movq %rax, 0(%rsp)
    movq %rcx, 8(%rsp)
    movq %rdx, 16(%rsp)
    movq %rsi, 24(%rsp)
    movq %rdi, 32(%rsp)
    movq %r8, 40(%rsp)
    movq %r9, 48(%rsp)
    movq %r10, 56(%rsp)
    movq %r11, 64(%rsp)
    .endm

    .macro LP_RESTORE_CALLER_REGS
    movq 64(%rsp), %r11
    movq 56(%rsp), %r10
    movq 48(%rsp), %r9
    movq 40(%rsp), %r8
    movq 32(%rsp), %rdi
    movq 24(%rsp), %rsi
    movq 16(%rsp), %rdx
    movq 8(%rsp), %rcx
    movq 0(%rsp), %rax
    movq %rbp, %rsp
    .endm

/* Four scratch registers saved and restored, for the trampoline's and the
 * stubs' paths that do their work without calling C. */
    .macro LP_PUSH4 a, b, c, d
    pushq \a
    .cfi_adjust_cfa_offset 8
    pushq \b
    .cfi_adjust_cfa_offset 8
    pushq \c
    .cfi_adjust_cfa_offset 8
    pushq \d
    .cfi_adjust_cfa_offset 8
    .endm

    .macro LP_POP4 d, c, b, a
    popq \d
    .cfi_adjust_cfa_offset -8
    popq \c
    .cfi_adjust_cfa_offset -8
    popq \b
    .cfi_adjust_cfa_offset -8
    popq \a
    .cfi_adjust_cfa_offset -8
    .endm

/* A cache lookup for those paths (rt_caches.c's caches: LP__RT_OC_N
 * entries of 32 bytes from the cache's start, TLS offset in rax): rdx
 * becomes the entry's place, ((stack word a) >> shift) xor (word b); then
 * the entry's counter pointer (at slot) goes to rsi, read before the
 * key, and its two key words (at ka and kb) are compared with the stack
 * words a and b. Any miss jumps to miss. */
    .macro LP_CACHE_FIND ents, slot, ka, a, kb, b, shift, miss
    movq \a(%rsp), %rdx
    .if \shift
    shrq $\shift, %rdx
    .endif
    xorq \b(%rsp), %rdx
    andl $(LP__RT_OC_N - 1), %edx
    shlq $5, %rdx
    movq %fs:\ents+\slot(%rax,%rdx), %rsi
    testq %rsi, %rsi
    jz \miss
    movq \a(%rsp), %rcx
    cmpq %fs:\ents+\ka(%rax,%rdx), %rcx
    jne \miss
    movq \b(%rsp), %rcx
    cmpq %fs:\ents+\kb(%rax,%rdx), %rcx
    jne \miss
    .endm

    .text
    .globl lp__rt_entry_tramp
    .hidden lp__rt_entry_tramp
    .type lp__rt_entry_tramp, @function
    .p2align 4
lp__rt_entry_tramp:
    .cfi_startproc
    /* The thread's cache (rt_caches.c, lp__rt_tc_cache): this site's call
     * from this return address, counted before in the same generation,
     * is counted again here, with four registers saved. */
    LP_PUSH4 %rax, %rcx, %rdx, %rsi
    /* [rsp + 32] the site + 5, [rsp + 40] the return address */
    movq lp__rt_tc_cache@gottpoff(%rip), %rax
    movq %fs:LP__RT_TC_GEN(%rax), %rcx
    cmpq lp__rt_tramp_gen(%rip), %rcx
    jne 3f
    LP_CACHE_FIND LP__RT_TC_ENTS, LP__RT_TC_MSLOT, LP__RT_TC_SITE, 32, LP__RT_TC_RET, 40, 0, 3f
    movq %fs:LP__RT_TC_ENTS+LP__RT_TC_ASLOT(%rax,%rdx), %rcx
    incq (%rsi)
    testq %rcx, %rcx
    jz 4f
    incq (%rcx)
4:
    LP_POP4 %rsi, %rdx, %rcx, %rax
    ret
3:
    .cfi_adjust_cfa_offset 32
    LP_POP4 %rsi, %rdx, %rcx, %rax
    LP_SAVE_CALLER_REGS
    movq 8(%rbp), %rdi
    subq $5, %rdi
    movq 16(%rbp), %rsi
    cmpb $0, lp__rt_tramp_full(%rip)
    jne 2f
    call lp__rt_on_entry
    cmpq $1, %rax
    je 2f
    jb 1f
    movq %rax, 8(%rbp)
1:
    LP_RESTORE_CALLER_REGS
    .cfi_remember_state
    .cfi_def_cfa_register %rsp
    popq %rbp
    .cfi_def_cfa_offset 8
    ret
    .cfi_restore_state
2:
    subq $128, %rsp
    movdqa %xmm0, 0(%rsp)
    movdqa %xmm1, 16(%rsp)
    movdqa %xmm2, 32(%rsp)
    movdqa %xmm3, 48(%rsp)
    movdqa %xmm4, 64(%rsp)
    movdqa %xmm5, 80(%rsp)
    movdqa %xmm6, 96(%rsp)
    movdqa %xmm7, 112(%rsp)
    movq 8(%rbp), %rdi
    subq $5, %rdi
    movq 16(%rbp), %rsi
    call lp__rt_on_entry_slow
    movdqa 112(%rsp), %xmm7
    movdqa 96(%rsp), %xmm6
    movdqa 80(%rsp), %xmm5
    movdqa 64(%rsp), %xmm4
    movdqa 48(%rsp), %xmm3
    movdqa 32(%rsp), %xmm2
    movdqa 16(%rsp), %xmm1
    movdqa 0(%rsp), %xmm0
    addq $128, %rsp
    testq %rax, %rax
    jz 1b
    movq %rax, 8(%rbp)
    jmp 1b
    .cfi_endproc
    .size lp__rt_entry_tramp, .-lp__rt_entry_tramp

/* A stub that saves every register C may change, calls fn(first
 * argument, second argument) with the two words at rbp + first and rbp +
 * second (8: the stub's return address, 16 and up: what the caller pushed
 * before the call), and returns. */
    .macro LP_C_STUB name, fn, first, second
    .text
    .globl \name
    .type \name, @function
    .p2align 4
\name:
    .cfi_startproc
    LP_SAVE_CALLER_REGS
    movq \first(%rbp), %rdi
    movq \second(%rbp), %rsi
    call \fn
    LP_RESTORE_CALLER_REGS
    .cfi_def_cfa_register %rsp
    popq %rbp
    .cfi_def_cfa_offset 8
    ret
    .cfi_endproc
    .size \name, .-\name
    .endm

/* The copies' entry check's slow path (cc_entry.c). A copy whose caller
 * lies outside the copies, and whose thread's countdown lp__rt_cp_skip
 * has reached 0 (rt_caches.c), runs, in inline assembly that the
 * compiler sees as no call at all (so the copy needs no frame, and its
 * arguments stay where they are):
 *
 *     leaq -128(%rsp), %rsp       past the red zone a leaf may be using
 *     pushq COUNTER               the copy's entry counter
 *     pushq OFF                   its return address less lp__rt_cp_lo
 *     call lp__rt_cp_enter_stub
 *     leaq 144(%rsp), %rsp
 *
 * declaring only memory, the flags, r10, r11 and xmm0-15 clobbered (r10
 * and r11 for a shared library's PLT resolver). The stub draws the
 * thread's next countdown. When the thread's cache
 * holds this site's call of this copy, counted before, and its block
 * still counts, it adds lp__rt_oc_every to that pair's counter itself,
 * with four registers saved (rt_caches.c, lp__rt_oc; LP__RT_OC_ENT is 32, the
 * shift by 5); a thread whose block does not count (the windows are
 * closed, and a prefixed clock method's copy still takes its calls)
 * returns at once, as lp__rt_cp_enter would count nothing. Otherwise
 * lp__rt_cp_enter_full saves every other register the C code may change
 * (the integer ones callers save, r11 included), aligns the stack and
 * calls lp__rt_cp_enter(OFF, COUNTER): [rbp + 16] is OFF, [rbp + 24]
 * COUNTER. */

    .text
    .globl lp__rt_cp_enter_stub
    .type lp__rt_cp_enter_stub, @function
    .p2align 4
lp__rt_cp_enter_stub:
    .cfi_startproc
    LP_PUSH4 %rax, %rcx, %rdx, %rsi
    /* [rsp + 40] OFF, [rsp + 48] COUNTER; rax the cache's TLS offset */
    movq lp__rt_oc@gottpoff(%rip), %rax
    movq %fs:LP__RT_OC_COUNTING(%rax), %rcx
    testq %rcx, %rcx
    jz 1f
    /* The thread's next countdown, drawn as lp__rt_oc_skip_next draws it
     * (xorshift64 seeded by the cache's address, %fs:0 the thread
     * pointer): uniform in [0, 2 * lp__rt_oc_every - 1). */
    movq %fs:LP__RT_OC_RNG(%rax), %rdx
    testq %rdx, %rdx
    jnz 3f
    movq %fs:0, %rdx
    addq %rax, %rdx
    orq $1, %rdx
3:
    movq %rdx, %rsi
    shlq $13, %rsi
    xorq %rsi, %rdx
    movq %rdx, %rsi
    shrq $7, %rsi
    xorq %rsi, %rdx
    movq %rdx, %rsi
    shlq $17, %rsi
    xorq %rsi, %rdx
    movq %rdx, %fs:LP__RT_OC_RNG(%rax)
    shrq $32, %rdx
    movl lp__rt_oc_every(%rip), %esi
    leaq -1(%rsi,%rsi), %rsi
    imulq %rsi, %rdx
    shrq $32, %rdx
    movq lp__rt_cp_skip@gottpoff(%rip), %rsi
    movl %edx, %fs:(%rsi)
    cmpb $0, (%rcx)
    je 2f
    LP_CACHE_FIND LP__RT_OC_ENTS, LP__RT_OC_SLOT, LP__RT_OC_COUNTER, 48, LP__RT_OC_OFF, 40, 3, 1f
    /* one call in lp__rt_oc_every comes here */
    movl lp__rt_oc_every(%rip), %ecx
    addq %rcx, (%rsi)
    movq %fs:LP__RT_OC_OUTSIDE(%rax), %rsi
    addq %rcx, (%rsi)
2:
    LP_POP4 %rsi, %rdx, %rcx, %rax
    ret
1:
    .cfi_adjust_cfa_offset 32
    LP_POP4 %rsi, %rdx, %rcx, %rax
    jmp lp__rt_cp_enter_full
    .cfi_endproc
    .size lp__rt_cp_enter_stub, .-lp__rt_cp_enter_stub

    LP_C_STUB lp__rt_cp_enter_full, lp__rt_cp_enter, 16, 24
    .hidden lp__rt_cp_enter_full

/* lp__rt_oc_calib(n, outside): n calls of a replica of a copy's entry
 * (the test of the return address against the thread's view of the
 * copies, then its entry counter's increment) made as a running original
 * makes them in a window (the prefix's short jump back and its jump to
 * the copy's checking entry, the test failing, the countdown and, where
 * it is 0, the slow path's inline assembly and stub as cc_entry.c writes
 * them, and the jump to the copy); with outside 0, n calls of a function
 * that only returns, as the same call costs with the window closed. Each
 * call takes the last one's result (rax) and returns it plus one, so that
 * the calls' latency counts, as in a loop whose calls feed one another (a
 * decoder's): calls that overlap cost less. For
 * lp__rt_outside_measure (rt_caches.c); lp__rt_oc_calib_ra is the outside
 * call's return address, for which that function makes a cache entry. */
    .text
    .globl lp__rt_oc_calib
    .hidden lp__rt_oc_calib
    .globl lp__rt_oc_calib_ra
    .hidden lp__rt_oc_calib_ra
    .type lp__rt_oc_calib, @function
    .p2align 4
lp__rt_oc_calib:
    .cfi_startproc
    pushq %rbx
    .cfi_adjust_cfa_offset 8
    pushq %r12
    .cfi_adjust_cfa_offset 8
    pushq %r13
    .cfi_adjust_cfa_offset 8
    pushq %r14
    .cfi_adjust_cfa_offset 8
    movq %rdi, %rbx
    movq lp__rt_cp_lo@gottpoff(%rip), %r12
    movq lp__rt_cp_len@gottpoff(%rip), %r13
    movq lp__rt_cp_skip@gottpoff(%rip), %r14
    testq %rsi, %rsi
    jz 3f
    xorl %eax, %eax
1:
    movq %rax, %rdi
    call 5f
lp__rt_oc_calib_ra:
    decq %rbx
    jnz 1b
    jmp 4f
3:
    movq %rax, %rdi
    call 9f
    decq %rbx
    jnz 3b
4:
    popq %r14
    .cfi_adjust_cfa_offset -8
    popq %r13
    .cfi_adjust_cfa_offset -8
    popq %r12
    .cfi_adjust_cfa_offset -8
    popq %rbx
    .cfi_adjust_cfa_offset -8
    ret
5:
    jmp 6f
6:
    {disp32} jmp 7f
7:
    movq (%rsp), %rax
    subq %fs:(%r12), %rax
    cmpq %fs:(%r13), %rax
    jae 8f
    jmp 10f
8:
    cmpl $0, %fs:(%r14)
    je 11f
    subl $1, %fs:(%r14)
    jmp 10f
11:
    leaq lp__rt_oc_calib_counter(%rip), %rcx
    leaq -128(%rsp), %rsp
    pushq %rcx
    pushq %rax
    call lp__rt_cp_enter_stub
    leaq 144(%rsp), %rsp
10:
    addq $1, lp__rt_oc_calib_counter(%rip)
9:
    leaq 1(%rdi), %rax
    ret
    .cfi_endproc
    .size lp__rt_oc_calib, .-lp__rt_oc_calib

    .bss
    .p2align 3
    .globl lp__rt_oc_calib_counter
    .hidden lp__rt_oc_calib_counter
lp__rt_oc_calib_counter:
    .zero 8

#include "rt_bt_layout.h"

/* Bursty checks' calls from compiled code (src/frontends/cc/cc_bursty_fn.c,
 * doc/runtime.md "Bursty checks"). The instrumented copy reports a
 * reference or its entry, and a check its slow path, in inline assembly
 * the compiler sees as no call at all, so that a small function keeps the
 * frame (none) and the registers of the plain build:
 *
 *     leaq -128(%rsp), %rsp       past the red zone a leaf may be using
 *     pushq VALUE                 the address (ref), the return address (enter)
 *     call lp__bt_ref_stub        (or lp__bt_enter_stub)
 *     leaq 136(%rsp), %rsp
 *
 * and for the slow path, with no value pushed and the mode back in eax:
 *
 *     leaq -128(%rsp), %rsp
 *     call lp__bt_slow_stub
 *     leaq 128(%rsp), %rsp
 *
 * declaring only the flags, r10, r11 and xmm0-15 clobbered (and eax
 * written, for the slow path; r10 and r11 because in a shared library the
 * call goes through the PLT, whose resolver may change them). So these
 * save every other register the C code may change,
 * align the stack and call the C functions: [rbp + 8] is the stub's return
 * address, which identifies the site, and [rbp + 16] the value pushed. */

/* The reference's stub appends (pc, address) to the thread's buffer
 * itself, touching four registers it saves: it runs at every load and
 * store of a burst, and saving every register for a call into C cost
 * more than the rest of the instrumented code (json at 1000:50: 81 %
 * more instructions than the plain build; 56 % with this). It records
 * only in a burst (lp__bt_mode is 1; a
 * return can land in the instrumented copy outside one), counts what
 * finds the buffer full, and stores the count last, which x86 keeps in
 * order for the dumping thread's acquire load. */
    .text
    .globl lp__bt_ref_stub
    .type lp__bt_ref_stub, @function
    .p2align 4
lp__bt_ref_stub:
    .cfi_startproc
    LP_PUSH4 %rax, %rcx, %rdx, %r8
    /* [rsp + 32] the site (return address), [rsp + 40] the address */
    movq lp__bt_mode@gottpoff(%rip), %rax
    cmpl $1, %fs:(%rax)
    jne 1f
    movq lp__rt_bt_self@gottpoff(%rip), %rax
    movq %fs:(%rax), %rax
    testq %rax, %rax
    jz 1f
    movq LP__RT_BT_OFF_NREFS(%rax), %rcx
    cmpq LP__RT_BT_OFF_CAP(%rax), %rcx
    jae 2f
    movq %rcx, %rdx
    shlq $4, %rdx
    addq LP__RT_BT_OFF_REFS(%rax), %rdx
    movq 32(%rsp), %r8
    movq %r8, 0(%rdx)
    movq 40(%rsp), %r8
    movq %r8, 8(%rdx)
    addq $1, %rcx
    movq %rcx, LP__RT_BT_OFF_NREFS(%rax)
1:
    LP_POP4 %r8, %rdx, %rcx, %rax
    ret
2:
    .cfi_adjust_cfa_offset 32
    addq $1, LP__RT_BT_OFF_DROPPED(%rax)
    jmp 1b
    .cfi_endproc
    .size lp__bt_ref_stub, .-lp__bt_ref_stub
    /* lp__rt_bt_enter_at(the function's return address, pc) */
    LP_C_STUB lp__bt_enter_stub, lp__rt_bt_enter_at, 16, 8

    .text
    .globl lp__bt_slow_stub
    .type lp__bt_slow_stub, @function
    .p2align 4
lp__bt_slow_stub:
    .cfi_startproc
    LP_SAVE_CALLER_REGS
    call lp__bt_slow
    movq %rax, 0(%rsp)
    LP_RESTORE_CALLER_REGS
    .cfi_def_cfa_register %rsp
    popq %rbp
    .cfi_def_cfa_offset 8
    ret
    .cfi_endproc
    .size lp__bt_slow_stub, .-lp__bt_slow_stub

    .section .note.GNU-stack,"",@progbits
