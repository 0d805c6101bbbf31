/* Fuzz target for the native runtime's LOWPROF parser
 * (src/frontends/rt/rt_config.c), which reads whatever text a user puts in
 * the environment of a program built with lowprof cc: any text either
 * fails with a terminated message that starts "LOWPROF: ", within the
 * buffer it was given however small, or gives a configuration whose fields
 * lie in the ranges doc/runtime.md's table gives; the same text parses the
 * same way twice. */
#include <stdlib.h>
#include <string.h>

#include "../../src/frontends/rt/rt_internal.h"
#include "fuzz_assert.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int terminated(const char *s, size_t cap)
{
    return memchr(s, '\0', cap) != NULL;
}

static void check_config(const lp__rt_config *c)
{
    FUZZ_ASSERT(c->strategy >= LP__RT_ALWAYS && c->strategy <= LP__RT_BURSTY);
    FUZZ_ASSERT(c->duty >= 1 && c->duty <= 100);
    FUZZ_ASSERT(c->period_ns >= 1000000ULL && c->period_ns <= 3600000ULL * 1000000ULL);
    FUZZ_ASSERT(c->rate >= 10 && c->rate <= 10000);
    FUZZ_ASSERT(c->threshold > 0 && c->threshold <= 1);
    FUZZ_ASSERT(c->noise >= 0 && c->noise <= 10);
    FUZZ_ASSERT(c->k >= 1 && c->k <= 1000);
    FUZZ_ASSERT(c->scout <= 50 && c->refine <= 1);
    FUZZ_ASSERT(c->burst >= 1);
    FUZZ_ASSERT(terminated(c->out, sizeof c->out) && c->out[0]);
    FUZZ_ASSERT(terminated(c->spool, sizeof c->spool));
    FUZZ_ASSERT(terminated(c->device, sizeof c->device) && !strchr(c->device, '/'));
    FUZZ_ASSERT(c->ship <= LP__RT_SHIP_INTERLEAVED);
    FUZZ_ASSERT(!c->ship || c->spool[0]);
    FUZZ_ASSERT(c->ship != LP__RT_SHIP_INTERLEAVED || c->strategy == LP__RT_PHASE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0; /* the environment's value ends at the first NUL */
    static lp__rt_config a, b;
    char err[512], again[512];
    int rc = lp__rt_config_parse(text, &a, err, sizeof err);
    FUZZ_ASSERT(rc == 0 || rc == -1);
    FUZZ_ASSERT(terminated(err, sizeof err));
    if (rc == 0) {
        FUZZ_ASSERT(err[0] == 0);
        check_config(&a);
    } else {
        FUZZ_ASSERT(strncmp(err, "LOWPROF: ", 9) == 0);
    }
    /* The same again: the same outcome, configuration and message. */
    FUZZ_ASSERT(lp__rt_config_parse(text, &b, again, sizeof again) == rc);
    FUZZ_ASSERT(strcmp(err, again) == 0 && memcmp(&a, &b, sizeof a) == 0);
    /* A small buffer: the message is cut, terminated, and nothing past
     * the buffer is written. */
    char small[24];
    size_t cap = 1 + size % 16;
    memset(small, 'x', sizeof small);
    FUZZ_ASSERT(lp__rt_config_parse(text, &b, small, cap) == rc);
    FUZZ_ASSERT(terminated(small, cap));
    for (size_t i = cap; i < sizeof small; i++)
        FUZZ_ASSERT(small[i] == 'x');
    free(text);
    return 0;
}
