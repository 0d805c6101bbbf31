/* lowprof eval compressors: an allocator for lowprof's modules that keeps a
 * few freed large blocks for reuse.
 *
 * The replay computes an invariance error hundreds of times per workload,
 * and each computation allocates scratch tables as large as the exact
 * profile (tens of megabytes) and frees them. glibc serves such sizes with
 * mmap and returns them with munmap, so every computation faulted its
 * pages in afresh, and two worker threads spent most of their time in the
 * kernel, serialised on the process's memory map. Keeping the last few
 * large blocks makes those allocations nearly free. Installed once, before
 * the command allocates anything through lp_malloc, and never removed:
 * every block must be freed by the allocator that made it. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>

#include "eval_cmp.h"

#define LARGE ((size_t)1 << 20)
#define KEPT 8

/* Each block starts with its size; the header keeps 16-byte alignment. */
typedef union header {
    size_t size;
    max_align_t align;
} header;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static header *kept[KEPT];

static void *cache_alloc(void *ctx, size_t size)
{
    (void)ctx;
    if (size >= LARGE) {
        pthread_mutex_lock(&lock);
        for (size_t i = 0; i < KEPT; i++) {
            if (kept[i] && kept[i]->size == size) {
                header *h = kept[i];
                kept[i] = NULL;
                pthread_mutex_unlock(&lock);
                return h + 1;
            }
        }
        pthread_mutex_unlock(&lock);
    }
    if (size > SIZE_MAX - sizeof(header))
        return NULL;
    header *h = malloc(sizeof(header) + size);
    if (!h)
        return NULL;
    h->size = size;
    return h + 1;
}

static void cache_free(void *ctx, void *ptr)
{
    (void)ctx;
    header *h = (header *)ptr - 1;
    if (h->size >= LARGE) {
        pthread_mutex_lock(&lock);
        /* An empty place, else the oldest block makes room. */
        size_t at = 0;
        while (at < KEPT && kept[at])
            at++;
        header *drop = NULL;
        if (at == KEPT) {
            drop = kept[0];
            for (size_t i = 1; i < KEPT; i++)
                kept[i - 1] = kept[i];
            at = KEPT - 1;
        }
        kept[at] = h;
        pthread_mutex_unlock(&lock);
        free(drop);
        return;
    }
    free(h);
}

void lp_eval_cmp_alloc_install(void)
{
    static const lp_allocator a = {cache_alloc, NULL, cache_free, NULL};
    lp_set_allocator(&a);
}
