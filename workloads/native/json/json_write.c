/* json: the serializer, compact or indented. Strings are escaped as RFC 8259
 * requires (quote, backslash, control characters) and otherwise written as
 * UTF-8; numbers in the shortest plain form, or with an exponent when the
 * plain form would be long. */
#include "json.h"

#include <stdlib.h>
#include <string.h>

void js_buf_init(js_buf *b)
{
    b->cap = 4096;
    b->data = nw_alloc(b->cap);
    b->len = 0;
}

void js_buf_free(js_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

static void js_buf_reserve(js_buf *b, size_t extra)
{
    if (b->len + extra <= b->cap)
        return;
    while (b->len + extra > b->cap)
        b->cap *= 2;
    b->data = nw_realloc(b->data, b->cap);
}

void js_buf_append(js_buf *b, const char *s, size_t n)
{
    js_buf_reserve(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

static void js_putc(js_buf *b, char c)
{
    js_buf_reserve(b, 1);
    b->data[b->len++] = c;
}

static void js_newline(js_buf *b, int indent, int level)
{
    if (!indent)
        return;
    size_t n = (size_t)indent * (size_t)level;
    js_buf_reserve(b, n + 1);
    b->data[b->len++] = '\n';
    memset(b->data + b->len, ' ', n);
    b->len += n;
}

static void js_write_escape(js_buf *b, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    switch (c) {
    case '"': js_buf_append(b, "\\\"", 2); break;
    case '\\': js_buf_append(b, "\\\\", 2); break;
    case '\n': js_buf_append(b, "\\n", 2); break;
    case '\r': js_buf_append(b, "\\r", 2); break;
    case '\t': js_buf_append(b, "\\t", 2); break;
    case '\b': js_buf_append(b, "\\b", 2); break;
    case '\f': js_buf_append(b, "\\f", 2); break;
    default: {
        char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
        js_buf_append(b, u, 6);
    }
    }
}

static void js_write_string(js_buf *b, const char *s, size_t n)
{
    js_putc(b, '"');
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        js_buf_append(b, s + run, i - run);
        js_write_escape(b, c);
        run = i + 1;
    }
    js_buf_append(b, s + run, n - run);
    js_putc(b, '"');
}

static int js_digits(uint64_t v, char *out)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (int i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    return n;
}

static void js_write_int(js_buf *b, int64_t v)
{
    char d[24];
    if (v < 0)
        js_putc(b, '-');
    int n = js_digits(v < 0 ? 0 - (uint64_t)v : (uint64_t)v, d);
    js_buf_append(b, d, (size_t)n);
}

static void js_write_number(js_buf *b, int64_t mant, int32_t exp)
{
    char d[24];
    if (mant < 0)
        js_putc(b, '-');
    int n = js_digits(mant < 0 ? 0 - (uint64_t)mant : (uint64_t)mant, d);
    if (exp >= 0 && exp <= 6) {
        js_buf_append(b, d, (size_t)n);
        for (int i = 0; i < exp; i++)
            js_putc(b, '0');
    } else if (exp < 0 && -exp < n) {
        js_buf_append(b, d, (size_t)(n + exp));
        js_putc(b, '.');
        js_buf_append(b, d + n + exp, (size_t)-exp);
    } else if (exp < 0 && -exp <= n + 5) {
        js_buf_append(b, "0.", 2);
        for (int i = 0; i < -exp - n; i++)
            js_putc(b, '0');
        js_buf_append(b, d, (size_t)n);
    } else {
        js_putc(b, d[0]);
        if (n > 1) {
            js_putc(b, '.');
            js_buf_append(b, d + 1, (size_t)(n - 1));
        }
        js_putc(b, 'e');
        js_write_int(b, (int64_t)exp + n - 1);
    }
}

static void js_write_level(js_buf *b, const js_value *v, int indent, int level);

static void js_write_array(js_buf *b, const js_value *v, int indent, int level)
{
    js_putc(b, '[');
    for (size_t i = 0; i < v->u.arr.len; i++) {
        if (i)
            js_putc(b, ',');
        js_newline(b, indent, level + 1);
        js_write_level(b, v->u.arr.items[i], indent, level + 1);
    }
    if (v->u.arr.len)
        js_newline(b, indent, level);
    js_putc(b, ']');
}

static void js_write_object(js_buf *b, const js_value *v, int indent, int level)
{
    js_putc(b, '{');
    for (size_t i = 0; i < v->u.obj.len; i++) {
        const js_member *m = &v->u.obj.members[i];
        if (i)
            js_putc(b, ',');
        js_newline(b, indent, level + 1);
        js_write_string(b, m->key, m->key_len);
        js_buf_append(b, indent ? ": " : ":", indent ? 2 : 1);
        js_write_level(b, m->value, indent, level + 1);
    }
    if (v->u.obj.len)
        js_newline(b, indent, level);
    js_putc(b, '}');
}

static void js_write_level(js_buf *b, const js_value *v, int indent, int level)
{
    switch (v->type) {
    case JS_NULL: js_buf_append(b, "null", 4); break;
    case JS_FALSE: js_buf_append(b, "false", 5); break;
    case JS_TRUE: js_buf_append(b, "true", 4); break;
    case JS_NUMBER: js_write_number(b, v->u.num.mant, v->u.num.exp); break;
    case JS_STRING: js_write_string(b, v->u.str.chars, v->u.str.len); break;
    case JS_ARRAY: js_write_array(b, v, indent, level); break;
    case JS_OBJECT: js_write_object(b, v, indent, level); break;
    }
}

void js_write(js_buf *b, const js_value *v, int indent)
{
    js_write_level(b, v, indent, 0);
}
