/* Error text for the readers: a printf subset that needs no libc (the
 * Valgrind tool has none) and the helper that fills lp_read_error. Errors
 * are rare, so this is written for size and safety, not speed: output is
 * always cut to the buffer and always terminated. */
#include "trace_internal.h"

typedef struct out {
    char *buf;
    size_t cap;
    size_t len;
} out;

static void put_char(out *o, char ch)
{
    if (o->len + 1 < o->cap)
        o->buf[o->len++] = ch;
}

static void put_str(out *o, const char *s)
{
    if (!s)
        s = "(null)";
    while (*s)
        put_char(o, *s++);
}

static void put_unsigned(out *o, unsigned long long v, unsigned base)
{
    char digits[24];
    size_t n = 0;
    do {
        unsigned d = (unsigned)(v % base);
        digits[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
        v /= base;
    } while (v);
    while (n)
        put_char(o, digits[--n]);
}

static void put_signed(out *o, long long v)
{
    if (v < 0) {
        put_char(o, '-');
        put_unsigned(o, 0ULL - (unsigned long long)v, 10);
    } else {
        put_unsigned(o, (unsigned long long)v, 10);
    }
}

/* Handles exactly the conversions lp__fmt documents; anything else is
 * copied literally so a mistake shows up in the message, not as a crash. */
static void vformat(out *o, const char *fmt, __builtin_va_list ap)
{
    for (const char *f = fmt; *f; f++) {
        if (*f != '%') {
            put_char(o, *f);
            continue;
        }
        f++;
        if (*f == 's') {
            put_str(o, __builtin_va_arg(ap, const char *));
        } else if (*f == 'u') {
            put_unsigned(o, __builtin_va_arg(ap, unsigned), 10);
        } else if (*f == 'd') {
            put_signed(o, __builtin_va_arg(ap, int));
        } else if (f[0] == 'l' && f[1] == 'l' && (f[2] == 'u' || f[2] == 'x' || f[2] == 'd')) {
            if (f[2] == 'd')
                put_signed(o, __builtin_va_arg(ap, long long));
            else
                put_unsigned(o, __builtin_va_arg(ap, unsigned long long), f[2] == 'x' ? 16 : 10);
            f += 2;
        } else if (*f == '%') {
            put_char(o, '%');
        } else {
            put_char(o, '%');
            if (!*f)
                break;
            put_char(o, *f);
        }
    }
    if (o->cap)
        o->buf[o->len] = '\0';
}

char *lp__fmt(char *buf, size_t cap, const char *fmt, ...)
{
    out o = {buf, cap, 0};
    __builtin_va_list ap;
    __builtin_va_start(ap, fmt);
    vformat(&o, fmt, ap);
    __builtin_va_end(ap);
    return buf;
}

int lp__fail(lp_read_error *err, uint64_t offset, int code, const char *field,
             const char *detail_fmt, ...)
{
    if (!err)
        return code;
    err->offset = offset;
    out f = {err->field, sizeof err->field, 0};
    put_str(&f, field);
    f.buf[f.len] = '\0';
    out d = {err->detail, sizeof err->detail, 0};
    __builtin_va_list ap;
    __builtin_va_start(ap, detail_fmt);
    vformat(&d, detail_fmt, ap);
    __builtin_va_end(ap);
    return code;
}
