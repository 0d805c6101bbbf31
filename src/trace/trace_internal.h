/* Private to trace: the pieces the three file formats share. The container
 * (file header, checksummed chunks), growable output buffers, bounded input
 * cursors, read-error formatting, the sorted-key coder and a sort. Nothing
 * here is part of the public interface; the layout they implement is
 * described in doc/format-container.md. */
#ifndef LP_TRACE_INTERNAL_H
#define LP_TRACE_INTERNAL_H

#include "lowprof/trace.h"

/* ---- format constants --------------------------------------------------- */

#define LP__FORMAT_VERSION 1u /* the only version this build reads and writes */
#define LP__HEADER_SIZE 16u   /* magic[8], kind u16, version u16, reserved u32 */
#define LP__CHUNK_HEAD 8u     /* type u16, flags u16, payload length u32 */
#define LP__CHUNK_TAIL 4u     /* CRC-32 of head and payload */

/* Hard limits. Readers refuse anything larger with LP_ELIMIT; writers refuse
 * to produce it, so every file a writer makes can be read back. */
#define LP__MAX_PAYLOAD (64u << 20)
#define LP__MAX_STRING 4096u
#define LP__MAX_META 256u
#define LP__MAX_MODULES 65536u
#define LP__MAX_BUILD_ID 32u
#define LP__MAX_PROFILES 65536u
#define LP__MAX_DICT (1u << 26)      /* dictionary keys per profile type */
#define LP__MAX_EVENTS_CHUNK 65536u  /* events per events chunk */
#define LP__MAX_PARTS 4096u          /* chunks one profile or interval spans */
#define LP__CHUNK_ENTRIES (1u << 20) /* entries a writer puts in one chunk */
#define LP__EVENTS_PER_CHUNK 4096u   /* events a writer puts in one chunk */

/* Chunk types. Values are part of the format; never renumber. */
enum {
    LP__CH_META = 1,
    LP__CH_MODULES = 2,
    LP__CH_END = 3,
    LP__CH_PROFILE = 16,
    LP__CH_PROFILE_PART = 17,
    LP__CH_MATRIX = 32,
    LP__CH_DICT = 33,
    LP__CH_INTERVAL = 34,
    LP__CH_INTERVAL_PART = 35,
    LP__CH_EVENTS = 48,
};

#define LP__CHUNK_OPTIONAL 0x0001u /* readers that do not know the type skip it */

/* A short name for a chunk type, "unknown" for others (error messages). */
const char *lp__chunk_type_name(unsigned type);

/* ---- small helpers ---------------------------------------------------------- */

/* Length of a NUL-terminated string; the caller guarantees s is not NULL. */
size_t lp__strlen(const char *s);
/* 1 if the n bytes of a equal the NUL-terminated b exactly, else 0. */
int lp__strneq(const char *a, size_t n, const char *b);
/* A lp_malloc'd NUL-terminated copy of n bytes, or NULL. */
char *lp__strndup(const char *s, size_t n);

uint32_t lp__crc32(uint32_t crc, const void *data, size_t size);

/* The 8 bytes every lowprof file starts with. */
extern const uint8_t lp__magic[8];

/* Little-endian fixed-width fields (container.c). */
unsigned lp__le16(const uint8_t *p);
uint32_t lp__le32(const uint8_t *p);

static inline uint64_t lp__zigzag(uint64_t delta)
{
    /* Two's-complement delta to an unsigned code with small magnitudes small. */
    return (delta << 1) ^ (uint64_t)(-(int64_t)(delta >> 63));
}

static inline uint64_t lp__unzigzag(uint64_t code)
{
    return (code >> 1) ^ (uint64_t)(-(int64_t)(code & 1));
}

/* Bytes LEB128 takes for v (1..10). */
size_t lp__varint_size(uint64_t v);
/* Writes v as LEB128 into out (room for 10 bytes); returns the length. */
size_t lp__varint_encode(uint8_t *out, uint64_t v);

/* ---- output buffer -------------------------------------------------------- */

/* A growable byte buffer for building one chunk payload. Errors are sticky:
 * after an allocation failure every put is a no-op and err holds
 * LP_ENOMEM, so encoders check once at the end. */
typedef struct lp__buf {
    uint8_t *data;
    size_t size;
    size_t cap;
    int err;
} lp__buf;

void lp__buf_reset(lp__buf *b); /* empties, keeps the memory, clears err */
void lp__buf_free(lp__buf *b);  /* accepts NULL */
void lp__buf_put(lp__buf *b, const void *data, size_t size);
void lp__buf_u8(lp__buf *b, uint8_t v);
void lp__buf_varint(lp__buf *b, uint64_t v);
/* A length varint and the bytes, no terminator. */
void lp__buf_string(lp__buf *b, const char *s, size_t n);

/* ---- input cursor ----------------------------------------------------------- */

/* Reads inside one chunk payload that is already in memory. base is the
 * payload's offset in the file so errors can name absolute offsets. */
typedef struct lp__cur {
    const uint8_t *p;
    size_t size;
    size_t pos;
    uint64_t base;
} lp__cur;

static inline uint64_t lp__cur_offset(const lp__cur *c)
{
    return c->base + c->pos;
}

static inline size_t lp__cur_left(const lp__cur *c)
{
    return c->size - c->pos;
}

/* Decodes a canonical LEB128 varint. Returns 0, LP_ETRUNC if the payload
 * ends inside it, or LP_EFORMAT for more than 64 bits or a redundant
 * trailing zero byte (one value, one encoding). The position is left at the
 * start of the varint on error. */
int lp__cur_varint(lp__cur *c, uint64_t *out);

/* ---- read errors -------------------------------------------------------- */

/* printf-like formatting into buf (always NUL-terminated, silently cut at
 * cap). Understands %s, %u, %d, %llu, %lld, %llx, %%. Returns buf. */
char *lp__fmt(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Fills err (which may be NULL) and returns code. field is a plain string;
 * the detail is formatted. */
int lp__fail(lp_read_error *err, uint64_t offset, int code, const char *field,
             const char *detail_fmt, ...) __attribute__((format(printf, 5, 6)));

#define LP__ULL(x) ((unsigned long long)(x))

/* ---- container: writing --------------------------------------------------- */

/* Sends size bytes to sink; converts a bogus positive return into LP_EIO. */
int lp__sink_write(lp_sink sink, const void *data, size_t size);
/* Writes the 16-byte file header. */
int lp__header_write(lp_sink sink, unsigned kind);
/* Writes one chunk whose payload is prefix followed by body (either may be
 * empty). LP_ELIMIT if the payload is over LP__MAX_PAYLOAD. */
int lp__chunk_write(lp_sink sink, unsigned type, const void *prefix, size_t prefix_size,
                    const void *body, size_t body_size);

/* ---- container: reading ------------------------------------------------- */

typedef struct lp__reader {
    lp_source src;
    unsigned kind;
    uint64_t pos;    /* bytes consumed from the source so far */
    uint64_t chunks; /* chunks read so far, including skipped ones */
    const uint16_t *known;
    size_t n_known;
    /* the chunk last returned by lp__reader_next */
    unsigned type;
    uint64_t index;  /* its position among the file's chunks */
    uint64_t offset; /* file offset of its head */
    uint8_t *payload;
    size_t size;
    size_t cap;
} lp__reader;

/* Reads and checks the file header for kind. known lists the chunk types the
 * kind uses; others are skipped if optional, refused if not. */
int lp__reader_start(lp__reader *r, lp_source src, unsigned kind, const uint16_t *known,
                     size_t n_known, lp_read_error *err);
/* Reads the next known chunk and verifies its checksum. Returns 0, LP_ETRUNC
 * (with a detail saying whether the input ended between chunks or inside
 * one), or another negative code. */
int lp__reader_next(lp__reader *r, lp_read_error *err);
/* After the end chunk: LP_EFORMAT if any byte follows. */
int lp__reader_expect_eof(lp__reader *r, lp_read_error *err);
void lp__reader_fini(lp__reader *r);

static inline lp__cur lp__reader_cursor(const lp__reader *r)
{
    lp__cur c = {r->payload, r->size, 0, r->offset + LP__CHUNK_HEAD};
    return c;
}

/* Fails with LP_EFORMAT if c has unread bytes (a payload must be consumed
 * exactly, or two files could mean one thing). what names the chunk. */
int lp__cur_expect_end(const lp__cur *c, const char *what, lp_read_error *err);

/* Turns a failed lp__cur_varint's code into LP_EFORMAT naming field. Hot
 * loops call lp__cur_varint directly and build the name only on failure. */
int lp__varint_fail(const lp__cur *c, int rc, const char *field, lp_read_error *err);
/* Reads a varint at field; on failure fills err naming field. */
int lp__get_varint(lp__cur *c, uint64_t *out, const char *field, lp_read_error *err);
/* A varint that must lie in [lo, hi]; out of range is LP_EFORMAT, or
 * LP_ELIMIT when the value is only too large for the reader (limit != 0). */
int lp__get_range(lp__cur *c, uint64_t *out, uint64_t lo, uint64_t hi, int limit, const char *field,
                  lp_read_error *err);
/* A count of items that each take at least min_bytes: refused unless it is
 * at most max (LP_ELIMIT) and fits in what is left of the payload
 * (LP_EFORMAT), so a caller can size an allocation by it. */
int lp__get_count(lp__cur *c, uint64_t *out, uint64_t max, size_t min_bytes, const char *field,
                  lp_read_error *err);
/* A length-prefixed string of at most LP__MAX_STRING bytes without NUL,
 * returned as a fresh lp_malloc'd C string. */
int lp__get_string(lp__cur *c, char **out, const char *field, lp_read_error *err);

/* ---- meta and module map chunks -------------------------------------------- */

/* Encodes m into b (a missing meta encodes as no items). */
void lp__meta_encode(lp__buf *b, const lp_meta *m);
int lp__meta_write(lp_sink sink, const lp_meta *m, lp__buf *scratch);
/* Decodes the chunk r holds into *out (emptied first). */
int lp__meta_decode(const lp__reader *r, lp_meta *out, lp_read_error *err);

int lp__modules_write(lp_sink sink, const lp_module_map *m, lp__buf *scratch);
int lp__modules_decode(const lp__reader *r, lp_module_map *out, lp_read_error *err);

/* ---- sorted key lists ------------------------------------------------------- */

/* Key lists are sorted by (a, b) and coded against the previous key: a as
 * an unsigned delta, b either plainly or relative to a (mode 1: zigzag of
 * b - a, good for branch targets), and when a repeats, b as the gap to the
 * previous b minus one. A writer picks the cheaper mode per chunk. */
enum { LP__KEYS_PLAIN = 0, LP__KEYS_RELATIVE = 1 };

/* Picks the mode that makes the n keys (at stride bytes apart, each
 * starting with an lp_key) smallest; the keys must be strictly sorted. */
unsigned lp__keys_choose(const void *keys, size_t n, size_t stride);
/* Codes k after prev (first: no previous key). */
void lp__key_put(lp__buf *b, unsigned mode, int first, lp_key prev, lp_key k);
/* Decodes a key after *prev (first: none); on success *prev becomes it.
 * Returns 0, or LP_EFORMAT with *why saying what was wrong (a bad varint,
 * a word that overflows, the reserved empty key) and the cursor where the
 * key began; the caller names the field. */
int lp__key_get(lp__cur *c, unsigned mode, int first, lp_key *prev, const char **why);


/* ---- event coding (evcodec.c) ------------------------------------------------ */

/* What the next event is coded against; reset at each events chunk. */
typedef struct lp__evstate {
    uint64_t pc;
    uint64_t icount;
    uint64_t addr; /* the previous load or store address */
    uint64_t sp;   /* the previous call's stack pointer */
    uint32_t tid;
} lp__evstate;

void lp__evstate_reset(lp__evstate *s);
/* Codes ev (whose kind the caller checked) and advances s. */
void lp__event_put(lp__buf *b, lp__evstate *s, const lp_event *ev);
/* Decodes event number n (for error names) and advances s. */
int lp__event_get(lp__cur *c, lp__evstate *s, lp_event *out, uint64_t n, lp_read_error *err);

#endif
