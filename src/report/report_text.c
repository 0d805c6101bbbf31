/* Numbers, aligned text tables and formatted output to a sink
 * (lowprof/report.h). */
#define _GNU_SOURCE /* vasprintf */
#include "lowprof/report.h"

#include <stdlib.h>
#include <string.h>

/* ---- numbers ------------------------------------------------------------------------- */

const char *lp_fmt_count(uint64_t v, char *buf)
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

const char *lp_fmt_percent(uint64_t part, uint64_t total, char *buf)
{
    if (total == 0)
        snprintf(buf, 16, "-");
    else
        snprintf(buf, 16, "%.2f%%", 100.0 * (double)part / (double)total);
    return buf;
}

const char *lp_fmt_mean(uint64_t part, uint64_t whole, char *buf)
{
    if (whole == 0)
        snprintf(buf, 32, "-");
    else
        snprintf(buf, 32, "%.1f", (double)part / (double)whole);
    return buf;
}

/* ---- tables ------------------------------------------------------------------------- */

int lp_tab_init(lp_tab *t, const char *align, const char *const *heading)
{
    memset(t, 0, sizeof *t);
    size_t n = strlen(align);
    if (n == 0 || n >= sizeof t->align)
        return LP_EINVAL;
    memcpy(t->align, align, n + 1);
    t->ncols = n;
    for (size_t i = 0; i < n; i++)
        lp_tab_cell(t, "%s", heading[i]);
    return t->nrows == 1 ? 0 : LP_ENOMEM;
}

void lp_tab_cell(lp_tab *t, const char *fmt, ...)
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

void lp_tab_print(const lp_tab *t, FILE *out, int indent)
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

void lp_tab_fini(lp_tab *t)
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

void lp_outn(lp_out *o, const void *data, size_t size)
{
    if (o->err || size == 0)
        return;
    o->err = o->sink.write(o->sink.ctx, data, size);
}

void lp_outs(lp_out *o, const char *s)
{
    lp_outn(o, s, strlen(s));
}

void lp_outf(lp_out *o, const char *fmt, ...)
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
        lp_outn(o, small, (size_t)n);
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
    lp_outn(o, big, (size_t)n);
    free(big);
}
