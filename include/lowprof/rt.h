/* lowprof rt: the native runtime's program-facing API (profile flags
 * paper, sections III and V, mapped onto compiler instrumentation).
 *
 * A program built with `lowprof cc` (or with the flags that
 * `pkg-config --cflags --libs lowprof-rt` documents) carries two kinds of
 * profile instructions: a 5-byte patchable entry at every function
 * (function events: hot methods, call pairs, the call graph) and a
 * coverage callback in every basic block (block counts). The runtime
 * switches each kind per method by patching those sites, which is the
 * paper's setpf/resetpf at a method's entry, and keeps a per-thread flag
 * word with a push/pop stack, which is the processor's profile flag. An
 * event is recorded when its site is switched on AND the running thread's
 * flag for its type is set.
 *
 * The runtime starts itself in a constructor and is configured by the
 * LOWPROF environment variable (doc/runtime.md). Everything here may be
 * called from any thread once main has started; none of it may be called
 * from a signal handler. Calls made while the runtime is disabled (bad
 * LOWPROF, a kernel that refuses to make text writable) do nothing and
 * return LP_RT_EDISABLED. */
#ifndef LOWPROF_RT_H
#define LOWPROF_RT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define LP_RT_API __attribute__((visibility("default")))
#else
#define LP_RT_API
#endif

/* The profile types, one flag each (paper section V: n independent flags). */
typedef enum lp_rt_type {
    LP_RT_FUNCTIONS = 0, /* function entries: method, call-pair and call-graph profiles */
    LP_RT_BLOCKS = 1,    /* coverage callbacks: block profile */
    LP_RT_TYPES = 2,
} lp_rt_type;

/* Return values besides 0. */
enum {
    LP_RT_EDISABLED = -1, /* the runtime is not running in this process */
    LP_RT_EINVAL = -2,    /* unknown type */
    LP_RT_ENOENT = -3,    /* fn is not an instrumented function of this program */
    LP_RT_EIO = -4,       /* the profile file could not be written */
};

/* A function's address as the per-method calls take it. */
#define LP_RT_FN(f) ((const void *)(uintptr_t)(f))

/* 1 while the runtime runs in this process (initialised, not disabled),
 * else 0. */
LP_RT_API int lp_rt_enabled(void);

/* Per-method profile flags: setpf switches type on for the function at fn
 * (patches its sites now), resetpf switches it off, and both stay in force
 * whatever the runtime's windows do until lp_rt_autopf hands the method
 * back to the runtime's strategy. Only that method's sites change. Returns
 * 0, LP_RT_EDISABLED, LP_RT_EINVAL or LP_RT_ENOENT (fn is not the first
 * byte of an instrumented function, or type is not collected). Takes the
 * runtime's lock; may be called from any thread. */
LP_RT_API int lp_rt_setpf(unsigned type, const void *fn);
LP_RT_API int lp_rt_resetpf(unsigned type, const void *fn);
LP_RT_API int lp_rt_autopf(unsigned type, const void *fn);

/* The calling thread's dynamic flag for type (every flag starts set in
 * every thread): set, reset, read (1 or 0). Lock-free; affect only the
 * calling thread. */
LP_RT_API int lp_rt_thread_setpf(unsigned type);
LP_RT_API int lp_rt_thread_resetpf(unsigned type);
LP_RT_API int lp_rt_thread_getpf(unsigned type);

/* pushpf saves the calling thread's whole flag word, poppf restores the
 * last one saved, so a callee's setpf/resetpf cannot leak into its caller
 * (paper section III.C). The stack has LP_PF_STACK_DEPTH (64) entries; a
 * push past that is counted and its matching pop leaves the flags as they
 * are (lowprof/flags.h). pushpf returns 0, or -1 when the push overflowed;
 * poppf returns 0 when it restored a word, -1 when it did not (nothing
 * saved, or the pop of an overflowing push). */
LP_RT_API int lp_rt_pushpf(void);
LP_RT_API int lp_rt_poppf(void);

/* Writes the profile file now (a temporary file renamed over the output,
 * so a reader never sees half a file). Returns 0, LP_RT_EDISABLED or
 * LP_RT_EIO. */
LP_RT_API int lp_rt_flush(void);

#ifdef __cplusplus
}
#endif
#endif
