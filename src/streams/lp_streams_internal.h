/* Private to streams: the digram index, the Sequitur state that the
 * grammar export reads, and the hash that merges identical streams. */
#ifndef LP_STREAMS_INTERNAL_H
#define LP_STREAMS_INTERNAL_H

#include "lowprof/streams.h"

#define LP__NONE UINT32_MAX

/* ---- the digram index ------------------------------------------------------ */

/* Open addressing with linear probing and backward-shift deletion (no
 * tombstones, so a long run of inserts and deletes never degrades), at
 * most half full. Keys are two 32-bit symbols packed high then low; the
 * all-ones key marks an empty slot and cannot occur (no live symbol is
 * all ones). Values are node indices. */
typedef struct lp__digrams {
    uint64_t *key;
    uint32_t *node;
    size_t capacity; /* a power of two, or 0 */
    size_t count;
} lp__digrams;

#define LP__DIGRAM_EMPTY UINT64_MAX

void lp__digrams_init(lp__digrams *d);
void lp__digrams_fini(lp__digrams *d);
/* Makes room for extra more entries without growing. 0 or LP_ENOMEM. */
int lp__digrams_reserve(lp__digrams *d, size_t extra);
/* The node stored for key, or LP__NONE. */
uint32_t lp__digrams_get(const lp__digrams *d, uint64_t key);
/* Stores node for key, replacing what was there. Needs room reserved. */
void lp__digrams_put(lp__digrams *d, uint64_t key, uint32_t node);
/* Removes key if present. */
void lp__digrams_del(lp__digrams *d, uint64_t key);

/* ---- Sequitur ------------------------------------------------------------- */

/* Symbol values: a terminal (below 2^30), a nonterminal (LP__SYM_RULE |
 * rule), a rule's guard (LP__SYM_GUARD | rule), or LP__SYM_FREE for a node
 * on the free list. */
#define LP__SYM_RULE 0x80000000u
#define LP__SYM_GUARD 0x40000000u
#define LP__SYM_TAGS (LP__SYM_RULE | LP__SYM_GUARD)
#define LP__SYM_FREE 0xffffffffu
#define LP__SYM_ID(v) ((v) & ~LP__SYM_TAGS)
#define LP__MAX_RULES (1u << 30)

/* Each rule is a circular doubly linked list of nodes through its guard:
 * next of the guard is the rule's first symbol, prev its last. Nodes and
 * rules live in arrays indexed by 32-bit numbers and are recycled through
 * free lists (nodes through next[], rules through uses[]). */
struct lp_sequitur {
    uint32_t *val, *prev, *next;
    uint32_t node_cap, node_top, node_free;
    uint32_t *guard, *uses; /* per rule; guard LP__NONE when the rule is free */
    uint32_t rule_cap, rule_top, rule_free, live_rules;
    lp__digrams digrams;
    uint32_t *pending; /* nodes whose digram is still to be checked */
    size_t pending_len, pending_cap;
    uint64_t length;
    int error; /* sticky */
};

/* ---- streams ---------------------------------------------------------------- */

/* Hash of a reference sequence, addresses included: the identity of a
 * stream within one trace. */
uint64_t lp__streams_ref_hash(const lp_data_ref *refs, size_t n);

#endif
