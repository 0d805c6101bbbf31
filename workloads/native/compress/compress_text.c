/* compress: the input, a seeded word-like text. Real text compresses
 * through repeated words and phrases; this one draws words from a made-up
 * vocabulary with a skewed frequency so that a few hundred words carry most
 * of the text, as in English. */
#include "compress.h"

#include <stdlib.h>
#include <string.h>

enum { CZ_VOCAB = 3000, CZ_WORD_MAX = 14 };

typedef struct cz_vocab {
    char words[CZ_VOCAB][CZ_WORD_MAX + 1];
    uint8_t lens[CZ_VOCAB];
} cz_vocab;

static const char *const cz_onsets[] = {
    "b", "c", "d", "f", "g", "h", "l", "m", "n", "p", "r", "s", "t", "v", "w",
    "br", "ch", "cl", "dr", "fr", "gr", "pl", "pr", "sh", "st", "th", "tr", "",
};
static const char *const cz_vowels[] = {"a", "e", "i", "o", "u", "ea", "ou", "io", "ai", "y"};
static const char *const cz_codas[] = {"", "", "n", "r", "s", "t", "nd", "ng", "st", "ll", "ck"};

#define CZ_COUNT(a) (sizeof(a) / sizeof((a)[0]))

static size_t cz_append(char *w, size_t len, const char *part)
{
    size_t n = strlen(part);
    if (len + n > CZ_WORD_MAX)
        return len;
    memcpy(w + len, part, n);
    return len + n;
}

static void cz_make_word(nw_rng *r, char *w, uint8_t *out_len)
{
    int syllables = 1 + (int)nw_rng_below(r, 3);
    size_t len = 0;
    for (int s = 0; s < syllables; s++) {
        len = cz_append(w, len, cz_onsets[nw_rng_below(r, CZ_COUNT(cz_onsets))]);
        len = cz_append(w, len, cz_vowels[nw_rng_below(r, CZ_COUNT(cz_vowels))]);
        if (s == syllables - 1 || nw_rng_below(r, 3) == 0)
            len = cz_append(w, len, cz_codas[nw_rng_below(r, CZ_COUNT(cz_codas))]);
    }
    w[len] = '\0';
    *out_len = (uint8_t)len;
}

static void cz_vocab_build(cz_vocab *v, nw_rng *r)
{
    for (int i = 0; i < CZ_VOCAB; i++)
        cz_make_word(r, v->words[i], &v->lens[i]);
}

/* A rank with probability falling roughly as 1/rank: the product of two
 * uniform draws is skewed towards small values. */
static int cz_pick_rank(nw_rng *r)
{
    uint64_t a = nw_rng_below(r, CZ_VOCAB), b = nw_rng_below(r, CZ_VOCAB);
    uint64_t c = nw_rng_below(r, CZ_VOCAB);
    return (int)(a * b * c / ((uint64_t)CZ_VOCAB * CZ_VOCAB));
}

typedef struct cz_sink {
    unsigned char *out;
    size_t pos, n;
} cz_sink;

static void cz_put(cz_sink *s, const char *text, size_t len)
{
    for (size_t i = 0; i < len && s->pos < s->n; i++)
        s->out[s->pos++] = (unsigned char)text[i];
}

static void cz_put_number(cz_sink *s, nw_rng *r)
{
    char buf[16];
    int len = 0;
    unsigned v = nw_rng_below(r, 10) < 7 ? 1 + nw_rng_below(r, 100) : 1900 + nw_rng_below(r, 130);
    char digits[12];
    int nd = 0;
    do {
        digits[nd++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (nd)
        buf[len++] = digits[--nd];
    cz_put(s, buf, (size_t)len);
}

static void cz_put_sentence(cz_sink *s, nw_rng *r, const cz_vocab *v)
{
    int words = 4 + (int)nw_rng_below(r, 14);
    for (int i = 0; i < words; i++) {
        if (i > 0) {
            const char *sep = nw_rng_below(r, 9) == 0 ? ", " : " ";
            cz_put(s, sep, strlen(sep));
        }
        if (nw_rng_below(r, 40) == 0) {
            cz_put_number(s, r);
            continue;
        }
        int k = cz_pick_rank(r);
        char w[CZ_WORD_MAX + 1];
        memcpy(w, v->words[k], (size_t)v->lens[k] + 1);
        if (i == 0 && w[0] >= 'a' && w[0] <= 'z')
            w[0] = (char)(w[0] - 'a' + 'A');
        cz_put(s, w, v->lens[k]);
    }
    static const char *const ends[] = {". ", ". ", ". ", "? ", "! ", ".\n\n"};
    const char *end = ends[nw_rng_below(r, CZ_COUNT(ends))];
    cz_put(s, end, strlen(end));
}

void cz_text_generate(uint64_t seed, unsigned char *out, size_t n)
{
    nw_rng r;
    nw_rng_seed(&r, seed);
    cz_vocab *v = nw_alloc(sizeof *v);
    cz_vocab_build(v, &r);
    cz_sink s = {out, 0, n};
    while (s.pos < n)
        cz_put_sentence(&s, &r, v);
    free(v);
}
