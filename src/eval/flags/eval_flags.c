/* lowprof eval flag-prediction: the command. Picks the programs (the
 * native benchmark programs of workloads/native, or single C files), builds
 * each with clang -O2 -fsanitize-coverage=trace-pc-guard and a counting
 * callback written here, records it with `lowprof record --trace` (calls,
 * returns, blocks) as a child of this very binary, replays the recording
 * (eval_flags_replay.c) and writes the tables (eval_flags_out.c). See
 * eval_flags.h for the parts and doc/flags.md for the definitions.
 *
 * Tuned for: a handful of programs of 20-150 M instructions each in small
 * mode; recording and replay take seconds per program. */
#define _GNU_SOURCE /* realpath, strdup */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eval_internal.h"
#include "eval_flags.h"
#include "lowprof/suite.h"

/* A program to build and record: its sources (all compiled with the
 * coverage flag), extra link flags, arguments and the checksum line it must
 * print (empty: not checked). Word lists are NULL-terminated. */
typedef struct ef_program {
    char name[64];
    char **sources;
    char **link;
    char **args;
    char checksum[96]; /* "NAME checksum" and 16 hex digits */
} ef_program;

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

static void words_free(char **w)
{
    for (size_t i = 0; w && w[i]; i++)
        free(w[i]);
    free(w);
}

/* Splits text at spaces into a NULL-terminated list, each word prefixed
 * with prefix ("" for none); "-" alone is the empty list. NULL when out of
 * memory. */
static char **words_split(const char *text, const char *prefix)
{
    size_t n = 0, cap = 4;
    char **w = calloc(cap, sizeof *w);
    for (const char *p = text; w && *p && strcmp(text, "-") != 0;) {
        size_t len = strcspn(p, " ");
        if (len) {
            if (n + 2 > cap) {
                char **nw = realloc(w, (cap *= 2) * sizeof *w);
                if (!nw) {
                    words_free(w);
                    return NULL;
                }
                w = nw;
            }
            size_t plen = strlen(prefix);
            if (!(w[n] = malloc(plen + len + 1))) {
                words_free(w);
                return NULL;
            }
            memcpy(w[n], prefix, plen);
            memcpy(w[n] + plen, p, len);
            w[n][plen + len] = '\0';
            w[++n] = NULL;
        }
        p += len + (p[len] == ' ');
    }
    return w;
}

static void program_fini(ef_program *p)
{
    words_free(p->sources);
    words_free(p->link);
    words_free(p->args);
}

static int programs_append(ef_program **out, size_t *out_n, const ef_program *p)
{
    ef_program *np = realloc(*out, (*out_n + 1) * sizeof *np);
    if (!np)
        return -1;
    *out = np;
    np[(*out_n)++] = *p;
    return 0;
}

/* --program: each file a whole program, run without arguments. */
static int programs_from_files(const char *files, ef_program **out, size_t *out_n)
{
    for (const char *p = files; *p;) {
        size_t len = strcspn(p, ",");
        char path[PATH_MAX], abs[PATH_MAX];
        if (len == 0 || len >= sizeof path)
            return lp_host_usage("eval flag-prediction", "bad --program list '%s'", files);
        memcpy(path, p, len);
        path[len] = '\0';
        p += len + (p[len] == ',');
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        size_t blen = strlen(base);
        if (blen < 3 || strcmp(base + blen - 2, ".c") != 0 || blen - 2 >= 64)
            return lp_host_usage("eval flag-prediction", "--program: '%s' is not a NAME.c file",
                                path);
        if (!realpath(path, abs))
            return lp_host_fail("%s: %s", path, strerror(errno));
        ef_program prog = {0};
        memcpy(prog.name, base, blen - 2);
        prog.sources = words_split(abs, "");
        prog.link = words_split("-", "");
        prog.args = words_split("-", "");
        if (!prog.sources || !prog.link || !prog.args || programs_append(out, out_n, &prog)) {
            program_fini(&prog);
            return lp_host_fail("out of memory");
        }
    }
    return 0;
}

/* The native programs' folder and manifest: workloads/native, beside the
 * suite's manifest. */
static const char *native_dir(void)
{
    static char dir[PATH_MAX];
    const char *slash = strrchr(LP_WL_MANIFEST, '/');
    snprintf(dir, sizeof dir, "%.*snative", slash ? (int)(slash - LP_WL_MANIFEST + 1) : 0,
             LP_WL_MANIFEST);
    return dir;
}

/* The native programs of workloads/native/suite.tsv that o->list names:
 * name, sources, link flags, default and small arguments, default and small
 * checksums, tab-separated. An all-zero checksum is not checked. */
static int programs_from_native(const lp__ef_opts *o, ef_program **out, size_t *out_n)
{
    const char *native = native_dir();
    char path[PATH_MAX + 16], line[8192];
    snprintf(path, sizeof path, "%s/suite.tsv", native);
    FILE *f = fopen(path, "r");
    if (!f)
        return lp_host_fail("%s: %s (no native programs; use --program)", path, strerror(errno));
    int rc = 0;
    unsigned lineno = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char *field[8];
        size_t nf = 0;
        for (char *q = line; nf < 8;) {
            field[nf++] = q;
            char *tab = strchr(q, '\t');
            if (!tab)
                break;
            *tab = '\0';
            q = tab + 1;
        }
        if (nf != 7 || strlen(field[0]) >= 64) {
            rc = lp_host_fail("%s:%u: expected 7 tab-separated fields", path, lineno);
            break;
        }
        if (!listed(o->list, field[0]))
            continue;
        int full = strcmp(o->size, "default") == 0;
        char prefix[PATH_MAX + 2];
        snprintf(prefix, sizeof prefix, "%s/", native);
        ef_program prog = {0};
        snprintf(prog.name, sizeof prog.name, "%s", field[0]);
        prog.sources = words_split(field[1], prefix);
        prog.link = words_split(field[2], "");
        prog.args = words_split(field[full ? 3 : 4], "");
        const char *sum = field[full ? 5 : 6];
        if (strlen(sum) != 16 || strspn(sum, "0123456789abcdef") != 16) {
            rc = lp_host_fail("%s:%u: %s: expected 16 lowercase hex digits", path, lineno,
                              full ? "default_checksum" : "small_checksum");
            break;
        }
        if (strspn(sum, "0") != 16)
            snprintf(prog.checksum, sizeof prog.checksum, "%s checksum %.16s", prog.name, sum);
        if (!prog.sources || !prog.link || !prog.args || programs_append(out, out_n, &prog)) {
            program_fini(&prog);
            rc = lp_host_fail("out of memory");
        }
    }
    fclose(f);
    if (rc != 0)
        return rc;
    for (const char *p = o->list; p && *p;) { /* every name must exist */
        size_t len = strcspn(p, ",");
        int found = 0;
        for (size_t i = 0; i < *out_n && !found; i++)
            found = strlen((*out)[i].name) == len && strncmp((*out)[i].name, p, len) == 0;
        if (!found)
            return lp_host_usage("eval flag-prediction", "no native program named '%.*s'", (int)len,
                                p);
        p += len + (p[len] == ',');
    }
    return *out_n ? 0 : lp_host_fail("%s: no program", path);
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
    int st = lp_wl_spawn(argv, NULL, 0, fixed_env, NULL, out ? out : log, log, 0);
    if (st == 0)
        return 0;
    char why[128];
    return lp_host_fail("%s failed (%s); see %s", what, lp_host_status_text(st, why, sizeof why),
                       log);
}

/* Compiles the callback once into DIR/build/lp_flags_cb.o. */
static int build_callback(const lp__ef_opts *o, char *obj, size_t cap)
{
    char src[PATH_MAX], log[PATH_MAX];
    if (snprintf(src, sizeof src, "%s/build/lp_flags_cb.c", o->out) >= (int)sizeof src ||
        snprintf(obj, cap, "%s/build/lp_flags_cb.o", o->out) >= (int)cap ||
        snprintf(log, sizeof log, "%s/build/lp_flags_cb.log", o->out) >= (int)sizeof log)
        return lp_host_fail("%s: path too long", o->out);
    if (lp_host_write_file(src, callback_source, sizeof callback_source - 1) != 0)
        return 1;
    char *argv[] = {(char *)o->clang, (char *)"-O2", (char *)"-c", src, (char *)"-o", obj, NULL};
    return run_logged(argv, "compiling the coverage callback", NULL, log, 0);
}

/* Builds DIR/build/NAME: the program's sources with the coverage flag (as
 * the suite's clang-trace-pc-guard variant), the callback without. */
static int build_program(const lp__ef_opts *o, const ef_program *p, const char *cb_obj, char *bin,
                         size_t cap)
{
    char log[PATH_MAX];
    if (snprintf(bin, cap, "%s/build/%s", o->out, p->name) >= (int)cap ||
        snprintf(log, sizeof log, "%s/build/%s.log", o->out, p->name) >= (int)sizeof log)
        return lp_host_fail("%s: path too long", o->out);
    size_t n = 0;
    for (char **w = p->sources; *w; w++)
        n++;
    for (char **w = p->link; *w; w++)
        n++;
    char **argv = calloc(n + 16, sizeof *argv);
    if (!argv)
        return lp_host_fail("out of memory");
    size_t k = 0;
    argv[k++] = (char *)o->clang;
    argv[k++] = (char *)"-std=c17";
    argv[k++] = (char *)"-O2";
    argv[k++] = (char *)"-fsanitize-coverage=trace-pc-guard";
    for (char **w = p->sources; *w; w++)
        argv[k++] = *w;
    argv[k++] = (char *)cb_obj;
    argv[k++] = (char *)"-o";
    argv[k++] = bin;
    for (char **w = p->link; *w; w++)
        argv[k++] = *w;
    argv[k++] = (char *)"-lm";
    argv[k] = NULL;
    char what[128];
    snprintf(what, sizeof what, "%s: building with clang", p->name);
    int rc = run_logged(argv, what, NULL, log, 0);
    free(argv);
    return rc;
}

/* Records bin's run: DIR/traces/NAME.lpev and NAME.lpprof; checks the
 * checksum line the program printed when the suite gives one. */
static int record_program(const lp__ef_opts *o, const ef_program *p, const char *bin, char *trace,
                          char *prof, size_t cap)
{
    char log[PATH_MAX], out[PATH_MAX], lim[32];
    snprintf(lim, sizeof lim, "%llu", (unsigned long long)o->trace_limit);
    if (snprintf(trace, cap, "%s/traces/%s.lpev", o->out, p->name) >= (int)cap ||
        snprintf(prof, cap, "%s/traces/%s.lpprof", o->out, p->name) >= (int)cap ||
        snprintf(log, sizeof log, "%s/traces/%s.log", o->out, p->name) >= (int)sizeof log ||
        snprintf(out, sizeof out, "%s/traces/%s.stdout", o->out, p->name) >= (int)sizeof out)
        return lp_host_fail("%s: path too long", o->out);
    /* The running binary itself, even if a rebuild has replaced the file. */
    char *fixed[] = {(char *)"/proc/self/exe",
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
                     (char *)bin};
    enum { NFIXED = sizeof fixed / sizeof fixed[0] };
    size_t nargs = 0;
    while (p->args[nargs])
        nargs++;
    char **argv = calloc(NFIXED + nargs + 1, sizeof *argv);
    if (!argv)
        return lp_host_fail("out of memory");
    memcpy(argv, fixed, sizeof fixed);
    memcpy(argv + NFIXED, p->args, nargs * sizeof *argv);
    char what[128];
    snprintf(what, sizeof what, "%s: lowprof record", p->name);
    int rc = run_logged(argv, what, out, log, 1);
    free(argv);
    if (rc != 0 || !p->checksum[0])
        return rc;
    /* The instrumented program must compute what the plain one does. */
    char line[256] = "";
    FILE *f = fopen(out, "r");
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = '\0';
        fclose(f);
    }
    line[strcspn(line, "\r\n")] = '\0';
    if (strcmp(line, p->checksum) != 0)
        return lp_host_fail("%s: printed '%s', not '%s' (see %s)", p->name, line, p->checksum, out);
    return 0;
}

/* Builds, records and replays one program into *r. */
static int evaluate_program(const lp__ef_opts *o, const ef_program *p, const char *cb_obj,
                            lp__ef_result *r)
{
    char bin[PATH_MAX], trace[PATH_MAX], prof[PATH_MAX];
    snprintf(r->name, sizeof r->name, "%s", p->name);
    double t0 = lp_host_now_seconds();
    if (build_program(o, p, cb_obj, bin, sizeof bin) != 0)
        return 1;
    double t1 = lp_host_now_seconds();
    if (record_program(o, p, bin, trace, prof, sizeof trace) != 0)
        return 1;
    double t2 = lp_host_now_seconds();
    int rc = lp__ef_replay(o, prof, trace, r);
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
                (unsigned long long)r->sites, t1 - t0, t2 - t1, lp_host_now_seconds() - t2);
    }
    return rc;
}

/* ---- command line ------------------------------------------------------------------- */

static int parse_duties(const char *s, lp__ef_opts *o)
{
    o->nduties = 0;
    for (const char *p = s; *p;) {
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (errno || end == p || v < 0 || v > 100 || (*end && *end != ',') ||
            o->nduties == LP__EF_MAX_DUTIES)
            return -1;
        o->duties[o->nduties++] = (unsigned)v;
        p = *end ? end + 1 : end;
    }
    return o->nduties ? 0 : -1;
}

/* The options (their help is in cmd_eval.c, with the other experiments'). */
static int parse_args(int argc, char **argv, lp__ef_opts *o)
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
            return lp_host_usage(cmd, a[0] == '-' ? "%s needs a value" : "unknown argument '%s'", a);
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
                return lp_host_usage(cmd,
                                    "--duties: percentages 0-100, comma-separated (at "
                                    "most %d)",
                                    LP__EF_MAX_DUTIES);
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
            return lp_host_usage(cmd, "%s: bad value '%s'", a, v);
        } else {
            return lp_host_usage(cmd, "unknown argument '%s'", a);
        }
    }
    if (o->programs && o->list)
        return lp_host_usage(cmd, "--program and --workloads are exclusive");
    /* The predictor checks the shape; its resolved config fills the defaults. */
    lp_pfpred *p;
    if (lp_pfpred_create(&o->pred, &p) != 0)
        return lp_host_usage(cmd, "--sets must be a power of two and sets x ways at most %d",
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
    lp__ef_opts o = {0};
    int rc = parse_args(argc, argv, &o);
    if (rc != 0)
        return rc;
    if (!lp__eval_have_program(o.clang) && access(o.clang, X_OK) != 0)
        return lp_host_fail("eval flag-prediction needs clang (--clang PATH): '%s' not found",
                           o.clang);
    char dir[PATH_MAX], sub[PATH_MAX + 16];
    if (strcmp(o.out, "results/eval-flags") == 0 && lp_host_make_dir("results") != 0)
        return lp_host_fail("results: %s", strerror(errno));
    if (lp_host_make_dir(o.out) != 0 || !realpath(o.out, dir))
        return lp_host_fail("%s: %s", o.out, strerror(errno));
    o.out = dir;
    snprintf(sub, sizeof sub, "%s/build", dir);
    if (lp_host_make_dir(sub) != 0)
        return lp_host_fail("%s: %s", sub, strerror(errno));
    snprintf(sub, sizeof sub, "%s/traces", dir);
    if (lp_host_make_dir(sub) != 0)
        return lp_host_fail("%s: %s", sub, strerror(errno));

    ef_program *progs = NULL;
    size_t nprogs = 0;
    rc = o.programs ? programs_from_files(o.programs, &progs, &nprogs)
                    : programs_from_native(&o, &progs, &nprogs);
    char cb_obj[PATH_MAX];
    if (rc == 0)
        rc = build_callback(&o, cb_obj, sizeof cb_obj);
    lp__ef_result *rs = rc == 0 ? calloc(nprogs, sizeof *rs) : NULL;
    if (rc == 0 && !rs)
        rc = lp_host_fail("out of memory");
    int failed = 0;
    double t0 = lp_host_now_seconds();
    for (size_t i = 0; rc == 0 && i < nprogs; i++)
        if (evaluate_program(&o, &progs[i], cb_obj, &rs[i]) != 0) {
            failed = 1;
            snprintf(rs[i].name, sizeof rs[i].name, "%s", progs[i].name);
        }
    if (rc == 0 && lp__ef_write(&o, rs, nprogs) != 0)
        rc = 1;
    if (rc == 0) {
        printf("Profile flag prediction (%s, period %llu, table %u x %u, min skip %u): "
               "%.1f s\n\n",
               o.programs ? "--program" : o.size, (unsigned long long)o.period, o.pred.sets,
               o.pred.ways, o.pred.min_skip, lp_host_now_seconds() - t0);
        lp__ef_md_scope(stdout, &o, rs, nprogs, o.hot ? LP__EF_HOT_ONLY : LP__EF_ALL);
        printf("\nTables in %s (flags.md, flags.csv, programs.csv, sizes.csv)\n", dir);
    }
    for (size_t i = 0; i < nprogs; i++)
        program_fini(&progs[i]);
    free(progs);
    free(rs);
    return rc ? rc : failed;
}
