/* A small JSON writer for the collector's answers: appends to an lp_membuf.
 *
 * Names in profiles come from devices and from ELF and DWARF, so they are
 * bytes, not promised UTF-8: valid UTF-8 passes, any other byte becomes
 * the code point of the same value, and the answer always parses. An
 * allocation failure is remembered in the buffer (capacity set to
 * SIZE_MAX is impossible for a real buffer, so it marks it) and checked
 * once at the end. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "collector_internal.h"

/* Capacity SIZE_MAX cannot be reached by growth, so it marks a failed writer. */
static void json_fail(lp_membuf *b)
{
    b->capacity = SIZE_MAX;
}

int lp__json_failed(const lp_membuf *b)
{
    return b->capacity == SIZE_MAX;
}

static void json_put(lp_membuf *b, const void *data, size_t n)
{
    if (lp__json_failed(b) || n == 0)
        return;
    lp_sink sink = lp_membuf_sink(b);
    if (sink.write(sink.ctx, data, n) != 0)
        json_fail(b);
}

void lp__json_raw(lp_membuf *b, const char *s)
{
    json_put(b, s, strlen(s));
}

void lp__json_printf(lp_membuf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        json_fail(b);
        return;
    }
    if ((size_t)n < sizeof small) {
        json_put(b, small, (size_t)n);
        return;
    }
    char *big = lp_malloc((size_t)n + 1);
    if (!big) {
        json_fail(b);
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    json_put(b, big, (size_t)n);
    lp_free(big);
}

/* Length of the valid UTF-8 sequence at p (n bytes remain), 0 if none. */
static size_t json_utf8(const unsigned char *p, size_t n)
{
    if (p[0] < 0x80)
        return 1;
    size_t len = (p[0] & 0xe0) == 0xc0 ? 2 : (p[0] & 0xf0) == 0xe0 ? 3 : (p[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (len == 0 || len > n)
        return 0;
    uint32_t cp = p[0] & (0x7fu >> len);
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3fu);
    }
    /* Overlong forms, surrogates and code points past U+10FFFF are not UTF-8. */
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

int lp__utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        size_t len = json_utf8(p + i, n - i);
        if (len == 0)
            return 0;
        i += len;
    }
    return 1;
}

void lp__json_str(lp_membuf *b, const char *s)
{
    if (!s) {
        lp__json_raw(b, "null");
        return;
    }
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), start = 0;
    json_put(b, "\"", 1);
    for (size_t i = 0; i < n;) {
        size_t len = json_utf8(p + i, n - i);
        /* '<' is escaped too, so a name can never close a <script> the
         * answer might be pasted into. */
        if (len > 0 && p[i] >= 0x20 && p[i] != '"' && p[i] != '\\' && p[i] != '<') {
            i += len;
            continue;
        }
        json_put(b, p + start, i - start);
        char esc[8];
        switch (p[i]) {
        case '"': json_put(b, "\\\"", 2); break;
        case '\\': json_put(b, "\\\\", 2); break;
        case '\n': json_put(b, "\\n", 2); break;
        case '\t': json_put(b, "\\t", 2); break;
        default:
            snprintf(esc, sizeof esc, "\\u%04x", p[i]);
            json_put(b, esc, 6);
            break;
        }
        i++;
        start = i;
    }
    json_put(b, p + start, n - start);
    json_put(b, "\"", 1);
}

void lp__json_key(lp_membuf *b, const char *key, int first)
{
    if (!first)
        json_put(b, ",", 1);
    lp__json_str(b, key);
    json_put(b, ":", 1);
}

void lp__json_u64(lp_membuf *b, uint64_t v)
{
    lp__json_printf(b, "%" PRIu64, v);
}

void lp__json_i64(lp_membuf *b, int64_t v)
{
    lp__json_printf(b, "%" PRId64, v);
}
