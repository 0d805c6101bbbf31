/* `lowprof export --format pprof`: the gzipped profile.proto that the pprof
 * tool (and the viewers built on its format) opens, so a lowprof profile can
 * be browsed with `pprof -top`, `-list`, `-http` and friends.
 *
 * What goes in (doc/lowprof-export.md says the same for users):
 *   - sample types, one per kind of count the profile set holds, in this
 *     order: instructions and executions (from the basic-block profile, or
 *     the code-region profile without one; instructions only when counted),
 *     invocations (method profile), calls (call-pair profile, or the call
 *     graph without one), and context_instructions (the Valgrind tool's
 *     context profile) or context_samples (the native runtime's). All are
 *     "count"s. The default is the first one present, the quantity
 *     `lowprof report` leads with;
 *   - samples: a block, code region or method entry is a stack of one
 *     frame, its own address, and a call pair a stack of two, [callee
 *     entry, call site] (leaf first, as the format wants), weighted by its
 *     calls; samples on the same stack share one entry with a value per
 *     type. A calling context with a self count is a sample of its own with
 *     its whole stack, a frame per function (at the address the context
 *     profile keys it by). A sampled profile gives its estimates;
 *   - one location per address with one line (function and source line),
 *     or, where the address lies in code the compiler inlined, one line per
 *     level of the DWARF inline chain, innermost first (each inlined
 *     function at its line, then each caller at the line of the call, the
 *     symbol's own function last), as pprof expects; functions with the
 *     name reports use (inlined ones: their DWARF name, C++ demangled), the
 *     symbol-table (or linkage) name as system_name, the file and line of
 *     their entry (inlined ones: of their declaration);
 *   - one mapping per recorded module, main program first: its text range,
 *     the file offset of its start (from the ELF program headers), path and
 *     hex build id, marked as already symbolized so pprof trusts our names;
 *   - comments with the program, command line, recording time and the
 *     one-frame caveat above; time_nanos from the recording time; period 1
 *     of the default type (every event is counted).
 * The message is packed with protobuf-c from pprof_profile.proto, compiled
 * at build time, and gzipped with zlib as pprof's readers expect. */
#define _POSIX_C_SOURCE 200809L /* strdup, O_CLOEXEC */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "export_internal.h"
#include "pprof_profile.pb-c.h"

typedef Lowprof__Pprof__Profile pp_profile;
typedef Lowprof__Pprof__ValueType pp_value_type;
typedef Lowprof__Pprof__Sample pp_sample_msg;
typedef Lowprof__Pprof__Mapping pp_mapping;
typedef Lowprof__Pprof__Location pp_location;
typedef Lowprof__Pprof__Line pp_line;
typedef Lowprof__Pprof__Function pp_function;

/* The kinds of count, in sample_type order. */
enum { PP_INSNS, PP_EXECS, PP_INVOCATIONS, PP_CALLS, PP_CONTEXT, PP_NKINDS };
/* PP_CONTEXT's name depends on what weighs the contexts (pp_builder). */
static const char *const pp_kind_names[PP_NKINDS] = {"instructions", "executions", "invocations",
                                                     "calls", NULL};

/* A stack of at most two locations, or a whole calling context's (stack,
 * leaf first, owned), and its values by kind. */
typedef struct pp_sample {
    uint64_t loc[2];
    uint64_t *stack;
    size_t nloc;
    int64_t value[PP_NKINDS];
} pp_sample;

/* Everything the profile message points into, owned here. */
typedef struct pp_builder {
    const lp_profile_set *s;
    lp_names *nm;
    /* strings: copies, deduplicated through strings_index (key: content
     * hash, probe number; v0: index) */
    char **strings;
    char **originals; /* the same strings as given, for lookups */
    size_t nstrings, cap_strings;
    lp_table strings_index;
    /* functions, keyed (name, file) string indices -> id */
    pp_function *functions;
    size_t nfunctions, cap_functions;
    lp_table functions_index;
    /* locations, keyed (address, 0) -> id; their lines, innermost first,
     * are lines[line_first[i]] on (n_line of them) */
    pp_location *locations;
    size_t *line_first;
    size_t nlocations, cap_locations;
    lp_table locations_index;
    pp_line *lines;
    size_t nlines, cap_lines;
    /* mappings, one per module; module_mapping[i] is module i's id */
    pp_mapping *mappings;
    size_t nmappings;
    uint64_t *module_mapping;
    /* samples, keyed (leaf, caller) location ids -> index */
    pp_sample *samples;
    size_t nsamples, cap_samples;
    lp_table samples_index;
    const char *context_kind; /* PP_CONTEXT's sample type name */
} pp_builder;

static int pp_grow(void **items, size_t *cap, size_t count, size_t size)
{
    if (count < *cap)
        return 0;
    size_t n = *cap ? *cap * 2 : 256;
    void *p = realloc(*items, n * size);
    if (!p)
        return LP_ENOMEM;
    *items = p;
    *cap = n;
    return 0;
}

/* ---- the string table ---------------------------------------------------------- */

static uint64_t pp_hash_text(const char *t)
{
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a, then the shared mixer */
    for (const unsigned char *p = (const unsigned char *)t; *p; p++)
        h = (h ^ *p) * 0x100000001b3ULL;
    return lp_hash64(h);
}

/* Length of the valid UTF-8 sequence at p, or 0 if p does not start one. */
static size_t pp_utf8_len(const unsigned char *p)
{
    size_t n = 0;
    if (p[0] < 0x80)
        n = 1;
    else if (p[0] >= 0xc2 && p[0] <= 0xdf)
        n = 2;
    else if (p[0] >= 0xe0 && p[0] <= 0xef)
        n = 3;
    else if (p[0] >= 0xf0 && p[0] <= 0xf4)
        n = 4;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    /* Overlong 3- and 4-byte forms, surrogates and code points past U+10FFFF. */
    if ((n == 3 && ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0))) ||
        (n == 4 && ((p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))))
        return 0;
    return n;
}

/* text with every byte that is not part of valid UTF-8 replaced by '?', in
 * a new string (NULL on no memory): proto3 strings must be UTF-8, and
 * symbol names and paths are only bytes. */
static char *pp_utf8_copy(const char *text)
{
    char *copy = strdup(text);
    if (!copy)
        return NULL;
    for (unsigned char *p = (unsigned char *)copy; *p;) {
        size_t n = pp_utf8_len(p);
        if (n == 0)
            *p++ = '?';
        else
            p += n;
    }
    return copy;
}

/* The index of text in the string table, adding it if new; -1 on no
 * memory. NULL is "" (index 0). Strings are keyed by their text as given,
 * and stored made valid UTF-8. */
static int64_t pp_string(pp_builder *b, const char *text)
{
    if (!text)
        text = "";
    uint64_t h = pp_hash_text(text);
    /* Distinct strings with equal hashes take the next probe number. */
    for (uint64_t probe = 0;; probe++) {
        lp_key k = {h, probe};
        lp_entry *e = lp_table_find(&b->strings_index, k);
        if (e && strcmp(b->originals[e->v[0]], text) == 0)
            return (int64_t)e->v[0];
        if (e)
            continue;
        if (pp_grow((void **)&b->strings, &b->cap_strings, b->nstrings, sizeof *b->strings))
            return -1;
        char **originals = realloc(b->originals, b->cap_strings * sizeof *originals);
        if (!originals)
            return -1;
        b->originals = originals;
        char *copy = pp_utf8_copy(text);
        char *original = copy ? strdup(text) : NULL;
        if (!original) {
            free(copy);
            return -1;
        }
        e = lp_table_upsert(&b->strings_index, k);
        if (!e) {
            free(copy);
            free(original);
            return -1;
        }
        e->v[0] = b->nstrings;
        b->strings[b->nstrings] = copy;
        b->originals[b->nstrings] = original;
        return (int64_t)b->nstrings++;
    }
}

/* ---- mappings ---------------------------------------------------------------------- */

/* The file offset that the runtime address start maps from: the ELF
 * address start - bias located in its PT_LOAD segment. 0 if the file cannot
 * be read (pprof then only misplaces addresses it has no reason to look up:
 * every location already carries its names). Only regular files are opened,
 * without blocking, so a path naming a FIFO cannot stall the export. */
static uint64_t pp_file_offset(const lp_module *m)
{
    int fd = open(m->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    uint64_t offset = 0;
    Elf *elf = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && elf_version(EV_CURRENT) != EV_NONE)
        elf = elf_begin(fd, ELF_C_READ, NULL);
    size_t nph = 0;
    if (elf && elf_getphdrnum(elf, &nph) == 0) {
        uint64_t vaddr = m->start - (uint64_t)m->bias;
        for (size_t i = 0; i < nph; i++) {
            GElf_Phdr ph;
            if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
                continue;
            if (vaddr >= ph.p_vaddr && vaddr - ph.p_vaddr < ph.p_memsz) {
                offset = ph.p_offset + (vaddr - ph.p_vaddr);
                break;
            }
        }
    }
    if (elf)
        elf_end(elf);
    close(fd);
    return offset;
}

static int pp_mappings(pp_builder *b)
{
    const lp_module_map *map = &b->s->modules;
    b->mappings = calloc(map->count ? map->count : 1, sizeof *b->mappings);
    b->module_mapping = calloc(map->count ? map->count : 1, sizeof *b->module_mapping);
    if (!b->mappings || !b->module_mapping)
        return LP_ENOMEM;
    /* pprof takes the first mapping for the main program. */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < map->count; i++) {
            const lp_module *m = &map->items[i];
            if ((m == b->nm->main_module) != (pass == 0))
                continue;
            pp_mapping *x = &b->mappings[b->nmappings];
            lowprof__pprof__mapping__init(x);
            x->id = b->nmappings + 1;
            x->memory_start = m->start;
            x->memory_limit = m->start + m->size;
            x->file_offset = pp_file_offset(m);
            char hex[2 * sizeof m->build_id + 1];
            for (size_t k = 0; k < m->build_id_len && k < sizeof m->build_id; k++)
                snprintf(hex + 2 * k, 3, "%02x", m->build_id[k]);
            hex[2 * (m->build_id_len < sizeof m->build_id ? m->build_id_len
                                                             : sizeof m->build_id)] = '\0';
            x->filename = pp_string(b, m->path);
            x->build_id = pp_string(b, hex);
            if (x->filename < 0 || x->build_id < 0)
                return LP_ENOMEM;
            b->module_mapping[i] = x->id;
            b->nmappings++;
        }
    }
    return 0;
}

/* ---- functions and locations ----------------------------------------------------------- */

static int pp_function_id(pp_builder *b, const char *name, const char *system_name,
                          const char *file, unsigned start_line, uint64_t *out_id)
{
    int64_t n = pp_string(b, name), sn = pp_string(b, system_name), f = pp_string(b, file);
    if (n < 0 || sn < 0 || f < 0)
        return LP_ENOMEM;
    lp_key k = {(uint64_t)n, (uint64_t)f};
    lp_entry *e = lp_table_find(&b->functions_index, k);
    if (e) {
        *out_id = e->v[0];
        return 0;
    }
    if (pp_grow((void **)&b->functions, &b->cap_functions, b->nfunctions, sizeof *b->functions))
        return LP_ENOMEM;
    if (!(e = lp_table_upsert(&b->functions_index, k)))
        return LP_ENOMEM;
    pp_function *x = &b->functions[b->nfunctions];
    lowprof__pprof__function__init(x);
    x->id = ++b->nfunctions;
    x->name = n;
    x->system_name = sn;
    x->filename = f;
    x->start_line = start_line;
    e->v[0] = x->id;
    *out_id = x->id;
    return 0;
}

/* Inline levels read per address; a deeper chain keeps its innermost
 * levels and the symbol's own function (without the line of its call). */
#define PP_MAX_INLINE 16

/* Appends a line (function fid at line) to the location being built. */
static int pp_line_add(pp_builder *b, uint64_t fid, unsigned line)
{
    if (pp_grow((void **)&b->lines, &b->cap_lines, b->nlines, sizeof *b->lines))
        return LP_ENOMEM;
    pp_line *l = &b->lines[b->nlines++];
    lowprof__pprof__line__init(l);
    l->function_id = fid;
    l->line = line;
    return 0;
}

/* The lines of the inlined levels of pc (all but the outermost of its
 * inline chain), innermost first. *out_inlined says whether pc lies in
 * inlined code; if it does, *out_outer_line is the line, in the symbol's
 * own function, of the call the levels were inlined at (0 when the chain
 * was deeper than PP_MAX_INLINE and that level was not read). */
static int pp_inline_lines(pp_builder *b, uint64_t pc, int *out_inlined, unsigned *out_outer_line)
{
    lp_src_frame fr[PP_MAX_INLINE];
    size_t depth = lp_symbolize_frames(b->nm->sym, pc, fr, PP_MAX_INLINE);
    *out_inlined = depth >= 2;
    *out_outer_line = 0;
    if (depth < 2)
        return 0;
    size_t inlined = depth <= PP_MAX_INLINE ? depth - 1 : PP_MAX_INLINE;
    for (size_t k = 0; k < inlined; k++) {
        const char *name = fr[k].name ? fr[k].name : fr[k].function;
        if (!name)
            continue; /* a level DWARF does not name adds nothing to read */
        uint64_t fid;
        int rc = pp_function_id(b, name, fr[k].function, fr[k].decl_file, fr[k].decl_line, &fid);
        if (rc == 0)
            rc = pp_line_add(b, fid, fr[k].line);
        if (rc)
            return rc;
    }
    /* The outermost level is the subprogram itself: its line is the call
     * site of the level inside it. */
    if (depth <= PP_MAX_INLINE)
        *out_outer_line = fr[depth - 1].line;
    return 0;
}

/* The location id of pc, creating the location (and its functions) on
 * first use. The symbol's function is named as the other exports name it
 * (lp_names_group), so stripped code gets the same "MODULE+0xOFFSET" or
 * "[module]" names everywhere. */
static int pp_location_id(pp_builder *b, uint64_t pc, uint64_t *out_id)
{
    lp_key k = {pc, 0};
    lp_entry *e = lp_table_find(&b->locations_index, k);
    if (e) {
        *out_id = e->v[0];
        return 0;
    }
    lp_symbol sym, entry;
    const char *name = lp_names_group(b->nm, pc, &sym);
    uint64_t start = sym.function ? sym.function_entry : lp_names_start(b->nm, pc);
    lp_symbolize(b->nm->sym, start, &entry);
    /* Code without a symbol is grouped per witnessed entry or per module,
     * and a file of one of its addresses would split the group. */
    const char *file = !sym.function ? NULL : entry.file ? entry.file : sym.file;
    uint64_t fid;
    int rc = pp_function_id(b, name, sym.linkage ? sym.linkage : name, file,
                            sym.function && entry.file ? entry.line : 0, &fid);
    if (rc)
        return rc;
    if (b->nlocations == b->cap_locations) {
        size_t cap = b->cap_locations ? b->cap_locations * 2 : 256;
        pp_location *locs = realloc(b->locations, cap * sizeof *locs);
        if (!locs)
            return LP_ENOMEM;
        b->locations = locs;
        size_t *first = realloc(b->line_first, cap * sizeof *first);
        if (!first)
            return LP_ENOMEM;
        b->line_first = first;
        b->cap_locations = cap;
    }
    if (!(e = lp_table_upsert(&b->locations_index, k)))
        return LP_ENOMEM;
    pp_location *x = &b->locations[b->nlocations];
    lowprof__pprof__location__init(x);
    b->line_first[b->nlocations] = b->nlines;
    x->id = ++b->nlocations;
    x->address = pc;
    /* Inlined levels first (only where the symbol is known: the chain
     * comes from the same DWARF), then the symbol's own function; the
     * pointers to the lines are taken at the end, once they no longer
     * move. */
    unsigned outer_line = 0;
    int inlined = 0;
    if (sym.function && (rc = pp_inline_lines(b, pc, &inlined, &outer_line)) != 0)
        return rc;
    if ((rc = pp_line_add(b, fid, inlined ? outer_line : sym.line)) != 0)
        return rc;
    x->n_line = b->nlines - b->line_first[x->id - 1];
    const lp_module *m = lp_module_map_find(&b->s->modules, pc);
    if (m) {
        pp_mapping *map = &b->mappings[b->module_mapping[m - b->s->modules.items] - 1];
        x->mapping_id = map->id;
        map->has_functions = 1;
        map->has_filenames |= sym.file != NULL;
        map->has_line_numbers |= sym.line != 0;
        map->has_inline_frames |= x->n_line > 1;
    }
    e->v[0] = x->id;
    *out_id = x->id;
    return 0;
}

/* ---- samples ----------------------------------------------------------------------------- */

/* Adds value of kind to the stack [leaf] or [leaf, caller] (caller 0: one
 * frame). */
static int pp_add(pp_builder *b, uint64_t leaf_pc, uint64_t caller_pc, int has_caller, int kind,
                  uint64_t value)
{
    if (value == 0)
        return 0;
    uint64_t leaf, caller = 0;
    int rc = pp_location_id(b, leaf_pc, &leaf);
    if (rc == 0 && has_caller)
        rc = pp_location_id(b, caller_pc, &caller);
    if (rc)
        return rc;
    lp_key k = {leaf, caller};
    lp_entry *e = lp_table_find(&b->samples_index, k);
    if (!e) {
        if (pp_grow((void **)&b->samples, &b->cap_samples, b->nsamples, sizeof *b->samples))
            return LP_ENOMEM;
        if (!(e = lp_table_upsert(&b->samples_index, k)))
            return LP_ENOMEM;
        pp_sample *x = &b->samples[b->nsamples];
        memset(x, 0, sizeof *x);
        x->loc[0] = leaf;
        x->loc[1] = caller;
        x->nloc = has_caller ? 2 : 1;
        e->v[0] = b->nsamples++;
    }
    /* Counts beyond INT64_MAX cannot occur in a real run; clamp anyway. */
    int64_t *v = &b->samples[e->v[0]].value[kind];
    uint64_t sum = (uint64_t)*v + value;
    *v = sum > (uint64_t)INT64_MAX || sum < value ? INT64_MAX : (int64_t)sum;
    return 0;
}

/* Adds a calling context's stack (function addresses, root first) as one
 * sample of kind PP_CONTEXT weighing value; contexts are distinct, so it
 * is a sample of its own. */
static int pp_add_context(pp_builder *b, const uint64_t *root_first, size_t depth, uint64_t value)
{
    if (value == 0 || depth == 0)
        return 0;
    uint64_t *stack = malloc(depth * sizeof *stack);
    if (!stack || pp_grow((void **)&b->samples, &b->cap_samples, b->nsamples, sizeof *b->samples)) {
        free(stack);
        return LP_ENOMEM;
    }
    for (size_t k = 0; k < depth; k++) {
        int rc = pp_location_id(b, root_first[depth - 1 - k], &stack[k]);
        if (rc) {
            free(stack);
            return rc;
        }
    }
    pp_sample *x = &b->samples[b->nsamples++];
    memset(x, 0, sizeof *x);
    x->stack = stack;
    x->nloc = depth;
    x->value[PP_CONTEXT] = value > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)value;
    return 0;
}

/* Every context of t with a self count, as a whole stack. */
static int pp_add_contexts(pp_builder *b, const lp__context_tree *t)
{
    size_t *path = malloc((t->count ? t->count : 1) * sizeof *path);
    uint64_t *entries = malloc((t->count ? t->count : 1) * sizeof *entries);
    int rc = path && entries ? 0 : LP_ENOMEM;
    for (size_t i = 0; rc == 0 && i < t->count; i++) {
        if (!t->nodes[i].self)
            continue;
        size_t depth = lp__context_path(t, i, path);
        for (size_t k = 0; k < depth; k++)
            entries[k] = t->nodes[path[k]].entry;
        rc = pp_add_context(b, entries, depth, t->nodes[i].self);
    }
    free(path);
    free(entries);
    return rc;
}

/* ---- the message ---------------------------------------------------------------------------- */

/* Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ" (the recorded-at meta
 * key), or 0 if it does not parse. */
static int64_t pp_parse_time(const char *t)
{
    int y, mo, d, h, mi, s;
    char z;
    if (!t || sscanf(t, "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &s, &z) != 7 ||
        z != 'Z' || mo < 1 || mo > 12 || d < 1 || d > 31)
        return 0;
    /* Days from 1970-01-01 in the proleptic Gregorian calendar. */
    int64_t yy = y - (mo <= 2);
    int64_t era = (yy >= 0 ? yy : yy - 399) / 400;
    int64_t yoe = yy - era * 400;
    int64_t doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    int64_t days = era * 146097 + doe - 719468;
    return days * 86400 + h * 3600 + mi * 60 + s;
}

static int pp_comment(pp_builder *b, int64_t *comments, size_t *n, const char *key,
                      const char *value)
{
    if (!value)
        return 0;
    size_t len = strlen(key) + strlen(value) + 3;
    char *text = malloc(len);
    if (!text)
        return LP_ENOMEM;
    snprintf(text, len, "%s: %s", key, value);
    int64_t i = pp_string(b, text);
    free(text);
    if (i < 0)
        return LP_ENOMEM;
    comments[(*n)++] = i;
    return 0;
}

/* Packs the finished builder, gzips it and writes it to o. */
static int pp_write(pp_builder *b, const int *slot, int nkinds, int default_kind,
                    const int64_t *comments, size_t ncomments, int64_t time_nanos, lp_out *o)
{
    pp_profile p;
    lowprof__pprof__profile__init(&p);
    pp_value_type types[PP_NKINDS], period_type;
    pp_value_type *type_ptrs[PP_NKINDS];
    int64_t count = pp_string(b, "count");
    if (count < 0)
        return LP_ENOMEM;
    for (int k = 0; k < PP_NKINDS; k++) {
        if (slot[k] < 0)
            continue;
        pp_value_type *t = &types[slot[k]];
        lowprof__pprof__value_type__init(t);
        t->type = pp_string(b, k == PP_CONTEXT ? b->context_kind : pp_kind_names[k]);
        t->unit = count;
        if (t->type < 0)
            return LP_ENOMEM;
        type_ptrs[slot[k]] = t;
    }
    period_type = *type_ptrs[slot[default_kind]];
    p.n_sample_type = (size_t)nkinds;
    p.sample_type = type_ptrs;
    p.default_sample_type = period_type.type;
    p.period_type = &period_type;
    p.period = 1;
    p.time_nanos = time_nanos;
    p.comment = (int64_t *)comments;
    p.n_comment = ncomments;

    pp_sample_msg *msgs = calloc(b->nsamples ? b->nsamples : 1, sizeof *msgs);
    pp_sample_msg **msg_ptrs = calloc(b->nsamples ? b->nsamples : 1, sizeof *msg_ptrs);
    int64_t *values = calloc(b->nsamples ? b->nsamples * (size_t)nkinds : 1, sizeof *values);
    pp_location **loc_ptrs = calloc(b->nlocations ? b->nlocations : 1, sizeof *loc_ptrs);
    pp_line **line_ptrs = calloc(b->nlines ? b->nlines : 1, sizeof *line_ptrs);
    pp_function **fn_ptrs = calloc(b->nfunctions ? b->nfunctions : 1, sizeof *fn_ptrs);
    pp_mapping **map_ptrs = calloc(b->nmappings ? b->nmappings : 1, sizeof *map_ptrs);
    uint8_t *packed = NULL, *gz = NULL;
    int rc = LP_ENOMEM;
    if (!msgs || !msg_ptrs || !values || !loc_ptrs || !line_ptrs || !fn_ptrs || !map_ptrs)
        goto done;
    for (size_t i = 0; i < b->nsamples; i++) {
        pp_sample *x = &b->samples[i];
        lowprof__pprof__sample__init(&msgs[i]);
        msgs[i].n_location_id = x->nloc;
        msgs[i].location_id = x->stack ? x->stack : x->loc;
        msgs[i].n_value = (size_t)nkinds;
        msgs[i].value = &values[i * (size_t)nkinds];
        for (int k = 0; k < PP_NKINDS; k++)
            if (slot[k] >= 0)
                msgs[i].value[slot[k]] = x->value[k];
        msg_ptrs[i] = &msgs[i];
    }
    for (size_t i = 0; i < b->nlines; i++)
        line_ptrs[i] = &b->lines[i];
    for (size_t i = 0; i < b->nlocations; i++) {
        b->locations[i].line = &line_ptrs[b->line_first[i]];
        loc_ptrs[i] = &b->locations[i];
    }
    for (size_t i = 0; i < b->nfunctions; i++)
        fn_ptrs[i] = &b->functions[i];
    for (size_t i = 0; i < b->nmappings; i++)
        map_ptrs[i] = &b->mappings[i];
    p.n_sample = b->nsamples;
    p.sample = msg_ptrs;
    p.n_location = b->nlocations;
    p.location = loc_ptrs;
    p.n_function = b->nfunctions;
    p.function = fn_ptrs;
    p.n_mapping = b->nmappings;
    p.mapping = map_ptrs;
    p.n_string_table = b->nstrings;
    p.string_table = b->strings;

    size_t size = lowprof__pprof__profile__get_packed_size(&p);
    packed = malloc(size ? size : 1);
    if (!packed)
        goto done;
    lowprof__pprof__profile__pack(&p, packed);

    /* gzip framing (windowBits 15 + 16), as pprof's reader expects. */
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        goto done;
    uLong bound = deflateBound(&z, (uLong)size) + 32;
    gz = malloc(bound);
    if (!gz) {
        deflateEnd(&z);
        goto done;
    }
    z.next_in = packed;
    z.avail_in = (uInt)size;
    z.next_out = gz;
    z.avail_out = (uInt)bound;
    int zrc = deflate(&z, Z_FINISH);
    size_t gz_size = (size_t)z.total_out;
    deflateEnd(&z);
    if (zrc != Z_STREAM_END) {
        rc = LP_EIO;
        goto done;
    }
    lp_outn(o, gz, gz_size);
    rc = o->err;
done:
    free(gz);
    free(packed);
    free(msgs);
    free(msg_ptrs);
    free(values);
    free(loc_ptrs);
    free(line_ptrs);
    free(fn_ptrs);
    free(map_ptrs);
    return rc;
}

static void pp_builder_fini(pp_builder *b)
{
    for (size_t i = 0; i < b->nstrings; i++) {
        free(b->strings[i]);
        free(b->originals[i]);
    }
    free(b->strings);
    free(b->originals);
    free(b->functions);
    free(b->locations);
    free(b->line_first);
    free(b->lines);
    free(b->mappings);
    free(b->module_mapping);
    for (size_t i = 0; i < b->nsamples; i++)
        free(b->samples[i].stack);
    free(b->samples);
    lp_table_fini(&b->strings_index);
    lp_table_fini(&b->functions_index);
    lp_table_fini(&b->locations_index);
    lp_table_fini(&b->samples_index);
}

/* The views that feed the sample types; merged 0 where a type is absent. */
typedef struct pp_views {
    lp_report_view cost;  /* blocks, or code regions */
    lp_report_view methods;
    lp_report_view calls; /* call pairs, or the call graph */
    int cost_is_blocks, calls_are_pairs;
} pp_views;

static int pp_views_build(const lp_profile_set *s, pp_views *v)
{
    memset(v, 0, sizeof *v);
    int rc = lp_report_view_build(s, LP_PROF_BLOCK, LP_PHASE_NONE, &v->cost);
    v->cost_is_blocks = rc == 0 && v->cost.merged > 0;
    if (rc == 0 && !v->cost_is_blocks) {
        lp_report_view_fini(&v->cost);
        rc = lp_report_view_build(s, LP_PROF_CODE_REGION, LP_PHASE_NONE, &v->cost);
    }
    if (rc == 0)
        rc = lp_report_view_build(s, LP_PROF_METHOD, LP_PHASE_NONE, &v->methods);
    if (rc == 0)
        rc = lp_report_view_build(s, LP_PROF_CALL_PAIR, LP_PHASE_NONE, &v->calls);
    v->calls_are_pairs = rc == 0 && v->calls.merged > 0;
    if (rc == 0 && !v->calls_are_pairs) {
        lp_report_view_fini(&v->calls);
        rc = lp_report_view_build(s, LP_PROF_CALL_GRAPH, LP_PHASE_NONE, &v->calls);
    }
    return rc;
}

static void pp_views_fini(pp_views *v)
{
    lp_report_view_fini(&v->cost);
    lp_report_view_fini(&v->methods);
    lp_report_view_fini(&v->calls);
}

int lp__export_pprof(const char *source, const lp_profile_set *s, lp_names *nm, lp_out *o)
{
    pp_views v;
    int rc = pp_views_build(s, &v);
    if (rc) {
        pp_views_fini(&v);
        return rc;
    }
    /* Which kinds are present, and their positions in sample_type. */
    uint64_t insns = 0;
    for (size_t i = 0; i < v.cost.count; i++)
        insns += v.cost.entries[i].v[1];
    /* Calling contexts, where the profile has them: whole stacks. */
    lp__context_tree ctx;
    int have_ctx = 0;
    rc = lp__context_tree_build(s, nm, &ctx);
    if (rc == 0)
        for (size_t i = 0; i < ctx.count && !have_ctx; i++)
            have_ctx = ctx.nodes[i].self != 0;
    else if (rc == LP_ENOENT)
        memset(&ctx, 0, sizeof ctx);
    if (rc && rc != LP_ENOENT) {
        pp_views_fini(&v);
        return rc;
    }
    int present[PP_NKINDS] = {v.cost.merged > 0 && insns > 0, v.cost.merged > 0,
                              v.methods.merged > 0, v.calls.merged > 0, have_ctx};
    int slot[PP_NKINDS], nkinds = 0, default_kind = -1;
    for (int k = 0; k < PP_NKINDS; k++) {
        slot[k] = present[k] ? nkinds++ : -1;
        if (present[k] && default_kind < 0)
            default_kind = k;
    }
    if (nkinds == 0) {
        lp__context_tree_fini(&ctx);
        pp_views_fini(&v);
        return LP_ENOENT;
    }

    pp_builder b;
    memset(&b, 0, sizeof b);
    b.s = s;
    b.nm = nm;
    /* The native runtime weighs its contexts by PC samples, the Valgrind
     * tool by the instructions executed in them. */
    b.context_kind =
        lp_meta_get(&s->meta, "context-weight") ? "context_samples" : "context_instructions";
    rc = LP_ENOMEM;
    if (lp_table_init(&b.strings_index, 1024) || lp_table_init(&b.functions_index, 256) ||
        lp_table_init(&b.locations_index, 1024) || lp_table_init(&b.samples_index, 1024))
        goto out;
    if (pp_string(&b, "") != 0) /* the format reserves index 0 for "" */
        goto out;
    if ((rc = pp_mappings(&b)))
        goto out;
    for (size_t i = 0; rc == 0 && i < v.cost.count; i++) {
        const lp_entry *e = &v.cost.entries[i];
        if (present[PP_INSNS])
            rc = pp_add(&b, e->key.a, 0, 0, PP_INSNS, e->v[1]);
        if (rc == 0)
            rc = pp_add(&b, e->key.a, 0, 0, PP_EXECS, e->v[0]);
    }
    for (size_t i = 0; rc == 0 && i < v.methods.count; i++) {
        const lp_entry *e = &v.methods.entries[i];
        rc = pp_add(&b, e->key.a, 0, 0, PP_INVOCATIONS, e->v[0]);
    }
    /* Call pairs are (site, callee); the call graph (caller entry, callee
     * entry): either way the callee is the leaf. A native call's site is
     * its return address, whose line may be the next one: the location is
     * the byte before it, as pprof itself places a caller's frame. */
    uint64_t back = v.calls_are_pairs ? lp__call_site_back(s) : 0;
    for (size_t i = 0; rc == 0 && i < v.calls.count; i++) {
        const lp_entry *e = &v.calls.entries[i];
        rc = pp_add(&b, e->key.b, e->key.a - back, 1, PP_CALLS, e->v[0]);
    }
    if (rc == 0 && have_ctx)
        rc = pp_add_contexts(&b, &ctx);
    if (rc)
        goto out;

    int64_t comments[8];
    size_t ncomments = 0;
    const lp_meta *meta = &s->meta;
    const char *complete = lp_meta_get(meta, "complete");
    const char *incomplete = lp_meta_get(meta, "incomplete-reason");
    if (!incomplete)
        incomplete = "yes";
    char sources[200];
    snprintf(sources, sizeof sources, "%s%s%s%s%s%s%s",
             present[PP_EXECS] ? (v.cost_is_blocks ? "basic blocks" : "code regions") : "",
             present[PP_EXECS] && present[PP_INVOCATIONS] ? ", " : "",
             present[PP_INVOCATIONS] ? "methods" : "",
             (present[PP_EXECS] || present[PP_INVOCATIONS]) && present[PP_CALLS] ? ", " : "",
             present[PP_CALLS] ? (v.calls_are_pairs ? "call pairs" : "call graph") : "",
             have_ctx && nkinds > 1 ? ", " : "", have_ctx ? "calling contexts" : "");
    int sampled = v.cost.sampled || v.methods.sampled || v.calls.sampled;
    if ((rc = pp_comment(&b, comments, &ncomments, "program", lp_meta_get(meta, "program"))) ||
        (rc = pp_comment(&b, comments, &ncomments, "command", lp_meta_get(meta, "command"))) ||
        (rc = pp_comment(&b, comments, &ncomments, "recorded-at",
                         lp_meta_get(meta, "recorded-at"))) ||
        (rc = pp_comment(&b, comments, &ncomments, "source", source)) ||
        (rc = pp_comment(&b, comments, &ncomments, "from lowprof profiles", sources)) ||
        (rc = pp_comment(&b, comments, &ncomments, "stacks",
                         have_ctx ? "whole calling contexts (one frame per function) in "
                                    "the context type; in the others one frame per block, "
                                    "region or method entry, two frames [callee, call site] "
                                    "per call pair"
                                  : "no calling contexts recorded: one frame per block, "
                                    "region or method entry; two frames [callee, call site] "
                                    "per call pair")) ||
        (rc = pp_comment(&b, comments, &ncomments, "counts",
                         sampled ? "estimates from a sampled profile" : "exact")) ||
        (rc = pp_comment(&b, comments, &ncomments, "incomplete",
                         complete && strcmp(complete, "no") == 0 ? incomplete : NULL)))
        goto out;
    int64_t t = pp_parse_time(lp_meta_get(meta, "recorded-at"));
    rc = pp_write(&b, slot, nkinds, default_kind, comments, ncomments,
                  t * 1000000000LL, o);
out:
    pp_builder_fini(&b);
    lp__context_tree_fini(&ctx);
    pp_views_fini(&v);
    return rc;
}
