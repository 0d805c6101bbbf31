/* remote: the decompressor of remote_lz_compress.c's blocks (format in
 * remote.h), for the collector and the round-trip tests. It reads
 * untrusted bytes: every length is checked against what the block declared
 * and what remains, and the declared size is capped by the caller before
 * anything is allocated. Counts its work like the compressor. */
#include "remote_internal.h"

/* Reading a varint costs, per byte, a load, a mask and a shift-or, and the
 * loop's branch. */
static int get_counted(const uint8_t **p, const uint8_t *end, uint64_t *v, lp_remote_work *w)
{
    const uint8_t *before = *p;
    int rc = lp__varint_get(p, end, v);
    size_t n = (size_t)(*p - before);
    w->loads += n;
    w->alu += 2 * n;
    w->branches += n;
    return rc;
}

int lp_lz_decompress(const void *src, size_t size, size_t max_size, lp_membuf *out,
                     lp_remote_work *work)
{
    const uint8_t *p = src, *end = p + size;
    lp_remote_work w = {0};
    uint64_t total;
    int rc = get_counted(&p, end, &total, &w);
    if (rc < 0)
        return rc;
    if (total > max_size)
        return LP_ELIMIT;
    /* Back-references read what was decoded, so decode into a buffer of
     * the declared size and hand it to out in one write at the end. */
    uint8_t *o = total ? lp_malloc((size_t)total) : NULL;
    if (total && !o)
        return LP_ENOMEM;
    size_t done = 0;
    while (done < total) {
        uint64_t lit, len, dist;
        w.branches++;
        if ((rc = get_counted(&p, end, &lit, &w)) < 0)
            goto fail;
        rc = LP_EFORMAT;
        if (lit > total - done)
            goto fail;
        rc = LP_ETRUNC;
        if (lit > (uint64_t)(end - p))
            goto fail;
        if (lit)
            __builtin_memcpy(o + done, p, (size_t)lit);
        p += lit;
        done += (size_t)lit;
        w.loads += lit;
        w.stores += lit;
        w.alu += lit;
        w.branches += lit;
        if (done == total)
            break;
        if ((rc = get_counted(&p, end, &len, &w)) < 0 ||
            (rc = get_counted(&p, end, &dist, &w)) < 0)
            goto fail;
        rc = LP_EFORMAT;
        if (total - done < 4 || len > total - done - 4 || dist >= done) /* M = len + 4, D = dist + 1 */
            goto fail;
        len += 4;
        dist += 1;
        /* Byte by byte: the source may overlap what this copy writes. */
        for (size_t k = 0; k < len; k++)
            o[done + k] = o[done + k - dist];
        done += (size_t)len;
        w.loads += len;
        w.stores += len;
        w.alu += 2 * len;
        w.branches += len;
    }
    rc = LP_EFORMAT;
    if (p != end)
        goto fail;
    if (total) {
        lp_sink sink = lp_membuf_sink(out);
        if ((rc = sink.write(sink.ctx, o, (size_t)total)) < 0)
            goto fail;
    }
    lp_free(o);
    if (work) {
        work->loads += w.loads;
        work->stores += w.stores;
        work->alu += w.alu;
        work->branches += w.branches;
    }
    return LP_OK;
fail:
    lp_free(o);
    return rc;
}
