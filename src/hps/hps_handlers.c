/* hps: the three profile handlers of Fig. 6 (hot code region, hot method,
 * hot call pair). A handler is what a replacement sequence calls; each is a
 * table update, and their instruction counts are what `lowprof eval hps`
 * measures, so they stay as lean as the tables allow. */
#include "lowprof/hps.h"

int lp_hps_profiles_init(lp_hps_profiles *p)
{
    __builtin_memset(p, 0, sizeof *p);
    if (lp_table_init(&p->code_region, 1024) || lp_table_init(&p->method, 256) ||
        lp_table_init(&p->call_pair, 1024)) {
        lp_hps_profiles_fini(p);
        return LP_ENOMEM;
    }
    return 0;
}

void lp_hps_profiles_fini(lp_hps_profiles *p)
{
    if (!p)
        return;
    lp_table_fini(&p->code_region);
    lp_table_fini(&p->method);
    lp_table_fini(&p->call_pair);
}

static void lp_hps_count(lp_hps_profiles *p, lp_table *t, uint64_t a, uint64_t b, uint64_t v1)
{
    lp_entry *e = lp_table_upsert(t, (lp_key){a, b});
    if (!e) {
        p->failed = 1;
        return;
    }
    e->v[0]++;
    e->v[1] += v1;
}

void lp_hps_on_branch(lp_hps_profiles *p, uint64_t pc, uint64_t insns_since)
{
    p->calls[LP_HPS_H_BRANCH]++;
    lp_hps_count(p, &p->code_region, pc, 0, insns_since);
}

void lp_hps_on_method(lp_hps_profiles *p, uint64_t entry, int backward)
{
    p->calls[LP_HPS_H_METHOD]++;
    lp_entry *e = lp_table_upsert(&p->method, (lp_key){entry, 0});
    if (!e) {
        p->failed = 1;
        return;
    }
    e->v[backward ? 1 : 0]++;
}

void lp_hps_on_call_pair(lp_hps_profiles *p, uint64_t site, uint64_t callee)
{
    p->calls[LP_HPS_H_CALL_PAIR]++;
    lp_hps_count(p, &p->call_pair, site, callee, 0);
}
