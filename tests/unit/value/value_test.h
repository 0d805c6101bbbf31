/* value tests: a profiler made from the defaults and an option string,
 * shared by the test programs (a bad string fails the test and says
 * which field). */
#ifndef LP_VALUE_TEST_H
#define LP_VALUE_TEST_H

#include <stdio.h>

#include "lowprof/value.h"
#include "../lp_test.h"

static inline lp_value_profiler *make(const char *spec)
{
    lp_value_options o;
    lp_value_options_default(&o);
    lp_value_parse_error err;
    int rc = lp_value_options_parse(spec, &o, &err);
    LP_CHECK(rc == 0);
    if (rc)
        fprintf(stderr, "  option %s: %s\n", err.field ? err.field : "?", err.why);
    lp_value_profiler *p = NULL;
    LP_CHECK(lp_value_create(&o, &p) == 0);
    return p;
}

#endif
