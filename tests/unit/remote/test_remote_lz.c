/* remote: the LZ coder: round trips on random, repetitive, empty and tiny
 * inputs; real compression of repetitive data; work counters that are
 * non-zero and grow with the input; the decompressor's refusals of
 * malformed blocks. */
#include <stdlib.h>
#include <string.h>

#include "lowprof/remote.h"
#include "../lp_test.h"

static uint64_t lcg(uint64_t *x)
{
    *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
    return *x >> 33;
}

enum { RANDOM, TEXT, ZEROS, PROFILE };

static uint8_t *make_input(int kind, size_t n, uint64_t seed)
{
    uint8_t *b = malloc(n ? n : 1);
    uint64_t x = seed;
    const char *phrase = "the phase tracker classifies each interval; ";
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case RANDOM: b[i] = (uint8_t)lcg(&x); break;
        case TEXT: b[i] = (uint8_t)phrase[i % strlen(phrase)]; break;
        case ZEROS: b[i] = 0; break;
        default: /* records that repeat with a field that changes: a block of
                    32 bytes fixed by the seed, its first byte counting up */
            b[i] = (uint8_t)(i % 32 == 0 ? i / 32 : (seed * 131 + i % 32 * 17) % 251);
        }
    }
    return b;
}

static size_t round_trip(int kind, size_t n, lp_remote_work *cw, lp_remote_work *dw)
{
    uint8_t *in = make_input(kind, n, n + 1);
    lp_membuf packed = {0}, back = {0};
    LP_CHECK(lp_lz_compress(n ? in : NULL, n, &packed, cw) == 0);
    LP_CHECK(lp_lz_decompress(packed.data, packed.size, n, &back, dw) == 0);
    LP_CHECK_EQ_U64(back.size, n);
    LP_CHECK(n == 0 || memcmp(back.data, in, n) == 0);
    if (n > 0) /* one byte less than declared is refused before decoding */
        LP_CHECK(lp_lz_decompress(packed.data, packed.size, n - 1, &back, NULL) == LP_ELIMIT);
    size_t size = packed.size;
    lp_membuf_free(&packed);
    lp_membuf_free(&back);
    free(in);
    return size;
}

static void test_round_trips(void)
{
    const size_t sizes[] = {0, 1, 2, 3, 4, 5, 7, 64, 1000, 4096, 65537, 300000};
    for (int kind = RANDOM; kind <= PROFILE; kind++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            lp_remote_work cw = {0}, dw = {0};
            size_t packed = round_trip(kind, sizes[i], &cw, &dw);
            /* Never much larger than the input, whatever it is. */
            LP_CHECK(packed <= sizes[i] + 2 * 10 + 1);
        }
    /* Empty: just the size. */
    lp_membuf m = {0};
    LP_CHECK(lp_lz_compress(NULL, 0, &m, NULL) == 0);
    LP_CHECK_EQ_U64(m.size, 1);
    lp_membuf_free(&m);
    /* Appends after what the buffer holds. */
    lp_membuf two = {0};
    LP_CHECK(lp_lz_compress("ab", 2, &two, NULL) == 0);
    size_t first = two.size;
    LP_CHECK(lp_lz_compress("cd", 2, &two, NULL) == 0);
    LP_CHECK_EQ_U64(two.size, 2 * first);
    lp_membuf out = {0};
    LP_CHECK(lp_lz_decompress(two.data + first, first, 2, &out, NULL) == 0);
    LP_CHECK(out.size == 2 && memcmp(out.data, "cd", 2) == 0);
    lp_membuf_free(&two);
    lp_membuf_free(&out);
}

static void test_ratio(void)
{
    lp_remote_work cw = {0}, dw = {0};
    LP_CHECK(round_trip(ZEROS, 100000, &cw, &dw) < 100);
    LP_CHECK(round_trip(TEXT, 65536, &cw, &dw) < 65536 / 50);
    LP_CHECK(round_trip(PROFILE, 65536, &cw, &dw) < 65536 * 3 / 4);
    LP_CHECK(round_trip(RANDOM, 65536, &cw, &dw) > 65536); /* incompressible */
}

static int work_less(const lp_remote_work *a, const lp_remote_work *b)
{
    return a->loads < b->loads && a->stores < b->stores && a->alu < b->alu &&
           a->branches < b->branches;
}

static void test_work(void)
{
    const size_t sizes[] = {1, 16, 256, 4096, 65536, 262144};
    for (int kind = RANDOM; kind <= PROFILE; kind++) {
        lp_remote_work prev_c = {0}, prev_d = {0};
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            lp_remote_work cw = {0}, dw = {0};
            round_trip(kind, sizes[i], &cw, &dw);
            LP_CHECK(cw.loads && cw.stores && cw.alu && cw.branches);
            LP_CHECK(dw.loads && dw.stores && dw.alu && dw.branches);
            LP_CHECK(work_less(&prev_c, &cw));
            LP_CHECK(work_less(&prev_d, &dw));
            prev_c = cw;
            prev_d = dw;
        }
    }
    /* Counters accumulate across calls. */
    lp_remote_work w = {0};
    lp_membuf m = {0};
    lp_lz_compress("abcdabcdabcd", 12, &m, &w);
    lp_remote_work once = w;
    lp_lz_compress("abcdabcdabcd", 12, &m, &w);
    LP_CHECK_EQ_U64(w.loads, 2 * once.loads);
    LP_CHECK_EQ_U64(w.branches, 2 * once.branches);
    lp_membuf_free(&m);
}

static void test_refusals(void)
{
    lp_membuf out = {0};
    /* size 8, no literals, a copy from before the start */
    const uint8_t before_start[] = {8, 0, 4, 0};
    LP_CHECK(lp_lz_decompress(before_start, sizeof before_start, 100, &out, NULL) == LP_EFORMAT);
    /* size 8, 2 literals, a copy of 4 + 4 = 8 bytes: past the size */
    const uint8_t past_size[] = {8, 2, 'a', 'b', 4, 1};
    LP_CHECK(lp_lz_decompress(past_size, sizeof past_size, 100, &out, NULL) == LP_EFORMAT);
    /* size 6, 2 literals, copy 4 from 2 back (overlapping): fine */
    const uint8_t overlap[] = {6, 2, 'a', 'b', 0, 1};
    LP_CHECK(lp_lz_decompress(overlap, sizeof overlap, 100, &out, NULL) == 0);
    LP_CHECK(out.size == 6 && memcmp(out.data, "ababab", 6) == 0);
    out.size = 0;
    /* literals running past the block */
    const uint8_t short_lits[] = {5, 5, 'a', 'b'};
    LP_CHECK(lp_lz_decompress(short_lits, sizeof short_lits, 100, &out, NULL) == LP_ETRUNC);
    /* more literals than the declared size */
    const uint8_t too_many[] = {1, 2, 'a', 'b'};
    LP_CHECK(lp_lz_decompress(too_many, sizeof too_many, 100, &out, NULL) == LP_EFORMAT);
    /* bytes after the end */
    const uint8_t trailing[] = {1, 1, 'a', 0};
    LP_CHECK(lp_lz_decompress(trailing, sizeof trailing, 100, &out, NULL) == LP_EFORMAT);
    /* an overlong varint */
    const uint8_t overlong[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
    LP_CHECK(lp_lz_decompress(overlong, sizeof overlong, 100, &out, NULL) == LP_EFORMAT);
    /* a block that stops inside a command */
    const uint8_t cut[] = {9, 1, 'a'};
    LP_CHECK(lp_lz_decompress(cut, sizeof cut, 100, &out, NULL) == LP_ETRUNC);
    LP_CHECK(lp_lz_decompress(cut, 0, 100, &out, NULL) == LP_ETRUNC);
    LP_CHECK_EQ_U64(out.size, 0); /* failures leave nothing behind */
    lp_membuf_free(&out);
}

int main(void)
{
    test_round_trips();
    test_ratio();
    test_work();
    test_refusals();
    return lp_test_done();
}
