/* json: the parser, RFC 8259 strict: no trailing commas, no comments, no
 * leading zeros, strings validated as UTF-8, \u escapes with surrogate
 * pairs. Recursive descent on one character of look-ahead, nesting bounded
 * so hostile input cannot exhaust the stack. Numbers are read exactly into
 * a decimal mantissa (at most 18 digits) and exponent. */
#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { JS_MAX_DEPTH = 256, JS_MAX_DIGITS = 18 };

typedef struct js_parser {
    const char *text;
    size_t len, pos;
    js_doc *doc;
    js_error *err;
    int depth;
    js_buf scratch; /* unescaped strings */
    int failed;
} js_parser;

static js_value *js_fail(js_parser *p, const char *what)
{
    if (!p->failed) {
        p->failed = 1;
        p->err->offset = p->pos;
        snprintf(p->err->message, sizeof p->err->message, "%s", what);
    }
    return NULL;
}

static int js_peek(const js_parser *p)
{
    return p->pos < p->len ? (unsigned char)p->text[p->pos] : -1;
}

static void js_skip_ws(js_parser *p)
{
    while (p->pos < p->len) {
        char c = p->text[p->pos];
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
            break;
        p->pos++;
    }
}

static int js_consume(js_parser *p, const char *word)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->text + p->pos, word, n) != 0)
        return 0;
    p->pos += n;
    return 1;
}

/* ---- strings --------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s[0..avail), 0 if invalid. */
static size_t js_utf8_sequence(const unsigned char *s, size_t avail)
{
    unsigned char c = s[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0)
            lo = 0xa0;
        else if (c == 0xed)
            hi = 0x9f; /* no UTF-16 surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0)
            lo = 0x90;
        else if (c == 0xf4)
            hi = 0x8f;
    } else {
        return 0;
    }
    if (avail < n || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    }
    return n;
}

static int js_hex4(js_parser *p, uint32_t *out)
{
    if (p->len - p->pos < 4)
        return -1;
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p->text[p->pos++];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v << 4 | (uint32_t)d;
    }
    *out = v;
    return 0;
}

static void js_put_utf8(js_buf *b, uint32_t cp)
{
    unsigned char u[4];
    size_t n;
    if (cp < 0x80) {
        u[0] = (unsigned char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (unsigned char)(0xc0 | cp >> 6);
        u[1] = (unsigned char)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (unsigned char)(0xe0 | cp >> 12);
        u[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
        u[2] = (unsigned char)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        u[0] = (unsigned char)(0xf0 | cp >> 18);
        u[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
        u[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
        u[3] = (unsigned char)(0x80 | (cp & 0x3f));
        n = 4;
    }
    js_buf_append(b, (const char *)u, n);
}

static int js_unicode_escape(js_parser *p)
{
    uint32_t cp;
    if (js_hex4(p, &cp))
        return -1;
    if (cp >= 0xdc00 && cp <= 0xdfff)
        return -1; /* a lone low surrogate */
    if (cp >= 0xd800 && cp <= 0xdbff) {
        uint32_t low;
        if (!js_consume(p, "\\u") || js_hex4(p, &low) || low < 0xdc00 || low > 0xdfff)
            return -1;
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
    }
    js_put_utf8(&p->scratch, cp);
    return 0;
}

static int js_escape(js_parser *p)
{
    if (p->pos >= p->len)
        return -1;
    char c = p->text[p->pos++], out;
    switch (c) {
    case '"': out = '"'; break;
    case '\\': out = '\\'; break;
    case '/': out = '/'; break;
    case 'b': out = '\b'; break;
    case 'f': out = '\f'; break;
    case 'n': out = '\n'; break;
    case 'r': out = '\r'; break;
    case 't': out = '\t'; break;
    case 'u': return js_unicode_escape(p);
    default: return -1;
    }
    js_put_utf8(&p->scratch, (unsigned char)out);
    return 0;
}

/* Reads a string after its opening quote into p->scratch. */
static int js_string_body(js_parser *p)
{
    p->scratch.len = 0;
    for (;;) {
        size_t start = p->pos;
        /* The common case: a run of plain characters, copied at once. */
        while (p->pos < p->len) {
            unsigned char c = (unsigned char)p->text[p->pos];
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80)
                break;
            p->pos++;
        }
        js_buf_append(&p->scratch, p->text + start, p->pos - start);
        int c = js_peek(p);
        if (c < 0)
            return (js_fail(p, "unterminated string"), -1);
        if (c == '"') {
            p->pos++;
            return 0;
        }
        if (c < 0x20)
            return (js_fail(p, "control character in string"), -1);
        if (c == '\\') {
            p->pos++;
            if (js_escape(p))
                return (js_fail(p, "bad escape"), -1);
            continue;
        }
        size_t n = js_utf8_sequence((const unsigned char *)p->text + p->pos, p->len - p->pos);
        if (n == 0)
            return (js_fail(p, "invalid UTF-8"), -1);
        js_buf_append(&p->scratch, p->text + p->pos, n);
        p->pos += n;
    }
}

static js_value *js_parse_string(js_parser *p)
{
    p->pos++;
    if (js_string_body(p))
        return NULL;
    return js_new_string(p->doc, p->scratch.data, p->scratch.len);
}

/* ---- numbers --------------------------------------------------------------- */

static int js_is_digit(int c)
{
    return c >= '0' && c <= '9';
}

/* Skips a run of digits; returns how many. */
static size_t js_skip_digits(js_parser *p)
{
    size_t start = p->pos;
    while (js_is_digit(js_peek(p)))
        p->pos++;
    return p->pos - start;
}

/* The value of the digits in text[from..to) with the '.' at dot (or none),
 * as mantissa and exponent; -1 past JS_MAX_DIGITS significant digits.
 * Zeros at either end are not significant, so "1000" and "0.0010" fit. */
static int js_digits_value(const char *text, size_t from, size_t to, size_t dot, int64_t *mant,
                           int32_t *exp)
{
    size_t first = from, last = to;
    while (first < to && (text[first] == '0' || first == dot))
        first++;
    while (last > first && (text[last - 1] == '0' || last - 1 == dot))
        last--;
    *mant = 0;
    /* The exponent of the last significant digit: minus the digits after it
     * up to the point, or plus those between it and the point. */
    size_t point = dot ? dot : to;
    *exp = last <= point ? (int32_t)(point - last) : -(int32_t)(last - point - 1);
    int digits = 0;
    for (size_t i = first; i < last; i++) {
        if (i == dot)
            continue;
        if (++digits > JS_MAX_DIGITS)
            return -1;
        *mant = *mant * 10 + (text[i] - '0');
    }
    return 0;
}

static js_value *js_parse_number(js_parser *p)
{
    size_t start = p->pos, dot = 0;
    int negative = js_peek(p) == '-';
    p->pos += (size_t)negative;
    size_t from = p->pos;
    size_t int_digits = js_skip_digits(p);
    if (int_digits == 0)
        return js_fail(p, "expected a digit");
    if (int_digits > 1 && p->text[from] == '0')
        return (p->pos = from + 1, js_fail(p, "leading zero"));
    if (js_peek(p) == '.') {
        dot = p->pos++;
        if (js_skip_digits(p) == 0)
            return js_fail(p, "expected a fraction digit");
    }
    size_t to = p->pos;
    int32_t e = 0;
    if (js_peek(p) == 'e' || js_peek(p) == 'E') {
        p->pos++;
        int sign = 1;
        if (js_peek(p) == '+' || js_peek(p) == '-')
            sign = p->text[p->pos++] == '-' ? -1 : 1;
        if (!js_is_digit(js_peek(p)))
            return js_fail(p, "expected an exponent digit");
        while (js_is_digit(js_peek(p))) {
            e = e * 10 + (p->text[p->pos++] - '0');
            if (e > 100000)
                return js_fail(p, "exponent out of range");
        }
        e *= sign;
    }
    int64_t mant;
    int32_t exp;
    if (js_digits_value(p->text, from, to, dot, &mant, &exp))
        return (p->pos = start, js_fail(p, "too many digits"));
    return js_new_number(p->doc, negative ? -mant : mant, exp + e);
}

/* ---- structure --------------------------------------------------------------- */

static js_value *js_parse_value(js_parser *p);

/* Past the opening bracket; 1 (and the closing one consumed too) when the
 * container is empty. */
static int js_open(js_parser *p, int close)
{
    p->pos++;
    js_skip_ws(p);
    if (js_peek(p) != close)
        return 0;
    p->pos++;
    return 1;
}

/* After an element: 1 at the closing bracket, 0 at a comma (either is
 * consumed), -1 after reporting anything else. */
static int js_next(js_parser *p, int close, const char *what)
{
    js_skip_ws(p);
    int c = js_peek(p);
    if (c != close && c != ',') {
        js_fail(p, what);
        return -1;
    }
    p->pos++;
    return c == close;
}

static js_value *js_parse_array(js_parser *p)
{
    js_value *arr = js_new(p->doc, JS_ARRAY);
    if (js_open(p, ']'))
        return arr;
    for (;;) {
        js_value *item = js_parse_value(p);
        if (!item)
            return NULL;
        js_array_push(p->doc, arr, item);
        int end = js_next(p, ']', "expected , or ]");
        if (end)
            return end > 0 ? arr : NULL;
    }
}

static js_value *js_parse_object(js_parser *p)
{
    js_value *obj = js_new(p->doc, JS_OBJECT);
    if (js_open(p, '}'))
        return obj;
    for (;;) {
        js_skip_ws(p);
        if (js_peek(p) != '"')
            return js_fail(p, "expected a key");
        p->pos++;
        if (js_string_body(p))
            return NULL;
        /* The key is copied out of scratch before the value reuses it. */
        size_t key_len = p->scratch.len;
        char *key = js_doc_alloc(p->doc, key_len + 1);
        memcpy(key, p->scratch.data, key_len);
        js_skip_ws(p);
        if (js_peek(p) != ':')
            return js_fail(p, "expected :");
        p->pos++;
        js_value *value = js_parse_value(p);
        if (!value)
            return NULL;
        js_object_set(p->doc, obj, key, key_len, value);
        int end = js_next(p, '}', "expected , or }");
        if (end)
            return end > 0 ? obj : NULL;
    }
}

static js_value *js_literal(js_parser *p, const char *word, js_type type)
{
    return js_consume(p, word) ? js_new(p->doc, type) : js_fail(p, "bad literal");
}

static js_value *js_parse_value(js_parser *p)
{
    js_skip_ws(p);
    if (++p->depth > JS_MAX_DEPTH)
        return js_fail(p, "nested too deeply");
    js_value *v;
    int c = js_peek(p);
    switch (c) {
    case '{': v = js_parse_object(p); break;
    case '[': v = js_parse_array(p); break;
    case '"': v = js_parse_string(p); break;
    case 't': v = js_literal(p, "true", JS_TRUE); break;
    case 'f': v = js_literal(p, "false", JS_FALSE); break;
    case 'n': v = js_literal(p, "null", JS_NULL); break;
    default:
        v = c == '-' || js_is_digit(c) ? js_parse_number(p) : js_fail(p, "unexpected character");
        break;
    }
    p->depth--;
    return v;
}

js_value *js_parse(js_doc *doc, const char *text, size_t len, js_error *err)
{
    js_parser p;
    memset(&p, 0, sizeof p);
    p.text = text;
    p.len = len;
    p.doc = doc;
    p.err = err;
    js_buf_init(&p.scratch);
    js_value *v = js_parse_value(&p);
    if (v) {
        js_skip_ws(&p);
        if (p.pos != p.len)
            v = js_fail(&p, "trailing characters");
    }
    js_buf_free(&p.scratch);
    return v;
}
