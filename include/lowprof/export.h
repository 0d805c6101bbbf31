/* lowprof export: profiles in the formats other tools read. One file per
 * format in src/export, one row per format in the table below, so a new
 * format is one writer and one row; `lowprof export` and anything else that
 * exports look formats up here.
 *
 * Writers build a whole document from a loaded profile set, naming
 * addresses through the report module's symbolizer. Hosted. */
#ifndef LOWPROF_EXPORT_H
#define LOWPROF_EXPORT_H

#include <stddef.h>

#include "lowprof/report.h"

typedef struct lp_exporter {
    const char *name; /* the --format value */
    /* Writes s (read from source, a path for the document to mention) to o.
     * Returns 0, LP_ENOENT when s lacks the profile types the format needs
     * (missing says which), or another LP_E* code (o->err for a sink
     * failure). */
    int (*write)(const char *source, const lp_profile_set *s, lp_names *nm, lp_out *o);
    const char *missing; /* what LP_ENOENT means for this format, or NULL */
} lp_exporter;

/* The formats, in the order help texts list them; ends with a NULL name. */
extern const lp_exporter lp_exporters[];

/* The exporter named name, or NULL. */
const lp_exporter *lp_export_find(const char *name);

/* The format names as a phrase for messages, "a, b, c or d", into buf;
 * returns buf. */
const char *lp_export_names(char *buf, size_t cap);

#endif
