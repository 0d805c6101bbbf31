/* The entry trampoline (x86-64 System V). A switched-on function entry is
 * `call lp__rt_entry_tramp` at the function's first byte (after endbr64),
 * before its prologue, so on arrival:
 *
 *     [rsp]      the patched site + 5
 *     [rsp + 8]  the instrumented function's own return address (its call site)
 *
 * and every argument register still holds the function's arguments. The
 * trampoline saves them all (rdi, rsi, rdx, rcx, r8, r9, rax for varargs'
 * vector count, r10 for a static chain, r11, xmm0-7), aligns the stack to
 * 16 bytes whatever the caller did, calls lp__rt_on_entry(site, return
 * address), restores everything and returns into the function. Flags are
 * not saved: they are dead at a function's entry. */
    .text
    .globl lp__rt_entry_tramp
    .hidden lp__rt_entry_tramp
    .type lp__rt_entry_tramp, @function
    .p2align 4
lp__rt_entry_tramp:
    .cfi_startproc
    pushq %rbp
    .cfi_def_cfa_offset 16
    .cfi_offset %rbp, -16
    movq %rsp, %rbp
    .cfi_def_cfa_register %rbp
    andq $-16, %rsp
    subq $208, %rsp
    movq %rax, 0(%rsp)
    movq %rdi, 8(%rsp)
    movq %rsi, 16(%rsp)
    movq %rdx, 24(%rsp)
    movq %rcx, 32(%rsp)
    movq %r8, 40(%rsp)
    movq %r9, 48(%rsp)
    movq %r10, 56(%rsp)
    movq %r11, 64(%rsp)
    movdqa %xmm0, 80(%rsp)
    movdqa %xmm1, 96(%rsp)
    movdqa %xmm2, 112(%rsp)
    movdqa %xmm3, 128(%rsp)
    movdqa %xmm4, 144(%rsp)
    movdqa %xmm5, 160(%rsp)
    movdqa %xmm6, 176(%rsp)
    movdqa %xmm7, 192(%rsp)
    movq 8(%rbp), %rdi
    subq $5, %rdi
    movq 16(%rbp), %rsi
    call lp__rt_on_entry
    movdqa 192(%rsp), %xmm7
    movdqa 176(%rsp), %xmm6
    movdqa 160(%rsp), %xmm5
    movdqa 144(%rsp), %xmm4
    movdqa 128(%rsp), %xmm3
    movdqa 112(%rsp), %xmm2
    movdqa 96(%rsp), %xmm1
    movdqa 80(%rsp), %xmm0
    movq 64(%rsp), %r11
    movq 56(%rsp), %r10
    movq 48(%rsp), %r9
    movq 40(%rsp), %r8
    movq 32(%rsp), %rcx
    movq 24(%rsp), %rdx
    movq 16(%rsp), %rsi
    movq 8(%rsp), %rdi
    movq 0(%rsp), %rax
    movq %rbp, %rsp
    .cfi_def_cfa_register %rsp
    popq %rbp
    .cfi_def_cfa_offset 8
    ret
    .cfi_endproc
    .size lp__rt_entry_tramp, .-lp__rt_entry_tramp

    .section .note.GNU-stack,"",@progbits
