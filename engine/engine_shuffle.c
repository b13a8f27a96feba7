/*
 * engine_shuffle.c: a shuffle of a match's zone by the rules (g:shuffle, the deck kit's
 * reshuffle), and in a search's world the game's choice of sorting the cards by name
 * first. Its own file, below the search: the rules call it, and the search only sets
 * the match's flag (engine_search_world.c), so the rules never reach into the search.
 */
#include <stdlib.h>
#include <string.h>

#include "dh_grow.h"
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

typedef struct {
    uint64_t key;
    uint32_t id;
} shuffle_keyed;

static int shuffle_key_cmp(const void *a, const void *b)
{
    const shuffle_keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* splitmix64's finaliser: every bit of x spread over the key */
static uint64_t shuffle_mix(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* In a world of a game whose table says `search_keyed_shuffle = true` (Accession) a shuffle
 * orders the cards by a key made of the world's seed, the zone, how many times the world
 * has shuffled that zone, and the card's name and copy (the k-th card of that name, the
 * cards sorted by name first): it draws nothing from the world's generator. So in one world
 * two answers that leave decks differing by one card (a Province or a Duchy) get the same
 * deck but for that card, every other card in the same order (the sorted shuffle moves
 * every card whose name sorts between the two), and an answer's draws and reshuffles never
 * move the other seats' shuffles (with the generator they took its next numbers, which an
 * extra reshuffle moved): the paired worlds share their draws after the answer. Still a
 * uniform shuffle (distinct random keys, sorted). -1 when out of memory (not shuffled). */
static int shuffle_keyed_zone(engine_match *m, engine_zone *z)
{
    if (z < m->st.zones || z >= m->st.zones + m->st.nzones)
        return -1;
    size_t zi = (size_t)(z - m->st.zones), had = m->zone_shuffles_cap;
    if (engine_intern_sorted(&m->b->names) < 0 ||
        dh_grow(&m->zone_shuffles, &m->zone_shuffles_cap, zi + 1, sizeof *m->zone_shuffles, 16) < 0)
        return -1;
    if (m->zone_shuffles_cap > had) /* a zone not shuffled yet: none so far */
        memset(m->zone_shuffles + had, 0, (m->zone_shuffles_cap - had) * sizeof *m->zone_shuffles);
    shuffle_keyed *k = malloc(z->n * sizeof *k);
    if (!k)
        return -1;
    shuffle_order o = {.st = &m->st, .rank = m->b->names.rank};
    qsort_r(z->ids, z->n, sizeof *z->ids, shuffle_card_cmp, &o);
    uint64_t zone = shuffle_mix(m->shuffle_seed ^ (zi + 1) * 0x9e3779b97f4a7c15ULL ^
                                (uint64_t)m->zone_shuffles[zi]++ * 0xd1342543de82ef95ULL);
    uint32_t copy = 0;
    for (uint32_t i = 0; i < z->n; i++) {
        uint32_t name = m->st.ents[z->ids[i] - 1].name;
        copy = i && name == m->st.ents[z->ids[i - 1] - 1].name ? copy + 1 : 0;
        const engine_name *nm = &m->b->names.v[name];
        uint64_t h = dh_fnv1a(DH_FNV_START, nm->s, nm->len);
        k[i] = (shuffle_keyed){shuffle_mix(zone ^ shuffle_mix(h + copy)), z->ids[i]};
    }
    qsort(k, z->n, sizeof *k, shuffle_key_cmp);
    for (uint32_t i = 0; i < z->n; i++)
        z->ids[i] = k[i].id;
    free(k);
    engine_zone_touch(&m->st, z);
    return 0;
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
    if (m->keyed_shuffle && z->n > 1 && shuffle_keyed_zone(m, z) == 0)
        return;
    if (m->canonical_shuffle && z->n > 1 && engine_intern_sorted(&m->b->names) == 0) {
        shuffle_order o = {.st = &m->st, .rank = m->b->names.rank};
        qsort_r(z->ids, z->n, sizeof *z->ids, shuffle_card_cmp, &o);
    }
    engine_zone_shuffle(&m->st, z);
}
