/* value: the options. The defaults are valid; an option string sets the
 * fields it names and leaves the rest; every kind of bad string is refused
 * with the code, the field's canonical name and the offset of the
 * offending text; footprint and create refuse invalid options. */
#include <string.h>

#include "lowprof/value.h"
#include "../lp_test.h"

static int parse(const char *text, lp_value_options *o, lp_value_parse_error *err)
{
    lp_value_options_default(o);
    memset(err, 0, sizeof *err);
    return lp_value_options_parse(text, o, err);
}

static void check_error(const char *text, int code, const char *field, size_t offset,
                        size_t length)
{
    lp_value_options o;
    lp_value_parse_error err;
    int rc = parse(text, &o, &err);
    LP_CHECK(rc == code);
    if (field)
        LP_CHECK(err.field && strcmp(err.field, field) == 0);
    else
        LP_CHECK(err.field == NULL);
    LP_CHECK_EQ_U64(err.offset, offset);
    LP_CHECK_EQ_U64(err.length, length);
    LP_CHECK(err.why != NULL);
    if (rc != code || (field && (!err.field || strcmp(err.field, field))))
        fprintf(stderr, "  for \"%s\": rc %d field %s why %s\n", text, rc,
                err.field ? err.field : "(null)", err.why ? err.why : "(null)");
}

static void test_defaults(void)
{
    lp_value_options o;
    lp_value_options_default(&o);
    const char *field = "x";
    LP_CHECK(lp_value_options_check(&o, &field, NULL) == 0);
    LP_CHECK_EQ_U64(o.slots, 256);
    LP_CHECK_EQ_U64(o.pc_bits, 32);
    LP_CHECK_EQ_U64(o.value_bits, 32);
    LP_CHECK_EQ_U64(o.hit_bits, 8);
    LP_CHECK_EQ_U64(o.total_bits, 16);
    LP_CHECK(o.clock == 1.0);
    LP_CHECK(o.classes == LP_VALUE_CLASS_LOAD);
    LP_CHECK(lp_value_footprint(&o) > 0);
}

static void test_good_string(void)
{
    lp_value_options o;
    lp_value_parse_error err;
    int rc = parse("slots=64,pc-bits=16,value-bits=32,clock=0.5,classes=load+cond,"
                   "resample=123456789012,high=0.95,low=0.05,top=8,mask-bits=3,match=5",
                   &o, &err);
    LP_CHECK(rc == 0);
    LP_CHECK_EQ_U64(o.slots, 64);
    LP_CHECK_EQ_U64(o.pc_bits, 16);
    LP_CHECK_EQ_U64(o.value_bits, 32);
    LP_CHECK(o.clock == 0.5);
    LP_CHECK(o.classes == (LP_VALUE_CLASS_LOAD | LP_VALUE_CLASS_COND));
    LP_CHECK_EQ_U64(o.resample, 123456789012ULL);
    LP_CHECK(o.high == 0.95 && o.low == 0.05);
    LP_CHECK_EQ_U64(o.top, 8);
    LP_CHECK_EQ_U64(o.mask_bits, 3);
    LP_CHECK_EQ_U64(o.match, 5);
    /* untouched fields keep their defaults */
    LP_CHECK_EQ_U64(o.buffer, 64);
    LP_CHECK_EQ_U64(o.hit_bits, 8);

    LP_CHECK(parse("", &o, &err) == 0);
    LP_CHECK_EQ_U64(o.slots, 256);
    LP_CHECK(parse("classes=all", &o, &err) == 0);
    LP_CHECK(o.classes == LP_VALUE_CLASS_ALL);
    /* a later field overrides an earlier one */
    LP_CHECK(parse("slots=8,slots=16", &o, &err) == 0);
    LP_CHECK_EQ_U64(o.slots, 16);
}

static void test_bad_strings(void)
{
    /* the brief's own example with one field out of range */
    check_error("slots=64,pc-bits=99,value-bits=32", LP_EINVAL, "pc-bits", 17, 2);
    check_error("slotz=64", LP_ESPEC, NULL, 0, 5);
    check_error("slots=64,bogus=1", LP_ESPEC, NULL, 9, 5);
    check_error("clock=fast", LP_ESPEC, "clock", 6, 4);
    check_error("clock=0.5.5", LP_ESPEC, "clock", 6, 5);
    check_error("clock=0", LP_EINVAL, "clock", 6, 1);
    check_error("slots", LP_ESPEC, "slots", 5, 0);
    check_error("slots=", LP_ESPEC, "slots", 6, 0);
    check_error("slots=-3", LP_ESPEC, "slots", 6, 2);
    check_error("slots=99999999999", LP_EINVAL, "slots", 6, 11);
    check_error("slots=0", LP_EINVAL, "slots", 6, 1);
    check_error("slots=4,", LP_ESPEC, NULL, 8, 0);
    check_error("classes=load+jump", LP_ESPEC, "classes", 8, 9);
    check_error("seed=0", LP_EINVAL, "seed", 5, 1);
    /* cross-field errors name the field the check blames, at its value */
    check_error("low=0.9", LP_EINVAL, "low", 4, 3);
    check_error("mask-bits=2,match=4", LP_EINVAL, "match", 18, 1);
    check_error("hit-bits=12,total-bits=10", LP_EINVAL, "total-bits", 23, 2);
    check_error("min-profiles=9", LP_EINVAL, "min-profiles", 13, 1);
    /* the field at fault was never given: the error points at the end */
    check_error("max-profiles=1", LP_EINVAL, "min-profiles", 14, 0);
}

static void test_invalid_refused(void)
{
    lp_value_options o;
    lp_value_options_default(&o);
    o.split_max = 0;
    const char *field = NULL, *why = NULL;
    LP_CHECK(lp_value_options_check(&o, &field, &why) == LP_EINVAL);
    LP_CHECK(field && strcmp(field, "split-max") == 0);
    LP_CHECK(lp_value_footprint(&o) == 0);
    static char not_null;
    lp_value_profiler *p = (lp_value_profiler *)(void *)&not_null;
    LP_CHECK(lp_value_create(&o, &p) == LP_EINVAL);
    LP_CHECK(p == NULL);
    /* init refuses memory that is too small */
    lp_value_options_default(&o);
    o.slots = 4;
    static uint64_t mem[64];
    LP_CHECK(lp_value_footprint(&o) > sizeof mem);
    LP_CHECK(lp_value_init(mem, sizeof mem, &o, &p) == LP_EINVAL);
}

int main(void)
{
    test_defaults();
    test_good_string();
    test_bad_strings();
    test_invalid_refused();
    return lp_test_done();
}
