/* `lowprof acf`: checks an ACF (an Application Customization Function: the
 * HPS productions of paper 000, section 3, in the language of doc/acf.md)
 * and prints how lowprof reads it, or lists the ACFs shipped in share/acf.
 *
 * lp_cli_acf_load is also what `lowprof record --acf` uses, so an ACF is
 * found, read and reported the same way everywhere: errors and warnings as
 * FILE:LINE:COL lines with the source line and a caret, as compilers do. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

const char cmd_acf_help[] =
    "usage: lowprof acf check FILE|NAME [--set HPS_Rk=V]...\n"
    "       lowprof acf list\n"
    "\n"
    "An ACF holds the HPS productions that decide which instructions are\n"
    "profiled and when (doc/acf.md): patterns over instruction attributes and\n"
    "counter flags, counter micro-operations, and replacement sequences that\n"
    "call a profile handler.\n"
    "\n"
    "check   reads the ACF and prints how lowprof reads it: its counters, the\n"
    "        registers that matter, each production with its pattern fully\n"
    "        parenthesised, its control and replacement, and each replacement.\n"
    "        Warnings go to standard error as FILE:LINE:COL: warning: ...; an\n"
    "        error as FILE:LINE:COL: error: ..., with the line and a caret.\n"
    "  --set HPS_Rk=V   set register HPS_Rk (k 0 to 15) to V (decimal or 0x\n"
    "                   hex) after reading, as `lowprof record --acf-set` does\n"
    "list    names each shipped ACF with the first line of its comment.\n"
    "\n"
    "FILE is a path. A NAME (no '/' and no .acf ending) is a shipped ACF:\n"
    "NAME.acf in $LOWPROF_ACF_DIR if that is set, else in the source tree's\n"
    "share/acf, else in the installed share/lowprof/acf.\n"
    "\n"
    "Exit status: 0 the ACF is good (warnings allowed), 1 it has an error or\n"
    "cannot be read, 2 bad command line.\n"
    "\n"
    "Examples:\n"
    "  lowprof acf list\n"
    "  lowprof acf check hot-method\n"
    "  lowprof acf check bursty-call-pair --set HPS_R2=0xfc18\n";

/* ---- finding ACFs ----------------------------------------------------------------- */

/* The folder NAMEs resolve in: $LOWPROF_ACF_DIR if set; else the source
 * tree's share/acf if it is there; else the installed one beside this
 * binary (bin/../share/lowprof/acf). Names and `list` use the same one, so
 * what list shows is what check finds. Writes the folder used, or those
 * looked at, into tried for messages. */
static const char *lp_acf_dir(char *installed, size_t cap, char *tried, size_t tried_cap)
{
    const char *env = getenv("LOWPROF_ACF_DIR");
    if (env && env[0]) {
        snprintf(tried, tried_cap, "%s (LOWPROF_ACF_DIR)", env);
        return env;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = '\0';
    snprintf(installed, cap, "%s/../share/lowprof/acf", exe);
    snprintf(tried, tried_cap, "%s and %s", LP_ACF_DIR, installed);
    const char *dirs[] = {LP_ACF_DIR, installed};
    for (size_t i = 0; i < 2; i++) {
        DIR *d = opendir(dirs[i]);
        if (d) {
            closedir(d);
            snprintf(tried, tried_cap, "%s", dirs[i]);
            return dirs[i];
        }
    }
    return NULL;
}

static int lp_acf_is_name(const char *s)
{
    size_t n = strlen(s);
    return n && !strchr(s, '/') && !(n >= 4 && strcmp(s + n - 4, ".acf") == 0);
}

/* The path of name_or_path into out; prints why not and returns
 * LP_ENOENT for a NAME no folder has. */
static int lp_acf_resolve(const char *name_or_path, char *out, size_t cap)
{
    if (!lp_acf_is_name(name_or_path)) {
        if ((size_t)snprintf(out, cap, "%s", name_or_path) < cap)
            return 0;
        lp_cli_fail("%s: path too long", name_or_path);
        return LP_EINVAL;
    }
    char installed[PATH_MAX + 32], tried[2 * PATH_MAX + 64];
    const char *dir = lp_acf_dir(installed, sizeof installed, tried, sizeof tried);
    if (dir && (size_t)snprintf(out, cap, "%s/%s.acf", dir, name_or_path) < cap &&
        access(out, F_OK) == 0)
        return 0;
    lp_cli_fail("no ACF named '%s' (looked in %s); `lowprof acf list` names the shipped ones",
                name_or_path, tried);
    return LP_ENOENT;
}

/* ---- reporting ------------------------------------------------------------------------ */

/* FILE:LINE:COL: KIND: MESSAGE, then the source line and a caret under the
 * column. The caret line copies the line's tabs and counts a UTF-8
 * character (the arrows) as one column, so it lines up on a terminal. */
static void lp_acf_report(const char *path, const uint8_t *text, size_t size, const lp_hps_diag *d,
                          const char *kind)
{
    fprintf(stderr, "%s:%u:%u: %s: %s\n", path, d->line, d->column, kind, d->message);
    size_t start = 0;
    unsigned line = 1;
    while (line < d->line && start < size)
        if (text[start++] == '\n')
            line++;
    if (line < d->line)
        return;
    size_t end = start;
    while (end < size && text[end] != '\n')
        end++;
    while (end > start && text[end - 1] == '\r')
        end--;
    fprintf(stderr, "%.*s\n", (int)(end - start), (const char *)text + start);
    for (size_t i = 0; i + 1 < d->column; i++) {
        uint8_t c = start + i < end ? text[start + i] : ' ';
        if ((c & 0xc0) != 0x80)
            fputc(c == '\t' ? '\t' : ' ', stderr);
    }
    fputs("^\n", stderr);
}

int lp_cli_acf_load(const char *name_or_path, lp_hps_acf *out, char *path_out, size_t path_size)
{
    char own[PATH_MAX + 64];
    char *path = path_out && path_size ? path_out : own;
    size_t cap = path_out && path_size ? path_size : sizeof own;
    memset(out, 0, sizeof *out);
    int rc = lp_acf_resolve(name_or_path, path, cap);
    if (rc)
        return rc;
    uint8_t *text;
    size_t size;
    rc = lp_cli_read_file(path, &text, &size);
    if (rc)
        return rc;
    lp_hps_diag err;
    rc = lp_hps_parse((const char *)text, size, out, &err);
    fflush(stdout);
    if (rc == LP_ESPEC)
        lp_acf_report(path, text, size, &err, "error");
    else if (rc)
        fprintf(stderr, "lowprof: %s: %s\n", path, lp_strerror(rc));
    for (size_t i = 0; !rc && i < out->nwarnings; i++)
        lp_acf_report(path, text, size, &out->warning[i], "warning");
    lp_free(text);
    return rc;
}

/* ---- check ------------------------------------------------------------------------ */

/* A register value: decimal or 0x hex, 64 bits, nothing else (strtoull
 * alone would take a sign and leading blanks). 0 or -1. */
static int lp_acf_number(const char *v, uint64_t *out)
{
    int hex = v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
    const char *digits = hex ? v + 2 : v;
    if (!(hex ? isxdigit((unsigned char)digits[0]) : isdigit((unsigned char)digits[0])))
        return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(digits, &end, hex ? 16 : 10);
    if (*end || errno == ERANGE)
        return -1;
    *out = x;
    return 0;
}

/* "HPS_Rk=V": checks the name against a scratch ACF and reads V. Returns
 * 0, or 2 after a usage message. */
static int lp_acf_parse_set(const char *arg, size_t *out_name_len, uint64_t *out_value)
{
    static lp_hps_acf scratch;
    const char *eq = strchr(arg, '=');
    if (!eq || lp_hps_set_register(&scratch, arg, (size_t)(eq - arg), 0) != 0 ||
        lp_acf_number(eq + 1, out_value) != 0)
        return lp_cli_usage("acf",
                            "--set needs HPS_Rk=V with k 0 to 15 and V a number "
                            "(decimal or 0x hex, 64 bits), not '%s'",
                            arg);
    *out_name_len = (size_t)(eq - arg);
    return 0;
}

static int lp_acf_check(int argc, char **argv)
{
    const char *file = NULL;
    const char *sets[64];
    int nsets = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--set") == 0 || strncmp(a, "--set=", 6) == 0) {
            const char *v = a[5] == '=' ? a + 6 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v)
                return lp_cli_usage("acf", "--set needs HPS_Rk=V");
            if (nsets == (int)(sizeof sets / sizeof sets[0]))
                return lp_cli_usage("acf", "at most 64 --set options");
            size_t len;
            uint64_t value;
            if (lp_acf_parse_set(v, &len, &value))
                return 2;
            sets[nsets++] = v;
        } else if (a[0] == '-' && a[1] != '\0') {
            return lp_cli_usage("acf", "unknown option '%s'", a);
        } else if (file) {
            return lp_cli_usage("acf", "check takes one FILE or NAME, not also '%s'", a);
        } else {
            file = a;
        }
    }
    if (!file)
        return lp_cli_usage("acf", "check needs a FILE or NAME");
    char path[PATH_MAX + 64];
    lp_hps_acf acf;
    if (lp_cli_acf_load(file, &acf, path, sizeof path) != 0)
        return 1;
    for (int k = 0; k < nsets; k++) {
        size_t len = 0;
        uint64_t value = 0;
        lp_acf_parse_set(sets[k], &len, &value);
        lp_hps_set_register(&acf, sets[k], len, value);
    }
    printf("%s\n", path);
    lp_sink out = lp_cli_file_sink(stdout);
    int rc = lp_hps_print(&acf, &out);
    lp_hps_acf_free(&acf);
    if (rc || fflush(stdout) != 0)
        return lp_cli_fail("standard output: %s", strerror(errno));
    return 0;
}

/* ---- list ------------------------------------------------------------------------- */

/* The first comment line of an ACF, without its marker, into out. */
static void lp_acf_summary(const char *path, char *out, size_t cap)
{
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(out, cap, "(cannot read: %s)", strerror(errno));
        return;
    }
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        char *s = line + strspn(line, " \t");
        if (s[0] == '#')
            s++;
        else if (s[0] == '/' && s[1] == '/')
            s += 2;
        else if (s[0] == '\n' || s[0] == '\r' || s[0] == '\0')
            continue;
        else
            break;
        s += strspn(s, " \t");
        size_t n = strcspn(s, "\r\n");
        snprintf(out, cap, "%.*s", (int)n, s);
        break;
    }
    fclose(f);
}

static int lp_acf_by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int lp_acf_list(int argc, char **argv)
{
    if (argc > 1)
        return lp_cli_usage("acf", "list takes no arguments, not '%s'", argv[1]);
    char installed[PATH_MAX + 32], tried[2 * PATH_MAX + 64];
    const char *dir = lp_acf_dir(installed, sizeof installed, tried, sizeof tried);
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d)
        return lp_cli_fail("no folder of ACFs (looked in %s)", tried);
    char **names = NULL;
    size_t n = 0, width = 4;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len <= 4 || strcmp(e->d_name + len - 4, ".acf") != 0 || e->d_name[0] == '.')
            continue;
        char **more = realloc(names, (n + 1) * sizeof *names);
        char *name = strndup(e->d_name, len - 4);
        if (!more || !name) {
            free(more ? more : names);
            free(name);
            closedir(d);
            return lp_cli_fail("out of memory");
        }
        names = more;
        names[n++] = name;
        if (len - 4 > width)
            width = len - 4;
    }
    closedir(d);
    qsort(names, n, sizeof *names, lp_acf_by_name);
    printf("ACFs in %s\n", dir);
    for (size_t i = 0; i < n; i++) {
        char path[PATH_MAX + 300], summary[256];
        snprintf(path, sizeof path, "%s/%s.acf", dir, names[i]);
        lp_acf_summary(path, summary, sizeof summary);
        printf("  %-*s  %s\n", (int)width, names[i], summary);
        free(names[i]);
    }
    free(names);
    if (n == 0)
        printf("  (none)\n");
    return fflush(stdout) == 0 ? 0 : lp_cli_fail("standard output: %s", strerror(errno));
}

int cmd_acf(int argc, char **argv)
{
    if (argc < 2)
        return lp_cli_usage("acf", "missing subcommand: check or list");
    if (strcmp(argv[1], "check") == 0)
        return lp_acf_check(argc - 1, argv + 1);
    if (strcmp(argv[1], "list") == 0)
        return lp_acf_list(argc - 1, argv + 1);
    return lp_cli_usage("acf", "unknown subcommand '%s': check or list", argv[1]);
}
