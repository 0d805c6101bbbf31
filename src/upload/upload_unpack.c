/* Reading a message body at the collector's door, where anyone holding a
 * token can send anything: a zstd frame or a plain profile file.
 *
 * The one hazard that the profile reader's own limits cannot cover is the
 * decompression: a few hundred bytes of zstd can expand to gigabytes. So the
 * output is grown in steps and never past max_profile + 1 bytes; a frame
 * whose header declares more is refused before anything is allocated, and
 * one that lies about its size (or declares none) is stopped when its
 * output passes the limit. The decoder's window is capped too, since zstd
 * would otherwise allocate what a hostile header asks for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "upload_internal.h"

/* The largest window a frame may ask for: lowprof's own frames (level 3)
 * use at most 2 MiB; 16 MiB leaves room for other zstd writers. */
#define LP__UPLOAD_WINDOW_LOG 24
/* The longest zstd frame header (the format's; the library names it only
 * under ZSTD_STATIC_LINKING_ONLY): a shorter input that fails the header
 * check may just be cut short. */
#define LP__ZSTD_HEADER_MAX 18

static int is_zstd(const uint8_t *p, size_t n)
{
    /* ZSTD_MAGICNUMBER 0xFD2FB528, little-endian on the wire. */
    return n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd;
}

static int grow(lp_membuf *b, size_t want)
{
    if (want <= b->capacity)
        return 0;
    uint8_t *p = lp_realloc(b->data, b->capacity, want);
    if (!p)
        return LP_ENOMEM;
    b->data = p;
    b->capacity = want;
    return 0;
}

/* Decompresses every frame of data into out (emptied first), refusing to
 * hold more than max bytes. */
static int decompress(const uint8_t *data, size_t size, size_t max, lp_membuf *out, char *why,
                      size_t whycap)
{
    unsigned long long declared = ZSTD_getFrameContentSize(data, size);
    if (declared == ZSTD_CONTENTSIZE_ERROR) {
        lp__upload_why(why, whycap, "zstd frame header: not a valid frame header");
        return size < LP__ZSTD_HEADER_MAX ? LP_ETRUNC : LP_EFORMAT;
    }
    if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared > max) {
        lp__upload_why(why, whycap,
                       "zstd frame header: content size %llu bytes is over the limit of %zu",
                       declared, max);
        return LP_ELIMIT;
    }
    ZSTD_DCtx *d = ZSTD_createDCtx();
    if (!d) {
        lp__upload_why(why, whycap, "out of memory for the zstd decoder");
        return LP_ENOMEM;
    }
    ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, LP__UPLOAD_WINDOW_LOG);
    /* A known size gets its buffer at once (plus the byte that tells the
     * frame really ended there); otherwise start small and double. */
    size_t cap = declared != ZSTD_CONTENTSIZE_UNKNOWN ? (size_t)declared + 1 : (size_t)1 << 16;
    if (cap > max + 1)
        cap = max + 1;
    int rc = grow(out, cap);
    ZSTD_inBuffer in = {data, size, 0};
    size_t hint = 0;
    while (rc == 0) {
        if (out->size == out->capacity) {
            size_t next = out->capacity * 2;
            if (next > max + 1)
                next = max + 1;
            if ((rc = grow(out, next)) != 0)
                break;
        }
        ZSTD_outBuffer ob = {out->data + out->size, out->capacity - out->size, 0};
        hint = ZSTD_decompressStream(d, &ob, &in);
        out->size += ob.pos;
        if (ZSTD_isError(hint)) {
            ZSTD_ErrorCode e = ZSTD_getErrorCode(hint);
            lp__upload_why(why, whycap, "zstd frame: input byte %zu: %s", in.pos,
                           ZSTD_getErrorName(hint));
            rc = e == ZSTD_error_frameParameter_windowTooLarge ? LP_ELIMIT : LP_EFORMAT;
            break;
        }
        if (out->size > max) {
            lp__upload_why(why, whycap,
                           "zstd frame: decompresses to more than the limit of %zu bytes", max);
            rc = LP_ELIMIT;
            break;
        }
        if (in.pos == in.size && ob.pos < ob.size)
            break; /* all input taken and everything it gave flushed */
    }
    ZSTD_freeDCtx(d);
    if (rc == LP_ENOMEM)
        lp__upload_why(why, whycap, "out of memory decompressing %zu bytes", out->capacity);
    if (rc == 0 && hint != 0) {
        lp__upload_why(why, whycap, "zstd frame: input ends inside the frame after %zu bytes",
                       size);
        rc = LP_ETRUNC;
    }
    return rc;
}

int lp_upload_read(const void *data, size_t size, size_t max_profile, lp_profile_set *out,
                   lp_membuf *raw, char *why, size_t whycap)
{
    memset(out, 0, sizeof *out);
    if (why && whycap)
        why[0] = '\0';
    if (max_profile == 0)
        max_profile = LP_UPLOAD_MAX_PROFILE;
    if (max_profile > SIZE_MAX / 4)
        max_profile = SIZE_MAX / 4; /* so limit + 1 and doubling cannot wrap */
    const uint8_t *file = data;
    size_t file_size = size;
    lp_membuf plain = {0};
    if (is_zstd(data, size)) {
        int rc = decompress(data, size, max_profile, &plain, why, whycap);
        if (rc) {
            lp_membuf_free(&plain);
            return rc;
        }
        file = plain.data;
        file_size = plain.size;
    } else if (size > max_profile) {
        lp__upload_why(why, whycap, "profile file: %zu bytes is over the limit of %zu", size,
                       max_profile);
        return LP_ELIMIT;
    }
    lp_memsource ms;
    lp_read_error err;
    memset(&err, 0, sizeof err);
    int rc = lp_profile_file_read(lp_memsource_init(&ms, file, file_size), out, &err);
    if (rc) {
        if (err.field[0])
            lp__upload_why(why, whycap, "profile file: offset %llu: %s%s%s (%s)",
                           (unsigned long long)err.offset, err.field, err.detail[0] ? ": " : "",
                           err.detail, lp_strerror(rc));
        else
            lp__upload_why(why, whycap, "profile file: %s", lp_strerror(rc));
        lp_profile_set_fini(out);
        memset(out, 0, sizeof *out);
    } else if (raw && file_size) {
        lp_sink s = lp_membuf_sink(raw);
        if ((rc = s.write(s.ctx, file, file_size)) != 0) {
            lp__upload_why(why, whycap, "out of memory copying the profile file");
            lp_profile_set_fini(out);
            memset(out, 0, sizeof *out);
        }
    }
    lp_membuf_free(&plain);
    return rc;
}

static void copy_lower(char *dst, const char *src)
{
    for (; *src; src++)
        *dst++ = (char)(*src >= 'A' && *src <= 'F' ? *src - 'A' + 'a' : *src);
    *dst = '\0';
}

int lp_upload_id_get(const lp_profile_set *set, lp_upload_id *id, char *why, size_t whycap)
{
    memset(id, 0, sizeof *id);
    const lp_meta *m = &set->meta;
    const char *mid = lp_meta_get(m, "message-id");
    const char *build = lp_meta_get(m, "build-id");
    const char *program = lp_meta_get(m, "program");
    const char *device = lp_meta_get(m, "device");
    const char *insns = lp_meta_get(m, "instructions");
    if (!mid) {
        lp__upload_why(why, whycap, "meta message-id: missing");
        return LP_EFORMAT;
    }
    if (!lp__upload_is_hex(mid, 16, 64)) {
        lp__upload_why(why, whycap, "meta message-id: not 16 to 64 hex digits");
        return LP_EFORMAT;
    }
    if (!build) {
        lp__upload_why(why, whycap, "meta build-id: missing");
        return LP_EFORMAT;
    }
    if (!lp__upload_is_hex(build, 2, 80)) {
        lp__upload_why(why, whycap, "meta build-id: not 2 to 80 hex digits");
        return LP_EFORMAT;
    }
    if (!program || !program[0]) {
        lp__upload_why(why, whycap, "meta program: missing or empty");
        return LP_EFORMAT;
    }
    if (strlen(program) >= sizeof id->program) {
        lp__upload_why(why, whycap, "meta program: longer than %zu bytes",
                       sizeof id->program - 1);
        return LP_EFORMAT;
    }
    if (device && strlen(device) >= sizeof id->device) {
        lp__upload_why(why, whycap, "meta device: longer than %zu bytes", sizeof id->device - 1);
        return LP_EFORMAT;
    }
    if (insns) {
        /* A count the collector weighs runs by: digits only, no overflow. */
        uint64_t v = 0;
        const char *p = insns;
        for (; *p >= '0' && *p <= '9'; p++) {
            unsigned dgt = (unsigned)(*p - '0');
            if (v > (UINT64_MAX - dgt) / 10)
                break;
            v = v * 10 + dgt;
        }
        if (p == insns || *p) {
            lp__upload_why(why, whycap, "meta instructions: not a decimal count");
            return LP_EFORMAT;
        }
        id->instructions = v;
    }
    copy_lower(id->message_id, mid);
    copy_lower(id->build_id, build);
    memcpy(id->program, program, strlen(program) + 1);
    if (device && device[0])
        memcpy(id->device, device, strlen(device) + 1);
    else
        memcpy(id->device, "unknown", sizeof "unknown");
    return 0;
}

int lp_upload_unpack(const void *data, size_t size, size_t max_profile, lp_profile_set *out,
                     lp_upload_id *id, lp_membuf *raw, char *why, size_t whycap)
{
    size_t raw_before = raw ? raw->size : 0;
    memset(id, 0, sizeof *id);
    int rc = lp_upload_read(data, size, max_profile, out, raw, why, whycap);
    if (rc)
        return rc;
    if ((rc = lp_upload_id_get(out, id, why, whycap)) != 0) {
        lp_profile_set_fini(out);
        memset(out, 0, sizeof *out);
        if (raw)
            raw->size = raw_before;
    }
    return rc;
}
