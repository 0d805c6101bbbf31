/* The reading side of the container: pulls the header and then one chunk at
 * a time from an lp_source, never seeking and never trusting a length. A
 * payload is read in steps that at most double what has already arrived, so
 * a head that claims 64 MiB in a 100-byte file costs 64 KiB of memory, not
 * 64 MiB. The checksum is verified before any payload byte is interpreted. */
#include "trace_internal.h"

#define FIRST_STEP (64u << 10)

/* Reads up to size bytes, asking again after a short read so sources that
 * deliver in pieces (pipes) work; *got < size only at the end of input. */
static int pull(lp__reader *r, void *buf, size_t size, size_t *got)
{
    size_t have = 0;
    while (have < size) {
        size_t n = 0;
        int rc = r->src.read(r->src.ctx, (uint8_t *)buf + have, size - have, &n);
        if (rc)
            return rc > 0 ? LP_EIO : rc;
        if (n > size - have)
            return LP_EIO; /* a source that claims more than asked is broken */
        if (!n)
            break;
        have += n;
    }
    r->pos += have;
    *got = have;
    return 0;
}

static int io_fail(lp__reader *r, int rc, lp_read_error *err)
{
    return lp__fail(err, r->pos, rc, "file", "the source failed: %s", lp_strerror(rc));
}

int lp__reader_start(lp__reader *r, lp_source src, unsigned kind, const uint16_t *known,
                     size_t n_known, lp_read_error *err)
{
    __builtin_memset(r, 0, sizeof *r);
    r->src = src;
    r->kind = kind;
    r->known = known;
    r->n_known = n_known;
    if (!src.read)
        return lp__fail(err, 0, LP_EINVAL, "file", "no source");
    uint8_t h[LP__HEADER_SIZE];
    size_t got;
    int rc = pull(r, h, sizeof h, &got);
    if (rc)
        return io_fail(r, rc, err);
    for (size_t i = 0; i < sizeof lp__magic && i < got; i++)
        if (h[i] != lp__magic[i])
            return lp__fail(err, i, LP_EFORMAT, "header.magic", "not a lowprof file");
    if (got < sizeof h)
        return lp__fail(err, got, LP_ETRUNC, "header",
                        "the file ends %u bytes into its 16-byte header", (unsigned)got);
    unsigned k = lp__le16(h + 8), v = lp__le16(h + 10);
    if (!lp_file_kind_name(k))
        return lp__fail(err, 8, LP_EFORMAT, "header.kind", "unknown file kind %u", k);
    if (k != kind)
        return lp__fail(err, 8, LP_EFORMAT, "header.kind", "this is %s file, not %s file",
                        lp_file_kind_name(k), lp_file_kind_name(kind));
    if (v != LP__FORMAT_VERSION)
        return lp__fail(err, 10, LP_EVERSION, "header.version",
                        "format version %u; this build reads version %u", v, LP__FORMAT_VERSION);
    if (lp__le32(h + 12) != 0)
        return lp__fail(err, 12, LP_EFORMAT, "header.reserved", "reserved bytes are not zero");
    return 0;
}

static int is_known(const lp__reader *r, unsigned type)
{
    for (size_t i = 0; i < r->n_known; i++)
        if (r->known[i] == type)
            return 1;
    return 0;
}

/* Reads len payload bytes into r->payload, growing it with the input. */
static int read_payload(lp__reader *r, uint32_t len, const char *field, lp_read_error *err)
{
    size_t have = 0;
    while (have < len) {
        size_t want = len - have, step = have < FIRST_STEP ? FIRST_STEP : have;
        if (want > step)
            want = step;
        if (have + want > r->cap) {
            uint8_t *p = lp_realloc(r->payload, r->cap, have + want);
            if (!p)
                return lp__fail(err, r->pos, LP_ENOMEM, field, "no memory for the payload");
            r->payload = p;
            r->cap = have + want;
        }
        size_t got;
        int rc = pull(r, r->payload + have, want, &got);
        if (rc)
            return io_fail(r, rc, err);
        have += got;
        if (got < want)
            return lp__fail(err, r->pos, LP_ETRUNC, field,
                            "the file ends %llu bytes into a %u-byte payload", LP__ULL(have),
                            (unsigned)len);
    }
    r->size = len;
    return 0;
}

int lp__reader_next(lp__reader *r, lp_read_error *err)
{
    char field[48];
    for (;;) {
        uint64_t at = r->pos, n = r->chunks;
        uint8_t head[LP__CHUNK_HEAD], tail[LP__CHUNK_TAIL];
        size_t got;
        int rc = pull(r, head, sizeof head, &got);
        if (rc)
            return io_fail(r, rc, err);
        if (got == 0)
            return lp__fail(err, at, LP_ETRUNC,
                            lp__fmt(field, sizeof field, "chunk[%llu]", LP__ULL(n)),
                            "the file ends after %llu chunks without an end chunk", LP__ULL(n));
        if (got < sizeof head)
            return lp__fail(err, r->pos, LP_ETRUNC,
                            lp__fmt(field, sizeof field, "chunk[%llu].head", LP__ULL(n)),
                            "the file ends inside a chunk head");
        unsigned type = lp__le16(head), flags = lp__le16(head + 2);
        uint32_t len = lp__le32(head + 4);
        if (flags & ~LP__CHUNK_OPTIONAL)
            return lp__fail(err, at + 2, LP_EFORMAT,
                            lp__fmt(field, sizeof field, "chunk[%llu].flags", LP__ULL(n)),
                            "reserved flag bits set (0x%x)", flags);
        if (len > LP__MAX_PAYLOAD)
            return lp__fail(err, at + 4, LP_ELIMIT,
                            lp__fmt(field, sizeof field, "chunk[%llu].length", LP__ULL(n)),
                            "payload of %u bytes; the limit is %u", (unsigned)len, LP__MAX_PAYLOAD);
        rc = read_payload(r, len, lp__fmt(field, sizeof field, "chunk[%llu].payload", LP__ULL(n)),
                          err);
        if (rc)
            return rc;
        uint64_t crc_at = r->pos;
        rc = pull(r, tail, sizeof tail, &got);
        if (rc)
            return io_fail(r, rc, err);
        if (got < sizeof tail)
            return lp__fail(err, r->pos, LP_ETRUNC,
                            lp__fmt(field, sizeof field, "chunk[%llu].crc", LP__ULL(n)),
                            "the file ends inside a chunk checksum");
        uint32_t stored = lp__le32(tail);
        uint32_t computed = lp__crc32(lp__crc32(0, head, sizeof head), r->payload, len);
        if (stored != computed)
            return lp__fail(err, crc_at, LP_ECHECKSUM,
                            lp__fmt(field, sizeof field, "chunk[%llu].crc", LP__ULL(n)),
                            "%s chunk at %llu, %u bytes: stored %llx, computed %llx",
                            lp__chunk_type_name(type), LP__ULL(at), (unsigned)len, LP__ULL(stored),
                            LP__ULL(computed));
        r->chunks++;
        if (!is_known(r, type)) {
            if (flags & LP__CHUNK_OPTIONAL)
                continue; /* a later version's addition this one may ignore */
            return lp__fail(err, at, LP_EFORMAT,
                            lp__fmt(field, sizeof field, "chunk[%llu].type", LP__ULL(n)),
                            "chunk type %u (%s) has no place in %s file", type,
                            lp__chunk_type_name(type), lp_file_kind_name(r->kind));
        }
        r->type = type;
        r->index = n;
        r->offset = at;
        return 0;
    }
}

int lp__reader_expect_eof(lp__reader *r, lp_read_error *err)
{
    uint8_t byte;
    size_t got;
    int rc = pull(r, &byte, 1, &got);
    if (rc)
        return io_fail(r, rc, err);
    if (got)
        return lp__fail(err, r->pos - 1, LP_EFORMAT, "trailer", "bytes follow the end chunk");
    return 0;
}

void lp__reader_fini(lp__reader *r)
{
    if (!r)
        return;
    lp_free(r->payload);
    r->payload = NULL;
    r->size = r->cap = 0;
}
