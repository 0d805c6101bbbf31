/* Unit tests for the symbolizer: this test binary symbolizes its own
 * functions, whose names and definition lines it knows, through a module map
 * built from the live process (/proc/self/maps for the text range,
 * dl_iterate_phdr for the load bias and the build id), exactly as the
 * Valgrind front end records one. It is built with -g -O0 so the line table
 * is simple. Also checked: a chosen load base, libc with separate debug info
 * (when libc6-dbg is installed), a changed file (build id mismatch), a
 * missing file, and addresses outside every module. */
#define _GNU_SOURCE
#include <link.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lowprof/symbols.h"
#include "../lp_test.h"
#include "selfmap.h"

/* Functions with known lines. Each definition and the enum that records its
 * line share one line, so formatting can never separate them. */
// clang-format off
__attribute__((noinline)) int lp_symtest_alpha(int x) { return x * 3 + 1; } enum { lp_alpha_line = __LINE__ };
// clang-format on

static uintptr_t lp_captured_ra;
static unsigned lp_beta_call_line;

__attribute__((noinline)) static void lp_symtest_capture(void)
{
    lp_captured_ra = (uintptr_t)__builtin_return_address(0);
}

__attribute__((noinline)) int lp_symtest_beta(int x)
{
    int r = x + 2;
    // clang-format off
    lp_symtest_capture(); lp_beta_call_line = __LINE__;
    // clang-format on
    return r;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* ---- the tests ------------------------------------------------------------ */

static void test_own_functions(void)
{
    lp_module exe;
    found_object fo;
    LP_CHECK(live_module((uintptr_t)&lp_symtest_alpha, &exe, &fo) == 0);
    lp_module_map map = {&exe, 1};
    lp_symbolizer *s = NULL;
    LP_CHECK(lp_symbolizer_create(&map, &s) == 0);

    uint64_t alpha = (uint64_t)(uintptr_t)&lp_symtest_alpha;
    lp_symbol sym;
    lp_symbolize(s, alpha, &sym);
    LP_CHECK(sym.function && strcmp(sym.function, "lp_symtest_alpha") == 0);
    LP_CHECK_EQ_U64(sym.function_start, alpha);
    LP_CHECK(sym.file && ends_with(sym.file, "test_symbols.c"));
    LP_CHECK_EQ_U64(sym.line, lp_alpha_line);
    LP_CHECK(sym.module && strcmp(sym.module, exe.path) == 0);
    /* The DWARF name is relative to the build directory; the symbolizer
     * makes it absolute with the compilation directory. */
    char *want = realpath(LP_TEST_SOURCE_DIR "/test_symbols.c", NULL),
         *got = sym.file ? realpath(sym.file, NULL) : NULL;
    LP_CHECK(sym.file && sym.file[0] == '/' && strstr(sym.file, "/./") == NULL &&
             strstr(sym.file, "/../") == NULL);
    LP_CHECK(want && got && strcmp(want, got) == 0);
    free(want);
    free(got);

    /* An address inside the function resolves to its start. */
    lp_symbolize(s, alpha + 4, &sym);
    LP_CHECK(sym.function && strcmp(sym.function, "lp_symtest_alpha") == 0);
    LP_CHECK_EQ_U64(sym.function_start, alpha);
    LP_CHECK_EQ_U64(sym.line, lp_alpha_line);

    /* A call site: the byte before the return address is in the call. */
    LP_CHECK(lp_symtest_beta(1) == 3);
    lp_symbolize(s, lp_captured_ra - 1, &sym);
    LP_CHECK(sym.function && strcmp(sym.function, "lp_symtest_beta") == 0);
    LP_CHECK_EQ_U64(sym.function_start, (uintptr_t)&lp_symtest_beta);
    LP_CHECK(sym.file && ends_with(sym.file, "test_symbols.c"));
    LP_CHECK_EQ_U64(sym.line, lp_beta_call_line);

    /* Cached answers are the same strings. */
    lp_symbol again;
    lp_symbolize(s, alpha, &sym);
    lp_symbolize(s, alpha, &again);
    LP_CHECK(sym.function == again.function && sym.file == again.file);
    LP_CHECK_EQ_U64(again.line, lp_alpha_line);

    /* Outside every module: no module, start is the pc itself. */
    lp_symbolize(s, 0x10, &sym);
    LP_CHECK(sym.module == NULL && sym.function == NULL && sym.file == NULL);
    LP_CHECK_EQ_U64(sym.function_start, 0x10);
    LP_CHECK_EQ_U64(sym.line, 0);

    lp_symbolizer_free(s);
    free(exe.path);
}

/* The executable is PIE (ET_DYN): report it at a base of our choosing and
 * look up addresses relative to that base. */
static void test_chosen_base(void)
{
    lp_module exe;
    found_object fo;
    LP_CHECK(live_module((uintptr_t)&lp_symtest_alpha, &exe, &fo) == 0);
    uint64_t vaddr = (uintptr_t)&lp_symtest_alpha - fo.bias;
    uint64_t base = 0x7a0000000000ULL;
    exe.start = exe.start - fo.bias + base;
    exe.bias = (int64_t)base;
    lp_module_map map = {&exe, 1};
    lp_symbolizer *s = NULL;
    LP_CHECK(lp_symbolizer_create(&map, &s) == 0);
    lp_symbol sym;
    lp_symbolize(s, base + vaddr, &sym);
    LP_CHECK(sym.function && strcmp(sym.function, "lp_symtest_alpha") == 0);
    LP_CHECK_EQ_U64(sym.function_start, base + vaddr);
    LP_CHECK_EQ_U64(sym.line, lp_alpha_line);
    lp_symbolizer_free(s);
    free(exe.path);
}

/* A shared library; with libc6-dbg installed its file:line come from the
 * separate debug file under /usr/lib/debug/.build-id. */
static void test_libc(void)
{
    lp_module libc;
    found_object fo;
    uintptr_t qs = (uintptr_t)&qsort;
    if (live_module(qs, &libc, &fo) != 0) {
        printf("libc: no mapping found, skipped\n");
        return;
    }
    lp_module_map map = {&libc, 1};
    lp_symbolizer *s = NULL;
    LP_CHECK(lp_symbolizer_create(&map, &s) == 0);
    lp_symbol sym;
    lp_symbolize(s, qs, &sym);
    LP_CHECK(sym.function != NULL);
    LP_CHECK_EQ_U64(sym.function_start, qs);
    LP_CHECK(sym.module && strcmp(sym.module, libc.path) == 0);

    char debug_path[256];
    int n = snprintf(debug_path, sizeof debug_path, "/usr/lib/debug/.build-id/%02x/",
                     fo.build_id_len ? fo.build_id[0] : 0);
    for (size_t i = 1; i < fo.build_id_len; i++)
        n += snprintf(debug_path + n, sizeof debug_path - (size_t)n, "%02x", fo.build_id[i]);
    snprintf(debug_path + n, sizeof debug_path - (size_t)n, ".debug");
    if (fo.build_id_len && access(debug_path, R_OK) == 0) {
        LP_CHECK(sym.file != NULL);
        LP_CHECK(sym.line > 0);
        printf("libc qsort: %s %s:%u\n", sym.function, sym.file ? sym.file : "?", sym.line);

        /* memcpy is an IFUNC: its address here is the variant the loader
         * chose for this processor, a local symbol that only the debug
         * file's symbol table names (__memmove_avx_unaligned_erms, ...). */
        void *(*volatile copy)(void *, const void *, size_t) = memcpy;
        lp_symbol var;
        lp_symbolize(s, (uint64_t)(uintptr_t)copy, &var);
        LP_CHECK(var.function && strncmp(var.function, "__mem", 5) == 0);
        printf("libc memcpy resolves to %s\n", var.function ? var.function : "?");

        /* The library itself gone (say, upgraded since the recording): its
         * debug file, found by the recorded build id, still answers. */
        lp_symbolizer *s2 = NULL;
        lp_module gone = libc;
        gone.path = "/nonexistent/libc.so.6";
        lp_module_map map2 = {&gone, 1};
        LP_CHECK(lp_symbolizer_create(&map2, &s2) == 0);
        lp_symbol sym2;
        lp_symbolize(s2, qs, &sym2);
        LP_CHECK(sym2.function && sym.function && strcmp(sym2.function, sym.function) == 0);
        LP_CHECK_EQ_U64(sym2.function_start, qs);
        LP_CHECK(sym2.file && sym.file && strcmp(sym2.file, sym.file) == 0);
        LP_CHECK_EQ_U64(sym2.line, sym.line);
        LP_CHECK(sym2.module && strcmp(sym2.module, "/nonexistent/libc.so.6") == 0);
        lp_symbolizer_free(s2);
    } else {
        printf("libc: no separate debug info at %s, file:line not checked\n", debug_path);
    }
    lp_symbolizer_free(s);
    free(libc.path);
}

/* A file whose build id differs from the recorded one, and a file that does
 * not exist, resolve to the module only. */
static void test_unusable_files(void)
{
    lp_module mods[2];
    found_object fo;
    LP_CHECK(live_module((uintptr_t)&lp_symtest_alpha, &mods[0], &fo) == 0);
    memset(mods[0].build_id, 0xab, 20);
    mods[0].build_id_len = 20;
    memset(&mods[1], 0, sizeof mods[1]);
    mods[1].path = "/nonexistent/lowprof-missing.so";
    mods[1].start = 0x10000;
    mods[1].size = 0x1000;
    mods[1].bias = 0x10000;
    lp_module_map map = {mods, 2};
    lp_symbolizer *s = NULL;
    LP_CHECK(lp_symbolizer_create(&map, &s) == 0);

    lp_symbol sym;
    lp_symbolize(s, (uintptr_t)&lp_symtest_alpha, &sym);
    LP_CHECK(sym.function == NULL && sym.file == NULL && sym.line == 0);
    LP_CHECK(sym.module && strcmp(sym.module, mods[0].path) == 0);

    lp_symbolize(s, 0x10400, &sym);
    LP_CHECK(sym.function == NULL && sym.file == NULL);
    LP_CHECK(sym.module && strcmp(sym.module, "/nonexistent/lowprof-missing.so") == 0);
    LP_CHECK_EQ_U64(sym.function_start, 0x10400);
    lp_symbolizer_free(s);
    free(mods[0].path);

    /* An empty map is fine too. */
    lp_module_map empty = {NULL, 0};
    LP_CHECK(lp_symbolizer_create(&empty, &s) == 0);
    lp_symbolize(s, 0x1234, &sym);
    LP_CHECK(sym.module == NULL);
    lp_symbolizer_free(s);
    lp_symbolizer_free(NULL);
}

/* A module path that names a FIFO (a crafted profile) resolves to the
 * module only, at once: opening it for reading would block until a writer
 * came. A hang here is the test's timeout. */
static void test_fifo_module(void)
{
    char dir[] = "/tmp/lp-symtest-XXXXXX";
    LP_CHECK(mkdtemp(dir) != NULL);
    char fifo[64];
    snprintf(fifo, sizeof fifo, "%s/fifo.so", dir);
    LP_CHECK(mkfifo(fifo, 0600) == 0);
    lp_module mod;
    memset(&mod, 0, sizeof mod);
    mod.path = fifo;
    mod.start = 0x10000;
    mod.size = 0x1000;
    mod.bias = 0x10000;
    lp_module_map map = {&mod, 1};
    lp_symbolizer *s = NULL;
    LP_CHECK(lp_symbolizer_create(&map, &s) == 0);
    lp_symbol sym;
    lp_symbolize(s, 0x10400, &sym);
    LP_CHECK(sym.function == NULL && sym.module && strcmp(sym.module, fifo) == 0);
    lp_symbolizer_free(s);
    unlink(fifo);
    rmdir(dir);
}

int main(void)
{
    test_own_functions();
    test_chosen_base();
    test_libc();
    test_unusable_files();
    test_fifo_module();
    return lp_test_done();
}
