/* flags: the profile flag predictor (paper 002, section IV), one hand-made
 * case per rule, then against a plain reference written apart from it:
 * each set is a list kept in recency order (most recent first) searched
 * linearly, on random block streams with skewed leaders, windowed and
 * random flags, and several table shapes. */
#include <stdlib.h>

#include "lowprof/flags.h"
#include "../lp_test.h"

static lp_pfpred pred; /* about 130 KB: not on the stack */

static void test_config(void)
{
    LP_CHECK(lp_pfpred_init(&pred, NULL) == 0);
    LP_CHECK_EQ_U64(pred.config.sets, 64);
    LP_CHECK_EQ_U64(pred.config.ways, 2);
    LP_CHECK_EQ_U64(pred.config.min_skip, 4);
    lp_pfpred_config zero = {0};
    LP_CHECK(lp_pfpred_init(&pred, &zero) == 0 && pred.config.sets == 64);
    lp_pfpred_config bad = {.sets = 48};
    LP_CHECK(lp_pfpred_init(&pred, &bad) == LP_EINVAL);
    LP_CHECK_EQ_U64(pred.config.sets, 64); /* untouched */
    bad = (lp_pfpred_config){.ways = LP_PFPRED_MAX_WAYS + 1};
    LP_CHECK(lp_pfpred_init(&pred, &bad) == LP_EINVAL);
    bad = (lp_pfpred_config){.sets = 1024, .ways = 8};
    LP_CHECK(lp_pfpred_init(&pred, &bad) == LP_EINVAL);
    lp_pfpred_config big = {.sets = 1024, .ways = 4};
    LP_CHECK(lp_pfpred_init(&pred, &big) == 0);
    lp_pfpred *h = NULL;
    LP_CHECK(lp_pfpred_create(&bad, &h) == LP_EINVAL && h == NULL);
    LP_CHECK(lp_pfpred_create(NULL, &h) == 0 && h != NULL);
    LP_CHECK(h && lp_pfpred_block(h, 0x10, 0x20, 5, 0) == LP_PFPRED_NO_ENTRY);
    LP_CHECK(h && h->stats.creations == 1);
    lp_pfpred_free(h);
    lp_pfpred_free(NULL);
    lp_pfpred_stats none = {0};
    LP_CHECK(lp_pfpred_accuracy(&none) == 0.0);
}

/* Creation only when the flag is off; locked until the leader comes back. */
static void test_creation_and_lock(void)
{
    lp_pfpred_init(&pred, NULL);
    lp_pfpred_entry e;
    LP_CHECK(lp_pfpred_block(&pred, 0x1000, 0x1014, 5, 1) == LP_PFPRED_NO_ENTRY);
    LP_CHECK(!lp_pfpred_find(&pred, 0x1000, NULL)); /* flag on: nothing created */
    LP_CHECK(lp_pfpred_block(&pred, 0x1000, 0x1014, 5, 0) == LP_PFPRED_NO_ENTRY);
    LP_CHECK(lp_pfpred_find(&pred, 0x1000, &e));
    LP_CHECK(e.locked == 1 && e.predict_on == 0 && e.follow == 0x1014 && e.length == 5);
    /* Locked: no prediction on the next instance, whose leader unlocks. */
    LP_CHECK(lp_pfpred_block(&pred, 0x1000, 0x1014, 5, 0) == LP_PFPRED_NO_ENTRY);
    LP_CHECK(lp_pfpred_find(&pred, 0x1000, &e) && e.locked == 0);
    LP_CHECK_EQ_U64(pred.stats.predictions, 0);
    /* Unlocked and predicting reset: skipped; 4 of 5 fetches saved. */
    LP_CHECK(lp_pfpred_block(&pred, 0x1000, 0x1014, 5, 0) == LP_PFPRED_SKIPPED);
    LP_CHECK_EQ_U64(pred.stats.insns_saved, 4);
    LP_CHECK_EQ_U64(pred.stats.skips, 1);
    LP_CHECK_EQ_U64(pred.stats.correct, 1);
    /* The follow learned at creation stays. */
    lp_pfpred_block(&pred, 0x1000, 0x1040, 9, 0);
    LP_CHECK(lp_pfpred_find(&pred, 0x1000, &e) && e.follow == 0x1014 && e.length == 5);
    /* An entry whose second visit sees the flag on unlocks predicting set. */
    lp_pfpred_block(&pred, 0x2000, 0x2010, 6, 0);
    lp_pfpred_block(&pred, 0x2000, 0x2010, 6, 1);
    LP_CHECK(lp_pfpred_find(&pred, 0x2000, &e) && !e.locked && e.predict_on == 1);
    LP_CHECK(lp_pfpred_block(&pred, 0x2000, 0x2010, 6, 1) == LP_PFPRED_FETCHED);
    LP_CHECK_EQ_U64(pred.stats.creations, 2);
}

/* A skip of a block whose flag is on is a misprediction; the bit follows
 * the flag, so a later off instance is predicted on (fetched, wrong). */
static void test_misprediction(void)
{
    lp_pfpred_init(&pred, NULL);
    for (int i = 0; i < 2; i++)
        lp_pfpred_block(&pred, 0x3000, 0x3020, 7, 0);
    LP_CHECK(lp_pfpred_block(&pred, 0x3000, 0x3020, 7, 1) == LP_PFPRED_MISSKIPPED);
    LP_CHECK_EQ_U64(pred.stats.mispredicted_skips, 1);
    LP_CHECK_EQ_U64(pred.stats.insns_saved, 0);
    LP_CHECK(lp_pfpred_block(&pred, 0x3000, 0x3020, 7, 0) == LP_PFPRED_FETCHED);
    LP_CHECK(lp_pfpred_block(&pred, 0x3000, 0x3020, 7, 0) == LP_PFPRED_SKIPPED);
    LP_CHECK_EQ_U64(pred.stats.predictions, 3);
    LP_CHECK_EQ_U64(pred.stats.correct, 1);
    LP_CHECK(lp_pfpred_accuracy(&pred.stats) > 33.3 && lp_pfpred_accuracy(&pred.stats) < 33.4);
}

/* Blocks shorter than min_skip are predicted but never skipped. */
static void test_min_skip(void)
{
    lp_pfpred_init(&pred, NULL);
    for (int i = 0; i < 2; i++) {
        lp_pfpred_block(&pred, 0x4000, 0x400c, 3, 0);
        lp_pfpred_block(&pred, 0x5000, 0x5010, 4, 0);
    }
    LP_CHECK(lp_pfpred_block(&pred, 0x4000, 0x400c, 3, 0) == LP_PFPRED_SHORT);
    LP_CHECK(lp_pfpred_block(&pred, 0x5000, 0x5010, 4, 0) == LP_PFPRED_SKIPPED);
    LP_CHECK_EQ_U64(pred.stats.short_blocks, 1);
    LP_CHECK_EQ_U64(pred.stats.skips, 1);
    LP_CHECK_EQ_U64(pred.stats.insns_saved, 3);
    lp_pfpred_config all = {.min_skip = 1};
    lp_pfpred_init(&pred, &all);
    for (int i = 0; i < 2; i++)
        lp_pfpred_block(&pred, 0x4000, 0x4004, 1, 0);
    LP_CHECK(lp_pfpred_block(&pred, 0x4000, 0x4004, 1, 0) == LP_PFPRED_SKIPPED);
    LP_CHECK_EQ_U64(pred.stats.insns_saved, 0); /* the leader is always fetched */
}

/* LRU within a set: one set of two ways. */
static void test_lru(void)
{
    lp_pfpred_config one = {.sets = 1, .ways = 2};
    lp_pfpred_init(&pred, &one);
    lp_pfpred_block(&pred, 0xa0, 0xb0, 5, 0); /* A */
    lp_pfpred_block(&pred, 0xc0, 0xd0, 5, 0); /* B */
    lp_pfpred_block(&pred, 0xa0, 0xb0, 5, 1); /* A used again, even flag on */
    lp_pfpred_block(&pred, 0xe0, 0xf0, 5, 0); /* C evicts B */
    LP_CHECK(lp_pfpred_find(&pred, 0xa0, NULL));
    LP_CHECK(!lp_pfpred_find(&pred, 0xc0, NULL));
    LP_CHECK(lp_pfpred_find(&pred, 0xe0, NULL));
    LP_CHECK_EQ_U64(pred.stats.evictions, 1);
    /* A flag-on instance of a missing block neither creates nor evicts. */
    lp_pfpred_block(&pred, 0xc0, 0xd0, 5, 1);
    LP_CHECK_EQ_U64(pred.stats.evictions, 1);
    /* Different sets do not compete: 0x00 and 0x01 index sets 0 and 1. */
    lp_pfpred_config two = {.sets = 2, .ways = 1};
    lp_pfpred_init(&pred, &two);
    lp_pfpred_block(&pred, 0x100, 0x110, 5, 0);
    lp_pfpred_block(&pred, 0x101, 0x111, 5, 0);
    LP_CHECK(lp_pfpred_find(&pred, 0x100, NULL) && lp_pfpred_find(&pred, 0x101, NULL));
    lp_pfpred_block(&pred, 0x102, 0x112, 5, 0); /* set 0 again: evicts 0x100 */
    LP_CHECK(!lp_pfpred_find(&pred, 0x100, NULL) && lp_pfpred_find(&pred, 0x101, NULL));
    /* index_shift drops low bits: 0x100 and 0x104 share set 0 under shift 2... */
    lp_pfpred_config shifted = {.sets = 2, .ways = 1, .index_shift = 2};
    lp_pfpred_init(&pred, &shifted);
    lp_pfpred_block(&pred, 0x100, 0x110, 5, 0);
    lp_pfpred_block(&pred, 0x101, 0x111, 5, 0);
    LP_CHECK(!lp_pfpred_find(&pred, 0x100, NULL));
    lp_pfpred_block(&pred, 0x104, 0x114, 5, 0); /* ... and 0x104 goes to set 1 */
    LP_CHECK(lp_pfpred_find(&pred, 0x101, NULL) && lp_pfpred_find(&pred, 0x104, NULL));
}

/* ---- the reference ------------------------------------------------------- */

typedef struct ref_entry {
    uint64_t leader, follow;
    uint32_t length;
    int predict_on, locked;
} ref_entry;

typedef struct ref_pred {
    unsigned sets, ways, min_skip, shift;
    ref_entry *e; /* set s: e[s*ways .. s*ways + n[s]), most recent first */
    unsigned *n;
    lp_pfpred_stats st;
} ref_pred;

static void ref_init(ref_pred *r, unsigned sets, unsigned ways, unsigned min_skip, unsigned shift)
{
    *r = (ref_pred){.sets = sets, .ways = ways, .min_skip = min_skip, .shift = shift};
    r->e = calloc((size_t)sets * ways, sizeof *r->e);
    r->n = calloc(sets, sizeof *r->n);
}

/* Moves set[i] to the front (most recent), shifting the ones before it. */
static void ref_touch(ref_entry *set, unsigned i)
{
    ref_entry x = set[i];
    for (; i > 0; i--)
        set[i] = set[i - 1];
    set[0] = x;
}

static lp_pfpred_outcome ref_block(ref_pred *r, uint64_t leader, uint64_t follow, uint32_t n,
                                   int flag)
{
    unsigned s = (unsigned)((leader >> r->shift) % r->sets);
    ref_entry *set = &r->e[(size_t)s * r->ways];
    int found = -1;
    for (unsigned i = 0; i < r->n[s]; i++)
        if (set[i].leader == leader)
            found = (int)i;
    r->st.blocks++;
    if (!flag)
        r->st.blocks_off++;
    r->st.insns += n;
    lp_pfpred_outcome out = LP_PFPRED_NO_ENTRY;
    if (found >= 0 && !set[found].locked) {
        ref_entry *e = &set[found];
        r->st.predictions++;
        if (e->predict_on == flag)
            r->st.correct++;
        if (e->predict_on) {
            out = LP_PFPRED_FETCHED;
        } else if (e->length < r->min_skip) {
            out = LP_PFPRED_SHORT;
            r->st.short_blocks++;
        } else if (flag) {
            out = LP_PFPRED_MISSKIPPED;
            r->st.skips++;
            r->st.mispredicted_skips++;
        } else {
            out = LP_PFPRED_SKIPPED;
            r->st.skips++;
            r->st.insns_saved += e->length - 1;
        }
    }
    if (found >= 0) {
        set[found].locked = 0;
        set[found].predict_on = flag;
        ref_touch(set, (unsigned)found);
    } else if (!flag) {
        unsigned slot;
        if (r->n[s] < r->ways) {
            slot = r->n[s]++;
        } else {
            slot = r->ways - 1; /* the least recent */
            r->st.evictions++;
        }
        set[slot] = (ref_entry){leader, follow, n, 0, 1};
        ref_touch(set, slot);
        r->st.creations++;
    }
    return out;
}

static int stats_equal(const lp_pfpred_stats *a, const lp_pfpred_stats *b)
{
    return a->blocks == b->blocks && a->blocks_off == b->blocks_off && a->insns == b->insns &&
           a->predictions == b->predictions && a->correct == b->correct && a->skips == b->skips &&
           a->mispredicted_skips == b->mispredicted_skips && a->short_blocks == b->short_blocks &&
           a->insns_saved == b->insns_saved && a->creations == b->creations &&
           a->evictions == b->evictions;
}

/* A random stream: nblocks static blocks (leader, follow, length fixed per
 * block, leaders spread so that sets collide), visited with a skewed
 * distribution; the flag follows an on/off window over a running count with
 * some random per-block noise, as a runtime patching hot methods would. */
static void compare_random(unsigned sets, unsigned ways, unsigned min_skip, unsigned shift,
                           unsigned nblocks, uint64_t seed)
{
    lp_pfpred_config c = {.sets = sets, .ways = ways, .min_skip = min_skip, .index_shift = shift};
    LP_CHECK(lp_pfpred_init(&pred, &c) == 0);
    ref_pred r;
    ref_init(&r, sets, ways, min_skip, shift);
    lp_rng g;
    lp_rng_seed(&g, seed);
    uint64_t *lead = malloc(nblocks * sizeof *lead);
    uint32_t *len = malloc(nblocks * sizeof *len);
    uint64_t pc = 0x401000;
    for (unsigned i = 0; i < nblocks; i++) {
        pc += 2 + lp_rng_below(&g, 60);
        lead[i] = pc;
        len[i] = (uint32_t)(1 + lp_rng_below(&g, 9));
    }
    int agree = 1;
    uint64_t icount = 0, period = 5000 + lp_rng_below(&g, 20000);
    uint64_t on = lp_rng_below(&g, period + 1);
    for (unsigned step = 0; step < 200000; step++) {
        unsigned b = (unsigned)lp_rng_below(&g, nblocks);
        if (lp_rng_below(&g, 4) != 0)
            b = (unsigned)lp_rng_below(&g, 1 + nblocks / 16); /* hot blocks */
        icount += 3 + lp_rng_below(&g, 40);
        int flag = icount % period < on;
        if (lp_rng_below(&g, 50) == 0)
            flag = !flag;
        uint64_t follow = lead[b] + 5 * len[b];
        lp_pfpred_outcome x = lp_pfpred_block(&pred, lead[b], follow, len[b], flag);
        lp_pfpred_outcome y = ref_block(&r, lead[b], follow, len[b], flag);
        agree &= x == y;
    }
    LP_CHECK(agree);
    LP_CHECK(stats_equal(&pred.stats, &r.st));
    /* The tables hold the same entries. */
    int same = 1;
    for (unsigned s = 0; s < sets; s++)
        for (unsigned i = 0; i < r.n[s]; i++) {
            const ref_entry *e = &r.e[(size_t)s * ways + i];
            lp_pfpred_entry got;
            same &= lp_pfpred_find(&pred, e->leader, &got) && got.follow == e->follow &&
                    got.length == e->length && got.predict_on == e->predict_on &&
                    got.locked == e->locked;
        }
    LP_CHECK(same);
    /* Consistency every report relies on. */
    const lp_pfpred_stats *st = &pred.stats;
    LP_CHECK(st->skips <= st->predictions && st->predictions <= st->blocks);
    LP_CHECK(st->mispredicted_skips <= st->skips && st->correct <= st->predictions);
    LP_CHECK(st->insns_saved < st->insns);
    /* The stream exercised every rule. */
    LP_CHECK(st->skips > 0 && st->mispredicted_skips > 0 && st->correct < st->predictions);
    LP_CHECK(min_skip == 1 || st->short_blocks > 0);
    LP_CHECK(nblocks <= sets * ways || st->evictions > 0);
    free(lead);
    free(len);
    free(r.e);
    free(r.n);
}

int main(void)
{
    test_config();
    test_creation_and_lock();
    test_misprediction();
    test_min_skip();
    test_lru();
    uint64_t seed = 1;
    compare_random(64, 2, 4, 0, 100, seed++);   /* the paper's table, fits */
    compare_random(64, 2, 4, 0, 2000, seed++);  /* overflowing it */
    compare_random(1, 4, 4, 0, 50, seed++);     /* fully associative */
    compare_random(256, 1, 1, 0, 3000, seed++); /* direct mapped, skip all */
    compare_random(16, 8, 6, 2, 500, seed++);
    compare_random(1024, 4, 4, 1, 8000, seed++);
    return lp_test_done();
}
