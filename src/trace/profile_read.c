/* Reads a profile file (doc/format-profile.md) into an lp_profile_set,
 * checking the chunk order (meta, modules, profiles, end), every field's
 * range and the profile count the end chunk declares. */
#include "trace_internal.h"

static const uint16_t known[] = {LP__CH_META, LP__CH_MODULES, LP__CH_END, LP__CH_PROFILE,
                                 LP__CH_PROFILE_PART};

/* Reads the next chunk and insists it is of type want. */
static int expect(lp__reader *r, unsigned want, const char *why, lp_read_error *err)
{
    int rc = lp__reader_next(r, err);
    if (rc)
        return rc;
    if (r->type != want) {
        char field[48];
        return lp__fail(err, r->offset, LP_EFORMAT,
                        lp__fmt(field, sizeof field, "chunk[%llu].type", LP__ULL(r->index)),
                        "%s chunk where %s chunk belongs (%s)", lp__chunk_type_name(r->type),
                        lp__chunk_type_name(want), why);
    }
    return 0;
}

/* Decodes mode, count and entries into p, continuing from *prev; *seen
 * counts the profile's entries so far (for names and the first-key rule). */
static int get_entries(lp__cur *c, lp_profile *p, size_t pi, lp_key *prev, uint64_t *seen,
                       lp_read_error *err)
{
    char field[48];
    uint64_t mode, count;
    int rc =
        lp__get_range(c, &mode, 0, LP__KEYS_RELATIVE, 0,
                      lp__fmt(field, sizeof field, "profile[%llu].key_mode", LP__ULL(pi)), err);
    /* Each entry is four varints, so at least four bytes. */
    if (!rc)
        rc = lp__get_count(c, &count, UINT32_MAX, 4,
                           lp__fmt(field, sizeof field, "profile[%llu].count", LP__ULL(pi)), err);
    if (!rc && *seen == 0 && p->table.capacity < count) {
        /* Sizing once from a count already bounded by the payload avoids
         * rehashing, and costs no more than growing would. */
        lp_table_fini(&p->table);
        if (lp_table_init(&p->table, (size_t)count))
            rc = lp__fail(err, lp__cur_offset(c), LP_ENOMEM, field, "no memory for the table");
    }
    static const char *const names[] = {"key", "v0", "v1"};
    for (uint64_t i = 0; !rc && i < count; i++, (*seen)++) {
        uint64_t at = lp__cur_offset(c), v[2];
        const char *why;
        unsigned bad = 0;
        if (lp__key_get(c, (unsigned)mode, *seen == 0, prev, &why))
            return lp__fail(err, at, LP_EFORMAT,
                            lp__fmt(field, sizeof field, "profile[%llu].entry[%llu].key",
                                    LP__ULL(pi), LP__ULL(*seen)),
                            "%s", why);
        while (bad < 2 && (rc = lp__cur_varint(c, &v[bad])) == 0)
            bad++;
        if (rc)
            return lp__varint_fail(c, rc,
                                   lp__fmt(field, sizeof field, "profile[%llu].entry[%llu].%s",
                                           LP__ULL(pi), LP__ULL(*seen), names[bad + 1]),
                                   err);
        lp_entry *e = lp_table_upsert(&p->table, *prev);
        if (!e)
            return lp__fail(err, at, LP_ENOMEM, "profile", "no memory for an entry");
        e->v[0] = v[0];
        e->v[1] = v[1];
    }
    return rc;
}

static int read_profile(lp__reader *r, lp_profile_set *s, lp_read_error *err)
{
    char field[48];
    size_t pi = s->count;
    lp__cur c = lp__reader_cursor(r);
    uint64_t type, phase, first, last, num, den, extra;
    if (pi >= LP__MAX_PROFILES)
        return lp__fail(err, r->offset, LP_ELIMIT, "profile", "more than %u profiles in one file",
                        LP__MAX_PROFILES);
#define F(name) lp__fmt(field, sizeof field, "profile[%llu]." name, LP__ULL(pi))
    int rc = lp__get_range(&c, &type, 1, LP_PROF_TYPE_MAX, 0, F("type"), err);
    if (!rc)
        rc = lp__get_range(&c, &phase, 0, UINT32_MAX, 0, F("phase"), err);
    if (!rc)
        rc = lp__get_varint(&c, &first, F("first_insn"), err);
    if (!rc)
        rc = lp__get_varint(&c, &last, F("last_insn"), err);
    if (!rc)
        rc = lp__get_varint(&c, &num, F("scale_num"), err);
    if (!rc)
        rc = lp__get_range(&c, &den, 1, UINT64_MAX, 0, F("scale_den"), err);
    if (!rc)
        rc = lp__get_range(&c, &extra, 0, LP__MAX_PARTS - 1, 1, F("parts"), err);
    if (rc)
        return rc;
    lp_profile *p;
    if (lp_profile_set_add(s, (unsigned)type, (uint32_t)(phase - 1), &p))
        return lp__fail(err, r->offset, LP_ENOMEM, F("type"), "no memory for a profile");
    p->first_insn = first;
    p->last_insn = last;
    p->scale_num = num;
    p->scale_den = den;
    lp_key prev = {0, 0};
    uint64_t seen = 0;
    rc = get_entries(&c, p, pi, &prev, &seen, err);
    if (!rc)
        rc = lp__cur_expect_end(&c, F("entries"), err);
    for (uint64_t part = 1; !rc && part <= extra; part++) {
        uint64_t got;
        rc = expect(r, LP__CH_PROFILE_PART, "a profile continues", err);
        if (rc)
            break;
        c = lp__reader_cursor(r);
        rc = lp__get_range(&c, &got, part, part, 0, F("part"), err);
        if (!rc)
            rc = get_entries(&c, p, pi, &prev, &seen, err);
        if (!rc)
            rc = lp__cur_expect_end(&c, F("entries"), err);
    }
#undef F
    return rc;
}

static int read_all(lp__reader *r, lp_profile_set *s, lp_read_error *err)
{
    int rc = expect(r, LP__CH_META, "the first chunk", err);
    if (!rc)
        rc = lp__meta_decode(r, &s->meta, err);
    if (!rc)
        rc = expect(r, LP__CH_MODULES, "the second chunk", err);
    if (!rc)
        rc = lp__modules_decode(r, &s->modules, err);
    while (!rc) {
        rc = lp__reader_next(r, err);
        if (rc)
            break;
        if (r->type == LP__CH_PROFILE) {
            rc = read_profile(r, s, err);
            continue;
        }
        if (r->type != LP__CH_END) {
            char field[48];
            return lp__fail(err, r->offset, LP_EFORMAT,
                            lp__fmt(field, sizeof field, "chunk[%llu].type", LP__ULL(r->index)),
                            "%s chunk among the profiles", lp__chunk_type_name(r->type));
        }
        lp__cur c = lp__reader_cursor(r);
        uint64_t count;
        rc = lp__get_range(&c, &count, s->count, s->count, 0, "end.profiles", err);
        if (!rc)
            rc = lp__cur_expect_end(&c, "end", err);
        if (!rc)
            rc = lp__reader_expect_eof(r, err);
        return rc;
    }
    return rc;
}

int lp_profile_file_read(lp_source src, lp_profile_set *out, lp_read_error *err)
{
    if (!out)
        return LP_EINVAL;
    __builtin_memset(out, 0, sizeof *out);
    lp__reader r;
    int rc = lp__reader_start(&r, src, LP_FILE_PROFILE, known, sizeof known / sizeof known[0], err);
    if (!rc)
        rc = read_all(&r, out, err);
    lp__reader_fini(&r);
    if (rc)
        lp_profile_set_fini(out);
    return rc;
}
