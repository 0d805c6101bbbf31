/* compress: Huffman code lengths, canonical codes, decoding tables, and the
 * length/distance symbol classes. Lengths come from the textbook two-least
 * merge over a binary heap; when the tree is deeper than the format allows,
 * the frequencies are halved (keeping every used symbol at least 1) and the
 * tree rebuilt, which converges in a few rounds for real data. */
#include "compress.h"

#include <string.h>

/* ---- symbol classes --------------------------------------------------- */

static cz_class cz_len_classes[29], cz_dist_classes[30];
static uint8_t cz_len_code_of[CZ_MAX_MATCH + 1];
static uint8_t cz_dist_code_small[257], cz_dist_code_large[256];

void cz_classes_init(void)
{
    /* Lengths 3..10 one code each, then four codes per extra bit; 258 has
     * a code of its own. */
    uint16_t base = 3;
    for (int c = 0; c < 28; c++) {
        cz_len_classes[c].base = base;
        cz_len_classes[c].extra = (uint8_t)(c < 8 ? 0 : (c - 4) / 4);
        base = (uint16_t)(base + (1u << cz_len_classes[c].extra));
    }
    cz_len_classes[28].base = CZ_MAX_MATCH;
    cz_len_classes[28].extra = 0;
    for (int c = 0; c < 28; c++) {
        int top = cz_len_classes[c].base + (1 << cz_len_classes[c].extra);
        for (int len = cz_len_classes[c].base; len < top && len < CZ_MAX_MATCH; len++)
            cz_len_code_of[len] = (uint8_t)c;
    }
    cz_len_code_of[CZ_MAX_MATCH] = 28;

    /* Distances 1..4 one code each, then two codes per extra bit. */
    base = 1;
    for (int c = 0; c < 30; c++) {
        cz_dist_classes[c].base = base;
        cz_dist_classes[c].extra = (uint8_t)(c < 4 ? 0 : c / 2 - 1);
        base = (uint16_t)(base + (1u << cz_dist_classes[c].extra));
    }
    for (int c = 0; c < 30; c++) {
        uint32_t lo = cz_dist_classes[c].base, hi = lo + (1u << cz_dist_classes[c].extra);
        for (uint32_t d = lo; d < hi; d++) {
            if (d <= 256)
                cz_dist_code_small[d] = (uint8_t)c;
            else
                cz_dist_code_large[(d - 1) >> 7] = (uint8_t)c;
        }
    }
}

const cz_class *cz_length_class(int code)
{
    return &cz_len_classes[code];
}

const cz_class *cz_dist_class(int code)
{
    return &cz_dist_classes[code];
}

int cz_length_code(int len)
{
    return cz_len_code_of[len];
}

int cz_dist_code(int dist)
{
    return dist <= 256 ? cz_dist_code_small[dist] : cz_dist_code_large[(dist - 1) >> 7];
}

/* ---- tree construction ------------------------------------------------- */

typedef struct cz_node {
    uint32_t freq;
    int16_t left, right; /* -1 for a leaf */
    int16_t symbol;
    uint16_t order;      /* tie-break: creation order, so results are exact */
} cz_node;

typedef struct cz_heap {
    int16_t items[CZ_N_LITLEN];
    int count;
    const cz_node *nodes;
} cz_heap;

static int cz_node_less(const cz_heap *h, int a, int b)
{
    const cz_node *x = &h->nodes[a], *y = &h->nodes[b];
    return x->freq != y->freq ? x->freq < y->freq : x->order < y->order;
}

static void cz_heap_push(cz_heap *h, int node)
{
    int i = h->count++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!cz_node_less(h, node, h->items[parent]))
            break;
        h->items[i] = h->items[parent];
        i = parent;
    }
    h->items[i] = (int16_t)node;
}

static int cz_heap_pop(cz_heap *h)
{
    int top = h->items[0], last = h->items[--h->count], i = 0;
    for (;;) {
        int child = 2 * i + 1;
        if (child >= h->count)
            break;
        if (child + 1 < h->count && cz_node_less(h, h->items[child + 1], h->items[child]))
            child++;
        if (!cz_node_less(h, h->items[child], last))
            break;
        h->items[i] = h->items[child];
        i = child;
    }
    if (h->count > 0)
        h->items[i] = (int16_t)last;
    return top;
}

static void cz_assign_depths(const cz_node *nodes, int node, int depth, uint8_t *lengths,
                             int *max_depth)
{
    if (nodes[node].left < 0) {
        lengths[nodes[node].symbol] = (uint8_t)(depth ? depth : 1);
        if (depth > *max_depth)
            *max_depth = depth;
        return;
    }
    cz_assign_depths(nodes, nodes[node].left, depth + 1, lengths, max_depth);
    cz_assign_depths(nodes, nodes[node].right, depth + 1, lengths, max_depth);
}

/* One build; returns the deepest length. */
static int cz_build_tree(const uint32_t *freq, int n, uint8_t *lengths)
{
    cz_node nodes[2 * CZ_N_LITLEN];
    cz_heap heap = {.count = 0, .nodes = nodes};
    int n_nodes = 0;
    memset(lengths, 0, (size_t)n);
    for (int s = 0; s < n; s++) {
        if (!freq[s])
            continue;
        nodes[n_nodes] = (cz_node){freq[s], -1, -1, (int16_t)s, (uint16_t)n_nodes};
        cz_heap_push(&heap, n_nodes++);
    }
    if (n_nodes == 0)
        return 0;
    while (heap.count > 1) {
        int a = cz_heap_pop(&heap), b = cz_heap_pop(&heap);
        nodes[n_nodes] = (cz_node){nodes[a].freq + nodes[b].freq, (int16_t)a, (int16_t)b, -1,
                                   (uint16_t)n_nodes};
        cz_heap_push(&heap, n_nodes++);
    }
    int max_depth = 0;
    cz_assign_depths(nodes, heap.items[0], 0, lengths, &max_depth);
    return max_depth;
}

void cz_huff_lengths(const uint32_t *freq, int n, int max_bits, uint8_t *out_lengths)
{
    uint32_t scaled[CZ_N_LITLEN];
    memcpy(scaled, freq, sizeof(uint32_t) * (size_t)n);
    while (cz_build_tree(scaled, n, out_lengths) > max_bits) {
        for (int s = 0; s < n; s++) {
            if (scaled[s])
                scaled[s] = (scaled[s] >> 1) | 1;
        }
    }
}

static uint16_t cz_reverse_bits(uint32_t code, int len)
{
    uint32_t r = 0;
    for (int i = 0; i < len; i++) {
        r = (r << 1) | (code & 1);
        code >>= 1;
    }
    return (uint16_t)r;
}

void cz_huff_codes(const uint8_t *lengths, int n, uint16_t *out_codes)
{
    uint32_t count[CZ_MAX_BITS + 1] = {0}, next[CZ_MAX_BITS + 1];
    for (int s = 0; s < n; s++)
        count[lengths[s]]++;
    count[0] = 0;
    uint32_t code = 0;
    for (int len = 1; len <= CZ_MAX_BITS; len++) {
        code = (code + count[len - 1]) << 1;
        next[len] = code;
    }
    for (int s = 0; s < n; s++) {
        int len = lengths[s];
        out_codes[s] = len ? cz_reverse_bits(next[len]++, len) : 0;
    }
}

/* ---- decoding tables ------------------------------------------------------ */

int cz_huff_decoder_build(cz_decoder_table *t, const uint8_t *lengths, int n)
{
    memset(t, 0, sizeof *t);
    for (int s = 0; s < n; s++) {
        if (lengths[s] > CZ_MAX_BITS)
            return -1;
        t->count[lengths[s]]++;
    }
    t->count[0] = 0;
    int left = 1;
    for (int len = 1; len <= CZ_MAX_BITS; len++) {
        left = (left << 1) - t->count[len];
        if (left < 0)
            return -1; /* over-subscribed */
    }
    uint16_t offset[CZ_MAX_BITS + 2];
    offset[1] = 0;
    for (int len = 1; len <= CZ_MAX_BITS; len++)
        offset[len + 1] = (uint16_t)(offset[len] + t->count[len]);
    for (int s = 0; s < n; s++) {
        if (lengths[s])
            t->symbols[offset[lengths[s]]++] = (uint16_t)s;
    }
    /* The fast table: every 10-bit window whose low bits start a short code. */
    uint16_t codes[CZ_N_LITLEN];
    cz_huff_codes(lengths, n, codes);
    for (int s = 0; s < n; s++) {
        int len = lengths[s];
        if (len == 0 || len > 10)
            continue;
        for (uint32_t fill = codes[s]; fill < (1u << 10); fill += 1u << len)
            t->fast[fill] = (uint16_t)(s << 4 | len);
    }
    return 0;
}
