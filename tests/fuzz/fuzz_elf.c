/* Fuzz target for the binary analysis (lowprof/analysis.h): the ELF reader
 * (libelf over an in-memory image), the capstone sweep, function discovery,
 * the call graph, CFGs and loops, every placement and both reports, on any
 * bytes. An input either fails with an error naming the file, or gives an
 * analysis whose counts agree with each other and reports whose JSON is
 * balanced. */
#include <stdint.h>
#include <string.h>

#include "lowprof/analysis.h"
#include "fuzz_assert.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Brackets and braces outside strings balance, and the text is one object. */
static int fuzz_json_balanced(const lp_membuf *m)
{
    int depth = 0, in_string = 0;
    if (m->size < 3 || m->data[0] != '{' || m->data[m->size - 2] != '}')
        return 0;
    for (size_t i = 0; i < m->size; i++) {
        uint8_t c = m->data[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = 0;
            else if (c < 0x20)
                return 0;
        } else if (c == '"') {
            in_string = 1;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (--depth < 0)
                return 0;
        }
    }
    return depth == 0 && !in_string;
}

static void fuzz_consistent(const lp_analysis *a)
{
    const lp_analysis_summary *s = lp_analysis_summary_get(a);
    uint32_t in_c = 0, loops = 0;
    for (uint32_t i = 0; i < s->fns; i++) {
        const lp_analysis_fn *f = lp_analysis_fn_get(a, i);
        FUZZ_ASSERT(f && f->name && f->size > 0);
        FUZZ_ASSERT(i == 0 || lp_analysis_fn_get(a, i - 1)->addr < f->addr);
        FUZZ_ASSERT(f->first_loop + f->loops <= s->loops);
        FUZZ_ASSERT(!f->facts.in_c || !(f->flags & LP_BURSTY_FN_LEAF));
        in_c += f->facts.in_c;
        loops += f->loops;
    }
    FUZZ_ASSERT(in_c == s->set_c && loops == s->loops);
    FUZZ_ASSERT(!lp_analysis_fn_get(a, s->fns));
    uint32_t edges = 0;
    for (uint32_t i = 0; i < s->loops; i++) {
        const lp_analysis_loop *l = lp_analysis_loop_get(a, i);
        FUZZ_ASSERT(l->fn < s->fns && l->depth >= 1 && l->back_edges >= 1 && l->blocks >= 1);
        FUZZ_ASSERT(l->parent == UINT32_MAX || (l->parent < s->loops && l->parent != i));
        FUZZ_ASSERT(l->first_back_edge + l->back_edges <= s->back_edges);
        for (uint32_t k = 0; k < l->back_edges; k++)
            FUZZ_ASSERT(lp_analysis_back_edge_get(a, l->first_back_edge + k)->loop == i);
        edges += l->back_edges;
    }
    FUZZ_ASSERT(edges == s->back_edges);
    const lp_bursty_call *c;
    size_t n = lp_analysis_edges(a, &c);
    FUZZ_ASSERT(n == s->edges);
    for (size_t i = 0; i < n; i++)
        FUZZ_ASSERT(c[i].caller < s->fns && c[i].callee < s->fns);
    for (uint32_t i = 0; i < s->sccs; i++) {
        const uint32_t *m;
        uint32_t size = lp_analysis_scc_get(a, i, &m);
        FUZZ_ASSERT(size >= 1);
        for (uint32_t k = 0; k < size; k++)
            FUZZ_ASSERT(m[k] < s->fns);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lp_analysis *a = NULL;
    lp_analysis_error err;
    int rc = lp_analysis_open_memory("fuzz.elf", data, size, &a, &err);
    if (rc) {
        FUZZ_ASSERT(rc < 0 && !a && err.code == rc);
        FUZZ_ASSERT(memchr(err.message, '\0', sizeof err.message) != NULL);
        FUZZ_ASSERT(strncmp(err.message, "fuzz.elf: ", 10) == 0 && err.message[10] != '\0');
        return 0;
    }
    fuzz_consistent(a);
    static const char *const placements[] = {"orig", "EC+L4", "EL+L10", "EN+LN", "L0"};
    for (size_t p = 0; p < sizeof placements / sizeof placements[0]; p++) {
        lp_bursty_placement bp;
        lp_analysis_placement pl;
        FUZZ_ASSERT(lp_bursty_placement_parse(placements[p], strlen(placements[p]), &bp, NULL) ==
                    0);
        if (lp_analysis_place(a, &bp, &pl) != 0)
            continue; /* out of memory */
        const lp_analysis_summary *s = lp_analysis_summary_get(a);
        FUZZ_ASSERT(pl.entry_checks <= s->fns && pl.back_edge_checks <= s->back_edges);
        FUZZ_ASSERT(bp.entry != LP_BURSTY_ENTRY_SET_C || pl.entry_checks == s->set_c);
        lp_membuf text = {0}, json = {0};
        lp_sink ts = lp_membuf_sink(&text), js = lp_membuf_sink(&json);
        int all = (int)(p & 1);
        FUZZ_ASSERT(lp_analysis_write_text(a, &pl, all, &ts) == 0);
        FUZZ_ASSERT(lp_analysis_write_json(a, &pl, !all, &js) == 0);
        FUZZ_ASSERT(fuzz_json_balanced(&json));
        lp_membuf_free(&text);
        lp_membuf_free(&json);
        lp_analysis_placement_free(&pl);
    }
    lp_analysis_free(a);
    return 0;
}
