/* A sink into growable memory: the encoders' tests and the CLI's in-memory
 * conversions use it; doubling keeps appends amortised O(1). */
#include "lowprof/core.h"

static int lp__membuf_write(void *ctx, const void *data, size_t size)
{
    lp_membuf *b = ctx;
    if (size > SIZE_MAX - b->size)
        return LP_ENOMEM;
    if (b->size + size > b->capacity) {
        size_t cap = b->capacity ? b->capacity : 256;
        while (cap < b->size + size) {
            if (cap > SIZE_MAX / 2)
                return LP_ENOMEM;
            cap *= 2;
        }
        uint8_t *p = lp_realloc(b->data, b->capacity, cap);
        if (!p)
            return LP_ENOMEM;
        b->data = p;
        b->capacity = cap;
    }
    if (size)
        __builtin_memcpy(b->data + b->size, data, size);
    b->size += size;
    return LP_OK;
}

lp_sink lp_membuf_sink(lp_membuf *buf)
{
    lp_sink s = {lp__membuf_write, buf};
    return s;
}

void lp_membuf_free(lp_membuf *buf)
{
    if (!buf)
        return;
    lp_free(buf->data);
    buf->data = NULL;
    buf->size = buf->capacity = 0;
}
