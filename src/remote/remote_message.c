/* remote: reading the messages the profile buffer sends (format in
 * remote.h), for the collector and the tests. The bytes come from a
 * device over a network, so nothing is trusted: sizes are checked against
 * what remains before anything is allocated, and each record's fields
 * against their ranges. */
#include "remote_internal.h"

static int get_phase(const uint8_t **p, const uint8_t *end, uint32_t *out)
{
    uint64_t v;
    int rc = lp__varint_get(p, end, &v);
    if (rc < 0)
        return rc;
    if (v > UINT32_MAX) /* phase + 1 <= 2^32 - 1: a real phase is below LP_PHASE_NONE */
        return LP_EFORMAT;
    *out = v == 0 ? LP_PHASE_NONE : (uint32_t)(v - 1);
    return LP_OK;
}

static int read_profile(const uint8_t **p, const uint8_t *end, const lp_remote_handler *h)
{
    uint32_t phase;
    uint64_t type, first, intervals, n;
    int rc;
    if ((rc = get_phase(p, end, &phase)) < 0 || (rc = lp__varint_get(p, end, &type)) < 0 ||
        (rc = lp__varint_get(p, end, &first)) < 0 ||
        (rc = lp__varint_get(p, end, &intervals)) < 0 || (rc = lp__varint_get(p, end, &n)) < 0)
        return rc;
    if (type == 0 || type > LP_PROF_TYPE_MAX)
        return LP_EFORMAT;
    if (n > (uint64_t)(end - *p) / 4) /* every entry takes at least 4 bytes */
        return LP_ETRUNC;
    lp_table t;
    if (lp_table_init(&t, (size_t)n) < 0)
        return LP_ENOMEM;
    lp_key prev = {0, 0};
    for (uint64_t i = 0; i < n && rc == LP_OK; i++) {
        uint64_t f[4];
        for (unsigned j = 0; j < 4 && rc == LP_OK; j++)
            rc = lp__varint_get(p, end, &f[j]);
        if (rc < 0)
            break;
        lp_key k;
        rc = LP_EFORMAT;
        if (f[0] > UINT64_MAX - prev.a)
            break;
        k.a = prev.a + f[0];
        if (i > 0 && f[0] == 0) {
            if (f[1] == 0 || f[1] > UINT64_MAX - prev.b) /* keys ascend strictly */
                break;
            k.b = prev.b + f[1];
        } else {
            k.b = f[1];
        }
        if (k.a == UINT64_MAX && k.b == UINT64_MAX) /* core's reserved key */
            break;
        lp_entry *e = lp_table_upsert(&t, k);
        if (!e) {
            rc = LP_ENOMEM;
            break;
        }
        e->v[0] = f[2];
        e->v[1] = f[3];
        prev = k;
        rc = LP_OK;
    }
    if (rc == LP_OK && h && h->profile)
        rc = h->profile(h->ctx, phase, (unsigned)type, first, intervals, &t);
    lp_table_fini(&t);
    return rc;
}

static int read_trace(const uint8_t **p, const uint8_t *end, const lp_remote_handler *h)
{
    uint64_t n;
    int rc = lp__varint_get(p, end, &n);
    for (uint64_t i = 0; i < n && rc == LP_OK; i++) {
        uint32_t phase;
        uint64_t run;
        if ((rc = get_phase(p, end, &phase)) < 0 || (rc = lp__varint_get(p, end, &run)) < 0)
            break;
        if (h && h->trace)
            rc = h->trace(h->ctx, phase, run);
    }
    return rc;
}

int lp_remote_message_read(const void *data, size_t size, size_t max_payload,
                           const lp_remote_handler *h, size_t *out_consumed)
{
    const uint8_t *p = data, *end = p + size;
    if (size < 5)
        return LP_ETRUNC;
    if (p[0] != 'L' || p[1] != 'P' || p[2] != 'R' || p[3] != 'M')
        return LP_EFORMAT;
    if (p[4] != 1)
        return LP_EVERSION;
    p += 5;
    uint64_t raw, packed;
    int rc;
    if ((rc = lp__varint_get(&p, end, &raw)) < 0 || (rc = lp__varint_get(&p, end, &packed)) < 0)
        return rc;
    if (packed > (uint64_t)(end - p))
        return LP_ETRUNC;
    if (raw > max_payload)
        return LP_ELIMIT;
    lp_membuf payload = {0};
    rc = lp_lz_decompress(p, (size_t)packed, (size_t)raw, &payload, NULL);
    if (rc == LP_OK && payload.size != raw)
        rc = LP_EFORMAT;
    const uint8_t *q = payload.data, *qend = q + payload.size;
    while (rc == LP_OK && q < qend) {
        uint8_t tag = *q++;
        rc = tag == 1 ? read_profile(&q, qend, h) : tag == 2 ? read_trace(&q, qend, h) : LP_EFORMAT;
    }
    lp_membuf_free(&payload);
    if (rc == LP_OK && out_consumed)
        *out_consumed = (size_t)(p - (const uint8_t *)data) + (size_t)packed;
    return rc;
}
