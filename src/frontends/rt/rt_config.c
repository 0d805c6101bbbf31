/* The runtime's configuration: the LOWPROF environment variable, a comma
 * separated list of field=value (doc/runtime.md). A value that is itself a
 * list (profiles=call-graph,block,context) continues over the following
 * items that have no '='. A bad field leaves profiling off: the caller prints the one
 * message this file composes and the program runs untouched. */
#include <stdlib.h>
#include <string.h>

#include "lowprof/bursty.h"
#include "rt_internal.h"

static const char *const lp__rt_strategies[] = {
    [LP__RT_ALWAYS] = "always", [LP__RT_NEVER] = "never", [LP__RT_PERIODIC] = "periodic",
    [LP__RT_RANDOM] = "random", [LP__RT_PHASE] = "phase", [LP__RT_BURSTY] = "bursty",
};

const char *lp__rt_strategy_name(unsigned strategy)
{
    if (strategy < 1 || strategy > LP__RT_BURSTY)
        return "?";
    return lp__rt_strategies[strategy];
}

/* Appends up to three strings to err (always terminated). */
static void lp__rt_err(char *err, size_t cap, const char *a, const char *b, const char *c)
{
    size_t n = 0;
    const char *parts[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        for (const char *s = parts[i]; s && *s && n + 1 < cap; s++)
            err[n++] = *s;
    if (cap)
        err[n] = 0;
}

/* An unsigned decimal in [lo, hi] that spans the whole value. */
static int lp__rt_num(const char *v, size_t len, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (len == 0 || len > 19)
        return -1;
    uint64_t x = 0;
    for (size_t i = 0; i < len; i++) {
        if (v[i] < '0' || v[i] > '9')
            return -1;
        x = x * 10 + (uint64_t)(v[i] - '0');
    }
    if (x < lo || x > hi)
        return -1;
    *out = x;
    return 0;
}

/* A decimal number in [lo, hi] (lo excluded when lo_open). */
static int lp__rt_decimal(const char *v, size_t len, double lo, int lo_open, double hi, double *out)
{
    char buf[32];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, v, len);
    buf[len] = 0;
    char *end;
    double x = strtod(buf, &end);
    if (*end || !(lo_open ? x > lo : x >= lo) || !(x <= hi))
        return -1;
    *out = x;
    return 0;
}

/* A fraction in (0, 1]: "0.25", ".3", "1". */
static int lp__rt_fraction(const char *v, size_t len, double *out)
{
    return lp__rt_decimal(v, len, 0.0, 1, 1.0, out);
}

static int lp__rt_is(const char *v, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(v, word, len) == 0;
}

/* bursty=NCHECK:NINSTR: nCheck_0 (1 or more, or "inf": never leave the
 * checking code, the setting under which the paper measures the checks'
 * own cost) and nInstr_0 (1 or more). */
static int lp__rt_bursty_counts(const char *v, size_t len, uint64_t *check0, uint64_t *instr0)
{
    const char *colon = memchr(v, ':', len);
    if (!colon)
        return -1;
    size_t clen = (size_t)(colon - v);
    uint64_t c, i;
    if (lp__rt_is(v, clen, "inf"))
        c = LP_BURSTY_INFINITE;
    else if (lp__rt_num(v, clen, 1, LP_BURSTY_INFINITE - 1, &c) != 0)
        return -1;
    if (lp__rt_num(colon + 1, len - clen - 1, 1, UINT64_MAX / 10, &i) != 0)
        return -1;
    *check0 = c;
    *instr0 = i;
    return 0;
}

/* One item of the profiles list. */
static int lp__rt_profile_item(const char *v, size_t len, unsigned *types, unsigned *context)
{
    if (lp__rt_is(v, len, "call-graph") || lp__rt_is(v, len, "call-pair") ||
        lp__rt_is(v, len, "method") || lp__rt_is(v, len, "functions"))
        *types |= 1u << LP_RT_FUNCTIONS;
    else if (lp__rt_is(v, len, "block") || lp__rt_is(v, len, "blocks"))
        *types |= 1u << LP_RT_BLOCKS;
    else if (lp__rt_is(v, len, "context"))
        *context = 1;
    else if (lp__rt_is(v, len, "none"))
        ;
    else
        return -1;
    return 0;
}

void lp__rt_config_defaults(lp__rt_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->strategy = LP__RT_PERIODIC;
    cfg->types = 1u << LP_RT_FUNCTIONS;
    cfg->duty = 10;
    cfg->period_ns = 20 * 1000000ULL;
    cfg->seed = 1;
    cfg->hot = 0; /* all: see doc/runtime.md, "Hot methods" */
    cfg->rate = 1000;
    cfg->burst = 10000;
    cfg->check_ns = 0; /* derived from period and duty */
    cfg->threshold = 0.3;
    cfg->noise = 0.0;
    cfg->k = 1;
    cfg->refine = 0;
    cfg->scout = 5;
    cfg->flush_ns = 10 * 1000000000ULL;
    cfg->arcs = 0; /* derived from the number of methods */
    cfg->bt_check0 = 1000; /* doc/runtime.md, "Bursty checks" */
    cfg->bt_instr0 = 50;
    cfg->streams_limit = 4194304;
    strcpy(cfg->out, "lowprof-rt.%p.lpprof");
}

int lp__rt_config_parse(const char *text, lp__rt_config *cfg, char *err, size_t errcap)
{
    lp__rt_config_defaults(cfg);
    if (err && errcap)
        err[0] = 0;
    if (!text)
        return 0;
    int in_profiles = 0;
    for (const char *s = text; *s;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        const char *eq = memchr(s, '=', len);
        char field[24];
        const char *v;
        size_t vlen;
        if (!eq) {
            if (len == 0) {
                s += comma ? 1 : 0;
                continue;
            }
            if (!in_profiles) {
                char item[64];
                size_t n = len < sizeof item - 1 ? len : sizeof item - 1;
                memcpy(item, s, n);
                item[n] = 0;
                lp__rt_err(err, errcap, "LOWPROF: '", item, "' is not field=value");
                return -1;
            }
            strcpy(field, "profiles");
            v = s;
            vlen = len;
        } else {
            size_t flen = (size_t)(eq - s);
            if (flen >= sizeof field)
                flen = sizeof field - 1;
            memcpy(field, s, flen);
            field[flen] = 0;
            v = eq + 1;
            vlen = len - (size_t)(eq - s) - 1;
            in_profiles = strcmp(field, "profiles") == 0;
            if (in_profiles)
                cfg->types = cfg->context = 0;
        }
        uint64_t n = 0;
        int bad = 0;
        const char *expect = "";
        if (strcmp(field, "strategy") == 0) {
            unsigned st = 0;
            for (unsigned i = 1; i <= LP__RT_BURSTY; i++)
                if (lp__rt_is(v, vlen, lp__rt_strategies[i]))
                    st = i;
            bad = st == 0;
            cfg->strategy = st ? st : cfg->strategy;
            expect = "always, never, periodic, random, phase or bursty";
        } else if (strcmp(field, "profiles") == 0) {
            bad = lp__rt_profile_item(v, vlen, &cfg->types, &cfg->context) != 0;
            expect = "a list of call-graph, call-pair, method, block, context or none";
        } else if (strcmp(field, "hot") == 0) {
            if (lp__rt_is(v, vlen, "all"))
                cfg->hot = 0;
            else if (!(bad = lp__rt_num(v, vlen, 1, 1000000, &n)))
                cfg->hot = (unsigned)n;
            expect = "a number of methods (1 or more) or all";
        } else if (strcmp(field, "duty") == 0) {
            if (!(bad = lp__rt_num(v, vlen, 1, 100, &n))) {
                cfg->duty = (unsigned)n;
                cfg->duty_set = 1;
            }
            expect = "a percentage from 1 to 100 (the paper's: 10, 25, 50)";
        } else if (strcmp(field, "period") == 0) {
            if (!(bad = lp__rt_num(v, vlen, 1, 3600000, &n))) {
                cfg->period_ns = n * 1000000ULL;
                cfg->period_set = 1;
            }
            expect = "milliseconds of CPU time, 1 to 3600000";
        } else if (strcmp(field, "seed") == 0) {
            if (!(bad = lp__rt_num(v, vlen, 0, UINT64_MAX / 10, &n))) {
                cfg->seed = n;
                cfg->seed_set = 1;
            }
            expect = "an unsigned number";
        } else if (strcmp(field, "rate") == 0) {
            if (!(bad = lp__rt_num(v, vlen, 10, 10000, &n)))
                cfg->rate = (unsigned)n;
            expect = "samples per CPU second, 10 to 10000";
        } else if (strcmp(field, "burst") == 0) {
            if (!(bad = lp__rt_num(v, vlen, 1, UINT64_MAX / 10, &n)))
                cfg->burst = n;
            expect = "a number of events (1 or more)";
        } else if (strcmp(field, "check") == 0) {
            if (!(bad = lp__rt_num(v, vlen, 1, 3600000, &n)))
                cfg->check_ns = n * 1000000ULL;
            expect = "milliseconds of CPU time, 1 to 3600000";
        } else if (strcmp(field, "threshold") == 0) {
            bad = lp__rt_fraction(v, vlen, &cfg->threshold) != 0;
            expect = "a fraction in (0, 1]";
        } else if (strcmp(field, "noise") == 0) {
            bad = lp__rt_decimal(v, vlen, 0.0, 0, 10.0, &cfg->noise) != 0;
            expect = "a number from 0 to 10";
        } else if (strcmp(field, "k") == 0) {
            if (!(bad = lp__rt_num(v, vlen, 1, 1000, &n)))
                cfg->k = (unsigned)n;
            expect = "which interval of a phase represents it, 1 to 1000";
        } else if (strcmp(field, "policy") == 0) {
            bad = !lp__rt_is(v, vlen, "refine") && !lp__rt_is(v, vlen, "kth");
            if (!bad)
                cfg->refine = lp__rt_is(v, vlen, "refine");
            expect = "refine or kth";
        } else if (strcmp(field, "scout") == 0) {
            if (!(bad = lp__rt_num(v, vlen, 0, 50, &n)))
                cfg->scout = (unsigned)n;
            expect = "percent of an interval not profiled, 0 to 50";
        } else if (strcmp(field, "flush") == 0) {
            if (!(bad = lp__rt_num(v, vlen, 0, 86400, &n)))
                cfg->flush_ns = n * 1000000000ULL;
            expect = "seconds between periodic files, 0 for none";
        } else if (strcmp(field, "arcs") == 0) {
            if (!(bad = lp__rt_num(v, vlen, 1024, 1u << 26, &n)))
                cfg->arcs = (size_t)n;
            expect = "call-pair table slots, 1024 to 67108864";
        } else if (strcmp(field, "bursty") == 0) {
            bad = lp__rt_bursty_counts(v, vlen, &cfg->bt_check0, &cfg->bt_instr0) != 0;
            expect = "NCHECK:NINSTR, the checks between bursts (1 or more, or inf) and the "
                     "checks in a burst (1 or more), e.g. 1000:50";
        } else if (strcmp(field, "streams-limit") == 0) {
            if (!(bad = lp__rt_num(v, vlen, 0, 1u << 28, &n)))
                cfg->streams_limit = n;
            expect = "the data references a thread's buffer holds, 0 to 268435456";
        } else if (strcmp(field, "text") == 0) {
            bad = !lp__rt_is(v, vlen, "key") && !lp__rt_is(v, vlen, "mprotect");
            if (!bad)
                cfg->text_mprotect = lp__rt_is(v, vlen, "mprotect");
            expect = "key (a protection key where the machine has them) or mprotect";
        } else if (strcmp(field, "verbose") == 0) {
            if (!(bad = lp__rt_num(v, vlen, 0, 1, &n)))
                cfg->verbose = (unsigned)n;
            expect = "0 or 1";
        } else if (strcmp(field, "out") == 0) {
            bad = vlen == 0 || vlen >= sizeof cfg->out;
            if (!bad) {
                memcpy(cfg->out, v, vlen);
                cfg->out[vlen] = 0;
            }
            expect = "a file name (no commas)";
        } else if (strcmp(field, "ship") == 0) {
            if (lp__rt_is(v, vlen, "at-end") || lp__rt_is(v, vlen, "At-End"))
                cfg->ship = LP__RT_SHIP_AT_END;
            else if (lp__rt_is(v, vlen, "interleaved") || lp__rt_is(v, vlen, "Interleaved"))
                cfg->ship = LP__RT_SHIP_INTERLEAVED;
            else if (lp__rt_is(v, vlen, "none"))
                cfg->ship = LP__RT_SHIP_NONE;
            else
                bad = 1;
            expect = "At-End (one message when the program ends), interleaved (one per "
                     "profiled interval, with strategy=phase) or none";
        } else if (strcmp(field, "spool") == 0 || strcmp(field, "device") == 0) {
            char *dst = field[0] == 's' ? cfg->spool : cfg->device;
            size_t cap = field[0] == 's' ? sizeof cfg->spool : sizeof cfg->device;
            bad = vlen == 0 || vlen >= cap || (field[0] == 'd' && memchr(v, '/', vlen));
            if (!bad) {
                memcpy(dst, v, vlen);
                dst[vlen] = 0;
            }
            expect = field[0] == 's' ? "a folder name (no commas)" : "a name (no commas or slashes)";
        } else {
            lp__rt_err(err, errcap, "LOWPROF: unknown field '", field,
                       "' (strategy, profiles, out, hot, duty, period, seed, rate, burst, "
                       "check, threshold, noise, k, policy, scout, flush, arcs, verbose, ship, "
                       "spool, device, bursty, streams-limit, text)");
            return -1;
        }
        if (bad) {
            char msg[160];
            lp__rt_err(msg, sizeof msg, "LOWPROF: field '", field, "': expected ");
            lp__rt_err(err, errcap, msg, expect, NULL);
            return -1;
        }
        s += len + (comma ? 1 : 0);
    }
    /* A spool folder alone means At End; shipping needs a folder. */
    if (cfg->spool[0] && !cfg->ship)
        cfg->ship = LP__RT_SHIP_AT_END;
    if (cfg->ship && !cfg->spool[0]) {
        lp__rt_err(err, errcap, "LOWPROF: field 'ship': expected a spool folder as well ",
                   "(spool=DIR), where `lowprof agent` takes the messages from", NULL);
        return -1;
    }
    if (cfg->ship == LP__RT_SHIP_INTERLEAVED && cfg->strategy != LP__RT_PHASE) {
        lp__rt_err(err, errcap, "LOWPROF: field 'ship': interleaved sends the phase ",
                   "strategy's intervals as they end; it needs strategy=phase", NULL);
        return -1;
    }
    /* A phase signature needs tens of PC samples, and CPU-time timers tick
     * at the kernel's HZ (250 here): 200 ms gives about fifty. */
    /* phase profiles half of each representative interval, in four
     * windows (the run's first profiled interval whole: it chooses the
     * clock, rt_phase.c). Whole intervals had the native suite's 1-3 s
     * programs profiled for 20-34 % of their CPU time, at no better
     * call-graph accuracy (doc/eval-native.md). */
    if (cfg->strategy == LP__RT_PHASE && !cfg->duty_set)
        cfg->duty = 50;
    if (cfg->strategy == LP__RT_PHASE && !cfg->period_set)
        cfg->period_ns = 200 * 1000000ULL;
    return 0;
}
