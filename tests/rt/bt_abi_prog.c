/* The bursty checks' ABI used by hand (check_rt's bursty-abi test): what
 * `lowprof cc --profiles=bursty:P` compiles into a program, written out in
 * C and compiled with a plain compiler, so the runtime's half is tested
 * on its own with counts known by construction.
 *
 * usage: bt_abi_prog CHECKS [THREAD-CHECKS [fork CHILD-CHECKS]]
 *
 * work(n) runs n checks, one per iteration. An iteration the check sent to
 * the instrumented copy reports one reference whose address moves
 * (noise) and walks a planted 20-node list, each node's reference from a
 * call site of its own (site0 .. site19, so the 20 pcs differ); every
 * iteration calls callee() i % 3 times, which reports its entry in the
 * instrumented copy. Now and then, in the checking code, stray() and
 * stray_enter() report a reference and an entry while the thread's mode
 * is checking, as a return into the instrumented copy would: the runtime
 * must not record them.
 *
 * With THREAD-CHECKS a second thread runs work(THREAD-CHECKS) while the
 * main thread runs work(CHECKS). With fork, the main thread runs
 * work(CHECKS), forks a child that runs work(CHILD-CHECKS) and exits, and
 * runs work(THREAD-CHECKS) after it. Prints, for the work of this process,
 * "calls C instrumented K": callee()'s calls and the iterations run
 * instrumented (the fork child first prints "child pid P calls C
 * instrumented K" for its own). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The ABI (doc/runtime.md, "Bursty checks"). */
extern __thread uint64_t lp__bt_n __attribute__((tls_model("initial-exec")));
extern __thread int32_t lp__bt_mode __attribute__((tls_model("initial-exec")));
int32_t lp__bt_slow(void);
void lp__bt_ref(const void *addr);
void lp__bt_enter(const void *ra);

/* What a compiled module puts into the section: its placement's name. */
__attribute__((section("__lp_bursty"), used)) static const char pl[] = "orig";

#define INSTRUMENTED 1
#define NODES 20

typedef struct node {
    struct node *next;
    long pad[7];
} node;

static node nodes[NODES];
static node *head;
static unsigned char noise_buf[1 << 20];
static __thread volatile uint64_t sink; /* per thread: no shared line, no race */

/* One reference per call site: the asm keeps the call from becoming a
 * tail jump, whose return address would be the caller's. */
/* clang-format off */
#define SITE(k)                                                                                    \
    __attribute__((noinline)) static void site##k(const void *p)                                   \
    {                                                                                              \
        lp__bt_ref(p);                                                                             \
        __asm__ volatile("" ::: "memory");                                                         \
    }
SITE(0) SITE(1) SITE(2) SITE(3) SITE(4) SITE(5) SITE(6) SITE(7) SITE(8) SITE(9)
SITE(10) SITE(11) SITE(12) SITE(13) SITE(14) SITE(15) SITE(16) SITE(17) SITE(18) SITE(19)

static void (*const sites[NODES])(const void *) = {
    site0,  site1,  site2,  site3,  site4,  site5,  site6,  site7,  site8,  site9,
    site10, site11, site12, site13, site14, site15, site16, site17, site18, site19};
/* clang-format on */

__attribute__((noinline)) static void noise(const void *p)
{
    lp__bt_ref(p);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void stray(const void *p)
{
    lp__bt_ref(p);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void walk(void)
{
    int k = 0;
    for (const node *p = head; p; p = p->next, k++)
        sites[k](p);
}

/* Its instrumented copy reports its entry; the checking copy does not. */
__attribute__((noinline)) static void callee(int mode)
{
    if (mode == INSTRUMENTED)
        lp__bt_enter(__builtin_return_address(0));
    sink++;
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void stray_enter(void)
{
    lp__bt_enter(__builtin_return_address(0));
    sink++;
    __asm__ volatile("" ::: "memory");
}

typedef struct result {
    uint64_t calls, instrumented;
} result;

__attribute__((noinline)) static void work(uint64_t n, result *r)
{
    for (uint64_t i = 0; i < n; i++) {
        /* The check, as compiled: decrement nCheck, the rest when it
         * reaches 0. */
        int mode = 0;
        if (--lp__bt_n == 0)
            mode = lp__bt_slow();
        if (mode == INSTRUMENTED) {
            r->instrumented++;
            noise(&noise_buf[i % sizeof noise_buf]);
            walk();
        } else if (i % 1000 == 500) {
            stray(&noise_buf[i % sizeof noise_buf]);
            stray_enter();
        }
        for (uint64_t k = 0; k < i % 3; k++)
            callee(mode);
        r->calls += i % 3;
    }
}

typedef struct job {
    uint64_t n;
    result r;
} job;

static void *thread_main(void *arg)
{
    job *j = arg;
    work(j->n, &j->r);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    /* A planted order, not the array's: node i follows node (7 i) % 20. */
    for (int i = 0; i < NODES; i++)
        nodes[(7 * i) % NODES].next = i + 1 < NODES ? &nodes[(7 * (i + 1)) % NODES] : NULL;
    head = &nodes[0];
    uint64_t n = strtoull(argv[1], NULL, 10);
    result total = {0, 0};
    if (argc >= 5 && strcmp(argv[3], "fork") == 0) {
        work(n, &total);
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0)
            return 1;
        if (pid == 0) {
            result child = {0, 0};
            work(strtoull(argv[4], NULL, 10), &child);
            printf("child pid %d calls %llu instrumented %llu\n", (int)getpid(),
                   (unsigned long long)child.calls, (unsigned long long)child.instrumented);
            return 0;
        }
        int st;
        if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            return 1;
        work(strtoull(argv[2], NULL, 10), &total);
    } else if (argc >= 3) {
        job j = {strtoull(argv[2], NULL, 10), {0, 0}};
        pthread_t t;
        if (pthread_create(&t, NULL, thread_main, &j) != 0)
            return 1;
        work(n, &total);
        pthread_join(t, NULL);
        total.calls += j.r.calls;
        total.instrumented += j.r.instrumented;
    } else {
        work(n, &total);
    }
    printf("calls %llu instrumented %llu\n", (unsigned long long)total.calls,
           (unsigned long long)total.instrumented);
    return 0;
}
