/* Workload drivers: file reading and error exits shared by the drivers. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_driver.h"

void wl_drv_die(const char *prog, int code, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(code);
}

void *wl_drv_xmalloc(const char *prog, size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        wl_drv_die(prog, 1, "out of memory (%zu bytes)", size);
    return p;
}

unsigned char *wl_drv_read_file(const char *prog, const char *path, size_t *out_size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        wl_drv_die(prog, 1, "%s: %s", path, strerror(errno));
    size_t cap = 1 << 20, size = 0;
    unsigned char *data = wl_drv_xmalloc(prog, cap);
    for (;;) {
        if (size == cap) {
            cap *= 2;
            unsigned char *p = realloc(data, cap);
            if (!p)
                wl_drv_die(prog, 1, "%s: out of memory (%zu bytes)", path, cap);
            data = p;
        }
        size_t got = fread(data + size, 1, cap - size, f);
        size += got;
        if (got == 0)
            break;
    }
    if (ferror(f))
        wl_drv_die(prog, 1, "%s: read error: %s", path, strerror(errno));
    fclose(f);
    *out_size = size;
    return data;
}

unsigned long wl_drv_fnv32(const unsigned char *data, size_t size)
{
    unsigned long h = 2166136261u;
    for (size_t i = 0; i < size; i++) {
        h ^= data[i];
        h = (h * 16777619u) & 0xffffffffu;
    }
    return h;
}
