/* The full-stack exports (folded, folded-calls, speedscope) on a context
 * profile built by hand, whose tree and counts are known: stacks rebuilt
 * from the keys alone, weights, the orphan rule, equal stacks merged, and
 * the two-frame fallback and errors without a context profile. A set
 * without modules names every function "0xPC" (and groups it as
 * "[unknown]" in the two-frame form). */
#include <stdio.h>
#include <string.h>

#include "lowprof/export.h"
#include "../lp_test.h"

static void add_context(lp_profile *p, uint64_t parent_id, uint64_t entry, uint64_t calls,
                        uint64_t self)
{
    lp_entry *e = lp_table_upsert(&p->table, (lp_key){parent_id, entry});
    LP_CHECK(e != NULL);
    if (e) {
        e->v[0] = calls;
        e->v[1] = self;
    }
}

/* Runs format on s into *text (NUL-terminated, static); returns its code. */
static int run(const char *format, const lp_profile_set *s, const char **text)
{
    static char out[8192];
    const lp_exporter *x = lp_export_find(format);
    LP_CHECK(x != NULL);
    lp_names nm;
    LP_CHECK(lp_names_init(&nm, s) == 0);
    lp_membuf m = {0};
    lp_out o = {lp_membuf_sink(&m), 0};
    int rc = x->write("test.lpprof", s, &nm, &o);
    size_t n = m.size < sizeof out - 1 ? m.size : sizeof out - 1;
    memcpy(out, m.data ? (const char *)m.data : "", n);
    out[n] = '\0';
    lp_membuf_free(&m);
    lp_names_fini(&nm);
    *text = out;
    return rc;
}

int main(void)
{
    lp_profile_set s = {0};
    lp_profile *p;
    LP_CHECK(lp_profile_set_add(&s, LP_PROF_CONTEXT, LP_PHASE_NONE, &p) == 0);
    uint64_t root = lp_context_id(0, 0x1000), a = lp_context_id(root, 0x2000);
    uint64_t b = lp_context_id(root, 0x3000);
    add_context(p, 0, 0x1000, 1, 10);      /* 0x1000 */
    add_context(p, root, 0x2000, 3, 0);    /* 0x1000;0x2000: no self cost, no line */
    add_context(p, a, 0x4000, 6, 12);      /* 0x1000;0x2000;0x4000 */
    add_context(p, root, 0x3000, 2, 5);    /* 0x1000;0x3000 */
    add_context(p, b, 0x4000, 2, 4);       /* 0x1000;0x3000;0x4000 */
    add_context(p, 12345, 0x5000, 1, 7);   /* parent unknown: a root */
    add_context(p, 0, 0x5000, 2, 1);       /* the same stack text: merged with it */
    const char *t;
    LP_CHECK(run("folded", &s, &t) == 0);
    LP_CHECK(strcmp(t, "0x1000 10\n"
                       "0x1000;0x2000;0x4000 12\n"
                       "0x1000;0x3000 5\n"
                       "0x1000;0x3000;0x4000 4\n"
                       "0x5000 8\n") == 0);
    LP_CHECK(run("folded-calls", &s, &t) == 0);
    LP_CHECK(strcmp(t, "0x1000 1\n"
                       "0x1000;0x2000 3\n"
                       "0x1000;0x2000;0x4000 6\n"
                       "0x1000;0x3000 2\n"
                       "0x1000;0x3000;0x4000 2\n"
                       "0x5000 3\n") == 0);
    LP_CHECK(run("speedscope", &s, &t) == 0);
    /* Frames sorted by name, one per name: 0x1000 0x2000 0x3000 0x4000 0x5000. */
    LP_CHECK(strstr(t, "\"$schema\":\"https://www.speedscope.app/file-format-schema.json\"") != NULL);
    LP_CHECK(strstr(t, "\"frames\":[\n{\"name\":\"0x1000\"},\n{\"name\":\"0x2000\"},\n"
                       "{\"name\":\"0x3000\"},\n{\"name\":\"0x4000\"},\n{\"name\":\"0x5000\"}]") != NULL);
    LP_CHECK(strstr(t, "\"type\":\"sampled\"") != NULL && strstr(t, "\"unit\":\"none\"") != NULL);
    LP_CHECK(strstr(t, "\"endValue\":39,") != NULL);
    LP_CHECK(strstr(t, "\"samples\":[\n[0],\n[0,1,3],\n[0,2],\n[0,2,3],\n[4]],") != NULL);
    LP_CHECK(strstr(t, "\"weights\":[10,12,5,4,8]") != NULL);
    lp_profile_set_fini(&s);

    /* Without a context profile: folded keeps the two-frame call pairs,
     * the others have nothing to write. */
    lp_profile_set q = {0};
    LP_CHECK(lp_profile_set_add(&q, LP_PROF_CALL_PAIR, LP_PHASE_NONE, &p) == 0);
    add_context(p, 0x1010, 0x2000, 4, 0);
    LP_CHECK(run("folded", &q, &t) == 0);
    LP_CHECK(strcmp(t, "[unknown];[unknown] 4\n") == 0); /* grouped: no module */
    LP_CHECK(run("folded-calls", &q, &t) == LP_ENOENT);
    LP_CHECK(run("speedscope", &q, &t) == LP_ENOENT);
    LP_CHECK(strstr(lp_export_find("speedscope")->missing, "--profile context") != NULL);
    lp_profile_set_fini(&q);
    LP_CHECK(lp_profile_type_parse("context", 7) == LP_PROF_CONTEXT);
    LP_CHECK(strcmp(lp_profile_type_name(LP_PROF_CONTEXT), "context") == 0);
    return lp_test_done();
}
