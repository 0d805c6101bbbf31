/* lowprof trace: the on-disk formats.
 *
 * Three file kinds share one container (doc/format-container.md): a header
 * naming the kind and version, then chunks, each with a type, a length and a
 * CRC-32 of its payload, closed by an end chunk. Writers stream: they emit a
 * chunk as soon as it is full, so a recording cut short still leaves every
 * finished chunk readable, and a reader can tell a file that ended early
 * (no end chunk) from a corrupt one.
 *
 *   event trace     (doc/format-events.md)   every event of a small run
 *   interval matrix (doc/format-imatrix.md)  per interval: instructions,
 *                                            phase signature, exhaustive
 *                                            profiles of every type
 *   profile         (doc/format-profile.md)  a set of typed profiles of a run
 *
 * Encoders and decoders are freestanding (core's shim only): the Valgrind
 * tool writes these files itself. Readers validate every field against the
 * bytes that remain, so a hostile file can neither make them allocate more
 * than a small multiple of its own size nor loop; errors name the byte
 * offset and the field. */
#ifndef LOWPROF_TRACE_H
#define LOWPROF_TRACE_H

#include "lowprof/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum lp_file_kind {
    LP_FILE_EVENTS = 1,
    LP_FILE_IMATRIX = 2,
    LP_FILE_PROFILE = 3,
} lp_file_kind;

/* "events", "interval-matrix", "profile", or NULL. */
const char *lp_file_kind_name(unsigned kind);

/* ---- sources and read errors ---------------------------------------------- */

/* A byte origin for the streaming readers. read stores how many bytes it
 * produced in *out_got; fewer than size means the input ended. Returns 0 or
 * a negative LP_E* code. */
typedef struct lp_source {
    int (*read)(void *ctx, void *buf, size_t size, size_t *out_got);
    void *ctx;
} lp_source;

/* A source over caller memory; state must outlive the source. */
typedef struct lp_memsource {
    const uint8_t *data;
    size_t size;
    size_t pos;
} lp_memsource;
lp_source lp_memsource_init(lp_memsource *state, const void *data, size_t size);

/* Where and why a reader stopped. offset is the byte offset in the file of
 * the field that failed; field names it ("chunk.length", "entry[12].key"). */
typedef struct lp_read_error {
    uint64_t offset;
    char field[48];
    char detail[112];
} lp_read_error;

/* Reads a file header from its first bytes. Returns 0 and the kind and
 * version, or LP_EFORMAT / LP_ETRUNC / LP_EVERSION. Any out pointer may be
 * NULL. */
int lp_file_sniff(const void *head, size_t size, unsigned *out_kind, unsigned *out_version);

/* ---- metadata ------------------------------------------------------------- */

/* Ordered key/value strings: program, arguments, strategy, parameters,
 * completeness ("complete" = "yes" / "no", "incomplete-reason"), ... Setting
 * an existing key replaces its value. Strings are copied. */
typedef struct lp_meta_item {
    char *key;
    char *value;
} lp_meta_item;

/* Grow it only through lp_meta_set: the capacity is derived from count.
 * The same holds for lp_module_map (lp_module_map_add) and lp_profile_set
 * (lp_profile_set_add). */
typedef struct lp_meta {
    lp_meta_item *items;
    size_t count;
} lp_meta;

int lp_meta_set(lp_meta *m, const char *key, const char *value);
/* The value for key, or NULL. */
const char *lp_meta_get(const lp_meta *m, const char *key);
/* Copies src into dst (dst's old items are freed first). */
int lp_meta_copy(lp_meta *dst, const lp_meta *src);
void lp_meta_fini(lp_meta *m);

/* ---- module map ------------------------------------------------------------ */

/* One mapped object of the profiled process: runtime text range and the
 * bias to subtract from a runtime address to get the ELF virtual address. */
typedef struct lp_module {
    char *path;
    uint64_t start;
    uint64_t size;
    int64_t bias;
    uint8_t build_id[32];
    uint8_t build_id_len;
} lp_module;

typedef struct lp_module_map {
    lp_module *items;
    size_t count;
} lp_module_map;

/* Appends a copy (build id may be NULL with length 0; at most 32 bytes). */
int lp_module_map_add(lp_module_map *m, const char *path, uint64_t start, uint64_t size,
                      int64_t bias, const uint8_t *build_id, size_t build_id_len);
/* The module whose text range holds pc, or NULL. */
const lp_module *lp_module_map_find(const lp_module_map *m, uint64_t pc);
int lp_module_map_copy(lp_module_map *dst, const lp_module_map *src);
void lp_module_map_fini(lp_module_map *m);

/* ---- profile files ---------------------------------------------------------- */

/* Everything one profile file holds. */
typedef struct lp_profile_set {
    lp_meta meta;
    lp_module_map modules;
    lp_profile *profiles;
    size_t count;
} lp_profile_set;

/* Adds an empty exhaustive profile of type for phase (LP_PHASE_NONE for the
 * whole run); *out points into s until the next add. */
int lp_profile_set_add(lp_profile_set *s, unsigned type, uint32_t phase, lp_profile **out);
/* The first profile of type and phase, or NULL. */
lp_profile *lp_profile_set_find(const lp_profile_set *s, unsigned type, uint32_t phase);
void lp_profile_set_fini(lp_profile_set *s);

/* Writes the whole set. Entries are written in key order, so equal sets give
 * equal files. Returns 0 or a negative code from the sink or LP_ENOMEM. */
int lp_profile_file_write(const lp_profile_set *s, lp_sink sink);
/* Reads a whole profile file into *out (initialised by the call; on error it
 * is left empty). err may be NULL. */
int lp_profile_file_read(lp_source src, lp_profile_set *out, lp_read_error *err);

/* ---- interval matrix ---------------------------------------------------------- */

/* One interval: where it starts, how long it is, its signature, and the
 * exhaustive profile of every type collected in it (tables indexed by
 * lp_profile_type; types not collected stay empty). */
typedef struct lp_interval {
    uint64_t index;
    uint64_t first_insn;
    uint64_t insns;
    lp_signature sig;
    lp_table tables[LP_PROF_TYPE_MAX + 1];
} lp_interval;

int lp_interval_init(lp_interval *iv);
void lp_interval_clear(lp_interval *iv); /* empties tables, keeps capacity */
void lp_interval_fini(lp_interval *iv);

typedef struct lp_imatrix_writer lp_imatrix_writer;

/* Starts a matrix: writes the header and meta. interval_length is the nominal
 * length. types is a bit mask (1u << lp_profile_type) of the profile types
 * the intervals carry. */
int lp_imatrix_writer_create(lp_sink sink, const lp_meta *meta, uint64_t interval_length,
                             uint32_t types, lp_imatrix_writer **out);
/* Appends one interval (its own chunk, written at once). Interval indices
 * must strictly increase, and a non-empty table of a type outside the
 * writer's mask is refused with LP_EINVAL. */
int lp_imatrix_writer_add(lp_imatrix_writer *w, const lp_interval *iv);
/* Writes the module map and the end chunk. The writer must still be freed. */
int lp_imatrix_writer_finish(lp_imatrix_writer *w, const lp_module_map *modules);
void lp_imatrix_writer_free(lp_imatrix_writer *w);

typedef struct lp_imatrix_reader lp_imatrix_reader;

/* Reads the header and meta. err may be NULL. */
int lp_imatrix_reader_open(lp_source src, lp_imatrix_reader **out, lp_read_error *err);
const lp_meta *lp_imatrix_reader_meta(const lp_imatrix_reader *r);
uint64_t lp_imatrix_reader_interval_length(const lp_imatrix_reader *r);
uint32_t lp_imatrix_reader_types(const lp_imatrix_reader *r);
/* Reads the next interval into out (which the caller initialised; it is
 * cleared first). Returns 1 for an interval, 0 at a proper end, LP_ETRUNC if
 * the input ends without an end chunk (every interval before it was
 * returned), or another negative code. */
int lp_imatrix_reader_next(lp_imatrix_reader *r, lp_interval *out, lp_read_error *err);
/* The module map; complete only after next returned 0. */
const lp_module_map *lp_imatrix_reader_modules(const lp_imatrix_reader *r);
void lp_imatrix_reader_free(lp_imatrix_reader *r);

/* ---- event trace --------------------------------------------------------------- */

typedef struct lp_evtrace_writer lp_evtrace_writer;

int lp_evtrace_writer_create(lp_sink sink, const lp_meta *meta, lp_evtrace_writer **out);
/* Buffers ev; a full buffer is written as one chunk. */
int lp_evtrace_writer_add(lp_evtrace_writer *w, const lp_event *ev);
/* Flushes, writes the module map and the end chunk. */
int lp_evtrace_writer_finish(lp_evtrace_writer *w, const lp_module_map *modules);
void lp_evtrace_writer_free(lp_evtrace_writer *w);

typedef struct lp_evtrace_reader lp_evtrace_reader;

int lp_evtrace_reader_open(lp_source src, lp_evtrace_reader **out, lp_read_error *err);
const lp_meta *lp_evtrace_reader_meta(const lp_evtrace_reader *r);
/* 1 and *out for an event, 0 at a proper end, LP_ETRUNC or another negative
 * code otherwise. */
int lp_evtrace_reader_next(lp_evtrace_reader *r, lp_event *out, lp_read_error *err);
const lp_module_map *lp_evtrace_reader_modules(const lp_evtrace_reader *r);
void lp_evtrace_reader_free(lp_evtrace_reader *r);

#ifdef __cplusplus
}
#endif
#endif
