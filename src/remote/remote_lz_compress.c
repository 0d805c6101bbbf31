/* remote: the compressor applied to profiles before transmission
 * (remote-profiling paper, sections 4 and 5.4: compression trades device
 * computation for fewer bytes on the radio). An LZ77 coder in the family
 * of the fast byte-oriented ones: a 4096-entry hash table of the last
 * position seen for each 4-byte prefix, one candidate per position, greedy
 * matching, varint-coded commands (format in remote.h).
 *
 * Tuned for serialised profiles of a few KiB to a few MiB: sorted keys and
 * small counts make runs of similar varints, which short matches catch.
 * A match is taken only when its encoding (with the next literal-length
 * byte) is shorter than the bytes it replaces. Every step adds its operation cost to the work counters
 * (lp_remote_work). */
#include "remote_internal.h"

#define LZ_HASH_BITS 12
#define LZ_MIN_MATCH 4

static uint32_t read_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t lz_hash(uint32_t word)
{
    return (word * 2654435761u) >> (32 - LZ_HASH_BITS); /* Knuth's multiplicative hash */
}

/* A varint written costs, per byte, a store, a shift and an or, and the
 * loop's branch. */
static void count_varint(lp_remote_work *w, uint64_t v)
{
    size_t n = lp__varint_len(v);
    w->stores += n;
    w->alu += 2 * n;
    w->branches += n;
}

static int emit_literals(lp_sink out, const uint8_t *p, size_t n, lp_remote_work *w)
{
    int rc = lp__varint_write(out, n);
    if (rc == LP_OK && n)
        rc = out.write(out.ctx, p, n);
    count_varint(w, n);
    w->loads += n;
    w->stores += n;
    w->alu += n;
    w->branches += n;
    return rc;
}

static int emit_match(lp_sink out, size_t len, size_t dist, lp_remote_work *w)
{
    uint8_t b[2 * LP__VARINT_MAX];
    size_t n = lp__varint_put(b, len - LZ_MIN_MATCH);
    n += lp__varint_put(b + n, dist - 1);
    count_varint(w, len - LZ_MIN_MATCH);
    count_varint(w, dist - 1);
    return out.write(out.ctx, b, n);
}

static void add_work(lp_remote_work *dst, const lp_remote_work *w)
{
    if (!dst)
        return;
    dst->loads += w->loads;
    dst->stores += w->stores;
    dst->alu += w->alu;
    dst->branches += w->branches;
}

int lp_lz_compress(const void *src, size_t size, lp_membuf *out, lp_remote_work *work)
{
    if (size > LP_LZ_MAX_INPUT)
        return LP_EINVAL;
    const uint8_t *s = src;
    const size_t start = out->size;
    const lp_sink sink = lp_membuf_sink(out);
    lp_remote_work w = {0};
    uint32_t *table = NULL;
    int rc = lp__varint_write(sink, size);
    count_varint(&w, size);
    if (rc == LP_OK && size >= LZ_MIN_MATCH) {
        table = lp_calloc((size_t)1 << LZ_HASH_BITS, sizeof *table);
        if (!table)
            rc = LP_ENOMEM;
        w.stores += (size_t)1 << LZ_HASH_BITS; /* clearing it */
        w.branches += (size_t)1 << LZ_HASH_BITS;
    }
    size_t lit = 0, i = 0;
    const size_t last = size >= LZ_MIN_MATCH ? size - LZ_MIN_MATCH : 0;
    while (rc == LP_OK && table && i <= last) {
        uint32_t word = read_le32(s + i);
        uint32_t h = lz_hash(word);
        uint32_t cand = table[h];
        table[h] = (uint32_t)i + 1;
        w.loads += 2; /* the word, the table slot */
        w.alu += 2;   /* multiply, shift */
        w.stores += 1;
        w.branches += 2; /* loop, candidate test */
        if (cand) {
            size_t c = cand - 1;
            w.loads++;
            w.alu++;
            w.branches++;
            if (read_le32(s + c) == word) {
                size_t len = LZ_MIN_MATCH;
                while (i + len < size && s[c + len] == s[i + len]) {
                    len++;
                    w.loads += 2;
                    w.alu += 2; /* compare, increment */
                    w.branches++;
                }
                w.branches++; /* the failing test */
                size_t dist = i - c;
                size_t cost = lp__varint_len(len - LZ_MIN_MATCH) + lp__varint_len(dist - 1) + 1;
                w.alu += 4;
                w.branches++;
                if (cost < len) {
                    rc = emit_literals(sink, s + lit, i - lit, &w);
                    if (rc == LP_OK)
                        rc = emit_match(sink, len, dist, &w);
                    /* Remember the positions inside the match too, so the
                     * next repeat can start anywhere in it. */
                    for (size_t j = i + 1; j < i + len && j <= last; j++) {
                        table[lz_hash(read_le32(s + j))] = (uint32_t)j + 1;
                        w.loads++;
                        w.alu += 2;
                        w.stores++;
                        w.branches++;
                    }
                    i += len;
                    lit = i;
                    continue;
                }
            }
        }
        i++;
        w.alu++;
    }
    if (rc == LP_OK && lit < size)
        rc = emit_literals(sink, s + lit, size - lit, &w);
    lp_free(table);
    if (rc < 0) {
        out->size = start;
        return rc;
    }
    add_work(work, &w);
    return LP_OK;
}
