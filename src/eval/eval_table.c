/* The table of experiments (lowprof/eval.h). */
#include <string.h>

#include "eval_internal.h"

const lp_eval_experiment lp_eval_experiments[] = {
    {"compressors", lp_eval_compressors},
    {"flag-prediction", lp_eval_flags},
    {"phase", lp_eval_phase},
    {"hps", lp_eval_hps},
    {"native", lp_eval_native},
    {"bursty", lp_eval_bursty},
    {"value", lp_eval_value},
    {"pgo", lp_eval_pgo},
    {NULL, NULL},
};

const lp_eval_experiment *lp_eval_find(const char *name)
{
    for (const lp_eval_experiment *e = lp_eval_experiments; e->name; e++)
        if (strcmp(e->name, name) == 0)
            return e;
    return NULL;
}
