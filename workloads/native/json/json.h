/* json: a JSON parser and serializer, as a benchmark of branchy code: a
 * character-level recursive descent parser with UTF-8 validation and
 * escape handling, a serializer with compact and indented forms, and a DOM
 * that is walked, queried, compared and transformed.
 *
 * Numbers are kept exactly, as a decimal mantissa and exponent, so a
 * parse-serialize round trip is lossless and no result depends on the
 * floating point of the host. Every node and string of a document lives in
 * one arena (json_value.c), freed at once. */
#ifndef JSON_H
#define JSON_H

#include <stddef.h>
#include <stdint.h>

#include "../support/native_common.h"

typedef enum js_type {
    JS_NULL, JS_FALSE, JS_TRUE, JS_NUMBER, JS_STRING, JS_ARRAY, JS_OBJECT
} js_type;

typedef struct js_value js_value;

typedef struct js_member {
    const char *key;
    size_t key_len;
    js_value *value;
} js_member;

struct js_value {
    js_type type;
    union {
        struct {
            int64_t mant; /* normalised: no trailing decimal zeros unless 0 */
            int32_t exp;
        } num;
        struct {
            const char *chars; /* UTF-8, not NUL-terminated */
            size_t len;
        } str;
        struct {
            js_value **items;
            size_t len, cap;
        } arr;
        struct {
            js_member *members;
            size_t len, cap;
            uint32_t *index; /* open-addressing table of member numbers + 1 */
            size_t index_cap;
        } obj;
    } u;
};

/* ---- documents (json_value.c) ---------------------------------------- */

typedef struct js_doc js_doc;

js_doc *js_doc_create(void);
void js_doc_free(js_doc *doc); /* NULL is fine */
/* Empties the document, keeping its memory for the next one. */
void js_doc_reset(js_doc *doc);
void *js_doc_alloc(js_doc *doc, size_t n);
size_t js_doc_bytes(const js_doc *doc);

js_value *js_new(js_doc *doc, js_type type);
js_value *js_new_number(js_doc *doc, int64_t mant, int32_t exp);
js_value *js_new_string(js_doc *doc, const char *chars, size_t len);
void js_array_push(js_doc *doc, js_value *arr, js_value *item);
/* Adds a member; a repeated key replaces the earlier value. */
void js_object_set(js_doc *doc, js_value *obj, const char *key, size_t key_len, js_value *value);
/* NULL when absent. Objects with many members are looked up by hash. */
js_value *js_object_get(const js_value *obj, const char *key);
js_value *js_array_get(const js_value *arr, size_t i);
/* Structural equality; object members compared by key, in any order. */
int js_equal(const js_value *a, const js_value *b);
/* Sorts object members by key (bytewise), recursively. */
void js_sort_keys(js_doc *doc, js_value *v);
/* Brings a mantissa/exponent pair to the normal form. */
void js_number_normalise(int64_t *mant, int32_t *exp);

/* ---- text (json_write.c, json_parse.c) ---------------------------------- */

typedef struct js_buf {
    char *data;
    size_t len, cap;
} js_buf;

void js_buf_init(js_buf *b);
void js_buf_free(js_buf *b);
void js_buf_append(js_buf *b, const char *s, size_t n);
/* Appends v as JSON; indent 0 for the compact form, else spaces a level. */
void js_write(js_buf *b, const js_value *v, int indent);

typedef struct js_error {
    size_t offset;
    char message[96];
} js_error;

/* Parses text[0..len) into doc. NULL on error, with *err saying where. */
js_value *js_parse(js_doc *doc, const char *text, size_t len, js_error *err);

/* ---- generation and queries (json_gen.c, json_query.c) ------------------- */

/* A catalogue-like document: metadata, items with prices and tags, users
 * with nested addresses, and random nested extras. */
js_value *js_generate(js_doc *doc, uint64_t seed, int n_items);

typedef struct js_stats {
    uint64_t counts[7]; /* per js_type */
    uint64_t string_bytes, max_depth;
    uint64_t number_hash;
} js_stats;

void js_walk(const js_value *v, js_stats *stats);
/* Looks up a path like "items[3].price" or "users[0].address.city";
 * NULL when any step is missing. */
const js_value *js_query(const js_value *root, const char *path);
/* Sum over items of price * qty, in hundredths; -1 if an item lacks them. */
int64_t js_order_total(const js_value *root);
/* How many items carry the tag. */
size_t js_count_tag(const js_value *root, const char *tag);

#endif
