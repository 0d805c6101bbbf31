/* The profile flag predictor of paper 002, section IV: a set-associative
 * block descriptor table that lets fetch skip blocks of profile instructions
 * that decode would drop because their flag is off.
 *
 * Block granularity: the caller reports each executed profile block instance
 * (leader, follow, length, flag) and one call plays fetch's lookup and then
 * decode's updates for the block's instructions. The rules and why the block
 * form is equivalent to the paper's per-instruction form are in flags.h.
 *
 * Tuned for: trace replay of millions of instances; each touches one set of
 * at most LP_PFPRED_MAX_WAYS entries and allocates nothing. */
#include "lowprof/flags.h"

static int pfpred_config_resolve(const lp_pfpred_config *in, lp_pfpred_config *out)
{
    lp_pfpred_config c = {0};
    if (in)
        c = *in;
    if (c.sets == 0)
        c.sets = LP_PFPRED_DEFAULT_SETS;
    if (c.ways == 0)
        c.ways = LP_PFPRED_DEFAULT_WAYS;
    if (c.min_skip == 0)
        c.min_skip = LP_PFPRED_DEFAULT_MIN_SKIP;
    if ((c.sets & (c.sets - 1)) != 0 || c.ways > LP_PFPRED_MAX_WAYS ||
        c.sets > LP_PFPRED_MAX_ENTRIES / c.ways || c.index_shift >= 64)
        return LP_EINVAL;
    *out = c;
    return 0;
}

int lp_pfpred_init(lp_pfpred *p, const lp_pfpred_config *config)
{
    lp_pfpred_config c;
    if (pfpred_config_resolve(config, &c) != 0)
        return LP_EINVAL;
    p->config = c;
    p->clock = 0;
    p->stats = (lp_pfpred_stats){0};
    for (size_t i = 0; i < LP_PFPRED_MAX_ENTRIES; i++)
        p->table[i] = (lp_pfpred_entry){0};
    return 0;
}

int lp_pfpred_create(const lp_pfpred_config *config, lp_pfpred **out)
{
    lp_pfpred_config c;
    if (pfpred_config_resolve(config, &c) != 0)
        return LP_EINVAL;
    lp_pfpred *p = lp_malloc(sizeof *p);
    if (!p)
        return LP_ENOMEM;
    lp_pfpred_init(p, &c);
    *out = p;
    return 0;
}

void lp_pfpred_free(lp_pfpred *p)
{
    lp_free(p);
}

/* Index in table of the first way of leader's set. */
static inline size_t pfpred_set(const lp_pfpred *p, uint64_t leader)
{
    size_t set = (size_t)((leader >> p->config.index_shift) & (p->config.sets - 1));
    return set * p->config.ways;
}

/* Index in table of leader's entry, or LP_PFPRED_MAX_ENTRIES if none. */
static inline size_t pfpred_lookup(const lp_pfpred *p, uint64_t leader)
{
    size_t first = pfpred_set(p, leader);
    for (size_t i = first; i < first + p->config.ways; i++)
        if (p->table[i].valid && p->table[i].leader == leader)
            return i;
    return LP_PFPRED_MAX_ENTRIES;
}

/* The way a creation takes: an empty one, else the least recently used. */
static lp_pfpred_entry *pfpred_victim(lp_pfpred *p, uint64_t leader)
{
    lp_pfpred_entry *e = &p->table[pfpred_set(p, leader)], *victim = &e[0];
    for (unsigned w = 0; w < p->config.ways; w++) {
        if (!e[w].valid)
            return &e[w];
        if (e[w].lru < victim->lru)
            victim = &e[w];
    }
    p->stats.evictions++;
    return victim;
}

lp_pfpred_outcome lp_pfpred_block(lp_pfpred *p, uint64_t leader, uint64_t follow, uint32_t ninsns,
                                  int flag)
{
    lp_pfpred_stats *st = &p->stats;
    uint32_t len = ninsns ? ninsns : 1;
    flag = flag != 0;
    st->blocks++;
    st->blocks_off += !flag;
    st->insns += len;

    /* Fetch: only an unlocked entry may be read. */
    size_t i = pfpred_lookup(p, leader);
    lp_pfpred_entry *e = i < LP_PFPRED_MAX_ENTRIES ? &p->table[i] : NULL;
    lp_pfpred_outcome out = LP_PFPRED_NO_ENTRY;
    if (e && !e->locked) {
        st->predictions++;
        st->correct += e->predict_on == flag;
        if (e->predict_on) {
            out = LP_PFPRED_FETCHED;
        } else if (e->length < p->config.min_skip) {
            out = LP_PFPRED_SHORT;
            st->short_blocks++;
        } else {
            st->skips++;
            if (flag) {
                /* Decode meets the leader with the flag on and refetches
                 * the rest of the block: nothing saved. */
                out = LP_PFPRED_MISSKIPPED;
                st->mispredicted_skips++;
            } else {
                out = LP_PFPRED_SKIPPED;
                st->insns_saved += e->length - 1; /* the leader is fetched */
            }
        }
    }

    /* Decode. A correct skip decodes the leader alone; every other outcome
     * decodes the whole block; both visit the entry through its leader. */
    if (e) {
        e->locked = 0; /* the leader seen again */
        e->predict_on = (uint8_t)flag;
        e->lru = ++p->clock;
    } else if (!flag) {
        /* Created only with the flag off, so that control runs through the
         * whole block (profile branches are dropped) and the follow and the
         * length it learns are the block's. */
        e = pfpred_victim(p, leader);
        *e = (lp_pfpred_entry){.leader = leader,
                               .follow = follow,
                               .lru = ++p->clock,
                               .length = len,
                               .valid = 1,
                               .predict_on = 0,
                               .locked = 1};
        st->creations++;
    }
    return out;
}

int lp_pfpred_find(const lp_pfpred *p, uint64_t leader, lp_pfpred_entry *out)
{
    size_t i = pfpred_lookup(p, leader);
    if (i == LP_PFPRED_MAX_ENTRIES)
        return 0;
    if (out)
        *out = p->table[i];
    return 1;
}

double lp_pfpred_accuracy(const lp_pfpred_stats *s)
{
    return s->predictions ? 100.0 * (double)s->correct / (double)s->predictions : 0.0;
}
