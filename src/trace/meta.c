/* Run metadata: an ordered list of key/value strings (program, arguments,
 * strategy, completeness, ...), and its chunk. Lists are short (at most
 * LP__MAX_META items), so lookups are linear and the array grows one item at
 * a time. Writers and readers enforce the same rules: keys are non-empty and
 * unique, strings are at most LP__MAX_STRING bytes and hold no NUL. */
#include "trace_internal.h"

static int check_string(const char *s, int allow_empty)
{
    if (!s)
        return LP_EINVAL;
    size_t n = lp__strlen(s);
    if (!n && !allow_empty)
        return LP_EINVAL;
    return n > LP__MAX_STRING ? LP_ELIMIT : 0;
}

static lp_meta_item *find_item(const lp_meta *m, const char *key, size_t len)
{
    for (size_t i = 0; i < m->count; i++)
        if (lp__strneq(key, len, m->items[i].key))
            return &m->items[i];
    return NULL;
}

/* NULL m, key or value and an empty key give LP_EINVAL; strings over
 * LP__MAX_STRING bytes or a 257th key give LP_ELIMIT. */
int lp_meta_set(lp_meta *m, const char *key, const char *value)
{
    if (!m)
        return LP_EINVAL;
    int rc = check_string(key, 0);
    if (!rc)
        rc = check_string(value, 1);
    if (rc)
        return rc;
    char *v = lp__strndup(value, lp__strlen(value));
    if (!v)
        return LP_ENOMEM;
    lp_meta_item *it = find_item(m, key, lp__strlen(key));
    if (it) {
        lp_free(it->value);
        it->value = v;
        return 0;
    }
    if (m->count >= LP__MAX_META) {
        lp_free(v);
        return LP_ELIMIT;
    }
    char *k = lp__strndup(key, lp__strlen(key));
    lp_meta_item *items =
        k ? lp_realloc(m->items, m->count * sizeof *items, (m->count + 1) * sizeof *items) : NULL;
    if (!items) {
        lp_free(k);
        lp_free(v);
        return LP_ENOMEM;
    }
    items[m->count].key = k;
    items[m->count].value = v;
    m->items = items;
    m->count++;
    return 0;
}

const char *lp_meta_get(const lp_meta *m, const char *key)
{
    if (!m || !key)
        return NULL;
    const lp_meta_item *it = find_item(m, key, lp__strlen(key));
    return it ? it->value : NULL;
}

void lp_meta_fini(lp_meta *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->count; i++) {
        lp_free(m->items[i].key);
        lp_free(m->items[i].value);
    }
    lp_free(m->items);
    m->items = NULL;
    m->count = 0;
}

/* A NULL src copies as empty. On failure dst is left empty. */
int lp_meta_copy(lp_meta *dst, const lp_meta *src)
{
    if (!dst)
        return LP_EINVAL;
    if (dst == src)
        return 0;
    lp_meta_fini(dst);
    for (size_t i = 0; src && i < src->count; i++) {
        int rc = lp_meta_set(dst, src->items[i].key, src->items[i].value);
        if (rc) {
            lp_meta_fini(dst);
            return rc;
        }
    }
    return 0;
}

void lp__meta_encode(lp__buf *b, const lp_meta *m)
{
    size_t n = m ? m->count : 0;
    lp__buf_varint(b, n);
    for (size_t i = 0; i < n; i++) {
        lp__buf_string(b, m->items[i].key, lp__strlen(m->items[i].key));
        lp__buf_string(b, m->items[i].value, lp__strlen(m->items[i].value));
    }
}

/* Checks m against the reader's rules first: a struct filled by hand could
 * otherwise produce a file no reader accepts. */
int lp__meta_write(lp_sink sink, const lp_meta *m, lp__buf *scratch)
{
    if (m) {
        if (m->count > LP__MAX_META)
            return LP_ELIMIT;
        for (size_t i = 0; i < m->count; i++) {
            int rc = check_string(m->items[i].key, 0);
            if (!rc)
                rc = check_string(m->items[i].value, 1);
            if (!rc && find_item(m, m->items[i].key, lp__strlen(m->items[i].key)) != &m->items[i])
                rc = LP_EINVAL; /* duplicate key */
            if (rc)
                return rc;
        }
    }
    lp__buf_reset(scratch);
    lp__meta_encode(scratch, m);
    if (scratch->err)
        return scratch->err;
    return lp__chunk_write(sink, LP__CH_META, scratch->data, scratch->size, NULL, 0);
}

int lp__meta_decode(const lp__reader *r, lp_meta *out, lp_read_error *err)
{
    char field[48];
    lp__cur c = lp__reader_cursor(r);
    lp_meta m = {NULL, 0};
    uint64_t count;
    int rc = lp__get_count(&c, &count, LP__MAX_META, 2, "meta.count", err);
    if (!rc && count) {
        m.items = lp_calloc((size_t)count, sizeof *m.items);
        if (!m.items)
            rc = lp__fail(err, lp__cur_offset(&c), LP_ENOMEM, "meta", "no memory");
    }
    for (uint64_t i = 0; !rc && i < count; i++) {
        uint64_t at = lp__cur_offset(&c);
        lp_meta_item *it = &m.items[i];
        rc = lp__get_string(&c, &it->key,
                            lp__fmt(field, sizeof field, "meta.item[%llu].key", LP__ULL(i)), err);
        if (rc)
            break;
        m.count++; /* owns the key from here on, for lp_meta_fini */
        if (!it->key[0])
            rc = lp__fail(err, at, LP_EFORMAT, field, "empty key");
        else if (find_item(&m, it->key, lp__strlen(it->key)) != it)
            rc = lp__fail(err, at, LP_EFORMAT, field, "duplicate key \"%s\"", it->key);
        if (!rc)
            rc = lp__get_string(&c, &it->value,
                                lp__fmt(field, sizeof field, "meta.item[%llu].value", LP__ULL(i)),
                                err);
    }
    if (!rc)
        rc = lp__cur_expect_end(&c, "meta", err);
    if (rc) {
        lp_meta_fini(&m);
        return rc;
    }
    lp_meta_fini(out);
    *out = m;
    return 0;
}
