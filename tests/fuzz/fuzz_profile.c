/* Fuzz target for the profile reader: anything it accepts must write back
 * and read back to the same set, and writing that again must give the same
 * bytes (the format's determinism). */
#include "fuzz_common.h"

static void same_set(const lp_profile_set *a, const lp_profile_set *b)
{
    FUZZ_ASSERT(fuzz_same_meta(&a->meta, &b->meta));
    FUZZ_ASSERT(fuzz_same_modules(&a->modules, &b->modules));
    FUZZ_ASSERT(a->count == b->count);
    for (size_t i = 0; i < a->count; i++) {
        const lp_profile *x = &a->profiles[i], *y = &b->profiles[i];
        FUZZ_ASSERT(x->type == y->type && x->phase == y->phase);
        FUZZ_ASSERT(x->first_insn == y->first_insn && x->last_insn == y->last_insn);
        FUZZ_ASSERT(x->scale_num == y->scale_num && x->scale_den == y->scale_den);
        FUZZ_ASSERT(fuzz_same_table(&x->table, &y->table));
    }
}

static void run(const uint8_t *data, size_t size)
{
    lp_memsource ms;
    lp_profile_set s;
    lp_read_error err;
    memset(&err, 0, sizeof err);
    int rc = lp_profile_file_read(lp_memsource_init(&ms, data, size), &s, &err);
    if (rc) {
        fuzz_check_error(rc, &err);
        FUZZ_ASSERT(s.count == 0 && s.profiles == NULL && s.meta.count == 0);
        return;
    }
    lp_membuf w1 = {0}, w2 = {0};
    FUZZ_ASSERT(lp_profile_file_write(&s, lp_membuf_sink(&w1)) == 0);
    lp_profile_set again;
    FUZZ_ASSERT(lp_profile_file_read(lp_memsource_init(&ms, w1.data, w1.size), &again, NULL) == 0);
    same_set(&s, &again);
    FUZZ_ASSERT(lp_profile_file_write(&again, lp_membuf_sink(&w2)) == 0);
    FUZZ_ASSERT(w1.size == w2.size && memcmp(w1.data, w2.data, w1.size) == 0);
    lp_membuf_free(&w1);
    lp_membuf_free(&w2);
    lp_profile_set_fini(&again);
    lp_profile_set_fini(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run(data, size);
    uint8_t *fixed = fuzz_fix_checksums(data, size);
    if (fixed) {
        run(fixed, size);
        free(fixed);
    }
    return 0;
}
