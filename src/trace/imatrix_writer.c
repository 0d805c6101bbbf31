/* Writes an interval matrix (doc/format-imatrix.md) one interval at a time.
 *
 * Tuned for long runs: a 10-billion-instruction recording has ~1000
 * intervals of ~10,000 entries each, mostly the same keys again. So keys
 * are written once, into per-type dictionaries, the first time they appear
 * (a dictionary chunk just before the interval that needs them), and an
 * interval's entries are sorted dictionary indices coded as gaps plus their
 * counters: three or four bytes an entry instead of twenty.
 *
 * Every interval is on the sink when lp_imatrix_writer_add returns, so a
 * recording that dies keeps all the intervals it finished. */
#include "trace_internal.h"

#define ALL_TYPES (((1u << (LP_PROF_TYPE_MAX + 1)) - 1) & ~1u)

struct lp_imatrix_writer {
    lp_sink sink;
    uint32_t types;
    lp_table dict[LP_PROF_TYPE_MAX + 1]; /* key -> index in v[0] */
    uint64_t intervals;
    uint64_t insns;
    uint64_t last_index;
    lp__buf buf;
    lp_entry *scratch; /* new keys, then the interval's entries by type */
    size_t scratch_cap;
    int err; /* sticky: a failed write leaves the file in an unknown state */
    int finished;
};

static int reserve_scratch(lp_imatrix_writer *w, size_t n)
{
    if (n <= w->scratch_cap)
        return 0;
    size_t cap = w->scratch_cap ? w->scratch_cap : 1024;
    while (cap < n)
        cap *= 2;
    if (cap > SIZE_MAX / sizeof(lp_entry))
        return LP_ENOMEM;
    lp_entry *p = lp_realloc(w->scratch, w->scratch_cap * sizeof *p, cap * sizeof *p);
    if (!p)
        return LP_ENOMEM;
    w->scratch = p;
    w->scratch_cap = cap;
    return 0;
}

/* LP_EINVAL for a NULL out or sink, a zero length or a mask with bits other
 * than 1 << type for the profile types; *out is NULL on failure. */
int lp_imatrix_writer_create(lp_sink sink, const lp_meta *meta, uint64_t interval_length,
                             uint32_t types, lp_imatrix_writer **out)
{
    if (!out)
        return LP_EINVAL;
    *out = NULL;
    if (!sink.write || !interval_length || (types & ~ALL_TYPES))
        return LP_EINVAL;
    lp_imatrix_writer *w = lp_calloc(1, sizeof *w);
    if (!w)
        return LP_ENOMEM;
    w->sink = sink;
    w->types = types;
    for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
        lp_table_init(&w->dict[t], 0);
    int rc = lp__header_write(sink, LP_FILE_IMATRIX);
    if (!rc)
        rc = lp__meta_write(sink, meta, &w->buf);
    if (!rc) {
        lp__buf_reset(&w->buf);
        lp__buf_varint(&w->buf, interval_length);
        lp__buf_varint(&w->buf, types);
        rc = w->buf.err ? w->buf.err
                        : lp__chunk_write(sink, LP__CH_MATRIX, w->buf.data, w->buf.size, NULL, 0);
    }
    if (rc) {
        lp_imatrix_writer_free(w);
        return rc;
    }
    *out = w;
    return 0;
}

/* Adds the keys of iv's table for type t that the dictionary lacks, and
 * writes them as dictionary chunks (sorted, so they code compactly). */
static int extend_dictionary(lp_imatrix_writer *w, unsigned t, const lp_table *tab)
{
    lp_table *d = &w->dict[t];
    size_t n = 0, cursor = 0;
    const lp_entry *e;
    int rc = reserve_scratch(w, tab->count);
    if (rc)
        return rc;
    while ((e = lp_table_next(tab, &cursor)) != NULL)
        if (!lp_table_find(d, e->key))
            w->scratch[n++].key = e->key;
    if (!n)
        return 0;
    if (n > LP__MAX_DICT - d->count)
        return LP_ELIMIT;
    lp_entries_sort(w->scratch, n, lp_entry_key_less);
    for (size_t from = 0; from < n; from += LP__CHUNK_ENTRIES) {
        size_t to = n - from > LP__CHUNK_ENTRIES ? from + LP__CHUNK_ENTRIES : n;
        unsigned mode = lp__keys_choose(w->scratch + from, to - from, sizeof *w->scratch);
        lp__buf_reset(&w->buf);
        lp__buf_varint(&w->buf, t);
        lp__buf_varint(&w->buf, d->count);
        lp__buf_varint(&w->buf, mode);
        lp__buf_varint(&w->buf, to - from);
        for (size_t i = from; i < to; i++) {
            lp__key_put(&w->buf, mode, i == from, i > from ? w->scratch[i - 1].key : (lp_key){0, 0},
                        w->scratch[i].key);
            lp_entry *slot = lp_table_upsert(d, w->scratch[i].key);
            if (!slot)
                return LP_ENOMEM;
            slot->v[0] = d->count - 1;
        }
        if (w->buf.err)
            return w->buf.err;
        rc = lp__chunk_write(w->sink, LP__CH_DICT, w->buf.data, w->buf.size, NULL, 0);
        if (rc)
            return rc;
    }
    return 0;
}

/* One type's section of a chunk: entries [from, to) of that type, whose
 * first entry in the interval is at start. */
static void put_section(lp__buf *b, const lp_entry *e, size_t start, size_t from, size_t to)
{
    lp__buf_varint(b, to - from);
    if (from == to)
        return;
    int v1_zero = 1;
    for (size_t i = from; i < to && v1_zero; i++)
        v1_zero = e[i].v[1] == 0;
    /* Edge, call-graph and call-target counters have no second word. */
    lp__buf_varint(b, v1_zero ? 1u : 0u);
    for (size_t i = from; i < to; i++) {
        lp__buf_varint(b, i == start ? e[i].key.a : e[i].key.a - e[i - 1].key.a - 1);
        lp__buf_varint(b, e[i].v[0]);
        if (!v1_zero)
            lp__buf_varint(b, e[i].v[1]);
    }
}

/* Writes the interval's entries, already in scratch grouped by type
 * (start[t] .. start[t + 1]), as one interval chunk and as many part chunks
 * as LP__CHUNK_ENTRIES requires. */
static int write_interval(lp_imatrix_writer *w, const lp_interval *iv,
                          const size_t start[LP_PROF_TYPE_MAX + 2])
{
    size_t total = start[LP_PROF_TYPE_MAX + 1];
    size_t extra = total ? (total - 1) / LP__CHUNK_ENTRIES : 0;
    if (extra >= LP__MAX_PARTS)
        return LP_ELIMIT;
    for (size_t part = 0; part <= extra; part++) {
        size_t from = part * LP__CHUNK_ENTRIES;
        size_t to = total - from > LP__CHUNK_ENTRIES ? from + LP__CHUNK_ENTRIES : total;
        lp__buf *b = &w->buf;
        lp__buf_reset(b);
        lp__buf_varint(b, iv->index);
        if (part == 0) {
            lp__buf_varint(b, iv->first_insn);
            lp__buf_varint(b, iv->insns);
            for (unsigned k = 0; k < LP_SIG_BUCKETS; k++)
                lp__buf_varint(b, iv->sig.bucket[k]);
            lp__buf_varint(b, extra);
        } else {
            lp__buf_varint(b, part);
        }
        for (unsigned t = 1; t <= LP_PROF_TYPE_MAX; t++) {
            if (!(w->types & (1u << t)))
                continue;
            size_t lo = start[t] > from ? start[t] : from;
            size_t hi = start[t + 1] < to ? start[t + 1] : to;
            put_section(b, w->scratch, start[t], lo, hi > lo ? hi : lo);
        }
        if (b->err)
            return b->err;
        int rc = lp__chunk_write(w->sink, part ? LP__CH_INTERVAL_PART : LP__CH_INTERVAL, b->data,
                                 b->size, NULL, 0);
        if (rc)
            return rc;
    }
    return 0;
}

static int add_interval(lp_imatrix_writer *w, const lp_interval *iv)
{
    size_t total = 0;
    for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++) {
        if (!(w->types & (1u << t)) && iv->tables[t].count)
            return LP_EINVAL; /* data of a type the header does not announce */
        if (iv->tables[t].count > SIZE_MAX / 2 - total)
            return LP_ENOMEM;
        total += iv->tables[t].count;
    }
    if (w->intervals && iv->index <= w->last_index)
        return LP_EINVAL;
    int rc = 0;
    for (unsigned t = 1; !rc && t <= LP_PROF_TYPE_MAX; t++)
        if (w->types & (1u << t))
            rc = extend_dictionary(w, t, &iv->tables[t]);
    if (!rc)
        rc = reserve_scratch(w, total);
    if (rc)
        return rc;
    /* Entries become (dictionary index, counters) and sort by index. */
    size_t start[LP_PROF_TYPE_MAX + 2] = {0};
    size_t n = 0;
    for (unsigned t = 1; t <= LP_PROF_TYPE_MAX; t++) {
        start[t] = n;
        size_t cursor = 0;
        const lp_entry *e;
        while ((e = lp_table_next(&iv->tables[t], &cursor)) != NULL) {
            const lp_entry *d = lp_table_find(&w->dict[t], e->key);
            w->scratch[n].key.a = d->v[0];
            w->scratch[n].key.b = 0;
            w->scratch[n].v[0] = e->v[0];
            w->scratch[n].v[1] = e->v[1];
            n++;
        }
        if (n > start[t]) /* scratch may still be NULL */
            lp_entries_sort(w->scratch + start[t], n - start[t], lp_entry_key_less);
    }
    start[LP_PROF_TYPE_MAX + 1] = n;
    rc = write_interval(w, iv, start);
    if (rc)
        return rc;
    w->intervals++;
    w->insns += iv->insns; /* modulo 2^64, the reader sums the same way */
    w->last_index = iv->index;
    return 0;
}

/* LP_EINVAL for NULL arguments, an index not above the previous one, a
 * non-empty table of a type outside the writer's mask, or a writer already
 * finished; once a write has failed every call returns that error. */
int lp_imatrix_writer_add(lp_imatrix_writer *w, const lp_interval *iv)
{
    if (!w || !iv || w->finished)
        return LP_EINVAL;
    if (w->err)
        return w->err;
    int rc = add_interval(w, iv);
    /* A refused argument wrote nothing; anything else may have. */
    if (rc && rc != LP_EINVAL)
        w->err = rc;
    return rc;
}

/* modules may be NULL (an empty map). */
int lp_imatrix_writer_finish(lp_imatrix_writer *w, const lp_module_map *modules)
{
    if (!w || w->finished)
        return LP_EINVAL;
    if (w->err)
        return w->err;
    int rc = lp__modules_write(w->sink, modules, &w->buf);
    if (!rc) {
        uint8_t end[20];
        size_t n = lp__varint_encode(end, w->intervals);
        n += lp__varint_encode(end + n, w->insns);
        rc = lp__chunk_write(w->sink, LP__CH_END, end, n, NULL, 0);
    }
    if (rc && rc != LP_EINVAL && rc != LP_ELIMIT)
        w->err = rc;
    else if (!rc)
        w->finished = 1;
    return rc;
}

void lp_imatrix_writer_free(lp_imatrix_writer *w)
{
    if (!w)
        return;
    for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
        lp_table_fini(&w->dict[t]);
    lp__buf_free(&w->buf);
    lp_free(w->scratch);
    lp_free(w);
}
