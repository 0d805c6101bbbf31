/* Helpers of the collector's tests (tests/collector): starting and
 * stopping `lowprof serve` in a temporary folder, a plain HTTP/1.1 client
 * over loopback sockets (so the tests need no curl), and messages built in
 * memory whose hottest function is known. */
#ifndef LP_CTEST_H
#define LP_CTEST_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lowprof/core.h"

/* Prints "FAIL: ..." and exits 1 unless cond. */
#define LP_CHECK(cond, ...)                                                                   \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            lp_ctest_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);                            \
        }                                                                                     \
    } while (0)

void lp_ctest_fail(const char *file, int line, const char *cond, const char *fmt, ...)
    __attribute__((format(printf, 4, 5), noreturn));

/* rm -rf dir, then mkdir dir. Exits on failure. */
void lp_ctest_fresh_dir(const char *dir);

/* Runs argv (argv[0] a path), waits; stdout captured into out (NUL-
 * terminated, at most cap - 1 bytes), stderr to the test's. Returns the
 * exit status, or -1. */
int lp_ctest_run(char *const argv[], char *out, size_t cap);

/* `lowprof token create --project P --data D`: the token (last line).
 * Here and below, a data argument starting with "postgres" is a
 * PostgreSQL URI and goes as --db. */
void lp_ctest_token(const char *lowprof, const char *data, const char *project, char *token,
                    size_t cap);

/* Starts `lowprof serve --listen 127.0.0.1:0 --data DATA --port-file F
 * [extra...]` with its output in log, waits for the port file (at most 20
 * s). extra is NULL-terminated (may be NULL). Returns the pid; *out_port. */
pid_t lp_ctest_serve(const char *lowprof, const char *data, const char *log,
                     const char *const *extra, unsigned *out_port);
/* SIGTERM, then waits at most 20 s: the exit status (-1 if it had to be
 * killed, -2 for a signal). */
int lp_ctest_stop(pid_t pid);

/* One HTTP exchange on 127.0.0.1:port with Connection: close. token may be
 * NULL (no Authorization). With expect, the body waits for the server's
 * 100 Continue (an early final answer is taken instead); with chunked, it
 * goes as one chunk without Content-Length. */
typedef struct lp_ctest_resp {
    int status; /* 0: no answer */
    char headers[4096];
    lp_membuf body; /* NUL-terminated */
} lp_ctest_resp;

enum { LP_CTEST_EXPECT = 1, LP_CTEST_CHUNKED = 2 };

int lp_ctest_http(unsigned port, const char *method, const char *path, const char *token,
                  const void *body, size_t size, unsigned flags, lp_ctest_resp *r);
void lp_ctest_resp_free(lp_ctest_resp *r);
/* The value of header name in r (case-insensitive), copied into buf; NULL if absent. */
const char *lp_ctest_header(const lp_ctest_resp *r, const char *name, char *buf, size_t cap);

/* A message of program from device with id derived from seed: the test
 * binary's own module (real path and build id), a method profile where
 * lp_ctest_planted_hot runs hot_calls times and lp_ctest_planted_cold 7
 * times, and a call graph from lp_ctest_planted_root to both. zstd-packed
 * unless plain. Returns 0 or exits. message_id (65 bytes) may be NULL. */
void lp_ctest_message(lp_membuf *out, const char *program, const char *device, uint64_t seed,
                      uint64_t hot_calls, int plain, char *message_id);

/* The planted functions (never called; their addresses are what counts). */
void lp_ctest_planted_hot(void);
void lp_ctest_planted_cold(void);
void lp_ctest_planted_root(void);

/* Monotonic milliseconds. */
double lp_ctest_ms(void);

#endif
