/* Writes a profile file (doc/format-profile.md): header, meta, module map,
 * one chunk per profile (more if it has over LP__CHUNK_ENTRIES entries),
 * end. Entries go out in key order with delta-coded keys, so equal sets
 * give equal bytes whatever their tables' slot order. */
#include "trace_internal.h"

static int check_profile(const lp_profile *p)
{
    if (!lp_profile_type_name(p->type) || p->type == 0 || p->scale_den == 0)
        return LP_EINVAL;
    return 0;
}

/* Entries [from, to) of e, with from's predecessor as the delta base. */
static void put_entries(lp__buf *b, const lp_entry *e, size_t from, size_t to)
{
    /* e is NULL for an empty profile, and NULL + 0 is undefined in C. */
    unsigned mode = to > from ? lp__keys_choose(e + from, to - from, sizeof *e) : LP__KEYS_PLAIN;
    lp__buf_varint(b, mode);
    lp__buf_varint(b, to - from);
    for (size_t i = from; i < to; i++) {
        lp_key prev = i ? e[i - 1].key : (lp_key){0, 0};
        lp__key_put(b, mode, i == 0, prev, e[i].key);
        lp__buf_varint(b, e[i].v[0]);
        lp__buf_varint(b, e[i].v[1]);
    }
}

static int write_profile(lp_sink sink, const lp_profile *p, lp__buf *b)
{
    lp_entry *e;
    int rc = lp_table_sorted(&p->table, lp_entry_key_less, &e);
    if (rc)
        return rc;
    size_t n = p->table.count;
    size_t extra = n ? (n - 1) / LP__CHUNK_ENTRIES : 0;
    if (extra >= LP__MAX_PARTS) {
        lp_free(e);
        return LP_ELIMIT;
    }
    for (size_t part = 0; !rc && part <= extra; part++) {
        size_t from = part * LP__CHUNK_ENTRIES;
        size_t to = n - from > LP__CHUNK_ENTRIES ? from + LP__CHUNK_ENTRIES : n;
        lp__buf_reset(b);
        if (part == 0) {
            lp__buf_varint(b, p->type);
            /* Shifted by one so LP_PHASE_NONE, the common case, is one byte. */
            lp__buf_varint(b, (uint32_t)(p->phase + 1u));
            lp__buf_varint(b, p->first_insn);
            lp__buf_varint(b, p->last_insn);
            lp__buf_varint(b, p->scale_num);
            lp__buf_varint(b, p->scale_den);
            lp__buf_varint(b, extra);
        } else {
            lp__buf_varint(b, part);
        }
        put_entries(b, e, from, to);
        rc = b->err ? b->err
                    : lp__chunk_write(sink, part ? LP__CH_PROFILE_PART : LP__CH_PROFILE, b->data,
                                      b->size, NULL, 0);
    }
    lp_free(e);
    return rc;
}

int lp_profile_file_write(const lp_profile_set *s, lp_sink sink)
{
    if (!s || !sink.write)
        return LP_EINVAL;
    if (s->count > LP__MAX_PROFILES)
        return LP_ELIMIT;
    for (size_t i = 0; i < s->count; i++)
        if (check_profile(&s->profiles[i]))
            return LP_EINVAL;
    lp__buf b = {0};
    int rc = lp__header_write(sink, LP_FILE_PROFILE);
    if (!rc)
        rc = lp__meta_write(sink, &s->meta, &b);
    if (!rc)
        rc = lp__modules_write(sink, &s->modules, &b);
    for (size_t i = 0; !rc && i < s->count; i++)
        rc = write_profile(sink, &s->profiles[i], &b);
    if (!rc) {
        uint8_t end[10];
        rc = lp__chunk_write(sink, LP__CH_END, end, lp__varint_encode(end, s->count), NULL, 0);
    }
    lp__buf_free(&b);
    return rc;
}
