/* Writes the seed inputs of the fuzz corpora: small valid files of each
 * kind, some with features the writers only produce for big inputs (part
 * chunks, several events chunks, an optional chunk a reader skips), built
 * here with the library's own chunk writer; then truncated and damaged
 * copies of them; and ACFs, good and bad, for the ACF parser. Usage:
 * make_seeds DIR, which gets DIR/profile, DIR/imatrix, DIR/events and
 * DIR/acf. The committed seeds came from this program. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lowprof/hps.h"
#include "lowprof/trace.h"
#include "../../src/trace/trace_internal.h"

static const char *out_dir;

static void save(const char *kind, const char *name, const uint8_t *d, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", out_dir, kind);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        perror(path);
        exit(1);
    }
    snprintf(path, sizeof path, "%s/%s/%s", out_dir, kind, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(d, 1, n, f) != n || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

static void must(int rc, const char *what)
{
    if (rc) {
        fprintf(stderr, "make_seeds: %s: %s\n", what, lp_strerror(rc));
        exit(1);
    }
}

/* Reads a seed that should be valid to its end; a seed that is not would
 * silently weaken the corpus, so that stops the program. */
static void verify(const char *kind, const char *name, const uint8_t *d, size_t n)
{
    lp_memsource ms;
    lp_source src = lp_memsource_init(&ms, d, n);
    lp_read_error err = {0, "", ""};
    int rc;
    if (strcmp(kind, "profile") == 0) {
        lp_profile_set s;
        rc = lp_profile_file_read(src, &s, &err);
        lp_profile_set_fini(&s);
    } else if (strcmp(kind, "imatrix") == 0) {
        lp_imatrix_reader *r;
        lp_interval iv;
        lp_interval_init(&iv);
        rc = lp_imatrix_reader_open(src, &r, &err);
        while (!rc && (rc = lp_imatrix_reader_next(r, &iv, &err)) == 1)
            rc = 0;
        lp_imatrix_reader_free(r);
        lp_interval_fini(&iv);
    } else {
        lp_evtrace_reader *r;
        lp_event ev;
        rc = lp_evtrace_reader_open(src, &r, &err);
        while (!rc && (rc = lp_evtrace_reader_next(r, &ev, &err)) == 1)
            rc = 0;
        lp_evtrace_reader_free(r);
    }
    if (rc) {
        fprintf(stderr, "make_seeds: %s/%s does not read back: %s at %llu, %s: %s\n", kind, name,
                lp_strerror(rc), (unsigned long long)err.offset, err.field, err.detail);
        exit(1);
    }
}

/* The valid file, three copies cut short (inside the first chunk, midway,
 * one byte before the end) and three with a bit flipped (in the first
 * chunk's payload, midway, in the end chunk) (the fuzz targets also run them with checksums
 * repaired, so a flip there reaches the decoders). */
static void save_with_variants(const char *kind, const char *name, const uint8_t *d, size_t n)
{
    char variant[256];
    verify(kind, name, d, n);
    save(kind, name, d, n);
    size_t cuts[] = {30, n / 2, n - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        if (cuts[i] >= n)
            continue;
        snprintf(variant, sizeof variant, "%s-cut%zu", name, cuts[i]);
        save(kind, variant, d, cuts[i]);
    }
    uint8_t *copy = malloc(n);
    size_t flips[] = {21, n / 2, n - 9};
    for (size_t i = 0; i < sizeof flips / sizeof flips[0]; i++) {
        if (flips[i] >= n)
            continue;
        memcpy(copy, d, n);
        copy[flips[i]] ^= (uint8_t)(1u << (i % 8));
        snprintf(variant, sizeof variant, "%s-flip%zu", name, flips[i]);
        save(kind, variant, copy, n);
    }
    free(copy);
}

static void meta_and_modules(lp_meta *m, lp_module_map *mods)
{
    memset(m, 0, sizeof *m);
    memset(mods, 0, sizeof *mods);
    must(lp_meta_set(m, "program", "/usr/bin/bzip2"), "meta");
    must(lp_meta_set(m, "args", "-k -9 data.bin"), "meta");
    must(lp_meta_set(m, "complete", "yes"), "meta");
    uint8_t id[20];
    for (int i = 0; i < 20; i++)
        id[i] = (uint8_t)(0x30 + i);
    must(lp_module_map_add(mods, "/usr/bin/bzip2", 0x555555554000, 0x12000, 0x555555554000, id, 20),
         "modules");
    must(lp_module_map_add(mods, "/usr/lib/x86_64-linux-gnu/libbz2.so.1.0.4", 0x7ffff7f80000,
                           0x10000, 0x7ffff7f70000, NULL, 0),
         "modules");
}

static void profile_seeds(void)
{
    lp_profile_set s;
    lp_membuf m = {0};
    memset(&s, 0, sizeof s);
    must(lp_profile_file_write(&s, lp_membuf_sink(&m)), "write");
    verify("profile", "empty", m.data, m.size);
    save("profile", "empty", m.data, m.size);
    lp_membuf_free(&m);

    meta_and_modules(&s.meta, &s.modules);
    lp_profile *p;
    must(lp_profile_set_add(&s, LP_PROF_EDGE, LP_PHASE_NONE, &p), "add");
    for (uint64_t i = 0; i < 12; i++)
        lp_table_upsert(&p->table, (lp_key){0x401000 + i * 24, 0x401000 + i * 24 + 40})->v[0] =
            i * 100 + 1;
    must(lp_profile_set_add(&s, LP_PROF_VALUE, 2, &p), "add");
    p->scale_num = 64;
    p->scale_den = 1;
    p->first_insn = 20000000;
    p->last_insn = 30000000;
    for (uint64_t i = 0; i < 10; i++)
        lp_table_upsert(&p->table, (lp_key){0x402000 + (i / 3) * 8, i * i * 0x10001})->v[0] = i;
    must(lp_profile_set_add(&s, LP_PROF_CODE_REGION, LP_PHASE_NONE, &p), "add");
    for (uint64_t i = 0; i < 8; i++) {
        lp_entry *e = lp_table_upsert(&p->table, (lp_key){0x401100 + i * 16, 0});
        e->v[0] = 1000 - i;
        e->v[1] = 7000 + i;
    }
    must(lp_profile_set_add(&s, LP_PROF_CALL_PAIR, 0, &p), "add");
    lp_table_upsert(&p->table, (lp_key){UINT64_MAX, 3})->v[0] = UINT64_MAX;
    must(lp_profile_file_write(&s, lp_membuf_sink(&m)), "write");
    save_with_variants("profile", "small", m.data, m.size);

    /* The same with an optional chunk of an unknown type before the end. */
    size_t end_at = m.size - (LP__CHUNK_HEAD + 1 + LP__CHUNK_TAIL);
    lp_membuf o = {0};
    lp_sink os = lp_membuf_sink(&o);
    os.write(os.ctx, m.data, end_at);
    uint8_t head[LP__CHUNK_HEAD] = {0x00, 0x02, 0x01, 0x00, 3, 0, 0, 0}, body[3] = {1, 2, 3};
    uint32_t crc = lp__crc32(lp__crc32(0, head, sizeof head), body, sizeof body);
    uint8_t tail[4] = {(uint8_t)crc, (uint8_t)(crc >> 8), (uint8_t)(crc >> 16),
                       (uint8_t)(crc >> 24)};
    os.write(os.ctx, head, sizeof head);
    os.write(os.ctx, body, sizeof body);
    os.write(os.ctx, tail, sizeof tail);
    os.write(os.ctx, m.data + end_at, m.size - end_at);
    verify("profile", "optional-chunk", o.data, o.size);
    save("profile", "optional-chunk", o.data, o.size);
    lp_membuf_free(&o);
    lp_membuf_free(&m);
    lp_profile_set_fini(&s);

    /* A profile continued in a part chunk, built by hand. */
    lp__buf b = {0};
    lp_sink sink = lp_membuf_sink(&m);
    must(lp__header_write(sink, LP_FILE_PROFILE), "header");
    must(lp__meta_write(sink, NULL, &b), "meta");
    must(lp__modules_write(sink, NULL, &b), "modules");
    lp__buf_reset(&b);
    uint64_t fields[] = {
        LP_PROF_BLOCK, 0, 0, 100, 1, 1, 1, LP__KEYS_PLAIN, 2, 10, 0, 5, 50, 0, 0, 6, 60};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        lp__buf_varint(&b, fields[i]);
    must(lp__chunk_write(sink, LP__CH_PROFILE, b.data, b.size, NULL, 0), "profile");
    lp__buf_reset(&b);
    uint64_t part[] = {1, LP__KEYS_RELATIVE, 1, 4, 9, 7, 70};
    for (size_t i = 0; i < sizeof part / sizeof part[0]; i++)
        lp__buf_varint(&b, part[i]);
    must(lp__chunk_write(sink, LP__CH_PROFILE_PART, b.data, b.size, NULL, 0), "part");
    uint8_t one = 1;
    must(lp__chunk_write(sink, LP__CH_END, &one, 1, NULL, 0), "end");
    save_with_variants("profile", "parts", m.data, m.size);
    lp__buf_free(&b);
    lp_membuf_free(&m);
}

static void fill_interval(lp_interval *iv, uint64_t k, uint32_t types)
{
    lp_interval_clear(iv);
    iv->index = k;
    iv->first_insn = k * 100000;
    iv->insns = 100000 + k;
    for (int b = 0; b < LP_SIG_BUCKETS; b++)
        iv->sig.bucket[b] = (uint64_t)((b * 7 + (int)k * 3) % 11) * 1000;
    for (unsigned t = 1; t <= LP_PROF_TYPE_MAX; t++) {
        if (!(types & (1u << t)))
            continue;
        for (uint64_t i = 0; i < 4; i++) {
            lp_key key = {0x401000 + ((i + k) % 6) * 32, t == LP_PROF_EDGE ? 0x401000 + i * 8 : 0};
            lp_entry *e = lp_table_upsert(&iv->tables[t], key);
            e->v[0] = 10 * i + k + 1;
            e->v[1] = t == LP_PROF_EDGE ? 0 : e->v[0] * 5;
        }
    }
}

static void imatrix_one(const char *name, uint32_t types, int intervals, int with_meta)
{
    lp_meta meta;
    lp_module_map mods;
    meta_and_modules(&meta, &mods);
    lp_membuf m = {0};
    lp_imatrix_writer *w;
    must(lp_imatrix_writer_create(lp_membuf_sink(&m), with_meta ? &meta : NULL, 100000, types, &w),
         "imatrix create");
    lp_interval iv;
    lp_interval_init(&iv);
    for (int k = 0; k < intervals; k++) {
        fill_interval(&iv, (uint64_t)k, types);
        must(lp_imatrix_writer_add(w, &iv), "imatrix add");
    }
    must(lp_imatrix_writer_finish(w, with_meta ? &mods : NULL), "imatrix finish");
    lp_imatrix_writer_free(w);
    lp_interval_fini(&iv);
    verify("imatrix", name, m.data, m.size);
    if (intervals)
        save_with_variants("imatrix", name, m.data, m.size);
    else
        save("imatrix", name, m.data, m.size);
    lp_membuf_free(&m);
    lp_meta_fini(&meta);
    lp_module_map_fini(&mods);
}

static void imatrix_seeds(void)
{
    imatrix_one("empty", 1u << LP_PROF_EDGE, 0, 0);
    imatrix_one("small", (1u << LP_PROF_EDGE) | (1u << LP_PROF_BLOCK) | (1u << LP_PROF_CODE_REGION),
                4, 1);
    imatrix_one("all-types", 0x3fe, 2, 1);

    /* An interval continued in a part chunk, built by hand. */
    lp_membuf m = {0};
    lp__buf b = {0};
    lp_sink sink = lp_membuf_sink(&m);
    must(lp__header_write(sink, LP_FILE_IMATRIX), "header");
    must(lp__meta_write(sink, NULL, &b), "meta");
    uint8_t mat[] = {100, 1u << LP_PROF_EDGE};
    must(lp__chunk_write(sink, LP__CH_MATRIX, mat, sizeof mat, NULL, 0), "matrix");
    uint64_t dict[] = {LP_PROF_EDGE, 0, LP__KEYS_RELATIVE, 3, 0x400, 4, 0, 0, 8, 2};
    lp__buf_reset(&b);
    for (size_t i = 0; i < sizeof dict / sizeof dict[0]; i++)
        lp__buf_varint(&b, dict[i]);
    must(lp__chunk_write(sink, LP__CH_DICT, b.data, b.size, NULL, 0), "dict");
    lp__buf_reset(&b);
    lp__buf_varint(&b, 7);   /* index */
    lp__buf_varint(&b, 700); /* first_insn */
    lp__buf_varint(&b, 100); /* insns */
    for (int k = 0; k < LP_SIG_BUCKETS; k++)
        lp__buf_varint(&b, (uint64_t)k);
    uint64_t rest[] = {1, 2, 0, 0, 5, 9, 0, 6, 0}; /* one part; 2 edges, v1 kept */
    for (size_t i = 0; i < sizeof rest / sizeof rest[0]; i++)
        lp__buf_varint(&b, rest[i]);
    must(lp__chunk_write(sink, LP__CH_INTERVAL, b.data, b.size, NULL, 0), "interval");
    lp__buf_reset(&b);
    uint64_t part[] = {7, 1, 1, 1, 0, 3};
    for (size_t i = 0; i < sizeof part / sizeof part[0]; i++)
        lp__buf_varint(&b, part[i]);
    must(lp__chunk_write(sink, LP__CH_INTERVAL_PART, b.data, b.size, NULL, 0), "part");
    must(lp__modules_write(sink, NULL, &b), "modules");
    uint8_t end[] = {1, 100};
    must(lp__chunk_write(sink, LP__CH_END, end, sizeof end, NULL, 0), "end");
    save_with_variants("imatrix", "parts", m.data, m.size);
    lp__buf_free(&b);
    lp_membuf_free(&m);
}

static void make_events(lp_event *ev, int n)
{
    uint64_t pc = 0x401000, ic = 0;
    for (int i = 0; i < n; i++) {
        lp_event *e = &ev[i];
        memset(e, 0, sizeof *e);
        e->kind = (uint8_t)(1 + i % 6);
        e->tid = i > n / 2 ? 2 : 1;
        ic += 3 + (uint64_t)i % 7;
        pc += (uint64_t)(i % 5) * 6;
        e->pc = pc;
        e->icount = ic;
        e->a = e->kind == LP_EV_BLOCK ? 5 : pc + 64 - (uint64_t)i;
        e->b = e->kind == LP_EV_CALL ? 0x7ffffffde000 - (uint64_t)i * 16 : (uint64_t)i;
        e->flags = e->kind == LP_EV_BRANCH ? (uint8_t)(i % 4) : 0;
        e->size = e->kind >= LP_EV_LOAD ? 8 : 0;
    }
}

static void events_seeds(void)
{
    lp_meta meta;
    lp_module_map mods;
    meta_and_modules(&meta, &mods);
    lp_membuf m = {0};
    lp_evtrace_writer *w;
    must(lp_evtrace_writer_create(lp_membuf_sink(&m), NULL, &w), "events create");
    must(lp_evtrace_writer_finish(w, NULL), "events finish");
    lp_evtrace_writer_free(w);
    verify("events", "empty", m.data, m.size);
    save("events", "empty", m.data, m.size);
    lp_membuf_free(&m);

    lp_event ev[60];
    make_events(ev, 60);
    ev[30].pc = UINT64_MAX;
    ev[31].tid = UINT32_MAX;
    ev[31].size = UINT16_MAX;
    ev[31].flags = 0xff;
    must(lp_evtrace_writer_create(lp_membuf_sink(&m), &meta, &w), "events create");
    for (int i = 0; i < 60; i++)
        must(lp_evtrace_writer_add(w, &ev[i]), "events add");
    must(lp_evtrace_writer_finish(w, &mods), "events finish");
    lp_evtrace_writer_free(w);
    save_with_variants("events", "small", m.data, m.size);
    lp_membuf_free(&m);

    /* Three events chunks of 10, 1 and 5 events, built by hand. */
    lp__buf b = {0};
    lp_sink sink = lp_membuf_sink(&m);
    must(lp__header_write(sink, LP_FILE_EVENTS), "header");
    must(lp__meta_write(sink, &meta, &b), "meta");
    int sizes[] = {10, 1, 5}, at = 0;
    for (int c = 0; c < 3; c++) {
        lp__evstate st;
        lp__evstate_reset(&st);
        lp__buf_reset(&b);
        for (int i = 0; i < sizes[c]; i++)
            lp__event_put(&b, &st, &ev[at++]);
        uint8_t count = (uint8_t)sizes[c];
        must(lp__chunk_write(sink, LP__CH_EVENTS, &count, 1, b.data, b.size), "events");
    }
    must(lp__modules_write(sink, &mods, &b), "modules");
    uint8_t end = (uint8_t)at;
    must(lp__chunk_write(sink, LP__CH_END, &end, 1, NULL, 0), "end");
    save_with_variants("events", "chunks", m.data, m.size);
    lp__buf_free(&b);
    lp_membuf_free(&m);
    lp_meta_fini(&meta);
    lp_module_map_fini(&mods);
}

/* ACF texts: every statement and spelling of doc/acf.md (good), and one
 * of each kind of mistake (bad). Each must parse, or fail, as named. */
static void acf_seeds(void)
{
    static const struct {
        const char *name;
        int good;
        const char *text;
    } seeds[] = {
        {"fig6", 1,
         "# Fig. 6 as printed\n"
         "P1:\tT.OPCLASS == branch && zero_0 \xe2\x87\x92 R1, null\n"
         "R1:\tcall(Branch_handler, T.INSN); T.INSN;\n"
         "P2:\tT.OPCLASS == proc_call (T.OPCLASS == branch && T.PC < T.Target) && zero_0 "
         "\xe2\x87\x92 R2, null\n"
         "R2:\tcall(HotMethod_handler, T.INSN); T.INSN;\n"
         "P3:\tT.OPCLASS == proc_call && zero_0 \xe2\x87\x92 R3, null\n"
         "R3:\tcall(CallPair_handler, T.INSN); T.INSN;\n"},
        {"triggers", 1,
         "P0 : T.OP == on_trig_inst -> set_0(HPS_R0), null\n"
         "P0 : T.OP == off_trig_inst \xe2\x86\x92 set_0(HPS_R1), null\n"
         "P0 : T.OPCLASS == proc_call&&zero_0 => null, R0\n"
         "R0 : call(HotMethod_Handler); T.INSN\n"},
        {"bursty", 1,
         "// two counters\r\n"
         "HPS_R2 = 64536\nHPS_R3 = 0xff9c\n"
         "counter 0 width 16 = HPS_R2\ncounter 1 = HPS_R3\ncounter 2 width 3 = 5\n"
         "P1: (T.OPCLASS == call || (branch == T.OPCLASS && T.TARGET <= T.PC)) && !overflow_0 "
         "-> inc_0, null\n"
         "P2: T.OPCLASS == any && overflow_0 && !overflow_1 -> inc_1; dec_2, R1\n"
         "P3: !(T.PC >= 0x401000 || 4096 > T.TARGET) || overflow_1 -> set_0(HPS_R4); "
         "set_1(HPS_R3), null\n"
         "P4: T.OP != trig_inst && T.OPCLASS != indirect || T.OP == none -> r1\n"
         "R1: call(CallPair_handler, T.INSN); call(branch_handler); T.INSN\n"},
        {"classes", 1,
         "P1: T.OPCLASS == cond_branch || T.OPCLASS == uncond_branch || T.OPCLASS == ret -> null\n"
         "P2: T.OPCLASS == load || T.OPCLASS == store || T.PC != 18446744073709551615 -> null\n"
         "R9: T.INSN\n"},
        {"bad-label", 0, "T.OP == on_trig_inst -> set_0(HPS_R0), null\n"},
        {"bad-types", 0, "P1: T.OPCLASS < 5 -> null\n"},
        {"bad-insn", 0, "R1: T.INSN; call(Branch_handler)\n"},
        {"bad-undefined", 0, "P1: zero_0 -> R7, null\n"},
        {"bad-items", 0, "R1: T.INSN\nP1: zero_0 -> R1, R1\n"},
        {"bad-counter", 0, "counter 0 width 4 = 16\n"},
        {"bad-paren", 0, "P1: (zero_0 || (zero_1) -> null\n"},
    };
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        lp_hps_acf acf;
        lp_hps_diag err;
        const char *t = seeds[i].text;
        int rc = lp_hps_parse(t, strlen(t), &acf, &err);
        lp_hps_acf_free(&acf);
        if ((rc == 0) != seeds[i].good) {
            fprintf(stderr, "make_seeds: acf/%s: %s (%u:%u: %s)\n", seeds[i].name,
                    rc ? "does not parse" : "parses but should not", err.line, err.column,
                    rc ? err.message : "");
            exit(1);
        }
        save("acf", seeds[i].name, (const uint8_t *)t, strlen(t));
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
        return 2;
    }
    out_dir = argv[1];
    if (mkdir(out_dir, 0777) != 0 && errno != EEXIST) {
        perror(out_dir);
        return 1;
    }
    profile_seeds();
    imatrix_seeds();
    events_seeds();
    acf_seeds();
    return 0;
}
