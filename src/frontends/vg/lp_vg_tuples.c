/* The stream-compression pipeline inside the tool (stratified-sampling
 * paper, Fig. 1): the selector hands tuples to one compressor, whose
 * messages the software side folds into estimated value, edge and
 * call-target profiles as they are "interrupted" out. Everything runs online,
 * in the same pass as the exhaustive builders.
 *
 * The helpers that see loads, branches and calls call lp_vg_tuple with what
 * core's lp_tuple_select would pick from the same event, so a replay of the
 * run's event trace through the same compressor gives the same messages. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"

#include "lp_vg.h"

static lp_estimator lp_vg_estimator;

void lp_vg_tuples_flush(void)
{
    lp_compressor_push_many(lp_vg_compressor, lp_vg_tuple_buf, lp_vg_tuple_count);
    lp_vg_tuple_count = 0;
}

Bool lp_vg_tuples_parse(const HChar *s, UInt *out)
{
    static const struct {
        const HChar *name;
        UInt type;
    } names[] = {{"value", LP_TUPLE_VALUE},
                 {"edge", LP_TUPLE_EDGE},
                 {"call-target", LP_TUPLE_CALL_TARGET}};
    UInt mask = 0;
    while (*s) {
        const HChar *e = s;
        while (*e && *e != ',')
            e++;
        UInt found = 0;
        for (UInt i = 0; i < sizeof names / sizeof names[0]; i++)
            if ((SizeT)(e - s) == VG_(strlen)(names[i].name) &&
                VG_(strncmp)(s, names[i].name, (SizeT)(e - s)) == 0)
                found = 1u << names[i].type;
        if (!found)
            return False;
        mask |= found;
        s = *e ? e + 1 : e;
    }
    *out = mask;
    return mask != 0;
}

void lp_vg_tuples_init(void)
{
    if (!lp_vg_clo_tuples)
        return;
    lp_compressor_spec spec;
    size_t pos = 0;
    const char *why = "";
    const HChar *text = lp_vg_clo_compressor ? lp_vg_clo_compressor : "H[P256]2048";
    if (lp_compressor_spec_parse(text, &spec, &pos, &why) != 0)
        VG_(fmsg_bad_option)("--compressor", "at character %lu: %s\n", (unsigned long)pos, why);
    if (lp_estimator_init(&lp_vg_estimator) != 0 ||
        lp_compressor_create(&spec, &lp_vg_clo_cost, lp_vg_clo_seed, lp_estimator_on_messages,
                             &lp_vg_estimator, &lp_vg_compressor) != 0)
        VG_(fmsg_bad_option)("--compressor", "cannot build compressor '%s'\n", text);
}

void lp_vg_tuples_finish(lp_profile_set *set)
{
    if (!lp_vg_compressor)
        return;
    lp_vg_tuples_flush();
    lp_compressor_finish(lp_vg_compressor);
    lp_compressor_stats st;
    lp_compressor_get_stats(lp_vg_compressor, &st);
    char spec[128];
    lp_compressor_spec_format(lp_compressor_get_spec(lp_vg_compressor), spec, sizeof spec);
    lp_meta *m = &set->meta;
    lp_meta_set(m, "compressor", spec);
    lp_vg_meta_u64(m, "compressor-seed", lp_vg_clo_seed);
    lp_vg_meta_u64(m, "compressor-tuples", st.tuples);
    lp_vg_meta_u64(m, "compressor-messages", st.messages);
    lp_vg_meta_u64(m, "compressor-first-level-messages", st.first_level_messages);
    lp_vg_meta_u64(m, "compressor-interrupts", st.interrupts);
    lp_vg_meta_u64(m, "compressor-cycles", st.cycles);
    lp_vg_meta_u64(m, "cost-buffer-messages", lp_vg_clo_cost.buffer_messages);
    lp_vg_meta_u64(m, "cost-cycles-per-interrupt", lp_vg_clo_cost.cycles_per_interrupt);
    lp_vg_meta_u64(m, "cost-cycles-per-message", lp_vg_clo_cost.cycles_per_message);
    if (lp_vg_estimator.status != 0)
        lp_meta_set(m, "compressor-error", "out of memory folding messages");
    static const UInt types[] = {LP_PROF_VALUE, LP_PROF_EDGE, LP_PROF_CALL_TARGET};
    static const UInt tuples[] = {LP_TUPLE_VALUE, LP_TUPLE_EDGE, LP_TUPLE_CALL_TARGET};
    char list[64] = "";
    for (UInt i = 0; i < 3; i++) {
        if (!(lp_vg_clo_tuples & (1u << tuples[i])))
            continue;
        if (list[0])
            VG_(strcat)(list, ",");
        VG_(strcat)(list, lp_profile_type_name(types[i]));
        const lp_profile *est = lp_estimator_profile(&lp_vg_estimator, types[i]);
        lp_profile *p = lp_profile_set_find(set, types[i], LP_PHASE_NONE);
        if (!p && lp_profile_set_add(set, types[i], LP_PHASE_NONE, &p) != 0)
            continue;
        /* The estimate takes the place of the exhaustive builder, which
         * lowprof record switches off for these types. */
        lp_table_clear(&p->table);
        if (lp_table_merge(&p->table, &est->table) != 0)
            lp_meta_set(m, "compressor-error", "out of memory copying estimates");
    }
    lp_meta_set(m, "estimated-types", list);
}
