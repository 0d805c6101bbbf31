/* The allocator shim: every lowprof allocation goes through here so that the
 * freestanding modules run unchanged in the CLI (libc), in the Valgrind tool
 * (Valgrind's allocator) and inside a profiled program (an allocator that is
 * safe where the runtime runs). */
#include "lowprof/core.h"
#include "core_internal.h"

static const lp_allocator *lp__current;

void lp_set_allocator(const lp_allocator *allocator)
{
    lp__current = allocator;
}

static const lp_allocator *lp__allocator(void)
{
    return lp__current ? lp__current : &lp__default_allocator;
}

void *lp_malloc(size_t size)
{
    const lp_allocator *a = lp__allocator();
    return a->alloc ? a->alloc(a->ctx, size ? size : 1) : NULL;
}

void *lp_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    void *p = lp_malloc(count * size);
    if (p)
        __builtin_memset(p, 0, count * size);
    return p;
}

void *lp_realloc(void *ptr, size_t old_size, size_t new_size)
{
    const lp_allocator *a = lp__allocator();
    if (!ptr)
        return lp_malloc(new_size);
    if (a->realloc)
        return a->realloc(a->ctx, ptr, old_size, new_size ? new_size : 1);
    void *p = lp_malloc(new_size);
    if (!p)
        return NULL;
    __builtin_memcpy(p, ptr, old_size < new_size ? old_size : new_size);
    lp_free(ptr);
    return p;
}

void lp_free(void *ptr)
{
    if (ptr)
        lp__allocator()->free(lp__allocator()->ctx, ptr);
}
