/* streams: access signatures and the tables that compare stream profiles
 * (Hirzel and Chilimbi, section 5.2 and equation 5).
 *
 * Equation (5) sums, over the streams of both profiles, the smaller of the
 * two normalised heats. For two tables normalised to sum 1 that is exactly
 * 1 - L1/2, metrics' lp_manhattan_accuracy, and the design keeps one
 * implementation of each metric and forbids algorithm modules to include
 * each other; so this file only produces the tables. The normalisation is
 * by each profile's total heat, so identical profiles overlap 1 (the paper
 * gives heats as percentages of the profile without saying of which
 * total; this is the reading under which a profile overlaps itself
 * fully). */
#include "lp_streams_internal.h"

uint64_t lp_streams_signature(const lp_data_ref *refs, size_t n)
{
    uint64_t h = lp_hash64((uint64_t)n);
    for (size_t i = 0; i < n; i++)
        h = lp_hash_pair(h, refs[i].pc);
    return h;
}

uint64_t lp__streams_ref_hash(const lp_data_ref *refs, size_t n)
{
    uint64_t h = lp_hash64((uint64_t)n ^ 0x5bd1e995u);
    for (size_t i = 0; i < n; i++)
        h = lp_hash_pair(lp_hash_pair(h, refs[i].pc), refs[i].addr);
    return h;
}

int lp_streams_profile_table(const lp_streams *s, lp_table *out)
{
    for (size_t i = 0; i < s->count; i++) {
        /* The first PC rides along in the key (the signature fixes it), so
         * a report can name where a stream starts. */
        lp_key k = {s->stream[i].signature, s->stream[i].length ? s->stream[i].refs[0].pc : 0};
        lp_entry *e = lp_table_upsert(out, k);
        if (!e)
            return LP_ENOMEM;
        e->v[0] += s->stream[i].frequency;
        e->v[1] = s->stream[i].length;
    }
    return 0;
}

int lp_streams_heat_table(const lp_table *profile, lp_table *out)
{
    size_t cursor = 0;
    const lp_entry *e;
    while ((e = lp_table_next(profile, &cursor)) != NULL) {
        lp_entry *h = lp_table_upsert(out, e->key);
        if (!h)
            return LP_ENOMEM;
        h->v[0] = e->v[0] * e->v[1];
        h->v[1] = e->v[1];
    }
    return 0;
}
