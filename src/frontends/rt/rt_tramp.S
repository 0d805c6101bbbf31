/* The entry trampoline (x86-64 System V). A switched-on function entry is
 * `call lp__rt_entry_tramp` at the function's first byte (after endbr64),
 * before its prologue, so on arrival:
 *
 *     [rsp]      the patched site + 5
 *     [rsp + 8]  the instrumented function's own return address (its call site)
 *
 * and every argument register still holds the function's arguments. The
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

    .text
    .globl lp__rt_entry_tramp
    .hidden lp__rt_entry_tramp
    .type lp__rt_entry_tramp, @function
    .p2align 4
lp__rt_entry_tramp:
    .cfi_startproc
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

/* The copies' entry check's slow path (cc_entry.c). A copy whose caller
 * lies outside the copies runs, in inline assembly that the compiler sees
 * as no call at all (so the copy needs no frame, and its arguments stay
 * where they are):
 *
 *     leaq -128(%rsp), %rsp       past the red zone a leaf may be using
 *     pushq COUNTER               the copy's entry counter
 *     pushq OFF                   its return address less lp__rt_cp_lo
 *     call lp__rt_cp_enter_stub
 *     leaq 144(%rsp), %rsp
 *
 * declaring only memory, the flags and xmm0-15 clobbered. So this saves
 * every other register the C code may change (the integer ones callers
 * save, r11 included), aligns the stack and calls lp__rt_cp_enter(OFF,
 * COUNTER): [rbp + 16] is OFF, [rbp + 24] COUNTER. */
    .text
    .globl lp__rt_cp_enter_stub
    .type lp__rt_cp_enter_stub, @function
    .p2align 4
lp__rt_cp_enter_stub:
    .cfi_startproc
    LP_SAVE_CALLER_REGS
    movq 16(%rbp), %rdi
    movq 24(%rbp), %rsi
    call lp__rt_cp_enter
    LP_RESTORE_CALLER_REGS
    .cfi_def_cfa_register %rsp
    popq %rbp
    .cfi_def_cfa_offset 8
    ret
    .cfi_endproc
    .size lp__rt_cp_enter_stub, .-lp__rt_cp_enter_stub

    .section .note.GNU-stack,"",@progbits
