/* hps: the ACF lexer, the language's vocabulary (class, op and handler
 * names) and the small text helpers the parser's messages and the printer
 * use in place of libc.
 *
 * Implements the token level of the production language of paper 000,
 * section 3.3 (Fig. 5) as doc/acf.md writes it down: one statement per line,
 * '#' and '//' comments, four spellings of the arrow (ASCII and the two
 * Unicode arrows the paper prints). Tuned for nothing: ACFs are a few
 * dozen lines, read once. */
#include "acf_lex.h"

void lp__acf_lexer_init(lp__acf_lexer *lx, const char *text, size_t len)
{
    lx->text = text;
    lx->len = text ? len : 0;
    lx->pos = 0;
    lx->line_start = 0;
    lx->line = 1;
    /* A byte order mark some editors write; columns still count it. */
    if (lx->len >= 3 && (uint8_t)text[0] == 0xef && (uint8_t)text[1] == 0xbb &&
        (uint8_t)text[2] == 0xbf)
        lx->pos = 3;
}

static int lp__is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int lp__is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static char lp__lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Does the text at pos start with the bytes of z? */
static int lp__at(const lp__acf_lexer *lx, size_t pos, const char *z)
{
    for (size_t i = 0; z[i]; i++)
        if (pos + i >= lx->len || lx->text[pos + i] != z[i])
            return 0;
    return 1;
}

/* Punctuation, longest first so that "->" is not read as '-' then '>'. */
static const struct {
    const char *text;
    lp__acf_tok_kind kind;
    unsigned cmp;
} lp__punct[] = {
    {"\xe2\x86\x92", LP__TOK_ARROW, 0}, /* U+2192 in UTF-8 */
    {"\xe2\x87\x92", LP__TOK_ARROW, 0}, /* U+21D2 */
    {"->", LP__TOK_ARROW, 0},
    {"=>", LP__TOK_ARROW, 0},
    {"==", LP__TOK_CMP, LP__HPS_EQ},
    {"!=", LP__TOK_CMP, LP__HPS_NE},
    {"<=", LP__TOK_CMP, LP__HPS_LE},
    {">=", LP__TOK_CMP, LP__HPS_GE},
    {"&&", LP__TOK_AND, 0},
    {"||", LP__TOK_OR, 0},
    {"<", LP__TOK_CMP, LP__HPS_LT},
    {">", LP__TOK_CMP, LP__HPS_GT},
    {"=", LP__TOK_ASSIGN, 0},
    {"!", LP__TOK_NOT, 0},
    {":", LP__TOK_COLON, 0},
    {"(", LP__TOK_LPAREN, 0},
    {")", LP__TOK_RPAREN, 0},
    {",", LP__TOK_COMMA, 0},
    {";", LP__TOK_SEMI, 0},
};

void lp__acf_lex(lp__acf_lexer *lx, lp__acf_tok *out)
{
    const char *t = lx->text;
    size_t n = lx->len, p = lx->pos;
    while (p < n && (t[p] == ' ' || t[p] == '\t' || t[p] == '\r' || t[p] == '\f' || t[p] == '\v'))
        p++;
    out->text = t + p;
    out->len = 1;
    out->line = lx->line;
    out->column = (unsigned)(p - lx->line_start + 1);
    out->cmp = 0;
    if (p >= n || t[p] == '\n' || t[p] == '#' || lp__at(lx, p, "//")) {
        /* The end stays put: every later call answers it again. */
        out->kind = LP__TOK_END;
        out->len = 0;
        lx->pos = p;
        return;
    }
    char c = t[p];
    size_t len = 1;
    lp__acf_tok_kind kind = LP__TOK_BAD;
    if (lp__is_alpha(c)) {
        while (p + len < n &&
               (lp__is_alpha(t[p + len]) || lp__is_digit(t[p + len]) || t[p + len] == '.'))
            len++;
        kind = LP__TOK_WORD;
    } else if (lp__is_digit(c)) {
        while (p + len < n && (lp__is_alpha(t[p + len]) || lp__is_digit(t[p + len])))
            len++;
        kind = LP__TOK_NUMBER;
    } else {
        for (size_t i = 0; i < sizeof lp__punct / sizeof lp__punct[0]; i++)
            if (lp__at(lx, p, lp__punct[i].text)) {
                kind = lp__punct[i].kind;
                out->cmp = lp__punct[i].cmp;
                len = lp__acf_strlen(lp__punct[i].text);
                break;
            }
    }
    out->kind = kind;
    out->len = len;
    lx->pos = p + len;
}

int lp__acf_next_line(lp__acf_lexer *lx)
{
    while (lx->pos < lx->len && lx->text[lx->pos] != '\n')
        lx->pos++;
    if (lx->pos >= lx->len)
        return 0;
    lx->pos++;
    lx->line_start = lx->pos;
    lx->line++;
    return 1;
}

/* ---- vocabulary ---------------------------------------------------------------- */

#define LP__BRANCHES (LP_HPS_COND | LP_HPS_JUMP | LP_HPS_IJUMP)
#define LP__CALLS (LP_HPS_CALL | LP_HPS_ICALL)

const lp__acf_name lp__acf_classes[] = {
    {"branch", LP__BRANCHES},
    {"proc_call", LP__CALLS},
    {"call", LP__CALLS},
    {"cond_branch", LP_HPS_COND},
    {"uncond_branch", LP_HPS_JUMP | LP_HPS_IJUMP},
    {"indirect", LP_HPS_IJUMP | LP_HPS_ICALL},
    {"ret", LP_HPS_RET},
    {"load", LP_HPS_LOAD},
    {"store", LP_HPS_STORE},
    {"any", UINT64_MAX},
};
const size_t lp__acf_nclasses = sizeof lp__acf_classes / sizeof lp__acf_classes[0];

const lp__acf_name lp__acf_opnames[] = {
    {"on_trig_inst", 1u << LP_HPS_OP_ON},
    {"off_trig_inst", 1u << LP_HPS_OP_OFF},
    {"trig_inst", (1u << LP_HPS_OP_ON) | (1u << LP_HPS_OP_OFF)},
    {"none", 1u << LP_HPS_OP_NONE},
};
const size_t lp__acf_nopnames = sizeof lp__acf_opnames / sizeof lp__acf_opnames[0];

const lp__acf_name lp__acf_handlers[] = {
    {"Branch_handler", LP_HPS_H_BRANCH},
    {"HotMethod_handler", LP_HPS_H_METHOD},
    {"CallPair_handler", LP_HPS_H_CALL_PAIR},
};
const size_t lp__acf_nhandlers = sizeof lp__acf_handlers / sizeof lp__acf_handlers[0];

/* Like lp__acf_ieq, for a word of either case. */
static int lp__same_word(const char *s, size_t n, const char *word)
{
    size_t i = 0;
    for (; i < n; i++)
        if (!word[i] || lp__lower(s[i]) != lp__lower(word[i]))
            return 0;
    return word[i] == '\0';
}

int lp__acf_lookup(const lp__acf_name *names, size_t count, const char *s, size_t n,
                   uint64_t *out_value)
{
    for (size_t i = 0; i < count; i++)
        if (lp__same_word(s, n, names[i].name)) {
            *out_value = names[i].value;
            return 1;
        }
    return 0;
}

const char *lp__acf_name_of(const lp__acf_name *names, size_t count, uint64_t value)
{
    for (size_t i = 0; i < count; i++)
        if (names[i].value == value)
            return names[i].name;
    return NULL;
}

int lp__acf_ieq(const char *s, size_t n, const char *word)
{
    return lp__same_word(s, n, word);
}

int lp__acf_iprefix(const char *s, size_t n, const char *prefix)
{
    size_t i = 0;
    for (; prefix[i]; i++)
        if (i >= n || lp__lower(s[i]) != prefix[i])
            return 0;
    return 1;
}

int lp__acf_small_decimal(const char *s, size_t n, uint64_t max, uint64_t *out_value)
{
    uint64_t v = 0;
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (!lp__is_digit(s[i]))
            return 0;
        v = v * 10 + (uint64_t)(s[i] - '0');
        if (v > max)
            return 0;
    }
    *out_value = v;
    return 1;
}

/* ---- text ---------------------------------------------------------------------- */

void lp__acf_str_init(lp__acf_str *s, char *buf, size_t cap)
{
    s->buf = buf;
    s->cap = cap;
    s->len = 0;
    buf[0] = '\0';
}

void lp__acf_str_addn(lp__acf_str *s, const char *text, size_t n)
{
    size_t room = s->cap - 1 - s->len;
    if (n > room)
        n = room;
    for (size_t i = 0; i < n; i++)
        s->buf[s->len + i] = text[i];
    s->len += n;
    s->buf[s->len] = '\0';
}

size_t lp__acf_strlen(const char *z)
{
    size_t n = 0;
    while (z[n])
        n++;
    return n;
}

void lp__acf_str_add(lp__acf_str *s, const char *z)
{
    lp__acf_str_addn(s, z, lp__acf_strlen(z));
}

void lp__acf_str_u64(lp__acf_str *s, uint64_t v)
{
    char buf[24];
    lp__acf_str_addn(s, buf, lp__acf_dec_text(v, buf));
}

/* Digits of v in base (10 or 16), most significant first. */
static size_t lp__digits(uint64_t v, unsigned base, char *buf)
{
    char rev[24];
    size_t n = 0;
    do {
        unsigned d = (unsigned)(v % base);
        rev[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
        v /= base;
    } while (v);
    for (size_t i = 0; i < n; i++)
        buf[i] = rev[n - 1 - i];
    buf[n] = '\0';
    return n;
}

size_t lp__acf_dec_text(uint64_t v, char *buf)
{
    return lp__digits(v, 10, buf);
}

size_t lp__acf_u64_text(uint64_t v, char *buf)
{
    if (v < 1024)
        return lp__digits(v, 10, buf);
    buf[0] = '0';
    buf[1] = 'x';
    return 2 + lp__digits(v, 16, buf + 2);
}
