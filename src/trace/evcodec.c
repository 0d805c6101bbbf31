/* The coding of one event inside an events chunk. Consecutive events are
 * close: pcs a few bytes apart, instruction counts a few instructions
 * apart, branch targets near their branch, memory addresses near the
 * previous access. So pc and icount are zigzag deltas from the previous
 * event, a is coded against what it is usually near for its kind, and a
 * one- or two-byte tag carries the kind, the flags and which optional
 * fields follow. A typical branch takes five to seven bytes instead of 40.
 *
 * The state restarts at every chunk, so each chunk decodes on its own. */
#include "trace_internal.h"

#define TAG_TID 0x800u   /* a tid varint follows: the thread changed */
#define TAG_SIZE 0x1000u /* a size varint follows: the size is not zero */
#define TAG_MAX 0x1fffu

void lp__evstate_reset(lp__evstate *s)
{
    __builtin_memset(s, 0, sizeof *s);
    s->tid = 1; /* the main thread, the usual first event's */
}

static int near_pc(unsigned kind)
{
    return kind == LP_EV_BRANCH || kind == LP_EV_CALL || kind == LP_EV_RETURN;
}

static int is_memory(unsigned kind)
{
    return kind == LP_EV_LOAD || kind == LP_EV_STORE;
}

void lp__event_put(lp__buf *b, lp__evstate *s, const lp_event *ev)
{
    unsigned tag = ev->kind | (unsigned)ev->flags << 3;
    if (ev->tid != s->tid)
        tag |= TAG_TID;
    if (ev->size)
        tag |= TAG_SIZE;
    lp__buf_varint(b, tag);
    if (tag & TAG_TID)
        lp__buf_varint(b, ev->tid);
    if (tag & TAG_SIZE)
        lp__buf_varint(b, ev->size);
    lp__buf_varint(b, lp__zigzag(ev->pc - s->pc));
    lp__buf_varint(b, lp__zigzag(ev->icount - s->icount));
    if (near_pc(ev->kind)) {
        lp__buf_varint(b, lp__zigzag(ev->a - ev->pc));
    } else if (is_memory(ev->kind)) {
        lp__buf_varint(b, lp__zigzag(ev->a - s->addr));
        s->addr = ev->a;
    } else {
        lp__buf_varint(b, ev->a);
    }
    if (ev->kind == LP_EV_CALL) {
        lp__buf_varint(b, lp__zigzag(ev->b - s->sp));
        s->sp = ev->b;
    } else {
        lp__buf_varint(b, ev->b);
    }
    s->tid = ev->tid;
    s->pc = ev->pc;
    s->icount = ev->icount;
}

/* Names the field that failed only when one does: this runs per event. */
static int field_fail(const lp__cur *c, uint64_t at, int code, uint64_t n, const char *name,
                      const char *why, lp_read_error *err)
{
    char field[48];
    lp__fmt(field, sizeof field, "event[%llu].%s", LP__ULL(n), name);
    if (!why)
        return lp__varint_fail(c, code, field, err);
    return lp__fail(err, at, code, field, "%s", why);
}

int lp__event_get(lp__cur *c, lp__evstate *s, lp_event *out, uint64_t n, lp_read_error *err)
{
    uint64_t tag, tid = s->tid, size = 0, w[4];
    uint64_t at = lp__cur_offset(c);
    int rc = lp__cur_varint(c, &tag);
    if (rc)
        return field_fail(c, at, rc, n, "tag", NULL, err);
    unsigned kind = (unsigned)(tag & 7);
    if (tag > TAG_MAX || kind < LP_EV_BRANCH || kind > LP_EV_STORE)
        return field_fail(c, at, LP_EFORMAT, n, "tag", "unknown event kind or tag bits", err);
    if (tag & TAG_TID) {
        at = lp__cur_offset(c);
        if ((rc = lp__cur_varint(c, &tid)) != 0)
            return field_fail(c, at, rc, n, "tid", NULL, err);
        if (tid > UINT32_MAX || tid == s->tid)
            return field_fail(c, at, LP_EFORMAT, n, "tid",
                              "over 32 bits, or marked changed but the same", err);
    }
    if (tag & TAG_SIZE) {
        at = lp__cur_offset(c);
        if ((rc = lp__cur_varint(c, &size)) != 0)
            return field_fail(c, at, rc, n, "size", NULL, err);
        if (size == 0 || size > UINT16_MAX)
            return field_fail(c, at, LP_EFORMAT, n, "size", "marked present but 0, or over 16 bits",
                              err);
    }
    static const char *const names[] = {"pc", "icount", "a", "b"};
    for (unsigned i = 0; i < 4; i++)
        if ((rc = lp__cur_varint(c, &w[i])) != 0)
            return field_fail(c, 0, rc, n, names[i], NULL, err);
    out->kind = (uint8_t)kind;
    out->flags = (uint8_t)(tag >> 3);
    out->size = (uint16_t)size;
    out->tid = (uint32_t)tid;
    out->pc = s->pc + lp__unzigzag(w[0]);
    out->icount = s->icount + lp__unzigzag(w[1]);
    if (near_pc(kind)) {
        out->a = out->pc + lp__unzigzag(w[2]);
    } else if (is_memory(kind)) {
        out->a = s->addr + lp__unzigzag(w[2]);
        s->addr = out->a;
    } else {
        out->a = w[2];
    }
    if (kind == LP_EV_CALL) {
        out->b = s->sp + lp__unzigzag(w[3]);
        s->sp = out->b;
    } else {
        out->b = w[3];
    }
    s->tid = out->tid;
    s->pc = out->pc;
    s->icount = out->icount;
    return 0;
}
