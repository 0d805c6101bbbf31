/* lowprof flags: profile flags and the profile flag predictor model.
 *
 * Paper 002 (profile flags and selective dispatch) proposes a profile flag
 * that makes the processor drop annotated profile instructions at decode, the
 * control instructions setpf, resetpf, pushpf and poppf (section III), n flags
 * in a profile flag register, one per profile type (section V), and a
 * predictor that lets fetch skip whole blocks of profile instructions while
 * their flag is off (section IV).
 *
 * lowprof makes the flag register real software: lp_pf_state is one thread's
 * profile flag word, which the native runtime keeps per thread and touches
 * from instrumentation hooks and from signal handlers. Everything in this
 * part is static inline, allocation-free and async-signal-safe.
 *
 * Freestanding: only <stddef.h>, <stdint.h> and core's shim. */
#ifndef LOWPROF_FLAGS_H
#define LOWPROF_FLAGS_H

#include <stddef.h>
#include <stdint.h>

#include "lowprof/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the profile flag word (paper 002, sections III and V) -------------- */

/* Number of profile types one word carries, one bit each (section V's "n
 * profile flags"); types at or beyond it are ignored by every operation. */
#define LP_PF_MAX_TYPES 32
/* Saved words pushpf can hold before it starts counting overflow. */
#define LP_PF_STACK_DEPTH 64

/* One thread's profile flags. flags: bit t is profile type t's flag (1 = on,
 * profile instructions of that type execute). stack[0..depth) holds saved
 * words, the newest at depth - 1. overflow counts pushes made while the stack
 * was full; their matching pops only decrement it and leave the word as it
 * is, so the words those pushes saw are lost and the next word restored is
 * the deepest saved one (stack[LP_PF_STACK_DEPTH - 1]). Plain data:
 * zero-filled is a valid state with every flag off; copying copies it all. */
typedef struct lp_pf_state {
    uint32_t flags;
    uint32_t depth;
    uint32_t overflow;
    uint32_t stack[LP_PF_STACK_DEPTH];
} lp_pf_state;

/* Sets the word to initial with an empty stack. s must not be NULL (as for
 * every lp_pf_* function). The lp_pf_* functions never allocate, take no
 * locks and are async-signal-safe; a state is owned by one thread, and a
 * signal handler that changes it should leave it as it found it (push ... pop)
 * if it may interrupt that thread's own update. */
static inline void lp_pf_init(lp_pf_state *s, uint32_t initial)
{
    s->flags = initial;
    s->depth = 0;
    s->overflow = 0;
}

/* setpf: turns type's flag on. */
static inline void lp_pf_set(lp_pf_state *s, unsigned type)
{
    if (type < LP_PF_MAX_TYPES)
        s->flags |= (uint32_t)1 << type;
}

/* resetpf: turns type's flag off. */
static inline void lp_pf_reset(lp_pf_state *s, unsigned type)
{
    if (type < LP_PF_MAX_TYPES)
        s->flags &= ~((uint32_t)1 << type);
}

/* Returns 1 if type's flag is on, 0 if it is off or type is out of range. */
static inline int lp_pf_get(const lp_pf_state *s, unsigned type)
{
    return type < LP_PF_MAX_TYPES ? (int)((s->flags >> type) & 1u) : 0;
}

/* pushpf: saves the whole word (every type's flag), as at a method entry so
 * that the callee's setpf/resetpf do not leak into the caller. Beyond
 * LP_PF_STACK_DEPTH saved words the push only counts in overflow. */
static inline void lp_pf_push(lp_pf_state *s)
{
    if (s->depth < LP_PF_STACK_DEPTH)
        s->stack[s->depth++] = s->flags;
    else
        s->overflow++;
}

/* poppf: restores the most recently saved word. A pop matching an
 * overflowing push only decrements overflow (the word it saw was never
 * saved); a pop with nothing saved changes nothing. */
static inline void lp_pf_pop(lp_pf_state *s)
{
    if (s->overflow > 0) {
        s->overflow--;
    } else if (s->depth > 0) {
        s->flags = s->stack[--s->depth];
    }
}

#ifdef __cplusplus
}
#endif
#endif
