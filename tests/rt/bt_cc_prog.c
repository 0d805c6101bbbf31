/* A program whose bursty-tracing figures are known, for lowprof cc
 * --profiles=bursty (check_rt's bursty-cc test): main's loop calls leaf()
 * CALLS times and walk() WALKS times; walk() follows an 8-node list, five
 * references a node (value, weight, count read and written, next), so
 * each walk is the same 40 references: the run's hot data stream. With
 * placement orig the checks are main's entry, main's back-edge (CALLS),
 * leaf's and walk's entries (CALLS + WALKS) and walk's back-edge (8 a
 * walk); EC+L4 keeps main's entry and the two back-edges, since leaf and
 * walk call nothing and walk's loop, with 5 references, is not 4-boring. */
#include <stdio.h>

#define CALLS 200000
#define WALKS 50000
#define NODES 8

struct node {
    struct node *next;
    long value, weight, count;
};

static struct node nodes[NODES];

__attribute__((noinline)) static long leaf(long x)
{
    return x * 3 + 1;
}

__attribute__((noinline)) static long walk(struct node *n)
{
    long s = 0;
    for (; n; n = n->next) {
        s += n->value * n->weight;
        n->count++;
    }
    return s;
}

int main(void)
{
    for (int i = 0; i < NODES; i++) {
        nodes[i].next = i + 1 < NODES ? &nodes[i + 1] : NULL;
        nodes[i].value = i;
        nodes[i].weight = 2 * i + 1;
    }
    long s = 0;
    for (int r = 0; r < CALLS; r++) {
        s += leaf(r);
        if (r % (CALLS / WALKS) == 0)
            s += walk(nodes);
    }
    printf("bt_cc_prog: %ld %ld\n", s, nodes[NODES - 1].count);
    return 0;
}
