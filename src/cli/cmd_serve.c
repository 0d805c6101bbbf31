/* `lowprof serve`: starts the collector (lowprof/collector.h) that takes
 * uploads from devices, stores them in SQLite (a data folder) or
 * PostgreSQL, merges them per build and serves the web page and the API
 * (doc/lowprof-serve.md, doc/collector-api.md). This file parses options
 * only. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lowprof/collector.h"
#include "lowprof/upload.h"

const char cmd_serve_help[] =
    "usage: lowprof serve [--listen HOST:PORT] [--data DIR | --db URL] [options]\n"
    "\n"
    "Runs the collector: takes profiles uploaded by `lowprof push`, `lowprof agent`\n"
    "and `lowprof record --ship` (POST /api/v1/profiles), stores each message once,\n"
    "merges the runs of each build, and serves a web page at / and a JSON API\n"
    "(doc/collector-api.md). Stops cleanly on SIGINT or SIGTERM.\n"
    "\n"
    "Options:\n"
    "  --listen HOST:PORT  address to listen on (default 127.0.0.1:7878; port 0\n"
    "                      picks a free one)\n"
    "  --data DIR          store in SQLite, DIR/lowprof.db (default ./lowprof-data)\n"
    "  --db URL            store in PostgreSQL instead (postgresql://...)\n"
    "  --max-upload SIZE   largest compressed upload (default 16M; suffix k, M, G)\n"
    "  --max-profile SIZE  largest decompressed message (default 64M)\n"
    "  --rate N            uploads per second per token before 429 (default 2000)\n"
    "  --threads N         request threads (default 4)\n"
    "  --port-file FILE    write the port listened on to FILE\n"
    "  -q, --quiet         print only the listening line and errors\n"
    "\n"
    "Create tokens with `lowprof token create --project NAME` on the same --data\n"
    "or --db; it works while the collector runs.\n"
    "\n"
    "Example:\n"
    "  lowprof token create --project demo\n"
    "  lowprof serve\n"
    "  # open http://127.0.0.1:7878/?token=TOKEN\n";

/* "16M", "64k", "1G" or a plain count of bytes. */
static int serve_parse_size(const char *s, size_t *out)
{
    char *end;
    if (!*s || *s == '-')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    unsigned shift = 0;
    if (*end == 'k' || *end == 'K')
        shift = 10;
    else if (*end == 'm' || *end == 'M')
        shift = 20;
    else if (*end == 'g' || *end == 'G')
        shift = 30;
    if (shift)
        end++;
    if (*end || end == s || v == 0 || v > (SIZE_MAX >> shift))
        return -1;
    *out = (size_t)v << shift;
    return 0;
}

int cmd_serve(int argc, char **argv)
{
    lp_collector_opts o;
    memset(&o, 0, sizeof o);
    const char *data = NULL, *db = NULL;
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *val;
        const char *arg = argv[i];
        if ((val = lp_host_opt_value(argc, argv, &i, "--listen", &missing))) {
            o.listen = val;
        } else if (!missing && (val = lp_host_opt_value(argc, argv, &i, "--data", &missing))) {
            data = val;
        } else if (!missing && (val = lp_host_opt_value(argc, argv, &i, "--db", &missing))) {
            db = val;
        } else if (!missing &&
                   (val = lp_host_opt_value(argc, argv, &i, "--max-upload", &missing))) {
            if (serve_parse_size(val, &o.max_body) != 0)
                return lp_host_usage("serve", "--max-upload: '%s' is not a size", val);
        } else if (!missing &&
                   (val = lp_host_opt_value(argc, argv, &i, "--max-profile", &missing))) {
            if (serve_parse_size(val, &o.max_profile) != 0)
                return lp_host_usage("serve", "--max-profile: '%s' is not a size", val);
        } else if (!missing && (val = lp_host_opt_value(argc, argv, &i, "--rate", &missing))) {
            char *end;
            o.rate = strtod(val, &end);
            if (*end || end == val || !(o.rate > 0) || o.rate > 1e9)
                return lp_host_usage("serve", "--rate: '%s' is not a positive number", val);
        } else if (!missing &&
                   (val = lp_host_opt_value(argc, argv, &i, "--threads", &missing))) {
            uint64_t n;
            if (lp_host_parse_count(val, &n) != 0 || n == 0 || n > 256)
                return lp_host_usage("serve", "--threads: '%s' is not a count from 1 to 256",
                                     val);
            o.threads = (unsigned)n;
        } else if (!missing &&
                   (val = lp_host_opt_value(argc, argv, &i, "--port-file", &missing))) {
            o.port_file = val;
        } else if (missing) {
            return lp_host_usage("serve", "%s needs a value", arg);
        } else if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) {
            o.quiet = 1;
        } else {
            return lp_host_usage("serve", "unknown argument '%s'", arg);
        }
    }
    if (data && db)
        return lp_host_usage("serve", "--data and --db exclude each other");
    if (db && strncmp(db, "postgresql://", 13) != 0 && strncmp(db, "postgres://", 11) != 0)
        return lp_host_usage("serve", "--db takes a postgresql:// URL");
    o.store = db ? db : data;
    return lp_collector_serve(&o);
}
