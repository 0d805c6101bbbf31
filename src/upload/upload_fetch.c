/* A build's merged profile from the collector, for `lowprof report
 * --collector` and `lowprof export --collector`: the same profile set a
 * file would give, so every report and exporter works on it unchanged.
 *
 * Without a build id the latest build is taken: the first row of GET
 * /api/v1/builds, which the collector lists latest upload first. Its JSON
 * is scanned for that one string rather than parsed in full. */
#include <curl/curl.h>
#include <stdio.h>
#include <string.h>

#include "upload_internal.h"

/* program, escaped for a query string, into out. */
static int escape(const char *s, char *out, size_t cap)
{
    char *e = curl_easy_escape(NULL, s, 0);
    if (!e)
        return LP_ENOMEM;
    int rc = strlen(e) < cap ? 0 : LP_EINVAL;
    if (!rc)
        strcpy(out, e);
    curl_free(e);
    return rc;
}

/* The first "build_id" string of the builds listing. */
static int latest_build(const char *json, char *out, size_t cap)
{
    const char *p = strstr(json, "\"builds\"");
    p = p ? strstr(p, "\"build_id\"") : NULL;
    p = p ? strchr(p + 10, '"') : NULL;
    if (!p)
        return LP_ENOENT;
    p++;
    size_t n = strspn(p, "0123456789abcdef");
    if (n == 0 || n >= cap || p[n] != '"')
        return LP_EFORMAT;
    memcpy(out, p, n);
    out[n] = 0;
    return 0;
}

int lp_upload_fetch_profile(const char *collector, const char *token, const char *program,
                            const char *build, lp_profile_set *out, char *why, size_t whycap)
{
    memset(out, 0, sizeof *out);
    char prog[1024], bid[96], path[1400];
    if (escape(program, prog, sizeof prog) != 0) {
        lp__upload_why(why, whycap, "program name too long");
        return LP_EINVAL;
    }
    lp_membuf body = {0};
    lp_upload_result r;
    int rc;
    if (!build) {
        snprintf(path, sizeof path, "/api/v1/builds?program=%s", prog);
        rc = lp_upload_get(collector, path, token, 1u << 20, 30000, &body, &r);
        if (!rc) {
            lp_sink s = lp_membuf_sink(&body);
            rc = s.write(s.ctx, "", 1); /* a string for the scan */
        }
        if (!rc && (rc = latest_build((const char *)body.data, bid, sizeof bid)) != 0)
            snprintf(r.why, sizeof r.why, "the collector lists no build of %s", program);
        lp_membuf_free(&body);
        if (rc) {
            lp__upload_why(why, whycap, "%s: builds of %s: %s", collector, program, r.why);
            return rc;
        }
        build = bid;
    } else if (!lp__upload_is_hex(build, 2, 80)) {
        lp__upload_why(why, whycap, "build id '%s' is not 2 to 80 hex digits", build);
        return LP_EINVAL;
    }
    snprintf(path, sizeof path, "/api/v1/profile?program=%s&build=%s&format=lpprof", prog, build);
    rc = lp_upload_get(collector, path, token, 0, 120000, &body, &r);
    if (rc) {
        lp__upload_why(why, whycap, "%s: profile of %s build %s: %s", collector, program, build,
                       r.why);
        return rc;
    }
    char reason[256];
    rc = lp_upload_read(body.data, body.size, 0, out, NULL, reason, sizeof reason);
    lp_membuf_free(&body);
    if (rc)
        lp__upload_why(why, whycap, "%s: the merged profile does not read: %s", collector,
                       reason);
    return rc;
}
