/* Workload drivers: what the drivers share.
 *
 * A driver runs several operations of one of Debian's libraries in a single
 * process, as SPEC's harnesses do (SPEC CPU's bzip2 compresses and
 * decompresses its input at several block sizes in one run): a program whose
 * command line allows one operation per run would otherwise be a single
 * phase of a single mode. Each driver reads its input once, runs every
 * operation named on its command line in order, verifies each round trip
 * and prints one line per operation. Errors print the operation and the
 * library's code and exit 1; a bad command line exits 2. */
#ifndef WL_DRIVER_H
#define WL_DRIVER_H

#include <stddef.h>

/* Reads path whole into a malloc'd buffer; exits 1 with a message on error.
 * prog names the driver in messages. */
unsigned char *wl_drv_read_file(const char *prog, const char *path, size_t *out_size);

/* malloc that exits 1 with a message on failure. */
void *wl_drv_xmalloc(const char *prog, size_t size);

/* Prints "PROG: message" to stderr and exits with code. */
void wl_drv_die(const char *prog, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));

/* A checksum of a buffer (FNV-1a, 32-bit) for the one-line reports, so two
 * runs can be compared by their output. */
unsigned long wl_drv_fnv32(const unsigned char *data, size_t size);

#endif
