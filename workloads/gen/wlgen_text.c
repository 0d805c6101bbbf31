/* lowprof-wlgen: pseudo-English text.
 *
 * Compressors behave on text according to its statistics: a few short words
 * that make up much of it, a long tail of rare longer ones, recurring
 * phrases, punctuation and line structure. Uniform random letters would be
 * nothing like that, and a single repeated passage would be far too easy.
 * So: a vocabulary of pronounceable made-up words, ranked so that shorter
 * words are more frequent, drawn with Zipf weights (weight of rank r is
 * proportional to 1 / (r + 2.7)), set into sentences and paragraphs wrapped
 * at 72 columns. A topic shift re-ranks the middle of the vocabulary, as a
 * change of subject changes which content words are common. */
#include <stdlib.h>
#include <string.h>

#include "wlgen.h"

#define FUNCTION_WORDS 64 /* top ranks: fixed, never moved by a topic shift */
#define PHRASES 400       /* recurring multi-word expressions */
#define PHRASE_MAX 5

struct wl_text_model {
    char **words;  /* by rank (0 = most frequent) before topic rotation */
    uint64_t *cum; /* cumulative Zipf weights by rank */
    size_t count;
    uint32_t rotation; /* topic: rotation of ranks >= FUNCTION_WORDS */
    /* Real text repeats word sequences ("as well as", names, terms), which
     * is what gives compressors their long matches; independent draws
     * would have none. Phrases are rank lists, drawn once. */
    uint32_t phrase[PHRASES][PHRASE_MAX];
    int phrase_len[PHRASES];
};

static const char *const onsets[] = {"",   "b",  "c",  "d",  "f",  "g",  "h",  "j",  "k",
                                     "l",  "m",  "n",  "p",  "r",  "s",  "t",  "v",  "w",
                                     "y",  "z",  "th", "sh", "ch", "st", "tr", "pl", "gr",
                                     "br", "cl", "fr", "wh", "sp", "pr", "bl", "sl", "str"};
static const char *const vowels[] = {"a",  "e",  "i",  "o",  "u",  "a",  "e", "o",
                                     "ea", "ou", "ai", "ee", "oo", "ie", "y", "io"};
static const char *const codas[] = {"",   "",   "",  "",   "n",  "r",  "s",  "t",
                                    "l",  "d",  "m", "ng", "st", "nd", "rt", "ck",
                                    "th", "ss", "x", "ll", "nt", "rs", "ght"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static size_t draw_rank(const wl_text_model *m, wl_rng *r);

/* Random syllables can spell words nobody wants in a test file. */
static int unwanted(const char *w)
{
    static const char *const words[] = {"fuck", "shit",  "cunt",   "cock", "dick",  "piss",
                                        "slut", "whore", "rape",   "tits", "cum",   "fag",
                                        "ass",  "arse",  "twat",   "wank", "bitch", "porn",
                                        "sex",  "nigga", "nigger", "damn", "hell"};
    for (size_t i = 0; i < COUNT(words); i++)
        if (strcmp(w, words[i]) == 0)
            return 1;
    return 0;
}

static char *make_word(wl_rng *r, int syllables)
{
    char tmp[64];
    size_t n = 0;
again:
    n = 0;
    for (int s = 0; s < syllables; s++) {
        const char *parts[3] = {onsets[wl_rng_below(r, COUNT(onsets))],
                                vowels[wl_rng_below(r, COUNT(vowels))],
                                codas[wl_rng_below(r, COUNT(codas))]};
        /* Inner syllables rarely end in a cluster; it keeps words readable. */
        if (s + 1 < syllables && wl_rng_chance(r, 70))
            parts[2] = "";
        for (int p = 0; p < 3; p++) {
            size_t len = strlen(parts[p]);
            if (n + len < sizeof tmp - 1) {
                memcpy(tmp + n, parts[p], len);
                n += len;
            }
        }
    }
    if (n == 0)
        tmp[n++] = 'a';
    tmp[n] = '\0';
    if (unwanted(tmp))
        goto again;
    char *w = wl_xmalloc(n + 1);
    memcpy(w, tmp, n + 1);
    return w;
}

static int by_length(const void *pa, const void *pb)
{
    const char *a = *(char *const *)pa, *b = *(char *const *)pb;
    size_t la = strlen(a), lb = strlen(b);
    if (la != lb)
        return la < lb ? -1 : 1;
    return strcmp(a, b); /* total order: qsort is not stable */
}

wl_text_model *wl_text_model_create(uint64_t seed, size_t words)
{
    wl_rng r;
    wl_rng_seed(&r, seed);
    if (words < 2 * FUNCTION_WORDS)
        words = 2 * FUNCTION_WORDS;
    wl_text_model *m = wl_xcalloc(1, sizeof *m);
    m->count = words;
    m->words = wl_xcalloc(words, sizeof *m->words);
    for (size_t i = 0; i < words; i++) {
        /* Frequent words come out short: the first ranks get one syllable. */
        int syl = i < FUNCTION_WORDS ? 1 : wl_rng_range(&r, 1, i < words / 4 ? 3 : 4);
        m->words[i] = make_word(&r, syl);
    }
    /* Sort by length, then shuffle within windows, so rank correlates with
     * shortness without being a strict function of it. */
    qsort(m->words, words, sizeof *m->words, by_length);
    for (size_t i = 0; i + 1 < words; i++) {
        size_t j = i + wl_rng_below(&r, (uint32_t)(words - i < 40 ? words - i : 40));
        char *t = m->words[i];
        m->words[i] = m->words[j];
        m->words[j] = t;
    }
    m->cum = wl_xcalloc(words, sizeof *m->cum);
    uint64_t total = 0;
    for (size_t i = 0; i < words; i++) {
        total += 10000000000ULL / (10 * i + 27);
        m->cum[i] = total;
    }
    for (int p = 0; p < PHRASES; p++) {
        m->phrase_len[p] = wl_rng_range(&r, 2, PHRASE_MAX);
        for (int i = 0; i < m->phrase_len[p]; i++)
            m->phrase[p][i] = (uint32_t)draw_rank(m, &r);
    }
    return m;
}

void wl_text_model_free(wl_text_model *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->count; i++)
        free(m->words[i]);
    free(m->words);
    free(m->cum);
    free(m);
}

void wl_text_model_topic(wl_text_model *m, uint32_t topic)
{
    m->rotation = (uint32_t)((topic * 2654435761u) % (m->count - FUNCTION_WORDS));
}

static size_t draw_rank(const wl_text_model *m, wl_rng *r)
{
    uint64_t x = wl_rng_next(r) % m->cum[m->count - 1];
    size_t lo = 0, hi = m->count - 1;
    while (lo < hi) { /* first rank whose cumulative weight exceeds x */
        size_t mid = lo + (hi - lo) / 2;
        if (m->cum[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static const char *word_at(const wl_text_model *m, size_t rank)
{
    if (rank >= FUNCTION_WORDS)
        rank = FUNCTION_WORDS + (rank - FUNCTION_WORDS + m->rotation) % (m->count - FUNCTION_WORDS);
    return m->words[rank];
}

/* Appends word (and punct, if not 0) at the current column, wrapping before
 * column 72. */
static void put_word(wl_buf *out, size_t *col, const char *w, int capital, char punct)
{
    size_t len = strlen(w) + (punct ? 1 : 0);
    if (*col > 0) {
        if (*col + 1 + len > 72) {
            wl_buf_byte(out, '\n');
            *col = 0;
        } else {
            wl_buf_byte(out, ' ');
            (*col)++;
        }
    }
    if (capital && w[0] >= 'a' && w[0] <= 'z') {
        wl_buf_byte(out, (unsigned)(w[0] - 'a' + 'A'));
        wl_buf_str(out, w + 1);
    } else {
        wl_buf_str(out, w);
    }
    if (punct)
        wl_buf_byte(out, (unsigned char)punct);
    *col += len;
}

static void write_sentence(const wl_text_model *m, wl_rng *r, wl_buf *out, size_t *col)
{
    int words = wl_rng_range(r, 4, 22);
    char number[16];
    int phrase = -1, in_phrase = 0;
    for (int i = 0; i < words; i++) {
        if (phrase < 0 && wl_rng_chance(r, 12)) {
            /* Popular phrases recur more: square the uniform draw. */
            uint32_t u = wl_rng_below(r, PHRASES);
            phrase = (int)(u * u / PHRASES);
            in_phrase = 0;
        }
        const char *w;
        if (phrase >= 0) {
            w = word_at(m, m->phrase[phrase][in_phrase++]);
            if (in_phrase == m->phrase_len[phrase])
                phrase = -1;
        } else {
            w = word_at(m, draw_rank(m, r));
        }
        int capital = i == 0;
        unsigned roll = wl_rng_below(r, 1000);
        if (roll < 12) { /* numbers: years, counts, section references */
            snprintf(number, sizeof number, "%d", wl_rng_range(r, 1, 2100));
            w = number;
        } else if (roll < 20) { /* a proper noun: a word with a capital */
            capital = 1;
        }
        char punct = 0;
        if (i + 1 == words) {
            unsigned p = wl_rng_below(r, 100);
            punct = p < 90 ? '.' : p < 96 ? '?' : '!';
        } else if (wl_rng_chance(r, 9)) {
            punct = ',';
        }
        put_word(out, col, w, capital, punct);
    }
}

void wl_text_write(wl_text_model *m, wl_rng *r, wl_buf *out, size_t bytes)
{
    size_t start = out->size;
    while (out->size - start < bytes) {
        size_t col = 0;
        int sentences = wl_rng_range(r, 2, 7);
        for (int s = 0; s < sentences; s++)
            write_sentence(m, r, out, &col);
        wl_buf_str(out, "\n\n");
    }
}
