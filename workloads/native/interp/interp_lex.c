/* interp: the lexer. Hand-written, one token of look-ahead is the parser's
 * business; this file only turns characters into tokens. */
#include "interp.h"

#include <string.h>

static const struct {
    const char *word;
    it_tok kind;
} it_keywords[] = {
    {"fn", TK_FN}, {"var", TK_VAR}, {"if", TK_IF}, {"else", TK_ELSE},
    {"while", TK_WHILE}, {"return", TK_RETURN},
};

void it_lex_init(it_lexer *lx, const char *src)
{
    lx->p = src;
    lx->line = 1;
}

static int it_is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int it_is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static void it_skip_space(it_lexer *lx)
{
    for (;;) {
        char c = *lx->p;
        if (c == '\n') {
            lx->line++;
            lx->p++;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            lx->p++;
        } else if (c == '/' && lx->p[1] == '/') {
            while (*lx->p && *lx->p != '\n')
                lx->p++;
        } else {
            return;
        }
    }
}

static it_token it_make(it_lexer *lx, it_tok kind, const char *start)
{
    it_token t;
    t.kind = kind;
    t.start = start;
    t.len = (int)(lx->p - start);
    t.line = lx->line;
    t.num = 0;
    return t;
}

static it_token it_lex_word(it_lexer *lx, const char *start)
{
    while (it_is_alpha(*lx->p) || it_is_digit(*lx->p))
        lx->p++;
    size_t n = (size_t)(lx->p - start);
    for (size_t i = 0; i < sizeof it_keywords / sizeof it_keywords[0]; i++) {
        if (strlen(it_keywords[i].word) == n && memcmp(it_keywords[i].word, start, n) == 0)
            return it_make(lx, it_keywords[i].kind, start);
    }
    return it_make(lx, TK_IDENT, start);
}

static it_token it_lex_number(it_lexer *lx, const char *start)
{
    uint64_t v = (uint64_t)(*start - '0');
    while (it_is_digit(*lx->p))
        v = v * 10 + (uint64_t)(*lx->p++ - '0');
    it_token t = it_make(lx, TK_NUM, start);
    t.num = (int64_t)v;
    return t;
}

static it_token it_lex_string(it_lexer *lx, const char *start)
{
    /* The token keeps its quotes; the parser unescapes. */
    while (*lx->p && *lx->p != '"') {
        if (*lx->p == '\\' && lx->p[1])
            lx->p++;
        if (*lx->p == '\n')
            lx->line++;
        lx->p++;
    }
    if (*lx->p != '"')
        return it_make(lx, TK_ERROR, start);
    lx->p++;
    return it_make(lx, TK_STR, start);
}

/* c, then `second` makes `both`; c alone makes `alone`. */
static it_token it_one_or_two(it_lexer *lx, const char *start, char second, it_tok both,
                              it_tok alone)
{
    if (*lx->p == second) {
        lx->p++;
        return it_make(lx, both, start);
    }
    return it_make(lx, alone, start);
}

/* One- and two-character operators. */
static it_token it_lex_punct(it_lexer *lx, const char *start, char c)
{
    switch (c) {
    case '(': return it_make(lx, TK_LPAREN, start);
    case ')': return it_make(lx, TK_RPAREN, start);
    case '{': return it_make(lx, TK_LBRACE, start);
    case '}': return it_make(lx, TK_RBRACE, start);
    case '[': return it_make(lx, TK_LBRACKET, start);
    case ']': return it_make(lx, TK_RBRACKET, start);
    case ',': return it_make(lx, TK_COMMA, start);
    case ';': return it_make(lx, TK_SEMI, start);
    case '+': return it_make(lx, TK_PLUS, start);
    case '-': return it_make(lx, TK_MINUS, start);
    case '*': return it_make(lx, TK_STAR, start);
    case '/': return it_make(lx, TK_SLASH, start);
    case '%': return it_make(lx, TK_PERCENT, start);
    case '<': return it_one_or_two(lx, start, '=', TK_LE, TK_LT);
    case '>': return it_one_or_two(lx, start, '=', TK_GE, TK_GT);
    case '=': return it_one_or_two(lx, start, '=', TK_EQ, TK_ASSIGN);
    case '!': return it_one_or_two(lx, start, '=', TK_NE, TK_NOT);
    case '&': return it_one_or_two(lx, start, '&', TK_AND, TK_ERROR);
    case '|': return it_one_or_two(lx, start, '|', TK_OR, TK_ERROR);
    default: return it_make(lx, TK_ERROR, start);
    }
}

it_token it_lex_next(it_lexer *lx)
{
    it_skip_space(lx);
    const char *start = lx->p;
    char c = *lx->p;
    if (c == '\0')
        return it_make(lx, TK_EOF, start);
    lx->p++;
    if (it_is_alpha(c))
        return it_lex_word(lx, start);
    if (it_is_digit(c))
        return it_lex_number(lx, start);
    if (c == '"')
        return it_lex_string(lx, start);
    return it_lex_punct(lx, start, c);
}

const char *it_tok_name(it_tok kind)
{
    static const char *const names[] = {
        "end of input", "bad character", "number", "string", "name",
        "fn", "var", "if", "else", "while", "return",
        "(", ")", "{", "}", "[", "]", ",", ";", "=",
        "+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||", "!",
    };
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}
