/* wl-bbv-phases: phase statistics of one run from Valgrind's exp-bbv output,
 * an independent check of the phase behaviour lowprof's own signatures show.
 *
 *   valgrind --tool=exp-bbv --interval-size=10000000 --bb-out-file=RUN.bb PROGRAM...
 *   wl-bbv-phases [-k THRESHOLD] RUN.bb
 *
 * exp-bbv writes one line per interval: "T" then ":id:weight" pairs, where
 * weight is the instructions executed in basic block id during the interval.
 * Each interval's vector and the whole run's (the sum of all intervals) are
 * normalised to sum 1 and compared by half the L1 distance, the measure
 * lowprof uses for its signatures (0 = the same proportions, 1 = disjoint).
 *
 * Prints one line: intervals; heterogeneity, the median over intervals of
 * the distance to the whole run (how far a typical interval is from the
 * run's average behaviour); clusters, from leader clustering at THRESHOLD
 * (default 0.1: an interval joins the first cluster whose leader is closer
 * than that, else leads a new one); transitions, consecutive intervals in
 * different clusters; returns, transitions into a cluster seen before, which
 * is what recurring phases look like.
 *
 * Basic-block vectors have thousands of dimensions (cc1 touches tens of
 * thousands of blocks per interval), so intervals are kept as sparse
 * vectors sorted by block id and compared by merging. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bb_weight {
    uint32_t id;
    uint64_t w;
} bb_weight;

typedef struct interval {
    bb_weight *v; /* sorted by id, ids unique */
    size_t n;
    uint64_t total;
} interval;

static void *xrealloc(void *p, size_t size)
{
    p = realloc(p, size ? size : 1);
    if (!p) {
        fprintf(stderr, "wl-bbv-phases: out of memory\n");
        exit(1);
    }
    return p;
}

static int by_id(const void *a, const void *b)
{
    uint32_t x = ((const bb_weight *)a)->id, y = ((const bb_weight *)b)->id;
    return x < y ? -1 : x > y;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Parses one "T:id:w :id:w ..." line into iv. Returns 0 or -1. */
static int parse_line(const char *s, interval *iv)
{
    size_t cap = 0;
    memset(iv, 0, sizeof *iv);
    s++; /* the T */
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
            s++;
        if (!*s)
            break;
        char *end;
        if (*s != ':')
            return -1;
        unsigned long id = strtoul(s + 1, &end, 10);
        if (end == s + 1 || *end != ':' || id > UINT32_MAX)
            return -1;
        s = end + 1;
        unsigned long long w = strtoull(s, &end, 10);
        if (end == s)
            return -1;
        s = end;
        if (iv->n == cap) {
            cap = cap ? 2 * cap : 64;
            iv->v = xrealloc(iv->v, cap * sizeof *iv->v);
        }
        iv->v[iv->n].id = (uint32_t)id;
        iv->v[iv->n].w = w;
        iv->n++;
        iv->total += w;
    }
    qsort(iv->v, iv->n, sizeof *iv->v, by_id);
    /* exp-bbv lists a block once per line, but merge repeats to be safe */
    size_t k = 0;
    for (size_t i = 0; i < iv->n; i++) {
        if (k > 0 && iv->v[k - 1].id == iv->v[i].id)
            iv->v[k - 1].w += iv->v[i].w;
        else
            iv->v[k++] = iv->v[i];
    }
    iv->n = k;
    return 0;
}

/* Half L1 distance between two normalised sparse vectors. */
static double distance(const interval *a, const interval *b)
{
    if (a->total == 0 || b->total == 0)
        return a->total == b->total ? 0.0 : 1.0;
    double ta = (double)a->total, tb = (double)b->total, s = 0;
    size_t i = 0, j = 0;
    while (i < a->n || j < b->n) {
        double d;
        if (j == b->n || (i < a->n && a->v[i].id < b->v[j].id))
            d = (double)a->v[i++].w / ta;
        else if (i == a->n || b->v[j].id < a->v[i].id)
            d = (double)b->v[j++].w / tb;
        else
            d = (double)a->v[i++].w / ta - (double)b->v[j++].w / tb;
        s += d < 0 ? -d : d;
    }
    return s / 2;
}

int main(int argc, char **argv)
{
    double threshold = 0.1;
    int argi = 1;
    if (argi + 1 < argc && strcmp(argv[argi], "-k") == 0) {
        char *end;
        threshold = strtod(argv[argi + 1], &end);
        if (*end || threshold <= 0 || threshold > 1) {
            fprintf(stderr, "wl-bbv-phases: -k needs a distance in (0, 1]\n");
            return 2;
        }
        argi += 2;
    }
    if (argc - argi != 1) {
        fprintf(stderr, "usage: wl-bbv-phases [-k THRESHOLD] RUN.bb\n");
        return 2;
    }
    FILE *f = fopen(argv[argi], "r");
    if (!f) {
        fprintf(stderr, "wl-bbv-phases: %s: %s\n", argv[argi], strerror(errno));
        return 1;
    }
    interval *iv = NULL;
    size_t n = 0, cap = 0, lineno = 0;
    char *line = NULL;
    size_t line_cap = 0;
    for (;;) {
        /* getline is POSIX; a manual loop keeps this plain C17 */
        size_t len = 0;
        int c;
        while ((c = getc(f)) != EOF && c != '\n') {
            if (len + 1 >= line_cap) {
                line_cap = line_cap ? 2 * line_cap : 1 << 16;
                line = xrealloc(line, line_cap);
            }
            line[len++] = (char)c;
        }
        if (c == EOF && len == 0)
            break;
        lineno++;
        if (!line)
            continue;
        line[len] = '\0';
        if (line[0] != 'T')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            iv = xrealloc(iv, cap * sizeof *iv);
        }
        if (parse_line(line, &iv[n]) != 0) {
            fprintf(stderr, "wl-bbv-phases: %s:%zu: not an exp-bbv interval line\n", argv[argi],
                    lineno);
            return 1;
        }
        n++;
    }
    fclose(f);
    free(line);
    if (n == 0) {
        fprintf(stderr, "wl-bbv-phases: %s: no intervals\n", argv[argi]);
        return 1;
    }
    /* The whole run, densely indexed by block id, then made sparse. */
    uint32_t max_id = 0;
    for (size_t t = 0; t < n; t++)
        if (iv[t].n && iv[t].v[iv[t].n - 1].id > max_id)
            max_id = iv[t].v[iv[t].n - 1].id;
    uint64_t *dense = calloc((size_t)max_id + 1, sizeof *dense);
    if (!dense) {
        fprintf(stderr, "wl-bbv-phases: out of memory\n");
        return 1;
    }
    interval whole = {NULL, 0, 0};
    for (size_t t = 0; t < n; t++)
        for (size_t i = 0; i < iv[t].n; i++)
            dense[iv[t].v[i].id] += iv[t].v[i].w;
    whole.v = xrealloc(NULL, ((size_t)max_id + 1) * sizeof *whole.v);
    for (uint32_t id = 0; id <= max_id; id++) {
        if (dense[id]) {
            whole.v[whole.n].id = id;
            whole.v[whole.n++].w = dense[id];
            whole.total += dense[id];
        }
    }
    free(dense);
    double *d = xrealloc(NULL, n * sizeof *d);
    for (size_t t = 0; t < n; t++)
        d[t] = distance(&iv[t], &whole);
    qsort(d, n, sizeof *d, by_value);
    double median = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
    size_t *leader = xrealloc(NULL, n * sizeof *leader);
    unsigned char *visited = calloc(n, 1);
    if (!visited) {
        fprintf(stderr, "wl-bbv-phases: out of memory\n");
        return 1;
    }
    size_t nclusters = 0, transitions = 0, returns = 0, prev = SIZE_MAX;
    for (size_t t = 0; t < n; t++) {
        size_t c = 0;
        while (c < nclusters && distance(&iv[t], &iv[leader[c]]) >= threshold)
            c++;
        if (c == nclusters)
            leader[nclusters++] = t;
        if (prev != SIZE_MAX && c != prev) {
            transitions++;
            returns += visited[c];
        }
        visited[c] = 1;
        prev = c;
    }
    printf("intervals %zu heterogeneity %.3f clusters %zu transitions %zu returns %zu\n", n, median,
           nclusters, transitions, returns);
    for (size_t t = 0; t < n; t++)
        free(iv[t].v);
    free(iv);
    free(whole.v);
    free(d);
    free(leader);
    free(visited);
    return 0;
}
