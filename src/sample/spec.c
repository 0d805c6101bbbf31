/* Compressor spec strings: parsing, validation and the canonical text.
 *
 * The notation follows the paper's (R_r, P_r, CR_r, H[X]_n, A_k) written on
 * one line: "H[P256]2048+A16". The grammar is in sample.h and doc/sample.md.
 * Errors carry the 0-based position of the offending character and what was
 * expected there, so a command line can point at it. */
#include "sample_internal.h"

typedef struct lp__parser {
    const char *s;
    size_t i;
    size_t err_pos;
    const char *why;
    int err;
} lp__parser;

static int lp__fail(lp__parser *p, int code, size_t pos, const char *why)
{
    if (!p->err) {
        p->err = code;
        p->err_pos = pos;
        p->why = why;
    }
    return code;
}

static int lp__is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

/* A decimal number at p->i; *out_start is where it began. */
static int lp__number(lp__parser *p, const char *expected, uint32_t *out, size_t *out_start)
{
    size_t start = p->i;
    *out_start = start;
    if (!lp__is_digit(p->s[p->i]))
        return lp__fail(p, LP_ESPEC, start, expected);
    uint64_t v = 0;
    while (lp__is_digit(p->s[p->i])) {
        v = v * 10 + (uint64_t)(p->s[p->i] - '0');
        if (v > UINT32_MAX)
            return lp__fail(p, LP_EINVAL, start, "a number below 2^32");
        p->i++;
    }
    *out = (uint32_t)v;
    return 0;
}

static int lp__expect(lp__parser *p, char ch, const char *why)
{
    if (p->s[p->i] != ch)
        return lp__fail(p, LP_ESPEC, p->i, why);
    p->i++;
    return 0;
}

static int lp__is_pow2(uint32_t x)
{
    return x && (x & (x - 1)) == 0;
}

static int lp__range(lp__parser *p, uint32_t v, uint32_t lo, uint32_t hi, size_t pos,
                     const char *why)
{
    return v < lo || v > hi ? lp__fail(p, LP_EINVAL, pos, why) : 0;
}

/* [C] (R|D|P) r */
static int lp__sampler(lp__parser *p, lp_compressor_spec *s)
{
    if (p->s[p->i] == 'C') {
        s->counted = 1;
        p->i++;
    }
    switch (p->s[p->i]) {
    case 'R': s->sampler = LP_SAMPLER_RANDOM; break;
    case 'D': s->sampler = LP_SAMPLER_COUNTDOWN; break;
    case 'P': s->sampler = LP_SAMPLER_PERIODIC; break;
    default: return lp__fail(p, LP_ESPEC, p->i, "a sampler: R, D or P");
    }
    p->i++;
    size_t at;
    if (lp__number(p, "a sampling rate (digits)", &s->rate, &at))
        return p->err;
    return lp__range(p, s->rate, 1, LP__MAX_RATE, at, "a sampling rate from 1 to 2^30");
}

/* Options are "/name" or "/name=N"; allowed is a mask of the ones below. */
enum { LP__OPT_FAST = 1, LP__OPT_EVICT = 2, LP__OPT_REPLACE = 4, LP__OPT_SAT = 8 };

static const struct {
    const char *name;
    unsigned bit;
    int valued;
} lp__options[] = {
    {"fast", LP__OPT_FAST, 0},
    {"evict", LP__OPT_EVICT, 1},
    {"replace", LP__OPT_REPLACE, 1},
    {"sat", LP__OPT_SAT, 1},
};

static const char *lp__options_expected(unsigned allowed)
{
    switch (allowed) {
    case LP__OPT_FAST: return "an option: fast";
    case LP__OPT_SAT: return "an option: sat=N";
    default: return "an option: fast, evict=N or replace=N";
    }
}

/* Parses the options after a level; values go to *values[bit index]. */
static int lp__opts(lp__parser *p, unsigned allowed, unsigned *out_given, uint32_t values[4],
                    size_t positions[4])
{
    *out_given = 0;
    while (p->s[p->i] == '/') {
        p->i++;
        size_t name_at = p->i, len = 0;
        while (p->s[p->i + len] >= 'a' && p->s[p->i + len] <= 'z')
            len++;
        unsigned k = 0;
        for (; k < sizeof lp__options / sizeof lp__options[0]; k++) {
            const char *n = lp__options[k].name;
            size_t j = 0;
            while (j < len && n[j] == p->s[p->i + j])
                j++;
            if (j == len && n[j] == '\0' && (allowed & lp__options[k].bit))
                break;
        }
        if (k == sizeof lp__options / sizeof lp__options[0])
            return lp__fail(p, LP_ESPEC, name_at, lp__options_expected(allowed));
        if (*out_given & lp__options[k].bit)
            return lp__fail(p, LP_ESPEC, name_at, "each option at most once");
        *out_given |= lp__options[k].bit;
        p->i += len;
        if (lp__options[k].valued) {
            if (lp__expect(p, '=', "'=' and a number after the option name"))
                return p->err;
            if (lp__number(p, "a number (digits)", &values[k], &positions[k]))
                return p->err;
        }
    }
    return 0;
}

static int lp__hashed(lp__parser *p, lp_compressor_spec *s)
{
    s->level = LP_LEVEL_HASHED;
    p->i++; /* H */
    if (lp__expect(p, '[', "'[' after H") || lp__sampler(p, s) ||
        lp__expect(p, ']', "']' after the sampler"))
        return p->err;
    size_t at;
    if (lp__number(p, "the number of substreams (digits)", &s->entries, &at))
        return p->err;
    if (!lp__is_pow2(s->entries) || s->entries > LP__MAX_STRATA)
        return lp__fail(p, LP_EINVAL, at, "a power of two up to 2^24 substreams");
    unsigned given;
    uint32_t v[4] = {0};
    size_t pos[4] = {0};
    if (lp__opts(p, LP__OPT_FAST, &given, v, pos))
        return p->err;
    s->hash = (given & LP__OPT_FAST) ? LP_HASH_FAST : LP_HASH_PAPER;
    return 0;
}

static uint32_t lp__default_evict(uint32_t range)
{
    return range / 16 ? range / 16 : 1;
}

static int lp__tagged(lp__parser *p, lp_compressor_spec *s)
{
    s->level = LP_LEVEL_TAGGED;
    p->i++; /* T */
    size_t tb_at, range_at, entries_at, ways_at;
    if (lp__number(p, "the number of tag bits (digits)", &s->tag_bits, &tb_at) ||
        lp__range(p, s->tag_bits, 0, LP__MAX_TAG_BITS, tb_at, "tag bits from 0 to 15") ||
        lp__expect(p, ':', "':' after the tag bits") ||
        lp__number(p, "the hit-counter range (digits)", &s->rate, &range_at) ||
        lp__range(p, s->rate, 3, LP__MAX_RANGE, range_at, "a hit-counter range from 3 to 2^24") ||
        lp__expect(p, 'x', "'x' after the hit-counter range") ||
        lp__number(p, "the number of entries (digits)", &s->entries, &entries_at) ||
        lp__range(p, s->entries, 1, LP__MAX_STRATA, entries_at, "from 1 to 2^24 entries") ||
        lp__expect(p, 'w', "'w' after the number of entries") ||
        lp__number(p, "the associativity (digits)", &s->ways, &ways_at) ||
        lp__range(p, s->ways, 1, LP__MAX_WAYS, ways_at, "from 1 to 64 ways"))
        return p->err;
    if (s->entries % s->ways)
        return lp__fail(p, LP_EINVAL, ways_at, "a number of ways that divides the entries");
    if (!lp__is_pow2(s->entries / s->ways))
        return lp__fail(p, LP_EINVAL, entries_at, "entries / ways a power of two");
    unsigned given;
    uint32_t v[4] = {0};
    size_t pos[4] = {0};
    if (lp__opts(p, LP__OPT_FAST | LP__OPT_EVICT | LP__OPT_REPLACE, &given, v, pos))
        return p->err;
    s->hash = (given & LP__OPT_FAST) ? LP_HASH_FAST : LP_HASH_PAPER;
    s->evict_hits = (given & LP__OPT_EVICT) ? v[1] : lp__default_evict(s->rate);
    s->replace_misses = (given & LP__OPT_REPLACE) ? v[2] : LP_TAGGED_REPLACE_DEFAULT;
    if (lp__range(p, s->evict_hits, 1, s->rate, pos[1], "evict from 1 to the hit-counter range"))
        return p->err;
    uint32_t max_replace = s->rate - 1 < LP__MAX_REPLACE ? s->rate - 1 : LP__MAX_REPLACE;
    size_t rpos = (given & LP__OPT_REPLACE) ? pos[2] : range_at;
    return lp__range(p, s->replace_misses, 2, max_replace, rpos,
                     "replace from 2 to 65535 and below the hit-counter range");
}

static int lp__parse_assoc(lp__parser *p, uint32_t *out_k, uint32_t *out_sat)
{
    p->i++; /* A */
    size_t at;
    if (lp__number(p, "the number of entries (digits)", out_k, &at) ||
        lp__range(p, *out_k, 1, LP__MAX_ASSOC, at, "from 1 to 4096 entries"))
        return p->err;
    unsigned given;
    uint32_t v[4] = {0};
    size_t pos[4] = {0};
    if (lp__opts(p, LP__OPT_SAT, &given, v, pos))
        return p->err;
    *out_sat = (given & LP__OPT_SAT) ? v[3] : LP_ASSOC_SATURATE_DEFAULT;
    return lp__range(p, *out_sat, 1, LP__MAX_SATURATE, pos[3], "sat from 1 to 2^31");
}

static int lp__first(lp__parser *p, lp_compressor_spec *s)
{
    char ch = p->s[p->i], next = ch ? p->s[p->i + 1] : '\0';
    switch (ch) {
    case 'H': return lp__hashed(p, s);
    case 'T': return lp__tagged(p, s);
    case 'A': s->level = LP_LEVEL_ASSOC; return lp__parse_assoc(p, &s->entries, &s->saturate);
    case 'C':
        if (next == '\0' || next == '+') {
            s->level = LP_LEVEL_COUNTER;
            p->i++;
            return 0;
        }
        if (next != 'R' && next != 'D' && next != 'P')
            return lp__fail(p, LP_ESPEC, p->i + 1, "R, D or P after C, or C alone");
        /* fall through */
    case 'R':
    case 'D':
    case 'P': s->level = LP_LEVEL_SAMPLER; return lp__sampler(p, s);
    default:
        return lp__fail(p, LP_ESPEC, p->i, "a first level: R, D, P, CR, CD, CP, C, H[, T or A");
    }
}

int lp_compressor_spec_parse(const char *text, lp_compressor_spec *out, size_t *out_pos,
                             const char **out_why)
{
    lp__parser p = {text ? text : "", 0, 0, NULL, 0};
    lp_compressor_spec s;
    __builtin_memset(&s, 0, sizeof s);
    if (!lp__first(&p, &s)) {
        if (p.s[p.i] == '+') {
            p.i++;
            if (p.s[p.i] != 'A')
                lp__fail(&p, LP_ESPEC, p.i, "'A' after '+' (the second level is A_k)");
            else
                lp__parse_assoc(&p, &s.second_entries, &s.second_saturate);
        }
        if (!p.err && p.s[p.i] != '\0')
            lp__fail(&p, LP_ESPEC, p.i,
                     s.second_entries ? "the end of the spec" : "'+', '/' or the end of the spec");
    }
    if (p.err) {
        if (out_pos)
            *out_pos = p.err_pos;
        if (out_why)
            *out_why = p.why;
        return p.err;
    }
    *out = s;
    if (out_pos)
        *out_pos = p.i;
    if (out_why)
        *out_why = NULL;
    return 0;
}

int lp_compressor_spec_check(const lp_compressor_spec *s, const char **out_why)
{
    const char *why = NULL;
    int sampled = s->level == LP_LEVEL_SAMPLER || s->level == LP_LEVEL_HASHED;
    if (s->level < LP_LEVEL_SAMPLER || s->level > LP_LEVEL_COUNTER)
        why = "level";
    else if (sampled && (s->sampler < LP_SAMPLER_RANDOM || s->sampler > LP_SAMPLER_PERIODIC))
        why = "sampler";
    else if (sampled && s->counted > 1)
        why = "counted";
    else if (sampled && (s->rate < 1 || s->rate > LP__MAX_RATE))
        why = "rate";
    else if ((s->level == LP_LEVEL_HASHED || s->level == LP_LEVEL_TAGGED) && s->hash > LP_HASH_FAST)
        why = "hash";
    else if (s->level == LP_LEVEL_HASHED &&
             (!lp__is_pow2(s->entries) || s->entries > LP__MAX_STRATA))
        why = "entries";
    else if (s->level == LP_LEVEL_TAGGED) {
        if (s->rate < 3 || s->rate > LP__MAX_RANGE)
            why = "rate";
        else if (s->entries < 1 || s->entries > LP__MAX_STRATA)
            why = "entries";
        else if (s->ways < 1 || s->ways > LP__MAX_WAYS || s->entries % s->ways ||
                 !lp__is_pow2(s->entries / s->ways))
            why = "ways";
        else if (s->tag_bits > LP__MAX_TAG_BITS)
            why = "tag_bits";
        else if (s->evict_hits < 1 || s->evict_hits > s->rate)
            why = "evict_hits";
        else if (s->replace_misses < 2 || s->replace_misses > LP__MAX_REPLACE ||
                 s->replace_misses >= s->rate)
            why = "replace_misses";
    } else if (s->level == LP_LEVEL_ASSOC) {
        if (s->entries < 1 || s->entries > LP__MAX_ASSOC)
            why = "entries";
        else if (s->saturate < 1 || s->saturate > LP__MAX_SATURATE)
            why = "saturate";
    }
    if (!why && s->second_entries &&
        (s->second_entries > LP__MAX_ASSOC || s->second_saturate < 1 ||
         s->second_saturate > LP__MAX_SATURATE))
        why = s->second_entries > LP__MAX_ASSOC ? "second_entries" : "second_saturate";
    if (out_why)
        *out_why = why;
    return why ? LP_EINVAL : 0;
}

/* ---- canonical text ---------------------------------------------------------- */

typedef struct lp__writer {
    char *buf;
    size_t cap;
    size_t len;
} lp__writer;

static void lp__put(lp__writer *w, const char *text)
{
    for (; *text; text++, w->len++)
        if (w->len + 1 < w->cap)
            w->buf[w->len] = *text;
}

static void lp__put_u32(lp__writer *w, uint32_t v)
{
    char digits[11];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    char text[11];
    for (size_t i = 0; i < n; i++)
        text[i] = digits[n - 1 - i];
    text[n] = '\0';
    lp__put(w, text);
}

static void lp__put_sampler(lp__writer *w, const lp_compressor_spec *s)
{
    static const char *const names[] = {"", "R", "D", "P"};
    if (s->counted)
        lp__put(w, "C");
    lp__put(w, names[s->sampler]);
    lp__put_u32(w, s->rate);
}

static void lp__put_assoc(lp__writer *w, uint32_t k, uint32_t sat)
{
    lp__put(w, "A");
    lp__put_u32(w, k);
    if (sat != LP_ASSOC_SATURATE_DEFAULT) {
        lp__put(w, "/sat=");
        lp__put_u32(w, sat);
    }
}

size_t lp_compressor_spec_format(const lp_compressor_spec *s, char *buf, size_t cap)
{
    if (lp_compressor_spec_check(s, NULL)) {
        if (cap)
            buf[0] = '\0';
        return 0;
    }
    lp__writer w = {buf, cap, 0};
    switch (s->level) {
    case LP_LEVEL_SAMPLER: lp__put_sampler(&w, s); break;
    case LP_LEVEL_COUNTER: lp__put(&w, "C"); break;
    case LP_LEVEL_ASSOC: lp__put_assoc(&w, s->entries, s->saturate); break;
    case LP_LEVEL_HASHED:
        lp__put(&w, "H[");
        lp__put_sampler(&w, s);
        lp__put(&w, "]");
        lp__put_u32(&w, s->entries);
        if (s->hash == LP_HASH_FAST)
            lp__put(&w, "/fast");
        break;
    case LP_LEVEL_TAGGED:
        lp__put(&w, "T");
        lp__put_u32(&w, s->tag_bits);
        lp__put(&w, ":");
        lp__put_u32(&w, s->rate);
        lp__put(&w, "x");
        lp__put_u32(&w, s->entries);
        lp__put(&w, "w");
        lp__put_u32(&w, s->ways);
        if (s->hash == LP_HASH_FAST)
            lp__put(&w, "/fast");
        if (s->evict_hits != lp__default_evict(s->rate)) {
            lp__put(&w, "/evict=");
            lp__put_u32(&w, s->evict_hits);
        }
        if (s->replace_misses != LP_TAGGED_REPLACE_DEFAULT) {
            lp__put(&w, "/replace=");
            lp__put_u32(&w, s->replace_misses);
        }
        break;
    }
    if (s->second_entries) {
        lp__put(&w, "+");
        lp__put_assoc(&w, s->second_entries, s->second_saturate);
    }
    if (cap)
        buf[w.len < cap ? w.len : cap - 1] = '\0';
    return w.len;
}
