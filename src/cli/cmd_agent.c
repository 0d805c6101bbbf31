/* `lowprof agent`: sends the messages that programs leave in a spool folder
 * to a collector, and keeps them while it cannot (lp_agent_run in
 * src/upload does the work; this file reads the command line). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lowprof/upload.h"

const char cmd_agent_help[] =
    "usage: lowprof agent --spool DIR --collector URL --token T [--max-spool SIZE]\n"
    "                     [--interval SECONDS] [--once] [-q]\n"
    "\n"
    "Sends the messages in DIR (ID.lpmsg files, as the native runtime's\n"
    "spool=DIR and `lowprof record --spool` write them) to the collector, oldest\n"
    "first, and deletes each once the collector has it. Runs until interrupted\n"
    "(SIGINT, SIGTERM), looking at DIR every SECONDS.\n"
    "\n"
    "  - a message the collector refuses for good (a 4xx answer other than 429),\n"
    "    or that cannot be read, moves to DIR/rejected/ with the reason in\n"
    "    DIR/rejected/ID.lpmsg.why;\n"
    "  - while the collector cannot be reached, is overloaded (5xx) or asks to\n"
    "    slow down (429), messages stay and the agent waits 1 s, then twice as\n"
    "    long after each further failure, at most 60 s;\n"
    "  - past --max-spool bytes of messages, the oldest are deleted; DIR/dropped\n"
    "    counts them across restarts.\n"
    "Progress (sent, already stored, rejected, dropped, waits) goes to standard\n"
    "error.\n"
    "\n"
    "Options:\n"
    "  --spool DIR         the spool folder (watched even before it exists)\n"
    "  --collector URL     the collector, http://HOST:PORT (default:\n"
    "                      $LOWPROF_COLLECTOR)\n"
    "  --token T           the bearer token (default: $LOWPROF_TOKEN)\n"
    "  --max-spool SIZE    bytes of messages to keep at most, with an optional\n"
    "                      k, M or G suffix (powers of 1024; default: no limit)\n"
    "  --interval SECONDS  how often to look for new messages (default 1)\n"
    "  --once              send what is there and exit: 0 once the spool is empty,\n"
    "                      1 if the collector could not take everything\n"
    "  -q, --quiet         print errors only\n"
    "\n"
    "Exit status: 0 when stopped by a signal or (--once) with the spool empty,\n"
    "1 when messages could not be delivered or the spool cannot be read, 2 for\n"
    "a bad command line.\n"
    "\n"
    "Example:\n"
    "  lowprof agent --spool /var/spool/lowprof --collector http://127.0.0.1:8400 \\\n"
    "      --token \"$T\" --max-spool 512M\n";

/* SIZE with an optional k/M/G suffix (powers of 1024); -1 if not one. */
static int parse_size(const char *s, uint64_t *out)
{
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || errno || s[0] == '-')
        return -1;
    unsigned shift = 0;
    if (*end == 'k' || *end == 'K')
        shift = 10;
    else if (*end == 'm' || *end == 'M')
        shift = 20;
    else if (*end == 'g' || *end == 'G')
        shift = 30;
    if (shift)
        end++;
    if (*end == 'B' || *end == 'b')
        end++;
    if (*end || (shift && v > (UINT64_MAX >> shift)))
        return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

int cmd_agent(int argc, char **argv)
{
    lp_agent_opts o;
    memset(&o, 0, sizeof o);
    o.collector = getenv("LOWPROF_COLLECTOR");
    o.token = getenv("LOWPROF_TOKEN");
    o.interval_s = 1.0;
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *val;
        const char *arg = argv[i];
        if ((val = lp_host_opt_value(argc, argv, &i, "--spool", &missing))) {
            o.spool = val;
        } else if (!missing &&
                   (val = lp_host_opt_value(argc, argv, &i, "--collector", &missing))) {
            o.collector = val;
        } else if (!missing && (val = lp_host_opt_value(argc, argv, &i, "--token", &missing))) {
            o.token = val;
        } else if (!missing &&
                   (val = lp_host_opt_value(argc, argv, &i, "--max-spool", &missing))) {
            if (parse_size(val, &o.max_spool) != 0)
                return lp_host_usage("agent", "--max-spool: '%s' is not a size (N, Nk, NM, NG)",
                                     val);
        } else if (!missing &&
                   (val = lp_host_opt_value(argc, argv, &i, "--interval", &missing))) {
            char *end;
            double v = strtod(val, &end);
            if (end == val || *end || !(v > 0) || !isfinite(v) || v > 86400)
                return lp_host_usage("agent", "--interval: '%s' is not a number of seconds "
                                              "above 0 (at most 86400)", val);
            o.interval_s = v;
        } else if (missing) {
            return lp_host_usage("agent", "%s needs a value", arg);
        } else if (strcmp(arg, "--once") == 0) {
            o.once = 1;
        } else if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) {
            o.quiet = 1;
        } else if (arg[0] == '-') {
            return lp_host_usage("agent", "unknown option '%s'", arg);
        } else {
            return lp_host_usage("agent", "unexpected argument '%s'", arg);
        }
    }
    if (!o.spool || !o.spool[0])
        return lp_host_usage("agent", "no spool folder: give --spool DIR");
    if (!o.collector || !o.collector[0])
        return lp_host_usage("agent", "no collector: give --collector URL or set LOWPROF_COLLECTOR");
    if (!o.token || !o.token[0])
        return lp_host_usage("agent", "no token: give --token T or set LOWPROF_TOKEN");
    lp_agent_stats st;
    return lp_agent_run(&o, &st);
}
