/* A tiny HTTP responder for the upload tests, on 127.0.0.1 at a port the
 * kernel picks: one thread, one request per connection. It keeps what it
 * saw last (request head, body) and gives the next answer from a script: a
 * status and a JSON body, a pause before answering, or (status 0) a
 * connection closed without an answer. Only for tests: it trusts the
 * client and reads at most 128 KB of a request. */
#ifndef LP_LOOPBACK_RESPONDER_H
#define LP_LOOPBACK_RESPONDER_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct answer {
    int status;        /* 0: close without answering */
    const char *body;
    double delay_s;    /* wait before answering */
} answer;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static answer script[16];
static size_t script_len, script_pos;
static char seen_head[4096];
static uint8_t seen_body[1 << 16];
static size_t seen_body_len, requests;
static int listen_fd;
static char base_url[64];

static inline void set_script(const answer *a, size_t n)
{
    pthread_mutex_lock(&mu);
    memcpy(script, a, n * sizeof *a);
    script_len = n;
    script_pos = 0;
    requests = 0;
    pthread_mutex_unlock(&mu);
}

static inline void serve_one(int fd)
{
    char buf[1 << 17];
    size_t n = 0;
    char *end = NULL;
    while (!end && n < sizeof buf - 1) {
        ssize_t r = read(fd, buf + n, sizeof buf - 1 - n);
        if (r <= 0)
            return;
        n += (size_t)r;
        buf[n] = '\0';
        end = strstr(buf, "\r\n\r\n");
    }
    if (!end)
        return;
    size_t head = (size_t)(end - buf) + 4;
    size_t want = 0;
    const char *cl = strstr(buf, "Content-Length:");
    if (cl && cl < end)
        want = (size_t)strtoul(cl + 15, NULL, 10);
    while (n - head < want && n < sizeof buf) {
        ssize_t r = read(fd, buf + n, sizeof buf - n);
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    pthread_mutex_lock(&mu);
    answer a = script_pos < script_len ? script[script_pos++] : (answer){500, NULL, 0};
    requests++;
    memcpy(seen_head, buf, head < sizeof seen_head ? head : sizeof seen_head - 1);
    seen_head[head < sizeof seen_head ? head : sizeof seen_head - 1] = '\0';
    seen_body_len = n - head < sizeof seen_body ? n - head : sizeof seen_body;
    memcpy(seen_body, buf + head, seen_body_len);
    pthread_mutex_unlock(&mu);
    if (a.delay_s > 0) {
        struct timespec ts = {(time_t)a.delay_s, (long)((a.delay_s - (double)(time_t)a.delay_s) * 1e9)};
        nanosleep(&ts, NULL);
    }
    if (a.status == 0)
        return;
    char out[1024];
    const char *body = a.body ? a.body : "";
    int len = snprintf(out, sizeof out,
                       "HTTP/1.1 %d X\r\nContent-Type: application/json\r\n"
                       "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
                       a.status, strlen(body), body);
    if (write(fd, out, (size_t)len) < 0)
        return;
}

static inline void *responder(void *arg)
{
    (void)arg;
    for (;;) {
        int fd = accept(listen_fd, NULL, NULL);
        if (fd < 0)
            return NULL;
        serve_one(fd);
        close(fd);
    }
}

static inline int start_responder(void)
{
    listen_fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sa.sin_port = 0;
    socklen_t len = sizeof sa;
    if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
        listen(listen_fd, 16) != 0 || getsockname(listen_fd, (struct sockaddr *)&sa, &len) != 0)
        return -1;
    snprintf(base_url, sizeof base_url, "http://127.0.0.1:%u", ntohs(sa.sin_port));
    pthread_t t;
    if (pthread_create(&t, NULL, responder, NULL) != 0)
        return -1;
    pthread_detach(t);
    return 0;
}

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline int head_has(const char *line)
{
    pthread_mutex_lock(&mu);
    int yes = strstr(seen_head, line) != NULL;
    pthread_mutex_unlock(&mu);
    return yes;
}

#endif
