/* `lowprof export --format json`: one JSON object holding the whole profile
 * file: meta, module map and every profile (whole run and per phase) with
 * its raw counters and scale, each entry with its symbol fields.
 *
 * Addresses and values are "0x..." strings because JSON readers commonly
 * hold numbers as doubles, which lose 64-bit addresses; counters stay
 * numbers (exact up to 2^53, far above any count a run produces). Strings
 * from ELF and DWARF are bytes, not guaranteed UTF-8: valid UTF-8 passes
 * through, any other byte is escaped as the code point of the same value,
 * so the output is always valid JSON. */
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

/* Length of the valid UTF-8 sequence at p (at most n bytes), or 0. */
static size_t json_utf8_len(const unsigned char *p, size_t n)
{
    size_t len;
    uint32_t cp;
    if (p[0] < 0x80)
        return 1;
    if ((p[0] & 0xe0) == 0xc0) {
        len = 2;
        cp = p[0] & 0x1f;
    } else if ((p[0] & 0xf0) == 0xe0) {
        len = 3;
        cp = p[0] & 0x0f;
    } else if ((p[0] & 0xf8) == 0xf0) {
        len = 4;
        cp = p[0] & 0x07;
    } else {
        return 0;
    }
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3f);
    }
    /* Overlong forms, surrogates and values past U+10FFFF are not UTF-8. */
    static const uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

/* Writes s as a JSON string, or null for NULL. */
static void json_string(lp_out *o, const char *s)
{
    if (!s) {
        lp_outs(o, "null");
        return;
    }
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    lp_outs(o, "\"");
    size_t run = 0; /* bytes that pass through unchanged, not yet written */
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        size_t len = json_utf8_len(p + i, n - i);
        if (len > 0 && c != '"' && c != '\\' && c >= 0x20) {
            run += len;
            i += len;
            continue;
        }
        lp_outn(o, p + i - run, run);
        run = 0;
        switch (c) {
        case '"': lp_outs(o, "\\\""); break;
        case '\\': lp_outs(o, "\\\\"); break;
        case '\n': lp_outs(o, "\\n"); break;
        case '\r': lp_outs(o, "\\r"); break;
        case '\t': lp_outs(o, "\\t"); break;
        default: lp_outf(o, "\\u%04x", c); break;
        }
        i++;
    }
    lp_outn(o, p + n - run, run);
    lp_outs(o, "\"");
}

static void json_hex(lp_out *o, uint64_t v)
{
    lp_outf(o, "\"0x%llx\"", (unsigned long long)v);
}

/* The symbol fields of pc, prefixed (e.g. "b_") for the second key word. */
static void json_symbol(lp_out *o, lp_names *nm, const char *prefix, uint64_t pc)
{
    lp_symbol sym;
    lp_symbolize(nm->sym, pc, &sym);
    lp_outf(o, ", \"%sfunction\": ", prefix);
    json_string(o, sym.function);
    /* The symbol table's own name too (mangled for C++), for tools that
     * match names against the binary. */
    lp_outf(o, ", \"%slinkage\": ", prefix);
    json_string(o, sym.linkage);
    lp_outf(o, ", \"%sfunction_start\": ", prefix);
    if (sym.function)
        json_hex(o, sym.function_start);
    else
        lp_outs(o, "null");
    lp_outf(o, ", \"%sfile\": ", prefix);
    json_string(o, sym.file);
    lp_outf(o, ", \"%sline\": ", prefix);
    if (sym.line)
        lp_outf(o, "%u", sym.line);
    else
        lp_outs(o, "null");
    lp_outf(o, ", \"%smodule\": ", prefix);
    json_string(o, sym.module);
}

static int json_entry_cmp(const void *x, const void *y)
{
    const lp_entry *a = x, *b = y;
    if (a->key.a != b->key.a)
        return a->key.a < b->key.a ? -1 : 1;
    if (a->key.b != b->key.b)
        return a->key.b < b->key.b ? -1 : 1;
    return 0;
}

static int json_profile(lp_out *o, lp_names *nm, const lp_meta *m, const lp_profile *p)
{
    const char *name = lp_profile_type_name(p->type);
    lp_outs(o, "    {\"type\": ");
    json_string(o, name ? name : "unknown");
    lp_outs(o, ", \"phase\": ");
    if (p->phase == LP_PHASE_NONE)
        lp_outs(o, "null");
    else
        lp_outf(o, "%u", p->phase);
    lp_outf(o, ", \"first_insn\": %llu, \"last_insn\": %llu", (unsigned long long)p->first_insn,
             (unsigned long long)p->last_insn);
    lp_outf(o, ", \"scale\": {\"num\": %llu, \"den\": %llu}", (unsigned long long)p->scale_num,
             (unsigned long long)p->scale_den);
    lp_outs(o, ", \"counters\": [");
    json_string(o, lp_report_counter_name(p->type, 0));
    lp_outs(o, ", ");
    json_string(o, lp_report_counter_name(p->type, 1) ? lp_report_counter_name_in(m, p->type, 1)
                   : p->type == LP_PROF_VALUE   ? "size"
                   : p->type == LP_PROF_STREAMS ? "length"
                                                : "unused");
    lp_outs(o, "],\n     \"entries\": [");

    size_t n = p->table.count;
    lp_entry *entries = malloc((n ? n : 1) * sizeof *entries);
    if (!entries)
        return LP_ENOMEM;
    size_t k = 0, cursor = 0;
    for (lp_entry *e; (e = lp_table_next(&p->table, &cursor)) != NULL && k < n;)
        entries[k++] = *e;
    qsort(entries, k, sizeof *entries, json_entry_cmp);
    int b_is_code = lp_report_key_b_is_code(p->type);
    for (size_t i = 0; i < k && !o->err; i++) {
        const lp_entry *e = &entries[i];
        lp_outs(o, i ? ",\n       {\"a\": " : "\n       {\"a\": ");
        json_hex(o, e->key.a);
        lp_outs(o, ", \"b\": ");
        json_hex(o, e->key.b);
        lp_outf(o, ", \"v0\": %llu, \"v1\": %llu", (unsigned long long)e->v[0],
                 (unsigned long long)e->v[1]);
        /* A streams profile is keyed by stream id, not by an address. */
        if (p->type != LP_PROF_STREAMS)
            json_symbol(o, nm, "", e->key.a);
        if (b_is_code)
            json_symbol(o, nm, "b_", e->key.b);
        lp_outs(o, "}");
    }
    lp_outs(o, k ? "\n     ]}" : "]}");
    free(entries);
    return 0;
}

int lp__export_json(const char *source, const lp_profile_set *s, lp_names *nm, lp_out *o)
{
    lp_outs(o, "{\n  \"format\": \"lowprof-export\",\n  \"version\": 1,\n  \"source\": ");
    json_string(o, source);
    lp_outs(o, ",\n  \"meta\": {");
    for (size_t i = 0; i < s->meta.count; i++) {
        lp_outs(o, i ? ",\n    " : "\n    ");
        json_string(o, s->meta.items[i].key);
        lp_outs(o, ": ");
        json_string(o, s->meta.items[i].value);
    }
    lp_outs(o, s->meta.count ? "\n  },\n  \"modules\": [" : "},\n  \"modules\": [");
    for (size_t i = 0; i < s->modules.count; i++) {
        const lp_module *m = &s->modules.items[i];
        lp_outs(o, i ? ",\n    {\"path\": " : "\n    {\"path\": ");
        json_string(o, m->path);
        lp_outs(o, ", \"start\": ");
        json_hex(o, m->start);
        lp_outf(o, ", \"size\": %llu, \"bias\": ", (unsigned long long)m->size);
        if (m->bias < 0)
            lp_outf(o, "\"-0x%llx\"", (unsigned long long)-(uint64_t)m->bias);
        else
            json_hex(o, (uint64_t)m->bias);
        lp_outs(o, ", \"build_id\": ");
        if (m->build_id_len) {
            char id[2 * 32 + 1];
            size_t len = m->build_id_len < 32 ? m->build_id_len : 32;
            for (size_t k = 0; k < len; k++)
                snprintf(id + 2 * k, 3, "%02x", m->build_id[k]);
            json_string(o, id);
        } else {
            lp_outs(o, "null");
        }
        lp_outs(o, "}");
    }
    lp_outs(o, s->modules.count ? "\n  ],\n  \"profiles\": [\n" : "],\n  \"profiles\": [\n");
    for (size_t i = 0; i < s->count; i++) {
        int rc = json_profile(o, nm, &s->meta, &s->profiles[i]);
        if (rc)
            return rc;
        lp_outs(o, i + 1 < s->count ? ",\n" : "\n");
    }
    lp_outs(o, "  ]\n}\n");
    return o->err;
}

void lp__json_string(lp_out *o, const char *s)
{
    json_string(o, s);
}
