/* Tests of the read-side commands (report, info, export) through the built
 * lowprof binary. This program builds a profile set in memory whose
 * addresses are its own functions, at known source lines, with known
 * counts; writes it as a profile file; runs lowprof on it and checks that
 * the output has the expected names, file:line, counts and percentages. It
 * is built with -g -O0 so its line table is simple.
 *
 * usage: test_readcmds LOWPROF MODE
 *   MODE report    report, info, csv, folded, bad files and bad usage
 *   MODE json      the json export, validated and queried with jq (77 if absent)
 *   MODE callgrind the callgrind export, read by callgrind_annotate (77 if absent)
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lowprof/trace.h"
#include "../lp_test.h"
#include "selfmap.h"

/* ---- code with known lines ------------------------------------------------------ */

static uintptr_t lp_site_ra[4];

// clang-format off
__attribute__((noinline)) int lp_rt_hot(int i) { lp_site_ra[i] = (uintptr_t)__builtin_return_address(0); return i + 1; } enum { lp_hot_line = __LINE__ };
__attribute__((noinline)) int lp_rt_warm(int i) { lp_site_ra[i] = (uintptr_t)__builtin_return_address(0); return i + 2; } enum { lp_warm_line = __LINE__ };
__attribute__((noinline)) int lp_rt_cold(int i) { return i * 5; } enum { lp_cold_line = __LINE__ };
// clang-format on

static unsigned lp_site_line[3];

__attribute__((noinline)) int lp_rt_caller(void)
{
    int s = 0;
    // clang-format off
    s += lp_rt_hot(0); lp_site_line[0] = __LINE__;
    s += lp_rt_hot(1); lp_site_line[1] = __LINE__;
    s += lp_rt_warm(2); lp_site_line[2] = __LINE__;
    // clang-format on
    return s;
}

/* ---- running lowprof --------------------------------------------------------------- */

static const char *lowprof;
static char out_text[1 << 20];
static char err_text[1 << 16];

static void slurp(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, size - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

/* Runs `lowprof ARGS` (a shell fragment); stdout and stderr land in
 * out_text and err_text. Returns the exit status. */
static int run(const char *fmt, ...)
{
    char args[2048], cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "'%s' %s >rc-out.txt 2>rc-err.txt", lowprof, args);
    int st = system(cmd);
    slurp("rc-out.txt", out_text, sizeof out_text);
    slurp("rc-err.txt", err_text, sizeof err_text);
    unlink("rc-out.txt");
    unlink("rc-err.txt");
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int has(const char *text, const char *needle)
{
    if (strstr(text, needle))
        return 1;
    fprintf(stderr, "missing: \"%s\"\n", needle);
    return 0;
}

/* A line of text containing all of the given pieces, in order. */
static int has_line(const char *text, const char *a, const char *b, const char *c)
{
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[2048];
        snprintf(buf, sizeof buf, "%.*s", (int)len, line);
        const char *p = strstr(buf, a);
        if (p && (p = strstr(p + strlen(a), b)) && strstr(p + strlen(b), c))
            return 1;
        line = end ? end + 1 : NULL;
    }
    fprintf(stderr, "no line with \"%s\" ... \"%s\" ... \"%s\"\n", a, b, c);
    return 0;
}

/* ---- the profile ---------------------------------------------------------------------- */

static uint64_t hot, warm, cold, caller_fn, qsort_pc;
static lp_module self_module, libc_module;

static void put(lp_profile_set *s, unsigned type, uint64_t a, uint64_t b, uint64_t v0, uint64_t v1)
{
    lp_profile *p = lp_profile_set_find(s, type, LP_PHASE_NONE);
    if (!p && lp_profile_set_add(s, type, LP_PHASE_NONE, &p) != 0)
        abort();
    lp_entry *e = lp_table_upsert(&p->table, (lp_key){a, b});
    if (!e)
        abort();
    e->v[0] += v0;
    e->v[1] += v1;
}

static int have_libc;

/* The module map entries of this program and of the library holding qsort
 * (libc, or the sanitizer runtime that intercepts it). */
static int find_modules(void)
{
    found_object fo;
    if (live_module((uintptr_t)&lp_rt_hot, &self_module, &fo) != 0)
        return -1;
    have_libc = live_module((uintptr_t)&qsort, &libc_module, &fo) == 0;
    return 0;
}

static int write_profile(const char *path, const char *complete)
{
    lp_rt_caller();
    hot = (uintptr_t)&lp_rt_hot;
    warm = (uintptr_t)&lp_rt_warm;
    cold = (uintptr_t)&lp_rt_cold;
    caller_fn = (uintptr_t)&lp_rt_caller;
    qsort_pc = (uintptr_t)&qsort;
    uint64_t site0 = lp_site_ra[0] - 1, site1 = lp_site_ra[1] - 1, site2 = lp_site_ra[2] - 1;

    lp_profile_set s;
    memset(&s, 0, sizeof s);
    lp_meta_set(&s.meta, "program", self_module.path);
    lp_meta_set(&s.meta, "args", "--known \"quoted\", arguments");
    lp_meta_set(&s.meta, "instructions", "1234567");
    lp_meta_set(&s.meta, "complete", complete);
    if (strcmp(complete, "no") == 0) {
        /* as `lowprof record` writes it: the whole command line */
        lp_meta_set(&s.meta, "command", "prog --flag input");
        lp_meta_set(&s.meta, "incomplete-reason", "killed by signal 9");
    }
    lp_meta_set(&s.meta, "exit-status", "0");
    lp_module_map_add(&s.modules, self_module.path, self_module.start, self_module.size,
                      self_module.bias, self_module.build_id, self_module.build_id_len);
    if (have_libc)
        lp_module_map_add(&s.modules, libc_module.path, libc_module.start, libc_module.size,
                          libc_module.bias, libc_module.build_id, libc_module.build_id_len);

    /* code regions: 9,550 instructions; hot holds 8,000 of them (83.77%). */
    put(&s, LP_PROF_CODE_REGION, hot + 4, 0, 1000, 8000);
    put(&s, LP_PROF_CODE_REGION, warm + 4, 0, 300, 1500);
    put(&s, LP_PROF_CODE_REGION, cold + 4, 0, 10, 50);
    /* methods: 1,310 invocations; hot 76.34%. */
    put(&s, LP_PROF_METHOD, hot, 0, 1000, 999);
    put(&s, LP_PROF_METHOD, warm, 0, 300, 0);
    put(&s, LP_PROF_METHOD, cold, 0, 10, 0);
    /* call pairs: caller -> hot from two sites (1,500 of 1,800 calls, 83.33%),
     * caller -> warm 200 (100 of them tail calls), caller -> qsort 100. */
    put(&s, LP_PROF_CALL_PAIR, site0, hot, 1000, 0);
    put(&s, LP_PROF_CALL_PAIR, site1, hot, 500, 0);
    put(&s, LP_PROF_CALL_PAIR, site2, warm, 200, 100);
    if (have_libc)
        put(&s, LP_PROF_CALL_PAIR, site2, qsort_pc, 100, 0);
    /* edges and blocks */
    put(&s, LP_PROF_EDGE, hot + 4, hot + 8, 750, 0);
    put(&s, LP_PROF_EDGE, hot + 4, warm, 250, 0);
    put(&s, LP_PROF_BLOCK, hot, 0, 1000, 6000);
    put(&s, LP_PROF_BLOCK, warm, 0, 300, 3000);
    put(&s, LP_PROF_BLOCK, caller_fn, 0, 1, 1000);
    /* load values: hot+4 loaded 42 900 times and 7 100 times; warm+4
     * loaded 0xffffffff (-1 as 4 bytes) 300 times. */
    put(&s, LP_PROF_VALUE, hot + 4, 42, 900, 4);
    put(&s, LP_PROF_VALUE, hot + 4, 7, 100, 4);
    put(&s, LP_PROF_VALUE, warm + 4, 0xffffffffu, 300, 4);

    lp_membuf buf = {0};
    int rc = lp_profile_file_write(&s, lp_membuf_sink(&buf));
    lp_profile_set_fini(&s);
    if (rc)
        return -1;
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf.data, 1, buf.size, f) != buf.size || fclose(f) != 0)
        return -1;
    lp_membuf_free(&buf);
    return 0;
}

/* ---- modes -------------------------------------------------------------------------- */

static void test_report(const char *file)
{
    char want[256], want2[256];
    LP_CHECK(run("report '%s'", file) == 0);
    LP_CHECK(has(out_text, "program       "));
    LP_CHECK(has(out_text, self_module.path));
    LP_CHECK(has(out_text, "instructions  1,234,567"));
    LP_CHECK(has(out_text, "status        complete, exit status 0"));
    /* code regions: hot's branch with 8,000 instructions, 83.77%, mean 8.0 */
    snprintf(want, sizeof want, "lp_rt_hot (test_readcmds.c:%d)", lp_hot_line);
    LP_CHECK(has_line(out_text, "8,000  83.77%", "1,000", want));
    LP_CHECK(has_line(out_text, "8,000", "8.0", "lp_rt_hot"));
    snprintf(want, sizeof want, "lp_rt_cold (test_readcmds.c:%d)", lp_cold_line);
    LP_CHECK(has_line(out_text, "50", "0.52%", want));
    /* methods */
    LP_CHECK(has_line(out_text, "1,000  76.34%", "999", "lp_rt_hot"));
    /* call pairs by function: two sites summed */
    snprintf(want, sizeof want, "→ lp_rt_hot (test_readcmds.c:%d)", lp_hot_line);
    LP_CHECK(has_line(out_text, "1,500  83.33%", "2  lp_rt_caller (test_readcmds.c:", want));
    LP_CHECK(has_line(out_text, "200  11.11%", "100", "→ lp_rt_warm"));
    if (have_libc) {
        snprintf(want, sizeof want, "%s)", strrchr(libc_module.path, '/') + 1);
        LP_CHECK(has_line(out_text, "100   5.56%", "lp_rt_caller", want));
    }
    /* edges: within a function the destination shows only its place */
    LP_CHECK(has_line(out_text, "750  75.00%", "lp_rt_hot (test_readcmds.c", "→ test_readcmds.c:"));
    LP_CHECK(has_line(out_text, "250  25.00%", "lp_rt_hot", "→ lp_rt_warm (test_readcmds.c"));
    /* blocks: 10,000 instructions */
    LP_CHECK(has(out_text, "3 blocks, 1,301 executions, 10,000 instructions"));
    LP_CHECK(has_line(out_text, "6,000  60.00%", "6.0", "lp_rt_hot"));
    /* values: hot's load first (1,000 of 1,300 loads), 42 before 7; -1 */
    LP_CHECK(has_line(out_text, "1,000   76.92%       2      4", "0x", "lp_rt_hot"));
    LP_CHECK(has_line(out_text, "900   90.00%", "= 0x2a", "42"));
    LP_CHECK(has_line(out_text, "100   10.00%", "= 0x7", "7"));
    LP_CHECK(has_line(out_text, "300  100.00%", "= 0xffffffff", "-1"));
    char *v42 = strstr(out_text, "= 0x2a"), *v7 = strstr(out_text, "= 0x7 ");
    LP_CHECK(v42 && v7 && v42 < v7);

    /* per call site: each site's own line */
    LP_CHECK(run("report --by-site --type call-pair '%s'", file) == 0);
    snprintf(want, sizeof want, "lp_rt_caller (test_readcmds.c:%u)", lp_site_line[0]);
    snprintf(want2, sizeof want2, "lp_rt_caller (test_readcmds.c:%u)", lp_site_line[1]);
    LP_CHECK(has_line(out_text, "1,000  55.56%", want, "→ lp_rt_hot"));
    LP_CHECK(has_line(out_text, "500  27.78%", want2, "→ lp_rt_hot"));
    LP_CHECK(strstr(out_text, "Hot methods") == NULL);

    /* --top 1 keeps the hottest row only; --sort count reorders regions */
    LP_CHECK(run("report --top 1 --type code-region --sort count '%s'", file) == 0);
    LP_CHECK(has_line(out_text, "1,000  76.34%", "8,000", "lp_rt_hot"));
    LP_CHECK(strstr(out_text, "lp_rt_warm") == NULL);
    LP_CHECK(has(out_text, "(top 1)"));

    /* the help is the same both ways */
    LP_CHECK(run("report --help") == 0);
    static char help[sizeof out_text];
    memcpy(help, out_text, sizeof help);
    LP_CHECK(run("help report") == 0);
    LP_CHECK(strcmp(help, out_text) == 0);
    LP_CHECK(has(help, "Example"));

    /* bad usage: 2, naming what was wrong */
    LP_CHECK(run("report --top many '%s'", file) == 2);
    LP_CHECK(has(err_text, "--top wants a count, not 'many'"));
    LP_CHECK(run("report --type nonsense '%s'", file) == 2);
    LP_CHECK(has(err_text, "unknown profile type 'nonsense'"));
    LP_CHECK(run("report") == 2);
    LP_CHECK(run("export --format yaml '%s'", file) == 2);
    LP_CHECK(has(err_text, "unknown format 'yaml'"));
}

static void test_incomplete(void)
{
    LP_CHECK(write_profile("rc-incomplete.lpprof", "no") >= 0);
    LP_CHECK(run("report --top 1 rc-incomplete.lpprof") == 0);
    LP_CHECK(has(out_text, "status        INCOMPLETE: killed by signal 9"));
    LP_CHECK(has(out_text, "command       prog --flag input\n"));
    LP_CHECK(run("info rc-incomplete.lpprof") == 0);
    LP_CHECK(has(out_text, "INCOMPLETE: killed by signal 9"));
    unlink("rc-incomplete.lpprof");
}

static void test_info(const char *file)
{
    LP_CHECK(run("info '%s'", file) == 0);
    LP_CHECK(has(out_text, "kind            profile, format version"));
    LP_CHECK(has(out_text, " bytes"));
    LP_CHECK(has_line(out_text, "program", self_module.path, ""));
    LP_CHECK(has_line(out_text, "code-region", "whole run", "3"));
    LP_CHECK(has(out_text, "1,310 executions, 9,550 instructions"));
    LP_CHECK(has(out_text, "1,310 invocations, 999 backward branches"));
    LP_CHECK(has_line(out_text, "value", "3", "1,300 loads"));
    LP_CHECK(has(out_text, self_module.path));
}

/* Writes the bytes of a membuf to path. */
static void save(const char *path, const lp_membuf *buf, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(buf->data, 1, size, f);
        fclose(f);
    }
}

/* info on an interval matrix and an event trace, whole and cut short. */
static void test_info_other_kinds(void)
{
    lp_meta meta = {0};
    lp_meta_set(&meta, "program", "/bin/true");
    lp_module_map mods = {0};
    lp_module_map_add(&mods, self_module.path, self_module.start, self_module.size,
                      self_module.bias, NULL, 0);

    /* A matrix of three intervals of 1,000, 1,000 and 500 instructions. */
    lp_membuf buf = {0};
    lp_imatrix_writer *w = NULL;
    uint32_t types = (1u << LP_PROF_METHOD) | (1u << LP_PROF_BLOCK);
    LP_CHECK(lp_imatrix_writer_create(lp_membuf_sink(&buf), &meta, 1000, types, &w) == 0);
    lp_interval iv;
    LP_CHECK(lp_interval_init(&iv) == 0);
    for (unsigned k = 0; k < 3; k++) {
        lp_interval_clear(&iv);
        iv.index = k;
        iv.first_insn = k * 1000;
        iv.insns = k < 2 ? 1000 : 500;
        lp_entry *e = lp_table_upsert(&iv.tables[LP_PROF_METHOD], (lp_key){hot, 0});
        e->v[0] = 10;
        e = lp_table_upsert(&iv.tables[LP_PROF_BLOCK], (lp_key){hot, 0});
        e->v[0] = 100;
        e->v[1] = iv.insns;
        LP_CHECK(lp_imatrix_writer_add(w, &iv) == 0);
    }
    size_t cut = buf.size; /* everything but the module map and end chunk */
    LP_CHECK(lp_imatrix_writer_finish(w, &mods) == 0);
    lp_imatrix_writer_free(w);
    lp_interval_fini(&iv);
    save("rc.lpim", &buf, buf.size);
    save("rc-cut.lpim", &buf, cut);
    lp_membuf_free(&buf);

    LP_CHECK(run("info rc.lpim") == 0);
    LP_CHECK(has(out_text, "kind            interval-matrix, format version"));
    LP_CHECK(has(out_text, "interval length 1,000 instructions"));
    LP_CHECK(has(out_text, "types carried   method, block"));
    LP_CHECK(has(out_text, "intervals       3\n"));
    LP_CHECK(has(out_text, "instructions    2,500\n"));
    LP_CHECK(has(out_text, "interval sizes  500 to 1,000 instructions"));
    LP_CHECK(has(out_text, "ends            properly"));
    LP_CHECK(has_line(out_text, "program", "/bin/true", ""));
    LP_CHECK(has(out_text, self_module.path));
    LP_CHECK(run("info rc-cut.lpim") == 0);
    LP_CHECK(has(out_text, "ends            TRUNCATED after 3 intervals"));
    LP_CHECK(run("report rc.lpim") == 1);
    LP_CHECK(has(err_text, "rc.lpim: this is an interval-matrix file, not a profile"));
    unlink("rc.lpim");
    unlink("rc-cut.lpim");

    /* An event trace: 3 branches, 2 calls, 1 load. */
    lp_evtrace_writer *ew = NULL;
    LP_CHECK(lp_evtrace_writer_create(lp_membuf_sink(&buf), &meta, &ew) == 0);
    static const uint8_t kinds[] = {LP_EV_BRANCH, LP_EV_CALL, LP_EV_BRANCH,
                                    LP_EV_LOAD,   LP_EV_CALL, LP_EV_BRANCH};
    for (size_t k = 0; k < sizeof kinds; k++) {
        lp_event ev = {kinds[k], 0, kinds[k] == LP_EV_LOAD ? 4 : 0, 1, hot, 0, 0, 100 * k};
        LP_CHECK(lp_evtrace_writer_add(ew, &ev) == 0);
    }
    LP_CHECK(lp_evtrace_writer_finish(ew, &mods) == 0);
    lp_evtrace_writer_free(ew);
    save("rc.lpev", &buf, buf.size);
    lp_membuf_free(&buf);
    LP_CHECK(run("info rc.lpev") == 0);
    LP_CHECK(has(out_text, "kind            events, format version"));
    LP_CHECK(has(out_text, "events          6\n"));
    LP_CHECK(has(out_text, "    branch         3\n"));
    LP_CHECK(has(out_text, "    call           2\n"));
    LP_CHECK(has(out_text, "    load           1\n"));
    LP_CHECK(has(out_text, "instructions    500 (running count at the last event)"));
    LP_CHECK(has(out_text, "ends            properly"));
    unlink("rc.lpev");

    /* Several files at once: each described; one bad one makes the status 1. */
    LP_CHECK(write_profile("rc-a.lpprof", "yes") == 0);
    LP_CHECK(run("info rc-a.lpprof rc-nothing.lpprof rc-a.lpprof") == 1);
    LP_CHECK(strstr(out_text, "rc-a.lpprof\n") &&
             strstr(strstr(out_text, "rc-a.lpprof\n") + 1, "rc-a.lpprof\n"));
    LP_CHECK(has(err_text, "rc-nothing.lpprof: No such file or directory"));
    unlink("rc-a.lpprof");

    lp_meta_fini(&meta);
    lp_module_map_fini(&mods);
}

/* A module with no file to read (as a stripped library would be): code is
 * grouped by the function entries the profile witnessed. */
static void test_stripped(void)
{
    const uint64_t base = 0x7000000000ULL;
    lp_profile_set s;
    memset(&s, 0, sizeof s);
    lp_meta_set(&s.meta, "program", "/nonexistent/prog");
    lp_module_map_add(&s.modules, "/nonexistent/libfake.so.1", base, 0x10000, (int64_t)base, NULL,
                      0);
    put(&s, LP_PROF_METHOD, base + 0x100, 0, 10, 0);
    put(&s, LP_PROF_METHOD, base + 0x200, 0, 1, 0);
    put(&s, LP_PROF_CALL_PAIR, base + 0x210, base + 0x100, 7, 0);
    put(&s, LP_PROF_CALL_PAIR, base + 0x220, base + 0x100, 3, 0);
    put(&s, LP_PROF_BLOCK, base + 0x104, 0, 10, 40);
    put(&s, LP_PROF_BLOCK, base + 0x230, 0, 10, 60);
    put(&s, LP_PROF_BLOCK, base + 0x5000, 0, 1, 5); /* still the 0x200 function */
    put(&s, LP_PROF_BLOCK, base + 0x10, 0, 1, 1);   /* below every entry */
    lp_membuf buf = {0};
    LP_CHECK(lp_profile_file_write(&s, lp_membuf_sink(&buf)) == 0);
    save("rc-stripped.lpprof", &buf, buf.size);
    lp_membuf_free(&buf);
    lp_profile_set_fini(&s);

    LP_CHECK(run("report --type call-pair,block rc-stripped.lpprof") == 0);
    LP_CHECK(has_line(out_text, "10  100.00%", "2  libfake.so.1+0x200", "→ libfake.so.1+0x100"));
    LP_CHECK(has_line(out_text, "60", "0x7000000230", "libfake.so.1+0x230"));
    LP_CHECK(run("export --format folded rc-stripped.lpprof") == 0);
    LP_CHECK(strcmp(out_text, "libfake.so.1+0x200;libfake.so.1+0x100 10\n") == 0);
    LP_CHECK(run("export --format callgrind rc-stripped.lpprof") == 0);
    LP_CHECK(has(out_text, "fn=libfake.so.1+0x100\n0 40\n"));
    LP_CHECK(has(out_text, "fn=libfake.so.1+0x200\n0 65\n"));
    LP_CHECK(has(out_text, "fn=[libfake.so.1]\n0 1\n"));
    LP_CHECK(has(out_text, "cfn=libfake.so.1+0x100\ncalls=10 0\n0 0\n"));
    unlink("rc-stripped.lpprof");
}

static void test_bad_files(const char *file)
{
    /* A truncated profile: exit 1 and the error names file, offset, field. */
    uint8_t buf[1 << 16];
    FILE *f = fopen(file, "rb");
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    f = fopen("rc-truncated.lpprof", "wb");
    fwrite(buf, 1, n / 2, f);
    fclose(f);
    LP_CHECK(run("report rc-truncated.lpprof") == 1);
    LP_CHECK(has(err_text, "lowprof: rc-truncated.lpprof: offset "));
    LP_CHECK(run("info rc-truncated.lpprof") == 1);
    LP_CHECK(has(err_text, "lowprof: rc-truncated.lpprof: offset "));
    unlink("rc-truncated.lpprof");

    LP_CHECK(run("report rc-missing.lpprof") == 1);
    LP_CHECK(has(err_text, "lowprof: rc-missing.lpprof: No such file or directory"));
    f = fopen("rc-text.txt", "wb");
    fputs("this is not a profile\n", f);
    fclose(f);
    LP_CHECK(run("info rc-text.txt") == 1);
    LP_CHECK(has(err_text, "rc-text.txt: not a lowprof file"));
    LP_CHECK(run("export --format csv rc-text.txt") == 1);
    unlink("rc-text.txt");
}

static void test_csv_folded(const char *file)
{
    char want[256];
    LP_CHECK(run("export --format csv '%s'", file) == 0);
    const char *header = "type,key_a,key_b,v0,v1,function,file,line\n";
    LP_CHECK(strncmp(out_text, header, strlen(header)) == 0);
    snprintf(want, sizeof want, "code-region,0x%llx,0x0,1000,8000,lp_rt_hot,",
             (unsigned long long)(hot + 4));
    LP_CHECK(has(out_text, want));
    snprintf(want, sizeof want, "test_readcmds.c,%d\n", lp_hot_line);
    LP_CHECK(has(out_text, want));
    snprintf(want, sizeof want, "value,0x%llx,0x2a,900,4,lp_rt_hot,",
             (unsigned long long)(hot + 4));
    LP_CHECK(has(out_text, want));

    /* folded: two frames per line, calls summed over sites */
    LP_CHECK(run("export --format folded -o rc-folded.txt '%s'", file) == 0);
    slurp("rc-folded.txt", out_text, sizeof out_text);
    LP_CHECK(has(out_text, "lp_rt_caller;lp_rt_hot 1500\n"));
    LP_CHECK(has(out_text, "lp_rt_caller;lp_rt_warm 200\n"));
    unlink("rc-folded.txt");
    /* an OUT that cannot be written: exit 1, naming it */
    LP_CHECK(run("export --format csv -o rc-no-dir/out.csv '%s'", file) == 1);
    LP_CHECK(has(err_text, "lowprof: rc-no-dir/out.csv: "));
    /* -o leaves no temporary behind */
    LP_CHECK(access(".rc-folded.txt.XXXXXX", F_OK) != 0);
}

static int test_json(const char *file)
{
    if (system("command -v jq >/dev/null 2>&1") != 0) {
        printf("jq is not installed: skipped\n");
        return 77;
    }
    LP_CHECK(run("export --format json -o rc.json '%s'", file) == 0);
    char cmd[512];
    /* jq -e fails unless the expression is true: the document parses and the
     * named fields hold the known values. */
    snprintf(cmd, sizeof cmd,
             "jq -e '[.profiles[] | select(.type == \"code-region\") | .entries[] "
             "| select(.function == \"lp_rt_hot\")][0] | .v0 == 1000 and .v1 == 8000 "
             "and .line == %d and .a == \"0x%llx\"' rc.json >/dev/null",
             lp_hot_line, (unsigned long long)(hot + 4));
    LP_CHECK(system(cmd) == 0);
    LP_CHECK(system("jq -e '.meta.args == \"--known \\\"quoted\\\", arguments\"' rc.json "
                    ">/dev/null") == 0);
    LP_CHECK(system("jq -e '[.profiles[] | select(.type == \"call-pair\") | .entries[] "
                    "| select(.b_function == \"lp_rt_hot\") | .v0] | add == 1500' rc.json "
                    ">/dev/null") == 0);
    LP_CHECK(system("jq -e '.modules | length >= 1' rc.json >/dev/null") == 0);
    unlink("rc.json");
    return lp_test_done();
}

static int test_callgrind(const char *file)
{
    char want[256];
    if (system("command -v callgrind_annotate >/dev/null 2>&1") != 0) {
        printf("callgrind_annotate is not installed: skipped\n");
        return 77;
    }
    LP_CHECK(run("export --format callgrind -o rc.callgrind '%s'", file) == 0);
    slurp("rc.callgrind", out_text, sizeof out_text);
    LP_CHECK(has(out_text, "events: Ir\n"));
    LP_CHECK(has(out_text, "fn=lp_rt_hot\n"));
    snprintf(want, sizeof want, "cfn=lp_rt_hot\ncalls=1000 %d\n%u 0\n", lp_hot_line,
             lp_site_line[0]);
    LP_CHECK(has(out_text, want));
    FILE *p = popen("callgrind_annotate --inclusive=no rc.callgrind 2>&1", "r");
    size_t n = p ? fread(out_text, 1, sizeof out_text - 1, p) : 0;
    out_text[n] = '\0';
    int st = p ? pclose(p) : -1;
    LP_CHECK(st == 0);
    printf("%s", out_text);
    /* the block profile's 10,000 instructions, 6,000 of them in lp_rt_hot */
    LP_CHECK(has(out_text, "10,000"));
    LP_CHECK(has_line(out_text, "6,000", "test_readcmds.c:lp_rt_hot", ""));
    LP_CHECK(has_line(out_text, "3,000", "test_readcmds.c:lp_rt_warm", ""));
    LP_CHECK(strstr(out_text, "WARNING") == NULL);
    unlink("rc.callgrind");
    return lp_test_done();
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_readcmds LOWPROF report|json|callgrind\n");
        return 2;
    }
    /* Each mode works in a directory of its own, so the modes can run in
     * parallel. */
    lowprof = realpath(argv[1], NULL);
    char dir[] = "/tmp/lowprof-readcmds-XXXXXX";
    if (!lowprof || !mkdtemp(dir) || chdir(dir) != 0 || find_modules() != 0) {
        fprintf(stderr, "could not set up: %s\n", argv[1]);
        return 1;
    }
    const char *file = "rc.lpprof";
    if (write_profile(file, "yes") < 0) {
        fprintf(stderr, "could not write the test profile\n");
        return 1;
    }
    int status;
    if (strcmp(argv[2], "json") == 0) {
        status = test_json(file);
    } else if (strcmp(argv[2], "callgrind") == 0) {
        status = test_callgrind(file);
    } else {
        test_report(file);
        test_info(file);
        test_info_other_kinds();
        test_stripped();
        test_incomplete();
        test_bad_files(file);
        test_csv_folded(file);
        status = lp_test_done();
    }
    if (getenv("LP_TEST_KEEP")) { /* keep the profile to look at by hand */
        printf("kept %s/%s\n", dir, file);
    } else {
        unlink(file);
        if (chdir("/") == 0)
            rmdir(dir);
    }
    free(self_module.path);
    free(libc_module.path);
    free((char *)lowprof);
    return status;
}
