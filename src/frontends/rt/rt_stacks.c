/* Frame-pointer stacks of the SIGPROF samples (LOWPROF profiles=...,context)
 * and the calling-context profile built from them: the native runtime's
 * counterpart of the Valgrind tool's --profile context, weighted by samples
 * instead of counted exactly.
 *
 * In the handler (signal context): a bounded walk of the frame-pointer
 * chain from the interrupted rbp, into one slot of a ring of stacks. The
 * walk makes no libc call and trusts no pointer: each frame record must lie
 * above the interrupted stack pointer and below the thread's stack top,
 * be 8-byte aligned, lie strictly above the one before, and sit on a page
 * the kernel says is readable (one system call per new page). A program
 * built without frame pointers has anything in rbp; such a walk stops at
 * the first record that fails a check, and the sample keeps its PC.
 *
 * In the daemon (under lp__rt.lock): the ring is drained into a table of
 * calling contexts, keyed as LP_PROF_CONTEXT keys them (parent context id,
 * function), with the samples whose innermost frame is that context in v1
 * and 0 in v0 (a sample says nothing about calls). A return address that
 * lies in no loaded module ends the stack there (what lies above it was
 * not written by frame-pointer code). Direct self-recursion is folded as
 * the Valgrind tool folds it. The dump copies the table into the file. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>

#include "rt_internal.h"

/* One sample's stack, innermost first: the PC, then return addresses. The
 * state word hands the slot over: 0 free, 1 being written by a handler, 2
 * full (the daemon's to read). */
typedef struct lp__rt_stack_slot {
    uint64_t state;
    uint64_t n;
    uint64_t pc[LP__RT_STACK_DEPTH];
} lp__rt_stack_slot;

static lp__rt_stack_slot lp__rt_stack_ring[LP__RT_STACK_RING];
static uint64_t lp__rt_stack_head; /* slots claimed by handlers */
static uint64_t lp__rt_stack_tail; /* slots looked at by the daemon */
static uint64_t lp__rt_stacks_lost;
static lp_table lp__rt_ctx; /* (parent id, function) -> v1 samples */
static int lp__rt_ctx_ready;
static uint64_t lp__rt_ctx_samples, lp__rt_ctx_dropped;

/* The initial stack pointer of the main thread (glibc's, exported by the
 * dynamic loader): its stack top. Weak, so another C library just leaves
 * the main thread bounded by LP__RT_STACK_SPAN. */
extern void *__libc_stack_end __attribute__((weak));

/* A stack walk never looks further than this above the stack pointer when
 * it knows no better bound (the default stack limit). */
#define LP__RT_STACK_SPAN (8ULL << 20)
#define LP__RT_PAGE 4096ULL

/* Whether the 8 bytes at addr can be read, asked of the kernel:
 * rt_sigprocmask reads its new set before it looks at how, so with an
 * invalid how it fails with EFAULT on memory it cannot read and EINVAL on
 * memory it can, and changes nothing either way. A raw system call: no
 * libc, no errno. */
static int lp__rt_readable(uint64_t addr)
{
    /* 8: sizeof the kernel's sigset */
    return lp__rt_syscall4(SYS_rt_sigprocmask, -1L, (long)addr, 0L, 8) == -EINVAL;
}

/* The highest address a frame record of the interrupted thread may reach.
 * glibc puts a thread's descriptor (where the thread pointer points) at the
 * top of the block its stack lives in, so for a thread that is not the
 * main one the thread pointer is above its stack; the main thread's top is
 * __libc_stack_end. Otherwise, sp + LP__RT_STACK_SPAN. */
static uint64_t lp__rt_stack_top(uint64_t sp)
{
    uint64_t tp = (uint64_t)(uintptr_t)__builtin_thread_pointer();
    if (tp > sp && tp - sp < LP__RT_STACK_SPAN)
        return tp;
    uint64_t end = &__libc_stack_end ? (uint64_t)(uintptr_t)__libc_stack_end : 0;
    /* The walk ends in _start, whose frame lies just below the stack end;
     * the arguments and environment above it are no frames. */
    if (end > sp && end - sp < LP__RT_STACK_SPAN)
        return end + LP__RT_PAGE;
    return sp + LP__RT_STACK_SPAN;
}

/* Fills pc[1..] from the frame-pointer chain at fp; returns the number of
 * frames including pc[0]. Reads only checked memory (see the file's head);
 * not instrumented by sanitizers, which keep no shadow state for other
 * frames' saved registers. */
LP__TEXT_ACCESS static uint64_t lp__rt_stack_walk(uint64_t fp, uint64_t sp, uint64_t *pc)
{
    uint64_t top = lp__rt_stack_top(sp), readable_to = 0, n = 1;
    while (n < LP__RT_STACK_DEPTH) {
        if ((fp & 7) || fp < sp || fp >= top || top - fp < 16)
            break;
        /* Both words of the record, page by page as the walk climbs. */
        for (uint64_t a = fp; a <= fp + 8; a += 8)
            if (a >= readable_to) {
                if (!lp__rt_readable(a))
                    return n;
                readable_to = (a | (LP__RT_PAGE - 1)) + 1;
            }
        const volatile uint64_t *rec = (const volatile uint64_t *)(uintptr_t)fp;
        uint64_t next = rec[0], ret = rec[1];
        if (ret < LP__RT_PAGE)
            break;
        pc[n++] = ret;
        if (next <= fp)
            break;
        fp = next;
    }
    return n;
}

void lp__rt_stack_take(const void *ucv)
{
    const ucontext_t *uc = ucv;
    uint64_t pc = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
    uint64_t sp = (uint64_t)uc->uc_mcontext.gregs[REG_RSP];
    uint64_t fp = (uint64_t)uc->uc_mcontext.gregs[REG_RBP];
    uint64_t i = __atomic_fetch_add(&lp__rt_stack_head, 1, __ATOMIC_RELAXED);
    lp__rt_stack_slot *s = &lp__rt_stack_ring[i % LP__RT_STACK_RING];
    uint64_t expected = 0;
    /* A slot the daemon has not read yet (it is a lap behind) loses the
     * stack; the PC sample itself is in the other ring. */
    if (!pc || !__atomic_compare_exchange_n(&s->state, &expected, 1, 0, __ATOMIC_ACQUIRE,
                                            __ATOMIC_RELAXED)) {
        __atomic_fetch_add(&lp__rt_stacks_lost, 1, __ATOMIC_RELAXED);
        return;
    }
    s->pc[0] = pc;
    s->n = lp__rt_stack_walk(fp, sp, s->pc);
    __atomic_store_n(&s->state, 2, __ATOMIC_RELEASE);
}

/* ---- the daemon's side ------------------------------------------------------------------ */

/* The function a frame is in: its entry in the executable's symbols, or
 * the address itself elsewhere (reports name it by the symbol that holds
 * it). A return address is looked up one byte back, in its call. */
static uint64_t lp__rt_frame_function(uint64_t a, int is_return)
{
    uint64_t at = is_return ? a - 1 : a;
    uint64_t f = lp__rt_func_start(at);
    return f ? f : at;
}

/* Adds one stack (innermost first) to the context table. */
static void lp__rt_stack_add(const uint64_t *pc, uint64_t n)
{
    uint64_t keep = 1;
    while (keep < n && lp__rt_module_at(pc[keep]) >= 0)
        keep++;
    uint64_t parent = 0, parent_fn = 0;
    lp_entry *e = NULL;
    for (uint64_t k = keep; k-- > 0;) {
        uint64_t fn = lp__rt_frame_function(pc[k], k > 0);
        if (e && fn == parent_fn)
            continue; /* self-recursion stays in its caller's context */
        e = lp_table_upsert(&lp__rt_ctx, (lp_key){parent, fn});
        if (!e) {
            lp__rt_ctx_dropped++;
            return;
        }
        parent = lp_context_id(parent, fn);
        parent_fn = fn;
    }
    e->v[1]++;
    lp__rt_ctx_samples++;
}

void lp__rt_stacks_drain(void)
{
    if (!lp__rt.cfg.context)
        return;
    if (!lp__rt_ctx_ready) {
        if (lp_table_init(&lp__rt_ctx, 1024) != 0)
            return;
        lp__rt_ctx_ready = 1;
    }
    uint64_t pcs[LP__RT_STACK_DEPTH];
    uint64_t head = __atomic_load_n(&lp__rt_stack_head, __ATOMIC_ACQUIRE);
    /* A slot not full yet is being written (it is read a lap later) or
     * its handler found it taken. */
    for (; lp__rt_stack_tail < head; lp__rt_stack_tail++) {
        lp__rt_stack_slot *s = &lp__rt_stack_ring[lp__rt_stack_tail % LP__RT_STACK_RING];
        if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != 2)
            continue;
        uint64_t n = s->n < LP__RT_STACK_DEPTH ? s->n : LP__RT_STACK_DEPTH;
        memcpy(pcs, s->pc, n * sizeof *pcs);
        __atomic_store_n(&s->state, 0, __ATOMIC_RELEASE);
        if (n)
            lp__rt_stack_add(pcs, n);
    }
}

int lp__rt_stacks_profile(lp_profile_set *set)
{
    if (!lp__rt.cfg.context)
        return 0;
    lp_profile *p;
    int rc = lp_profile_set_add(set, LP_PROF_CONTEXT, LP_PHASE_NONE, &p);
    size_t cur = 0;
    const lp_entry *e;
    while (!rc && lp__rt_ctx_ready && (e = lp_table_next(&lp__rt_ctx, &cur)) != NULL) {
        lp_entry *d = lp_table_upsert(&p->table, e->key);
        if (!d)
            rc = LP_ENOMEM;
        else
            d->v[1] = e->v[1];
    }
    lp_meta_set(&set->meta, "context-weight", "PC samples (frame-pointer stacks)");
    lp__rt_meta_u64(&set->meta, "context-samples", lp__rt_ctx_samples);
    lp__rt_meta_u64(&set->meta, "context-samples-lost",
                    __atomic_load_n(&lp__rt_stacks_lost, __ATOMIC_RELAXED) + lp__rt_ctx_dropped);
    return rc;
}

void lp__rt_stacks_forget(void)
{
    memset(lp__rt_stack_ring, 0, sizeof lp__rt_stack_ring);
    lp__rt_stack_head = lp__rt_stack_tail = 0;
    lp__rt_stacks_lost = lp__rt_ctx_samples = lp__rt_ctx_dropped = 0;
    if (lp__rt_ctx_ready)
        lp_table_clear(&lp__rt_ctx);
}
