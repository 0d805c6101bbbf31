/* `lowprof export --format speedscope`: the context profile as speedscope's
 * JSON file format ($schema https://www.speedscope.app/file-format-schema.json),
 * which the speedscope viewer opens as a flame graph.
 *
 * One profile of type "sampled": each calling context with self
 * instructions is one sample, its stack the indices of its frames in
 * shared.frames (root first), its weight the instructions executed in the
 * context's own function. The unit is "none": the weights are counts, not
 * times. Samples come in the order of their stack text, so equal prefixes
 * sit side by side in the time-order view too. */
#include <stdlib.h>
#include <string.h>

#include "export_internal.h"

static int name_cmp(const void *x, const void *y)
{
    const lp__context_node *const *a = x, *const *b = y;
    int c = strcmp((*a)->name, (*b)->name);
    return c ? c : (*a < *b ? -1 : *a > *b);
}

int lp__export_speedscope(const char *source, const lp_profile_set *s, lp_names *nm,
                          lp_out *o)
{
    lp__context_tree t;
    int rc = lp__context_tree_build(s, nm, &t);
    if (rc)
        return rc;
    lp__context_stack *st = NULL;
    size_t nst = 0, nframes = 0;
    /* frame[i]: node i's index in shared.frames; one frame per distinct name. */
    size_t *frame = malloc((t.count ? t.count : 1) * sizeof *frame);
    size_t *path = malloc((t.count ? t.count : 1) * sizeof *path);
    lp__context_node **order = malloc((t.count ? t.count : 1) * sizeof *order);
    if (!frame || !path || !order)
        rc = LP_ENOMEM;
    if (!rc)
        rc = lp__context_stacks(&t, 0, &st, &nst);
    if (rc)
        goto done;
    for (size_t i = 0; i < t.count; i++)
        order[i] = &t.nodes[i];
    qsort(order, t.count, sizeof *order, name_cmp);
    for (size_t i = 0; i < t.count; i++) {
        if (i && strcmp(order[i - 1]->name, order[i]->name) != 0)
            nframes++;
        frame[order[i] - t.nodes] = nframes;
    }

    uint64_t total = 0;
    for (size_t i = 0; i < nst; i++)
        total += st[i].weight;
    const char *program = lp_meta_get(&s->meta, "executable");
    lp_outs(o, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n");
    lp_outs(o, "\"exporter\":\"lowprof\",\"name\":");
    lp__json_string(o, program ? program : source);
    lp_outs(o, ",\"activeProfileIndex\":0,\n\"shared\":{\"frames\":[\n");
    for (size_t i = 0, k = 0; i < t.count; i++) {
        if (i && strcmp(order[i - 1]->name, order[i]->name) == 0)
            continue;
        lp_outs(o, k++ ? ",\n{\"name\":" : "{\"name\":");
        lp__json_string(o, order[i]->name);
        lp_outs(o, "}");
    }
    lp_outs(o, "]},\n\"profiles\":[{\"type\":\"sampled\",\"name\":\"self instructions per "
               "calling context\",\"unit\":\"none\",\"startValue\":0,");
    lp_outf(o, "\"endValue\":%llu,\n\"samples\":[\n", (unsigned long long)total);
    for (size_t i = 0; i < nst; i++) {
        size_t depth = lp__context_path(&t, st[i].node, path);
        lp_outs(o, i ? ",\n[" : "[");
        for (size_t k = 0; k < depth; k++)
            lp_outf(o, k ? ",%zu" : "%zu", frame[path[k]]);
        lp_outs(o, "]");
    }
    lp_outs(o, "],\n\"weights\":[");
    for (size_t i = 0; i < nst; i++)
        lp_outf(o, i ? ",%llu" : "%llu", (unsigned long long)st[i].weight);
    lp_outs(o, "]}]}\n");
    rc = o->err;
done:
    lp__context_stacks_free(st, nst);
    free(frame);
    free(path);
    free(order);
    lp__context_tree_fini(&t);
    return rc;
}
