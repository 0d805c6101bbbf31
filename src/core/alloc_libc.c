/* The hosted environment's default allocator: plain libc. Not linked into the
 * Valgrind tool, which supplies its own lp__default_allocator. */
#include <stdlib.h>

#include "core_internal.h"

static void *lp__libc_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size);
}

static void *lp__libc_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    (void)ctx;
    (void)old_size;
    return realloc(ptr, new_size);
}

static void lp__libc_free(void *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

const lp_allocator lp__default_allocator = {lp__libc_alloc, lp__libc_realloc, lp__libc_free, NULL};
