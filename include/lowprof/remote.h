/* lowprof remote, the freestanding transmission part (remote-profiling paper,
 * sections 4 and 5.4): the profile buffer that holds sampled interval
 * profiles tagged with their phase, the lossless compressor applied before
 * transmission, and the two protocols of section 5.4, At End (merge every
 * sampled profile, compress and send once when the program ends) and
 * Interleaved (compress and send each sampled interval's profile as soon
 * as the interval ends).
 *
 * The compressor counts its own work by instruction class so the energy
 * model (metrics.h, Fig. 14b) can price compression with real operation
 * counts: see lp_remote_work.
 *
 * Freestanding: core's types and shim only, so the Valgrind tool and the
 * native runtime link it; bytes leave through a caller's lp_sink. Not
 * thread-safe; one buffer per thread.
 *
 * ---- byte encodings --------------------------------------------------------
 *
 * varint: unsigned LEB128, 7 bits a byte, low group first, at most 10 bytes
 * for 64 bits; readers refuse longer or overflowing ones.
 *
 * Compressed block (lp_lz_compress), an LZ77 code:
 *   varint size                       decompressed size
 *   command*, until size bytes are produced:
 *     varint L, then L literal bytes
 *     if output is still short of size:
 *       varint M - 4, varint D - 1     copy M >= 4 bytes from D bytes back
 *                                      (D <= bytes produced; may overlap)
 * Nothing may follow the last command.
 *
 * Payload (what is compressed): a sequence of records, each opening with a
 * tag byte.
 *   1 profile: varint phase+1 (0: no phase), varint profile type,
 *     varint first interval, varint intervals merged into it,
 *     varint n, then n entries in ascending key order:
 *       varint a - previous a (the first: a),
 *       varint b - previous b if a equals the previous a, else b,
 *       varint v[0], varint v[1]
 *   2 phase trace: varint n, then n runs: varint phase+1, varint length
 *
 * Message (what reaches the sink), one per transmission:
 *   "LPRM", version byte 1, varint payload size, varint block size, block
 */
#ifndef LOWPROF_REMOTE_H
#define LOWPROF_REMOTE_H

#include "lowprof/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- work accounting --------------------------------------------------------- */

/* Operations an idealised load/store machine performs to run the
 * compressor or decompressor, counted as the code runs (not estimated from
 * sizes): each step adds its fixed cost, e.g. hashing a position is one
 * load of four bytes, two ALU operations (multiply, shift), one load and
 * one store in the hash table and two branches; copying a literal byte is a
 * load, a store, an ALU increment and a loop branch. For the energy model
 * of Fig. 14(b): alu and branches are IREG, loads IMEM-R, stores IMEM-W
 * (whether loads hit in a cache is the model's choice, not counted here). */
typedef struct lp_remote_work {
    uint64_t loads;
    uint64_t stores;
    uint64_t alu;
    uint64_t branches;
} lp_remote_work;

/* ---- the compressor ---------------------------------------------------------- */

/* Largest input the coder takes (positions are 32-bit). */
#define LP_LZ_MAX_INPUT ((size_t)UINT32_MAX - 1)

/* Appends the compressed form of src[0..size) to out (src may be NULL when
 * size is 0). Adds its work to *work if work is not NULL. Uses a 16 KiB
 * hash table from lp_malloc for the call. Returns 0, LP_EINVAL for input
 * over LP_LZ_MAX_INPUT, or LP_ENOMEM (out keeps what it had, possibly with
 * more capacity). */
int lp_lz_compress(const void *src, size_t size, lp_membuf *out, lp_remote_work *work);

/* Appends the decompressed form of a whole block to out. Refuses a block
 * declaring more than max_size bytes (LP_ELIMIT) before allocating.
 * Returns 0, LP_ETRUNC (the block ends inside a command), LP_EFORMAT
 * (a copy from before the start or past the declared size, an overlong
 * varint, bytes after the end), LP_ELIMIT or LP_ENOMEM. Adds its work to
 * *work if not NULL. */
int lp_lz_decompress(const void *src, size_t size, size_t max_size, lp_membuf *out,
                     lp_remote_work *work);

/* ---- the profile buffer -------------------------------------------------------- */

typedef enum lp_remote_protocol {
    LP_REMOTE_AT_END = 1,      /* one message when the buffer is finished */
    LP_REMOTE_INTERLEAVED = 2, /* one message per interval that had samples */
} lp_remote_protocol;

enum {
    /* At End: merge every sampled profile of a type into one, whatever its
     * phase (the paper's single vector); by default profiles merge only
     * within a phase, so the collector can still weight phases. */
    LP_REMOTE_MERGE_PHASES = 1u << 0,
};

typedef struct lp_remote_stats {
    uint64_t samples;          /* lp_remote_buffer_add calls */
    uint64_t records;          /* profile records serialised */
    uint64_t messages;         /* messages written to the sink */
    uint64_t raw_bytes;        /* payload bytes before compression */
    uint64_t compressed_bytes; /* ... after (compressed blocks only) */
    uint64_t sent_bytes;       /* bytes written to the sink, headers included */
    lp_remote_work work;       /* the compressor's work */
} lp_remote_stats;

typedef struct lp_remote_buffer lp_remote_buffer;

/* Creates a buffer that sends to sink. flags: LP_REMOTE_*. Returns 0,
 * LP_EINVAL for an unknown protocol or flag, or LP_ENOMEM. */
int lp_remote_buffer_create(unsigned protocol, unsigned flags, lp_sink sink,
                            lp_remote_buffer **out);
void lp_remote_buffer_free(lp_remote_buffer *b); /* accepts NULL; sends nothing */

/* Adds the profile of one type collected in sampled interval `interval`,
 * tagged with the interval's phase (LP_PHASE_NONE for none). The table is
 * copied (Interleaved: serialised at once; At End: merged). Returns 0,
 * LP_EINVAL (a type of 0 or above LP_PROF_TYPE_MAX, or after finish) or
 * LP_ENOMEM. */
int lp_remote_buffer_add(lp_remote_buffer *b, uint32_t phase, uint64_t interval, unsigned type,
                         const lp_table *t);

/* Ends an interval whose phase was phase (sampled or not): extends the
 * phase trace and, Interleaved, sends what the interval added, with the
 * trace since the last message. Returns 0, LP_EINVAL after finish, a sink
 * error or LP_ENOMEM. */
int lp_remote_buffer_interval_end(lp_remote_buffer *b, uint32_t phase);

/* Ends the run: At End sends the one message (merged profiles and the
 * whole trace); Interleaved sends any trace not yet sent. Further calls
 * other than stats and free return LP_EINVAL. */
int lp_remote_buffer_finish(lp_remote_buffer *b);

void lp_remote_buffer_get_stats(const lp_remote_buffer *b, lp_remote_stats *out);

/* ---- reading messages ---------------------------------------------------------- */

/* Callbacks for lp_remote_message_read; either may be NULL. A non-zero
 * return stops the reading and is returned. The table is valid only during
 * the call. */
typedef struct lp_remote_handler {
    int (*profile)(void *ctx, uint32_t phase, unsigned type, uint64_t first_interval,
                   uint64_t intervals, const lp_table *t);
    int (*trace)(void *ctx, uint32_t phase, uint64_t run);
    void *ctx;
} lp_remote_handler;

/* Reads one message from data[0..size): checks the header, decompresses
 * (payloads over max_payload bytes are refused with LP_ELIMIT) and calls h
 * for each record in order. *out_consumed gets the message's length so
 * several messages can be read from one stream. Returns 0, LP_ETRUNC,
 * LP_EFORMAT, LP_EVERSION, LP_ELIMIT, LP_ENOMEM or a handler's code. */
int lp_remote_message_read(const void *data, size_t size, size_t max_payload,
                           const lp_remote_handler *h, size_t *out_consumed);

#ifdef __cplusplus
}
#endif
#endif
