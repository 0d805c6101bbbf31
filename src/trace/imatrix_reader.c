/* Reads an interval matrix (doc/format-imatrix.md) one interval at a time,
 * resolving entries through the key dictionaries the file builds up as it
 * goes. Memory is the dictionaries (16 bytes a key, each key at least two
 * bytes of file) plus the caller's interval; an interval's chunk is held
 * only while it is decoded. A file cut short yields every complete interval
 * and then LP_ETRUNC. */
#include "trace_internal.h"

#define ALL_TYPES (((1u << (LP_PROF_TYPE_MAX + 1)) - 1) & ~1u)

static const uint16_t known[] = {LP__CH_META, LP__CH_MODULES,  LP__CH_END,          LP__CH_MATRIX,
                                 LP__CH_DICT, LP__CH_INTERVAL, LP__CH_INTERVAL_PART};

enum { IN_INTERVALS, AFTER_MODULES, AT_END };

typedef struct dictionary {
    lp_key *keys;
    size_t count;
    size_t cap;
} dictionary;

struct lp_imatrix_reader {
    lp__reader rd;
    lp_meta meta;
    uint64_t interval_length;
    uint32_t types;
    dictionary dict[LP_PROF_TYPE_MAX + 1];
    lp_module_map modules;
    uint64_t intervals; /* returned so far */
    uint64_t insns;     /* their sum, modulo 2^64 */
    uint64_t last_index;
    int state;
    int failed; /* sticky: later calls repeat the first error */
    lp_read_error error;
};

static int type_error(lp__reader *r, unsigned want, lp_read_error *err)
{
    char field[48];
    return lp__fail(err, r->offset, LP_EFORMAT,
                    lp__fmt(field, sizeof field, "chunk[%llu].type", LP__ULL(r->index)),
                    "%s chunk where %s chunk belongs", lp__chunk_type_name(r->type),
                    lp__chunk_type_name(want));
}

static int read_head(lp_imatrix_reader *m, lp_read_error *err)
{
    lp__reader *r = &m->rd;
    int rc = lp__reader_next(r, err);
    if (rc)
        return rc;
    if (r->type != LP__CH_META)
        return type_error(r, LP__CH_META, err);
    rc = lp__meta_decode(r, &m->meta, err);
    if (!rc)
        rc = lp__reader_next(r, err);
    if (rc)
        return rc;
    if (r->type != LP__CH_MATRIX)
        return type_error(r, LP__CH_MATRIX, err);
    lp__cur c = lp__reader_cursor(r);
    uint64_t types;
    rc = lp__get_range(&c, &m->interval_length, 1, UINT64_MAX, 0, "matrix.interval_length", err);
    if (!rc) {
        uint64_t at = lp__cur_offset(&c);
        rc = lp__get_varint(&c, &types, "matrix.types", err);
        if (!rc && (types & ~(uint64_t)ALL_TYPES))
            rc = lp__fail(err, at, LP_EFORMAT, "matrix.types",
                          "type mask 0x%llx names unknown profile types", LP__ULL(types));
        m->types = (uint32_t)types;
    }
    if (!rc)
        rc = lp__cur_expect_end(&c, "matrix", err);
    return rc;
}

/* *out is NULL on failure. err may be NULL. */
int lp_imatrix_reader_open(lp_source src, lp_imatrix_reader **out, lp_read_error *err)
{
    if (!out)
        return LP_EINVAL;
    *out = NULL;
    lp_imatrix_reader *m = lp_calloc(1, sizeof *m);
    if (!m)
        return lp__fail(err, 0, LP_ENOMEM, "file", "no memory for a reader");
    int rc =
        lp__reader_start(&m->rd, src, LP_FILE_IMATRIX, known, sizeof known / sizeof known[0], err);
    if (!rc)
        rc = read_head(m, err);
    if (rc) {
        lp_imatrix_reader_free(m);
        return rc;
    }
    *out = m;
    return 0;
}

const lp_meta *lp_imatrix_reader_meta(const lp_imatrix_reader *r)
{
    return r ? &r->meta : NULL;
}

uint64_t lp_imatrix_reader_interval_length(const lp_imatrix_reader *r)
{
    return r ? r->interval_length : 0;
}

uint32_t lp_imatrix_reader_types(const lp_imatrix_reader *r)
{
    return r ? r->types : 0;
}

const lp_module_map *lp_imatrix_reader_modules(const lp_imatrix_reader *r)
{
    return r ? &r->modules : NULL;
}

static int read_dictionary(lp_imatrix_reader *m, lp_read_error *err)
{
    char field[48];
    lp__cur c = lp__reader_cursor(&m->rd);
    uint64_t t, first, mode, count;
    int rc = lp__get_range(&c, &t, 1, LP_PROF_TYPE_MAX, 0, "dictionary.type", err);
    if (!rc && !(m->types & (1u << t)))
        rc = lp__fail(err, c.base, LP_EFORMAT, "dictionary.type",
                      "keys for %s, which the matrix does not carry",
                      lp_profile_type_name((unsigned)t));
    if (rc)
        return rc;
    dictionary *d = &m->dict[t];
    rc = lp__get_range(
        &c, &first, d->count, d->count, 0,
        lp__fmt(field, sizeof field, "dictionary[%s].first", lp_profile_type_name((unsigned)t)),
        err);
    if (!rc)
        rc = lp__get_range(&c, &mode, 0, LP__KEYS_RELATIVE, 0, "dictionary.key_mode", err);
    /* A key is two varints: two bytes at least. */
    if (!rc)
        rc = lp__get_count(&c, &count, LP__MAX_DICT - d->count, 2, "dictionary.count", err);
    if (rc)
        return rc;
    if (d->count + count > d->cap) {
        size_t cap = d->cap ? d->cap : 256;
        while (cap < d->count + count)
            cap *= 2;
        lp_key *keys = lp_realloc(d->keys, d->cap * sizeof *keys, cap * sizeof *keys);
        if (!keys)
            return lp__fail(err, lp__cur_offset(&c), LP_ENOMEM, "dictionary", "no memory");
        d->keys = keys;
        d->cap = cap;
    }
    lp_key prev = {0, 0};
    for (uint64_t i = 0; i < count; i++) {
        const char *why;
        if (lp__key_get(&c, (unsigned)mode, i == 0, &prev, &why))
            return lp__fail(err, lp__cur_offset(&c), LP_EFORMAT,
                            lp__fmt(field, sizeof field, "dictionary[%s].key[%llu]",
                                    lp_profile_type_name((unsigned)t), LP__ULL(d->count)),
                            "%s", why);
        d->keys[d->count++] = prev;
    }
    return lp__cur_expect_end(&c, "dictionary", err);
}

/* Per-type decoding state of one interval, kept across its part chunks. */
typedef struct section_state {
    uint64_t prev;
    uint64_t seen;
} section_state;

static int read_sections(lp_imatrix_reader *m, lp__cur *c, lp_interval *out,
                         section_state st[LP_PROF_TYPE_MAX + 1], lp_read_error *err)
{
    char field[48];
    uint64_t ivn = m->intervals;
    for (unsigned t = 1; t <= LP_PROF_TYPE_MAX; t++) {
        if (!(m->types & (1u << t)))
            continue;
        const char *tn = lp_profile_type_name(t);
        const dictionary *d = &m->dict[t];
        lp_table *tab = &out->tables[t];
        uint64_t count, flags = 0;
        uint64_t at = lp__cur_offset(c);
        int rc = lp__get_count(
            c, &count, LP__MAX_DICT, 2,
            lp__fmt(field, sizeof field, "interval[%llu].%s.count", LP__ULL(ivn), tn), err);
        /* Entries have distinct indices, so no more than the dictionary. */
        if (!rc && count > d->count - st[t].seen)
            rc = lp__fail(err, at, LP_EFORMAT, field,
                          "%llu entries but only %llu unused dictionary keys", LP__ULL(count),
                          LP__ULL(d->count - st[t].seen));
        if (!rc && count)
            rc = lp__get_range(
                c, &flags, 0, 1, 0,
                lp__fmt(field, sizeof field, "interval[%llu].%s.flags", LP__ULL(ivn), tn), err);
        if (rc)
            return rc;
        for (uint64_t i = 0; i < count; i++, st[t].seen++) {
            /* gap to the previous index, v0, and v1 unless flags omit it */
            uint64_t entry_at = lp__cur_offset(c), v[3] = {0, 0, 0}, idx;
            unsigned want = (flags & 1) ? 2 : 3, got = 0;
            while (got < want && (rc = lp__cur_varint(c, &v[got])) == 0)
                got++;
            if (rc) {
                static const char *const names[] = {"index", "v0", "v1"};
                return lp__varint_fail(c, rc,
                                       lp__fmt(field, sizeof field, "interval[%llu].%s[%llu].%s",
                                               LP__ULL(ivn), tn, LP__ULL(st[t].seen), names[got]),
                                       err);
            }
            if (st[t].seen == 0)
                idx = v[0];
            else if (v[0] < UINT64_MAX - st[t].prev)
                idx = st[t].prev + 1 + v[0];
            else
                idx = UINT64_MAX;
            const char *why = NULL;
            int code = LP_EFORMAT;
            lp_entry *e = NULL;
            if (idx >= d->count) {
                why = "index past the end of the dictionary";
            } else {
                size_t before = tab->count;
                e = lp_table_upsert(tab, d->keys[idx]);
                if (!e) {
                    why = "no memory for an entry";
                    code = LP_ENOMEM;
                } else if (tab->count == before) {
                    /* Only possible if the dictionary holds a key twice. */
                    why = "its key is already in this interval";
                }
            }
            if (why)
                return lp__fail(err, entry_at, code,
                                lp__fmt(field, sizeof field, "interval[%llu].%s[%llu].index",
                                        LP__ULL(ivn), tn, LP__ULL(st[t].seen)),
                                "%s (index %llu, %llu keys)", why, LP__ULL(idx), LP__ULL(d->count));
            st[t].prev = idx;
            e->v[0] = v[1];
            e->v[1] = v[2];
        }
    }
    return 0;
}

static int read_interval(lp_imatrix_reader *m, lp_interval *out, lp_read_error *err)
{
    char field[48];
    lp__reader *r = &m->rd;
    lp__cur c = lp__reader_cursor(r);
    uint64_t ivn = m->intervals, extra, at = lp__cur_offset(&c);
#define F(name) lp__fmt(field, sizeof field, "interval[%llu]." name, LP__ULL(ivn))
    int rc = lp__get_varint(&c, &out->index, F("index"), err);
    if (!rc && ivn && out->index <= m->last_index)
        rc = lp__fail(err, at, LP_EFORMAT, field, "index %llu does not follow %llu",
                      LP__ULL(out->index), LP__ULL(m->last_index));
    if (!rc)
        rc = lp__get_varint(&c, &out->first_insn, F("first_insn"), err);
    if (!rc)
        rc = lp__get_varint(&c, &out->insns, F("insns"), err);
    for (unsigned k = 0; !rc && k < LP_SIG_BUCKETS; k++)
        rc = lp__get_varint(&c, &out->sig.bucket[k],
                            lp__fmt(field, sizeof field, "interval[%llu].sig[%u]", LP__ULL(ivn), k),
                            err);
    if (!rc)
        rc = lp__get_range(&c, &extra, 0, LP__MAX_PARTS - 1, 1, F("parts"), err);
    section_state st[LP_PROF_TYPE_MAX + 1] = {{0, 0}};
    if (!rc)
        rc = read_sections(m, &c, out, st, err);
    if (!rc)
        rc = lp__cur_expect_end(&c, F("entries"), err);
    for (uint64_t part = 1; !rc && part <= extra; part++) {
        uint64_t idx, got;
        rc = lp__reader_next(r, err);
        if (rc)
            break;
        if (r->type != LP__CH_INTERVAL_PART) {
            rc = type_error(r, LP__CH_INTERVAL_PART, err);
            break;
        }
        c = lp__reader_cursor(r);
        rc = lp__get_range(&c, &idx, out->index, out->index, 0, F("part.index"), err);
        if (!rc)
            rc = lp__get_range(&c, &got, part, part, 0, F("part"), err);
        if (!rc)
            rc = read_sections(m, &c, out, st, err);
        if (!rc)
            rc = lp__cur_expect_end(&c, F("entries"), err);
    }
#undef F
    if (rc)
        return rc;
    m->intervals++;
    m->insns += out->insns;
    m->last_index = out->index;
    return 1;
}

static int read_end(lp_imatrix_reader *m, lp_read_error *err)
{
    lp__cur c = lp__reader_cursor(&m->rd);
    uint64_t n;
    int rc = lp__get_range(&c, &n, m->intervals, m->intervals, 0, "end.intervals", err);
    if (!rc)
        rc = lp__get_range(&c, &n, m->insns, m->insns, 0, "end.insns", err);
    if (!rc)
        rc = lp__cur_expect_end(&c, "end", err);
    if (!rc)
        rc = lp__reader_expect_eof(&m->rd, err);
    return rc;
}

static int next_interval(lp_imatrix_reader *m, lp_interval *out, lp_read_error *err)
{
    lp__reader *r = &m->rd;
    for (;;) {
        int rc = lp__reader_next(r, err);
        if (rc)
            return rc;
        unsigned want = m->state == IN_INTERVALS ? LP__CH_INTERVAL : LP__CH_END;
        switch (r->type) {
        case LP__CH_DICT:
            if (m->state != IN_INTERVALS)
                return type_error(r, want, err);
            rc = read_dictionary(m, err);
            if (rc)
                return rc;
            break;
        case LP__CH_INTERVAL:
            if (m->state != IN_INTERVALS)
                return type_error(r, want, err);
            return read_interval(m, out, err);
        case LP__CH_MODULES:
            if (m->state != IN_INTERVALS)
                return type_error(r, want, err);
            rc = lp__modules_decode(r, &m->modules, err);
            if (rc)
                return rc;
            m->state = AFTER_MODULES;
            break;
        case LP__CH_END:
            if (m->state != AFTER_MODULES)
                return type_error(r, LP__CH_MODULES, err);
            rc = read_end(m, err);
            if (rc)
                return rc;
            m->state = AT_END;
            return 0;
        default: return type_error(r, want, err);
        }
    }
}

int lp_imatrix_reader_next(lp_imatrix_reader *r, lp_interval *out, lp_read_error *err)
{
    if (!r || !out)
        return LP_EINVAL;
    lp_interval_clear(out);
    if (r->failed) {
        if (err)
            *err = r->error;
        return r->failed;
    }
    if (r->state == AT_END)
        return 0;
    int rc = next_interval(r, out, &r->error);
    if (rc < 0) {
        r->failed = rc;
        lp_interval_clear(out);
    }
    if (rc < 0 && err)
        *err = r->error;
    return rc;
}

void lp_imatrix_reader_free(lp_imatrix_reader *r)
{
    if (!r)
        return;
    lp__reader_fini(&r->rd);
    lp_meta_fini(&r->meta);
    lp_module_map_fini(&r->modules);
    for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
        lp_free(r->dict[t].keys);
    lp_free(r);
}
