/* The workload suite's manifest: reading workloads/suite.tsv and turning
 * its commands into argument vectors (see wl_manifest.h for the format).
 *
 * The manifest is a few dozen lines written by the project, but it is still
 * input: every malformed line is reported with its line number rather than
 * half-run. There is deliberately no shell: commands are words, and the
 * only syntax is <PATH and >PATH, so what runs is exactly what is written. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowprof/host.h"
#include "lowprof/suite.h"

static char *xstrndup(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* Splits s at spaces into a malloc'd array of malloc'd words. */
static int split_words(const char *s, char ***out, size_t *out_n)
{
    size_t n = 0, cap = 8;
    char **w = malloc(cap * sizeof *w);
    if (!w)
        return LP_ENOMEM;
    while (*s) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        const char *e = s;
        while (*e && *e != ' ')
            e++;
        if (n == cap) {
            char **p = realloc(w, 2 * cap * sizeof *w);
            if (!p)
                goto oom;
            w = p;
            cap *= 2;
        }
        if (!(w[n] = xstrndup(s, (size_t)(e - s))))
            goto oom;
        n++;
        s = e;
    }
    *out = w;
    *out_n = n;
    return 0;
oom:
    for (size_t i = 0; i < n; i++)
        free(w[i]);
    free(w);
    return LP_ENOMEM;
}

static void free_words(char **w, size_t n)
{
    for (size_t i = 0; w && i < n; i++)
        free(w[i]);
    free(w);
}

static void entry_fini(lp_wl_entry *e)
{
    free(e->name);
    free(e->size);
    free_words(e->env, e->nenv);
    free_words(e->words, e->nwords);
    memset(e, 0, sizeof *e);
}

void lp_wl_manifest_fini(lp_wl_manifest *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->count; i++)
        entry_fini(&m->items[i]);
    free(m->items);
    m->items = NULL;
    m->count = 0;
}

static char *expand_word(const char *word, const lp_wl_vars *v, const char **bad);

static int bad_line(const char *path, unsigned line, const char *why)
{
    fflush(stdout);
    fprintf(stderr, "lowprof: %s:%u: %s\n", path, line, why);
    return LP_EFORMAT;
}

/* Parses one non-comment line (without its newline) into *e. */
static int parse_line(const char *path, unsigned line, char *s, lp_wl_entry *e)
{
    char *field[4];
    int n = 0;
    field[n++] = s;
    for (char *p = s; *p && n < 4; p++) {
        if (*p == '\t') {
            *p = '\0';
            field[n++] = p + 1;
        }
    }
    if (n < 4)
        return bad_line(path, line, "expected 4 tab-separated fields: name, size, env, command");
    if (strchr(field[3], '\t'))
        return bad_line(path, line, "a command holds no tabs (words are separated by spaces)");
    if (!field[0][0] || strchr(field[0], ' ') || strchr(field[0], '/'))
        return bad_line(path, line, "the name must be one word without '/'");
    if (strcmp(field[1], "small") != 0 && strcmp(field[1], "full") != 0 &&
        strcmp(field[1], "*") != 0)
        return bad_line(path, line, "the size must be small, full or *");
    memset(e, 0, sizeof *e);
    e->line = line;
    if (!(e->name = strdup(field[0])) || !(e->size = strdup(field[1])))
        goto oom;
    if (strcmp(field[2], "-") != 0) {
        if (split_words(field[2], &e->env, &e->nenv) != 0)
            goto oom;
        for (size_t i = 0; i < e->nenv; i++) {
            const char *eq = strchr(e->env[i], '=');
            if (!eq || eq == e->env[i]) {
                entry_fini(e);
                return bad_line(path, line, "environment entries are NAME=VALUE words, or -");
            }
        }
    }
    if (split_words(field[3], &e->words, &e->nwords) != 0)
        goto oom;
    if (e->nwords == 0) {
        entry_fini(e);
        return bad_line(path, line, "the command is empty");
    }
    /* Placeholders are checked now, so a typo fails before inputs are made
     * or anything is recorded. */
    const lp_wl_vars probe = {"", "", "", ""};
    for (size_t i = 0; i < e->nwords; i++) {
        const char *bad = NULL;
        char *x = expand_word(e->words[i], &probe, &bad);
        if (!x) {
            char why[200];
            snprintf(why, sizeof why,
                     "unknown placeholder in '%.80s' (known: {data} {out} "
                     "{drivers} {cc1})",
                     e->words[i]);
            entry_fini(e);
            return bad_line(path, line, bad ? why : "out of memory");
        }
        free(x);
    }
    return 0;
oom:
    entry_fini(e);
    return bad_line(path, line, "out of memory");
}

int lp_wl_manifest_load(const char *path, lp_wl_manifest *out)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        fflush(stdout);
        fprintf(stderr, "lowprof: %s: %s\n", path, strerror(e));
        return e == ENOENT ? LP_ENOENT : LP_EIO;
    }
    char buf[4096];
    unsigned line = 0;
    size_t cap = 0;
    int rc = 0;
    while (rc == 0 && fgets(buf, sizeof buf, f)) {
        line++;
        size_t len = strlen(buf);
        if (len == sizeof buf - 1 && buf[len - 1] != '\n') {
            rc = bad_line(path, line, "line longer than 4095 bytes");
            break;
        }
        while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            buf[--len] = '\0';
        if (len == 0 || buf[0] == '#')
            continue;
        if (out->count == cap) {
            size_t ncap = cap ? 2 * cap : 32;
            lp_wl_entry *p = realloc(out->items, ncap * sizeof *p);
            if (!p) {
                rc = bad_line(path, line, "out of memory");
                break;
            }
            out->items = p;
            cap = ncap;
        }
        rc = parse_line(path, line, buf, &out->items[out->count]);
        if (rc == 0)
            out->count++;
    }
    if (rc == 0 && ferror(f)) {
        fflush(stdout);
        fprintf(stderr, "lowprof: %s: read error\n", path);
        rc = LP_EIO;
    }
    fclose(f);
    if (rc)
        lp_wl_manifest_fini(out);
    return rc;
}

int lp_wl_entry_has_size(const lp_wl_entry *e, const char *size)
{
    return strcmp(e->size, "*") == 0 || strcmp(e->size, size) == 0;
}

int lp_wl_entry_is_prepare(const lp_wl_entry *e)
{
    return strcmp(e->name, "prepare") == 0;
}

/* Expands the placeholders in word; NULL with *bad set to the offending
 * placeholder's start on an unknown one, NULL alone on no memory. */
static char *expand_word(const char *word, const lp_wl_vars *v, const char **bad)
{
    static const char *const names[] = {"{data}", "{out}", "{drivers}", "{cc1}"};
    const char *values[] = {v->data, v->out, v->drivers, v->cc1};
    size_t cap = strlen(word) + 1;
    for (size_t i = 0; i < 4; i++)
        for (const char *p = strstr(word, names[i]); p; p = strstr(p + 1, names[i]))
            cap += strlen(values[i]);
    char *out = malloc(cap), *o = out;
    if (!out)
        return NULL;
    for (const char *p = word; *p;) {
        if (*p == '{') {
            size_t i = 0;
            while (i < 4 && strncmp(p, names[i], strlen(names[i])) != 0)
                i++;
            if (i == 4) {
                *bad = p;
                free(out);
                return NULL;
            }
            size_t n = strlen(values[i]);
            memcpy(o, values[i], n);
            o += n;
            p += strlen(names[i]);
        } else {
            *o++ = *p++;
        }
    }
    *o = '\0';
    return out;
}

void lp_wl_command_fini(lp_wl_command *c)
{
    if (!c)
        return;
    free_words(c->argv, c->argc);
    free(c->stdin_path);
    free(c->stdout_path);
    memset(c, 0, sizeof *c);
}

int lp_wl_command_expand(const lp_wl_entry *e, const lp_wl_vars *vars, const char *path,
                         lp_wl_command *out)
{
    memset(out, 0, sizeof *out);
    out->argv = calloc(e->nwords + 1, sizeof *out->argv);
    if (!out->argv)
        return bad_line(path, e->line, "out of memory");
    for (size_t i = 0; i < e->nwords; i++) {
        const char *w = e->words[i];
        int redirect = (w[0] == '<' || w[0] == '>') ? w[0] : 0;
        const char *bad = NULL;
        char *x = expand_word(redirect ? w + 1 : w, vars, &bad);
        if (!x) {
            char why[160];
            if (bad)
                snprintf(why, sizeof why,
                         "unknown placeholder in '%s' (known: {data} {out} "
                         "{drivers} {cc1})",
                         w);
            lp_wl_command_fini(out);
            return bad_line(path, e->line, bad ? why : "out of memory");
        }
        char **slot = redirect == '<'   ? &out->stdin_path
                      : redirect == '>' ? &out->stdout_path
                                        : NULL;
        if (slot) {
            if (!x[0] || *slot) {
                const char *why = x[0] ? "more than one redirection of a stream"
                                       : "a redirection needs a path: <PATH or >PATH";
                free(x);
                lp_wl_command_fini(out);
                return bad_line(path, e->line, why);
            }
            *slot = x;
        } else {
            out->argv[out->argc++] = x;
        }
    }
    if (out->argc == 0) {
        lp_wl_command_fini(out);
        return bad_line(path, e->line, "the command has redirections but no program");
    }
    return 0;
}
