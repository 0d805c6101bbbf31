/* lowprof cc: compiles and links a C program with the compilers' own
 * profile instructions and the native runtime (doc/lowprof-cc.md).
 *
 * It adds the instrumentation flags to the compiler's command line and, when
 * the command links, the runtime archive liblowprof-rt.a (from the build tree
 * this lowprof was built in, or the installed library folder) and -pthread;
 * then it becomes the compiler (exec), so the exit status and output are
 * the compiler's own. Before that it checks that the compiler accepts each
 * flag, and refuses with a reason when it does not (gcc has no
 * trace-pc-guard coverage: block profiles need clang). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lowprof/bursty.h"
#include "lowprof/cc.h"
#include "cli.h"

const char cmd_cc_help[] =
    "usage: lowprof cc [--profiles=LIST] [--blocks=clone|inline] [--loops=two|one]\n"
    "                  [--cc=COMPILER] [--rt=ARCHIVE] [--print] [--] COMPILER-ARGS...\n"
    "\n"
    "Runs the C compiler with the instrumentation the native runtime switches,\n"
    "and links the runtime (liblowprof-rt.a) and -pthread when the command\n"
    "links a program (a -shared library uses its program's runtime). Run the\n"
    "program with LOWPROF=... to choose what is profiled and\n"
    "when (doc/runtime.md); with LOWPROF unset it profiles the call graph of\n"
    "all its methods 10% of the time.\n"
    "\n"
    "  --profiles=LIST  what the program can profile, a comma list:\n"
    "                   call-graph  function entries (methods, call pairs, the\n"
    "                               call graph): -fpatchable-function-entry=5,0\n"
    "                   block       basic blocks (clang only)\n"
    "                   bursty[:P]  bursty tracing (clang only, alone): each\n"
    "                               function's checking and instrumented code,\n"
    "                               checks at placement P's entries and loop\n"
    "                               back-edges (orig, EL, EC, EN, L4, L10, LN,\n"
    "                               EC+L4; default EC+L4); the bursts sample\n"
    "                               the call graph and hot data streams; run\n"
    "                               with LOWPROF=bursty=NCHECK:NINSTR\n"
    "                   none        link the runtime, instrument nothing\n"
    "                   default: call-graph\n"
    "  --blocks=MODE    how the profiles are compiled:\n"
    "                   clone   (clang) each function gets a copy that counts\n"
    "                           its blocks, entries and calls inline; the\n"
    "                           original has only its patchable entry, most\n"
    "                           often a prefix before it that runs nothing,\n"
    "                           and the runtime sends calls to the copy while\n"
    "                           the function is on (near-free while off; the\n"
    "                           default; a file clang crashes on is compiled\n"
    "                           again without prefixes, and says so; with\n"
    "                           gcc, call graphs go through the entry\n"
    "                           trampoline); direct calls of pthread_create\n"
    "                           call the runtime's lp__rt_pthread_create,\n"
    "                           which starts threads in their routine's copy\n"
    "                   inline  no copies: trace-pc-guard coverage calls in the\n"
    "                           functions themselves, switched off by patching\n"
    "                           (costs 24-56 % off), and the trampoline\n"
    "  --loops=MODE     the copies' outermost loops (clone):\n"
    "                   one  as compiled: a copy counts until it returns\n"
    "                        (the default)\n"
    "                   two  each in two versions, counted and not, chosen\n"
    "                        at every iteration by whether a window is open:\n"
    "                        a copy that runs on after its window stops\n"
    "                        counting at its next iteration; cheaper blocks\n"
    "                        at 10% windows (doc/runtime.md)\n"
    "  --cc=COMPILER    the compiler (default: $CC unless it names lowprof,\n"
    "                   as CC=\"lowprof cc --\" for configure does; else clang,\n"
    "                   else cc; block needs clang)\n"
    "  --rt=ARCHIVE     the runtime archive to link (default: the one built\n"
    "                   with this lowprof, else the installed one;\n"
    "                   $LOWPROF_RT overrides both)\n"
    "  --print          print the compiler command before running it\n"
    "\n"
    "The manual route is `pkg-config --cflags --libs lowprof-rt`, which gives\n"
    "the call-graph flag and the link flags.\n"
    "\n"
    "Examples:\n"
    "  lowprof cc -- -O2 -g prog.c -o prog\n"
    "  lowprof cc --profiles=call-graph,block --cc=clang -- -O2 -c a.c\n"
    "  LOWPROF=strategy=phase,profiles=call-graph,block ./prog\n"
    "  lowprof cc --profiles=bursty:EC+L4 -- -O2 -g prog.c -o prog\n"
    "  LOWPROF=bursty=1000:50 ./prog\n";

#define LP_CC_ENTRY_FLAG "-fpatchable-function-entry=5,0"
#define LP_CC_BLOCK_FLAG "-fsanitize-coverage=trace-pc-guard,pc-table"
/* The copies count inline, without calls (cc_counters.c makes the
 * counters 64-bit and per thread, and gives a counter of its own to each
 * block with a call that the coverage pass left out, since a call's count
 * is its block's). */
#define LP_CC_COUNTER_FLAG "-fsanitize-coverage=inline-8bit-counters,pc-table"

/* Whether compiler accepts flag on an empty C file (no output kept): 1 it
 * does, 0 it refuses, -1 it cannot be run. */
static int lp_cc_accepts(const char *compiler, const char *flag)
{
    pid_t pid = fork();
    if (pid < 0)
        return 0;
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
        }
        execlp(compiler, compiler, "-x", "c", "-c", "-o", "/dev/null", "-Werror", flag, "-",
               (char *)NULL);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Whether the compiler command links: no -c, -S, -E, -M or -MM. */
static int lp_cc_links(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "-c") == 0 || strcmp(argv[i], "-S") == 0 ||
            strcmp(argv[i], "-E") == 0 || strcmp(argv[i], "-M") == 0 ||
            strcmp(argv[i], "-MM") == 0)
            return 0;
    return 1;
}

/* Whether $CC names a compiler to run: it is set, and not lowprof itself.
 * A build system told CC="lowprof cc --" (configure, make) passes that on
 * in the environment, and lowprof cc must not take itself for the
 * compiler. */
static int lp_cc_env_compiler(void)
{
    const char *cc = getenv("CC");
    if (!cc || !*cc)
        return 0;
    size_t word = strcspn(cc, " \t");
    const char *base = cc;
    for (size_t k = 0; k < word; k++)
        if (cc[k] == '/')
            base = cc + k + 1;
    return !((size_t)(cc + word - base) == 7 && memcmp(base, "lowprof", 7) == 0);
}

/* Whether the command links a program, which gets the runtime: it links
 * and is not -shared. A shared library's code uses the runtime of the
 * program that loads it, as a process has one runtime (and the archive is
 * not position-independent: linked into a library, ld fails). */
static int lp_cc_links_runtime(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "-shared") == 0)
            return 0;
    return lp_cc_links(argc, argv);
}

/* Whether block profiles compile through function copies: the command
 * compiles C files and does not only preprocess (-E, -M, -MM). */
static int lp_cc_clones(int argc, char **argv)
{
    int sources = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-E") == 0 || strcmp(a, "-M") == 0 || strcmp(a, "-MM") == 0)
            return 0;
        sources |= lp_cc_is_c_source(a);
    }
    return sources;
}

/* Whether the command asks for a sanitizer itself. */
static int lp_cc_has_sanitizer(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (strncmp(argv[i], "-fsanitize=", 11) == 0)
            return 1;
    return 0;
}

/* $LOWPROF_RT, the build tree's archive, or the installed one. */
static int lp_cc_find_rt(const char *given, char *out, size_t cap)
{
    const char *env = given ? given : getenv("LOWPROF_RT");
    if (env) {
        if (access(env, R_OK) != 0)
            return lp_host_fail("%s: %s", env, strerror(errno));
        snprintf(out, cap, "%s", env);
        return 0;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = 0;
    char installed[PATH_MAX + 64];
    snprintf(installed, sizeof installed, "%s/../%s", exe, LP_RT_LIBDIR);
    const char *dirs[] = {LP_RT_BUILD_DIR, installed, LP_RT_PREFIX "/" LP_RT_LIBDIR};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(out, cap, "%s/liblowprof-rt.a", dirs[i]);
        if (access(out, R_OK) == 0)
            return 0;
    }
    return lp_host_fail("liblowprof-rt.a was not built (looked in %s and %s)", LP_RT_BUILD_DIR,
                       installed);
}

/* The folder holding lowprof/rt.h: the source tree or the installed one. */
static const char *lp_cc_include_dir(void)
{
    static char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/lowprof/rt.h", LP_RT_SOURCE_INCLUDE);
    if (access(path, R_OK) == 0)
        return LP_RT_SOURCE_INCLUDE;
    return LP_RT_PREFIX "/" LP_RT_INCLUDEDIR;
}

static const char *const lp_cc_frame_flags[] = {"-fno-omit-frame-pointer",
                                                "-mno-omit-leaf-frame-pointer"};

/* Frame pointers in every function, leaves too (a leaf without one would
 * hide its caller from the runtime's stack walk): the flags are put first
 * among the compiler arguments, which start at (*argv)[first], so every
 * step gets them (the copies' too) and the program's own flags come after
 * and still win. *argv becomes a new array, kept to the end of the
 * command (in lp_cc_frame_argv). 0, or 1 with a message. */
static char **lp_cc_frame_argv;
static int lp_cc_frame_pointers(const char *compiler, int *argc, char ***argv, int first)
{
    int nf = (int)(sizeof lp_cc_frame_flags / sizeof *lp_cc_frame_flags);
    for (int k = 0; k < nf; k++)
        if (!lp_cc_accepts(compiler, lp_cc_frame_flags[k]))
            return lp_host_fail("cc: %s does not accept %s: calling contexts need frame pointers",
                                compiler, lp_cc_frame_flags[k]);
    char **av = calloc((size_t)(*argc + nf + 1), sizeof *av);
    if (!av)
        return lp_host_fail("out of memory");
    for (int k = 0; k < *argc; k++)
        av[k < first ? k : k + nf] = (*argv)[k];
    for (int k = 0; k < nf; k++)
        av[first + k] = (char *)lp_cc_frame_flags[k];
    *argc += nf;
    *argv = lp_cc_frame_argv = av;
    return 0;
}

/* Whether a line of a command's output holds needle. */
static int lp_cc_output_has(const char *cmd, const char *needle)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return 0;
    char line[512];
    int found = 0;
    while (fgets(line, sizeof line, p))
        found |= strstr(line, needle) != NULL;
    pclose(p);
    return found;
}

/* LLVM's opt of the compiler's own version (opt-MAJOR, else opt), or NULL. */
static const char *lp_cc_find_opt(const char *compiler, char *out, size_t cap)
{
    char cmd[PATH_MAX + 64];
    snprintf(cmd, sizeof cmd, "'%s' -dumpversion 2>/dev/null", compiler);
    FILE *p = popen(cmd, "r");
    int major = 0;
    if (p) {
        if (fscanf(p, "%d", &major) != 1)
            major = 0;
        pclose(p);
    }
    if (major <= 0)
        return NULL;
    char want[32];
    snprintf(want, sizeof want, "version %d.", major);
    for (int k = 0; k < 2; k++) {
        if (k == 0)
            snprintf(out, cap, "opt-%d", major);
        else
            snprintf(out, cap, "opt");
        snprintf(cmd, sizeof cmd, "'%s' --version 2>/dev/null", out);
        if (lp_cc_output_has(cmd, want))
            return out;
    }
    return NULL;
}

/* The bursty-tracing build (--profiles=bursty[:PLACEMENT]): every C file
 * through clang's IR, where each function gets its checking and
 * instrumented code (src/frontends/cc/cc_bursty.h); no other profile
 * instructions. */
static int lp_cc_bursty(const char *compiler, const char *placement, unsigned types,
                        const char *rt_given, int print, int argc, char **argv)
{
    if (types & 2)
        return lp_host_usage("cc", "--profiles: bursty comes alone (its bursts sample the call "
                                   "graph and the data references; blocks are not among them)");
    if (lp_cc_accepts(compiler, "-O0") < 0)
        return lp_host_fail("cc: cannot run %s", compiler);
    if (lp_cc_accepts(compiler, "-emit-llvm") != 1)
        return lp_host_fail("cc: bursty tracing rewrites clang's IR, and %s is not clang; "
                           "use --cc=clang",
                           compiler);
    if (!lp_cc_clones(argc, argv) && lp_cc_links(argc, argv) == 0)
        return lp_host_usage("cc", "--profiles=bursty needs C files to compile");
    int links = lp_cc_links_runtime(argc, argv);
    char rt[PATH_MAX + 32];
    if (links && lp_cc_find_rt(rt_given, rt, sizeof rt) != 0)
        return 1;
    char inc[PATH_MAX + 8];
    snprintf(inc, sizeof inc, "-I%s", lp_cc_include_dir());
    char optbuf[64];
    const char *opt = lp_cc_find_opt(compiler, optbuf, sizeof optbuf);
    if (!opt)
        fprintf(stderr, "lowprof: cc: no opt of %s's LLVM version (Debian package llvm): the "
                        "functions are inlined after the rewrite, and the checking code "
                        "runs slower\n",
                compiler);
    char *tail[3] = {"-Wl,-u,lp_rt_enabled", rt, "-pthread"};
    char **av = calloc((size_t)argc + 2, sizeof *av);
    if (!av)
        return lp_host_fail("out of memory");
    av[0] = inc;
    for (int k = 0; k < argc; k++)
        av[k + 1] = argv[k];
    lp_cc_build b = {
        .compiler = compiler,
        .argc = argc + 1,
        .argv = av,
        .link_tail = tail,
        .nlink_tail = links ? 3 : 0,
        .print = print,
        .bursty = placement,
        .opt = opt,
    };
    int rc = lp_cc_clone_build(&b);
    free(av);
    return rc;
}

int cmd_cc(int argc, char **argv)
{
    unsigned types = 1; /* bit 0 call-graph, bit 1 block, bit 2 frame pointers */
    const char *compiler = NULL, *rt_given = NULL;
    char bursty[32] = ""; /* bursty tracing's placement */
    int print = 0, i = 1, inline_blocks = 0, one_version = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (strncmp(a, "--profiles=", 11) == 0) {
            types = 0;
            for (const char *s = a + 11; *s;) {
                size_t len = strcspn(s, ",");
                if (len == 10 && strncmp(s, "call-graph", 10) == 0)
                    types |= 1;
                else if ((len == 5 && strncmp(s, "block", 5) == 0) ||
                         (len == 6 && strncmp(s, "blocks", 6) == 0))
                    types |= 2;
                else if (len == 7 && strncmp(s, "context", 7) == 0)
                    types |= 4;
                else if ((len == 6 || (len > 7 && s[6] == ':')) && strncmp(s, "bursty", 6) == 0) {
                    const char *pl = len == 6 ? "EC+L4" : s + 7;
                    size_t pn = len == 6 ? 5 : len - 7, bad;
                    lp_bursty_placement parsed;
                    if (pn >= sizeof bursty ||
                        lp_bursty_placement_parse(pl, pn, &parsed, &bad) != 0)
                        return lp_host_usage("cc",
                                             "--profiles: bursty placement '%.*s' is not one of "
                                             "orig, EL, EC, EN, L<k>, LN or ENTRY+LOOP "
                                             "(such as EC+L4)",
                                             (int)pn, pl);
                    memcpy(bursty, pl, pn);
                    bursty[pn] = 0;
                }
                else if (!(len == 4 && strncmp(s, "none", 4) == 0))
                    return lp_host_usage("cc",
                                         "--profiles: '%.*s' is not call-graph, block, "
                                         "context, bursty[:PLACEMENT] or none",
                                         (int)len, s);
                s += len + (s[len] == ',');
            }
        } else if (strcmp(a, "--blocks=clone") == 0 || strcmp(a, "--blocks=inline") == 0) {
            inline_blocks = a[9] == 'i';
        } else if (strncmp(a, "--blocks=", 9) == 0) {
            return lp_host_usage("cc", "--blocks: '%s' is not clone or inline", a + 9);
        } else if (strcmp(a, "--loops=two") == 0 || strcmp(a, "--loops=one") == 0) {
            one_version = a[8] == 'o';
        } else if (strncmp(a, "--loops=", 8) == 0) {
            return lp_host_usage("cc", "--loops: '%s' is not two or one", a + 8);
        } else if (strncmp(a, "--cc=", 5) == 0 && a[5]) {
            compiler = a + 5;
        } else if (strncmp(a, "--rt=", 5) == 0 && a[5]) {
            rt_given = a + 5;
        } else if (strcmp(a, "--print") == 0) {
            print = 1;
        } else if (a[0] == '-' && a[1] == '-') {
            return lp_host_usage("cc", "unknown option %s (compiler options go after --)", a);
        } else {
            break; /* the compiler's arguments start here */
        }
    }
    if (i >= argc)
        return lp_host_usage("cc", "no compiler arguments");
    if (!compiler && lp_cc_env_compiler())
        compiler = getenv("CC");
    /* clang when it is there: its builds count in copies, gcc's through
     * the trampoline (bzip2's call graph always on: 1.007 of the plain
     * build's instructions against 1.563). */
    if (!compiler || !*compiler)
        compiler = types & 2 || *bursty || lp_cc_accepts("clang", "-O0") > 0 ? "clang" : "cc";
    if (*bursty)
        return lp_cc_bursty(compiler, bursty, types, rt_given, print, argc - i, argv + i);
    if (types == 4)
        types |= 1;
    const char *flags[2];
    int nflags = 0;
    if (lp_cc_accepts(compiler, "-O0") < 0)
        return lp_host_fail("cc: cannot run %s", compiler);
    if (types & 1) {
        if (!lp_cc_accepts(compiler, LP_CC_ENTRY_FLAG))
            return lp_host_fail("cc: %s does not accept %s: function events need gcc 8 or later, "
                               "or clang 10 or later",
                               compiler, LP_CC_ENTRY_FLAG);
        flags[nflags++] = LP_CC_ENTRY_FLAG;
    }
    if (types & 2) {
        if (!lp_cc_accepts(compiler, LP_CC_BLOCK_FLAG))
            return lp_host_fail("cc: %s does not accept %s: block profiles need clang "
                               "(gcc has only -fsanitize-coverage=trace-pc, which has no guards "
                               "and no pc-table); use --cc=clang or --profiles=call-graph",
                               compiler, LP_CC_BLOCK_FLAG);
        flags[nflags++] = LP_CC_BLOCK_FLAG;
    }
    if ((types & 4) && lp_cc_frame_pointers(compiler, &argc, &argv, i) != 0)
        return 1;
    int links = lp_cc_links_runtime(argc - i, argv + i);
    char rt[PATH_MAX + 32];
    if (links && lp_cc_find_rt(rt_given, rt, sizeof rt) != 0)
        return 1;
    char inc[PATH_MAX + 8];
    snprintf(inc, sizeof inc, "-I%s", lp_cc_include_dir());
    /* What a link appends after the program's objects. With coverage but no
     * sanitizer, clang links UBSan's runtime just for its default coverage
     * callbacks, and with it a SIGSEGV handler that would change how the
     * program dies: the runtime has the callbacks. */
    /* Copies with inline counters serve call graphs as well as blocks,
     * wherever the compiler can make them (clang); gcc gets the
     * trampoline for call graphs. */
    int copies = types && !inline_blocks && lp_cc_clones(argc - i, argv + i) &&
                 ((types & 2) || lp_cc_accepts(compiler, LP_CC_COUNTER_FLAG) == 1);
    char *tail[4];
    size_t ntail = 0;
    if (links) {
        if (((types & 2) || copies) && !lp_cc_has_sanitizer(argc - i, argv + i))
            tail[ntail++] = "-fno-sanitize-link-runtime";
        tail[ntail++] = "-Wl,-u,lp_rt_enabled"; /* pulls in the runtime's constructor */
        tail[ntail++] = rt;
        tail[ntail++] = "-pthread";
    }
    if (copies) {
        size_t cap = (size_t)(argc - i) + 2;
        char **av = calloc(cap, sizeof *av);
        if (!av)
            return lp_host_fail("out of memory");
        av[0] = inc;
        for (int k = i; k < argc; k++)
            av[k - i + 1] = argv[k];
        lp_cc_build b = {
            .compiler = compiler,
            .argc = argc - i + 1,
            .argv = av,
            .entry_flag = LP_CC_ENTRY_FLAG,
            .block_flag = LP_CC_COUNTER_FLAG,
            .link_tail = tail,
            .nlink_tail = ntail,
            .print = print,
            .calls_only = !(types & 2),
            .one_version = one_version,
        };
        int rc = lp_cc_clone_build(&b);
        free(av);
        return rc;
    }
    /* compiler, flags, -I, the arguments, then the runtime after the objects. */
    size_t cap = (size_t)(argc - i) + 16;
    char **av = calloc(cap, sizeof *av);
    if (!av)
        return lp_host_fail("out of memory");
    size_t n = 0;
    av[n++] = (char *)compiler;
    for (int k = 0; k < nflags; k++)
        av[n++] = (char *)flags[k];
    av[n++] = inc;
    for (int k = i; k < argc; k++)
        av[n++] = argv[k];
    for (size_t k = 0; k < ntail; k++)
        av[n++] = tail[k];
    av[n] = NULL;
    if (print) {
        for (size_t k = 0; k < n; k++)
            fprintf(stderr, "%s%s", k ? " " : "", av[k]);
        fputc('\n', stderr);
    }
    fflush(NULL);
    execvp(compiler, av);
    int e = errno;
    free(av);
    return lp_host_fail("cc: cannot run %s: %s", compiler, strerror(e));
}
