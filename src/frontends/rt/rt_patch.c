/* Switching profile instructions by writing the program's text while its
 * other threads run it (the paper's runtime swapping setpf and resetpf at
 * a method's entry, section III.C).
 *
 * Every switchable site is a 5-byte instruction whose last four bytes never
 * change once prepared, so switching writes one byte, which is always
 * atomic, whatever the site's alignment:
 *
 *   entry site   on  E8 rel32   call lp__rt_entry_tramp
 *                off A9 rel32   test eax, rel32 (same displacement)
 *   entry site   on  E9 rel32   jmp to the function's block-profiled copy
 *    (direct)    off A9 rel32   test eax, rel32
 *                  when the copy counts inline (lowprof cc's copies), or in
 *                  a run that profiles blocks and not function events: the
 *                  copy's calls need no handler, and a jump costs a cycle
 *                  where the trampoline costs a register save, a lookup
 *                  and a mispredicted return
 *   coverage     on  E8 rel32   call __sanitizer_cov_trace_pc_guard (as compiled)
 *                off A9 rel32   test eax, rel32
 *   tail jump    on  E9 rel32   jmp __sanitizer_cov_trace_pc_guard (as compiled)
 *                off C3 ....    ret (what the callback would have done)
 *
 * A prefixed entry (lowprof cc's originals whose copy takes calls) costs
 * nothing while off: its site is the last five bytes of the prefix the
 * compiler left before the function, and holds `E9 rel32`, a jump to the
 * copy, from the constructor on. The compiler
 * made the function's first instruction at least two bytes long, and
 * switching writes those two bytes in one store (they lie in one cache
 * line, so the store is atomic, and a thread sees either instruction):
 *
 *   entry        on  EB F9        jmp -7, to the jump in the five bytes
 *   (prefixed)   off (as compiled) the function's first two bytes
 *
 * That is two jumps where a 5-byte entry takes one, and a taken jump costs
 * time where an inert `test` costs next to none. So the copies' direct
 * calls of a prefixed function switch with its entry: while it is on,
 * their displacement names its copy, and the call goes straight there
 * (the copy's entry check sees a return address in the copies, as
 * before). A displacement is written in one 4-byte store, and only where
 * it lies within one aligned 16-byte block: the store is atomic within a
 * cache line, but the processor fetches instructions in 16-byte blocks,
 * and a displacement across two of them could be decoded half old, half
 * new by a thread at the call (HotSpot aligns its patched displacements to
 * 4 bytes for the same reason). A call whose displacement does not lie so
 * stays on the function.
 *
 * `test` writes only the flags, which are dead at a call site and at a
 * function's entry (every call clobbers them), and reads eax; it costs one
 * instruction like the NOP it replaces. A thread sees either the old or the
 * new byte 0 with the same bytes 1-4, never a torn instruction.
 *
 * Preparing an entry (once, in the constructor) rewrites all five bytes
 * from the compiler's NOPs to the off form; it uses the order that never
 * exposes a torn instruction to a thread at the site's first byte: an
 * atomic 2-byte `jmp +3` (EB 03) over bytes 0-1, then bytes 2-4, then the
 * final bytes 0-1. (gcc's five one-byte NOPs could hold a thread between
 * them; the constructor runs before the program starts threads.)
 *
 * The copies' counter increments switch too (lowprof cc writes them in an
 * executable as one instruction each and lists them, cc_counters.c):
 *
 *   increment    on  64 48 83 04 25 disp32 01   addq $1, %fs:disp32
 *                off 64 48 83 3C 25 disp32 01   cmpq $1, %fs:disp32
 *
 * ModRM 04 against 3C is the 0x83 group's /0 (ADD) against /7 (CMP): the
 * same length and operand, a load and the flags (which the increment
 * clobbered already) and no store.
 *
 * How a thread gets to write the text: see "writing text" below. */
#define _GNU_SOURCE
#include <cpuid.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_internal.h"

void __sanitizer_cov_trace_pc_guard(uint32_t *guard);

typedef struct lp__rt_write {
    uint64_t addr;
    uint32_t value;
    uint8_t size; /* 1, 2 or 4 bytes */
} lp__rt_write;

/* A copy's direct call (or tail jump) of a prefixed function: where its
 * displacement is, and its value to the function and to its copy. */
typedef struct lp__rt_xcall {
    uint64_t disp;
    uint32_t method;
    int32_t plain, copy;
} lp__rt_xcall;

static lp__rt_xcall *lp__rt_xcalls;

/* A prefixed entry's on form: EB F9, little-endian. */
#define LP__RT_JMP_PREFIX 0xf9ebu

static lp__rt_write *lp__rt_writes;
static size_t lp__rt_writes_cap;

static uint64_t lp__rt_page(void)
{
    static uint64_t page;
    if (!page) {
        long p = sysconf(_SC_PAGESIZE);
        page = p > 0 ? (uint64_t)p : 4096;
    }
    return page;
}

/* ---- writing text ------------------------------------------------------------------------ */

/* A thread writes the text in one of two ways.
 *
 * With a protection key (x86's PKU, where the processor and the kernel
 * have it): the executable's text is given a key of its own once, at
 * start-up, and mapped PROT_READ|PROT_WRITE|PROT_EXEC, while every
 * thread's key register (PKRU) forbids writing through that key. A thread
 * writes by lifting the ban in its own register around its stores
 * (WRPKRU: no system call, and no other thread's rights change). The key
 * register governs data accesses only, never instruction fetches, so the
 * text runs as before. A new thread inherits its creator's register, so
 * the key is set up only while the program has a single thread (the
 * constructor's normal case): a thread started earlier would keep the
 * kernel's default register, which denies all access through a key it
 * never allowed, and could no longer read the text as data. And only
 * where the text segment holds code alone, its read-only data (string
 * literals) in segments of their own: signal handlers read those (see
 * below).
 *
 * Otherwise with mprotect: the pages are made PROT_READ|PROT_WRITE|
 * PROT_EXEC (never without EXEC, since other threads execute them), in
 * runs of adjacent pages, and given back PROT_READ|PROT_EXEC. Taking the
 * write permission back makes the kernel flush the TLB of every other
 * processor running the program, through an interrupt (under a hypervisor,
 * an exit), at each window's two edges: on the native suite the
 * mprotect calls and the interrupts were a quarter to two fifths of the
 * daemon's CPU time (perf, json at 10 % windows).
 *
 * A signal handler starts with the kernel's default register, which
 * denies access through every key but the default one: a handler that
 * reads the executable's text as data (not running it) would fault. The
 * runtime's fatal-signal handler, which writes the profile, allows reading
 * first (lp__rt_text_readable); its SIGPROF handler reads no text (the
 * stack walk asks the kernel before each read, rt_stacks.c).
 * LOWPROF=text=mprotect keeps a program's own handlers' reads working. */
static int lp__rt_tkey = -1;                    /* the key, or -1: mprotect */
static uint64_t lp__rt_tkey_lo, lp__rt_tkey_hi; /* the pages it covers */

static uint32_t lp__rt_rdpkru(void)
{
    uint32_t eax, edx;
    __asm__ volatile(".byte 0x0f, 0x01, 0xee" : "=a"(eax), "=d"(edx) : "c"(0));
    return eax;
}

static void lp__rt_wrpkru(uint32_t v)
{
    __asm__ volatile(".byte 0x0f, 0x01, 0xef" : : "a"(v), "c"(0), "d"(0) : "memory");
}

/* The key's bits in PKRU: access disabled (1), write disabled (2). */
static uint32_t lp__rt_tkey_bits(uint32_t bits)
{
    return bits << (2 * (unsigned)lp__rt_tkey);
}

void lp__rt_text_readable(void)
{
    if (lp__rt_tkey >= 0)
        lp__rt_wrpkru(lp__rt_rdpkru() & ~lp__rt_tkey_bits(1));
}

/* Whether the process has one thread (/proc/self/stat's twentieth field);
 * 0 when it cannot tell. */
static int lp__rt_single_thread(void)
{
    char buf[512];
    int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = 0;
    /* The command name (field 2) may hold spaces: count from its ')'. */
    const char *p = strrchr(buf, ')');
    for (int field = 2; p && field < 20; field++)
        p = strchr(p + 1, ' ');
    return p && p[1] == '1' && p[2] == ' ';
}

/* Gives [lo, hi) (page-aligned) a key whose writes every thread's
 * register forbids; 0, or -1 and nothing changed. */
static int lp__rt_tkey_setup(uint64_t lo, uint64_t hi)
{
    unsigned a, b, c, d;
    enum { PKEY_DISABLE_WRITE_ = 2, OSPKE = 1u << 4 };
    if (lp__rt.cfg.text_mprotect || !__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(c & OSPKE) ||
        !lp__rt_single_thread())
        return -1;
    long key = lp__rt_syscall4(SYS_pkey_alloc, 0, PKEY_DISABLE_WRITE_, 0, 0);
    if (key <= 0 || key > 15)
        return -1;
    if (lp__rt_syscall4(SYS_pkey_mprotect, (long)lo, (long)(hi - lo),
                        PROT_READ | PROT_WRITE | PROT_EXEC, key) != 0) {
        lp__rt_syscall4(SYS_pkey_free, key, 0, 0, 0);
        return -1;
    }
    lp__rt_tkey = (int)key;
    lp__rt_tkey_lo = lo;
    lp__rt_tkey_hi = hi;
    return 0;
}

const char *lp__rt_text_writes(void)
{
    return lp__rt_tkey >= 0 ? "key" : "mprotect";
}

static int lp__rt_protect(uint64_t lo, uint64_t hi, int writable)
{
    int prot = PROT_READ | PROT_EXEC | (writable ? PROT_WRITE : 0);
    return mprotect((void *)(uintptr_t)lo, (size_t)(hi - lo), prot);
}

int lp__rt_patch_probe(void)
{
    uint64_t pg = lp__rt_page();
    uint64_t lo = lp__rt.text_lo & ~(pg - 1), hi = (lp__rt.text_hi + pg - 1) & ~(pg - 1);
    if (lp__rt.text_hi <= lp__rt.text_lo)
        return -1;
    if (lp__rt.text_code_only && lp__rt_tkey_setup(lo, hi) == 0)
        return 0;
    if (lp__rt_protect(lo, lo + pg, 1) != 0)
        return -1;
    return lp__rt_protect(lo, lo + pg, 0);
}

/* Stores into text are single instructions written in assembly: a byte
 * or word `mov` is atomic on x86, and a sanitizer's instrumentation (the
 * ThreadSanitizer test builds the runtime with it) must not see them, since
 * it keeps no shadow for text. */
LP__TEXT_ACCESS static void lp__rt_store8(uint64_t a, uint8_t v)
{
    __asm__ volatile("movb %1, %0" : "=m"(*(uint8_t *)(uintptr_t)a) : "q"(v) : "memory");
}

LP__TEXT_ACCESS static void lp__rt_store16(uint64_t a, uint16_t v)
{
    __asm__ volatile("movw %1, %0" : "=m"(*(uint16_t *)(uintptr_t)a) : "r"(v) : "memory");
}

LP__TEXT_ACCESS static void lp__rt_store32(uint64_t a, uint32_t v)
{
    __asm__ volatile("movl %1, %0" : "=m"(*(uint32_t *)(uintptr_t)a) : "r"(v) : "memory");
}

/* Runs fn over [lo, hi) with the pages holding it writable. Returns 0 or -1
 * (nothing written). */
static int lp__rt_with_writable(uint64_t lo, uint64_t hi, void (*fn)(void *), void *arg)
{
    if (lp__rt_tkey >= 0 && lo >= lp__rt_tkey_lo && hi <= lp__rt_tkey_hi) {
        uint32_t was = lp__rt_rdpkru();
        lp__rt_wrpkru(was & ~lp__rt_tkey_bits(3));
        fn(arg);
        lp__rt_wrpkru(was);
        return 0;
    }
    uint64_t pg = lp__rt_page();
    uint64_t plo = lo & ~(pg - 1), phi = (hi + pg - 1) & ~(pg - 1);
    if (lp__rt_protect(plo, phi, 1) != 0)
        return -1;
    fn(arg);
    lp__rt_protect(plo, phi, 0);
    return 0;
}

typedef struct lp__rt_run {
    const lp__rt_write *w;
    size_t n;
} lp__rt_run;

LP__TEXT_ACCESS static void lp__rt_write_run(void *arg)
{
    const lp__rt_run *r = arg;
    for (size_t i = 0; i < r->n; i++) {
        const lp__rt_write *w = &r->w[i];
        if (w->size == 4)
            lp__rt_store32(w->addr, w->value);
        else if (w->size == 2)
            lp__rt_store16(w->addr, (uint16_t)w->value);
        else
            lp__rt_store8(w->addr, (uint8_t)w->value);
    }
}

static int lp__rt_write_cmp(const void *x, const void *y)
{
    const lp__rt_write *a = x, *b = y;
    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* One past the last byte a write changes. */
static uint64_t lp__rt_write_end(const lp__rt_write *w)
{
    return w->addr + w->size;
}

/* Writes the n queued bytes and counts them: in one go over the span they
 * cover where it lies in the executable's one text segment (under its
 * key, or in one mprotect pair: each call that takes the write permission
 * back interrupts every other processor running the program, and a
 * window's edge on the native suite wrote 150-600 sites in two or three
 * runs of pages), otherwise (sites in other mappings) one mprotect pair
 * per run of sites whose pages touch, sorted by address. */
static void lp__rt_flush_writes(size_t n)
{
    lp__rt.patches += n;
    if (!n)
        return;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < n; i++) {
        lo = lp__rt_writes[i].addr < lo ? lp__rt_writes[i].addr : lo;
        hi = lp__rt_write_end(&lp__rt_writes[i]) > hi ? lp__rt_write_end(&lp__rt_writes[i]) : hi;
    }
    if (lp__rt.text_one && lo >= lp__rt.text_lo && hi <= lp__rt.text_hi) {
        lp__rt_run r = {lp__rt_writes, n};
        lp__rt_with_writable(lo, hi, lp__rt_write_run, &r);
        return;
    }
    qsort(lp__rt_writes, n, sizeof *lp__rt_writes, lp__rt_write_cmp);
    uint64_t pg = lp__rt_page();
    size_t i = 0;
    while (i < n) {
        size_t j = i + 1;
        uint64_t end_page = (lp__rt_write_end(&lp__rt_writes[i]) + pg - 1) & ~(pg - 1);
        while (j < n && (lp__rt_writes[j].addr & ~(pg - 1)) <= end_page) {
            end_page = (lp__rt_write_end(&lp__rt_writes[j]) + pg - 1) & ~(pg - 1);
            j++;
        }
        lp__rt_run r = {lp__rt_writes + i, j - i};
        lp__rt_with_writable(lp__rt_writes[i].addr, lp__rt_write_end(&lp__rt_writes[j - 1]),
                             lp__rt_write_run, &r);
        i = j;
    }
}

/* Room for at least want queued writes; -1 without memory. */
static int lp__rt_writes_reserve(size_t want)
{
    if (want <= lp__rt_writes_cap)
        return 0;
    size_t cap = lp__rt_writes_cap ? lp__rt_writes_cap : 256;
    while (cap < want)
        cap *= 2;
    lp__rt_write *g = realloc(lp__rt_writes, cap * sizeof *g);
    if (!g)
        return -1;
    lp__rt_writes = g;
    lp__rt_writes_cap = cap;
    return 0;
}

/* A window's edge queues every increment (thousands in a program of
 * Debian's): the queue has room for them from the start, and a write
 * costs a store. */
static inline int lp__rt_queue_write(size_t *n, uint64_t addr, uint32_t value, uint8_t size)
{
    if (__builtin_expect(*n == lp__rt_writes_cap, 0) && lp__rt_writes_reserve(*n + 1) != 0)
        return -1;
    lp__rt_writes[*n] = (lp__rt_write){addr, value, size};
    (*n)++;
    return 0;
}

/* Whether a 4-byte displacement at disp may be switched while threads
 * run through it: it lies within one aligned 16-byte fetch block (see the
 * top of this file). */
static int lp__rt_disp_switchable(uint64_t disp)
{
    return (disp & 15) <= 12;
}

static int lp__rt_queue(size_t *n, uint64_t addr, uint8_t byte)
{
    return lp__rt_queue_write(n, addr, byte, 1);
}

/* Queues method m's entry site switched on (to its copy or the
 * trampoline) or off, and the copies' calls of it with a prefixed one. */
static int lp__rt_queue_entry(size_t *n, const lp__rt_method *m, int on)
{
    if (!m->prefixed)
        return lp__rt_queue(n, m->site, !on ? 0xa9 : m->direct ? 0xe9 : 0xe8);
    int rc = lp__rt_queue_write(n, m->entry, on ? LP__RT_JMP_PREFIX : m->entry_bytes, 2);
    for (uint32_t k = 0; k < m->xcall_count && rc == 0; k++) {
        const lp__rt_xcall *x = &lp__rt_xcalls[m->xcall_first + k];
        rc = lp__rt_queue_write(n, x->disp, (uint32_t)(on ? x->copy : x->plain), 4);
    }
    return rc;
}

/* Whether method m's entry site is a call to the trampoline: for its
 * function events, or to send calls to its copy while blocks are on. */
static int lp__rt_entry_on(const lp__rt_method *m)
{
    return m->on[LP_RT_FUNCTIONS] || (m->copy && m->on[LP_RT_BLOCKS]);
}

/* ---- the copies' increments ---------------------------------------------------------- */

/* A copy runs between windows too: an activation entered in a window
 * stays in its copy until it returns, a sticky method's calls go there,
 * and a function that was running before the first window does. There
 * its increments count for nothing (the gate drops what a thread counts
 * while it is closed), but cost as much as in a window. So they are live
 * only while the gate is open, except a prefixed clock's entry counter,
 * which times the program between windows (rt_clock.c).
 *
 * Off, an increment is `cmpq`: one byte changes, so a thread that fetches
 * the instruction while it is written decodes one form or the other. It
 * saves less than the 10-byte NOP would (compress's copies running all the
 * time: increments +10.5 % of CPU time, as `cmpq` +8.0 %, as NOPs +2.1 %;
 * doc/eval-native.md), but a NOP differs in six bytes, and a jump over
 * them while they change is not enough: an instruction that straddles
 * two cache lines can be fetched half before the stores and half after
 * (json crashed so, in 1 run of 6, executing from a site's byte 9).
 * Writing it safely takes what the kernel's text_poke_bp does: an int3
 * first, and every thread's core serialised between the steps
 * (membarrier's SYNC_CORE). */
typedef struct lp__rt_inc {
    uint64_t modrm;  /* the byte that switches */
    uint32_t method; /* the method whose copy holds it */
    uint8_t entry;   /* it counts the copy's entries */
    uint8_t live;    /* written as ADD */
} lp__rt_inc;

static lp__rt_inc *lp__rt_incs;
static size_t lp__rt_nincs;
/* The gate the increments and loop checks were last settled to (-1:
 * none, or a clock changed since): each type's apply settles them, and
 * the second finds them settled. */
static int lp__rt_incs_gate = -1;

enum { LP__RT_INC_ADD = 0x04, LP__RT_INC_CMP = 0x3c, LP__RT_INC_LEN = 10 };

/* The table lowprof cc writes: each increment's offset from its entry. */
extern const int32_t __start___lp_inc64[] __attribute__((weak));
extern const int32_t __stop___lp_inc64[] __attribute__((weak));

/* The increment at a, as compiled, and its displacement; 0 if the bytes
 * there are anything else (the site is then left alone). */
LP__TEXT_ACCESS static int lp__rt_inc_at(uint64_t a, int64_t *disp)
{
    static const uint8_t head[] = {0x64, 0x48, 0x83, LP__RT_INC_ADD, 0x25};
    const uint8_t *p = (const uint8_t *)(uintptr_t)a;
    for (size_t i = 0; i < sizeof head; i++)
        if (p[i] != head[i])
            return 0;
    if (p[LP__RT_INC_LEN - 1] != 1)
        return 0;
    *disp = lp__rt_text_rel32(p + 5);
    return 1;
}

/* Finds the increments in the executable's copies whose counters have
 * twins, all live as compiled. Without memory there are none, and every
 * increment stays live. */
static void lp__rt_incs_find(void)
{
    const int32_t *e = __start___lp_inc64, *end = __stop___lp_inc64;
    size_t n = e && end > e && lp__rt_cnt_start ? (size_t)(end - e) : 0;
    lp__rt_inc *v = n ? malloc(n * sizeof *v) : NULL;
    int64_t *disp = v ? malloc(n * sizeof *disp) : NULL;
    long *guard = disp ? malloc(n * sizeof *guard) : NULL;
    size_t k = 0;
    for (size_t i = 0; guard && i < n; i++) {
        uint64_t a = (uint64_t)(uintptr_t)&e[i] + (uint64_t)(int64_t)e[i];
        long c =
            a >= lp__rt.text_lo && a + LP__RT_INC_LEN <= lp__rt.text_hi ? lp__rt_copy_at(a) : -1;
        if (c < 0 || lp__rt.copies[c].method < 0 || a + LP__RT_INC_LEN > lp__rt.copies[c].end ||
            !lp__rt_inc_at(a, &disp[k]))
            continue;
        v[k++] = (lp__rt_inc){a + 3, (uint32_t)lp__rt.copies[c].method, 0, 1};
    }
    if (guard)
        lp__rt_cnt_guards_at(disp, guard, k);
    size_t kept = 0;
    for (size_t i = 0; i < k; i++) {
        if (guard[i] < 0)
            continue;
        v[kept] = v[i];
        v[kept++].entry = guard[i] == lp__rt.methods[v[i].method].entry_guard;
    }
    free(guard);
    free(disp);
    if (!kept)
        free(v);
    lp__rt_incs = kept ? v : NULL;
    lp__rt_nincs = kept;
}

/* ---- the copies' loop checks ------------------------------------------------------- */

/* Each outermost loop of a copy built with `lowprof cc --loops=two`
 * starts with a check (src/frontends/cc/cc_loops.c): `jmp` (E9 rel32) to
 * the loop's version without counters while the gate is closed, `cmp
 * $rel32, %eax` (3D and the same four bytes) while it is open, when the
 * loop goes on in its counted blocks. One byte changes, as with the
 * increments. */
typedef struct lp__rt_lcheck {
    uint64_t op;  /* the opcode byte */
    uint8_t live; /* written as CMP: the counted blocks */
} lp__rt_lcheck;

static lp__rt_lcheck *lp__rt_lchecks;
static size_t lp__rt_nlchecks;

enum { LP__RT_LOOP_JMP = 0xe9, LP__RT_LOOP_CMP = 0x3d, LP__RT_LOOP_LEN = 5 };

/* The table lowprof cc writes: each check's offset from its entry. */
extern const int32_t __start___lp_loop64[] __attribute__((weak));
extern const int32_t __stop___lp_loop64[] __attribute__((weak));

/* Whether the bytes at a are a check as compiled (the jump, closed) that
 * lands in [lo, hi) (its copy). */
LP__TEXT_ACCESS static int lp__rt_lcheck_at(uint64_t a, uint64_t lo, uint64_t hi)
{
    const uint8_t *p = (const uint8_t *)(uintptr_t)a;
    if (p[0] != LP__RT_LOOP_JMP)
        return 0;
    uint64_t to = a + LP__RT_LOOP_LEN + (uint64_t)lp__rt_text_rel32(p + 1);
    return to >= lo && to < hi;
}

/* Finds the executable's loop checks, all closed as compiled. A site
 * that is not one is left alone; without memory there are none, and
 * every loop stays in its version without counters, counting nothing. */
static void lp__rt_lchecks_find(void)
{
    const int32_t *e = __start___lp_loop64, *end = __stop___lp_loop64;
    size_t n = e && end > e && lp__rt.ncopies ? (size_t)(end - e) : 0;
    lp__rt_lcheck *v = n ? malloc(n * sizeof *v) : NULL;
    size_t k = 0;
    for (size_t i = 0; v && i < n; i++) {
        uint64_t a = (uint64_t)(uintptr_t)&e[i] + (uint64_t)(int64_t)e[i];
        long c =
            a >= lp__rt.text_lo && a + LP__RT_LOOP_LEN <= lp__rt.text_hi ? lp__rt_copy_at(a) : -1;
        if (c >= 0 && a + LP__RT_LOOP_LEN <= lp__rt.copies[c].end &&
            lp__rt_lcheck_at(a, lp__rt.copies[c].start, lp__rt.copies[c].end))
            v[k++] = (lp__rt_lcheck){a, 0};
    }
    if (!k)
        free(v);
    lp__rt_lchecks = k ? v : NULL;
    lp__rt_nlchecks = k;
}

/* ---- the prefixes' target between windows -------------------------------------------- */

/* A clock's or a sticky method's prefixed entry stays on between windows,
 * and the calls it takes then come from originals: each went through the
 * copy's checking entry, whose test, countdown and every sixteenth call's
 * stub count nothing while the copies do not (graph at 10 % windows: the
 * two clock methods' checking entries and the stub ran 3.3 % of the
 * program's instructions, most of its price). While the gate is closed
 * the prefix's jump names the copy itself; its entry counter still counts
 * the clock. The displacement changes in one 4-byte store, where
 * lp__rt_disp_switchable allows (as the copies' calls'). */
static int lp__rt_prefix_switchable(const lp__rt_method *m)
{
    int64_t to_body = (int64_t)(m->copy_body - (m->site + 5));
    return m->prefixed && m->copy_body && m->copy_body != m->copy &&
           lp__rt_disp_switchable(m->site + 1) && to_body == (int32_t)to_body;
}

/* Queues the prefixes whose target must change for the gate open or
 * closed; 0, or -1 without memory (the rest stay as they are). */
static int lp__rt_queue_prefixes(size_t *n, uint8_t open)
{
    for (size_t i = 0; i < lp__rt.nmethods; i++) {
        lp__rt_method *m = &lp__rt.methods[i];
        uint8_t want = !open && (m->clock || m->sticky) && lp__rt_prefix_switchable(m);
        if (want == m->prefix_body)
            continue;
        uint64_t to = want ? m->copy_body : m->copy;
        if (lp__rt_queue_write(n, m->site + 1, (uint32_t)(int32_t)(to - (m->site + 5)), 4) != 0)
            return -1;
        m->prefix_body = want;
    }
    return 0;
}

/* Queues the increments, loop checks and prefixes that must change for
 * the gate as it is now; without memory the rest stay as they are, and
 * the next call retries. */
static void lp__rt_queue_incs(size_t *n)
{
    uint8_t open = __atomic_load_n(&lp__rt.blocks_on, __ATOMIC_RELAXED);
    if (lp__rt_incs_gate == open)
        return;
    lp__rt_incs_gate = -1;
    for (size_t i = 0; i < lp__rt_nincs; i++) {
        lp__rt_inc *s = &lp__rt_incs[i];
        uint8_t want = open || (s->entry && lp__rt.methods[s->method].clock);
        if (want == s->live)
            continue;
        if (lp__rt_queue(n, s->modrm, want ? LP__RT_INC_ADD : LP__RT_INC_CMP) != 0)
            return; /* those queued still go */
        s->live = want;
    }
    for (size_t i = 0; i < lp__rt_nlchecks; i++) {
        lp__rt_lcheck *s = &lp__rt_lchecks[i];
        if (open == s->live)
            continue;
        if (lp__rt_queue(n, s->op, open ? LP__RT_LOOP_CMP : LP__RT_LOOP_JMP) != 0)
            return;
        s->live = open;
    }
    if (lp__rt_queue_prefixes(n, open) != 0)
        return;
    lp__rt_incs_gate = open;
}

/* With inline counters the copies count function events too: they count
 * while either type is on for some method, except that a clock or a
 * sticky method, which stays on between windows (rt_clock.c,
 * rt_sticky.c), opens the gate only in them. The increments that must
 * follow are queued on n. */
static void lp__rt_gate_update(size_t *n)
{
    uint8_t any = 0;
    for (size_t i = 0; i < lp__rt.nmethods && !any; i++) {
        const lp__rt_method *m = &lp__rt.methods[i];
        any = (m->on[LP_RT_BLOCKS] || (lp__rt_cnt_start && m->on[LP_RT_FUNCTIONS])) &&
              (!(m->clock || m->sticky) || lp__rt.window_on);
    }
    __atomic_store_n(&lp__rt.blocks_on, any, __ATOMIC_SEQ_CST);
    lp__rt_cnt_gate();
    lp__rt_queue_incs(n);
}

int lp__rt_gate_held(void)
{
    int blocks = lp__rt_profiles(LP_RT_BLOCKS),
        functions = lp__rt_cnt_start && lp__rt_profiles(LP_RT_FUNCTIONS);
    for (size_t i = 0; i < lp__rt.nmethods; i++) {
        const lp__rt_method *m = &lp__rt.methods[i];
        if ((blocks && m->mode[LP_RT_BLOCKS] == LP__RT_FORCE_ON) ||
            (functions && m->mode[LP_RT_FUNCTIONS] == LP__RT_FORCE_ON))
            return 1;
    }
    return 0;
}

size_t lp__rt_patch_apply(unsigned type, const uint8_t *want, uint64_t now)
{
    size_t n = 0;
    for (size_t i = 0; i < lp__rt.nmethods; i++) {
        lp__rt_method *m = &lp__rt.methods[i];
        uint8_t on = want[i] ? 1 : 0;
        if (m->on[type] == on)
            continue;
        int ok = 0, entry_was = lp__rt_entry_on(m);
        /* The handler reads on[] without the lock. */
        __atomic_store_n(&m->on[type], on, __ATOMIC_RELAXED);
        if (m->site && lp__rt_entry_on(m) != entry_was)
            ok = lp__rt_queue_entry(&n, m, !entry_was);
        /* With inline counters the copy counts its own entries. */
        if (type == LP_RT_FUNCTIONS && m->copy_site && !lp__rt_cnt_start && !ok)
            ok = lp__rt_queue(&n, m->copy_site, on ? 0xe8 : 0xa9);
        /* Copies keep their coverage calls: only the entry leads there. */
        if (type == LP_RT_BLOCKS && !lp__rt.ncopies)
            for (uint32_t k = 0; k < m->cov_count && !ok; k++) {
                const lp__rt_site *s = &lp__rt.cov[m->cov_first + k];
                ok = lp__rt_queue(&n, s->addr, on ? s->on_byte : s->off_byte);
            }
        if (ok != 0) {
            __atomic_store_n(&m->on[type], !on, __ATOMIC_RELAXED);
            break; /* out of memory: leave the rest as they are */
        }
        if (on) {
            m->on_since[type] = now;
            m->ever[type] = 1;
        } else
            m->on_ns[type] += now > m->on_since[type] ? now - m->on_since[type] : 0;
    }
    if (type == LP_RT_BLOCKS || lp__rt_cnt_start)
        lp__rt_gate_update(&n);
    /* Methods are sorted by entry and their sites lie inside them, so the
     * queue is nearly sorted already; the flush sorts anyway for the page
     * runs. */
    lp__rt_flush_writes(n);
    lp__rt_tramp_moved(); /* after on[] changed */
    return n;
}

int lp__rt_prewindow;

void lp__rt_patch_prewindow(int on)
{
    size_t n = 0;
    for (size_t i = 0; i < lp__rt.nmethods; i++) {
        const lp__rt_method *m = &lp__rt.methods[i];
        if (m->site && m->direct && !lp__rt_entry_on(m) && lp__rt_queue_entry(&n, m, on) != 0)
            break; /* out of memory: those queued still go */
    }
    lp__rt_flush_writes(n);
    lp__rt_prewindow = on;
}

void lp__rt_patch_all_off(void)
{
    if (lp__rt_prewindow)
        lp__rt_patch_prewindow(0);
    uint8_t *zero = calloc(lp__rt.nmethods ? lp__rt.nmethods : 1, 1);
    if (!zero)
        return;
    uint64_t now = lp__rt_cpu_ns();
    for (unsigned t = 0; t < LP_RT_TYPES; t++)
        lp__rt_patch_apply(t, zero, now);
    free(zero);
}

/* ---- preparing the sites ---------------------------------------------------------- */

/* Whether a rel32 at site reaches target. */
static int lp__rt_reaches(uint64_t site, uint64_t target)
{
    int64_t d = (int64_t)(target - (site + 5));
    return d == (int32_t)d;
}

/* Rewrites the compiler's NOPs at site into the off form, whose
 * displacement leads to target when byte 0 is switched on. */
LP__TEXT_ACCESS static void lp__rt_prepare_entry(uint64_t site, uint64_t target)
{
    uint8_t *p = (uint8_t *)(uintptr_t)site;
    int32_t rel = (int32_t)(target - (site + 5));
    uint8_t off[5] = {0xa9};
    memcpy(off + 1, &rel, 4);
    if (p[0] == off[0] && p[1] == off[1] && p[2] == off[2] && p[3] == off[3] && p[4] == off[4])
        return;
    lp__rt_store16(site, 0x03eb); /* jmp +3: bytes 2-4 are skipped */
    for (int k = 2; k < 5; k++)
        lp__rt_store8(site + (uint64_t)k, off[k]);
    uint16_t first;
    memcpy(&first, off, 2);
    lp__rt_store16(site, first);
}

/* Readies a prefixed entry: its five bytes become the jump to the copy
 * (no thread runs them before the first switch), and the function's
 * first two bytes are kept for switching off. 0, or -1 when it cannot be
 * switched: without a copy in reach, or with its two bytes across cache
 * lines or looking switched on already. */
LP__TEXT_ACCESS static int lp__rt_prepare_prefix(lp__rt_method *m)
{
    const uint8_t *e = (const uint8_t *)(uintptr_t)m->entry;
    uint16_t bytes = (uint16_t)(e[0] | e[1] << 8);
    if (!m->direct || (m->entry & 63) == 63 || bytes == LP__RT_JMP_PREFIX)
        return -1;
    int32_t rel = (int32_t)(m->copy - (m->site + 5));
    uint8_t jmp[5] = {0xe9};
    memcpy(jmp + 1, &rel, 4);
    for (int k = 0; k < 5; k++)
        lp__rt_store8(m->site + (uint64_t)k, jmp[k]);
    m->entry_bytes = bytes;
    return 0;
}

static void lp__rt_prepare_entries(void *arg)
{
    (void)arg;
    const uint64_t tramp = (uint64_t)(uintptr_t)&lp__rt_entry_tramp;
    int functions = lp__rt_profiles(LP_RT_FUNCTIONS);
    for (size_t i = 0; i < lp__rt.nmethods; i++) {
        lp__rt_method *m = &lp__rt.methods[i];
        /* A copy with inline counters counts the entry and its calls
         * itself: no handler is needed even for function events. */
        m->direct = m->site && m->copy && (!functions || lp__rt_cnt_start) &&
                    lp__rt_reaches(m->site, m->copy);
        if (m->prefixed && lp__rt_prepare_prefix(m) != 0) {
            /* Never switched: the trampoline cannot return into it. */
            m->site = 0;
            m->prefixed = m->direct = 0;
            m->unswitchable = 1;
            lp__rt.entry_sites--;
            lp__rt.entry_unswitchable++;
        }
        lp__rt.entry_direct += m->direct;
        lp__rt.entry_prefixed += m->prefixed;
        if (m->site && !m->prefixed)
            lp__rt_prepare_entry(m->site, m->direct ? m->copy : tramp);
        if (m->copy_site)
            lp__rt_prepare_entry(m->copy_site, tramp);
        m->on[LP_RT_FUNCTIONS] = 0;
    }
}

static void lp__rt_prepare_cov(void *arg)
{
    (void)arg;
    for (size_t i = 0; i < lp__rt.ncov; i++)
        lp__rt_store8(lp__rt.cov[i].addr, lp__rt.cov[i].off_byte);
}

static int lp__rt_xcall_cmp(const void *x, const void *y)
{
    const lp__rt_xcall *a = x, *b = y;
    if (a->method != b->method)
        return a->method < b->method ? -1 : 1;
    return a->disp < b->disp ? -1 : a->disp > b->disp;
}

/* Finds the copies' direct calls of the prefixed methods from the site
 * table: each site's block has its calls of the callee, in order. Without
 * memory there are none, and those calls go through the entries. */
LP__TEXT_ACCESS static void lp__rt_xcalls_find(void)
{
    size_t n, k = 0;
    const lp__rt_csite *sites = lp__rt_csites(&n);
    lp__rt_xcall *x = n && lp__rt.entry_prefixed && lp__rt.pcs_start ? malloc(n * sizeof *x) : NULL;
    if (!x)
        return;
    uint64_t prev_ret = 0;
    for (size_t i = 0; i < n; i++) {
        size_t g = (size_t)(sites[i].counter - lp__rt_cnt_start);
        long m = g < lp__rt.nguards ? lp__rt_method_exact(sites[i].callee) : -1;
        int again = i > 0 && sites[i - 1].counter == sites[i].counter &&
                    sites[i - 1].callee == sites[i].callee && prev_ret;
        uint64_t from = again ? prev_ret : m >= 0 ? lp__rt.pcs_start[2 * g] : 0;
        prev_ret = 0;
        if (m < 0 || !lp__rt.methods[m].prefixed)
            continue;
        uint64_t ret = lp__rt_copy_call_after(from, sites[i].callee, 0);
        prev_ret = ret;
        uint64_t disp = ret - 4;
        int64_t to_copy = (int64_t)(lp__rt.methods[m].copy_body - ret);
        if (!ret || !lp__rt_disp_switchable(disp) || to_copy != (int32_t)to_copy ||
            (k && x[k - 1].disp == disp))
            continue;
        x[k++] =
            (lp__rt_xcall){disp, (uint32_t)m, (int32_t)(sites[i].callee - ret), (int32_t)to_copy};
    }
    qsort(x, k, sizeof *x, lp__rt_xcall_cmp);
    for (size_t i = 0; i < k; i++) {
        lp__rt_method *m = &lp__rt.methods[x[i].method];
        if (!m->xcall_count)
            m->xcall_first = (uint32_t)i;
        m->xcall_count++;
    }
    lp__rt_xcalls = x;
    lp__rt.entry_xcalls = k;
}

int lp__rt_patch_prepare(void)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < lp__rt.nmethods; i++) {
        const lp__rt_method *m = &lp__rt.methods[i];
        for (int k = 0; k < 2; k++) {
            uint64_t site = k ? m->copy_site : m->site;
            if (site) {
                lo = site < lo ? site : lo;
                hi = site + 5 > hi ? site + 5 : hi;
            }
        }
    }
    if (hi > lo && lp__rt_with_writable(lo, hi, lp__rt_prepare_entries, NULL) != 0)
        return -1;
    lp__rt_xcalls_find();
    /* The increments and loop checks start off, as the gate does. */
    lp__rt_incs_find();
    lp__rt_lchecks_find();
    lp__rt_writes_reserve(lp__rt_nincs + lp__rt_nlchecks + 256); /* else grown as needed */
    size_t n = 0;
    lp__rt_queue_incs(&n);
    lp__rt_flush_writes(n);
    if (lp__rt.ncov && !lp__rt.ncopies && lp__rt_with_writable(lp__rt.cov[0].addr,
                                            lp__rt.cov[lp__rt.ncov - 1].addr + 5,
                                            lp__rt_prepare_cov, NULL) != 0)
        return -1;
    return 0;
}

/* ---- clock methods ---------------------------------------------------------------- */

/* Points method m's prepared entry at its copy (direct) or at the
 * trampoline, in the state (on or off) it is in. */
static void lp__rt_retarget(void *arg)
{
    lp__rt_method *m = arg;
    lp__rt_prepare_entry(m->site, m->direct ? m->copy
                                            : (uint64_t)(uintptr_t)&lp__rt_entry_tramp);
    if (lp__rt_entry_on(m))
        lp__rt_store8(m->site, m->direct ? 0xe9 : 0xe8);
}

void lp__rt_patch_clock(size_t i, int on)
{
    lp__rt_method *m = &lp__rt.methods[i];
    __atomic_store_n(&m->clock, on ? 1 : 0, __ATOMIC_RELAXED);
    lp__rt_incs_gate = -1; /* its entry counter's increment follows it */
    lp__rt_tramp_moved();
    /* A prefixed entry goes to the copy as a clock too: the trampoline
     * could not return into the function, whose first bytes it replaced.
     * Its copy's entry counter counts it (rt_clock.c). */
    int direct = m->site && m->copy && lp__rt_cnt_start && !on && lp__rt_reaches(m->site, m->copy);
    if (m->site && m->copy && lp__rt_cnt_start && m->direct != direct && !m->prefixed) {
        m->direct = (uint8_t)direct;
        lp__rt_with_writable(m->site, m->site + 5, lp__rt_retarget, m);
    }
    size_t n = 0;
    lp__rt_gate_update(&n);
    lp__rt_flush_writes(n);
}
