/* `lowprof export --format csv`: one row per entry, for spreadsheets and
 * data frames. Columns: type,key_a,key_b,v0,v1,function,file,line, where
 * function/file/line describe key_a. Rows come from each type's whole-run
 * view (sampled counts scaled to estimates, phases summed when the file
 * has no whole-run profile), types in profile-type order, keys ascending.
 * Fields are quoted as RFC 4180 says: only when they hold a comma, a quote
 * or a line break, with quotes doubled. */
#include <string.h>

#include "export_internal.h"

static void csv_field(lp_out *o, const char *s)
{
    if (!s)
        return;
    if (strpbrk(s, ",\"\r\n") == NULL) {
        lp_outs(o, s);
        return;
    }
    lp_outs(o, "\"");
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            lp_outs(o, "\"\"");
        else
            lp_outn(o, p, 1);
    }
    lp_outs(o, "\"");
}

int lp__export_csv(const char *source, const lp_profile_set *s, lp_names *nm, lp_out *o)
{
    (void)source;
    lp_outs(o, "type,key_a,key_b,v0,v1,function,file,line\n");
    for (unsigned type = 1; type <= LP_PROF_TYPE_MAX && !o->err; type++) {
        lp_report_view v;
        int rc = lp_report_view_build(s, type, LP_PHASE_NONE, &v);
        if (rc)
            return rc;
        const char *name = lp_profile_type_name(type);
        for (size_t i = 0; i < v.count && !o->err; i++) {
            const lp_entry *e = &v.entries[i];
            lp_outf(o, "%s,0x%llx,0x%llx,%llu,%llu,", name, (unsigned long long)e->key.a,
                     (unsigned long long)e->key.b, (unsigned long long)e->v[0],
                     (unsigned long long)e->v[1]);
            if (type != LP_PROF_STREAMS) {
                lp_symbol sym;
                lp_symbolize(nm->sym, e->key.a, &sym);
                csv_field(o, sym.function);
                lp_outs(o, ",");
                csv_field(o, sym.file);
                if (sym.line)
                    lp_outf(o, ",%u\n", sym.line);
                else
                    lp_outs(o, ",\n");
            } else {
                lp_outs(o, ",,\n");
            }
        }
        lp_report_view_fini(&v);
    }
    return o->err;
}
