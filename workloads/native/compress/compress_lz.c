/* compress: LZ77 match finding with hash chains over a 32 KiB window, and
 * one step of lazy evaluation (a match is deferred when the next position
 * has a longer one). Tuned for text: 3-byte hashes, chains cut at
 * max_chain candidates, and a "good enough" length that stops the walk. */
#include "compress.h"

#include <stdlib.h>

enum { CZ_HASH_BITS = 15, CZ_GOOD_ENOUGH = 64, CZ_LAZY_LIMIT = 32 };

struct cz_matcher {
    uint32_t head[1 << CZ_HASH_BITS]; /* position + 1, 0 for none */
    uint32_t prev[CZ_WINDOW];
    size_t next_insert;
    int max_chain, lazy;
};

cz_matcher *cz_matcher_create(int max_chain, int lazy)
{
    cz_matcher *m = nw_zalloc(1, sizeof *m);
    m->max_chain = max_chain;
    m->lazy = lazy;
    return m;
}

void cz_matcher_free(cz_matcher *m)
{
    free(m);
}

static uint32_t cz_hash3(const unsigned char *p)
{
    uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
    return (v * 2654435761u) >> (32 - CZ_HASH_BITS);
}

static void cz_insert(cz_matcher *m, const unsigned char *in, size_t pos)
{
    uint32_t h = cz_hash3(in + pos);
    m->prev[pos & (CZ_WINDOW - 1)] = m->head[h];
    m->head[h] = (uint32_t)pos + 1;
}

/* Inserts every position before target that has three bytes to hash. */
static void cz_insert_upto(cz_matcher *m, const unsigned char *in, size_t end, size_t target)
{
    size_t last = end >= CZ_MIN_MATCH ? end - CZ_MIN_MATCH + 1 : 0;
    if (target > last)
        target = last;
    while (m->next_insert < target)
        cz_insert(m, in, m->next_insert++);
}

static size_t cz_match_length(const unsigned char *a, const unsigned char *b, size_t limit)
{
    size_t n = 0;
    while (n < limit && a[n] == b[n])
        n++;
    return n;
}

typedef struct cz_match {
    size_t len, dist;
} cz_match;

static cz_match cz_find(cz_matcher *m, const unsigned char *in, size_t pos, size_t end)
{
    cz_match best = {0, 0};
    cz_insert_upto(m, in, end, pos);
    if (end - pos < CZ_MIN_MATCH)
        return best;
    size_t limit = end - pos < CZ_MAX_MATCH ? end - pos : CZ_MAX_MATCH;
    uint32_t cand = m->head[cz_hash3(in + pos)];
    int chain = m->max_chain;
    while (cand && chain-- > 0) {
        size_t c = cand - 1;
        if (pos - c > CZ_WINDOW)
            break;
        /* The byte past the best length decides most candidates cheaply. */
        if (in[c + best.len] == in[pos + best.len]) {
            size_t len = cz_match_length(in + c, in + pos, limit);
            if (len > best.len) {
                best.len = len;
                best.dist = pos - c;
                if (len >= limit || len >= CZ_GOOD_ENOUGH)
                    break;
            }
        }
        uint32_t next = m->prev[c & (CZ_WINDOW - 1)];
        if (next >= cand)
            break;
        cand = next;
    }
    if (best.len < CZ_MIN_MATCH || (best.len == CZ_MIN_MATCH && best.dist > 4096))
        best.len = 0;
    return best;
}

static cz_token cz_literal(unsigned char b)
{
    cz_token t = {0, b};
    return t;
}

static cz_token cz_reference(const cz_match *mt)
{
    cz_token t = {(uint16_t)mt->len, (uint16_t)(mt->dist - 1)};
    return t;
}

size_t cz_matcher_parse(cz_matcher *m, const unsigned char *in, size_t start, size_t end,
                        cz_token *out, size_t cap, size_t *out_count)
{
    size_t pos = start, count = 0;
    while (pos < end && count < cap) {
        cz_match mt = cz_find(m, in, pos, end);
        if (mt.len == 0) {
            out[count++] = cz_literal(in[pos++]);
            continue;
        }
        if (m->lazy && mt.len < CZ_LAZY_LIMIT && pos + 1 < end) {
            cz_match next = cz_find(m, in, pos + 1, end);
            if (next.len > mt.len) {
                out[count++] = cz_literal(in[pos++]);
                continue;
            }
        }
        out[count++] = cz_reference(&mt);
        pos += mt.len;
    }
    *out_count = count;
    return pos;
}
