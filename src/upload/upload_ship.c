/* Shipping one profile file: what `lowprof push` does for each file and
 * `lowprof record --ship` for its recording. The file (a recording, a
 * spooled message or a packed one) is made a message the way the runtime
 * makes one (build id, device, an id hashed from the file, so the same
 * file is the same message however often it is shipped), checked the way
 * the collector will check it, compressed and sent; when it cannot be sent
 * now and a spool folder is given, it waits there for the agent. */
#include <stdio.h>
#include <string.h>

#include "lowprof/host.h"
#include "upload_internal.h"

#define LP__SHIP_TIMEOUT_MS 30000L

static int ship_spool(const char *spool, const lp_profile_set *set, lp_upload_ship_result *out)
{
    char why[256];
    if (lp_upload_spool_write(spool, set, why, sizeof why) != 0) {
        lp__upload_why(out->why, sizeof out->why, "%s; nor could it be spooled: %s",
                       out->why[0] ? out->why : "not sent", why);
        return LP_EIO;
    }
    out->state = LP_SHIP_SPOOLED;
    return 0;
}

int lp_upload_ship(const char *path, const char *collector, const char *token,
                   const char *spool, const char *device, lp_upload_ship_result *out)
{
    memset(out, 0, sizeof *out);
    out->state = LP_SHIP_REJECTED;
    uint8_t *data;
    size_t size;
    if (lp_host_read_file(path, &data, &size) != 0) {
        lp__upload_why(out->why, sizeof out->why, "cannot be read");
        return LP_EIO;
    }
    lp_profile_set set;
    int rc = lp_upload_read(data, size, 0, &set, NULL, out->why, sizeof out->why);
    lp_free(data);
    if (rc)
        return LP_EINVAL;
    rc = lp_upload_identify(&set, device);
    if (rc) {
        lp__upload_why(out->why, sizeof out->why, "%s",
                       rc == LP_ENOENT ? "no module has a build id (the build cannot be named)"
                                       : lp_strerror(rc));
        lp_profile_set_fini(&set);
        return LP_EINVAL;
    }
    lp_membuf body = {0};
    lp_upload_id id;
    lp_profile_set check;
    /* The collector's own check, here: a file it would refuse is not sent. */
    rc = lp_upload_pack(&set, &body);
    if (rc)
        lp__upload_why(out->why, sizeof out->why, "cannot compress (%s)", lp_strerror(rc));
    else if ((rc = lp_upload_unpack(body.data, body.size, 0, &check, &id, NULL, out->why,
                                    sizeof out->why)) == 0)
        lp_profile_set_fini(&check);
    if (rc) {
        lp_membuf_free(&body);
        lp_profile_set_fini(&set);
        return LP_EINVAL;
    }
    snprintf(out->message_id, sizeof out->message_id, "%s", id.message_id);
    if (!collector) {
        rc = ship_spool(spool, &set, out);
    } else {
        lp_upload_result r;
        rc = lp_upload_send(collector, token, body.data, body.size, LP__SHIP_TIMEOUT_MS, &r);
        out->http_status = r.http_status;
        if (rc == 0) {
            out->state = r.duplicate ? LP_SHIP_DUPLICATE : LP_SHIP_STORED;
        } else if (rc == LP_EINVAL) {
            lp__upload_why(out->why, sizeof out->why, "%s (HTTP %ld)", r.why, r.http_status);
        } else {
            out->state = LP_SHIP_NOT_SENT;
            if (r.http_status)
                lp__upload_why(out->why, sizeof out->why, "%s (HTTP %ld)", r.why,
                               r.http_status);
            else
                lp__upload_why(out->why, sizeof out->why, "%s", r.why);
            if (spool)
                rc = ship_spool(spool, &set, out);
        }
    }
    lp_membuf_free(&body);
    lp_profile_set_fini(&set);
    return rc;
}
