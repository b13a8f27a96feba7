/*
 * engine_shuffle.c: a shuffle of a match's zone by the rules (g:shuffle, the deck kit's
 * reshuffle), and in a search's world the game's choice of sorting the cards by name
 * first. Its own file, below the search: the rules call it, and the search only sets
 * the match's flag (engine_search_world.c), so the rules never reach into the search.
 */
#include <stdlib.h>

#include "engine_internal.h"

typedef struct {
    const engine_state *st;
    const uint32_t *rank; /* a name id's place in string order */
} shuffle_order;

static int shuffle_card_cmp(const void *a, const void *b, void *ud)
{
    const shuffle_order *o = ud;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    uint32_t rx = o->rank[o->st->ents[x - 1].name], ry = o->rank[o->st->ents[y - 1].name];
    if (rx != ry)
        return rx < ry ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* In a world of a game whose table says `search_sorted_shuffle = true` (Accession) the
 * cards are sorted by name before they are shuffled, so the order they were discarded in
 * does not decide the deck: two answers that leave the same cards (Copper played alone
 * or with the other treasures) get the same deck in the same world, and two that differ
 * by one card (a Gold for a Silver) get the same deck but for that card. Without it a
 * deck-builder's worlds parted at the first reshuffle after the answer, and the answers' paired
 * differences were as noisy as unpaired ones (common random numbers lost; docs/BENCHMARKS.md, issue
 * 28). Still a uniform shuffle. */
void engine_match_shuffle(engine_match *m, engine_zone *z)
{
    if (m->canonical_shuffle && z->n > 1 && engine_intern_sorted(&m->b->names) == 0) {
        shuffle_order o = {.st = &m->st, .rank = m->b->names.rank};
        qsort_r(z->ids, z->n, sizeof *z->ids, shuffle_card_cmp, &o);
    }
    engine_zone_shuffle(&m->st, z);
}
