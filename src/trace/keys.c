/* The sorted-key coder shared by profile chunks and dictionary chunks.
 * Keys are two words; lists are strictly increasing by (a, b), so a is
 * coded as a non-negative delta and equal keys cannot be expressed at all.
 * The second word depends on the profile type: an edge's destination sits
 * near its branch, a value does not, so each chunk says whether b is coded
 * plainly or relative to a, and the writer picks whichever is smaller. */
#include "trace_internal.h"

static uint64_t b_code(unsigned mode, int first, lp_key prev, lp_key k)
{
    if (!first && k.a == prev.a)
        return k.b - prev.b - 1; /* sorted: b grew by at least one */
    return mode == LP__KEYS_RELATIVE ? lp__zigzag(k.b - k.a) : k.b;
}

unsigned lp__keys_choose(const void *keys, size_t n, size_t stride)
{
    const uint8_t *base = keys;
    uint64_t plain = 0, relative = 0;
    lp_key prev = {0, 0};
    for (size_t i = 0; i < n; i++) {
        lp_key k;
        __builtin_memcpy(&k, base + i * stride, sizeof k);
        if (i == 0 || k.a != prev.a) {
            plain += lp__varint_size(k.b);
            relative += lp__varint_size(lp__zigzag(k.b - k.a));
        }
        prev = k;
    }
    return relative < plain ? LP__KEYS_RELATIVE : LP__KEYS_PLAIN;
}

void lp__key_put(lp__buf *b, unsigned mode, int first, lp_key prev, lp_key k)
{
    lp__buf_varint(b, first ? k.a : k.a - prev.a);
    lp__buf_varint(b, b_code(mode, first, prev, k));
}

int lp__key_get(lp__cur *c, unsigned mode, int first, lp_key *prev, const char **why)
{
    size_t start = c->pos;
    uint64_t da, db;
    lp_key k;
    *why = "key varint runs past the payload, is over 64 bits or is not minimal";
    if (lp__cur_varint(c, &da) || lp__cur_varint(c, &db))
        goto fail;
    *why = "key word a overflows 64 bits";
    if (first)
        k.a = da;
    else if (da > UINT64_MAX - prev->a)
        goto fail;
    else
        k.a = prev->a + da;
    if (!first && da == 0) {
        *why = "key word b overflows 64 bits";
        if (db >= UINT64_MAX - prev->b)
            goto fail;
        k.b = prev->b + 1 + db;
    } else {
        k.b = mode == LP__KEYS_RELATIVE ? k.a + lp__unzigzag(db) : db;
    }
    *why = "the all-ones key is reserved";
    if (k.a == UINT64_MAX && k.b == UINT64_MAX)
        goto fail;
    *prev = k;
    return 0;
fail:
    c->pos = start;
    return LP_EFORMAT;
}
