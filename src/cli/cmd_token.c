/* `lowprof token create`: makes a project (if new) and a token for it in
 * the collector's store (doc/lowprof-token.md). SQLite in WAL mode lets it
 * run beside a collector serving the same data folder; the collector looks
 * new tokens up on first use. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "lowprof/store.h"

const char cmd_token_help[] =
    "usage: lowprof token create --project NAME [--data DIR | --db URL]\n"
    "\n"
    "Creates the project NAME if it does not exist and a new token for it, and\n"
    "prints the token as the last line. A token lets a device upload into its\n"
    "project (lowprof push, lowprof agent) and lets a person read that project\n"
    "on the collector's page and API, and nothing of any other project.\n"
    "\n"
    "Options:\n"
    "  --project NAME  the project (at most 255 bytes)\n"
    "  --data DIR      the collector's SQLite data folder (default ./lowprof-data)\n"
    "  --db URL        the collector's PostgreSQL database (postgresql://...)\n"
    "\n"
    "Example:\n"
    "  TOKEN=$(lowprof token create --project demo | tail -n 1)\n";

int cmd_token(int argc, char **argv)
{
    if (argc < 2)
        return lp_host_usage("token", "expected a subcommand: create");
    if (strcmp(argv[1], "create") != 0)
        return lp_host_usage("token", "unknown subcommand '%s' (create)", argv[1]);
    const char *project = NULL, *data = NULL, *db = NULL;
    for (int i = 2; i < argc; i++) {
        int missing = 0;
        const char *val;
        const char *arg = argv[i];
        if ((val = lp_host_opt_value(argc, argv, &i, "--project", &missing))) {
            project = val;
        } else if (!missing && (val = lp_host_opt_value(argc, argv, &i, "--data", &missing))) {
            data = val;
        } else if (!missing && (val = lp_host_opt_value(argc, argv, &i, "--db", &missing))) {
            db = val;
        } else if (missing) {
            return lp_host_usage("token", "%s needs a value", arg);
        } else {
            return lp_host_usage("token", "unknown argument '%s'", arg);
        }
    }
    if (!project || !*project)
        return lp_host_usage("token", "--project NAME is required");
    if (strlen(project) > LP_STORE_NAME_MAX)
        return lp_host_usage("token", "--project: names are at most %d bytes", LP_STORE_NAME_MAX);
    if (data && db)
        return lp_host_usage("token", "--data and --db exclude each other");
    if (db && strncmp(db, "postgresql://", 13) != 0 && strncmp(db, "postgres://", 11) != 0)
        return lp_host_usage("token", "--db takes a postgresql:// URL");
    const char *where = db ? db : data ? data : "./lowprof-data";

    char err[512];
    lp_store *s = NULL;
    if (lp_store_open(where, &s, err, sizeof err) != 0)
        return lp_host_fail("%s", err);
    char token[LP_STORE_TOKEN_LEN + 1];
    int rc = lp_store_token_create(s, project, token, sizeof token);
    if (rc != 0) {
        int status = lp_host_fail("%s: cannot create a token: %s", where, lp_store_error(s));
        lp_store_close(s);
        return status;
    }
    lp_store_close(s);
    printf("project %s (store: %s)\n%s\n", project, db ? "postgresql" : where, token);
    return fflush(stdout) == 0 ? 0 : 1;
}
