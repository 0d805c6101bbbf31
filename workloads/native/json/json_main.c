/* json: the driver. Each round generates a document, serializes it,
 * parses it back, checks that compact and indented forms round-trip to an
 * equal DOM and identical text, queries and walks it, sorts its keys and
 * serializes again. A table of malformed inputs checks that the parser
 * rejects each at the right offset. */
#include "json.h"

#include <stdio.h>
#include <string.h>

enum { JS_ITEMS = 250 };

static const struct {
    const char *text;
    size_t offset; /* where the error must be reported */
} js_bad_inputs[] = {
    {"", 0},
    {"[1, 2,]", 6},
    {"{\"a\" 1}", 5},
    {"{\"a\": 01}", 7},
    {"[\"unterminated", 14},
    {"\"bad \\x escape\"", 7},
    {"\"\\ud800 lone\"", 7},
    {"\"ctl \x01\"", 5},
    {"\"\xc3\x28\"", 1},
    {"\"\xed\xa0\x80\"", 1},
    {"[1e]", 3},
    {"[-]", 2},
    {"[1.]", 3},
    {"tru", 0},
    {"{} x", 3},
    {"[1, 1234567890123456789]", 4},
    {"[0.0000000000000000000001, 1.2345678901234567891]", 27},
    {"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]", 69},
};

static int js_check_bad_inputs(uint64_t *h)
{
    int failed = 0;
    for (size_t i = 0; i < sizeof js_bad_inputs / sizeof js_bad_inputs[0]; i++) {
        js_doc *doc = js_doc_create();
        js_error err;
        const char *text = js_bad_inputs[i].text;
        if (js_parse(doc, text, strlen(text), &err) || err.offset != js_bad_inputs[i].offset) {
            fprintf(stderr, "json: bad input %zu not rejected at %zu\n", i,
                    js_bad_inputs[i].offset);
            failed = 1;
        } else {
            *h = nw_hash_u64(*h, err.offset);
            *h = nw_hash_bytes(*h, err.message, strlen(err.message));
        }
        js_doc_free(doc);
    }
    return failed;
}

static js_value *js_reparse(js_doc *doc, const js_buf *text, int *failed)
{
    js_error err;
    js_value *v = js_parse(doc, text->data, text->len, &err);
    if (!v) {
        fprintf(stderr, "json: own output rejected at %zu: %s\n", err.offset, err.message);
        *failed = 1;
    }
    return v;
}

static uint64_t js_hash_queries(uint64_t h, const js_value *root, js_buf *out)
{
    static const char *const paths[] = {
        "meta.version", "meta.huge", "items[0].name", "items[17].price", "items[42].tags[1]",
        "items[199].dims.w", "users[3].address.city", "users[10].orders[2]", "index.SKU-00370",
        "items[5].extra", "nothing.here", "items[100000]",
    };
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        const js_value *v = js_query(root, paths[i]);
        out->len = 0;
        if (v)
            js_write(out, v, 0);
        h = nw_hash_bytes(h, out->data, out->len);
        h = nw_hash_u64(h, v != NULL);
    }
    return h;
}

static uint64_t js_hash_stats(uint64_t h, const js_stats *st)
{
    for (int t = 0; t < 7; t++)
        h = nw_hash_u64(h, st->counts[t]);
    h = nw_hash_u64(h, st->string_bytes);
    h = nw_hash_u64(h, st->max_depth);
    return nw_hash_u64(h, st->number_hash);
}

/* What one round works in: three documents and three text buffers, kept
 * from round to round as a long-running service would keep them. */
typedef struct js_workspace {
    js_doc *doc, *doc2, *doc3;
    js_buf compact, again, pretty;
} js_workspace;

static void js_workspace_init(js_workspace *w)
{
    w->doc = js_doc_create();
    w->doc2 = js_doc_create();
    w->doc3 = js_doc_create();
    js_buf_init(&w->compact);
    js_buf_init(&w->again);
    js_buf_init(&w->pretty);
}

static void js_workspace_reset(js_workspace *w)
{
    js_doc_reset(w->doc);
    js_doc_reset(w->doc2);
    js_doc_reset(w->doc3);
    w->compact.len = w->again.len = w->pretty.len = 0;
}

static void js_workspace_free(js_workspace *w)
{
    js_doc_free(w->doc);
    js_doc_free(w->doc2);
    js_doc_free(w->doc3);
    js_buf_free(&w->compact);
    js_buf_free(&w->again);
    js_buf_free(&w->pretty);
}

static uint64_t js_round(js_workspace *w, uint64_t seed, uint64_t h, int *failed)
{
    js_buf *compact = &w->compact, *again = &w->again, *pretty = &w->pretty;
    js_workspace_reset(w);
    js_value *orig = js_generate(w->doc, seed, JS_ITEMS);
    js_write(compact, orig, 0);
    js_value *parsed = js_reparse(w->doc2, compact, failed);
    js_value *from_pretty = NULL;
    if (parsed) {
        js_write(again, parsed, 0);
        if (again->len != compact->len || memcmp(again->data, compact->data, again->len) != 0 ||
            !js_equal(orig, parsed)) {
            fprintf(stderr, "json: compact round trip differs\n");
            *failed = 1;
        }
        js_write(pretty, parsed, 2);
        from_pretty = js_reparse(w->doc3, pretty, failed);
    }
    if (from_pretty && !js_equal(orig, from_pretty)) {
        fprintf(stderr, "json: indented round trip differs\n");
        *failed = 1;
    }
    h = nw_hash_bytes(h, compact->data, compact->len);
    h = nw_hash_u64(h, pretty->len);
    if (from_pretty) {
        js_stats st;
        js_walk(from_pretty, &st);
        h = js_hash_stats(h, &st);
        h = js_hash_queries(h, from_pretty, again);
        h = nw_hash_u64(h, (uint64_t)js_order_total(from_pretty));
        h = nw_hash_u64(h, js_count_tag(from_pretty, "sale"));
        h = nw_hash_u64(h, js_count_tag(from_pretty, "garden"));
        js_sort_keys(w->doc3, from_pretty);
        again->len = 0;
        js_write(again, from_pretty, 0);
        h = nw_hash_bytes(h, again->data, again->len);
    }
    return h;
}

int main(int argc, char **argv)
{
    static const nw_sizes sizes = {3, 700, 2800};
    long rounds;
    if (nw_args_parse(argc, argv, "SIZE: documents of 250 items (small 3, default 700)", &sizes,
                      &rounds, NULL))
        return 2;
    uint64_t h = NW_HASH_INIT;
    int failed = js_check_bad_inputs(&h);
    js_workspace w;
    js_workspace_init(&w);
    for (long r = 0; r < rounds && !failed; r++)
        h = js_round(&w, 1000 + (uint64_t)r, h, &failed);
    js_workspace_free(&w);
    if (failed)
        return 1;
    nw_report("json", h);
    return 0;
}
