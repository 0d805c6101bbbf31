/* lowprof upload: how profiles travel from the programs that run in the
 * field to the collector (remote-profiling paper, sections 4 and 5.4), on
 * the device's side and at the collector's door.
 *
 * A message is a profile file (doc/format-profile.md) whose metadata names
 * it (doc/format-upload.md): message-id, program, build-id, device. It
 * carries what the run's profile file carries: the per-phase profiles with
 * their scales and the phase-ID trace, or the sampled windows with theirs.
 * On the wire it is compressed with zstd; in a spool folder it is a plain
 * profile file named ID.lpmsg, written by the native runtime (which does no
 * network I/O and links no compressor) or by `lowprof record --spool`.
 *
 * The agent (`lowprof agent`) and `lowprof push` send messages with
 * libcurl as POST /api/v1/profiles (doc/collector-api.md). The collector
 * takes each message exactly once, whatever is resent: the message id is
 * random where the runtime writes it, and a hash of the file where a file
 * without one is pushed, so pushing the same file twice sends one message.
 *
 * Hosted (libc, libzstd, libcurl). Functions are thread-safe unless said. */
#ifndef LOWPROF_UPLOAD_H
#define LOWPROF_UPLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "lowprof/core.h"
#include "lowprof/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest decompressed message a collector or agent accepts by default. */
#define LP_UPLOAD_MAX_PROFILE ((size_t)64 << 20)
/* Largest compressed body the collector reads by default (413 past it). */
#define LP_UPLOAD_MAX_BODY ((size_t)16 << 20)

/* What names a message; filled by lp_upload_unpack. */
typedef struct lp_upload_id {
    char message_id[65]; /* hex */
    char program[256];
    char build_id[81];   /* hex */
    char device[256];
    uint64_t instructions; /* the run's "instructions" meta, or 0 */
} lp_upload_id;

/* Makes set a message: fills in what its metadata lacks. message-id: a
 * 128-bit hash of the set's profile file as written without it (so the
 * same file always gets the same id); device: device if not NULL, else the
 * host name; build-id: that of the module the program names (by path, then
 * by base name), else of the first module with one. Returns 0, LP_ENOENT
 * when no module has a build id (the message could not be told from other
 * builds' and is refused), or LP_ENOMEM. */
int lp_upload_identify(lp_profile_set *set, const char *device);

/* Writes set's profile file compressed with zstd (level 3) into out
 * (appended). Returns 0, LP_ENOMEM or LP_EIO (the compressor failed). */
int lp_upload_pack(const lp_profile_set *set, lp_membuf *out);

/* Reads a message body: a zstd frame, or a plain profile file. Refuses,
 * before allocating it, a frame that declares or produces more than
 * max_profile bytes (LP_ELIMIT: a decompression bomb). Validates the
 * profile file and the identity (message-id and build-id hex of sane
 * length, program present). On success *out holds the set (free it with
 * lp_profile_set_fini), *id its identity, and, if raw is not NULL, raw
 * gets the decompressed profile file. On error returns LP_EFORMAT,
 * LP_ETRUNC, LP_EVERSION, LP_ECHECKSUM, LP_ELIMIT or LP_ENOMEM, writes a
 * one-line reason into why (with the offset and field where the profile
 * reader stopped), and *out holds nothing to free. */
int lp_upload_unpack(const void *data, size_t size, size_t max_profile, lp_profile_set *out,
                     lp_upload_id *id, lp_membuf *raw, char *why, size_t whycap);
/* (unpack, continued) max_profile 0 means LP_UPLOAD_MAX_PROFILE; raw, when
 * given, has the profile file appended. Hex in *id is lower case whatever
 * case the message used, so one message has one id. */

/* What unpack does short of the identity: the body (a zstd frame, or a
 * plain profile file) read into *out under the same limits, for files that
 * are not messages yet (`lowprof push` of a recording). Same returns and
 * why as lp_upload_unpack. */
int lp_upload_read(const void *data, size_t size, size_t max_profile, lp_profile_set *out,
                   lp_membuf *raw, char *why, size_t whycap);

/* The identity check unpack applies, on a set already read: fills *id, or
 * returns LP_EFORMAT with the meta field named in why. */
int lp_upload_id_get(const lp_profile_set *set, lp_upload_id *id, char *why, size_t whycap);

/* ---- sending ------------------------------------------------------------------- */

typedef struct lp_upload_result {
    long http_status; /* 0 if no answer came */
    int duplicate;    /* the collector had the message already */
    char why[256];    /* the collector's reason, or the transport's error */
} lp_upload_result;

/* POSTs one packed message to collector (http://HOST:PORT, with or without
 * a trailing path) with the bearer token; waits at most timeout_ms.
 * Returns 0 when the collector answered 2xx (the message is stored),
 * LP_EINVAL for a 4xx other than 429 (resending will not help: the reason
 * is in r->why), LP_EIO otherwise (no answer, 429 or 5xx: try again
 * later). */
int lp_upload_send(const char *collector, const char *token, const void *body, size_t size,
                   long timeout_ms, lp_upload_result *r);

/* GETs path (with its query, e.g. "/api/v1/builds?program=gzip") from
 * collector with the bearer token, appending the answer's body to out;
 * more than limit bytes (0: LP_UPLOAD_MAX_PROFILE) is LP_ELIMIT. Returns 0
 * for 200, LP_ENOENT for 404, LP_EINVAL for another 4xx but 429, LP_EIO
 * otherwise; r->why then has the collector's reason. */
int lp_upload_get(const char *collector, const char *path, const char *token, size_t limit,
                  long timeout_ms, lp_membuf *out, lp_upload_result *r);

/* The merged profile of program's build from the collector (the build
 * whose upload is latest when build is NULL) into *out, through GET
 * /api/v1/profile?format=lpprof. Returns 0, or a negative code with a
 * one-line reason in why. */
int lp_upload_fetch_profile(const char *collector, const char *token, const char *program,
                            const char *build, lp_profile_set *out, char *why, size_t whycap);

/* What became of a shipped file. */
typedef enum lp_upload_ship_state {
    LP_SHIP_REJECTED = 0, /* not a message, or the collector refused it for good */
    LP_SHIP_STORED,       /* the collector stored it now */
    LP_SHIP_DUPLICATE,    /* the collector had it already */
    LP_SHIP_SPOOLED,      /* written into the spool for the agent */
    LP_SHIP_NOT_SENT,     /* no answer, 429 or 5xx, and no spool to wait in */
} lp_upload_ship_state;

typedef struct lp_upload_ship_result {
    lp_upload_ship_state state;
    long http_status;
    char message_id[65];
    char why[512];      /* for REJECTED and NOT_SENT (and SPOOLED after a failed send) */
} lp_upload_ship_result;

/* Ships the profile file at path (a recording, a spooled or a packed
 * message): names it with lp_upload_identify (device may be NULL), checks
 * it as the collector will, and sends it to collector; when collector is
 * NULL, or the send failed in a way resending can cure, writes it into
 * spool instead (if spool is not NULL). Returns 0 for STORED, DUPLICATE
 * or SPOOLED; LP_EINVAL for REJECTED; LP_EIO for NOT_SENT. */
int lp_upload_ship(const char *path, const char *collector, const char *token,
                   const char *spool, const char *device, lp_upload_ship_result *out);

/* ---- the spool folder -------------------------------------------------------- */

/* Writes set as a message into dir (created if missing) as ID.lpmsg,
 * through a temporary file and rename, so a reader never sees half a
 * message. identify first if the set has no message-id. */
int lp_upload_spool_write(const char *dir, const lp_profile_set *set, char *why, size_t whycap);

typedef struct lp_agent_opts {
    const char *spool;      /* the folder messages are taken from */
    const char *collector;
    const char *token;
    uint64_t max_spool;     /* bytes; past it the oldest messages are dropped; 0: no limit */
    double interval_s;      /* how often to look at the spool (default 1 s) */
    int once;               /* send what is there, then return */
    int quiet;
} lp_agent_opts;

typedef struct lp_agent_stats {
    uint64_t sent, duplicates, rejected, dropped, retries;
} lp_agent_stats;

/* Sends the spool's messages, oldest first, until stopped by SIGINT or
 * SIGTERM (or, with once, when the spool is empty or the collector cannot
 * be reached). A message leaves the spool only when the collector answered
 * 2xx, or a 4xx that resending cannot change (it moves to spool/rejected
 * with the reason beside it). While the collector is down or slow, it
 * backs off and keeps everything, within max_spool. Returns 0, or 1 with a
 * message. */
int lp_agent_run(const lp_agent_opts *o, lp_agent_stats *out);
/* (agent, continued) The signal handlers are installed for the run and the
 * previous ones restored on return, so one agent runs per process; out may
 * be NULL. Messages leave through stderr unless quiet. */

#ifdef __cplusplus
}
#endif
#endif
