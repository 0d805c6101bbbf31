/* Originals that run for long: their entries stay sent to their copies.
 *
 * A function entered while the windows are closed runs in its original
 * until it returns. When it runs for long (compress's decoding pass,
 * graph's searches, mtsort's tasks), the windows that open meanwhile see
 * nothing of it: its blocks count nowhere, and each of its calls in a
 * window reaches the callee's copy from outside, through the entry stub,
 * at a price the daemon can only estimate (rt_daemon.c). Such an original
 * shows itself by those calls: the call pairs counted from outside the
 * copies name its return addresses as their callers. Once one has made
 * LP__RT_STICKY_MIN of them, its method becomes sticky: its entry (a
 * prefix, or a patchable entry that jumps straight to the copy) stays
 * sent to its copy between windows too, as a prefixed clock's does
 * (rt_clock.c), so that its next activations run in the copy. Its copy's
 * counts still enter the profile in windows only (the copies' gate), and
 * its calls of methods that are off go to their originals; between
 * windows its increments are inert and a prefix names the copy itself,
 * past its checking entry (rt_patch.c). A method the program switched
 * itself keeps the program's word. Only with hot=all: with hot methods, a
 * sticky method that is not hot would count in windows where it is not
 * on. And only in a profile of blocks alone: with function events an
 * original's calls are counted from outside all the same, and a sticky
 * copy running between windows slows the closed stretches that the clock
 * times the windows against (json's call-graph total went from within 2 %
 * to 27 % low in one run of three).
 *
 * Nor when the windows have entered its copy as often as its running
 * originals called out: its activations are short and begin in windows
 * anyway, and its outside calls come from a few long ones, a recursion's
 * outer calls (interp's it_call, json's parser). Made sticky, such a
 * copy ran most of the program between windows, each block with its
 * inert increment (interp's blocks at 10 %: 67-79 % of its time in
 * it_call's copy, +6.7 % of its instructions). Compress's decoder,
 * graph's searches and mtsort's tasks, which the windows had entered 0-5
 * times against thousands of outside calls, stay sticky. */
#include <stdlib.h>

#include "rt_internal.h"

enum { LP__RT_STICKY_MIN = 1024, LP__RT_STICKY_WINDOWS = 4, LP__RT_STICKY_RATE = 64 };

static uint64_t *lp__rt_from_orig; /* per method: calls counted from its original */
/* per method: the windows and its copy's entries when it became sticky;
 * windows UINT64_MAX once it has stopped being sticky, for good */
static uint64_t *lp__rt_stuck_w, *lp__rt_stuck_e;

/* Whether method m's entry sends its calls to its copy by itself, with
 * no trampoline: a copy's entry check then counts a call from outside
 * only while the thread's copies count, that is in windows. */
static int lp__rt_enters_copy(const lp__rt_method *m)
{
    return m->copy && (m->prefixed || m->direct);
}

/* Whether the calls from outside the copies that the call pair at arc
 * slot s counted came from a running original: its callee enters its
 * copy by itself and its caller lies in an original that can. That
 * original's method, or -1. */
static long lp__rt_running_original(size_t s)
{
    uint64_t key = __atomic_load_n(&lp__rt.arc_keys[s], __ATOMIC_ACQUIRE);
    if (!key)
        return -1;
    uint64_t callee = key >> LP__RT_ARC_SHIFT, caller = key & ((1ULL << LP__RT_ARC_SHIFT) - 1);
    if (callee == 0 || callee > lp__rt.nmethods || !lp__rt_enters_copy(&lp__rt.methods[callee - 1]))
        return -1;
    if (lp__rt_copy_at(caller) >= 0)
        return -1; /* an indirect call from a copy */
    long m = lp__rt_method_at(caller);
    return m >= 0 && lp__rt_enters_copy(&lp__rt.methods[m]) ? m : -1;
}

/* How often the windows have entered method m's copy: its entry
 * counter, which counts only while the copies count. */
static uint64_t lp__rt_entered(const lp__rt_method *m)
{
    return m->entry_guard >= 0 ? lp__rt_cnt_sum((size_t)m->entry_guard) : 0;
}

/* A sticky method whose copy the windows have entered LP__RT_STICKY_RATE
 * times a window or more, over LP__RT_STICKY_WINDOWS windows or more since
 * it became sticky, has short activations after all: it stops being
 * sticky, and does not become so again. The rule above judges by what
 * the windows saw so far, and a run's first windows can fall inside one
 * long activation of a recursion's outer call: interp's it_call became
 * sticky so under valgrind (seed 2 of the bench at the default size), and
 * its copy then ran 87 % of the program's instructions (+7.2 % in all,
 * against +1.5 % without). */
static void lp__rt_sticky_revoke(void)
{
    uint64_t w = lp__rt.clock.windows;
    for (size_t i = 0; i < lp__rt.nmethods; i++) {
        lp__rt_method *m = &lp__rt.methods[i];
        if (!m->sticky || lp__rt_stuck_w[i] == UINT64_MAX || w < lp__rt_stuck_w[i])
            continue;
        uint64_t dw = w - lp__rt_stuck_w[i], de = lp__rt_entered(m) - lp__rt_stuck_e[i];
        if (dw < LP__RT_STICKY_WINDOWS || de < LP__RT_STICKY_RATE * dw)
            continue;
        m->sticky = 0;
        lp__rt.sticky--;
        lp__rt.sticky_revoked++;
        lp__rt_stuck_w[i] = UINT64_MAX;
    }
}

void lp__rt_sticky_update(void)
{
    if (!lp__rt_cnt_start || lp__rt.cfg.hot != 0 || !lp__rt.arc_keys ||
        lp__rt_profiles(LP_RT_FUNCTIONS))
        return;
    if (!lp__rt_from_orig) {
        size_t n = lp__rt.nmethods ? lp__rt.nmethods : 1;
        lp__rt_from_orig = calloc(n, sizeof *lp__rt_from_orig);
        lp__rt_stuck_w = calloc(n, sizeof *lp__rt_stuck_w);
        lp__rt_stuck_e = calloc(n, sizeof *lp__rt_stuck_e);
        if (!lp__rt_from_orig || !lp__rt_stuck_w || !lp__rt_stuck_e) {
            free(lp__rt_from_orig);
            free(lp__rt_stuck_w);
            free(lp__rt_stuck_e);
            lp__rt_from_orig = lp__rt_stuck_w = lp__rt_stuck_e = NULL;
            return;
        }
    }
    lp__rt_sticky_revoke();
    for (size_t i = 0; i < lp__rt.nmethods; i++)
        lp__rt_from_orig[i] = 0;
    for (size_t s = 0; s <= lp__rt.arc_mask; s++) {
        long m = lp__rt_running_original(s);
        if (m < 0 || lp__rt.methods[m].sticky)
            continue;
        for (lp__rt_tcounts *tc = __atomic_load_n(&lp__rt.blocks, __ATOMIC_ACQUIRE); tc;
             tc = tc->next)
            lp__rt_from_orig[m] += __atomic_load_n(&tc->a[s], __ATOMIC_RELAXED);
    }
    for (size_t i = 0; i < lp__rt.nmethods; i++) {
        lp__rt_method *m = &lp__rt.methods[i];
        if (m->sticky || lp__rt_from_orig[i] < LP__RT_STICKY_MIN ||
            m->mode[LP_RT_FUNCTIONS] != LP__RT_AUTO || m->mode[LP_RT_BLOCKS] != LP__RT_AUTO ||
            lp__rt_stuck_w[i] == UINT64_MAX)
            continue;
        uint64_t entered = lp__rt_entered(m); /* the gate lock: read once */
        if (entered >= lp__rt_from_orig[i])
            continue;
        m->sticky = 1;
        lp__rt.sticky++;
        lp__rt_stuck_w[i] = lp__rt.clock.windows;
        lp__rt_stuck_e[i] = entered;
    }
}

int lp__rt_on_between(size_t i, unsigned type)
{
    const lp__rt_method *m = &lp__rt.methods[i];
    return (m->clock || (m->sticky && lp__rt_enters_copy(m))) &&
           (type == LP_RT_FUNCTIONS || !lp__rt_profiles(LP_RT_FUNCTIONS));
}
