/* `lowprof export --format pprof` read back by the real pprof.
 *
 * usage: check_pprof errors LOWPROF WORKDIR
 *        check_pprof pprof LOWPROF WORKDIR PPROF_PROG PPROF_DIR [INLINE_PROG INLINE_SRC]
 *
 * errors: profiles without any type pprof can carry (only an edge profile;
 * no profile at all) fail with exit 1 and the exporter's message; a method
 * profile exports as a gzip stream.
 *
 * pprof: records pprof_prog.c (hottest by instructions: heavy, medium; by
 * invocations and calls: light with 40,000), exports it, and runs pprof
 * -top for each sample type. Its hottest five functions, in its own order,
 * must carry the counts that `lowprof report --top 0` gives the same
 * functions (block rows summed per function for instructions and
 * executions, method rows for invocations, call-pair rows summed per callee
 * for calls), and the default sample type, comments and the program's
 * build id must come through. pprof is built once from Debian's Go sources
 * (golang-github-google-pprof-dev) into PPROF_DIR; without go or those
 * sources the check skips (77). LOWPROF_PPROF names a pprof to use
 * instead.
 *
 * With INLINE_PROG (tests/llvm_sample/sample_prog.c, whose mix() the
 * compiler inlines into hot_sum's loop; INLINE_SRC is that file): in
 * `pprof -raw`, some location has two lines, mix at a line of its body
 * first, then hot_sum at the line of the call, as pprof wants inlined code;
 * and `pprof -top` gives mix instructions of its own (as "mix (inline)").
 *
 * Then PPROF_PROG recorded with --profile block,context: the context type
 * has whole stacks (main's cumulative count holds heavy's and medium's),
 * and per function the same instructions as the instructions type. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../unit/lp_test.h"
#include "lp_itest.h"

#define TOP 5

/* ---- per-function counts ------------------------------------------------------ */

typedef struct fn_count {
    char name[256];
    uint64_t count;
    uint64_t cum; /* pprof -top's cumulative count (its rows only) */
} fn_count;

typedef struct fn_counts {
    fn_count *items;
    size_t n, cap;
} fn_counts;

static void counts_add(fn_counts *c, const char *name, size_t len, uint64_t v)
{
    if (len >= sizeof c->items[0].name)
        len = sizeof c->items[0].name - 1;
    for (size_t i = 0; i < c->n; i++)
        if (strncmp(c->items[i].name, name, len) == 0 && c->items[i].name[len] == '\0') {
            c->items[i].count += v;
            return;
        }
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 256;
        c->items = realloc(c->items, c->cap * sizeof *c->items);
        if (!c->items)
            exit(1);
    }
    fn_count *x = &c->items[c->n++];
    memcpy(x->name, name, len);
    x->name[len] = '\0';
    x->count = v;
}

static const fn_count *counts_find(const fn_counts *c, const char *name)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->items[i].name, name) == 0)
            return &c->items[i];
    return NULL;
}

static int count_order(const void *x, const void *y)
{
    const fn_count *a = x, *b = y;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* "12,345" -> 12345; *end past the number. */
static uint64_t parse_count(const char *p, const char **end)
{
    uint64_t v = 0;
    while (*p == ' ')
        p++;
    for (; (*p >= '0' && *p <= '9') || *p == ','; p++)
        if (*p != ',')
            v = v * 10 + (uint64_t)(*p - '0');
    *end = p;
    return v;
}

/* Skips n whitespace-separated fields. */
static const char *skip_fields(const char *p, int n)
{
    for (int i = 0; i < n; i++) {
        while (*p == ' ')
            p++;
        while (*p && *p != ' ')
            p++;
    }
    while (*p == ' ')
        p++;
    return p;
}

/* The function part of "name (file:line, module)". */
static size_t name_len(const char *desc)
{
    const char *paren = strstr(desc, " (");
    size_t len = paren ? (size_t)(paren - desc) : strcspn(desc, "\n");
    return len;
}

/* ---- lowprof report --------------------------------------------------------------- */

typedef struct report_counts {
    fn_counts insns, execs, invocations, calls;
} report_counts;

static void parse_report(const char *path, report_counts *r)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    char line[4096];
    enum { NONE, BLOCKS, METHODS, PAIRS } section = NONE;
    int heading = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "Hot basic blocks:", 17) == 0)
            section = BLOCKS, heading = 1;
        else if (strncmp(line, "Hot methods:", 12) == 0)
            section = METHODS, heading = 1;
        else if (strncmp(line, "Hot call pairs:", 15) == 0)
            section = PAIRS, heading = 1;
        else if (line[0] != ' ')
            section = NONE;
        else if (heading)
            heading = 0; /* the column titles */
        else if (section == BLOCKS) {
            /* instructions % executions insns/exec block function (location) */
            const char *p;
            uint64_t insns = parse_count(line, &p);
            p = skip_fields(p, 1);
            uint64_t execs = parse_count(p, &p);
            const char *desc = skip_fields(p, 2);
            counts_add(&r->insns, desc, name_len(desc), insns);
            counts_add(&r->execs, desc, name_len(desc), execs);
        } else if (section == METHODS) {
            /* invocations % backward entry function (location) */
            const char *p;
            uint64_t n = parse_count(line, &p);
            const char *desc = skip_fields(p, 3);
            counts_add(&r->invocations, desc, name_len(desc), n);
        } else if (section == PAIRS) {
            /* calls % tail-calls sites caller (location) → callee (location) */
            const char *p;
            uint64_t n = parse_count(line, &p);
            const char *arrow = strstr(p, "\xe2\x86\x92 ");
            if (arrow) {
                const char *callee = arrow + 4;
                counts_add(&r->calls, callee, name_len(callee), n);
            }
        }
    }
    fclose(f);
}

/* ---- pprof ---------------------------------------------------------------------- */

/* An executable named prog on PATH, into buf; 0 if none. */
static int find_on_path(const char *prog, char *buf, size_t size)
{
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t len = strcspn(path, ":");
        snprintf(buf, size, "%.*s/%s", (int)len, path, prog);
        if (access(buf, X_OK) == 0)
            return 1;
        path += len + (path[len] == ':');
    }
    /* Debian's golang-go puts go here and links it into /usr/bin. */
    snprintf(buf, size, "/usr/lib/go/bin/%s", prog);
    return access(buf, X_OK) == 0;
}

/* The pprof to run, built into dir on first use. Exits 77 when it cannot
 * be had. */
static void get_pprof(const char *dir, char *out, size_t size)
{
    const char *env = getenv("LOWPROF_PPROF");
    if (env && env[0]) {
        snprintf(out, size, "%s", env);
        return;
    }
    snprintf(out, size, "%s/pprof", dir);
    if (access(out, X_OK) == 0)
        return;
    char go[1024];
    const char *src = "/usr/share/gocode/src/github.com/google/pprof/pprof.go";
    if (!find_on_path("go", go, sizeof go)) {
        printf("SKIP: no go compiler (Debian: golang-go) to build pprof\n");
        exit(77);
    }
    if (access(src, R_OK) != 0) {
        printf("SKIP: no pprof sources at %s (Debian: golang-github-google-pprof-dev)\n", src);
        exit(77);
    }
    mkdir(dir, 0755);
    char cache[1200], home[1200], tmp[1200], log[1200];
    snprintf(cache, sizeof cache, "GOCACHE=%s/gocache", dir);
    snprintf(home, sizeof home, "HOME=%s", dir);
    snprintf(tmp, sizeof tmp, "%s/pprof.tmp", dir);
    snprintf(log, sizeof log, "%s/go-build.log", dir);
    /* GOPATH mode over Debian's Go source packages: no network, no module
     * proxy. */
    char *argv[] = {"/usr/bin/env", "GO111MODULE=off", "GOPATH=/usr/share/gocode", "GOFLAGS=",
                    "GOPROXY=off", cache, home, go, "build", "-o", tmp,
                    "github.com/google/pprof", NULL};
    int st = lp_itest_run(argv, log);
    if (st != 0) {
        if (lp_itest_file_has(log, "cannot find package")) {
            printf("SKIP: pprof's Go dependencies are not installed (see %s)\n", log);
            exit(77);
        }
        fprintf(stderr, "building pprof failed (exit %d), see %s\n", st, log);
        exit(1);
    }
    if (rename(tmp, out) != 0) {
        fprintf(stderr, "cannot rename %s to %s\n", tmp, out);
        exit(1);
    }
}

/* pprof -top's rows (flat, name) in its order, from log. */
static void parse_top(const char *log, fn_counts *rows, char *type, size_t type_size)
{
    FILE *f = fopen(log, "r");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", log);
        exit(1);
    }
    char line[4096];
    int in_rows = 0;
    type[0] = '\0';
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "Type: ", 6) == 0)
            snprintf(type, type_size, "%.*s", (int)strcspn(line + 6, "\n"), line + 6);
        if (strstr(line, "flat  flat%")) {
            in_rows = 1;
            continue;
        }
        if (!in_rows)
            continue;
        const char *p;
        uint64_t flat = parse_count(line, &p);
        p = skip_fields(p, 2); /* flat%, sum% */
        uint64_t cum = parse_count(p, &p);
        const char *name = skip_fields(p, 1);
        size_t len = strcspn(name, "\n");
        if (len == 0)
            continue;
        /* Rows are unique per function: append in order, never merge. */
        if (rows->n == rows->cap) {
            rows->cap = rows->cap ? rows->cap * 2 : 256;
            rows->items = realloc(rows->items, rows->cap * sizeof *rows->items);
            if (!rows->items)
                exit(1);
        }
        fn_count *x = &rows->items[rows->n++];
        snprintf(x->name, sizeof x->name, "%.*s", (int)len, name);
        x->count = flat;
        x->cum = cum;
    }
    fclose(f);
}

/* pprof -top for one sample type against the report's per-function counts:
 * pprof's first TOP rows have the counts of the report's TOP hottest, in
 * order, and each row's function has that count in the report (so ties
 * may come in either order). Returns pprof's rows. */
static fn_counts check_top(const char *pprof, const char *file, const char *dir,
                           const char *index, fn_counts *report)
{
    char arg[64], log[1200], type[64];
    snprintf(arg, sizeof arg, "-sample_index=%s", index);
    snprintf(log, sizeof log, "%s/top-%s.txt", dir, index);
    /* -noinlines: counts in inlined code stay with the function the symbol
     * table names, as the report groups them (check_inline looks at the
     * inlined levels). */
    char *argv[] = {(char *)pprof, "-top", "-noinlines", "-nodecount=100000", "-nodefraction=0",
                    "-edgefraction=0", arg, (char *)file, NULL};
    int st = lp_itest_run(argv, log);
    LP_CHECK_EQ_U64(st, 0);
    fn_counts rows = {0};
    parse_top(log, &rows, type, sizeof type);
    LP_CHECK(strcmp(type, index) == 0);
    qsort(report->items, report->n, sizeof *report->items, count_order);
    printf("\n%s: pprof -top | lowprof report (per function)\n", index);
    for (size_t i = 0; i < TOP; i++) {
        const fn_count *p = i < rows.n ? &rows.items[i] : NULL;
        const fn_count *r = i < report->n ? &report->items[i] : NULL;
        printf("  %12llu %-24s | %12llu %s\n", p ? (unsigned long long)p->count : 0ULL,
               p ? p->name : "-", r ? (unsigned long long)r->count : 0ULL, r ? r->name : "-");
        LP_CHECK(p != NULL && r != NULL);
        if (!p || !r)
            continue;
        LP_CHECK_EQ_U64(p->count, r->count);
        const fn_count *same = counts_find(report, p->name);
        LP_CHECK(same != NULL);
        if (same)
            LP_CHECK_EQ_U64(same->count, p->count);
    }
    return rows;
}

static const fn_count *row(const fn_counts *rows, size_t i)
{
    static const fn_count none = {"", 0, 0};
    return i < rows->n ? &rows->items[i] : &none;
}

/* The number of the first line of path that contains text; 0 if none. */
static unsigned source_line(const char *path, const char *text)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    unsigned n = 0, found = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        n++;
        if (strstr(line, text))
            found = n;
    }
    if (f)
        fclose(f);
    return found;
}

/* Records prog (with --profile profiles, unless NULL) into prof,
 * dir/NAME.lpprof, and exports it as out, dir/NAME.pb.gz (both 1100
 * bytes); 77 when the Valgrind tool is missing, 1 on a failure, else 0. */
static int record_export(const char *lowprof, const char *dir, const char *name,
                         const char *profiles, const char *prog, char *prof, char *out)
{
    char log[1100];
    snprintf(prof, 1100, "%s/%s.lpprof", dir, name);
    snprintf(log, sizeof log, "%s/%s-record.log", dir, name);
    char *rec[] = {(char *)lowprof, "record", "-o", prof, "--no-imatrix", "--profile",
                   (char *)profiles, "--", (char *)prog, NULL};
    if (!profiles) /* the defaults */
        memmove(&rec[5], &rec[7], 3 * sizeof *rec);
    int st = lp_itest_run(rec, log);
    if (st != 0 && lp_itest_vgtool_missing(log)) {
        printf("SKIP: the Valgrind tool is not available\n");
        return 77;
    }
    if (st != 0) {
        fprintf(stderr, "lowprof record failed (%d), see %s\n", st, log);
        return 1;
    }
    snprintf(out, 1100, "%s/%s.pb.gz", dir, name);
    snprintf(log, sizeof log, "%s/%s-export.log", dir, name);
    char *exp[] = {(char *)lowprof, "export", "--format", "pprof", "-o", out, prof, NULL};
    return lp_itest_run(exp, log) == 0 ? 0 : 1;
}

/* Calling contexts (record --profile context) become whole stacks: per
 * function, the context type's flat count is the instructions type's (both
 * exact, the instructions executed in the function itself), and main's
 * cumulative count holds its callees'. */
static void check_contexts(const char *lowprof, const char *dir, const char *pprof,
                           const char *prog)
{
    char prof[1100], out[1100];
    int st = record_export(lowprof, dir, "ctx", "block,context", prog, prof, out);
    LP_CHECK_EQ_U64(st, 0);
    if (st)
        return;
    char flat_i[1200], flat_c[1200], cum[1200], type[64];
    snprintf(flat_i, sizeof flat_i, "%s/ctx-top-insns.txt", dir);
    snprintf(flat_c, sizeof flat_c, "%s/ctx-top-ctx.txt", dir);
    snprintf(cum, sizeof cum, "%s/ctx-top-cum.txt", dir);
    char *ti[] = {(char *)pprof, "-top", "-noinlines", "-sample_index=instructions", out, NULL};
    char *tc[] = {(char *)pprof, "-top", "-noinlines", "-sample_index=context_instructions", out,
                  NULL};
    char *tu[] = {(char *)pprof, "-top", "-cum", "-noinlines", "-nodecount=100000",
                  "-sample_index=context_instructions", out, NULL};
    LP_CHECK_EQ_U64(lp_itest_run(ti, flat_i), 0);
    LP_CHECK_EQ_U64(lp_itest_run(tc, flat_c), 0);
    LP_CHECK_EQ_U64(lp_itest_run(tu, cum), 0);
    fn_counts ri = {0}, rc = {0}, rm = {0};
    parse_top(flat_i, &ri, type, sizeof type);
    parse_top(cum, &rm, type, sizeof type);
    parse_top(flat_c, &rc, type, sizeof type);
    LP_CHECK(strcmp(type, "context_instructions") == 0);
    const fn_count *hi = counts_find(&ri, "heavy"), *hc = counts_find(&rc, "heavy");
    const fn_count *mi = counts_find(&ri, "medium"), *mc = counts_find(&rc, "medium");
    LP_CHECK(hi && hc && hi->count == hc->count && hc->count > 0);
    LP_CHECK(mi && mc && mi->count == mc->count && mc->count > 0);
    const fn_count *m = counts_find(&rm, "main");
    uint64_t main_cum = m ? m->cum : 0;
    printf("\ncontexts: heavy %llu, medium %llu instructions in both types; main's cumulative %llu\n",
           hc ? (unsigned long long)hc->count : 0ULL, mc ? (unsigned long long)mc->count : 0ULL,
           (unsigned long long)main_cum);
    LP_CHECK(hc && mc && main_cum >= hc->count + mc->count);
    free(ri.items);
    free(rc.items);
    free(rm.items);
}

/* Inlined code: one line per inline level, innermost first. */
static void check_inline(const char *lowprof, const char *dir, const char *pprof,
                         const char *prog, const char *src)
{
    char prof[1100], out[1100], raw[1200];
    int rc = record_export(lowprof, dir, "inline", NULL, prog, prof, out);
    LP_CHECK_EQ_U64(rc, 0);
    if (rc)
        return;
    unsigned body = source_line(src, "return (a << 5)"), call = source_line(src, "acc = mix(acc, i)");
    LP_CHECK(body > 0 && call > 0);
    snprintf(raw, sizeof raw, "%s/inline-raw.txt", dir);
    char *rw[] = {(char *)pprof, "-raw", out, NULL};
    LP_CHECK_EQ_U64(lp_itest_run(rw, raw), 0);
    /* "  N: 0xADDR M=1 mix FILE:LINE s=DECL" then "      hot_sum FILE:LINE s=..." */
    FILE *f = fopen(raw, "r");
    char line[4096], inner[1200], outer[1200];
    snprintf(inner, sizeof inner, " mix %s:%u ", src, body);
    snprintf(outer, sizeof outer, " hot_sum %s:%u ", src, call);
    int pairs = 0, prev_inner = 0;
    while (f && fgets(line, sizeof line, f)) {
        int is_location = strstr(line, ": 0x") != NULL;
        if (prev_inner && !is_location && strstr(line, outer))
            pairs++;
        prev_inner = is_location && strstr(line, inner) != NULL;
    }
    if (f)
        fclose(f);
    printf("\ninlined: %d locations read mix:%u inside hot_sum:%u\n", pairs, body, call);
    LP_CHECK(pairs > 0);
    char top[1200], type[64];
    snprintf(top, sizeof top, "%s/inline-top.txt", dir);
    char *tp[] = {(char *)pprof, "-top", "-nodecount=100000", "-sample_index=instructions", out,
                  NULL};
    LP_CHECK_EQ_U64(lp_itest_run(tp, top), 0);
    fn_counts rows = {0};
    parse_top(top, &rows, type, sizeof type);
    const fn_count *mix = counts_find(&rows, "mix (inline)");
    LP_CHECK(mix != NULL && mix->count > 0);
    free(rows.items);
}

static int check_pprof(const char *lowprof, const char *dir, const char *prog,
                       const char *pprof_dir, const char *inline_prog, const char *inline_src)
{
    char prof[1100], report[1100], out[1100];
    int st = record_export(lowprof, dir, "prog", NULL, prog, prof, out);
    if (st)
        return st;
    snprintf(report, sizeof report, "%s/report.txt", dir);
    char *rep[] = {(char *)lowprof, "report", "--top", "0", "--type", "block,method,call-pair",
                   prof, NULL};
    LP_CHECK_EQ_U64(lp_itest_run(rep, report), 0);

    char pprof[1200];
    get_pprof(pprof_dir, pprof, sizeof pprof);

    report_counts r = {0};
    parse_report(report, &r);
    LP_CHECK(r.insns.n > 0 && r.invocations.n > 0 && r.calls.n > 0);
    fn_counts insns = check_top(pprof, out, dir, "instructions", &r.insns);
    fn_counts execs = check_top(pprof, out, dir, "executions", &r.execs);
    fn_counts inv = check_top(pprof, out, dir, "invocations", &r.invocations);
    fn_counts calls = check_top(pprof, out, dir, "calls", &r.calls);
    /* What the program was written to do. */
    LP_CHECK(strcmp(row(&insns, 0)->name, "heavy") == 0);
    LP_CHECK(strcmp(row(&insns, 1)->name, "medium") == 0);
    LP_CHECK(strcmp(row(&inv, 0)->name, "light") == 0);
    LP_CHECK_EQ_U64(row(&inv, 0)->count, 40000);
    LP_CHECK(strcmp(row(&calls, 0)->name, "light") == 0);
    LP_CHECK_EQ_U64(row(&calls, 0)->count, 40000);
    const fn_count *med = counts_find(&inv, "medium"), *hv = counts_find(&inv, "heavy");
    LP_CHECK(med && med->count == 200);
    LP_CHECK(hv && hv->count == 20);
    free(insns.items);
    free(execs.items);
    free(inv.items);
    free(calls.items);
    free(r.insns.items);
    free(r.execs.items);
    free(r.invocations.items);
    free(r.calls.items);

    /* The default sample type is the report's first quantity. */
    char top[1200], type[64];
    snprintf(top, sizeof top, "%s/top-default.txt", dir);
    char *def[] = {pprof, "-top", "-nodecount=3", out, NULL};
    LP_CHECK_EQ_U64(lp_itest_run(def, top), 0);
    fn_counts d = {0};
    parse_top(top, &d, type, sizeof type);
    LP_CHECK(strcmp(type, "instructions") == 0);
    free(d.items);

    /* Comments, and the mapping with the program's build id. */
    char comments[1200], raw[1200], expect[1200];
    snprintf(comments, sizeof comments, "%s/comments.txt", dir);
    char *com[] = {pprof, "-comments", out, NULL};
    LP_CHECK_EQ_U64(lp_itest_run(com, comments), 0);
    snprintf(expect, sizeof expect, "command: %s", prog);
    LP_CHECK(lp_itest_file_has(comments, expect));
    LP_CHECK(lp_itest_file_has(comments, "counts: exact"));
    lp_profile_set set;
    lp_itest_load(prof, &set);
    const lp_module *main_module = NULL;
    for (size_t i = 0; i < set.modules.count; i++)
        if (strcmp(set.modules.items[i].path, prog) == 0)
            main_module = &set.modules.items[i];
    LP_CHECK(main_module && main_module->build_id_len > 0);
    if (main_module) {
        char hex[65] = "";
        for (size_t k = 0; k < main_module->build_id_len && k < 32; k++)
            snprintf(hex + 2 * k, 3, "%02x", main_module->build_id[k]);
        snprintf(raw, sizeof raw, "%s/raw.txt", dir);
        char *rw[] = {pprof, "-raw", out, NULL};
        LP_CHECK_EQ_U64(lp_itest_run(rw, raw), 0);
        snprintf(expect, sizeof expect, "%s %s [FN][FL][LN]", prog, hex);
        LP_CHECK(lp_itest_file_has(raw, expect));
    }
    lp_profile_set_fini(&set);
    check_contexts(lowprof, dir, pprof, prog);
    if (inline_prog)
        check_inline(lowprof, dir, pprof, inline_prog, inline_src);
    return lp_test_done();
}

/* ---- bad input ---------------------------------------------------------------------- */

static void write_profile(const char *path, unsigned type)
{
    lp_profile_set s;
    memset(&s, 0, sizeof s);
    lp_meta_set(&s.meta, "program", "/bin/true");
    if (type) {
        lp_profile *p;
        if (lp_profile_set_add(&s, type, LP_PHASE_NONE, &p) != 0)
            exit(1);
        lp_entry *e = lp_table_upsert(&p->table, (lp_key){0x401000, 0x401020});
        e->v[0] = 5;
    }
    lp_membuf buf = {0};
    if (lp_profile_file_write(&s, lp_membuf_sink(&buf)) != 0)
        exit(1);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf.data, 1, buf.size, f) != buf.size || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
    lp_membuf_free(&buf);
    lp_profile_set_fini(&s);
}

static int check_errors(const char *lowprof, const char *dir)
{
    char prof[1100], log[1100], out[1100];
    snprintf(log, sizeof log, "%s/export.log", dir);
    snprintf(out, sizeof out, "%s/out.pb.gz", dir);
    /* Nothing pprof can carry: an edge profile, or no profile at all. */
    unsigned unusable[] = {LP_PROF_EDGE, 0};
    unlink(out); /* left by an earlier run */
    for (size_t i = 0; i < 2; i++) {
        snprintf(prof, sizeof prof, "%s/bad%zu.lpprof", dir, i);
        write_profile(prof, unusable[i]);
        char *argv[] = {(char *)lowprof, "export", "--format", "pprof", "-o", out, prof, NULL};
        LP_CHECK_EQ_U64(lp_itest_run(argv, log), 1);
        LP_CHECK(lp_itest_file_has(log, "pprof needs a block, code-region, method, call-pair, "
                                        "call-graph or context profile"));
        LP_CHECK(access(out, F_OK) != 0);
    }
    /* A method profile alone is enough: a gzip stream comes out. */
    snprintf(prof, sizeof prof, "%s/methods.lpprof", dir);
    write_profile(prof, LP_PROF_METHOD);
    char *argv[] = {(char *)lowprof, "export", "--format", "pprof", "-o", out, prof, NULL};
    LP_CHECK_EQ_U64(lp_itest_run(argv, log), 0);
    FILE *f = fopen(out, "rb");
    unsigned char magic[2] = {0, 0};
    LP_CHECK(f && fread(magic, 1, 2, f) == 2);
    if (f)
        fclose(f);
    LP_CHECK(magic[0] == 0x1f && magic[1] == 0x8b);
    return lp_test_done();
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "errors") == 0) {
        mkdir(argv[3], 0755);
        return check_errors(argv[2], argv[3]);
    }
    if (argc >= 6 && strcmp(argv[1], "pprof") == 0) {
        mkdir(argv[3], 0755);
        return check_pprof(argv[2], argv[3], argv[4], argv[5], argc >= 8 ? argv[6] : NULL,
                           argc >= 8 ? argv[7] : NULL);
    }
    fprintf(stderr, "usage: check_pprof errors LOWPROF WORKDIR\n"
                    "       check_pprof pprof LOWPROF WORKDIR PPROF_PROG PPROF_DIR "
                    "[INLINE_PROG INLINE_SRC]\n");
    return 2;
}
