/* Shared pieces of report, info and export (see report_util.h): counter
 * names, whole-run views of a profile set, naming addresses, number
 * formatting, text tables and sink output. */
#define _GNU_SOURCE /* vasprintf */
#include "report_util.h"

#include <stdlib.h>
#include <string.h>

/* ---- profile types ------------------------------------------------------------ */

static const char *const lp__counters[LP_PROF_TYPE_MAX + 1][2] = {
    [LP_PROF_CODE_REGION] = {"executions", "instructions"},
    [LP_PROF_METHOD] = {"invocations", "backward branches"},
    [LP_PROF_CALL_PAIR] = {"calls", "tail calls"},
    [LP_PROF_EDGE] = {"transfers", NULL},
    [LP_PROF_BLOCK] = {"executions", "instructions"},
    [LP_PROF_CALL_GRAPH] = {"calls", NULL},
    [LP_PROF_VALUE] = {"loads", NULL}, /* v1 is the access size, not a count */
    [LP_PROF_CALL_TARGET] = {"calls", NULL},
    [LP_PROF_STREAMS] = {"frequency", NULL}, /* v1 is the stream's length */
};

const char *lp__counter_name(unsigned type, int which)
{
    if (type == 0 || type > LP_PROF_TYPE_MAX)
        return which ? "v1" : "v0";
    return lp__counters[type][which ? 1 : 0];
}

int lp__key_b_is_code(unsigned type)
{
    return type == LP_PROF_CALL_PAIR || type == LP_PROF_EDGE || type == LP_PROF_CALL_GRAPH ||
           type == LP_PROF_CALL_TARGET;
}

/* v1 of value and streams profiles describes the key (size, length) rather
 * than counting events: it is neither scaled nor summed. */
static int lp__v1_is_count(unsigned type)
{
    return type != LP_PROF_VALUE && type != LP_PROF_STREAMS;
}

/* ---- views ---------------------------------------------------------------------- */

static int lp__entry_cmp_key(const void *x, const void *y)
{
    const lp_entry *a = x, *b = y;
    if (a->key.a != b->key.a)
        return a->key.a < b->key.a ? -1 : 1;
    if (a->key.b != b->key.b)
        return a->key.b < b->key.b ? -1 : 1;
    return 0;
}

static uint64_t lp__scale(uint64_t v, uint64_t num, uint64_t den)
{
    if (num == den || den == 0)
        return v;
    unsigned __int128 x = (unsigned __int128)v * num + den / 2;
    x /= den;
    return x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
}

int lp__view_build(const lp_profile_set *s, unsigned type, uint32_t phase, lp__view *out)
{
    memset(out, 0, sizeof *out);
    /* Which profiles make the view: the one for phase if present; for the
     * whole run without a whole-run profile, every per-phase one. */
    int use_all_phases = phase == LP_PHASE_NONE && !lp_profile_set_find(s, type, LP_PHASE_NONE);
    size_t total = 0;
    for (size_t i = 0; i < s->count; i++) {
        const lp_profile *p = &s->profiles[i];
        if (p->type == type && (use_all_phases || p->phase == phase))
            total += p->table.count;
    }
    lp_entry *all = lp_malloc((total ? total : 1) * sizeof *all);
    if (!all)
        return LP_ENOMEM;
    size_t n = 0;
    for (size_t i = 0; i < s->count; i++) {
        const lp_profile *p = &s->profiles[i];
        if (p->type != type || !(use_all_phases || p->phase == phase))
            continue;
        out->merged++;
        if (p->scale_num != p->scale_den)
            out->sampled = 1;
        size_t cursor = 0;
        for (lp_entry *e; (e = lp_table_next(&p->table, &cursor)) != NULL && n < total;) {
            all[n] = *e;
            all[n].v[0] = lp__scale(e->v[0], p->scale_num, p->scale_den);
            if (lp__v1_is_count(type))
                all[n].v[1] = lp__scale(e->v[1], p->scale_num, p->scale_den);
            n++;
        }
        if (!use_all_phases)
            break; /* the first profile of (type, phase), as lp_profile_set_find */
    }
    qsort(all, n, sizeof *all, lp__entry_cmp_key);
    /* Combine equal keys (they occur only when phases were summed). */
    size_t w = 0;
    for (size_t r = 0; r < n; r++) {
        if (w > 0 && all[w - 1].key.a == all[r].key.a && all[w - 1].key.b == all[r].key.b) {
            all[w - 1].v[0] += all[r].v[0];
            if (lp__v1_is_count(type))
                all[w - 1].v[1] += all[r].v[1];
            else if (all[r].v[1] > all[w - 1].v[1])
                all[w - 1].v[1] = all[r].v[1];
        } else {
            all[w++] = all[r];
        }
    }
    out->entries = all;
    out->count = w;
    return 0;
}

void lp__view_fini(lp__view *v)
{
    if (!v)
        return;
    lp_free(v->entries);
    memset(v, 0, sizeof *v);
}

/* ---- symbols ----------------------------------------------------------------------- */

/* Index of the module whose text holds pc, or map->count. A plain scan:
 * the symbolizer has already done the lookups that matter for speed. */
static size_t lp__module_index(const lp_module_map *map, uint64_t pc)
{
    for (size_t i = 0; i < map->count; i++)
        if (pc >= map->items[i].start && pc - map->items[i].start < map->items[i].size)
            return i;
    return map->count;
}

const char *lp__basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int lp__u64_cmp(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Collects every function entry the profiles witnessed: method entries,
 * callees of call pairs, both ends of call-graph edges, indirect targets. */
static int lp__collect_entries(lp__names *n, const lp_profile_set *s)
{
    size_t total = 0;
    for (size_t i = 0; i < s->count; i++)
        total += s->profiles[i].table.count * 2;
    n->entries = malloc((total ? total : 1) * sizeof *n->entries);
    if (!n->entries)
        return LP_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < s->count; i++) {
        const lp_profile *p = &s->profiles[i];
        int a = p->type == LP_PROF_METHOD || p->type == LP_PROF_CALL_GRAPH;
        int b = p->type == LP_PROF_CALL_PAIR || p->type == LP_PROF_CALL_GRAPH ||
                p->type == LP_PROF_CALL_TARGET;
        if (!a && !b)
            continue;
        size_t cursor = 0;
        for (lp_entry *e; (e = lp_table_next(&p->table, &cursor)) != NULL && k + 2 <= total;) {
            if (a)
                n->entries[k++] = e->key.a;
            if (b)
                n->entries[k++] = e->key.b;
        }
    }
    qsort(n->entries, k, sizeof *n->entries, lp__u64_cmp);
    size_t w = 0;
    for (size_t r = 0; r < k; r++)
        if (w == 0 || n->entries[w - 1] != n->entries[r])
            n->entries[w++] = n->entries[r];
    n->nentries = w;
    n->entry_names = calloc(w ? w : 1, sizeof *n->entry_names);
    return n->entry_names ? 0 : LP_ENOMEM;
}

int lp__names_init(lp__names *n, const lp_profile_set *s)
{
    memset(n, 0, sizeof *n);
    n->modules = &s->modules;
    int rc = lp_symbolizer_create(&s->modules, &n->sym);
    if (rc == 0)
        rc = lp__collect_entries(n, s);
    if (rc) {
        lp__names_fini(n);
        return rc;
    }
    /* The program itself: the module named like the recorded program, or
     * else the first one mapped (the front end maps the executable first). */
    const char *program = lp_meta_get(&s->meta, "program");
    for (size_t i = 0; program && i < s->modules.count; i++) {
        const char *path = s->modules.items[i].path;
        if (path && (strcmp(path, program) == 0 ||
                     strcmp(lp__basename(path), lp__basename(program)) == 0)) {
            n->main_module = &s->modules.items[i];
            break;
        }
    }
    if (!n->main_module && s->modules.count)
        n->main_module = &s->modules.items[0];
    return 0;
}

void lp__names_fini(lp__names *n)
{
    if (!n)
        return;
    lp_symbolizer_free(n->sym);
    n->sym = NULL;
    if (n->group_names)
        for (size_t i = 0; i <= n->modules->count; i++)
            free(n->group_names[i]);
    free(n->group_names);
    n->group_names = NULL;
    for (size_t i = 0; n->entry_names && i < n->nentries; i++)
        free(n->entry_names[i]);
    free(n->entry_names);
    free(n->entries);
    n->entry_names = NULL;
    n->entries = NULL;
    n->nentries = 0;
}

/* For pc that no symbol covers: the index of the witnessed entry it
 * belongs to, or n->nentries. That is the closest entry at or below pc in
 * the same module, provided the entry has no symbol either: a named entry
 * closer to pc means pc lies past the end of a named function, in code
 * nothing identifies. */
static size_t lp__unnamed_entry(lp__names *n, uint64_t pc)
{
    size_t lo = 0, hi = n->nentries;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (n->entries[mid] <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return n->nentries;
    size_t i = lo - 1;
    if (lp__module_index(n->modules, n->entries[i]) != lp__module_index(n->modules, pc) ||
        lp__module_index(n->modules, pc) == n->modules->count)
        return n->nentries;
    lp_symbol entry;
    lp_symbolize(n->sym, n->entries[i], &entry);
    return entry.function ? n->nentries : i;
}

uint64_t lp__names_start(lp__names *n, uint64_t pc)
{
    lp_symbol sym;
    lp_symbolize(n->sym, pc, &sym);
    if (sym.function)
        return sym.function_start;
    size_t i = lp__unnamed_entry(n, pc);
    return i < n->nentries ? n->entries[i] : pc;
}

const char *lp__names_group(lp__names *n, uint64_t pc, lp_symbol *sym)
{
    lp_symbol local;
    if (!sym)
        sym = &local;
    lp_symbolize(n->sym, pc, sym);
    if (sym->function)
        return sym->function;
    size_t e = lp__unnamed_entry(n, pc);
    if (e < n->nentries) {
        if (!n->entry_names[e]) {
            char buf[512];
            lp__names_function(n, n->entries[e], buf, sizeof buf);
            n->entry_names[e] = strdup(buf);
        }
        if (n->entry_names[e])
            return n->entry_names[e];
    }
    if (!n->group_names) {
        n->group_names = calloc(n->modules->count + 1, sizeof *n->group_names);
        if (!n->group_names)
            return "[unknown]";
    }
    size_t i = lp__module_index(n->modules, pc);
    const lp_module *m = i < n->modules->count ? &n->modules->items[i] : NULL;
    if (!n->group_names[i]) {
        const char *base = m && m->path ? lp__basename(m->path) : "unknown";
        size_t len = strlen(base) + 3;
        n->group_names[i] = malloc(len);
        if (!n->group_names[i])
            return "[unknown]";
        snprintf(n->group_names[i], len, "[%s]", base);
    }
    return n->group_names[i];
}

int lp__names_is_library(lp__names *n, const char *module_path)
{
    if (!module_path)
        return 0;
    return !n->main_module || !n->main_module->path ||
           strcmp(n->main_module->path, module_path) != 0;
}

const char *lp__names_function(lp__names *n, uint64_t pc, char *buf, size_t size)
{
    lp_symbol sym;
    lp_symbolize(n->sym, pc, &sym);
    if (sym.function) {
        snprintf(buf, size, "%s", sym.function);
    } else {
        size_t i = lp__module_index(n->modules, pc);
        const lp_module *m = i < n->modules->count ? &n->modules->items[i] : NULL;
        if (m && m->path)
            snprintf(buf, size, "%s+0x%llx", lp__basename(m->path),
                     (unsigned long long)(pc - (uint64_t)m->bias));
        else
            snprintf(buf, size, "0x%llx", (unsigned long long)pc);
    }
    return buf;
}

const char *lp__names_describe(lp__names *n, uint64_t pc, int with_function, char *buf, size_t size)
{
    lp_symbol sym;
    lp_symbolize(n->sym, pc, &sym);
    char where[512];
    size_t w = 0;
    where[0] = '\0';
    if (sym.file)
        w += (size_t)snprintf(where, sizeof where, "%s:%u", lp__basename(sym.file), sym.line);
    if (sym.module && lp__names_is_library(n, sym.module) && w < sizeof where)
        snprintf(where + w, sizeof where - w, "%s%s", w ? ", " : "", lp__basename(sym.module));
    if (!with_function) {
        snprintf(buf, size, "%s", where[0] ? where : "?");
        return buf;
    }
    char fn[512];
    lp__names_function(n, pc, fn, sizeof fn);
    /* An unnamed address already says its module in the name. */
    if (!sym.function && !sym.file)
        snprintf(buf, size, "%s", fn);
    else if (where[0])
        snprintf(buf, size, "%s (%s)", fn, where);
    else
        snprintf(buf, size, "%s", fn);
    return buf;
}

/* ---- numbers ------------------------------------------------------------------------- */

const char *lp__fmt_count(uint64_t v, char *buf)
{
    char digits[24];
    int nd = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    int o = 0;
    for (int i = 0; i < nd; i++) {
        if (i > 0 && (nd - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

const char *lp__fmt_percent(uint64_t part, uint64_t total, char *buf)
{
    if (total == 0)
        snprintf(buf, 16, "-");
    else
        snprintf(buf, 16, "%.2f%%", 100.0 * (double)part / (double)total);
    return buf;
}

const char *lp__fmt_mean(uint64_t part, uint64_t whole, char *buf)
{
    if (whole == 0)
        snprintf(buf, 32, "-");
    else
        snprintf(buf, 32, "%.1f", (double)part / (double)whole);
    return buf;
}

/* ---- tables ------------------------------------------------------------------------- */

int lp__tab_init(lp__tab *t, const char *align, const char *const *heading)
{
    memset(t, 0, sizeof *t);
    size_t n = strlen(align);
    if (n == 0 || n >= sizeof t->align)
        return LP_EINVAL;
    memcpy(t->align, align, n + 1);
    t->ncols = n;
    for (size_t i = 0; i < n; i++)
        lp__tab_cell(t, "%s", heading[i]);
    return t->nrows == 1 ? 0 : LP_ENOMEM;
}

void lp__tab_cell(lp__tab *t, const char *fmt, ...)
{
    if (t->ncols == 0)
        return;
    if (t->fill == 0) {
        if (t->nrows == t->cap) {
            size_t cap = t->cap ? t->cap * 2 : 32;
            char **cells = realloc(t->cells, cap * t->ncols * sizeof *cells);
            if (!cells) {
                t->ncols = 0; /* out of memory: the table stops growing */
                return;
            }
            memset(cells + t->cap * t->ncols, 0, (cap - t->cap) * t->ncols * sizeof *cells);
            t->cells = cells;
            t->cap = cap;
        }
        t->nrows++;
    }
    va_list ap;
    va_start(ap, fmt);
    char *cell = NULL;
    if (vasprintf(&cell, fmt, ap) < 0)
        cell = NULL;
    va_end(ap);
    t->cells[(t->nrows - 1) * t->ncols + t->fill] = cell;
    t->fill = (t->fill + 1) % t->ncols;
}

void lp__tab_print(const lp__tab *t, FILE *out, int indent)
{
    if (t->ncols == 0)
        return;
    size_t width[12] = {0};
    size_t full_rows = t->fill ? t->nrows - 1 : t->nrows;
    for (size_t r = 0; r < full_rows; r++)
        for (size_t c = 0; c < t->ncols; c++) {
            const char *cell = t->cells[r * t->ncols + c];
            /* Count characters, not bytes, so "→" lines up. */
            size_t len = 0;
            for (const char *p = cell ? cell : ""; *p; p++)
                len += ((unsigned char)*p & 0xc0) != 0x80;
            if (len > width[c])
                width[c] = len;
        }
    char *line = NULL;
    size_t cap = 0;
    for (size_t r = 0; r < full_rows; r++) {
        /* Build the line first so trailing padding (an empty last cell)
         * can be trimmed. */
        size_t need = (size_t)indent + 1;
        for (size_t c = 0; c < t->ncols; c++)
            need += width[c] + 2 +
                    (t->cells[r * t->ncols + c] ? strlen(t->cells[r * t->ncols + c]) : 0);
        if (need > cap) {
            char *l = realloc(line, need);
            if (!l)
                break;
            line = l;
            cap = need;
        }
        size_t len = (size_t)snprintf(line, cap, "%*s", indent, "");
        for (size_t c = 0; c < t->ncols; c++) {
            const char *cell = t->cells[r * t->ncols + c];
            if (!cell)
                cell = "";
            size_t chars = 0;
            for (const char *p = cell; *p; p++)
                chars += ((unsigned char)*p & 0xc0) != 0x80;
            int pad = (int)(width[c] - chars);
            int last = c + 1 == t->ncols;
            if (t->align[c] == 'r')
                len += (size_t)snprintf(line + len, cap - len, "%*s%s", pad, "", cell);
            else
                len += (size_t)snprintf(line + len, cap - len, "%s%*s", cell, last ? 0 : pad, "");
            if (!last)
                len += (size_t)snprintf(line + len, cap - len, "  ");
        }
        while (len > 0 && line[len - 1] == ' ')
            len--;
        line[len] = '\0';
        fprintf(out, "%s\n", line);
    }
    free(line);
}

void lp__tab_fini(lp__tab *t)
{
    if (!t || !t->cells)
        return;
    size_t ncols = t->ncols ? t->ncols : strlen(t->align);
    for (size_t i = 0; i < t->nrows * ncols; i++)
        free(t->cells[i]);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

/* ---- sink output --------------------------------------------------------------------- */

void lp__outn(lp__out *o, const void *data, size_t size)
{
    if (o->err || size == 0)
        return;
    o->err = o->sink.write(o->sink.ctx, data, size);
}

void lp__outs(lp__out *o, const char *s)
{
    lp__outn(o, s, strlen(s));
}

void lp__outf(lp__out *o, const char *fmt, ...)
{
    if (o->err)
        return;
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        o->err = LP_EINVAL;
        return;
    }
    if ((size_t)n < sizeof small) {
        lp__outn(o, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        o->err = LP_ENOMEM;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    lp__outn(o, big, (size_t)n);
    free(big);
}

/* ---- options ---------------------------------------------------------------------------- */

const char *lp__opt_value(int argc, char **argv, int *i, const char *name, int *out_missing)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return NULL;
    if (arg[n] == '=')
        return arg + n + 1;
    if (arg[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *out_missing = 1;
        return NULL;
    }
    return argv[++*i];
}

int lp__parse_count(const char *s, uint64_t *out)
{
    if (!s || !*s)
        return -1;
    uint64_t v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *out = v;
    return 0;
}
