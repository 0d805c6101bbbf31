/* analysis: formatted output to an lp_sink for the text and JSON reports,
 * keeping the first error so that writers need not check every call, and
 * the two ways a name from the file is made safe to print: JSON string
 * escaping with invalid UTF-8 replaced, and control characters hidden on a
 * text line. Symbol names come from the file, so they may hold anything. */
#include <stdio.h>
#include <string.h>

#include "analysis_internal.h"

static void lp__an_write(lp__an_out *o, const void *data, size_t n)
{
    if (!o->rc && n)
        o->rc = o->sink->write(o->sink->ctx, data, n);
}

void lp__an_printf(lp__an_out *o, const char *fmt, ...)
{
    if (o->rc)
        return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0) {
        o->rc = LP_EIO;
        return;
    }
    if ((size_t)n < sizeof buf) {
        lp__an_write(o, buf, (size_t)n);
        return;
    }
    char *big = lp_malloc((size_t)n + 1);
    if (!big) {
        o->rc = LP_ENOMEM;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    lp__an_write(o, big, (size_t)n);
    lp_free(big);
}

void lp__an_puts(lp__an_out *o, const char *s)
{
    lp__an_write(o, s, strlen(s));
}

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0. */
static size_t lp__an_utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n;
    unsigned lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0)
            lo = 0xa0;
        if (c == 0xed)
            hi = 0x9f; /* no surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0)
            lo = 0x90;
        if (c == 0xf4)
            hi = 0x8f;
    } else
        return 0;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)
            return 0;
    return n;
}

void lp__an_json_string(lp__an_out *o, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    char buf[256];
    size_t n = 0;
    buf[n++] = '"';
    while (*s) {
        if (n > sizeof buf - 16) {
            lp__an_write(o, buf, n);
            n = 0;
        }
        unsigned c = *s;
        if (c == '"' || c == '\\') {
            buf[n++] = '\\';
            buf[n++] = (char)c;
            s++;
        } else if (c < 0x20 || c == 0x7f) {
            n += (size_t)snprintf(buf + n, sizeof buf - n, "\\u%04x", c);
            s++;
        } else if (c < 0x80) {
            buf[n++] = (char)c;
            s++;
        } else {
            size_t len = lp__an_utf8_len(s);
            if (len) {
                memcpy(buf + n, s, len);
                n += len;
                s += len;
            } else {
                memcpy(buf + n, "\\ufffd", 6);
                n += 6;
                s++;
            }
        }
    }
    buf[n++] = '"';
    lp__an_write(o, buf, n);
}

void lp__an_text_name(lp__an_out *o, const char *str)
{
    char buf[256];
    size_t n = 0;
    for (const unsigned char *s = (const unsigned char *)str; *s; s++) {
        if (n == sizeof buf) {
            lp__an_write(o, buf, n);
            n = 0;
        }
        buf[n++] = *s < 0x20 || *s == 0x7f ? '?' : (char)*s;
    }
    lp__an_write(o, buf, n);
}
