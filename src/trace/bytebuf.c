/* Growable output buffer for building one chunk payload before it is
 * checksummed and sent. Doubling keeps appends amortised O(1); the event
 * and interval writers reuse one buffer for the whole file, so steady
 * state does no allocation. */
#include "trace_internal.h"

void lp__buf_reset(lp__buf *b)
{
    b->size = 0;
    b->err = 0;
}

void lp__buf_free(lp__buf *b)
{
    if (!b)
        return;
    lp_free(b->data);
    b->data = NULL;
    b->size = b->cap = 0;
    b->err = 0;
}

/* Makes room for extra more bytes; 0 or sets the sticky LP_ENOMEM. */
static int reserve(lp__buf *b, size_t extra)
{
    if (b->err)
        return b->err;
    if (extra <= b->cap - b->size)
        return 0;
    if (extra > SIZE_MAX - b->size) {
        b->err = LP_ENOMEM;
        return b->err;
    }
    size_t need = b->size + extra;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    uint8_t *p = lp_realloc(b->data, b->cap, cap);
    if (!p) {
        b->err = LP_ENOMEM;
        return b->err;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

void lp__buf_put(lp__buf *b, const void *data, size_t size)
{
    if (!size || reserve(b, size))
        return;
    __builtin_memcpy(b->data + b->size, data, size);
    b->size += size;
}

void lp__buf_u8(lp__buf *b, uint8_t v)
{
    if (reserve(b, 1))
        return;
    b->data[b->size++] = v;
}

void lp__buf_varint(lp__buf *b, uint64_t v)
{
    if (reserve(b, 10))
        return;
    b->size += lp__varint_encode(b->data + b->size, v);
}

void lp__buf_string(lp__buf *b, const char *s, size_t n)
{
    lp__buf_varint(b, n);
    lp__buf_put(b, s, n);
}
