/* Private to src/upload: the pieces the message codec, the spool folder and
 * the agent share, exposed here so the unit tests can reach the spool's
 * bookkeeping (listing, the size limit, the drop count) without a network. */
#ifndef LP_UPLOAD_INTERNAL_H
#define LP_UPLOAD_INTERNAL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "lowprof/upload.h"

/* printf into why (cut to whycap, always terminated; why may be NULL). */
void lp__upload_why(char *why, size_t whycap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* 1 if s is lo..hi hex digits (either case), else 0. */
int lp__upload_is_hex(const char *s, size_t lo, size_t hi);

/* lp_upload_send, stopped early (LP_EIO, "interrupted") once *cancel
 * becomes non-zero; cancel may be NULL. The agent passes its stop flag so
 * SIGINT does not wait for a slow collector. */
int lp__upload_send_cancel(const char *collector, const char *token, const void *body,
                           size_t size, long timeout_ms, const volatile sig_atomic_t *cancel,
                           lp_upload_result *r);

/* ---- the spool folder ---------------------------------------------------------- */

/* One message file of a spool, as listed. */
typedef struct lp__spool_entry {
    char name[256]; /* file name inside the spool, ending in .lpmsg */
    uint64_t size;
    int64_t mtime_ns;
} lp__spool_entry;

/* Lists dir's *.lpmsg regular files, oldest first (modification time, then
 * name). *out is malloc'd (free() it; NULL when none). Returns 0 or
 * LP_EIO / LP_ENOENT / LP_ENOMEM with why. */
int lp__spool_list(const char *dir, lp__spool_entry **out, size_t *out_count, char *why,
                   size_t whycap);

/* The running count of dropped messages kept in dir/dropped (0 when the
 * file is missing or unreadable). */
uint64_t lp__spool_dropped_read(const char *dir);

/* Deletes the oldest *.lpmsg files of dir until their total size is at
 * most max_bytes (0: no limit), adds how many went to dir/dropped, and
 * stores that number in *out_dropped. Returns 0 or a negative code with
 * why. */
int lp__spool_enforce(const char *dir, uint64_t max_bytes, uint64_t *out_dropped, char *why,
                      size_t whycap);

/* Moves dir/name into dir/rejected/ with name.why beside it holding the
 * reason. Returns 0 or a negative code with why. */
int lp__spool_reject(const char *dir, const char *name, const char *reason, char *why,
                     size_t whycap);

/* Writes data to dir/name through a temporary in dir, fsync and rename,
 * then fsyncs dir, so the file is either absent or whole after a crash.
 * Returns 0 or LP_EIO with why. */
int lp__spool_write_file(const char *dir, const char *name, const void *data, size_t size,
                         char *why, size_t whycap);

#endif
