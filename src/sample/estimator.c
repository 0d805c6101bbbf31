/* The software side of the stream-compression model (stratified-sampling
 * paper, sections 2.2 and 3.3): the interrupt handler's work of folding
 * messages into profiles. A message's count is already the number of tuples
 * it stands for (r for an implied-count sampler, the counted number
 * otherwise), so the estimate of a tuple's count is the sum of the counts of
 * the messages that name it: EST = i * r for a sampler without a counter,
 * the sum of counts with one, exact for lossless compressors. */
#include "sample_internal.h"

int lp_estimator_init(lp_estimator *e)
{
    __builtin_memset(e, 0, sizeof *e);
    int rc = lp_profile_init(&e->value, LP_PROF_VALUE);
    if (!rc)
        rc = lp_profile_init(&e->edge, LP_PROF_EDGE);
    if (!rc)
        rc = lp_profile_init(&e->call_target, LP_PROF_CALL_TARGET);
    if (rc)
        lp_estimator_fini(e);
    return rc;
}

void lp_estimator_fini(lp_estimator *e)
{
    if (!e)
        return;
    lp_profile_fini(&e->value);
    lp_profile_fini(&e->edge);
    lp_profile_fini(&e->call_target);
}

void lp_estimator_clear(lp_estimator *e)
{
    lp_table_clear(&e->value.table);
    lp_table_clear(&e->edge.table);
    lp_table_clear(&e->call_target.table);
    e->total = e->unmapped = e->length = 0;
    e->status = 0;
}

static lp_profile *lp__profile_of(lp_estimator *e, unsigned tuple_type)
{
    switch (tuple_type) {
    case LP_TUPLE_VALUE: return &e->value;
    case LP_TUPLE_EDGE: return &e->edge;
    case LP_TUPLE_CALL_TARGET: return &e->call_target;
    default: return NULL;
    }
}

int lp_estimator_fold(lp_estimator *e, const lp_message *msgs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const lp_message *m = &msgs[i];
        if (m->type == LP_MESSAGE_LENGTH) {
            e->length += m->count;
            continue;
        }
        lp_profile *p = lp__profile_of(e, m->type);
        /* lp_table reserves the key (UINT64_MAX, UINT64_MAX) for empty slots. */
        if (p && (m->pc != UINT64_MAX || m->w != UINT64_MAX)) {
            lp_entry *x = lp_table_upsert(&p->table, (lp_key){m->pc, m->w});
            if (!x)
                return LP_ENOMEM;
            x->v[0] += m->count;
        } else {
            e->unmapped += m->count;
        }
        e->total += m->count;
    }
    return 0;
}

void lp_estimator_on_messages(void *estimator, const lp_message *msgs, size_t n)
{
    lp_estimator *e = estimator;
    int rc = lp_estimator_fold(e, msgs, n);
    if (rc && !e->status)
        e->status = rc;
}

const lp_profile *lp_estimator_profile(const lp_estimator *e, unsigned lp_profile_type)
{
    switch (lp_profile_type) {
    case LP_PROF_VALUE: return &e->value;
    case LP_PROF_EDGE: return &e->edge;
    case LP_PROF_CALL_TARGET: return &e->call_target;
    default: return NULL;
    }
}

uint64_t lp_estimator_count(const lp_estimator *e, unsigned tuple_type, uint64_t pc, uint64_t w)
{
    static const unsigned profile_type[] = {[LP_TUPLE_VALUE] = LP_PROF_VALUE,
                                            [LP_TUPLE_EDGE] = LP_PROF_EDGE,
                                            [LP_TUPLE_CALL_TARGET] = LP_PROF_CALL_TARGET};
    if (tuple_type >= sizeof profile_type / sizeof profile_type[0])
        return 0;
    const lp_profile *p = lp_estimator_profile(e, profile_type[tuple_type]);
    if (!p)
        return 0;
    const lp_entry *x = lp_table_find(&p->table, (lp_key){pc, w});
    return x ? x->v[0] : 0;
}
