/* The check-placement analysis (lowprof/analysis.h) on programs written for
 * the purpose, whose call graphs and loops are known:
 *
 *   - analysis_prog.c, built with gcc and with clang at -O1, each as an
 *     ET_EXEC (-static -no-pie) and as a PIE: the exact functions, leaves,
 *     roots, address-taken functions (through data or an immediate in the
 *     ET_EXEC, through relocations and lea in the PIE), recursive
 *     components, recursion from below, the set C, every loop with its
 *     nesting and events, and the decisions of orig, EL, EC, EN, L4, L10,
 *     LN and EC+L4;
 *   - the PIE stripped of its symbol table: every function is found again
 *     from calls and taken addresses, and C is the same but for main, which
 *     nothing then names; the PIE with RELR relocations;
 *   - an ordinary program, stripped: main is found as __libc_start_main's
 *     argument, and its call to puts is external;
 *   - analysis_lib.c as a shared library: exported functions and the
 *     constructor are roots, a static function stored in data is
 *     address-taken, a call through the PLT is external;
 *   - damaged input: a truncated file, a section pointing outside the file,
 *     a non-ELF file, a 32-bit ELF, an AArch64 ELF, a relocatable object and
 *     a missing file each give their error code and a message naming the
 *     file and what is wrong.
 *
 * usage: check_analysis SRCDIR WORKDIR; exits 77 when no C compiler runs. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../unit/lp_test.h"
#include "lowprof/analysis.h"

static const char *srcdir, *workdir;

/* Runs argv quietly; returns its exit status, or -1. */
static int run(char *const argv[])
{
    fflush(stdout); /* or the child's copy of the buffer is written again */
    pid_t pid = fork();
    if (pid == 0) {
        FILE *null = freopen("/dev/null", "w", stdout);
        (void)null;
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "%s: cannot read\n", path);
        exit(1);
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static const lp_analysis_fn *fn(const lp_analysis *a, const char *name)
{
    uint32_t i = lp_analysis_fn_find(a, name);
    if (i == UINT32_MAX) {
        fprintf(stderr, "  no function %s\n", name);
        lp_test_failures++;
        static lp_analysis_fn none;
        return &none;
    }
    return lp_analysis_fn_get(a, i);
}

static uint32_t idx(const lp_analysis *a, const char *name)
{
    return lp_analysis_fn_find(a, name);
}

static int has_edge(const lp_analysis *a, const char *from, const char *to)
{
    const lp_bursty_call *c;
    size_t n = lp_analysis_edges(a, &c);
    for (size_t i = 0; i < n; i++)
        if (c[i].caller == idx(a, from) && c[i].callee == idx(a, to))
            return 1;
    return 0;
}

/* Checks that exactly the names in want[] (NULL-terminated) satisfy pick. */
static void expect_set(const lp_analysis *a, const char *what, int (*pick)(const lp_analysis_fn *),
                       const char *const *want)
{
    uint32_t n = lp_analysis_summary_get(a)->fns, count = 0, expected = 0;
    for (uint32_t i = 0; i < n; i++) {
        const lp_analysis_fn *f = lp_analysis_fn_get(a, i);
        int in_want = 0;
        for (size_t k = 0; want[k]; k++)
            in_want |= strcmp(want[k], f->name) == 0;
        if (pick(f) != in_want) {
            fprintf(stderr, "  %s: %s %s\n", what, f->name, in_want ? "missing" : "unexpected");
            lp_test_failures++;
        }
        count += pick(f) != 0;
    }
    while (want[expected])
        expected++;
    LP_CHECK_EQ_U64(count, expected);
    lp_test_checks++;
}

static int pick_c(const lp_analysis_fn *f)
{
    return f->facts.in_c;
}
static int pick_leaf(const lp_analysis_fn *f)
{
    return (f->flags & LP_BURSTY_FN_LEAF) != 0;
}
static int pick_root(const lp_analysis_fn *f)
{
    return (f->flags & LP_BURSTY_FN_ROOT) != 0;
}
static int pick_taken(const lp_analysis_fn *f)
{
    return (f->flags & LP_BURSTY_FN_ADDR_TAKEN) != 0;
}
static int pick_rec(const lp_analysis_fn *f)
{
    return f->facts.recursion_from_below;
}
static int pick_any(const lp_analysis_fn *f)
{
    (void)f;
    return 1;
}

static const char *const prog_fns[] = {"_start", "main", "is_even", "is_odd", "depth",
                                       "callback", "table_fn", "apply", "leaf_add",
                                       "sum_small", "mix_many", "loop_calls", "nested", NULL};
static const char *const prog_c[] = {"_start", "main", "is_even", "depth", "callback", "table_fn",
                                     NULL};

static lp_analysis_placement place(const lp_analysis *a, const char *name)
{
    lp_bursty_placement p;
    lp_analysis_placement pl;
    memset(&pl, 0, sizeof pl);
    LP_CHECK(lp_bursty_placement_parse(name, strlen(name), &p, NULL) == 0);
    LP_CHECK(lp_analysis_place(a, &p, &pl) == 0);
    return pl;
}

/* The decision of the (only) back-edge of loop l. */
static const lp_analysis_decision *edge_of(const lp_analysis_placement *pl,
                                           const lp_analysis_loop *l)
{
    return &pl->back_edge[l->first_back_edge];
}

static void check_prog_loops(const lp_analysis *a, const char *label)
{
    const lp_analysis_fn *f;
    const lp_analysis_loop *l;
    for (size_t k = 0; prog_fns[k]; k++) {
        const char *name = prog_fns[k];
        uint32_t want = strcmp(name, "nested") == 0 ? 2
                        : strcmp(name, "sum_small") == 0 || strcmp(name, "mix_many") == 0 ||
                                  strcmp(name, "loop_calls") == 0
                            ? 1
                            : 0;
        if (fn(a, name)->loops != want) {
            fprintf(stderr, "  %s: %s has %u loops, not %u\n", label, name, fn(a, name)->loops,
                    want);
            lp_test_failures++;
        }
    }
    LP_CHECK_EQ_U64(lp_analysis_summary_get(a)->loops, 5);
    LP_CHECK_EQ_U64(lp_analysis_summary_get(a)->back_edges, 5);
    LP_CHECK_EQ_U64(lp_analysis_summary_get(a)->max_depth, 2);

    f = fn(a, "sum_small");
    l = lp_analysis_loop_get(a, f->first_loop);
    LP_CHECK(l && l->facts.events >= 1 && l->facts.events <= 4 && !l->facts.has_call);
    f = fn(a, "mix_many");
    l = lp_analysis_loop_get(a, f->first_loop);
    LP_CHECK(l && l->facts.events >= 5 && l->facts.events <= 10 && !l->facts.has_call);
    f = fn(a, "loop_calls");
    l = lp_analysis_loop_get(a, f->first_loop);
    LP_CHECK(l && l->facts.has_call);
    f = fn(a, "nested");
    const lp_analysis_loop *outer = lp_analysis_loop_get(a, f->first_loop);
    const lp_analysis_loop *inner = lp_analysis_loop_get(a, f->first_loop + 1);
    if (outer && inner && outer->depth == 2) { /* loops are sorted by header address */
        const lp_analysis_loop *t = outer;
        outer = inner;
        inner = t;
    }
    LP_CHECK(outer && inner);
    if (!outer || !inner)
        return;
    LP_CHECK_EQ_U64(outer->depth, 1);
    LP_CHECK_EQ_U64(inner->depth, 2);
    LP_CHECK_EQ_U64(inner->parent, (uint64_t)(outer - lp_analysis_loop_get(a, 0)));
    LP_CHECK(inner->facts.events >= 1 && inner->facts.events <= 4 && !inner->facts.has_call);
    LP_CHECK(outer->facts.events >= 5 && outer->facts.events <= 10 && !outer->facts.has_call);
    LP_CHECK(outer->facts.events > inner->facts.events);
    LP_CHECK(outer->blocks > inner->blocks);

    /* EC+L4: the paper's preferred placement. */
    lp_analysis_placement pl = place(a, "EC+L4");
    LP_CHECK_EQ_U64(pl.entry_checks, 6);
    LP_CHECK_EQ_U64(pl.back_edge_checks, 3);
    LP_CHECK_EQ_U64(pl.boring_loops, 2);
    for (size_t k = 0; prog_fns[k]; k++) {
        uint32_t i = idx(a, prog_fns[k]);
        if (i != UINT32_MAX)
            LP_CHECK_EQ_U64(pl.entry[i].check, fn(a, prog_fns[k])->facts.in_c);
    }
    LP_CHECK_EQ_U64(pl.entry[idx(a, "leaf_add")].reason, LP_ANALYSIS_WHY_LEAF);
    LP_CHECK_EQ_U64(pl.entry[idx(a, "apply")].reason, LP_ANALYSIS_WHY_NOT_IN_C);
    LP_CHECK_EQ_U64(pl.entry[idx(a, "main")].because, LP_ANALYSIS_C_ROOT);
    LP_CHECK_EQ_U64(pl.entry[idx(a, "callback")].because, LP_ANALYSIS_C_ADDR_TAKEN);
    LP_CHECK_EQ_U64(pl.entry[idx(a, "is_even")].because, LP_ANALYSIS_C_RECURSION);
    l = lp_analysis_loop_get(a, fn(a, "sum_small")->first_loop);
    LP_CHECK(!edge_of(&pl, l)->check && edge_of(&pl, l)->reason == LP_ANALYSIS_WHY_BORING);
    l = lp_analysis_loop_get(a, fn(a, "mix_many")->first_loop);
    LP_CHECK(edge_of(&pl, l)->check && edge_of(&pl, l)->reason == LP_ANALYSIS_WHY_MANY_EVENTS);
    l = lp_analysis_loop_get(a, fn(a, "loop_calls")->first_loop);
    LP_CHECK(edge_of(&pl, l)->check && edge_of(&pl, l)->reason == LP_ANALYSIS_WHY_HAS_CALL);
    LP_CHECK(edge_of(&pl, outer)->check);
    LP_CHECK(!edge_of(&pl, inner)->check && edge_of(&pl, inner)->reason == LP_ANALYSIS_WHY_BORING);
    char text[128];
    lp_analysis_decision_text(edge_of(&pl, inner), text, sizeof text);
    char want[128];
    snprintf(want, sizeof want, "k-boring (%u events <= 4, no call)", inner->facts.events);
    LP_CHECK(strcmp(text, want) == 0);
    lp_analysis_placement_free(&pl);

    /* L10: every loop without a call is now boring; entries all checked. */
    pl = place(a, "L10");
    LP_CHECK_EQ_U64(pl.entry_checks, 13);
    LP_CHECK_EQ_U64(pl.back_edge_checks, 1);
    LP_CHECK(!edge_of(&pl, outer)->check && !edge_of(&pl, inner)->check);
    lp_analysis_placement_free(&pl);

    /* orig, EL, EN, LN. */
    pl = place(a, "orig");
    LP_CHECK_EQ_U64(pl.entry_checks, 13);
    LP_CHECK_EQ_U64(pl.back_edge_checks, 5);
    lp_analysis_placement_free(&pl);
    pl = place(a, "EL");
    LP_CHECK_EQ_U64(pl.entry_checks, 9);
    LP_CHECK_EQ_U64(pl.entry[idx(a, "apply")].reason, LP_ANALYSIS_WHY_CALLS);
    lp_analysis_placement_free(&pl);
    pl = place(a, "EN");
    LP_CHECK_EQ_U64(pl.entry_checks, 0);
    LP_CHECK_EQ_U64(pl.back_edge_checks, 5);
    lp_analysis_placement_free(&pl);
    pl = place(a, "LN");
    LP_CHECK_EQ_U64(pl.entry_checks, 13);
    LP_CHECK_EQ_U64(pl.back_edge_checks, 0);
    lp_analysis_placement_free(&pl);
}

/* pie: 0 an ET_EXEC, 1 a PIE, 2 a PIE whose relative relocations are RELR. */
static void check_prog(const char *path, int pie)
{
    lp_analysis *a;
    lp_analysis_error err;
    int rc = lp_analysis_open_file(path, &a, &err);
    LP_CHECK_EQ_U64(rc, 0);
    if (rc) {
        fprintf(stderr, "  %s\n", err.message);
        return;
    }
    int failed = lp_test_failures;
    const lp_analysis_summary *s = lp_analysis_summary_get(a);
    LP_CHECK_EQ_U64(s->kind, pie ? LP_ANALYSIS_PIE : LP_ANALYSIS_EXEC);
    expect_set(a, "functions", pick_any, prog_fns);
    expect_set(a, "leaves", pick_leaf,
               (const char *const[]){"leaf_add", "sum_small", "mix_many", "nested", NULL});
    expect_set(a, "roots", pick_root, (const char *const[]){"_start", "main", NULL});
    expect_set(a, "address-taken", pick_taken, (const char *const[]){"callback", "table_fn", NULL});
    expect_set(a, "recursion from below", pick_rec,
               (const char *const[]){"is_even", "depth", NULL});
    expect_set(a, "set C", pick_c, prog_c);
    LP_CHECK_EQ_U64(fn(a, "_start")->root_why, LP_ANALYSIS_ROOT_ENTRY);
    LP_CHECK_EQ_U64(fn(a, "main")->root_why, LP_ANALYSIS_ROOT_MAIN);
    /* The table of function pointers: a data word in the ET_EXEC, a
     * relocation in the PIE; callback is also passed directly. */
    LP_CHECK(fn(a, "table_fn")->taken_why &
             (pie == 1 ? LP_ANALYSIS_TAKEN_RELOC : LP_ANALYSIS_TAKEN_DATA));
    LP_CHECK(fn(a, "callback")->taken_why &
             (pie ? LP_ANALYSIS_TAKEN_LEA : LP_ANALYSIS_TAKEN_IMM));
    LP_CHECK_EQ_U64(fn(a, "main")->facts.distance, 0);
    LP_CHECK_EQ_U64(fn(a, "is_even")->facts.distance, 1);
    LP_CHECK_EQ_U64(fn(a, "is_odd")->facts.distance, 2);
    LP_CHECK_EQ_U64(fn(a, "callback")->facts.distance, LP_BURSTY_UNREACHABLE);

    LP_CHECK(has_edge(a, "_start", "main"));
    LP_CHECK(has_edge(a, "main", "is_even"));
    LP_CHECK(has_edge(a, "is_even", "is_odd"));
    LP_CHECK(has_edge(a, "is_odd", "is_even"));
    LP_CHECK(has_edge(a, "depth", "depth"));
    LP_CHECK(has_edge(a, "callback", "leaf_add"));
    LP_CHECK(has_edge(a, "loop_calls", "leaf_add"));
    LP_CHECK(!has_edge(a, "apply", "callback"));
    LP_CHECK_EQ_U64(fn(a, "apply")->indirect_calls, 1);
    LP_CHECK_EQ_U64(s->external_calls, 0);

    LP_CHECK_EQ_U64(s->sccs, 2);
    const uint32_t *m;
    uint32_t n0 = lp_analysis_scc_get(a, 0, &m), n1;
    const uint32_t *m1;
    n1 = lp_analysis_scc_get(a, 1, &m1);
    LP_CHECK((n0 == 2 && n1 == 1) || (n0 == 1 && n1 == 2));
    const uint32_t *pair = n0 == 2 ? m : m1, *single = n0 == 2 ? m1 : m;
    if (pair && single) {
        LP_CHECK((pair[0] == idx(a, "is_even") && pair[1] == idx(a, "is_odd")) ||
                 (pair[0] == idx(a, "is_odd") && pair[1] == idx(a, "is_even")));
        LP_CHECK_EQ_U64(single[0], idx(a, "depth"));
    }
    check_prog_loops(a, path);
    if (lp_test_failures != failed)
        fprintf(stderr, "--- the checks above failed for %s\n", path);

    /* The same file without .symtab, if strip is there. */
    if (pie == 1) {
        char stripped[4096];
        snprintf(stripped, sizeof stripped, "%s.stripped", path);
        char *strip[] = {"strip", "-o", stripped, (char *)path, NULL};
        lp_analysis *b = NULL;
        if (run(strip) != 0)
            fprintf(stderr, "  strip did not run; the stripped variant is not checked\n");
        else
            LP_CHECK_EQ_U64(lp_analysis_open_file(stripped, &b, &err), 0);
        if (b) {
            LP_CHECK_EQ_U64(lp_analysis_summary_get(b)->fns, 13);
            for (size_t k = 0; prog_fns[k]; k++) {
                const lp_analysis_fn *f = fn(a, prog_fns[k]);
                uint32_t j = lp_analysis_fn_at(b, f->addr);
                LP_CHECK(j != UINT32_MAX);
                if (j == UINT32_MAX)
                    continue;
                const lp_analysis_fn *g = lp_analysis_fn_get(b, j);
                int want_c = f->facts.in_c && strcmp(prog_fns[k], "main") != 0;
                if (g->facts.in_c != want_c) {
                    fprintf(stderr, "  %s: %s (%s) in C: %d\n", stripped, g->name, prog_fns[k],
                            g->facts.in_c);
                    lp_test_failures++;
                }
                LP_CHECK_EQ_U64(g->loops, f->loops);
            }
            LP_CHECK_EQ_U64(lp_analysis_summary_get(b)->fns_symbol, 0);
            LP_CHECK_EQ_U64(lp_analysis_summary_get(b)->set_c, 5);
            lp_analysis_free(b);
        }
    }
    lp_analysis_free(a);
}

static void check_lib(const char *path)
{
    lp_analysis *a;
    lp_analysis_error err;
    int rc = lp_analysis_open_file(path, &a, &err);
    LP_CHECK_EQ_U64(rc, 0);
    if (rc) {
        fprintf(stderr, "  %s\n", err.message);
        return;
    }
    int failed = lp_test_failures;
    LP_CHECK_EQ_U64(lp_analysis_summary_get(a)->kind, LP_ANALYSIS_LIBRARY);
    expect_set(a, "functions", pick_any,
               (const char *const[]){"helper", "via_pointer", "lib_api", "lib_leaf", "lib_hidden",
                                     "lib_loop_ext", "lib_init", NULL});
    expect_set(a, "roots", pick_root,
               (const char *const[]){"lib_api", "lib_leaf", "lib_loop_ext", "lib_init", NULL});
    expect_set(a, "leaves", pick_leaf, (const char *const[]){"helper", "lib_leaf", NULL});
    expect_set(a, "set C", pick_c,
               (const char *const[]){"lib_api", "lib_loop_ext", "lib_init", "via_pointer", NULL});
    LP_CHECK_EQ_U64(fn(a, "lib_api")->root_why, LP_ANALYSIS_ROOT_EXPORTED);
    LP_CHECK_EQ_U64(fn(a, "lib_init")->root_why, LP_ANALYSIS_ROOT_INIT);
    LP_CHECK(fn(a, "via_pointer")->taken_why & LP_ANALYSIS_TAKEN_RELOC);
    LP_CHECK(!(fn(a, "via_pointer")->flags & LP_BURSTY_FN_ROOT));
    LP_CHECK(fn(a, "lib_loop_ext")->external_calls >= 1);
    LP_CHECK(has_edge(a, "lib_api", "helper"));
    LP_CHECK(has_edge(a, "lib_hidden", "helper"));
    const lp_analysis_loop *l = lp_analysis_loop_get(a, fn(a, "lib_loop_ext")->first_loop);
    LP_CHECK_EQ_U64(fn(a, "lib_loop_ext")->loops, 1);
    LP_CHECK(l && l->facts.has_call);
    if (lp_test_failures != failed)
        fprintf(stderr, "--- the checks above failed for %s\n", path);
    lp_analysis_free(a);
}

/* An ordinary program linked with libc's start files and stripped: main
 * has no symbol, and is found as the address _start passes to
 * __libc_start_main in rdi; its call to puts goes through the PLT. */
static void check_hosted(const char *cc)
{
    char src[4096], plain[4096], stripped[4096];
    snprintf(src, sizeof src, "%s/hosted.c", workdir);
    snprintf(plain, sizeof plain, "%s/hosted-%s", workdir, cc);
    snprintf(stripped, sizeof stripped, "%s/hosted-%s-stripped", workdir, cc);
    FILE *f = fopen(src, "w");
    if (!f || fputs("#include <stdio.h>\n"
                    "int main(int argc, char **argv) { puts(argv[0]); return argc; }\n",
                    f) < 0 || fclose(f) != 0) {
        perror(src);
        exit(1);
    }
    char *build_plain[] = {(char *)cc, "-O1", src, "-o", plain, NULL};
    char *build_stripped[] = {(char *)cc, "-O1", "-s", src, "-o", stripped, NULL};
    if (run(build_plain) != 0 || run(build_stripped) != 0) {
        fprintf(stderr, "  %s did not link a hosted program; main's rule is not checked\n", cc);
        return;
    }
    printf("%s\n", stripped);
    lp_analysis *a, *b;
    lp_analysis_error err;
    if (lp_analysis_open_file(plain, &a, &err) != 0) {
        fprintf(stderr, "  %s\n", err.message);
        lp_test_failures++;
        return;
    }
    uint64_t main_addr = fn(a, "main")->addr;
    LP_CHECK(fn(a, "main")->root_why & LP_ANALYSIS_ROOT_MAIN);
    LP_CHECK(fn(a, "main")->external_calls >= 1);
    LP_CHECK(fn(a, "_start")->root_why & LP_ANALYSIS_ROOT_ENTRY);
    lp_analysis_free(a);
    if (lp_analysis_open_file(stripped, &b, &err) != 0) {
        fprintf(stderr, "  %s\n", err.message);
        lp_test_failures++;
        return;
    }
    uint32_t m = lp_analysis_fn_at(b, main_addr);
    LP_CHECK(m != UINT32_MAX);
    if (m != UINT32_MAX) {
        const lp_analysis_fn *g = lp_analysis_fn_get(b, m);
        LP_CHECK(g->root_why & LP_ANALYSIS_ROOT_MAIN);
        LP_CHECK(g->facts.in_c);
        LP_CHECK(g->external_calls >= 1);
    }
    uint32_t mains = 0;
    for (uint32_t i = 0; i < lp_analysis_summary_get(b)->fns; i++)
        mains += (lp_analysis_fn_get(b, i)->root_why & LP_ANALYSIS_ROOT_MAIN) != 0;
    LP_CHECK_EQ_U64(mains, 1);
    LP_CHECK(lp_analysis_fn_get(b, lp_analysis_fn_at(b, lp_analysis_summary_get(b)->entry)) &&
             (lp_analysis_fn_get(b, lp_analysis_fn_at(b, lp_analysis_summary_get(b)->entry))
                  ->root_why & LP_ANALYSIS_ROOT_ENTRY));
    lp_analysis_free(b);
}

/* Builds src with cc and flags into out; returns 0 if it worked. */
static int build(const char *cc, const char *src, const char *out, const char *const *flags)
{
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)cc;
    argv[n++] = "-O1";
    argv[n++] = "-fno-inline";
    argv[n++] = "-fno-stack-protector";
    argv[n++] = "-fcf-protection=none";
    argv[n++] = "-nostdlib";
    for (size_t k = 0; flags[k]; k++)
        argv[n++] = (char *)flags[k];
    argv[n++] = (char *)src;
    argv[n++] = "-o";
    argv[n++] = (char *)out;
    argv[n] = NULL;
    return run(argv);
}

static void write_bytes(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

/* The analysis of path fails with code and a message holding the path and
 * each of the phrases. */
static void expect_error(const char *path, int code, const char *phrase)
{
    lp_analysis *a = NULL;
    lp_analysis_error err;
    int rc = lp_analysis_open_file(path, &a, &err);
    LP_CHECK_EQ_U64((uint64_t)(int64_t)rc, (uint64_t)(int64_t)code);
    LP_CHECK(a == NULL);
    LP_CHECK(strncmp(err.message, path, strlen(path)) == 0);
    LP_CHECK(strstr(err.message, phrase) != NULL);
    if (rc != code || !strstr(err.message, phrase))
        fprintf(stderr, "  %s: got %d \"%s\", wanted %d with \"%s\"\n", path, rc, err.message, code,
                phrase);
    lp_analysis_free(a);
}

static void check_errors(const char *good)
{
    size_t size;
    uint8_t *img = read_all(good, &size);
    char path[4096];

    snprintf(path, sizeof path, "%s/truncated-header", workdir);
    write_bytes(path, img, 40);
    expect_error(path, LP_ETRUNC, "truncated ELF file: 40 bytes");

    snprintf(path, sizeof path, "%s/truncated-half", workdir);
    write_bytes(path, img, size / 2);
    expect_error(path, LP_ETRUNC, "section header table");

    /* A section whose bytes lie past the end: the last section header's
     * sh_offset (at +24 in it) set far out. */
    uint8_t *bad = malloc(size);
    memcpy(bad, img, size);
    uint64_t shoff = 0;
    for (int i = 7; i >= 0; i--)
        shoff = shoff << 8 | img[40 + i];
    unsigned shnum = img[60] | (unsigned)img[61] << 8;
    size_t at = (size_t)shoff + (shnum - 1) * 64 + 24;
    LP_CHECK(shnum > 1 && at + 8 <= size);
    if (shnum > 1 && at + 8 <= size) {
        memset(bad + at, 0, 8);
        bad[at + 3] = 0x10; /* 0x10000000 */
        snprintf(path, sizeof path, "%s/section-outside", workdir);
        write_bytes(path, bad, size);
        expect_error(path, LP_ETRUNC, "past the end of the file");
    }

    memcpy(bad, img, size);
    bad[4] = 1; /* ELFCLASS32 */
    snprintf(path, sizeof path, "%s/class32", workdir);
    write_bytes(path, bad, size);
    expect_error(path, LP_EFORMAT, "32-bit ELF file");

    memcpy(bad, img, size);
    bad[18] = 183; /* EM_AARCH64 */
    bad[19] = 0;
    snprintf(path, sizeof path, "%s/aarch64", workdir);
    write_bytes(path, bad, size);
    expect_error(path, LP_EFORMAT, "machine is AArch64 (e_machine 183 at offset 18), not x86-64");

    snprintf(path, sizeof path, "%s/text", workdir);
    const char *text = "#!/bin/sh\necho not a binary\n";
    write_bytes(path, (const uint8_t *)text, strlen(text));
    expect_error(path, LP_EFORMAT, "not an ELF file (it starts with bytes 23 21 2f 62");

    snprintf(path, sizeof path, "%s/empty", workdir);
    write_bytes(path, img, 0);
    expect_error(path, LP_ETRUNC, "empty file");

    snprintf(path, sizeof path, "%s/missing", workdir);
    expect_error(path, LP_ENOENT, "No such file");

    /* Real 32-bit and relocatable objects, when the compiler makes them. */
    char src[4096], obj[4096];
    snprintf(src, sizeof src, "%s/analysis_lib.c", srcdir);
    snprintf(obj, sizeof obj, "%s/lib32.o", workdir);
    char *m32[] = {"gcc", "-m32", "-c", src, "-o", obj, NULL};
    if (run(m32) == 0)
        expect_error(obj, LP_EFORMAT, "32-bit ELF file (ELFCLASS32 at offset 4)");
    else
        fprintf(stderr, "  gcc -m32 -c did not run; the crafted 32-bit header stands in\n");
    snprintf(obj, sizeof obj, "%s/lib64.o", workdir);
    char *c64[] = {"cc", "-c", src, "-o", obj, NULL};
    if (run(c64) == 0)
        expect_error(obj, LP_EFORMAT, "relocatable object file (ET_REL at offset 16)");
    free(bad);
    free(img);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: check_analysis SRCDIR WORKDIR\n");
        return 2;
    }
    srcdir = argv[1];
    workdir = argv[2];
    mkdir(workdir, 0755);
    char prog_src[4096], lib_src[4096];
    snprintf(prog_src, sizeof prog_src, "%s/analysis_prog.c", srcdir);
    snprintf(lib_src, sizeof lib_src, "%s/analysis_lib.c", srcdir);

    static const char *const compilers[] = {"gcc", "clang"};
    /* clang links -static without a PIE and warns about -no-pie. */
    static const char *const exec_flags[2][4] = {{"-static", "-no-pie", "-fno-pie", NULL},
                                                 {"-static", "-fno-pie", NULL, NULL}};
    static const char *const pie_flags[] = {"-fPIE", "-pie", NULL};
    static const char *const lib_flags[] = {"-shared", "-fPIC", NULL};
    char any_good[4096] = "";
    for (size_t c = 0; c < 2; c++) {
        char out[4096];
        snprintf(out, sizeof out, "%s/prog-%s-exec", workdir, compilers[c]);
        if (build(compilers[c], prog_src, out, exec_flags[c]) != 0) {
            fprintf(stderr, "%s did not build %s; skipping %s\n", compilers[c], prog_src,
                    compilers[c]);
            continue;
        }
        printf("%s\n", out);
        check_prog(out, 0);
        snprintf(any_good, sizeof any_good, "%s", out);
        snprintf(out, sizeof out, "%s/prog-%s-pie", workdir, compilers[c]);
        LP_CHECK_EQ_U64(build(compilers[c], prog_src, out, pie_flags), 0);
        printf("%s\n", out);
        check_prog(out, 1);
        /* RELR (-z pack-relative-relocs), where the linker has it: the
         * table's code addresses are then in the file's words. */
        static const char *const relr_flags[] = {"-fPIE", "-pie", "-Wl,-z,pack-relative-relocs",
                                                 NULL};
        snprintf(out, sizeof out, "%s/prog-%s-relr", workdir, compilers[c]);
        if (build(compilers[c], prog_src, out, relr_flags) == 0) {
            printf("%s\n", out);
            check_prog(out, 2);
        }
        check_hosted(compilers[c]);
        snprintf(out, sizeof out, "%s/lib-%s.so", workdir, compilers[c]);
        LP_CHECK_EQ_U64(build(compilers[c], lib_src, out, lib_flags), 0);
        printf("%s\n", out);
        check_lib(out);
    }
    if (!any_good[0]) {
        fprintf(stderr, "no C compiler built the test programs\n");
        return 77;
    }
    check_errors(any_good);
    return lp_test_done();
}
