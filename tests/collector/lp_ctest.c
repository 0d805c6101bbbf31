/* Helpers of the collector's tests: see lp_ctest.h. */
#define _GNU_SOURCE /* dl_iterate_phdr, strcasestr */
#include "lp_ctest.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lowprof/trace.h"
#include "lowprof/upload.h"

/* The collectors this test started and has not stopped: a failing test
 * kills them, so no server outlives it. */
static pid_t lp_ctest_servers[16];

/* Whether pid is a child of this test still running (one a test killed
 * and reaped itself is not, and its number may be another process's). */
static int lp_ctest_live(pid_t pid)
{
    return pid > 0 && waitpid(pid, NULL, WNOHANG) == 0;
}

static void lp_ctest_forget(pid_t pid)
{
    for (size_t i = 0; i < sizeof lp_ctest_servers / sizeof *lp_ctest_servers; i++)
        if (lp_ctest_servers[i] == pid)
            lp_ctest_servers[i] = 0;
}

void lp_ctest_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    fprintf(stderr, "FAIL %s:%d: %s: ", file, line, cond);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    for (size_t i = 0; i < sizeof lp_ctest_servers / sizeof *lp_ctest_servers; i++)
        if (lp_ctest_live(lp_ctest_servers[i])) {
            kill(lp_ctest_servers[i], SIGKILL);
            waitpid(lp_ctest_servers[i], NULL, 0);
        }
    exit(1);
}

double lp_ctest_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

void lp_ctest_fresh_dir(const char *dir)
{
    char *argv[] = {"/bin/rm", "-rf", (char *)dir, NULL};
    LP_CHECK(lp_ctest_run(argv, NULL, 0) == 0, "rm -rf %s", dir);
    LP_CHECK(mkdir(dir, 0755) == 0, "mkdir %s: %s", dir, strerror(errno));
}

int lp_ctest_run(char *const argv[], char *out, size_t cap)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    size_t n = 0;
    char sink[512];
    for (;;) {
        ssize_t got = out && n + 1 < cap ? read(fds[0], out + n, cap - 1 - n)
                                         : read(fds[0], sink, sizeof sink);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        if (out && n + 1 < cap)
            n += (size_t)got;
    }
    close(fds[0]);
    if (out && cap)
        out[n] = '\0';
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* "--db" for a PostgreSQL URI, else "--data". */
static char *store_option(const char *store)
{
    return strncmp(store, "postgres", 8) == 0 ? "--db" : "--data";
}

void lp_ctest_token(const char *lowprof, const char *data, const char *project, char *token,
                    size_t cap)
{
    char out[4096];
    char *argv[] = {(char *)lowprof, "token", "create", "--project", (char *)project,
                    store_option(data), (char *)data, NULL};
    int st = lp_ctest_run(argv, out, sizeof out);
    LP_CHECK(st == 0, "lowprof token create --project %s: exit %d", project, st);
    size_t n = strlen(out);
    while (n && out[n - 1] == '\n')
        out[--n] = '\0';
    const char *last = strrchr(out, '\n');
    last = last ? last + 1 : out;
    snprintf(token, cap, "%s", last);
    LP_CHECK(strncmp(token, "lpt_", 4) == 0 && strlen(token) == 40,
             "token create printed '%s' as its last line", token);
}

pid_t lp_ctest_serve(const char *lowprof, const char *data, const char *log,
                     const char *const *extra, unsigned *out_port)
{
    char port_file[4096];
    snprintf(port_file, sizeof port_file, "%s.port", log);
    unlink(port_file);
    const char *argv[40] = {lowprof, "serve", "--listen", "127.0.0.1:0", store_option(data), data,
                            "--port-file", port_file};
    size_t n = 8;
    for (size_t i = 0; extra && extra[i] && n + 1 < sizeof argv / sizeof argv[0]; i++)
        argv[n++] = extra[i];
    argv[n] = NULL;
    pid_t pid = fork();
    LP_CHECK(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execv(lowprof, (char *const *)argv);
        _exit(127);
    }
    for (size_t i = 0; i < sizeof lp_ctest_servers / sizeof *lp_ctest_servers; i++)
        if (lp_ctest_servers[i] != pid && !lp_ctest_live(lp_ctest_servers[i])) {
            lp_ctest_servers[i] = pid;
            break;
        }
    double until = lp_ctest_ms() + 20000;
    for (;;) {
        FILE *f = fopen(port_file, "r");
        unsigned port = 0;
        if (f) {
            int ok = fscanf(f, "%u", &port) == 1;
            fclose(f);
            if (ok && port) {
                *out_port = port;
                return pid;
            }
        }
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid) {
            lp_ctest_forget(pid);
            lp_ctest_fail(__FILE__, __LINE__, "serve", "lowprof serve exited early (see %s)", log);
        }
        if (lp_ctest_ms() > until) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            lp_ctest_forget(pid);
            lp_ctest_fail(__FILE__, __LINE__, "serve", "no port file after 20 s (see %s)", log);
        }
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}

int lp_ctest_stop(pid_t pid)
{
    lp_ctest_forget(pid);
    kill(pid, SIGTERM);
    double until = lp_ctest_ms() + 20000;
    int st;
    while (waitpid(pid, &st, WNOHANG) != pid) {
        if (lp_ctest_ms() > until) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            return -1;
        }
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -2;
}

/* ---- HTTP ------------------------------------------------------------------------ */

static int send_all(int fd, const void *data, size_t size)
{
    const char *p = data;
    while (size) {
        ssize_t n = send(fd, p, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        size -= (size_t)n;
    }
    return 0;
}

/* Reads one response head (up to the blank line) into r; what follows it
 * in the buffer is left in rest. Returns 0 or -1. */
static int read_head(int fd, lp_ctest_resp *r, lp_membuf *rest)
{
    char buf[8192];
    size_t n = 0;
    for (;;) {
        char *end = n ? memmem(buf, n, "\r\n\r\n", 4) : NULL;
        if (end) {
            size_t head = (size_t)(end - buf) + 4;
            snprintf(r->headers, sizeof r->headers, "%.*s", (int)head, buf);
            r->status = 0;
            sscanf(buf, "HTTP/1.%*d %d", &r->status);
            rest->size = 0;
            lp_sink sink = lp_membuf_sink(rest);
            sink.write(sink.ctx, buf + head, n - head);
            return 0;
        }
        if (n == sizeof buf)
            return -1;
        ssize_t got = recv(fd, buf + n, sizeof buf - n, 0);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        n += (size_t)got;
    }
}

int lp_ctest_http(unsigned port, const char *method, const char *path, const char *token,
                  const void *body, size_t size, unsigned flags, lp_ctest_resp *r)
{
    memset(r, 0, sizeof *r);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct timeval tv = {30, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    char head[2048];
    int n = snprintf(head, sizeof head, "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nConnection: close\r\n",
                     method, path, port);
    if (token)
        n += snprintf(head + n, sizeof head - (size_t)n, "Authorization: Bearer %s\r\n", token);
    if (body && (flags & LP_CTEST_CHUNKED))
        n += snprintf(head + n, sizeof head - (size_t)n, "Transfer-Encoding: chunked\r\n");
    else if (body)
        n += snprintf(head + n, sizeof head - (size_t)n, "Content-Length: %zu\r\n", size);
    if (body && (flags & LP_CTEST_EXPECT))
        n += snprintf(head + n, sizeof head - (size_t)n, "Expect: 100-continue\r\n");
    if (body)
        n += snprintf(head + n, sizeof head - (size_t)n,
                      "Content-Type: application/octet-stream\r\n");
    n += snprintf(head + n, sizeof head - (size_t)n, "\r\n");
    lp_membuf rest = {0};
    int rc = -1;
    if (send_all(fd, head, (size_t)n) != 0)
        goto out;
    if (body && (flags & LP_CTEST_EXPECT)) {
        if (read_head(fd, r, &rest) != 0)
            goto out;
        if (r->status != 100) { /* answered before the body */
            body = NULL;
            goto read_body;
        }
    }
    if (body && (flags & LP_CTEST_CHUNKED)) {
        char len[32];
        int k = snprintf(len, sizeof len, "%zx\r\n", size);
        if (send_all(fd, len, (size_t)k) || send_all(fd, body, size) ||
            send_all(fd, "\r\n0\r\n\r\n", 7))
            goto out;
    } else if (body && send_all(fd, body, size) != 0) {
        goto out;
    }
    if (read_head(fd, r, &rest) != 0)
        goto out;
read_body:;
    lp_sink sink = lp_membuf_sink(&r->body);
    sink.write(sink.ctx, rest.data, rest.size);
    char buf[65536];
    for (;;) {
        ssize_t got = recv(fd, buf, sizeof buf, 0);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        sink.write(sink.ctx, buf, (size_t)got);
    }
    sink.write(sink.ctx, "", 1);
    r->body.size--;
    rc = 0;
out:
    lp_membuf_free(&rest);
    close(fd);
    return rc;
}

void lp_ctest_resp_free(lp_ctest_resp *r)
{
    lp_membuf_free(&r->body);
}

const char *lp_ctest_header(const lp_ctest_resp *r, const char *name, char *buf, size_t cap)
{
    size_t len = strlen(name);
    for (const char *line = r->headers; line && *line;) {
        if (strncasecmp(line, name, len) == 0 && line[len] == ':') {
            const char *v = line + len + 1;
            while (*v == ' ')
                v++;
            size_t k = strcspn(v, "\r\n");
            snprintf(buf, cap, "%.*s", (int)k, v);
            return buf;
        }
        line = strstr(line, "\r\n");
        if (line)
            line += 2;
    }
    return NULL;
}

/* ---- messages ---------------------------------------------------------------------- */

void __attribute__((noinline)) lp_ctest_planted_hot(void)
{
    __asm__ volatile("" ::: "memory");
}

void __attribute__((noinline)) lp_ctest_planted_cold(void)
{
    __asm__ volatile("" ::: "memory");
}

void __attribute__((noinline)) lp_ctest_planted_root(void)
{
    lp_ctest_planted_hot();
    lp_ctest_planted_cold();
}

/* The test binary's load bias, text range and GNU build id. */
typedef struct self_module {
    uint64_t bias, lo, hi;
    uint8_t id[32];
    size_t idlen;
} self_module;

static int self_phdr(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size;
    self_module *m = ctx;
    m->bias = info->dlpi_addr;
    m->lo = UINT64_MAX;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            uint64_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
            if (lo < m->lo)
                m->lo = lo;
            if (hi > m->hi)
                m->hi = hi;
        }
        if (ph->p_type != PT_NOTE)
            continue;
        const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
        const uint8_t *end = p + ph->p_memsz;
        while (p + 12 <= end) {
            uint32_t namesz, descsz, type;
            memcpy(&namesz, p, 4);
            memcpy(&descsz, p + 4, 4);
            memcpy(&type, p + 8, 4);
            const uint8_t *name = p + 12, *desc = name + ((namesz + 3) & ~3u);
            if (type == 3 && namesz == 4 && memcmp(name, "GNU", 4) == 0 && descsz <= 32) {
                memcpy(m->id, desc, descsz);
                m->idlen = descsz;
            }
            p = desc + ((descsz + 3) & ~3u);
        }
    }
    return 1; /* the first object is the executable */
}

void lp_ctest_message(lp_membuf *out, const char *program, const char *device, uint64_t seed,
                      uint64_t hot_calls, int plain, char *message_id)
{
    static self_module self;
    static char exe[4096];
    if (!exe[0]) {
        dl_iterate_phdr(self_phdr, &self);
        LP_CHECK(self.idlen > 0, "the test binary has no GNU build id");
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        LP_CHECK(n > 0, "readlink /proc/self/exe");
        exe[n] = '\0';
    }
    lp_profile_set set;
    memset(&set, 0, sizeof set);
    lp_rng rng;
    lp_rng_seed(&rng, seed * 0x9e3779b97f4a7c15ULL + 12345);
    char mid[65], insns[32];
    snprintf(mid, sizeof mid, "%016llx%016llx", (unsigned long long)lp_rng_next(&rng),
             (unsigned long long)lp_rng_next(&rng));
    snprintf(insns, sizeof insns, "%llu", (unsigned long long)(hot_calls * 20 + 1000));
    LP_CHECK(lp_meta_set(&set.meta, "program", program) == 0 &&
                 lp_meta_set(&set.meta, "device", device) == 0 &&
                 lp_meta_set(&set.meta, "message-id", mid) == 0 &&
                 lp_meta_set(&set.meta, "instructions", insns) == 0,
             "meta");
    LP_CHECK(lp_module_map_add(&set.modules, exe, self.lo, self.hi - self.lo, (int64_t)self.bias,
                               self.id, self.idlen) == 0,
             "module map");
    uint64_t hot = (uint64_t)(uintptr_t)lp_ctest_planted_hot,
             cold = (uint64_t)(uintptr_t)lp_ctest_planted_cold,
             root = (uint64_t)(uintptr_t)lp_ctest_planted_root;
    lp_profile *p;
    LP_CHECK(lp_profile_set_add(&set, LP_PROF_METHOD, LP_PHASE_NONE, &p) == 0, "add");
    lp_key k1 = {hot, 0}, k2 = {cold, 0}, k3 = {root, 0};
    lp_table_upsert(&p->table, k1)->v[0] = hot_calls;
    lp_table_upsert(&p->table, k2)->v[0] = 7;
    lp_table_upsert(&p->table, k3)->v[0] = 1;
    LP_CHECK(lp_profile_set_add(&set, LP_PROF_CALL_GRAPH, LP_PHASE_NONE, &p) == 0, "add");
    lp_key e1 = {root, hot}, e2 = {root, cold};
    lp_table_upsert(&p->table, e1)->v[0] = hot_calls;
    lp_table_upsert(&p->table, e2)->v[0] = 7;
    LP_CHECK(lp_upload_identify(&set, device) == 0, "identify");
    if (message_id)
        snprintf(message_id, 65, "%s", lp_meta_get(&set.meta, "message-id"));
    if (plain)
        LP_CHECK(lp_profile_file_write(&set, lp_membuf_sink(out)) == 0, "write");
    else
        LP_CHECK(lp_upload_pack(&set, out) == 0, "pack");
    lp_profile_set_fini(&set);
}
