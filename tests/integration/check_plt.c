/* Calls through PLT stubs, on a program and a library written for the
 * purpose and built here (gcc, and again for Intel CET's IBT, whose called
 * stubs live in .plt.sec), recorded with `lowprof record` twice: with the
 * default --skip-plt, every call through a stub must be counted as a call
 * of its target (and no stub may be a callee or a method), and with
 * --no-skip-plt as a call of the stub plus the stub's tail call.
 *
 * The program (counts it was built to produce):
 *   main calls plt_lib_leaf 1000 times through a .plt.got stub (its address
 *     is also taken) and once through that address;
 *   main calls tail_to_lib 500 times, which tail-calls plt_lib_twice
 *     through a .plt (or .plt.sec) stub: "jmp plt_lib_twice@plt";
 *   plt_lib_twice calls plt_lib_leaf twice through the library's own PLT.
 * Lazy binding sends the first call through each lazily bound stub to the
 * dynamic linker's resolver, which then tail-calls the function; the sums
 * below count the resolver with the function.
 *
 * usage: check_plt LOWPROF WORKDIR. Exit 77 without gcc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../unit/lp_test.h"
#include "lp_itest.h"

#define SKIP 77

static const char lib_src[] =
    "int plt_lib_leaf(int x) { return x + 1; }\n"
    "int plt_lib_twice(int x) { return plt_lib_leaf(x) + plt_lib_leaf(x + 1); }\n";

static const char prog_src[] =
    "#include <stdio.h>\n"
    "int plt_lib_leaf(int x);\n"
    "int plt_lib_twice(int x);\n"
    "int (*volatile take)(int);\n"
    "__attribute__((noinline)) int tail_to_lib(int x) { return plt_lib_twice(x); }\n"
    "int main(void) {\n"
    "    int s = 0;\n"
    "    take = plt_lib_leaf; /* its address from the GOT: the stub goes to .plt.got */\n"
    "    for (int i = 0; i < 1000; i++) s += plt_lib_leaf(i);\n"
    "    for (int i = 0; i < 500; i++) s += tail_to_lib(i);\n"
    "    s += take(1);\n"
    "    printf(\"%d\\n\", s & 1);\n"
    "    return 0;\n"
    "}\n";

static lp_symbolizer *sym;
static lp_profile_set set;

static int is_fn(uint64_t pc, const char *name)
{
    const char *f = lp_itest_fn(sym, pc);
    if (strcmp(name, "RESOLVER") == 0)
        return strncmp(f, "_dl_runtime_resolve", 19) == 0;
    return strcmp(f, name) == 0;
}

static int is_stub(uint64_t pc)
{
    const char *f = lp_itest_fn(sym, pc);
    size_t n = strlen(f);
    return n > 4 && strcmp(f + n - 4, "@plt") == 0;
}

/* Calls (v0) or tail calls (v1) from caller to callee, summed over sites. */
static uint64_t calls(const char *caller, const char *callee, int tail)
{
    lp_profile *p = lp_profile_set_find(&set, LP_PROF_CALL_PAIR, LP_PHASE_NONE);
    uint64_t n = 0;
    size_t cur = 0;
    const lp_entry *e;
    while (p && (e = lp_table_next(&p->table, &cur)) != NULL)
        if (is_fn(e->key.a, caller) && is_fn(e->key.b, callee))
            n += e->v[tail ? 1 : 0];
    return n;
}

/* Invocations of the methods named name (several stubs may share a name). */
static uint64_t invocations(const char *name)
{
    lp_profile *p = lp_profile_set_find(&set, LP_PROF_METHOD, LP_PHASE_NONE);
    uint64_t n = 0;
    size_t cur = 0;
    const lp_entry *e;
    while (p && (e = lp_table_next(&p->table, &cur)) != NULL)
        if (is_fn(e->key.a, name))
            n += e->v[0];
    return n;
}

/* Calls into stubs, and stubs invoked as methods. */
static uint64_t stub_calls(void)
{
    lp_profile *pairs = lp_profile_set_find(&set, LP_PROF_CALL_PAIR, LP_PHASE_NONE);
    lp_profile *methods = lp_profile_set_find(&set, LP_PROF_METHOD, LP_PHASE_NONE);
    uint64_t n = 0;
    size_t cur = 0;
    const lp_entry *e;
    while (pairs && (e = lp_table_next(&pairs->table, &cur)) != NULL)
        if (is_stub(e->key.b))
            n += e->v[0];
    cur = 0;
    while (methods && (e = lp_table_next(&methods->table, &cur)) != NULL)
        if (is_stub(e->key.a))
            n += e->v[0];
    return n;
}

static int write_file(const char *dir, const char *name, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* Records prog (with or without --no-skip-plt) and checks its counts. */
static void check_run(const char *lowprof, const char *dir, const char *label, int skip)
{
    char prog[4096], out[4096], log[4096];
    snprintf(prog, sizeof prog, "%s/prog", dir);
    snprintf(out, sizeof out, "%s/plt-%s.lpprof", dir, skip ? "skip" : "noskip");
    snprintf(log, sizeof log, "%s/plt-%s.log", dir, skip ? "skip" : "noskip");
    char *cmd[] = {(char *)lowprof, "record", "-q", "--no-imatrix", "--profile", "method,call-pair",
                   "-o", out, skip ? "--" : "--no-skip-plt", skip ? prog : "--", skip ? NULL : prog,
                   NULL};
    int rc = lp_itest_run(cmd, log);
    LP_CHECK_EQ_U64(rc, 0);
    if (rc != 0) {
        fprintf(stderr, "%s: lowprof record failed; see %s\n", label, log);
        return;
    }
    lp_itest_load(out, &set);
    if (lp_symbolizer_create(&set.modules, &sym) != LP_OK) {
        lp_profile_set_fini(&set);
        LP_CHECK(0);
        return;
    }
    const char *meta = lp_meta_get(&set.meta, "skip-plt");
    LP_CHECK(meta && strcmp(meta, skip ? "yes" : "no") == 0);
    uint64_t leaf = invocations("plt_lib_leaf"), twice = invocations("plt_lib_twice");
    printf("%s, %s: main -> plt_lib_leaf %llu, tail_to_lib -> plt_lib_twice %llu (tail %llu), "
           "plt_lib_twice -> plt_lib_leaf %llu, into stubs %llu; invocations leaf %llu, "
           "twice %llu\n",
           label, skip ? "skip-plt" : "no-skip-plt",
           (unsigned long long)calls("main", "plt_lib_leaf", 0),
           (unsigned long long)calls("tail_to_lib", "plt_lib_twice", 0),
           (unsigned long long)calls("tail_to_lib", "plt_lib_twice", 1),
           (unsigned long long)calls("plt_lib_twice", "plt_lib_leaf", 0),
           (unsigned long long)stub_calls(), (unsigned long long)leaf,
           (unsigned long long)twice);
    LP_CHECK_EQ_U64(leaf, 2001);
    LP_CHECK_EQ_U64(twice, 500);
    LP_CHECK_EQ_U64(calls("main", "tail_to_lib", 0), 500);
    if (skip) {
        /* .plt.got is bound at load time: no resolver. */
        LP_CHECK_EQ_U64(calls("main", "plt_lib_leaf", 0), 1001);
        LP_CHECK_EQ_U64(calls("main", "plt_lib_leaf", 1), 0);
        LP_CHECK_EQ_U64(calls("tail_to_lib", "plt_lib_twice", 0) +
                            calls("tail_to_lib", "RESOLVER", 0), 500);
        LP_CHECK_EQ_U64(calls("tail_to_lib", "plt_lib_twice", 1) +
                            calls("tail_to_lib", "RESOLVER", 1), 500);
        LP_CHECK_EQ_U64(calls("plt_lib_twice", "plt_lib_leaf", 0) +
                            calls("plt_lib_twice", "RESOLVER", 0), 1000);
        LP_CHECK(calls("tail_to_lib", "plt_lib_twice", 0) >= 499);
        LP_CHECK(calls("plt_lib_twice", "plt_lib_leaf", 0) >= 999);
        LP_CHECK_EQ_U64(stub_calls(), 0);
    } else {
        LP_CHECK_EQ_U64(calls("main", "plt_lib_leaf@plt", 0), 1000);
        LP_CHECK_EQ_U64(calls("main", "plt_lib_leaf", 0), 1);
        LP_CHECK_EQ_U64(calls("plt_lib_twice", "plt_lib_leaf@plt", 0), 1000);
        /* The stubs' jumps: each a tail call of the function, but the
         * lazily bound first ones, whose resolver makes it. */
        LP_CHECK_EQ_U64(calls("plt_lib_leaf@plt", "plt_lib_leaf", 1) +
                            calls("RESOLVER", "plt_lib_leaf", 1), 2000);
        LP_CHECK_EQ_U64(calls("plt_lib_twice@plt", "plt_lib_twice", 1) +
                            calls("RESOLVER", "plt_lib_twice", 1), 500);
        /* A jump into a stub is no call without --skip-plt. */
        LP_CHECK_EQ_U64(calls("tail_to_lib", "plt_lib_twice", 0), 0);
        LP_CHECK(stub_calls() >= 2000);
    }
    lp_symbolizer_free(sym);
    sym = NULL;
    lp_profile_set_fini(&set);
    memset(&set, 0, sizeof set);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: check_plt LOWPROF WORKDIR\n");
        return 2;
    }
    if (system("command -v gcc > /dev/null 2>&1") != 0) {
        printf("SKIP: gcc is not installed\n");
        return SKIP;
    }
    static const struct {
        const char *name, *flags;
        int needed;
    } variants[] = {
        {"plain", "", 1},
        {"ibt", "-fcf-protection=full -Wl,-z,ibtplt", 0},
    };
    mkdir(argv[2], 0755);
    for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
        char dir[4096], cmd[16384];
        snprintf(dir, sizeof dir, "%s/%s", argv[2], variants[v].name);
        mkdir(dir, 0755);
        if (write_file(dir, "lib.c", lib_src) || write_file(dir, "prog.c", prog_src)) {
            LP_CHECK(0);
            continue;
        }
        /* -O2 makes tail_to_lib's call a jmp; the library calls its own
         * export through its PLT (gcc keeps it interposable). */
        snprintf(cmd, sizeof cmd,
                 "cd '%s' && gcc -O2 -g %s -fPIC -shared -o libpltlib.so lib.c && "
                 "gcc -O2 -g %s -o prog prog.c -L. -lpltlib -Wl,-rpath,'$ORIGIN' "
                 "> build.log 2>&1",
                 dir, variants[v].flags, variants[v].flags);
        if (system(cmd) != 0) {
            printf("%s: cannot build (%s)%s\n", variants[v].name, variants[v].flags,
                   variants[v].needed ? "" : ", variant skipped");
            LP_CHECK(!variants[v].needed);
            continue;
        }
        check_run(argv[1], dir, variants[v].name, 1);
        check_run(argv[1], dir, variants[v].name, 0);
    }
    return lp_test_done();
}
