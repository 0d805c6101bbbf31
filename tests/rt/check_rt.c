/* The native runtime's tests: builds rt_prog.c with `lowprof cc` (clang,
 * function entries and blocks), runs it in one mode under a LOWPROF
 * setting, and checks the profile it wrote against the counts the program
 * makes by construction (rt_prog.c), read back with lp_profile_file_read
 * and symbolized from the file's own module map.
 *
 * usage: check_rt LOWPROF SRCDIR WORKDIR TEST [RUNTIME-SOURCES...]
 * TEST: exact cet-gcc cet-clang switch flags flags-inline fork exec segv chain abort term prof
 * output scale tsan stacks calls calls-inline calls-cg bursty-abi bursty-cc
 * (tsan compiles the runtime's sources with -fsanitize=thread first;
 * bursty-abi takes the runtime archive as its one source, and needs cc,
 * not clang).
 * Exits 0, 1 on a failed check, 77 when clang or one of its flags is
 * missing. */
#define _GNU_SOURCE
#include <cpuid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lowprof/collector.h"
#include "lowprof/symbols.h"
#include "lowprof/trace.h"

static const char *g_lowprof, *g_src, *g_work;
static int g_failed;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "check_rt: %s:%d: ", __FILE__, __LINE__);                            \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            g_failed = 1;                                                                          \
        }                                                                                          \
    } while (0)

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("check_rt: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static void skip(const char *why)
{
    printf("check_rt: SKIP: %s\n", why);
    exit(77);
}

/* ---- processes ------------------------------------------------------------------ */

/* Runs argv in the work folder with LOWPROF=env (NULL: unset) and extra
 * "NAME=VALUE" (or NULL), stdout and stderr to files (NULL: inherit).
 * Returns the wait status. */
static int run(char *const argv[], const char *env, const char *extra, const char *out,
               const char *err)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        if (chdir(g_work) != 0)
            _exit(126);
        if (env)
            setenv("LOWPROF", env, 1);
        else
            unsetenv("LOWPROF");
        if (extra)
            putenv((char *)extra);
        if (out) {
            int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd >= 0)
                dup2(fd, 1);
        }
        if (err) {
            int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd >= 0)
                dup2(fd, 2);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            die("waitpid: %s", strerror(errno));
    return status;
}

static int ok_status(int status)
{
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static char *path_in(const char *dir, const char *name)
{
    char *p;
    if (asprintf(&p, "%s/%s", dir, name) < 0)
        die("out of memory");
    return p;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return strdup("");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = 2 * cap + 8192;
            buf = realloc(buf, cap);
            if (!buf)
                die("out of memory");
        }
        size_t got = fread(buf + n, 1, 4096, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    buf[n] = 0;
    return buf;
}

/* How block profiles are compiled: lowprof cc --blocks=clone or inline. */
static const char *g_blocks = "clone";
/* The program build_with compiles: rt_prog.c unless a test names another
 * of tests/rt. */
static const char *g_prog_src = "rt_prog.c";
/* lowprof cc --loops: the copies' loops in one version (the default) or
 * in two. */
static const char *g_loops = "one";

/* Compiles g_prog_src into WORK/name with `lowprof cc` (compiler cc and
 * --profiles=profiles) and extra compiler arguments (NULL-terminated). */

static void build_with(const char *name, const char *cc, const char *profiles, const char *rt,
                       const char *const *extra)
{
    char *src = path_in(g_src, g_prog_src);
    char *exe = path_in(g_work, name);
    char *incdir;
    if (asprintf(&incdir, "-I%s/../../include", g_src) < 0)
        die("out of memory");
    char rtopt[4096] = "--print";
    char blocksopt[32];
    snprintf(blocksopt, sizeof blocksopt, "--blocks=%s", g_blocks);
    if (rt)
        snprintf(rtopt, sizeof rtopt, "--rt=%s", rt);
    char ccopt[4200], profopt[64];
    snprintf(ccopt, sizeof ccopt, "--cc=%s", cc);
    snprintf(profopt, sizeof profopt, "--profiles=%s", profiles);
    char loopsopt[32];
    snprintf(loopsopt, sizeof loopsopt, "--loops=%s", g_loops);
    const char *argv[32] = {g_lowprof, "cc",  profopt, ccopt,  rtopt, blocksopt, loopsopt,
                            "--",      "-O2", "-g",    incdir, src,   "-o",      exe};
    size_t n = 14;
    for (size_t i = 0; extra && extra[i] && n < 30; i++)
        argv[n++] = extra[i];
    argv[n] = NULL;
    char *log = path_in(g_work, "build.log");
    int st = run((char *const *)argv, NULL, NULL, log, log);
    if (!ok_status(st)) {
        char *text = slurp(log);
        die("building %s failed (status %d):\n%s", name, st, text);
    }
}

/* What build compiles the program to profile (calls-cg: the call graph
 * only). */
static const char *g_profiles = "call-graph,block";

static void build(const char *name, const char *rt, const char *const *extra)
{
    build_with(name, "clang", g_profiles, rt, extra);
}

/* Runs WORK/prog in mode with LOWPROF=env and extra ("NAME=VALUE" or
 * NULL), stdout to WORK/out.txt and stderr to WORK/err.txt; returns the
 * wait status. */
static int run_prog(const char *mode, const char *env, const char *extra)
{
    char *argv[] = {path_in(g_work, "prog"), (char *)mode, NULL};
    return run(argv, env, extra, path_in(g_work, "out.txt"), path_in(g_work, "err.txt"));
}

/* ---- profiles -------------------------------------------------------------------- */

typedef struct loaded {
    lp_profile_set set;
    lp_symbolizer *sym;
} loaded;

static void load(const char *path, loaded *l)
{
    char *full = path[0] == '/' ? strdup(path) : path_in(g_work, path);
    FILE *f = fopen(full, "rb");
    if (!f)
        die("%s: %s", full, strerror(errno));
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc((size_t)size + 1);
    if (!data || fread(data, 1, (size_t)size, f) != (size_t)size)
        die("%s: short read", full);
    fclose(f);
    lp_memsource ms;
    lp_read_error err;
    int rc = lp_profile_file_read(lp_memsource_init(&ms, data, (size_t)size), &l->set, &err);
    if (rc != 0)
        die("%s: offset %llu: %s: %s (%s)", full, (unsigned long long)err.offset, err.field,
            err.detail, lp_strerror(rc));
    free(data);
    if (lp_symbolizer_create(&l->set.modules, &l->sym) != LP_OK)
        die("symbolizer");
}

static void unload(loaded *l)
{
    lp_symbolizer_free(l->sym);
    lp_profile_set_fini(&l->set);
}

static const char *fn(loaded *l, uint64_t pc)
{
    lp_symbol s;
    lp_symbolize(l->sym, pc, &s);
    return s.function ? s.function : "";
}

/* The whole-run profile of type (scaled counts), NULL if absent. */
static const lp_profile *whole(loaded *l, unsigned type)
{
    return lp_profile_set_find(&l->set, type, LP_PHASE_NONE);
}

/* Sum of v0 over entries whose key word (0: a, 1: b) names function f (any
 * function when f is NULL) and,
 * if g is given, whose other word names g. */
static uint64_t sum_by(loaded *l, unsigned type, int word, const char *f, const char *g)
{
    const lp_profile *p = whole(l, type);
    if (!p)
        return 0;
    uint64_t total = 0;
    size_t cur = 0;
    const lp_entry *e;
    while ((e = lp_table_next(&p->table, &cur)) != NULL) {
        uint64_t a = word ? e->key.b : e->key.a, b = word ? e->key.a : e->key.b;
        if (f && strcmp(fn(l, a), f) != 0)
            continue;
        if (g && strcmp(fn(l, b), g) != 0)
            continue;
        total += e->v[0];
    }
    return total;
}

static uint64_t method(loaded *l, const char *f)
{
    return sum_by(l, LP_PROF_METHOD, 0, f, NULL);
}

/* Whether some block of function f ran exactly n times. */
static int has_block(loaded *l, const char *f, uint64_t n)
{
    const lp_profile *p = whole(l, LP_PROF_BLOCK);
    size_t cur = 0;
    const lp_entry *e;
    while (p && (e = lp_table_next(&p->table, &cur)) != NULL)
        if (e->v[0] == n && strcmp(fn(l, e->key.a), f) == 0)
            return 1;
    return 0;
}

static const char *meta(loaded *l, const char *key)
{
    const char *v = lp_meta_get(&l->set.meta, key);
    return v ? v : "";
}

/* ---- the tests -------------------------------------------------------------------- */

static const char *const exact_env = "strategy=always,hot=all,profiles=call-graph,block,out=p.lpprof";

static void test_exact(void)
{
    build("prog", NULL, NULL);
    int st = run_prog("exact", exact_env, NULL);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3, "exit status %d, not 3", st);
    loaded l;
    load("p.lpprof", &l);
    CHECK(strcmp(meta(&l, "complete"), "yes") == 0, "complete=%s", meta(&l, "complete"));
    CHECK(method(&l, "leaf") == 1000, "leaf invocations %llu", (unsigned long long)method(&l, "leaf"));
    CHECK(method(&l, "site_a") == 1 && method(&l, "site_b") == 1 && method(&l, "loop777") == 1,
          "site_a/site_b/loop777 invocations not 1");
    CHECK(method(&l, "main") == 1, "main invocations %llu", (unsigned long long)method(&l, "main"));
    /* call graph: caller -> callee */
    uint64_t a = sum_by(&l, LP_PROF_CALL_GRAPH, 0, "site_a", "leaf");
    uint64_t b = sum_by(&l, LP_PROF_CALL_GRAPH, 0, "site_b", "leaf");
    CHECK(a == 600 && b == 400, "call graph site_a->leaf %llu, site_b->leaf %llu",
          (unsigned long long)a, (unsigned long long)b);
    CHECK(sum_by(&l, LP_PROF_CALL_GRAPH, 1, "leaf", NULL) == 1000, "call graph into leaf");
    CHECK(sum_by(&l, LP_PROF_CALL_GRAPH, 0, "main", "site_a") == 1, "main->site_a");
    /* call pairs: the site (return address) lies in the caller */
    a = sum_by(&l, LP_PROF_CALL_PAIR, 0, "site_a", "leaf");
    b = sum_by(&l, LP_PROF_CALL_PAIR, 0, "site_b", "leaf");
    CHECK(a == 600 && b == 400, "call pairs site_a->leaf %llu, site_b->leaf %llu",
          (unsigned long long)a, (unsigned long long)b);
    /* blocks: leaf is one block; loop777 (unoptimised) has the entry, the
     * body (777) and the exit among the blocks sancov instruments (it
     * leaves out blocks whose counts others imply, such as the loop's
     * condition); in a copy whose loops have two versions also the edge
     * from the loop's counted version to the exit, which the version
     * without counters enters too (src/frontends/cc/cc_loops.c) */
    CHECK(sum_by(&l, LP_PROF_BLOCK, 0, "leaf", NULL) == 1000, "leaf's blocks %llu",
          (unsigned long long)sum_by(&l, LP_PROF_BLOCK, 0, "leaf", NULL));
    CHECK(has_block(&l, "loop777", 777), "loop777: no block ran 777 times");
    /* A hidden function's copy pairs with its original, which the linker
     * made local: its block is reported. */
    CHECK(method(&l, "hidden_leaf") == 300 && sum_by(&l, LP_PROF_BLOCK, 0, "hidden_leaf", NULL) == 300,
          "hidden_leaf: %llu invocations, blocks sum to %llu, not 300",
          (unsigned long long)method(&l, "hidden_leaf"),
          (unsigned long long)sum_by(&l, LP_PROF_BLOCK, 0, "hidden_leaf", NULL));
    uint64_t exit_edge = strcmp(g_blocks, "clone") == 0 && strcmp(g_loops, "two") == 0;
    CHECK(sum_by(&l, LP_PROF_BLOCK, 0, "loop777", NULL) == 1 + 777 + 1 + exit_edge,
          "loop777's blocks sum to %llu",
          (unsigned long long)sum_by(&l, LP_PROF_BLOCK, 0, "loop777", NULL));
    for (size_t i = 0; i < l.set.count; i++)
        CHECK(l.set.profiles[i].scale_num == l.set.profiles[i].scale_den,
              "strategy=always profiles are exact (scale 1/1)");
    unload(&l);
}

/* Function entries after endbr64 (-fcf-protection=full), with gcc (whose
 * entry NOPs are five one-byte NOPs) and with clang. */
static void test_cet(const char *cc)
{
    const char *extra[] = {"-fcf-protection=full", NULL};
    build_with("prog", cc, "call-graph", NULL, extra);
    int st = run_prog("exact", exact_env, NULL);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3, "exit status %d, not 3", st);
    loaded l;
    load("p.lpprof", &l);
    CHECK(method(&l, "leaf") == 1000, "%s: leaf invocations %llu", cc,
          (unsigned long long)method(&l, "leaf"));
    uint64_t a = sum_by(&l, LP_PROF_CALL_GRAPH, 0, "site_a", "leaf");
    uint64_t b = sum_by(&l, LP_PROF_CALL_GRAPH, 0, "site_b", "leaf");
    CHECK(a == 600 && b == 400, "%s: site_a->leaf %llu, site_b->leaf %llu", cc,
          (unsigned long long)a, (unsigned long long)b);
    /* The method's key is the function's symbol, not the NOPs after endbr64. */
    const lp_profile *p = whole(&l, LP_PROF_METHOD);
    size_t cur = 0;
    const lp_entry *e;
    while (p && (e = lp_table_next(&p->table, &cur)) != NULL) {
        lp_symbol s;
        lp_symbolize(l.sym, e->key.a, &s);
        CHECK(s.function && s.function_start == e->key.a, "%s: method key %#llx is not %s's start",
              cc, (unsigned long long)e->key.a, s.function ? s.function : "a function");
    }
    unload(&l);
}

static void test_switch(void)
{
    g_loops = "two"; /* the loops' checks switch too */
    build("prog", NULL, NULL);
    int st = run_prog("switch", "strategy=never,profiles=call-graph,block,out=p.lpprof", NULL);
    CHECK(ok_status(st), "status %d", st);
    loaded l;
    load("p.lpprof", &l);
    CHECK(method(&l, "leaf") == 100, "leaf %llu, expected 100 (setpf then resetpf)",
          (unsigned long long)method(&l, "leaf"));
    CHECK(method(&l, "other") == 10, "other %llu, expected 10",
          (unsigned long long)method(&l, "other"));
    CHECK(method(&l, "main") == 0 && method(&l, "hot") == 0 && method(&l, "loop777") == 0,
          "methods never switched on were counted");
    /* The calls came from an original (main's code, switched off), leaf's
     * from one site and other's from ten (the loop is unrolled): the
     * copies' entries counted every pair through the stub's cache of such
     * calls, exactly. */
    uint64_t to_leaf = sum_by(&l, LP_PROF_CALL_PAIR, 0, NULL, "leaf"),
             to_other = sum_by(&l, LP_PROF_CALL_PAIR, 0, NULL, "other");
    CHECK(to_leaf == 100 && to_other == 10,
          "call pairs into leaf %llu and other %llu, expected 100 and 10",
          (unsigned long long)to_leaf, (unsigned long long)to_other);
    /* quad_sum takes its argument in memory: its checking entry calls its
     * copy (the program checks the sums) */
    CHECK(method(&l, "quad_sum") == 40 &&
              sum_by(&l, LP_PROF_CALL_PAIR, 0, "main", "quad_sum") == 40,
          "quad_sum %llu calls, %llu from main, expected 40",
          (unsigned long long)method(&l, "quad_sum"),
          (unsigned long long)sum_by(&l, LP_PROF_CALL_PAIR, 0, "main", "quad_sum"));
    /* and the runtime's count of such calls, by which the daemon prices a
     * window's slowdown: those 150, and one each into loop777 and
     * stops_midway, whose blocks were on */
    unsigned long long outside = strtoull(meta(&l, "outside-calls"), NULL, 10);
    CHECK(outside == 152, "outside-calls %llu, expected 152", outside);
    CHECK(has_block(&l, "loop777", 777), "loop777's blocks after setpf(BLOCKS)");
    /* The copies' increments and loop checks: inert while nothing
     * counts, live while a method's blocks are on, inert again once all
     * are off. */
    const char *out = slurp(path_in(g_work, "out.txt"));
    static const char *const what[] = {"increments", "loop checks"};
    for (int w = 0; w < 2; w++) {
        unsigned a[3] = {0}, c[3] = {0}, all[3] = {0};
        static const char *const when[] = {"before:", "on:", "after:"};
        for (int i = 0; i < 3; i++) {
            char key[40];
            snprintf(key, sizeof key, "%s %s", what[w], when[i]);
            const char *at = strstr(out, key);
            CHECK(at && sscanf(strchr(at, ':') + 1, "%u live, %u inert of %u", &a[i], &c[i],
                               &all[i]) == 3,
                  "no line '%s' in the output", key);
            CHECK(a[i] + c[i] == all[i], "%s %u live and %u inert of %u: the others are neither",
                  key, a[i], c[i], all[i]);
        }
        CHECK(c[0] > 0 && a[0] == 0, "%s before any window: %u live, %u inert", what[w], a[0],
              c[0]);
        CHECK(a[1] == c[0] && c[1] == 0, "%s with blocks on: %u live, %u inert, expected %u live",
              what[w], a[1], c[1], c[0]);
        CHECK(a[2] == 0 && c[2] == c[0], "%s all off again: %u live, %u inert", what[w], a[2],
              c[2]);
    }
    /* 50 iterations before, 300 after (the first iteration may be in the
     * entry block) */
    uint64_t midway = sum_by(&l, LP_PROF_BLOCK, 0, "stops_midway", NULL);
    CHECK(midway >= 50 && midway < 100,
          "stops_midway: %llu block executions; its blocks must count until it switches them "
          "off, and only until then",
          (unsigned long long)midway);
    CHECK(sum_by(&l, LP_PROF_BLOCK, 0, "hot", NULL) == 0 &&
              sum_by(&l, LP_PROF_BLOCK, 0, "leaf", NULL) == 0,
          "blocks of methods not switched on");
    unload(&l);

    /* Under a windowed strategy the calls from outside are counted one in
     * 16, at random, as 16: the entries stay exact, the pairs from an
     * original that alternates between two callees come out even (a
     * countdown of a fixed length would give one of them all or none). */
    st = run_prog("sampled", "strategy=periodic,duty=10,profiles=call-graph,out=s.lpprof", NULL);
    CHECK(ok_status(st), "sampled: status %d", st);
    load("s.lpprof", &l);
    CHECK(strcmp(meta(&l, "outside-calls-every"), "16") == 0, "sampled: outside-calls-every %s",
          meta(&l, "outside-calls-every"));
    /* The entries count every call while the program's switch holds: its
     * switch opens the copies' gate, and the windows' edges leave it open
     * (closing and reopening it at each window's end lost a few hundred
     * calls a run, and 11 % once on a loaded machine). The pairs are
     * checked against them. */
    double el = (double)method(&l, "leaf"), eo = (double)method(&l, "other");
    double pl = (double)sum_by(&l, LP_PROF_CALL_PAIR, 0, "alternate", "leaf"),
           po = (double)sum_by(&l, LP_PROF_CALL_PAIR, 0, "alternate", "other");
    double ol = strtod(meta(&l, "outside-calls"), NULL);
    printf("sampled: entries %.0f and %.0f, pairs alternate -> leaf %.0f, -> other %.0f, outside "
           "calls %.0f\n",
           el, eo, pl, po, ol);
    CHECK(el == 1e6 && eo == 1e6, "sampled: leaf %.0f and other %.0f entries, not a million each",
          el, eo);
    /* 62,500 samples each: a standard error of 0.4 % */
    CHECK(pl > 0.97 * el && pl < 1.03 * el && po > 0.97 * eo && po < 1.03 * eo &&
              ol > 0.97 * (el + eo) && ol < 1.03 * (el + eo),
          "sampled: pairs %.0f and %.0f, outside calls %.0f, against %.0f and %.0f entries: "
          "more than 3 %% off",
          pl, po, ol, el, eo);
    unload(&l);
}

static void test_flags(void)
{
    build("prog", NULL, NULL);
    int st = run_prog("flags", "strategy=always,hot=all,out=p.lpprof", NULL);
    CHECK(ok_status(st), "status %d", st);
    loaded l;
    load("p.lpprof", &l);
    CHECK(method(&l, "leaf") == 8, "leaf %llu, expected 8 (5 + 3 with the flag set)",
          (unsigned long long)method(&l, "leaf"));
    CHECK(method(&l, "callee_resets") == 1, "callee_resets %llu",
          (unsigned long long)method(&l, "callee_resets"));
    unload(&l);
}

/* Every profile file in the work folder. */
static int list_profiles(char names[][256], int cap)
{
    DIR *d = opendir(g_work);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL && n < cap) {
        size_t len = strlen(e->d_name);
        if (len > 7 && strcmp(e->d_name + len - 7, ".lpprof") == 0)
            snprintf(names[n++], 256, "%s", e->d_name);
    }
    if (d)
        closedir(d);
    return n;
}

/* Whether the processor and the kernel have protection keys (CPUID leaf 7,
 * ECX bit 4: OSPKE), which the runtime writes the text with. */
static int have_pkeys(void)
{
    unsigned a, b, c, d;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (c & (1u << 4));
}

/* The text written through a protection key (where the machine has them)
 * and through mprotect (text=mprotect): exact counts either way; windows
 * switching every millisecond while another thread reads the code as data
 * and a fork child follows; and the program's own store into its text
 * still faults, its pages writable only by the runtime's stores. A text
 * segment that holds read-only data too gets no key. */
static void test_text(void)
{
    build("prog", NULL, NULL);
    const char *want = have_pkeys() ? "key" : "mprotect";
    for (int k = 0; k < 2; k++) {
        const char *how = k ? "mprotect" : want;
        char env[256];
        snprintf(env, sizeof env, "%s%s", exact_env, k ? ",text=mprotect" : "");
        int st = run_prog("exact", env, NULL);
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3, "text=%s: exit status %d, not 3", how, st);
        loaded l;
        load("p.lpprof", &l);
        CHECK(strcmp(meta(&l, "text-writes"), how) == 0, "text-writes %s, not %s",
              meta(&l, "text-writes"), how);
        CHECK(method(&l, "leaf") == 1000 && sum_by(&l, LP_PROF_BLOCK, 0, "leaf", NULL) == 1000,
              "text=%s: leaf %llu invocations, %llu blocks, not 1000", how,
              (unsigned long long)method(&l, "leaf"),
              (unsigned long long)sum_by(&l, LP_PROF_BLOCK, 0, "leaf", NULL));
        unload(&l);
        snprintf(env, sizeof env,
                 "strategy=periodic,period=1,duty=50,hot=all,profiles=call-graph,block,"
                 "out=t%d.%%p.lpprof%s",
                 k, k ? ",text=mprotect" : "");
        st = run_prog("text", env, NULL);
        const char *out = slurp(path_in(g_work, "out.txt"));
        CHECK(ok_status(st) && strstr(out, "text: read something, child faulted") != NULL,
              "text=%s: status %d, printed '%s'", how, st, out);
        char names[8][256];
        int n = list_profiles(names, 8), parents = 0;
        for (int i = 0; i < n; i++) {
            char head[8];
            snprintf(head, sizeof head, "t%d.", k);
            if (strncmp(names[i], head, strlen(head)) != 0)
                continue;
            load(names[i], &l);
            unsigned long long written = strtoull(meta(&l, "sites-written"), NULL, 10);
            /* the parent switched for 200 ms at a window a millisecond */
            if (method(&l, "leaf") > 0) {
                parents++;
                CHECK(written >= 100 && strcmp(meta(&l, "text-writes"), how) == 0,
                      "text=%s: %llu sites written through %s", how, written,
                      meta(&l, "text-writes"));
            }
            unload(&l);
        }
        CHECK(parents == 1, "text=%s: %d profiles with leaf's calls, not one", how, parents);
    }
    /* Linked without separate code, the text segment holds the read-only
     * data too, which signal handlers read: no key there. */
    static const char *const mixed[] = {"-Wl,-z,noseparate-code", NULL};
    build("prog", NULL, mixed);
    int st = run_prog("exact", exact_env, NULL);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3, "noseparate-code: exit status %d, not 3", st);
    loaded l;
    load("p.lpprof", &l);
    CHECK(strcmp(meta(&l, "text-writes"), "mprotect") == 0 && method(&l, "leaf") == 1000,
          "noseparate-code: text-writes %s, leaf %llu", meta(&l, "text-writes"),
          (unsigned long long)method(&l, "leaf"));
    unload(&l);
}

static void test_fork(void)
{
    build("prog", NULL, NULL);
    int st = run_prog("fork", "strategy=always,hot=all,out=f.%p.lpprof", NULL);
    CHECK(ok_status(st), "status %d", st);
    char names[8][256];
    int n = list_profiles(names, 8);
    CHECK(n == 2, "%d profile files, expected one each for parent and child", n);
    int parent = 0, child = 0;
    for (int i = 0; i < n; i++) {
        loaded l;
        load(names[i], &l);
        uint64_t leaf = method(&l, "leaf"), main_calls = method(&l, "main");
        /* The parent: main, 10 calls before the fork and 20 after. The
         * child: counters from zero at the fork, 33 calls. */
        parent += leaf == 30 && main_calls == 1;
        child += leaf == 33 && main_calls == 0;
        unload(&l);
    }
    CHECK(parent == 1 && child == 1, "expected the parent's file (leaf 30, main 1) and the "
                                     "child's (leaf 33, main 0)");
}

/* ship=At-End: each process (parent and fork child) leaves one message in
 * the spool, named and complete; a fatal signal still leaves one; a
 * missing spool folder is a configuration error that changes nothing of
 * the program's behaviour. */
static int list_spool(const char *dir, char names[][256], int cap, int *out_tmp)
{
    DIR *d = opendir(dir);
    int n = 0;
    *out_tmp = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len > 6 && strcmp(e->d_name + len - 6, ".lpmsg") == 0 && n < cap)
            snprintf(names[n++], 256, "%s/%s", dir, e->d_name);
        else if (e->d_name[0] == '.' && strstr(e->d_name, ".tmp"))
            (*out_tmp)++;
    }
    if (d)
        closedir(d);
    return n;
}

static void test_ship(void)
{
    build("prog", NULL, NULL);
    int st = run_prog("fork", "strategy=always,hot=all,out=f.%p.lpprof,ship=At-End,spool=sp,"
                              "device=bench-7", NULL);
    CHECK(ok_status(st), "status %d", st);
    char names[8][256];
    int tmps;
    int n = list_spool(path_in(g_work, "sp"), names, 8, &tmps);
    CHECK(n == 2 && tmps == 0, "%d messages and %d temporaries, expected 2 and 0", n, tmps);
    char ids[2][80] = {"", ""};
    uint64_t leaves = 0;
    for (int i = 0; i < n && i < 2; i++) {
        loaded l;
        load(names[i], &l);
        snprintf(ids[i], sizeof ids[i], "%s", meta(&l, "message-id"));
        CHECK(strlen(ids[i]) == 32 && strspn(ids[i], "0123456789abcdef") == 32,
              "message-id '%s'", ids[i]);
        CHECK(strstr(names[i], ids[i]) != NULL, "%s is not named by its id", names[i]);
        CHECK(strcmp(meta(&l, "device"), "bench-7") == 0, "device '%s'", meta(&l, "device"));
        const char *bid = meta(&l, "build-id");
        CHECK(strlen(bid) >= 16 && strspn(bid, "0123456789abcdef") == strlen(bid),
              "build-id '%s'", bid);
        CHECK(strcmp(meta(&l, "complete"), "yes") == 0, "complete=%s", meta(&l, "complete"));
        leaves = leaves * 100 + method(&l, "leaf");
        unload(&l);
    }
    CHECK(strcmp(ids[0], ids[1]) != 0, "parent and child sent the same message id");
    CHECK(leaves == 3033 || leaves == 3330, "leaf calls %llu: expected the parent's 30 and "
          "the child's 33", (unsigned long long)leaves);

    st = run_prog("segv", "strategy=always,hot=all,out=c.lpprof,spool=sp2", NULL);
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "status %d", st);
    n = list_spool(path_in(g_work, "sp2"), names, 8, &tmps);
    CHECK(n == 1 && tmps == 0, "%d messages and %d temporaries after SIGSEGV", n, tmps);
    if (n == 1) {
        loaded l;
        load(names[0], &l);
        CHECK(strcmp(meta(&l, "complete"), "no") == 0 && method(&l, "leaf") == 25,
              "complete=%s leaf=%llu", meta(&l, "complete"),
              (unsigned long long)method(&l, "leaf"));
        unload(&l);
    }

    int plain = run_prog("exact", "strategy=never", NULL);
    st = run_prog("exact", "ship=At-End", NULL);
    CHECK(st == plain, "a bad LOWPROF changed the exit status: %d, not %d", st, plain);
    CHECK(strstr(slurp(path_in(g_work, "err.txt")), "field 'ship'") != NULL,
          "ship without spool: stderr '%s'", slurp(path_in(g_work, "err.txt")));
}

/* ship=interleaved: a message per profiled interval and a last one, all
 * of one run; merged, they give exactly what the run's own file (the whole
 * trace at once, as At End sends it) gives. */
static const lp_table *merged_methods(lp_merge *m, lp_profile_set *out)
{
    if (lp_merge_result(m, out) != 0)
        die("merge result");
    const lp_profile *p = lp_profile_set_find(out, LP_PROF_METHOD, LP_PHASE_NONE);
    return p ? &p->table : NULL;
}

static void test_ship_interleaved(void)
{
    build("prog", NULL, NULL);
    int st = run_prog("phases", "strategy=phase,period=10,profiles=call-graph,out=p.lpprof,"
                                "ship=interleaved,spool=sp", NULL);
    CHECK(ok_status(st), "status %d", st);
    static char names[512][256];
    int tmps;
    int n = list_spool(path_in(g_work, "sp"), names, 512, &tmps);
    CHECK(n >= 3 && tmps == 0, "%d messages and %d temporaries: expected a few parts", n, tmps);
    lp_merge *parts, *whole;
    if (lp_merge_create(&parts) != 0 || lp_merge_create(&whole) != 0)
        die("merge");
    char run[80] = "";
    int finals = 0, last_parts = -1;
    static int seen[512];
    for (int i = 0; i < n; i++) {
        loaded l;
        load(names[i], &l);
        if (!run[0])
            snprintf(run, sizeof run, "%s", meta(&l, "run-id"));
        CHECK(strlen(run) == 32 && strcmp(meta(&l, "run-id"), run) == 0,
              "%s: run-id '%s', others '%s'", names[i], meta(&l, "run-id"), run);
        int part = atoi(meta(&l, "part"));
        CHECK(part >= 0 && part < n && !seen[part], "%s: part %d twice or out of range",
              names[i], part);
        if (part >= 0 && part < n)
            seen[part] = 1;
        if (strcmp(meta(&l, "final"), "yes") == 0) {
            finals++;
            last_parts = atoi(meta(&l, "parts"));
        }
        CHECK(lp_merge_add(parts, &l.set, "d") == 0, "%s does not merge", names[i]);
        unload(&l);
    }
    CHECK(finals == 1 && last_parts == n, "%d last parts, saying %d parts of %d", finals,
          last_parts, n);
    loaded f;
    load("p.lpprof", &f);
    CHECK(lp_merge_add(whole, &f.set, "d") == 0, "the run's file does not merge");
    unload(&f);
    lp_merge_stats a, b;
    lp_merge_get_stats(parts, &a);
    lp_merge_get_stats(whole, &b);
    CHECK(a.runs == 1 && a.runs_in_progress == 0 && a.intervals == b.intervals &&
              a.intervals > 10,
          "parts: %llu runs (%llu in progress), %llu intervals; the file: %llu intervals",
          (unsigned long long)a.runs, (unsigned long long)a.runs_in_progress,
          (unsigned long long)a.intervals, (unsigned long long)b.intervals);
    lp_profile_set pa, pb;
    const lp_table *ta = merged_methods(parts, &pa), *tb = merged_methods(whole, &pb);
    CHECK(ta && tb && ta->count == tb->count && ta->count > 0, "method tables differ in size");
    size_t cur = 0, differ = 0;
    const lp_entry *e;
    while (ta && tb && (e = lp_table_next(ta, &cur)) != NULL) {
        const lp_entry *o = lp_table_find(tb, e->key);
        differ += !o || o->v[0] != e->v[0];
    }
    CHECK(differ == 0, "%zu methods estimated differently from the parts and from the file",
          differ);
    lp_profile_set_fini(&pa);
    lp_profile_set_fini(&pb);
    lp_merge_free(parts);
    lp_merge_free(whole);

    int plain = run_prog("exact", "strategy=never", NULL);
    st = run_prog("exact", "ship=interleaved,spool=sp2", NULL);
    CHECK(st == plain && strstr(slurp(path_in(g_work, "err.txt")), "needs strategy=phase"),
          "interleaved without the phase strategy: status %d, stderr '%s'", st,
          slurp(path_in(g_work, "err.txt")));
}

static void test_exec(void)
{
    build("prog", NULL, NULL);
    int st = run_prog("exec", "strategy=always,hot=all,out=e.lpprof", NULL);
    CHECK(ok_status(st), "status %d", st);
    char *out = slurp(path_in(g_work, "out.txt"));
    CHECK(strstr(out, "exec2") != NULL, "the exec'd image did not run: %s", out);
    loaded l;
    load("e.lpprof", &l);
    CHECK(method(&l, "leaf") == 7, "leaf %llu: the new image starts fresh with 7 calls",
          (unsigned long long)method(&l, "leaf"));
    unload(&l);
}

static void test_fatal(const char *mode, int sig, const char *extra)
{
    build("prog", NULL, NULL);
    char *out = path_in(g_work, "out.txt");
    int st = run_prog(mode, "strategy=always,hot=all,out=c.lpprof", extra);
    if (extra) {
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42,
              "status %d: the program's own handler should have exited with 42", st);
        CHECK(strstr(slurp(out), "handled") != NULL, "the program's handler did not run");
    } else {
        CHECK(WIFSIGNALED(st) && WTERMSIG(st) == sig, "status %d, expected killed by signal %d",
              st, sig);
    }
    loaded l;
    load("c.lpprof", &l);
    CHECK(strcmp(meta(&l, "complete"), "no") == 0, "complete=%s", meta(&l, "complete"));
    char reason[64];
    snprintf(reason, sizeof reason, "killed by signal %d (%s)", sig,
             sig == SIGSEGV   ? "SIGSEGV"
             : sig == SIGABRT ? "SIGABRT"
                              : "SIGTERM");
    CHECK(strcmp(meta(&l, "incomplete-reason"), reason) == 0, "reason '%s', not '%s'",
          meta(&l, "incomplete-reason"), reason);
    /* A fault says where: mode_segv's null store (inlined into main at
     * -O2); a sent signal (abort, kill) names no instruction. */
    const char *pc = meta(&l, "fault-pc");
    if (sig == SIGSEGV) {
        const char *f = fn(&l, strtoull(pc, NULL, 16));
        CHECK(strstr(f, "mode_segv") || strncmp(f, "main", 4) == 0,
              "fault-pc '%s' is in '%s', not mode_segv or main", pc, f);
        CHECK(strcmp(meta(&l, "fault-address"), "0x0") == 0, "fault-address '%s', not 0x0",
              meta(&l, "fault-address"));
        char *report[] = {(char *)g_lowprof, "report", path_in(g_work, "c.lpprof"), NULL};
        int rst =
            run(report, NULL, NULL, path_in(g_work, "report.txt"), path_in(g_work, "report.err"));
        char *rep = slurp(path_in(g_work, "report.txt"));
        CHECK(ok_status(rst) && strstr(rep, "fault         at ") && strstr(rep, "rt_prog.c:"),
              "the report does not say where the fault was:\n%s", rep);
        free(rep);
    } else {
        CHECK(!pc[0], "fault-pc '%s' for a signal that was sent", pc);
    }
    CHECK(method(&l, "leaf") == 25, "leaf %llu, expected 25",
          (unsigned long long)method(&l, "leaf"));
    unload(&l);
}

static void test_prof(void)
{
    build("prog", NULL, NULL);
    int st = run_prog("prof", "strategy=periodic,hot=10,period=5,out=s.lpprof", "RT_PROG_PROF=1");
    CHECK(ok_status(st), "status %d: the program's SIGPROF handler was starved", st);
    loaded l;
    load("s.lpprof", &l);
    uint64_t samples = strtoull(meta(&l, "pc-samples"), NULL, 10);
    CHECK(samples > 0, "the runtime took no PC samples of its own");
    unload(&l);
}

/* The same program without instrumentation or runtime: same stdout, stderr
 * and exit status, with LOWPROF unset (the defaults), with always, with
 * phase, and waiting for a first periodic window that an hour's period
 * puts after the run's end (seed 7 draws it: the copies take every call
 * and count nothing). That last profile is empty, and `lowprof report`
 * says why. */
static void test_output(void)
{
    build("prog", NULL, NULL);
    char *src = path_in(g_src, "rt_prog.c"), *inc;
    if (asprintf(&inc, "-I%s/../../include", g_src) < 0)
        die("out of memory");
    char *plain = path_in(g_work, "plain");
    char *cc[] = {"clang", "-O2", "-g", "-DRT_PROG_PLAIN", inc, src, "-o", plain, "-pthread", NULL};
    CHECK(ok_status(run(cc, NULL, NULL, NULL, NULL)), "plain build");
    const char *envs[] = {NULL, exact_env, "strategy=phase,profiles=call-graph,block,out=q.lpprof",
                          "strategy=periodic,period=3600000,seed=7,profiles=call-graph,block,"
                          "out=w.lpprof"};
    /* The originals are the plain build's functions: the copies are made
     * after the optimiser, so a static function the plain build inlines
     * (vm_loop, called once) is inlined in the originals too, and has no
     * copy of its own. */
    if (strcmp(g_blocks, "clone") == 0) {
        char *pnm[] = {"nm", plain, NULL}, *inm[] = {"nm", path_in(g_work, "prog"), NULL};
        int a = run(pnm, NULL, NULL, path_in(g_work, "plain.nm"), "/dev/null");
        int b = run(inm, NULL, NULL, path_in(g_work, "prog.nm"), "/dev/null");
        char *psyms = slurp(path_in(g_work, "plain.nm")),
             *isyms = slurp(path_in(g_work, "prog.nm"));
        CHECK(ok_status(a) && ok_status(b) && strstr(psyms, " vm_enter\n") &&
                  strstr(isyms, " vm_enter.lpdup\n"),
              "nm: no vm_enter in the plain build or no vm_enter.lpdup in lowprof's");
        CHECK(!strstr(psyms, " vm_loop") && !strstr(isyms, " vm_loop"),
              "vm_loop: the plain build %s it, lowprof's originals %s",
              strstr(psyms, " vm_loop") ? "keeps" : "inlines",
              strstr(isyms, " vm_loop") ? "keep it" : "inline it");
    }
    char *pargv[] = {plain, "exact", NULL};
    int pst = run(pargv, NULL, NULL, path_in(g_work, "plain.out"), path_in(g_work, "plain.err"));
    char *pout = slurp(path_in(g_work, "plain.out")), *perr = slurp(path_in(g_work, "plain.err"));
    for (int i = 0; i < 4; i++) {
        char *argv[] = {path_in(g_work, "prog"), "exact", NULL};
        int st = run(argv, envs[i], NULL, path_in(g_work, "i.out"), path_in(g_work, "i.err"));
        CHECK(st == pst, "exit status %d, plain build %d (LOWPROF=%s)", st, pst,
              envs[i] ? envs[i] : "unset");
        CHECK(strcmp(slurp(path_in(g_work, "i.out")), pout) == 0, "stdout differs (LOWPROF=%s)",
              envs[i] ? envs[i] : "unset");
        CHECK(strcmp(slurp(path_in(g_work, "i.err")), perr) == 0, "stderr differs (LOWPROF=%s)",
              envs[i] ? envs[i] : "unset");
    }
    loaded l;
    load("w.lpprof", &l);
    CHECK(strcmp(meta(&l, "windows"), "0") == 0, "before the first window: %s windows",
          meta(&l, "windows"));
    CHECK(sum_by(&l, LP_PROF_METHOD, 0, NULL, NULL) == 0 &&
              sum_by(&l, LP_PROF_BLOCK, 0, NULL, NULL) == 0,
          "counted before the first window");
    /* The direct entries were sent to the copies (and back at the end). */
    uint64_t direct = strtoull(meta(&l, "entry-sites-direct"), NULL, 10);
    CHECK(direct > 0 && strtoull(meta(&l, "sites-written"), NULL, 10) >= 2 * direct,
          "before the first window: %s of %s direct entries written",
          meta(&l, "sites-written"), meta(&l, "entry-sites-direct"));
    unload(&l);
    char *report[] = {(char *)g_lowprof, "report", path_in(g_work, "w.lpprof"), NULL};
    int rst = run(report, NULL, NULL, path_in(g_work, "report.txt"), path_in(g_work, "report.err"));
    char *rep = slurp(path_in(g_work, "report.txt"));
    CHECK(ok_status(rst) && strstr(rep, "no window opened") != NULL,
          "report of a run without a window:\n%s", rep);
    free(rep);
    /* A bad LOWPROF: one line on stderr naming the field, the program as ever. */
    int st = run_prog("exact", "strategy=often", NULL);
    char *err = slurp(path_in(g_work, "err.txt"));
    CHECK(st == pst, "bad LOWPROF changed the exit status");
    CHECK(strcmp(slurp(path_in(g_work, "out.txt")), pout) == 0, "bad LOWPROF changed stdout");
    CHECK(strstr(err, "lowprof: LOWPROF: field 'strategy'") == err && strstr(err, perr) != NULL,
          "bad LOWPROF: stderr '%s'", err);
}

/* The runtime's own sources compiled with ThreadSanitizer, linked into the
 * program compiled with it: 16 threads, a thread switching one method on
 * and off as fast as it can, the daemon switching windows every
 * millisecond. No reports; exact totals where nothing switches. */
static void test_tsan(int nsrc, char **srcs)
{
    char *objdir = path_in(g_work, "rt-tsan");
    mkdir(objdir, 0755);
    char *inc;
    if (asprintf(&inc, "-I%s/../../include", g_src) < 0)
        die("out of memory");
    char *archive = path_in(g_work, "liblowprof-rt-tsan.a");
    unlink(archive);
    char **ar = calloc((size_t)nsrc + 4, sizeof *ar);
    int nar = 0;
    ar[nar++] = "ar";
    ar[nar++] = "rcs";
    ar[nar++] = archive;
    for (int i = 0; i < nsrc; i++) {
        char obj[64];
        snprintf(obj, sizeof obj, "o%d.o", i);
        char *o = path_in(objdir, obj);
        size_t len = strlen(srcs[i]);
        int is_asm = len > 2 && strcmp(srcs[i] + len - 2, ".S") == 0;
        char *argv[] = {"clang", "-fsanitize=thread", "-O1", "-g", "-fPIC", "-fvisibility=hidden",
                        inc, "-c", srcs[i], "-o", o, is_asm ? NULL : "-std=c17", NULL};
        char *log = path_in(g_work, "tsan-build.log");
        if (!ok_status(run(argv, NULL, NULL, log, log)))
            die("compiling %s with ThreadSanitizer failed:\n%s", srcs[i], slurp(log));
        ar[nar++] = o;
    }
    ar[nar] = NULL;
    if (!ok_status(run(ar, NULL, NULL, NULL, NULL)))
        die("ar failed");
    const char *extra[] = {"-fsanitize=thread", "-O1", NULL};
    build("prog", archive, extra);
    /* The sanitizer instruments each function once: lowprof cc optimises
     * without it and runs it with the counters, after the copies exist. */
    char *dis[] = {"objdump", "-d", "--no-show-raw-insn", path_in(g_work, "prog"), NULL};
    CHECK(ok_status(run(dis, NULL, NULL, path_in(g_work, "prog.dis"), "/dev/null")), "objdump");
    char *text = slurp(path_in(g_work, "prog.dis"));
    for (int copy = 0; copy < 2; copy++) {
        const char *name = copy ? "hot.lpdup" : "hot";
        char head[32];
        snprintf(head, sizeof head, "<%s>:\n", name);
        const char *at = strstr(text, head), *end = at ? strstr(at, "\n\n") : NULL;
        int entries = 0;
        for (const char *q = at; q && end && (q = strstr(q + 1, "<__tsan_func_entry")) && q < end;)
            entries++;
        CHECK(at && entries == 1, "%s calls __tsan_func_entry %d times, not once", name, entries);
    }
    CHECK(!strstr(text, "module_ctor.lpdup"), "a sanitizer's module constructor was copied");
    char *argv[] = {path_in(g_work, "prog"), "threads", NULL};
    char *err = path_in(g_work, "err.txt");
    const char *envs[] = {"strategy=periodic,period=1,duty=50,hot=all,profiles=call-graph,block,"
                          "flush=1,out=p.lpprof",
                          "strategy=always,hot=all,period=1,profiles=call-graph,block,out=a.lpprof"};
    for (int i = 0; i < 2; i++) {
        int st = run(argv, envs[i], "TSAN_OPTIONS=halt_on_error=0 exitcode=66", NULL, err);
        char *text = slurp(err);
        CHECK(ok_status(st), "status %d under %s:\n%s", st, envs[i], text);
        CHECK(strstr(text, "ThreadSanitizer") == NULL, "ThreadSanitizer reports:\n%s", text);
    }
    loaded l;
    load("a.lpprof", &l);
    uint64_t want = 16 * 20000;
    CHECK(method(&l, "leaf") == want && method(&l, "hot") == want,
          "leaf %llu, hot %llu: expected %llu each", (unsigned long long)method(&l, "leaf"),
          (unsigned long long)method(&l, "hot"), (unsigned long long)want);
    CHECK(method(&l, "switched") <= want, "switched counted more than it ran");
    CHECK(sum_by(&l, LP_PROF_BLOCK, 0, "leaf", NULL) == want, "leaf's blocks %llu",
          (unsigned long long)sum_by(&l, LP_PROF_BLOCK, 0, "leaf", NULL));
    unload(&l);
    load("p.lpprof", &l);
    /* The daemon competes with 17 busy threads (and, in a parallel test
     * run, other tests) for two cores, so when its windows fall is up to
     * the scheduler: check that it switched, and that the scaled estimate
     * stays within a sane bound. A run in which the daemon was starved of
     * every step is run again (at most twice more), each run still checked
     * for a clean exit and no ThreadSanitizer report. */
    for (int again = 0; again < 2 && strtoull(meta(&l, "windows"), NULL, 10) < 2; again++) {
        unload(&l);
        int st = run(argv, envs[0], "TSAN_OPTIONS=halt_on_error=0 exitcode=66", NULL, err);
        char *text = slurp(err);
        CHECK(ok_status(st), "status %d under %s:\n%s", st, envs[0], text);
        CHECK(strstr(text, "ThreadSanitizer") == NULL, "ThreadSanitizer reports:\n%s", text);
        load("p.lpprof", &l);
    }
    CHECK(strtoull(meta(&l, "windows"), NULL, 10) >= 2, "periodic: %s windows",
          meta(&l, "windows"));
    CHECK(method(&l, "leaf") <= want * 1000, "periodic: leaf estimate %llu",
          (unsigned long long)method(&l, "leaf"));
    unload(&l);
}

/* Block-profiled copies: a static helper's calls from a copy count as
 * function events at the copy's own entry; its blocks and those of a
 * static function only a pointer reaches are counted; a static function
 * the optimiser may change the arguments of still computes right. Off,
 * nothing is counted and the output is the same. */
/* A shared library built by lowprof cc for the call graph (copies, twins,
 * their table), linked into a program built the same way: the library
 * links (its twins' table has no offset from the thread pointer, which ld
 * cannot write into a library), gets no runtime of its own, and the
 * program's twins still count exactly beside the library's. */
static void test_shared_cg(void)
{
    char *lib_src = path_in(g_src, "bt_cc_lib.c"), *main_src = path_in(g_src, "bt_cc_libmain.c");
    char *lib_so = path_in(g_work, "libcg.so"), *exe = path_in(g_work, "cgmain");
    char *plain = path_in(g_work, "cgmain-plain"), *log = path_in(g_work, "build-lib.log");
    char rpath[4200];
    snprintf(rpath, sizeof rpath, "-Wl,-rpath,%s", g_work);
    char *lp1[] = {(char *)g_lowprof, "cc", "--profiles=call-graph", "--", "-O2", "-fPIC",
                   "-shared", lib_src, "-o", lib_so, NULL};
    char *lp2[] = {(char *)g_lowprof, "cc", "--profiles=call-graph", "--", "-O2", main_src,
                   lib_so, rpath, "-o", exe, NULL};
    char *lp3[] = {"clang", "-O2", main_src, lib_src, "-o", plain, NULL};
    char **steps[] = {lp1, lp2, lp3};
    /* The program's build has CC naming lowprof cc itself in its
     * environment, as configure passes CC="lowprof cc --" on: lowprof cc
     * must not take itself for the compiler. */
    char *cc_env;
    if (asprintf(&cc_env, "CC=%s cc --profiles=call-graph --", g_lowprof) < 0)
        die("out of memory");
    for (int i = 0; i < 3; i++)
        if (!ok_status(run(steps[i], NULL, i == 1 ? cc_env : NULL, log, log)))
            die("building the shared-library case failed at step %d:\n%s", i + 1, slurp(log));
    char *nm_cmd;
    if (asprintf(&nm_cmd, "nm -D '%s' | grep -q ' T lp_rt_enabled'", lib_so) < 0)
        die("out of memory");
    CHECK(system(nm_cmd) != 0, "the shared library defines the runtime's lp_rt_enabled");
    char *pm[] = {plain, NULL};
    CHECK(ok_status(run(pm, NULL, NULL, path_in(g_work, "out.txt"), log)), "cgmain-plain failed");
    char *want = slurp(path_in(g_work, "out.txt"));
    char *em[] = {exe, NULL};
    int st = run(em, "strategy=always,hot=all,out=lib.lpprof", NULL, path_in(g_work, "out.txt"), log);
    char *got = slurp(path_in(g_work, "out.txt"));
    CHECK(ok_status(st) && strcmp(got, want) == 0,
          "the program with the library: status %d, printed '%s', the plain build '%s'", st, got,
          want);
    loaded l;
    load("lib.lpprof", &l);
    CHECK(method(&l, "main") == 1, "the program's main counted %llu times",
          (unsigned long long)method(&l, "main"));
    unload(&l);
}

/* rt_calls.c, always on: every kind of call counted exactly, in the
 * copies (clone), in copies that count only their entries and calls
 * (calls-cg) and through the trampoline (inline). A calls-only build
 * refuses a block profile, saying why. */
static void test_calls(void)
{
    g_prog_src = "rt_calls.c";
    build("prog", NULL, NULL);
    /* Switched off, the originals run, as compiled: the same output. */
    int st = run_prog("calls", "strategy=never,out=p.lpprof", NULL);
    char *off_out = slurp(path_in(g_work, "out.txt"));
    CHECK(ok_status(st) && strncmp(off_out, "cmp ", 4) == 0, "%s: off: status %d, output '%s'",
          g_blocks, st, off_out);
    st = run_prog("calls", "strategy=always,hot=all,out=p.lpprof", NULL);
    CHECK(ok_status(st), "status %d", st);
    unsigned long cmp = 0;
    char *out = slurp(path_in(g_work, "out.txt"));
    CHECK(sscanf(out, "cmp %lu", &cmp) == 1 && cmp > 0, "no comparator count in '%s'", out);
    loaded l;
    load("p.lpprof", &l);
    static const struct {
        const char *f;
        uint64_t n;
    } methods[] = {{"cl_leaf", 502},  {"cl_double", 100},  {"cl_direct", 1}, {"cl_indirect", 1},
                   {"cl_even", 26},   {"cl_odd", 25},      {"cl_static", 40}, {"cl_statics", 1},
                   {"cl_deep", 55},   {"cl_jumper", 1},    {"main", 1},       {"cl_pick", 10},
                   {"cl_dispatch", 1}, {"cl_byte", 1}};
    for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
        CHECK(method(&l, methods[i].f) == methods[i].n, "%s: %s %llu calls, expected %llu",
              g_blocks, methods[i].f, (unsigned long long)method(&l, methods[i].f),
              (unsigned long long)methods[i].n);
    CHECK(method(&l, "cl_cmp") == cmp, "%s: cl_cmp %llu calls, the program counted %lu", g_blocks,
          (unsigned long long)method(&l, "cl_cmp"), cmp);
    static const struct {
        const char *caller, *callee;
        uint64_t n;
    } arcs[] = {{"cl_direct", "cl_leaf", 300}, {"cl_indirect", "cl_leaf", 200},
                {"cl_indirect", "cl_double", 100}, {"main", "cl_even", 1},
                {"cl_even", "cl_odd", 25},         {"cl_odd", "cl_even", 25},
                {"cl_statics", "cl_static", 40},   {"cl_jumper", "cl_deep", 5},
                {"cl_deep", "cl_deep", 50},        {"main", "cl_direct", 1},
                {"main", "cl_pick", 10},           {"main", "cl_dispatch", 1},
                {"cl_dispatch", "cl_leaf", 2},     {"main", "cl_byte", 1}};
    for (size_t i = 0; i < sizeof arcs / sizeof *arcs; i++) {
        uint64_t g = sum_by(&l, LP_PROF_CALL_GRAPH, 0, arcs[i].caller, arcs[i].callee);
        uint64_t p = sum_by(&l, LP_PROF_CALL_PAIR, 0, arcs[i].caller, arcs[i].callee);
        CHECK(g == arcs[i].n && p == arcs[i].n,
              "%s: %s -> %s: %llu in the call graph, %llu in the call pairs, expected %llu",
              g_blocks, arcs[i].caller, arcs[i].callee, (unsigned long long)g,
              (unsigned long long)p, (unsigned long long)arcs[i].n);
    }
    /* A call site in a copy (f.lpdup) belongs to f: its function_entry is
     * f's start, the key of f's method entry, so reports show one f. */
    const lp_profile *pairs = whole(&l, LP_PROF_CALL_PAIR);
    size_t cur = 0, in_copies = 0;
    const lp_entry *pe;
    while (pairs && (pe = lp_table_next(&pairs->table, &cur)) != NULL) {
        lp_symbol site, entry;
        lp_symbolize(l.sym, pe->key.a, &site);
        if (!site.function || strncmp(site.function, "cl_", 3) != 0)
            continue;
        lp_symbolize(l.sym, site.function_entry, &entry);
        in_copies += site.function_entry != site.function_start;
        CHECK(entry.function && strcmp(entry.function, site.function) == 0 &&
                  entry.function_start == site.function_entry &&
                  method(&l, site.function) > 0,
              "%s: the site %#llx in %s has its function at %#llx (%s)", g_blocks,
              (unsigned long long)pe->key.a, site.function,
              (unsigned long long)site.function_entry, entry.function ? entry.function : "none");
    }
    CHECK(strcmp(g_blocks, "inline") == 0 || in_copies > 0,
          "%s: no call site lies in a copy", g_blocks);
    /* Every call into a method has its caller, the comparator's included
     * (qsort, outside the program). */
    CHECK(sum_by(&l, LP_PROF_CALL_PAIR, 1, "cl_cmp", NULL) == cmp, "%s: pairs into cl_cmp %llu",
          g_blocks, (unsigned long long)sum_by(&l, LP_PROF_CALL_PAIR, 1, "cl_cmp", NULL));
    CHECK(sum_by(&l, LP_PROF_CALL_PAIR, 1, NULL, NULL) == sum_by(&l, LP_PROF_METHOD, 0, NULL, NULL),
          "%s: %llu call pairs for %llu calls", g_blocks,
          (unsigned long long)sum_by(&l, LP_PROF_CALL_PAIR, 1, NULL, NULL),
          (unsigned long long)sum_by(&l, LP_PROF_METHOD, 0, NULL, NULL));
    unload(&l);
    if (strcmp(g_profiles, "call-graph") != 0)
        return;
    st = run_prog("calls", "strategy=always,hot=all,profiles=call-graph,block,out=q.lpprof", NULL);
    CHECK(ok_status(st), "calls-only build asked for blocks: status %d", st);
    char *err = slurp(path_in(g_work, "err.txt"));
    CHECK(strstr(err, "no block profile: this program was built for the call graph only") != NULL,
          "calls-only build asked for blocks: no word of it in '%s'", err);
    load("q.lpprof", &l);
    CHECK(lp_profile_set_find(&l.set, LP_PROF_BLOCK, LP_PHASE_NONE) == NULL,
          "calls-only build wrote a block profile");
    CHECK(method(&l, "cl_leaf") == 502, "calls-only build asked for blocks: cl_leaf %llu",
          (unsigned long long)method(&l, "cl_leaf"));
    unload(&l);
    test_shared_cg();
}

/* The copies' loops in two versions (rt_loops.c): the build says how many
 * loops it gave two versions; the program computes what the plain build
 * does in every mode; always on, every method and call-graph arc counts
 * what the build with one version counts; and main's loop, entered in its
 * copy, runs its version without counters once a window has closed (the
 * probe sees a second call site), which neither always-on windows nor a
 * build with one version do. */
static void test_loops(void)
{
    char *probe = path_in(g_work, "probe.o"), *psrc = path_in(g_src, "rt_loops_probe.c");
    char *src = path_in(g_src, "rt_loops.c"), *plain = path_in(g_work, "plain");
    char *pcc[] = {"clang", "-O2", "-c", psrc, "-o", probe, NULL};
    char *cc[] = {"clang", "-O2", src, probe, "-o", plain, NULL};
    if (!ok_status(run(pcc, NULL, NULL, NULL, NULL)) || !ok_status(run(cc, NULL, NULL, NULL, NULL)))
        die("the plain build of rt_loops.c failed");
    g_prog_src = "rt_loops.c";
    const char *extra[] = {probe, NULL};
    build("one", NULL, extra);
    g_loops = "two";
    build("prog", NULL, extra);
    const char *line = strstr(slurp(path_in(g_work, "build.log")), "with loops in two versions (");
    unsigned long loops = 0, left = 0;
    CHECK(line && sscanf(strchr(line, '(') + 1, "%lu loops; %lu left", &loops, &left) == 2,
          "lowprof cc --print says nothing of the loops");
    /* mean, skip_blanks, find, nested (its outer loop), classify,
     * last_over, long_iterations (its outer loop), shapes' three and
     * main's */
    CHECK(loops == 11 && left == 0, "%lu loops in two versions, %lu left, not 11 and 0", loops,
          left);
    char *pargv[] = {plain, "shapes", NULL};
    CHECK(ok_status(run(pargv, NULL, NULL, path_in(g_work, "plain.out"), "/dev/null")),
          "the plain build failed");
    char *want = slurp(path_in(g_work, "plain.out"));
    const char *envs[] = {"strategy=never,out=/dev/null",
                          "strategy=always,hot=all,profiles=call-graph,block,out=a.lpprof",
                          ("strategy=periodic,period=1,duty=50,hot=all,profiles=call-graph,block,"
                           "out=/dev/null")};
    for (int i = 0; i < 3; i++) {
        int st = run_prog("shapes", envs[i], NULL);
        CHECK(ok_status(st) && strcmp(slurp(path_in(g_work, "out.txt")), want) == 0,
              "LOWPROF=%s: status %d, stdout %s, not the plain build's %s", envs[i], st,
              slurp(path_in(g_work, "out.txt")), want);
    }
    char *oargv[] = {path_in(g_work, "one"), "shapes", NULL};
    CHECK(ok_status(run(oargv, envs[1], NULL, "/dev/null", "/dev/null")), "--loops=one: failed");
    rename(path_in(g_work, "a.lpprof"), path_in(g_work, "one.lpprof"));
    CHECK(ok_status(run_prog("shapes", envs[1], NULL)), "always on: failed");
    loaded two, one;
    load("a.lpprof", &two);
    load("one.lpprof", &one);
    static const char *const fns[] = {"mean",     "skip_blanks", "find",  "nested",
                                      "classify", "last_over",   "shapes"};
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
        uint64_t m = method(&two, fns[i]);
        CHECK(m == (strcmp(fns[i], "shapes") ? 200u : 1u) && m == method(&one, fns[i]),
              "%s: %llu invocations, %llu with one version", fns[i], (unsigned long long)m,
              (unsigned long long)method(&one, fns[i]));
        uint64_t arc = sum_by(&two, LP_PROF_CALL_GRAPH, 0, "shapes", fns[i]);
        CHECK(arc == sum_by(&one, LP_PROF_CALL_GRAPH, 0, "shapes", fns[i]),
              "shapes -> %s: %llu, %llu with one version", fns[i], (unsigned long long)arc,
              (unsigned long long)sum_by(&one, LP_PROF_CALL_GRAPH, 0, "shapes", fns[i]));
    }
    CHECK(sum_by(&two, LP_PROF_BLOCK, 0, "nested", NULL) > 0 &&
              sum_by(&two, LP_PROF_BLOCK, 0, "classify", NULL) > 0,
          "no blocks counted in nested or classify");
    unload(&two);
    unload(&one);
    /* An iteration that began without counters and runs on in a window:
     * its calls are counted as pairs as the callee's entries are (the
     * second version's blocks with calls keep their increments), so the
     * two agree but for calls at a window's edges. */
    int st = run_prog("long", "strategy=periodic,period=1,duty=50,hot=all,out=w.lpprof", NULL);
    CHECK(ok_status(st), "long iterations: status %d", st);
    loaded w;
    load("w.lpprof", &w);
    uint64_t entries = method(&w, "helper_call"),
             pairs = sum_by(&w, LP_PROF_CALL_GRAPH, 0, "long_iterations", "helper_call");
    CHECK(entries > 100000 && pairs + pairs / 50 >= entries && pairs <= entries + entries / 50,
          "long iterations in windows: helper_call counted %llu times, from long_iterations %llu",
          (unsigned long long)entries, (unsigned long long)pairs);
    unload(&w);
    /* Which versions main's loop ran: 30 M calls of the probe take some
     * 0.1 s, a hundred 1 ms periods. */
    struct {
        const char *exe, *env, *want;
    } spins[] = {
        {"prog", "strategy=periodic,period=1,duty=50,hot=all,profiles=block,out=/dev/null",
         "sites 2\n"},
        {"prog", "strategy=always,hot=all,profiles=block,out=/dev/null", "sites 1\n"},
        {"one", "strategy=periodic,period=1,duty=50,hot=all,profiles=block,out=/dev/null",
         "sites 1\n"},
    };
    for (size_t i = 0; i < sizeof spins / sizeof *spins; i++) {
        char *argv[] = {path_in(g_work, spins[i].exe), "spin", "30000000", NULL};
        st = run(argv, spins[i].env, NULL, path_in(g_work, "out.txt"), "/dev/null");
        char *got = slurp(path_in(g_work, "out.txt"));
        CHECK(ok_status(st) && strcmp(got, spins[i].want) == 0, "%s spin, LOWPROF=%s: %s, not %s",
              spins[i].exe, spins[i].env, got, spins[i].want);
    }
}

static void test_copies(void)
{
    build("prog", NULL, NULL);
    int st = run_prog("copies", exact_env, NULL);
    CHECK(ok_status(st), "copies, on: status %d", st);
    char *on_out = slurp(path_in(g_work, "out.txt"));
    loaded l;
    load("p.lpprof", &l);
    CHECK(method(&l, "uses_helpers") == 1, "uses_helpers invocations %llu",
          (unsigned long long)method(&l, "uses_helpers"));
    CHECK(sum_by(&l, LP_PROF_CALL_GRAPH, 0, "uses_helpers", "helper_ptr") == 200,
          "uses_helpers -> helper_ptr %llu",
          (unsigned long long)sum_by(&l, LP_PROF_CALL_GRAPH, 0, "uses_helpers", "helper_ptr"));
    /* helper_sq and helper_drop may be inlined (then their blocks are
     * uses_helpers'); when they are not, each call is counted. */
    uint64_t sq = method(&l, "helper_sq");
    CHECK(sq == 0 || sq == 300, "helper_sq invocations %llu", (unsigned long long)sq);
    CHECK(sq == 0 || sum_by(&l, LP_PROF_BLOCK, 0, "helper_sq", NULL) >= 300,
          "helper_sq's blocks %llu",
          (unsigned long long)sum_by(&l, LP_PROF_BLOCK, 0, "helper_sq", NULL));
    CHECK(sum_by(&l, LP_PROF_BLOCK, 0, "helper_ptr", NULL) == 200, "helper_ptr's blocks %llu",
          (unsigned long long)sum_by(&l, LP_PROF_BLOCK, 0, "helper_ptr", NULL));
    CHECK(sum_by(&l, LP_PROF_BLOCK, 0, "uses_helpers", NULL) > 0, "uses_helpers has no blocks");
    /* Every counter of the copies has its thread-local twin. */
    CHECK(strcmp(meta(&l, "block-guards-twinned"), meta(&l, "block-guards")) == 0 &&
              strtoull(meta(&l, "block-guards"), NULL, 10) > 0,
          "%s of %s counters twinned", meta(&l, "block-guards-twinned"), meta(&l, "block-guards"));
    CHECK(method(&l, "rec_even") + method(&l, "rec_odd") == 41, "rec_even + rec_odd invocations %llu",
          (unsigned long long)(method(&l, "rec_even") + method(&l, "rec_odd")));
    unload(&l);
    /* Every copy takes its function's calls (.lpdup), the mutually
     * recursive statics' and, when it is not inlined, a helper's that only
     * direct calls reach: the copies are made after the optimiser, so
     * nothing changes an original's arguments and not its copy's. */
    char *nm[] = {"nm", path_in(g_work, "prog"), NULL};
    st = run(nm, NULL, NULL, path_in(g_work, "nm.txt"), "/dev/null");
    char *syms = slurp(path_in(g_work, "nm.txt"));
    CHECK(ok_status(st) && strstr(syms, " rec_even.lpdup\n") && strstr(syms, " rec_odd.lpdup\n"),
          "no rec_even.lpdup and rec_odd.lpdup in the symbols");
    CHECK(sq == 0 || strstr(syms, " helper_sq.lpdup\n"), "no helper_sq.lpdup in the symbols");
    CHECK(!strstr(syms, ".lpdupc\n"), "a copy named .lpdupc in the symbols");
    /* Calls from outside the copies go through a checking entry; the
     * copy itself has no check, so the copies' own calls skip it. A
     * variadic function keeps the check in its copy; one whose argument
     * is passed in memory gets an entry that calls its copy. */
    CHECK(strstr(syms, " rec_even.lpdupe\n") && !strstr(syms, " sum_va.lpdupe\n") &&
              strstr(syms, " quad_sum.lpdupe\n"),
          "checking entries: rec_even.lpdupe or quad_sum.lpdupe missing, or sum_va.lpdupe made");
    free(syms);
    static const char *const stub_in[][2] = {{"rec_even.lpdupe", "1"},
                                             {"rec_even.lpdup", "0"},
                                             {"sum_va.lpdup", "1"},
                                             {"quad_sum.lpdupe", "1"},
                                             {"quad_sum.lpdup", "0"}};
    for (size_t i = 0; i < sizeof stub_in / sizeof *stub_in; i++) {
        char arg[96];
        snprintf(arg, sizeof arg, "--disassemble=%s", stub_in[i][0]);
        char *od[] = {"objdump", "-d", arg, path_in(g_work, "prog"), NULL};
        st = run(od, NULL, NULL, path_in(g_work, "od.txt"), "/dev/null");
        char *dis = slurp(path_in(g_work, "od.txt"));
        int has = strstr(dis, "lp__rt_cp_enter_stub") != NULL;
        CHECK(ok_status(st) && strstr(dis, stub_in[i][0]) && has == (stub_in[i][1][0] == '1'),
              "%s: the entry check's slow path %s", stub_in[i][0], has ? "present" : "missing");
        free(dis);
    }
    load("p.lpprof", &l);
    CHECK(method(&l, "sum_va") == 1 &&
              sum_by(&l, LP_PROF_CALL_GRAPH, 0, "uses_helpers", "sum_va") == 1,
          "sum_va invocations %llu", (unsigned long long)method(&l, "sum_va"));
    unload(&l);
    /* Blocks without function events: the entries jump straight to the
     * copies, and count the same. */
    st = run_prog("copies", "strategy=always,hot=all,profiles=block,out=d.lpprof", NULL);
    CHECK(ok_status(st), "copies, blocks only: status %d", st);
    load("d.lpprof", &l);
    CHECK(strtoull(meta(&l, "entry-sites-direct"), NULL, 10) > 0,
          "blocks only: no entry site jumps straight to its copy");
    CHECK(sum_by(&l, LP_PROF_BLOCK, 0, "helper_ptr", NULL) == 200,
          "blocks only: helper_ptr's blocks %llu",
          (unsigned long long)sum_by(&l, LP_PROF_BLOCK, 0, "helper_ptr", NULL));
    CHECK(method(&l, "uses_helpers") == 1 && method(&l, "rec_even") + method(&l, "rec_odd") == 41,
          "blocks only: entry blocks of uses_helpers %llu, rec_even + rec_odd %llu",
          (unsigned long long)method(&l, "uses_helpers"),
          (unsigned long long)(method(&l, "rec_even") + method(&l, "rec_odd")));
    unload(&l);
    /* `lowprof report` ranks the runtime's blocks, which have no instruction
     * counts, by executions. */
    char *report[] = {(char *)g_lowprof, "report", path_in(g_work, "d.lpprof"), NULL};
    st = run(report, NULL, NULL, path_in(g_work, "report.txt"), path_in(g_work, "report.err"));
    char *rep = slurp(path_in(g_work, "report.txt"));
    const char *blocks = strstr(rep, "Hot basic blocks");
    const char *head = blocks ? strchr(blocks, '\n') : NULL;
    CHECK(ok_status(st) && head && strncmp(head + 1 + strspn(head + 1, " "), "executions", 10) == 0,
          "report: the block table is not ranked by executions:\n%s", rep);
    free(rep);
    st = run_prog("copies", "strategy=never,profiles=call-graph,block,out=q.lpprof", NULL);
    CHECK(ok_status(st), "copies, off: status %d", st);
    char *off_out = slurp(path_in(g_work, "out.txt"));
    CHECK(strcmp(on_out, off_out) == 0, "output on and off differ:\n%s\n%s", on_out, off_out);
    load("q.lpprof", &l);
    CHECK(sum_by(&l, LP_PROF_BLOCK, 0, NULL, NULL) == 0, "blocks counted with profiling off");
    unload(&l);
}

/* The heaviest line of a folded-stacks file into out (its stack, without
 * the weight), and the weight of the heaviest line whose stack ends with
 * tail (0 if none). */
static uint64_t folded_heaviest(const char *path, char *out, size_t cap, const char *tail,
                                uint64_t *out_tail)
{
    char *text = slurp(path);
    uint64_t best = 0;
    *out_tail = 0;
    out[0] = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *sp = strrchr(line, ' ');
        if (!sp)
            continue;
        *sp = 0;
        uint64_t w = strtoull(sp + 1, NULL, 10);
        size_t len = strlen(line), tl = strlen(tail);
        if (len >= tl && strcmp(line + len - tl, tail) == 0 &&
            (len == tl || line[len - tl - 1] == ';') && w > *out_tail)
            *out_tail = w;
        if (w > best) {
            best = w;
            snprintf(out, cap, "%s", line);
        }
    }
    free(text);
    return best;
}

/* Frame-pointer stacks of the PC samples (profiles=...,context): built
 * with frame pointers by `lowprof cc --profiles=call-graph,context`, the
 * folded export's heaviest stack is main;a;b and main;c is there, lighter.
 * Built without frame pointers and run with garbage in rbp (stacks_prog.c
 * wild), the program runs as ever and its profile is written. */
static void test_stacks(void)
{
    g_prog_src = "stacks_prog.c";
    const char *env = "strategy=always,profiles=call-graph,context,out=s.lpprof";
    build_with("prog", "clang", "call-graph,context", NULL, NULL);
    int st = run_prog("plain", env, NULL);
    CHECK(ok_status(st), "frame pointers: status %d:\n%s", st, slurp(path_in(g_work, "err.txt")));
    loaded l;
    load("s.lpprof", &l);
    /* The CPU-time timer ticks at the kernel's HZ (250 here): the 0.3 s
     * the program runs give about 75 samples. */
    uint64_t samples = strtoull(meta(&l, "context-samples"), NULL, 10);
    CHECK(samples >= 30, "%llu context samples", (unsigned long long)samples);
    CHECK(whole(&l, LP_PROF_CONTEXT) != NULL, "no context profile");
    unload(&l);
    char *folded = path_in(g_work, "s.folded");
    char *exp[] = {(char *)g_lowprof, "export", "--format", "folded", "-o", folded,
                   path_in(g_work, "s.lpprof"), NULL};
    st = run(exp, NULL, NULL, NULL, path_in(g_work, "export.err"));
    CHECK(ok_status(st), "export --format folded: status %d", st);
    char top[4096];
    uint64_t c_weight;
    uint64_t best = folded_heaviest(folded, top, sizeof top, "main;c", &c_weight);
    size_t len = strlen(top);
    CHECK(len >= 8 && strcmp(top + len - 8, "main;a;b") == 0 &&
              (len == 8 || top[len - 9] == ';'),
          "heaviest stack '%s' (%llu), not ...;main;a;b:\n%s", top, (unsigned long long)best,
          slurp(folded));
    CHECK(c_weight > 0 && c_weight < best, "main;c weighs %llu, main;a;b %llu",
          (unsigned long long)c_weight, (unsigned long long)best);
    /* The report says what weighs these contexts. */
    char *rep[] = {(char *)g_lowprof, "report", "--type", "context", path_in(g_work, "s.lpprof"),
                   NULL};
    st = run(rep, NULL, NULL, path_in(g_work, "report.txt"), path_in(g_work, "report.err"));
    char *text = slurp(path_in(g_work, "report.txt"));
    CHECK(ok_status(st) && strstr(text, "self samples") && strstr(text, "main;a;b"),
          "report --type context:\n%s", text);
    free(text);
    char *info[] = {(char *)g_lowprof, "info", path_in(g_work, "s.lpprof"), NULL};
    st = run(info, NULL, NULL, path_in(g_work, "info.txt"), path_in(g_work, "info.err"));
    text = slurp(path_in(g_work, "info.txt"));
    CHECK(ok_status(st) && strstr(text, "0 calls") && strstr(text, "self samples"),
          "info: the context profile's counters:\n%s", text);
    free(text);

    /* No frame pointers, and rbp holding what a walk must refuse. */
    const char *nofp[] = {"-fomit-frame-pointer", "-momit-leaf-frame-pointer", NULL};
    build_with("prog", "clang", "call-graph", NULL, nofp);
    const char *wild_env = "strategy=always,profiles=call-graph,context,rate=10000,out=w.lpprof";
    for (int i = 0; i < 2; i++) {
        st = run_prog("wild", wild_env, NULL);
        CHECK(ok_status(st), "no frame pointers, wild: status %d:\n%s", st,
              slurp(path_in(g_work, "err.txt")));
        CHECK(strcmp(slurp(path_in(g_work, "out.txt")), "done\n") == 0, "wild: output '%s'",
              slurp(path_in(g_work, "out.txt")));
    }
    load("w.lpprof", &l);
    CHECK(strcmp(meta(&l, "complete"), "yes") == 0, "wild: complete=%s", meta(&l, "complete"));
    CHECK(strtoull(meta(&l, "context-samples"), NULL, 10) > 0, "wild: no context samples");
    unload(&l);
}

/* Whether clang is there and takes both instrumentation flags. */
static void need_clang(void)
{
    char *argv[] = {"clang", "-fpatchable-function-entry=5,0",
                    "-fsanitize-coverage=trace-pc-guard,pc-table", "-x", "c", "-c", "-o",
                    "/dev/null", "/dev/null", NULL};
    int st = run(argv, NULL, NULL, "/dev/null", "/dev/null");
    if (!ok_status(st))
        skip("clang with -fpatchable-function-entry and -fsanitize-coverage=trace-pc-guard,"
             "pc-table is needed");
}

/* ---- windows scale correctly ------------------------------------------------------------- */

/* The whole-run estimate of f's invocations: the counts times the
 * profile's scale. */
static double estimated(loaded *l, const char *f)
{
    const lp_profile *p = whole(l, LP_PROF_METHOD);
    if (!p || !p->scale_den)
        return 0;
    return (double)method(l, f) * (double)p->scale_num / (double)p->scale_den;
}

/* How far the windowed estimates may be from the truth. The sanitized
 * build's runtime is itself several times slower, and its daemon more
 * often late to a window's edge: there 20 % (its runs came within 11 %). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SCALE_BOUND 0.20
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SCALE_BOUND 0.20
#endif
#endif
#ifndef SCALE_BOUND
#define SCALE_BOUND 0.10
#endif

/* The phase strategy's estimates in the startup mode: hot()'s from one
 * profiled interval, weighed by CPU time against the others of its phase
 * (their scouts are brought up by CPU time, no method here can be a
 * clock, and the profile stands for them); other()'s from the first
 * interval's four scout windows, one at a
 * random point of each quarter: a 150 ms phase holds three of them or
 * two. other() is held to a factor of two. */
#define PHASE_SCOUT_BOUND 0.30

/* The bound scale_run checks a windowed run's median against. */
static double g_scale_bound = SCALE_BOUND;

/* The prefixed entries of the last scale_run's program, and the copies'
 * calls of them that switch with them. */
static unsigned long long g_scale_prefixed, g_scale_switched;

static int scale_cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Runs rt_scale with threads x rounds under LOWPROF=strategy (and the
 * profile options) and checks hot()'s estimate: exact for always, within
 * SCALE_BOUND otherwise, where tick() must be the clock method. Under
 * windows the median of three runs is checked: 16 busy threads on two
 * processors keep the daemon from its processor for milliseconds at a
 * time, its windows then run long and few, and about one run in fifteen
 * lands outside 10 % (measured 2026-11-26 with this runtime and the one
 * before it alike, from -38 % to +20 %). A single thread's 0.6 s run has
 * about 30 windows, and the suite's other tests on both processors put
 * one of them at +13.9 %. */
static void scale_run_late(const char *prog, int threads, unsigned long rounds,
                           const char *strategy, const char *late, const char *pieces)
{
    char env[256], th[16], rd[32];
    snprintf(env, sizeof env, "%s%s,out=s.lpprof", strategy,
             strstr(strategy, "profiles=") ? "" : ",profiles=call-graph");
    snprintf(th, sizeof th, "%d", threads);
    snprintf(rd, sizeof rd, "%lu", rounds);
    char *argv[] = {path_in(g_work, prog), th, rd, (char *)late, (char *)pieces, NULL};
    int always = strncmp(strategy, "strategy=always", 15) == 0;
    int n = always ? 1 : 3, done = 0;
    double herr[3], terr[3];
    double truth = (double)threads * (double)rounds * 256, ticks = (double)threads * (double)rounds;
    for (int r = 0; r < n; r++) {
        int st = run(argv, env, NULL, path_in(g_work, "out.txt"), path_in(g_work, "err.txt"));
        CHECK(ok_status(st), "%s, %d threads: status %d", strategy, threads, st);
        if (!ok_status(st))
            return;
        loaded l;
        load("s.lpprof", &l);
        double est = estimated(&l, "hot");
        herr[done] = est / truth - 1;
        terr[done] = estimated(&l, "tick") / ticks - 1;
        printf("check_rt: %s: %2d threads, %-24s hot() estimated %.0f of %.0f (%+.2f %%), "
               "tick() %+.2f %%\n",
               prog, threads, strategy, est, truth, 100 * herr[done], 100 * terr[done]);
        /* A run far off says what its windows and clock did: a 16-thread
         * periodic run read -94.8 % in one CI run, -47.5 % in one of four
         * runs of this test beside a busy loop, while 86 runs of those
         * cases on their own stayed within -12 to +27 %. */
        if (herr[done] > 0.25 || herr[done] < -0.25) {
            static const char *const keys[] = {
                "windows",       "clocks-chosen",        "clock-calls-in-windows",
                "outside-calls", "windows-timed-cpu-ns", "windows-timed-program-ns",
                "cpu-ns",        "daemon-wakeups",       "threads-started-in-copies"};
            printf("check_rt: %s: far off:", prog);
            for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
                printf(" %s=%s", keys[k], meta(&l, keys[k]));
            printf("\n");
        }
        done++;
        g_scale_prefixed = strtoull(meta(&l, "entry-sites-prefixed"), NULL, 10);
        g_scale_switched = strtoull(meta(&l, "entry-calls-switched"), NULL, 10);
        /* The threads start in work()'s copy under windows (rt_start.c),
         * in its original under always, where its entry is on anyway. */
        unsigned long long started = strtoull(meta(&l, "threads-started-in-copies"), NULL, 10);
        unsigned long long want = threads > 1 && !always ? (unsigned long long)threads : 0;
        CHECK(started == want, "%s, %d threads: %llu threads started in copies, not %llu", strategy,
              threads, started, want);
        /* Started late, the threads meet no window in their originals: the
         * calls that reach a copy from outside are their starts, at most,
         * and main's own from libc when the run opens in a window's tail
         * (rt_daemon.c, lp__rt_begin: one run in ten at duty 10; seeds 23,
         * 32, 36 and 38 of 40 show `__libc_start_call_main -> main`).
         * Threads started in work()'s original made 11-20 M of hot()'s
         * 410 M calls from outside. Windows count one such call in
         * outside-calls-every, as that many. */
        unsigned long long outside = strtoull(meta(&l, "outside-calls"), NULL, 10);
        unsigned long long every = strtoull(meta(&l, "outside-calls-every"), NULL, 10);
        unsigned long long want_every = always ? 1 : 16;
        CHECK(every == want_every, "%s: outside-calls-every %llu, not %llu", strategy, every,
              want_every);
        CHECK(!late || pieces || outside <= ((unsigned long long)threads + 1) * every,
              "%s, %d threads started late: %llu calls from outside the copies", strategy, threads,
              outside);
        /* work() entered again and again, first in its original: once its
         * calls from outside have made it sticky (rt_sticky.c), its next
         * pieces run in its copy (without: a tenth of hot()'s calls from
         * outside). */
        unsigned long long sticky = strtoull(meta(&l, "sticky-methods"), NULL, 10);
        CHECK(!pieces || (sticky >= 1 && outside <= (unsigned long long)(truth / 50)),
              "%s, work() in %s pieces: %llu sticky methods, %llu calls from outside", strategy,
              pieces ? pieces : "", sticky, outside);
        if (always) {
            CHECK(est == truth && estimated(&l, "tick") == ticks,
                  "%s, %d threads: hot() %.0f and tick() %.0f, not exact", strategy, threads, est,
                  estimated(&l, "tick"));
        } else {
            /* The clock in use at the end is tick(); or, when the last
             * window saw too few of its calls to keep it (its epoch ended
             * with none chosen after), at least one clock timed the run. */
            const char *clock = meta(&l, "clock-method");
            unsigned long long chosen = strtoull(meta(&l, "clocks-chosen"), NULL, 10);
            CHECK(clock[0] ? strcmp(fn(&l, strtoull(clock, NULL, 16)), "tick") == 0 : chosen >= 1,
                  "%s, %d threads: clock method '%s' is not tick() (%llu chosen)", strategy,
                  threads, clock, chosen);
        }
        unload(&l);
    }
    if (always)
        return;
    qsort(herr, (size_t)done, sizeof *herr, scale_cmp);
    qsort(terr, (size_t)done, sizeof *terr, scale_cmp);
    double hm = herr[done / 2], tm = terr[done / 2];
    CHECK(hm <= g_scale_bound && hm >= -g_scale_bound,
          "%s, %d threads: hot() estimated %+.1f %% off the truth (median of %d)", strategy,
          threads, 100 * hm, done);
    /* The clock's own estimate too: its calls between windows are not in
     * the profile, so its counts stand for the windows only (taken for the
     * whole run's, they came out at 7 % of the truth at duty 10 and 32-41 %
     * at duty 50). */
    CHECK(tm <= g_scale_bound && tm >= -g_scale_bound,
          "%s, %d threads: tick() estimated %+.1f %% off the truth (median of %d)", strategy,
          threads, 100 * tm, done);
}

static void scale_run(const char *prog, int threads, unsigned long rounds, const char *strategy)
{
    scale_run_late(prog, threads, rounds, strategy, NULL, NULL);
}

/* rt_scale.c makes known calls in a uniform loop. Under windows the
 * program runs several times slower, so scaling the counts by CPU time
 * gave a fifth of the truth (doc/runtime.md, "Estimates"); the estimate
 * must now be within SCALE_BOUND, single-threaded and with 16 threads,
 * for periodic windows at duty 10 and 50 and for the phase strategy. */
/* The address nm gives symbol name in its listing syms (0 if absent). */
static unsigned long long nm_addr(const char *syms, const char *name)
{
    for (const char *l = syms; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        unsigned long long a;
        char type, sym[256];
        if (sscanf(l, "%llx %c %255s", &a, &type, sym) == 3 && strcmp(sym, name) == 0)
            return a;
    }
    return 0;
}

/* Reads the prefix targets that rt_prog's clock mode printed from p on
 * (numbers, up to the first non-number): seen[k], whether want[k] was
 * among them; returns how many others there were. */
static int prefix_targets(const char *p, const long want[2], int seen[2])
{
    long t;
    int used, others = 0;
    seen[0] = seen[1] = 0;
    for (; sscanf(p, "%ld%n", &t, &used) == 1; p += used) {
        seen[0] |= t == want[0];
        seen[1] |= t == want[1];
        others += t != want[0] && t != want[1];
    }
    return others;
}

/* A clock's prefix between windows (rt_patch.c): rt_prog's clock mode
 * makes beat() the windows' only clock, and reads where beat()'s prefix
 * jumps while it runs: to its copy while the windows are closed, and to
 * the copy's checking entry, which counts calls from outside the copies,
 * while they are open; nowhere else. beat()'s estimate is printed, not
 * held to a bound: over this run's 13 windows it read -2 to +20 % off,
 * with this runtime and with the one before it alike, when a benchmark
 * ran beside it (the scale test's longer runs hold their estimates). */
static void test_clock(void)
{
    build_with("prog", "clang", "call-graph", NULL, NULL);
    char *nm[] = {"nm", path_in(g_work, "prog"), NULL};
    int st = run(nm, NULL, NULL, path_in(g_work, "nm.txt"), "/dev/null");
    char *syms = slurp(path_in(g_work, "nm.txt"));
    unsigned long long at = nm_addr(syms, "beat"), body = nm_addr(syms, "beat.lpdup"),
                       check = nm_addr(syms, "beat.lpdupe"), hat = nm_addr(syms, "heavy"),
                       hbody = nm_addr(syms, "heavy.lpdup"), hcheck = nm_addr(syms, "heavy.lpdupe");
    CHECK(ok_status(st) && at && body && check && hat && hbody && hcheck,
          "nm: beat %llx, beat.lpdup %llx, beat.lpdupe %llx, heavy %llx, heavy.lpdup %llx, "
          "heavy.lpdupe %llx",
          at, body, check, hat, hbody, hcheck);
    free(syms);
    long want[2] = {(long)(body - at), (long)(check - at)};
    long hwant[2] = {(long)(hbody - hat), (long)(hcheck - hat)};
    st = run_prog("clock", "strategy=periodic,duty=10,hot=all,out=c.lpprof", NULL);
    char *out = slurp(path_in(g_work, "out.txt"));
    unsigned long steps = 0, beats = 0;
    void *addr = NULL;
    int pos = 0;
    CHECK(ok_status(st) &&
              sscanf(out, "clock: steps %lu beats %lu beat %p targets%n", &steps, &beats, &addr,
                     &pos) == 3 &&
              beats > 0,
          "clock: status %d, printed '%s'", st, out);
    int seen[2], others = prefix_targets(out + pos, want, seen);
    CHECK(seen[0] && seen[1] && !others,
          "clock: beat's prefix named its copy %s, its checking entry %s, %d other targets "
          "(printed '%s', copy at %+ld, checking entry at %+ld)",
          seen[0] ? "yes" : "no", seen[1] ? "yes" : "no", others, out, want[0], want[1]);
    /* heavy() is called as often as beat(), but its copy runs 64 counted
     * blocks a call: priced out of the clock (rt_clock.c), its prefix
     * names its checking entry and never its copy. */
    const char *h = strstr(out + pos, " heavy");
    int hseen[2], hothers = prefix_targets(h ? h + 6 : "", hwant, hseen);
    CHECK(h && !hseen[0] && hseen[1] && !hothers,
          "clock: heavy's prefix named its copy %s, its checking entry %s, %d other targets "
          "(printed '%s', copy at %+ld, checking entry at %+ld)",
          hseen[0] ? "yes" : "no", hseen[1] ? "yes" : "no", hothers, out, hwant[0], hwant[1]);
    loaded l;
    load("c.lpprof", &l);
    CHECK(strtoull(meta(&l, "clock-method"), NULL, 16) == (unsigned long long)(uintptr_t)addr,
          "clock: the clock is %s, not beat() at %p", meta(&l, "clock-method"), addr);
    double est = estimated(&l, "beat");
    printf("check_rt: clock: beat() estimated %.0f of %lu (%+.1f %%)\n", est, beats,
           100 * (est / (double)beats - 1));
    unload(&l);
    free(out);
}

/* A method made sticky by a long activation in its original, whose copy
 * the windows then enter thousands of times each, stops being sticky
 * (rt_sticky.c): its entry, on between windows while it is sticky, is on
 * in the windows alone after (a tenth of the time at duty 10). */
static void test_sticky(void)
{
    build_with("prog", "clang", "block", NULL, NULL);
    int st = run_prog("sticky",
                      "strategy=periodic,duty=10,period=10,hot=all,profiles=block,"
                      "out=s.lpprof",
                      NULL);
    char *out = slurp(path_in(g_work, "out.txt"));
    unsigned long on[2], reads[2];
    CHECK(ok_status(st) &&
              sscanf(out, "sticky: long %lu of %lu on, short %lu of %lu on", &on[0], &reads[0],
                     &on[1], &reads[1]) == 4 &&
              reads[0] > 0 && reads[1] > 0,
          "sticky: status %d, printed '%s'", st, out);
    loaded l;
    load("s.lpprof", &l);
    unsigned long long revoked = strtoull(meta(&l, "sticky-revoked"), NULL, 10);
    printf("check_rt: sticky: nest() on in %lu of %lu reads while long, %lu of %lu while short; "
           "%llu revoked\n",
           on[0], reads[0], on[1], reads[1], revoked);
    CHECK(on[0] * 10 >= reads[0] * 9, "sticky: nest() was on in %lu of %lu reads while long", on[0],
          reads[0]);
    CHECK(on[1] * 2 <= reads[1] && revoked >= 1,
          "sticky: nest() was on in %lu of %lu reads while short, %llu sticky methods revoked",
          on[1], reads[1], revoked);
    unload(&l);
    free(out);
}

static void test_scale(void)
{
    g_prog_src = "rt_scale.c";
    build_with("scale", "clang", "call-graph", NULL, NULL);
    static const char *const strategies[] = {
        "strategy=always", "strategy=periodic,duty=10", "strategy=periodic,duty=50",
        "strategy=phase"};
    /* The phase strategy's 16 threads run twice as long. No clock counts
     * the run's first interval (the clock is chosen in the first profiled
     * one), so its calls are its CPU time at the unprofiled intervals'
     * rate; with 16 threads on two processors it ran at 0.3 to 1.9 times
     * that rate (its scout windows, the stretch before them in the copies,
     * the threads' start, the machine), and its calls came out -46 to
     * +245 % off (median +11 %, 44 runs, 2026-11-28). In a run of five intervals that is a
     * fifth of the estimate: 13 of 122 runs landed beyond 10 % (-16.7 to
     * +22.7 %), and CI's median of three once at +12.9 %. In ten
     * intervals, 50 runs came within -1.4 to +8.4 % but for one at +38.7 %. */
    for (size_t i = 0; i < sizeof strategies / sizeof strategies[0]; i++) {
        int phase = strcmp(strategies[i], "strategy=phase") == 0;
        scale_run("scale", 1, 1500000, strategies[i]);
        scale_run("scale", 16, phase ? 200000 : 100000, strategies[i]);
    }
    /* Threads started after 100 ms of CPU time, five periods into the
     * windows: lowprof cc's pthread_create starts them in work()'s copy. */
    scale_run_late("scale", 16, 100000, "strategy=periodic,duty=10", "100", NULL);
    /* A profile of blocks alone is timed by a clock too (rt_clock.c): by
     * CPU time, its counts came out 24-50 % low at duty 10 (this one 43 %). */
    build_with("scale-block", "clang", "block", NULL, NULL);
    scale_run("scale-block", 1, 1500000, "strategy=periodic,duty=10,profiles=block");
    scale_run_late("scale-block", 1, 1500000, "strategy=periodic,duty=10,profiles=block", "100",
                   "20");
    /* hot(), tick() and work() were prefixed, so the clock above counted
     * through tick()'s copy, and work()'s copy called the copies of hot()
     * and tick() directly while they were on; here the two stay on the
     * trampoline. */
    unsigned long long prefixed = g_scale_prefixed;
    CHECK(prefixed >= 3, "scale: %llu prefixed entries (hot, tick and work at least)", prefixed);
    CHECK(g_scale_switched >= 2, "scale: %llu calls switched (work's of hot and tick at least)",
          g_scale_switched);
    static const char *const asm_first[] = {"-DLP_SCALE_ASM_FIRST", NULL};
    build_with("scale-asm", "clang", "call-graph", NULL, asm_first);
    for (int threads = 1; threads <= 16; threads += 15)
        scale_run("scale-asm", threads, threads == 1 ? 1500000 : 100000,
                  "strategy=periodic,duty=10");
    CHECK(g_scale_prefixed == prefixed - 2, "scale-asm: %llu prefixed entries, not %llu",
          g_scale_prefixed, prefixed - 2);
    /* The phase strategy at duty 10 profiles a tenth of each profiled
     * interval, in four windows. A clock on the trampoline (tick() here)
     * counts its calls and call pairs between them too, and those went
     * into the windows' counts, which were then scaled up to the interval
     * again: tick() came out 22 times its calls. One thread: with 16, a
     * tenth of an interval is a few of the scheduler's slices, and one run
     * in six read 36 % high. Held to 30 %: the four windows' scale rests
     * on a tenth of the clock's calls, and 12 runs read tick() -6 to
     * +14 %, so that a median of three once came to +10.5 %. */
    g_scale_bound = 0.30;
    scale_run("scale-asm", 1, 1500000, "strategy=phase,duty=10");
    g_scale_bound = SCALE_BOUND;
    /* A compiler that fails on the prefixed entries as clang 14 crashes on
     * shapes it cannot redirect: lowprof cc says so, compiles the file
     * again without them, and the program counts as before. */
    build_with("scale-fallback", path_in(g_src, "clang_prefix_crash.sh"), "call-graph", NULL,
               NULL);
    char *log = slurp(path_in(g_work, "build.log"));
    CHECK(strstr(log, "compiled again without them") != NULL,
          "scale-fallback: the build did not say it fell back:\n%s", log);
    scale_run("scale-fallback", 1, 100000, "strategy=always");
    CHECK(g_scale_prefixed == 0, "scale-fallback: %llu prefixed entries", g_scale_prefixed);
    /* The refine policy runs and says so. Its estimate is held to a factor
     * of two only: refine lets a sample of one phase stand for the
     * cut-short last interval when that is a phase of its own, which
     * weighs a whole interval (doc/runtime.md). */
    char *argv[] = {path_in(g_work, "scale"), "1", "1500000", NULL};
    int st = run(argv, "strategy=phase,policy=refine,out=r.lpprof", NULL, NULL,
                 path_in(g_work, "err.txt"));
    CHECK(ok_status(st), "policy=refine: status %d", st);
    loaded l;
    load("r.lpprof", &l);
    double est = estimated(&l, "hot"), truth = 1500000.0 * 256;
    CHECK(strcmp(meta(&l, "phase-policy"), "refine") == 0, "policy=refine: phase-policy '%s'",
          meta(&l, "phase-policy"));
    CHECK(est > truth / 2 && est < truth * 2, "policy=refine: hot() estimated %.0f of %.0f", est,
          truth);
    unload(&l);
    argv[2] = "1000";
    st = run(argv, "strategy=phase,policy=often", NULL, NULL, path_in(g_work, "err.txt"));
    CHECK(ok_status(st), "policy=often: status %d", st);
    CHECK(strstr(slurp(path_in(g_work, "err.txt")), "field 'policy'") != NULL,
          "policy=often: no word of the field in '%s'", slurp(path_in(g_work, "err.txt")));
}

/* One run of rt_prog's startup mode under env: other()'s and hot()'s
 * estimates over the truth, less one, into *eo and *eh. For the scouted
 * default (scouted), the scouts' meta and report are checked too. Returns
 * 0, or -1 when the run failed (said). */
static int phase_scout_run(const char *env, int scouted, double *eo, double *eh)
{
    int st = run_prog("startup", env, NULL);
    CHECK(ok_status(st), "%s: status %d", env, st);
    unsigned long n_other = 0, n_hot = 0;
    if (!ok_status(st) ||
        sscanf(slurp(path_in(g_work, "out.txt")), "startup: other %lu hot %lu", &n_other, &n_hot) !=
            2 ||
        !n_other || !n_hot) {
        CHECK(0, "%s: output '%s'", env, slurp(path_in(g_work, "out.txt")));
        return -1;
    }
    loaded l;
    load("ps.lpprof", &l);
    *eo = estimated(&l, "other") / (double)n_other - 1;
    *eh = estimated(&l, "hot") / (double)n_hot - 1;
    printf("check_rt: phase-scout: %s: other() %+.1f %%, hot() %+.1f %%, trace %s, "
           "scouted for %s intervals\n",
           env, 100 * *eo, 100 * *eh, meta(&l, "phase-trace"), meta(&l, "scouted-for-intervals"));
    if (scouted) {
        CHECK(strcmp(meta(&l, "phase-unrepresented-lent"), "scouted") == 0 &&
                  strtoull(meta(&l, "scouted-for-intervals"), NULL, 10) >= 1,
              "scouted: phase-unrepresented-lent '%s', scouted for '%s' intervals (trace %s)",
              meta(&l, "phase-unrepresented-lent"), meta(&l, "scouted-for-intervals"),
              meta(&l, "phase-trace"));
        /* Every interval is profiled or scouted. */
        unsigned long long iv = strtoull(meta(&l, "intervals"), NULL, 10),
                           prof = strtoull(meta(&l, "sampled-intervals"), NULL, 10),
                           sc = strtoull(meta(&l, "scouted-intervals"), NULL, 10);
        CHECK(sc >= 1 && sc + prof == iv,
              "scouted: %llu of %llu intervals scouted, %llu profiled (trace %s)", sc, iv, prof,
              meta(&l, "phase-trace"));
        char *report[] = {(char *)g_lowprof, "report", path_in(g_work, "ps.lpprof"), NULL};
        int rst =
            run(report, NULL, NULL, path_in(g_work, "report.txt"), path_in(g_work, "report.err"));
        char *rep = slurp(path_in(g_work, "report.txt"));
        CHECK(ok_status(rst) && strstr(rep, "estimated from their own scout windows") != NULL,
              "report of a scouted run:\n%s", rep);
        free(rep);
    }
    unload(&l);
    return 0;
}

/* A start-up that never recurs (rt_prog's startup mode: other() for
 * 150 ms, then hot() for a second). The k-th policy profiles a phase from
 * its first predicted interval on, and nothing predicts the run's first
 * interval: that phase was lent to its neighbour's profile, and other()
 * was missing from the estimate. Scouted (the default), the first
 * interval's scout windows stand for it. scout=0 runs too, for the log.
 * The scouted estimates are checked in the median of three runs: hot()'s
 * rests on one profiled interval's CPU time, which moves from interval to
 * interval on this kind of virtual machine: 24 runs read it -43 to +39 %,
 * and beside a benchmark a median of three in the suite +37.5 %
 * (2026-11-28); weighed by CPU time, so that the cut-short last interval
 * no longer counts as a whole one, 9 runs read -22 to +22 %. */
static void test_phase_scout(void)
{
    build("prog", NULL, NULL);
    double eo[3], eh[3];
    for (int r = 0; r < 3; r++)
        if (phase_scout_run("strategy=phase,profiles=call-graph,out=ps.lpprof", 1, &eo[r],
                            &eh[r]) != 0)
            return;
    qsort(eo, 3, sizeof *eo, scale_cmp);
    qsort(eh, 3, sizeof *eh, scale_cmp);
    /* other() stood for by its scouts alone: 96 runs on an idle machine
     * (2026-11-28, three runtimes alike) read -65 to +20 %, most near
     * -28 %, three below -50 %; without the scouts it is missing (-100 %). */
    CHECK(eo[1] > -0.75 && eo[1] < 1.0 && eh[1] > -PHASE_SCOUT_BOUND && eh[1] < PHASE_SCOUT_BOUND,
          "scouted: other() %+.1f %%, hot() %+.1f %% of the truth (medians of 3)", 100 * eo[1],
          100 * eh[1]);
    double o, h;
    (void)phase_scout_run("strategy=phase,scout=0,profiles=call-graph,out=ps.lpprof", 0, &o, &h);
    /* Out of range: the runtime says which field, and the program runs. */
    static const char *const bad[][2] = {{"strategy=phase,scout=60", "field 'scout'"},
                                         {"strategy=phase,noise=11", "field 'noise'"},
                                         {"strategy=phase,noise=-1", "field 'noise'"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int st = run_prog("startup", bad[i][0], NULL);
        const char *err = slurp(path_in(g_work, "err.txt"));
        CHECK(ok_status(st) && strstr(err, bad[i][1]) != NULL, "%s: status %d, stderr '%s'",
              bad[i][0], st, err);
    }
}

/* ---- bursty checks: the ABI by hand ------------------------------------------------------- */

/* Fig. 3's arithmetic for one thread's n checks at nCheck_0 = c0, nInstr_0
 * = i0, the thread's first check being the first of a fresh state: a
 * period of c0 + i0 checks, the c0-th of which starts a burst, that check
 * and the i0 - 1 after it choosing the instrumented code. */
static uint64_t bt_bursts(uint64_t n, uint64_t c0, uint64_t i0)
{
    return n >= c0 ? (n - c0) / (c0 + i0) + 1 : 0;
}

static uint64_t bt_instrumented(uint64_t n, uint64_t c0, uint64_t i0)
{
    uint64_t rest = n % (c0 + i0), part = rest >= c0 ? rest - c0 + 1 : 0;
    return n / (c0 + i0) * i0 + (part < i0 ? part : i0);
}

static uint64_t meta_u64(loaded *l, const char *key)
{
    const char *v = meta(l, key);
    return *v ? strtoull(v, NULL, 10) : UINT64_MAX;
}

/* The program's own count of callee()'s calls and of its instrumented
 * iterations, from the line that starts with prefix ("calls" or "child
 * pid"); the child's pid too. */
static void bt_counts(const char *prefix, uint64_t *calls, uint64_t *instr, int *pid)
{
    char *out = slurp(path_in(g_work, "out.txt"));
    *calls = *instr = UINT64_MAX;
    int child = strcmp(prefix, "calls") != 0;
    for (char *line = out, *nl; line; line = (nl = strchr(line, '\n')) ? nl + 1 : NULL) {
        unsigned long long c, k;
        int p = 0;
        if (strncmp(line, prefix, strlen(prefix)) != 0)
            continue;
        if (child ? sscanf(line, "child pid %d calls %llu instrumented %llu", &p, &c, &k) == 3
                  : sscanf(line, "calls %llu instrumented %llu", &c, &k) == 2) {
            *calls = c;
            *instr = k;
            if (pid)
                *pid = p;
        }
    }
    CHECK(*calls != UINT64_MAX, "no '%s' line in the program's output '%s'", prefix, out);
}

/* The estimate of the calls from work() to callee() in a profile of type
 * (call pair or call graph): the bursts' counts times the scale. */
static double bt_calls(loaded *l, unsigned type)
{
    const lp_profile *p = whole(l, type);
    if (!p || !p->scale_den)
        return 0;
    return (double)sum_by(l, type, 0, "work", "callee") * (double)p->scale_num /
           (double)p->scale_den;
}

/* The hottest stream of a profile (heat: frequency x length), or NULL. */
static const lp_entry *bt_hottest(loaded *l)
{
    const lp_profile *p = whole(l, LP_PROF_STREAMS);
    const lp_entry *hot = NULL, *e;
    size_t cur = 0;
    while (p && (e = lp_table_next(&p->table, &cur)) != NULL)
        if (!hot || e->v[0] * e->v[1] > hot->v[0] * hot->v[1])
            hot = e;
    return hot;
}

/* One profile of the program against its own counts: n checks by thread
 * (threads of them, 0-terminated), calls and instrumented iterations as
 * it printed them. */
static void bt_check(loaded *l, const char *what, const uint64_t *n, uint64_t calls, uint64_t instr,
                     uint64_t c0, uint64_t i0)
{
    uint64_t checks = 0, bursts = 0, want_instr = 0, threads = 0;
    for (; *n; n++, threads++) {
        checks += *n;
        bursts += bt_bursts(*n, c0, i0);
        want_instr += bt_instrumented(*n, c0, i0);
    }
    CHECK(strcmp(meta(l, "strategy"), "bursty-checks") == 0, "%s: strategy '%s'", what,
          meta(l, "strategy"));
    CHECK(strcmp(meta(l, "bursty-placement"), "orig") == 0, "%s: placement '%s'", what,
          meta(l, "bursty-placement"));
    CHECK(meta_u64(l, "bursty-checks") == checks, "%s: %s checks, the program made %llu", what,
          meta(l, "bursty-checks"), (unsigned long long)checks);
    CHECK(meta_u64(l, "bursty-bursts") == bursts, "%s: %s bursts, Fig. 3 gives %llu", what,
          meta(l, "bursty-bursts"), (unsigned long long)bursts);
    CHECK(meta_u64(l, "bursty-instrumented-checks") == want_instr && instr == want_instr,
          "%s: %s instrumented checks, the program ran %llu iterations instrumented, Fig. 3 "
          "gives %llu",
          what, meta(l, "bursty-instrumented-checks"), (unsigned long long)instr,
          (unsigned long long)want_instr);
    CHECK(meta_u64(l, "bursty-threads") == threads, "%s: %s threads, not %llu", what,
          meta(l, "bursty-threads"), (unsigned long long)threads);
    /* 21 references an instrumented iteration: the noise and the walk;
     * none of stray(), which runs in the checking code. */
    CHECK(meta_u64(l, "streams-sampled-references") == 21 * instr,
          "%s: %s references recorded, not %llu", what, meta(l, "streams-sampled-references"),
          (unsigned long long)(21 * instr));
    CHECK(bursts < 2 || meta_u64(l, "streams-sampled-cuts") >= bursts - 1,
          "%s: %s cuts for %llu bursts", what, meta(l, "streams-sampled-cuts"),
          (unsigned long long)bursts);
    CHECK(sum_by(l, LP_PROF_CALL_PAIR, 1, "stray_enter", NULL) == 0,
          "%s: an entry made in the checking code was counted", what);
    double est = bt_calls(l, LP_PROF_CALL_PAIR), graph = bt_calls(l, LP_PROF_CALL_GRAPH);
    double err = calls ? est / (double)calls - 1 : 1;
    printf("check_rt: bursty-abi: %s: work -> callee estimated %.0f of %llu (%+.2f %%)\n", what,
           est, (unsigned long long)calls, 100 * err);
    CHECK(err <= 0.10 && err >= -0.10, "%s: call pair estimated %.0f, %+.1f %% off the true %llu",
          what, est, 100 * err, (unsigned long long)calls);
    CHECK(graph == est, "%s: call graph %.0f, call pairs %.0f", what, graph, est);
    /* The hottest stream is the planted walk: 20 references, from site0
     * to site19 in order, in each instrumented iteration. */
    const lp_entry *hot = bt_hottest(l);
    CHECK(hot && hot->v[1] == 20 && hot->v[0] * 10 >= instr * 9 && hot->v[0] <= instr,
          "%s: the hottest stream has length %llu and frequency %llu, not 20 and about %llu",
          what, hot ? (unsigned long long)hot->v[1] : 0ULL,
          hot ? (unsigned long long)hot->v[0] : 0ULL, (unsigned long long)instr);
    if (!hot)
        return;
    char key[40];
    snprintf(key, sizeof key, "stream.%016llx", (unsigned long long)hot->key.a);
    const char *pcs = meta(l, key);
    int k = 0;
    for (const char *s = pcs; *s && k < 21; k++) {
        char *end;
        uint64_t pc = strtoull(s, &end, 16);
        char want[16];
        snprintf(want, sizeof want, "site%d", k);
        CHECK(strcmp(fn(l, pc), want) == 0,
              "%s: reference %d of the hottest stream is in '%s', not %s", what, k, fn(l, pc),
              want);
        s = *end == ',' ? end + 1 : end;
    }
    CHECK(k == 20, "%s: the hottest stream's signature '%s' has %d pcs", what, pcs, k);
}

/* The ABI of the bursty checks (doc/runtime.md, "Bursty checks") used by
 * hand: bt_abi_prog.c compiled with cc, linked with the runtime archive.
 * Checks, bursts and instrumented checks exactly as Fig. 3 gives them, one
 * thread and two; the planted walk as the hot stream; the call pairs'
 * estimate within 10 %; inf and streams-limit; a fork child that counts
 * only its own; bad values refused with a message naming the field. */
static void test_bursty_abi(const char *archive)
{
    char *src = path_in(g_src, "bt_abi_prog.c"), *exe = path_in(g_work, "prog");
    char *argv[] = {"cc", "-std=c17", "-O2", "-g", "-pthread", src, (char *)archive, "-o", exe,
                    NULL};
    char *log = path_in(g_work, "build.log");
    if (!ok_status(run(argv, NULL, NULL, log, log)))
        die("building bt_abi_prog failed:\n%s", slurp(log));
    uint64_t calls, instr;
    loaded l;

    char *one[] = {exe, "200095", NULL};
    int st = run(one, "bursty=90:10,out=p.lpprof", NULL, path_in(g_work, "out.txt"),
                 path_in(g_work, "err.txt"));
    CHECK(ok_status(st), "one thread: status %d: %s", st, slurp(path_in(g_work, "err.txt")));
    bt_counts("calls", &calls, &instr, NULL);
    load("p.lpprof", &l);
    CHECK(meta_u64(&l, "bursty-n-check0") == 90 && meta_u64(&l, "bursty-n-instr0") == 10,
          "nCheck0 %s, nInstr0 %s", meta(&l, "bursty-n-check0"), meta(&l, "bursty-n-instr0"));
    bt_check(&l, "one thread", (const uint64_t[]){200095, 0}, calls, instr, 90, 10);
    unload(&l);

    char *two[] = {exe, "200095", "150042", NULL};
    st = run(two, "bursty=90:10,out=t.lpprof", NULL, path_in(g_work, "out.txt"),
             path_in(g_work, "err.txt"));
    CHECK(ok_status(st), "two threads: status %d", st);
    bt_counts("calls", &calls, &instr, NULL);
    load("t.lpprof", &l);
    bt_check(&l, "two threads", (const uint64_t[]){200095, 150042, 0}, calls, instr, 90, 10);
    unload(&l);

    /* inf: never out of the checking code, every check still counted. */
    st = run(one, "bursty=inf:1,out=i.lpprof", NULL, path_in(g_work, "out.txt"),
             path_in(g_work, "err.txt"));
    CHECK(ok_status(st), "inf: status %d", st);
    bt_counts("calls", &calls, &instr, NULL);
    load("i.lpprof", &l);
    CHECK(instr == 0 && meta_u64(&l, "bursty-checks") == 200095 &&
              meta_u64(&l, "bursty-bursts") == 0 &&
              meta_u64(&l, "streams-sampled-references") == 0,
          "inf: %llu iterations instrumented, %s checks, %s bursts, %s references",
          (unsigned long long)instr, meta(&l, "bursty-checks"), meta(&l, "bursty-bursts"),
          meta(&l, "streams-sampled-references"));
    CHECK(meta_u64(&l, "bursty-n-check0") == UINT64_MAX, "inf: nCheck0 %s",
          meta(&l, "bursty-n-check0"));
    unload(&l);

    /* A buffer of 1000 references keeps the first 1000 and counts the rest. */
    st = run(one, "bursty=90:10,streams-limit=1000,out=s.lpprof", NULL,
             path_in(g_work, "out.txt"), path_in(g_work, "err.txt"));
    CHECK(ok_status(st), "streams-limit: status %d", st);
    bt_counts("calls", &calls, &instr, NULL);
    load("s.lpprof", &l);
    CHECK(meta_u64(&l, "streams-sampled-references") == 1000 &&
              meta_u64(&l, "streams-dropped") == 21 * instr - 1000,
          "streams-limit=1000: %s references, %s dropped of %llu",
          meta(&l, "streams-sampled-references"), meta(&l, "streams-dropped"),
          (unsigned long long)(21 * instr));
    unload(&l);

    /* fork: the child's file has its own checks only, from a fresh state. */
    char *fk[] = {exe, "20000", "30000", "fork", "40000", NULL};
    st = run(fk, "bursty=90:10,out=f.%p.lpprof", NULL, path_in(g_work, "out.txt"),
             path_in(g_work, "err.txt"));
    CHECK(ok_status(st), "fork: status %d", st);
    int pid = 0;
    uint64_t ccalls, cinstr;
    bt_counts("child pid", &ccalls, &cinstr, &pid);
    bt_counts("calls", &calls, &instr, NULL);
    char name[64];
    snprintf(name, sizeof name, "f.%d.lpprof", pid);
    load(name, &l);
    bt_check(&l, "fork child", (const uint64_t[]){40000, 0}, ccalls, cinstr, 90, 10);
    unload(&l);
    char names[16][256];
    int nall = list_profiles(names, 16), nf = 0;
    for (int i = 0; i < nall; i++) {
        if (strncmp(names[i], "f.", 2) != 0)
            continue;
        nf++;
        if (strcmp(names[i], name) == 0)
            continue;
        load(names[i], &l);
        /* one thread, its two runs of work() one after the other */
        uint64_t checks = meta_u64(&l, "bursty-checks");
        CHECK(checks == 50000 && meta_u64(&l, "bursty-threads") == 1 &&
                  meta_u64(&l, "bursty-instrumented-checks") == instr,
              "fork parent: %llu checks, %s threads, %s instrumented (the program: %llu)",
              (unsigned long long)checks, meta(&l, "bursty-threads"),
              meta(&l, "bursty-instrumented-checks"), (unsigned long long)instr);
        unload(&l);
    }
    CHECK(nf == 2, "fork: %d profiles, not the parent's and the child's", nf);

    /* Bad values: one line naming the field, no profile, the program
     * running its checking code only. */
    const char *bad[] = {"out=bad.lpprof,bursty=0:5", "out=bad.lpprof,bursty=x"};
    for (int i = 0; i < 2; i++) {
        st = run(one, bad[i], NULL, path_in(g_work, "out.txt"), path_in(g_work, "err.txt"));
        char *err = slurp(path_in(g_work, "err.txt"));
        CHECK(ok_status(st), "%s: status %d", bad[i], st);
        CHECK(strstr(err, "lowprof: LOWPROF: field 'bursty'") == err, "%s: stderr '%s'", bad[i],
              err);
        bt_counts("calls", &calls, &instr, NULL);
        CHECK(instr == 0, "%s: %llu iterations instrumented", bad[i], (unsigned long long)instr);
        CHECK(access(path_in(g_work, "bad.lpprof"), F_OK) != 0, "%s: a profile was written",
              bad[i]);
    }
}

/* ---- bursty checks compiled in: lowprof cc --profiles=bursty --------------------------- */

/* The summary lowprof cc --print gives of its rewrite, checked against the
 * placement's decisions on bt_cc_prog.c (3 functions). */
static void btc_build(const char *name, const char *placement, const char *want)
{
    char profiles[64];
    snprintf(profiles, sizeof profiles, "bursty:%s", placement);
    build_with(name, "clang", profiles, NULL, NULL);
    char *log = slurp(path_in(g_work, "build.log"));
    CHECK(strstr(log, want) != NULL, "%s: lowprof cc said '%s', not '%s'", placement, log, want);
}

/* Runs WORK/exe with LOWPROF=env, checks its output against the plain
 * build's, and loads its profile out. */
static void btc_run(const char *exe, const char *env, const char *out, const char *plain,
                    loaded *l)
{
    char *argv[] = {path_in(g_work, exe), NULL};
    int st = run(argv, env, NULL, path_in(g_work, "out.txt"), path_in(g_work, "err.txt"));
    CHECK(ok_status(st), "%s %s: status %d: %s", exe, env, st, slurp(path_in(g_work, "err.txt")));
    char *got = slurp(path_in(g_work, "out.txt"));
    CHECK(strcmp(got, plain) == 0, "%s %s printed '%s', the plain build '%s'", exe, env, got,
          plain);
    load(out, l);
}

/* The hottest stream of a profile must be at least 10 references long,
 * seen at least 100 times, and all its references in walk(). */
static void btc_hot_stream(loaded *l, const char *what)
{
    const lp_entry *hot = bt_hottest(l);
    CHECK(hot && hot->v[1] >= 10 && hot->v[0] >= 100,
          "%s: the hottest stream has length %llu and frequency %llu", what,
          hot ? (unsigned long long)hot->v[1] : 0ULL, hot ? (unsigned long long)hot->v[0] : 0ULL);
    char key[40];
    snprintf(key, sizeof key, "stream.%016llx", (unsigned long long)hot->key.a);
    const char *pcs = meta(l, key);
    int k = 0;
    for (const char *q = pcs; *q; k++) {
        char *end;
        uint64_t pc = strtoull(q, &end, 16);
        CHECK(strcmp(fn(l, pc), "walk") == 0, "%s: reference %d of the hottest stream is in '%s'",
              what, k, fn(l, pc));
        q = *end == ',' ? end + 1 : end;
    }
    CHECK(k == (int)hot->v[1], "%s: the hottest stream's signature '%s' has %d pcs", what, pcs, k);
}

/* bt_cc_prog.c built with lowprof cc --profiles=bursty: the checks each
 * placement compiles in and executes (exactly), the output unchanged, the
 * call pairs estimated from the bursts, the list walk as the hottest data
 * stream, and a bad placement refused. */
static void test_bursty_cc(void)
{
    g_prog_src = "bt_cc_prog.c";
    char *src = path_in(g_src, "bt_cc_prog.c"), *plain_exe = path_in(g_work, "plain");
    char *pargv[] = {"clang", "-O2", src, "-o", plain_exe, NULL};
    char *log = path_in(g_work, "build.log");
    if (!ok_status(run(pargv, NULL, NULL, log, log)))
        die("building the plain bt_cc_prog failed:\n%s", slurp(log));
    char *pl[] = {plain_exe, NULL};
    CHECK(ok_status(run(pl, NULL, NULL, path_in(g_work, "out.txt"), log)), "the plain build failed");
    char *plain = slurp(path_in(g_work, "out.txt"));

    btc_build("orig", "orig",
              "3 functions in two copies (0 left as they were), 3 entry checks, 3 loop checks, "
              "0 loops without one");
    btc_build("ecl4", "EC+L4",
              "3 functions in two copies (0 left as they were), 1 entry checks, 2 loop checks, "
              "0 loops without one");
    loaded l;
    /* t_checking: nCheck0 infinite, no burst, every check counted. */
    btc_run("orig", "bursty=inf:1,out=oi.lpprof", "oi.lpprof", plain, &l);
    CHECK(meta_u64(&l, "bursty-checks") == 850009 && meta_u64(&l, "bursty-bursts") == 0 &&
              meta_u64(&l, "streams-sampled-references") == 0,
          "orig inf:1: %s checks (want 850009), %s bursts, %s references", meta(&l, "bursty-checks"),
          meta(&l, "bursty-bursts"), meta(&l, "streams-sampled-references"));
    CHECK(strcmp(meta(&l, "bursty-placement"), "orig") == 0, "placement '%s'",
          meta(&l, "bursty-placement"));
    unload(&l);
    btc_run("ecl4", "bursty=inf:1,out=ei.lpprof", "ei.lpprof", plain, &l);
    CHECK(meta_u64(&l, "bursty-checks") == 600001, "EC+L4 inf:1: %s checks, want 600001",
          meta(&l, "bursty-checks"));
    unload(&l);
    /* Sampled: the rate, the call pairs and the hot stream. The sampling
     * is deterministic, so a period of checks that divides with the
     * program's own cycle of checks (12 a walk with EC+L4, 17 with orig)
     * would see walk() at one point of its cycle only: 90:10, whose period
     * of 100 shares 4 with 12, estimates 40,000 of its 50,000 calls. A
     * prime period of 107 meets every point of the cycle in turn. */
    const char *runs[][2] = {{"orig", "bursty=97:10,out=o.lpprof"},
                             {"ecl4", "bursty=97:10,out=e.lpprof"}};
    for (int i = 0; i < 2; i++) {
        const char *out = i ? "e.lpprof" : "o.lpprof";
        btc_run(runs[i][0], runs[i][1], out, plain, &l);
        uint64_t checks = meta_u64(&l, "bursty-checks"), instr = meta_u64(&l, "bursty-instrumented-checks");
        double rate = checks ? (double)instr / (double)checks : 0;
        CHECK(rate > 10.0 / 107 - 1e-4 && rate < 10.0 / 107 + 1e-4,
              "%s: %llu of %llu checks instrumented, not 10 in 107", runs[i][0],
              (unsigned long long)instr, (unsigned long long)checks);
        const lp_profile *p = whole(&l, LP_PROF_CALL_PAIR);
        CHECK(p && p->scale_den, "%s: no scaled call-pair profile", runs[i][0]);
        double leaf = (double)sum_by(&l, LP_PROF_CALL_PAIR, 0, "main", "leaf") *
                      (double)p->scale_num / (double)p->scale_den;
        double walks = (double)sum_by(&l, LP_PROF_CALL_PAIR, 0, "main", "walk") *
                       (double)p->scale_num / (double)p->scale_den;
        printf("check_rt: bursty-cc: %s: main -> leaf estimated %.0f of 200000, main -> walk "
               "%.0f of 50000\n",
               runs[i][0], leaf, walks);
        CHECK(leaf > 180000 && leaf < 220000, "%s: leaf's calls estimated at %.0f", runs[i][0],
              leaf);
        CHECK(walks > 45000 && walks < 55000, "%s: walk's calls estimated at %.0f", runs[i][0],
              walks);
        btc_hot_stream(&l, runs[i][0]);
        unload(&l);
    }
    /* A shared library built with the checks, its program linked with the
     * runtime: the same sums as the plain build, in and out of bursts. */
    char *lib_src = path_in(g_src, "bt_cc_lib.c"), *main_src = path_in(g_src, "bt_cc_libmain.c");
    char *lib_obj = path_in(g_work, "lib.o"), *lib_so = path_in(g_work, "libbt.so");
    char *lib_plain = path_in(g_work, "libmain-plain"), *lib_exe = path_in(g_work, "libmain");
    char rpath[4200];
    snprintf(rpath, sizeof rpath, "-Wl,-rpath,%s", g_work);
    char *lp1[] = {(char *)g_lowprof, "cc", "--profiles=bursty:orig", "--", "-O2", "-fPIC", "-c",
                   lib_src, "-o", lib_obj, NULL};
    /* Linked as a shared library by lowprof cc itself: without a runtime
     * of its own, the program's serves it. */
    char *lp2[] = {(char *)g_lowprof, "cc", "--profiles=bursty:orig", "--", "-shared", lib_obj,
                   "-o", lib_so, NULL};
    char *lp3[] = {(char *)g_lowprof, "cc", "--profiles=none", "--", "-O2", main_src, lib_so, rpath,
                   "-o", lib_exe, NULL};
    char *lp4[] = {"clang", "-O2", main_src, lib_src, "-o", lib_plain, NULL};
    char **steps[] = {lp1, lp2, lp3, lp4};
    for (int i = 0; i < 4; i++)
        if (!ok_status(run(steps[i], NULL, NULL, log, log)))
            die("building the shared-library case failed at step %d:\n%s", i + 1, slurp(log));
    char *pm[] = {lib_plain, NULL};
    CHECK(ok_status(run(pm, NULL, NULL, path_in(g_work, "out.txt"), log)), "libmain-plain failed");
    char *lib_want = slurp(path_in(g_work, "out.txt"));
    const char *lib_envs[] = {"bursty=inf:1,out=/dev/null", "bursty=1000:50,out=/dev/null",
                              "bursty=1:1000000,out=/dev/null"};
    for (int i = 0; i < 3; i++) {
        char *lm[] = {lib_exe, NULL};
        int st = run(lm, lib_envs[i], NULL, path_in(g_work, "out.txt"), log);
        char *got = slurp(path_in(g_work, "out.txt"));
        CHECK(ok_status(st) && strcmp(got, lib_want) == 0,
              "the shared library with checks, %s: status %d, printed '%s', the plain build '%s'",
              lib_envs[i], st, got, lib_want);
    }

    /* A placement that is not one. */
    char *bad[] = {(char *)g_lowprof, "cc", "--profiles=bursty:EQ", "--", "-O2", src, "-o", plain_exe, NULL};
    int st = run(bad, NULL, NULL, log, log);
    char *msg = slurp(log);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2 && strstr(msg, "bursty placement 'EQ'"),
          "lowprof cc --profiles=bursty:EQ: status %d, '%s'", st, msg);
}

static void clean_work(void)
{
    char *cmd;
    if (asprintf(&cmd, "rm -rf '%s' && mkdir -p '%s'", g_work, g_work) < 0 || system(cmd) != 0)
        die("cannot prepare %s", g_work);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: check_rt LOWPROF SRCDIR WORKDIR TEST [SOURCES...]\n");
        return 2;
    }
    /* Absolute paths: the programs run in the work folder. */
    g_lowprof = realpath(argv[1], NULL);
    g_src = realpath(argv[2], NULL);
    if (!g_lowprof || !g_src)
        die("%s or %s: %s", argv[1], argv[2], strerror(errno));
    g_work = argv[3];
    const char *t = argv[4];
    clean_work();
    g_work = realpath(g_work, NULL);
    /* bursty-abi needs only cc: its program uses the ABI by hand. */
    if (strcmp(t, "bursty-abi") != 0)
        need_clang();
    if (strcmp(t, "bursty-abi") == 0) {
        if (argc < 6)
            die("bursty-abi: the runtime archive is needed");
        test_bursty_abi(argv[5]);
    } else if (strcmp(t, "bursty-cc") == 0)
        test_bursty_cc();
    else if (strcmp(t, "exact") == 0)
        test_exact();
    else if (strcmp(t, "exact-inline") == 0)
        g_blocks = "inline", test_exact();
    else if (strcmp(t, "copies") == 0)
        test_copies();
    else if (strcmp(t, "loops") == 0)
        test_loops();
    else if (strcmp(t, "calls") == 0)
        test_calls();
    else if (strcmp(t, "calls-inline") == 0)
        g_blocks = "inline", test_calls();
    else if (strcmp(t, "calls-cg") == 0)
        g_profiles = "call-graph", test_calls();
    else if (strcmp(t, "cet-gcc") == 0)
        test_cet("gcc");
    else if (strcmp(t, "cet-clang") == 0)
        test_cet("clang");
    else if (strcmp(t, "switch") == 0)
        test_switch();
    else if (strcmp(t, "flags") == 0)
        test_flags();
    else if (strcmp(t, "flags-inline") == 0)
        g_blocks = "inline", test_flags();
    else if (strcmp(t, "fork") == 0)
        test_fork();
    else if (strcmp(t, "text") == 0)
        test_text();
    else if (strcmp(t, "clock") == 0)
        test_clock();
    else if (strcmp(t, "sticky") == 0)
        test_sticky();
    else if (strcmp(t, "exec") == 0)
        test_exec();
    else if (strcmp(t, "ship") == 0)
        test_ship();
    else if (strcmp(t, "ship-interleaved") == 0)
        test_ship_interleaved();
    else if (strcmp(t, "phase-scout") == 0)
        test_phase_scout();
    else if (strcmp(t, "segv") == 0)
        test_fatal("segv", SIGSEGV, NULL);
    else if (strcmp(t, "chain") == 0)
        test_fatal("segv", SIGSEGV, "RT_PROG_CHAIN=1");
    else if (strcmp(t, "abort") == 0)
        test_fatal("abort", SIGABRT, NULL);
    else if (strcmp(t, "term") == 0)
        test_fatal("term", SIGTERM, NULL);
    else if (strcmp(t, "prof") == 0)
        test_prof();
    else if (strcmp(t, "output") == 0)
        test_output();
    else if (strcmp(t, "scale") == 0)
        test_scale();
    else if (strcmp(t, "tsan") == 0)
        test_tsan(argc - 5, argv + 5);
    else if (strcmp(t, "stacks") == 0)
        test_stacks();
    else
        die("unknown test %s", t);
    if (!g_failed)
        printf("check_rt: %s: ok\n", t);
    return g_failed;
}
