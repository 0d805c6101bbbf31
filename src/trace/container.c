/* The container every lowprof file shares (doc/format-container.md): a
 * 16-byte header naming the file kind and format version, then chunks of
 * (type, flags, length, payload, CRC-32). This file holds the writing side
 * and the header check; chunkreader.c holds the reading side. Fixed-width
 * fields are little-endian whatever the host, so files move between
 * machines. */
#include "trace_internal.h"

/* High-bit first byte catches 7-bit channels, CR LF catches newline
 * conversion, and ^Z stops a DOS-style "type" from dumping binary. */
const uint8_t lp__magic[8] = {0x8c, 'L', 'P', 'F', '\r', '\n', 0x1a, '\n'};

static void put_le16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

unsigned lp__le16(const uint8_t *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

uint32_t lp__le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

const char *lp_file_kind_name(unsigned kind)
{
    switch (kind) {
    case LP_FILE_EVENTS: return "events";
    case LP_FILE_IMATRIX: return "interval-matrix";
    case LP_FILE_PROFILE: return "profile";
    default: return NULL;
    }
}

const char *lp__chunk_type_name(unsigned type)
{
    switch (type) {
    case LP__CH_META: return "meta";
    case LP__CH_MODULES: return "modules";
    case LP__CH_END: return "end";
    case LP__CH_PROFILE: return "profile";
    case LP__CH_PROFILE_PART: return "profile-part";
    case LP__CH_MATRIX: return "matrix";
    case LP__CH_DICT: return "dictionary";
    case LP__CH_INTERVAL: return "interval";
    case LP__CH_INTERVAL_PART: return "interval-part";
    case LP__CH_EVENTS: return "events";
    default: return "unknown";
    }
}

/* Checks as much of the header as size covers, so a short prefix that is
 * still a valid beginning reports LP_ETRUNC rather than LP_EFORMAT. */
int lp_file_sniff(const void *head, size_t size, unsigned *out_kind, unsigned *out_version)
{
    const uint8_t *h = head;
    if (!h && size)
        return LP_EINVAL;
    for (size_t i = 0; i < sizeof lp__magic && i < size; i++)
        if (h[i] != lp__magic[i])
            return LP_EFORMAT;
    if (size < LP__HEADER_SIZE)
        return LP_ETRUNC;
    unsigned kind = lp__le16(h + 8), version = lp__le16(h + 10);
    if (out_kind)
        *out_kind = kind;
    if (out_version)
        *out_version = version;
    if (!lp_file_kind_name(kind) || lp__le32(h + 12) != 0)
        return LP_EFORMAT;
    if (version != LP__FORMAT_VERSION)
        return LP_EVERSION;
    return LP_OK;
}

int lp__sink_write(lp_sink sink, const void *data, size_t size)
{
    if (!size)
        return 0;
    int rc = sink.write(sink.ctx, data, size);
    return rc > 0 ? LP_EIO : rc;
}

int lp__header_write(lp_sink sink, unsigned kind)
{
    uint8_t h[LP__HEADER_SIZE];
    __builtin_memcpy(h, lp__magic, sizeof lp__magic);
    put_le16(h + 8, kind);
    put_le16(h + 10, LP__FORMAT_VERSION);
    put_le32(h + 12, 0);
    return lp__sink_write(sink, h, sizeof h);
}

int lp__chunk_write(lp_sink sink, unsigned type, const void *prefix, size_t prefix_size,
                    const void *body, size_t body_size)
{
    if (prefix_size > LP__MAX_PAYLOAD || body_size > LP__MAX_PAYLOAD - prefix_size)
        return LP_ELIMIT;
    uint8_t head[LP__CHUNK_HEAD], tail[LP__CHUNK_TAIL];
    put_le16(head, type);
    put_le16(head + 2, 0);
    put_le32(head + 4, (uint32_t)(prefix_size + body_size));
    /* The checksum covers the head too, so a damaged type or length is
     * caught instead of being taken for a different, valid chunk. */
    uint32_t crc = lp__crc32(0, head, sizeof head);
    crc = lp__crc32(crc, prefix, prefix_size);
    crc = lp__crc32(crc, body, body_size);
    put_le32(tail, crc);
    int rc = lp__sink_write(sink, head, sizeof head);
    if (!rc)
        rc = lp__sink_write(sink, prefix, prefix_size);
    if (!rc)
        rc = lp__sink_write(sink, body, body_size);
    if (!rc)
        rc = lp__sink_write(sink, tail, sizeof tail);
    return rc;
}
