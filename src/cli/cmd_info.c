/* `lowprof info`: describes any lowprof file: its kind and format version,
 * size, metadata and module map, then what the kind holds: a profile's
 * profiles with their entry counts and totals, an interval matrix's
 * intervals, an event trace's events by kind. It says whether a matrix or
 * trace ends properly or was cut short.
 *
 * Interval matrices and event traces are streamed from the file, so a
 * description costs one pass and the memory of one interval, whatever the
 * file's size. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lowprof/report.h"

const char cmd_info_help[] =
    "usage: lowprof info FILE...\n"
    "\n"
    "Describes each lowprof FILE, whatever its kind:\n"
    "  every kind       kind, format version, size, metadata (program, arguments,\n"
    "                   completeness, ...), module map (text range, bias, build id)\n"
    "  profile          each profile: type, phase, entries, counter totals, scale\n"
    "  interval matrix  interval length, number of intervals, total instructions,\n"
    "                   profile types carried and their entries\n"
    "  event trace      events by kind, threads, instructions\n"
    "An interval matrix or event trace without its end chunk (a recording cut\n"
    "short) is described up to where it ends and reported as TRUNCATED.\n"
    "\n"
    "Exit status: 0 if every file was read (truncated ones included), 1 if any\n"
    "file is missing or damaged; the error names the file, the byte offset and\n"
    "the field.\n"
    "\n"
    "Example:\n"
    "  lowprof info run.lpprof run.lpim\n";

/* ---- a streaming source over a stdio file ----------------------------------------- */

static int info_file_read(void *ctx, void *buf, size_t size, size_t *out_got)
{
    FILE *f = ctx;
    *out_got = fread(buf, 1, size, f);
    return *out_got < size && ferror(f) ? LP_EIO : 0;
}

/* ---- shared parts ---------------------------------------------------------------- */

static void info_meta(const lp_meta *m)
{
    printf("  meta (%zu items)\n", m->count);
    size_t w = 0;
    for (size_t i = 0; i < m->count; i++)
        if (strlen(m->items[i].key) > w)
            w = strlen(m->items[i].key);
    for (size_t i = 0; i < m->count; i++)
        printf("    %-*s  %s\n", (int)w, m->items[i].key, m->items[i].value);
}

static void info_modules(const lp_module_map *mods)
{
    printf("  modules (%zu)\n", mods->count);
    if (mods->count == 0)
        return;
    const char *heading[] = {"text start", "text end", "bias", "build id", "path"};
    lp_tab t;
    lp_tab_init(&t, "lllll", heading);
    for (size_t i = 0; i < mods->count; i++) {
        const lp_module *m = &mods->items[i];
        char id[2 * 32 + 1];
        for (size_t k = 0; k < m->build_id_len && k < 32; k++)
            snprintf(id + 2 * k, 3, "%02x", m->build_id[k]);
        id[2 * (m->build_id_len < 32 ? m->build_id_len : 32)] = '\0';
        lp_tab_cell(&t, "0x%llx", (unsigned long long)m->start);
        lp_tab_cell(&t, "0x%llx", (unsigned long long)(m->start + m->size));
        if (m->bias < 0)
            lp_tab_cell(&t, "-0x%llx", (unsigned long long)-(uint64_t)m->bias);
        else
            lp_tab_cell(&t, "0x%llx", (unsigned long long)m->bias);
        lp_tab_cell(&t, "%s", id[0] ? id : "-");
        lp_tab_cell(&t, "%s", m->path ? m->path : "?");
    }
    lp_tab_print(&t, stdout, 4);
    lp_tab_fini(&t);
}

static void info_types(uint32_t mask)
{
    printf("  types carried   ");
    int any = 0;
    for (unsigned t = 1; t <= LP_PROF_TYPE_MAX; t++)
        if (mask & (1u << t)) {
            printf("%s%s", any ? ", " : "", lp_profile_type_name(t));
            any = 1;
        }
    printf("%s\n", any ? "" : "none");
}

static void info_completeness(const lp_meta *m)
{
    const char *complete = lp_meta_get(m, "complete");
    const char *reason = lp_meta_get(m, "incomplete-reason");
    if (complete && strcmp(complete, "no") == 0)
        printf("  recording       INCOMPLETE: %s\n",
               reason && reason[0] ? reason : "reason unknown");
    else if (complete && strcmp(complete, "yes") == 0)
        printf("  recording       complete\n");
}

/* ---- per kind ------------------------------------------------------------------- */

static int info_profile(const char *path, FILE *f)
{
    lp_profile_set set;
    lp_read_error err;
    memset(&err, 0, sizeof err);
    lp_source src = {info_file_read, f};
    int rc = lp_profile_file_read(src, &set, &err);
    if (rc) {
        lp_host_print_read_error(path, rc, &err);
        return 1;
    }
    info_completeness(&set.meta);
    info_meta(&set.meta);
    info_modules(&set.modules);
    printf("  profiles (%zu)\n", set.count);
    if (set.count) {
        const char *heading[] = {"type", "phase", "entries", "totals", "scale", "instructions"};
        lp_tab t;
        lp_tab_init(&t, "llrlll", heading);
        for (size_t i = 0; i < set.count; i++) {
            const lp_profile *p = &set.profiles[i];
            uint64_t v0 = 0, v1 = 0;
            size_t cursor = 0;
            for (lp_entry *e; (e = lp_table_next(&p->table, &cursor)) != NULL;) {
                v0 += e->v[0];
                v1 += e->v[1];
            }
            char c0[32], c1[32], c2[32], c3[32];
            const char *name = lp_profile_type_name(p->type);
            const char *n0 = lp_report_counter_name(p->type, 0);
            const char *n1 = lp_report_counter_name_in(&set.meta, p->type, 1);
            if (name)
                lp_tab_cell(&t, "%s", name);
            else
                lp_tab_cell(&t, "type %u", p->type);
            if (p->phase == LP_PHASE_NONE)
                lp_tab_cell(&t, "whole run");
            else
                lp_tab_cell(&t, "%u", p->phase);
            lp_tab_cell(&t, "%s", lp_fmt_count(p->table.count, c0));
            if (n1)
                lp_tab_cell(&t, "%s %s, %s %s", lp_fmt_count(v0, c1), n0, lp_fmt_count(v1, c2),
                             n1);
            else
                lp_tab_cell(&t, "%s %s", lp_fmt_count(v0, c1), n0);
            if (p->scale_num == p->scale_den)
                lp_tab_cell(&t, "exhaustive");
            else
                lp_tab_cell(&t, "%llu/%llu", (unsigned long long)p->scale_num,
                             (unsigned long long)p->scale_den);
            if (p->last_insn > p->first_insn)
                lp_tab_cell(&t, "[%s, %s)", lp_fmt_count(p->first_insn, c1),
                             lp_fmt_count(p->last_insn, c3));
            else
                lp_tab_cell(&t, "-");
        }
        lp_tab_print(&t, stdout, 4);
        lp_tab_fini(&t);
    }
    lp_profile_set_fini(&set);
    return 0;
}

static int info_imatrix(const char *path, FILE *f)
{
    lp_imatrix_reader *r = NULL;
    lp_read_error err;
    memset(&err, 0, sizeof err);
    lp_source src = {info_file_read, f};
    int rc = lp_imatrix_reader_open(src, &r, &err);
    if (rc) {
        lp_host_print_read_error(path, rc, &err);
        return 1;
    }
    const lp_meta *meta = lp_imatrix_reader_meta(r);
    uint32_t types = lp_imatrix_reader_types(r);
    lp_interval iv;
    if (lp_interval_init(&iv) != 0) {
        lp_imatrix_reader_free(r);
        return lp_host_fail("out of memory");
    }
    uint64_t intervals = 0, insns = 0, shortest = UINT64_MAX, longest = 0;
    uint64_t entries[LP_PROF_TYPE_MAX + 1] = {0};
    while ((rc = lp_imatrix_reader_next(r, &iv, &err)) == 1) {
        intervals++;
        insns += iv.insns;
        if (iv.insns < shortest)
            shortest = iv.insns;
        if (iv.insns > longest)
            longest = iv.insns;
        for (unsigned t = 1; t <= LP_PROF_TYPE_MAX; t++)
            entries[t] += iv.tables[t].count;
    }
    int status = 0;
    char c1[32], c2[32];
    info_completeness(meta);
    printf("  interval length %s instructions\n",
           lp_fmt_count(lp_imatrix_reader_interval_length(r), c1));
    info_types(types);
    printf("  intervals       %s\n", lp_fmt_count(intervals, c1));
    printf("  instructions    %s\n", lp_fmt_count(insns, c1));
    if (intervals)
        printf("  interval sizes  %s to %s instructions\n", lp_fmt_count(shortest, c1),
               lp_fmt_count(longest, c2));
    for (unsigned t = 1; t <= LP_PROF_TYPE_MAX; t++)
        if ((types & (1u << t)) || entries[t])
            printf("    %-14s %s entries over all intervals\n", lp_profile_type_name(t),
                   lp_fmt_count(entries[t], c1));
    if (rc == 0) {
        printf("  ends            properly\n");
    } else if (rc == LP_ETRUNC) {
        printf("  ends            TRUNCATED after %s intervals: no end chunk (the recording "
               "was cut short; every interval before the cut is readable)\n",
               lp_fmt_count(intervals, c1));
    } else {
        lp_host_print_read_error(path, rc, &err);
        status = 1;
    }
    info_meta(meta);
    if (rc == 0)
        info_modules(lp_imatrix_reader_modules(r));
    else
        printf("  modules         (not read: the module map follows the last interval)\n");
    lp_interval_fini(&iv);
    lp_imatrix_reader_free(r);
    return status;
}

static int info_events(const char *path, FILE *f)
{
    lp_evtrace_reader *r = NULL;
    lp_read_error err;
    memset(&err, 0, sizeof err);
    lp_source src = {info_file_read, f};
    int rc = lp_evtrace_reader_open(src, &r, &err);
    if (rc) {
        lp_host_print_read_error(path, rc, &err);
        return 1;
    }
    static const char *const kinds[] = {"other", "branch", "call", "return",
                                        "block", "load",   "store"};
    uint64_t by_kind[7] = {0}, total = 0, last_icount = 0;
    uint32_t max_tid = 0;
    lp_event ev;
    while ((rc = lp_evtrace_reader_next(r, &ev, &err)) == 1) {
        total++;
        by_kind[ev.kind <= LP_EV_STORE ? ev.kind : 0]++;
        if (ev.icount > last_icount)
            last_icount = ev.icount;
        if (ev.tid > max_tid)
            max_tid = ev.tid;
    }
    int status = 0;
    char c1[32];
    const lp_meta *meta = lp_evtrace_reader_meta(r);
    info_completeness(meta);
    printf("  events          %s\n", lp_fmt_count(total, c1));
    for (unsigned k = 1; k < 7; k++)
        printf("    %-14s %s\n", kinds[k], lp_fmt_count(by_kind[k], c1));
    if (by_kind[0])
        printf("    %-14s %s\n", "unknown kind", lp_fmt_count(by_kind[0], c1));
    printf("  threads         %u (highest thread id)\n", max_tid);
    printf("  instructions    %s (running count at the last event)\n",
           lp_fmt_count(last_icount, c1));
    if (rc == 0) {
        printf("  ends            properly\n");
    } else if (rc == LP_ETRUNC) {
        printf("  ends            TRUNCATED after %s events: no end chunk (the recording was "
               "cut short)\n",
               lp_fmt_count(total, c1));
    } else {
        lp_host_print_read_error(path, rc, &err);
        status = 1;
    }
    info_meta(meta);
    if (rc == 0)
        info_modules(lp_evtrace_reader_modules(r));
    else
        printf("  modules         (not read: the module map follows the last event)\n");
    lp_evtrace_reader_free(r);
    return status;
}

/* Describes one file; returns 0 or 1. */
static int info_one(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return lp_host_fail("%s: %s", path, strerror(errno));
    uint8_t head[4096];
    size_t got = fread(head, 1, sizeof head, f);
    if (ferror(f)) {
        fclose(f);
        return lp_host_fail("%s: %s", path, strerror(errno));
    }
    unsigned kind = 0, version = 0;
    int rc = lp_file_sniff(head, got, &kind, &version);
    if (rc) {
        fclose(f);
        return lp_host_fail("%s: not a lowprof file (%s)", path, lp_strerror(rc));
    }
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    rewind(f);
    char c[32];
    const char *kind_name = lp_file_kind_name(kind);
    printf("%s\n", path);
    printf("  kind            %s, format version %u\n", kind_name ? kind_name : "?", version);
    if (size >= 0)
        printf("  size            %s bytes\n", lp_fmt_count((uint64_t)size, c));
    int status;
    switch (kind) {
    case LP_FILE_PROFILE: status = info_profile(path, f); break;
    case LP_FILE_IMATRIX: status = info_imatrix(path, f); break;
    case LP_FILE_EVENTS: status = info_events(path, f); break;
    default: status = lp_host_fail("%s: a lowprof file of a kind this build does not know", path);
    }
    fclose(f);
    return status;
}

int cmd_info(int argc, char **argv)
{
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (argv[i][0] == '-' && argv[i][1] != '\0')
            return lp_host_usage("info", "unknown option '%s'", argv[i]);
    }
    int status = 0, files_only = 0;
    for (int i = 1; i < argc; i++) {
        if (!files_only && strcmp(argv[i], "--") == 0) {
            files_only = 1;
            continue;
        }
        if (nfiles++)
            printf("\n");
        if (info_one(argv[i]) != 0)
            status = 1;
    }
    if (nfiles == 0)
        return lp_host_usage("info", "no FILE given");
    fflush(stdout);
    return status;
}
