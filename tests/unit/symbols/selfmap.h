/* Test helper: the module map entry of an object of the running process,
 * as the Valgrind front end would record it: the executable text mapping
 * from /proc/self/maps, the load bias and the GNU build id from
 * dl_iterate_phdr. Shared by the symbols and read-command tests; include
 * after defining _GNU_SOURCE. */
#ifndef LP_TEST_SELFMAP_H
#define LP_TEST_SELFMAP_H

#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowprof/trace.h"

typedef struct found_object {
    uintptr_t addr; /* an address inside the object we look for */
    int found;
    uint64_t bias;  /* dlpi_addr */
    char name[512]; /* dlpi_name ("" for the main program) */
    uint8_t build_id[32];
    size_t build_id_len;
} found_object;

static int phdr_callback(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    found_object *fo = data;
    int inside = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && fo->addr >= lo && fo->addr < lo + ph->p_memsz)
            inside = 1;
    }
    if (!inside)
        return 0;
    fo->found = 1;
    fo->bias = info->dlpi_addr;
    snprintf(fo->name, sizeof fo->name, "%s", info->dlpi_name);
    /* The build id is a GNU note of type 3 in a PT_NOTE segment. */
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
        const uint8_t *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
            const uint8_t *name = p + sizeof *nh;
            const uint8_t *desc = name + ((nh->n_namesz + 3u) & ~3u);
            if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && memcmp(name, "GNU", 4) == 0 &&
                nh->n_descsz <= sizeof fo->build_id) {
                memcpy(fo->build_id, desc, nh->n_descsz);
                fo->build_id_len = nh->n_descsz;
            }
            p = desc + ((nh->n_descsz + 3u) & ~3u);
        }
    }
    return 1;
}

/* Finds the executable mapping of /proc/self/maps holding addr. */
static int text_mapping(uintptr_t addr, uint64_t *out_start, uint64_t *out_size, char *out_path,
                        size_t path_size)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return -1;
    char line[1024];
    int ok = -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char perms[8];
        int path_at = 0;
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &lo, &hi, perms, &path_at) < 3)
            continue;
        if (addr < lo || addr >= hi || perms[2] != 'x')
            continue;
        line[strcspn(line, "\n")] = '\0';
        *out_start = lo;
        *out_size = hi - lo;
        snprintf(out_path, path_size, "%s", line + path_at);
        ok = 0;
        break;
    }
    fclose(f);
    return ok;
}

/* Builds a one-module map for the object holding addr, as recorded live. */
static int live_module(uintptr_t addr, lp_module *out, found_object *fo)
{
    memset(fo, 0, sizeof *fo);
    fo->addr = addr;
    dl_iterate_phdr(phdr_callback, fo);
    char path[512];
    memset(out, 0, sizeof *out);
    if (!fo->found || text_mapping(addr, &out->start, &out->size, path, sizeof path) != 0)
        return -1;
    out->path = strdup(path);
    out->bias = (int64_t)fo->bias;
    memcpy(out->build_id, fo->build_id, fo->build_id_len);
    out->build_id_len = (uint8_t)fo->build_id_len;
    return 0;
}

#endif
