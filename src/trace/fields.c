/* Checked field readers for chunk payloads: every varint, count and string
 * a decoder takes goes through one of these, so each refusal names the
 * field and its absolute offset, and no count can exceed either a hard
 * limit or the bytes left to describe it. */
#include "trace_internal.h"

int lp__varint_fail(const lp__cur *c, int rc, const char *field, lp_read_error *err)
{
    if (rc == LP_ETRUNC)
        /* The chunk is complete and its checksum held, so running off its
         * end is a malformed payload, not a short file. */
        return lp__fail(err, lp__cur_offset(c), LP_EFORMAT, field,
                        "varint runs past the end of the payload");
    return lp__fail(err, lp__cur_offset(c), LP_EFORMAT, field,
                    "varint is over 64 bits or not in its shortest form");
}

int lp__get_varint(lp__cur *c, uint64_t *out, const char *field, lp_read_error *err)
{
    int rc = lp__cur_varint(c, out);
    return rc ? lp__varint_fail(c, rc, field, err) : 0;
}

int lp__get_range(lp__cur *c, uint64_t *out, uint64_t lo, uint64_t hi, int limit, const char *field,
                  lp_read_error *err)
{
    uint64_t at = lp__cur_offset(c);
    int rc = lp__get_varint(c, out, field, err);
    if (rc)
        return rc;
    if (*out < lo || *out > hi)
        return lp__fail(err, at, limit && *out > hi ? LP_ELIMIT : LP_EFORMAT, field,
                        "%llu is outside [%llu, %llu]", LP__ULL(*out), LP__ULL(lo), LP__ULL(hi));
    return 0;
}

int lp__get_count(lp__cur *c, uint64_t *out, uint64_t max, size_t min_bytes, const char *field,
                  lp_read_error *err)
{
    uint64_t at = lp__cur_offset(c);
    int rc = lp__get_varint(c, out, field, err);
    if (rc)
        return rc;
    if (*out > max)
        return lp__fail(err, at, LP_ELIMIT, field, "count %llu is over the limit of %llu",
                        LP__ULL(*out), LP__ULL(max));
    if (min_bytes && *out > lp__cur_left(c) / min_bytes)
        return lp__fail(err, at, LP_EFORMAT, field,
                        "count %llu cannot fit in the %llu bytes left in the chunk", LP__ULL(*out),
                        LP__ULL(lp__cur_left(c)));
    return 0;
}

int lp__get_string(lp__cur *c, char **out, const char *field, lp_read_error *err)
{
    uint64_t at = lp__cur_offset(c), len;
    *out = NULL;
    int rc = lp__get_count(c, &len, LP__MAX_STRING, 1, field, err);
    if (rc)
        return rc;
    const char *s = (const char *)c->p + c->pos;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '\0')
            return lp__fail(err, at, LP_EFORMAT, field, "string holds a NUL byte at %llu",
                            LP__ULL(i));
    *out = lp__strndup(s, (size_t)len);
    if (!*out)
        return lp__fail(err, at, LP_ENOMEM, field, "no memory for a string");
    c->pos += (size_t)len;
    return 0;
}

int lp__cur_expect_end(const lp__cur *c, const char *what, lp_read_error *err)
{
    if (lp__cur_left(c))
        return lp__fail(err, lp__cur_offset(c), LP_EFORMAT, what,
                        "%llu unexpected bytes at the end of the payload",
                        LP__ULL(lp__cur_left(c)));
    return 0;
}
