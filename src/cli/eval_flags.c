/* lowprof eval flag-prediction: the profile flag predictor of paper 002
 * (section IV) on real instrumented programs.
 *
 * Each program is compiled with clang's -fsanitize-coverage=trace-pc-guard
 * and a small counting callback, recorded under the Valgrind front end with
 * `lowprof record --trace` (calls, returns, blocks), and every call to
 * __sanitizer_cov_trace_pc_guard becomes one instance of a profile block:
 *
 *   leader  the call's site (the event's pc); the instruction before it,
 *           which loads the guard's address into %rdi, belongs to the block
 *           but has no event of its own, so the call stands for the block;
 *   follow  the instruction after the call (the return's destination);
 *   length  2 (that load and the call) plus the callback's instructions up
 *           to and including its return, summed from the thread's block
 *           events between the call and the return.
 *
 * The flag each instance sees is the runtime's window policy on the
 * recorded instruction count: on for the first duty share of every period,
 * in every instrumented method or only in the hottest ones (the paper's 10
 * hottest methods). One predictor per (scope, duty), plus a sweep of table
 * shapes, replays the instances in one pass over the trace. The hot methods
 * and the guard sites come from the recording's own exhaustive profile.
 *
 * Tuned for: traces of tens of millions of events read once; memory does
 * not grow with the trace (the predictors and the site table only). */
#define _GNU_SOURCE /* realpath, strdup */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "eval_cmp.h"
#include "lowprof/flags.h"
#include "lowprof/symbols.h"

#ifndef LP_WL_MANIFEST
#define LP_WL_MANIFEST "workloads/suite.tsv"
#endif

#define EF_CALLBACK "__sanitizer_cov_trace_pc_guard"
#define EF_MAX_DUTIES 8
#define EF_SWEEP_DUTY 25

/* The table shapes of the size sweep (the paper settled on 64 x 2). */
static const unsigned sweep_sets[] = {16, 64, 256, 1024};
static const unsigned sweep_ways[] = {1, 2, 4};
enum {
    N_SWEEP_SETS = sizeof sweep_sets / sizeof sweep_sets[0],
    N_SWEEP_WAYS = sizeof sweep_ways / sizeof sweep_ways[0],
    N_SWEEP = N_SWEEP_SETS * N_SWEEP_WAYS,
};

typedef struct ef_opts {
    int full;
    int keep_traces;
    const char *out;      /* absolute, created */
    const char *size;     /* the native programs' size word */
    const char *list;     /* --workloads */
    const char *programs; /* --program */
    const char *clang;
    uint64_t period;
    unsigned duties[EF_MAX_DUTIES];
    size_t nduties;
    unsigned hot;
    lp_pfpred_config pred;
    uint64_t trace_limit;
} ef_opts;

/* A program to build and record. */
typedef struct ef_program {
    char name[64];
    char **sources; /* instrumented */
    size_t nsources;
    char *support; /* a folder of uninstrumented support sources, or NULL */
    char *arg;     /* its one argument, or NULL */
} ef_program;

enum { EF_SCOPE_ALL, EF_SCOPE_HOT, EF_NSCOPES };

/* What one program gave. */
typedef struct ef_result {
    char name[64];
    int ok;
    int truncated;               /* the trace stopped at --trace-limit */
    uint64_t program_insns;      /* instructions of the run the trace covers */
    uint64_t events;
    uint64_t sites;              /* static profile blocks (guard call sites) */
    uint64_t instances;          /* block instances replayed */
    uint64_t profile_insns;      /* their instructions */
    uint64_t hot_instances;      /* instances in the hot methods */
    uint32_t len_min, len_max;
    uint64_t unmatched;          /* guard calls with no return seen */
    uint64_t icount_mismatch;    /* instances whose icount delta is not the block sum */
    uint64_t profile_disagree;   /* sites whose trace count differs from the profile's */
    char hot_names[1024];
    unsigned nhot;
    lp_pfpred_stats stats[EF_NSCOPES][EF_MAX_DUTIES];
    /* What a perfect predictor would save: length - 1 for every instance
     * that sees its flag off. */
    uint64_t possible[EF_NSCOPES][EF_MAX_DUTIES];
    lp_pfpred_stats sweep[N_SWEEP];
} ef_result;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int make_dir(const char *dir)
{
    return mkdir(dir, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

/* True if name is one of the comma-separated names of list (NULL: all). */
static int listed(const char *list, const char *name)
{
    if (!list)
        return 1;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, name, n) == 0)
            return 1;
        p += len + (p[len] == ',');
    }
    return 0;
}

/* Parses a count with an optional K or M (decimal) suffix; 0 or -1. */
static int parse_count(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *s == '-')
        return -1;
    if (*end == 'K' || *end == 'k')
        v *= 1000ULL, end++;
    else if (*end == 'M' || *end == 'm')
        v *= 1000000ULL, end++;
    if (*end)
        return -1;
    *out = v;
    return 0;
}

/* ---- programs ---------------------------------------------------------------- */

static void program_fini(ef_program *p)
{
    for (size_t i = 0; i < p->nsources; i++)
        free(p->sources[i]);
    free(p->sources);
    free(p->support);
    free(p->arg);
}

static int program_add_source(ef_program *p, const char *path)
{
    char **s = realloc(p->sources, (p->nsources + 1) * sizeof *s);
    if (!s)
        return -1;
    p->sources = s;
    if (!(s[p->nsources] = strdup(path)))
        return -1;
    p->nsources++;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_program(const void *a, const void *b)
{
    return strcmp(((const ef_program *)a)->name, ((const ef_program *)b)->name);
}

/* --program: each file a whole program. */
static int programs_from_files(const char *files, ef_program **out, size_t *out_n)
{
    for (const char *p = files; *p;) {
        size_t len = strcspn(p, ",");
        char path[PATH_MAX];
        if (len == 0 || len >= sizeof path)
            return lp_cli_usage("eval flag-prediction", "bad --program list '%s'", files);
        memcpy(path, p, len);
        path[len] = '\0';
        p += len + (p[len] == ',');
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        size_t blen = strlen(base);
        if (blen < 3 || strcmp(base + blen - 2, ".c") != 0 || blen - 2 >= 64)
            return lp_cli_usage("eval flag-prediction", "--program: '%s' is not a NAME.c file",
                                path);
        ef_program *np = realloc(*out, (*out_n + 1) * sizeof *np);
        if (!np)
            return lp_cli_fail("out of memory");
        *out = np;
        ef_program *prog = &np[(*out_n)++];
        memset(prog, 0, sizeof *prog);
        memcpy(prog->name, base, blen - 2);
        char abs[PATH_MAX];
        if (!realpath(path, abs))
            return lp_cli_fail("%s: %s", path, strerror(errno));
        if (program_add_source(prog, abs) != 0)
            return lp_cli_fail("out of memory");
    }
    return 0;
}

/* The native programs' folder: workloads/native, beside the suite's
 * manifest. */
static const char *native_dir(void)
{
    static char dir[PATH_MAX];
    const char *slash = strrchr(LP_WL_MANIFEST, '/');
    snprintf(dir, sizeof dir, "%.*snative", slash ? (int)(slash - LP_WL_MANIFEST + 1) : 0,
             LP_WL_MANIFEST);
    return dir;
}

/* The native programs: every folder of native_dir() but support/, its .c
 * files instrumented, support/'s compiled plain, run with the size word. */
static int programs_from_native(const ef_opts *o, ef_program **out, size_t *out_n)
{
    const char *native = native_dir();
    DIR *d = opendir(native);
    if (!d)
        return lp_cli_fail("%s: %s (no native programs; use --program)", native,
                           strerror(errno));
    struct dirent *de;
    int rc = 0;
    while (rc == 0 && (de = readdir(d))) {
        if (de->d_name[0] == '.' || strcmp(de->d_name, "support") == 0 ||
            strlen(de->d_name) >= 64 || !listed(o->list, de->d_name))
            continue;
        char dir[PATH_MAX];
        struct stat st;
        if (snprintf(dir, sizeof dir, "%s/%s", native, de->d_name) >= (int)sizeof dir ||
            stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        ef_program prog = {0};
        snprintf(prog.name, sizeof prog.name, "%s", de->d_name);
        DIR *sd = opendir(dir);
        struct dirent *fe;
        while (sd && rc == 0 && (fe = readdir(sd))) {
            size_t n = strlen(fe->d_name);
            char path[PATH_MAX];
            if (n > 2 && strcmp(fe->d_name + n - 2, ".c") == 0 &&
                snprintf(path, sizeof path, "%s/%s", dir, fe->d_name) < (int)sizeof path &&
                program_add_source(&prog, path) != 0)
                rc = lp_cli_fail("out of memory");
        }
        if (sd)
            closedir(sd);
        if (rc == 0 && prog.nsources == 0) {
            program_fini(&prog);
            continue;
        }
        qsort(prog.sources, prog.nsources, sizeof *prog.sources, cmp_str);
        char support[PATH_MAX + 16];
        snprintf(support, sizeof support, "%s/support", native);
        prog.support = strdup(support);
        prog.arg = strdup(o->size);
        ef_program *np = rc == 0 ? realloc(*out, (*out_n + 1) * sizeof *np) : NULL;
        if (!np || !prog.support || !prog.arg) {
            program_fini(&prog);
            rc = rc ? rc : lp_cli_fail("out of memory");
            break;
        }
        *out = np;
        np[(*out_n)++] = prog;
    }
    closedir(d);
    if (rc != 0)
        return rc;
    if (*out_n == 0)
        return lp_cli_fail("%s: no program%s", native, o->list ? " of those named" : "");
    qsort(*out, *out_n, sizeof **out, cmp_program);
    for (const char *p = o->list; p && *p;) { /* every name must exist */
        size_t len = strcspn(p, ",");
        int found = 0;
        for (size_t i = 0; i < *out_n && !found; i++)
            found = strlen((*out)[i].name) == len && strncmp((*out)[i].name, p, len) == 0;
        if (!found)
            return lp_cli_usage("eval flag-prediction", "no native program named '%.*s'",
                                (int)len, p);
        p += len + (p[len] == ',');
    }
    return 0;
}

/* ---- building and recording --------------------------------------------------- */

/* The callback: what a block profile's counter update costs, and no more.
 * Guards are numbered at start-up; a zero guard (never, here) is skipped. */
static const char callback_source[] =
    "/* Written by lowprof eval flag-prediction: the trace-pc-guard callbacks,\n"
    " * compiled without the coverage flag. Each call counts its guard. */\n"
    "#include <stdint.h>\n"
    "uint64_t lp_flags_guard_hits[1u << 16];\n"
    "void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop)\n"
    "{\n"
    "    static uint32_t n;\n"
    "    if (start == stop || *start)\n"
    "        return;\n"
    "    for (uint32_t *g = start; g < stop; g++)\n"
    "        *g = ++n;\n"
    "}\n"
    "void __sanitizer_cov_trace_pc_guard(uint32_t *guard)\n"
    "{\n"
    "    uint32_t g = *guard;\n"
    "    if (g)\n"
    "        lp_flags_guard_hits[g & 0xffffu]++;\n"
    "}\n";

/* Runs argv with output to log; 0, or 1 after saying what failed. */
static int run_logged(char **argv, const char *what, const char *out, const char *log,
                      int fixed_env)
{
    int st = lp_eval_cmp_spawn(argv, NULL, 0, fixed_env, NULL, out ? out : log, log);
    if (st == 0)
        return 0;
    char why[128];
    return lp_cli_fail("%s failed (%s); see %s", what, lp_cli_status_text(st, why, sizeof why),
                       log);
}

/* Compiles the callback once into DIR/build/lp_flags_cb.o. */
static int build_callback(const ef_opts *o, char *obj, size_t cap)
{
    char src[PATH_MAX], log[PATH_MAX];
    if (snprintf(src, sizeof src, "%s/build/lp_flags_cb.c", o->out) >= (int)sizeof src ||
        snprintf(obj, cap, "%s/build/lp_flags_cb.o", o->out) >= (int)cap ||
        snprintf(log, sizeof log, "%s/build/lp_flags_cb.log", o->out) >= (int)sizeof log)
        return lp_cli_fail("%s: path too long", o->out);
    if (lp_cli_write_file(src, callback_source, sizeof callback_source - 1) != 0)
        return 1;
    char *argv[] = {(char *)o->clang, (char *)"-O2", (char *)"-c", src, (char *)"-o", obj, NULL};
    return run_logged(argv, "compiling the coverage callback", NULL, log, 0);
}

/* Builds DIR/build/NAME: the program's sources with the coverage flag, its
 * support sources and the callback without. */
static int build_program(const ef_opts *o, const ef_program *p, const char *cb_obj,
                         char *bin, size_t cap)
{
    char log[PATH_MAX], inc[PATH_MAX + 2] = "";
    if (snprintf(bin, cap, "%s/build/%s", o->out, p->name) >= (int)cap ||
        snprintf(log, sizeof log, "%s/build/%s.log", o->out, p->name) >= (int)sizeof log)
        return lp_cli_fail("%s: path too long", o->out);
    char **argv = calloc(p->nsources + 64, sizeof *argv);
    char **support = NULL;
    size_t nsupport = 0, k = 0;
    if (!argv)
        return lp_cli_fail("out of memory");
    if (p->support) {
        snprintf(inc, sizeof inc, "-I%s", p->support);
        DIR *d = opendir(p->support);
        struct dirent *de;
        while (d && (de = readdir(d))) {
            size_t n = strlen(de->d_name);
            /* The do-nothing coverage stub would clash with our callback. */
            if (n < 3 || strcmp(de->d_name + n - 2, ".c") != 0 ||
                strcmp(de->d_name, "cov_stub.c") == 0 || strcmp(de->d_name, "cyg_stub.c") == 0)
                continue;
            char **ns = realloc(support, (nsupport + 1) * sizeof *ns);
            char path[PATH_MAX];
            snprintf(path, sizeof path, "%s/%s", p->support, de->d_name);
            if (!ns || !(ns[nsupport] = strdup(path))) {
                free(ns ? ns : support);
                if (d)
                    closedir(d);
                free(argv);
                return lp_cli_fail("out of memory");
            }
            support = ns;
            nsupport++;
        }
        if (d)
            closedir(d);
        qsort(support, nsupport, sizeof *support, cmp_str);
    }
    /* Support sources become objects first (no coverage), then one link. */
    int rc = 0;
    char (*objs)[PATH_MAX] = nsupport ? calloc(nsupport, sizeof *objs) : NULL;
    for (size_t i = 0; i < nsupport && rc == 0; i++) {
        const char *base = strrchr(support[i], '/') + 1;
        snprintf(objs[i], sizeof objs[i], "%s/build/%s.%.*s.o", o->out, p->name,
                 (int)(strlen(base) - 2), base);
        char *cargv[] = {(char *)o->clang, (char *)"-O2", inc,      (char *)"-c",
                         support[i],       (char *)"-o",  objs[i], NULL};
        rc = run_logged(cargv, "compiling the support sources", NULL, log, 0);
    }
    if (rc == 0) {
        argv[k++] = (char *)o->clang;
        argv[k++] = (char *)"-O2";
        argv[k++] = (char *)"-fsanitize-coverage=trace-pc-guard";
        if (inc[0])
            argv[k++] = inc;
        for (size_t i = 0; i < p->nsources; i++)
            argv[k++] = p->sources[i];
        char **all = realloc(argv, (p->nsources + nsupport + 64) * sizeof *argv);
        if (!all) {
            rc = lp_cli_fail("out of memory");
        } else {
            argv = all;
            for (size_t i = 0; i < nsupport; i++)
                argv[k++] = objs[i];
            argv[k++] = (char *)cb_obj;
            argv[k++] = (char *)"-o";
            argv[k++] = bin;
            argv[k++] = (char *)"-lm";
            argv[k++] = (char *)"-lpthread";
            argv[k] = NULL;
            char what[128];
            snprintf(what, sizeof what, "%s: building with clang", p->name);
            rc = run_logged(argv, what, NULL, log, 0);
        }
    }
    for (size_t i = 0; i < nsupport; i++)
        free(support[i]);
    free(support);
    free(objs);
    free(argv);
    return rc;
}

/* Records bin's run: DIR/traces/NAME.lpev and NAME.lpprof. */
static int record_program(const ef_opts *o, const ef_program *p, const char *bin, char *trace,
                          char *prof, size_t cap)
{
    char log[PATH_MAX], out[PATH_MAX], lim[32];
    snprintf(lim, sizeof lim, "%llu", (unsigned long long)o->trace_limit);
    if (snprintf(trace, cap, "%s/traces/%s.lpev", o->out, p->name) >= (int)cap ||
        snprintf(prof, cap, "%s/traces/%s.lpprof", o->out, p->name) >= (int)cap ||
        snprintf(log, sizeof log, "%s/traces/%s.log", o->out, p->name) >= (int)sizeof log ||
        snprintf(out, sizeof out, "%s/traces/%s.stdout", o->out, p->name) >= (int)sizeof out)
        return lp_cli_fail("%s: path too long", o->out);
    /* The running binary itself, even if a rebuild has replaced the file. */
    char *argv[] = {(char *)"/proc/self/exe",
                    (char *)"record",
                    (char *)"-q",
                    (char *)"--no-imatrix",
                    (char *)"-o",
                    prof,
                    (char *)"--trace",
                    trace,
                    (char *)"--trace-kinds",
                    (char *)"call,return,block",
                    (char *)"--trace-limit",
                    lim,
                    (char *)"--",
                    (char *)bin,
                    p->arg,
                    NULL};
    char what[128];
    snprintf(what, sizeof what, "%s: lowprof record", p->name);
    return run_logged(argv, what, out, log, 1);
}

/* ---- the recording's profile: callback, guard sites, hot methods ---------------- */

/* A static profile block: one guard call site. */
typedef struct ef_site {
    uint64_t leader;
    uint64_t method;     /* entry of the function holding it */
    uint64_t calls;      /* calls the profile counted */
    uint64_t instances;  /* instances the trace gave */
    int hot;
} ef_site;

typedef struct ef_sites {
    ef_site *items;
    size_t count;
    lp_table index;      /* leader -> 1 + position in items */
    uint64_t callback;   /* the callback's entry */
} ef_sites;

static const lp_profile *find_profile(const lp_profile_set *set, unsigned type)
{
    for (size_t i = 0; i < set->count; i++)
        if (set->profiles[i].type == type && set->profiles[i].phase == LP_PHASE_NONE)
            return &set->profiles[i];
    return NULL;
}

static int cmp_method_hot(const void *a, const void *b)
{
    const lp_entry *x = a, *y = b;
    if (x->v[0] != y->v[0])
        return x->v[0] > y->v[0] ? -1 : 1;
    return x->key.a < y->key.a ? -1 : x->key.a > y->key.a;
}

/* From the exhaustive profile of the recorded run: the callback's entry
 * (the callee of call pairs that symbolizes to it), the guard sites (call
 * pairs to it), and the hot methods, the `hot` instrumented functions with
 * the most self instructions (block profile). */
static int sites_from_profile(const char *prof_path, unsigned hot, ef_sites *s, ef_result *r)
{
    lp_profile_set set;
    if (lp_cli_load_profile(prof_path, &set) != 0)
        return 1;
    int rc = 0;
    lp_symbolizer *sym = NULL;
    lp_table methods = {0}; /* entry -> v0 self instructions, v1 1 if instrumented */
    const lp_profile *pairs = find_profile(&set, LP_PROF_CALL_PAIR);
    const lp_profile *blocks = find_profile(&set, LP_PROF_BLOCK);
    const char *st = lp_meta_get(&set.meta, "exit-status");
    const char *sig = lp_meta_get(&set.meta, "signal");
    if ((st && strcmp(st, "0") != 0) || sig)
        rc = lp_cli_fail("%s: the program %s %s", r->name,
                         sig ? "was killed by signal" : "exited with status", sig ? sig : st);
    else if (!pairs || !blocks)
        rc = lp_cli_fail("%s: the recording has no call-pair or block profile", prof_path);
    else if (lp_symbolizer_create(&set.modules, &sym) != 0 || lp_table_init(&s->index, 1024) ||
             lp_table_init(&methods, 1024))
        rc = lp_cli_fail("out of memory");
    lp_entry *e;
    size_t cur = 0;
    s->callback = 0;
    /* The callback: a callee whose symbol is EF_CALLBACK and starts there. */
    while (rc == 0 && !s->callback && (e = lp_table_next(&pairs->table, &cur))) {
        lp_symbol y;
        lp_symbolize(sym, e->key.b, &y);
        if (y.function && strcmp(y.function, EF_CALLBACK) == 0 && y.function_start == e->key.b)
            s->callback = e->key.b;
    }
    if (rc == 0 && !s->callback)
        rc = lp_cli_fail("%s: no call of %s in the recording (built without "
                         "-fsanitize-coverage=trace-pc-guard?)",
                         r->name, EF_CALLBACK);
    for (cur = 0; rc == 0 && (e = lp_table_next(&pairs->table, &cur));) {
        if (e->key.b != s->callback)
            continue;
        ef_site *ni = realloc(s->items, (s->count + 1) * sizeof *ni);
        if (ni)
            s->items = ni;
        lp_entry *ix = lp_table_upsert(&s->index, (lp_key){e->key.a, 0});
        lp_symbol y;
        lp_symbolize(sym, e->key.a, &y);
        lp_entry *m = lp_table_upsert(&methods, (lp_key){y.function_start, 0});
        if (!ni || !ix || !m) {
            rc = lp_cli_fail("out of memory");
            break;
        }
        ni[s->count] = (ef_site){.leader = e->key.a, .method = y.function_start, .calls = e->v[0]};
        ix->v[0] = ++s->count;
        m->v[1] = 1;
    }
    for (cur = 0; rc == 0 && (e = lp_table_next(&blocks->table, &cur));) {
        lp_symbol y;
        lp_symbolize(sym, e->key.a, &y);
        lp_entry *m = lp_table_find(&methods, (lp_key){y.function_start, 0});
        if (m)
            m->v[0] += e->v[1];
    }
    /* Rank the instrumented methods; mark the top `hot`. */
    lp_entry *ranked = NULL;
    size_t nranked = 0;
    if (rc == 0 && methods.count) {
        ranked = malloc(methods.count * sizeof *ranked);
        if (!ranked)
            rc = lp_cli_fail("out of memory");
        for (cur = 0; ranked && (e = lp_table_next(&methods, &cur));)
            if (e->v[1] && e->key.a != s->callback)
                ranked[nranked++] = *e;
        if (ranked)
            qsort(ranked, nranked, sizeof *ranked, cmp_method_hot);
    }
    lp_table hotset = {0};
    if (rc == 0 && lp_table_init(&hotset, 64) != 0)
        rc = lp_cli_fail("out of memory");
    size_t pos = 0;
    r->hot_names[0] = '\0';
    for (size_t i = 0; rc == 0 && i < nranked && i < hot; i++) {
        lp_entry *h = lp_table_upsert(&hotset, ranked[i].key);
        if (!h) {
            rc = lp_cli_fail("out of memory");
            break;
        }
        h->v[0] = 1;
        lp_symbol y;
        lp_symbolize(sym, ranked[i].key.a, &y);
        int n = snprintf(r->hot_names + pos, sizeof r->hot_names - pos, "%s%s", i ? " " : "",
                         y.function ? y.function : "?");
        if (n > 0 && pos + (size_t)n < sizeof r->hot_names)
            pos += (size_t)n;
        r->nhot++;
    }
    for (size_t i = 0; rc == 0 && i < s->count; i++)
        s->items[i].hot = lp_table_find(&hotset, (lp_key){s->items[i].method, 0}) != NULL;
    lp_table_fini(&hotset);
    free(ranked);
    lp_table_fini(&methods);
    lp_symbolizer_free(sym);
    lp_profile_set_fini(&set);
    return rc;
}

static void sites_fini(ef_sites *s)
{
    free(s->items);
    lp_table_fini(&s->index);
}

/* ---- replay ---------------------------------------------------------------------- */

static int file_read(void *ctx, void *buf, size_t size, size_t *out_got)
{
    FILE *f = ctx;
    *out_got = fread(buf, 1, size, f);
    return *out_got < size && ferror(f) ? LP_EIO : 0;
}

/* A guard call waiting for its return, per thread. */
typedef struct ef_pending {
    uint32_t tid;
    int active;
    size_t site;
    uint64_t icount; /* at the call */
    uint64_t insns;  /* the thread's block instructions since the call */
} ef_pending;

/* The predictors of one program: [scope][duty] and the size sweep. */
typedef struct ef_preds {
    lp_pfpred *p[EF_NSCOPES][EF_MAX_DUTIES];
    lp_pfpred *sweep[N_SWEEP];
    unsigned nscopes;
} ef_preds;

static void preds_fini(ef_preds *ps)
{
    for (unsigned s = 0; s < EF_NSCOPES; s++)
        for (size_t d = 0; d < EF_MAX_DUTIES; d++)
            lp_pfpred_free(ps->p[s][d]);
    for (size_t i = 0; i < N_SWEEP; i++)
        lp_pfpred_free(ps->sweep[i]);
}

static int preds_init(const ef_opts *o, ef_preds *ps)
{
    memset(ps, 0, sizeof *ps);
    ps->nscopes = o->hot ? EF_NSCOPES : 1;
    for (unsigned s = 0; s < ps->nscopes; s++)
        for (size_t d = 0; d < o->nduties; d++)
            if (lp_pfpred_create(&o->pred, &ps->p[s][d]) != 0)
                return -1;
    for (size_t i = 0; i < N_SWEEP; i++) {
        lp_pfpred_config c = o->pred;
        c.sets = sweep_sets[i / N_SWEEP_WAYS];
        c.ways = sweep_ways[i % N_SWEEP_WAYS];
        if (lp_pfpred_create(&c, &ps->sweep[i]) != 0)
            return -1;
    }
    return 0;
}

/* The window policy: is profiling on at instruction count icount? */
static inline int window_on(uint64_t icount, uint64_t period, unsigned duty)
{
    return icount % period < period / 100 * duty + period % 100 * duty / 100;
}

/* One block instance through every predictor. */
static void replay_instance(const ef_opts *o, ef_preds *ps, const ef_site *site,
                            uint64_t follow, uint32_t len, uint64_t icount, ef_result *r)
{
    for (size_t d = 0; d < o->nduties; d++) {
        int on = window_on(icount, o->period, o->duties[d]);
        lp_pfpred_block(ps->p[EF_SCOPE_ALL][d], site->leader, follow, len, on);
        r->possible[EF_SCOPE_ALL][d] += on ? 0 : len - 1;
        if (ps->nscopes > 1) {
            int hot_on = on && site->hot;
            lp_pfpred_block(ps->p[EF_SCOPE_HOT][d], site->leader, follow, len, hot_on);
            r->possible[EF_SCOPE_HOT][d] += hot_on ? 0 : len - 1;
        }
    }
    int on = window_on(icount, o->period, EF_SWEEP_DUTY) && (site->hot || !o->hot);
    for (size_t i = 0; i < N_SWEEP; i++)
        lp_pfpred_block(ps->sweep[i], site->leader, follow, len, on);
}

static ef_pending *pending_of(ef_pending *pend, size_t *npend, size_t cap, uint32_t tid)
{
    for (size_t i = 0; i < *npend; i++)
        if (pend[i].tid == tid)
            return &pend[i];
    if (*npend == cap)
        return NULL;
    pend[*npend] = (ef_pending){.tid = tid};
    return &pend[(*npend)++];
}

/* Reads the trace once, cutting it into block instances and replaying them. */
static int replay_trace(const ef_opts *o, const char *path, ef_sites *s, ef_result *r)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return lp_cli_fail("%s: %s", path, strerror(errno));
    lp_source src = {file_read, f};
    lp_evtrace_reader *rd;
    lp_read_error err;
    memset(&err, 0, sizeof err);
    int rc = lp_evtrace_reader_open(src, &rd, &err);
    if (rc) {
        lp_cli_print_read_error(path, rc, &err);
        fclose(f);
        return 1;
    }
    ef_preds ps;
    if (preds_init(o, &ps) != 0) {
        preds_fini(&ps);
        lp_evtrace_reader_free(rd);
        fclose(f);
        return lp_cli_fail("out of memory");
    }
    enum { MAX_THREADS = 1024 };
    static ef_pending pend[MAX_THREADS];
    size_t npend = 0;
    lp_event ev;
    int got;
    r->len_min = UINT32_MAX;
    while ((got = lp_evtrace_reader_next(rd, &ev, &err)) == 1) {
        r->events++;
        if (ev.icount > r->program_insns)
            r->program_insns = ev.icount;
        ef_pending *p = pending_of(pend, &npend, MAX_THREADS, ev.tid);
        if (!p) {
            rc = lp_cli_fail("%s: more than %d threads", path, MAX_THREADS);
            break;
        }
        if (ev.kind == LP_EV_BLOCK) {
            p->insns += ev.a;
        } else if (ev.kind == LP_EV_CALL && ev.a == s->callback && !(ev.flags & LP_EVF_TAIL)) {
            if (p->active)
                r->unmatched++; /* the previous one never returned */
            lp_entry *ix = lp_table_find(&s->index, (lp_key){ev.pc, 0});
            if (!ix) { /* a site the profile did not count: cannot be */
                rc = lp_cli_fail("%s: guard call at %#llx missing from the profile", path,
                                 (unsigned long long)ev.pc);
                break;
            }
            *p = (ef_pending){.tid = ev.tid, .active = 1, .site = ix->v[0] - 1,
                              .icount = ev.icount};
        } else if (ev.kind == LP_EV_RETURN && p->active) {
            p->active = 0;
            ef_site *site = &s->items[p->site];
            /* The callback is a leaf: its return goes just past the call. */
            if (ev.a <= site->leader || ev.a > site->leader + 16) {
                r->unmatched++;
                continue;
            }
            if (ev.icount - p->icount != p->insns)
                r->icount_mismatch++;
            uint64_t len64 = 2 + p->insns;
            uint32_t len = len64 > UINT32_MAX ? UINT32_MAX : (uint32_t)len64;
            site->instances++;
            r->instances++;
            r->profile_insns += len;
            r->hot_instances += site->hot != 0;
            if (len < r->len_min)
                r->len_min = len;
            if (len > r->len_max)
                r->len_max = len;
            replay_instance(o, &ps, site, ev.a, len, p->icount, r);
        }
    }
    if (rc == 0 && got < 0) {
        if (got == LP_ETRUNC) {
            fprintf(stderr, "lowprof eval flag-prediction: %s: trace cut short; using the "
                            "events before the cut\n", path);
            r->truncated = 1;
        } else {
            lp_cli_print_read_error(path, got, &err);
            rc = 1;
        }
    }
    for (size_t i = 0; i < npend; i++)
        r->unmatched += pend[i].active != 0;
    if (r->events >= o->trace_limit)
        r->truncated = 1;
    if (r->instances == 0)
        r->len_min = 0;
    r->sites = s->count;
    for (size_t i = 0; i < s->count; i++)
        r->profile_disagree += s->items[i].instances != s->items[i].calls;
    for (unsigned sc = 0; sc < ps.nscopes; sc++)
        for (size_t d = 0; d < o->nduties; d++)
            r->stats[sc][d] = ps.p[sc][d]->stats;
    for (size_t i = 0; i < N_SWEEP; i++)
        r->sweep[i] = ps.sweep[i]->stats;
    preds_fini(&ps);
    lp_evtrace_reader_free(rd);
    fclose(f);
    return rc;
}

/* Builds, records and replays one program into *r. */
static int evaluate_program(const ef_opts *o, const ef_program *p, const char *cb_obj,
                            ef_result *r)
{
    char bin[PATH_MAX], trace[PATH_MAX], prof[PATH_MAX];
    snprintf(r->name, sizeof r->name, "%s", p->name);
    double t0 = now_seconds();
    if (build_program(o, p, cb_obj, bin, sizeof bin) != 0)
        return 1;
    double t1 = now_seconds();
    if (record_program(o, p, bin, trace, prof, sizeof trace) != 0)
        return 1;
    double t2 = now_seconds();
    ef_sites s = {0};
    int rc = sites_from_profile(prof, o->hot, &s, r);
    if (rc == 0)
        rc = replay_trace(o, trace, &s, r);
    sites_fini(&s);
    if (!o->keep_traces) {
        remove(trace);
        remove(prof);
    }
    if (rc == 0) {
        r->ok = 1;
        fprintf(stderr,
                "lowprof eval flag-prediction: %s: %.1fM instructions, %llu blocks at %llu "
                "sites; build %.1f s, record %.1f s, replay %.1f s\n",
                p->name, (double)r->program_insns / 1e6, (unsigned long long)r->instances,
                (unsigned long long)r->sites, t1 - t0, t2 - t1, now_seconds() - t2);
    }
    return rc;
}

/* ---- tables ------------------------------------------------------------------------ */

static double pct(uint64_t a, uint64_t b)
{
    return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* The accuracy as a table cell: empty (CSV) or n/a (Markdown) when the
 * predictor never made a prediction (every instance saw the flag on, so no
 * entry was ever created). */
static const char *accuracy_text(const lp_pfpred_stats *t, const char *none, int digits,
                                 char *buf, size_t cap)
{
    if (!t->predictions)
        return none;
    snprintf(buf, cap, "%.*f", digits, lp_pfpred_accuracy(t));
    return buf;
}

static const char *scope_name(const ef_opts *o, unsigned scope, char *buf, size_t cap)
{
    if (scope == EF_SCOPE_ALL)
        snprintf(buf, cap, "all");
    else
        snprintf(buf, cap, "hot%u", o->hot);
    return buf;
}

static int write_csv(const ef_opts *o, const ef_result *rs, size_t n)
{
    char path[PATH_MAX], sc[32];
    FILE *f = lp_eval_cmp_open(o->out, "flags.csv", path, sizeof path);
    if (!f)
        return -1;
    fprintf(f, "program,scope,duty_pct,period,program_insns,blocks,blocks_off,profile_insns,"
               "predictions,correct,accuracy_pct,skips,mispredicted_skips,short_blocks,"
               "insns_saved,saved_pct_profile,saved_pct_program,possible_saved,saved_pct_possible,"
               "creations,evictions\n");
    unsigned nscopes = o->hot ? EF_NSCOPES : 1;
    for (size_t i = 0; i < n; i++) {
        if (!rs[i].ok)
            continue;
        for (unsigned s = 0; s < nscopes; s++)
            for (size_t d = 0; d < o->nduties; d++) {
                const lp_pfpred_stats *t = &rs[i].stats[s][d];
                uint64_t possible = rs[i].possible[s][d];
                char acc[32];
                fprintf(f,
                        "%s,%s,%u,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%s,%llu,%llu,%llu,%llu,"
                        "%.3f,%.3f,%llu,%.3f,%llu,%llu\n",
                        rs[i].name, scope_name(o, s, sc, sizeof sc), o->duties[d],
                        (unsigned long long)o->period, (unsigned long long)rs[i].program_insns,
                        (unsigned long long)t->blocks, (unsigned long long)t->blocks_off,
                        (unsigned long long)t->insns, (unsigned long long)t->predictions,
                        (unsigned long long)t->correct, accuracy_text(t, "", 3, acc, sizeof acc),
                        (unsigned long long)t->skips, (unsigned long long)t->mispredicted_skips,
                        (unsigned long long)t->short_blocks,
                        (unsigned long long)t->insns_saved, pct(t->insns_saved, t->insns),
                        pct(t->insns_saved, rs[i].program_insns), (unsigned long long)possible,
                        pct(t->insns_saved, possible), (unsigned long long)t->creations,
                        (unsigned long long)t->evictions);
            }
    }
    if (lp_eval_cmp_close(f, path) != 0)
        return -1;

    f = lp_eval_cmp_open(o->out, "programs.csv", path, sizeof path);
    if (!f)
        return -1;
    fprintf(f, "program,instructions,events,truncated,sites,blocks,profile_insns,profile_pct,"
               "mean_length,min_length,max_length,hot_methods,hot_blocks_pct,unmatched,"
               "icount_mismatch,profile_disagree\n");
    for (size_t i = 0; i < n; i++) {
        const ef_result *r = &rs[i];
        if (!r->ok)
            continue;
        fprintf(f, "%s,%llu,%llu,%s,%llu,%llu,%llu,%.3f,%.3f,%u,%u,%u,%.3f,%llu,%llu,%llu\n",
                r->name, (unsigned long long)r->program_insns, (unsigned long long)r->events,
                r->truncated ? "yes" : "no", (unsigned long long)r->sites,
                (unsigned long long)r->instances, (unsigned long long)r->profile_insns,
                pct(r->profile_insns, r->program_insns),
                r->instances ? (double)r->profile_insns / (double)r->instances : 0.0,
                r->len_min, r->len_max, r->nhot, pct(r->hot_instances, r->instances),
                (unsigned long long)r->unmatched, (unsigned long long)r->icount_mismatch,
                (unsigned long long)r->profile_disagree);
    }
    if (lp_eval_cmp_close(f, path) != 0)
        return -1;

    f = lp_eval_cmp_open(o->out, "sizes.csv", path, sizeof path);
    if (!f)
        return -1;
    fprintf(f, "program,sets,ways,entries,scope,duty_pct,blocks,accuracy_pct,skips,"
               "mispredicted_skips,insns_saved,saved_pct_profile,evictions\n");
    for (size_t i = 0; i < n; i++) {
        if (!rs[i].ok)
            continue;
        for (size_t k = 0; k < N_SWEEP; k++) {
            const lp_pfpred_stats *t = &rs[i].sweep[k];
            unsigned sets = sweep_sets[k / N_SWEEP_WAYS], ways = sweep_ways[k % N_SWEEP_WAYS];
            char acc[32];
            fprintf(f, "%s,%u,%u,%u,%s,%u,%llu,%s,%llu,%llu,%llu,%.3f,%llu\n", rs[i].name,
                    sets, ways, sets * ways,
                    scope_name(o, o->hot ? EF_SCOPE_HOT : EF_SCOPE_ALL, sc, sizeof sc),
                    EF_SWEEP_DUTY, (unsigned long long)t->blocks,
                    accuracy_text(t, "", 3, acc, sizeof acc),
                    (unsigned long long)t->skips, (unsigned long long)t->mispredicted_skips,
                    (unsigned long long)t->insns_saved, pct(t->insns_saved, t->insns),
                    (unsigned long long)t->evictions);
        }
    }
    return lp_eval_cmp_close(f, path);
}

/* The Markdown table of one scope; also printed as the summary. Means are
 * over the programs (accuracy over those that made predictions). */
static void md_scope(FILE *f, const ef_opts *o, const ef_result *rs, size_t n, unsigned s)
{
    fprintf(f, "| program | on %% | blocks | flag off %% | accuracy %% | skips | "
               "mispredicted | saved %% of profile insns | saved %% of all insns | "
               "saved %% of possible |\n"
               "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    double sum_acc[EF_MAX_DUTIES] = {0}, sum_sp[EF_MAX_DUTIES] = {0},
           sum_sa[EF_MAX_DUTIES] = {0}, sum_off[EF_MAX_DUTIES] = {0};
    size_t nok = 0, nacc[EF_MAX_DUTIES] = {0};
    char acc[32];
    for (size_t i = 0; i < n; i++) {
        if (!rs[i].ok)
            continue;
        nok++;
        for (size_t d = 0; d < o->nduties; d++) {
            const lp_pfpred_stats *t = &rs[i].stats[s][d];
            double sp = pct(t->insns_saved, t->insns), sa = pct(t->insns_saved, rs[i].program_insns),
                   off = pct(t->blocks_off, t->blocks);
            if (t->predictions) {
                sum_acc[d] += lp_pfpred_accuracy(t);
                nacc[d]++;
            }
            sum_sp[d] += sp;
            sum_sa[d] += sa;
            sum_off[d] += off;
            char possible[32] = "n/a";
            if (rs[i].possible[s][d])
                snprintf(possible, sizeof possible, "%.2f",
                         pct(t->insns_saved, rs[i].possible[s][d]));
            snprintf(acc, sizeof acc, "%.2f", lp_pfpred_accuracy(t));
            fprintf(f, "| %s | %u | %llu | %.2f | %s | %llu | %llu | %.2f | %.2f | %s |\n",
                    rs[i].name, o->duties[d], (unsigned long long)t->blocks, off,
                    t->predictions ? acc : "n/a", (unsigned long long)t->skips,
                    (unsigned long long)t->mispredicted_skips, sp, sa, possible);
        }
    }
    for (size_t d = 0; nok > 1 && d < o->nduties; d++) {
        snprintf(acc, sizeof acc, "%.2f", nacc[d] ? sum_acc[d] / (double)nacc[d] : 0.0);
        fprintf(f, "| **mean** | %u | | %.2f | %s | | | %.2f | %.2f | |\n", o->duties[d],
                sum_off[d] / (double)nok, nacc[d] ? acc : "n/a", sum_sp[d] / (double)nok,
                sum_sa[d] / (double)nok);
    }
}

static int write_markdown(const ef_opts *o, const ef_result *rs, size_t n)
{
    char path[PATH_MAX], sc[32];
    FILE *f = lp_eval_cmp_open(o->out, "flags.md", path, sizeof path);
    if (!f)
        return -1;
    fprintf(f, "# Profile flag prediction on trace-pc-guard blocks\n\n"
               "Written by `lowprof eval flag-prediction`%s; definitions and the comparison "
               "with the paper in doc/flags.md.\n\n"
               "Settings: window period %llu instructions; block descriptor table %u sets x "
               "%u ways; skip blocks of %u or more instructions; programs %s.\n\n",
               o->full ? " --full" : "", (unsigned long long)o->period, o->pred.sets,
               o->pred.ways, o->pred.min_skip,
               o->programs ? "from --program" : o->size);
    fprintf(f, "## Programs\n\n| program | instructions | guard sites | blocks | profile "
               "insns %% | mean block length | hot methods' blocks %% | trace |\n"
               "|---|---:|---:|---:|---:|---:|---:|---|\n");
    for (size_t i = 0; i < n; i++) {
        const ef_result *r = &rs[i];
        if (!r->ok) {
            fprintf(f, "| %s | failed | | | | | | |\n", r->name);
            continue;
        }
        fprintf(f, "| %s | %llu | %llu | %llu | %.2f | %.2f | %.2f | %s |\n", r->name,
                (unsigned long long)r->program_insns, (unsigned long long)r->sites,
                (unsigned long long)r->instances, pct(r->profile_insns, r->program_insns),
                r->instances ? (double)r->profile_insns / (double)r->instances : 0.0,
                pct(r->hot_instances, r->instances), r->truncated ? "cut at the limit" : "whole");
    }
    unsigned nscopes = o->hot ? EF_NSCOPES : 1;
    for (unsigned s = 0; s < nscopes; s++) {
        if (s == EF_SCOPE_ALL)
            fprintf(f, "\n## Flag on in every method during the window\n\n");
        else
            fprintf(f, "\n## Flag on only in the %u hottest methods during the window "
                       "(the paper's setting)\n\n", o->hot);
        md_scope(f, o, rs, n, s);
    }
    fprintf(f, "\n## Table shape (%s, %u %% on)\n\n| program | sets x ways | accuracy %% | "
               "skips | mispredicted | saved %% of profile insns | evictions |\n"
               "|---|---|---:|---:|---:|---:|---:|\n",
            scope_name(o, o->hot ? EF_SCOPE_HOT : EF_SCOPE_ALL, sc, sizeof sc), EF_SWEEP_DUTY);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; rs[i].ok && k < N_SWEEP; k++) {
            const lp_pfpred_stats *t = &rs[i].sweep[k];
            char acc[32];
            fprintf(f, "| %s | %u x %u | %s | %llu | %llu | %.2f | %llu |\n", rs[i].name,
                    sweep_sets[k / N_SWEEP_WAYS], sweep_ways[k % N_SWEEP_WAYS],
                    accuracy_text(t, "n/a", 2, acc, sizeof acc), (unsigned long long)t->skips,
                    (unsigned long long)t->mispredicted_skips, pct(t->insns_saved, t->insns),
                    (unsigned long long)t->evictions);
        }
    if (o->hot) {
        fprintf(f, "\n## Hot methods (most self instructions among the instrumented)\n\n");
        for (size_t i = 0; i < n; i++)
            if (rs[i].ok)
                fprintf(f, "- %s: %s\n", rs[i].name, rs[i].hot_names);
    }
    fprintf(f, "\n## Checks\n\n| program | unmatched guard calls | icount delta differs | "
               "sites whose count differs from the profile |\n|---|---:|---:|---:|\n");
    for (size_t i = 0; i < n; i++)
        if (rs[i].ok)
            fprintf(f, "| %s | %llu | %llu | %llu |\n", rs[i].name,
                    (unsigned long long)rs[i].unmatched,
                    (unsigned long long)rs[i].icount_mismatch,
                    (unsigned long long)rs[i].profile_disagree);
    return lp_eval_cmp_close(f, path);
}

/* ---- command line ------------------------------------------------------------------- */

static int parse_duties(const char *s, ef_opts *o)
{
    o->nduties = 0;
    for (const char *p = s; *p;) {
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (errno || end == p || v < 0 || v > 100 || (*end && *end != ',') ||
            o->nduties == EF_MAX_DUTIES)
            return -1;
        o->duties[o->nduties++] = (unsigned)v;
        p = *end ? end + 1 : end;
    }
    return o->nduties ? 0 : -1;
}

/* The options (their help is in cmd_eval.c, with the other experiments'). */
static int parse_args(int argc, char **argv, ef_opts *o)
{
    const char *cmd = "eval flag-prediction";
    o->out = "results/eval-flags";
    o->clang = "clang";
    o->trace_limit = 200000000;
    o->hot = 10;
    parse_duties("0,10,25,50,100", o);
    int have_period = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--full") == 0) {
            o->full = 1;
            continue;
        }
        if (strcmp(a, "--keep-traces") == 0) {
            o->keep_traces = 1;
            continue;
        }
        if (i + 1 >= argc)
            return lp_cli_usage(cmd, a[0] == '-' ? "%s needs a value" : "unknown argument '%s'",
                                a);
        const char *v = argv[++i];
        uint64_t n = 0;
        int num = parse_count(v, &n) == 0;
        if (strcmp(a, "--out") == 0) {
            o->out = v;
        } else if (strcmp(a, "--workloads") == 0) {
            o->list = v;
        } else if (strcmp(a, "--program") == 0) {
            o->programs = v;
        } else if (strcmp(a, "--clang") == 0) {
            o->clang = v;
        } else if (strcmp(a, "--duties") == 0) {
            if (parse_duties(v, o) != 0)
                return lp_cli_usage(cmd, "--duties: percentages 0-100, comma-separated (at "
                                         "most %d)", EF_MAX_DUTIES);
        } else if (strcmp(a, "--period") == 0 && num && n >= 100) {
            o->period = n;
            have_period = 1;
        } else if (strcmp(a, "--hot") == 0 && num && n <= 1000) {
            o->hot = (unsigned)n;
        } else if (strcmp(a, "--sets") == 0 && num && n && n <= LP_PFPRED_MAX_ENTRIES) {
            o->pred.sets = (unsigned)n;
        } else if (strcmp(a, "--ways") == 0 && num && n && n <= LP_PFPRED_MAX_WAYS) {
            o->pred.ways = (unsigned)n;
        } else if (strcmp(a, "--min-skip") == 0 && num && n && n <= 1000000) {
            o->pred.min_skip = (unsigned)n;
        } else if (strcmp(a, "--trace-limit") == 0 && num && n) {
            o->trace_limit = n;
        } else if (strcmp(a, "--period") == 0 || strcmp(a, "--hot") == 0 ||
                   strcmp(a, "--sets") == 0 || strcmp(a, "--ways") == 0 ||
                   strcmp(a, "--min-skip") == 0 || strcmp(a, "--trace-limit") == 0) {
            return lp_cli_usage(cmd, "%s: bad value '%s'", a, v);
        } else {
            return lp_cli_usage(cmd, "unknown argument '%s'", a);
        }
    }
    if (o->programs && o->list)
        return lp_cli_usage(cmd, "--program and --workloads are exclusive");
    /* The predictor checks the shape; its resolved config fills the defaults. */
    lp_pfpred *p;
    if (lp_pfpred_create(&o->pred, &p) != 0)
        return lp_cli_usage(cmd, "--sets must be a power of two and sets x ways at most %d",
                            LP_PFPRED_MAX_ENTRIES);
    o->pred = p->config;
    lp_pfpred_free(p);
    o->size = o->full ? "default" : "small";
    if (!have_period)
        o->period = o->full ? 20000000 : 2000000;
    return 0;
}

int lp_eval_flags(int argc, char **argv)
{
    ef_opts o = {0};
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return rc;
    if (!lp_eval_cmp_have_program(o.clang) && access(o.clang, X_OK) != 0)
        return lp_cli_fail("eval flag-prediction needs clang (--clang PATH): '%s' not found",
                           o.clang);
    char dir[PATH_MAX], sub[PATH_MAX + 16];
    if (strcmp(o.out, "results/eval-flags") == 0 && make_dir("results") != 0)
        return lp_cli_fail("results: %s", strerror(errno));
    if (make_dir(o.out) != 0 || !realpath(o.out, dir))
        return lp_cli_fail("%s: %s", o.out, strerror(errno));
    o.out = dir;
    snprintf(sub, sizeof sub, "%s/build", dir);
    if (make_dir(sub) != 0)
        return lp_cli_fail("%s: %s", sub, strerror(errno));
    snprintf(sub, sizeof sub, "%s/traces", dir);
    if (make_dir(sub) != 0)
        return lp_cli_fail("%s: %s", sub, strerror(errno));

    ef_program *progs = NULL;
    size_t nprogs = 0;
    rc = o.programs ? programs_from_files(o.programs, &progs, &nprogs)
                    : programs_from_native(&o, &progs, &nprogs);
    char cb_obj[PATH_MAX];
    if (rc == 0)
        rc = build_callback(&o, cb_obj, sizeof cb_obj);
    ef_result *rs = rc == 0 ? calloc(nprogs, sizeof *rs) : NULL;
    if (rc == 0 && !rs)
        rc = lp_cli_fail("out of memory");
    int failed = 0;
    double t0 = now_seconds();
    for (size_t i = 0; rc == 0 && i < nprogs; i++)
        if (evaluate_program(&o, &progs[i], cb_obj, &rs[i]) != 0) {
            failed = 1;
            snprintf(rs[i].name, sizeof rs[i].name, "%s", progs[i].name);
        }
    if (rc == 0 && (write_csv(&o, rs, nprogs) != 0 || write_markdown(&o, rs, nprogs) != 0))
        rc = 1;
    if (rc == 0) {
        printf("Profile flag prediction (%s, period %llu, table %u x %u, min skip %u): "
               "%.1f s\n\n",
               o.programs ? "--program" : o.size, (unsigned long long)o.period, o.pred.sets,
               o.pred.ways, o.pred.min_skip, now_seconds() - t0);
        md_scope(stdout, &o, rs, nprogs, o.hot ? EF_SCOPE_HOT : EF_SCOPE_ALL);
        printf("\nTables in %s (flags.md, flags.csv, programs.csv, sizes.csv)\n", dir);
    }
    for (size_t i = 0; i < nprogs; i++)
        program_fini(&progs[i]);
    free(progs);
    free(rs);
    return rc ? rc : failed;
}
