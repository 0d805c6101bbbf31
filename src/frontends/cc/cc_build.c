/* lowprof cc's build of block-profiled C files through function copies
 * (cc_build.h, doc/lowprof-cc.md "Blocks: cloned functions").
 *
 * Each C source of the command goes through six steps in a temporary
 * folder: clang writes its IR before optimisation (with the patchable
 * entries); clang optimises it as a plain build would; cc_clone.c adds the
 * instrumented copies of the optimised functions; clang adds inline block
 * counters to the copies only (an allow-list of their names), optimising
 * nothing; cc_counters.c makes the counters 64-bit and per thread; clang
 * compiles the result. A command that links then links the objects in the
 * sources' places. The compiler's own options go to every step; those a
 * step has no use for are left to clang's unused-argument rule, silenced. */
#define _GNU_SOURCE
#include "lowprof/cc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cc_bursty.h"
#include "cc_clone.h"
#include "lowprof/host.h"

/* Options whose value is the next argument. */
static int lp_cc_takes_value(const char *a)
{
    static const char *const opts[] = {"-o", "-I", "-D", "-U", "-include", "-imacros",
                                       "-isystem", "-iquote", "-idirafter", "-MF", "-MT",
                                       "-MQ", "-x", "-L", "-l", "-Xlinker", "-Xclang",
                                       "-Xassembler", "-Xpreprocessor", "-T", "-u", "-z",
                                       "-target", "-isysroot", "--sysroot"};
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
        if (strcmp(a, opts[i]) == 0)
            return 1;
    return 0;
}

int lp_cc_is_c_source(const char *a)
{
    size_t n = strlen(a);
    return a[0] != '-' && n > 2 && strcmp(a + n - 2, ".c") == 0;
}

/* Runs argv, waits; returns the exit status, or 1 with a message. */
/* Runs argv with its stderr into the file log (NULL: ours), waits;
 * returns the exit status, or 1 with a message. */
static int lp_cc_run_log(char **argv, int print, const char *log)
{
    if (print) {
        for (size_t k = 0; argv[k]; k++)
            fprintf(stderr, "%s%s", k ? " " : "", argv[k]);
        fputc('\n', stderr);
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return lp_host_fail("cc: fork: %s", strerror(errno));
    if (pid == 0) {
        int fd = log ? open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
        if (fd >= 0)
            dup2(fd, 2);
        execvp(argv[0], argv);
        fprintf(stderr, "lowprof: cc: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return lp_host_fail("cc: waitpid: %s", strerror(errno));
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    char why[64];
    return lp_host_fail("cc: %s %s", argv[0], lp_host_status_text(status, why, sizeof why));
}

static int lp_cc_run(char **argv, int print)
{
    return lp_cc_run_log(argv, print, NULL);
}

/* Copies the file log to our stderr. */
static void lp_cc_show_log(const char *log)
{
    uint8_t *text;
    size_t size;
    if (lp_host_read_file(log, &text, &size) == 0) {
        fwrite(text, 1, size, stderr);
        lp_free(text);
    }
}

/* What lp_cc_rewrite_file does to the IR. */
enum { LP_CC_STEP_COPIES, LP_CC_STEP_COUNTERS, LP_CC_STEP_BURSTY };

/* Reads the IR at in, adds the copies (LP_CC_STEP_COPIES), makes their
 * counters (LP_CC_STEP_COUNTERS, with lp_cc_counters_ir's flags) or adds
 * bursty tracing's checks and instrumented code (LP_CC_STEP_BURSTY, at
 * placement, with LP_CC_PIC of flags; print: say what it did), writes
 * out. */
static int lp_cc_rewrite_file(const char *in, const char *out, const char *source, int step,
                              unsigned flags, const char *placement, int print)
{
    uint8_t *text;
    size_t size;
    if (lp_host_read_file(in, &text, &size) < 0)
        return 1;
    char *res, err[256];
    size_t res_len;
    lp_cc_bt_counts bc;
    long n = step == LP_CC_STEP_COUNTERS ? lp_cc_counters_ir((const char *)text, size, flags, &res,
                                                             &res_len, err, sizeof err)
             : step == LP_CC_STEP_BURSTY
                 ? lp_cc_bursty_ir((const char *)text, size, placement, flags, &res, &res_len, &bc,
                                   err, sizeof err)
                 : lp_cc_clone_ir((const char *)text, size, flags, &res, &res_len, err, sizeof err);
    lp_free(text);
    lp_cc_loops_counts lc = {0};
    if (n >= 0 && step == LP_CC_STEP_COPIES && !(flags & LP_CC_ONE_VERSION)) {
        /* the copies' loops leave the counting between windows */
        char *two;
        size_t two_len;
        if (lp_cc_loops_ir(res, res_len, &two, &two_len, &lc, err, sizeof err) < 0)
            n = -1;
        else {
            free(res);
            res = two;
            res_len = two_len;
        }
    }
    if (n < 0)
        return lp_host_fail("cc: %s: the compiler's IR (%s): %s", source, in, err);
    if (step == LP_CC_STEP_COPIES && print)
        fprintf(stderr,
                "lowprof: cc: %s: %ld copies, %zu of them with loops in two versions (%zu loops; "
                "%zu left counting: a value leaves them that cannot be merged; %zu copies not "
                "read)\n",
                source, n, lc.fns, lc.loops, lc.loops_left, lc.fns_unread);
    if (step == LP_CC_STEP_BURSTY && print)
        fprintf(stderr,
                "lowprof: cc: %s: bursty %s: %ld functions in two copies (%lu left as they were), "
                "%lu entry checks, %lu loop checks, %lu loops without one (values live into the "
                "header), %lu references reported\n",
                source, placement, n, bc.fns_skipped, bc.entry_checks, bc.loop_checks,
                bc.loops_skipped, bc.refs);
    int rc = lp_host_write_file(out, res, res_len) < 0;
    free(res);
    return rc;
}

typedef struct lp_cc_argv {
    char **v;
    size_t n, cap;
} lp_cc_argv;

static int lp_cc_push(lp_cc_argv *a, const char *s)
{
    char **v = lp__cc_grow(a->v, a->n + 1, &a->cap, sizeof *v, 32); /* and a NULL */
    if (!v)
        return -1;
    a->v = v;
    a->v[a->n++] = (char *)s;
    a->v[a->n] = NULL;
    return 0;
}

/* The object name `-c` without `-o` gives a source: its base name, .o. */
static void lp_cc_default_object(const char *src, char *out, size_t cap)
{
    const char *base = strrchr(src, '/');
    base = base ? base + 1 : src;
    snprintf(out, cap, "%.*so", (int)(strlen(base) - 1), base);
}

static void lp_cc_rm_tree(const char *dir, size_t nsrc)
{
    char p[PATH_MAX];
    static const char *const names[] = {"pre.ll",   "opt.ll", "inl.ll", "dup.ll", "cnt.ll",
                                        "cnt64.ll", "obj.o",  "obj.d",  "log"};
    for (size_t i = 0; i < nsrc; i++)
        for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
            snprintf(p, sizeof p, "%s/%zu.%s", dir, i, names[k]);
            unlink(p);
        }
    snprintf(p, sizeof p, "%s/allow.txt", dir);
    unlink(p);
    rmdir(dir);
}

int lp_cc_clone_build(const lp_cc_build *b)
{
    int argc = b->argc;
    char **argv = b->argv;
    const char *out = NULL;
    int compile_only = 0, asm_only = 0, deps = 0, dep_target = 0, dep_file = 0, pic = 0;
    size_t nsrc = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-c") == 0)
            compile_only = 1;
        else if (strcmp(a, "-S") == 0)
            asm_only = 1;
        else if (strcmp(a, "-MD") == 0 || strcmp(a, "-MMD") == 0)
            deps = 1;
        else if (strcmp(a, "-MT") == 0 || strcmp(a, "-MQ") == 0)
            dep_target = 1;
        else if (strcmp(a, "-MF") == 0)
            dep_file = 1;
        else if (strcmp(a, "-shared") == 0 || strcmp(a, "-fPIC") == 0 || strcmp(a, "-fpic") == 0)
            pic = 1;
        if (lp_cc_takes_value(a) && i + 1 < argc) {
            if (strcmp(a, "-o") == 0)
                out = argv[i + 1];
            i++;
            continue;
        }
        nsrc += lp_cc_is_c_source(a);
    }
    if ((compile_only || asm_only) && out && nsrc > 1)
        return lp_host_usage("cc", "-o with -c or -S and %zu C files", nsrc);
    char dir[] = "/tmp/lowprof-cc.XXXXXX";
    const char *tmpdir = getenv("TMPDIR");
    char dirbuf[PATH_MAX];
    snprintf(dirbuf, sizeof dirbuf, "%s/lowprof-cc.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    char *made = mkdtemp(tmpdir && *tmpdir ? dirbuf : dir);
    if (!made)
        return lp_host_fail("cc: cannot make a temporary folder: %s", strerror(errno));
    char allow[PATH_MAX + 16], allow_flag[PATH_MAX + 48];
    snprintf(allow, sizeof allow, "%s/allow.txt", made);
    static const char allow_text[] = "# lowprof cc: block coverage on the function copies only\n"
                                     "src:*\nfun:*" LP_CC_CLONE_SUFFIX "\n";
    int rc = lp_host_write_file(allow, allow_text, sizeof allow_text - 1) < 0;
    snprintf(allow_flag, sizeof allow_flag, "-fsanitize-coverage-allowlist=%s", allow);
    /* Per source: pre.ll, dup.ll and the object, numbered. */
    char (*objs)[PATH_MAX + 32] = calloc(nsrc ? nsrc : 1, sizeof *objs);
    lp_cc_argv link = {0};
    if (!objs)
        rc = lp_host_fail("out of memory");
    size_t k = 0;
    for (int i = 0; i < argc && rc == 0; i++) {
        const char *src = argv[i];
        if (lp_cc_takes_value(src)) {
            i++;
            continue;
        }
        if (!lp_cc_is_c_source(src))
            continue;
        char pre[PATH_MAX + 32], opt[PATH_MAX + 32], dup[PATH_MAX + 32], cnt[PATH_MAX + 32],
            cnt64[PATH_MAX + 32];
        snprintf(pre, sizeof pre, "%s/%zu.pre.ll", made, k);
        snprintf(opt, sizeof opt, "%s/%zu.opt.ll", made, k);
        snprintf(dup, sizeof dup, "%s/%zu.dup.ll", made, k);
        snprintf(cnt, sizeof cnt, "%s/%zu.cnt.ll", made, k);
        snprintf(cnt64, sizeof cnt64, "%s/%zu.cnt64.ll", made, k);
        if (compile_only || asm_only) {
            if (out)
                snprintf(objs[k], sizeof objs[k], "%s", out);
            else
                lp_cc_default_object(src, objs[k], sizeof objs[k]);
            if (asm_only && !out)
                objs[k][strlen(objs[k]) - 1] = 's';
        } else {
            snprintf(objs[k], sizeof objs[k], "%s/%zu.obj.o", made, k);
        }
        /* Step 1: the IR before optimisation, from the source. */
        lp_cc_argv s1 = {0}, s2 = {0}, s4 = {0};
        int bad = lp_cc_push(&s1, b->compiler);
        for (int j = 0; j < argc; j++) {
            const char *a = argv[j];
            if (strcmp(a, "-o") == 0 || (a[0] != '-' && j != i)) {
                j += strcmp(a, "-o") == 0;
                continue;
            }
            if (strcmp(a, "-c") == 0 || strcmp(a, "-S") == 0)
                continue;
            bad |= lp_cc_push(&s1, a);
            if (lp_cc_takes_value(a) && j + 1 < argc)
                bad |= lp_cc_push(&s1, argv[++j]);
        }
        /* Dependencies name the object, not the IR file step 1 writes. */
        char dfile[PATH_MAX + 32];
        snprintf(dfile, sizeof dfile, "%.*sd", (int)strlen(objs[k]) - 1, objs[k]);
        if (deps && !dep_target) {
            bad |= lp_cc_push(&s1, "-MT");
            bad |= lp_cc_push(&s1, objs[k]);
        }
        if (deps && !dep_file) {
            bad |= lp_cc_push(&s1, "-MF");
            bad |= lp_cc_push(&s1, dfile);
        }
        /* IR text keeps the order of each value's uses only when asked
         * (-emit-llvm-uselists): without it the optimiser and the code
         * generator break ties differently than in one compilation, and
         * the originals come out slower than a plain build (bzip2's block
         * sort by 4 % of instructions). Bursty tracing's rewrite gives
         * every value new uses, so an order of the old ones would not
         * fit. */
        const char *s1_tail[] = {b->entry_flag, "-S", "-emit-llvm", "-Xclang", "-disable-llvm-passes",
                                 b->bursty ? NULL : "-Xclang", b->bursty ? NULL : "-emit-llvm-uselists",
                                 "-Wno-unused-command-line-argument", "-o", pre};
        for (size_t t = 0; t < sizeof s1_tail / sizeof *s1_tail; t++)
            if (s1_tail[t])
                bad |= lp_cc_push(&s1, s1_tail[t]);
        /* Step 2: optimise the IR as a plain build would, before there are
         * copies. Copies made before optimising needed the static functions
         * that take the runtime's calls (recursive or address-taken) kept in
         * @llvm.compiler.used, lest the optimiser change their arguments;
         * a function kept so cannot be deleted, so the inliner, which
         * favours inlining a static function's only call, left out of line
         * what the plain build inlines, and the originals ran more
         * instructions than the plain build's while off (interp 1.70 %,
         * 0.33 % now; eval-native.md, "Copies of the optimised functions").
         * Step 3 adds the copies (a rewrite in this process); step 4 counts
         * in them and optimises nothing. */
        bad |= lp_cc_push(&s4, b->compiler);
        for (int j = 0; j < argc; j++) {
            const char *a = argv[j];
            int val = lp_cc_takes_value(a) && j + 1 < argc;
            if (a[0] != '-' || strcmp(a, "-c") == 0 || strcmp(a, "-S") == 0 ||
                strncmp(a, "-M", 2) == 0 || strcmp(a, "-o") == 0 || strcmp(a, "-x") == 0) {
                j += val;
                continue;
            }
            bad |= lp_cc_push(&s4, a);
            if (val)
                bad |= lp_cc_push(&s4, argv[++j]);
        }
        /* Step 6 compiles what step 2 optimised and step 4 counted: the
         * same options, and no optimisation passes a second time. */
        lp_cc_argv s6 = {0};
        for (size_t t = 0; t < s4.n; t++) {
            bad |= lp_cc_push(&s6, s4.v[t]);
            /* The command's sanitizers (ASan, TSan, MSan: passes at the
             * pipeline's end) run in step 4, once, on the originals and the
             * copies alike: run in step 2 as well, they would instrument
             * the originals twice and hand their module constructors to
             * the copier. */
            if (!b->bursty && strncmp(s4.v[t], "-fsanitize", 10) != 0 &&
                strncmp(s4.v[t], "-fno-sanitize", 13) != 0)
                bad |= lp_cc_push(&s2, s4.v[t]);
        }
        const char *s2_tail[] = {"-Wno-unused-command-line-argument",
                                 "-Xclang",
                                 "-emit-llvm-uselists",
                                 "-S",
                                 "-emit-llvm",
                                 pre,
                                 "-o",
                                 opt};
        for (size_t t = 0; !b->bursty && t < sizeof s2_tail / sizeof *s2_tail; t++)
            bad |= lp_cc_push(&s2, s2_tail[t]);
        /* -O0 after the command's own level: the coverage pass and the
         * command's sanitizers alone (clang runs them at every level), on
         * code the optimiser is done with. Not the discriminators a second
         * time: with -fdebug-info-for-profiling the -O0 pipeline numbers
         * each line's blocks again, after unrolling, so an unrolled body
         * and its remainder loop got base discriminators 1 and 0 where a
         * plain build's source has one, and clang, reading a sample profile
         * from such a build, took the remainder's count for the loop's
         * (json's byte hash: 5.6 M iterations read as 0.6 M). */
        const char *s4_tail[] = {
            "-O0",    b->block_flag,        allow_flag, "-Wno-unused-command-line-argument",
            "-mllvm", "-no-discriminators", "-Xclang",  "-emit-llvm-uselists",
            "-S",     "-emit-llvm",         dup,        "-o",
            cnt};
        /* Bursty tracing's code is complete after its rewrite of the IR
         * before optimisation: s4 optimises and compiles it, and there is
         * neither step 2 nor a counting step. */
        const char *s4_bursty[] = {"-Wno-unused-command-line-argument", asm_only ? "-S" : "-c", dup,
                                   "-o", objs[k]};
        for (size_t t = 0; !b->bursty && t < sizeof s4_tail / sizeof *s4_tail; t++)
            bad |= lp_cc_push(&s4, s4_tail[t]);
        for (size_t t = 0; b->bursty && t < sizeof s4_bursty / sizeof *s4_bursty; t++)
            bad |= lp_cc_push(&s4, s4_bursty[t]);
        /* clang 14's instruction-referencing variable locations crash now
         * and then (a null read in LiveDebugValues, about one compile in
         * four of raytrace_bvh.c) on copies whose blocks without calls
         * lost their counters; the location-list tracker they replaced
         * handles the same IR, and debug-info trackers do not change the
         * code. */
        const char *s6_tail[] = {"-Xclang",
                                 "-disable-llvm-passes",
                                 "-mllvm",
                                 "-experimental-debug-variable-locations=false",
                                 "-Wno-unused-command-line-argument",
                                 asm_only ? "-S" : "-c",
                                 cnt64,
                                 "-o",
                                 objs[k]};
        for (size_t t = 0; t < sizeof s6_tail / sizeof *s6_tail; t++)
            bad |= lp_cc_push(&s6, s6_tail[t]);
        if (bad)
            rc = lp_host_fail("out of memory");
        if (rc == 0)
            rc = lp_cc_run(s1.v, b->print);
        /* Bursty tracing: inline first (LLVM's inliner alone, on the IR
         * before optimisation), so that the inliner decides on the
         * functions as the source has them; after duplication each body
         * is twice its size and each call of a static function two calls.
         * The threshold is 1000, not the pipeline's 225, since a function
         * costs more before simplification than the pipeline's inliner,
         * which runs after it, sees. json's checking code without loop
         * checks (placement LN) ran 58 % more instructions than the plain
         * build without this step, 19 % with the threshold at 225, 3.9 %
         * at 1000; json built plain through the same step runs 3.9 %
         * fewer (bench/bursty_native.sh reports both). */
        char inl[PATH_MAX + 32];
        snprintf(inl, sizeof inl, "%s/%zu.inl.ll", made, k);
        char *inline_first[] = {(char *)b->opt,
                                "-S",
                                "-passes=cgscc(inline)",
                                "-inline-threshold=1000",
                                pre,
                                "-o",
                                inl,
                                NULL};
        if (rc == 0 && b->bursty && b->opt)
            rc = lp_cc_run(inline_first, b->print);
        if (rc == 0 && !b->bursty)
            rc = lp_cc_run(s2.v, b->print);
        if (rc == 0)
            rc = b->bursty ? lp_cc_rewrite_file(b->opt ? inl : pre, dup, src, LP_CC_STEP_BURSTY,
                                                pic ? LP_CC_PIC : 0u, b->bursty, b->print)
                           : lp_cc_rewrite_file(opt, dup, src, LP_CC_STEP_COPIES,
                                                (b->one_version ? LP_CC_ONE_VERSION : 0u) |
                                                    (b->calls_only ? LP_CC_CALLS_ONLY : 0u),
                                                NULL, b->print);
        if (rc == 0)
            rc = lp_cc_run(s4.v, b->print);
        unsigned cflags = (pic ? LP_CC_PIC : 0u) | (b->calls_only ? LP_CC_CALLS_ONLY : 0u);
        if (rc == 0 && !b->bursty)
            rc = lp_cc_rewrite_file(cnt, cnt64, src, LP_CC_STEP_COUNTERS, cflags, NULL, 0);
        /* clang 14 crashes on a short redirect it cannot place (cc_clone.h,
         * lp_cc_prefixed, names the shapes known); a file it crashes on is
         * compiled again with every entry the compiler's 5-byte NOPs. The
         * messages of the try that counts (warnings, errors) are shown;
         * the crash's are not. */
        char log[PATH_MAX + 32];
        snprintf(log, sizeof log, "%s/%zu.log", made, k);
        if (rc == 0 && !b->bursty && (rc = lp_cc_run_log(s6.v, b->print, log)) >= 128) {
            fprintf(stderr,
                    "lowprof: cc: %s: clang failed on the prefixed entries (status %d); "
                    "compiled again without them\n",
                    src, rc);
            rc = lp_cc_rewrite_file(cnt, cnt64, src, LP_CC_STEP_COUNTERS, cflags | LP_CC_NO_PREFIX,
                                    NULL, 0);
            if (rc == 0)
                rc = lp_cc_run_log(s6.v, b->print, log);
        }
        if (!b->bursty)
            lp_cc_show_log(log);
        free(s1.v);
        free(s2.v);
        free(s4.v);
        free(s6.v);
        k++;
    }
    if (rc == 0 && !compile_only && !asm_only) {
        /* The link: the command with each C source replaced by its object. */
        int bad = lp_cc_push(&link, b->compiler);
        k = 0;
        for (int i = 0; i < argc; i++) {
            const char *a = argv[i];
            if (lp_cc_takes_value(a) && i + 1 < argc) {
                bad |= lp_cc_push(&link, a);
                bad |= lp_cc_push(&link, argv[++i]);
                continue;
            }
            if (strncmp(a, "-M", 2) == 0)
                continue;
            bad |= lp_cc_push(&link, lp_cc_is_c_source(a) ? objs[k++] : a);
        }
        for (size_t t = 0; t < b->nlink_tail; t++)
            bad |= lp_cc_push(&link, b->link_tail[t]);
        rc = bad ? lp_host_fail("out of memory") : lp_cc_run(link.v, b->print);
    }
    free(link.v);
    free(objs);
    lp_cc_rm_tree(made, nsrc);
    return rc;
}
