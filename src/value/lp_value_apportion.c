/* value: the final estimation's arithmetic (paper 004, "Invariance
 * estimation" and the appendix's "Estimation algorithm"). The slots give,
 * per value that was ever active, the hits and misses counted while it was,
 * and per instruction the total of every sample its slots saw. A value's
 * samples come from three sources: its own hits; part of the misses other
 * values' regions counted; and part of the samples the total counter saw
 * that no hit or miss counter kept (lost when an active value was
 * re-selected or a counter pair halved). The exact shares are lowprof's
 * reading of the paper (doc/value.md).
 *
 * Also the confidence attached to an estimate. Pure functions, no state;
 * n is the number of values of one instruction, usually a handful. */
#include "lp_value_internal.h"

/* A value's invariance in its own regions, leaving out the sample that
 * opened each region: that sample was a hit only because it chose the
 * value, and in the short regions of a value soon re-selected away it
 * would otherwise make a rare value look invariant. Halving may have
 * taken part of those samples too; the clamps keep the ratio in [0, 1]. */
static double inv_of(const lp_value_counts *v)
{
    uint64_t opened = v->regions < v->hits ? v->regions : v->hits;
    uint64_t seen = v->hits + v->misses - opened;
    return seen ? (double)(v->hits - opened) / (double)seen : 0.0;
}

/* The share of value i's misses that the other observed values explain:
 * min(1, the sum of their invariances / (1 - inv(i))). */
static double explained(const lp_value_counts *vi, double sum_inv, double others_hits)
{
    double inv = inv_of(vi);
    if (!vi->misses || others_hits <= 0 || inv >= 1)
        return 0;
    double share = (sum_inv - inv) / (1 - inv);
    return share > 1 ? 1 : share;
}

void lp_value_apportion(const lp_value_counts *v, size_t n, uint64_t total, double *est,
                        double *out_other)
{
    double other = 0, seen = 0, sum_inv = 0, sum_hits = 0;
    for (size_t i = 0; i < n; i++) {
        est[i] = (double)v[i].hits;
        seen += (double)(v[i].hits + v[i].misses);
        sum_inv += inv_of(&v[i]);
        sum_hits += (double)v[i].hits;
    }
    /* The explained misses of value i go to the other values in proportion
     * to their hits: value j receives hits(j) * (W - w(j)), with w(i) value
     * i's explained misses per hit of the others and W the sum of the w,
     * which keeps this linear in n. The unexplained rest is other. */
    double big_w = 0;
    for (size_t i = 0; i < n; i++) {
        double others_hits = sum_hits - (double)v[i].hits;
        double share = explained(&v[i], sum_inv, others_hits);
        other += (double)v[i].misses * (1 - share);
        if (share > 0)
            big_w += (double)v[i].misses * share / others_hits;
    }
    for (size_t i = 0; i < n; i++) {
        double others_hits = sum_hits - (double)v[i].hits;
        double share = explained(&v[i], sum_inv, others_hits);
        double w_i = share > 0 ? (double)v[i].misses * share / others_hits : 0;
        est[i] += (double)v[i].hits * (big_w - w_i);
    }
    /* Samples no counter kept: each value had its own invariance's share of
     * them (scaled down if the invariances add up to more than one), the
     * rest belongs to values never active. */
    double unaccounted = (double)total > seen ? (double)total - seen : 0;
    double scale = sum_inv > 1 ? 1 / sum_inv : 1;
    for (size_t i = 0; i < n; i++)
        est[i] += unaccounted * inv_of(&v[i]) * scale;
    other += unaccounted * (1 - sum_inv * scale);
    *out_other = other > 0 ? other : 0;
}

double lp_value_confidence(double inv, uint64_t n)
{
    if (!n)
        return 0;
    if (inv < 0)
        inv = 0;
    if (inv > 1)
        inv = 1;
    const double z = 1.959964; /* two-sided 95 % */
    double nn = (double)n, z2 = z * z;
    double half = z / (1 + z2 / nn) * lp_sqrt(inv * (1 - inv) / nn + z2 / (4 * nn * nn));
    double c = 1 - half;
    return c < 0 ? 0 : c > 1 ? 1 : c;
}
