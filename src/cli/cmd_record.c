/* lowprof record: runs an unmodified program under the Valgrind front end and
 * writes its profile, its interval matrix and, on request, its event trace.
 *
 * The tool writes raw files; this command then finishes the profile: it adds
 * what only the host knows (command line, exit status, whether the run ended
 * normally, build ids of the modules) and writes the file atomically. If the
 * tool could not write its profile (Valgrind itself was killed), the profile
 * is rebuilt from the intervals already streamed to the matrix and marked
 * incomplete, so no recorded interval is lost. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "lowprof/bursty.h"
#include "lowprof/hps.h"
#include "lowprof/record.h"
#include "lowprof/upload.h"
#include "lowprof/value.h"

const char cmd_record_help[] =
    "usage: lowprof record [OPTIONS] -- PROGRAM [ARGS...]\n"
    "\n"
    "Runs PROGRAM under lowprof's Valgrind front end, which sees every\n"
    "instruction of the unmodified binary, and writes its exact profile.\n"
    "\n"
    "Options:\n"
    "  -o, --out FILE        profile file [lowprof.lpprof]\n"
    "  --imatrix FILE        interval matrix file [OUT with .lpim]\n"
    "  --no-imatrix          do not keep the interval matrix\n"
    "  --interval N          interval length in instructions [10000000]\n"
    "  --profile TYPES       comma-separated: code-region, method, call-pair,\n"
    "                        edge, block, value, data-streams, context; 'all';\n"
    "                        or 'none'\n"
    "                        for phase\n"
    "                        signatures only [code-region,method,call-pair,edge,block]\n"
    "  --strategy S          profile only some intervals (the profile builders\n"
    "                        are switched off in the others): exhaustive,\n"
    "                        periodic:N[:OFFSET], random:P:SEED, phase (one\n"
    "                        representative interval per program phase), or\n"
    "                        phase-refine (every phase's first interval, more\n"
    "                        where a phase strays, calibrated weights)\n"
    "  --phase-threshold T   phase similarity threshold in (0, 1] [0.1]\n"
    "  --phase-k K           sample each new phase's K-th interval [3]\n"
    "  --phase-table N       phase table entries [20]\n"
    "  --phase-predictor P   next-phase predictor: last, markov, run-length\n"
    "                        [markov; run-length with phase-refine]\n"
    "  --phase-bits B        bits per compressed signature bucket, 4-16 [6]\n"
    "  --phase-seed N        seed of the phase table's random replacement [0]\n"
    "  --tuples TYPES        comma-separated: value, edge, call-target; feed\n"
    "                        them to a stream compressor whose estimated\n"
    "                        profiles replace the exhaustive ones of those types\n"
    "  --compressor SPEC     the compressor, e.g. R256, P256, H[P256]2048,\n"
    "                        H[P512]2048+A16, T2:256x2048w2 [H[P256]2048]\n"
    "                        (grammar: doc/sample.md)\n"
    "  --seed N              the compressor's random seed [1]\n"
    "  --cost B,I,M          messages per interrupt, cycles per interrupt,\n"
    "                        cycles per message of the cost model [100,214,30]\n"
    "  --acf FILE|NAME       apply an ACF's HPS productions (doc/acf.md) in\n"
    "                        place of the profile builders; NAME is a shipped\n"
    "                        ACF (lowprof acf list), e.g. hot-call-pair\n"
    "  --acf-set HPS_Rk=V    set an ACF register (repeatable)\n"
    "  --hps-mode MODE       hps (conditional replacement) or dise (replace\n"
    "                        every candidate, check the flags in software) [hps]\n"
    "  --hps-ar NC,NI        the software sampling framework instead of an ACF:\n"
    "                        NC checks between bursts, NI checks per burst;\n"
    "                        profiles call pairs\n"
    "  --bursty NC:NI        bursty tracing (doc/bursty.md): per thread, NC\n"
    "                        checks in the checking code, then NI checks in the\n"
    "                        instrumented code, where the profile builders and\n"
    "                        the data-reference recorder run; NC may be inf\n"
    "  --checks P|FILE       where the checks are: a placement (orig, EL, EC,\n"
    "                        EN, L4, L10, LN, EC+L4) or a checks file [orig]\n"
    "  --streams-limit N     data references the hot data streams are found in\n"
    "                        (exhaustive and sampled alike) [16777216]\n"
    "  --value-profiler P    estimate the load-value profile instead of counting\n"
    "                        it: coproc[:OPTIONS] runs the profiling\n"
    "                        co-processor's self-limiting profiler (options and\n"
    "                        defaults: doc/value.md), simple:N samples one load\n"
    "                        in N (the stream compressor P<N>)\n"
    "  --trace FILE          also write every event (for small runs)\n"
    "  --trace-limit N       stop the event trace after N events [10000000]\n"
    "  --trace-kinds LIST    events to trace, comma-separated: branch, call,\n"
    "                        return, block, load, store [all]\n"
    "  --ship URL            send the profile to a collector (lowprof serve) when\n"
    "                        the recording is done, with --token T (or\n"
    "                        LOWPROF_TOKEN); a phase-sampled recording carries\n"
    "                        its phases and phase trace for the collector's merge\n"
    "  --spool DIR           keep it in DIR as a message for lowprof agent: always\n"
    "                        without --ship, else only when it cannot be sent now\n"
    "  --device NAME         the device the message names [the host name]\n"
    "  --no-skip-plt         count a call through a PLT stub as two calls, to\n"
    "                        the stub and from the stub to its target (by\n"
    "                        default it is one call of the target, as\n"
    "                        callgrind's --skip-plt=yes counts it)\n"
    "  --no-trace-children   record only PROGRAM's own process. By default what it\n"
    "                        runs is recorded too, each process into its own\n"
    "                        OUT.PID.lpprof (and matrix); a program that execs\n"
    "                        (env FOO=1 prog) is recorded as what it execs into\n"
    "  -q, --quiet           no progress display\n"
    "\n"
    "The value profile (per static load, each value loaded and its count) is\n"
    "exact and whole-run; it slows recording several times.\n"
    "\n"
    "The context profile counts calls and self instructions per calling\n"
    "context (the path of calls from the thread's first function), exactly and\n"
    "over the whole run; a function calling itself stays in one context.\n"
    "lowprof export --format folded or speedscope turns it into flame graphs.\n"
    "\n"
    "If PROGRAM crashes or is killed by a signal, the profile up to that point\n"
    "is written and marked incomplete. The exit status of lowprof record is\n"
    "0 when the recording was written, whatever PROGRAM's own status was.\n"
    "\n"
    "With --strategy, the file holds the whole-run estimate (each sampled\n"
    "interval scaled by the intervals it stands for), the sampled profiles\n"
    "tagged by phase, and the phase of every interval; lowprof report shows\n"
    "the phases and a timeline.\n"
    "\n"
    "With --tuples, edges are conditional branches and indirect jumps, call\n"
    "targets are calls; the report shows the estimates and what collecting\n"
    "them cost: messages, interrupts and modeled cycles.\n"
    "\n"
    "Examples:\n"
    "  lowprof record -o bz.lpprof -- bzip2 -9 -k -c input.txt > /dev/null\n"
    "  lowprof record --acf hot-call-pair --strategy periodic:10 -- ./prog\n"
    "  lowprof record --tuples value,edge,call-target --compressor 'H[P256]2048+A16' \\\n"
    "      -- bzip2 -9 -k -c input.txt > /dev/null\n"
    "  lowprof report bz.lpprof\n";

static const char lp_default_types[] = "code-region,method,call-pair,edge,block";

static int lp_parse_u64_arg(const char *opt, const char *s, unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *end || errno || s[0] == '-')
        return lp_host_usage("record", "%s needs a whole number, not '%s'", opt, s);
    *out = v;
    return 0;
}

/* Checks a --profile list here, so a typo fails before a long run starts. */
static int lp_check_types(const char *list)
{
    if (strcmp(list, "none") == 0 || strcmp(list, "all") == 0)
        return 0;
    for (const char *s = list; *s;) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        unsigned t = lp_profile_type_parse(s, n);
        if (!t || (t > LP_PROF_VALUE && t != LP_PROF_STREAMS && t != LP_PROF_CONTEXT) ||
            t == LP_PROF_CALL_GRAPH)
            return lp_host_usage("record", "'%.*s' is not a profile type the front end records "
                                          "(code-region, method, call-pair, edge, block, value, "
                                          "data-streams, context)",
                                (int)n, s);
        s = e ? e + 1 : s + n;
    }
    return 0;
}

/* Removes the exhaustive types that --tuples replaces from a type list. */
static const char *lp_types_without(const char *list, unsigned tuples, char *buf, size_t cap)
{
    if (strcmp(list, "none") == 0)
        return list;
    buf[0] = 0;
    size_t len = 0;
    for (const char *s = list; *s;) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        unsigned t = lp_profile_type_parse(s, n);
        int drop = (t == LP_PROF_VALUE && (tuples & (1u << LP_TUPLE_VALUE))) ||
                   (t == LP_PROF_EDGE && (tuples & (1u << LP_TUPLE_EDGE)));
        if (!drop && len + n + 2 < cap) {
            if (len)
                buf[len++] = ',';
            memcpy(buf + len, s, n);
            len += n;
            buf[len] = 0;
        }
        s = e ? e + 1 : s + n;
    }
    return len ? buf : "none";
}

static int lp_parse_tuples(const char *list, unsigned *out)
{
    static const struct {
        const char *name;
        unsigned type;
    } names[] = {{"value", LP_TUPLE_VALUE},
                 {"edge", LP_TUPLE_EDGE},
                 {"call-target", LP_TUPLE_CALL_TARGET}};
    *out = 0;
    for (const char *s = list; *s;) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        unsigned found = 0;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (strlen(names[i].name) == n && strncmp(s, names[i].name, n) == 0)
                found = 1u << names[i].type;
        if (!found)
            return lp_host_usage("record", "'%.*s' is not a tuple type (value, edge, call-target)",
                                (int)n, s);
        *out |= found;
        s = e ? e + 1 : s + n;
    }
    if (!*out)
        return lp_host_usage("record", "--tuples needs at least one type");
    return 0;
}

static int lp_parse_cost(const char *s, unsigned long long out[3])
{
    char *end;
    for (int i = 0; i < 3; i++) {
        errno = 0;
        out[i] = strtoull(s, &end, 10);
        if (end == s || errno || *s == '-' || out[i] > 0xffffffffULL || (i == 0 && !out[i]) ||
            *end != (i < 2 ? ',' : 0))
            return lp_host_usage("record", "--cost needs three whole numbers B,I,M (B >= 1), "
                                          "not '%s'", s);
        s = end + 1;
    }
    return 0;
}

/* Adds "--name=value" to the tool's options, in static storage (the
 * command runs once per process). Returns 0, or 2 after a usage message
 * when the value is absurdly long or there are too many options. */
static int lp_tool_arg(lp_record_opts *o, const char *name, const char *value)
{
    static char space[sizeof o->tool_args / sizeof o->tool_args[0]][512];
    int n = o->ntool_args;
    if (n >= (int)(sizeof space / sizeof space[0]))
        return lp_host_usage("record", "too many front-end options (at most %zu)",
                            sizeof space / sizeof space[0]);
    if ((size_t)snprintf(space[n], sizeof space[n], "%s=%s", name, value) >= sizeof space[n])
        return lp_host_usage("record", "the value of %s is too long", name);
    o->tool_args[o->ntool_args++] = space[n];
    return 0;
}

/* The HPS options: checks the ACF (with its register settings) before the
 * run, and hands the tool the resolved path; the ACF's handlers replace the
 * profile builders. Returns 0, or 2 after a message. */
static int lp_record_hps(lp_record_opts *o, const char *acf, const char *const *sets, int nsets,
                         const char *mode, const char *ar, int other_profiles)
{
    if (!acf && !ar) {
        if (nsets || mode)
            return lp_host_usage("record", "--acf-set and --hps-mode need --acf");
        return 0;
    }
    if (acf && ar)
        return lp_host_usage("record", "--acf and --hps-ar are two triggers: use one at a time");
    if (other_profiles)
        return lp_host_usage("record", "--%s decides what is profiled: leave out --profile "
                                      "and --tuples", acf ? "acf" : "hps-ar");
    o->types = "none";
    if (ar) {
        unsigned long long nc = 0, ni = 0;
        char tail = 0;
        if (sscanf(ar, "%llu,%llu%c", &nc, &ni, &tail) != 2 || nc < 1 || ni < 1)
            return lp_host_usage("record", "--hps-ar needs N_CHECK,N_INSTR, both at least 1, "
                                          "not '%s'", ar);
        return lp_tool_arg(o, "--hps-ar", ar) ? 2 : 0;
    }
    static char path[4096];
    lp_hps_acf parsed;
    if (lp_host_acf_load(acf, &parsed, path, sizeof path) != 0)
        return 2;
    int bad = 0;
    for (int k = 0; k < nsets && !bad; k++) {
        const char *eq = strchr(sets[k], '=');
        char *end = NULL;
        unsigned long long v = eq ? strtoull(eq + 1, &end, 10) : 0;
        if (!eq || !eq[1] || *end ||
            lp_hps_set_register(&parsed, sets[k], (size_t)(eq - sets[k]), v) != 0)
            bad = lp_host_usage("record", "--acf-set needs HPS_Rk=VALUE with k 0-15, not '%s'",
                               sets[k]);
    }
    lp_hps_acf_free(&parsed);
    if (bad)
        return 2;
    if (lp_tool_arg(o, "--acf-file", path) || (mode && lp_tool_arg(o, "--hps-mode", mode)))
        return 2;
    for (int k = 0; k < nsets; k++)
        if (lp_tool_arg(o, "--acf-set", sets[k]))
            return 2;
    return 0;
}

/* Bursty tracing: checks NC:NI and the placement before the run. "orig"
 * (every entry and back-edge) needs no file; a checks file is handed to
 * the tool as it is. Returns 0, or 2 after a message. */
static int lp_record_bursty(lp_record_opts *o, const char *bursty, const char *checks,
                            int other_trigger)
{
    if (!bursty)
        return checks ? lp_host_usage("record", "--checks needs --bursty") : 0;
    if (other_trigger)
        return lp_host_usage("record", "--bursty decides when to profile by itself: not with "
                                      "--strategy, --acf or --hps-ar");
    unsigned long long nc = 0, ni = 0;
    char tail = 0;
    int inf = strncmp(bursty, "inf:", 4) == 0;
    if ((inf ? sscanf(bursty + 4, "%llu%c", &ni, &tail) != 1
             : sscanf(bursty, "%llu:%llu%c", &nc, &ni, &tail) != 2) ||
        (!inf && nc < 1) || ni < 1 || bursty[0] == '-')
        return lp_host_usage("record", "--bursty needs NCHECK:NINSTR, NCHECK at least 1 (or "
                                      "inf) and NINSTR at least 1, not '%s'", bursty);
    if (lp_tool_arg(o, "--bursty", bursty))
        return 2;
    if (!checks || strcmp(checks, "orig") == 0)
        return lp_tool_arg(o, "--placement-name", "orig") ? 2 : 0;
    lp_bursty_placement pl;
    size_t pos = 0;
    if (lp_bursty_placement_parse(checks, strlen(checks), &pl, &pos) == 0) {
        /* The analysis of the executable decides; the file sits beside the
         * profile, for lowprof analyze checks' reasons to be compared. */
        char *prog = o->argc ? lp_record_find_program(o->argv[0]) : NULL;
        if (!prog)
            return lp_host_usage("record", "%s: no such program (not found, or not executable)",
                                o->argc ? o->argv[0] : "");
        static char file[4096];
        snprintf(file, sizeof file, "%s.checks", o->out);
        int rc = lp_record_write_checks(prog, checks, file);
        free(prog);
        if (rc)
            return 1;
        static char abs[4096];
        if (!realpath(file, abs))
            return lp_host_fail("%s: %s", file, strerror(errno));
        return lp_tool_arg(o, "--checks-file", abs) || lp_tool_arg(o, "--placement-name", checks)
                   ? 2
                   : 0;
    }
    if (access(checks, R_OK) != 0)
        return lp_host_usage("record", "--checks is a placement (orig, EL, EC, EN, L4, L10, LN, "
                                      "EC+L4) or a readable checks file, not '%s'", checks);
    static char path[4096];
    if (!realpath(checks, path))
        return lp_host_usage("record", "%s: %s", checks, strerror(errno));
    return lp_tool_arg(o, "--checks-file", path) || lp_tool_arg(o, "--placement-name", "file")
               ? 2
               : 0;
}

/* --value-profiler: coproc[:OPTIONS] goes to the tool after its options
 * are checked here (an error names the field); simple:N becomes the value
 * tuples through the compressor P<N>, written into spec. Returns 0, or 2
 * after a message. */
static int lp_record_value_profiler(lp_record_opts *o, const char *v, int conflicts, char *spec,
                                    size_t cap)
{
    spec[0] = 0;
    if (conflicts)
        return lp_host_usage("record", "--value-profiler chooses the value estimator: not with "
                                      "--tuples, --compressor or --strategy");
    if (strncmp(v, "simple:", 7) == 0) {
        char *end;
        errno = 0;
        unsigned long n = strtoul(v + 7, &end, 10);
        if (!v[7] || *end || errno || n < 1 || n > 1000000 || v[7] == '-')
            return lp_host_usage("record", "--value-profiler simple:N needs N from 1 to "
                                          "1000000, not '%s'", v + 7);
        snprintf(spec, cap, "P%lu", n);
        return 0;
    }
    if (strncmp(v, "coproc", 6) != 0 || (v[6] && v[6] != ':'))
        return lp_host_usage("record", "--value-profiler is coproc[:OPTIONS] or simple:N, not '%s'",
                            v);
    lp_value_options opts;
    lp_value_options_default(&opts);
    lp_value_parse_error err = {0};
    const char *text = v[6] ? v + 7 : "";
    if (lp_value_options_parse(text, &opts, &err) != 0) {
        if (err.field)
            fprintf(stderr, "lowprof record: --value-profiler: option '%s' at character %zu: %s\n",
                    err.field, err.offset + 1, err.why ? err.why : "bad value");
        else
            fprintf(stderr, "lowprof record: --value-profiler: '%.*s' at character %zu is not an "
                            "option (%s)\n",
                    (int)err.length, text + err.offset, err.offset + 1, err.why ? err.why : "");
        fprintf(stderr, "  %s\n  %*s^\n", text, (int)err.offset, "");
        fprintf(stderr, "Try 'lowprof help record'; the options are in doc/value.md.\n");
        return 2;
    }
    return lp_tool_arg(o, "--value-profiler", v) ? 2 : 0;
}

/* Checks a --strategy or --phase-* value before a long run starts; the
 * tool checks them again. */
static int lp_check_phase_option(const char *opt, const char *v)
{
    char *end;
    unsigned long long a = 0, b = 0;
    if (strcmp(opt, "--strategy") == 0) {
        if (strcmp(v, "exhaustive") == 0 || strcmp(v, "phase") == 0 ||
            strcmp(v, "phase-refine") == 0)
            return 0;
        if (strncmp(v, "periodic:", 9) == 0) {
            a = strtoull(v + 9, &end, 10);
            if (end != v + 9 && a > 0 && v[9] != '-' &&
                (!*end || (*end == ':' && end[1] >= '0' && end[1] <= '9' &&
                           (b = strtoull(end + 1, &end, 10), !*end) && b < a)))
                return 0;
        } else if (strncmp(v, "random:", 7) == 0) {
            a = strtoull(v + 7, &end, 10);
            if (end != v + 7 && a > 0 && v[7] != '-' && *end == ':' && end[1] >= '0' &&
                end[1] <= '9' && (strtoull(end + 1, &end, 10), !*end))
                return 0;
        }
        return lp_host_usage("record",
                             "--strategy is exhaustive, periodic:N[:OFFSET] (N >= 1, "
                             "OFFSET < N), random:P:SEED (P >= 1), phase or phase-refine, "
                             "not '%s'",
                             v);
    }
    if (strcmp(opt, "--phase-threshold") == 0) {
        double t = strtod(v, &end);
        if (end != v && !*end && t > 0.0 && t <= 1.0)
            return 0;
        return lp_host_usage("record", "--phase-threshold needs a number in (0, 1], not '%s'", v);
    }
    if (strcmp(opt, "--phase-predictor") == 0) {
        if (strcmp(v, "last") == 0 || strcmp(v, "markov") == 0 || strcmp(v, "run-length") == 0)
            return 0;
        return lp_host_usage("record", "--phase-predictor is last, markov or run-length, not '%s'",
                            v);
    }
    static const struct {
        const char *name;
        unsigned long long lo, hi;
    } nums[] = {{"--phase-k", 1, ~0ULL},
                {"--phase-table", 1, 65536},
                {"--phase-bits", 4, 16},
                {"--phase-seed", 0, ~0ULL}};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        if (strcmp(opt, nums[i].name) != 0)
            continue;
        if (lp_parse_u64_arg(opt, v, &a))
            return 2;
        if (a < nums[i].lo || a > nums[i].hi)
            return lp_host_usage("record", "%s must be between %llu and %llu", opt, nums[i].lo,
                                nums[i].hi);
        return 0;
    }
    return lp_host_usage("record", "unknown option '%s'", opt);
}

static int lp_check_kinds(const char *list)
{
    static const char *const names[] = {"branch", "call", "return", "block", "load", "store"};
    for (const char *s = list; *s;) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        int ok = 0;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            ok |= strlen(names[k]) == n && strncmp(s, names[k], n) == 0;
        if (!ok)
            return lp_host_usage("record", "'%.*s' is not an event kind (branch, call, return, "
                                          "block, load, store)", (int)n, s);
        s = e ? e + 1 : s + n;
    }
    return 0;
}

/* --ship and --spool: the recording goes to the collector as a message,
 * or into the spool when it cannot be sent now. */
static int lp_record_ship(const char *out, const char *collector, const char *token,
                          const char *spool, const char *device, int progress)
{
    lp_upload_ship_result r;
    int rc = lp_upload_ship(out, collector, token, spool, device, &r);
    if (rc == 0) {
        if (progress != LP_PROGRESS_NONE) {
            if (r.state == LP_SHIP_SPOOLED && collector)
                fprintf(stderr, "lowprof: could not ship %s now (%s); it waits in %s for "
                                "lowprof agent\n", out, r.why, spool);
            else if (r.state == LP_SHIP_SPOOLED)
                fprintf(stderr, "lowprof: %s is in %s as message %s\n", out, spool,
                        r.message_id);
            else
                fprintf(stderr, "lowprof: shipped %s to %s as message %s%s\n", out, collector,
                        r.message_id, r.state == LP_SHIP_DUPLICATE ? " (it had it already)" : "");
        }
        return 0;
    }
    if (rc == LP_EINVAL)
        return lp_host_fail("%s: the collector cannot take it: %s", out, r.why);
    return lp_host_fail("%s: not shipped: %s; the recording is kept: send it later with "
                        "lowprof push --collector %s %s (or give --spool DIR)",
                        out, r.why, collector, out);
}

int cmd_record(int argc, char **argv)
{
    char types_buf[256];
    const char *tuples = NULL, *compressor = NULL, *seed = NULL, *cost = NULL, *strategy = NULL;
    const char *acf = NULL, *hps_mode = NULL, *hps_ar = NULL, *acf_sets[16];
    const char *bursty = NULL, *checks = NULL, *value_profiler = NULL;
    const char *ship = NULL, *token = getenv("LOWPROF_TOKEN"), *spool = NULL, *device = NULL;
    static char simple_spec[32];
    int phase_opts = 0, explicit_types = 0, nsets = 0;
    lp_record_opts o = {0};
    o.out = "lowprof.lpprof";
    o.types = lp_default_types;
    o.progress = isatty(STDERR_FILENO) ? LP_PROGRESS_TTY : LP_PROGRESS_LINES;
    unsigned long long v;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-')
            break;
        int takes = strcmp(a, "-o") == 0 || strcmp(a, "--out") == 0 ||
                    strcmp(a, "--imatrix") == 0 || strcmp(a, "--interval") == 0 ||
                    strcmp(a, "--profile") == 0 || strcmp(a, "--trace") == 0 ||
                    strcmp(a, "--trace-limit") == 0 || strcmp(a, "--tuples") == 0 ||
                    strcmp(a, "--compressor") == 0 || strcmp(a, "--seed") == 0 ||
                    strcmp(a, "--trace-kinds") == 0 || strncmp(a, "--phase-", 8) == 0 ||
                    strcmp(a, "--strategy") == 0 || strcmp(a, "--acf") == 0 ||
                    strcmp(a, "--acf-set") == 0 || strcmp(a, "--hps-mode") == 0 ||
                    strcmp(a, "--hps-ar") == 0 || strcmp(a, "--cost") == 0 ||
                    strcmp(a, "--bursty") == 0 || strcmp(a, "--checks") == 0 ||
                    strcmp(a, "--streams-limit") == 0 || strcmp(a, "--value-profiler") == 0 ||
                    strcmp(a, "--ship") == 0 || strcmp(a, "--token") == 0 ||
                    strcmp(a, "--spool") == 0 || strcmp(a, "--device") == 0;
        if (takes && !next)
            return lp_host_usage("record", "%s needs a value", a);
        if (strcmp(a, "-o") == 0 || strcmp(a, "--out") == 0) {
            o.out = next;
        } else if (strcmp(a, "--imatrix") == 0) {
            o.imatrix = next;
        } else if (strcmp(a, "--no-imatrix") == 0) {
            o.no_imatrix = 1;
        } else if (strcmp(a, "--interval") == 0) {
            if (lp_parse_u64_arg(a, next, &v))
                return 2;
            if (v < 1000)
                return lp_host_usage("record", "--interval must be at least 1000 instructions");
            o.interval = v;
        } else if (strcmp(a, "--profile") == 0) {
            if (lp_check_types(next))
                return 2;
            o.types = strcmp(next, "all") == 0 ? "code-region,method,call-pair,edge,block,value"
                                               : next;
            explicit_types = 1;
        } else if (strcmp(a, "--acf") == 0) {
            acf = next;
        } else if (strcmp(a, "--acf-set") == 0) {
            if (nsets == (int)(sizeof acf_sets / sizeof acf_sets[0]))
                return lp_host_usage("record", "at most %zu --acf-set options",
                                    sizeof acf_sets / sizeof acf_sets[0]);
            acf_sets[nsets++] = next;
        } else if (strcmp(a, "--hps-mode") == 0) {
            if (strcmp(next, "hps") != 0 && strcmp(next, "dise") != 0)
                return lp_host_usage("record", "--hps-mode is hps or dise, not '%s'", next);
            hps_mode = next;
        } else if (strcmp(a, "--hps-ar") == 0) {
            hps_ar = next;
        } else if (strcmp(a, "--bursty") == 0) {
            bursty = next;
        } else if (strcmp(a, "--value-profiler") == 0) {
            value_profiler = next;
        } else if (strcmp(a, "--checks") == 0) {
            checks = next;
        } else if (strcmp(a, "--streams-limit") == 0) {
            if (lp_parse_u64_arg(a, next, &v))
                return 2;
            if (v < 1)
                return lp_host_usage("record", "--streams-limit must be at least 1");
            if (lp_tool_arg(&o, "--streams-limit", next))
                return 2;
        } else if (strcmp(a, "--strategy") == 0 || strncmp(a, "--phase-", 8) == 0) {
            if (lp_check_phase_option(a, next))
                return 2;
            if (strcmp(a, "--strategy") == 0)
                strategy = next;
            else
                phase_opts = 1;
            if (lp_tool_arg(&o, a, next))
                return 2;
        } else if (strcmp(a, "--trace-kinds") == 0) {
            if (lp_check_kinds(next))
                return 2;
            if (lp_tool_arg(&o, "--trace-kinds", next))
                return 2;
        } else if (strcmp(a, "--tuples") == 0) {
            tuples = next;
        } else if (strcmp(a, "--compressor") == 0) {
            compressor = next;
        } else if (strcmp(a, "--seed") == 0) {
            if (lp_parse_u64_arg(a, next, &v))
                return 2;
            seed = next;
        } else if (strcmp(a, "--cost") == 0) {
            cost = next;
        } else if (strcmp(a, "--trace") == 0) {
            o.trace = next;
        } else if (strcmp(a, "--trace-limit") == 0) {
            if (lp_parse_u64_arg(a, next, &v))
                return 2;
            o.trace_limit = v;
        } else if (strcmp(a, "--ship") == 0) {
            ship = next;
        } else if (strcmp(a, "--token") == 0) {
            token = next;
        } else if (strcmp(a, "--spool") == 0) {
            spool = next;
        } else if (strcmp(a, "--device") == 0) {
            device = next;
        } else if (strcmp(a, "--no-skip-plt") == 0) {
            if (lp_tool_arg(&o, "--skip-plt", "no"))
                return 2;
        } else if (strcmp(a, "--no-trace-children") == 0) {
            o.no_children = 1;
            continue;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            o.progress = LP_PROGRESS_NONE;
            continue;
        } else {
            return lp_host_usage("record", "unknown option '%s'", a);
        }
        if (takes)
            i++;
    }
    if (i >= argc)
        return lp_host_usage("record", "no program given (put it after --)");
    o.argv = argv + i;
    o.argc = argc - i;
    if (phase_opts && !strategy)
        return lp_host_usage("record", "the --phase-* options need --strategy");
    if (ship && (!token || !token[0]))
        return lp_host_usage("record", "--ship needs --token T (or LOWPROF_TOKEN)");
    if (device && !ship && !spool)
        return lp_host_usage("record", "--device names what --ship or --spool sends");
    if (strategy && tuples)
        return lp_host_usage("record", "--strategy samples whole intervals and --tuples runs a "
                                      "compressor over every event: use one at a time");
    if (strategy && strstr(o.types, "value"))
        return lp_host_usage("record", "the value profile is whole-run; leave it out of "
                                      "--profile with --strategy");
    if ((strategy || bursty) && strstr(o.types, "context"))
        return lp_host_usage("record", "the context profile is whole-run; leave it out of "
                                      "--profile with --strategy or --bursty");
    if (lp_record_hps(&o, acf, acf_sets, nsets, hps_mode, hps_ar, explicit_types || tuples))
        return 2;
    int brc = lp_record_bursty(&o, bursty, checks, strategy || acf || hps_ar);
    if (brc)
        return brc;
    if (value_profiler) {
        int rc = lp_record_value_profiler(&o, value_profiler, tuples || compressor || strategy,
                                          simple_spec, sizeof simple_spec);
        if (rc)
            return rc;
        if (simple_spec[0]) {
            tuples = "value";
            compressor = simple_spec;
        }
    }
    if ((compressor || seed || cost) && !tuples)
        return lp_host_usage("record", "--compressor, --seed and --cost need --tuples");
    if (tuples) {
        unsigned mask;
        lp_compressor_spec spec;
        unsigned long long c[3];
        if (lp_parse_tuples(tuples, &mask) ||
            (compressor && lp_host_parse_compressor("record", compressor, &spec)) ||
            (cost && lp_parse_cost(cost, c)))
            return 2;
        o.types = lp_types_without(o.types, mask, types_buf, sizeof types_buf);
        if (lp_tool_arg(&o, "--tuples", tuples) ||
            (compressor && lp_tool_arg(&o, "--compressor", compressor)) ||
            (seed && lp_tool_arg(&o, "--seed", seed)))
            return 2;
        if (cost) {
            char b[32];
            static const char *const names[3] = {"--cost-buffer", "--cost-interrupt",
                                                 "--cost-message"};
            for (int k = 0; k < 3; k++) {
                snprintf(b, sizeof b, "%llu", c[k]);
                if (lp_tool_arg(&o, names[k], b))
                    return 2;
            }
        }
    }
    int rc = lp_record_run(&o);
    return rc == 0 && (ship || spool) ? lp_record_ship(o.out, ship, token, spool, device, o.progress)
                                      : rc;
}
