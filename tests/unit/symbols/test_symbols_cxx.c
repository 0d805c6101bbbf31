/* C++ names: a program built here with g++ is symbolized at its functions'
 * addresses (from nm, an independent reader); `function` must be the
 * demangled name and `linkage` the mangled one, and a C function's two
 * names the same. Skips (77) without g++ or nm. */
#define _DEFAULT_SOURCE /* mkdtemp, popen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lp_test.h"
#include "lowprof/symbols.h"

static const char source[] =
    "namespace ns {\n"
    "struct Klass {\n"
    "    int method(int x);\n"
    "    template <typename T> static T twice(T v) { return v + v; }\n"
    "};\n"
    "int Klass::method(int x) { return x * 3; }\n"
    "}\n"
    "extern \"C\" int plain_c(int x) { return x + 1; }\n"
    "int main(int argc, char **) {\n"
    "    ns::Klass k;\n"
    "    return k.method(argc) + ns::Klass::twice<long>(argc) + plain_c(argc);\n"
    "}\n";

/* The address nm gives the symbol named exactly name, or 0. */
static uint64_t nm_address(const char *exe, const char *name)
{
    char cmd[600], line[512];
    snprintf(cmd, sizeof cmd, "nm '%s'", exe);
    FILE *p = popen(cmd, "r");
    uint64_t addr = 0;
    while (p && fgets(line, sizeof line, p)) {
        unsigned long long a;
        char type, sym[400];
        if (sscanf(line, "%llx %c %399s", &a, &type, sym) == 3 && strcmp(sym, name) == 0)
            addr = a;
    }
    if (p)
        pclose(p);
    return addr;
}

int main(void)
{
    if (system("command -v g++ >/dev/null && command -v nm >/dev/null") != 0) {
        printf("g++ or nm is missing; skipped\n");
        return 77;
    }
    char dir[] = "/tmp/lp-cxx-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char src[64], exe[64], cmd[256];
    snprintf(src, sizeof src, "%s/k.cc", dir);
    snprintf(exe, sizeof exe, "%s/k", dir);
    FILE *f = fopen(src, "w");
    if (!f || fputs(source, f) < 0 || fclose(f) != 0)
        return 1;
    snprintf(cmd, sizeof cmd, "g++ -O0 -g -no-pie -o '%s' '%s'", exe, src);
    LP_CHECK(system(cmd) == 0);

    lp_module_map map = {0};
    LP_CHECK(lp_module_map_add(&map, exe, 0, UINT64_C(1) << 40, 0, NULL, 0) == 0);
    lp_symbolizer *s;
    LP_CHECK(lp_symbolizer_create(&map, &s) == 0);
    static const struct {
        const char *mangled, *readable;
    } want[] = {
        {"_ZN2ns5Klass6methodEi", "ns::Klass::method(int)"},
        {"_ZN2ns5Klass5twiceIlEET_S2_", "long ns::Klass::twice<long>(long)"},
        {"plain_c", "plain_c"},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        uint64_t pc = nm_address(exe, want[i].mangled);
        LP_CHECK(pc != 0);
        lp_symbol sym;
        lp_symbolize(s, pc + 1, &sym);
        LP_CHECK(sym.function && strcmp(sym.function, want[i].readable) == 0);
        LP_CHECK(sym.linkage && strcmp(sym.linkage, want[i].mangled) == 0);
        LP_CHECK_EQ_U64(sym.function_start, pc);
        if (sym.function && strcmp(sym.function, want[i].readable) != 0)
            fprintf(stderr, "%s: got '%s'\n", want[i].mangled, sym.function);
    }
    lp_symbolizer_free(s);
    lp_module_map_fini(&map);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        return 1;
    return lp_test_done();
}
