/* The stack walk's test program (check_rt.c, test "stacks"): a known call
 * structure, main -> a -> b (the hot one) and main -> c (a third of b's
 * work), and a mode that leaves garbage in rbp while the samples come.
 *
 *   stacks_prog [plain]  the call structure
 *   stacks_prog wild     the call structure, then rbp set to values a stack
 *                        walk must refuse: small numbers, a misaligned
 *                        stack address, frame records whose next record
 *                        lies on an unreadable page of the stack, below
 *                        the stack pointer or far above the stack; in the
 *                        main thread and in a thread with a stack of its
 *                        own. Built without frame pointers (x86-64).
 * Prints "done" and exits 0. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile uint64_t sink;

/* Inlined into b and c, so the samples fall in them; the empty asm keeps
 * the compiler from shortening the chain of multiplications. */
__attribute__((always_inline)) static inline uint64_t spin(uint64_t n)
{
    uint64_t x = sink + 1;
    for (uint64_t i = 0; i < n; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        __asm__ volatile("" : "+r"(x));
    }
    return x;
}

__attribute__((noinline)) void b(uint64_t n)
{
    sink = spin(n);
}

__attribute__((noinline)) void a(uint64_t n)
{
    b(n);
    sink++;
}

__attribute__((noinline)) void c(uint64_t n)
{
    sink = spin(n);
}

/* Burns CPU with bad in rbp (rbp is kept in r12 meanwhile): a SIGPROF in
 * the loop walks from bad. */
__attribute__((noinline)) static void spin_with_rbp(uint64_t bad, uint64_t n)
{
    __asm__ volatile("mov %%rbp, %%r12\n\t"
                     "mov %[bad], %%rbp\n\t"
                     "1: dec %[n]\n\t"
                     "jnz 1b\n\t"
                     "mov %%r12, %%rbp"
                     : [n] "+r"(n)
                     : [bad] "r"(bad)
                     : "r12", "cc", "memory");
}

#define WILD_SPIN 40000000ULL

/* Frame records on this stack whose chains lead where a walk must stop. */
static void wild_values(void)
{
    long page = sysconf(_SC_PAGESIZE);
    /* A record below a page made unreadable, pointing into it. */
    static const size_t span = 64 * 1024;
    volatile uint8_t area[64 * 1024];
    memset((void *)area, 0, span);
    uintptr_t lo = ((uintptr_t)area + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    uintptr_t hole = lo + 4 * (uintptr_t)page;
    uint64_t *rec = (uint64_t *)(hole - 16);
    rec[0] = hole + 64;               /* next record: on the hole */
    rec[1] = (uint64_t)(uintptr_t)&b; /* a plausible return address */
    int hole_made = mprotect((void *)hole, (size_t)page, PROT_NONE) == 0;
    uint64_t local[4] = {0, 0, 0, 0};
    uint64_t here = (uint64_t)(uintptr_t)local;
    uint64_t *rec2 = (uint64_t *)(lo + (uintptr_t)page);
    rec2[0] = here - 4096; /* next record below the first: not increasing */
    rec2[1] = (uint64_t)(uintptr_t)&b;
    uint64_t *rec3 = (uint64_t *)(lo + 2 * (uintptr_t)page);
    rec3[0] = here + (1ULL << 40); /* far above any stack */
    rec3[1] = (uint64_t)(uintptr_t)&b;
    const uint64_t bad[] = {0,
                            1,
                            0xdeadbeefULL,
                            here + 3,
                            0xffffffffff600000ULL,
                            (uint64_t)(uintptr_t)rec,
                            (uint64_t)(uintptr_t)rec2,
                            (uint64_t)(uintptr_t)rec3};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        spin_with_rbp(bad[i], WILD_SPIN);
    if (hole_made)
        mprotect((void *)hole, (size_t)page, PROT_READ | PROT_WRITE);
    sink += local[0] + area[0];
}

static void *wild_thread(void *arg)
{
    (void)arg;
    wild_values();
    return NULL;
}

int main(int argc, char **argv)
{
    int wild = argc > 1 && strcmp(argv[1], "wild") == 0;
    a(150000000ULL);
    c(50000000ULL);
    if (wild) {
        wild_values();
        /* A thread whose stack is a mapping of our own. */
        size_t size = 1 << 20;
        void *stack = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        pthread_attr_t attr;
        pthread_t t;
        if (stack == MAP_FAILED || pthread_attr_init(&attr) != 0 ||
            pthread_attr_setstack(&attr, stack, size) != 0 ||
            pthread_create(&t, &attr, wild_thread, NULL) != 0 || pthread_join(t, NULL) != 0) {
            fprintf(stderr, "stacks_prog: no thread\n");
            return 1;
        }
    }
    printf("done\n");
    return 0;
}
