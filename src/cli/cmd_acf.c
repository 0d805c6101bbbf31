/* `lowprof acf`: checks an ACF (an Application Customization Function: the
 * HPS productions of paper 000, section 3, in the language of doc/acf.md)
 * and prints how lowprof reads it, or lists the ACFs shipped in share/acf.
 * Finding and
 * reading an ACF is lp_host_acf_load's (src/host/host_acf.c), shared with
 * `lowprof record --acf` and `lowprof eval hps`. */
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
        return lp_host_usage("acf",
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
                return lp_host_usage("acf", "--set needs HPS_Rk=V");
            if (nsets == (int)(sizeof sets / sizeof sets[0]))
                return lp_host_usage("acf", "at most 64 --set options");
            size_t len;
            uint64_t value;
            if (lp_acf_parse_set(v, &len, &value))
                return 2;
            sets[nsets++] = v;
        } else if (a[0] == '-' && a[1] != '\0') {
            return lp_host_usage("acf", "unknown option '%s'", a);
        } else if (file) {
            return lp_host_usage("acf", "check takes one FILE or NAME, not also '%s'", a);
        } else {
            file = a;
        }
    }
    if (!file)
        return lp_host_usage("acf", "check needs a FILE or NAME");
    char path[PATH_MAX + 64];
    lp_hps_acf acf;
    if (lp_host_acf_load(file, &acf, path, sizeof path) != 0)
        return 1;
    for (int k = 0; k < nsets; k++) {
        size_t len = 0;
        uint64_t value = 0;
        lp_acf_parse_set(sets[k], &len, &value);
        lp_hps_set_register(&acf, sets[k], len, value);
    }
    printf("%s\n", path);
    lp_sink out = lp_host_file_sink(stdout);
    int rc = lp_hps_print(&acf, &out);
    lp_hps_acf_free(&acf);
    if (rc || fflush(stdout) != 0)
        return lp_host_fail("standard output: %s", strerror(errno));
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
        return lp_host_usage("acf", "list takes no arguments, not '%s'", argv[1]);
    char installed[PATH_MAX + 32], tried[2 * PATH_MAX + 64];
    const char *dir = lp_host_acf_dir(installed, sizeof installed, tried, sizeof tried);
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d)
        return lp_host_fail("no folder of ACFs (looked in %s)", tried);
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
            return lp_host_fail("out of memory");
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
    return fflush(stdout) == 0 ? 0 : lp_host_fail("standard output: %s", strerror(errno));
}

int cmd_acf(int argc, char **argv)
{
    if (argc < 2)
        return lp_host_usage("acf", "missing subcommand: check or list");
    if (strcmp(argv[1], "check") == 0)
        return lp_acf_check(argc - 1, argv + 1);
    if (strcmp(argv[1], "list") == 0)
        return lp_acf_list(argc - 1, argv + 1);
    return lp_host_usage("acf", "unknown subcommand '%s': check or list", argv[1]);
}
