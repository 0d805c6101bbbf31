/* Build ids of recorded modules, read from the ELF note sections with
 * libelf, so a profile names exactly the binaries it was taken from. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

#include "lowprof/record.h"

static size_t lp_build_id(const char *path, uint8_t *out, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    size_t got = 0;
    elf_version(EV_CURRENT);
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    Elf_Scn *scn = NULL;
    while (elf && !got && (scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        size_t off = 0, name_off, desc_off;
        GElf_Nhdr nh;
        while (d && (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
            if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
                memcmp((const char *)d->d_buf + name_off, "GNU", 4) == 0) {
                got = nh.n_descsz < cap ? nh.n_descsz : cap;
                memcpy(out, (const char *)d->d_buf + desc_off, got);
                break;
            }
        }
    }
    if (elf)
        elf_end(elf);
    close(fd);
    return got;
}

void lp_record_add_build_ids(lp_module_map *m)
{
    for (size_t i = 0; i < m->count; i++) {
        lp_module *mod = &m->items[i];
        if (mod->build_id_len)
            continue;
        mod->build_id_len = (uint8_t)lp_build_id(mod->path, mod->build_id, sizeof mod->build_id);
    }
}
