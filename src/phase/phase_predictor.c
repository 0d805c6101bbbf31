/* phase: next-phase predictors (remote-profiling paper, section 4: the
 * Phase Tracker predicts the phase of the next interval; Sherwood et al.
 * 2003 compare a last-phase predictor with Markov and run-length-encoded
 * Markov predictors).
 *
 * Updated once per interval, so one lp_table lookup per update is cheap.
 * The transition table is bounded so a long run with many phases cannot
 * grow it without limit. */
#include "lowprof/phase.h"

int lp_phase_predictor_init(lp_phase_predictor *p, unsigned kind, size_t max_states)
{
    if (kind != LP_PREDICT_LAST && kind != LP_PREDICT_MARKOV && kind != LP_PREDICT_RUN_LENGTH)
        return LP_EINVAL;
    __builtin_memset(p, 0, sizeof *p);
    p->kind = kind;
    p->current = LP_PHASE_NONE;
    p->prediction = LP_PHASE_NONE;
    p->max_states = max_states ? max_states : LP_PHASE_DEFAULT_PREDICTOR_STATES;
    (void)lp_table_init(&p->transitions, 0); /* cannot fail: allocates nothing */
    return LP_OK;
}

void lp_phase_predictor_fini(lp_phase_predictor *p)
{
    if (!p)
        return;
    lp_table_fini(&p->transitions);
}

/* The table key of the state the predictor is in: the current phase, and
 * for run-length also how long it has run. */
static lp_key predictor_state(const lp_phase_predictor *p)
{
    lp_key k = {p->current, p->kind == LP_PREDICT_RUN_LENGTH ? p->run : 0};
    return k;
}

int lp_phase_predictor_update(lp_phase_predictor *p, uint32_t actual)
{
    int rc = LP_OK;
    if (p->prediction != LP_PHASE_NONE) {
        p->predictions++;
        p->correct += p->prediction == actual;
    }
    if (p->kind != LP_PREDICT_LAST && p->current != LP_PHASE_NONE) {
        lp_key k = predictor_state(p);
        lp_entry *e = lp_table_find(&p->transitions, k);
        if (!e && p->transitions.count < p->max_states) {
            e = lp_table_upsert(&p->transitions, k);
            if (!e)
                rc = LP_ENOMEM;
        }
        if (e)
            e->v[0] = actual;
    }
    if (actual == p->current) {
        if (p->run < LP_PHASE_MAX_RUN)
            p->run++;
    } else {
        p->current = actual;
        p->run = 1;
    }
    p->prediction = p->current;
    if (p->kind != LP_PREDICT_LAST) {
        const lp_entry *e = lp_table_find(&p->transitions, predictor_state(p));
        if (e)
            p->prediction = (uint32_t)e->v[0];
    }
    return rc;
}
