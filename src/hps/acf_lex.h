/* hps: the ACF language's tokens, vocabulary and text helpers, shared by
 * the lexer (acf_lex.c), the parser (acf_parse.c) and the printer
 * (acf_print.c). Private to src/hps. The language is doc/acf.md. */
#ifndef LP_ACF_LEX_H
#define LP_ACF_LEX_H

#include "hps_internal.h"

/* Parentheses and '!' nested in one pattern, and nodes in one pattern: far
 * above what a DISE pattern table holds, low enough for any stack (the
 * parser, the printer and the matcher recurse over patterns). */
#define LP__ACF_MAX_DEPTH 32
#define LP__ACF_MAX_TERMS 256

/* ---- tokens -------------------------------------------------------------- */

typedef enum lp__acf_tok_kind {
    LP__TOK_END = 0, /* end of the statement: newline, comment or end of text */
    LP__TOK_WORD,    /* [A-Za-z_][A-Za-z0-9_.]*: names, labels, T.PC, zero_0 */
    LP__TOK_NUMBER,  /* [0-9][A-Za-z0-9_]*: checked when read (lp__acf_number) */
    LP__TOK_COLON,
    LP__TOK_LPAREN,
    LP__TOK_RPAREN,
    LP__TOK_COMMA,
    LP__TOK_SEMI,
    LP__TOK_ASSIGN, /* = */
    LP__TOK_ARROW,  /* -> => and the UTF-8 arrows U+2192 and U+21D2 */
    LP__TOK_NOT,    /* ! */
    LP__TOK_AND,    /* && */
    LP__TOK_OR,     /* || */
    LP__TOK_CMP,    /* == != < <= > >=, with cmp set */
    LP__TOK_BAD,    /* a byte that starts no token (one byte long) */
} lp__acf_tok_kind;

typedef struct lp__acf_tok {
    lp__acf_tok_kind kind;
    unsigned cmp;     /* LP__TOK_CMP: lp__hps_cmp */
    const char *text; /* into the source; len bytes */
    size_t len;
    unsigned line;   /* 1-based */
    unsigned column; /* 1-based, in bytes */
} lp__acf_tok;

/* The text being read, one line at a time: lp__acf_lex never reads past a
 * newline, so a statement cannot run on into the next line by accident. */
typedef struct lp__acf_lexer {
    const char *text;
    size_t len;
    size_t pos;
    size_t line_start;
    unsigned line;
} lp__acf_lexer;

/* Starts at the first line (a UTF-8 byte order mark is skipped). */
void lp__acf_lexer_init(lp__acf_lexer *lx, const char *text, size_t len);
/* The next token of the current line; at its end, LP__TOK_END at the
 * newline or comment, again on every call until lp__acf_next_line. */
void lp__acf_lex(lp__acf_lexer *lx, lp__acf_tok *out);
/* Moves to the start of the next line. Returns 0 when the text has no more
 * lines. */
int lp__acf_next_line(lp__acf_lexer *lx);

/* ---- vocabulary ------------------------------------------------------------ */

typedef struct lp__acf_name {
    const char *name;
    uint64_t value;
} lp__acf_name;

/* Class names (value: a class-bit mask, any = UINT64_MAX), op names (value:
 * a mask of 1u << lp_hps_op) and handlers (value: lp_hps_handler). The
 * first name listed for a value is its canonical spelling. */
extern const lp__acf_name lp__acf_classes[];
extern const size_t lp__acf_nclasses;
extern const lp__acf_name lp__acf_opnames[];
extern const size_t lp__acf_nopnames;
extern const lp__acf_name lp__acf_handlers[];
extern const size_t lp__acf_nhandlers;

/* Looks up s[0..n) case-insensitively; 1 and *out_value when found. */
int lp__acf_lookup(const lp__acf_name *names, size_t count, const char *s, size_t n,
                   uint64_t *out_value);
/* The canonical name for value, or NULL. */
const char *lp__acf_name_of(const lp__acf_name *names, size_t count, uint64_t value);

/* s[0..n) equals word, ignoring ASCII case (word is lower case). */
int lp__acf_ieq(const char *s, size_t n, const char *word);
/* s[0..n) starts with prefix (lower case), ignoring case. */
int lp__acf_iprefix(const char *s, size_t n, const char *prefix);
/* s[0..n) is a nonempty run of decimal digits whose value is at most max;
 * *out_value gets it. */
int lp__acf_small_decimal(const char *s, size_t n, uint64_t max, uint64_t *out_value);

/* ---- text ------------------------------------------------------------------ */

/* A bounded, always terminated string builder: what does not fit is cut. */
typedef struct lp__acf_str {
    char *buf;
    size_t cap; /* including the terminator; at least 1 */
    size_t len;
} lp__acf_str;

void lp__acf_str_init(lp__acf_str *s, char *buf, size_t cap);
void lp__acf_str_addn(lp__acf_str *s, const char *text, size_t n);
void lp__acf_str_add(lp__acf_str *s, const char *z);
void lp__acf_str_u64(lp__acf_str *s, uint64_t v);

/* Writes v as text into buf (at least 24 bytes; terminated): decimal below
 * 1024, else 0x and lower-case hex (addresses read better so). Returns the
 * length. */
size_t lp__acf_u64_text(uint64_t v, char *buf);
/* Decimal always. */
size_t lp__acf_dec_text(uint64_t v, char *buf);
size_t lp__acf_strlen(const char *z);

#endif
