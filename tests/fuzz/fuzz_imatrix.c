/* Fuzz target for the interval matrix reader: every interval it returns is
 * streamed into a writer; when the whole input was accepted the rewrite is
 * read back alongside the input and must match interval for interval. */
#include "fuzz_common.h"

static void compare(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    lp_memsource ma, mb;
    lp_imatrix_reader *ra, *rb;
    FUZZ_ASSERT(lp_imatrix_reader_open(lp_memsource_init(&ma, a, an), &ra, NULL) == 0);
    FUZZ_ASSERT(lp_imatrix_reader_open(lp_memsource_init(&mb, b, bn), &rb, NULL) == 0);
    FUZZ_ASSERT(fuzz_same_meta(lp_imatrix_reader_meta(ra), lp_imatrix_reader_meta(rb)));
    FUZZ_ASSERT(lp_imatrix_reader_interval_length(ra) == lp_imatrix_reader_interval_length(rb));
    FUZZ_ASSERT(lp_imatrix_reader_types(ra) == lp_imatrix_reader_types(rb));
    lp_interval x, y;
    lp_interval_init(&x);
    lp_interval_init(&y);
    for (;;) {
        int rx = lp_imatrix_reader_next(ra, &x, NULL);
        int ry = lp_imatrix_reader_next(rb, &y, NULL);
        FUZZ_ASSERT(rx == ry);
        if (rx != 1)
            break;
        FUZZ_ASSERT(x.index == y.index && x.first_insn == y.first_insn && x.insns == y.insns);
        FUZZ_ASSERT(memcmp(&x.sig, &y.sig, sizeof x.sig) == 0);
        for (unsigned t = 0; t <= LP_PROF_TYPE_MAX; t++)
            FUZZ_ASSERT(fuzz_same_table(&x.tables[t], &y.tables[t]));
    }
    FUZZ_ASSERT(fuzz_same_modules(lp_imatrix_reader_modules(ra), lp_imatrix_reader_modules(rb)));
    lp_interval_fini(&x);
    lp_interval_fini(&y);
    lp_imatrix_reader_free(ra);
    lp_imatrix_reader_free(rb);
}

static void run(const uint8_t *data, size_t size)
{
    lp_memsource ms;
    lp_imatrix_reader *r;
    lp_read_error err;
    memset(&err, 0, sizeof err);
    int rc = lp_imatrix_reader_open(lp_memsource_init(&ms, data, size), &r, &err);
    if (rc) {
        fuzz_check_error(rc, &err);
        FUZZ_ASSERT(r == NULL);
        return;
    }
    lp_membuf out = {0};
    lp_imatrix_writer *w;
    FUZZ_ASSERT(lp_imatrix_writer_create(lp_membuf_sink(&out), lp_imatrix_reader_meta(r),
                                         lp_imatrix_reader_interval_length(r),
                                         lp_imatrix_reader_types(r), &w) == 0);
    lp_interval iv;
    lp_interval_init(&iv);
    while ((rc = lp_imatrix_reader_next(r, &iv, &err)) == 1)
        FUZZ_ASSERT(lp_imatrix_writer_add(w, &iv) == 0);
    if (rc == 0) {
        FUZZ_ASSERT(lp_imatrix_writer_finish(w, lp_imatrix_reader_modules(r)) == 0);
        compare(data, size, out.data, out.size);
    } else {
        fuzz_check_error(rc, &err);
        /* The error sticks, and the interval is left empty. */
        FUZZ_ASSERT(lp_imatrix_reader_next(r, &iv, NULL) == rc);
        FUZZ_ASSERT(iv.tables[LP_PROF_EDGE].count == 0);
    }
    lp_interval_fini(&iv);
    lp_imatrix_writer_free(w);
    lp_imatrix_reader_free(r);
    lp_membuf_free(&out);
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
