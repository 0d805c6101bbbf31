/* The native runtime's private interface (src/frontends/rt).
 *
 * One process-wide state, lp__rt, built once by the constructor (rt_main.c)
 * and then read by the hot paths without locks: the method table, the
 * patch sites, the counters. Only the daemon thread and the public API
 * change what is switched on, under lp__rt.lock. The signal handlers touch
 * nothing but counters, the sample ring and preallocated memory.
 *
 * Files: rt_main.c (constructor, destructor, fork, public API),
 * rt_config.c (LOWPROF), rt_elf.c (modules, symbols, sites), rt_patch.c
 * (writing text), rt_count.c (the handlers behind the profile
 * instructions), rt_tramp.S (the entry trampoline), rt_daemon.c (windows
 * and strategies), rt_phase.c (the phase strategy's intervals and their
 * windows), rt_phase_out.c (the phase strategy's profiles and
 * Interleaved messages), rt_clock.c (the clock methods), rt_copy.c (the
 * copies), rt_sampler.c (SIGPROF PC samples), rt_stacks.c (their
 * frame-pointer stacks and calling contexts), rt_dump.c (profile files),
 * rt_fatal.c (fatal signals, the bump arena), rt_bursty.c (the bursty
 * checks compiled into the program), rt_sticky.c (long-running originals
 * kept in their copies), rt_start.c (threads started in their copies). */
#ifndef LP_RT_INTERNAL_H
#define LP_RT_INTERNAL_H

#include <elf.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "lowprof/core.h"
#include "lowprof/flags.h"
#include "lowprof/phase.h"
#include "lowprof/rt.h"
#include "lowprof/trace.h"

#define LP__HIDDEN __attribute__((visibility("hidden")))
/* For code that reads or writes the program's text: a sanitizer build of
 * the runtime (the ThreadSanitizer test) has no shadow memory for text.
 * Such code also avoids memcpy and memcmp, which sanitizers intercept. */
#define LP__TEXT_ACCESS __attribute__((no_sanitize("thread", "address")))

/* A system call by the instruction itself rather than libc's syscall():
 * no errno, safe in a signal handler, and nothing new imported from libc,
 * since a function the runtime imports that the program does not adds a
 * PLT entry ahead of the program's code, which moves every function of it
 * by 16 bytes (raytrace's run with everything off took 15 % longer so,
 * from the placement of its hot loop alone). Returns the kernel's result,
 * -errno on failure. */
static inline long lp__rt_syscall4(long nr, long a, long b, long c, long d)
{
    long r;
    register long r10 __asm__("r10") = d;
    __asm__ volatile("syscall"
                     : "=a"(r)
                     : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
                     : "rcx", "r11", "memory");
    return r;
}

/* Text bytes, read one at a time (see LP__TEXT_ACCESS). */
LP__TEXT_ACCESS static inline int32_t lp__rt_text_rel32(const uint8_t *p)
{
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24);
}

/* The length of the rel32 call or jump at address a (text bytes p, avail
 * of them readable, at least 5) if it lands on target: 5 for call (E8) and
 * jmp (E9), 6 for a conditional jump (0F 8x); 0 otherwise. */
LP__TEXT_ACCESS static inline unsigned lp__rt_text_branch_to(const uint8_t *p, size_t avail,
                                                             uint64_t a, uint64_t target)
{
    if ((p[0] == 0xe8 || p[0] == 0xe9) &&
        a + 5 + (uint64_t)(int64_t)lp__rt_text_rel32(p + 1) == target)
        return 5;
    if (avail >= 6 && p[0] == 0x0f && (p[1] & 0xf0) == 0x80 &&
        a + 6 + (uint64_t)(int64_t)lp__rt_text_rel32(p + 2) == target)
        return 6;
    return 0;
}

/* ---- configuration (rt_config.c) ------------------------------------------ */

typedef enum lp__rt_strategy {
    LP__RT_ALWAYS = 1,
    LP__RT_NEVER = 2,
    LP__RT_PERIODIC = 3,
    LP__RT_RANDOM = 4,
    LP__RT_PHASE = 5,
    LP__RT_BURSTY = 6,
} lp__rt_strategy;

#define LP__RT_OUT_MAX 1024

typedef struct lp__rt_config {
    unsigned strategy;    /* lp__rt_strategy */
    unsigned types;       /* 1u << LP_RT_FUNCTIONS | 1u << LP_RT_BLOCKS */
    unsigned context;     /* profiles=...,context: frame-pointer stacks of the
                             PC samples become a calling-context profile */
    unsigned duty;        /* percent of each period switched on, 1..100 */
    uint64_t period_ns;   /* window period in process CPU time */
    uint64_t seed;        /* random windows, phase table */
    unsigned hot;         /* methods switched on by windows; 0 = all */
    unsigned rate;        /* SIGPROF samples per CPU second */
    uint64_t burst;       /* bursty: events per burst (n_instr) */
    uint64_t check_ns;    /* bursty: CPU time off between bursts (n_check) */
    double threshold;     /* phase: similarity threshold */
    double noise;         /* phase: the tracker's allowance for the PC samples'
                             chance differences (lp_phase_tracker_config) */
    unsigned k;           /* phase: the k-th interval of a phase represents it */
    unsigned refine;      /* phase: the refine policy (1) or the k-th interval (0) */
    unsigned scout;       /* phase, k-th policy: percent of each interval not profiled
                             that scout windows count, 0 for none */
    uint64_t flush_ns;    /* wall time between periodic files; 0 = none */
    size_t arcs;          /* call-pair table slots (a power of two) */
    unsigned verbose;
    int period_set;       /* period given explicitly */
    int duty_set;         /* duty given explicitly */
    int seed_set;         /* seed given explicitly */
    char out[LP__RT_OUT_MAX]; /* output pattern: %p is the pid */
    unsigned ship;            /* lp__rt_ship: messages for the collector */
    char spool[LP__RT_OUT_MAX]; /* the folder they are written into */
    char device[128];         /* the device they name; "": the host name */
    /* Bursty checks (rt_bursty.c), for programs compiled with them: */
    uint64_t bt_check0;       /* bursty=: nCheck_0, or LP_BURSTY_INFINITE ("inf") */
    uint64_t bt_instr0;       /* nInstr_0 */
    uint64_t streams_limit;   /* streams-limit=: references a thread's buffer holds */
    unsigned text_mprotect;   /* text=mprotect: no protection key (rt_patch.c) */
} lp__rt_config;

/* How the run's profile reaches the collector (doc/runtime.md, "Shipping"):
 * not at all, as one message written into the spool folder when the
 * program ends (the remote-profiling paper's At End), or, under the phase
 * strategy, one message per profiled interval as soon as it ends and a
 * last one with the rest of the phase trace (Interleaved). The runtime
 * never sends anything itself: `lowprof agent` takes the spool's messages. */
enum { LP__RT_SHIP_NONE = 0, LP__RT_SHIP_AT_END = 1, LP__RT_SHIP_INTERLEAVED = 2 };

/* Fills cfg with the defaults, then applies text (may be NULL). On a bad
 * field, writes one message naming it into err (at most errcap bytes) and
 * returns -1 (cfg then holds the defaults plus the fields before it).
 * Uses no allocation. */
LP__HIDDEN int lp__rt_config_parse(const char *text, lp__rt_config *cfg, char *err,
                                   size_t errcap);
/* The defaults (doc/runtime.md). */
LP__HIDDEN void lp__rt_config_defaults(lp__rt_config *cfg);
/* "always", "never", ... */
LP__HIDDEN const char *lp__rt_strategy_name(unsigned strategy);

/* ---- methods, sites and the process's modules (rt_elf.c) ----------------------- */

enum { LP__RT_AUTO = 0, LP__RT_FORCE_ON = 1, LP__RT_FORCE_OFF = 2 };

/* One instrumented function. */
typedef struct lp__rt_method {
    uint64_t entry;                /* its first byte */
    uint64_t end;                  /* one past its last byte */
    uint64_t site;                 /* its patchable entry, or 0; when prefixed,
                                      the five bytes before entry */
    uint64_t copy;                 /* where its entry sends calls while blocks are
                                      on (lowprof cc --blocks=clone): its copy's
                                      checking entry, or the copy; 0 if none */
    uint64_t copy_body;            /* the copy itself, which the copies' own
                                      calls name (copy is its checking entry,
                                      where it has one) */
    uint64_t copy_site;            /* the patchable entry of a copy that only its
                                      callers' copies call: a second entry site */
    uint32_t cov_first, cov_count; /* its coverage call sites in lp__rt.cov */
    uint8_t mode[LP_RT_TYPES];     /* the program's setpf/resetpf, LP__RT_AUTO otherwise */
    uint8_t on[LP_RT_TYPES];       /* what its sites are patched to now */
    uint8_t hot;                   /* in the daemon's hot set */
    uint8_t unswitchable;          /* its entry site could not be prepared */
    uint8_t direct;                /* its entry jumps straight to its copy while
                                      blocks are on (a run without function
                                      events): E9 rel32 to the copy */
    uint8_t has_cov;               /* the pc-table lists blocks of it */
    uint8_t prefixed;              /* lowprof cc's original whose copy takes
                                      calls: site holds `jmp copy` for good,
                                      and switching writes the function's
                                      first two bytes (rt_patch.c) */
    uint16_t entry_bytes;          /* those two bytes as compiled */
    uint32_t xcall_first, xcall_count; /* the copies' direct calls of it, which
                                          name its copy while it is on
                                          (prefixed only; rt_patch.c) */
    int32_t entry_guard;           /* its copy's entry counter (inline counters),
                                      or -1 */
    uint8_t clock;                 /* a clock method (rt_daemon.c): its entry goes
                                      through the trampoline, which counts it in
                                      and out of windows, and its copy is not
                                      used (rt_patch.c, lp__rt_patch_clock); a
                                      prefixed one's goes to its copy, whose
                                      entry counter counts it */
    uint8_t sticky;                /* a long-running original's method: its prefixed
                                      entry stays sent to its copy between windows
                                      too (rt_sticky.c) */
    uint8_t prefix_body;           /* its prefix's jump names copy_body, not its
                                      checking entry (rt_patch.c) */
    uint8_t ever[LP_RT_TYPES];     /* on[] was ever set: with inline counters
                                      its copy counts only while some method
                                      is on, so a dump keeps a method's counts
                                      of a type only if it was ever on */
    uint64_t on_ns[LP_RT_TYPES];   /* CPU time its sites were on, closed spans */
    uint64_t on_since[LP_RT_TYPES]; /* start of the open span */
} lp__rt_method;

/* A coverage callback call site: byte 0 flips between on (a call or a tail
 * jump to the callback) and off (test eax, imm32, or ret for a tail jump);
 * bytes 1-4 never change. */
typedef struct lp__rt_site {
    uint64_t addr;
    uint8_t on_byte, off_byte;
} lp__rt_site;

/* A block-profiled copy (NAME.lpdup, made by lowprof cc --blocks=clone):
 * its code counts as its method's. */
typedef struct lp__rt_copy {
    uint64_t start, end;
    uint64_t entry; /* where calls from outside the copies go: its checking
                       entry NAME.lpdupe (lowprof cc, cc_entry.c), else start */
    uint64_t plain; /* the original's symbol address; 0 if not found */
    long method;    /* the original's method, or -1 */
    int takes_calls; /* NAME.lpdup: the runtime may send NAME's calls here;
                        NAME.lpdupc: only its callers' copies call it */
} lp__rt_copy;

/* A function symbol of the executable. */
typedef struct lp__rt_func {
    uint64_t start, end;
} lp__rt_func;

#define LP__RT_MAX_MODULES 64
#define LP__RT_PATH_MAX 512

typedef struct lp__rt_module {
    char path[LP__RT_PATH_MAX];
    uint64_t start, size;
    int64_t bias;
    uint8_t build_id[32];
    uint8_t build_id_len;
} lp__rt_module;

/* Fills lp__rt.modules and the executable's text range. */
LP__HIDDEN void lp__rt_modules_scan(void);
/* Reads the executable's function symbols into lp__rt.funcs (sorted),
 * and its function copies into lp__rt.copies. */
LP__HIDDEN void lp__rt_funcs_load(void);
/* Builds lp__rt.methods from the patchable-entry section and the coverage
 * pc-table, finds the coverage call sites, and the entry-site map. Returns
 * 0 or LP_ENOMEM. */
LP__HIDDEN int lp__rt_methods_build(void);
/* Pairs the copies among the symbols (rt_copy.c); called by
 * lp__rt_funcs_load. */
LP__HIDDEN void lp__rt_copies_load(const Elf64_Sym *sym, size_t n, const char *str,
                                   size_t strsize, uint64_t bias);
/* The copy holding pc, or -1. Signal-safe. */
LP__HIDDEN long lp__rt_copy_at(uint64_t pc);
/* The return address of the first call, tail jump or conditional tail
 * jump (E8, E9, 0F 8x with rel32) to target (or to alt, if not 0: the
 * target's copy, where the runtime may have pointed the call) at or after
 * from, within the copy holding from; 0 if none. Signal-safe. */
LP__HIDDEN uint64_t lp__rt_copy_call_after(uint64_t from, uint64_t target, uint64_t alt);
/* The method whose [entry, end) holds pc (or whose copy holds it), or -1.
 * Signal-safe. */
LP__HIDDEN long lp__rt_method_at(uint64_t pc);
/* The method whose entry is exactly addr, or -1. */
LP__HIDDEN long lp__rt_method_exact(uint64_t addr);
/* The start of the function symbol (or method) holding pc, or 0; for a
 * pc in a copy, its method's entry (its original's, for a copy without a
 * method). Signal-safe. */
LP__HIDDEN uint64_t lp__rt_func_start(uint64_t pc);
/* What the phase signatures hash pc by: the offset of its function (or of
 * pc itself, outside the executable's symbols) in its module, tagged with
 * the module's place in the load order; pc itself outside every module. */
LP__HIDDEN uint64_t lp__rt_phase_key(uint64_t pc);
/* The module (lp__rt.modules) whose text holds pc, or -1. */
LP__HIDDEN long lp__rt_module_at(uint64_t pc);

/* ---- patching text (rt_patch.c) -------------------------------------------------- */

/* Readies the text for writing: a protection key of its own where the
 * machine has them and LOWPROF allows, else checks that its pages can be
 * made writable and executable; 0 or -1. */
LP__HIDDEN int lp__rt_patch_probe(void);
/* Whether the copies count between windows too: a method the program
 * switched on itself (lp_rt_setpf; never a clock or sticky) holds the
 * gate open (lp__rt_gate_update). Caller holds lp__rt.lock. */
LP__HIDDEN int lp__rt_gate_held(void);
/* How the text is written: "key" or "mprotect". */
LP__HIDDEN const char *lp__rt_text_writes(void);
/* Lets the calling thread read the text as data again: a signal handler
 * starts with the kernel's default key register, which denies it.
 * Async-signal-safe; a handler's register is its own until it returns. */
LP__HIDDEN void lp__rt_text_readable(void);
/* Prepares every entry site (the compiler's 5 NOP bytes become an inert
 * `test eax, rel32` whose immediate is the trampoline's displacement) and
 * turns every coverage call off. Called once, by the constructor. */
LP__HIDDEN int lp__rt_patch_prepare(void);
/* Switches type on or off for the methods whose want[] differs from their
 * on[type]; want is indexed by method. Batched per page. now is the CPU
 * time the methods' sites count as switched from. Caller holds
 * lp__rt.lock (or is the only thread). Returns the sites written. */
LP__HIDDEN size_t lp__rt_patch_apply(unsigned type, const uint8_t *want, uint64_t now);
/* Every site off, without the lock: for the fork child and the end. */
LP__HIDDEN void lp__rt_patch_all_off(void);
/* The periodic strategy's first stretch before its first window
 * (rt_daemon.c): on = 1 sends the calls of every method whose entry jumps
 * straight to its copy, and that is off, to the copy, without switching
 * anything on (the copies count nothing while every method is off); on =
 * 0 undoes it. lp__rt_prewindow says whether it is in force. */
LP__HIDDEN void lp__rt_patch_prewindow(int on);
extern LP__HIDDEN int lp__rt_prewindow;
/* Makes method i a clock method (on) or not. A method whose entry jumps
 * straight to its copy is pointed at the trampoline instead while it is a
 * clock: only the trampoline counts it while the copies do not. A
 * prefixed entry keeps jumping to its copy. Caller holds lp__rt.lock. */
LP__HIDDEN void lp__rt_patch_clock(size_t i, int on);

/* ---- counting (rt_count.c, rt_tramp.S) --------------------------------------------- */

/* Call pairs: a fixed open-addressing table of keys, return address |
 * (method index + 1) << 47, 0 for an empty slot; claimed with one
 * compare-and-swap and never released. The counts live per thread, at the
 * key's slot. */
#define LP__RT_ARC_SHIFT 47

/* The hot path's hash (Fibonacci hashing): the top bits of key times the
 * golden ratio, bits of them. Two instructions; good enough for code
 * addresses, which differ in their low bits. */
static inline size_t lp__rt_fib(uint64_t key, unsigned bits)
{
    return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> (64 - bits));
}
#define LP__RT_MAX_METHODS ((1u << (64 - LP__RT_ARC_SHIFT)) - 2)

/* One thread's counters: plain increments, no lock prefix, since only the
 * owning thread writes them (readers sum every block with atomic loads).
 * A block outlives its thread and is handed to the next new thread, which
 * keeps adding to it: only the sums over blocks mean anything. Blocks are
 * mmap'd (NORESERVE: untouched counters cost nothing) and never freed. */
typedef struct lp__rt_tcounts {
    struct lp__rt_tcounts *next; /* the registry, newest first */
    int in_use;                  /* owned by a running thread */
    uint64_t events;             /* recorded events (bursty only) */
    uint64_t *m;                 /* invocations per method */
    uint64_t *b;                 /* executions per coverage guard */
    uint64_t *a;                 /* calls per call-pair slot */
    uint64_t outside;            /* calls counted from outside the copies
                                    (rt_caches.c, the stub's cache) */
    uint64_t *snap;              /* the owner's thread-local copy counters when
                                    they began counting into b; NULL without
                                    inline counters */
    size_t bytes;
    /* The owner's thread pointer, where its copy counters are (rt_count.c);
     * NULL until it has one and once it has ended (its TLS is gone). Read
     * and changed under the gate lock, as are counting and snap. */
    uint8_t *tp;
    /* The methods of recent indirect-call targets (rt_count.c): pairs
     * of (target, method + 1), LP__RT_ICACHE of them; NULL without inline
     * counters. */
    uint64_t *icache;
    int32_t tid;            /* the owner's thread id, 0 when none (lp__rt_cpu_ns) */
    uint8_t icall_busy;     /* the owner is in lp__rt_cp_icall */
    uint8_t counting;       /* b holds the owner's counters less snap */
    uint8_t blocks_refused; /* the owner has reset a flag of a profiled type */
} lp__rt_tcounts;

extern __thread lp_pf_state lp__rt_pf __attribute__((tls_model("initial-exec")));

/* The trampoline's C halves: site is the patched entry, ret the
 * instrumented function's own return address. on_entry is the fast path;
 * it returns 0 when the function goes on, 1 when the event needs the slow
 * path (the thread's first event, which may call libc), or the address of
 * the function's copy, where the trampoline returns instead (blocks on).
 * on_entry_slow does everything and returns 0 or the copy. When
 * lp__rt_tramp_full is set the trampoline saves xmm0-7 and always calls
 * the slow path. */
LP__HIDDEN uint64_t lp__rt_on_entry(uint64_t site, uint64_t ret);
LP__HIDDEN uint64_t lp__rt_on_entry_slow(uint64_t site, uint64_t ret);
extern const unsigned char lp__rt_tramp_full LP__HIDDEN;
/* The assembly trampoline a patched entry calls. */
LP__HIDDEN void lp__rt_entry_tramp(void);
/* Sizes the counter blocks and allocates the call-pair keys once the
 * methods and guards are known. */
LP__HIDDEN int lp__rt_counters_init(void);
/* The counters whose twins lie at the n offsets tpoff from the thread
 * pointer, into guard (-1 where none does, or without memory). */
LP__HIDDEN void lp__rt_cnt_guards_at(const int64_t *tpoff, long *guard, size_t n);
/* Zeroes every block and gives all but the calling thread's back (fork
 * child: the other threads are gone). */
LP__HIDDEN void lp__rt_counters_reset(void);

/* The copies' inline block counters (lowprof cc --blocks=clone; the
 * compiled code is written by src/frontends/cc/cc_counters.c): each
 * increment adds 1 to the thread's own twin of its counter, a thread-local
 * array the section __lp_tls64 locates; the executable's __lp_cnt64
 * section numbers the counters (lp__rt_cnt_start is that section, NULL
 * without inline counters; lp__rt.nguards its length) and is never
 * written. A thread's counts belong to b from the moment its copies start
 * counting (snap: its twins then) to the moment they stop. The compiled
 * code's names (the init callbacks and the entry check's) keep default
 * visibility, as the coverage callbacks do. */
/* The thread's view of the copies' section for their entry check: empty
 * until the thread meets lp__rt_cp_enter (rt_count.c). */
extern __thread uint64_t lp__rt_cp_lo
    __attribute__((tls_model("initial-exec"), visibility("default")));
extern __thread uint64_t lp__rt_cp_len
    __attribute__((tls_model("initial-exec"), visibility("default")));
/* The calls from outside the copies the thread's checking entries let
 * pass before the next goes to lp__rt_cp_enter_stub (rt_caches.c). */
extern __thread uint32_t lp__rt_cp_skip
    __attribute__((tls_model("initial-exec"), visibility("default")));
extern uint64_t *lp__rt_cnt_start LP__HIDDEN;
/* Starts every known thread's copies counting into its block while blocks
 * are on (lp__rt.blocks_on) and the thread's flags allow, and stops them
 * otherwise; called after blocks are switched. Takes the gate lock, which
 * a thread holds only to change its own state; not signal-safe. */
LP__HIDDEN void lp__rt_cnt_gate(void);
/* The process CPU time when the gate last started or stopped the copies'
 * counting, read right after it did (0: never). */
LP__HIDDEN uint64_t lp__rt_cnt_gate_cpu(void);
/* Stops every thread's copies counting now (blocks_on cleared, then the
 * gate), ahead of the patching that settles it. */
LP__HIDDEN void lp__rt_cnt_gate_off(void);
/* The same for the calling thread alone, after its block flag changed. */
LP__HIDDEN void lp__rt_cnt_regate_self(void);
/* The per-thread cache of indirect-call targets' methods: 2^bits pairs. */
enum { LP__RT_ICACHE_BITS = 6, LP__RT_ICACHE = 1 << LP__RT_ICACHE_BITS };
/* How many of the copies' counters have a thread-local twin (all of them
 * unless the table is malformed; the others read 0). */
extern size_t lp__rt_twinned LP__HIDDEN;
/* The sum over every thread's block of counter g of the copies' inline
 * counters, with what the copies counting now have not added yet. */
LP__HIDDEN uint64_t lp__rt_cnt_sum(size_t g);
/* Adds to per_method[m] what every counter of method m's copy has added
 * to every thread's block, times icall_weight for a block whose indirect
 * call was counted (lp__rt.guard_icall): what its copy ran in the windows
 * closed so far, in increments' worth. Without the gate lock: the daemon
 * calls it at a window's edge, where the threads' first events may wait
 * for that lock (sixteen threads starting in their copies), and what the
 * copies count now is not added. */
LP__HIDDEN void lp__rt_cnt_by_method(uint64_t *per_method, uint64_t icall_weight);
/* Counter g of the copies over every thread since it started, counting
 * or not: the live twins, and what the ended threads' twins held. It
 * counts a prefixed clock method's entries (rt_clock.c), whose calls go
 * to its copy while the windows are closed too. */
LP__HIDDEN uint64_t lp__rt_cnt_total(size_t g);
/* Gives the calling thread its counter block now if it has none (the
 * constructor, for the main thread). Signal-safe. */
LP__HIDDEN void lp__rt_thread_attach(void);
/* The copies' direct call sites (cc_sites.c writes them into the section
 * __lp_sites64): the counter of the site's block and the callee. */
typedef struct lp__rt_csite {
    uint64_t *counter;
    uint64_t callee;
} lp__rt_csite;
/* The executable's site table, and its length (0 without one). */
LP__HIDDEN const lp__rt_csite *lp__rt_csites(size_t *n);
/* The method a call to addr enters: the method starting there, or the one
 * whose copy starts there (a static function's NAME.lpdupc); -1 if none. */
LP__HIDDEN long lp__rt_callee_method(uint64_t addr);
/* A call pair's key: the caller's address | (method + 1) << 47. */
static inline uint64_t lp__rt_arc_key(uint64_t caller, size_t m)
{
    return (caller & ((1ULL << LP__RT_ARC_SHIFT) - 1)) | ((uint64_t)(m + 1) << LP__RT_ARC_SHIFT);
}

/* Sums over every thread's block. */
typedef struct lp__rt_counts {
    uint64_t *m, *b, *a;
    uint64_t events;
} lp__rt_counts;
/* Allocates zeroed arrays (lp_calloc: the arena in the fatal path).
 * 0 or LP_ENOMEM. */
LP__HIDDEN int lp__rt_counts_alloc(lp__rt_counts *c);
LP__HIDDEN void lp__rt_counts_free(lp__rt_counts *c);
/* Fills c with the current sums. Lock-free; signal-safe. */
LP__HIDDEN void lp__rt_counts_sum(lp__rt_counts *c);
LP__HIDDEN void lp__rt_counts_zero(lp__rt_counts *c);
/* acc += now - base, array by array: what counted between two sums. */
LP__HIDDEN void lp__rt_counts_add_diff(lp__rt_counts *acc, const lp__rt_counts *now,
                                       const lp__rt_counts *base);
/* Recorded events over every thread (bursty). */
LP__HIDDEN uint64_t lp__rt_events_sum(void);

/* ---- the SIGPROF sampler (rt_sampler.c) ----------------------------------------------- */

#define LP__RT_RING 8192

/* Installs the handler and a process CPU-time timer at cfg.rate Hz.
 * 0 or -1 (then hot methods and phases have no samples). */
LP__HIDDEN int lp__rt_sampler_start(void);
LP__HIDDEN void lp__rt_sampler_stop(void);
/* Fork child: the parent's timer is not inherited; forget it. */
LP__HIDDEN void lp__rt_sampler_forget(void);
/* Whether the configuration needs PC samples (hot methods or phases). */
LP__HIDDEN int lp__rt_needs_sampler(void);
/* Finds the runtime's event path (the entry trampoline, the entry
 * handlers, the coverage callback) among the executable's symbols; called
 * by lp__rt_sampler_start. */
LP__HIDDEN void lp__rt_overhead_find(void);
/* Whether pc lies in that path. The phase signatures leave such samples
 * out: a profiled interval spends much of its time there, and would
 * otherwise look like a phase of its own. */
LP__HIDDEN int lp__rt_pc_overhead(uint64_t pc);
/* Moves every sample taken since the last call into out (at most cap);
 * returns how many. Daemon only. */
LP__HIDDEN size_t lp__rt_sampler_drain(uint64_t *out, size_t cap);

/* ---- sample stacks and calling contexts (rt_stacks.c) ------------------------------------ */

#define LP__RT_STACK_DEPTH 64 /* frames kept per sample, the PC included */
#define LP__RT_STACK_RING 512

/* From the SIGPROF handler: walks the frame-pointer chain of the
 * interrupted context (a ucontext_t) into the ring of stacks. Signal-safe;
 * never faults, whatever rbp holds. */
LP__HIDDEN void lp__rt_stack_take(const void *uc);
/* Moves the stacks taken since the last call into the context table.
 * Daemon only, under lp__rt.lock. Nothing unless cfg.context. */
LP__HIDDEN void lp__rt_stacks_drain(void);
/* Adds the whole-run LP_PROF_CONTEXT profile (v1: samples whose innermost
 * frame is the context) and its meta to set; 0 without cfg.context. Caller
 * holds lp__rt.lock; not for the fatal path (the daemon may be inside the
 * table). 0 or LP_ENOMEM. */
LP__HIDDEN int lp__rt_stacks_profile(lp_profile_set *set);
/* Fork child: the parent's stacks and contexts are not this process's. */
LP__HIDDEN void lp__rt_stacks_forget(void);

/* ---- the daemon (rt_daemon.c) ------------------------------------------------------------ */

/* Patches every method to what its mode, the window and the hot set ask
 * for, as of CPU time now (the caller's reading: a CPU-clock read costs
 * the daemon a few microseconds, and each edge already took one). Caller
 * holds lp__rt.lock. */
LP__HIDDEN void lp__rt_apply(uint64_t now);
/* Creates the daemon thread with every signal blocked. 0 or -1. */
LP__HIDDEN int lp__rt_daemon_start(void);
/* Stops and joins it, closes the window in progress. Idempotent. */
LP__HIDDEN void lp__rt_daemon_stop(void);
/* Fork child: forget the parent's daemon state (no thread to join). */
LP__HIDDEN void lp__rt_daemon_forget(void);
/* Windows (caller holds lp__rt.lock): open switches the window's
 * methods on at CPU time now; close switches them off and returns the
 * program time the window held (0 if none was open). */
LP__HIDDEN void lp__rt_window_open(uint64_t now);
LP__HIDDEN uint64_t lp__rt_window_close(uint64_t now);
/* Every method off until a first window, the copies taking the calls. */
LP__HIDDEN void lp__rt_prewindow_begin(uint64_t now);
/* The generator of a random start: seed= where given, else each run's own. */
LP__HIDDEN void lp__rt_start_seed(lp_rng *r);

/* ---- the phase strategy (rt_phase.c) ----------------------------------------------------- */

/* The run's first interval begins at CPU time now. */
LP__HIDDEN void lp__rt_phase_begin(uint64_t now);
/* Opens or closes the interval's windows that are due at now. */
LP__HIDDEN void lp__rt_phase_windows_step(uint64_t now);
/* The CPU time of the next window event, UINT64_MAX for none. */
LP__HIDDEN uint64_t lp__rt_phase_window_next(void);
/* Ends the interval in progress at now; decides the next (none if last). */
LP__HIDDEN void lp__rt_phase_boundary(uint64_t now, int last);
/* Whether the interval in progress takes the phase of the one before it
 * (its PC samples then go unclassified). */
LP__HIDDEN int lp__rt_phase_borrows(void);
/* The strategy's tracker, daemon and tables: 0 or -1; free forgets them. */
LP__HIDDEN int lp__rt_phase_alloc(void);
LP__HIDDEN void lp__rt_phase_free(void);
/* Profiles a part adds to a dump: > 0 when it wrote the whole-run ones
 * too, 0 when the dump should build them from the counters, < 0 an error. */
typedef int (*lp__rt_profiles_fn)(lp_profile_set *set, int final);
/* The phase strategy's per-phase tables and whole-run estimate, into set
 * (an lp__rt_profiles_fn for lp__rt_dump); 0 for the other strategies.
 * Caller holds the lock. */
LP__HIDDEN int lp__rt_daemon_profiles(lp_profile_set *set, int final);
/* The phase strategy's state that rt_phase.c keeps and rt_phase_out.c
 * writes out: the tracker and the daemon; each profiled interval's tables
 * (kept_tabs, nkept of them), scaled to the whole interval; every
 * interval's clock calls (UINT64_MAX: before the clock was chosen), CPU
 * time and whether it was profiled whole; the CPU time profiled. */
typedef struct lp__rt_kept {
    lp_table t[LP_PROF_TYPE_MAX + 1];
} lp__rt_kept;
typedef struct lp__rt_iv {
    uint64_t ticks, cpu;
    int whole;
} lp__rt_iv;
extern lp_phase_tracker lp__rt_tracker LP__HIDDEN;
extern lp_phase_daemon *lp__rt_pd LP__HIDDEN;
extern lp__rt_kept *lp__rt_kept_tabs LP__HIDDEN;
extern size_t lp__rt_nkept LP__HIDDEN;
extern lp__rt_iv *lp__rt_ivs LP__HIDDEN;
extern size_t lp__rt_niv LP__HIDDEN;
extern uint64_t lp__rt_sampled_ns LP__HIDDEN;
/* Scouting (scout=N): the CPU time of the scout windows and the intervals
 * scouted; each scouted interval's tables join its phase's
 * (lp__rt_scout_keep takes k's: the windows' counts, and those times the
 * rest of the interval's CPU time over the windows'; rate: the clock's
 * calls and CPU time in its windows and out of them, as
 * lp__rt_scout_rate; by_cpu: the clock did not time it), and stand for
 * that interval in the whole-run estimate where the clock timed it or the
 * phase has no profile. */
extern uint64_t lp__rt_scout_cpu LP__HIDDEN;
extern uint64_t lp__rt_nscouted LP__HIDDEN;
/* Over the profiled and scouted intervals the clock timed whole: the
 * clock's calls and CPU time in their windows, then in the rest of them.
 * A scouted interval is brought to its whole by CPU time, which leaves
 * the windows' slowdown in; these measure it. */
extern uint64_t lp__rt_scout_rate[4] LP__HIDDEN;
/* Fewer of the clock's calls than this are noise: no slowdown is measured
 * on fewer, in the windows or out of them (rt_phase_out.c). */
enum { LP__RT_SCOUT_TICKS = 64 };
/* Whether the intervals not profiled are scouted (all of them, or none):
 * scout=N with the k-th policy (refine has its own stand-ins). */
LP__HIDDEN int lp__rt_scout_wanted(void);
LP__HIDDEN void lp__rt_scout_keep(uint32_t phase, lp__rt_kept k[2], int by_cpu,
                                  const uint64_t rate[4]);
LP__HIDDEN void lp__rt_scouts_free(void);
/* ship=interleaved: the message of the profiled intervals that ended since
 * the last one (final: the last message, with the rest of the trace and
 * the run's own estimate); and, in a fork child, a run of its own. */
LP__HIDDEN void lp__rt_ship_interleaved(int final);
LP__HIDDEN void lp__rt_ship_forget(void);

/* Window accounting the dump reads. */
typedef struct lp__rt_clock {
    uint64_t start_ns; /* process CPU time when counting began */
    uint64_t on_ns;    /* CPU time spent in closed windows */
    uint64_t on_since; /* start of the open window, 0 if none */
    uint64_t windows;  /* windows opened */
    uint64_t end_ns;   /* when counting ended (the daemon stopped), or 0 */
} lp__rt_clock;

/* The clock (rt_daemon.c; doc/runtime.md, "Estimates"): a few methods
 * called often enough to time the program's progress and seldom enough
 * that counting them costs next to nothing, whose entries the daemon keeps
 * counted while the windows are closed. Their calls per CPU second with the
 * windows closed give the CPU time per call the program takes when
 * nothing is counted, and so the program time of the windows: their clock
 * calls at that rate. A clock is used until the windows stop seeing its
 * calls, then another is chosen: each clock's span of the run ("epoch")
 * is accounted by its own rate. */
#define LP__RT_CLOCKS 8
typedef struct lp__rt_ticks {
    long method;                    /* the first clock method, or -1 */
    long clocks[LP__RT_CLOCKS];     /* the clock methods: their calls add up */
    unsigned nclocks;
    unsigned gen;                   /* clocks chosen so far */
    unsigned open_gen, close_gen;   /* the clock when the window opened, and
                                       when the last one closed (0: none) */
    uint64_t open_k, close_k;       /* its count then */
    uint64_t close_cpu;             /* CPU time when the last window closed */
    uint64_t calls_windows;         /* clock calls in windows, every clock */
    /* the epoch of the clock in use */
    uint64_t off_calls, off_cpu;    /* its calls and CPU time, windows closed */
    uint64_t win_calls, win_cpu;    /* ... windows open */
    uint64_t *calls[LP_RT_TYPES];   /* per method: its calls, and the CPU time, */
    uint64_t *cpu[LP_RT_TYPES];     /* of windows with the method's sites on */
    /* the epochs ended, and the windows before any clock */
    uint64_t *known[LP_RT_TYPES];   /* per method: program time of its windows
                                       in epochs that timed them */
    uint64_t *unknown[LP_RT_TYPES]; /* ... CPU time of its other windows */
    uint64_t known_all, known_cpu;  /* program and CPU time of timed windows */
    uint64_t unknown_all;           /* CPU time of the other windows */
    uint64_t first;                 /* phase: its calls in the interval it was
                                       chosen in */
} lp__rt_ticks;
/* The daemon's clock and window accounting. Read under lp__rt.lock, or by
 * the fatal-signal dump. */
LP__HIDDEN const lp__rt_ticks *lp__rt_daemon_ticks(void);
/* The clock's state (rt_clock.c), which the daemon's phase intervals
 * read, and the windows seen since it looked for a clock. */
extern lp__rt_ticks lp__rt_tk LP__HIDDEN;
extern unsigned lp__rt_wopen_windows LP__HIDDEN;
/* The daemon's calls into rt_clock.c (under lp__rt.lock): a window opened
 * or closed (after span of CPU time); the clock's count now (0 without
 * one); a fresh clock (the fork child); its arrays, once (0 or -1). */
LP__HIDDEN void lp__rt_clock_opened(uint64_t now);
LP__HIDDEN void lp__rt_clock_closed(uint64_t now, uint64_t span);
LP__HIDDEN uint64_t lp__rt_clock_count(void);
/* Chooses a clock from the windows' calls since the last choice; 1 when
 * one was chosen. */
LP__HIDDEN int lp__rt_clock_choose(void);
LP__HIDDEN void lp__rt_clock_forget(void);
LP__HIDDEN int lp__rt_clock_alloc(void);
/* Calls counted from outside the copies so far, over every thread's
 * block; and what one costs in a window more than the same call with the
 * windows closed, in picoseconds (0 until measured; atomic), measured
 * once by lp__rt_outside_measure (rt_caches.c) in the daemon's thread. */
LP__HIDDEN uint64_t lp__rt_outside_calls(void);
extern uint64_t lp__rt_outside_ps LP__HIDDEN;
LP__HIDDEN void lp__rt_outside_measure(void);
/* Makes sticky the methods whose originals have made many calls from
 * outside the copies (rt_sticky.c); the next lp__rt_apply switches them.
 * Daemon, under the lock. */
LP__HIDDEN void lp__rt_sticky_update(void);
/* Whether method i's sites of type stay on between windows: a clock's, or
 * a sticky method's (for function events, or for blocks in a profile of
 * blocks alone). */
LP__HIDDEN int lp__rt_on_between(size_t i, unsigned type);
/* Threads the program started in their start routine's copy (rt_start.c,
 * lp__rt_pthread_create, which lowprof cc calls in place of
 * pthread_create). */
LP__HIDDEN uint64_t lp__rt_threads_started_in_copies(void);
/* The caches of counted calls (rt_caches.c): keep a counted outside call
 * (off, the copy's entry counter) -> the pair's counter slot, in the
 * block with the given counting flag and outside-call count; the thread
 * ends; a fork child starts afresh; keep a counted trampoline call (site
 * + 5, return address) -> the method's and the pair's counters (aslot
 * NULL when a copy called), of generation gen, read before what decided
 * them. */
LP__HIDDEN void lp__rt_oc_keep(uint64_t off, const uint64_t *counter, uint64_t *slot,
                               const uint8_t *counting, uint64_t *outside);
LP__HIDDEN void lp__rt_oc_thread_end(void);
/* Calls from outside the copies counted one in every (rt_caches.c): the
 * weight of a counted one, the thread's next countdown. */
enum { LP__RT_OC_EVERY = 16 };
extern uint32_t lp__rt_oc_every LP__HIDDEN;
LP__HIDDEN void lp__rt_oc_sample(uint32_t every);
LP__HIDDEN void lp__rt_oc_skip_next(void);
LP__HIDDEN void lp__rt_caches_fork_child(void);
LP__HIDDEN void lp__rt_tcache_set(uint64_t gen, uint64_t site5, uint64_t ret, uint64_t *mslot,
                                  uint64_t *aslot);
extern uint64_t lp__rt_tramp_gen LP__HIDDEN;
/* What lp__rt_on_entry reads has changed (a method switched, a clock
 * chosen or let go, the runtime started or stopped): every thread's
 * trampoline cache is stale (rt_caches.c). lp__rt_tcache_forget: the
 * calling thread's is, after its own flags changed. */
LP__HIDDEN void lp__rt_tramp_moved(void);
LP__HIDDEN void lp__rt_tcache_forget(void);
/* Whether method i's events of type enter the profile while the windows
 * are closed: it is switched on then, and is not a prefixed clock. */
LP__HIDDEN int lp__rt_counts_closed(size_t i, unsigned type);
/* Program time of the windows in which method m's sites of type were on
 * (m < 0: every window) that a clock timed, the CPU time of those
 * windows, and the CPU time of the windows none timed; the epoch in
 * progress included. */
LP__HIDDEN void lp__rt_windows_time(long m, unsigned type, uint64_t *prog, uint64_t *prog_cpu,
                                    uint64_t *untimed);

/* x * num / den, rounded to nearest, saturating (rt_dump.c). */
LP__HIDDEN uint64_t lp__rt_muldiv(uint64_t x, uint64_t num, uint64_t den);

/* Process CPU time in ns (CLOCK_PROCESS_CPUTIME_ID), with the time of up
 * to threads of the threads that met the runtime brought up to date first
 * (lp__rt_cpu_ns: four). Signal-safe. rt_state.c. */
LP__HIDDEN uint64_t lp__rt_cpu_fresh(unsigned threads);
LP__HIDDEN uint64_t lp__rt_cpu_ns(void);
/* The calling thread's CPU time, ns. rt_state.c. */
LP__HIDDEN uint64_t lp__rt_thread_cpu_ns(void);

/* ---- profile files (rt_dump.c) --------------------------------------------------------------- */

enum { LP__RT_DUMP_EXIT = 0, LP__RT_DUMP_PERIODIC = 1, LP__RT_DUMP_FATAL = 2, LP__RT_DUMP_API = 3 };

/* Fills tables[type] (initialised by the caller, LP_PROF_TYPE_MAX + 1 of
 * them) with the method, call-pair, call-graph and block counts of cur
 * less base (NULL: from zero). Returns 0 or LP_ENOMEM. */
LP__HIDDEN int lp__rt_tables_build(const lp__rt_counts *cur, const lp__rt_counts *base,
                                   lp_table *tables);
/* Adds v calls to the call pair (ret, callee) of t[LP_PROF_CALL_PAIR] and
 * to its arc (the function holding ret - 1, callee; ret when no symbol
 * holds it) of t[LP_PROF_CALL_GRAPH]. 0 or LP_ENOMEM. */
LP__HIDDEN int lp__rt_pair(lp_table *t, uint64_t ret, uint64_t callee, uint64_t v);
/* Whether the file carries profiles of this lp_profile_type. */
LP__HIDDEN int lp__rt_type_written(unsigned type);
/* Builds the profile set and writes it through a temporary file. why is an
 * LP__RT_DUMP_*; sig the fatal signal; phase_profiles (may be NULL) adds
 * the daemon's profiles, so the dump never calls up into the daemon that
 * calls it. In the fatal path the caller has installed the arena
 * allocator. Returns 0 or a negative LP_E* code. */
LP__HIDDEN int lp__rt_dump(int why, int sig, lp__rt_profiles_fn phase_profiles);
/* Appends the process's modules (copied at start-up) to out, as every
 * profile file and message carries them. Signal-safe with the arena. */
LP__HIDDEN void lp__rt_module_map(lp_module_map *out);
/* An lp_sink write into the file descriptor at *(int *)ctx, whole or
 * LP_EIO. Signal-safe. */
LP__HIDDEN int lp__rt_fd_write(void *ctx, const void *data, size_t size);
/* Writes set into cfg.spool as a message for the collector (ID.lpmsg,
 * through a temporary file), naming it first: message-id (random),
 * device, build-id (the executable's). Signal-safe as lp__rt_dump is.
 * Returns 0 or a negative LP_E* code. */
LP__HIDDEN int lp__rt_spool_write(lp_profile_set *set);
/* 128 random bits as 32 hex digits (getrandom, or the pid and the clock
 * when the kernel gives none). Signal-safe. */
LP__HIDDEN void lp__rt_random_id(char out[33]);
/* Expands cfg.out for the current pid into lp__rt.out_path. */
LP__HIDDEN void lp__rt_out_path(void);
/* Decimal text of v into buf (at least 21 bytes); returns buf. Signal-safe. */
LP__HIDDEN char *lp__rt_u64(uint64_t v, char *buf);
/* Sets key to the decimal text of v. */
LP__HIDDEN void lp__rt_meta_u64(lp_meta *m, const char *key, uint64_t v);
/* Sets key to "0x" and the lower-case hex digits of v. Signal-safe. */
LP__HIDDEN void lp__rt_meta_hex(lp_meta *m, const char *key, uint64_t v);
/* One line on stderr with write(2): "lowprof: " msg "\n". Signal-safe. */
LP__HIDDEN void lp__rt_say(const char *msg);

/* ---- bursty checks (rt_bursty.c) ------------------------------------------------------------- */

/* The runtime half of programs compiled by `lowprof cc
 * --profiles=bursty:PLACEMENT` (doc/runtime.md, "Bursty checks"). The
 * compiled code's ABI (lp__bt_n, lp__bt_mode, lp__bt_slow, lp__bt_ref,
 * lp__bt_enter) is declared and defined in rt_bursty.c, and the stubs
 * the compiled code calls them through in rt_tramp.S. */

/* Whether the program has checks: some module put its placement's name
 * into the section __lp_bursty. */
LP__HIDDEN int lp__rt_bursty_present(void);
/* Called once by the constructor, whatever it decided: turns the checks on
 * when the runtime is enabled and the program has them, and off for good
 * otherwise (until then every check asks lp__bt_slow again). */
LP__HIDDEN void lp__rt_bursty_start(void);
/* Fork child: only the calling thread's record stays, zeroed, with its
 * Fig. 3 state started afresh. */
LP__HIDDEN void lp__rt_bursty_reset(void);
/* Adds the checks' profiles to set: the meta, the scaled call pairs and
 * call graph (unless set already has a call-pair profile), and, except for
 * why == LP__RT_DUMP_FATAL, the hot data streams of every thread's
 * buffered references. Nothing when the checks are off. Returns 0 or
 * LP_ENOMEM (a failure to find the streams is said in the meta instead). */
LP__HIDDEN int lp__rt_bursty_profiles(lp_profile_set *set, int why);

/* ---- fatal signals and the arena (rt_fatal.c) ------------------------------------------------- */

LP__HIDDEN int lp__rt_fatal_install(void);
/* Fork child: nothing written yet, the arena empty. */
LP__HIDDEN void lp__rt_fatal_forget(void);
/* Where the fault that is ending the process happened: 1 with *pc the
 * faulting instruction and *addr the address it touched (si_addr), for a
 * SIGSEGV, SIGBUS, SIGILL or SIGFPE the processor raised; 0 for a signal
 * sent (kill, abort) or none. Signal-safe. */
LP__HIDDEN int lp__rt_fault(uint64_t *pc, uint64_t *addr);
/* "SIGSEGV" and the other fatal signals' names; NULL for another. */
LP__HIDDEN const char *lp__rt_signal_name(int sig);
/* Reserves the arena for the largest profile set the counters can give. */
LP__HIDDEN int lp__rt_arena_reserve(void);

/* ---- the state --------------------------------------------------------------------------------- */

typedef struct lp__rt_state {
    lp__rt_config cfg;
    int enabled;         /* initialised and not disabled */
    int live;            /* handlers count */
    int window_on;       /* the daemon's window is open */
    int scouting;        /* phase: the interval in progress is scouted (scout=N,
                            rt_daemon.c), and its windows choose no clock
                            (rt_clock.c) */
    uint8_t blocks_on;   /* some method's blocks are on */
    int frozen;          /* a fatal signal was handled: the daemon stops */
    pthread_mutex_t lock; /* switching, daemon state, dumps */

    lp__rt_method *methods; /* sorted by entry */
    size_t nmethods;
    uint64_t *map_keys; /* entry site -> method index (open addressing) */
    uint32_t *map_vals;
    size_t map_mask;
    unsigned map_bits; /* log2 of its capacity */
    lp__rt_site *cov; /* grouped by method */
    size_t ncov;
    size_t entry_sites, entry_unswitchable, entry_prefixed, cov_rejected;
    size_t entry_xcalls; /* the copies' calls switched with prefixed entries */
    size_t entry_direct; /* entry sites that jump straight to a copy */
    size_t sticky;       /* methods sticky now (rt_sticky.c) */
    size_t sticky_revoked; /* methods sticky no more */

    lp__rt_func *funcs; /* executable's function symbols, sorted */
    size_t nfuncs;
    lp__rt_copy *copies; /* block-profiled copies, sorted; their coverage
                            calls stay as compiled */
    size_t ncopies;
    lp__rt_module modules[LP__RT_MAX_MODULES];
    size_t nmodules;
    uint64_t text_lo, text_hi; /* the executable's text */
    int text_one;              /* ... in one segment: its pages share one mapping */
    int text_code_only;        /* ... which holds no read-only data (rt_elf.c) */
    int64_t exe_bias;          /* its load bias */

    /* coverage guards of the executable */
    uint32_t *guards_start, *guards_stop;
    const uintptr_t *pcs_start, *pcs_end;
    size_t nguards;
    int32_t *guard_method; /* per guard */
    uint8_t *guard_icall;  /* per guard: its block's indirect call was counted
                              (lp__rt_cp_icall), in a window */

    /* counters */
    lp__rt_tcounts *blocks; /* every thread's, newest first */
    uint64_t *arc_keys;
    size_t arc_mask;
    unsigned arc_bits;
    uint64_t arc_drops;
    int count_events; /* events are counted (bursty) */

    lp__rt_clock clock;
    uint64_t samples, samples_lost;
    uint64_t patches; /* sites written by switching */
    /* The daemon's own cost: its thread's CPU time (ns) and how often it
     * woke, as of its last wake-up (rt_daemon.c). */
    uint64_t daemon_cpu_ns, daemon_wakeups;

    char out_path[LP__RT_OUT_MAX + 32];
    char program[LP__RT_PATH_MAX];
    char args[1024];
    int forked; /* this process is a fork child of the one that started the runtime */
} lp__rt_state;

extern lp__rt_state lp__rt LP__HIDDEN;

/* Whether the run profiles events of type (LP_RT_FUNCTIONS, LP_RT_BLOCKS). */
static inline int lp__rt_profiles(unsigned type)
{
    return (lp__rt.cfg.types >> type) & 1;
}

#endif
