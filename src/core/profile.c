/* Profile types: names and the empty-profile constructor. */
#include "lowprof/core.h"

static const char *const lp__type_names[LP_PROF_TYPE_MAX + 1] = {
    [LP_PROF_CODE_REGION] = "code-region", [LP_PROF_METHOD] = "method",
    [LP_PROF_CALL_PAIR] = "call-pair",     [LP_PROF_EDGE] = "edge",
    [LP_PROF_BLOCK] = "block",             [LP_PROF_CALL_GRAPH] = "call-graph",
    [LP_PROF_VALUE] = "value",             [LP_PROF_CALL_TARGET] = "call-target",
    [LP_PROF_STREAMS] = "streams",         [LP_PROF_CONTEXT] = "context",
};

const char *lp_profile_type_name(unsigned type)
{
    return type <= LP_PROF_TYPE_MAX ? lp__type_names[type] : NULL;
}

unsigned lp_profile_type_parse(const char *name, size_t len)
{
    /* The bursty-tracing paper's name for the streams profile. */
    static const char alias[] = "data-streams";
    size_t a = 0;
    while (a < len && alias[a] && alias[a] == name[a])
        a++;
    if (a == len && alias[a] == '\0')
        return LP_PROF_STREAMS;
    for (unsigned t = 1; t <= LP_PROF_TYPE_MAX; t++) {
        const char *n = lp__type_names[t];
        size_t i = 0;
        while (i < len && n[i] && n[i] == name[i])
            i++;
        if (i == len && n[i] == '\0')
            return t;
    }
    return 0;
}

int lp_profile_init(lp_profile *p, unsigned type)
{
    __builtin_memset(p, 0, sizeof *p);
    if (!lp_profile_type_name(type))
        return LP_EINVAL;
    p->type = type;
    p->phase = LP_PHASE_NONE;
    p->scale_num = p->scale_den = 1;
    return lp_table_init(&p->table, 0);
}

void lp_profile_fini(lp_profile *p)
{
    if (p)
        lp_table_fini(&p->table);
}
