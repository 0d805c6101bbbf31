/* The analysis module on an ELF file built here byte by byte, so that the
 * result does not depend on any compiler: four functions with a .symtab,
 * f (a loop with one memory reference), g (the entry point: calls f, then
 * spins in a jump to itself), h (a loop closed by the `loop` instruction)
 * and i (an irreducible cycle). Every field of the result is known.
 * Then every prefix of the file and every single-byte corruption of it must
 * give either an analysis or an error naming the file, and the header
 * errors their codes. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lp_test.h"
#include "lowprof/analysis.h"

/* f at 0x401000:  xor eax,eax / L: add eax,[rdi] / dec esi / jne L / ret
 * g at 0x401009:  call f / M: jmp M
 * h at 0x401010:  N: add eax,[rdi] / loop N / ret
 * i at 0x401015:  test edi,edi / je B / A: add eax,[rdi] / B: dec esi / jne A / ret
 *                 (a cycle A-B entered at both A and B: irreducible) */
static const uint8_t code[32] = {0x31, 0xc0, 0x03, 0x07, 0xff, 0xce, 0x75, 0xfa, 0xc3, 0xe8, 0xf2,
                                 0xff, 0xff, 0xff, 0xeb, 0xfe, 0x03, 0x07, 0xe2, 0xfc, 0xc3, 0x85,
                                 0xff, 0x74, 0x02, 0x03, 0x07, 0xff, 0xce, 0x75, 0xfa, 0xc3};
static const char strtab[] = "\0f\0g\0h\0i";                         /* 9 bytes */
static const char shstrtab[] = "\0.text\0.symtab\0.strtab\0.shstrtab"; /* 33 bytes */

enum { TEXT_AT = 64, SYM_AT = 96, STR_AT = 216, SHSTR_AT = 225, SH_AT = 264, SIZE = 584 };

static void build_tiny(uint8_t *img)
{
    memset(img, 0, SIZE);
    Elf64_Ehdr eh = {.e_type = ET_EXEC, .e_machine = EM_X86_64, .e_version = EV_CURRENT,
                     .e_entry = 0x401009, .e_shoff = SH_AT, .e_ehsize = sizeof(Elf64_Ehdr),
                     .e_shentsize = sizeof(Elf64_Shdr), .e_shnum = 5, .e_shstrndx = 4};
    memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    memcpy(img, &eh, sizeof eh);
    memcpy(img + TEXT_AT, code, sizeof code);
    Elf64_Sym syms[5] = {
        {0},
        {.st_name = 1, .st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC), .st_shndx = 1,
         .st_value = 0x401000, .st_size = 9},
        {.st_name = 3, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), .st_shndx = 1,
         .st_value = 0x401009, .st_size = 7},
        {.st_name = 5, .st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC), .st_shndx = 1,
         .st_value = 0x401010, .st_size = 5},
        {.st_name = 7, .st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC), .st_shndx = 1,
         .st_value = 0x401015, .st_size = 11},
    };
    memcpy(img + SYM_AT, syms, sizeof syms);
    memcpy(img + STR_AT, strtab, sizeof strtab);
    memcpy(img + SHSTR_AT, shstrtab, sizeof shstrtab);
    Elf64_Shdr sh[5] = {
        {0},
        {.sh_name = 1, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
         .sh_addr = 0x401000, .sh_offset = TEXT_AT, .sh_size = sizeof code, .sh_addralign = 16},
        {.sh_name = 7, .sh_type = SHT_SYMTAB, .sh_offset = SYM_AT, .sh_size = sizeof syms,
         .sh_link = 3, .sh_info = 4, .sh_entsize = sizeof(Elf64_Sym), .sh_addralign = 8},
        {.sh_name = 15, .sh_type = SHT_STRTAB, .sh_offset = STR_AT, .sh_size = sizeof strtab,
         .sh_addralign = 1},
        {.sh_name = 23, .sh_type = SHT_STRTAB, .sh_offset = SHSTR_AT, .sh_size = sizeof shstrtab,
         .sh_addralign = 1},
    };
    memcpy(img + SH_AT, sh, sizeof sh);
}

static void test_tiny(const uint8_t *img)
{
    lp_analysis *a;
    lp_analysis_error err;
    int rc = lp_analysis_open_memory("tiny", img, SIZE, &a, &err);
    LP_CHECK_EQ_U64(rc, 0);
    if (rc) {
        fprintf(stderr, "%s\n", err.message);
        return;
    }
    const lp_analysis_summary *s = lp_analysis_summary_get(a);
    LP_CHECK_EQ_U64(s->kind, LP_ANALYSIS_EXEC);
    LP_CHECK_EQ_U64(s->fns, 4);
    LP_CHECK_EQ_U64(s->insns, 16);
    LP_CHECK_EQ_U64(s->bad_bytes, 0);
    LP_CHECK_EQ_U64(s->edges, 1);
    LP_CHECK_EQ_U64(s->set_c, 1);
    LP_CHECK_EQ_U64(s->loops, 4);
    LP_CHECK_EQ_U64(s->back_edges, 4);
    const lp_analysis_fn *f = lp_analysis_fn_get(a, 0), *g = lp_analysis_fn_get(a, 1);
    const lp_analysis_fn *h = lp_analysis_fn_get(a, 2);
    LP_CHECK(strcmp(f->name, "f") == 0 && strcmp(g->name, "g") == 0 && strcmp(h->name, "h") == 0);
    LP_CHECK_EQ_U64(h->flags, LP_BURSTY_FN_LEAF);
    LP_CHECK_EQ_U64(h->facts.distance, LP_BURSTY_UNREACHABLE);
    LP_CHECK_EQ_U64(f->flags, LP_BURSTY_FN_LEAF);
    LP_CHECK_EQ_U64(g->flags, LP_BURSTY_FN_ROOT);
    LP_CHECK_EQ_U64(g->root_why, LP_ANALYSIS_ROOT_ENTRY);
    LP_CHECK_EQ_U64(f->insns, 5);
    LP_CHECK_EQ_U64(f->blocks, 3);
    LP_CHECK_EQ_U64(g->direct_calls, 1);
    LP_CHECK(!f->facts.in_c && g->facts.in_c);
    LP_CHECK_EQ_U64(f->facts.distance, 1);
    const lp_bursty_call *c;
    LP_CHECK_EQ_U64(lp_analysis_edges(a, &c), 1);
    LP_CHECK(c[0].caller == 1 && c[0].callee == 0);

    const lp_analysis_loop *lf = lp_analysis_loop_get(a, f->first_loop);
    const lp_analysis_loop *lg = lp_analysis_loop_get(a, g->first_loop);
    LP_CHECK(lf && lg && f->loops == 1 && g->loops == 1);
    LP_CHECK_EQ_U64(lf->header, 0x401002);
    LP_CHECK_EQ_U64(lf->facts.events, 1);
    LP_CHECK_EQ_U64(lf->facts.has_call, 0);
    LP_CHECK_EQ_U64(lf->insns, 3);
    LP_CHECK_EQ_U64(lg->header, 0x40100e);
    LP_CHECK_EQ_U64(lg->facts.events, 0);
    const lp_analysis_back_edge *be = lp_analysis_back_edge_get(a, lf->first_back_edge);
    LP_CHECK(be && be->from == 0x401006 && be->to == 0x401002);
    /* loop (decrement rcx, branch if not zero) is a conditional branch. */
    const lp_analysis_loop *lh = lp_analysis_loop_get(a, h->first_loop);
    LP_CHECK(lh && h->loops == 1 && lh->header == 0x401010 && lh->facts.events == 1);
    be = lh ? lp_analysis_back_edge_get(a, lh->first_back_edge) : NULL;
    LP_CHECK(be && be->from == 0x401012 && be->to == 0x401010);
    LP_CHECK_EQ_U64(h->blocks, 2);
    /* The irreducible cycle: the search enters at B, so A -> B is the
     * back-edge; its loop is A and B, not the test before them. */
    const lp_analysis_fn *fi = lp_analysis_fn_get(a, 3);
    const lp_analysis_loop *li = lp_analysis_loop_get(a, fi->first_loop);
    LP_CHECK(fi->loops == 1 && fi->blocks == 4 && li);
    LP_CHECK(li && li->header == 0x40101b && li->blocks == 2 && li->insns == 3);
    LP_CHECK(li && li->facts.events == 1 && li->depth == 1);
    be = li ? lp_analysis_back_edge_get(a, li->first_back_edge) : NULL;
    LP_CHECK(be && be->from == 0x401019 && be->to == 0x40101b);

    lp_bursty_placement p;
    LP_CHECK(lp_bursty_placement_parse("EC+L0", 5, &p, NULL) == 0);
    lp_analysis_placement pl;
    LP_CHECK_EQ_U64(lp_analysis_place(a, &p, &pl), 0);
    LP_CHECK_EQ_U64(pl.entry_checks, 1);
    LP_CHECK_EQ_U64(pl.back_edge_checks, 3); /* f's, h's and i's loops have an event */
    LP_CHECK(pl.back_edge[lf->first_back_edge].check);
    LP_CHECK(!pl.back_edge[lg->first_back_edge].check);
    char text[128];
    lp_analysis_decision_text(&pl.back_edge[lg->first_back_edge], text, sizeof text);
    LP_CHECK(strcmp(text, "k-boring (0 events <= 0, no call)") == 0);
    lp_analysis_decision_text(&pl.back_edge[lf->first_back_edge], text, sizeof text);
    LP_CHECK(strcmp(text, "not k-boring (1 events > 0)") == 0);
    lp_analysis_decision_text(&pl.entry[0], text, sizeof text);
    LP_CHECK(strcmp(text, "leaf") == 0);
    lp_analysis_decision_text(&pl.entry[1], text, sizeof text);
    LP_CHECK(strcmp(text, "root") == 0);

    lp_membuf out = {0};
    lp_sink sink = lp_membuf_sink(&out);
    LP_CHECK_EQ_U64(lp_analysis_write_json(a, &pl, 1, &sink), 0);
    LP_CHECK(sink.write(sink.ctx, "", 1) == 0); /* NUL-terminates the text */
    LP_CHECK(strstr((char *)out.data, "\"set_c\": [\"g\"]") != NULL);
    LP_CHECK(strstr((char *)out.data, "\"header\": \"0x401002\"") != NULL);
    lp_membuf_free(&out);
    lp_analysis_placement_free(&pl);
    lp_analysis_free(a);
}

/* Every prefix and every one-byte change of the file: an analysis, or an
 * error that names the file. */
static void test_damage(const uint8_t *img)
{
    uint8_t *copy = malloc(SIZE);
    int named = 1, ok_full = 0;
    for (size_t n = 0; n <= SIZE; n++) {
        lp_analysis *a = NULL;
        lp_analysis_error err;
        int rc = lp_analysis_open_memory("tiny", img, n, &a, &err);
        if (rc)
            named &= strncmp(err.message, "tiny: ", 6) == 0 && a == NULL;
        else
            ok_full += n == SIZE;
        lp_analysis_free(a);
    }
    LP_CHECK(named);
    LP_CHECK_EQ_U64(ok_full, 1);
    for (size_t i = 0; i < SIZE; i++) {
        static const uint8_t values[] = {0x00, 0xff, 0x80, 0x01};
        for (size_t v = 0; v < sizeof values; v++) {
            memcpy(copy, img, SIZE);
            copy[i] = values[v];
            lp_analysis *a = NULL;
            lp_analysis_error err;
            if (lp_analysis_open_memory("tiny", copy, SIZE, &a, &err) != 0)
                named &= strncmp(err.message, "tiny: ", 6) == 0;
            lp_analysis_free(a);
        }
    }
    LP_CHECK(named);
    free(copy);
}

static void expect_code(const uint8_t *img, size_t at, uint8_t value, int code, const char *what)
{
    uint8_t copy[SIZE];
    memcpy(copy, img, SIZE);
    copy[at] = value;
    lp_analysis *a = NULL;
    lp_analysis_error err;
    int rc = lp_analysis_open_memory("tiny", copy, SIZE, &a, &err);
    LP_CHECK_EQ_U64((uint64_t)(int64_t)rc, (uint64_t)(int64_t)code);
    LP_CHECK(strstr(err.message, what) != NULL);
    LP_CHECK(err.has_offset && err.offset == at);
    lp_analysis_free(a);
}

/* With an argument, also writes the file there (the fuzz corpus's seed
 * tests/fuzz/corpus/elf/tiny-handmade came from it). */
int main(int argc, char **argv)
{
    static uint8_t img[SIZE];
    build_tiny(img);
    if (argc > 1) {
        FILE *f = fopen(argv[1], "wb");
        if (!f || fwrite(img, 1, SIZE, f) != SIZE || fclose(f) != 0) {
            perror(argv[1]);
            return 1;
        }
    }
    test_tiny(img);
    test_damage(img);
    expect_code(img, 0, 0x7e, LP_EFORMAT, "not an ELF file");
    expect_code(img, EI_CLASS, ELFCLASS32, LP_EFORMAT, "32-bit ELF file");
    expect_code(img, EI_DATA, ELFDATA2MSB, LP_EFORMAT, "big-endian");
    expect_code(img, 18, EM_AARCH64, LP_EFORMAT, "machine is AArch64");
    expect_code(img, 16, ET_REL, LP_EFORMAT, "relocatable object");
    expect_code(img, 16, ET_CORE, LP_EFORMAT, "core dump");
    return lp_test_done();
}
