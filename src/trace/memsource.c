/* An lp_source over caller memory: the tests, the fuzz targets and the CLI
 * (after reading a file whole) feed readers through it. */
#include "trace_internal.h"

static int mem_read(void *ctx, void *buf, size_t size, size_t *out_got)
{
    lp_memsource *m = ctx;
    size_t left = m->size - m->pos;
    size_t n = size < left ? size : left;
    if (n)
        __builtin_memcpy(buf, m->data + m->pos, n);
    m->pos += n;
    *out_got = n;
    return 0;
}

/* data may be NULL when size is 0. */
lp_source lp_memsource_init(lp_memsource *state, const void *data, size_t size)
{
    state->data = data;
    state->size = data ? size : 0;
    state->pos = 0;
    lp_source s = {mem_read, state};
    return s;
}
