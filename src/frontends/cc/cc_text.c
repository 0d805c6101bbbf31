/* IR text in and out, for the rewriters of lowprof cc (cc_clone.h): a
 * growing output buffer and the input split into lines. */
#define _GNU_SOURCE /* memmem */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_clone.h"

void lp__cc_put(lp_cc_buf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

void lp__cc_puts(lp_cc_buf *b, const char *s)
{
    lp__cc_put(b, s, strlen(s));
}

void lp__cc_printf(lp_cc_buf *b, const char *fmt, ...)
{
    char t[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t, sizeof t, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof t)
        b->failed = 1;
    else
        lp__cc_put(b, t, (size_t)n);
}

lp_cc_line *lp__cc_split(const char *in, size_t len, size_t *count)
{
    size_t cap = 1;
    for (size_t i = 0; i < len; i++)
        cap += in[i] == '\n';
    lp_cc_line *lines = malloc(cap * sizeof *lines);
    if (!lines)
        return NULL;
    size_t n = 0;
    for (const char *p = in, *e = in + len; p < e;) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        size_t l = nl ? (size_t)(nl - p) : (size_t)(e - p);
        lines[n].p = p;
        lines[n++].n = l;
        p += l + 1;
    }
    *count = n;
    return lines;
}

void *lp__cc_grow(void *p, size_t n, size_t *cap, size_t size, size_t first)
{
    if (n < *cap)
        return p;
    size_t want = *cap ? 2 * *cap : first;
    void *q = realloc(p, want * size);
    if (q)
        *cap = want;
    return q;
}

int lp__cc_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '$' || c == '.' || c == '_';
}

const char *lp__cc_params(const char *l, size_t n)
{
    const char *end = l + n, *p = memchr(l, '@', n); /* no '@' before the name */
    if (!p)
        return NULL;
    if (++p < end && *p == '"') { /* a quoted name, whose quotes are escaped */
        p = memchr(p + 1, '"', (size_t)(end - (p + 1)));
        if (!p)
            return NULL;
        p++;
    }
    while (p < end && lp__cc_ident_char(*p))
        p++;
    return p < end && *p == '(' ? p : NULL;
}

int lp__cc_fail(char *err, size_t errcap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errcap, fmt, ap);
    va_end(ap);
    return -1;
}

unsigned long lp__cc_num(const char *p, size_t n, size_t *used)
{
    unsigned long v = 0;
    size_t j = 0;
    for (; j < n && p[j] >= '0' && p[j] <= '9'; j++)
        v = v > LP__CC_NUM_MAX ? v : v * 10 + (unsigned long)(p[j] - '0');
    *used = j;
    return v;
}

int lp__cc_starts(lp_cc_line l, const char *s)
{
    size_t n = strlen(s);
    return l.n >= n && memcmp(l.p, s, n) == 0;
}

int lp__cc_name_cmp(const char *a, size_t na, const char *b, size_t nb)
{
    int r = memcmp(a, b, na < nb ? na : nb);
    return r ? r : (na > nb) - (na < nb);
}

int lp__cc_depth(char ch)
{
    return (ch == '(' || ch == '{' || ch == '[' || ch == '<') -
           (ch == ')' || ch == '}' || ch == ']' || ch == '>');
}

size_t lp__cc_hash(const char *p, size_t n)
{
    size_t h = 1469598103934665603u; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211u;
    return h;
}

const char *lp__cc_callee(const char *l, size_t n)
{
    const char *end = l + n;
    const char *c = memmem(l, n, "call ", 5);
    if (!c || (c != l && c[-1] != ' '))
        return NULL;
    for (const char *p = c + 5; p < end; p++) {
        if (*p == '(' && p + 1 < end && p[-1] != ' ')
            return NULL; /* an argument list with no callee name before it */
        if ((*p == '@' || *p == '%') && p[-1] == ' ') {
            const char *q = p + 1;
            while (q < end && lp__cc_ident_char(*q))
                q++;
            if (q < end && *q == '(' && q > p + 1)
                return p;
            if (*p == '@')
                return NULL; /* a callee in a cast, or an argument */
        }
        if (*p == '"' || (end - p >= 4 && memcmp(p, "asm ", 4) == 0))
            return NULL;
    }
    return NULL;
}
