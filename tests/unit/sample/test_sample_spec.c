/* sample: spec strings (parse, canonical text, errors with positions),
 * hand-filled specs, cost models and construction in caller memory. */
#include "sample_test_util.h"

static void check_round_trip(const char *text, const char *canonical)
{
    lp_compressor_spec s, again;
    size_t pos = 99;
    const char *why = "unset";
    int rc = lp_compressor_spec_parse(text, &s, &pos, &why);
    LP_CHECK(rc == 0);
    if (rc) {
        fprintf(stderr, "  %s: %s at %zu\n", text, why, pos);
        return;
    }
    LP_CHECK(why == NULL);
    LP_CHECK_EQ_U64(pos, strlen(text));
    LP_CHECK(lp_compressor_spec_check(&s, NULL) == 0);
    char buf[128];
    size_t len = lp_compressor_spec_format(&s, buf, sizeof buf);
    LP_CHECK_EQ_U64(len, strlen(canonical));
    LP_CHECK(strcmp(buf, canonical) == 0);
    if (strcmp(buf, canonical))
        fprintf(stderr, "  %s formats as %s, expected %s\n", text, buf, canonical);
    LP_CHECK(lp_compressor_spec_parse(buf, &again, NULL, NULL) == 0);
    LP_CHECK(memcmp(&s, &again, sizeof s) == 0);
}

static void test_valid(void)
{
    static const char *const same[] = {
        "R256",
        "P256",
        "D256",
        "CR256",
        "CD10",
        "CP8",
        "P1",
        "C",
        "C+A16",
        "H[P256]2048",
        "H[P256]2048/fast",
        "H[R256]2048",
        "H[CR256]2048",
        "H[D7]16",
        "H[CD7]16",
        "H[P256]1",
        "H[P512]2048+A16",
        "H[P512]2048/fast+A16/sat=1",
        "T2:256x2048w2",
        "T2:256x2048w2/fast",
        "T0:16x1w1",
        "T8:16x2w2/evict=3/replace=5",
        "T15:1024x4096w64",
        "A16",
        "A4/sat=10+A16",
        "P1073741824",
        "R3+A1",
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        check_round_trip(same[i], same[i]);
    check_round_trip("T2:256x2048w2/evict=16/replace=7", "T2:256x2048w2");
    check_round_trip("T2:256x2048w2/replace=5/fast/evict=3",
                     "T2:256x2048w2/fast/evict=3/replace=5");
    check_round_trip("A16/sat=256", "A16");
    check_round_trip("H[P256]2048+A16/sat=256", "H[P256]2048+A16");

    lp_compressor_spec s;
    LP_CHECK(lp_compressor_spec_parse("T2:256x2048w2", &s, NULL, NULL) == 0);
    LP_CHECK(s.level == LP_LEVEL_TAGGED && s.tag_bits == 2 && s.rate == 256 && s.entries == 2048 &&
             s.ways == 2 && s.hash == LP_HASH_PAPER);
    LP_CHECK_EQ_U64(s.evict_hits, 16);
    LP_CHECK_EQ_U64(s.replace_misses, LP_TAGGED_REPLACE_DEFAULT);
    LP_CHECK_EQ_U64(s.second_entries, 0);
    LP_CHECK(lp_compressor_spec_parse("H[CR256]2048/fast+A16", &s, NULL, NULL) == 0);
    LP_CHECK(s.level == LP_LEVEL_HASHED && s.sampler == LP_SAMPLER_RANDOM && s.counted == 1 &&
             s.rate == 256 && s.entries == 2048 && s.hash == LP_HASH_FAST);
    LP_CHECK(s.second_entries == 16 && s.second_saturate == LP_ASSOC_SATURATE_DEFAULT);
    LP_CHECK(lp_compressor_spec_parse("C", &s, NULL, NULL) == 0);
    LP_CHECK(s.level == LP_LEVEL_COUNTER);
    LP_CHECK(lp_compressor_spec_parse("T2:3x4w1/replace=2", &s, NULL, NULL) == 0);
    LP_CHECK_EQ_U64(s.evict_hits, 1); /* range / 16, at least 1 */
}

typedef struct bad_case {
    const char *text;
    size_t pos;
    int code;
} bad_case;

static void test_invalid(void)
{
    static const bad_case cases[] = {
        {"", 0, LP_ESPEC},
        {"X", 0, LP_ESPEC},
        {"p256", 0, LP_ESPEC},
        {"P", 1, LP_ESPEC},
        {"P0", 1, LP_EINVAL},
        {"R99999999999", 1, LP_EINVAL},
        {"P1073741825", 1, LP_EINVAL},
        {"CX", 1, LP_ESPEC},
        {"C/fast", 1, LP_ESPEC},
        {"CC", 1, LP_ESPEC},
        {"P256 ", 4, LP_ESPEC},
        {"P256x", 4, LP_ESPEC},
        {"H[P256]2000", 7, LP_EINVAL},
        {"H[P256]0", 7, LP_EINVAL},
        {"H[P256]33554432", 7, LP_EINVAL},
        {"H(P256)2048", 1, LP_ESPEC},
        {"H[P256", 6, LP_ESPEC},
        {"H[P256]", 7, LP_ESPEC},
        {"H[Q256]8", 2, LP_ESPEC},
        {"H[H[P2]2]2", 2, LP_ESPEC},
        {"H[P0]8", 3, LP_EINVAL},
        {"H[P256]2048/slow", 12, LP_ESPEC},
        {"H[P256]2048/", 12, LP_ESPEC},
        {"H[P256]2048/fast/fast", 17, LP_ESPEC},
        {"H[P256]2048/sat=3", 12, LP_ESPEC},
        {"H[P256]2048+", 12, LP_ESPEC},
        {"H[P256]2048+B4", 12, LP_ESPEC},
        {"H[P256]2048+A0", 13, LP_EINVAL},
        {"H[P256]2048+A16+A16", 15, LP_ESPEC},
        {"H[P256]2048+A16/fast", 16, LP_ESPEC},
        {"A0", 1, LP_EINVAL},
        {"A5000", 1, LP_EINVAL},
        {"A16/fast", 4, LP_ESPEC},
        {"A16/sat=0", 8, LP_EINVAL},
        {"A16/sat", 7, LP_ESPEC},
        {"T2:256x2048w3", 12, LP_EINVAL},
        {"T2:256x3000w2", 7, LP_EINVAL},
        {"T2:256x2048w128", 12, LP_EINVAL},
        {"T40:256x2048w2", 1, LP_EINVAL},
        {"T16:256x2048w2", 1, LP_EINVAL},
        {"T2:2x16w1", 3, LP_EINVAL},
        {"T2:6x16w1", 3, LP_EINVAL},
        {"T2:256x2048", 11, LP_ESPEC},
        {"T2:256:2048w2", 6, LP_ESPEC},
        {"T2x256", 2, LP_ESPEC},
        {"T:256x2048w2", 1, LP_ESPEC},
        {"T2:256x2048w2/evict=0", 20, LP_EINVAL},
        {"T2:256x2048w2/evict=257", 20, LP_EINVAL},
        {"T2:256x2048w2/evict", 19, LP_ESPEC},
        {"T2:256x2048w2/evict=x", 20, LP_ESPEC},
        {"T2:256x2048w2/replace=1", 22, LP_EINVAL},
        {"T2:256x2048w2/replace=256", 22, LP_EINVAL},
        {"T2:256x2048w2/sat=2", 14, LP_ESPEC},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lp_compressor_spec s;
        memset(&s, 0x5a, sizeof s);
        size_t pos = 12345;
        const char *why = NULL;
        int rc = lp_compressor_spec_parse(cases[i].text, &s, &pos, &why);
        int ok = rc == cases[i].code && pos == cases[i].pos && why && *why;
        LP_CHECK(ok);
        if (!ok)
            fprintf(stderr, "  \"%s\": rc %d pos %zu (%s), expected rc %d pos %zu\n", cases[i].text,
                    rc, pos, why ? why : "no reason", cases[i].code, cases[i].pos);
        unsigned char untouched = 0x5a;
        LP_CHECK(memcmp(&s, &untouched, 1) == 0); /* *out is left alone on error */
    }
    /* NULL out_pos and out_why are allowed; NULL text is an empty spec. */
    lp_compressor_spec s;
    LP_CHECK(lp_compressor_spec_parse("P0", &s, NULL, NULL) == LP_EINVAL);
    size_t pos = 7;
    LP_CHECK(lp_compressor_spec_parse(NULL, &s, &pos, NULL) == LP_ESPEC);
    LP_CHECK_EQ_U64(pos, 0);

    const char *why = NULL;
    LP_CHECK(lp_compressor_spec_parse("H[P256]2000", &s, NULL, &why) == LP_EINVAL);
    LP_CHECK(why && strstr(why, "power of two"));
    LP_CHECK(lp_compressor_spec_parse("H[P256", &s, NULL, &why) == LP_ESPEC);
    LP_CHECK(why && strstr(why, "]"));
}

static void test_hand_filled(void)
{
    lp_compressor_spec s;
    const char *why = NULL;
    memset(&s, 0, sizeof s);
    LP_CHECK(lp_compressor_spec_check(&s, &why) == LP_EINVAL);
    LP_CHECK(why && strcmp(why, "level") == 0);
    char buf[32] = "x";
    LP_CHECK_EQ_U64(lp_compressor_spec_format(&s, buf, sizeof buf), 0);
    LP_CHECK(buf[0] == '\0');
    lp_compressor *c = (lp_compressor *)&s;
    LP_CHECK(lp_compressor_create(&s, NULL, 1, NULL, NULL, &c) == LP_EINVAL);
    LP_CHECK(c == NULL);

    s.level = LP_LEVEL_SAMPLER;
    s.sampler = LP_SAMPLER_PERIODIC;
    s.rate = 0;
    LP_CHECK(lp_compressor_spec_check(&s, &why) == LP_EINVAL);
    LP_CHECK(strcmp(why, "rate") == 0);
    s.rate = 100;
    LP_CHECK(lp_compressor_spec_check(&s, &why) == 0);
    LP_CHECK(why == NULL);
    LP_CHECK_EQ_U64(lp_compressor_spec_format(&s, buf, sizeof buf), 4);
    LP_CHECK(strcmp(buf, "P100") == 0);
    s.sampler = 9;
    LP_CHECK(lp_compressor_spec_check(&s, &why) == LP_EINVAL);
    s.sampler = LP_SAMPLER_PERIODIC;
    s.second_entries = 5000;
    LP_CHECK(lp_compressor_spec_check(&s, &why) == LP_EINVAL);
    LP_CHECK(strcmp(why, "second_entries") == 0);
    s.second_entries = 16;
    s.second_saturate = 0;
    LP_CHECK(lp_compressor_spec_check(&s, &why) == LP_EINVAL);
    LP_CHECK(strcmp(why, "second_saturate") == 0);

    lp_compressor_spec t;
    LP_CHECK(lp_compressor_spec_parse("T2:256x2048w2", &t, NULL, NULL) == 0);
    t.evict_hits = 0;
    LP_CHECK(lp_compressor_spec_check(&t, &why) == LP_EINVAL);
    LP_CHECK(strcmp(why, "evict_hits") == 0);
    t.evict_hits = 16;
    t.ways = 3;
    LP_CHECK(lp_compressor_spec_check(&t, &why) == LP_EINVAL);
    LP_CHECK(strcmp(why, "ways") == 0);

    /* Truncated formatting reports the full length, like snprintf. */
    LP_CHECK(lp_compressor_spec_parse("H[P256]2048+A16", &t, NULL, NULL) == 0);
    char small[5];
    LP_CHECK_EQ_U64(lp_compressor_spec_format(&t, small, sizeof small), 15);
    LP_CHECK(strcmp(small, "H[P2") == 0);
    LP_CHECK_EQ_U64(lp_compressor_spec_format(&t, NULL, 0), 15);
}

static void test_cost_and_memory(void)
{
    lp_compressor_spec s;
    LP_CHECK(lp_compressor_spec_parse("H[P4]16", &s, NULL, NULL) == 0);
    lp_cost_model bad = {0, 214, 30};
    lp_compressor *c = NULL;
    LP_CHECK_EQ_U64(lp_compressor_footprint(&s, &bad), 0);
    LP_CHECK(lp_compressor_create(&s, &bad, 1, NULL, NULL, &c) == LP_EINVAL);
    bad.buffer_messages = (1u << 20) + 1;
    LP_CHECK(lp_compressor_create(&s, &bad, 1, NULL, NULL, &c) == LP_EINVAL);

    size_t need = lp_compressor_footprint(&s, NULL);
    LP_CHECK(need > 0);
    uint64_t *mem = malloc(need + 16);
    LP_CHECK(lp_compressor_init(mem, need - 1, &s, NULL, 1, NULL, NULL, &c) == LP_EINVAL);
    LP_CHECK(c == NULL);
    LP_CHECK(lp_compressor_init((char *)mem + 1, need, &s, NULL, 1, NULL, NULL, &c) == LP_EINVAL);
    recorder r = {0};
    LP_CHECK(lp_compressor_init(mem, need, &s, NULL, 1, recorder_fn, &r, &c) == 0);
    LP_CHECK(c == (lp_compressor *)mem);
    LP_CHECK(memcmp(lp_compressor_get_spec(c), &s, sizeof s) == 0);
    lp_tuple *t = make_stream(1000, 50, 3);
    lp_compressor_push_many(c, t, 1000);
    lp_compressor_finish(c);
    LP_CHECK_EQ_U64(recorder_sum(&r), 1000);
    lp_compressor_free(c); /* does nothing: the memory is the caller's */
    free(mem);
    lp_compressor_free(NULL);

    /* A bigger buffer means fewer interrupts for the same messages. */
    lp_cost_model big = {1000, 214, 30};
    LP_CHECK(lp_compressor_footprint(&s, &big) > need);
    free(t);
    recorder_free(&r);
}

int main(void)
{
    test_valid();
    test_invalid();
    test_hand_filled();
    test_cost_and_memory();
    return lp_test_done();
}
