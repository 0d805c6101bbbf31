/* Fuzz target for the event trace reader: the events it returns are
 * written to a new trace, and when the whole input was accepted the two
 * are read side by side and must agree event for event. */
#include "fuzz_common.h"

static void compare(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    lp_memsource ma, mb;
    lp_evtrace_reader *ra, *rb;
    FUZZ_ASSERT(lp_evtrace_reader_open(lp_memsource_init(&ma, a, an), &ra, NULL) == 0);
    FUZZ_ASSERT(lp_evtrace_reader_open(lp_memsource_init(&mb, b, bn), &rb, NULL) == 0);
    FUZZ_ASSERT(fuzz_same_meta(lp_evtrace_reader_meta(ra), lp_evtrace_reader_meta(rb)));
    for (;;) {
        lp_event x, y;
        int rx = lp_evtrace_reader_next(ra, &x, NULL);
        int ry = lp_evtrace_reader_next(rb, &y, NULL);
        FUZZ_ASSERT(rx == ry);
        if (rx != 1)
            break;
        FUZZ_ASSERT(memcmp(&x, &y, sizeof x) == 0);
    }
    FUZZ_ASSERT(fuzz_same_modules(lp_evtrace_reader_modules(ra), lp_evtrace_reader_modules(rb)));
    lp_evtrace_reader_free(ra);
    lp_evtrace_reader_free(rb);
}

static void run(const uint8_t *data, size_t size)
{
    lp_memsource ms;
    lp_evtrace_reader *r;
    lp_read_error err;
    memset(&err, 0, sizeof err);
    int rc = lp_evtrace_reader_open(lp_memsource_init(&ms, data, size), &r, &err);
    if (rc) {
        fuzz_check_error(rc, &err);
        FUZZ_ASSERT(r == NULL);
        return;
    }
    lp_membuf out = {0};
    lp_evtrace_writer *w;
    FUZZ_ASSERT(lp_evtrace_writer_create(lp_membuf_sink(&out), lp_evtrace_reader_meta(r), &w) == 0);
    lp_event ev;
    while ((rc = lp_evtrace_reader_next(r, &ev, &err)) == 1)
        FUZZ_ASSERT(lp_evtrace_writer_add(w, &ev) == 0);
    if (rc == 0) {
        FUZZ_ASSERT(lp_evtrace_writer_finish(w, lp_evtrace_reader_modules(r)) == 0);
        compare(data, size, out.data, out.size);
    } else {
        fuzz_check_error(rc, &err);
        FUZZ_ASSERT(lp_evtrace_reader_next(r, &ev, NULL) == rc);
    }
    lp_evtrace_writer_free(w);
    lp_evtrace_reader_free(r);
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
