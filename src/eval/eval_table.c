/* The table of experiments (lowprof/eval.h). */
#include <string.h>

#include "eval_internal.h"

const lp_eval_experiment lp_eval_experiments[] = {
    {"compressors", lp_eval_compressors, 0},
    {"flag-prediction", lp_eval_flags, 0},
    {"phase", lp_eval_phase, 1},
    {"hps", lp_eval_hps, 1},
    {"native", lp_eval_native, 1},
    {"bursty", lp_eval_bursty, 1},
    {"value", lp_eval_value, 0},
    {"pgo", lp_eval_pgo, 1},
    {NULL, NULL, 0},
};

const lp_eval_experiment *lp_eval_find(const char *name)
{
    for (const lp_eval_experiment *e = lp_eval_experiments; e->name; e++)
        if (strcmp(e->name, name) == 0)
            return e;
    return NULL;
}
