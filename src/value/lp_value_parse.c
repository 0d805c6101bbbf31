/* value: the option string, "slots=64,pc-bits=16,clock=0.5,...". Each
 * field is name=value; the names are the ones lp_value_options lists in
 * brackets. An error reports the field at fault by its canonical name and
 * the offset and length of the offending text, so a command line can point
 * at it. Freestanding: no strtod; fractions are read as a decimal integer
 * over a power of ten, which is exact enough for ratios and thresholds. */
#include <stddef.h>

#include "lp_value_internal.h"

enum { KIND_U32, KIND_U64, KIND_DBL, KIND_CLASSES };

typedef struct opt_field {
    const char *name;
    unsigned kind;
    size_t off;
} opt_field;

#define F(n, k, m) {n, k, offsetof(lp_value_options, m)}
static const opt_field fields[] = {
    F("slots", KIND_U32, slots),
    F("buffer", KIND_U32, buffer),
    F("pc-bits", KIND_U32, pc_bits),
    F("value-bits", KIND_U32, value_bits),
    F("hit-bits", KIND_U32, hit_bits),
    F("total-bits", KIND_U32, total_bits),
    F("rand-bits", KIND_U32, rand_bits),
    F("seed", KIND_U32, seed),
    F("clock", KIND_DBL, clock),
    F("ipc", KIND_DBL, ipc),
    F("sample-cycles", KIND_U32, sample_cycles),
    F("classes", KIND_CLASSES, classes),
    F("mask-bits", KIND_U32, mask_bits),
    F("match", KIND_U32, match),
    F("mask-max", KIND_U32, mask_max),
    F("ignore-bits", KIND_U32, ignore_bits),
    F("done-bits", KIND_U32, done_bits),
    F("reselect", KIND_DBL, reselect),
    F("reselect-min", KIND_U32, reselect_min),
    F("keep-hits", KIND_U32, keep_hits),
    F("fail-factor", KIND_U32, fail_factor),
    F("thrash-factor", KIND_U32, thrash_factor),
    F("split-max", KIND_U32, split_max),
    F("high", KIND_DBL, high),
    F("low", KIND_DBL, low),
    F("min-profiles", KIND_U32, min_profiles),
    F("max-profiles", KIND_U32, max_profiles),
    F("min-samples", KIND_U32, min_samples),
    F("resample", KIND_U64, resample),
    F("region-idle", KIND_U64, region_idle),
    F("region-max", KIND_U64, region_max),
    F("interrupt-cycles", KIND_U32, interrupt_cycles),
    F("slot-cycles", KIND_U32, slot_cycles),
    F("load-cycles", KIND_U32, load_cycles),
    F("top", KIND_U32, top),
};
#undef F
#define NFIELDS (sizeof fields / sizeof fields[0])

static const struct {
    const char *name;
    uint32_t bits;
} class_names[] = {
    {"load", LP_VALUE_CLASS_LOAD},         {"store", LP_VALUE_CLASS_STORE},
    {"cond", LP_VALUE_CLASS_COND},         {"indirect", LP_VALUE_CLASS_INDIRECT},
    {"call", LP_VALUE_CLASS_CALL},         {"return", LP_VALUE_CLASS_RETURN},
    {"other", LP_VALUE_CLASS_OTHER},       {"all", LP_VALUE_CLASS_ALL},
};

/* 1 when text[0..len) is exactly the NUL-terminated name. */
static int same(const char *text, size_t len, const char *name)
{
    size_t i = 0;
    for (; i < len; i++)
        if (name[i] != text[i])
            return 0;
    return name[i] == '\0';
}

static int streq(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

static int fail(lp_value_parse_error *err, int code, size_t offset, size_t length,
                const char *field, const char *why)
{
    if (err) {
        err->offset = offset;
        err->length = length;
        err->field = field;
        err->why = why;
    }
    return code;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* An unsigned decimal filling all of s[0..len): 0, LP_ESPEC if malformed,
 * LP_EINVAL if above max. */
static int read_uint(const char *s, size_t len, uint64_t max, uint64_t *out)
{
    if (!len)
        return LP_ESPEC;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (!is_digit(s[i]))
            return LP_ESPEC;
        uint64_t d = (uint64_t)(s[i] - '0');
        if (v > (max - d) / 10)
            return LP_EINVAL;
        v = v * 10 + d;
    }
    *out = v;
    return LP_OK;
}

/* digits [ '.' digits ]: at most 18 significant digits in all. */
static int read_dbl(const char *s, size_t len, double *out)
{
    uint64_t mant = 0, scale = 1;
    size_t digits = 0;
    int dot = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '.' && !dot) {
            dot = 1;
            continue;
        }
        if (!is_digit(s[i]) || ++digits > 18)
            return LP_ESPEC;
        mant = mant * 10 + (uint64_t)(s[i] - '0');
        if (dot)
            scale *= 10;
    }
    if (!digits)
        return LP_ESPEC;
    *out = (double)mant / (double)scale;
    return LP_OK;
}

/* name { '+' name } */
static int read_classes(const char *s, size_t len, uint32_t *out)
{
    uint32_t bits = 0;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != '+')
            continue;
        size_t n = 0;
        while (n < sizeof class_names / sizeof class_names[0] &&
               !same(s + start, i - start, class_names[n].name))
            n++;
        if (n == sizeof class_names / sizeof class_names[0])
            return LP_ESPEC;
        bits |= class_names[n].bits;
        start = i + 1;
    }
    *out = bits;
    return LP_OK;
}

static const char *why_of(unsigned kind, int code)
{
    if (code == LP_EINVAL)
        return kind == KIND_U64 ? "a number below 2^64" : "a number below 2^32";
    switch (kind) {
    case KIND_DBL: return "a decimal number such as 0.5";
    case KIND_CLASSES: return "classes joined by '+': load, store, cond, indirect, call, "
                              "return, other, all";
    default: return "an unsigned decimal number";
    }
}

int lp_value_options_parse(const char *text, lp_value_options *o, lp_value_parse_error *out_err)
{
    /* Where each field's value was last given, for errors that only the
     * final check finds. */
    size_t vpos[NFIELDS], vlen[NFIELDS];
    for (size_t f = 0; f < NFIELDS; f++) {
        vpos[f] = SIZE_MAX; /* not given: the error points at the end */
        vlen[f] = 0;
    }
    size_t i = 0;
    while (text[i]) {
        size_t name = i;
        while (text[i] && text[i] != '=' && text[i] != ',')
            i++;
        size_t name_len = i - name;
        size_t f = 0;
        while (f < NFIELDS && !same(text + name, name_len, fields[f].name))
            f++;
        if (f == NFIELDS)
            return fail(out_err, LP_ESPEC, name, name_len, NULL, "an option name");
        if (text[i] != '=')
            return fail(out_err, LP_ESPEC, i, 0, fields[f].name, "'=' and a value");
        size_t val = ++i;
        while (text[i] && text[i] != ',')
            i++;
        size_t val_len = i - val;
        vpos[f] = val;
        vlen[f] = val_len;
        char *dst = (char *)o + fields[f].off;
        int rc;
        uint64_t u = 0;
        switch (fields[f].kind) {
        case KIND_U32:
            rc = read_uint(text + val, val_len, UINT32_MAX, &u);
            if (!rc)
                *(uint32_t *)(void *)dst = (uint32_t)u;
            break;
        case KIND_U64:
            rc = read_uint(text + val, val_len, UINT64_MAX, &u);
            if (!rc)
                *(uint64_t *)(void *)dst = u;
            break;
        case KIND_DBL:
            rc = read_dbl(text + val, val_len, (double *)(void *)dst);
            break;
        default:
            rc = read_classes(text + val, val_len, (uint32_t *)(void *)dst);
            break;
        }
        if (rc)
            return fail(out_err, rc, val, val_len, fields[f].name, why_of(fields[f].kind, rc));
        if (text[i] == ',') {
            i++;
            if (!text[i])
                return fail(out_err, LP_ESPEC, i, 0, NULL, "an option after ','");
        }
    }
    const char *field = NULL, *why = NULL;
    if (lp_value_options_check(o, &field, &why)) {
        size_t f = 0;
        while (f < NFIELDS && !streq(fields[f].name, field))
            f++;
        /* i is the end of the text here. */
        size_t pos = f < NFIELDS && vpos[f] != SIZE_MAX ? vpos[f] : i;
        size_t len = f < NFIELDS ? vlen[f] : 0;
        return fail(out_err, LP_EINVAL, pos, len, f < NFIELDS ? fields[f].name : field, why);
    }
    return LP_OK;
}
