/* `lowprof push`: sends profile files to a collector, one POST each.
 *
 * A file may be a recording (`lowprof record -o run.lpprof`), a spooled
 * message (ID.lpmsg) or a packed one: each is made a message the way the
 * runtime would (build id, device, and an id hashed from the file, so
 * pushing the same file again is recognised as the same message), checked
 * the way the collector will check it, compressed and sent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lowprof/upload.h"

const char cmd_push_help[] =
    "usage: lowprof push --collector URL --token T [--device NAME] FILE...\n"
    "\n"
    "Uploads each FILE to the collector at URL (POST /api/v1/profiles, zstd\n"
    "compressed). A FILE is a profile file as `lowprof record` writes it or a\n"
    "message from a spool folder (ID.lpmsg). A file that is not a message yet\n"
    "gets what a message carries: the build id of the recorded program, the\n"
    "device, and a message id hashed from the file, so pushing one file twice\n"
    "stores it once.\n"
    "\n"
    "Prints one line per FILE:\n"
    "  FILE: stored as ID            the collector took it\n"
    "  FILE: already stored as ID    the collector had it\n"
    "  FILE: rejected: REASON        the file or the collector refused it\n"
    "  FILE: not sent: REASON        no answer, or the collector asked to wait\n"
    "\n"
    "Options:\n"
    "  --collector URL  the collector, http://HOST:PORT (default: $LOWPROF_COLLECTOR)\n"
    "  --token T        the bearer token from `lowprof token create`\n"
    "                   (default: $LOWPROF_TOKEN)\n"
    "  --device NAME    the device the runs come from (default: the file's, else\n"
    "                   this host's name)\n"
    "\n"
    "Exit status: 0 if every FILE is stored, 1 if any is not, 2 for a bad\n"
    "command line.\n"
    "\n"
    "Example:\n"
    "  lowprof push --collector http://127.0.0.1:8400 --token \"$T\" run.lpprof\n";

/* Pushes one file; returns 0 if the collector has it afterwards. */
static int push_one(const char *path, const char *collector, const char *token,
                    const char *device)
{
    lp_upload_ship_result r;
    int rc = lp_upload_ship(path, collector, token, NULL, device, &r);
    if (rc == 0)
        printf("%s: %s as %s\n", path, r.state == LP_SHIP_DUPLICATE ? "already stored" : "stored",
               r.message_id);
    else
        printf("%s: %s: %s\n", path, rc == LP_EINVAL ? "rejected" : "not sent", r.why);
    return rc ? 1 : 0;
}

int cmd_push(int argc, char **argv)
{
    const char *collector = getenv("LOWPROF_COLLECTOR");
    const char *token = getenv("LOWPROF_TOKEN");
    const char *device = NULL;
    /* Files are argv entries that are not options; kept in order. */
    const char **files = calloc((size_t)argc, sizeof *files);
    if (!files)
        return lp_host_fail("out of memory");
    int nfiles = 0, files_only = 0;
    for (int i = 1; i < argc; i++) {
        int missing = 0;
        const char *val;
        const char *arg = argv[i];
        if (files_only) {
            files[nfiles++] = arg;
        } else if (strcmp(arg, "--") == 0) {
            files_only = 1;
        } else if ((val = lp_host_opt_value(argc, argv, &i, "--collector", &missing))) {
            collector = val;
        } else if (!missing && (val = lp_host_opt_value(argc, argv, &i, "--token", &missing))) {
            token = val;
        } else if (!missing &&
                   (val = lp_host_opt_value(argc, argv, &i, "--device", &missing))) {
            device = val;
        } else if (missing) {
            free(files);
            return lp_host_usage("push", "%s needs a value", arg);
        } else if (arg[0] == '-' && arg[1] != '\0') {
            free(files);
            return lp_host_usage("push", "unknown option '%s'", arg);
        } else {
            files[nfiles++] = arg;
        }
    }
    const char *bad = NULL;
    if (!collector || !collector[0])
        bad = "no collector: give --collector URL or set LOWPROF_COLLECTOR";
    else if (!token || !token[0])
        bad = "no token: give --token T or set LOWPROF_TOKEN";
    else if (nfiles == 0)
        bad = "no FILE given";
    else if (device && (!device[0] || strlen(device) > 255))
        bad = "--device needs a name of 1 to 255 bytes";
    if (bad) {
        free(files);
        return lp_host_usage("push", "%s", bad);
    }
    int status = 0;
    for (int i = 0; i < nfiles; i++) {
        if (push_one(files[i], collector, token, device) != 0)
            status = 1;
        fflush(stdout);
    }
    free(files);
    return status;
}
