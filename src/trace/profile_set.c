/* lp_profile_set: the in-memory form of a profile file (meta, module map,
 * profiles). Sets hold a handful to a few thousand profiles; lookup is a
 * linear scan. The array's capacity follows from its count (room()), so it
 * can double without a capacity field in the public struct. */
#include "trace_internal.h"

static size_t room(size_t n)
{
    size_t cap = 4;
    while (cap < n)
        cap *= 2;
    return cap;
}

/* LP_EINVAL for NULL s or an unknown type, LP_ELIMIT past LP__MAX_PROFILES
 * profiles. out may be NULL. */
int lp_profile_set_add(lp_profile_set *s, unsigned type, uint32_t phase, lp_profile **out)
{
    if (!s || !lp_profile_type_name(type) || type == 0)
        return LP_EINVAL;
    if (s->count >= LP__MAX_PROFILES)
        return LP_ELIMIT;
    if (!s->profiles || s->count == room(s->count)) {
        size_t old = s->profiles ? room(s->count) : 0, cap = s->profiles ? 2 * old : room(0);
        lp_profile *p = lp_realloc(s->profiles, old * sizeof *p, cap * sizeof *p);
        if (!p)
            return LP_ENOMEM;
        s->profiles = p;
    }
    lp_profile *p = &s->profiles[s->count];
    int rc = lp_profile_init(p, type);
    if (rc)
        return rc;
    p->phase = phase;
    s->count++;
    if (out)
        *out = p;
    return 0;
}

lp_profile *lp_profile_set_find(const lp_profile_set *s, unsigned type, uint32_t phase)
{
    if (!s)
        return NULL;
    for (size_t i = 0; i < s->count; i++)
        if (s->profiles[i].type == type && s->profiles[i].phase == phase)
            return &s->profiles[i];
    return NULL;
}

/* Frees everything and leaves s empty and reusable. Accepts NULL. */
void lp_profile_set_fini(lp_profile_set *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->count; i++)
        lp_profile_fini(&s->profiles[i]);
    lp_free(s->profiles);
    s->profiles = NULL;
    s->count = 0;
    lp_meta_fini(&s->meta);
    lp_module_map_fini(&s->modules);
}
