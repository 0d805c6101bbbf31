/* A program whose bursty-tracing figures are known: leaf() is called
 * exactly CALLS times, spread evenly over the run, and walk() follows a
 * 20-node list (a 40-reference hot data stream: each node's value and its
 * next pointer) WALKS times, each followed by a few scattered loads. The
 * walks make most of the run's data references, so they are its hot
 * streams. Built with -O1 -fno-inline so every function is entered by a
 * call. */
#include <stdio.h>

#define CALLS 200000
#define WALKS 50000
#define NODES 20

struct node {
    struct node *next;
    long value;
};

static volatile long sink;

__attribute__((noinline)) static long leaf(long x)
{
    return x * 3 + 1;
}

__attribute__((noinline)) static long walk(const struct node *n)
{
    long s = 0;
    for (; n; n = n->next)
        s += n->value;
    return s;
}

__attribute__((noinline)) static long scatter(const long *a, unsigned seed)
{
    long s = 0;
    for (int i = 0; i < 8; i++) {
        seed = seed * 1103515245u + 12345u;
        s += a[seed % 65536];
    }
    return s;
}

int main(void)
{
    static struct node nodes[NODES];
    static long noise[65536];
    for (int i = 0; i < NODES; i++) {
        nodes[i].next = i + 1 < NODES ? &nodes[i + 1] : NULL;
        nodes[i].value = i;
    }
    long s = 0;
    for (int r = 0; r < CALLS; r++) {
        s += leaf(r);
        if (r % (CALLS / WALKS) == 0) {
            s += walk(nodes);
            s += scatter(noise, (unsigned)r);
        }
    }
    sink = s;
    printf("bursty_prog: %ld\n", s);
    return 0;
}
