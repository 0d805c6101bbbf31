/* PLT stubs named "target@plt" by the symbolizer (src/symbols/symbols_plt.c),
 * checked on real binaries against an independent reference: objdump's own
 * labels ("0000000000001030 <puts@plt>:"), which binutils derives from the
 * relocations in its own way.
 *
 * A small program and a shared library are built in a temporary folder with
 * each compiler found (gcc, clang) and once with Intel CET's IBT layout
 * (-fcf-protection=full -z ibtplt: the called stubs move to .plt.sec). The
 * program calls puts, strlen and printf, calls atoi and takes its address
 * (a .plt.got stub), and calls the library, which calls strlen and one of
 * its own exported functions through its own PLT. libc's PLT (IRELATIVE
 * slots of IFUNCs) is checked too when present. Exit 77 without objdump or
 * any C compiler. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lowprof/symbols.h"
#include "../lp_test.h"

#define SKIP 77

static const char lib_src[] =
    "#include <string.h>\n"
    "int lp_plt_lib_twice(int x) { return 2 * x; }\n"
    "int lp_plt_lib_call(const char *s) { return (int)strlen(s) + lp_plt_lib_twice(1); }\n";

static const char prog_src[] =
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "#include <string.h>\n"
    "int lp_plt_lib_call(const char *s);\n"
    "int (*volatile conv)(const char *) = atoi;\n"
    "int main(int argc, char **argv) {\n"
    "    puts(argv[0]);\n"
    "    printf(\"%zu %d\\n\", strlen(argv[0]), argc);\n"
    "    return lp_plt_lib_call(argv[0]) + atoi(\"0\") + conv(\"0\");\n"
    "}\n";

static int run_quiet(const char *cmd)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s >/dev/null 2>&1", cmd);
    return system(buf);
}

static int have(const char *tool)
{
    char buf[256];
    snprintf(buf, sizeof buf, "command -v %s", tool);
    return run_quiet(buf) == 0;
}

/* One stub as objdump labels it. */
typedef struct ref_stub {
    unsigned long long addr;
    char name[256];
} ref_stub;

/* objdump -d's "ADDR <NAME@plt>:" labels of path; returns how many (at
 * most max). */
static size_t objdump_stubs(const char *path, ref_stub *out, size_t max)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "objdump -d --no-show-raw-insn '%s' 2>/dev/null", path);
    FILE *f = popen(cmd, "r");
    if (!f)
        return 0;
    char line[1024];
    size_t n = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned long long addr;
        char name[256];
        if (sscanf(line, "%llx <%255[^>]>:", &addr, name) != 2)
            continue;
        size_t len = strlen(name);
        if (len < 5 || strcmp(name + len - 4, "@plt") != 0 || n == max)
            continue;
        out[n].addr = addr;
        strcpy(out[n].name, name);
        n++;
    }
    pclose(f);
    return n;
}

static int has_stub(const ref_stub *s, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s[i].name, name) == 0)
            return 1;
    return 0;
}

/* Symbolizes every stub objdump labels in path, loaded at bias; returns the
 * reference list's size (its entries in *out_ref). */
static size_t check_module(const char *path, long long bias, ref_stub *ref, size_t max)
{
    size_t n = objdump_stubs(path, ref, max);
    lp_module_map map = {0};
    LP_CHECK(lp_module_map_add(&map, path, (uint64_t)bias, 1ULL << 32, bias, NULL, 0) == 0);
    lp_symbolizer *s = NULL;
    LP_CHECK(lp_symbolizer_create(&map, &s) == 0);
    if (!s) {
        lp_module_map_fini(&map);
        return n;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t start = ref[i].addr + (uint64_t)bias;
        /* objdump names IRELATIVE slots "*ABS*+0xADDR@plt"; lowprof names
         * them after the IFUNC symbol at that address when there is one. */
        int abs = strncmp(ref[i].name, "*ABS*", 5) == 0;
        for (uint64_t off = 0; off < 8; off += 3) {
            lp_symbol sym;
            lp_symbolize(s, start + off, &sym);
            int ok = sym.function != NULL && sym.function_start == start;
            if (ok && !abs)
                ok = strcmp(sym.function, ref[i].name) == 0;
            if (ok && abs)
                ok = strlen(sym.function) > 4 &&
                     strcmp(sym.function + strlen(sym.function) - 4, "@plt") == 0;
            LP_CHECK(ok);
            if (!ok)
                fprintf(stderr, "  %s: 0x%llx+%llu is %s (objdump: %s)\n", path, ref[i].addr,
                        (unsigned long long)off, sym.function ? sym.function : "(none)",
                        ref[i].name);
        }
    }
    lp_symbolizer_free(s);
    lp_module_map_fini(&map);
    return n;
}

/* Whether path has a section named name (readelf-free: objdump -h). */
static int has_section(const char *path, const char *name)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "objdump -h '%s' | grep -q ' %s '", path, name);
    return system(cmd) == 0;
}

/* Builds the library and the program with cc and flags in dir; 0 if built. */
static int build(const char *dir, const char *cc, const char *flags)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && %s -O0 -fno-builtin %s -fPIC -shared -o libpltlib.so lib.c && "
             "%s -O0 -fno-builtin %s -fPIE -pie -o prog prog.c -L. -lpltlib",
             dir, cc, flags, cc, flags);
    return run_quiet(cmd);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    LP_CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

int main(void)
{
    if (!have("objdump")) {
        printf("SKIP: objdump (binutils) is not installed\n");
        return SKIP;
    }
    char dir[] = "/tmp/lp-plt-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    write_file(dir, "lib.c", lib_src);
    write_file(dir, "prog.c", prog_src);

    static const struct {
        const char *cc, *flags, *label;
        int ibt;
    } variants[] = {
        {"gcc", "", "gcc", 0},
        {"clang", "", "clang", 0},
        {"gcc", "-fcf-protection=full -Wl,-z,ibtplt", "gcc IBT", 1},
    };
    int built = 0;
    static ref_stub ref[4096];
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        if (!have(variants[v].cc)) {
            printf("%s: not installed, variant skipped\n", variants[v].cc);
            continue;
        }
        if (build(dir, variants[v].cc, variants[v].flags) != 0) {
            printf("%s: cannot build with '%s', variant skipped\n", variants[v].label,
                   variants[v].flags);
            continue;
        }
        built++;
        char prog[512], lib[512];
        snprintf(prog, sizeof prog, "%s/prog", dir);
        snprintf(lib, sizeof lib, "%s/libpltlib.so", dir);
        size_t n = check_module(prog, 0x555500000000LL, ref, 4096);
        printf("%s: program: %zu stubs\n", variants[v].label, n);
        /* The stubs the program's source makes, so the reference itself is
         * known to be complete enough. */
        LP_CHECK(has_stub(ref, n, "puts@plt"));
        LP_CHECK(has_stub(ref, n, "strlen@plt"));
        LP_CHECK(has_stub(ref, n, "printf@plt"));
        LP_CHECK(has_stub(ref, n, "atoi@plt")); /* .plt.got: its address is taken */
        LP_CHECK(has_stub(ref, n, "lp_plt_lib_call@plt"));
        n = check_module(lib, 0x7f0000000000LL, ref, 4096);
        printf("%s: library: %zu stubs\n", variants[v].label, n);
        LP_CHECK(has_stub(ref, n, "strlen@plt"));
        if (strcmp(variants[v].cc, "gcc") == 0) /* gcc calls its own exports via the PLT */
            LP_CHECK(has_stub(ref, n, "lp_plt_lib_twice@plt"));
        if (variants[v].ibt)
            LP_CHECK(has_section(prog, ".plt.sec"));

        /* PLT0, the lazy-binding entry, is no stub of any function. */
        lp_module_map map = {0};
        lp_symbolizer *s = NULL;
        LP_CHECK(lp_module_map_add(&map, prog, 0x555500000000ULL, 1ULL << 32, 0x555500000000LL,
                                   NULL, 0) == 0);
        LP_CHECK(lp_symbolizer_create(&map, &s) == 0);
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "objdump -h '%s' | awk '$2 == \".plt\" {print $4}'", prog);
        FILE *f = popen(cmd, "r");
        unsigned long long plt0 = 0;
        if (f && fscanf(f, "%llx", &plt0) == 1 && s) {
            lp_symbol sym;
            lp_symbolize(s, 0x555500000000ULL + plt0 + 4, &sym);
            LP_CHECK(!sym.function || !strstr(sym.function, "@plt"));
        }
        if (f)
            pclose(f);
        lp_symbolizer_free(s);
        lp_module_map_fini(&map);
    }
    if (!built) {
        printf("SKIP: no C compiler could build the test program\n");
        return SKIP;
    }

    /* libc's own PLT: IRELATIVE slots (memcpy and friends) and JUMP_SLOTs. */
    const char *libc = "/lib/x86_64-linux-gnu/libc.so.6";
    if (access(libc, R_OK) == 0) {
        size_t n = check_module(libc, 0x7f1000000000LL, ref, 4096);
        printf("libc: %zu stubs\n", n);
    }

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    LP_CHECK(system(cmd) == 0);
    return lp_test_done();
}
