/* The experiments' event traces: recording one per workload through the
 * workload runner (eval_suite.c), reading a trace's first loads and
 * control transfers back as tuples with their instruction counts, the
 * exact profile of such a window, and the log-spaced checkpoints at which
 * replays measure their estimates.
 *
 * Tuples are chosen by core's lp_tuple_select exactly as the front end
 * chooses them online: loads give value tuples (pc, value), conditional
 * branches and indirect jumps edge tuples, calls call-target tuples.
 *
 * Tuned for: windows of 1-16 M tuples, read once per workload. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval_internal.h"

/* ---- recording --------------------------------------------------------------------- */

int lp__eval_trace_record(const lp__eval_suite *s, lp__eval_workload *t, const char *kinds,
                          uint64_t limit, int keep_profile)
{
    char prof[PATH_MAX + 64], log[PATH_MAX + 64], lim[32];
    snprintf(lim, sizeof lim, "%llu", (unsigned long long)limit);
    if (lp__eval_pathf(t->path, sizeof t->path, "%s/traces/%s.lpev", s->out_dir, t->name) ||
        lp__eval_pathf(prof, sizeof prof, "%s/traces/%s.lpprof", s->out_dir, t->name) ||
        lp__eval_pathf(log, sizeof log, "%s/traces/%s.log", s->out_dir, t->name))
        return lp_host_fail("%s: path too long", s->out_dir);
    char *opts[] = {(char *)"--trace", t->path, (char *)"--trace-kinds", (char *)kinds,
                    (char *)"--trace-limit", lim};
    int rc = lp__eval_wl_run(s, t->name, opts, sizeof opts / sizeof opts[0], prof, log, NULL);
    if (!keep_profile)
        remove(prof);
    return rc;
}

/* ---- reading a window ------------------------------------------------------------------ */

static int file_read(void *ctx, void *buf, size_t size, size_t *out_got)
{
    FILE *f = ctx;
    *out_got = fread(buf, 1, size, f);
    return *out_got < size && ferror(f) ? LP_EIO : 0;
}

/* Appends t (with insns) to a growing pair of arrays; 0 or -1. */
static int append(lp_tuple **v, uint64_t **ins, size_t *n, size_t *cap, const lp_tuple *t,
                  uint64_t insns)
{
    if (*n == *cap) {
        size_t ncap = *cap ? 2 * *cap : 1u << 16;
        lp_tuple *nv = realloc(*v, ncap * sizeof **v);
        if (!nv)
            return -1;
        *v = nv;
        uint64_t *ni = realloc(*ins, ncap * sizeof **ins);
        if (!ni)
            return -1;
        *ins = ni;
        *cap = ncap;
    }
    (*v)[*n] = *t;
    (*ins)[*n] = insns;
    (*n)++;
    return 0;
}

int lp__eval_window_load(const char *path, size_t skip_values, size_t max_values,
                         size_t max_controls, lp__eval_window *w)
{
    memset(w, 0, sizeof *w);
    FILE *f = fopen(path, "rb");
    if (!f)
        return lp_host_fail("%s: %s", path, strerror(errno));
    lp_source src = {file_read, f};
    lp_evtrace_reader *r;
    lp_read_error err;
    memset(&err, 0, sizeof err);
    int rc = lp_evtrace_reader_open(src, &r, &err);
    if (rc) {
        lp_host_print_read_error(path, rc, &err);
        fclose(f);
        return 1;
    }
    const unsigned mask =
        (1u << LP_TUPLE_VALUE) | (1u << LP_TUPLE_EDGE) | (1u << LP_TUPLE_CALL_TARGET);
    size_t vcap = 0, ccap = 0;
    lp_event ev;
    int fail = 0;
    while (w->nvalues < max_values || w->ncontrols < max_controls) {
        int got = lp_evtrace_reader_next(r, &ev, &err);
        if (got <= 0) {
            w->whole_trace = 1;
            if (got < 0) {
                /* A trace cut short still gives every event before the cut;
                 * anything else is an error. */
                if (got != LP_ETRUNC) {
                    lp_host_print_read_error(path, got, &err);
                    fail = 1;
                } else {
                    fprintf(stderr,
                            "lowprof eval: %s: the trace ends early (offset %llu); "
                            "using the %llu events before\n",
                            path, (unsigned long long)err.offset, (unsigned long long)w->events);
                }
            }
            break;
        }
        w->events++;
        w->trace_insns = ev.icount;
        lp_tuple t;
        if (!lp_tuple_select(&ev, mask, &t))
            continue;
        int bad = 0;
        if (t.type == LP_TUPLE_VALUE) {
            if (w->skipped < skip_values) {
                /* The window's clock starts at the last load left out. */
                w->skipped++;
                w->base_insns = ev.icount;
            } else if (w->nvalues < max_values) {
                bad = append(&w->values, &w->value_insns, &w->nvalues, &vcap, &t,
                             ev.icount - w->base_insns);
            }
        } else if (w->ncontrols < max_controls) {
            bad = append(&w->controls, &w->control_insns, &w->ncontrols, &ccap, &t, ev.icount);
        }
        if (bad) {
            lp_host_fail("%s: out of memory holding the trace's tuples", path);
            fail = 1;
            break;
        }
    }
    lp_evtrace_reader_free(r);
    fclose(f);
    if (fail) {
        lp__eval_window_fini(w);
        return 1;
    }
    return 0;
}

void lp__eval_window_fini(lp__eval_window *w)
{
    if (!w)
        return;
    free(w->values);
    free(w->value_insns);
    free(w->controls);
    free(w->control_insns);
    memset(w, 0, sizeof *w);
}

int lp__eval_exact(const lp_tuple *t, size_t n, unsigned tuple_type, lp_table *out)
{
    int rc = lp_table_init(out, 1024);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (t[i].type != tuple_type)
            continue;
        lp_entry *e = lp_table_upsert(out, (lp_key){t[i].pc, t[i].w});
        if (!e)
            rc = LP_ENOMEM;
        else
            e->v[0]++;
    }
    if (rc)
        lp_table_fini(out);
    return rc;
}

/* ---- checkpoints ------------------------------------------------------------------------ */

size_t lp__eval_checkpoints(uint64_t n, uint64_t **out)
{
    size_t cap = 8, k = 0;
    uint64_t *v = malloc(cap * sizeof *v);
    if (!v)
        return 0;
    for (unsigned q = 0;; q++) {
        uint64_t c = (uint64_t)llround(ldexp(1.0, 15) * pow(2.0, q / 4.0));
        if (c >= n)
            break;
        if (k + 1 == cap) {
            uint64_t *nv = realloc(v, 2 * cap * sizeof *v);
            if (!nv) {
                free(v);
                return 0;
            }
            v = nv;
            cap *= 2;
        }
        v[k++] = c;
    }
    v[k++] = n;
    *out = v;
    return k;
}
